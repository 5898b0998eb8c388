// Views on the store (static/README.md, "The ER screens"): focus kept across a rebuild.
import * as api from "./api.js";
import { h } from "./dom.js";
import { t, has, lang } from "./i18n.js";

function focusKey(el) {
	if (el.id) return `#${CSS.escape(el.id)}`;
	const attrs = [...el.attributes].filter((a) => a.name.startsWith("data-")).map((a) => `[${a.name}="${CSS.escape(a.value)}"]`);
	return attrs.length ? el.tagName.toLowerCase() + attrs.join("") : null;
}

/** Replaces container's children, keeping focus on the equivalent element. */
export function replaceKeepingFocus(container, children) {
	const active = document.activeElement;
	const key = active && container.contains(active) ? focusKey(active) : null;
	container.replaceChildren(...[children].flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
	if (key) {
		const again = container.querySelector(key);
		if (again) again.focus({ preventScroll: true });
	}
}

/** A container bound to the store: render(selected, state) → children, run when the selection changes. */
export function mount(store, container, select, render) {
	store.subscribe(select, (v, st) => replaceKeepingFocus(container, render(v, st)));
	return container;
}

/** An error as data, worded at render time (the language may change): {key, vars} for the app's
 * own messages, {status, rule, detail} for a server refusal (problem+json). */
export function errorOf(e) {
	if (e instanceof api.ApiError)
		return e.status === 0 ? { key: "error.network" } : { status: e.status, rule: e.rule, detail: e.message };
	console.error(e);
	return { detail: String(e && e.message ? e.message : e) };
}

const STATUS_WORDS = { 400: "error.bad_request", 401: "error.unauthorised", 403: "error.forbidden", 404: "error.not_found", 409: "error.conflict", 429: "error.too_many", 503: "error.unavailable" };

/** The refusal in words (static/README.md, "A turn that explains itself"). */
export function errorBox(err, attrs = {}) {
	const box = h("div", { class: "error", role: "alert", ...attrs });
	if (err.key) {
		box.append(t(err.key, err.vars));
		return box;
	}
	const known = !!err.rule && has(`rule.${err.rule}`);
	const general = STATUS_WORDS[err.status] || (err.status >= 500 ? "error.server" : null);
	box.append(h("strong", {}, `${t("error.title")} `));
	box.append(known ? t(`rule.${err.rule}`) : general && (lang() !== "en" || !err.detail) ? t(general) : err.detail || t("error.server"));
	if (err.detail && (known || lang() !== "en")) {
		box.dataset.detail = err.detail;
		if (lang() === "en") {
			if (known) box.append(h("div", { class: "detail" }, err.detail));
		} else box.title = err.detail;
	}
	return box;
}
