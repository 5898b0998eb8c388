// The league pages' strings (i18n/leagues.{en,fr}.json, English as the fallback), shared by
// leagues.html (leagues.js) and the challenge board (challenge.js): they do not load the ER
// screens' dictionary (i18n.js).
const LANGS = ["en", "fr"];
const LANG_STORE = "dh.lang";
let dict = {};

export function t(key, vars) {
	let v = dict[key] ?? key;
	if (vars) v = v.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
	return v;
}

/** Whether key has a string (in the language shown or English). */
export const has = (key) => key in dict;

/** A count in words: key.one or key.other with {n}, as the language counts (French: 0 and 1
 * are "one"). */
export const tn = (key, n, vars = {}) => t(`${key}.${new Intl.PluralRules(lang()).select(n) === "one" ? "one" : "other"}`, { n, ...vars });

/** The stored choice, else the browser's language, else English. */
export function lang() {
	const stored = localStorage.getItem(LANG_STORE);
	if (LANGS.includes(stored)) return stored;
	const nav = String(navigator.language || "en").slice(0, 2).toLowerCase();
	return LANGS.includes(nav) ? nav : "en";
}

/** Remembers l as this browser's language. */
export const keepLang = (l) => localStorage.setItem(LANG_STORE, l);

/** Loads l's strings and translates every [data-l] element. */
export async function loadLang(l) {
	const en = await (await fetch("i18n/leagues.en.json")).json();
	dict = l === "en" ? en : { ...en, ...(await (await fetch(`i18n/leagues.${l}.json`)).json()) };
	document.documentElement.lang = l;
	for (const el of document.querySelectorAll("[data-l]")) el.textContent = t(el.dataset.l);
}
