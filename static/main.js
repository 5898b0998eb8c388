// Start-up and routing (static/README.md, "The ER screens").
import * as api from "./api.js";
import { t, setLang, preferredLang, onLangChange, addStrings } from "./i18n.js";
import { openGame } from "./game.js";
import { renderHome, renderCreated, renderJoin, renderPrint, renderNotHere, showGame } from "./home.js";
import { initTheme } from "./theme.js";

const app = document.getElementById("app");
let screen = null; // the open game screen, if any
let routeId = 0; // a screen drawn after an await checks it is still the current one

const params = () => new URLSearchParams(location.hash.replace(/^#/, ""));

// Dice Hospital and Clinic screens: loaded on first use; then every route goes through them.
let tabletop = null;
const loadTabletop = () =>
	Promise.all([import("./tabletop.js"), addStrings("tabletop")]).then(([m]) => (tabletop = m));

function route(langChanged = false) {
	const p = params();
	const id = p.get("game");
	showGame(p.get("tt") || (id && "er")); // #created, #print, #join: set by their screens
	if (screen && langChanged && id) return screen.render(document.documentElement.lang);
	if (screen) {
		screen.close();
		screen = null;
	}
	const mine = ++routeId;
	const isCurrent = () => mine === routeId;
	if (!langChanged) window.scrollTo(0, 0);
	if (tabletop && tabletop.tabletopRoute(app, p, langChanged)) return; // Dice Hospital and Clinic
	if (p.has("tt")) {
		loadTabletop().then((m) => isCurrent() && m.tabletopRoute(app, p));
		return;
	}
	if (id) {
		let token = p.get("token");
		const saved = api.savedGames()[id];
		if (token) {
			api.saveGame(id, { token });
			// the token now lives in this phone's storage: keep it out of the address bar
			history.replaceState(null, "", `#game=${encodeURIComponent(id)}`);
		} else token = saved && saved.token;
		// not on this phone: the seats of its table (a PDF's QR code carries the join code), or join by code
		if (!token) return p.has("join") ? renderJoin(app, p.get("join"), isCurrent, true) : renderNotHere(app);
		// the coach of a finished game's seat (coach.js, loaded on its route)
		if (p.has("coach")) return void import("./coach.js").then((m) => isCurrent() && (screen = m.openCoach(app, { id, token, seat: +p.get("coach") })));
		screen = openGame(app, { id, token, seat: saved && saved.seat });
		screen.render(document.documentElement.lang);
		return;
	}
	if (p.has("join")) return renderJoin(app, p.get("join"), isCurrent);
	if (p.has("print")) return renderPrint(app);
	if (p.has("created") && renderCreated(app, isCurrent)) return;
	renderHome(app, isCurrent, loadTabletop);
}

const langSelect = document.getElementById("lang");
// strings that do not arrive (no network, a page being left) keep the language shown
langSelect.addEventListener("change", () => setLang(langSelect.value).catch(() => (langSelect.value = document.documentElement.lang || "en")));
onLangChange((l) => {
	langSelect.value = l;
	route(true);
});
window.addEventListener("hashchange", () => route(false));

// The service worker (a secure context only; queue.js works without it).
function registerWorker() {
	if (!window.isSecureContext || !("serviceWorker" in navigator)) return;
	navigator.serviceWorker.register("sw.js").catch((e) => console.warn("service worker:", e.message));
}

export async function start() {
	initTheme(document.getElementById("theme"));
	try {
		await setLang(preferredLang(), false);
	} catch (e) {
		console.error(e);
		route();
	}
	registerWorker();
}
