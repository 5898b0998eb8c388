// What every Dice Hospital and Clinic screen shares: the games' fixed lists, the API call with
// these screens' network sentence, the games this phone has opened (kept in localStorage), a
// string lookup with a fallback for ids the server may add before the strings do, and numbers,
// dollars and dates written the way the chosen language writes them.
import { request, readStored, storeGame } from "../api.js";
import { t, has, lang } from "../i18n.js";

export const KINDS = ["dh", "clinic"];
export const DH_ADMINS = ["discharge-2-red", "discharge-2-yellow", "discharge-2-green", "discharge-3-colours",
	"most-discharged", "neglect-red", "neglect-yellow", "neglect-green"];
export const DH_VARIANTS = ["final_round_collections", "opening_crisis", "nationwide_epidemic", "resistant_superbug",
	"events", "experimental_medicine"];
export const DH_SOLO_VARIANTS = ["fatality_penalty", "medical_report_penalty"];
export const CL_EXPANSIONS = ["blood_transfusion", "extinguishers", "workaholic_doctors", "zombies", "floor_4"];
export const COLOURS = ["red", "yellow", "green"];
export const CL_COLOURS = ["white", "yellow", "orange", "red"];
/** Rounds in a game: Dice Hospital 8, Clinic 6. */
export const roundsOf = (kind) => (kind === "dh" ? 8 : 6);

/** The API with these screens' sentence for a server that cannot be reached. */
export const call = (method, path, body, token) => request(method, path, body, token, { network: t("error.network") });

/** The path of a game's resource: gamePath("dh", id, "/finish"). */
export const gamePath = (kind, id, rest = "") => `/${kind}/games/${encodeURIComponent(id)}${rest}`;

/** The route of a game's screen (the token, when given, is stored and leaves the address bar). */
export const gameRoute = (kind, id, token) => `#tt=${kind}&game=${encodeURIComponent(id)}${token ? `&token=${encodeURIComponent(token)}` : ""}`;

const STORE = "dh.tabletop.games";

/** This phone's games: {id: {token, kind, code, label, at}}. */
export const saved = () => readStored(STORE);

/** Merges entry into a saved game and marks it as the latest opened. */
export const remember = (id, entry) => storeGame(STORE, id, entry);

/** The string of key, or fallback (else the key) when the strings do not have it. */
export function tr(key, vars, fallback) {
	return has(key) ? t(key, vars) : fallback ?? key;
}

/** The locale of numbers and dates: the chosen language, in the phone's region when the phone
 * speaks that language ("en-GB" writes 25 Nov 2026, "en-US" Nov 25, 2026). */
export function locale() {
	const l = lang();
	const phone = navigator.language || "";
	return phone.toLowerCase().startsWith(`${l}-`) ? phone : l;
}

/** A count or score: "1,234" in English, "1 234" in French. sign: "+3" for a gain. */
export const num = (n, sign = false) => new Intl.NumberFormat(locale(), sign ? { signDisplay: "exceptZero" } : {}).format(n);

/** Clinic's dollars: "$32" in English, "32 $" in French. */
export const money = (n) => new Intl.NumberFormat(locale(), { style: "currency", currency: "USD", currencyDisplay: "narrowSymbol", maximumFractionDigits: 0 }).format(n);

/** A day (an ISO timestamp) in the language's own order: "25 Nov 2026", "25 nov. 2026". */
export const day = (iso) => new Intl.DateTimeFormat(locale(), { dateStyle: "medium" }).format(new Date(iso));

/** A rank as the language writes it: "#1" in English, "1er", "2e" in French. */
export function rankWords(n) {
	const key = `tt.rank_${new Intl.PluralRules(locale(), { type: "ordinal" }).select(n)}`;
	return t(has(key) ? key : "tt.rank_other", { n: num(n) });
}
