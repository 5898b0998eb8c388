// The running score of a Dice Hospital or Clinic table: one line per seat with its total, unfolded
// on a tap into the points of every round and of the end with the reason for each. Every seat's
// line is its own view: a round saved for one seat redraws that seat's line only.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { mount } from "../view.js";
import { num, tr } from "./shared.js";
import { unverifiedBadge } from "./widgets.js";

function reasonLine(r) {
	const name = tr(`ttr.${r.rule}`, {}, r.rule);
	return h("li", { class: `tt-reason${r.verified ? "" : " unverified"}`, "data-rule": r.rule },
		h("span", {}, r.count > 1 ? `${name} ×${num(r.count)}` : name), h("span", { class: "tt-pts" }, num(r.points, true)),
		r.verified ? null : unverifiedBadge());
}

/** A block of reasons under its heading (a round, or the end) and its points. */
const reasonBlock = (head, points, reasons) => h("div", { class: "tt-round" },
	h("div", { class: "tt-round-head" }, head, h("span", { class: "tt-pts" }, num(points))), h("ul", {}, reasons.map(reasonLine)));

function seatLine(store, n) {
	const { get, set } = store;
	const select = (S) => [S.lang, !!S.open[n], S.game.seats[n - 1]];
	return mount(store, h("li", { class: "tt-score", "data-seat": n }), select, ([, open, s]) => [
		h("button", { type: "button", class: "tt-score-head secondary", "aria-expanded": open ? "true" : "false",
			onclick: () => set({ open: { ...get().open, [n]: !open } }) },
		h("span", {}, `${s.seat}. ${s.name}`), h("strong", { class: "tt-total", "data-total": s.score.total }, num(s.score.total)),
		s.score.verified ? null : unverifiedBadge()),
		open ? h("div", { class: "tt-reasons" },
			s.rounds.filter((r) => r.reasons.length || r.entered).map((r) => reasonBlock(t("tt.round_short", { n: r.round }), r.points, r.reasons)),
			s.score.end_reasons && s.score.end_reasons.length ? reasonBlock(t("tt.end"), s.score.end, s.score.end_reasons) : null) : null,
	]);
}

export function scoresView({ store }) {
	const list = h("ol", { class: "tt-score-list" });
	const title = mount(store, h("h2"), (S) => S.lang, () => t("tt.scores"));
	// the seats of a game are fixed: their lines are made once, when the game first arrives
	// (a view subscribed while the store runs its views runs in the same pass)
	store.subscribe((S) => S.game && S.game.seats.length, (n) => {
		if (n && !list.firstChild) list.replaceChildren(...Array.from({ length: n }, (_, i) => seatLine(store, i + 1)));
	});
	const el = h("section", { class: "panel", id: "tt-scores" }, title, list);
	store.subscribe((S) => !S.game, (none) => (el.hidden = none));
	return el;
}
