// Dice Hospital and Clinic at the table (issue 8): create or join a game, enter every round with
// steppers (no keyboard), the running score with the reason for every point, an "unverified"
// badge wherever the scoring profile is unconfirmed, the final ranking with its tie-break, live
// updates. Routes: "#tt=dh" / "#tt=clinic" (new game, join), "#tt=KIND&game=ID[&token=…]".
// Self-contained on purpose (own fetch wrapper and element helper): the ER screens change
// independently. Strings: static/i18n/*.json, keys "tt.*" (screens), "ttr.*" (reasons) and
// "ttrule.*" (refusals of the scorekeepers).
import { ApiError, request } from "./api.js";
import { h } from "./dom.js";
import { t, has, onLangChange, lang } from "./i18n.js";
// the league choice of the create form (issue 9; a league needs the session cookie: same-origin fetch sends it)
import { leaguePicker } from "./league-picker.js";

const BASE = "/api/v1";
const STORE = "dh.tabletop.games";
const KINDS = ["dh", "clinic"];
const DH_ADMINS = ["discharge-2-red", "discharge-2-yellow", "discharge-2-green", "discharge-3-colours",
	"most-discharged", "neglect-red", "neglect-yellow", "neglect-green"];
const DH_VARIANTS = ["final_round_collections", "opening_crisis", "nationwide_epidemic", "resistant_superbug",
	"events", "experimental_medicine"];
const DH_SOLO_VARIANTS = ["fatality_penalty", "medical_report_penalty"];
const CL_EXPANSIONS = ["blood_transfusion", "extinguishers", "workaholic_doctors", "zombies", "floor_4"];
const COLOURS = ["red", "yellow", "green"];
const CL_COLOURS = ["white", "yellow", "orange", "red"];

// ---- small helpers ----

/** Replaces el's children (arrays flattened, null / false left out). */
function fill(el, ...kids) {
	el.replaceChildren(...kids.flat(3).filter((c) => c !== null && c !== undefined && c !== false));
}

/** The API with this screen's sentence for a server that cannot be reached. */
const call = (method, path, body, token) => request(method, path, body, token, { network: t("error.network") });

function saved() {
	try {
		return JSON.parse(localStorage.getItem(STORE)) || {};
	} catch {
		return {};
	}
}

function remember(id, entry) {
	const all = saved();
	all[id] = { ...(all[id] || {}), ...entry, at: new Date().toISOString() };
	localStorage.setItem(STORE, JSON.stringify(all));
}

function tr(key, vars, fallback) {
	return has(key) ? t(key, vars) : fallback ?? key;
}

/** A refusal in the current language: "ttrule.<id>" or "rule.<id>", else the server's detail. */
function errorBox(e) {
	if (!e) return null;
	const known = e.rule && (has(`ttrule.${e.rule}`) || has(`rule.${e.rule}`));
	const msg = known ? (has(`ttrule.${e.rule}`) ? t(`ttrule.${e.rule}`) : t(`rule.${e.rule}`)) : e.message;
	return h("div", { class: "error", role: "alert", id: "tt-error", "data-rule": e.rule || "", "data-field": e.field || "" },
		e.status ? h("strong", {}, `${t("error.title")} (${e.status}${e.rule ? ` · ${e.rule}` : ""}) `) : null, msg,
		e.field ? h("div", { class: "muted" }, `${t("tt.field")}: ${e.field}`) : null);
}

function unverifiedBadge(extra = "") {
	return h("span", { class: `tt-badge ${extra}`, title: t("tt.unverified_long") }, t("tt.unverified"));
}

function stepper(value, min, max, onchange, attrs = {}) {
	const out = h("output", { class: "tt-value", "aria-live": "polite" }, String(value));
	const set = (v) => {
		v = Math.max(min, Math.min(max, v));
		out.textContent = String(v);
		minus.disabled = v <= min;
		plus.disabled = v >= max;
		onchange(v);
	};
	let cur = value;
	const minus = h("button", { type: "button", class: "tt-step", "aria-label": "−", disabled: value <= min, onclick: () => set((cur = cur - 1)) }, "−");
	const plus = h("button", { type: "button", class: "tt-step", "aria-label": "+", disabled: value >= max, onclick: () => set((cur = cur + 1)) }, "+");
	return h("div", { class: "tt-stepper", ...attrs }, minus, out, plus);
}

function stepRow(label, value, min, max, onchange, attrs = {}, badge = null) {
	return h("div", { class: "tt-row" }, h("span", { class: "tt-label" }, label, badge), stepper(value, min, max, onchange, attrs));
}

function toggle(label, checked, onchange, attrs = {}) {
	return h("label", { class: "check tt-toggle" }, h("input", { type: "checkbox", checked, onchange: (e) => onchange(e.target.checked), ...attrs }), h("span", {}, label));
}

let stylesAdded = false;
function addStyles() {
	if (stylesAdded) return;
	stylesAdded = true;
	document.head.append(h("link", { rel: "stylesheet", href: "tabletop.css" }));
}

// ---- routing ----

let current = null; // the open screen: { close(), render() }

/** Handles "#tt=…" routes; returns false for any other route (after closing its own screen). */
export function tabletopRoute(app, p) {
	if (current) {
		current.close();
		current = null;
	}
	const kind = p.get("tt");
	if (!KINDS.includes(kind)) return false;
	addStyles();
	const id = p.get("game");
	if (id) {
		let token = p.get("token");
		if (token) {
			remember(id, { token, kind });
			history.replaceState(null, "", `#tt=${kind}&game=${encodeURIComponent(id)}`);
		} else token = (saved()[id] || {}).token;
		if (!token) {
			app.replaceChildren(h("section", { class: "panel" }, h("p", { role: "alert" }, t("game.not_found")), h("a", { class: "button", href: "#" }, t("nav.home"))));
			return true;
		}
		current = openGame(app, kind, id, token);
	} else current = openHome(app, kind);
	return true;
}

/** The home screen's entry to these games. */
export function tabletopLinks() {
	addStyles();
	const mine = Object.entries(saved()).sort((a, b) => (b[1].at || "").localeCompare(a[1].at || "")).slice(0, 6);
	return h("section", { class: "panel", id: "tt-links" }, h("h2", {}, t("tt.board_games")),
		h("div", { class: "tt-kinds" },
			h("a", { class: "button primary", id: "tt-open-dh", href: "#tt=dh" }, t("tt.dh")),
			h("a", { class: "button primary", id: "tt-open-clinic", href: "#tt=clinic" }, t("tt.clinic"))),
		mine.length ? h("ul", { class: "mine" }, mine.map(([id, e]) => h("li", {},
			h("a", { class: "button secondary", href: `#tt=${e.kind}&game=${encodeURIComponent(id)}` }, `${t(`tt.${e.kind}`)} ${e.code || id.slice(0, 6)}${e.label ? ` — ${e.label}` : ""}`)))) : null);
}

onLangChange(() => current && current.render());

// ---- new game and join ----

function openHome(app, kind) {
	const F = { players: [{ name: "", administrator: "" }, { name: "", administrator: "" }], solo: false, variants: {}, expansions: [],
		profile: "default", profiles: [], goal: "", reports: Array.from({ length: 6 }, () => ({ red: 0, yellow: 0, green: 0, points: 2 })),
		code: "", seat: "1", err: null, joinErr: null, busy: false, created: null };
	let closed = false;
	let pbox = null; // the profile and goal fields: refreshed alone when the list arrives
	// the league choice (only for a logged-in owner or member): one element moved into every render
	const league = (localStorage.getItem("dh.leagues.session") ? leaguePicker(t("new.league"), t("new.no_league")) : Promise.resolve(null)).then((pick) => {
		if (pick) {
			pick.select.id = "tt-league";
			pick.select.addEventListener("change", (e) => (F.league = e.target.value));
		}
		return pick;
	}).catch(() => null);
	call("GET", `/profiles?game=${kind}`).then((r) => {
		F.profiles = r.profiles;
		if (!closed && pbox) fillProfile();
	}).catch(() => {});

	function profileInfo() {
		return F.profiles.find((p) => p.id === F.profile);
	}

	function fillProfile() {
		const p = profileInfo();
		const goals = kind === "clinic" && F.solo && p ? h("label", { class: "field" }, h("span", {}, t("tt.goal")),
			h("select", { id: "tt-goal", onchange: (e) => (F.goal = e.target.value) }, h("option", { value: "" }, "—"),
				(p.values.solitaire_goals?.goals || []).map((g) => h("option", { value: g, selected: F.goal === g }, g)))) : null;
		const profile = h("label", { class: "field" }, h("span", {}, t("tt.profile")),
			h("select", { id: "tt-profile", onchange: (e) => { F.profile = e.target.value; fillProfile(); } },
				(F.profiles.length ? F.profiles : [{ id: "default", name: "default" }]).map((q) => h("option", { value: q.id, selected: q.id === F.profile }, q.name))),
			p && !p.all_verified ? h("span", {}, unverifiedBadge()) : null);
		fill(pbox, profile, goals);
	}

	function render() {
		if (closed) return;
		if (F.created) return renderCreated();
		const n = F.solo ? 1 : F.players.length;
		const players = h("fieldset", {}, h("legend", {}, t("new.players")),
			F.players.slice(0, n).map((pl, i) => h("div", { class: "tt-player" },
				h("div", { class: "player-row" },
					h("input", { type: "text", value: pl.name, maxlength: 64, name: `tt-player${i + 1}`, autocomplete: "off",
						"aria-label": t("new.player", { n: i + 1 }), placeholder: t("new.player", { n: i + 1 }), oninput: (e) => (pl.name = e.target.value) }),
					!F.solo && F.players.length > 2 ? h("button", { type: "button", class: "icon-btn", "aria-label": t("new.remove", { n: i + 1 }),
						onclick: () => { F.players.splice(i, 1); render(); } }, "×") : null),
				kind === "dh" && !F.solo ? h("select", { name: `tt-admin${i + 1}`, "aria-label": t("tt.administrator"), onchange: (e) => (pl.administrator = e.target.value) },
					h("option", { value: "" }, t("tt.no_administrator")),
					DH_ADMINS.map((a) => h("option", { value: a, selected: pl.administrator === a }, t(`tt.admin.${a}`)))) : null)),
			!F.solo && F.players.length < 4 ? h("button", { type: "button", class: "secondary", id: "tt-add-player",
				onclick: () => { F.players.push({ name: "", administrator: "" }); render(); } }, `+ ${t("new.add")}`) : null);
		const solo = h("label", { class: "switch" }, h("input", { type: "checkbox", id: "tt-solo", checked: F.solo,
			onchange: (e) => { F.solo = e.target.checked; render(); } }), h("span", {}, t(kind === "dh" ? "tt.solo_dh" : "tt.solo_clinic")));
		const options = kind === "dh"
			? h("fieldset", {}, h("legend", {}, t("tt.variants")), [...DH_VARIANTS, ...(F.solo ? DH_SOLO_VARIANTS : [])].map((v) =>
				toggle(t(`tt.variant.${v}`), !!F.variants[v], (c) => (F.variants[v] = c), { name: `tt-variant-${v}` })))
			: h("fieldset", {}, h("legend", {}, t("tt.expansions")), CL_EXPANSIONS.map((x) =>
				toggle(t(`tt.expansion.${x}`), F.expansions.includes(x), (c) => (F.expansions = c ? [...F.expansions, x] : F.expansions.filter((y) => y !== x)), { name: `tt-exp-${x}` })));
		const reports = kind === "dh" && F.solo ? h("fieldset", { class: "tt-reports" }, h("legend", {}, t("tt.reports_dealt")),
			h("p", { class: "muted" }, t("tt.reports_hint")),
			F.reports.map((r, i) => h("div", { class: "tt-report", "data-card": i + 1 }, h("strong", {}, t("tt.report_card", { n: i + 1, row: t(i < 3 ? "tt.row_bottom" : "tt.row_top") })),
				COLOURS.map((c) => stepRow(t(`colour.${c}`), r[c], 0, 6, (v) => (r[c] = v), { "data-field": c })),
				stepRow(t("tt.points"), r.points, 1, 20, (v) => (r.points = v), { "data-field": "points" })))) : null;
		pbox = h("div", { id: "tt-profile-box" });
		fillProfile();
		const form = h("form", { class: "panel", id: "tt-new", onsubmit: (e) => { e.preventDefault(); create(); } },
			h("h2", {}, t(`tt.new_${kind}`)), players, solo, options, reports, pbox, errorBox(F.err),
			h("button", { type: "submit", class: "primary wide", id: "tt-create", disabled: F.busy }, t("new.create")));
		const join = h("form", { class: "panel", id: "tt-join", onsubmit: (e) => { e.preventDefault(); doJoin(); } },
			h("h2", {}, t("home.join")),
			h("div", { class: "join-row" },
				h("label", { class: "field" }, h("span", {}, t("join.code")), h("input", { type: "text", id: "tt-join-code", value: F.code, maxlength: 6, class: "code-input",
					autocomplete: "off", autocapitalize: "characters", oninput: (e) => (F.code = e.target.value.toUpperCase()) })),
				h("label", { class: "field" }, h("span", {}, t("join.seat")), h("select", { id: "tt-join-seat", onchange: (e) => (F.seat = e.target.value) },
					[1, 2, 3, 4].map((s) => h("option", { value: s, selected: String(s) === F.seat }, s))))),
			errorBox(F.joinErr),
			h("button", { type: "submit", class: "primary wide", id: "tt-join-go", disabled: F.busy }, t("join.go")));
		app.replaceChildren(h("div", { class: "home tt" }, h("a", { class: "button secondary", href: "#" }, `← ${t("nav.home")}`), form, join));
		league.then((pick) => pick && form.isConnected && (relabel(pick), form.querySelector("#tt-create").before(pick.label)));
	}

	async function create() {
		const n = F.solo ? 1 : F.players.length;
		const players = F.players.slice(0, n).map((p) => ({ name: p.name.trim(), ...(kind === "dh" && !F.solo && p.administrator ? { administrator: p.administrator } : {}) }));
		if (players.some((p) => !p.name)) {
			F.err = new ApiError(0, { detail: t("new.name_needed") });
			return render();
		}
		const body = { players, solo: F.solo, profile: F.profile };
		if (F.league) body.league = F.league;
		if (kind === "dh") {
			body.variants = {};
			for (const v of [...DH_VARIANTS, ...(F.solo ? DH_SOLO_VARIANTS : [])]) body.variants[v] = !!F.variants[v];
			if (F.solo) body.reports = F.reports;
		} else {
			body.expansions = F.expansions;
			if (F.solo && F.goal) body.goal = F.goal;
		}
		F.busy = true;
		F.err = null;
		try {
			F.created = await call("POST", `/${kind}/games`, body);
			remember(F.created.id, { token: F.created.host_token, kind, code: F.created.code, label: players.map((p) => p.name).join(", ") });
		} catch (e) {
			F.err = e;
		}
		F.busy = false;
		render();
	}

	async function doJoin() {
		F.busy = true;
		F.joinErr = null;
		try {
			const r = await call("POST", "/join", { code: F.code.trim().toUpperCase(), seat: Number(F.seat) });
			const k = r.kind || kind;
			remember(r.game, { token: r.seat_token, kind: k, code: F.code.trim().toUpperCase(), label: r.name });
			F.busy = false;
			location.hash = `tt=${k}&game=${encodeURIComponent(r.game)}`;
		} catch (e) {
			F.busy = false;
			F.joinErr = e;
			render();
		}
	}

	function renderCreated() {
		const c = F.created;
		const link = (tok) => `${location.origin}${location.pathname}#tt=${kind}&game=${encodeURIComponent(c.id)}&token=${encodeURIComponent(tok)}`;
		const row = (label, url, id) => h("li", { class: "link-row" }, h("span", { class: "link-label" }, label),
			h("div", { class: "link-line" }, h("input", { type: "text", readonly: true, value: url, "data-link": id, "aria-label": label, onfocus: (e) => e.target.select() })));
		app.replaceChildren(h("section", { class: "panel created" },
			h("h2", {}, t("created.title")),
			h("p", { class: "big-code", id: "tt-code-shown", "data-code": c.code }, t("created.code", { code: c.code })),
			h("p", {}, t("created.links")),
			h("ul", { class: "links" }, c.seats.map((s) => row(t("created.seat_link", { seat: s.seat, name: s.name }), link(s.seat_token), `seat-${s.seat}`)),
				row(t("created.host"), link(c.host_token), "host")),
			h("a", { class: "button primary wide", id: "tt-open-host", href: `#tt=${kind}&game=${encodeURIComponent(c.id)}&token=${encodeURIComponent(c.host_token)}` }, t("tt.open_table"))));
	}

	render();
	return { close: () => (closed = true), render };
}

// ---- the game ----

function openGame(app, kind, id, token) {
	const S = { game: null, round: null, draft: {}, dirty: false, err: null, msg: null, busy: false, open: {}, live: false, closed: false, es: null };
	const root = h("div", { class: "tt tt-game", "data-kind": kind });
	const head = h("div", { class: "turn-head tt-head" });
	const entry = h("section", { class: "panel", id: "tt-entry" });
	const scores = h("section", { class: "panel", id: "tt-scores" });
	const standings = h("section", { class: "panel", id: "tt-standings" });
	root.append(head, entry, standings, scores);
	app.replaceChildren(root);
	const isDh = kind === "dh";
	const nRounds = isDh ? 8 : 6;

	async function refresh() {
		try {
			const g = await call("GET", `/${kind}/games/${encodeURIComponent(id)}`, undefined, token);
			if (!S.game || g.version !== S.game.version) setGame(g);
		} catch (e) {
			S.err = e;
			renderEntry();
		}
	}

	function setGame(g) {
		const first = !S.game;
		S.game = g;
		remember(id, { kind, code: g.code });
		if (first || !S.dirty) {
			S.round = g.next.action === "round" ? g.next.round : g.next.action === "finish" ? "finish" : S.round || "finish";
			S.draft = {};
			S.dirty = false;
			renderEntry();
		}
		renderHead();
		renderScores();
		renderStandings();
		renderBusiness();
	}

	function writable() {
		const g = S.game;
		return g.seats.filter((s) => !g.you || s.seat === g.you);
	}

	// ---- head ----
	function renderHead() {
		const g = S.game;
		const you = g.you ? g.seats[g.you - 1] : null;
		fill(head, 
			h("div", { class: "turn-line" }, h("strong", {}, t(`tt.${kind}`)), h("span", { class: "code", id: "tt-code" }, t("tt.code", { code: g.code }))),
			h("div", { class: "you-line" }, you ? t("game.you", { name: you.name, seat: you.seat }) : t("tt.whole_table")),
			h("div", { class: "muted", id: "tt-status" },
				g.status === "finished" ? t("game.finished") : g.next.action === "finish" ? t("tt.ready_finish") : t("tt.round_of", { n: g.next.round, total: nRounds }),
				" · ", S.live ? t("tt.live") : t("tt.live_lost")),
			!g.profile.all_verified ? h("p", { class: "tt-profile-line" }, unverifiedBadge("big"), " ", t("tt.profile_named", { name: g.profile.name })) : null,
			!isDh && g.turn_orders ? h("p", { class: "muted", id: "tt-turn-order" }, t("tt.turn_order_next", {
				order: (g.turn_orders[Math.min(g.rounds_complete, nRounds)] || g.turn_orders[0]).order.map((s) => g.seats[s - 1].name).join(" → ") })) : null,
			padLinks());
	}

	// ---- printable score pads (issue 9): a blank pad, and this game as a filled one ----
	function pdfQuery() {
		const l = ["en", "fr"].includes(lang()) ? lang() : "en";
		const paper = /^en-(US|CA)|^es-(US|MX)/.test(navigator.language) ? "letter" : "a4";
		return `paper=${paper}&lang=${l}`;
	}

	function padLinks() {
		const n = Math.min(Math.max(S.game.seats.length, 1), 4);
		return h("div", { class: "tt-pdf-links" },
			h("a", { class: "button secondary", id: "tt-pad-blank", href: `${BASE}/${kind}/pads.pdf?players=${n}&${pdfQuery()}`, download: "" }, t("tt.pad_blank")),
			h("button", { type: "button", class: "secondary", id: "tt-pad-game", onclick: downloadPad }, t("tt.pad_game")));
	}

	/** The game's pad needs the token (a header, never the URL): fetched, then saved from a blob. */
	async function downloadPad(e) {
		const btn = e.currentTarget;
		btn.disabled = true;
		btn.textContent = t("tt.pad_busy");
		try {
			const r = await fetch(`${BASE}/${kind}/games/${encodeURIComponent(id)}/pad.pdf?${pdfQuery()}`, { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" });
			if (!r.ok) throw new ApiError(r.status, await r.json().catch(() => ({})));
			const url = URL.createObjectURL(await r.blob());
			const a = h("a", { href: url, download: `${kind}-${S.game.code}.pdf`, hidden: true });
			document.body.append(a);
			a.click();
			a.remove();
			setTimeout(() => URL.revokeObjectURL(url), 60000);
		} catch (err) {
			S.err = err instanceof ApiError ? err : new ApiError(0, { detail: t("error.network") });
			renderEntry();
		}
		btn.disabled = false;
		btn.textContent = t("tt.pad_game");
	}

	// ---- entry ----
	function draftFor(seat) {
		const key = `${S.round}:${seat.seat}`;
		if (S.draft[key]) return S.draft[key];
		let d;
		if (S.round === "finish") {
			const f = seat.finish || {};
			d = isDh
				? { fatalities: f.fatalities || 0, blood_bags: f.blood_bags || 0, patients_left: f.patients_left || 0, pips_left: f.pips_left || 0, collected: f.collected || 0 }
				: { doctors: { white: 0, yellow: 0, orange: 0, red: 0, purple: 0, ...(f.doctors || {}) }, nurses: f.nurses || 0,
					treatment_rooms: [...(f.treatment_rooms || [0, 0, 0, 0, 0])], additional_buildings: f.additional_buildings || 0,
					patients_left: { white: 0, yellow: 0, orange: 0, red: 0, ...(f.patients_left || {}) }, zombies: f.zombies || 0, goal_achieved: !!f.goal_achieved };
		} else {
			const r = seat.rounds[S.round - 1];
			d = isDh
				? { discharged: { red: 0, yellow: 0, green: 0, ...(r.discharged || {}) }, wards_empty: !!r.wards_empty, registrar: r.registrar || 0 }
				: { popularity_bought: r.popularity_bought || 0, lab_doctors: r.lab_doctors || 0, deaths: r.deaths || 0, unpaid_expenses: r.unpaid_expenses || 0, time_spent: r.time_spent || 0 };
		}
		return (S.draft[key] = d);
	}

	const touch = () => (S.dirty = true);

	function seatForm(seat) {
		const g = S.game;
		const d = draftFor(seat);
		const set = (obj, k) => (v) => { obj[k] = v; touch(); };
		const attrs = (f) => ({ "data-seat": seat.seat, "data-field": f });
		let rows;
		if (S.round === "finish" && isDh) {
			rows = [
				stepRow(t("tt.f.fatalities"), d.fatalities, 0, 30, set(d, "fatalities"), attrs("fatalities")),
				stepRow(t("tt.f.blood_bags"), d.blood_bags, 0, 30, set(d, "blood_bags"), attrs("blood_bags")),
				stepRow(t("tt.f.patients_left"), d.patients_left, 0, 12, set(d, "patients_left"), attrs("patients_left")),
				stepRow(t("tt.f.pips_left"), d.pips_left, 0, 72, set(d, "pips_left"), attrs("pips_left")),
				g.variants.final_round_collections ? stepRow(t("tt.f.collected"), d.collected, 0, 12, set(d, "collected"), attrs("collected")) : null];
		} else if (S.round === "finish") {
			const pv = g.profile.values;
			const ub = (v) => (v && v.verified === false ? unverifiedBadge() : null);
			rows = [
				h("h4", {}, t("tt.f.employees")),
				["white", "yellow", "orange", "red", ...(g.expansions.includes("workaholic_doctors") ? ["purple"] : [])].map((c) =>
					stepRow(t("tt.doctor", { colour: t(`tt.colour.${c}`) }), d.doctors[c], 0, 30, set(d.doctors, c), attrs(`doctors.${c}`), ub(pv.doctor[c]))),
				stepRow(t("tt.f.nurses"), d.nurses, 0, 30, set(d, "nurses"), attrs("nurses"), ub(pv.nurse)),
				h("h4", {}, t("tt.f.rooms")),
				[0, 1, 2, 3, ...(g.expansions.includes("floor_4") ? [4] : [])].map((f) =>
					stepRow(t("tt.floor", { n: f }), d.treatment_rooms[f], 0, 12, set(d.treatment_rooms, f), attrs(`treatment_rooms.${f}`), ub(pv.treatment_room[f]))),
				stepRow(t("tt.f.buildings"), d.additional_buildings, 0, 10, set(d, "additional_buildings"), attrs("additional_buildings")),
				h("h4", {}, t("tt.f.patients_left")),
				CL_COLOURS.map((c) => stepRow(t(`tt.colour.${c}`), d.patients_left[c], 0, 30, set(d.patients_left, c), attrs(`patients_left.${c}`), ub(pv.patient_left[c]))),
				g.expansions.includes("zombies") ? stepRow(t("tt.f.zombies"), d.zombies, 0, 8, set(d, "zombies"), attrs("zombies")) : null,
				g.solo && g.goal ? toggle(t("tt.f.goal_achieved", { goal: g.goal }), d.goal_achieved, (v) => { d.goal_achieved = v; touch(); }, attrs("goal_achieved")) : null];
		} else if (isDh) {
			rows = [
				COLOURS.map((c) => stepRow(t("tt.discharged", { colour: t(`colour.${c}`) }), d.discharged[c], 0, 12, set(d.discharged, c), attrs(`discharged.${c}`))),
				toggle(t("tt.wards_empty"), d.wards_empty, (v) => { d.wards_empty = v; touch(); }, attrs("wards_empty")),
				g.variants.experimental_medicine ? stepRow(t("tt.registrar"), d.registrar, 0, 2, set(d, "registrar"), attrs("registrar")) : null];
		} else {
			rows = ["popularity_bought", "lab_doctors", "deaths", "unpaid_expenses", "time_spent"].map((f) =>
				stepRow(t(`tt.c.${f}`), d[f], 0, f === "time_spent" ? 60 : 40, set(d, f), attrs(f)));
		}
		return h("fieldset", { class: "tt-seat", "data-seat": seat.seat }, h("legend", {}, `${seat.seat}. ${seat.name}`), rows);
	}

	function reportsPicker() {
		const g = S.game;
		const key = `${S.round}:reports`;
		if (!S.draft[key]) S.draft[key] = g.reports.filter((r) => r.completed_round === S.round).map((r) => r.card);
		const chosen = S.draft[key];
		return h("fieldset", { class: "tt-reports" }, h("legend", {}, t("tt.reports_completed")),
			g.reports.map((r) => {
				const doneBefore = r.completed_round && r.completed_round !== S.round;
				return h("label", { class: "check" }, h("input", { type: "checkbox", "data-report": r.card, checked: chosen.includes(r.card) || doneBefore, disabled: doneBefore,
					onchange: (e) => {
						const i = chosen.indexOf(r.card);
						if (e.target.checked && i < 0) chosen.push(r.card);
						if (!e.target.checked && i >= 0) chosen.splice(i, 1);
						chosen.sort((a, b) => a - b);
						touch();
					} }),
				h("span", {}, t("tt.report_line", { n: r.card, row: t(r.row === "bottom" ? "tt.row_bottom" : "tt.row_top"), need: COLOURS.filter((c) => r[c]).map((c) => `${r[c]} ${t(`colour.${c}`)}`).join(" + "), points: r.points }),
					doneBefore ? ` (${t("tt.done_round", { n: r.completed_round })})` : ""));
			}));
	}

	function renderEntry() {
		const g = S.game;
		if (!g) {
			fill(entry, h("p", { class: "muted" }, "…"), errorBox(S.err));
			return;
		}
		if (g.status === "finished") {
			fill(entry, h("h2", {}, t("game.finished")), errorBox(S.err),
				S.msg ? h("p", { class: "tt-ok", role: "status", id: "tt-msg" }, t(S.msg[0], S.msg[1])) : null);
			return;
		}
		const canFinish = g.next.action === "finish";
		const chips = h("div", { class: "tt-chips", role: "tablist" },
			Array.from({ length: nRounds }, (_, i) => i + 1).map((n) => h("button", {
				type: "button", class: `tt-chip${S.round === n ? " on" : ""}`, "data-round": n, role: "tab", "aria-selected": S.round === n ? "true" : "false",
				disabled: n > g.rounds_complete + 1, onclick: () => { S.round = n; S.draft = {}; S.dirty = false; S.err = null; renderEntry(); } }, String(n))),
			h("button", { type: "button", class: `tt-chip${S.round === "finish" ? " on" : ""}`, "data-round": "finish", disabled: !canFinish,
				onclick: () => { S.round = "finish"; S.draft = {}; S.dirty = false; S.err = null; renderEntry(); } }, t("tt.end")));
		const forms = writable().map(seatForm);
		const title = S.round === "finish" ? t("tt.finish_title") : t("tt.round_title", { n: S.round, total: nRounds });
		fill(entry, h("h2", {}, title), chips, forms,
			isDh && g.solo && S.round !== "finish" ? reportsPicker() : null,
			errorBox(S.err), S.msg ? h("p", { class: "tt-ok", role: "status", id: "tt-msg" }, t(S.msg[0], S.msg[1])) : null,
			h("button", { type: "button", class: "primary wide", id: "tt-save", disabled: S.busy, onclick: save },
				S.round === "finish" ? t("tt.save_finish") : t("tt.save_round", { n: S.round })));
	}

	async function save() {
		const g = S.game;
		const entries = writable().map((seat) => ({ seat: seat.seat, ...draftFor(seat) }));
		let path, method, body = { entries };
		if (S.round === "finish") {
			path = `/${kind}/games/${encodeURIComponent(id)}/finish`;
			method = "POST";
		} else {
			path = `/${kind}/games/${encodeURIComponent(id)}/rounds/${S.round}`;
			method = "PUT";
			if (isDh && g.solo) body.reports_completed = S.draft[`${S.round}:reports`] || [];
		}
		S.busy = true;
		S.err = null;
		S.msg = null;
		renderEntry();
		try {
			const saved = S.round;
			const st = await call(method, path, body, token);
			S.busy = false;
			S.dirty = false;
			S.msg = saved === "finish" ? ["tt.saved_finish", {}] : ["tt.saved_round", { n: saved }];
			S.game = null; // re-derive the round and drafts from the new state
			setGame(st);
		} catch (e) {
			S.busy = false;
			S.err = e;
			renderEntry();
		}
	}

	// ---- Clinic: the Business helper (seed 001, Phase 2: Business) ----
	const biz = { open: false, input: { modules: 4, gardens: 0, operating_rooms_used: 0, orderlies: 0, outpatients: 0, garden_bonus: 0, savings: 0,
		doctors: { white: 1, yellow: 0, orange: 0, red: 0 }, nurses: 0, treated: { white: 0, yellow: 0, orange: 0, red: 0 } }, out: null, err: null };
	const bizBox = h("section", { class: "panel", id: "tt-business" });
	if (!isDh) root.insertBefore(bizBox, standings);

	function renderBusiness() {
		if (isDh || !S.game || S.game.status === "finished") {
			bizBox.hidden = true;
			return;
		}
		bizBox.hidden = false;
		const I = biz.input;
		const row = (label, obj, k, max) => stepRow(label, obj[k], 0, max, (v) => (obj[k] = v), { "data-biz": k });
		const o = biz.out;
		fill(bizBox, h("button", { type: "button", class: "secondary wide", id: "tt-biz-toggle", "aria-expanded": biz.open ? "true" : "false",
			onclick: () => { biz.open = !biz.open; renderBusiness(); } }, t("tt.biz.title")),
		biz.open ? [
			h("p", { class: "muted" }, t("tt.biz.hint")),
			row(t("tt.biz.modules"), I, "modules", 60), row(t("tt.biz.gardens"), I, "gardens", 20),
			row(t("tt.biz.operating_rooms_used"), I, "operating_rooms_used", 10), row(t("tt.biz.orderlies"), I, "orderlies", 10),
			CL_COLOURS.map((c) => row(t("tt.doctor", { colour: t(`tt.colour.${c}`) }), I.doctors, c, 20)),
			row(t("tt.f.nurses"), I, "nurses", 20), row(t("tt.biz.outpatients"), I, "outpatients", 20),
			CL_COLOURS.map((c) => row(t("tt.biz.treated", { colour: t(`tt.colour.${c}`) }), I.treated, c, 20)),
			row(t("tt.biz.garden_bonus"), I, "garden_bonus", 40), row(t("tt.biz.savings"), I, "savings", 200),
			h("button", { type: "button", class: "primary wide", id: "tt-biz-go", onclick: computeBusiness }, t("tt.biz.compute")),
			errorBox(biz.err),
			o ? h("dl", { class: "tt-biz-out", id: "tt-biz-out" },
				[["upkeep", o.upkeep, o.verified_parts.upkeep], ["wages", o.wages, o.verified_parts.wages], ["income", o.income, o.verified_parts.income],
					["unpaid", o.unpaid_expenses, o.verified], ["affordable", o.popularity_affordable, o.verified]].map(([k, v, ver]) =>
					h("div", { "data-out": k }, h("dt", {}, t(`tt.biz.out.${k}`)), h("dd", {}, `${k === "affordable" ? "" : "$"}${v}`, ver ? null : unverifiedBadge())))) : null,
			o && S.round !== "finish" ? writable().map((seat) => h("button", { type: "button", class: "secondary wide", "data-use": seat.seat,
				onclick: () => {
					const d = draftFor(seat);
					d.popularity_bought = o.unpaid_expenses > 0 ? 0 : o.popularity_affordable;
					d.unpaid_expenses = o.unpaid_expenses;
					touch();
					renderEntry();
				} }, t("tt.biz.use", { name: seat.name, n: S.round }))) : null] : null);
	}

	async function computeBusiness() {
		biz.err = null;
		try {
			biz.out = await call("POST", "/clinic/business", { ...biz.input, profile: S.game.profile.id, expansions: S.game.expansions });
		} catch (e) {
			biz.out = null;
			biz.err = e;
		}
		renderBusiness();
	}

	// ---- scores ----
	function reasonLine(r) {
		const name = tr(`ttr.${r.rule}`, {}, r.rule);
		return h("li", { class: `tt-reason${r.verified ? "" : " unverified"}`, "data-rule": r.rule },
			h("span", {}, r.count > 1 ? `${name} ×${r.count}` : name), h("span", { class: "tt-pts" }, (r.points > 0 ? "+" : "") + r.points),
			r.verified ? null : unverifiedBadge());
	}

	function renderScores() {
		const g = S.game;
		fill(scores, h("h2", {}, t("tt.scores")),
			h("ol", { class: "tt-score-list" }, g.seats.map((s) => {
				const open = !!S.open[s.seat];
				const rounds = s.rounds.filter((r) => r.reasons.length || r.entered);
				return h("li", { class: "tt-score", "data-seat": s.seat },
					h("button", { type: "button", class: "tt-score-head secondary", "aria-expanded": open ? "true" : "false",
						onclick: () => { S.open[s.seat] = !open; renderScores(); } },
						h("span", {}, `${s.seat}. ${s.name}`), h("strong", { class: "tt-total", "data-total": s.score.total }, String(s.score.total)),
						s.score.verified ? null : unverifiedBadge()),
					open ? h("div", { class: "tt-reasons" },
						rounds.map((r) => h("div", { class: "tt-round" }, h("div", { class: "tt-round-head" }, t("tt.round_short", { n: r.round }), h("span", { class: "tt-pts" }, String(r.points))),
							h("ul", {}, r.reasons.map(reasonLine)))),
						s.score.end_reasons && s.score.end_reasons.length ? h("div", { class: "tt-round" }, h("div", { class: "tt-round-head" }, t("tt.end"), h("span", { class: "tt-pts" }, String(s.score.end))),
							h("ul", {}, s.score.end_reasons.map(reasonLine))) : null) : null);
			})));
	}

	/** Solo / solitaire: the best final total finished on this phone (seed 000, SOLO PLAY RULES:
	 * "keep the record of your final score"). */
	function personalBest(total) {
		const key = `dh.tabletop.best.${kind}`;
		let all = {};
		try {
			all = JSON.parse(localStorage.getItem(key)) || {};
		} catch {}
		all[id] = total;
		localStorage.setItem(key, JSON.stringify(all));
		const others = Object.entries(all).filter(([k]) => k !== id).map(([, v]) => v);
		const best = Math.max(total, ...others);
		return h("p", { id: "tt-best", "data-best": best },
			others.length && total > Math.max(...others) ? h("strong", {}, t("tt.new_best")) : t("tt.personal_best", { n: best }));
	}

	function renderStandings() {
		const g = S.game;
		if (g.status !== "finished") {
			standings.hidden = true;
			return;
		}
		standings.hidden = false;
		fill(standings, h("h2", {}, t("tt.ranking")), g.solo ? personalBest(g.standings[0].total) : null,
			h("ol", { class: "tt-standings" }, g.standings.map((s) => h("li", { "data-seat": s.seat, "data-rank": s.rank },
				h("span", { class: "tt-rank" }, `#${s.rank}`), h("span", {}, s.name), h("strong", {}, String(s.total)),
				s.tie_break ? h("span", { class: "tt-tie", "data-tie": s.tie_break }, tr(`tt.tie.${s.tie_break}`, {}, s.tie_break)) : null,
				s.title ? h("span", { class: "tag" }, s.title) : null,
				s.verified ? null : unverifiedBadge()))));
	}

	// ---- live ----
	function listen() {
		const es = new EventSource(`${BASE}/${kind}/games/${encodeURIComponent(id)}/events?token=${encodeURIComponent(token)}`);
		const onEvent = () => refresh();
		for (const k of ["hello", "round", "finish", "message"]) es.addEventListener(k, onEvent);
		es.onopen = () => { S.live = true; S.game && renderHead(); };
		es.onerror = () => { S.live = false; S.game && renderHead(); };
		S.es = es;
	}

	renderEntry();
	refresh();
	listen();
	return {
		close() {
			S.closed = true;
			if (S.es) S.es.close();
		},
		render() {
			if (!S.game) return;
			renderHead();
			renderEntry();
			renderScores();
			renderStandings();
			renderBusiness();
		},
	};
}

/** The league picker's texts in the current language (one element lives across renders). */
function relabel(pick) {
	pick.label.firstChild.textContent = t("new.league");
	pick.select.options[0].text = t("new.no_league");
}
