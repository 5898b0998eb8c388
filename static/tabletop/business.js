// Clinic's Business helper (seed 001, Phase 2: Business): from the hospital's modules, staff and
// patients treated, the server works out the upkeep, wages, income, unpaid expenses and the
// popularity the rest buys; a tap copies the result into a seat's round entry (entry.js).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { mount } from "../view.js";
import { CL_COLOURS, call, money, num } from "./shared.js";
import { stepRow, unverifiedMark, unverifiedLegend } from "./widgets.js";
import { errorBox, errorKey } from "./refusal.js";
import { draftFor, writable } from "./entry.js";

const OUT = [["upkeep", "upkeep"], ["wages", "wages"], ["income", "income"], ["unpaid", "unpaid_expenses"], ["affordable", "popularity_affordable"]];

export function businessView({ store }) {
	const { get, set } = store;
	// the inputs change in place (each stepper shows its own value); the store's biz holds whether
	// the helper is open, its result and its refusal
	const input = { modules: 4, gardens: 0, operating_rooms_used: 0, orderlies: 0, outpatients: 0, garden_bonus: 0, zombies_cured: 0, savings: 0,
		doctors: { white: 1, yellow: 0, orange: 0, red: 0 }, nurses: 0, treated: { white: 0, yellow: 0, orange: 0, red: 0 } };
	const setBiz = (patch) => set({ biz: { ...get().biz, ...patch } });

	async function compute() {
		const g = get().game;
		setBiz({ err: null });
		try {
			setBiz({ out: await call("POST", "/clinic/business", { ...input, profile: g.profile.id, expansions: g.expansions }) });
		} catch (e) {
			setBiz({ out: null, err: e });
		}
	}

	/** The result as the round's popularity bought and unpaid expenses of a seat. */
	function use(seat) {
		const S = get();
		const o = S.biz.out;
		const d = draftFor(S, false, seat);
		d.popularity_bought = o.unpaid_expenses > 0 ? 0 : o.popularity_affordable;
		d.unpaid_expenses = o.unpaid_expenses;
		set({ dirty: true, draftRev: S.draftRev + 1 });
	}

	const row = (label, obj, k, max) => stepRow(label, obj[k], 0, max, (v) => (obj[k] = v), { "data-biz": k });
	const fields = () => [
		h("p", { class: "muted" }, t("tt.biz.hint", { money: money(3) })),
		row(t("tt.biz.modules"), input, "modules", 60), row(t("tt.biz.gardens"), input, "gardens", 20),
		row(t("tt.biz.operating_rooms_used"), input, "operating_rooms_used", 10), row(t("tt.biz.orderlies"), input, "orderlies", 10),
		CL_COLOURS.map((c) => row(t("tt.doctor", { colour: t(`tt.colour.${c}`) }), input.doctors, c, 20)),
		row(t("tt.f.nurses"), input, "nurses", 20), row(t("tt.biz.outpatients"), input, "outpatients", 20),
		CL_COLOURS.map((c) => row(t("tt.biz.treated", { colour: t(`tt.colour.${c}`) }), input.treated, c, 20)),
		row(t("tt.biz.garden_bonus"), input, "garden_bonus", 40),
		// seed 001, Zombies in a Clinic: a doctor in a lab with 1 zombie cures it, earning $32
		(get().game?.expansions || []).includes("zombies") ? row(t("tt.biz.zombies_cured", { money: money(32) }), input, "zombies_cured", 8) : null,
		row(t("tt.biz.savings"), input, "savings", 200),
		h("button", { type: "button", class: "primary wide", id: "tt-biz-go", onclick: compute }, t("tt.biz.compute"))];
	const result = (S) => {
		const o = S.biz.out;
		if (!o) return null;
		const verified = { ...o.verified_parts, unpaid: o.verified, affordable: o.verified };
		// a mark on each line that used a value not checked against the box, one legend for them
		return [h("dl", { class: "tt-biz-out", id: "tt-biz-out" }, OUT.map(([k, f]) =>
			h("div", { "data-out": k }, h("dt", {}, t(`tt.biz.out.${k}`, { money: money(1) })), h("dd", {}, k === "affordable" ? num(o[f]) : money(o[f]), verified[k] ? null : unverifiedMark())))),
		OUT.every(([k]) => verified[k]) ? null : unverifiedLegend(),
		S.round !== "finish" ? writable(S.game).map((seat) => h("button", { type: "button", class: "secondary wide", "data-use": seat.seat, onclick: () => use(seat) },
			t("tt.biz.use", { name: seat.name, n: S.round }))) : null];
	};

	const shown = (S) => S.game && S.game.status !== "finished";
	const toggle = mount(store, h("button", { type: "button", class: "secondary wide", id: "tt-biz-toggle", onclick: () => setBiz({ open: !get().biz.open }) }),
		(S) => S.lang, () => t("tt.biz.title"));
	const body = mount(store, h("div"), (S) => S.biz.open && S.lang, (on) => (on ? fields() : []));
	const out = mount(store, h("div"), (S) => shown(S) && S.biz.open && [S.lang, S.biz.out, errorKey(S.biz.err), S.round, writable(S.game).map((s) => s.name)],
		(v, S) => (v ? [errorBox(S.biz.err, { form: "business", id: "tt-biz-error" }), result(S)] : []));
	const el = h("section", { class: "panel", id: "tt-business" }, toggle, body, out);
	store.subscribe((S) => [!!shown(S), S.biz.open], ([on, open]) => {
		el.hidden = !on;
		toggle.setAttribute("aria-expanded", open ? "true" : "false");
	});
	return el;
}
