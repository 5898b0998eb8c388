// "Check against your box, once" ("#tt=KIND&check=PROFILE[&from=GAME]"): every value of a scoring
// profile that no rulebook confirms, with where the board prints it (the profile's "where", in
// the reader's language), its numbers to correct and a tick to confirm them; saved in one go as
// the group's own profile (POST /profiles with "checked": the server marks those values verified
// and records when), for this phone or for a league. Opened from the new-game form's profile
// picker and from a game's "not checked" badge. Loaded on this route only, with its strings
// (i18n/tabletop.boxcheck.*.json) and its style (tabletop/boxcheck.css).
import { h } from "../dom.js";
import { t, lang, has } from "../i18n.js";
import { replaceKeepingFocus } from "../view.js";
import { leaguePicker } from "../league-picker.js";
import { call, gameRoute } from "./shared.js";
import { profileName, rememberProfile, checkedDate } from "./profiles.js";

// the order a group meets the values in its box; values a profile adds later come after them
const ORDER = ["discharge", "doctor", "nurse", "doctor_purple", "treatment_room", "patient_left", "time_spent",
	"income_treated", "wage", "hall_of_fame", "solitaire_goals"];
const META = new Set(["verified", "source", "where", "checked_at"]);

let styled = false;
function addStyle() {
	if (styled) return;
	styled = true;
	document.head.append(h("link", { rel: "stylesheet", href: "tabletop/boxcheck.css" }));
}

const label = (key, fallback) => (has(key) ? t(key) : fallback);

/** A number's label: per value and member, per member, or by its place in a list. */
function numberLabel(key, member, i, item) {
	if (item && typeof item === "object") return label(`tt.box.title.${item.title}`, item.title);
	if (i === undefined) return label(`tt.box.m.${key}.${member}`, label(`tt.box.m.${member}`, member));
	if (key === "discharge") return t(i === 0 ? "tt.box.one_patient" : "tt.box.n_patients", { n: i + 1 });
	if (key === "treatment_room") return t("tt.box.floor", { n: i });
	if (key === "solitaire_goals") return t("tt.box.goal_n", { n: i + 1 });
	return String(i + 1);
}

/** The numbers (and names) of value v: {ptr (its JSON pointer), label, orig, neg, text}. A
 * penalty (a negative number) is typed without its sign, which the screen shows. */
function fieldsOf(key, v) {
	const out = [];
	const add = (ptr, lab, orig) => out.push({ ptr, label: lab, orig, text: typeof orig === "string", neg: typeof orig === "number" && orig < 0 });
	for (const [m, x] of Object.entries(v)) {
		if (META.has(m)) continue;
		const at = `/values/${key}/${m}`;
		if (Number.isInteger(x)) add(at, numberLabel(key, m), x);
		else if (Array.isArray(x))
			x.forEach((y, i) => {
				if (Number.isInteger(y) || typeof y === "string") add(`${at}/${i}`, numberLabel(key, m, i), y);
				else if (y && Number.isInteger(y.min)) add(`${at}/${i}/min`, numberLabel(key, m, i, y), y.min);
			});
	}
	return out;
}

/** Sets the member at ptr ("/values/doctor/red") of doc. */
function setAt(doc, ptr, value) {
	const path = ptr.split("/").slice(1);
	const last = path.pop();
	let o = doc;
	for (const p of path) o = o[p];
	o[last] = value;
}

/** "Our box (12 May 2025)": today in the reader's language, short. */
const defaultName = () => t("tt.box.default_name", { date: checkedDate(new Date().toISOString(), "medium") });

/** A name the group has not given yet ("goal-1", the shipped placeholder) shows as an empty field. */
const PLACEHOLDER_NAME = /^goal-\d+$/;
const shown = (f) => (f.text ? (PLACEHOLDER_NAME.test(f.orig) ? "" : f.orig) : String(Math.abs(f.orig)));

/** What the group typed, as the profile stores it (a string the server will refuse stays one; an
 * empty name keeps the one it had). */
function typed(f, raw) {
	if (f.text) return raw.trim() || f.orig;
	return /^\s*\d+\s*$/.test(raw) ? Number(raw) * (f.neg ? -1 : 1) : raw;
}

export function openCheck(app, kind, profileId, from) {
	addStyle();
	const M = {
		profile: null, loadErr: null, values: [], // the values to check: [{key, v, fields}]
		draft: {}, // key → {ticked, nums: {ptr: text}}
		name: null, busy: false, err: null, badPtr: null, saved: null, pick: null,
	};
	let closed = false;
	const back = from ? gameRoute(kind, from) : `#tt=${kind}`;

	const stateOf = (key) => {
		const d = M.draft[key];
		const fixed = M.values.find((x) => x.key === key).fields.some((f) => d.nums[f.ptr] !== shown(f));
		return !d.ticked ? "todo" : fixed ? "fixed" : "same";
	};
	const nTicked = () => M.values.filter((x) => M.draft[x.key].ticked).length;

	/** The tick, the state word and the count after an input, in place (typing is not redrawn). */
	function refreshValue(key) {
		const box = app.querySelector(`fieldset[data-key="${key}"]`);
		if (!box) return;
		const st = stateOf(key);
		box.querySelector("input[data-confirm]").checked = M.draft[key].ticked;
		const chip = box.querySelector(".bc-state");
		chip.textContent = t(`tt.box.state.${st}`);
		chip.dataset.state = st;
		const count = app.querySelector("#bc-progress");
		if (count) count.textContent = t("tt.box.progress", { n: nTicked(), total: M.values.length });
	}

	function numberInput(key, f) {
		const d = M.draft[key];
		const bad = M.badPtr === f.ptr;
		const input = h("input", {
			type: f.text ? "text" : "number", inputmode: f.text ? null : "numeric", min: f.text ? null : "0", step: f.text ? null : "1",
			maxlength: f.text ? 32 : null, autocomplete: "off", value: d.nums[f.ptr], "data-ptr": f.ptr,
			"aria-invalid": bad ? "true" : null, "aria-describedby": bad ? "bc-bad" : null,
			oninput: (e) => {
				d.nums[f.ptr] = e.target.value;
				if (e.target.value !== shown(f)) d.ticked = true; // corrected against the box
				refreshValue(key);
			},
		});
		return h("label", { class: `bc-num${f.text ? " bc-text" : ""}` }, h("span", { class: "bc-num-label" }, f.label),
			h("span", { class: "bc-num-box" }, f.neg ? h("span", { class: "bc-sign", "aria-hidden": "true" }, "−") : null, input,
				f.neg ? h("span", { class: "sr-only" }, t("tt.box.lost")) : null));
	}

	/** The message under the value the server refused, with the range it takes. */
	function badLine(f) {
		const m = /\[(-?\d+), (-?\d+)\]/.exec(M.err.message || "");
		let text = t("tt.box.bad");
		if (m) {
			const [lo, hi] = f.neg ? [-Number(m[2]), -Number(m[1])] : [Number(m[1]), Number(m[2])];
			text = t("tt.box.bad_range", { lo, hi });
		}
		return h("p", { class: "error bc-bad", id: "bc-bad" }, text);
	}

	function valueBox({ key, v, fields }) {
		const d = M.draft[key];
		const st = stateOf(key);
		const where = (v.where && (v.where[lang()] || v.where.en)) || "";
		const bad = fields.find((f) => f.ptr === M.badPtr);
		return h("fieldset", { class: "bc-value", "data-key": key },
			h("legend", {}, label(`tt.box.v.${key}`, key)),
			where ? h("p", { class: "bc-where" }, h("strong", {}, `${t("tt.box.where")} `), where) : null,
			h("div", { class: `bc-nums${fields.length > 1 ? " bc-grid" : ""}` }, fields.map((f) => numberInput(key, f))),
			bad ? badLine(bad) : null,
			h("div", { class: "bc-confirm" },
				h("label", { class: "check" }, h("input", { type: "checkbox", "data-confirm": key, checked: d.ticked,
					onchange: (e) => ((d.ticked = e.target.checked), refreshValue(key)) }), h("span", {}, t("tt.box.matches"))),
				h("span", { class: "bc-state", "data-state": st }, t(`tt.box.state.${st}`))));
	}

	function saveBox() {
		if (M.pick) {
			M.pick.label.firstChild.textContent = t("tt.box.keep");
			M.pick.select.options[0].text = t("tt.box.keep_phone");
		}
		const general = M.err && !M.badPtr;
		return h("section", { class: "panel bc-save" },
			h("p", { id: "bc-progress", role: "status" }, t("tt.box.progress", { n: nTicked(), total: M.values.length })),
			h("p", { class: "muted" }, t("tt.box.left_unchecked")),
			h("label", { class: "field" }, h("span", {}, t("tt.box.name")),
				h("input", { type: "text", id: "bc-name", maxlength: 64, autocomplete: "off", value: M.name, oninput: (e) => (M.name = e.target.value) })),
			M.pick ? M.pick.label : h("p", { class: "muted" }, t("tt.box.on_phone")),
			general ? h("p", { class: "error", role: "alert", id: "bc-error" }, M.err.key ? t(M.err.key) : M.err.status === 0 ? t("error.network") : M.err.message) : null,
			M.badPtr ? h("p", { class: "error", role: "alert", id: "bc-error" }, t("tt.box.bad_title", { value: label(`tt.box.v.${M.badPtr.split("/")[2]}`, "") })) : null,
			h("button", { type: "submit", class: "primary wide", id: "bc-save", disabled: M.busy }, t(M.busy ? "tt.box.saving" : "tt.box.save")));
	}

	function savedPanel() {
		const s = M.saved;
		return h("section", { class: "panel", id: "bc-saved" },
			h("h1", {}, t("tt.box.saved_title")),
			h("p", {}, t("tt.box.saved_game", { name: s.name, date: checkedDate(s.checked_at) })),
			h("a", { class: "button primary wide", id: "bc-new-game", href: `#tt=${kind}&profile=${encodeURIComponent(s.id)}` }, t("tt.box.new_game")),
			h("a", { class: "button secondary wide", href: back }, t("tt.box.back_game")));
	}

	function render() {
		if (closed) return;
		const top = h("a", { class: "button secondary", href: back }, `← ${t(from ? "tt.box.back_game" : "tt.box.back_new")}`);
		let body;
		if (M.saved) body = savedPanel();
		else if (M.loadErr) body = h("p", { class: "error", role: "alert" }, M.loadErr === "unknown" ? t("tt.box.unknown") : t("error.network"));
		else if (!M.profile) body = h("p", { class: "muted" }, t("tt.box.loading"));
		else {
			const others = Object.keys(M.profile.values).length - M.values.length;
			body = [
				h("section", { class: "panel bc-head" },
					h("h1", {}, t("tt.box.title")),
					h("p", {}, t("tt.box.intro")),
					h("p", {}, h("a", { id: "bc-help", href: `help/${lang()}/box.html`, target: "_blank", rel: "noopener" }, t("tt.box.help"))),
					h("p", { class: "muted" }, t("tt.box.from", { name: profileName(kind, M.profile), game: t(`tt.${kind}`) })),
					others > 0 ? h("p", { class: "muted" }, t("tt.box.others", { n: others })) : null),
				M.values.length
					? h("form", { id: "bc-form", onsubmit: (e) => (e.preventDefault(), save()) }, M.values.map(valueBox), saveBox())
					: h("p", { class: "panel" }, t("tt.box.nothing")),
			];
		}
		replaceKeepingFocus(app, h("div", { class: "tt bc" }, top, body));
	}

	/** The profile to store: the loaded one with every typed number, and the ticked values. */
	function body(id) {
		const values = structuredClone(M.profile.values);
		for (const { key, fields } of M.values) for (const f of fields) setAt({ values }, f.ptr, typed(f, M.draft[key].nums[f.ptr]));
		const b = { game: kind, id, name: M.name.trim(), values, checked: M.values.filter((x) => M.draft[x.key].ticked).map((x) => x.key) };
		if (M.pick && M.pick.select.value) b.league = M.pick.select.value;
		return b;
	}

	async function save() {
		if (M.busy) return;
		if (!nTicked()) return void ((M.err = { key: "tt.box.none_ticked" }), (M.badPtr = null), render(), focusError());
		if (!M.name.trim()) M.name = defaultName();
		Object.assign(M, { busy: true, err: null, badPtr: null });
		render();
		try {
			let made;
			for (let attempt = 0; ; attempt++) {
				try {
					made = await call("POST", "/profiles", body(`box-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`));
					break;
				} catch (e) {
					if (!(e.status === 409 && attempt < 2)) throw e; // an id taken: another one
				}
			}
			rememberProfile(kind, made.id);
			if (closed) return;
			if (!from) {
				location.hash = `#tt=${kind}&profile=${encodeURIComponent(made.id)}`; // the new game, with these values
				return;
			}
			Object.assign(M, { busy: false, saved: made });
			render();
		} catch (e) {
			if (closed) return;
			const f = e.field && M.values.flatMap((x) => x.fields).find((x) => x.ptr === e.field || x.ptr.startsWith(`${e.field}/`));
			Object.assign(M, { busy: false, err: e, badPtr: f ? f.ptr : null });
			render();
			focusError();
		}
	}

	function focusError() {
		const el = (M.badPtr && app.querySelector(`input[data-ptr="${CSS.escape(M.badPtr)}"]`)) || app.querySelector("#bc-error");
		if (el) {
			if (el.tagName !== "INPUT") el.tabIndex = -1;
			el.focus();
			el.scrollIntoView({ block: "center" });
		}
	}

	async function load() {
		try {
			const r = await call("GET", `/profiles?game=${kind}`);
			const p = r.profiles.find((x) => x.id === profileId);
			if (!p) return void ((M.loadErr = "unknown"), render());
			const keys = Object.keys(p.values).filter((k) => p.values[k] && p.values[k].verified === false);
			const rank = (k) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length);
			M.values = keys.sort((a, b) => rank(a) - rank(b)).map((key) => ({ key, v: p.values[key], fields: fieldsOf(key, p.values[key]) }));
			for (const { key, fields } of M.values) M.draft[key] = { ticked: false, nums: Object.fromEntries(fields.map((f) => [f.ptr, shown(f)])) };
			M.profile = p;
			M.name = defaultName();
		} catch (e) {
			M.loadErr = "network";
		}
		render();
	}

	// the league choice, for a logged-in owner or member: one element kept across redraws
	if (localStorage.getItem("dh.leagues.session"))
		leaguePicker(t("tt.box.keep"), t("tt.box.keep_phone")).then((pick) => {
			if (!pick || closed) return;
			pick.select.id = "bc-league";
			M.pick = pick;
			render();
		}).catch(() => {});
	render();
	load();
	return {
		close: () => (closed = true),
		render,
	};
}
