// A Dice Hospital or Clinic game's table ("#tt=KIND&game=ID"): the state store, loading and live
// updates (the game's event stream), and the panels: head.js (code, round, connection, score
// pads), entry.js (a round's or the end's entry form), business.js (Clinic's Business helper),
// finish.js (the final ranking) and scores.js (the running score with its reasons). Each panel
// is a set of views that redraw only when what they select has changed, so a live event that
// changes one seat's score redraws that score, and a form being filled in is left alone.
import { h } from "../dom.js";
import { lang } from "../i18n.js";
import { createStore } from "../store.js";
import { call, remember, gamePath, roundsOf } from "./shared.js";
import { headView } from "./head.js";
import { entryViews, draftSource } from "./entry.js";
import { businessView } from "./business.js";
import { standingsView } from "./finish.js";
import { scoresView } from "./scores.js";

export function openGame(app, kind, id, token) {
	const store = createStore({
		lang: lang(), game: null, live: false, err: null, msg: null, busy: false,
		// the entry form: the round shown ("finish" for the end), the values being entered (changed
		// in place by the steppers, which update their own output), draftRev: how many times the
		// drafts were replaced (the forms redraw then), draftSrc: the game data they came from
		round: null, drafts: {}, draftRev: 0, draftSrc: "", dirty: false,
		open: {}, // the seats whose score reasons are unfolded
		biz: { open: false, out: null, err: null }, // Clinic's Business helper (business.js)
	});
	const { get, set } = store;
	const ctx = { store, kind, id, token, isDh: kind === "dh", nRounds: roundsOf(kind), setGame, path: (rest) => gamePath(kind, id, rest) };
	let closed = false;
	let es = null;

	/** Takes a new state of the game. The entry form starts again from it (the next round, the
	 * drafts from the saved values) unless something is being entered; force: after a save. */
	function setGame(g, force = false) {
		const S = get();
		remember(id, { kind, code: g.code });
		const patch = { game: g };
		if (force || !S.game || !S.dirty) {
			const round = g.next.action === "round" ? g.next.round : g.next.action === "finish" ? "finish" : S.round || "finish";
			const src = draftSource(g, round);
			if (force || round !== S.round || src !== S.draftSrc) Object.assign(patch, { round, drafts: {}, draftRev: S.draftRev + 1, draftSrc: src, dirty: false });
		}
		set(patch);
	}

	// One request at a time; an event that arrives meanwhile asks for one more, so the state shown
	// is never older than the last event.
	let refreshing = null;
	let again = false;
	async function refresh() {
		if (refreshing) return void (again = true);
		refreshing = true;
		do {
			again = false;
			try {
				const g = await call("GET", ctx.path(), undefined, token);
				if (!closed && (!get().game || g.version !== get().game.version)) setGame(g);
			} catch (e) {
				if (!closed) set({ err: e });
			}
		} while (again && !closed);
		refreshing = null;
	}

	function listen() {
		es = new EventSource(`/api/v1${ctx.path("/events")}?token=${encodeURIComponent(token)}`);
		for (const k of ["hello", "round", "finish", "message"]) es.addEventListener(k, () => refresh());
		es.onopen = () => set({ live: true });
		es.onerror = () => set({ live: false });
	}

	app.replaceChildren(h("div", { class: "tt tt-game", "data-kind": kind },
		headView(ctx), entryViews(ctx), ctx.isDh ? null : businessView(ctx), standingsView(ctx), scoresView(ctx)));
	store.flush();
	refresh();
	listen();
	return {
		close() {
			closed = true;
			es.close();
		},
		render: () => set({ lang: lang() }),
	};
}
