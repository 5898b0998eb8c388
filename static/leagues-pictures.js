// The league's pictures (charts.js) on three screens leagues.js routes to: a player's page
// (streaks, rivals, the rating over time, plays and wins per game, then every play), the
// league's pictures under its filters, and a season's recap with its PDF.
import { h } from "./dom.js";
import { bars, boxes, figure, hbars, heat, lines } from "./charts.js";
import { t, tn, lang } from "./leagues-i18n.js";
import { BASE, PAGE_MORE, api, day, enc, errorBox, fetchAll, filters, fmt, panel, show, unbroken } from "./leagues-ui.js";

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
export async function renderPlayer(value) {
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
export async function renderPictures(id) {
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
export async function renderRecap(value) {
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
