// "Log in BG Stats": one finished play as the link by which other apps push a play into BG Stats
// ("Push plays to BG Stats from other apps or websites", BG Stats' support site:
// https://app.bgstatsapp.com/createPlay.html?data=<the play as URL-encoded JSON>). BG Stats
// opens it, matches the game and the players itself (remembering its matches by sourceName
// with sourceGameId and sourcePlayerId) and, with its BGG auto-post on, logs the play on
// BoardGameGeek too. Every screen that offers the link builds it here, from a play in the shape
// of the league API's play (GET …/plays/{play}): the league play's page passes that reply, the
// end of a table game passes tablePlay() of its state, which reads the state as the server's
// tablegames.c reads the finished result to record the league play (bots left out, the kind's
// game name, created_at to finished_at as the duration). So one play pushed from both places is
// the same play (sourcePlayId: the table game's id), which BG Stats recognises.
import { h } from "./dom.js";

export const BGSTATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html";
const SOURCE = "Dice Hospital companion";

// the product's games (migrations/0013_game_keys.sql): the name a table game's play gets, its
// BoardGameGeek id where known (none recorded for Dice Hospital: ER), a stable sourceGameId
const KNOWN = {
	er: { name: "Dice Hospital: ER – Emergency Roll", id: "product:er", bgg: null },
	dh: { name: "Dice Hospital", id: "product:dh", bgg: 218121 },
	clinic: { name: "Clinic", id: "product:clinic", bgg: 272739 },
};
const norm = (s) => String(s || "").trim().replace(/\s+/g, " ").toLowerCase();
const known = (name) => Object.values(KNOWN).find((k) => norm(k.name) === norm(name));
const pad = (n) => String(n).padStart(2, "0");

/** BG Stats' playDate, "YYYY-MM-DD HH:MM:SS" in local time: a time with an offset (or Z) in
 * this phone's time zone; a local time with no offset (as a BG Stats file gave it) as it is. */
export function localTime(when) {
	const s = String(when || "");
	if (!/(Z|[+-]\d\d:?\d\d)$/i.test(s)) return s.replace("T", " ").slice(0, 19);
	const d = new Date(s);
	if (Number.isNaN(d.getTime())) return null;
	return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The play BG Stats is given (the documented members only, each left out when unknown). */
export function bgstatsData(play) {
	const k = known(play.game);
	const bggId = play.bgg_id || (k && k.bgg) || null;
	const results = play.results || [];
	const scored = results.filter((r) => typeof r.score === "number");
	const first = scored.filter((r) => r.rank === 1), rest = scored.filter((r) => r.rank > 1);
	// lowest wins when every first-placed score is below every other score
	const lowest = first.length > 0 && rest.length > 0 && first.every((a) => rest.every((b) => a.score < b.score));
	const game = { name: play.game, sourceGameId: k ? k.id : bggId ? `bgg:${bggId}` : `name:${norm(play.game)}`, highestWins: !lowest, noPoints: scored.length === 0 };
	if (bggId) game.bggId = bggId;
	const data = { sourceName: SOURCE, sourcePlayId: play.game_id || play.uuid || play.id };
	const when = localTime(play.date);
	if (when) data.playDate = when;
	data.game = game;
	if (typeof play.duration_min === "number") data.durationMin = play.duration_min;
	if (play.location) data.location = play.location;
	if (play.notes) data.comments = play.notes;
	data.players = results.map((r) => {
		const p = { name: r.name, sourcePlayerId: `name:${norm(r.name)}`, winner: !!r.winner };
		if (typeof r.score === "number") p.score = r.score;
		if (r.rank > 0) p.rank = r.rank;
		if (r.start_player) p.startPlayer = true;
		if (r.role || r.color) p.role = r.role || r.color;
		return p;
	});
	return data;
}

/** The link that opens BG Stats with the play filled in. */
export const bgstatsHref = (play) => `${BGSTATS_CREATE_PLAY}?data=${encodeURIComponent(JSON.stringify(bgstatsData(play)))}`;

/** A finished table game's state (GET /er/games/{id}, /dh/…, /clinic/…) as the league play it
 * makes: ER's seats with their ranks (seat 1 the first Chief Physician), Dice Hospital's and
 * Clinic's standings (each seat's administrator as its role, the first of round 1's turn order
 * as the start player); roleName names an administrator in the screen's language. */
export function tablePlay(kind, g, roleName = (a) => a) {
	const t0 = Date.parse(g.created_at), t1 = Date.parse(g.finished_at);
	const er = kind === "er";
	const seats = new Map((g.seats || []).map((s) => [s.seat, s]));
	const rows = er ? g.seats.filter((s) => !s.bot).map((s) => ({ seat: s.seat, name: s.name, score: s.score.total, rank: s.rank })) : g.standings.map((s) => ({ seat: s.seat, name: s.name, score: s.total, rank: s.rank }));
	const order = !er && (g.turn_orders || []).find((o) => o.round === 1);
	const starter = er ? 1 : order && order.order.length ? order.order[0] : null;
	return {
		game: KNOWN[kind].name, game_id: g.id, date: g.finished_at,
		duration_min: t1 >= t0 ? Math.round((t1 - t0) / 60000) : null,
		results: rows.map((r) => ({ ...r, winner: r.rank === 1, start_player: r.seat === starter, role: !er && seats.get(r.seat)?.administrator ? roleName(seats.get(r.seat).administrator) : null })),
	};
}

/** The "Log in BG Stats" link (a plain link: BG Stats opens in its app or on its site). */
export const bgstatsLink = (play, label) =>
	h("p", { class: "bgstats" }, h("a", { class: "button secondary wide", id: "bgstats-link", href: bgstatsHref(play), target: "_blank", rel: "noopener" }, label));
