// The head of a Dice Hospital or Clinic table: the game and its code, whose phone this is, the
// round (or the end), the live connection, the scoring profile (checked against a box, or a link
// to check it), Clinic's turn order, the printable score pads (a blank pad, and this game as a
// filled one), and for the host the link of the big screen.
import { request } from "../api.js";
import { h } from "../dom.js";
import { t, lang } from "../i18n.js";
import { mount } from "../view.js";
import { unverifiedBadge } from "./widgets.js";
import { profileName, profileStatus } from "./profiles.js";

/** The pads' paper (US and Canada, Mexico: letter) and language. */
function pdfQuery() {
	const l = ["en", "fr"].includes(lang()) ? lang() : "en";
	const paper = /^en-(US|CA)|^es-(US|MX)/.test(navigator.language) ? "letter" : "a4";
	return `paper=${paper}&lang=${l}`;
}

export function headView({ store, kind, id, token, isDh, nRounds, path }) {
	const { get, set } = store;

	/** The game's pad needs the token (a header, never the URL): fetched, then saved from a blob. */
	async function downloadPad(e) {
		const btn = e.currentTarget;
		btn.disabled = true;
		btn.textContent = t("tt.pad_busy");
		try {
			const pdf = await request("GET", `${path("/pad.pdf")}?${pdfQuery()}`, undefined, token, { blob: true, network: t("error.network") });
			const url = URL.createObjectURL(pdf);
			const a = h("a", { href: url, download: `${kind}-${get().game.code}.pdf`, hidden: true });
			document.body.append(a);
			a.click();
			a.remove();
			setTimeout(() => URL.revokeObjectURL(url), 60000);
		} catch (err) {
			set({ err });
		}
		btn.disabled = false;
		btn.textContent = t("tt.pad_game");
	}

	function padLinks(g) {
		const n = Math.min(Math.max(g.seats.length, 1), 4);
		return h("div", { class: "tt-pdf-links" },
			h("a", { class: "button secondary", id: "tt-pad-blank", href: `/api/v1/${kind}/pads.pdf?players=${n}&${pdfQuery()}`, download: "" }, t("tt.pad_blank")),
			h("button", { type: "button", class: "secondary", id: "tt-pad-game", onclick: downloadPad }, t("tt.pad_game")));
	}

	const select = (S) => S.game && [S.lang, S.live, S.game.code, S.game.you, S.game.status, S.game.next.action, S.game.next.round, S.game.rounds_complete,
		S.game.profile.all_verified, S.game.rounds_played, S.game.profile.name, S.game.profile.checked_at, S.game.turn_orders, S.game.seats.map((s) => s.name)];
	return mount(store, h("div", { class: "turn-head tt-head" }), select, (v) => {
		if (!v) return [];
		const S = get();
		const g = S.game;
		const you = g.you ? g.seats[g.you - 1] : null;
		return [
			h("div", { class: "turn-line" }, h("h1", {}, t(`tt.${kind}`)), h("span", { class: "code", id: "tt-code" }, t("tt.code", { code: g.code }))),
			h("div", { class: "you-line" }, you ? t("tt.you", { name: you.name, seat: you.seat }) : t("tt.whole_table")),
			h("div", { class: "muted", id: "tt-status" },
				g.status === "finished" ? (g.incomplete ? t("tt.finished_early", { n: g.rounds_played, total: nRounds }) : t("game.finished")) : g.next.action === "finish" ? t("tt.ready_finish") : t("tt.round_of", { n: g.next.round, total: nRounds }),
				" · ", S.live ? t("tt.live") : t("tt.live_lost")),
			profileStatus(kind, g.profile, unverifiedBadge("big"), id, t("tt.profile_named", { name: profileName(kind, g.profile) })),
			!isDh && g.turn_orders ? h("p", { class: "muted", id: "tt-turn-order" }, t("tt.turn_order_next", {
				order: (g.turn_orders[Math.min(g.rounds_complete, nRounds)] || g.turn_orders[0]).order.map((s) => g.seats[s - 1].name).join(" → ") })) : null,
			padLinks(g),
			// the host's link for a tablet or TV in the middle of the table (bigscreen.js)
			g.you ? null : h("button", { type: "button", class: "secondary wide", id: "tt-show-display",
				onclick: () => import("../bigscreen.js").then((m) => m.showBigScreen(kind, id, token)) }, t("dsp.show"))];
	});
}
