// The Dice Hospital and Clinic screens' entry point (loaded by main.js on their routes, with
// i18n/tabletop.*.json): "#tt=dh" / "#tt=clinic" open the new-game and join forms, and
// "#tt=KIND&game=ID[&token=…]" a game's table; tabletopNew() is the new-game form the home
// screen shows when the table plays one of these games. The screens themselves live in
// tabletop/: create.js and join.js (the forms), game.js (the table: head.js, entry.js,
// finish.js, scores.js, business.js). Strings: keys "tt.*" (screens), "ttr.*" (score reasons)
// and "ttrule.*" (refusals of the scorekeepers).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { KINDS, saved, remember, gameRoute } from "./tabletop/shared.js";
import { openNew } from "./tabletop/create.js";
import { openGame } from "./tabletop/game.js";

let stylesAdded = false;
function addStyles() {
	if (stylesAdded) return;
	stylesAdded = true;
	document.head.append(h("link", { rel: "stylesheet", href: "tabletop.css" }));
}

let current = null; // the open screen: { key, close(), render() }

/** Handles "#tt=…" routes; returns false for any other route (after closing its own screen).
 * langChanged: the same route again in another language: the open screen rewords itself. */
export function tabletopRoute(app, p, langChanged = false) {
	const kind = p.get("tt");
	const id = p.get("game");
	const key = `${kind}:${id || ""}`;
	if (current && langChanged && current.key === key) {
		current.render();
		return true;
	}
	if (current) {
		current.close();
		current = null;
	}
	if (!KINDS.includes(kind)) return false;
	addStyles();
	if (!id) {
		current = { key, ...openNew(app, kind) };
		return true;
	}
	let token = p.get("token");
	if (token) {
		remember(id, { token, kind });
		history.replaceState(null, "", gameRoute(kind, id));
	} else token = (saved()[id] || {}).token;
	if (!token) {
		app.replaceChildren(h("section", { class: "panel" }, h("p", { role: "alert" }, t("game.not_found")), h("a", { class: "button", href: "#" }, t("nav.home"))));
		return true;
	}
	current = { key, ...openGame(app, kind, id, token) };
	return true;
}

/** The new-game form of kind in slot, for the home screen (which has the join form and is
 * home itself); again: a redraw of the same home screen, which keeps the form and what was
 * typed in it (reworded in the current language), else a fresh form. */
let homeForm = null; // { kind, box, screen }
export function tabletopNew(slot, kind, again) {
	addStyles();
	if (again && homeForm && homeForm.kind === kind) homeForm.screen.render();
	else {
		homeForm?.screen.close();
		const box = h("div");
		homeForm = { kind, box, screen: openNew(box, kind, true) };
	}
	slot.replaceChildren(homeForm.box);
}
