// The running score of a Dice Hospital or Clinic table: one line per seat with its total, unfolded
// on a tap into the points of every round and of the end with the reason for each. Every seat's
// line is its own view: a round saved for one seat redraws that seat's line only.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { mount } from "../view.js";
import { num, rankWords, tr } from "./shared.js";
import { unverifiedMark, unverifiedLegend } from "./widgets.js";

function reasonLine(r) {
	const name = tr(`ttr.${r.rule}`, {}, r.rule);
	return h("li", { class: `tt-reason${r.verified ? "" : " unverified"}`, "data-rule": r.rule },
		h("span", {}, r.count > 1 ? `${name} ×${num(r.count)}` : name, r.verified ? null : unverifiedMark()), h("span", { class: "tt-pts" }, num(r.points, true)));
}

/** A block of reasons under its heading (a round, or the end) and its points. */
const reasonBlock = (head, points, reasons) => h("div", { class: "tt-round" },
	h("div", { class: "tt-round-head" }, head, h("span", { class: "tt-pts" }, num(points))), h("ul", {}, reasons.map(reasonLine)));

function seatLine(store, n) {
	const { get, set } = store;
	// once the game is over, the seat's rank (the lines stay in seat order while it goes on)
	const standing = (S) => (S.game.standings || []).find((x) => x.seat === n) || null;
	const select = (S) => [S.lang, !!S.open[n], S.game.seats[n - 1], standing(S)?.rank];
	return mount(store, h("li", { class: "tt-score", "data-seat": n }), select, ([, open, s, rank]) => [
		h("button", { type: "button", class: "tt-score-head secondary", "aria-expanded": open ? "true" : "false",
			onclick: () => set({ open: { ...get().open, [n]: !open } }) },
		rank ? h("span", { class: "tt-rank", "data-rank": rank }, rankWords(rank)) : null, h("span", { class: "tt-name" }, s.name), h("strong", { class: "tt-total", "data-total": s.score.total }, num(s.score.total))),
		open ? h("div", { class: "tt-reasons" },
			s.rounds.filter((r) => r.reasons.length || r.entered).map((r) => reasonBlock(t("tt.round_short", { n: r.round }), r.points, r.reasons)),
			s.score.end_reasons && s.score.end_reasons.length ? reasonBlock(t("tt.end"), s.score.end, s.score.end_reasons) : null,
			s.score.verified ? null : unverifiedLegend()) : null]);
}

export function scoresView({ store }) {
	const list = h("ol", { class: "tt-score-list" });
	const title = mount(store, h("h2"), (S) => S.lang, () => t("tt.scores"));
	// the seats of a game are fixed: their lines are made once, when the game first arrives
	// (a view subscribed while the store runs its views runs in the same pass)
	store.subscribe((S) => S.game && S.game.seats.length, (n) => {
		if (n && !list.firstChild) list.replaceChildren(...Array.from({ length: n }, (_, i) => seatLine(store, i + 1)));
	});
	// once the game is over the lines move into the ranking's order (each keeps its own view)
	store.subscribe((S) => S.game && S.game.standings && S.game.standings.map((x) => x.seat).join(), (order) => {
		if (!order) return;
		for (const seat of order.split(",")) {
			const line = list.querySelector(`.tt-score[data-seat="${seat}"]`);
			if (line) list.append(line);
		}
	});
	const el = h("section", { class: "panel", id: "tt-scores" }, title, list);
	store.subscribe((S) => !S.game, (none) => (el.hidden = none));
	return el;
}
