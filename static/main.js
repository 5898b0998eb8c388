// Start-up and routing: "#game=ID&token=…" opens the game screen, anything else the home screen
// (new game, join, this phone's games).
import * as api from "./api.js";
import { t, setLang, preferredLang, lang, onLangChange } from "./i18n.js";
import { openGame, errorOf, errorBox } from "./game.js";
import { h } from "./sheet.js";
// Dice Hospital and Clinic screens (issue 8)
import { tabletopRoute, tabletopLinks } from "./tabletop.js";

const app = document.getElementById("app");
let screen = null; // the open game screen, if any
let created = null; // the reply of the last game created here

const MODIFIERS = ["preparation", "equipment", "isolation", "capacity"];
const form = {
	players: ["", ""],
	solo: false,
	modifiers: [],
	deck: "table",
	chooseSpecs: false,
	specs: { c1: "", c2: "", radiologist: "", epidemiologist: "" },
	code: "",
	seat: "2",
	error: null, // errorOf() data, worded at render time
	joinError: null,
	busy: false,
};

function params() {
	return new URLSearchParams(location.hash.replace(/^#/, ""));
}

function seatLink(id, token) {
	return `${location.origin}${location.pathname}#game=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
}

function route() {
	if (screen) {
		screen.close();
		screen = null;
	}
	const p = params();
	const id = p.get("game");
	window.scrollTo(0, 0);
	if (tabletopRoute(app, p)) return; // Dice Hospital and Clinic (issue 8)
	if (id) {
		let token = p.get("token");
		const saved = api.savedGames()[id];
		if (token) {
			api.saveGame(id, { token });
			// the token now lives in this phone's storage: keep it out of the address bar
			history.replaceState(null, "", `#game=${encodeURIComponent(id)}`);
		} else token = saved && saved.token;
		if (!token) {
			app.replaceChildren(h("section", { class: "panel" }, h("p", { role: "alert" }, t("game.not_found")), h("a", { class: "button", href: "#" }, t("nav.home"))));
			return;
		}
		screen = openGame(app, { id, token, seat: saved && saved.seat });
		return;
	}
	if (p.has("created") && created) return renderCreated();
	renderHome();
}

// ---- home ----

function field(labelKey, input, extra) {
	return h("label", { class: "field" }, h("span", {}, t(labelKey, extra)), input);
}

async function specialistOptions(kind) {
	const data = await api.gameData();
	return data.specialists.filter((s) => s.kind === kind);
}

async function renderHome() {
	let data;
	try {
		data = await api.gameData();
	} catch (e) {
		app.replaceChildren(h("p", { class: "error", role: "alert" }, t("error.network")));
		return;
	}
	if (params().get("game") || screen) return;
	const specs = data.specialists;
	const specSelect = (key, kind) =>
		h("select", { "data-spec": key, onchange: (e) => (form.specs[key] = e.target.value) },
			specs.filter((s) => s.kind === kind).map((s) => h("option", { value: s.id, selected: form.specs[key] === s.id }, s.text[lang()] || s.text.en)));
	for (const [k, kind, i] of [["c1", "cardiologist", 0], ["c2", "cardiologist", 1], ["radiologist", "radiologist", 0], ["epidemiologist", "epidemiologist", 0]])
		if (!form.specs[k]) form.specs[k] = specs.filter((s) => s.kind === kind)[i].id;

	const nPlayers = form.solo ? 1 : form.players.length;
	const players = h("fieldset", { class: "players-form" }, h("legend", {}, t("new.players")),
		form.players.slice(0, nPlayers).map((name, i) =>
			h("div", { class: "player-row" },
				h("input", {
					type: "text", value: name, maxlength: 64, required: true, autocomplete: "off", name: `player${i + 1}`,
					"aria-label": t("new.player", { n: i + 1 }), placeholder: t("new.player", { n: i + 1 }),
					oninput: (e) => (form.players[i] = e.target.value),
				}),
				!form.solo && form.players.length > 1
					? h("button", { type: "button", class: "icon-btn", "aria-label": t("new.remove", { n: i + 1 }),
						onclick: () => { form.players.splice(i, 1); renderHome(); } }, "×")
					: null)),
		!form.solo && form.players.length < 6
			? h("button", { type: "button", class: "secondary", id: "add-player", onclick: () => { form.players.push(""); renderHome(); } }, `+ ${t("new.add")}`)
			: null);

	const solo = h("label", { class: "switch" },
		h("input", { type: "checkbox", id: "solo", checked: form.solo, onchange: (e) => { form.solo = e.target.checked; if (!form.solo) form.modifiers = []; renderHome(); } }),
		h("span", {}, t("new.solo")));
	const mods = form.solo
		? h("fieldset", {}, h("legend", {}, t("new.modifiers")), MODIFIERS.map((m) =>
			h("label", { class: "check" }, h("input", {
				type: "checkbox", value: m, checked: form.modifiers.includes(m),
				disabled: !form.modifiers.includes(m) && form.modifiers.length >= 2,
				onchange: (e) => { form.modifiers = e.target.checked ? [...form.modifiers, m] : form.modifiers.filter((x) => x !== m); renderHome(); },
			}), h("span", {}, t(`mod.${m}`)))))
		: null;
	const deck = h("fieldset", {}, h("legend", {}, t("new.deck")), ["table", "app"].map((d) =>
		h("label", { class: "check" }, h("input", { type: "radio", name: "deck", value: d, checked: form.deck === d, onchange: () => (form.deck = d) }), h("span", {}, t(`deck.${d}`)))));
	const specChoice = h("fieldset", {}, h("legend", {}, t("new.specialists")),
		[false, true].map((c) => h("label", { class: "check" }, h("input", {
			type: "radio", name: "specs", value: c ? "choose" : "drawn", checked: form.chooseSpecs === c,
			onchange: () => { form.chooseSpecs = c; renderHome(); },
		}), h("span", {}, t(c ? "new.spec.choose" : "new.spec.drawn")))),
		form.chooseSpecs
			? h("div", { class: "spec-selects" },
				field("kind.cardiologist", specSelect("c1", "cardiologist")),
				field("kind.cardiologist", specSelect("c2", "cardiologist")),
				field("kind.radiologist", specSelect("radiologist", "radiologist")),
				field("kind.epidemiologist", specSelect("epidemiologist", "epidemiologist")))
			: null);

	const newGame = h("form", { class: "panel", id: "new-game", onsubmit: (e) => { e.preventDefault(); create(); } },
		h("h2", {}, t("home.new")), players, solo, mods, deck, specChoice,
		form.error ? errorBox(form.error, { id: "create-error", "data-rule": form.error.rule }) : null,
		h("button", { type: "submit", class: "primary wide", id: "create", disabled: form.busy }, t("new.create")));

	const joinForm = h("form", { class: "panel", id: "join", onsubmit: (e) => { e.preventDefault(); doJoin(); } },
		h("h2", {}, t("home.join")),
		h("div", { class: "join-row" },
			field("join.code", h("input", {
				type: "text", id: "join-code", value: form.code, maxlength: 6, minlength: 6, required: true, autocomplete: "off",
				autocapitalize: "characters", spellcheck: "false", inputmode: "text", class: "code-input",
				oninput: (e) => (form.code = e.target.value.toUpperCase()),
			})),
			field("join.seat", h("select", { id: "join-seat", onchange: (e) => (form.seat = e.target.value) },
				[1, 2, 3, 4, 5, 6].map((n) => h("option", { value: n, selected: String(n) === form.seat }, n))))),
		form.joinError ? errorBox(form.joinError, { id: "join-error", "data-rule": form.joinError.rule }) : null,
		h("button", { type: "submit", class: "primary wide", id: "join-go", disabled: form.busy }, t("join.go")));

	const saved = Object.entries(api.savedGames()).sort((a, b) => (b[1].at || "").localeCompare(a[1].at || ""));
	const mine = h("section", { class: "panel" }, h("h2", {}, t("home.mine")),
		saved.length
			? h("ul", { class: "mine" }, saved.slice(0, 10).map(([id, e]) => h("li", {},
				h("a", { class: "button secondary", href: `#game=${encodeURIComponent(id)}` }, `${t("home.open")} ${e.code || id.slice(0, 6)}${e.label ? ` — ${e.label}` : ""}`),
				h("button", { type: "button", class: "icon-btn", "aria-label": `${t("home.forget")} ${e.code || id}`, onclick: () => { api.forgetGame(id); renderHome(); } }, "×"))))
			: h("p", { class: "muted" }, t("home.none")));

	app.replaceChildren(h("div", { class: "home" }, newGame, joinForm, mine, tabletopLinks() /* issue 8 */));
}

async function create() {
	const names = form.players.slice(0, form.solo ? 1 : form.players.length).map((n) => n.trim());
	if (names.some((n) => !n)) {
		form.error = { key: "new.name_needed" };
		return renderHome();
	}
	const body = { players: names.map((name) => ({ name })), solo: form.solo, deck: form.deck };
	if (form.solo) body.alicat_modifiers = form.modifiers;
	if (form.chooseSpecs)
		body.specialists = { cardiologists: [form.specs.c1, form.specs.c2], radiologist: form.specs.radiologist, epidemiologist: form.specs.epidemiologist };
	form.busy = true;
	form.error = null;
	try {
		created = await api.createGame(body);
		api.saveGame(created.id, { token: created.host_token, code: created.code, label: names.join(", ") });
		form.busy = false;
		location.hash = "created";
	} catch (e) {
		form.busy = false;
		form.error = errorOf(e);
		renderHome();
	}
}

async function doJoin() {
	form.busy = true;
	form.joinError = null;
	try {
		const r = await api.join(form.code.trim().toUpperCase(), Number(form.seat));
		if (r.kind === "dh" || r.kind === "clinic") { // Dice Hospital and Clinic screens (issue 8)
			form.busy = false;
			location.hash = `tt=${r.kind}&game=${encodeURIComponent(r.game)}&token=${encodeURIComponent(r.seat_token)}`;
			return;
		}
		api.saveGame(r.game, { token: r.seat_token, code: form.code.trim().toUpperCase(), label: r.name });
		form.busy = false;
		location.hash = `game=${encodeURIComponent(r.game)}`;
	} catch (e) {
		form.busy = false;
		form.joinError = errorOf(e);
		renderHome();
	}
}

function copyButton(input) {
	return h("button", {
		type: "button", class: "secondary copy", onclick: async (e) => {
			const btn = e.currentTarget;
			try {
				await navigator.clipboard.writeText(input.value);
			} catch {
				input.select();
				document.execCommand && document.execCommand("copy");
			}
			btn.textContent = t("created.copied");
		},
	}, t("created.copy"));
}

function linkRow(label, url, testid) {
	const input = h("input", { type: "text", readonly: true, value: url, "aria-label": label, "data-link": testid, onfocus: (e) => e.target.select() });
	return h("li", { class: "link-row" }, h("span", { class: "link-label" }, label), h("div", { class: "link-line" }, input, copyButton(input)));
}

function renderCreated() {
	const c = created;
	app.replaceChildren(h("section", { class: "panel created" },
		h("h2", {}, t("created.title")),
		h("p", { class: "big-code", id: "join-code-shown", "data-code": c.code }, t("created.code", { code: c.code })),
		h("p", {}, t("created.links")),
		h("ul", { class: "links" },
			c.seats.filter((s) => !s.bot).map((s) => linkRow(t("created.seat_link", { seat: s.seat, name: s.name }), seatLink(c.id, s.seat_token), `seat-${s.seat}`)),
			linkRow(t("created.host"), seatLink(c.id, c.host_token), "host")),
		h("a", { class: "button primary wide", id: "open-host", href: `#game=${encodeURIComponent(c.id)}&token=${encodeURIComponent(c.host_token)}` }, t("created.open_host"))));
}

// ---- start ----

const langSelect = document.getElementById("lang");
langSelect.addEventListener("change", () => setLang(langSelect.value));
onLangChange((l) => {
	langSelect.value = l;
	document.title = t("app.title");
	if (screen) screen.render();
	else route();
});
window.addEventListener("hashchange", route);

export async function start() {
	try {
		await setLang(preferredLang(), false);
	} catch (e) {
		console.error(e);
		route();
	}
}
