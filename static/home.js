// The screens outside a game: home (new game, join, this phone's games), the new game's links and
// QR codes, joining a table seat by seat, and printing blank sheets.
import * as api from "./api.js";
import { h } from "./dom.js";
import { t, lang, languages } from "./i18n.js";
import { errorOf, errorBox, replaceKeepingFocus } from "./view.js";
// the league choice of the new-game form: shown to a logged-in owner or member only
import { leaguePicker } from "./league-picker.js";

const MODIFIERS = ["preparation", "equipment", "isolation", "capacity"];
const form = {
	players: ["", ""], solo: false, modifiers: [], deck: "table", chooseSpecs: false,
	specs: { c1: "", c2: "", radiologist: "", epidemiologist: "" },
	league: "", error: null, busy: false,
};
const joining = { code: "", seats: null, pick: null, error: null, busy: false };
const print = { count: 10, paper: "", lang: "" };
let created = null; // the reply of the last game created here

/** A join code as typed or pasted ("ab3-k9q", "AB3 K9Q"): spaces and dashes out, upper case, 6 characters. */
export const normCode = (s) => s.replace(/[\s-]+/g, "").toUpperCase().slice(0, 6);
const field = (labelKey, input, vars) => h("label", { class: "field" }, h("span", {}, t(labelKey, vars)), input);
// links and QR codes use the address the host opened, or the one chosen on the new game's screen
// (on localhost: the machine's address on the network, from GET /api/v1/addresses)
const share = { list: null, origin: "" };
const base = () => `${share.origin || location.origin}${location.pathname}`;
const joinLink = (code) => `${base()}#join=${encodeURIComponent(code)}`;
export const seatLink = (id, token) => `${base()}#game=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
const isLocal = () => /^(localhost|127\.[\d.]+|\[::1\])$/.test(location.hostname);
/** Paper for this phone's language: US Letter in the Americas' English and Spanish, else A4. */
export const paperOf = () => (/^en-(US|CA)|^es-(US|MX)/.test(navigator.language) ? "letter" : "a4");
const qr = (url, alt) => h("img", { class: "qr", src: `/api/v1/qr.svg?data=${encodeURIComponent(url)}`, alt, width: 160, height: 160, loading: "lazy" });

// ---- home ----

/** extra(): a promise of a panel added at the end (the Dice Hospital and Clinic links). */
export async function renderHome(app, isCurrent, extra) {
	let data;
	try {
		data = await api.gameData();
	} catch {
		app.replaceChildren(h("h1", {}, t("app.title")), h("p", { class: "error", role: "alert" }, t("error.network")));
		return;
	}
	if (!isCurrent()) return;
	const redraw = () => renderHome(app, isCurrent, extra);
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
					? h("button", { type: "button", class: "icon-btn", "data-remove": i + 1, "aria-label": t("new.remove", { n: i + 1 }),
						onclick: () => { form.players.splice(i, 1); redraw(); } }, "×")
					: null)),
		!form.solo && form.players.length < 6
			? h("button", { type: "button", class: "secondary", id: "add-player", onclick: () => { form.players.push(""); redraw(); } }, `+ ${t("new.add")}`)
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
	const deck = h("fieldset", {}, h("legend", {}, t("new.deck")), ["table", "app"].map((d) =>
		h("label", { class: "check" }, h("input", { type: "radio", name: "deck", value: d, checked: form.deck === d, onchange: () => (form.deck = d) }), h("span", {}, t(`deck.${d}`)))));
	const specChoice = h("fieldset", {}, h("legend", {}, t("new.specialists")),
		[false, true].map((c) => h("label", { class: "check" }, h("input", {
			type: "radio", name: "specs", value: c ? "choose" : "drawn", checked: form.chooseSpecs === c,
			onchange: () => { form.chooseSpecs = c; redraw(); },
		}), h("span", {}, t(c ? "new.spec.choose" : "new.spec.drawn")))),
		form.chooseSpecs
			? h("div", { class: "spec-selects" },
				field("kind.cardiologist", specSelect("c1", "cardiologist")),
				field("kind.cardiologist", specSelect("c2", "cardiologist")),
				field("kind.radiologist", specSelect("radiologist", "radiologist")),
				field("kind.epidemiologist", specSelect("epidemiologist", "epidemiologist")))
			: null);
	const newGame = h("form", { class: "panel", id: "new-game", onsubmit: (e) => { e.preventDefault(); create(redraw); } },
		h("h2", {}, t("home.new")), players, solo, mods, deck, specChoice,
		form.error ? errorBox(form.error, { id: "create-error", "data-rule": form.error.rule }) : null,
		h("button", { type: "submit", class: "primary wide", id: "create", disabled: form.busy }, t("new.create")));

	const joinForm = joinPanel();

	const saved = Object.entries(api.savedGames()).sort((a, b) => (b[1].at || "").localeCompare(a[1].at || ""));
	const mine = h("section", { class: "panel", "aria-labelledby": "mine-h" }, h("h2", { id: "mine-h" }, t("home.mine")),
		saved.length
			? h("ul", { class: "mine" }, saved.slice(0, 10).map(([id, e]) => h("li", {},
				h("a", { class: "button secondary", href: `#game=${encodeURIComponent(id)}` }, `${t("home.open")} ${e.code || id.slice(0, 6)}${e.label ? ` — ${e.label}` : ""}`),
				h("button", { type: "button", class: "icon-btn", "data-forget": id, "aria-label": `${t("home.forget")} ${e.code || id}`, onclick: () => { api.forgetGame(id); redraw(); } }, "×"))))
			: h("p", { class: "muted" }, t("home.none")));
	const printLink = h("p", { class: "print-link" }, h("a", { class: "button secondary wide", href: "#print", id: "open-print" }, t("print.open")));

	const more = h("div", { class: "home-more" });
	replaceKeepingFocus(app, h("div", { class: "home" }, h("h1", { class: "home-h1" }, t("home.title")), joinForm, mine, newGame, printLink, more));
	if (extra) extra().then((panel) => isCurrent() && more.replaceChildren(panel)).catch((e) => console.warn(e));
	leagueChoice().then((pick) => pick && isCurrent() && newGame.isConnected && (relabel(pick), newGame.querySelector("#create").before(pick.label)));
}

/** Join by code: a code field and its button (the home screen; a game not on this phone). */
function joinPanel(heading = h("h2", {}, t("home.join"))) {
	return h("form", { class: "panel", id: "join", onsubmit: (e) => { e.preventDefault(); location.hash = `join=${encodeURIComponent(normCode(joining.code))}`; } },
		heading,
		field("join.code", h("input", {
			type: "text", id: "join-code", value: joining.code, minlength: 6, required: true, autocomplete: "off",
			autocapitalize: "characters", spellcheck: "false", class: "code-input", name: "code",
			// no maxlength: it would cut a pasted "AB3 K9Q" before the space is taken out
			oninput: (e) => (e.target.value = joining.code = normCode(e.target.value)),
		})),
		h("button", { type: "submit", class: "primary wide", id: "join-go" }, t("join.find")));
}

/** "#game=ID" on a phone without that game (a PDF's QR code, a link without its token). */
export function renderNotHere(app) {
	replaceKeepingFocus(app, [h("div", { class: "panel", role: "alert" }, h("h1", {}, t("game.not_found"))), joinPanel()]);
}

// one picker per page load, moved into every render (keeps its choice)
let leaguePick = null;
function leagueChoice() {
	if (!localStorage.getItem("dh.leagues.session")) return Promise.resolve(null); // never logged in here (leagues.js)
	if (!leaguePick)
		leaguePick = leaguePicker(t("new.league"), t("new.no_league")).then((pick) => {
			if (pick) {
				pick.select.id = "new-league";
				pick.select.value = form.league;
				pick.select.addEventListener("change", (e) => (form.league = e.target.value));
			}
			return pick;
		}).catch(() => null);
	return leaguePick;
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
		redraw();
	}
}

// ---- the new game's links ----

function copyButton(input) {
	return h("button", {
		type: "button", class: "secondary copy", onclick: async (e) => {
			const btn = e.currentTarget;
			try {
				await navigator.clipboard.writeText(input.value);
			} catch {
				input.select();
				if (document.execCommand) document.execCommand("copy");
			}
			btn.textContent = t("created.copied");
		},
	}, t("created.copy"));
}

function linkRow(label, url, testid, withQr) {
	const id = `link-${testid}`;
	const input = h("input", { type: "text", readonly: true, value: url, id, "data-link": testid, onfocus: (e) => e.target.select() });
	return h("li", { class: "link-row" }, h("label", { class: "link-label", for: id }, label), h("div", { class: "link-line" }, input, copyButton(input)),
		withQr ? h("details", { class: "qr-box" }, h("summary", {}, t("created.qr")), qr(url, t("created.qr_alt", { what: label }))) : null);
}

/** On localhost: a warning, and the addresses other phones can open to choose from. */
function sharePanel(redraw) {
	if (!isLocal()) return null;
	if (!share.list) {
		share.list = [];
		api.request("GET", "/addresses").then((r) => {
			share.list = [...(r.public_url ? [r.public_url.replace(/\/$/, "")] : []), ...r.lan.map((u) => u.replace(/\/$/, ""))];
			redraw();
		}).catch(() => {});
	}
	const choice = (origin, key) => h("label", { class: "check" },
		h("input", { type: "radio", name: "share-origin", value: origin, checked: (share.origin || location.origin) === origin, onchange: () => { share.origin = origin; redraw(); } }),
		h("span", {}, t(key, { host: origin.replace(/^https?:\/\//, "") })));
	return h("div", { class: "share-warn", id: "share-warn" },
		h("p", {}, t("share.local_warn", { host: location.host })),
		share.list.length
			? h("fieldset", {}, h("legend", {}, t("share.address")), choice(location.origin, "share.this_machine"), share.list.map((o) => choice(o, "share.lan")))
			: h("p", {}, t("share.no_lan")));
}

export function renderCreated(app, isCurrent = () => true) {
	const c = created;
	if (!c) return false;
	const redraw = () => isCurrent() && renderCreated(app, isCurrent);
	replaceKeepingFocus(app, h("section", { class: "panel created" },
		h("h1", {}, t("created.title")),
		sharePanel(redraw),
		h("h2", { class: "big-code", id: "join-code-shown", "data-code": c.code }, t("created.code", { code: c.code })),
		h("div", { class: "join-qr" }, qr(joinLink(c.code), t("created.qr_alt", { what: t("created.join_link") })), h("p", { class: "muted" }, t("created.join_qr"))),
		h("p", {}, t("created.links")),
		h("ul", { class: "links" },
			c.seats.filter((s) => !s.bot).map((s) => linkRow(t("created.seat_link", { seat: s.seat, name: s.name }), seatLink(c.id, s.seat_token), `seat-${s.seat}`, true)),
			linkRow(t("created.host"), seatLink(c.id, c.host_token), "host", false)),
		h("a", { class: "button primary wide", id: "open-host", href: `#game=${encodeURIComponent(c.id)}&token=${encodeURIComponent(c.host_token)}` }, t("created.open_host"))));
	return true;
}

// ---- joining: the seats by player name, claimed ones only with a confirmation ----

/** notHere: opened from "#game=…&join=CODE" (a PDF's QR code) on a phone without the game. */
export async function renderJoin(app, code, isCurrent, notHere = false) {
	code = normCode(code);
	if (joining.code !== code || !joining.seats) {
		Object.assign(joining, { code, seats: null, pick: null, error: null });
		try {
			joining.seats = (await api.joinInfo(code)).seats;
		} catch (e) {
			joining.error = errorOf(e);
		}
	}
	if (!isCurrent()) return;
	const redraw = () => renderJoin(app, code, isCurrent, notHere);
	const seatButtons = joining.seats
		? h("ul", { class: "seats" }, joining.seats.filter((s) => !s.bot).map((s) => h("li", {}, h("button", {
			type: "button", class: `seat${s.claimed ? " claimed" : ""}${joining.pick === s.seat ? " chosen" : ""}`, "data-seat": s.seat,
			onclick: () => take(s, false, redraw),
		}, h("span", { class: "pname" }, s.name), h("span", { class: "tag" }, s.claimed ? t("join.claimed") : t("join.free")),
		h("span", { class: "sr-only" }, ` — ${t("join.seat_n", { n: s.seat })}`)))))
		: null;
	const claimed = joining.seats && joining.pick && joining.seats.find((s) => s.seat === joining.pick && s.claimed);
	const confirm = claimed
		? h("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-q" },
			h("p", { id: "confirm-q" }, t("join.replace_q", { name: claimed.name })),
			h("div", { class: "actions-inline" },
				h("button", { type: "button", class: "primary", id: "confirm-replace", onclick: () => take(claimed, true, redraw) }, t("join.replace_yes", { name: claimed.name })),
				h("button", { type: "button", class: "secondary", id: "cancel-replace", onclick: () => { joining.pick = null; redraw(); } }, t("game.cancel"))))
		: null;
	const names = joining.seats ? joining.seats.map((s) => s.name).join(", ") : "";
	replaceKeepingFocus(app, h("section", { class: "panel join-screen" },
		h("h1", {}, notHere ? t("game.not_here") : t("join.title", { code })),
		notHere && joining.seats ? h("p", { id: "not-here" }, t("join.not_here", { names, code })) : null,
		joining.error ? errorBox(joining.error, { id: "join-error", "data-rule": joining.error.rule }) : null,
		seatButtons ? h("p", {}, t("join.pick")) : null, seatButtons, confirm,
		h("a", { class: "button secondary wide", href: "#" }, t("nav.home"))));
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
		if (r.kind === "dh" || r.kind === "clinic") {
			// Dice Hospital and Clinic have their own screens (tabletop.js)
			location.hash = `tt=${r.kind}&game=${encodeURIComponent(r.game)}&token=${encodeURIComponent(r.seat_token)}`;
			return;
		}
		api.saveGame(r.game, { token: r.seat_token, code: joining.code, label: r.name, seat: seat.seat });
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
	replaceKeepingFocus(app, h("form", { class: "panel print", id: "print", onsubmit: (e) => { e.preventDefault(); link.click(); } },
		h("h1", {}, t("print.title")),
		h("p", {}, t("print.help")),
		field("print.count", count),
		h("fieldset", {}, h("legend", {}, t("print.paper")), ["a4", "letter"].map((p) =>
			h("label", { class: "check" }, h("input", { type: "radio", name: "paper", value: p, checked: print.paper === p, onchange: () => { print.paper = p; upd(); } }), h("span", {}, t(`print.${p}`))))),
		h("fieldset", {}, h("legend", {}, t("print.lang")), languages().map((l) =>
			h("label", { class: "check" }, h("input", { type: "radio", name: "plang", value: l, checked: print.lang === l, onchange: () => { print.lang = l; upd(); } }), h("span", { lang: l }, t(`lang.${l}`))))),
		link,
		h("a", { class: "button secondary wide", href: "#" }, t("nav.home"))));
}

/** The league picker's texts in the current language (one element lives across renders). */
function relabel(pick) {
	pick.label.firstChild.textContent = t("new.league");
	pick.select.options[0].text = t("new.no_league");
}
