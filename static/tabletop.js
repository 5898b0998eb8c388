// The Dice Hospital and Clinic screens' entry point (loaded by main.js on their routes, with
// i18n/tabletop.*.json): "#tt=dh" / "#tt=clinic" open the new-game and join forms, and
// "#tt=KIND&game=ID[&token=…]" a game's table, "#tt=KIND&check=PROFILE[&from=GAME]" the check of
// a scoring profile against the group's box (tabletop/boxcheck.js and its strings, loaded on that
// route only); "#tt=KIND&profile=ID" the new-game form with that profile chosen; tabletopNew() is
// the new-game form the home screen shows when the table plays one of these games. The screens
// themselves live in tabletop/: create.js and join.js (the forms), game.js (the table: head.js,
// entry.js, finish.js, scores.js, business.js). Strings: keys "tt.*" (screens), "ttr.*" (score
// reasons) and "ttrule.*" (refusals of the scorekeepers).
import { h } from "./dom.js";
import { t, addStrings } from "./i18n.js";
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
	const check = p.get("check");
	const key = `${kind}:${id || ""}:${check || ""}`;
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
	if (check) {
		current = { key, ...openCheckLater(app, kind, check, p.get("from")) };
		return true;
	}
	if (!id) {
		current = { key, ...openNew(app, kind, { profile: p.get("profile") }) };
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

/** The check screen, once its module and strings are loaded (a screen closed meanwhile stays closed). */
function openCheckLater(app, kind, profile, from) {
	let screen = null;
	let closed = false;
	Promise.all([import("./tabletop/boxcheck.js"), addStrings("tabletop.boxcheck")]).then(([m]) => {
		if (!closed) screen = m.openCheck(app, kind, profile, from);
	}).catch(() => !closed && app.replaceChildren(h("p", { class: "error", role: "alert" }, t("error.network"))));
	return {
		close: () => ((closed = true), screen && screen.close()),
		render: () => screen && screen.render(),
	};
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
		homeForm = { kind, box, screen: openNew(box, kind, { embedded: true }) };
	}
	slot.replaceChildren(homeForm.box);
}
