// The league choice of a new-game form: a <label> with a <select> of the leagues of the
// logged-in account ("" = no league), or null when nobody is logged in or has no league (the
// request carries the session cookie: same origin). A game form adds the choice to its body as
// "league": select.value when it is not "".
//   import { leaguePicker } from "./league-picker.js";
//   const pick = await leaguePicker("League", "No league");  if (pick) form.append(pick.label);
import { request } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export async function leaguePicker(labelText, noneText) {
	let data;
	try {
		data = await request("GET", "/leagues");
	} catch {
		return null;
	}
	if (!data || !data.leagues.length) return null;
	const select = h("select", { name: "league" }, new Option(noneText, ""), data.leagues.map((l) => new Option(l.name, l.id)));
	const label = h("label", { class: "field" }, h("span", {}, labelText), select);
	return { label, select };
}

/** leaguePicker() in the current language (strings new.league, new.no_league), only where someone
 * has logged in to the leagues (leagues.js leaves "dh.leagues.session"): the select gets id and
 * calls onchange(value); pick.relabel() rewords it after a change of language. */
export function leagueChoice(id, onchange) {
	if (!localStorage.getItem("dh.leagues.session")) return Promise.resolve(null);
	return leaguePicker(t("new.league"), t("new.no_league")).then((pick) => {
		if (!pick) return null;
		pick.select.id = id;
		pick.select.addEventListener("change", (e) => onchange(e.target.value));
		pick.relabel = () => {
			pick.label.firstChild.textContent = t("new.league");
			pick.select.options[0].text = t("new.no_league");
		};
		return pick;
	}).catch(() => null);
}
