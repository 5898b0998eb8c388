// Pure functions of the store's state (static/README.md, "The ER screens").
import { t, lang } from "./i18n.js";

export const COLOURS = ["red", "yellow", "green"];

// ---- derived state (pure functions of the store's state) ----
export const D = {
	isHost: (S) => S.game && !S.game.you,
	me(S) {
		const g = S.game;
		if (g.you) return g.you;
		const humans = g.seats.filter((s) => !s.bot).map((s) => s.seat);
		return humans.includes(S.seat) ? S.seat : humans[0];
	},
	seatOf: (S, n) => S.game.seats.find((s) => s.seat === n),
	next: (S) => S.game.next || {},
	mySheet: (S) => D.seatOf(S, D.me(S)).sheet,
	/** The seat that is (or will be) Chief Physician of the turn on the table. */
	chiefSeat(S) {
		const g = S.game;
		if (g.status === "finished") return null;
		return D.next(S).action === "reveal" ? D.next(S).chief_seat : g.turn && g.turn.chief_seat;
	},
	/** This phone's move (kind "move") or reveal ("reveal") of the current turn waits in the offline queue. */
	waiting(S, kind) {
		const n = D.next(S);
		return (S.queued || []).some((q) => q.kind === kind && q.body.turn === n.turn && (kind === "reveal" || q.seat === D.me(S)));
	},
	mayReveal(S) {
		const n = D.next(S);
		return n.action === "reveal" && !D.waiting(S, "reveal") && (D.isHost(S) || D.me(S) === n.chief_seat || (S.game.solo && D.me(S) === 1));
	},
	// a host who is not this turn's Chief Physician enters the card only on request
	canReveal: (S) => D.mayReveal(S) && (D.me(S) === D.next(S).chief_seat || S.game.solo || S.hostReveal),
	canMove: (S) => D.next(S).action === "move" && (D.next(S).seats || []).includes(D.me(S)) && !D.seatOf(S, D.me(S)).bot && !D.waiting(S, "move"),
	hasMoved: (S) => S.game.turn && !S.game.turn.closed && S.game.turn.moved.includes(D.me(S)),
	myTurn(S) {
		const tr = S.game.turn;
		const chief = tr.chief_seat === D.me(S);
		return { card: tr.card, dice: tr.dice, chief, chief_die: chief ? null : tr.chief_die };
	},
	card: (S, n) => S.data.cards.find((c) => c.id === n),
	specName(S, id) {
		const s = S.data.specialists.find((x) => x.id === id);
		return s ? s.text[lang()] || s.text.en : id;
	},
	patientsOf: (d) => (d.bay.bonus === "extra" ? ["die", "extra"] : ["die"]),
	screenStep: (d) => d.steps.find((s) => "screen" in s),
	pending: (d) => D.patientsOf(d).filter((p) => !d.done[p]),
	/** Blood bags this seat can spend now (the chief's die costs one of them). */
	bloodLeft: (S) => D.mySheet(S).blood_bags.circled - D.mySheet(S).blood_bags.used,
	/** The chief's die is closed to this seat: not the chief, and no blood bag to pay for it. */
	chiefDieClosed(S, colour) {
		const mt = D.myTurn(S);
		return !mt.chief && mt.chief_die === colour && D.bloodLeft(S) < 1;
	},
	/** Legal beds for the patient being placed: Map(ward index → options). */
	litBeds(S) {
		const d = S.draft;
		const lit = new Map();
		if (!d || !d.current || d.done[d.current] || !S.opts) return lit;
		const other = D.patientsOf(d).find((p) => p !== d.current);
		const otherAdmitted = other && d.done[other] && d.done[other] !== "morgue";
		let list = otherAdmitted ? d.second : S.opts.filter((o) => o.die === d.die && o.patient === d.current);
		if (!list) return lit;
		const scr = D.screenStep(d);
		list = list.filter((o) => !o.screen_first || !scr || scr.screen === o.ward);
		for (const o of list) {
			const w = o.ward - 1;
			if (!lit.has(w)) lit.set(w, []);
			lit.get(w).push(o);
		}
		for (const l of lit.values()) l.sort((a, b) => a.value - b.value);
		return lit;
	},
	/** The sheet as drafted so far (values written, screens drawn). */
	draftSheet(S) {
		const d = S.draft;
		if (!d) return D.mySheet(S);
		if (S.preview && !D.pending(d).length) return S.preview;
		return D.withSteps(D.mySheet(S), d.steps);
	},
	/** A copy of sheet with the values of steps written and their screens drawn. */
	withSteps(sheet, steps) {
		const s = structuredClone(sheet);
		for (const st of steps) {
			if ("screen" in st) {
				const w = s.wards[st.screen - 1];
				if (w.length) w[w.length - 1].screen = true;
			} else if ("admit" in st) s.wards[st.ward - 1].push({ value: st.value, critical: false, screen: false });
		}
		return s;
	},
	/** The beds ("ward:pos", from 0) that steps write on sheet. */
	stepBeds(sheet, steps) {
		const out = new Set();
		const counts = sheet.wards.map((w) => w.length);
		for (const st of steps) if ("admit" in st) out.add(`${st.ward - 1}:${counts[st.ward - 1]++}`);
		return out;
	},
	draftBeds: (S) => (S.draft ? D.stepBeds(D.mySheet(S), S.draft.steps) : new Set()),
	/** This seat's move of the turn on the table that waits in the offline queue, or null. */
	queuedMove(S) {
		const n = D.next(S);
		return (S.queued || []).find((q) => q.kind === "move" && q.seat === D.me(S) && n.action === "move" && q.body.turn === n.turn) || null;
	},
};

/** Why this bed cannot take the patient being placed, in words: {key, vars}. */
export function explainBed(S, w, pos) {
	const layout = S.data.sheet;
	const ward = layout.wards[w];
	const sheet = D.mySheet(S);
	const patients = S.draft ? D.draftSheet(S).wards[w] : sheet.wards[w];
	const vars = { ward: w + 1, bed: pos + 1 };
	if (!S.game || S.game.status === "finished") return { key: "explain.finished" };
	if (S.view && S.view !== D.me(S)) return { key: "explain.other_sheet", vars: { name: D.seatOf(S, S.view).name } };
	if (!D.canMove(S)) return { key: D.hasMoved(S) ? "explain.moved" : "explain.not_now" };
	if (!S.draft) return { key: "explain.choose_die" };
	const d = S.draft;
	if (!d.current) return { key: "explain.done" };
	if (pos < patients.length) return { key: "explain.taken", vars };
	if (patients.length === ward.beds.length) return { key: "rule.ward-full" };
	if (pos > patients.length) return { key: "explain.in_order", vars: { ...vars, next: patients.length + 1 } };
	// the next bed of the ward, and no legal option for it: say which rule closes it
	const bed = ward.beds[pos];
	const colour = d.current === "extra" ? d.bay.colour : d.die;
	const mt = D.myTurn(S);
	const chiefCost = !mt.chief && mt.chief_die === d.die ? 1 : 0;
	const blood = sheet.blood_bags.circled - sheet.blood_bags.used - chiefCost;
	const steth = sheet.stethoscopes.circled - sheet.stethoscopes.used;
	if (chiefCost && blood < 0) return { key: "rule.chief-die" };
	if (bed.colour !== "wild" && bed.colour !== colour && blood < 1)
		return { key: "explain.colour", vars: { ...vars, bed: t(`colour.${bed.colour}`), die: t(`colour.${colour}`) } };
	const prev = patients[patients.length - 1];
	if (prev && !prev.screen) {
		const values = d.current === "extra" ? d.bay.values : [S.game.turn.dice[d.die]];
		const best = Math.max(...values.map((v) => Math.min(6, v + steth)));
		if (best <= prev.value) return { key: "explain.value", vars: { ...vars, prev: prev.value, n: steth } };
	}
	return { key: "explain.other" };
}
