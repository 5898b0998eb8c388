// The join form of the Dice Hospital and Clinic new-game screen: a table's code, then its seats
// by player name (GET /join/{code}) with the claimed ones marked. A tap on a free seat joins it;
// a tap on a claimed seat first asks whether to take it over from the other phone (which loses
// it) and only then sends "replace": true; a 409 seat-claimed, when another phone was quicker,
// asks the same. The seat's token is kept on this phone and the game's table opens. The form's
// state (code, table, pick, joinSeat, joinErr, busy) lives in the new-game screen's store
// (create.js), which disables both forms while busy.
import { ApiError } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { mount } from "../view.js";
import { KINDS, call, remember, gameRoute } from "./shared.js";
import { errorBox, errorKey, localError } from "./refusal.js";

const CODE_LENGTH = 6;

export function joinForm(store, kind) {
	const { get, set } = store;
	const upper = (code) => code.trim().toUpperCase();
	let asked = ""; // the code whose seats were asked for last: a reply for an older one is dropped

	/** The seats of the table of the code typed. */
	async function find() {
		const code = upper(get().code);
		if (code.length !== CODE_LENGTH) return set({ table: null, pick: null, joinErr: localError("tt.join.code_needed", "/code") });
		asked = code;
		set({ joinErr: null, pick: null });
		try {
			const r = await call("GET", `/join/${encodeURIComponent(code)}`);
			if (asked === code) set({ table: { code, kind: r.kind, seats: r.seats.filter((s) => !s.bot) } });
		} catch (e) {
			if (asked !== code) return;
			set({ table: null, joinErr: e instanceof ApiError && e.status === 404 ? localError("tt.join.no_table", "/code") : e });
		}
	}

	/** Joins a seat; a claimed one only once replace (the player's confirmation) is given. */
	async function take(seat, replace) {
		const S = get();
		if (S.busy || !S.table) return;
		if (seat.claimed && !replace) return set({ pick: seat.seat, joinErr: null });
		set({ busy: true, joinErr: null, joinSeat: seat.seat });
		try {
			const r = await call("POST", "/join", { code: S.table.code, seat: seat.seat, ...(replace ? { replace: true } : {}) });
			const k = r.kind || S.table.kind;
			remember(r.game, { token: r.seat_token, kind: k, code: S.table.code, label: r.name });
			set({ busy: false, pick: null, table: null });
			location.hash = gameRoute(k, r.game).slice(1);
		} catch (e) {
			const table = get().table;
			if (e instanceof ApiError && e.rule === "seat-claimed" && table) {
				// another phone took the seat since the list was read: ask before taking it over
				const seats = table.seats.map((s) => (s.seat === seat.seat ? { ...s, claimed: true } : s));
				return set({ busy: false, table: { ...table, seats }, pick: seat.seat });
			}
			set({ busy: false, joinErr: e });
		}
	}

	function onCode(e) {
		const code = e.target.value.toUpperCase();
		const patch = { code };
		if (get().table && get().table.code !== upper(code)) Object.assign(patch, { table: null, pick: null, joinErr: null });
		set(patch);
		if (upper(code).length === CODE_LENGTH && !get().table) find();
	}

	const fields = mount(store, h("div", { class: "join-row" }), (S) => S.lang, () =>
		h("label", { class: "field" }, h("span", {}, t("join.code")), h("input", { type: "text", id: "tt-join-code", value: get().code, maxlength: CODE_LENGTH,
			class: "code-input", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", oninput: onCode })));

	const seatButton = (s, pick) => h("li", {}, h("button", {
		type: "button", class: `seat${s.claimed ? " claimed" : ""}${pick === s.seat ? " chosen" : ""}`, "data-seat": s.seat,
		"data-claimed": s.claimed ? "true" : "false", onclick: () => take(s, false),
	}, h("span", { class: "pname" }, s.name), h("span", { class: "tag" }, t(s.claimed ? "tt.join.claimed" : "tt.join.free")),
	h("span", { class: "sr-only" }, ` — ${t("tt.join.seat_n", { n: s.seat })}`)));

	const seats = mount(store, h("div", { id: "tt-join-seats" }), (S) => [S.lang, S.table, S.pick], () => {
		const { table, pick } = get();
		if (!table) return [];
		if (!KINDS.includes(table.kind))
			return h("p", { id: "tt-join-other" }, t("tt.join.er_table"), " ",
				h("a", { class: "button secondary", href: `#join=${encodeURIComponent(table.code)}` }, t("tt.join.open_er")));
		const chosen = pick && table.seats.find((s) => s.seat === pick);
		return [h("p", {}, t("tt.join.pick", { game: t(`tt.${table.kind}`) })), h("ul", { class: "seats" }, table.seats.map((s) => seatButton(s, pick))),
			chosen ? h("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "tt-confirm-q", "aria-describedby": "tt-confirm-more" },
				h("p", { id: "tt-confirm-q" }, h("strong", {}, t("tt.join.replace_q", { name: chosen.name }))),
				h("p", { id: "tt-confirm-more" }, t("tt.join.replace_more", { name: chosen.name })),
				h("div", { class: "actions-inline" },
					h("button", { type: "button", class: "primary", id: "tt-confirm-replace", onclick: () => take(chosen, true) }, t("tt.join.replace_yes", { name: chosen.name })),
					h("button", { type: "button", class: "secondary", id: "tt-cancel-replace", onclick: () => set({ pick: null }) }, t("tt.join.cancel")))) : null];
	});
	// the question takes the focus when it appears, so a screen reader reads it at once
	store.subscribe((S) => S.pick, (pick) => pick && seats.querySelector("#tt-confirm-replace")?.focus());

	const title = mount(store, h("h2"), (S) => S.lang, () => t("home.join"));
	const error = mount(store, h("div"), (S) => [S.lang, errorKey(S.joinErr)],
		() => errorBox(get().joinErr, { form: "join", id: "tt-join-error", seats: get().table?.seats, seat: get().joinSeat }));
	const go = mount(store, h("button", { type: "submit", class: "secondary wide", id: "tt-join-go" }), (S) => S.lang, () => t("tt.join.find"));
	store.subscribe((S) => S.busy, (busy) => (go.disabled = busy));
	return h("form", { class: "panel", id: "tt-join", onsubmit: (e) => { e.preventDefault(); find(); } }, title, fields, go, error, seats);
}
