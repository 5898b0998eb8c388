// The join form of the Dice Hospital and Clinic new-game screen: a table's code and a seat; the
// seat's token is kept on this phone and the game's table opens. Its state (code, seat, joinErr,
// busy) lives in the new-game screen's store (create.js), which disables both forms while busy.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { mount } from "../view.js";
import { call, remember, gameRoute } from "./shared.js";
import { errorBox, errorKey } from "./widgets.js";

export function joinForm(store, kind) {
	const { get, set } = store;
	const upper = (code) => code.trim().toUpperCase();

	async function join() {
		const code = upper(get().code);
		set({ busy: true, joinErr: null });
		try {
			const r = await call("POST", "/join", { code, seat: Number(get().seat) });
			const k = r.kind || kind;
			remember(r.game, { token: r.seat_token, kind: k, code, label: r.name });
			set({ busy: false });
			location.hash = gameRoute(k, r.game).slice(1);
		} catch (e) {
			set({ busy: false, joinErr: e });
		}
	}

	const fields = mount(store, h("div", { class: "join-row" }), (S) => S.lang, () => [
		h("label", { class: "field" }, h("span", {}, t("join.code")), h("input", { type: "text", id: "tt-join-code", value: get().code, maxlength: 6, class: "code-input",
			autocomplete: "off", autocapitalize: "characters", oninput: (e) => set({ code: e.target.value.toUpperCase() }) })),
		h("label", { class: "field" }, h("span", {}, t("join.seat")), h("select", { id: "tt-join-seat", onchange: (e) => set({ seat: e.target.value }) },
			[1, 2, 3, 4].map((s) => h("option", { value: s, selected: String(s) === get().seat }, s))))]);
	const title = mount(store, h("h2"), (S) => S.lang, () => t("home.join"));
	const error = mount(store, h("div"), (S) => [S.lang, errorKey(S.joinErr)], () => errorBox(get().joinErr));
	const go = mount(store, h("button", { type: "submit", class: "primary wide", id: "tt-join-go" }), (S) => S.lang, () => t("join.go"));
	store.subscribe((S) => S.busy, (busy) => (go.disabled = busy));
	return h("form", { class: "panel", id: "tt-join", onsubmit: (e) => { e.preventDefault(); join(); } }, title, fields, error, go);
}
