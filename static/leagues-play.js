// A league play's screens (leagues.js routes to them): its summary (results team by team, each
// seat's details, "Log in BG Stats"; its author or an owner edits it, an owner deletes it) and
// the play form, new or an edit, where an owner adds a player and a new play saved without a
// network waits on this phone with its Idempotency-Key.
import { h } from "./dom.js";
import { bgstatsLink } from "./bgstats-link.js";
import { t } from "./leagues-i18n.js";
import { api, confirmButton, day, enc, errorBox, field, flashBox, fmt, form, keepPending, me, panel, pendingPlays, setFlash, show, unbroken } from "./leagues-ui.js";

/** A new Idempotency-Key: 128 random bits in hex (crypto.getRandomValues works over plain HTTP
 * too, unlike crypto.randomUUID). */
function idempotencyKey() {
	return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
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

export async function renderPlay(lid, pid) {
	const [p, lg] = await Promise.all([api("GET", `/leagues/${enc(lid)}/plays/${enc(pid)}`), api("GET", `/leagues/${enc(lid)}`)]);
	const mayEdit = lg.you.owner || (p.created_by && p.created_by === me.id);
	const actions = [];
	if (mayEdit) actions.push(h("a", { class: "button wide", href: `#edit=${enc(lid)}/${enc(pid)}` }, t("play.edit")));
	if (lg.you.owner)
		actions.push(
			confirmButton(t("play.delete"), t("play.delete_question", { game: p.game, date: unbroken(day(p.date)) }), t("play.delete_yes"), async () => {
				await api("DELETE", `/leagues/${enc(lid)}/plays/${enc(pid)}`);
				setFlash(t("play.deleted", { game: p.game, date: day(p.date) }));
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
export async function renderPlayForm(lid, play) {
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
						setFlash(t("play.pending_kept"));
						location.hash = `league=${enc(lid)}`;
						return;
					}
					if (play) setFlash(t("play.saved"));
					location.hash = `play=${enc(lid)}/${enc(p.id)}`;
				},
			),
		),
		h("a", { class: "button wide", href: back }, t("back")),
	);
}

export async function renderEdit(lid, pid) {
	const play = await api("GET", `/leagues/${enc(lid)}/plays/${enc(pid)}`);
	return renderPlayForm(lid, play);
}
