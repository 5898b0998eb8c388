// The input and display pieces of the Dice Hospital and Clinic screens: steppers (the round forms
// take no keyboard), toggles, the "unverified" badge of an unconfirmed scoring profile and the
// status line after a save (a refusal in words is refusal.js).
import { h } from "../dom.js";
import { t } from "../i18n.js";

export function unverifiedBadge(extra = "") {
	return h("span", { class: `tt-badge ${extra}`, title: t("tt.unverified_long") }, t("tt.unverified"));
}

/** The small mark of a score line that used a value not checked against the box: the game's
 * one notice (the badge in its head, with unverifiedLegend under the scores) says what it means. */
export function unverifiedMark() {
	return h("span", { class: "tt-mark", title: t("tt.unverified") }, h("span", { "aria-hidden": "true" }, "*"), h("span", { class: "sr-only" }, ` (${t("tt.unverified")})`));
}

/** What the mark means, once under the lines that carry it. */
export const unverifiedLegend = () => h("p", { class: "tt-legend muted" }, h("span", { class: "tt-mark", "aria-hidden": "true" }, "*"), ` ${t("tt.unverified_legend")}`);

/** − value +, kept between min and max; onchange(v) after every tap (the output updates itself). */
export function stepper(value, min, max, onchange, attrs = {}) {
	let cur = value;
	const out = h("output", { class: "tt-value", "aria-live": "polite" }, String(value));
	const button = (sign, step) => h("button", { type: "button", class: "tt-step", "aria-label": sign, onclick: () => set(cur + step) }, sign);
	const minus = button("−", -1);
	const plus = button("+", 1);
	function set(v) {
		cur = Math.max(min, Math.min(max, v));
		out.textContent = String(cur);
		minus.disabled = cur <= min;
		plus.disabled = cur >= max;
		onchange(cur);
	}
	minus.disabled = value <= min;
	plus.disabled = value >= max;
	return h("div", { class: "tt-stepper", ...attrs }, minus, out, plus);
}

/** A labelled stepper (badge: an element after the label, e.g. the unverified badge). */
export function stepRow(label, value, min, max, onchange, attrs = {}, badge = null) {
	return h("div", { class: "tt-row" }, h("span", { class: "tt-label" }, label, badge), stepper(value, min, max, onchange, attrs));
}

export function toggle(label, checked, onchange, attrs = {}) {
	return h("label", { class: "check tt-toggle" }, h("input", { type: "checkbox", checked, onchange: (e) => onchange(e.target.checked), ...attrs }), h("span", {}, label));
}

/** A status line after a save ("Round 3 saved"): msg is [key, vars]. */
export const okLine = (msg) => (msg ? h("p", { class: "tt-ok", role: "status", id: "tt-msg" }, t(msg[0], msg[1])) : null);
