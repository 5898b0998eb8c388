// The scoring profiles as players see them: the shipped one by a name in their language, the
// ones this phone saved (ids kept in localStorage) and its leagues' ones; the line that says
// whether a profile's values were checked against a box (with the date) or still need it, with
// the way to the check screen (boxcheck.js, "#tt=KIND&check=ID[&from=GAME]").
import { request } from "../api.js";
import { h } from "../dom.js";
import { t, lang } from "../i18n.js";
import { call, tr } from "./shared.js";

const STORE = "dh.tabletop.profiles"; // {"dh": [id, …], "clinic": [id, …]}: saved on this phone

function mine(kind) {
	try {
		const ids = JSON.parse(localStorage.getItem(STORE) || "{}")[kind];
		return Array.isArray(ids) ? ids : [];
	} catch {
		return [];
	}
}

/** Remembers that this phone saved profile id of kind (offered first in the pickers). */
export function rememberProfile(kind, id) {
	let all = {};
	try {
		all = JSON.parse(localStorage.getItem(STORE) || "{}") || {};
	} catch {}
	all[kind] = [id, ...mine(kind).filter((x) => x !== id)].slice(0, 20);
	localStorage.setItem(STORE, JSON.stringify(all));
}

/** The leagues of the logged-in account, [] when nobody is logged in on this phone. */
async function myLeagues() {
	if (!localStorage.getItem("dh.leagues.session")) return [];
	try {
		return (await request("GET", "/leagues")).leagues.map((l) => l.id);
	} catch {
		return [];
	}
}

/** The profiles a picker offers: the shipped ones, then this phone's (latest first), then its
 * leagues'. Other groups' stored profiles are theirs: not offered. */
export async function listProfiles(kind) {
	const [r, leagues] = await Promise.all([call("GET", `/profiles?game=${kind}`), myLeagues()]);
	const ids = mine(kind);
	const rank = (p) => (p.source === "template" ? -1 : ids.includes(p.id) ? ids.indexOf(p.id) : ids.length);
	return r.profiles.filter((p) => p.source === "template" || ids.includes(p.id) || (p.league && leagues.includes(p.league)))
		.sort((a, b) => rank(a) - rank(b));
}

/** A profile's name for players: a shipped one in the current language (its id is never the
 * id of a stored one), any other as its group named it. */
export const profileName = (kind, p) => tr(`tt.profile_name.${kind}.${p.id}`, {}, p.name);

/** The locale of dates: the phone's own when it speaks the app's language (en-GB: 12 May), else
 * the app's language. */
export function dateLocale() {
	const nav = navigator.language || "";
	return nav.toLowerCase().startsWith(lang()) ? nav : lang();
}

/** The date of a check ("2025-05-12T18:03:00Z") in the reader's language. */
export const checkedDate = (stamp, style = "long") => new Intl.DateTimeFormat(dateLocale(), { dateStyle: style }).format(new Date(stamp));

/** The route of the check screen for profile id of kind (from: the game it was opened from). */
export const checkRoute = (kind, id, from) => `#tt=${kind}&check=${encodeURIComponent(id)}${from ? `&from=${encodeURIComponent(from)}` : ""}`;

/** The "checked against your box on <date>" badge. */
export const checkedBadge = (stamp, extra = "") =>
	h("span", { class: `tt-badge tt-checked ${extra}`, "data-checked": stamp }, `✓ ${t("tt.checked_on", { date: checkedDate(stamp) })}`);

/** Where a profile stands, under the picker or in a game's head: checked (with the date) when
 * every value is verified and a group checked some; else, when some value is not, the
 * unverified badge in a link to the check screen. badge: the unverified badge element. */
export function profileStatus(kind, p, badge, from, line = "") {
	if (p.all_verified)
		return p.checked_at ? h("p", { class: "tt-profile-line", id: "tt-profile-status" }, checkedBadge(p.checked_at, "big"), line ? ` ${line}` : null) : null;
	return h("a", { class: "tt-profile-line tt-check-link", id: "tt-profile-status", href: checkRoute(kind, p.id, from) },
		badge, line ? ` ${line}` : null, h("span", { class: "tt-check-go" }, `${t("tt.check_box")} ›`));
}
