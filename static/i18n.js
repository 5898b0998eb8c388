// Translations: static/i18n/{en,fr}.json, English as the fallback for any missing key. Screens
// loaded on demand bring their own strings (addStrings("tabletop") → i18n/tabletop.{en,fr}.json),
// so the ER screens do not download them.
const LANGS = ["en", "fr"];
const STORE = "dh.lang";
let dict = {};
let fallback = {};
let current = "en";
const listeners = [];
const extras = []; // names of the extra string files in use

async function load(file) {
	const r = await fetch(`i18n/${file}.json`);
	if (!r.ok) throw new Error(`i18n/${file}.json: ${r.status}`);
	return r.json();
}

/** The strings of lang: the main file and every extra one. */
async function loadAll(lang) {
	const parts = await Promise.all([load(lang), ...extras.map((x) => load(`${x}.${lang}`))]);
	return Object.assign({}, ...parts);
}

/** Adds the strings of an on-demand screen (i18n/NAME.{en,fr}.json), in the current language. */
export async function addStrings(name) {
	if (extras.includes(name)) return;
	const [en, cur] = await Promise.all([load(`${name}.en`), current === "en" ? null : load(`${name}.${current}`)]);
	extras.push(name);
	Object.assign(fallback, en);
	if (cur) Object.assign(dict, cur);
}

export function languages() {
	return LANGS;
}

export function lang() {
	return current;
}

/** The stored choice, else the browser's language, else English. */
export function preferredLang() {
	const stored = localStorage.getItem(STORE);
	if (LANGS.includes(stored)) return stored;
	for (const l of navigator.languages || [navigator.language || "en"]) {
		const base = String(l).toLowerCase().slice(0, 2);
		if (LANGS.includes(base)) return base;
	}
	return "en";
}

export async function setLang(l, remember = true) {
	if (!LANGS.includes(l)) l = "en";
	if (!Object.keys(fallback).length) fallback = await loadAll("en");
	dict = l === "en" ? fallback : await loadAll(l);
	current = l;
	document.documentElement.lang = l;
	if (remember) localStorage.setItem(STORE, l);
	translate(document);
	for (const f of listeners) f(l);
}

export function onLangChange(f) {
	listeners.push(f);
}

/** t("game.turn", {n: 3, total: 24}). A count: with no string at key itself and a number n, the
 * plural form key.one, key.other… that the language's Intl.PluralRules names for n (else
 * key.other): t("count.steth", {n: 2}) → "2 stethoscopes". */
export function t(key, vars) {
	if (typeof vars?.n == "number" && !has(key)) {
		const f = `${key}.${new Intl.PluralRules(current).select(vars.n)}`;
		key = has(f) ? f : `${key}.other`;
	}
	let s = dict[key] ?? fallback[key] ?? key;
	if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
	return s;
}

/** Whether key has a translation, in the current language or the English fallback. */
export function has(key) {
	return key in dict || key in fallback;
}

/** Fills the text of every [data-i18n] element (the page's header). */
function translate(root) {
	for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}
