// Service worker (static/README.md "At the table for real"): the app shell, network first (an
// upgrade never mixes old modules), the cache when offline; no API but the game's fixed data.
const CACHE = "dh-shell-v19";
const DATA = "/api/v1/er/data";
const SHELL = ["./", "index.html", "app.css", "app.js", "main.js", "api.js", "i18n.js", "dom.js", "view.js", "home.js", "share.js", "bgstats-link.js", "theme.js",
	"game.js", "store.js", "queue.js", "derive.js", "turn.js", "table.js", "hexsheet.js", "i18n/en.json", "i18n/fr.json",
	"manifest.webmanifest", "icon.svg", "icon-192.png", "favicon.ico",
	// the screens loaded on their own routes: the coach, Dice Hospital and Clinic, leagues (the
	// new-game forms' league choice too), charts, challenges
	"coach.js", "coach.css", "i18n/coach.en.json", "i18n/coach.fr.json",
	"tabletop.js", "tabletop.css",
	...["shared", "widgets", "create", "join", "game", "head", "entry", "finish", "scores", "business", "refusal"].map((m) => `tabletop/${m}.js`), "i18n/tabletop.en.json", "i18n/tabletop.fr.json",
	"league-picker.js", "leagues.html", "leagues.js", ...["ui", "files", "members", "pictures", "play", "i18n"].map((m) => `leagues-${m}.js`), "csvimport.js", "consent.js", "charts.js", "leagues.css", "i18n/leagues.en.json", "i18n/leagues.fr.json",
	"challenges.js", "challenge.html", "challenge.js"];

self.addEventListener("install", (e) => {
	e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
	e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (e) => {
	const url = new URL(e.request.url);
	if (e.request.method !== "GET" || url.origin !== location.origin || (url.pathname.startsWith("/api/") && url.pathname !== DATA)) return;
	e.respondWith(
		fetch(e.request)
			.then((r) => {
				if (r.ok) {
					const copy = r.clone();
					caches.open(CACHE).then((c) => c.put(e.request, copy));
				}
				return r;
			})
			.catch(() => caches.match(e.request, { ignoreSearch: true }).then((r) => r || (e.request.mode === "navigate" ? caches.match("index.html") : Response.error()))),
	);
});
