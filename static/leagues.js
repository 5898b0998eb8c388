// League screens: sign up / log in, my leagues, a league (standings as cards with a sort choice,
// recent plays, seasons, co-owners, files in and out), its members (rename, link to an
// account, merge, remove, "this is me"), head-to-head, a player's history with a rating chart
// (inline SVG), a play (edit, delete) and the play form. Its own module and strings
// (i18n/leagues.{en,fr}.json); the language and theme choices are the ones the game screens
// store. This module routes, logs in and out, sends the plays kept on this phone, and draws my
// leagues, a league and its head-to-head; the other screens are modules of their own
// (leagues-members.js, leagues-pictures.js, leagues-play.js, the Files panel leagues-files.js),
// all drawing with leagues-ui.js.
import { h, s } from "./dom.js";
import { invitationsPanel } from "./consent.js";
import { initTheme } from "./theme.js";
import { challengesPanel } from "./challenges.js";
import { t, tn, lang, keepLang, loadLang as loadStrings } from "./leagues-i18n.js";
import { BASE, PAGE_MORE, api, consentUi, day, enc, errorBox, field, filters, flash, flashBox, fmt, form, helpLink, keepPending, me, panel, params, pendingPlays, problemText, setFlash, setMe, show } from "./leagues-ui.js";
import { filesPanel } from "./leagues-files.js";
import { renderMembers } from "./leagues-members.js";
import { renderPictures, renderPlayer, renderRecap } from "./leagues-pictures.js";
import { renderEdit, renderPlay, renderPlayForm } from "./leagues-play.js";

// a hint for the new-game forms (home.js, tabletop/create.js): this browser has a session, so
// they may ask GET /leagues for the league choice (without it they do not: no 401 on every home)
const SESSION_HINT = "dh.leagues.session";
const hint = (on) => (on ? localStorage.setItem(SESSION_HINT, "1") : localStorage.removeItem(SESSION_HINT));

async function loadLang(l) {
	await loadStrings(l);
	applyTheme();
}

// ---- plays saved without a network (leagues-ui.js keeps them): sent when it returns ----
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
				setFlash(`${t("play.pending_refused", { game: x.body.game })} ${problemText(e)}`);
			}
			keepPending(pendingPlays().filter((y) => y.key !== x.key));
		}
		if (sent) setFlash(flash ?? tn("play.pending_sent", sent));
		return sent;
	})().finally(() => (sending = null));
	// a form being filled in is not drawn again (what it holds would be lost)
	return sending.then((n) => (n || flash) && me && !/^#(add|edit)=/.test(location.hash) && route());
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
				setMe(r.account);
				hint(true);
				location.hash = "";
				route();
			}),
			h("button", { class: "wide", type: "button", onclick: () => renderAuth(!signup) }, signup ? t("auth.have_account") : t("auth.no_account")),
		),
	);
}

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
	setMe(null);
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
		filesPanel(lg, () => renderLeague(lg.id)),
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
				setFlash(t("seasons.added", { name: name.value }));
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
				setFlash(t("owners.added", { email: email.value }));
				await renderLeague(lg.id);
			}),
		);
	}
	return panel(h("h2", {}, t("owners.title")), h("ul", { class: "lg-plain", "data-testid": "owners" }, lg.owners.map((o) => h("li", {}, o.display_name, o.account === me.id ? h("span", { class: "muted" }, ` (${t("members.you")})`) : null))), add);
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

// ---- routing ----

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
				setMe(await api("GET", "/accounts/me"));
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
			setMe(null);
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
