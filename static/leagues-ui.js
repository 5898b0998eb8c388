// The league screens' shared helpers (leagues.js and the leagues-*.js screens import them):
// the API with this page's words for a refusal, the screen's parts (panel, field, form, a
// button that asks first, the sentence the last action left), numbers and dates the language's
// way, the hash's filters, paged lists, the plays kept on this phone, and the state every
// screen reads: the logged-in account (me) and that sentence (flash), each set by its setter.
import { request } from "./api.js";
import { h } from "./dom.js";
import { t, tn, has, lang } from "./leagues-i18n.js";

export const BASE = "/api/v1";
const app = document.getElementById("app");
export let me = null; // the logged-in account, or null
export let flash = null; // a sentence the next screen shows once (what the last action did)
export const setMe = (account) => (me = account);
export const setFlash = (text) => (flash = text);

// ---- small helpers ----

/** The API (cookies travel with it: same origin), with this screen's sentence for a server that
 * cannot be reached; contentType sends body as it is. Reads revalidate what the browser keeps
 * (the league reads carry an ETag: an unchanged league answers 304). */
export const api = (method, path, body, contentType, headers) =>
	request(method, path, body, undefined, { contentType, headers, network: t("error.network"), cache: method === "GET" ? "no-cache" : undefined });

/** A refusal in this screen's words: the rule's sentence when there is one, else the server's. */
export function problemText(e) {
	if (e.status === 0) return t("error.network");
	if (e.rule && has(`rule.${e.rule}`)) return t(`rule.${e.rule}`);
	if (e.status === 400 && e.field && has(`field${e.field}`)) return t(`field${e.field}`);
	return e.message;
}

export function errorBox(e) {
	const text = problemText(e);
	// the server's English sentence says more: a second line in English, a tooltip otherwise
	const more = text !== e.message && e.message && lang() === "en" ? h("div", { class: "detail" }, e.message) : null;
	return h("p", { class: "error", role: "alert", "data-rule": e.rule || null, title: text !== e.message ? e.message : null }, text, more);
}

/** The screen: these parts (null ones left out). A sentence the last action left is brought
 * into view and given the focus (the control that acted may be gone). */
export function show(...parts) {
	app.replaceChildren(...parts.filter((x) => x !== null && x !== undefined));
	app.querySelector('[data-testid="flash"]')?.focus();
}

export function panel(...children) {
	return h("section", { class: "panel" }, ...children);
}

/** A small link to the help page of topic (static/help/LANG/TOPIC.html), in the language shown. */
export const helpLink = (topic) => h("a", { class: "lg-help", href: `help/${document.documentElement.lang}/${topic}.html`, "data-help": topic }, t(`help.${topic}`));

export function field(label, input) {
	return h("label", { class: "field" }, h("span", {}, label), input);
}

/** A number the language's way (a decimal comma in French), at most digits decimals. */
export function fmt(x, digits = 1) {
	return x === null || x === undefined ? "–" : new Intl.NumberFormat(lang(), { maximumFractionDigits: digits, useGrouping: false }).format(Number(x));
}

export function day(iso) {
	if (iso === null || iso === undefined) return t("play.undated"); /* a play logged without a date */
	return String(iso).slice(0, 10); /* the play's own local date, wherever it is read */
}

/* A date that a line never breaks at its hyphens (a word joiner after each). */
export const unbroken = (text) => String(text).replace(/-/g, "-\u2060");
export const enc = encodeURIComponent;

export function params() {
	return new URLSearchParams(location.hash.replace(/^#/, ""));
}

/** The season and game filters of the hash, as a query (for the API and for links). */
export function filters() {
	const p = params();
	const q = new URLSearchParams();
	for (const k of ["season", "game"]) if (p.get(k)) q.set(k, p.get(k));
	return q;
}

// lists that grow (plays, a player's history) come a page at a time: limit ≤ 500, offset, total
const PAGE_MAX = 500;
export const PAGE_MORE = 50;

/** A whole paged list: the first page's reply with list key holding every item. Bounded by
 * the total the server reports (and by an empty page). */
export async function fetchAll(path, key) {
	const sep = path.includes("?") ? "&" : "?";
	let reply = null;
	const items = [];
	for (;;) {
		const page = await api("GET", `${path}${sep}limit=${PAGE_MAX}&offset=${items.length}`);
		reply ??= page;
		items.push(...page[key]);
		if (!page[key].length || items.length >= page.total) break;
	}
	return { ...reply, [key]: items };
}

/** A form whose submit runs fn(form) with its button disabled; errors are shown above it. */
export function form(children, submitLabel, fn, { primary = true } = {}) {
	const out = h("div");
	const button = h("button", { class: primary ? "primary wide" : "wide", type: "submit" }, submitLabel);
	const f = h("form", {}, out, ...children, button);
	f.addEventListener("submit", async (ev) => {
		ev.preventDefault();
		button.disabled = true;
		out.replaceChildren();
		try {
			await fn(f);
		} catch (e) {
			out.replaceChildren(errorBox(e));
		} finally {
			button.disabled = false;
		}
	});
	return f;
}

/** A button that asks first: a tap shows question (a sentence, or a function giving it then)
 * with a confirming and a cancelling button; the confirmation runs action (errors shown in
 * place). */
export function confirmButton(label, question, yes, action, { danger = false } = {}) {
	const box = h("div", { class: "lg-confirm-box" });
	const start = h("button", { type: "button", class: danger ? "wide lg-danger" : "wide" }, label);
	const show = () => {
		const msg = h("div");
		const ok = h("button", { type: "button", class: danger ? "lg-danger-solid" : "primary" }, yes);
		const no = h("button", { type: "button" }, t("action.cancel"));
		ok.addEventListener("click", async () => {
			ok.disabled = no.disabled = true;
			msg.replaceChildren();
			try {
				await action();
			} catch (e) {
				msg.replaceChildren(errorBox(e));
				ok.disabled = no.disabled = false;
			}
		});
		no.addEventListener("click", () => {
			box.replaceChildren(start);
			start.focus();
		});
		box.replaceChildren(h("div", { class: "lg-confirm", role: "group", "aria-label": label }, h("p", {}, typeof question === "function" ? question() : question), msg, h("div", { class: "lg-actions" }, ok, no)));
		ok.focus();
	};
	start.addEventListener("click", show);
	box.append(start);
	return box;
}

/** The sentence the last action left for this screen, once. */
export function flashBox() {
	if (!flash) return null;
	const el = h("p", { class: "lg-ok", role: "status", tabindex: "-1", "data-testid": "flash" }, flash);
	flash = null;
	return el;
}

/** The helpers consent.js draws with; done(text) shows text on the screen redraw() draws. */
export const consentUi = (redraw) => ({ api, t, tn, h, panel, confirmButton, errorBox, enc, done: async (text) => ((flash = text), await redraw()) });

// ---- plays saved without a network: kept on this phone until they are sent (leagues.js) ----
// Each waits with its Idempotency-Key (dh.leagues.pending: [{lid, key, body, league}]), so a
// play whose reply was lost is stored once however often it is sent again.
const PENDING = "dh.leagues.pending";
export const pendingPlays = () => JSON.parse(localStorage.getItem(PENDING) || "[]");
export const keepPending = (list) => (list.length ? localStorage.setItem(PENDING, JSON.stringify(list)) : localStorage.removeItem(PENDING));
