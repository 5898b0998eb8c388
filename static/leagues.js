// League screens: sign up / log in, my leagues, a league (standings as cards with a sort choice,
// recent plays, seasons, co-owners, files in and out), its members (rename, link to an
// account, merge, remove, "this is me"), head-to-head, a player's history with a rating chart
// (inline SVG), a play (edit, delete) and the play form. Its own module and strings
// (i18n/leagues.{en,fr}.json); the language and theme choices are the ones the game screens
// store.
import { request, ApiError } from "./api.js";
import { h, s } from "./dom.js";
import { bars, boxes, figure, hbars, heat, lines } from "./charts.js";
import { invitationsPanel, pendingPanels } from "./consent.js";
import { initTheme } from "./theme.js";
import { bgstatsLink } from "./bgstats-link.js";
import { csvMappingView, mappingQuery } from "./csvimport.js";
import { challengesPanel } from "./challenges.js";
import { t, tn, has, lang, keepLang, loadLang as loadStrings } from "./leagues-i18n.js";

const BASE = "/api/v1";
const app = document.getElementById("app");
let me = null; // the logged-in account, or null
let flash = null; // a sentence the next screen shows once (what the last action did)
// a hint for the new-game forms (home.js, tabletop/create.js): this browser has a session, so
// they may ask GET /leagues for the league choice (without it they do not: no 401 on every home)
const SESSION_HINT = "dh.leagues.session";
const hint = (on) => (on ? localStorage.setItem(SESSION_HINT, "1") : localStorage.removeItem(SESSION_HINT));

// ---- small helpers ----

async function loadLang(l) {
	await loadStrings(l);
	applyTheme();
}

/** The API (cookies travel with it: same origin), with this screen's sentence for a server that
 * cannot be reached; contentType sends body as it is. Reads revalidate what the browser keeps
 * (the league reads carry an ETag: an unchanged league answers 304). */
const api = (method, path, body, contentType, headers) =>
	request(method, path, body, undefined, { contentType, headers, network: t("error.network"), cache: method === "GET" ? "no-cache" : undefined });

/** A new Idempotency-Key: 128 random bits in hex (crypto.getRandomValues works over plain HTTP
 * too, unlike crypto.randomUUID). */
function idempotencyKey() {
	return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---- plays saved without a network: kept on this phone, sent when it returns ----
// Each waits with its Idempotency-Key (dh.leagues.pending: [{lid, key, body, league}]), so a
// play whose reply was lost is stored once however often it is sent again.
const PENDING = "dh.leagues.pending";
const pendingPlays = () => JSON.parse(localStorage.getItem(PENDING) || "[]");
const keepPending = (list) => (list.length ? localStorage.setItem(PENDING, JSON.stringify(list)) : localStorage.removeItem(PENDING));
let sending = null;

/** Sends the plays that wait, oldest first; stops at the first network failure. A play the
 * server refuses is dropped, its refusal said on the next screen. Redraws when one went. */
function sendPending() {
	sending ??= (async () => {
		let sent = 0;
		for (const x of pendingPlays()) {
			try {
				await api("POST", `/leagues/${enc(x.lid)}/plays`, x.body, undefined, { "Idempotency-Key": x.key });
				sent++;
			} catch (e) {
				if ([0, 401, 429, 503].includes(e.status)) break; // later (a session again, the network back)
				flash = `${t("play.pending_refused", { game: x.body.game })} ${problemText(e)}`;
			}
			keepPending(pendingPlays().filter((y) => y.key !== x.key));
		}
		if (sent) flash ??= tn("play.pending_sent", sent);
		return sent;
	})().finally(() => (sending = null));
	// a form being filled in is not drawn again (what it holds would be lost)
	return sending.then((n) => (n || flash) && me && !/^#(add|edit)=/.test(location.hash) && route());
}

/** A refusal in this screen's words: the rule's sentence when there is one, else the server's. */
function problemText(e) {
	if (e.status === 0) return t("error.network");
	if (e.rule && has(`rule.${e.rule}`)) return t(`rule.${e.rule}`);
	if (e.status === 400 && e.field && has(`field${e.field}`)) return t(`field${e.field}`);
	return e.message;
}

function errorBox(e) {
	const text = problemText(e);
	// the server's English sentence says more: a second line in English, a tooltip otherwise
	const more = text !== e.message && e.message && lang() === "en" ? h("div", { class: "detail" }, e.message) : null;
	return h("p", { class: "error", role: "alert", "data-rule": e.rule || null, title: text !== e.message ? e.message : null }, text, more);
}

/** The screen: these parts (null ones left out). A sentence the last action left is brought
 * into view and given the focus (the control that acted may be gone). */
function show(...parts) {
	app.replaceChildren(...parts.filter((x) => x !== null && x !== undefined));
	app.querySelector('[data-testid="flash"]')?.focus();
}

function panel(...children) {
	return h("section", { class: "panel" }, ...children);
}

/** A small link to the help page of topic (static/help/LANG/TOPIC.html), in the language shown. */
const helpLink = (topic) => h("a", { class: "lg-help", href: `help/${document.documentElement.lang}/${topic}.html`, "data-help": topic }, t(`help.${topic}`));

function field(label, input) {
	return h("label", { class: "field" }, h("span", {}, label), input);
}

/** A number the language's way (a decimal comma in French), at most digits decimals. */
function fmt(x, digits = 1) {
	return x === null || x === undefined ? "–" : new Intl.NumberFormat(lang(), { maximumFractionDigits: digits, useGrouping: false }).format(Number(x));
}

function day(iso) {
	if (iso === null || iso === undefined) return t("play.undated"); /* a play logged without a date */
	return String(iso).slice(0, 10); /* the play's own local date, wherever it is read */
}

/** What a seat's file said of it beyond the score (role, team, start, new player), one line. */
function seatLine(r) {
	// the team is the heading its seats are listed under (playResultGroups)
	const bits = [r.role, r.start_player ? t("play.seat_start") : null, r.new_player ? t("play.seat_new") : null];
	if (r.start_position && r.start_position !== r.role) bits.push(t("play.seat_position", { position: r.start_position }));
	const text = bits.filter(Boolean).join(" · ");
	return text ? h("div", { class: "lg-seat muted", "data-testid": "seat-details" }, text) : null;
}

const pad2 = (n) => String(n).padStart(2, "0");
/* A date that a line never breaks at its hyphens (a word joiner after each). */
const unbroken = (text) => String(text).replace(/-/g, "-\u2060");
const enc = encodeURIComponent;
const nameKey = (n) => String(n).trim().toLocaleLowerCase();

/* The phone's local date today (YYYY-MM-DD), not UTC's. */
function localToday(now = new Date()) {
	return `${now.getFullYear()}-${pad2(now.getMonth() + 1)}-${pad2(now.getDate())}`;
}

/* A play's date as sent: today's becomes this moment in RFC 3339 with the phone's offset (the
 * play keeps its local time); another day stays a date. */
function playStamp(dateValue, now = new Date()) {
	if (dateValue !== localToday(now)) return dateValue;
	const off = -now.getTimezoneOffset();
	const sign = off < 0 ? "-" : "+";
	const hm = `${pad2(Math.floor(Math.abs(off) / 60))}:${pad2(Math.abs(off) % 60)}`;
	return `${dateValue}T${pad2(now.getHours())}:${pad2(now.getMinutes())}:${pad2(now.getSeconds())}${sign}${hm}`;
}

function params() {
	return new URLSearchParams(location.hash.replace(/^#/, ""));
}

/** The season and game filters of the hash, as a query (for the API and for links). */
function filters() {
	const p = params();
	const q = new URLSearchParams();
	for (const k of ["season", "game"]) if (p.get(k)) q.set(k, p.get(k));
	return q;
}

// lists that grow (plays, a player's history) come a page at a time: limit ≤ 500, offset, total
const PAGE_MAX = 500;
const PAGE_MORE = 50;

/** A whole paged list: the first page's reply with list key holding every item. Bounded by
 * the total the server reports (and by an empty page). */
async function fetchAll(path, key) {
	const sep = path.includes("?") ? "&" : "?";
	let reply = null;
	const items = [];
	for (;;) {
		const page = await api("GET", `${path}${sep}limit=${PAGE_MAX}&offset=${items.length}`);
		reply ??= page;
		items.push(...page[key]);
		if (!page[key].length || items.length >= page.total) break;
	}
	return { ...reply, [key]: items };
}

/** A form whose submit runs fn(form) with its button disabled; errors are shown above it. */
function form(children, submitLabel, fn, { primary = true } = {}) {
	const out = h("div");
	const button = h("button", { class: primary ? "primary wide" : "wide", type: "submit" }, submitLabel);
	const f = h("form", {}, out, ...children, button);
	f.addEventListener("submit", async (ev) => {
		ev.preventDefault();
		button.disabled = true;
		out.replaceChildren();
		try {
			await fn(f);
		} catch (e) {
			out.replaceChildren(errorBox(e));
		} finally {
			button.disabled = false;
		}
	});
	return f;
}

/** A button that asks first: a tap shows question (a sentence, or a function giving it then)
 * with a confirming and a cancelling button; the confirmation runs action (errors shown in
 * place). */
function confirmButton(label, question, yes, action, { danger = false } = {}) {
	const box = h("div", { class: "lg-confirm-box" });
	const start = h("button", { type: "button", class: danger ? "wide lg-danger" : "wide" }, label);
	const show = () => {
		const msg = h("div");
		const ok = h("button", { type: "button", class: danger ? "lg-danger-solid" : "primary" }, yes);
		const no = h("button", { type: "button" }, t("action.cancel"));
		ok.addEventListener("click", async () => {
			ok.disabled = no.disabled = true;
			msg.replaceChildren();
			try {
				await action();
			} catch (e) {
				msg.replaceChildren(errorBox(e));
				ok.disabled = no.disabled = false;
			}
		});
		no.addEventListener("click", () => {
			box.replaceChildren(start);
			start.focus();
		});
		box.replaceChildren(h("div", { class: "lg-confirm", role: "group", "aria-label": label }, h("p", {}, typeof question === "function" ? question() : question), msg, h("div", { class: "lg-actions" }, ok, no)));
		ok.focus();
	};
	start.addEventListener("click", show);
	box.append(start);
	return box;
}

/** The sentence the last action left for this screen, once. */
function flashBox() {
	if (!flash) return null;
	const el = h("p", { class: "lg-ok", role: "status", tabindex: "-1", "data-testid": "flash" }, flash);
	flash = null;
	return el;
}

// ---- screens ----

function renderAuth(signup) {
	const email = h("input", { type: "email", name: "email", autocomplete: "email", required: true });
	const pw = h("input", { type: "password", name: "password", autocomplete: signup ? "new-password" : "current-password", required: true, minlength: signup ? 8 : 1 });
	const name = h("input", { type: "text", name: "display_name", autocomplete: "nickname", required: true, maxlength: 64 });
	const fields = signup ? [field(t("auth.email"), email), field(t("auth.name"), name), field(t("auth.password"), pw)] : [field(t("auth.email"), email), field(t("auth.password"), pw)];
	show(
		panel(
			h("h1", {}, signup ? t("auth.signup") : t("auth.login")),
			form(fields, signup ? t("auth.signup") : t("auth.login"), async () => {
				if (signup) await api("POST", "/accounts", { email: email.value, password: pw.value, display_name: name.value });
				const r = await api("POST", "/sessions", { email: email.value, password: pw.value });
				me = r.account;
				hint(true);
				location.hash = "";
				route();
			}),
			h("button", { class: "wide", type: "button", onclick: () => renderAuth(!signup) }, signup ? t("auth.have_account") : t("auth.no_account")),
		),
	);
}

/** The helpers consent.js draws with; done(text) shows text on the screen redraw() draws. */
const consentUi = (redraw) => ({ api, t, tn, h, panel, confirmButton, errorBox, enc, done: async (text) => ((flash = text), await redraw()) });

async function renderHome() {
	const [{ leagues }, invitations] = await Promise.all([api("GET", "/leagues"), invitationsPanel(consentUi(renderHome))]);
	const name = h("input", { type: "text", name: "league", required: true, maxlength: 64 });
	show(
		flashBox(),
		invitations,
		panel(
			h("h1", {}, t("leagues.mine")),
			helpLink("leagues"),
			leagues.length
				? h("ul", { class: "lg-list" }, leagues.map((l) => h("li", {}, h("a", { class: "button", href: `#league=${enc(l.id)}` }, h("span", {}, l.name), h("span", { class: "muted" }, tn("leagues.plays", l.plays))))))
				: h("p", { class: "muted" }, t("leagues.none")),
		),
		panel(
			h("h2", {}, t("leagues.new")),
			form([field(t("leagues.name"), name)], t("leagues.create"), async () => {
				const l = await api("POST", "/leagues", { name: name.value });
				location.hash = `league=${enc(l.id)}`;
			}),
		),
		h("p", { class: "muted" }, t("auth.hello", { name: me.display_name })),
		h("button", { class: "wide", type: "button", onclick: logout }, t("auth.logout")),
	);
}

async function logout() {
	// a screen still being drawn is drawn first, so it cannot replace what log-out says
	await routing;
	try {
		await api("DELETE", "/sessions/current");
	} catch (e) {
		// 401: the session had already ended; anything else: still logged in, say why
		if (e.status !== 401) return show(errorBox(e), h("a", { class: "button wide", href: "#" }, t("back")));
	}
	me = null;
	hint(false);
	location.hash = "";
	route();
}

// ---- standings: one card per player (readable on the narrowest phone, no sideways scroll) ----

// [key, label, sorts highest first]
const SORTS = [
	["ordinal", "league.rating", true],
	["name", "league.player", false],
	["games", "league.games", true],
	["wins", "league.wins", true],
	["win_rate", "league.win_rate", true],
	["average_score", "league.avg_score", true],
	["best_score", "league.best", true],
	["average_rank", "league.avg_rank", false],
];

function sortRows(rows, key) {
	const desc = SORTS.find(([k]) => k === key)[2];
	const val = (r) => (key === "ordinal" ? r.rating.ordinal : r[key]);
	return [...rows].sort((a, b) => {
		const x = val(a), y = val(b);
		const c = typeof x === "string" ? x.localeCompare(y) : (x ?? -Infinity) - (y ?? -Infinity);
		return desc ? -c : c;
	});
}

function standingCard(r, pos, link) {
	const stat = (label, value) => h("div", {}, h("dt", {}, t(label)), h("dd", {}, value));
	return h(
		"li",
		{ class: "lg-card", "data-testid": "standing" },
		h(
			"div",
			{ class: "lg-card-head" },
			h("span", { class: "lg-pos", "aria-hidden": "true" }, pos),
			h("a", { class: "lg-name", href: link(r.player) }, r.name),
			h("span", { class: "lg-rating" }, h("span", { class: "lg-rating-label" }, t("league.rating")), h("span", { class: "lg-rating-value" }, fmt(r.rating.ordinal), r.rating.provisional ? h("abbr", { class: "lg-prov", title: t("league.provisional") }, "?") : null)),
		),
		h(
			"dl",
			{ class: "lg-stats" },
			stat("league.games", r.games),
			stat("league.wins", r.wins),
			stat("league.win_rate", new Intl.NumberFormat(lang(), { style: "percent" }).format(r.win_rate)),
			stat("league.avg_score", fmt(r.average_score)),
			stat("league.best", fmt(r.best_score)),
			stat("league.avg_rank", fmt(r.average_rank, 2)),
		),
	);
}

/** The standings as cards; link(player) is the address of a player's page. */
function standingsView(rows, link) {
	if (!rows.length) return h("p", { class: "muted" }, t("league.no_plays"));
	const list = h("ol", { class: "lg-cards", "data-testid": "standings" });
	const draw = (key) => list.replaceChildren(...sortRows(rows, key).map((r, i) => standingCard(r, i + 1, link)));
	const sel = h("select", { id: "lg-sort", onchange: (e) => draw(e.target.value) }, SORTS.map(([k, label]) => h("option", { value: k }, t(label))));
	draw("ordinal");
	const legend = rows.some((r) => r.rating.provisional) ? h("p", { class: "muted" }, `? ${t("league.provisional")} (σ ≥ 4)`) : null;
	return h("div", {}, field(t("league.sort_by"), sel), list, legend);
}

// ---- a league ----

async function renderLeague(id) {
	const lid = enc(id);
	const lg = await api("GET", `/leagues/${lid}`);
	const p = params();
	const season = p.get("season") || "";
	const game = p.get("game") || "";
	const q = filters();
	const [st, plays] = await Promise.all([api("GET", `/leagues/${lid}/standings?${q}`), api("GET", `/leagues/${lid}/plays?limit=10`)]);
	const filter = (k, v) => {
		const n = new URLSearchParams(location.hash.slice(1));
		if (v) n.set(k, v);
		else n.delete(k);
		location.hash = n.toString();
	};
	const seasonSel = h("select", { id: "lg-season", onchange: (e) => filter("season", e.target.value) }, h("option", { value: "" }, t("league.all_seasons")), lg.seasons.map((x) => h("option", { value: x.id, selected: x.id === season }, x.name)));
	const gameSel = h("select", { id: "lg-game", onchange: (e) => filter("game", e.target.value) }, h("option", { value: "" }, t("league.all_games")), lg.games.map((g) => h("option", { value: g, selected: g === game }, g)));
	const owner = lg.you.owner;
	const qs = q.toString();
	show(
		flashBox(),
		panel(
			h("h1", {}, lg.name),
			helpLink("leagues"),
			h("div", { class: "lg-filters" }, field(t("league.season"), seasonSel), field(t("league.game"), gameSel)),
			// the pictures of these filters: near the top, the standings can be long
			st.standings.length ? h("a", { class: "button wide", id: "lg-pictures", href: `#pictures=${lid}${qs ? `&${qs}` : ""}` }, t("pics.see")) : null,
			h("h2", {}, t("league.standings")),
			standingsView(st.standings, (pid) => `#player=${lid}/${enc(pid)}${qs ? `&${qs}` : ""}`),
			h(
				"div",
				{ class: "lg-actions" },
				h("a", { class: "button", href: `#h2h=${lid}${qs ? `&${qs}` : ""}` }, t("league.h2h")),
				// the league report: the same filters; the session cookie goes with the link
				h("a", { class: "button", id: "lg-report-pdf", href: `${BASE}/leagues/${lid}/standings.pdf?${qs}${qs ? "&" : ""}lang=${lang() === "fr" ? "fr" : "en"}`, download: "" }, t("league.report_pdf")),
			),
			h("a", { class: "button primary wide", href: `#add=${lid}` }, t("league.add_play")),
		),
		waitingPlays(lg.id),
		panel(h("h2", {}, t("league.recent")), recentPlays(lid, plays)),
		challengesPanel(lg, { t, h, panel, field, form, api, errorBox }),
		membersSummary(lg),
		seasonsPanel(lg, season),
		ownersPanel(lg),
		filesPanel(lg),
		h("a", { class: "button wide", href: "#" }, t("back")),
	);
}

/** The newest plays (the first page, given) and a button that brings the next page. */
function recentPlays(lid, first) {
	const item = (x) =>
		h(
			"li",
			{},
			h(
				"a",
				{ class: "button lg-play", href: `#play=${lid}/${enc(x.id)}` },
				h("span", { class: "lg-play-game" }, h("span", { class: "lg-date" }, day(x.date)), " ", x.game),
				h("span", { class: "muted" }, x.ignored || x.incomplete ? t(x.incomplete ? "play.incomplete" : "play.ignored") : x.players.filter((y) => y.winner).map((y) => y.name).join(", ")),
			),
		);
	if (!first.plays.length) return h("p", { class: "muted" }, t("league.no_plays"));
	const list = h("ul", { class: "lg-list", "data-testid": "recent-plays" }, first.plays.map(item));
	const msg = h("div");
	let shown = first.plays.length;
	const more = h("button", { class: "wide", type: "button", hidden: shown >= first.total }, t("league.more_plays"));
	more.addEventListener("click", async () => {
		more.disabled = true;
		msg.replaceChildren();
		try {
			const page = await api("GET", `/leagues/${lid}/plays?limit=${PAGE_MORE}&offset=${shown}`);
			list.append(...page.plays.map(item));
			shown += page.plays.length;
			more.hidden = !page.plays.length || shown >= page.total;
		} catch (e) {
			msg.replaceChildren(errorBox(e));
		} finally {
			more.disabled = false;
		}
	});
	return h("div", {}, list, msg, more);
}

/** The plays of this league kept on this phone until the network returns. */
function waitingPlays(id) {
	const list = pendingPlays().filter((x) => x.lid === id);
	if (!list.length) return null;
	return h("section", { class: "panel", "data-testid": "pending", "aria-labelledby": "lg-pending-h" },
		h("h2", { id: "lg-pending-h" }, tn("play.pending_title", list.length)),
		h("ul", { class: "lg-plain" }, list.map((x) => h("li", {}, `${x.body.game} · ${day(x.body.date)}`))),
		h("button", { type: "button", class: "wide", id: "lg-send-pending", onclick: () => sendPending() }, t("play.pending_send")));
}

function membersSummary(lg) {
	const you = lg.you.member;
	const guests = lg.members.filter((m) => m.guest && m.id !== you);
	const names = lg.members.map((m) => m.name);
	return panel(
		h("h2", {}, t("league.members")),
		h("p", { class: "lg-names" }, names.slice(0, 12).join(", "), names.length > 12 ? ` ${t("league.and_more", { n: names.length - 12 })}` : ""),
		you && !lg.you.owner && guests.length ? h("p", { class: "muted" }, t("members.claim_hint")) : null,
		h("a", { class: "button wide", href: `#members=${enc(lg.id)}` }, lg.you.owner ? t("members.manage_all", { n: lg.members.length }) : t("members.see_all", { n: lg.members.length })),
	);
}

function seasonsPanel(lg, current) {
	const lid = enc(lg.id);
	const list = lg.seasons.length
		? h(
				"ul",
				{ class: "lg-list", "data-testid": "seasons" },
				lg.seasons.map((x) =>
					h(
						"li",
						{ class: "lg-season-row" },
						h("a", { class: "button lg-season", href: `#league=${lid}&season=${enc(x.id)}`, "aria-current": x.id === current ? "true" : null }, h("span", {}, x.name), h("span", { class: "muted" }, `${x.starts} – ${x.ends}`)),
						h("a", { class: "button lg-recap", href: `#recap=${lid}/${enc(x.id)}`, "aria-label": `${t("recap.link")} ${x.name}` }, t("recap.link")),
					),
				),
			)
		: h("p", { class: "muted" }, t("seasons.none"));
	let add = null;
	if (lg.you.owner) {
		const name = h("input", { type: "text", required: true, maxlength: 64 });
		const starts = h("input", { type: "date", required: true });
		const ends = h("input", { type: "date", required: true });
		add = h(
			"details",
			{ class: "lg-more" },
			h("summary", {}, t("seasons.add")),
			form([field(t("seasons.name"), name), h("div", { class: "lg-row2" }, field(t("seasons.starts"), starts), field(t("seasons.ends"), ends))], t("seasons.save"), async () => {
				await api("POST", `/leagues/${lid}/seasons`, { name: name.value, starts: starts.value, ends: ends.value });
				flash = t("seasons.added", { name: name.value });
				await renderLeague(lg.id);
			}),
		);
	}
	return panel(h("h2", {}, t("seasons.title")), list, add);
}

function ownersPanel(lg) {
	let add = null;
	if (lg.you.owner) {
		const email = h("input", { type: "email", required: true, autocomplete: "off" });
		add = h(
			"details",
			{ class: "lg-more" },
			h("summary", {}, t("owners.add")),
			h("p", { class: "muted" }, t("owners.explain")),
			form([field(t("owners.email"), email)], t("owners.save"), async () => {
				await api("POST", `/leagues/${enc(lg.id)}/owners`, { account: email.value });
				flash = t("owners.added", { email: email.value });
				await renderLeague(lg.id);
			}),
		);
	}
	return panel(h("h2", {}, t("owners.title")), h("ul", { class: "lg-plain", "data-testid": "owners" }, lg.owners.map((o) => h("li", {}, o.display_name, o.account === me.id ? h("span", { class: "muted" }, ` (${t("members.you")})`) : null))), add);
}

// ---- files: exports, and the import's drop zone with its progress and result ----

const IMPORT_MAX = 16 * 1024 * 1024;
const importResults = new Map(); // league id → {file, reply} or {file, error}: stays until closed

/** POSTs file (a Blob) with XMLHttpRequest, whose upload events give the progress:
 * onProgress(loaded, total) while it is sent, onSent() once it all is. */
function upload(path, file, contentType, onProgress, onSent) {
	return new Promise((resolve, reject) => {
		const xhr = new XMLHttpRequest();
		xhr.open("POST", BASE + path);
		xhr.setRequestHeader("Content-Type", contentType);
		xhr.setRequestHeader("Accept", "application/json");
		xhr.upload.addEventListener("progress", (e) => e.lengthComputable && onProgress(e.loaded, e.total));
		xhr.upload.addEventListener("load", onSent);
		xhr.addEventListener("load", () => {
			let data = null;
			try {
				data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
			} catch {
				data = { detail: xhr.responseText };
			}
			if (xhr.status >= 200 && xhr.status < 300) resolve(data);
			else reject(new ApiError(xhr.status, data || {}));
		});
		xhr.addEventListener("error", () => reject(new ApiError(0, { detail: t("error.network") })));
		xhr.send(file);
	});
}

/** The import's format from the file's name and first bytes. */
async function importFormat(file) {
	if (/\.(csv|tsv|txt)$/i.test(file.name) || file.type === "text/csv") return ["csv", "text/csv"];
	const head = await file.slice(0, 4096).text();
	if (/\.xml$/i.test(file.name) || head.trimStart().startsWith("<")) return ["bggxml", "application/xml"];
	return [/"format"\s*:\s*"dicehospital-league-backup"/.test(head) ? "backup" : "bgstats", "application/json"];
}

function dropZone(lg) {
	const input = h("input", { type: "file", id: "lg-file", class: "lg-file", accept: ".json,.xml,.csv,.tsv,.txt,application/json,application/xml,text/xml,text/csv" });
	const text = h("span", { class: "lg-progress-text" });
	const bar = h("progress", { max: 100, value: 0, "aria-label": t("import.progress") });
	const progress = h("div", { class: "lg-progress", role: "status", hidden: true }, text, bar);
	const icon = s("svg", { viewBox: "0 0 24 24", width: 32, height: 32, "aria-hidden": "true", class: "lg-drop-icon" }, s("path", { d: "M12 16V4M7 9l5-5 5 5M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round" }));
	const label = h("label", { for: "lg-file", class: "lg-drop-label" }, icon, h("strong", {}, t("import.drop")), h("span", { class: "muted" }, t("import.formats")));
	const zone = h("div", { class: "lg-drop", "data-testid": "dropzone", "data-state": "idle" }, input, label, progress);
	let busy = false;
	const state = (v) => (zone.dataset.state = v);
	const finish = async (result) => {
		importResults.set(lg.id, result);
		state(result.error ? "error" : "done");
		await renderLeague(lg.id);
		const box = document.getElementById("lg-import-result");
		if (box) {
			box.scrollIntoView({ block: "nearest" });
			box.focus({ preventScroll: true });
		}
	};
	/** Sends the file as format (query: a spreadsheet's mapping) with its progress. */
	const send = async (file, format, type, query = "") => {
		state("sending");
		progress.hidden = false;
		const sent = () => {
			if (zone.dataset.state !== "sending") return;
			state("importing");
			bar.removeAttribute("value"); // indeterminate: the server reads and stores the plays
			text.textContent = t("import.importing");
		};
		const step = (loaded, total) => {
			const pct = Math.round((100 * loaded) / total);
			bar.value = pct;
			text.textContent = t("import.sending", { pct });
			if (loaded >= total) sent();
		};
		step(0, 1);
		const reply = await upload(`/leagues/${enc(lg.id)}/import?format=${format}${query ? `&${query}` : ""}`, file, type, step, sent);
		sent();
		await finish({ file: file.name, reply });
	};
	const release = () => {
		busy = false;
		input.disabled = false;
	};
	/** A spreadsheet: its columns are mapped on a screen of their own before it is sent. */
	const mapColumns = async (file) => {
		state("reading");
		progress.hidden = false;
		bar.removeAttribute("value");
		text.textContent = t("csv.reading");
		const deps = { h, t, tn, api, errorBox, ApiError };
		const view = await csvMappingView(
			file,
			lg.id,
			deps,
			async (m) => {
				view.remove();
				busy = true;
				input.disabled = true;
				try {
					await send(file, "csv", "text/csv", mappingQuery(m));
				} catch (e) {
					await finish({ file: file.name, error: e instanceof ApiError ? e : new ApiError(0, { detail: String(e.message || e) }) });
				} finally {
					release();
				}
			},
			() => {
				view.remove();
				state("idle");
				progress.hidden = true;
				input.value = "";
				input.focus();
			},
		);
		progress.hidden = true;
		state("mapping");
		document.getElementById("lg-csv-mapping")?.remove();
		zone.after(view);
		view.scrollIntoView({ block: "nearest" });
		view.focus({ preventScroll: true });
	};
	const go = async (file) => {
		if (busy || !file) return;
		busy = true;
		input.disabled = true;
		try {
			if (file.size > IMPORT_MAX) throw new ApiError(413, { detail: t("import.too_large") });
			if (file.size === 0) throw new ApiError(400, { detail: t("import.empty") });
			const [format, type] = await importFormat(file);
			if (format === "csv") await mapColumns(file);
			else await send(file, format, type);
		} catch (e) {
			await finish({ file: file.name, error: e instanceof ApiError ? e : new ApiError(0, { detail: String(e.message || e) }) });
		} finally {
			release();
		}
	};
	input.addEventListener("change", () => go(input.files[0]));
	for (const ev of ["dragenter", "dragover"])
		zone.addEventListener(ev, (e) => {
			e.preventDefault();
			if (!busy) state("over");
		});
	zone.addEventListener("dragleave", (e) => {
		if (!busy && !zone.contains(e.relatedTarget)) state("idle");
	});
	zone.addEventListener("drop", (e) => {
		e.preventDefault();
		if (!busy) state("idle");
		go(e.dataTransfer && e.dataTransfer.files[0]);
	});
	return zone;
}

/** The import's result, kept on the league's screen until closed: counts, and every skipped
 * play grouped by its reason (in words; the server's sentence in English or as a tooltip). */
function importResultView(lg, r) {
	const close = h("button", { type: "button", class: "wide" }, t("import.close"));
	const box = h("section", { class: "lg-result", id: "lg-import-result", tabindex: "-1", "data-testid": "import-result", "aria-labelledby": "lg-result-title" });
	close.addEventListener("click", () => {
		importResults.delete(lg.id);
		box.remove();
		document.getElementById("lg-file")?.focus();
	});
	if (r.error) {
		box.append(h("h3", { id: "lg-result-title" }, t("import.failed", { file: r.file })), errorBox(r.error), close);
		return box;
	}
	const x = r.reply;
	const count = (n, key) => h("div", {}, h("dt", {}, t(key)), h("dd", {}, n));
	box.append(
		h("h3", { id: "lg-result-title" }, t("import.done", { file: r.file })),
		h("dl", { class: "lg-counts" }, count(x.imported, "import.imported"), count(x.skipped, "import.skipped"), count(x.players_created, "import.created")),
	);
	if (x.skipped_plays.length) {
		const byReason = new Map();
		for (const k of x.skipped_plays) byReason.set(k.reason, [...(byReason.get(k.reason) || []), k]);
		const SHOWN = 100;
		box.append(
			h("h4", {}, t("import.skipped_title")),
			h(
				"ul",
				{ class: "lg-skips", "data-testid": "skipped" },
				[...byReason].map(([reason, list]) => {
					// the server's sentence: once when every play of the reason has the same
					const same = list.every((k) => k.detail === list[0].detail);
					const detail = (text) => (lang() === "en" ? h("div", { class: "muted" }, text) : null);
					return h(
						"li",
						{ "data-reason": reason, title: same && lang() !== "en" ? list[0].detail : null },
						h("strong", {}, has(`reason.${reason}`) ? t(`reason.${reason}`) : reason),
						` — ${tn("import.n_plays", list.length)}`,
						same ? detail(list[0].detail) : null,
						h(
							"details",
							{},
							h("summary", {}, t("import.show_plays")),
							h(
								"ul",
								{},
								list.slice(0, SHOWN).map((k) => h("li", { title: same || lang() === "en" ? null : k.detail }, t("import.play_n", { n: k.index + 1 }), k.id ? h("span", { class: "muted lg-id" }, k.id) : null, same ? null : detail(k.detail))),
								list.length > SHOWN ? h("li", { class: "muted" }, t("league.and_more", { n: list.length - SHOWN })) : null,
							),
						),
					);
				}),
			),
		);
	}
	box.append(close);
	return box;
}

function filesPanel(lg) {
	const lid = enc(lg.id);
	const r = importResults.get(lg.id);
	return panel(
		h("h2", {}, t("files.title")),
		helpLink("imports"),
		h("div", { class: "lg-actions" }, h("a", { class: "button", href: `${BASE}/leagues/${lid}/export.json`, download: "" }, t("league.export_json")), h("a", { class: "button", href: `${BASE}/leagues/${lid}/export.csv`, download: "" }, t("league.export_csv")), h("a", { class: "button", href: `${BASE}/leagues/${lid}/backup.json`, download: "" }, t("league.backup"))),
		lg.you.owner ? h("div", {}, h("h3", {}, t("league.import")), dropZone(lg)) : null,
		r ? importResultView(lg, r) : null,
	);
}

// ---- members: rename, link to an account, merge, remove; "this is me" ----

async function renderMembers(id) {
	const lid = enc(id);
	const lg = await api("GET", `/leagues/${lid}`);
	const owner = lg.you.owner;
	const you = lg.you.member;
	const byName = new Map();
	for (const m of lg.members) byName.set(nameKey(m.name), [...(byName.get(nameKey(m.name)) || []), m]);
	const done = async (text) => {
		flash = text;
		await renderMembers(id);
	};
	const card = (m) => {
		const same = byName.get(nameKey(m.name)).filter((o) => o.id !== m.id);
		const badges = [m.id === you ? t("members.you") : null, m.guest ? t("league.guest") : t("members.account"), tn("members.plays", m.plays)].filter(Boolean).join(" · ");
		const claim =
			you && m.guest && m.id !== you
				? () => confirmButton(t("members.this_is_me"), tn("members.claim_question", m.plays, { name: m.name }), t("members.claim_yes"), async () => {
						await api("POST", `/leagues/${lid}/members/${enc(m.id)}/link`, {});
						await done(t("members.claimed", { name: m.name }));
					})
				: () => null;
		return h(
			"li",
			{ class: "lg-member", "data-testid": "member", "data-name": m.name },
			h("div", { class: "lg-member-head" }, h("a", { class: "lg-name", href: `#player=${enc(m.id)}` }, m.name), h("span", { class: "muted" }, badges)),
			same.length ? h("p", { class: "lg-warn" }, t("members.same_name", { names: same.map((o) => o.name).join(", ") })) : null,
			owner ? manageMember(lg, m, done, claim()) : claim(),
		);
	};
	let add = null;
	if (owner) {
		const mName = h("input", { type: "text", required: true, maxlength: 64 });
		const mAcc = h("input", { type: "email", autocomplete: "off" });
		add = panel(
			h("h2", {}, t("league.add_member")),
			form([field(t("league.member_name"), mName), field(t("league.member_account"), mAcc)], t("league.add"), async () => {
				const m = await api("POST", `/leagues/${lid}/members`, mAcc.value ? { name: mName.value, account: mAcc.value } : { name: mName.value });
				await done(m.invitation ? t("members.invited", { email: mAcc.value, name: mName.value.trim() }) : t("members.added", { name: m.name }));
			}),
		);
	}
	const pending = await pendingPanels(consentUi(() => renderMembers(id)), lg);
	show(
		flashBox(),
		...pending,
		panel(h("h1", {}, t("members.title", { league: lg.name })), helpLink("leagues"), you && !owner && lg.members.some((m) => m.guest && m.id !== you) ? h("p", { class: "muted" }, t("members.claim_explain")) : null, h("ul", { class: "lg-members" }, lg.members.map(card))),
		add,
		h("a", { class: "button wide", href: `#league=${lid}` }, t("back")),
	);
}

/** An owner's tools for member m; claim: their own "this is me" (or null). */
function manageMember(lg, m, done, claim) {
	const lid = enc(lg.id);
	const path = `/leagues/${lid}/members/${enc(m.id)}`;
	const name = h("input", { type: "text", required: true, maxlength: 64, value: m.name });
	const parts = [
		claim,
		form([field(t("members.new_name"), name)], t("members.rename"), async () => {
			const r = await api("PATCH", path, { name: name.value });
			await done(t("members.renamed", { old: m.name, name: r.name }));
		}, { primary: false }),
	];
	if (m.guest) {
		const email = h("input", { type: "email", required: true, autocomplete: "off" });
		parts.push(
			form([field(t("members.link_email"), email)], t("members.link"), async () => {
				await api("PATCH", path, { account: email.value });
				await done(t("members.linked", { name: m.name, email: email.value }));
			}, { primary: false }),
		);
	}
	const others = lg.members.filter((o) => o.id !== m.id);
	if (others.length) {
		const into = h("select", {}, others.map((o) => h("option", { value: o.id }, o.name)));
		parts.push(
			h(
				"div",
				{ class: "lg-merge" },
				field(t("members.merge_into"), into),
				confirmButton(t("members.merge"), () => tn("members.merge_question", m.plays, { name: m.name, into: into.selectedOptions[0].textContent }), t("members.merge_yes"), async () => {
					const target = others.find((o) => o.id === into.value);
					await api("POST", `${path}/merge`, { into: into.value });
					await done(t("members.merged", { name: m.name, into: target.name }));
				}),
			),
		);
	}
	parts.push(
		m.plays === 0
			? confirmButton(t("members.remove"), t("members.remove_question", { name: m.name }), t("members.remove_yes"), async () => {
					await api("DELETE", path);
					await done(t("members.removed", { name: m.name }));
				}, { danger: true })
			: h("p", { class: "muted" }, t("members.cannot_remove")),
	);
	return h("details", { class: "lg-more lg-manage" }, h("summary", {}, t("members.manage"), h("span", { class: "sr-only" }, ` ${m.name}`)), ...parts.filter(Boolean));
}

// ---- head-to-head ----

async function renderH2H(id) {
	const lid = enc(id);
	const q = filters();
	const [lg, hh] = await Promise.all([api("GET", `/leagues/${lid}`), api("GET", `/leagues/${lid}/head-to-head?${q}`)]);
	const players = new Map();
	for (const x of hh.head_to_head) players.set(x.player, x.name);
	const season = lg.seasons.find((x) => x.id === q.get("season"));
	const scope = [season ? season.name : t("league.all_seasons"), q.get("game") || t("league.all_games")].join(" · ");
	const list = h("ul", { class: "lg-h2h", "data-testid": "h2h" });
	const draw = (player) => {
		const rows = hh.head_to_head.filter((x) => x.player === player).sort((a, b) => b.games - a.games || a.opponent_name.localeCompare(b.opponent_name));
		list.replaceChildren(
			...rows.map((x) => {
				const w = (100 * x.wins) / x.games, d = (100 * x.ties) / x.games;
				const mate = x.teammate ? h("p", { class: "lg-mate" }, tn("h2h.teammate", x.teammate)) : null;
				return h(
					"li",
					{ class: "lg-h2h-row" },
					h("div", { class: "lg-h2h-head" }, h("span", { class: "lg-vs" }, t("h2h.vs")), " ", h("strong", {}, x.opponent_name)),
					h("p", {}, tn("h2h.played", x.games), " ", t("h2h.record", { w: x.wins, l: x.losses, d: x.ties })),
					s("svg", { class: "lg-bar", viewBox: "0 0 100 6", preserveAspectRatio: "none", "aria-hidden": "true" }, s("rect", { class: "lg-bar-w", x: 0, y: 0, width: w, height: 6 }), s("rect", { class: "lg-bar-d", x: w, y: 0, width: d, height: 6 }), s("rect", { class: "lg-bar-l", x: w + d, y: 0, width: 100 - w - d, height: 6 })),
					mate,
				);
			}),
		);
	};
	const first = players.has(lg.you.member) ? lg.you.member : [...players.keys()][0];
	const sel = h("select", { id: "lg-h2h-player", onchange: (e) => draw(e.target.value) }, [...players].map(([pid, name]) => h("option", { value: pid, selected: pid === first }, name)));
	show(
		panel(
			h("h1", {}, t("h2h.title")),
			h("p", { class: "muted" }, `${lg.name} · ${scope}`),
			players.size ? h("div", {}, field(t("league.player"), sel), list) : h("p", { class: "muted" }, t("h2h.none")),
		),
		h("a", { class: "button wide", href: `#league=${lid}${q.toString() ? `&${q}` : ""}` }, t("back")),
	);
	if (first) draw(first);
}

// ---- pictures (charts.js): a player's, a league's, a season's ----

const pct = (x) => new Intl.NumberFormat(lang(), { style: "percent" }).format(x);
const monthName = (ym, style = "short") => new Intl.DateTimeFormat(lang(), { month: style, year: style === "short" ? "2-digit" : "numeric", timeZone: "UTC" }).format(new Date(`${ym}-01T12:00:00Z`));
const playLink = (lid, play, text) => h("a", { href: `#play=${enc(lid)}/${enc(play)}` }, text);
/* days since 1970 of a play's own local date: the x of the league's lines */
const dayNumber = (iso) => Date.parse(`${day(iso)}T00:00:00Z`) / 864e5;
const dayText = (d) => new Date(d * 864e5).toISOString().slice(0, 10);

/** The sentence of a rating that moved from a to b over n plays. */
function ratingSentence(name, a, b, n) {
	const key = b > a ? "pics.rose" : b < a ? "pics.fell" : "pics.stayed";
	return tn(key, n, { name, from: fmt(a), to: fmt(b) });
}

/** One player's rating after each play (stats points): the ordinal line with its band from
 * μ − 3σ up to μ, dashed while provisional; a tap shows that play. */
function ratingFigure(lid, name, points) {
	if (!points.length) return null;
	const pts = points.map((p, i) => ({ x: i + 1, y: p.ordinal, lo: p.ordinal, hi: p.mu, faint: p.provisional ?? p.sigma >= 4, href: `#play=${enc(lid)}/${enc(p.play)}`, text: t("pics.point", { name, rating: fmt(p.ordinal), game: p.game, date: day(p.date) }) }));
	const first = points[0], last = points[points.length - 1];
	return figure(
		{
			kind: "rating",
			summary: `${ratingSentence(name, first.ordinal, last.ordinal, points.length)} ${t("pics.band")}`,
			more: t("pics.numbers"),
			head: [t("play.date"), t("play.game"), t("play.rank"), t("league.rating"), "μ", "σ"],
			rows: [...points].reverse().map((p) => [playLink(lid, p.play, day(p.date)), p.game, p.rank, fmt(p.ordinal), fmt(p.mu, 2), fmt(p.sigma, 2)]),
		},
		lines({ label: t("pics.rating_label", { name }), series: [{ id: "me", name, points: pts }], xfmt: (i) => day(points[Math.round(i) - 1].date), yfmt: (v) => fmt(v), open: t("pics.open"), cls: "lg-chart" }),
	);
}

/** Every player's rating line (league stats players), the top five shown; a legend shows or
 * hides each. */
function linesFigure(lid, players) {
	// a play without a date has no place in time: its rating shows in the next dated point
	const withPoints = players.map((p) => ({ ...p, dated: p.points.filter((x) => x.date) })).filter((p) => p.dated.length);
	if (!withPoints.length) return null;
	const series = withPoints.map((p) => ({
		id: p.player,
		name: p.name,
		shown: p.top,
		points: p.dated.map((x) => ({ x: dayNumber(x.date), y: x.ordinal, faint: x.sigma >= 4, href: x.play ? `#play=${enc(lid)}/${enc(x.play)}` : null, text: t("pics.point_short", { name: p.name, rating: fmt(x.ordinal), date: day(x.date) }) })),
	}));
	const lead = withPoints[0];
	return figure(
		{
			kind: "lines",
			summary: `${t("pics.lines_sum", { name: lead.name, rating: fmt(lead.rating.ordinal), n: withPoints.length, top: Math.min(5, withPoints.length) })} ${t("pics.lines_hint")}`,
			more: t("pics.numbers"),
			head: [t("league.player"), t("league.games"), t("pics.first"), t("league.rating")],
			rows: withPoints.map((p) => [h("a", { href: `#player=${enc(lid)}/${enc(p.player)}` }, p.name), p.points.length, fmt(p.points[0].ordinal), fmt(p.rating.ordinal)]),
		},
		lines({ label: t("pics.lines_label"), series, xfmt: dayText, yfmt: (v) => fmt(v), legendLabel: t("pics.legend"), more: (n) => tn("pics.more_players", n), open: t("pics.open") }),
	);
}

/** Score spreads per game (league stats scores), the most played first. */
function scoresFigure(scores) {
	if (!scores.length) return null;
	const rows = [...scores].sort((a, b) => b.n - a.n || a.game.localeCompare(b.game));
	const widest = rows.reduce((a, b) => (b.max - b.min > a.max - a.min ? b : a));
	const shown = rows.slice(0, 8);
	const low = rows.some((g) => g.lowest_wins);
	return figure(
		{
			kind: "scores",
			summary: [t("pics.scores_sum", { n: rows.length, game: widest.game, min: fmt(widest.min), max: fmt(widest.max) }), low ? t("pics.lowest_note") : "", rows.length > shown.length ? t("pics.scores_more", { n: rows.length - shown.length }) : ""].filter(Boolean).join(" "),
			more: t("pics.numbers"),
			head: [t("play.game"), t("league.games"), t("pics.min"), t("pics.q1"), t("pics.median"), t("pics.q3"), t("pics.max")],
			rows: rows.map((g) => [g.lowest_wins ? `${g.game} (${t("pics.lowest")})` : g.game, g.n, fmt(g.min), fmt(g.q1), fmt(g.median), fmt(g.q3), fmt(g.max)]),
		},
		boxes({ label: t("pics.scores_label"), rows: shown.map((g) => ({ ...g, label: g.game, note: g.lowest_wins ? t("pics.lowest") : tn("pics.scores_n", g.n), low: g.lowest_wins })), fmt }),
	);
}

/** Head-to-head as a heat map (league stats head_to_head) of the first HEAT_TOP players in
 * standings order who have a rival: a bigger club's map would be thousands of squares no phone
 * shows; a game or a season (the filters) brings others in. */
const HEAT_TOP = 12;
function heatFigure(players, allPairs) {
	if (!allPairs.length) return null;
	const seen = new Set(allPairs.map((x) => x.player));
	const all = players.filter((p) => seen.has(p.player)).map((p) => ({ id: p.player, name: p.name }));
	for (const x of allPairs) if (!all.some((p) => p.id === x.player)) all.push({ id: x.player, name: x.name });
	const who = all.slice(0, HEAT_TOP);
	const ids = new Set(who.map((p) => p.id));
	const pairs = allPairs.filter((x) => ids.has(x.player) && ids.has(x.opponent));
	const cells = new Map(pairs.map((x) => [`${x.player}\n${x.opponent}`, x]));
	const most = pairs.filter((x) => x.games >= 3).reduce((a, b) => (!a || b.share > a.share || (b.share === a.share && b.games > a.games) ? b : a), null);
	const top = all.length > who.length ? t("pics.heat_top", { n: who.length, total: all.length }) : "";
	return figure(
		{
			kind: "heat",
			summary: [t("pics.heat_sum"), top, most ? t("pics.heat_most", { a: most.name, b: most.opponent_name, above: most.above, games: most.games }) : ""].filter(Boolean).join(" "),
			more: t("pics.numbers"),
			head: [t("league.player"), t("pics.opponent"), t("pics.together"), t("pics.above"), t("pics.share")],
			rows: pairs.map((x) => [x.name, x.opponent_name, x.games, x.above, pct(x.share)]),
		},
		heat({ label: t("pics.heat_label"), players: who, cell: (a, b) => cells.get(`${a}\n${b}`) || null, scrollLabel: t("pics.heat_scroll") }),
	);
}

/** Plays per month (league stats months). */
function monthsFigure(months) {
	if (!months.length) return null;
	const total = months.reduce((n, m) => n + m.plays, 0);
	const busiest = months.reduce((a, b) => (b.plays > a.plays ? b : a));
	return figure(
		{
			kind: "months",
			summary: t("pics.months_sum", { plays: tn("pics.plays_n", total), months: tn("pics.months_n", months.length), month: monthName(busiest.month, "long"), n: busiest.plays }),
			more: t("pics.numbers"),
			head: [t("pics.month"), t("pics.plays")],
			rows: months.map((m) => [monthName(m.month, "long"), m.plays]),
		},
		bars({ label: t("pics.months_label"), items: months.map((m) => ({ label: m.month, value: m.plays, text: monthName(m.month) })), fmt: (v) => fmt(v, 0) }),
	);
}

/** A player's plays and wins per game (stats games), with the best scores in the numbers. */
function gamesFigure(games) {
	if (!games.length) return null;
	const rows = [...games].sort((a, b) => b.plays - a.plays || a.game.localeCompare(b.game));
	const wins = rows.reduce((n, g) => n + g.wins, 0), plays = rows.reduce((n, g) => n + g.plays, 0);
	return figure(
		{
			kind: "games",
			summary: t("pics.games_sum", { wins: tn("pics.wins_n", wins), plays: tn("pics.plays_n", plays), games: tn("pics.games_n", rows.length), game: rows[0].game }),
			more: t("pics.numbers"),
			head: [t("play.game"), t("league.games"), t("league.wins"), t("league.best")],
			rows: rows.map((g) => [g.lowest_wins ? `${g.game} (${t("pics.lowest")})` : g.game, g.plays, g.wins, fmt(g.best_score)]),
		},
		hbars({ label: t("pics.games_label"), items: rows.slice(0, 10).map((g) => ({ label: g.best_score === null ? g.game : `${g.game} · ${t("pics.best_short", { score: fmt(g.best_score) })}`, value: g.plays, part: g.wins })) }),
	);
}

/** Facts as cards: [label, value, note] (null ones left out). */
function facts(items, testid) {
	return h("dl", { class: "lg-facts", "data-testid": testid }, items.filter(Boolean).map(([label, value, note, key]) => h("div", { class: "lg-fact", "data-fact": key || null }, h("dt", {}, label), h("dd", {}, value, note ? h("small", {}, note) : null))));
}

/** A player's page: the rating, pictures and facts of the stats, then every play. */
async function renderPlayer(value) {
	const [given, pid] = value.includes("/") ? value.split("/") : [null, value];
	const q = filters();
	// the chart and the table show every play: all the pages
	const hst = await fetchAll(`/players/${enc(pid)}/history`, "history");
	const lid = given || hst.league;
	const r = hst.rating;
	let pics;
	try {
		const st = await api("GET", `/leagues/${enc(lid)}/players/${enc(pid)}/stats?${q}`);
		const rival = (x, key) => x && [t(`pics.${key}`), playerLink(lid, x), t(`pics.${key}_note`, { above: x.above, games: x.games }), key];
		pics = h(
			"div",
			{ "data-testid": "player-pictures" },
			facts([[t("pics.streak_now"), tn("pics.wins_row", st.streaks.current), null, "current"], [t("pics.streak_best"), tn("pics.wins_row", st.streaks.longest), null, "longest"], rival(st.nemesis, "nemesis"), rival(st.victim, "victim")], "player-facts"),
			st.nemesis || st.victim ? null : h("p", { class: "muted" }, t("pics.no_rival")),
			ratingFigure(lid, hst.name, st.points),
			gamesFigure(st.games),
		);
	} catch (e) {
		pics = errorBox(e);
	}
	show(
		panel(
			h("h1", {}, t("history.title", { name: hst.name })),
			h("p", {}, `${t("league.rating")}${t("pics.colon")}${fmt(r.ordinal)} (μ ${fmt(r.mu, 2)}, σ ${fmt(r.sigma, 2)})`, r.provisional ? h("span", { class: "lg-prov" }, t("league.provisional")) : null),
			pics,
		),
		panel(h("h2", {}, t("pics.every_play")), historyTable(hst)),
		h("a", { class: "button wide", href: `#league=${enc(lid)}` }, t("back")),
	);
}

/** Every play of a history, latest first: PAGE_MORE rows, then PAGE_MORE more at each tap of
 * "More plays" (years of plays would be a page tens of thousands of pixels long). */
function historyTable(hst) {
	const rows = [...hst.history].reverse();
	const row = (x) => h("tr", {}, h("td", { class: "lg-nowrap" }, h("a", { href: `#play=${enc(hst.league)}/${enc(x.play)}` }, day(x.date))), h("td", { class: "lg-text" }, x.game), h("td", {}, fmt(x.score)), h("td", {}, x.winner ? `${x.rank} ★` : x.rank), h("td", { title: x.rated ? t("history.rated") : t("history.not_rated") }, fmt(x.rating.ordinal)));
	const body = h("tbody");
	const more = h("button", { class: "wide", type: "button" }, t("league.more_plays"));
	const add = () => {
		body.append(...rows.slice(body.children.length, body.children.length + PAGE_MORE).map(row));
		more.hidden = body.children.length >= rows.length;
	};
	more.addEventListener("click", add);
	add();
	return h("div", {}, h("table", { class: "lg-table lg-history" }, h("thead", {}, h("tr", {}, h("th", {}, t("play.date")), h("th", { class: "lg-text" }, t("play.game")), h("th", {}, t("play.score")), h("th", {}, t("play.rank")), h("th", {}, t("league.rating")))), body), more);
}

const playerLink = (lid, x) => h("a", { href: `#player=${enc(lid)}/${enc(x.player)}` }, x.name);

/** The league's pictures: rating lines, score spreads, head-to-head, plays per month, for the
 * league page's filters. */
async function renderPictures(id) {
	const lid = enc(id);
	const q = filters();
	const qs = q.toString();
	const [lg, st] = await Promise.all([api("GET", `/leagues/${lid}`), api("GET", `/leagues/${lid}/stats?${qs}`)]);
	const season = lg.seasons.find((x) => x.id === q.get("season"));
	const scope = [season ? season.name : t("league.all_seasons"), q.get("game") || t("league.all_games")].join(" · ");
	show(
		panel(h("h1", {}, t("pics.title")), h("p", { class: "muted" }, `${lg.name} · ${scope}`), ...statsParts(lid, st)),
		h("a", { class: "button wide", href: `#league=${lid}${qs ? `&${qs}` : ""}` }, t("back")),
	);
}

/** The league stats as headed pictures (an empty league says so). */
function statsParts(lid, st) {
	const part = (title, fig) => fig && h("section", { class: "lg-pics" }, h("h2", {}, title), fig);
	const parts = [part(t("pics.lines_title"), linesFigure(lid, st.players)), part(t("pics.scores_title"), scoresFigure(st.scores)), part(t("pics.heat_title"), heatFigure(st.players, st.head_to_head)), part(t("pics.months_title"), monthsFigure(st.months))].filter(Boolean);
	return parts.length ? parts : [h("p", { class: "muted" }, t("league.no_plays"))];
}

/** A season's recap: the facts a group sends round, a few pictures, the PDF. */
async function renderRecap(value) {
	const [lidRaw, sid] = value.split("/");
	const lid = enc(lidRaw);
	const rc = await api("GET", `/leagues/${lid}/seasons/${enc(sid)}/recap`);
	const c = rc.champion, cl = rc.climb, mp = rc.most_played, cs = rc.closest, sk = rc.streak;
	const sign = (x) => `${x > 0 ? "+" : ""}${fmt(x)}`;
	const st = rc.stats;
	show(
		panel(
			h("h1", {}, t("recap.title", { season: rc.season.name })),
			h("p", { class: "muted" }, `${rc.league.name} · ${unbroken(rc.season.from)} – ${unbroken(rc.season.to)} · ${tn("pics.plays_n", rc.plays)}`),
			rc.plays
				? facts(
						[
							c && [t("recap.champion"), playerLink(lidRaw, c), `${t("league.rating")} ${fmt(c.rating.ordinal)}`, "champion"],
							cl && [t("recap.climb"), playerLink(lidRaw, cl), t("recap.climb_note", { from: fmt(cl.from), to: fmt(cl.to), delta: sign(cl.delta) }), "climb"],
							mp && [t("recap.most_played"), mp.game, tn("pics.plays_n", mp.plays), "most_played"],
							cs && [t("recap.closest"), playLink(lidRaw, cs.play, `${cs.game}, ${unbroken(day(cs.date))}`), t("recap.closest_note", { a: cs.first.name, x: fmt(cs.first.score), b: cs.second.name, y: fmt(cs.second.score) }), "closest"],
							sk && [t("recap.streak"), playerLink(lidRaw, sk), tn("pics.wins_row", sk.wins), "streak"],
						],
						"recap-facts",
					)
				: h("p", { class: "muted" }, t("league.no_plays")),
			h("a", { class: "button wide", id: "lg-recap-pdf", href: `${BASE}/leagues/${lid}/seasons/${enc(sid)}/recap.pdf?lang=${lang() === "fr" ? "fr" : "en"}`, download: "" }, t("recap.pdf")),
		),
		rc.plays ? panel(h("h2", {}, t("pics.title")), ...[part(t("pics.lines_title"), linesFigure(lidRaw, st.players)), part(t("pics.months_title"), monthsFigure(st.months)), part(t("pics.scores_title"), scoresFigure(st.scores))].filter(Boolean)) : null,
		h("a", { class: "button wide", href: `#league=${lid}&season=${enc(sid)}` }, t("back")),
	);
	function part(title, fig) {
		return fig && h("section", { class: "lg-pics" }, h("h3", {}, title), fig);
	}
}

// ---- a play: its summary, edit and delete ----

/** A play's results as table bodies: one per team, headed by the team's name, in the order of
 * their first seat, then the seats that play alone (every seat when the play has no teams). */
function playResultGroups(results) {
	const row = (r) => h("tr", {}, h("td", {}, h("a", { href: `#player=${enc(r.player)}` }, r.name), r.winner ? " ★" : "", seatLine(r)), h("td", {}, r.score_text ?? fmt(r.score)), h("td", {}, r.rank), h("td", {}, r.rating_after ? fmt(r.rating_after.ordinal) : "–"));
	const teams = new Map();
	for (const r of results) if (r.team != null) teams.set(r.team, [...(teams.get(r.team) || []), r]);
	const alone = results.filter((r) => r.team == null);
	if (!teams.size) return [h("tbody", {}, alone.map(row))];
	return [
		...[...teams].map(([team, rs]) => h("tbody", { class: "lg-team", "data-team": team }, h("tr", {}, h("th", { colspan: 4, scope: "rowgroup", class: "lg-text" }, t("play.team", { team }))), rs.map(row))),
		alone.length ? h("tbody", { class: "lg-team" }, h("tr", {}, h("th", { colspan: 4, scope: "rowgroup", class: "lg-text" }, t("play.no_team"))), alone.map(row)) : null,
	].filter(Boolean);
}

async function renderPlay(lid, pid) {
	const [p, lg] = await Promise.all([api("GET", `/leagues/${enc(lid)}/plays/${enc(pid)}`), api("GET", `/leagues/${enc(lid)}`)]);
	const mayEdit = lg.you.owner || (p.created_by && p.created_by === me.id);
	const actions = [];
	if (mayEdit) actions.push(h("a", { class: "button wide", href: `#edit=${enc(lid)}/${enc(pid)}` }, t("play.edit")));
	if (lg.you.owner)
		actions.push(
			confirmButton(t("play.delete"), t("play.delete_question", { game: p.game, date: unbroken(day(p.date)) }), t("play.delete_yes"), async () => {
				await api("DELETE", `/leagues/${enc(lid)}/plays/${enc(pid)}`);
				flash = t("play.deleted", { game: p.game, date: day(p.date) });
				location.hash = `league=${enc(lid)}`;
			}, { danger: true }),
		);
	show(
		flashBox(),
		panel(
			h("h1", {}, `${p.game}`),
			h("p", { class: "muted" }, [day(p.date), p.duration_min ? `${p.duration_min} min` : null, p.location || null].filter(Boolean).join(" · ")),
			p.ignored || p.incomplete ? h("p", { class: "lg-warn" }, t(p.incomplete ? "play.incomplete" : "play.ignored")) : null,
			p.notes ? h("p", {}, p.notes) : null,
			h("table", { class: "lg-table", "data-testid": "play-results" }, h("thead", {}, h("tr", {}, h("th", {}, t("league.player")), h("th", {}, t("play.score")), h("th", {}, t("play.rank")), h("th", {}, t("play.rating_after")))), ...playResultGroups(p.results)),
			bgstatsLink(p, t("play.bgstats")),
			...actions,
		),
		h("a", { class: "button wide", href: `#league=${enc(lid)}` }, t("back")),
	);
}

/** The play form: a new play (play null) or an edit of play (every field kept that the form
 * does not show: location, BGG id, the time of day and ranks given without scores). */
async function renderPlayForm(lid, play) {
	const lg = await api("GET", `/leagues/${enc(lid)}`);
	const was = new Map((play ? play.results : []).map((r) => [r.player, r]));
	// with every score given the scores rank the play: its stars are then not the form's
	const starred = play && !play.cooperative && play.results.some((r) => r.score === null);
	const game = h("input", { type: "text", required: true, maxlength: 256, list: "lg-games", value: play ? play.game : null });
	const games = h("datalist", { id: "lg-games" }, lg.games.map((g) => h("option", { value: g })));
	const undated = play && play.date === null; /* kept without a date while the field stays empty */
	const date = h("input", { type: "date", value: undated ? "" : play ? day(play.date) : localToday(), required: !undated });
	const dur = h("input", { type: "number", min: 0, max: 100000, value: play && play.duration_min !== null ? play.duration_min : null });
	const notes = h("textarea", { rows: 2, maxlength: 4096 }, play ? play.notes : "");
	const coop = h("input", { type: "checkbox", checked: play ? play.cooperative : false });
	const won = h("input", { type: "checkbox", checked: play ? play.cooperative && play.results.some((r) => r.winner) : false });
	// a new play whose reply never came (a dropped connection, a 503): saved again unchanged, it
	// goes out as it was with its Idempotency-Key, so the server stores it once
	let pending = null;
	const row = (m, on) => {
		const r = was.get(m.id);
		const x = {
			m,
			on: h("input", { type: "checkbox", "aria-label": m.name, checked: on || !!r }),
			score: h("input", { type: "number", step: "any", "aria-label": `${t("play.score")} ${m.name}`, value: r && r.score !== null ? r.score : null }),
			win: h("input", { type: "checkbox", "aria-label": `${t("play.winner")} ${m.name}`, checked: !!(starred && r && r.winner) }),
		};
		x.el = h("div", { class: "lg-row", "data-member": m.name }, h("label", { class: "check lg-grow" }, x.on, m.name), x.score, h("label", { class: "check lg-star" }, x.win, h("span", { "aria-hidden": "true" }, "★")));
		return x;
	};
	const rows = lg.members.map((m) => row(m, false));
	// the columns said once: the score, and the star that marks a winner
	const head = h("div", { class: "lg-row lg-who-head", "aria-hidden": "true" }, h("span", { class: "lg-grow" }), h("span", {}, t("play.score")), h("span", {}, `★ ${t("play.winner")}`));
	const list = h("div", {}, head, rows.map((r) => r.el));
	// an owner adds a new player here (a new league has only its owner): a member of the league,
	// ticked as playing
	const newName = h("input", { type: "text", maxlength: 64, id: "lg-new-player", autocomplete: "off" });
	const newMsg = h("div");
	const addPlayer = async () => {
		newMsg.replaceChildren();
		if (!newName.value.trim()) return newName.focus();
		try {
			const m = await api("POST", `/leagues/${enc(lid)}/members`, { name: newName.value });
			const x = row({ id: m.id, name: m.name ?? newName.value.trim() }, true);
			rows.push(x);
			list.append(x.el);
			newName.value = "";
			x.score.focus();
		} catch (e) {
			newMsg.replaceChildren(errorBox(e));
		}
	};
	newName.addEventListener("keydown", (e) => e.key === "Enter" && (e.preventDefault(), addPlayer()));
	const adder = lg.you.owner
		? h("div", { class: "lg-new-player" }, newMsg, h("label", { class: "field", for: "lg-new-player" }, h("span", {}, t("play.new_player"))),
			h("div", { class: "lg-row" }, newName, h("button", { type: "button", id: "lg-add-player", onclick: addPlayer }, t("play.add_player"))))
		: null;
	const back = play ? `#play=${enc(lid)}/${enc(play.id)}` : `#league=${enc(lid)}`;
	show(
		panel(
			h("h1", {}, play ? t("play.edit_title", { game: play.game }) : t("league.add_play")),
			form(
				[
					field(t("play.game"), game),
					games,
					h("div", { class: "lg-row2" }, field(t("play.date"), date), field(t("play.duration"), dur)),
					undated ? h("p", { class: "muted" }, t("play.undated_hint")) : null,
					h("label", { class: "check" }, coop, t("play.coop")),
					h("label", { class: "check" }, won, t("play.coop_won")),
					h("fieldset", { class: "lg-who" }, h("legend", {}, t("play.who")), list, adder),
					field(t("play.notes"), notes),
				],
				t("play.save"),
				async () => {
					const chosen = rows.filter((r) => r.on.checked);
					const allScores = chosen.every((r) => r.score.value !== "");
					const noScores = chosen.every((r) => r.score.value === "");
					// ranks the play had without scores stay, when every player kept has one
					const keepRanks = play && noScores && !coop.checked && chosen.every((r) => was.get(r.m.id)) && !chosen.some((r) => r.win.checked !== was.get(r.m.id).winner);
					const body = {
						game: game.value,
						date: undated && date.value === "" ? null : play && date.value === day(play.date) ? play.date : playStamp(date.value),
						cooperative: coop.checked,
						notes: notes.value || null,
						duration_min: dur.value === "" ? null : Number(dur.value),
						results: chosen.map((r) => {
							const x = { player: r.m.id };
							if (r.score.value !== "") x.score = Number(r.score.value);
							if (keepRanks) x.rank = was.get(r.m.id).rank;
							else if (coop.checked) x.winner = won.checked;
							else if (!allScores || r.win.checked) x.winner = r.win.checked;
							return x;
						}),
					};
					if (play) Object.assign(body, { location: play.location || null, bgg_id: play.bgg_id });
					if (undated && date.value === "") body.undated = true;
					// with every score given, ranks come from the scores; the stars then only mark winners
					if (!coop.checked && allScores && !chosen.some((r) => r.win.checked)) for (const x of body.results) delete x.winner;
					const form = JSON.stringify({ ...body, date: date.value });
					if (!play && (!pending || pending.form !== form)) pending = { form, body, key: idempotencyKey() };
					let p;
					try {
						p = play ? await api("PUT", `/leagues/${enc(lid)}/plays/${enc(play.id)}`, body) : await api("POST", `/leagues/${enc(lid)}/plays`, pending.body, undefined, { "Idempotency-Key": pending.key });
					} catch (e) {
						// no network: a new play waits on this phone, to go when the network returns
						if (play || e.status !== 0) throw e;
						keepPending([...pendingPlays().filter((x) => x.key !== pending.key), { lid, key: pending.key, body: pending.body, league: lg.name }]);
						flash = t("play.pending_kept");
						location.hash = `league=${enc(lid)}`;
						return;
					}
					if (play) flash = t("play.saved");
					location.hash = `play=${enc(lid)}/${enc(p.id)}`;
				},
			),
		),
		h("a", { class: "button wide", href: back }, t("back")),
	);
}

async function renderEdit(lid, pid) {
	const play = await api("GET", `/leagues/${enc(lid)}/plays/${enc(pid)}`);
	return renderPlayForm(lid, play);
}

// One screen drawn at a time: a route asked for while one is drawing (a tap, a hash change, a
// language change, on a slow network) runs once that one is done, so the last one asked for is
// the one shown and an older, slower one never draws over it.
let routing = null;
let rerun = false;
function route() {
	if (routing) {
		rerun = true;
		return routing;
	}
	routing = (async () => {
		do {
			rerun = false;
			await routeOnce();
		} while (rerun);
	})().finally(() => (routing = null));
	return routing;
}

async function routeOnce() {
	const p = params();
	try {
		if (!me) {
			try {
				me = await api("GET", "/accounts/me");
				hint(true);
			} catch (e) {
				if (e.status === 401) {
					hint(false);
					return renderAuth(false);
				}
				throw e;
			}
		}
		window.scrollTo(0, 0);
		if (p.get("league")) return await renderLeague(p.get("league"));
		if (p.get("members")) return await renderMembers(p.get("members"));
		if (p.get("h2h")) return await renderH2H(p.get("h2h"));
		if (p.get("player")) return await renderPlayer(p.get("player"));
		if (p.get("pictures")) return await renderPictures(p.get("pictures"));
		if (p.get("recap")) return await renderRecap(p.get("recap"));
		if (p.get("play")) {
			const [lid, pid] = p.get("play").split("/");
			return await renderPlay(lid, pid);
		}
		if (p.get("edit")) {
			const [lid, pid] = p.get("edit").split("/");
			return await renderEdit(lid, pid);
		}
		if (p.get("add")) return await renderPlayForm(p.get("add"), null);
		return await renderHome();
	} catch (e) {
		if (e.status === 401) {
			me = null;
			return renderAuth(false);
		}
		// without a network, a league's screen still lists the plays that wait on this phone
		show(flashBox(), errorBox(e), p.get("league") ? waitingPlays(p.get("league")) : null, h("a", { class: "button wide", href: "#" }, t("back")));
	}
}

// dark mode as the game screens set it, with the same button (its words from this page's strings)
const applyTheme = initTheme(document.getElementById("theme"), t);
// a file dropped beside the drop zone must not replace the page
for (const ev of ["dragover", "drop"]) window.addEventListener(ev, (e) => e.preventDefault());

const sel = document.getElementById("lang");
sel.value = lang();
sel.addEventListener("change", async () => {
	const shown = document.documentElement.lang;
	// the language already shown: nothing to draw again (a redraw would also replace what an
	// action has just said on this screen)
	if (sel.value === shown) return;
	try {
		await loadLang(sel.value);
	} catch {
		// the strings did not arrive (no network, or the page is being left): keep the
		// language shown rather than fail with half a page
		sel.value = shown;
		return;
	}
	keepLang(sel.value);
	route();
});
window.addEventListener("online", () => sendPending());
setInterval(() => navigator.onLine && pendingPlays().length && sendPending(), 15000);
try {
	await loadLang(lang());
	window.addEventListener("hashchange", route);
	await route();
	if (pendingPlays().length) sendPending();
} catch {
	// the strings did not arrive: the page is being left, or there is no network and nothing
	// kept; say so in both languages (the strings are what is missing)
	show(h("p", { class: "error", role: "alert" }, "The server cannot be reached. Try again. — Le serveur est injoignable. Réessayez."));
}

// The service worker keeps this page and its files as well (sw.js), so that it opens without a
// connection; browsers allow it only in a secure context (HTTPS, localhost).
if (window.isSecureContext && "serviceWorker" in navigator)
	navigator.serviceWorker.register("sw.js").catch((e) => console.warn("service worker:", e.message));
