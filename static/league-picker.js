// The league choice of a new-game form (issue 10): a <label> with a <select> of the leagues of
// the logged-in account ("" = no league), or null when nobody is logged in or has no league.
// A game form adds the choice to its body as "league": select.value when it is not "".
//   import { leaguePicker } from "./league-picker.js";
//   const pick = await leaguePicker("League", "No league");  if (pick) form.append(pick.label);
export async function leaguePicker(labelText, noneText) {
	let data;
	try {
		const r = await fetch("/api/v1/leagues", { credentials: "same-origin", headers: { Accept: "application/json" } });
		if (!r.ok) return null;
		data = await r.json();
	} catch {
		return null;
	}
	if (!data.leagues.length) return null;
	const select = document.createElement("select");
	select.name = "league";
	select.append(new Option(noneText, ""));
	for (const l of data.leagues) select.append(new Option(l.name, l.id));
	const label = document.createElement("label");
	label.className = "field";
	const span = document.createElement("span");
	span.textContent = labelText;
	label.append(span, select);
	return { label, select };
}
