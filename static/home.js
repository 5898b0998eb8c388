// The screens outside a game (static/README.md, "The ER screens").
import * as api from "./api.js";
import { h, icon } from "./dom.js";
import { t, lang, languages } from "./i18n.js";
import { errorOf, errorBox, replaceKeepingFocus } from "./view.js";
import { leagueChoice } from "./league-picker.js";

const MODIFIERS = ["preparation", "equipment", "isolation", "capacity"];
const SPECS = [["c1", "cardiologist", 0], ["c2", "cardiologist", 1], ["radiologist", "radiologist", 0], ["epidemiologist", "epidemiologist", 0]];
const form = {
	players: ["", ""], solo: false, modifiers: [], deck: "table", chooseSpecs: false,
	specs: { c1: "", c2: "", radiologist: "", epidemiologist: "" },
	league: "", error: null, busy: false,
};
const joining = { code: "", kind: null, seats: null, pick: null, error: null, busy: false };
const print = { count: 10, paper: "", lang: "" };
let created = null; // the reply of the last game created here
let leaguePick = null; // the league choice: one per page load

/** A join code as typed or pasted ("ab3-k9q", "AB3 K9Q"): spaces and dashes out, upper case, 6 characters. */
export const normCode = (s) => s.replace(/[\s-]+/g, "").toUpperCase().slice(0, 6);
const field = (labelKey, input, vars) => h("label", { class: "field" }, h("span", {}, t(labelKey, vars)), input);
/** Radio buttons: set(value) when checked, label(value) beside each. */
const radios = (legend, name, values, cur, set, label, ...more) => h("fieldset", {}, h("legend", {}, t(legend)), values.map((v) =>
	h("label", { class: "check" }, h("input", { type: "radio", name, value: v, checked: cur === v, onchange: () => set(v) }), label(v))), more);
/** Paper for this phone's language: US Letter in the Americas' English and Spanish, else A4. */
export const paperOf = () => (/^en-(US|CA)|^es-(US|MX)/.test(navigator.language) ? "letter" : "a4");

// ---- home ----

const GAMES = ["er", "dh", "clinic"];
const chip = (g) => h("span", { class: `chip g-${g}` }, icon(g));

/** The header names the screen's game (er, dh, clinic), else the product. */
export function showGame(g) {
	if (!GAMES.includes(g)) g = null;
	const name = t(g ? `name.${g}` : "app.title");
	document.querySelector(".brand").replaceChildren(g ? chip(g) : "", name);
	document.title = name;
}

/** loadTabletop(): a promise of tabletop.js (the DH and Clinic forms); resolves once drawn. */
export async function renderHome(app, isCurrent, loadTabletop) {
	const game = GAMES.find((g) => g === localStorage.getItem("dh.pick"));
	const data = game === "er" && (await api.gameData().catch(() => null));
	if (!isCurrent()) return;
	const redraw = () => renderHome(app, isCurrent, loadTabletop);
	const choose = (g) => {
		localStorage.setItem("dh.pick", g);
		redraw().then(() => app.querySelector(".new-slot").scrollIntoView());
	};
	// this phone's games of every kind, the latest first
	const list = (all, kindOf, key) => Object.entries(all).map(([id, e]) => ({ id, e, key, g: kindOf(e) }));
	const saved = [...list(api.savedGames(), () => "er"), ...list(api.readStored(api.TT_STORE), (e) => e.kind, api.TT_STORE)]
		.filter((x) => GAMES.includes(x.g)).sort((a, b) => (b.e.at || "").localeCompare(a.e.at || "")).slice(0, 8);
	const slot = h("div", { class: "new-slot", "data-game": game }, game === "er" ? erForm(data, redraw) : null);
	let ready;
	if (game && game !== "er") {
		// redrawn, the form on screen keeps what was typed
		const again = app.querySelector(".new-slot")?.dataset.game === game;
		ready = loadTabletop().then((m) => isCurrent() && m.tabletopNew(slot, game, again)).catch(console.warn);
	}
	replaceKeepingFocus(app, h("div", {}, h("h1", { class: "home-h1", id: "home-h" }, t("home.title")),
		h("div", { class: "games", role: "group", "aria-labelledby": "home-h" }, GAMES.map((g) =>
			h("button", { type: "button", class: "game", id: `pick-${g}`, "aria-pressed": String(g === game), onclick: () => choose(g) },
				chip(g), t(`name.${g}`)))),
		joinPanel(),
		saved.length ? h("section", { class: "panel", "aria-labelledby": "mine-h" }, h("h2", { id: "mine-h" }, t("home.mine")),
			h("ul", { class: "mine" }, saved.map(({ id, e, key, g }) => h("li", {},
				h("a", { class: "button", href: key ? `#tt=${g}&game=${encodeURIComponent(id)}` : `#game=${encodeURIComponent(id)}` },
					chip(g), `${t(`name.${g}`)} · ${e.code || id.slice(0, 6)}${e.label ? ` — ${e.label}` : ""}`),
				h("button", { type: "button", class: "icon-btn", "data-forget": id, "aria-label": `${t("home.forget")} ${e.code || id}`, onclick: () => { api.forgetGame(id, key); redraw(); } }, "×"))))) : null,
		slot));
	const newGame = app.querySelector("#new-game");
	if (newGame) (leaguePick ||= leagueChoice("new-league", (v) => (form.league = v)))
		.then((pick) => pick && isCurrent() && newGame.isConnected && (pick.relabel(), newGame.querySelector("#create").before(pick.label)));
	return ready;
}

/** The ER new-game form and the blank sheets' link (data: GET /er/data, or null). */
function erForm(data, redraw) {
	if (!data) return h("p", { class: "error", role: "alert" }, t("error.network"));
	const specs = data.specialists;
	const specSelect = (key, kind) =>
		h("select", { "data-spec": key, onchange: (e) => (form.specs[key] = e.target.value) },
			specs.filter((s) => s.kind === kind).map((s) => h("option", { value: s.id, selected: form.specs[key] === s.id }, s.text[lang()] || s.text.en)));
	for (const [k, kind, i] of SPECS)
		if (!form.specs[k]) form.specs[k] = specs.filter((s) => s.kind === kind)[i].id;

	const nPlayers = form.solo ? 1 : form.players.length;
	const players = h("fieldset", {}, h("legend", {}, t("new.players")),
		form.players.slice(0, nPlayers).map((name, i) =>
			h("div", { class: "player-row" },
				h("input", {
					type: "text", value: name, maxlength: 64, required: true, autocomplete: "off", name: `player${i + 1}`,
					"aria-label": t("new.player", { n: i + 1 }), placeholder: t("new.player", { n: i + 1 }),
					oninput: (e) => (form.players[i] = e.target.value),
				}),
				!form.solo && form.players.length > 1
					? h("button", { type: "button", class: "icon-btn", "data-remove": i + 1, "aria-label": t("new.remove", { n: i + 1 }),
						onclick: () => { form.players.splice(i, 1); redraw(); } }, "×")
					: null)),
		!form.solo && form.players.length < 6
			? h("button", { type: "button", id: "add-player", onclick: () => { form.players.push(""); redraw(); } }, `+ ${t("new.add")}`)
			: null);
	const solo = h("label", { class: "switch" },
		h("input", { type: "checkbox", id: "solo", checked: form.solo, onchange: (e) => { form.solo = e.target.checked; if (!form.solo) form.modifiers = []; redraw(); } }),
		h("span", {}, t("new.solo")));
	const mods = form.solo
		? h("fieldset", {}, h("legend", {}, t("new.modifiers")), MODIFIERS.map((m) =>
			h("label", { class: "check" }, h("input", {
				type: "checkbox", value: m, checked: form.modifiers.includes(m),
				disabled: !form.modifiers.includes(m) && form.modifiers.length >= 2,
				onchange: (e) => { form.modifiers = e.target.checked ? [...form.modifiers, m] : form.modifiers.filter((x) => x !== m); redraw(); },
			}), h("span", {}, t(`mod.${m}`)))))
		: null;
	const deck = radios("new.deck", "deck", ["table", "app"], form.deck, (d) => (form.deck = d), (d) => t(`deck.${d}`));
	const specChoice = radios("new.specialists", "specs", ["drawn", "choose"], form.chooseSpecs ? "choose" : "drawn",
		(c) => { form.chooseSpecs = c === "choose"; redraw(); }, (c) => t(`new.spec.${c}`),
		form.chooseSpecs
			&& SPECS.map(([k, kind]) => field(`kind.${kind}`, specSelect(k, kind))));
	const newGame = h("form", { class: "panel", id: "new-game", onsubmit: (e) => { e.preventDefault(); create(redraw); } },
		h("h2", {}, t("home.new", { game: t("name.er") })), players, solo, mods, deck, specChoice,
		form.error ? errorBox(form.error, { id: "create-error", "data-rule": form.error.rule }) : null,
		h("button", { type: "submit", class: "primary wide", id: "create", disabled: form.busy }, t("new.create")));

	return [newGame, h("a", { class: "button wide", href: "#print", id: "open-print" }, t("print.title"))];
}

/** Join by code: a code field and its button (the home screen; a game not on this phone). */
function joinPanel(heading = h("h2", {}, t("home.join"))) {
	return h("form", { class: "panel", id: "join", onsubmit: (e) => { e.preventDefault(); location.hash = `join=${encodeURIComponent(normCode(joining.code))}`; } },
		heading,
		h("div", { class: "join-row" }, field("join.code", h("input", {
			type: "text", id: "join-code", value: joining.code, minlength: 6, required: true, autocomplete: "off",
			autocapitalize: "characters", spellcheck: "false", class: "code-input", name: "code",
			// no maxlength: it would cut a pasted "AB3 K9Q" before the space is taken out
			oninput: (e) => (e.target.value = joining.code = normCode(e.target.value)),
		})),
		h("button", { type: "submit", class: "primary", id: "join-go" }, t("join.find"))));
}

/** "#game=ID" on a phone without that game (a PDF's QR code, a link without its token). */
export function renderNotHere(app) {
	replaceKeepingFocus(app, [h("div", { class: "panel", role: "alert" }, h("h1", {}, t("game.not_found"))), joinPanel()]);
}

async function create(redraw) {
	const names = form.players.slice(0, form.solo ? 1 : form.players.length).map((n) => n.trim());
	if (names.some((n) => !n)) {
		form.error = { key: "new.name_needed" };
		return redraw();
	}
	const body = { players: names.map((name) => ({ name })), solo: form.solo, deck: form.deck };
	if (form.solo) body.alicat_modifiers = form.modifiers;
	if (form.league) body.league = form.league;
	if (form.chooseSpecs)
		body.specialists = { cardiologists: [form.specs.c1, form.specs.c2], radiologist: form.specs.radiologist, epidemiologist: form.specs.epidemiologist };
	Object.assign(form, { busy: true, error: null });
	try {
		created = await api.createGame(body);
		api.saveGame(created.id, { token: created.host_token, code: created.code, label: names.join(", ") });
		location.hash = "created";
	} catch (e) {
		form.error = errorOf(e);
	}
	form.busy = false;
	if (form.error) redraw();
}

// ---- the new game's links ----

export function renderCreated(app, isCurrent = () => true) {
	const c = created;
	if (!c) return false;
	showGame("er");
	const redraw = () => isCurrent() && renderCreated(app, isCurrent);
	const route = (token) => `#game=${encodeURIComponent(c.id)}&token=${encodeURIComponent(token)}`;
	// share.js (shown once a game, like the big screen's dialog) is loaded on first use
	import("./share.js").then(({ gameReady }) => isCurrent() && replaceKeepingFocus(app, h("section", { class: "panel created" }, gameReady({
		code: c.code, codeId: "join-code-shown", codeText: t("created.code", { code: c.code }),
		seats: c.seats.filter((s) => !s.bot).map((s) => ({ seat: s.seat, label: t("created.seat_link", { seat: s.seat, name: s.name }), route: route(s.seat_token) })),
		host: route(c.host_token), open: { id: "open-host", href: route(c.host_token), label: t("created.open_host") },
	}, redraw))));
	return true;
}

// ---- joining: the seats by player name, claimed ones only with a confirmation ----

/** notHere: opened from "#game=…&join=CODE" (a PDF's QR code) on a phone without the game. */
export async function renderJoin(app, code, isCurrent, notHere = false) {
	code = normCode(code);
	if (joining.code !== code || !joining.seats) {
		Object.assign(joining, { code, kind: null, seats: null, pick: null, error: null });
		try {
			({ kind: joining.kind, seats: joining.seats } = await api.joinInfo(code));
		} catch (e) {
			joining.error = errorOf(e);
		}
	}
	if (!isCurrent()) return;
	const redraw = () => renderJoin(app, code, isCurrent, notHere);
	showGame(joining.kind);
	const seatButtons = joining.seats
		? h("ul", { class: "seats" }, joining.seats.filter((s) => !s.bot).map((s) => h("li", {}, h("button", {
			type: "button", class: `seat${s.claimed ? " claimed" : ""}${joining.pick === s.seat ? " chosen" : ""}`, "data-seat": s.seat,
			onclick: () => take(s, false, redraw),
		}, s.name, h("span", { class: "tag" }, s.claimed ? t("join.claimed") : t("join.free")),
		h("span", { class: "sr-only" }, ` — ${t("join.seat_n", { n: s.seat })}`)))))
		: null;
	const claimed = joining.seats && joining.pick && joining.seats.find((s) => s.seat === joining.pick && s.claimed);
	const confirm = claimed
		? h("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-q" },
			h("p", { id: "confirm-q" }, t("join.replace_q", { name: claimed.name })),
			h("div", { class: "actions-inline" },
				h("button", { type: "button", class: "primary", id: "confirm-replace", onclick: () => take(claimed, true, redraw) }, t("join.replace_yes", { name: claimed.name })),
				h("button", { type: "button", id: "cancel-replace", onclick: () => { joining.pick = null; redraw(); } }, t("game.cancel"))))
		: null;
	const names = joining.seats ? joining.seats.map((s) => s.name).join(", ") : "";
	replaceKeepingFocus(app, h("section", { class: "panel join-screen" },
		h("h1", {}, notHere ? t("game.not_here") : t("join.title", { code })),
		notHere && joining.seats ? h("p", { id: "not-here" }, t("join.not_here", { names, code })) : null,
		joining.error ? errorBox(joining.error, { id: "join-error", "data-rule": joining.error.rule }) : null,
		seatButtons ? h("p", {}, t("join.pick")) : null, seatButtons, confirm,
		h("a", { class: "button wide", href: "#" }, t("nav.home"))));
	if (confirm) app.querySelector("#confirm-replace").focus();
}

async function take(seat, replace, redraw) {
	if (joining.busy) return;
	if (seat.claimed && !replace) {
		joining.pick = seat.seat;
		return redraw();
	}
	joining.busy = true;
	joining.error = null;
	try {
		const r = await api.join(joining.code, seat.seat, replace);
		joining.busy = false;
		joining.seats = null;
		const entry = { token: r.seat_token, code: joining.code, label: r.name, seat: seat.seat };
		if (r.kind === "dh" || r.kind === "clinic") {
			// Dice Hospital and Clinic: their own screens (tabletop.js) and list
			api.storeGame(api.TT_STORE, r.game, { ...entry, kind: r.kind });
			location.hash = `tt=${r.kind}&game=${encodeURIComponent(r.game)}`;
			return;
		}
		api.saveGame(r.game, entry);
		location.hash = `game=${encodeURIComponent(r.game)}`;
	} catch (e) {
		joining.busy = false;
		if (e instanceof api.ApiError && e.rule === "seat-claimed" && joining.seats) {
			// claimed since the list was read: ask before taking it over
			const s = joining.seats.find((x) => x.seat === seat.seat);
			if (s) s.claimed = true;
			joining.pick = seat.seat;
		} else joining.error = errorOf(e);
		redraw();
	}
}

// ---- printing blank sheets ----

export function renderPrint(app) {
	showGame("er");
	if (!print.lang) print.lang = lang();
	if (!print.paper) print.paper = paperOf();
	const url = () => `/api/v1/er/sheets.pdf?count=${print.count}&paper=${print.paper}&lang=${print.lang}`;
	const link = h("a", { class: "button primary wide", id: "print-pdf", href: url(), download: "" }, t("print.download"));
	const upd = () => link.setAttribute("href", url());
	const count = h("input", {
		type: "number", id: "print-count", min: 1, max: 100, value: print.count, inputmode: "numeric",
		oninput: (e) => {
			const n = Math.round(Number(e.target.value));
			if (n >= 1 && n <= 100) print.count = n;
			upd();
		},
	});
	replaceKeepingFocus(app, h("form", { class: "panel", id: "print", onsubmit: (e) => { e.preventDefault(); link.click(); } },
		h("h1", {}, t("print.title")),
		h("p", {}, t("print.help")),
		field("print.count", count),
		radios("print.paper", "paper", ["a4", "letter"], print.paper, (p) => { print.paper = p; upd(); }, (p) => t(`print.${p}`)),
		radios("print.lang", "plang", languages(), print.lang, (l) => { print.lang = l; upd(); }, (l) => h("span", { lang: l }, t(`lang.${l}`))),
		link,
		h("a", { class: "button wide", href: "#" }, t("nav.home"))));
}
