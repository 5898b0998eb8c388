// League screens: sign up / log in, my leagues, a league's standings (sortable,
// rating with its provisional mark), a player's history with a rating chart (inline SVG), a
// play's summary, "add a play", export and import. Its own module and strings
// (i18n/leagues.{en,fr}.json); the language choice is the one the game screens store.
import { request } from "./api.js";
import { h, s } from "./dom.js";

const BASE = "/api/v1";
const app = document.getElementById("app");
const LANGS = ["en", "fr"];
const LANG_STORE = "dh.lang";
let dict = {};
let me = null; // the logged-in account, or null
// a hint for the new-game forms (home.js, tabletop/create.js): this browser has a session, so
// they may ask GET /leagues for the league choice (without it they do not: no 401 on every home)
const SESSION_HINT = "dh.leagues.session";
const hint = (on) => (on ? localStorage.setItem(SESSION_HINT, "1") : localStorage.removeItem(SESSION_HINT));

// ---- small helpers ----

function t(key, vars) {
	let v = dict[key] ?? key;
	if (vars) v = v.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
	return v;
}

function lang() {
	const stored = localStorage.getItem(LANG_STORE);
	if (LANGS.includes(stored)) return stored;
	const nav = String(navigator.language || "en").slice(0, 2).toLowerCase();
	return LANGS.includes(nav) ? nav : "en";
}

async function loadLang(l) {
	const en = await (await fetch("i18n/leagues.en.json")).json();
	dict = l === "en" ? en : { ...en, ...(await (await fetch(`i18n/leagues.${l}.json`)).json()) };
	document.documentElement.lang = l;
	for (const el of document.querySelectorAll("[data-l]")) el.textContent = t(el.dataset.l);
}

/** The API (cookies travel with it: same origin), with this screen's sentence for a server that
 * cannot be reached; contentType sends body as it is (an import file). Reads revalidate what
 * the browser keeps (the league reads carry an ETag: an unchanged league answers 304). */
const api = (method, path, body, contentType) =>
	request(method, path, body, undefined, { contentType, network: t("error.network"), cache: method === "GET" ? "no-cache" : undefined });

function errorBox(e) {
	return h("p", { class: "error", role: "alert" }, e.message);
}

function panel(...children) {
	return h("section", { class: "panel" }, ...children);
}

function field(label, input) {
	return h("label", { class: "field" }, h("span", {}, label), input);
}

function fmt(x, digits = 1) {
	return x === null || x === undefined ? "–" : Number(x).toFixed(digits).replace(/\.0+$/, "");
}

function day(iso) {
	return String(iso).slice(0, 10); /* the play's own local date, wherever it is read */
}

const pad2 = (n) => String(n).padStart(2, "0");

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
function form(children, submitLabel, fn) {
	const out = h("div");
	const button = h("button", { class: "primary wide", type: "submit" }, submitLabel);
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

// ---- screens ----

function renderAuth(signup) {
	const email = h("input", { type: "email", name: "email", autocomplete: "email", required: true });
	const pw = h("input", { type: "password", name: "password", autocomplete: signup ? "new-password" : "current-password", required: true, minlength: signup ? 8 : 1 });
	const name = h("input", { type: "text", name: "display_name", autocomplete: "nickname", required: true, maxlength: 64 });
	const fields = signup ? [field(t("auth.email"), email), field(t("auth.name"), name), field(t("auth.password"), pw)] : [field(t("auth.email"), email), field(t("auth.password"), pw)];
	app.replaceChildren(
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

async function renderHome() {
	const { leagues } = await api("GET", "/leagues");
	const name = h("input", { type: "text", name: "league", required: true, maxlength: 64 });
	app.replaceChildren(
		panel(
			h("h1", {}, t("leagues.mine")),
			leagues.length
				? h("ul", { class: "lg-list" }, leagues.map((l) => h("li", {}, h("a", { class: "button", href: `#league=${encodeURIComponent(l.id)}` }, h("span", {}, l.name), h("span", { class: "muted" }, t("leagues.plays", { n: l.plays }))))))
				: h("p", { class: "muted" }, t("leagues.none")),
		),
		panel(
			h("h2", {}, t("leagues.new")),
			form([field(t("leagues.name"), name)], t("leagues.create"), async () => {
				const l = await api("POST", "/leagues", { name: name.value });
				location.hash = `league=${encodeURIComponent(l.id)}`;
			}),
		),
		h("p", { class: "muted" }, t("auth.hello", { name: me.display_name })),
		h("button", { class: "wide", type: "button", onclick: logout }, t("auth.logout")),
	);
}

async function logout() {
	try {
		await api("DELETE", "/sessions/current");
	} catch {}
	me = null;
	hint(false);
	location.hash = "";
	route();
}

const COLS = [
	["name", "league.player"],
	["ordinal", "league.rating"],
	["games", "league.games"],
	["wins", "league.wins"],
	["win_rate", "league.win_rate"],
	["average_score", "league.avg_score"],
	["best_score", "league.best"],
	["average_rank", "league.avg_rank"],
];

function standingsTable(rows, sort, onSort) {
	const key = (r) => (sort.key === "ordinal" ? r.rating.ordinal : r[sort.key]);
	const sorted = [...rows].sort((a, b) => {
		const x = key(a), y = key(b);
		const c = typeof x === "string" ? x.localeCompare(y) : (x ?? -Infinity) - (y ?? -Infinity);
		return sort.desc ? -c : c;
	});
	const table = h(
		"table",
		{ class: "lg-table", "data-testid": "standings" },
		h("thead", {}, h("tr", {}, COLS.map(([k, label]) => h("th", { scope: "col", "aria-sort": sort.key === k ? (sort.desc ? "descending" : "ascending") : null }, h("button", { type: "button", onclick: () => onSort(k) }, t(label)))))),
		h(
			"tbody",
			{},
			sorted.map((r) =>
				h(
					"tr",
					{},
					h("td", {}, h("a", { href: `#player=${encodeURIComponent(r.player)}` }, r.name)),
					h("td", { class: "rating" }, fmt(r.rating.ordinal), r.rating.provisional ? h("abbr", { class: "lg-prov", title: t("league.provisional") }, "?") : null),
					h("td", {}, r.games),
					h("td", {}, r.wins),
					h("td", {}, `${Math.round(r.win_rate * 100)}`),
					h("td", {}, fmt(r.average_score)),
					h("td", {}, fmt(r.best_score)),
					h("td", {}, fmt(r.average_rank, 2)),
				),
			),
		),
	);
	const legend = rows.some((r) => r.rating.provisional) ? h("p", { class: "muted" }, `? ${t("league.provisional")} (σ ≥ 4)`) : null;
	return h("div", {}, h("div", { class: "lg-scroll" }, table), legend);
}

async function renderLeague(id) {
	const enc = encodeURIComponent(id);
	const lg = await api("GET", `/leagues/${enc}`);
	const p = params();
	const season = p.get("season") || "";
	const game = p.get("game") || "";
	const q = new URLSearchParams();
	if (season) q.set("season", season);
	if (game) q.set("game", game);
	const [st, plays] = await Promise.all([api("GET", `/leagues/${enc}/standings?${q}`), api("GET", `/leagues/${enc}/plays?limit=10`)]);
	const games = lg.games;
	const filter = (k, v) => {
		const n = new URLSearchParams(location.hash.slice(1));
		if (v) n.set(k, v);
		else n.delete(k);
		location.hash = n.toString();
	};
	const sort = { key: "ordinal", desc: true };
	const holder = h("div");
	const draw = () => holder.replaceChildren(st.standings.length ? standingsTable(st.standings, sort, (k) => ((sort.desc = sort.key === k ? !sort.desc : k !== "name" && k !== "average_rank"), (sort.key = k), draw())) : h("p", { class: "muted" }, t("league.no_plays")));
	draw();
	const seasonSel = h("select", { onchange: (e) => filter("season", e.target.value) }, h("option", { value: "" }, t("league.all")), lg.seasons.map((x) => h("option", { value: x.id, selected: x.id === season }, x.name)));
	const gameSel = h("select", { onchange: (e) => filter("game", e.target.value) }, h("option", { value: "" }, t("league.all")), games.map((g) => h("option", { value: g, selected: g === game }, g)));
	const importMsg = h("div");
	const file = h("input", { type: "file", accept: ".json,.xml,application/json,text/xml", "aria-label": t("league.import") });
	file.addEventListener("change", async () => {
		const f = file.files[0];
		if (!f) return;
		importMsg.replaceChildren();
		try {
			const text = await f.text();
			const xml = /\.xml$/i.test(f.name) || text.trimStart().startsWith("<");
			const format = xml ? "bggxml" : JSON.parse(text).format === "dicehospital-league-backup" ? "backup" : "bgstats";
			const r = await api("POST", `/leagues/${enc}/import?format=${format}`, text, xml ? "application/xml" : "application/json");
			importMsg.replaceChildren(h("p", { class: "lg-ok", role: "status" }, t("league.imported", { imported: r.imported, skipped: r.skipped, created: r.players_created })));
			setTimeout(route, 1200);
		} catch (e) {
			importMsg.replaceChildren(errorBox(e));
		}
	});
	const owner = lg.you.owner;
	const mName = h("input", { type: "text", required: true, maxlength: 64 });
	const mAcc = h("input", { type: "email" });
	app.replaceChildren(
		panel(
			h("h1", {}, lg.name),
			h("div", { class: "lg-row" }, field(t("league.season"), seasonSel), field(t("league.game"), gameSel)),
			h("h2", {}, t("league.standings")),
			holder,
			// the league report: the same filters; the session cookie goes with the link
			h("a", { class: "button wide", id: "lg-report-pdf", href: `${BASE}/leagues/${enc}/standings.pdf?${q}${q.toString() ? "&" : ""}lang=${lang() === "fr" ? "fr" : "en"}`, download: "" }, t("league.report_pdf")),
			h("a", { class: "button primary wide", href: `#add=${enc}` }, t("league.add_play")),
		),
		panel(
			h("h2", {}, t("league.recent")),
			recentPlays(enc, plays),
		),
		panel(
			h("h2", {}, t("league.members")),
			h("ul", {}, lg.members.map((m) => h("li", {}, h("a", { href: `#player=${encodeURIComponent(m.id)}` }, m.name), m.guest ? h("span", { class: "muted" }, ` (${t("league.guest")})`) : null))),
			owner
				? form([h("h3", {}, t("league.add_member")), field(t("league.member_name"), mName), field(t("league.member_account"), mAcc)], t("league.add"), async () => {
						await api("POST", `/leagues/${enc}/members`, mAcc.value ? { name: mName.value, account: mAcc.value } : { name: mName.value });
						route();
					})
				: null,
		),
		panel(
			h("div", { class: "lg-actions" }, h("a", { class: "button", href: `${BASE}/leagues/${enc}/export.json`, download: "" }, t("league.export_json")), h("a", { class: "button", href: `${BASE}/leagues/${enc}/export.csv`, download: "" }, t("league.export_csv")), h("a", { class: "button", href: `${BASE}/leagues/${enc}/backup.json`, download: "" }, t("league.backup"))),
			owner ? field(t("league.import"), file) : null,
			importMsg,
		),
		h("a", { class: "button wide", href: "#" }, t("back")),
	);
}

/** The newest plays (the first page, given) and a button that brings the next page. */
function recentPlays(enc, first) {
	const item = (x) => h("li", {}, h("a", { class: "button", href: `#play=${enc}/${encodeURIComponent(x.id)}` }, h("span", {}, `${day(x.date)} · ${x.game}`), h("span", { class: "muted" }, x.ignored || x.incomplete ? t(x.incomplete ? "play.incomplete" : "play.ignored") : x.players.filter((y) => y.winner).map((y) => y.name).join(", "))));
	const list = h("ul", { class: "lg-list", "data-testid": "recent-plays" }, first.plays.map(item));
	const msg = h("div");
	let shown = first.plays.length;
	const more = h("button", { class: "wide", type: "button", hidden: shown >= first.total }, t("league.more_plays"));
	more.addEventListener("click", async () => {
		more.disabled = true;
		msg.replaceChildren();
		try {
			const page = await api("GET", `/leagues/${enc}/plays?limit=${PAGE_MORE}&offset=${shown}`);
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

function ratingChart(history) {
	const pts = history.map((x) => x.rating.ordinal);
	if (pts.length < 2) return null;
	const W = 320, H = 120, P = 20;
	const lo = Math.min(...pts, 0), hi = Math.max(...pts, 1);
	const x = (i) => P + ((W - 2 * P) * i) / (pts.length - 1);
	const y = (v) => H - P - ((H - 2 * P) * (v - lo)) / (hi - lo || 1);
	return s(
		"svg",
		{ class: "lg-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("history.chart") },
		s("title", {}, t("history.chart")),
		s("line", { x1: P, x2: W - P, y1: y(0), y2: y(0) }),
		s("text", { x: 2, y: y(hi) + 4 }, fmt(hi)),
		s("text", { x: 2, y: y(lo) + 4 }, fmt(lo)),
		s("polyline", { points: pts.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }),
	);
}

async function renderPlayer(id) {
	// the chart and the table show every play: all the pages
	const hst = await fetchAll(`/players/${encodeURIComponent(id)}/history`, "history");
	const r = hst.rating;
	app.replaceChildren(
		panel(
			h("h1", {}, t("history.title", { name: hst.name })),
			h("p", {}, `${t("league.rating")}: ${fmt(r.ordinal)} (μ ${fmt(r.mu, 2)}, σ ${fmt(r.sigma, 2)})`, r.provisional ? h("span", { class: "lg-prov" }, t("league.provisional")) : null),
			ratingChart(hst.history),
			h("div", { class: "lg-scroll" }, h("table", { class: "lg-table" }, h("thead", {}, h("tr", {}, h("th", {}, t("play.date")), h("th", {}, t("play.game")), h("th", {}, t("play.score")), h("th", {}, t("play.rank")), h("th", {}, t("league.rating")))), h("tbody", {}, [...hst.history].reverse().map((x) => h("tr", {}, h("td", {}, h("a", { href: `#play=${encodeURIComponent(hst.league)}/${encodeURIComponent(x.play)}` }, day(x.date))), h("td", {}, x.game), h("td", {}, fmt(x.score)), h("td", {}, x.winner ? `${x.rank} ★` : x.rank), h("td", { title: x.rated ? t("history.rated") : t("history.not_rated") }, fmt(x.rating.ordinal))))))),
		),
		h("a", { class: "button wide", href: `#league=${encodeURIComponent(hst.league)}` }, t("back")),
	);
}

async function renderPlay(lid, pid) {
	const p = await api("GET", `/leagues/${encodeURIComponent(lid)}/plays/${encodeURIComponent(pid)}`);
	app.replaceChildren(
		panel(
			h("h1", {}, `${p.game}`),
			h("p", { class: "muted" }, [day(p.date), p.duration_min ? `${p.duration_min} min` : null, p.location || null].filter(Boolean).join(" · ")),
			p.notes ? h("p", {}, p.notes) : null,
			h("table", { class: "lg-table" }, h("thead", {}, h("tr", {}, h("th", {}, t("league.player")), h("th", {}, t("play.score")), h("th", {}, t("play.rank")), h("th", {}, t("play.rating_after")))), h("tbody", {}, p.results.map((r) => h("tr", {}, h("td", {}, h("a", { href: `#player=${encodeURIComponent(r.player)}` }, r.name), r.winner ? " ★" : ""), h("td", {}, fmt(r.score)), h("td", {}, r.rank), h("td", {}, r.rating_after ? fmt(r.rating_after.ordinal) : "–"))))),
		),
		h("a", { class: "button wide", href: `#league=${encodeURIComponent(lid)}` }, t("back")),
	);
}

async function renderAdd(lid) {
	const enc = encodeURIComponent(lid);
	const lg = await api("GET", `/leagues/${enc}`);
	const game = h("input", { type: "text", required: true, maxlength: 256, list: "lg-games" });
	const date = h("input", { type: "date", value: localToday(), required: true });
	const dur = h("input", { type: "number", min: 0, max: 100000 });
	const notes = h("textarea", { rows: 2, maxlength: 4096 });
	const coop = h("input", { type: "checkbox" });
	const won = h("input", { type: "checkbox" });
	const rows = lg.members.map((m) => ({ m, on: h("input", { type: "checkbox", "aria-label": m.name }), score: h("input", { type: "number", step: "any", "aria-label": `${t("play.score")} ${m.name}` }), win: h("input", { type: "checkbox", "aria-label": `${t("play.winner")} ${m.name}` }) }));
	app.replaceChildren(
		panel(
			h("h1", {}, t("league.add_play")),
			form(
				[
					field(t("play.game"), game),
					h("div", { class: "lg-row" }, field(t("play.date"), date), field(t("play.duration"), dur)),
					h("label", { class: "check" }, coop, t("play.coop")),
					h("label", { class: "check" }, won, t("play.coop_won")),
					h("fieldset", {}, h("legend", {}, t("play.who")), rows.map((r) => h("div", { class: "lg-row" }, h("label", { class: "check", style: "flex:1" }, r.on, r.m.name), r.score, h("label", { class: "check" }, r.win, "★")))),
					field(t("play.notes"), notes),
				],
				t("play.save"),
				async () => {
					const chosen = rows.filter((r) => r.on.checked);
					const allScores = chosen.every((r) => r.score.value !== "");
					const body = {
						game: game.value,
						date: playStamp(date.value),
						cooperative: coop.checked,
						notes: notes.value || null,
						duration_min: dur.value === "" ? null : Number(dur.value),
						results: chosen.map((r) => {
							const x = { player: r.m.id };
							if (r.score.value !== "") x.score = Number(r.score.value);
							if (coop.checked) x.winner = won.checked;
							else if (!allScores || r.win.checked) x.winner = r.win.checked;
							return x;
						}),
					};
					// with every score given, ranks come from the scores; the stars then only mark winners
					if (!coop.checked && allScores && !chosen.some((r) => r.win.checked)) for (const x of body.results) delete x.winner;
					const p = await api("POST", `/leagues/${enc}/plays`, body);
					location.hash = `play=${enc}/${encodeURIComponent(p.id)}`;
				},
			),
		),
		h("a", { class: "button wide", href: `#league=${enc}` }, t("back")),
	);
}

async function route() {
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
		if (p.get("player")) return await renderPlayer(p.get("player"));
		if (p.get("play")) {
			const [lid, pid] = p.get("play").split("/");
			return await renderPlay(lid, pid);
		}
		if (p.get("add")) return await renderAdd(p.get("add"));
		return await renderHome();
	} catch (e) {
		if (e.status === 401) {
			me = null;
			return renderAuth(false);
		}
		app.replaceChildren(errorBox(e), h("a", { class: "button wide", href: "#" }, t("back")));
	}
}

const sel = document.getElementById("lang");
sel.value = lang();
sel.addEventListener("change", async () => {
	localStorage.setItem(LANG_STORE, sel.value);
	await loadLang(sel.value);
	route();
});
await loadLang(lang());
window.addEventListener("hashchange", route);
route();

// The service worker keeps this page and its files as well (sw.js), so that it opens without a
// connection; browsers allow it only in a secure context (HTTPS, localhost).
if (window.isSecureContext && "serviceWorker" in navigator)
	navigator.serviceWorker.register("sw.js").catch((e) => console.warn("service worker:", e.message));
