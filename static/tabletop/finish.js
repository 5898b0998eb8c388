// The end of a Dice Hospital or Clinic game: the end-of-game fields of the entry form (entry.js
// draws them) and the final ranking with its tie-breaks (and, in a solo game, this phone's best).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { mount } from "../view.js";
import { readStored } from "../api.js";
import { bgstatsLink, tablePlay } from "../bgstats-link.js";
import { CL_COLOURS, day, num, rankWords, tr } from "./shared.js";

const DH_END = ["fatalities", "blood_bags", "patients_left", "pips_left", "collected"];

/** A seat's end-of-game values to enter, from the saved ones. */
export function finishDraft(isDh, seat) {
	const f = seat.finish || {};
	if (isDh) return Object.fromEntries(DH_END.map((k) => [k, f[k] || 0]));
	return {
		doctors: { white: 0, yellow: 0, orange: 0, red: 0, purple: 0, ...(f.doctors || {}) }, nurses: f.nurses || 0,
		treatment_rooms: [...(f.treatment_rooms || [0, 0, 0, 0, 0])], additional_buildings: f.additional_buildings || 0,
		patients_left: { white: 0, yellow: 0, orange: 0, red: 0, ...(f.patients_left || {}) }, zombies: f.zombies || 0, goal_achieved: !!f.goal_achieved,
	};
}

/** The end-of-game rows of one seat: row(label, field, max) a stepper, check(label, field) a
 * toggle (field: a path in the seat's draft); early: the table ends the game before the
 * rulebook's last round. Values the scoring profile does not confirm are
 * marked on the score lines that use them, not on the fields. */
export function finishRows(isDh, g, row, check, early = false) {
	// a game ended early asks no pips (a complete game's tie-break) and no collections (they
	// come after the last round): seed 000, END GAME SCORING; FINAL ROUND COLLECTIONS
	if (isDh)
		return [
			row(t("tt.f.fatalities"), "fatalities", 30), row(t("tt.f.blood_bags"), "blood_bags", 30),
			row(t("tt.f.patients_left"), "patients_left", 12), early ? null : row(t("tt.f.pips_left"), "pips_left", 72),
			g.variants.final_round_collections && !early ? row(t("tt.f.collected"), "collected", 12) : null];
	const has = (x) => g.expansions.includes(x);
	return [
		h("h4", {}, t("tt.f.employees")),
		[...CL_COLOURS, ...(has("workaholic_doctors") ? ["purple"] : [])].map((c) => row(t("tt.doctor", { colour: t(`tt.colour.${c}`) }), `doctors.${c}`, 30)),
		row(t("tt.f.nurses"), "nurses", 30),
		h("h4", {}, t("tt.f.rooms")),
		[0, 1, 2, 3, ...(has("floor_4") ? [4] : [])].map((f) => row(t("tt.floor", { n: f }), `treatment_rooms.${f}`, 12)),
		row(t("tt.f.buildings"), "additional_buildings", 10),
		h("h4", {}, t("tt.f.patients_left")),
		CL_COLOURS.map((c) => row(t(`tt.colour.${c}`), `patients_left.${c}`, 30)),
		has("zombies") ? row(t("tt.f.zombies"), "zombies", 8) : null,
		g.solo && g.goal ? check(t("tt.f.goal_achieved", { goal: g.goal }), "goal_achieved") : null];
}

/** Solo / solitaire: the best final total finished on this phone, with its day (seed 000, SOLO
 * PLAY RULES: "keep the record of your final score"). Kept per kind as {game id: {total, at}},
 * at the first time this phone saw that game finished; a bare number is a total without its day. */
function personalBest(kind, id, total) {
	const key = `dh.tabletop.best.${kind}`;
	const all = readStored(key);
	all[id] = { total, at: all[id]?.at || new Date().toISOString() };
	localStorage.setItem(key, JSON.stringify(all));
	const games = Object.entries(all).map(([k, v]) => ({ id: k, ...(typeof v === "number" ? { total: v, at: null } : v) }));
	const others = games.filter((g) => g.id !== id).map((g) => g.total);
	const best = games.reduce((a, b) => (b.total > a.total ? b : a));
	const words = others.length && total > Math.max(...others) ? h("strong", {}, t("tt.new_best"))
		: best.at ? t("tt.personal_best_day", { n: num(best.total), date: day(best.at) }) : t("tt.personal_best", { n: num(best.total) });
	return h("p", { id: "tt-best", "data-best": best.total }, words);
}


/** Whether standing s says how its tie was broken: Clinic's turn order only under a player who
 * won it (a tied player is ranked after them); every other tie-break under each tied player. */
function tieShown(standings, s) {
	if (!s.tie_break) return false;
	if (s.tie_break !== "turn-order") return true;
	return standings.some((o) => o.total === s.total && o.rank > s.rank);
}

/** The final ranking, shown once the game is finished. */
export function standingsView({ store, kind, id }) {
	const finished = (S) => S.game && S.game.status === "finished";
	const el = mount(store, h("section", { class: "panel", id: "tt-standings" }), (S) => finished(S) && [S.lang, S.game.standings], (v, S) => {
		if (!v) return [];
		const g = S.game;
		return [h("h2", {}, t("tt.ranking")), g.solo ? personalBest(kind, id, g.standings[0].total) : null,
			h("ol", { class: "tt-standings" }, g.standings.map((s) => h("li", { "data-seat": s.seat, "data-rank": s.rank },
				h("span", { class: "tt-rank" }, rankWords(s.rank)), h("span", { class: "tt-name" }, s.name), h("strong", { class: "tt-final" }, num(s.total)),
				tieShown(g.standings, s) ? h("span", { class: "tt-tie", "data-tie": s.tie_break }, tr(`tt.tie.${s.tie_break}`, {}, s.tie_break)) : null,
				s.title ? h("span", { class: "tag" }, s.title) : null))),
			bgstatsLink(tablePlay(kind, g, (a) => t(`tt.admin.${a}`)), t("bgstats.log"))];
	});
	store.subscribe((S) => !!finished(S), (on) => (el.hidden = !on));
	return el;
}
