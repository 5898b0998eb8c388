// The entry form of a Dice Hospital or Clinic table: the round chips, one fieldset of steppers per
// seat this phone may write (a seat's phone: its own; the host: all), the solo Medical Reports
// completed this round, and the save. A round's fields are here; the end of the game's are in
// finish.js. The drafts live in the store (game.js); the forms redraw only when they are replaced
// (another round, a saved or changed game), never for a tap on a stepper.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { mount } from "../view.js";
import { COLOURS, call, money } from "./shared.js";
import { okLine, stepRow, toggle } from "./widgets.js";
import { errorBox, errorKey, withSent } from "./refusal.js";
import { finishDraft, finishRows } from "./finish.js";

const CL_ROUND = ["popularity_bought", "lab_doctors", "deaths", "unpaid_expenses", "time_spent"];

/** The round a game ends after when its end is entered now: the rounds every seat entered,
 * fewer than the rulebook's when the table stops early (0: not ending early). */
export const endingEarly = (S, nRounds) => (S.round === "finish" && S.game.rounds_complete < nRounds ? S.game.rounds_complete : 0);

/** The seats this phone enters: its own, or every seat on the host's phone. */
export const writable = (g) => g.seats.filter((s) => !g.you || s.seat === g.you);

/** What the drafts of round come from (compared to know when they must start again). */
export function draftSource(g, round) {
	const seats = writable(g).map((s) => [s.seat, round === "finish" ? s.finish : s.rounds[round - 1]]);
	return JSON.stringify([seats, g.solo && g.reports]);
}

function roundDraft(isDh, seat, round) {
	const r = seat.rounds[round - 1];
	return isDh
		? { discharged: { red: 0, yellow: 0, green: 0, ...(r.discharged || {}) }, wards_empty: !!r.wards_empty, registrar: r.registrar || 0 }
		: Object.fromEntries(CL_ROUND.map((f) => [f, r[f] || 0]));
}

/** The values being entered for a seat in the round shown (made from the saved ones at first). */
export function draftFor(S, isDh, seat) {
	const key = `${S.round}:${seat.seat}`;
	S.drafts[key] ??= S.round === "finish" ? finishDraft(isDh, seat) : roundDraft(isDh, seat, S.round);
	return S.drafts[key];
}

export function entryViews(ctx) {
	const { store, isDh, nRounds } = ctx;
	const { get, set } = store;
	const touch = () => set({ dirty: true });
	const open = (S) => S.game && S.game.status !== "finished";

	function seatForm(S, seat) {
		const d = draftFor(S, isDh, seat);
		const attrs = (field) => ({ "data-seat": seat.seat, "data-field": field });
		// field: a path in the draft ("discharged.red", "treatment_rooms.2"); obj[k] is the value
		const at = (field) => {
			const keys = field.split(".");
			const k = keys.pop();
			return [keys.reduce((o, p) => o[p], d), k];
		};
		const setter = (obj, k) => (v) => { obj[k] = v; touch(); };
		const row = (label, field, max, badge = null) => {
			const [obj, k] = at(field);
			return stepRow(label, obj[k], 0, max, setter(obj, k), attrs(field), badge);
		};
		const check = (label, field) => toggle(label, d[field], setter(d, field), attrs(field));
		let rows;
		if (S.round === "finish") rows = finishRows(isDh, S.game, row, check, endingEarly(S, nRounds) > 0);
		else if (isDh)
			rows = [
				COLOURS.map((c) => row(t("tt.discharged", { colour: t(`colour.${c}`) }), `discharged.${c}`, 12)),
				check(t("tt.wards_empty"), "wards_empty"),
				S.game.variants.experimental_medicine ? row(t("tt.registrar"), "registrar", 2) : null];
		else rows = CL_ROUND.map((f) => row(t(`tt.c.${f}`, { money: money(3) }), f, f === "time_spent" ? 60 : 40));
		return h("fieldset", { class: "tt-seat", "data-seat": seat.seat }, h("legend", {}, `${seat.seat}. ${seat.name}`), rows);
	}

	/** Solo Dice Hospital: the Medical Report cards completed in this round. */
	function reportsPicker(S) {
		const key = `${S.round}:reports`;
		S.drafts[key] ??= S.game.reports.filter((r) => r.completed_round === S.round).map((r) => r.card);
		const chosen = S.drafts[key];
		const need = (r) => COLOURS.filter((c) => r[c]).map((c) => `${r[c]} ${t(`colour.${c}`)}`).join(" + ");
		return h("fieldset", { class: "tt-reports" }, h("legend", {}, t("tt.reports_completed")),
			S.game.reports.map((r) => {
				const doneBefore = r.completed_round && r.completed_round !== S.round;
				return h("label", { class: "check" }, h("input", { type: "checkbox", "data-report": r.card, checked: chosen.includes(r.card) || doneBefore, disabled: doneBefore,
					onchange: (e) => {
						const i = chosen.indexOf(r.card);
						if (e.target.checked && i < 0) chosen.push(r.card);
						if (!e.target.checked && i >= 0) chosen.splice(i, 1);
						chosen.sort((a, b) => a - b);
						touch();
					} }),
				h("span", {}, t("tt.report_line", { card: r.card, row: t(r.row === "bottom" ? "tt.row_bottom" : "tt.row_top"), need: need(r), n: r.points }),
					doneBefore ? ` (${t("tt.done_round", { n: r.completed_round })})` : ""));
			}));
	}

	const showRound = (n) => set({ round: n, drafts: {}, draftRev: get().draftRev + 1, dirty: false, err: null });

	const title = mount(store, h("div"), (S) => [S.lang, !!S.game, S.game && S.game.status, S.round, S.game && S.game.rounds_complete], () => {
		const S = get();
		if (!S.game) return h("p", { class: "muted" }, "…");
		if (!open(S)) return h("h2", {}, t("game.finished"));
		const early = endingEarly(S, nRounds);
		if (early) // a table may stop after any round: what that means, above its end
			return [h("h2", {}, t("tt.finish_early_title", { n: early })),
				h("p", { class: "tt-early-note", id: "tt-early-note" }, t("tt.finish_early_note", { n: early, total: nRounds }))];
		return h("h2", {}, S.round === "finish" ? t("tt.finish_title") : t("tt.round_title", { n: S.round, total: nRounds }));
	});
	const chips = mount(store, h("div", { class: "tt-chips", role: "tablist" }), (S) => open(S) && [S.lang, S.round, S.game.rounds_complete, S.game.next.action], (v, S) => {
		if (!v) return [];
		const chip = (n, label, disabled) => h("button", { type: "button", class: `tt-chip${S.round === n ? " on" : ""}`, "data-round": n,
			role: "tab", "aria-selected": S.round === n ? "true" : "false", disabled, onclick: () => showRound(n) }, label);
		return [Array.from({ length: nRounds }, (_, i) => chip(i + 1, String(i + 1), i + 1 > S.game.rounds_complete + 1)),
			chip("finish", t("tt.end"), S.game.next.action !== "finish" && S.game.rounds_complete < 1)];
	});
	const formShape = (S) => [S.lang, S.round, S.draftRev, endingEarly(S, nRounds), writable(S.game).map((s) => s.name), S.game.variants, S.game.expansions, S.game.goal, S.game.profile];
	const forms = mount(store, h("div"), (S) => open(S) && formShape(S), (v, S) => {
		if (!v) return [];
		return [writable(S.game).map((seat) => seatForm(S, seat)), isDh && S.game.solo && S.round !== "finish" ? reportsPicker(S) : null];
	});
	const box = () => errorBox(get().err, { form: "entry", game: get().game, round: get().round, code: get().game?.code });
	// a refusal about one seat's field shows in that seat's block, next to the field, and takes the
	// player there; any other refusal (and the saved line) under the forms
	const notes = mount(store, h("div"), (S) => [S.lang, errorKey(S.err), S.msg, !!fieldOf(forms, S.err)],
		(v, S) => [fieldOf(forms, S.err) ? null : box(), okLine(S.msg)]);
	store.subscribe((S) => [S.lang, errorKey(S.err), S.draftRev], () => {
		forms.querySelector(".tt-field-error")?.remove();
		const at = fieldOf(forms, get().err);
		if (!at) return;
		const el = h("div", { class: "tt-field-error", tabindex: "-1" }, box());
		at.row.after(el);
		at.row.scrollIntoView({ block: "center" });
		(at.focus || el).focus({ preventScroll: true });
	});
	const save = mount(store, h("button", { type: "button", class: "primary wide", id: "tt-save", onclick: () => saveEntry(ctx) }),
		(S) => [S.lang, S.round], () => (get().round === "finish" ? t("tt.save_finish") : t("tt.save_round", { n: get().round })));
	store.subscribe((S) => [open(S), S.busy], ([on, busy]) => {
		for (const el of [chips, forms, save]) el.hidden = !on;
		save.disabled = busy;
	});
	return h("section", { class: "panel", id: "tt-entry" }, title, chips, forms, notes, save);
}

/** Where a refusal of the entries is about, in the forms shown: {row, focus} (the field's row in
 * its seat's block, the control to focus), else null. The pointer "/entries/I/discharged/red"
 * names the I-th entry sent (error.sent.seats) and the field "discharged.red"; a pointer to a
 * whole group ("/entries/I/discharged") finds its first field, one to the entry itself the seat's
 * block. */
export function fieldOf(forms, e) {
	const m = e && e.sent && /^\/entries\/(\d+)(?:\/(.*))?$/.exec(e.field || "");
	const seat = m && e.sent.seats[Number(m[1])];
	const block = seat && forms.querySelector(`.tt-seat[data-seat="${seat}"]`);
	if (!block) return null;
	const field = (m[2] || "").split("/").join(".");
	const ctl = field && [...block.querySelectorAll("[data-field]")].find((x) => x.dataset.field === field || x.dataset.field.startsWith(`${field}.`));
	if (!ctl) return { row: block.querySelector("legend") || block, focus: null };
	const row = ctl.closest(".tt-row, .tt-toggle") || ctl;
	return { row, focus: ctl.matches("input") ? ctl : ctl.querySelector("button:not([disabled])") };
}

/** Saves the round (PUT …/rounds/N) or the end (POST …/finish) of every seat shown. */
async function saveEntry({ store, isDh, token, path, setGame, nRounds }) {
	const { get, set } = store;
	const S = get();
	const round = S.round;
	const entries = writable(S.game).map((seat) => ({ seat: seat.seat, ...draftFor(S, isDh, seat) }));
	const body = { entries };
	if (endingEarly(S, nRounds)) body.ended_after = endingEarly(S, nRounds);
	if (round !== "finish" && isDh && S.game.solo) body.reports_completed = S.drafts[`${round}:reports`] || [];
	set({ busy: true, err: null, msg: null });
	try {
		const st = round === "finish" ? await call("POST", path("/finish"), body, token) : await call("PUT", path(`/rounds/${round}`), body, token);
		set({ busy: false, dirty: false, msg: round === "finish" ? ["tt.saved_finish", {}] : ["tt.saved_round", { n: round }] });
		setGame(st, true);
	} catch (e) {
		set({ busy: false, err: withSent(e, { seats: entries.map((x) => x.seat), reports: body.reports_completed || [] }) });
	}
}
