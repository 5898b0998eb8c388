// The game screen: the store, live updates, the move draft, the actions (static/README.md).
import * as api from "./api.js";
import * as queue from "./queue.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { createStore } from "./store.js";
import { errorOf } from "./view.js";
import { turnViews } from "./turn.js";
import { tableViews, sheetView } from "./table.js";
import { D, COLOURS, explainBed } from "./derive.js";

export function openGame(root, { id, token, seat }) {
	const store = createStore({
		id, token, data: null, game: null, lang: "",
		seat: seat || null, view: null,
		opts: null, optsKey: "", draft: null, preview: null, previewOff: false, picker: null, explain: null,
		reveal: { card: null, dice: {}, filter: { red: "", yellow: "", green: "" } },
		usedCards: [], alicat: null, discard: "", msg: null, hostReveal: false, err: null, busy: false,
		lost: null, // "gone" (no such game / token) or "replaced" (another phone took the seat)
		live: "connecting", online: navigator.onLine, queued: queue.queued(id), // writes waiting for the network
	});
	const get = store.get;
	const set = store.set;
	let es = null;
	let closed = false;

	function fail(e) {
		if (e instanceof api.ApiError && e.status === 401) return lose(e);
		set({ err: errorOf(e), busy: false });
	}
	const say = (key, vars) => set({ msg: key ? [key, vars] : null, err: null, explain: null });
	function lose(e) {
		set({ lost: e && e.rule === "seat-replaced" ? "replaced" : "gone" });
		if (es) es.close();
	}

	// ---- loading and live updates (one read at a time, one more for events meanwhile) ----
	// st, or a later game of this seat that a live update brought
	const newer = (st, g = get().game) => (g?.version >= st.version && g.you === st.you ? g : st);
	let refreshing = null;
	let again = false;
	function refresh() {
		if (refreshing) {
			again = true;
			return refreshing;
		}
		refreshing = (async () => {
			do {
				again = false;
				try {
					const st = await api.getGame(get().id, get().token);
					const S = get();
					if (newer(st) === st) setGame(st);
					if (S.live !== "live" && es && es.readyState === 1) set({ live: "live" });
				} catch (e) {
					if (e instanceof api.ApiError && (e.status === 401 || e.status === 404)) return lose(e);
					if (!(e instanceof api.ApiError && e.status === 0)) fail(e);
				}
			} while (again);
		})().finally(() => {
			refreshing = null;
		});
		return refreshing;
	}

	/** Keeps whose seat this phone plays: once taken over, the game no longer loads. */
	function rememberSeat(st) {
		const seat = st.you && st.seats.find((s) => s.seat === st.you);
		const saved = api.savedGames()[get().id] || {};
		if (seat && (saved.seatName !== seat.name || saved.code !== st.code)) api.saveGame(get().id, { seat: seat.seat, seatName: seat.name, code: st.code });
	}

	function setGame(st) {
		st = newer(st);
		const prev = get().game;
		rememberSeat(st);
		set({ game: st });
		let S = get();
		const patch = {};
		if (S.view === null || !D.seatOf(S, S.view)) patch.view = D.me(S);
		const key = D.canMove(S) ? `${st.turn.number}:${st.turn.chief_die}:${D.me(S)}:${JSON.stringify(D.mySheet(S))}` : "";
		const newKey = key !== S.optsKey;
		if (newKey) Object.assign(patch, { optsKey: key, opts: null, draft: key ? savedDraft(key) : null, preview: null, previewOff: false, picker: null, explain: null });
		if (!D.mayReveal(S)) patch.hostReveal = false;
		if (!D.canReveal(S)) patch.reveal = { card: null, dice: {}, filter: { red: "", yellow: "", green: "" } };
		set(patch);
		S = get();
		if (key && newKey) resume(); // the options, and what a draft found again needs
		// the cards already flipped (the picker offers only the others), and ALICAT's last move
		// (as Chief Physician it moves in the reveal's own write, before the player)
		const turnChanged = !prev || !prev.turn || !st.turn || prev.turn.number !== st.turn.number || prev.turn.closed !== st.turn.closed;
		if (turnChanged && (D.canReveal(S) || st.solo || D.mayReveal(S))) loadLog();
		else if (st.turn && !S.usedCards.includes(st.turn.card)) set({ usedCards: [...S.usedCards, st.turn.card] });
		if (st.status === "finished" && (!prev || prev.status !== "finished"))
			requestAnimationFrame(() => {
				const r = root.querySelector(".results");
				if (r) r.scrollIntoView({ block: "start" });
			});
	}

	async function loadLog() {
		try {
			const S = get();
			const log = await api.getLog(S.id, S.token);
			const used = log.events.filter((e) => e.kind === "reveal" && e.payload && e.payload.card).map((e) => e.payload.card);
			if (S.game.turn && !used.includes(S.game.turn.card)) used.push(S.game.turn.card);
			const patch = { usedCards: used };
			if (S.game.solo) patch.alicat = alicatSummary(log, S.game);
			set(patch);
		} catch (e) {
			if (!(e instanceof api.ApiError && e.status === 0)) console.warn(e);
		}
	}

	/** ALICAT's latest move from the log and what it gained in that turn (static/README.md, "Solo"). */
	function alicatSummary(log, g) {
		const bot = g.seats.find((s) => s.bot);
		const turns = log.turns || [];
		const seatIn = (t) => t && t.seats.find((s) => s.seat === bot.seat);
		const lastClosed = turns.length ? turns[turns.length - 1] : null;
		const open = log.events.filter((e) => e.kind === "move" && e.seat === bot.seat && e.turn > (lastClosed ? lastClosed.number : 0)).pop();
		let a;
		if (open && g.turn && g.turn.number === open.turn) {
			const before = seatIn(lastClosed) || seatIn(log.start);
			a = { turn: g.turn, move: open.payload.move, after: { sheet: bot.sheet, total: bot.score.total }, before };
		} else if (lastClosed) {
			const m = lastClosed.moves.find((x) => x.seat === bot.seat);
			a = { turn: lastClosed, move: m && m.move, after: seatIn(lastClosed), before: seatIn(turns[turns.length - 2]) || seatIn(log.start) };
		} else return null;
		const b = a.before && a.before.sheet, s = a.after.sheet;
		const gained = b && {
			stethoscopes: s.stethoscopes.circled - b.stethoscopes.circled,
			blood_bags: s.blood_bags.circled - b.blood_bags.circled,
			nurses: s.nurse_track - b.nurse_track,
			points: a.after.total - a.before.total,
		};
		// each step's keys in one order (the events and the turns order them differently)
		const STEP = ["admit", "morgue", "screen", "ward", "value"];
		const move = a.move && { die: a.move.die, steps: a.move.steps.map((st) => Object.fromEntries(STEP.filter((k) => k in st).map((k) => [k, st[k]]))) };
		return { turn: a.turn.number, card: a.turn.card, dice: a.turn.dice, move, gained, seat: bot.seat };
	}

	async function loadOptions(key) {
		try {
			const S = get();
			const r = await api.moveOptions(D.mySheet(S), D.myTurn(S));
			if (get().optsKey === key) set({ opts: r.options });
		} catch (e) {
			if (!(e instanceof api.ApiError && e.status === 0)) fail(e); // offline: resume() asks again
		}
	}

	/** Asks again for what the draft waits for (options, second options, the check), once online. */
	function resume() {
		const S = get();
		if (!S.optsKey || S.optsKey === "x" || !D.canMove(S)) return;
		if (!S.opts) loadOptions(S.optsKey);
		const d = S.draft;
		if (!d) return;
		if (!D.pending(d).length) {
			if (!S.preview) previewMove();
		} else if (!d.second) secondOptions(d);
	}

	function connect() {
		es = api.liveEvents(get().id, get().token, () => refresh(), (ok) => {
			const was = get().live;
			set({ live: ok ? "live" : "lost" });
			// refused (its token replaced): the state says why
			if (!ok && es && es.readyState === EventSource.CLOSED) refresh();
			if (ok && was === "lost") {
				refresh();
				sendQueued();
				resume();
			}
		});
	}

	// ---- the offline queue ----
	let flushing = false;
	async function sendQueued() {
		const S = get();
		if (flushing || !queue.queued(S.id).length) return;
		flushing = true;
		try {
			const r = await queue.flush(S.id, S.token);
			set({ queued: queue.queued(S.id) });
			if (r.refused) set({ err: errorOf(r.refused) });
			else if (r.sent) say("game.queue_sent", { n: r.sent });
			if (r.state) setGame(r.state);
			else if (r.sent || r.refused) refresh();
		} finally {
			flushing = false;
		}
	}
	const onOnline = () => {
		set({ online: true });
		sendQueued();
		refresh();
		resume();
	};
	const onOffline = () => set({ online: false });
	window.addEventListener("online", onOnline);
	window.addEventListener("offline", onOffline);
	const retry = setInterval(() => {
		if (queue.queued(get().id).length) sendQueued();
	}, 4000);

	// ---- the move draft ----
	const A = {};
	A.chooseDie = (c) => {
		const S = get();
		if (!D.canMove(S) || S.busy) return;
		if (D.chiefDieClosed(S, c)) {
			set({ explain: { key: "explain.chief_die", vars: { colour: t(`colour.${c}`) } }, msg: null });
			return;
		}
		if (S.draft && S.draft.die === c) return;
		const bay = D.card(S, S.game.turn.card).bays[c];
		// the move is drawn on this seat's own sheet: show it, whichever sheet was shown
		set({ draft: { die: c, bay, steps: [], done: {}, current: "die", second: null, undo: [] }, view: D.me(S), preview: null, previewOff: false, picker: null, msg: null, err: null, explain: null });
	};
	A.setCurrent = (p) => {
		const d = get().draft;
		if (!d || d.done[p]) return;
		set({ draft: { ...d, current: p }, picker: null });
	};
	A.tapBed = (w) => {
		const S = get();
		const list = D.litBeds(S).get(w);
		if (!list) return;
		if (list.length === 1) A.place(list[0]);
		else {
			set({ picker: { ward: w, list }, explain: null });
			store.flush();
			const first = root.querySelector(".picker button.value");
			if (first) first.focus();
		}
	};
	A.place = (o) => {
		const d = structuredClone(get().draft);
		const p = d.current;
		const n = d.steps.length;
		if (o.screen_first && !D.screenStep(d)) d.steps.push({ screen: o.ward });
		d.steps.push({ admit: p, ward: o.ward, value: o.value, recolour: o.recolour });
		d.undo.push(d.steps.length - n);
		d.done[p] = o;
		advance(d);
	};
	A.toMorgue = () => {
		const d = structuredClone(get().draft);
		if (!d || !d.current || d.done[d.current]) return;
		d.steps.push({ morgue: d.current });
		d.undo.push(1);
		d.done[d.current] = "morgue";
		advance(d);
	};
	A.screenWard = (w) => {
		const d = structuredClone(get().draft);
		if (!d || d.bay.bonus !== "screen" || D.screenStep(d)) return;
		d.steps.push({ screen: w + 1 });
		d.undo.push(1);
		set({ draft: d, preview: null, previewOff: false });
		say("game.screened", { ward: w + 1 });
		if (!D.pending(d).length) previewMove();
	};
	A.unlit = (w, pos) => set({ explain: explainBed(get(), w, pos), msg: null });
	A.cancelPicker = () => set({ picker: null });

	async function advance(d) {
		const left = D.pending(d);
		d.current = left[0] || null;
		set({ draft: d, preview: null, previewOff: false, picker: null, msg: null, err: null, explain: null });
		if (!left.length) return previewMove();
		secondOptions(d);
	}

	/** Options for the second patient on the sheet with the first written and paid for. */
	async function secondOptions(d) {
		const firstDone = D.patientsOf(d).find((p) => d.done[p]);
		const o = d.done[firstDone];
		if (!o || o === "morgue") return;
		const S = get();
		const s2 = structuredClone(D.mySheet(S));
		s2.wards[o.ward - 1].push({ value: o.value, critical: false, screen: false });
		s2.stethoscopes.used += o.stethoscopes;
		const mt = D.myTurn(S);
		s2.blood_bags.used += o.blood_bags - (!mt.chief && mt.chief_die === d.die ? 1 : 0);
		try {
			const r = await api.moveOptions(s2, mt);
			const now = get().draft;
			if (now && now.steps === d.steps) set({ draft: { ...now, second: r.options.filter((x) => x.die === d.die && x.patient === now.current) } });
		} catch (e) {
			if (!(e instanceof api.ApiError && e.status === 0)) fail(e); // offline: resume() asks again
		}
	}

	async function previewMove() {
		const S = get();
		const d = S.draft;
		set({ preview: null, previewOff: false });
		try {
			const r = await api.applyMove(D.mySheet(S), D.myTurn(S), { die: d.die, steps: d.steps });
			if (get().draft && get().draft.steps === d.steps) set({ preview: r.sheet });
		} catch (e) {
			if (!get().draft || get().draft.steps !== d.steps) return;
			// offline: sent unchecked (the server checks it); resume() checks it once online
			if (e instanceof api.ApiError && e.status === 0) set({ previewOff: true });
			else fail(e);
		}
	}

	A.resetDraft = () => {
		set({ draft: null, preview: null, previewOff: false, picker: null });
		say(null);
	};
	/** Takes back the last thing placed (a patient, with the screen it needed, or a screen). */
	A.undoStep = () => {
		const d = structuredClone(get().draft);
		if (!d || !d.undo || !d.undo.length) return A.resetDraft();
		const gone = d.steps.splice(d.steps.length - d.undo.pop());
		let back = null;
		for (const st of gone) if (st.admit || st.morgue) delete d.done[(back = st.admit || st.morgue)];
		if (!D.patientsOf(d).some((p) => d.done[p] && d.done[p] !== "morgue")) d.second = null;
		d.current = back || d.current;
		set({ draft: d, preview: null, previewOff: false, picker: null, msg: null, err: null, explain: null });
		if (!D.pending(d).length) previewMove();
	};

	// ---- the draft survives a reload: per game, turn, seat and sheet ----
	const draftKey = `dh.er.draft.${id}`;
	function savedDraft(key) {
		const o = api.readStored(draftKey);
		return o.key === key && o.draft ? o.draft : null;
	}
	store.subscribe((S) => [S.game ? S.optsKey : "x", S.draft], ([key, draft]) => {
		if (key === "x") return; // not loaded yet, or between a reply and its state
		if (key && draft) localStorage.setItem(draftKey, JSON.stringify({ key, draft }));
		else localStorage.removeItem(draftKey);
	});

	async function act(msg, fn, queueItem) {
		if (get().busy) return;
		set({ busy: true, err: null, explain: null });
		try {
			const st = await fn();
			set({ busy: false, optsKey: "x" }); // a fresh draft state
			say(...msg);
			setGame(st);
		} catch (e) {
			set({ busy: false });
			if (queueItem && e instanceof api.ApiError && e.status === 0) {
				queue.enqueue(get().id, queueItem);
				set({ queued: queue.queued(get().id), draft: null, preview: null, previewOff: false, picker: null });
				say(null); // the status line says the write waits on this phone
				return;
			}
			fail(e);
		}
	}

	A.submit = () => {
		const S = get();
		const d = S.draft;
		if (!d || D.pending(d).length) return;
		const body = { turn: S.game.turn.number, move: { die: d.die, steps: d.steps } };
		if (S.game.solo && S.discard) body.alicat_discard = Number(S.discard);
		const seat = D.me(S);
		act(["game.accepted"], () => api.sendMove(S.id, S.token, seat, body), { kind: "move", seat, body });
	};
	A.undo = () => {
		const S = get();
		act(["game.undone"], () => api.undoMove(S.id, S.token, D.me(S), S.game.turn.number));
	};
	A.doReveal = () => {
		const S = get();
		const n = D.next(S).turn;
		const body = { turn: n };
		if (S.game.deck === "table") {
			const r = S.reveal;
			if (!r.card || COLOURS.some((c) => !r.dice[c])) return set({ err: { key: "game.reveal_need" } });
			body.card = r.card;
			body.dice = { red: r.dice.red, yellow: r.dice.yellow, green: r.dice.green };
		}
		act(["game.revealed", { n }], () => api.reveal(S.id, S.token, body), { kind: "reveal", seat: 0, body });
	};
	A.setReveal = (patch) => set({ reveal: { ...get().reveal, ...patch }, err: null });
	A.hostReveal = () => set({ hostReveal: true });
	A.view = (seat) => set({ view: seat });
	A.playAs = (seat) => {
		set({ seat, view: seat });
		setGame(get().game);
	};
	A.setDiscard = (v) => set({ discard: v });

	// ---- the screen ----
	const ctx = { store, A, root };
	const turn = turnViews(ctx);
	const table = tableViews(ctx);
	const sheet = sheetView(ctx);
	const lostBox = h("div", {});
	store.subscribe((S) => [S.lost, S.lang, S.game && S.game.code], ([lost]) => {
		if (!lost) return lostBox.replaceChildren();
		const S = get();
		const saved = api.savedGames()[S.id] || {};
		const name = S.game && S.game.you ? D.seatOf(S, S.game.you).name : saved.seatName || (saved.seat ? saved.label : "");
		const words = lost !== "replaced" ? t("game.not_found") : name ? t("game.replaced", { name }) : t("game.replaced_unnamed");
		lostBox.replaceChildren(h("section", { class: "panel lost", id: "lost" },
			h("div", { role: "alert" }, h("h1", {}, words)),
			lost === "replaced" ? h("p", {}, t("game.replaced_help")) : null,
			h("div", { class: "actions-inline" },
				saved.code ? h("a", { class: "button primary", id: "rejoin", href: `#join=${encodeURIComponent(saved.code)}` }, t("game.rejoin")) : null,
				h("a", { class: "button", href: "#" }, t("nav.home")))));
	});
	const gameEl = h("div", { class: "game" },
		lostBox, turn.header, turn.hostSeat, table.results, table.alicat, turn.reveal, turn.card, sheet.el, table.players, table.specialists, table.prints);
	const showing = (S) => !!S.game && !S.lost;
	store.subscribe(showing, (v) => {
		for (const el of [turn.header, turn.hostSeat, table.results, table.alicat, turn.reveal, turn.card, sheet.el, table.players, table.specialists, table.prints, turn.dock])
			el.hidden = !v;
	});
	root.replaceChildren(gameEl, turn.dock);
	// in view, least scrolled: a die's lit beds and the dice, or the bed the picker writes;
	// again when anything resizes
	const lit = (S) => S.game && S.data && D.canMove(S) && S.draft && !S.picker && [S.draft.die, S.draft.current, [...D.litBeds(S).keys()]];
	const bring = () => requestAnimationFrame(() => get().picker ? show(".bed.picking") : lit(get())?.[2]?.length && show(".bed.lit", ".card .die"));
	store.subscribe(lit, (v) => v && bring());
	store.subscribe((S) => S.picker && [S.picker.ward], (v) => v && bring());
	function show(beds, more) {
		const rects = (sel) => (sel ? [...root.querySelectorAll(sel)].map((e) => e.getBoundingClientRect()) : []);
		const lit = rects(beds), dice = rects(more);
		if (!lit.length) return;
		pad(); // the page's end clear of the dock as it is now, so the page can scroll that far
		const head = document.querySelector(".top");
		const top = (head ? head.getBoundingClientRect().bottom : 0) + 4;
		const bottom = (turn.dock.hidden ? innerHeight : turn.dock.getBoundingClientRect().top) - 4;
		const span = (rs) => [Math.min(...rs.map((r) => r.top)), Math.max(...rs.map((r) => r.bottom))];
		let [hi, lo] = span([...lit, ...dice]);
		if (lo - hi > bottom - top) [hi, lo] = span(lit); // too tall together: the beds come first
		const dy = hi < top ? hi - top : lo > bottom ? Math.min(lo - bottom, hi - top) : 0;
		if (dy) scrollBy({ top: dy, behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
	}
	// the dock is fixed at the bottom: keep the page's end clear of it
	const pad = () => document.documentElement.style.setProperty("--dock", `${turn.dock.offsetHeight + 16}px`);
	const ro = new ResizeObserver(() => { pad(); bring(); });
	ro.observe(turn.dock);
	ro.observe(gameEl);

	(async () => {
		try {
			const data = await api.gameData();
			set({ data });
			await refresh();
			if (get().game && !get().lost) {
				connect();
				sendQueued();
			}
		} catch (e) {
			fail(e);
		}
	})();
	const onVisible = () => document.visibilityState === "visible" && refresh();
	document.addEventListener("visibilitychange", onVisible);

	return {
		render(lang) {
			set({ lang });
		},
		close() {
			closed = true;
			if (es) es.close();
			clearInterval(retry);
			ro.disconnect();
			window.removeEventListener("online", onOnline);
			window.removeEventListener("offline", onOffline);
			document.removeEventListener("visibilitychange", onVisible);
			document.documentElement.style.removeProperty("--dock");
		},
		get closed() {
			return closed;
		},
	};
}
