// The game screen: the turn (card, dice), revealing it, drafting and sending this seat's move,
// the sheet, the table, live updates, the end of the game.
import * as api from "./api.js";
import { t, lang, has } from "./i18n.js";
import { h, COLOURS, bonusBadge, bonusText, die, miniCard, renderSheet, renderBreakdown } from "./sheet.js";

const BONUSES = ["stethoscopes", "blood_bag", "screen", "critical", "nurse", "extra"];

/** An error as data, worded at render time (the language may change): {key, vars} for the app's
 * own messages, {status, rule, detail} for a server refusal (problem+json), {detail} otherwise. */
export function errorOf(e) {
	if (e instanceof api.ApiError)
		return e.status === 0 ? { key: "error.network" } : { status: e.status, rule: e.rule, detail: e.message };
	console.error(e);
	return { detail: String(e && e.message ? e.message : e) };
}

/** The error box. A refusal whose rule id has a message ("rule.<id>" in static/i18n) reads in the
 * current language, headed by the status and the rule id; the server's own detail (English, with
 * the specifics: ward, values…) follows as a second line in English, as a tooltip otherwise.
 * An unknown rule falls back to the server's detail. */
export function errorBox(err, attrs = {}) {
	const box = h("div", { class: "error", role: "alert", ...attrs });
	if (err.key) {
		box.append(t(err.key, err.vars));
		return box;
	}
	const known = !!err.rule && has(`rule.${err.rule}`);
	if (err.status) box.append(h("strong", {}, `${t("error.title")} (${err.status}${err.rule ? ` · ${err.rule}` : ""}) `));
	box.append(known ? t(`rule.${err.rule}`) : err.detail || "");
	if (known && err.detail) {
		box.dataset.detail = err.detail;
		if (lang() === "en") box.append(h("div", { class: "muted detail" }, err.detail));
		else box.title = err.detail;
	}
	return box;
}

export function openGame(root, { id, token, seat }) {
	const S = {
		id, token, data: null, game: null,
		seat: seat || null, // the seat this phone plays (a host may choose)
		view: null, // the seat whose sheet is shown
		opts: null, optsKey: "", draft: null, preview: null, picker: null,
		reveal: { card: null, dice: {}, filter: { red: "", yellow: "", green: "" } },
		discard: "", msg: null, hostReveal: false, err: null, busy: false, es: null, closed: false,
	};

	// ---- derived state ----
	const g = () => S.game;
	const isHost = () => g() && !g().you;
	const me = () => {
		if (g().you) return g().you;
		const humans = g().seats.filter((s) => !s.bot).map((s) => s.seat);
		return humans.includes(S.seat) ? S.seat : humans[0];
	};
	const seatOf = (n) => g().seats.find((s) => s.seat === n);
	const mySheet = () => seatOf(me()).sheet;
	const next = () => g().next || {};
	const mayReveal = () =>
		next().action === "reveal" && (isHost() || me() === next().chief_seat || (g().solo && me() === 1));
	// a host who is not this turn's Chief Physician enters the card only on request
	const canReveal = () => mayReveal() && (me() === next().chief_seat || (g().solo && me() === 1) || S.hostReveal);
	const canMove = () => next().action === "move" && (next().seats || []).includes(me()) && !seatOf(me()).bot;
	const hasMoved = () => g().turn && !g().turn.closed && g().turn.moved.includes(me());
	const myTurn = () => {
		const tr = g().turn;
		const chief = tr.chief_seat === me();
		return { card: tr.card, dice: tr.dice, chief, chief_die: chief ? null : tr.chief_die };
	};
	const card = (n) => S.data.cards.find((c) => c.id === n);
	const layout = () => S.data.sheet;

	// ---- errors and messages ----
	function fail(e) {
		S.err = errorOf(e);
		render();
	}
	/** say("game.accepted", {…}): a message translated at render time (the language may change). */
	function say(key, vars) {
		S.msg = key ? [key, vars] : null;
		S.err = null;
	}

	// ---- loading and live updates ----
	let refreshing = null;
	async function refresh() {
		if (refreshing) return refreshing;
		refreshing = (async () => {
			try {
				const st = await api.getGame(S.id, S.token);
				if (!S.game || st.version !== S.game.version || st.you !== S.game.you) setGame(st);
			} catch (e) {
				if (e instanceof api.ApiError && (e.status === 401 || e.status === 404)) {
					S.lost = true;
					render();
				} else fail(e);
			} finally {
				refreshing = null;
			}
		})();
		return refreshing;
	}

	function setGame(st) {
		S.game = st;
		if (S.view === null || !seatOf(S.view)) S.view = me();
		const key = canMove() ? `${st.turn.number}:${st.turn.chief_die}:${me()}:${JSON.stringify(mySheet())}` : "";
		if (key !== S.optsKey) {
			S.optsKey = key;
			S.opts = null;
			S.draft = null;
			S.preview = null;
			S.picker = null;
			if (key) loadOptions(key);
		}
		if (!mayReveal()) S.hostReveal = false;
		if (!canReveal()) S.reveal = { card: null, dice: {}, filter: { red: "", yellow: "", green: "" } };
		render();
	}

	async function loadOptions(key) {
		try {
			const r = await api.moveOptions(mySheet(), myTurn());
			if (S.optsKey === key) {
				S.opts = r.options;
				render();
			}
		} catch (e) {
			fail(e);
		}
	}

	function connect() {
		S.es = api.liveEvents(S.id, S.token, () => refresh(), (ok) => {
			if (ok && S.liveLost) {
				S.liveLost = false;
				refresh();
			} else if (!ok) S.liveLost = true;
			renderLive();
		});
	}

	// ---- the move draft ----
	function patientsOf(d) {
		return d.bay.bonus === "extra" ? ["die", "extra"] : ["die"];
	}
	function screenStep(d) {
		return d.steps.find((s) => "screen" in s);
	}
	function pending(d) {
		return patientsOf(d).filter((p) => !d.done[p]);
	}
	function chiefCost(dieColour) {
		const tr = myTurn();
		return !tr.chief && tr.chief_die === dieColour ? 1 : 0;
	}

	function chooseDie(c) {
		if (!canMove() || S.busy) return;
		if (S.draft && S.draft.die === c) return;
		const bay = card(g().turn.card).bays[c];
		S.draft = { die: c, bay, steps: [], done: {}, current: "die", second: null };
		S.preview = null;
		S.picker = null;
		say(null);
		render();
	}

	function setCurrent(p) {
		if (!S.draft || S.draft.done[p]) return;
		S.draft.current = p;
		S.picker = null;
		render();
	}

	/** The sheet as drafted so far (values written, screens drawn), without the ledger. */
	function draftSheet() {
		const d = S.draft;
		if (!d) return mySheet();
		if (S.preview && !pending(d).length) return S.preview;
		const s = structuredClone(mySheet());
		for (const st of d.steps) {
			if ("screen" in st) {
				const w = s.wards[st.screen - 1];
				if (w.length) w[w.length - 1].screen = true;
			} else if ("admit" in st) s.wards[st.ward - 1].push({ value: st.value, critical: false, screen: false });
		}
		return s;
	}
	function draftBeds() {
		const out = new Set();
		if (!S.draft) return out;
		const counts = mySheet().wards.map((w) => w.length);
		for (const st of S.draft.steps) if ("admit" in st) out.add(`${st.ward - 1}:${counts[st.ward - 1]++}`);
		return out;
	}

	/** Legal beds for the patient being placed: Map(ward index → options). */
	function litBeds() {
		const d = S.draft;
		const lit = new Map();
		if (!d || !d.current || d.done[d.current] || !S.opts) return lit;
		const other = patientsOf(d).find((p) => p !== d.current);
		const otherAdmitted = other && d.done[other] && d.done[other] !== "morgue";
		let list = otherAdmitted ? d.second : S.opts.filter((o) => o.die === d.die && o.patient === d.current);
		if (!list) return lit;
		const scr = screenStep(d);
		list = list.filter((o) => !o.screen_first || !scr || scr.screen === o.ward);
		for (const o of list) {
			const w = o.ward - 1;
			if (!lit.has(w)) lit.set(w, []);
			lit.get(w).push(o);
		}
		for (const l of lit.values()) l.sort((a, b) => a.value - b.value);
		return lit;
	}

	function tapBed(w) {
		const list = litBeds().get(w);
		if (!list) return;
		if (list.length === 1) place(list[0]);
		else {
			S.picker = { ward: w, list };
			render();
			const first = root.querySelector(".picker button.value");
			if (first) first.focus();
		}
	}

	function place(o) {
		const d = S.draft;
		const p = d.current;
		if (o.screen_first && !screenStep(d)) d.steps.push({ screen: o.ward });
		d.steps.push({ admit: p, ward: o.ward, value: o.value, recolour: o.recolour });
		d.done[p] = o;
		S.picker = null;
		advance();
	}

	function toMorgue() {
		const d = S.draft;
		if (!d || !d.current || d.done[d.current]) return;
		d.steps.push({ morgue: d.current });
		d.done[d.current] = "morgue";
		S.picker = null;
		advance();
	}

	function screenWard(w) {
		const d = S.draft;
		if (!d || d.bay.bonus !== "screen" || screenStep(d)) return;
		d.steps.push({ screen: w + 1 });
		say("game.screened", { ward: w + 1 });
		if (!pending(d).length) previewMove();
		else render();
	}

	async function advance() {
		const d = S.draft;
		const left = pending(d);
		d.current = left[0] || null;
		say(null);
		if (!left.length) return previewMove();
		render();
		const firstDone = patientsOf(d).find((p) => d.done[p]);
		const o = d.done[firstDone];
		if (o && o !== "morgue") {
			// Options for the second patient: the sheet with the first one written and its costs paid
			// (the extra patient's die has no stethoscope or blood bag bonus to count twice).
			const s2 = structuredClone(mySheet());
			s2.wards[o.ward - 1].push({ value: o.value, critical: false, screen: false });
			s2.stethoscopes.used += o.stethoscopes;
			s2.blood_bags.used += o.blood_bags - chiefCost(d.die);
			try {
				const r = await api.moveOptions(s2, myTurn());
				if (S.draft === d) {
					d.second = r.options.filter((x) => x.die === d.die && x.patient === d.current);
					render();
				}
			} catch (e) {
				fail(e);
			}
		}
	}

	async function previewMove() {
		const d = S.draft;
		S.preview = null;
		render();
		try {
			const r = await api.applyMove(mySheet(), myTurn(), { die: d.die, steps: d.steps });
			if (S.draft === d) {
				S.preview = r.sheet;
				render();
			}
		} catch (e) {
			if (S.draft === d) fail(e);
		}
	}

	function resetDraft() {
		S.draft = null;
		S.preview = null;
		S.picker = null;
		say(null);
		render();
	}

	async function act(msg, fn) {
		if (S.busy) return;
		S.busy = true;
		S.err = null;
		render();
		try {
			const st = await fn();
			S.busy = false;
			say(...msg);
			S.optsKey = "x"; // force a fresh draft state
			setGame(st);
		} catch (e) {
			S.busy = false;
			fail(e);
		}
	}

	function submit() {
		const d = S.draft;
		if (!d || pending(d).length) return;
		const body = { turn: g().turn.number, move: { die: d.die, steps: d.steps } };
		if (g().solo && S.discard) body.alicat_discard = Number(S.discard);
		act(["game.accepted"], () => api.sendMove(S.id, S.token, me(), body));
	}

	function undo() {
		act(["game.undone"], () => api.undoMove(S.id, S.token, me(), g().turn.number));
	}

	function doReveal() {
		const n = next().turn;
		const body = { turn: n };
		if (g().deck === "table") {
			const r = S.reveal;
			if (!r.card || COLOURS.some((c) => !r.dice[c])) {
				S.err = { key: "game.reveal_need" };
				return render();
			}
			body.card = r.card;
			body.dice = { red: r.dice.red, yellow: r.dice.yellow, green: r.dice.green };
		}
		act(["game.revealed", { n }], () => api.reveal(S.id, S.token, body));
	}

	// ---- rendering ----
	function specName(id) {
		const s = S.data.specialists.find((x) => x.id === id);
		return s ? s.text[lang()] || s.text.en : id;
	}

	function renderHeader() {
		const st = g();
		const tr = st.turn;
		const chiefSeat = st.status === "finished" ? null : next().action === "reveal" ? next().chief_seat : tr && tr.chief_seat;
		const line1 = tr && next().action !== "reveal"
			? t("game.turn", { n: tr.number, total: st.turns })
			: t("game.no_turn", { n: Math.min((tr ? tr.number : 0) + 1, st.turns), total: st.turns });
		return h("section", { class: "turn-head", "aria-label": line1 },
			h("div", { class: "turn-line" }, h("strong", { id: "turn-number" }, st.status === "finished" ? t("game.finished") : line1),
				h("span", { class: "code" }, t("game.code", { code: st.code }))),
			chiefSeat ? h("div", { class: "chief-line", id: "chief" }, t("game.chief", { name: seatOf(chiefSeat).name })) : null,
			h("div", { class: "you-line" }, isHost() ? `${t("game.host")} · ` : "", t("game.you", { name: seatOf(me()).name })));
	}

	function renderCard() {
		const tr = g().turn;
		if (!tr || next().action === "reveal" || g().status === "finished") return null;
		const c = card(tr.card);
		const moving = canMove();
		const mine = myTurn();
		return h("section", { class: "card", "aria-label": t("game.reveal_title") },
			COLOURS.map((col) => {
				const bay = c.bays[col];
				const isChiefDie = tr.chief_die === col;
				const chosen = S.draft && S.draft.die === col;
				const label = `${t("game.die_value", { colour: t(`colour.${col}`), v: tr.dice[col] })} — ${bonusText(bay)}${isChiefDie ? ` — ${mine.chief ? t("game.chief_die") : t("game.chief_die_cost")}` : ""}`;
				return h("button", {
					type: "button", class: `bay b-${col}${chosen ? " chosen" : ""}${isChiefDie ? " chief-die" : ""}`,
					"data-die": col, "aria-pressed": moving ? String(!!chosen) : null, "aria-label": label,
					"aria-disabled": moving ? null : "true", onclick: () => chooseDie(col),
				}, bonusBadge(bay), die(col, tr.dice[col]),
				isChiefDie ? h("span", { class: "tag" }, t("game.chief_tag")) : null);
			}));
	}

	function renderRevealPanel() {
		if (!canReveal() || g().deck !== "table") return null;
		const r = S.reveal;
		const cards = S.data.cards.filter((c) => COLOURS.every((col) => !r.filter[col] || c.bays[col].bonus === r.filter[col]));
		const filters = h("div", { class: "filters" }, COLOURS.map((col) =>
			h("label", { class: `filter b-${col}` }, h("span", {}, t("game.bay", { colour: t(`colour.${col}`) })),
				h("select", { "data-filter": col, onchange: (e) => { r.filter[col] = e.target.value; render(); } },
					h("option", { value: "" }, t("bonus.any")),
					BONUSES.map((b) => h("option", { value: b, selected: r.filter[col] === b }, t(`bonus.${b}`)))))));
		const grid = h("div", { class: "card-grid", role: "radiogroup", "aria-label": t("game.pick_card") },
			cards.map((c) => h("button", {
				type: "button", class: `pick-card${r.card === c.id ? " chosen" : ""}`, "data-card": c.id, role: "radio",
				"aria-checked": String(r.card === c.id),
				"aria-label": COLOURS.map((col) => `${t("game.bay", { colour: t(`colour.${col}`) })}: ${bonusText(c.bays[col])}`).join("; "),
				onclick: () => { r.card = c.id; S.err = null; render(); },
			}, miniCard(c))));
		const dice = h("div", { class: "dice-entry" }, COLOURS.map((col) =>
			h("div", { class: "dice-row", role: "radiogroup", "aria-label": t("game.die_value", { colour: t(`colour.${col}`), v: r.dice[col] || "?" }) },
				die(col, r.dice[col] || "?", { "aria-hidden": "true" }),
				[1, 2, 3, 4, 5, 6].map((v) => h("button", {
					type: "button", role: "radio", class: `pip c-${col}${r.dice[col] === v ? " chosen" : ""}`,
					"data-roll": col, "data-value": v, "aria-checked": String(r.dice[col] === v),
					"aria-label": t("game.die_value", { colour: t(`colour.${col}`), v }),
					onclick: () => { r.dice[col] = v; S.err = null; render(); },
				}, v)))));
		return h("section", { class: "reveal-panel" },
			h("h2", {}, t("game.reveal_title")),
			h("p", {}, t("game.pick_card")), filters,
			h("p", { class: "muted" }, t("game.cards_shown", { n: cards.length })), grid,
			h("h3", {}, t("game.dice_rolled")), dice);
	}

	function renderPlayers() {
		const st = g();
		const tr = st.turn;
		const list = h("ul", { class: "players" }, st.seats.map((s) => {
			const moved = tr && tr.moved.includes(s.seat);
			const chief = tr && tr.chief_seat === s.seat && next().action !== "reveal";
			return h("li", {}, h("button", {
				type: "button", class: `player${S.view === s.seat ? " viewing" : ""}`, "data-seat": s.seat,
				"aria-pressed": String(S.view === s.seat), onclick: () => { S.view = s.seat; render(); },
			},
			h("span", { class: "pname" }, s.name, s.seat === me() ? " ★" : ""),
			chief ? h("span", { class: "tag" }, t("game.chief_tag")) : null,
			s.bot ? h("span", { class: "tag" }, t("game.bot")) : null,
			st.status === "playing" && tr && next().action === "move"
				? h("span", { class: `state ${moved ? "ok" : ""}` }, moved ? `✓ ${t("game.moved")}` : t("game.waiting")) : null,
			h("span", { class: "pscore", "data-score": s.seat }, t("game.score", { n: s.score.total }))));
		}));
		return h("section", { class: "table-panel" }, h("h2", {}, t("game.players")), list);
	}

	function renderSpecialists() {
		const sp = g().specialists;
		return h("details", { class: "specialists" }, h("summary", {}, t("game.specialists")),
			h("ul", {},
				sp.cardiologists.map((c, i) => h("li", {}, h("b", {}, `${t("kind.cardiologist")} ${i + 1}: `), specName(c.id), " — ",
					c.offer > 0 ? t("game.cardio_side", { points: c.offer }) : t("game.cardio_discarded"))),
				h("li", {}, h("b", {}, `${t("kind.radiologist")}: `), specName(sp.radiologist)),
				h("li", {}, h("b", {}, `${t("kind.epidemiologist")}: `), specName(sp.epidemiologist))));
	}

	function renderResults() {
		const seats = [...g().seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
		return h("section", { class: "results", "aria-label": t("game.finished") }, h("h2", {}, t("game.finished")),
			seats.map((s) => h("div", { class: `result${s.rank === 1 ? " winner" : ""}`, "data-rank": s.rank },
				h("div", { class: "result-head" }, h("span", { class: "rank" }, t("game.rank", { rank: s.rank })),
					h("span", { class: "pname" }, s.name), h("strong", {}, t("game.score", { n: s.score.total }))),
				renderBreakdown(s.score))));
	}

	function renderSheetPanel() {
		const viewing = S.view && S.view !== me() ? S.view : me();
		const seat = seatOf(viewing);
		const mine = viewing === me();
		const interactive = mine && canMove() && S.draft && !S.busy;
		const d = S.draft;
		const screenable = new Set();
		const sheet = mine && d ? draftSheet() : seat.sheet;
		if (interactive && d.bay.bonus === "screen" && !screenStep(d))
			sheet.wards.forEach((w, i) => w.length && screenable.add(i));
		return h("section", { class: "sheet-panel", "aria-label": `${t("game.view")}: ${seat.name}` },
			h("h2", {}, `${seat.name}${seat.bot ? ` (${t("game.bot")})` : ""}`,
				h("span", { class: "pscore" }, t("game.score", { n: seat.score.total }))),
			renderSheet({
				layout: layout(), sheet,
				lit: interactive && !S.picker ? litBeds() : new Map(), onBed: tapBed,
				screenable, onScreen: screenWard,
				draft: mine ? draftBeds() : new Set(), readOnly: !interactive,
				picking: interactive && S.picker ? S.picker.ward : null,
			}),
			g().status === "finished" ? null : renderBreakdown(seat.score));
	}

	function statusText() {
		const st = g();
		if (st.status === "finished") return t("game.finished");
		if (next().action === "reveal")
			return canReveal() ? t("game.your_reveal") : t("game.wait_reveal", { name: seatOf(next().chief_seat).name });
		const tr = st.turn;
		if (canMove()) {
			const d = S.draft;
			if (!d) return tr.chief_seat === me() ? `${t("game.chief_first")} ${t("game.choose_die")}` : t("game.choose_die");
			const left = pending(d);
			if (!left.length) return t("game.ready") + (d.bay.bonus === "screen" && !screenStep(d) ? ` ${t("game.screen_hint")}` : "");
			const lit = litBeds();
			let s;
			if (d.current === "extra") {
				s = t("game.place_extra", { colour: t(`colour.${d.bay.colour}`), values: d.bay.values.join("/") });
			} else s = t("game.place", { patient: t("game.patient_die"), colour: t(`colour.${d.die}`), value: tr.dice[d.die] });
			if (S.opts && (d.current === "die" || d.second || !d.done.die || d.done.die === "morgue") && !lit.size) s = t("game.no_bed");
			if (d.bay.bonus === "screen" && !screenStep(d)) s += ` ${t("game.screen_hint")}`;
			return s;
		}
		if (hasMoved()) {
			const waiting = st.seats.filter((s) => !tr.moved.includes(s.seat)).map((s) => s.name);
			return t("game.wait_others", { names: waiting.join(", ") });
		}
		return t("game.wait_chief", { name: seatOf(tr.chief_seat).name });
	}

	function renderPicker() {
		const p = S.picker;
		const pos = draftSheet().wards[p.ward].length;
		return h("div", { class: "picker", role: "group", "aria-label": t("game.pick_value", { ward: p.ward + 1, bed: pos + 1 }) },
			h("p", {}, t("game.pick_value", { ward: p.ward + 1, bed: pos + 1 })),
			h("div", { class: "values" }, p.list.map((o) => {
				const costs = [];
				if (o.stethoscopes) costs.push(t("game.cost_steth", { n: o.stethoscopes }));
				if (o.recolour) costs.push(t("game.cost_recolour", { colour: t(`colour.${o.recolour}`) }));
				if (o.blood_bags) costs.push(t("game.cost_blood", { n: o.blood_bags }));
				if (o.screen_first) costs.push(t("game.cost_screen", { ward: o.ward }));
				return h("button", { type: "button", class: "value", "data-value": o.value, onclick: () => place(o) },
					h("b", {}, o.value), h("small", {}, costs.length ? costs.join(" · ") : t("game.rolled")));
			})),
			h("button", { type: "button", class: "secondary", onclick: () => { S.picker = null; render(); } }, t("game.cancel")));
	}

	function renderDock() {
		const st = g();
		const dock = h("div", { class: "dock" });
		if (S.err)
			dock.append(errorBox(S.err, { id: "error", "data-rule": S.err.rule }));
		dock.append(h("p", { class: "status", role: "status", id: "status" }, S.msg ? `${t(S.msg[0], S.msg[1])} ` : "", statusText()));
		if (S.picker) {
			dock.append(renderPicker());
			return dock;
		}
		const bar = h("div", { class: "actions" });
		const d = S.draft;
		if (st.status === "finished") {
			bar.append(h("a", { class: "button", href: "#" }, t("nav.home")));
		} else if (canReveal()) {
			const label = st.deck === "app" ? t("game.flip_roll") : t("game.reveal");
			bar.append(h("button", { type: "button", class: "primary", id: "reveal", disabled: S.busy, onclick: doReveal }, label));
		} else if (canMove() && d) {
			if (patientsOf(d).length > 1) {
				const seg = h("div", { class: "segment", role: "group" }, patientsOf(d).map((p) =>
					h("button", { type: "button", class: d.current === p ? "on" : "", "aria-pressed": String(d.current === p),
						disabled: !!d.done[p], "data-patient": p, onclick: () => setCurrent(p) },
					p === "die" ? `${t("game.patient_die")} ${st.turn.dice[d.die]}` : `${t("game.patient_extra")} ${d.bay.values.join("/")}`)));
				dock.append(seg);
			}
			if (d.current) bar.append(h("button", { type: "button", class: "secondary", id: "morgue", onclick: toMorgue }, t("game.morgue_btn")));
			bar.append(h("button", { type: "button", class: "secondary", id: "reset", onclick: resetDraft }, t("game.reset")));
			bar.append(h("button", { type: "button", class: "primary", id: "submit", disabled: S.busy || !!pending(d).length || !S.preview, onclick: submit }, t("game.submit")));
		} else if (mayReveal()) {
			bar.append(h("button", { type: "button", class: "secondary", id: "host-reveal", onclick: () => { S.hostReveal = true; render(); } },
				t("game.host_reveal", { name: seatOf(next().chief_seat).name })));
		} else if (hasMoved()) {
			bar.append(h("button", { type: "button", class: "secondary", id: "undo", disabled: S.busy, onclick: undo }, t("game.undo")));
		}
		if (canMove() && st.solo && st.specialists.cardiologists.every((c) => c.offer > 0)) {
			dock.append(h("label", { class: "discard" }, h("span", {}, t("game.alicat_discard")),
				h("select", { onchange: (e) => { S.discard = e.target.value; } },
					h("option", { value: "" }, t("game.alicat_discard_auto")),
					st.specialists.cardiologists.map((c, i) => h("option", { value: i + 1, selected: S.discard === String(i + 1) }, `${i + 1}: ${specName(c.id)}`)))));
		}
		if (bar.childNodes.length) dock.append(bar);
		return dock;
	}

	function renderHostSeat() {
		if (!isHost() || g().status === "finished") return null;
		const humans = g().seats.filter((s) => !s.bot);
		if (humans.length < 2) return null;
		return h("label", { class: "host-seat" }, h("span", {}, t("game.play_as")),
			h("select", { id: "play-as", onchange: (e) => { S.seat = Number(e.target.value); S.view = S.seat; setGame(g()); } },
				humans.map((s) => h("option", { value: s.seat, selected: s.seat === me() }, `${s.seat}: ${s.name}`))));
	}

	function renderLive() {
		const el = root.querySelector("#live");
		if (el) el.textContent = S.liveLost ? t("game.live_lost") : "";
	}

	function render() {
		if (S.closed) return;
		const keepY = window.scrollY;
		root.replaceChildren();
		if (S.lost) {
			root.append(h("section", { class: "panel" }, h("p", { role: "alert" }, t("game.not_found")), h("a", { class: "button", href: "#" }, t("nav.home"))));
			return;
		}
		if (!S.game) {
			if (S.err) root.append(h("section", { class: "panel" }, errorBox(S.err), h("a", { class: "button", href: "#" }, t("nav.home"))));
			return;
		}
		const main = h("div", { class: "game" },
			renderHeader(), renderHostSeat(),
			h("p", { id: "live", class: "muted", "aria-live": "polite" }),
			g().status === "finished" ? renderResults() : null,
			renderRevealPanel(), renderCard(), renderSheetPanel(), renderPlayers(), renderSpecialists());
		root.append(main, renderDock());
		renderLive();
		const dock = root.querySelector(".dock");
		document.documentElement.style.setProperty("--dock", `${dock.offsetHeight + 16}px`);
		window.scrollTo(0, keepY);
	}

	(async () => {
		try {
			S.data = await api.gameData();
			await refresh();
			if (S.game) connect();
		} catch (e) {
			fail(e);
		}
	})();
	const onVisible = () => document.visibilityState === "visible" && refresh();
	document.addEventListener("visibilitychange", onVisible);

	return {
		render,
		close() {
			S.closed = true;
			if (S.es) S.es.close();
			document.removeEventListener("visibilitychange", onVisible);
			document.documentElement.style.removeProperty("--dock");
		},
	};
}
