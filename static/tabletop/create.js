// The new-game screen of Dice Hospital or Clinic ("#tt=dh", "#tt=clinic"): the create form
// (players, solo, variants or expansions, the solo Medical Reports, the scoring profile and goal,
// the league), the join form beside it (join.js), and the created game's code and links. Each
// part is a view on one store: adding a player or turning solo on redraws only the parts that
// depend on it, and typed names live in the state, so nothing typed is lost.
import { h } from "../dom.js";
import { gameReady } from "../share.js";
import { t, lang } from "../i18n.js";
import { createStore } from "../store.js";
import { mount } from "../view.js";
import { leaguePicker } from "../league-picker.js";
import { DH_ADMINS, DH_VARIANTS, DH_SOLO_VARIANTS, CL_EXPANSIONS, COLOURS, call, remember, gameRoute } from "./shared.js";
import { unverifiedBadge, stepRow, toggle } from "./widgets.js";
import { errorBox, errorKey, localError } from "./refusal.js";
import { joinForm } from "./join.js";
import { listProfiles, profileName, profileStatus } from "./profiles.js";

const blankPlayer = () => ({ name: "", administrator: "" });

/** opts.profile: the profile chosen at the start (the one the check screen just saved);
 * opts.embedded: the form alone (the home screen has the join form and is home). */
export function openNew(app, kind, opts = {}) {
	const isDh = kind === "dh";
	const store = createStore({
		lang: lang(), players: [blankPlayer(), blankPlayer()], solo: false, variants: {}, expansions: [],
		profile: opts.profile || "default", profiles: [], goal: "", league: "",
		reports: Array.from({ length: 6 }, () => ({ red: 0, yellow: 0, green: 0, points: 2 })),
		err: null, busy: false, created: null,
		code: "", table: null, pick: null, joinSeat: null, joinErr: null, // the join form's (join.js)
	});
	const { get, set } = store;
	let closed = false;
	listProfiles(kind).then((profiles) => !closed && set({ profiles })).catch(() => {});

	const seated = (S) => S.players.slice(0, S.solo ? 1 : S.players.length);
	const variantsOf = (S) => [...DH_VARIANTS, ...(S.solo ? DH_SOLO_VARIANTS : [])];

	const players = mount(store, h("fieldset"), (S) => [S.lang, S.solo, S.players.length], () => {
		const S = get();
		return [h("legend", {}, t(`tt.players_${kind}`)),
			seated(S).map((pl, i) => h("div", { class: "tt-player" },
				h("div", { class: "player-row" },
					h("input", { type: "text", value: pl.name, maxlength: 64, name: `tt-player${i + 1}`, autocomplete: "off",
						"aria-label": t("new.player", { n: i + 1 }), placeholder: t("new.player", { n: i + 1 }), oninput: (e) => (pl.name = e.target.value) }),
					!S.solo && S.players.length > 2 ? h("button", { type: "button", class: "icon-btn", "aria-label": t("new.remove", { n: i + 1 }),
						onclick: () => set({ players: get().players.filter((_, j) => j !== i) }) }, "×") : null),
				isDh && !S.solo ? h("select", { name: `tt-admin${i + 1}`, "aria-label": t("tt.administrator"), onchange: (e) => (pl.administrator = e.target.value) },
					h("option", { value: "" }, t("tt.no_administrator")),
					DH_ADMINS.map((a) => h("option", { value: a, selected: pl.administrator === a }, t(`tt.admin.${a}`)))) : null)),
			!S.solo && S.players.length < 4 ? h("button", { type: "button", class: "secondary", id: "tt-add-player",
				onclick: () => set({ players: [...get().players, blankPlayer()] }) }, `+ ${t("new.add")}`) : null];
	});
	const solo = mount(store, h("label", { class: "switch" }), (S) => S.lang, () => [
		h("input", { type: "checkbox", id: "tt-solo", checked: get().solo, onchange: (e) => set({ solo: e.target.checked }) }),
		h("span", {}, t(isDh ? "tt.solo_dh" : "tt.solo_clinic"))]);
	const options = mount(store, h("fieldset"), (S) => [S.lang, S.solo], () => {
		const S = get();
		return isDh
			? [h("legend", {}, t("tt.variants")), variantsOf(S).map((v) =>
				toggle(t(`tt.variant.${v}`), !!S.variants[v], (c) => (S.variants[v] = c), { name: `tt-variant-${v}` }))]
			: [h("legend", {}, t("tt.expansions")), CL_EXPANSIONS.map((x) =>
				toggle(t(`tt.expansion.${x}`), get().expansions.includes(x), (c) => set({ expansions: c ? [...get().expansions, x] : get().expansions.filter((y) => y !== x) }), { name: `tt-exp-${x}` }))];
	});
	// the six Medical Report cards dealt for a solo Dice Hospital game
	const reports = mount(store, h("fieldset", { class: "tt-reports" }), (S) => isDh && S.solo && S.lang, (on) => on ? [
		h("legend", {}, t("tt.reports_dealt")), h("p", { class: "muted" }, t("tt.reports_hint")),
		get().reports.map((r, i) => h("div", { class: "tt-report", "data-card": i + 1 },
			h("strong", {}, t("tt.report_card", { n: i + 1, row: t(i < 3 ? "tt.row_bottom" : "tt.row_top") })),
			COLOURS.map((c) => stepRow(t(`colour.${c}`), r[c], 0, 6, (v) => (r[c] = v), { "data-field": c })),
			stepRow(t("tt.points"), r.points, 1, 20, (v) => (r.points = v), { "data-field": "points" })))] : []);
	store.subscribe((S) => isDh && S.solo, (on) => (reports.hidden = !on));
	const profileBox = mount(store, h("div", { id: "tt-profile-box" }), (S) => [S.lang, S.solo, S.profile, S.profiles], () => profileFields(get()));
	const error = mount(store, h("div"), (S) => [S.lang, errorKey(S.err)], () => errorBox(get().err, { form: "create", kind, players: seated(get()).map((p) => p.name) }));
	const button = mount(store, h("button", { type: "submit", class: "primary wide", id: "tt-create" }), (S) => S.lang, () => t("new.create"));
	store.subscribe((S) => S.busy, (busy) => (button.disabled = busy));
	const title = mount(store, h(opts.embedded ? "h2" : "h1"), (S) => S.lang, () => t(`tt.new_${kind}`));
	const form = h("form", { class: "panel", id: "tt-new", onsubmit: (e) => { e.preventDefault(); create(); } },
		title, players, solo, options, reports, profileBox, error, button);
	addLeague(form, button);

	function profileFields(S) {
		const p = S.profiles.find((q) => q.id === S.profile);
		const goals = !isDh && S.solo && p ? h("label", { class: "field" }, h("span", {}, t("tt.goal")),
			h("select", { id: "tt-goal", onchange: (e) => set({ goal: e.target.value }) }, h("option", { value: "" }, "—"),
				(p.values.solitaire_goals?.goals || []).map((g) => h("option", { value: g, selected: S.goal === g }, g)))) : null;
		const profile = h("label", { class: "field" }, h("span", {}, t("tt.profile")),
			h("select", { id: "tt-profile", onchange: (e) => set({ profile: e.target.value }) },
				(S.profiles.length ? S.profiles : [{ id: "default", name: "default" }]).map((q) => h("option", { value: q.id, selected: q.id === S.profile }, profileName(kind, q)))));
		return [profile, p ? profileStatus(kind, p, unverifiedBadge()) : null, goals];
	}

	/** The league choice, only for a logged-in owner or member: one element, reworded in place. */
	function addLeague(form, before) {
		if (!localStorage.getItem("dh.leagues.session")) return;
		leaguePicker(t("new.league"), t("new.no_league")).then((pick) => {
			if (!pick || closed) return;
			pick.select.id = "tt-league";
			pick.select.addEventListener("change", (e) => set({ league: e.target.value }));
			before.before(pick.label);
			store.subscribe((S) => S.lang, () => {
				pick.label.firstChild.textContent = t("new.league");
				pick.select.options[0].text = t("new.no_league");
			});
		}).catch(() => {});
	}

	async function create() {
		const S = get();
		const players = seated(S).map((p) => ({ name: p.name.trim(), ...(isDh && !S.solo && p.administrator ? { administrator: p.administrator } : {}) }));
		const unnamed = players.findIndex((p) => !p.name);
		if (unnamed >= 0) return set({ err: localError("new.name_needed", `/players/${unnamed}/name`) });
		const body = { players, solo: S.solo, profile: S.profile };
		if (S.league) body.league = S.league;
		if (isDh) {
			body.variants = Object.fromEntries(variantsOf(S).map((v) => [v, !!S.variants[v]]));
			if (S.solo) body.reports = S.reports;
		} else {
			body.expansions = S.expansions;
			if (S.solo && S.goal) body.goal = S.goal;
		}
		set({ busy: true, err: null });
		try {
			const c = await call("POST", `/${kind}/games`, body);
			remember(c.id, { token: c.host_token, kind, code: c.code, label: players.map((p) => p.name).join(", ") });
			set({ busy: false, created: c });
		} catch (e) {
			set({ busy: false, err: e });
		}
	}

	const back = mount(store, h("a", { class: "button secondary", href: "#" }), (S) => S.lang, () => `← ${t("nav.home")}`);
	const heading = mount(store, h("h1", { class: "home-h1" }), (S) => S.lang, () => t(`tt.${kind}`));
	const home = opts.embedded ? form : h("div", { class: "home tt" }, back, heading, form, joinForm(store, kind));
	const created = h("section", { class: "panel created" });
	const redrawLinks = () => !closed && set({ shareRev: (get().shareRev || 0) + 1 });
	mount(store, created, (S) => S.created && [S.lang, S.shareRev], () => createdLinks(kind, get().created, redrawLinks));
	store.subscribe((S) => !!S.created, (done) => app.replaceChildren(done ? created : home));
	store.flush();
	return {
		close: () => (closed = true),
		render: () => set({ lang: lang() }),
	};
}

/** The new game's "Game ready" (share.js, as ER's): the code, one link per seat and the host's
 * (each link carries its token), their QR codes. */
function createdLinks(kind, c, redraw) {
	if (!c) return [];
	return gameReady({
		code: c.code, codeId: "tt-code-shown", codeText: t("tt.created_code", { code: c.code }),
		seats: c.seats.map((s) => ({ seat: s.seat, label: t("tt.seat_link", { seat: s.seat, name: s.name }), route: gameRoute(kind, c.id, s.seat_token) })),
		host: gameRoute(kind, c.id, c.host_token), open: { id: "tt-open-host", href: gameRoute(kind, c.id, c.host_token), label: t("tt.open_table") },
	}, redraw);
}
