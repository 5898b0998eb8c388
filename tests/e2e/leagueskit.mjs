// What the league screens' browser tests share (leagues.mjs: the screens by hand, members,
// seasons, every screen in both languages, the play form offline; leagues-files.mjs: plays that
// come from files; charts.mjs: the strings and a screen opened by its hash): the league strings,
// the API with a phone's session, a screen opened by its hash, a league made through the API, a
// BG Stats export made up, and the checks every screen gets.
import { BASE, assert, readJson, phoneLayoutCheck } from "./lib.mjs";

export const EN = readJson("static/i18n/leagues.en.json");
export const FR = readJson("static/i18n/leagues.fr.json");
export const origin = new URL(BASE).origin;

/** The API with p's session (cookies of its context) and this site's Origin. */
export async function call(p, method, path, data) {
	const r = await p.request.fetch(`${BASE}/api/v1${path}`, { method, data, headers: { Origin: origin } });
	const body = r.headers()["content-type"]?.includes("json") ? await r.json() : null;
	return { status: r.status(), body };
}

/** Opens the league screen of hash and waits for its element ready (the screen before is
 * cleared first, so ready cannot name an element of that one). */
export async function visit(p, hash, ready) {
	if (p.url().startsWith(`${BASE}/leagues.html`))
		await p.evaluate((h) => {
			document.getElementById("app").replaceChildren();
			if (location.hash.slice(1) === h) window.dispatchEvent(new HashChangeEvent("hashchange"));
			else location.hash = h;
		}, hash);
	else await p.goto(`${BASE}/leagues.html#${hash}`);
	await p.locator(ready).first().waitFor();
}

/** Nothing at 360 px wider than the screen, no two controls overlapping, no text spilling out of
 * its control, tap targets of 44 px (links in text and the drop zone's hidden file input
 * aside: the zone itself is the target; a summary as wide as its text, 44 px high). */
const layoutCheck = (p, name) => phoneLayoutCheck(p, name, {
	cut: "#app *", cutExempt: ".sr-only",
	controls: "#app button, #app a.button, #app input:not([type=checkbox]):not([type=radio]):not(.lg-file), #app select, #app textarea, #app summary",
	noText: "select, textarea, input", heightOnly: "summary",
});

/** A file's phone (360 × 740) and screen(p, name): axe-core (experimental rules on, collected by
 * the file's suite L), the layout, no string key left untranslated, a screenshot. */
export function leaguesKit(L) {
	const phone = (o = {}) => L.phone(o);
	async function screen(p, name) {
		await p.evaluate(() => window.scrollTo(0, 0)); // the sticky header at the top of the picture
		await L.shot(p, name, true);
		await L.audit(p, name);
		const text = await p.locator("body").innerText();
		const raw = text.match(/\b(?:auth|leagues?|members|seasons|owners|files|import|reason|rule|field|play|history|h2h|action)\.[a-z][a-z_.-]*\b/);
		assert(!raw, `${name}: a string key on the screen: ${raw && raw[0]}`);
		await layoutCheck(p, name);
	}
	return { phone, screen };
}

/** A BG Stats export of n plays of game among players (names), with a play lacking a date and
 * one without players among them (skipped with their reasons). */
export function bgstatsFile(n, players, game, bggId, uuidBase = "30000000") {
	const plays = [];
	for (let i = 0; i < n; i++) {
		const seats = players.map((_, k) => ({ playerRefId: k + 1, score: String(((i * 7 + k * 13) % 50) + 10), winner: false, newPlayer: false, startPlayer: false, rank: 0, seatOrder: k, role: "a note to make the file as large as real ones are" }));
		plays.push({ uuid: `${uuidBase}-0000-4000-8000-${String(i).padStart(12, "0")}`, playDate: `20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 10} 20:00:00`, gameRefId: 1, durationMin: 30, ignored: false, manualWinner: false, bggId: 0, comments: "imported from the app", playerScores: seats });
	}
	if (n > 2) {
		plays[1].playDate = "";
		plays[2].playerScores = [];
	}
	return JSON.stringify({
		games: [{ id: 1, uuid: "20000000-0000-4000-8000-000000000001", name: game, bggId, cooperative: false, highestWins: true, noPoints: false, usesTeams: false }],
		players: players.map((name, k) => ({ id: k + 1, uuid: `10000000-0000-4000-8000-${String(k + 1).padStart(12, "0")}`, name, isAnonymous: false })),
		locations: [],
		plays,
	});
}

/** A league of the logged-in page's account made through the API, with guests (names) and
 * plays ([game, date, {name: score}]): {lid (encoded), id, ids: name → member id}. */
export async function newLeague(p, name, guests = [], plays = []) {
	const { body: lg } = await call(p, "POST", "/leagues", { name });
	const ids = { [lg.members[0].name]: lg.members[0].id };
	for (const g of guests) ids[g] = (await call(p, "POST", `/leagues/${lg.id}/members`, { name: g })).body.id;
	for (const [game, date, scores] of plays) {
		const r = await call(p, "POST", `/leagues/${lg.id}/plays`, { game, date, results: Object.entries(scores).map(([n, score]) => ({ player: ids[n], score })) });
		assert(r.status === 201, `play: ${r.status} ${JSON.stringify(r.body)}`);
	}
	return { lid: encodeURIComponent(lg.id), id: lg.id, ids };
}
