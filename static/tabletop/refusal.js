// A refusal in words on the Dice Hospital and Clinic screens: the rule's sentence in the language
// shown ("ttrule.<id>", else the shared "rule.<id>", else a sentence for what the HTTP status
// means), and which player and which field it is about, worded from the field's JSON pointer and
// the request that was refused ("/entries/1/discharged" of a round → "Bob — Patients
// discharged"). The HTTP status, the rule id, the pointer and the server's English detail never
// show: they stay in data-status, data-rule, data-field and data-detail.
import { h } from "../dom.js";
import { t, has } from "../i18n.js";
import { money } from "./shared.js";

const STATUS = { 400: "bad_request", 401: "unauthorised", 403: "forbidden", 404: "not_found", 409: "conflict", 429: "too_many", 503: "unavailable" };

/** Keeps with an error what the refused request listed, so that its pointer can name a player:
 * sent.seats the entries' seat numbers in order, sent.reports the Medical Reports listed as
 * completed. Returns the error. */
export function withSent(e, sent) {
	if (e && typeof e === "object") e.sent = sent;
	return e;
}

/** An error of the screen itself (nothing sent yet): key and vars of its sentence, field the
 * pointer of what it is about. */
export const localError = (key, field = null, vars = {}) => ({ key, vars, field });

/** What a view selects of an error (an ApiError's message is not enumerable: JSON would drop it). */
export const errorKey = (e) => e && [e.status, e.rule, e.field, e.message, e.key];

function sentence(e) {
	if (e.key) return t(e.key, e.vars);
	if (e.rule && has(`ttrule.${e.rule}`)) return t(`ttrule.${e.rule}`);
	if (e.rule && has(`rule.${e.rule}`)) return t(`rule.${e.rule}`);
	if (e.status === 0) return t("error.network");
	if (typeof e.status !== "number") return t("tt.status.server");
	return t(`tt.status.${STATUS[e.status] || (e.status >= 500 ? "server" : "bad_request")}`);
}

const report = (n) => t("tt.report_card", { n, row: t(n <= 3 ? "tt.row_bottom" : "tt.row_top") });
const sub = (a, b) => `${a} — ${b}`;

/** A field of a seat's round or end of the game: keys after "/entries/N". */
function entryField(keys, game) {
	const [k, s] = keys;
	switch (k) {
	case "seat": return t("tt.w.seat");
	case "discharged": return s ? t("tt.discharged", { colour: t(`colour.${s}`) }) : t("ttr.discharge-table");
	case "wards_empty": return t("tt.wards_empty");
	case "registrar": return t("tt.registrar");
	case "popularity_bought": case "lab_doctors": case "deaths": case "unpaid_expenses": case "time_spent":
		return t(`tt.c.${k}`, { money: money(3) });
	case "doctors": return s ? t("tt.doctor", { colour: t(`tt.colour.${s}`) }) : t("tt.f.employees");
	case "treatment_rooms": return s ? sub(t("tt.f.rooms"), t("tt.floor", { n: s })) : t("tt.f.rooms");
	case "additional_buildings": return t("tt.f.buildings");
	case "patients_left": return s ? sub(t("tt.f.patients_left"), t(`tt.colour.${s}`)) : t("tt.f.patients_left");
	case "goal_achieved": return t("tt.f.goal_achieved", { goal: game?.goal || "" });
	case "fatalities": case "blood_bags": case "pips_left": case "collected": case "nurses": case "zombies":
		return t(`tt.f.${k}`);
	default: return null;
	}
}

/** A field of the round or end being saved (entry.js): ctx.game, ctx.round. A seat taken over
 * by another phone is this phone's seat. */
function entryWords(keys, e, { game, round }) {
	const [top, i, ...rest] = keys;
	const sent = e.sent || {};
	if (e.rule === "seat-replaced") return [game?.you ? game.seats[game.you - 1]?.name : null, t("tt.w.seat")];
	if (top === "entries" && i !== undefined) {
		const seat = game?.seats[(sent.seats || [])[Number(i)] - 1];
		return [seat ? seat.name : null, entryField(rest, game)];
	}
	if (top === "entries") return [null, t("tt.w.entries")];
	if (top === "round") return [null, t(round === "finish" ? "tt.finish_title" : "tt.round_short", { n: round })];
	if (top === "reports_completed") {
		const card = (sent.reports || [])[Number(i)];
		return [null, card ? report(card) : t("tt.reports_completed")];
	}
	if (top === "turn_order") return [null, t("tt.w.turn_order")];
	if (top === "ended_after") return [null, t("tt.finish_title")];
	return [null, null];
}

/** A field of the new-game form (create.js): ctx.players the names typed, ctx.solo. */
function createWords(keys, e, { players = [], kind }) {
	const [top, i, k] = keys;
	if (top === "players" && i !== undefined) {
		const n = Number(i);
		const who = (players[n] || "").trim() || t("new.player", { n: n + 1 });
		return [who, k === "administrator" ? t("tt.administrator") : k === "name" ? t("tt.w.name") : null];
	}
	if (top === "players") return [null, t("tt.w.players")];
	if (top === "variants") return [null, i ? t(`tt.variant.${i}`) : t("tt.variants")];
	if (top === "expansions") return [null, t("tt.expansions")];
	if (top === "reports") {
		if (i === undefined) return [null, t("tt.reports_dealt")];
		const card = report(Number(i) + 1);
		return [null, !k ? card : sub(card, k === "points" ? t("tt.points") : t(`colour.${k}`))];
	}
	if (top === "goal") return [null, t("tt.goal")];
	if (top === "profile") return [null, t("tt.profile")];
	if (top === "solo") return [null, t(kind === "dh" ? "tt.solo_dh" : "tt.solo_clinic")];
	return [null, null];
}

/** A field of the Business helper (business.js). */
function businessWords(keys) {
	const [k, s] = keys;
	if (k === "doctors" && s) return [null, t("tt.doctor", { colour: t(`tt.colour.${s}`) })];
	if (k === "treated" && s) return [null, t("tt.biz.treated", { colour: t(`tt.colour.${s}`) })];
	if (k === "nurses") return [null, t("tt.f.nurses")];
	if (k === "zombies_cured") return [null, t("tt.biz.zombies_cured", { money: money(32) })];
	return [null, has(`tt.biz.${k}`) ? t(`tt.biz.${k}`) : null];
}

/** A field of the join form (join.js): ctx.seats the table's seats, ctx.seat the one tapped. */
function joinWords(keys, e, { seats = [], seat }) {
	const [k] = keys;
	const s = seats.find((x) => x.seat === seat);
	if (k === "seat" || (e.rule || "").startsWith("seat-")) return [s ? s.name : null, t("tt.w.seat")];
	if (k === "code") return [null, t("join.code")];
	return [null, null];
}

const WORDS = { entry: entryWords, create: createWords, business: businessWords, join: joinWords };

/** [who, what] of the error's field, each a string or null. */
export function fieldWords(e, ctx) {
	const keys = (e.field || "").split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
	const words = WORDS[ctx.form];
	return words ? words(keys, e, ctx) : [null, null];
}

/** The refusal: who and what (when known) above the rule's sentence. ctx.form says which form
 * sent the request ("entry", "create", "business", "join") with what its words need; ctx.id the
 * element's id; ctx.code the table's join code, for a phone whose seat another phone took over
 * (a link to the table's seats, to take it back). */
export function errorBox(e, ctx = {}) {
	if (!e) return null;
	const [who, what] = fieldWords(e, ctx);
	const whereLine = [who, what].filter(Boolean).join(" — ");
	return h("div", { class: "error", role: "alert", id: ctx.id || "tt-error", "data-rule": e.rule || "", "data-field": e.field || "",
		"data-status": typeof e.status === "number" ? String(e.status) : "", "data-detail": e.key ? "" : e.message || "" },
	whereLine ? h("strong", { class: "tt-where" }, whereLine) : null, h("span", { class: "tt-why" }, sentence(e)),
	e.rule === "seat-replaced" && ctx.code ? h("a", { class: "button secondary", id: "tt-rejoin", href: `#join=${encodeURIComponent(ctx.code)}` }, t("tt.join.again")) : null);
}
