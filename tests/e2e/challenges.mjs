// End-to-end test of league challenges (static/challenge.html, challenges.js) in headless Debian
// chromium at 360 px: the owner opens a challenge from the league page; three members play it on
// three phones (three browser contexts) through the ER game screens; the board ranks them as
// they finish, refuses a second game, and no reply any phone got before the challenge closed
// holds its seed or a turn not yet dealt; the owner closes it; the board shows every sheet (and
// the coach's best sheet for the draw) and the league shows one rated play.
// EN and FR screenshots of each screen, axe on each. Run by all.mjs (lib.mjs: the runner, phones, axe).
import { BASE, assert, readJson, fill, suite, phoneLayoutCheck } from "./lib.mjs";
import { tapMove, waitTurn } from "./erkit.mjs";

const EN = readJson("static/i18n/leagues.en.json");
const FR = readJson("static/i18n/leagues.fr.json");
const C = suite("challenges");
const { test } = C;
const origin = new URL(BASE).origin;

/** The API with page's session (its context's cookies) and this site's Origin. */
async function call(p, method, path, data) {
	const r = await p.request.fetch(`${BASE}/api/v1${path}`, { method, data: data ?? (method === "POST" ? {} : undefined), headers: { Origin: origin } });
	const body = r.headers()["content-type"]?.includes("json") ? await r.json() : null;
	return { status: r.status(), body };
}

/** A phone of 360 × 740 whose every API reply is kept (what the phone could read). */
async function phoneOf(name) {
	const p = await C.phone();
	p.seen = [];
	p.reveals = 0;
	p.on("response", async (r) => {
		if (!r.url().includes("/api/v1/")) return;
		if (r.request().method() === "POST" && /\/turns$/.test(r.url()) && r.status() === 200) p.reveals++;
		const dealt = p.reveals;
		const body = await r.text().catch(() => "");
		p.seen.push({ url: r.url(), body, dealt });
	});
	const email = `${name.toLowerCase()}@example.org`;
	assert((await call(p, "POST", "/accounts", { email, password: "correct horse battery", display_name: name })).status === 201, "sign-up");
	assert((await call(p, "POST", "/sessions", { email, password: "correct horse battery" })).status === 200, "log-in");
	p.name = name;
	return p;
}

const layoutCheck = (p, name) => phoneLayoutCheck(p, name, {
	cut: "#app *", cutExempt: ".sr-only",
	controls: "#app button, #app a.button, #app input:not([type=checkbox]):not(.lg-file), #app select, #app summary",
	noText: "select, input", heightOnly: "summary",
});

/** Axe, the layout, no string key shown, a screenshot; in French too when asked. */
async function screen(p, name, { fr = false } = {}) {
	for (const l of fr ? ["en", "fr"] : [p.lang || "en"]) {
		if (fr) await setLang(p, l);
		await C.shot(p, `${name}${fr ? `-${l}` : ""}`, true);
		await C.audit(p, `${name}${fr ? `-${l}` : ""}`);
		const raw = (await p.locator("body").innerText()).match(/\b(?:challenge|rule)\.[a-z][a-z_.-]*\b/);
		assert(!raw, `${name}: a string key on the screen: ${raw && raw[0]}`);
		await layoutCheck(p, name);
	}
	if (fr) await setLang(p, "en");
}

async function setLang(p, l) {
	p.lang = l;
	const words = l === "fr" ? FR : EN;
	await p.selectOption("#lang", l);
	await p.locator("h2", { hasText: l === "fr" ? FR["challenge.ranking"] ?? FR["challenge.title"] : EN["challenge.ranking"] ?? EN["challenge.title"] }).first().waitFor().catch(() => {});
	await p.locator(`[data-l="nav.leagues"]`, { hasText: words["nav.leagues"] }).waitFor();
}

let ann, bea, cid, lid, board, seed;
const phones = () => [ann, bea, cid];

await test("a-owner-opens-a-challenge", async () => {
	ann = await phoneOf("Ann");
	bea = await phoneOf("Bea");
	cid = await phoneOf("Cid");
	const lg = (await call(ann, "POST", "/leagues", { name: "Friday club" })).body;
	lid = lg.id;
	for (const [p, name] of [[bea, "Bea"], [cid, "Cid"]]) {
		const inv = (await call(ann, "POST", `/leagues/${lid}/members`, { name, account: `${name.toLowerCase()}@example.org` })).body;
		assert((await call(p, "POST", `/invitations/${inv.invitation}/accept`)).status === 200, "accepted");
	}
	await ann.goto(`${BASE}/leagues.html#league=${lid}`);
	await ann.locator('[data-testid="challenge-new"] summary').click();
	await ann.fill('[data-testid="challenge-new"] input[name="name"]', "Friday draw");
	await ann.locator('input[name="mod"][value="preparation"]').check();
	await C.shot(ann, "challenge-new-form", true);
	await C.audit(ann, "challenge-new-form");
	await layoutCheck(ann, "challenge-new-form");
	await ann.locator('[data-testid="challenge-new"] button[type="submit"]').click();
	await ann.waitForURL(/challenge\.html#league=/);
	await ann.locator('[data-testid="challenge-status"]', { hasText: EN["challenge.status.open"] }).waitFor();
	board = new URL(ann.url()).hash;
	await screen(ann, "challenge-board-open", { fr: true });
});

/** Plays phone p's game to the end: turns by tapping up to tapTurns, the rest through the API
 * with the phone's own seat token (what the phone's screen would send). */
async function playGame(p, tapTurns) {
	await p.goto(`${BASE}/challenge.html${board}`);
	await p.locator('[data-testid="challenge-play"]').click();
	await p.waitForURL(/index\.html#game=/);
	const id = new URL(p.url()).hash.match(/game=([0-9a-f]+)/)[1];
	for (let n = 1; n <= tapTurns; n++) {
		await p.locator("#reveal").click();
		await tapMove(p);
		// the move landed before the API reads the game: the next turn shown, or the results
		if (n < 24) await waitTurn(p, n + 1);
		else await p.locator(".results .result").first().waitFor();
		if (n === 1 && p === ann) await C.shot(p, "challenge-game-turn1", true);
	}
	const token = await p.evaluate((g) => JSON.parse(localStorage.getItem("dh.er.games"))[g].token, id);
	for (;;) {
		const g = await (await p.request.get(`${BASE}/api/v1/er/games/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
		if (g.status === "finished") return { id, token, score: g.seats[0].score.total };
		let cur = g;
		if (g.next.action === "reveal") {
			p.reveals++; // counted before it is sent: the phone's screen hears of it live, maybe first
			cur = await (await p.request.post(`${BASE}/api/v1/er/games/${id}/turns`, { data: {}, headers: { Authorization: `Bearer ${token}` } })).json();
		}
		if ((cur.next.seats || []).includes(1)) {
			const t = cur.turn;
			const turn = { card: t.card, dice: t.dice, chief: t.chief_seat === 1, chief_die: t.chief_seat === 1 ? null : t.chief_die };
			const opts = (await (await p.request.post(`${BASE}/api/v1/er/moves/options`, { data: { sheet: cur.seats[0].sheet, turn } })).json()).options;
			const free = opts.filter((o) => turn.chief || o.die !== turn.chief_die).filter((o) => o.blood_bags === 0);
			const die = free.length ? free[(t.number * (p === bea ? 1 : 2)) % free.length].die : ["red", "yellow", "green"].find((c) => turn.chief || c !== turn.chief_die);
			const o = free.find((x) => x.die === die);
			const extra = CARDS.find((c) => c.id === t.card).bays[die].bonus === "extra";
			const steps = o ? [...(o.screen_first ? [{ screen: o.ward }] : []), { admit: o.patient, ward: o.ward, value: o.value, recolour: o.recolour }] : [{ morgue: "die" }];
			if (extra) steps.push({ morgue: o && o.patient === "die" ? "extra" : o ? "die" : "extra" });
			const r = await p.request.post(`${BASE}/api/v1/er/games/${id}/seats/1/moves`, { data: { turn: t.number, move: { die, steps } }, headers: { Authorization: `Bearer ${token}` } });
			assert(r.status() === 200, `move ${t.number}: ${r.status()} ${await r.text()}`);
		}
	}
}

const CARDS = readJson("templates/er/cards.json").cards;
const games = {};
await test("b-three-phones-play-and-rank-live", async () => {
	// Ann's board stays open: the ranking follows the others' finished games
	games.Bea = await playGame(bea, 2);
	await ann.bringToFront();
	await ann.locator('[data-testid="challenge-board"] li', { hasText: "Bea" }).locator('[data-testid="challenge-score"]', { hasText: String(games.Bea.score) }).waitFor({ timeout: 15000 });
	games.Cid = await playGame(cid, 2);
	await ann.locator('[data-testid="challenge-board"] li', { hasText: "Cid" }).locator('[data-testid="challenge-score"]', { hasText: String(games.Cid.score) }).waitFor({ timeout: 15000 });
	games.Ann = await playGame(ann, 24);
	await ann.locator(".results .result").first().waitFor();
	await C.shot(ann, "challenge-game-end", true);
	// the finished game leads back to its challenge's board
	await ann.click("#challenge-back");
	await ann.waitForURL((u) => u.pathname.endsWith("/challenge.html") && u.hash === board);
	const rows = ann.locator('[data-testid="challenge-board"] li');
	await rows.nth(2).locator('[data-testid="challenge-score"]').filter({ hasNotText: EN["challenge.playing"] }).waitFor();
	// best first, each with the score of its game
	const shown = await rows.evaluateAll((els) => els.map((e) => [e.querySelector(".ch-name").textContent, Number(e.querySelector(".ch-score").textContent)]));
	assert(shown.every(([n, sc]) => games[n].score === sc), `scores ${JSON.stringify(shown)} ≠ ${JSON.stringify(games)}`);
	assert(shown.every(([, sc], i) => i === 0 || shown[i - 1][1] >= sc), `ranking ${JSON.stringify(shown)}`);
	await screen(ann, "challenge-board-live", { fr: true });
}, ["a-owner-opens-a-challenge"]);

await test("c-second-game-refused", async () => {
	const r = await call(bea, "POST", `/leagues/${lid}/challenges/${new URLSearchParams(board.slice(1)).get("id")}/games`);
	assert(r.status === 409 && r.body.rule === "challenge-already-played", JSON.stringify(r));
	// the board offers no second game: Bea's own game, on her phone
	await bea.goto(`${BASE}/challenge.html${board}`);
	await bea.locator('[data-testid="challenge-continue"]').waitFor();
	assert((await bea.locator('[data-testid="challenge-play"]').count()) === 0, "no play button");
}, ["b-three-phones-play-and-rank-live"]);

await test("d-owner-closes-best-sheet-and-one-rated-play", async () => {
	const before = phones().map((p) => p.seen.length); // what the phones got while it was open
	await ann.locator('[data-testid="challenge-close"]').click();
	await ann.locator('[data-testid="challenge-close-yes"]').click();
	await ann.locator('[data-testid="challenge-status"]', { hasText: EN["challenge.status.closed"] }).waitFor();
	// every sheet, the seed, the coach's best (or its absence said in words)
	await ann.locator('[data-testid="challenge-board"] details').first().locator("summary").click();
	await ann.locator('[data-testid="challenge-best"] p.muted').filter({ hasNotText: EN["challenge.best_wait"] }).waitFor({ timeout: 30000 });
	// the coach (merged from its branch) answers: the best sheet found for the draw, shown
	const best = await ann.locator('[data-testid="challenge-best"] p.muted').innerText();
	assert(best.startsWith(EN["challenge.best_total"].split("{")[0]), `the coach's best: ${best}`);
	await ann.locator('[data-testid="challenge-best"] .ch-sheet').waitFor();
	const b = (await call(ann, "GET", `/leagues/${lid}/challenges/${new URLSearchParams(board.slice(1)).get("id")}`)).body;
	seed = b.seed;
	assert(/^\d+$/.test(seed), `seed ${seed}`);
	await screen(ann, "challenge-board-closed", { fr: true });
	await ann.locator('[data-testid="challenge-board"] details summary').first().click();
	await ann.locator('[data-testid="challenge-board"] .ch-sheet').first().waitFor();
	await screen(ann, "challenge-board-closed-sheet");
	// no reply any phone got before closing holds the seed; no game state shows a turn not dealt
	for (const [k, p] of phones().entries())
		for (const r of p.seen.slice(0, before[k])) {
			assert(!r.body.includes(seed), `${p.name}: ${r.url} holds the seed`);
			if (/\/er\/games\/[0-9a-f]+$/.test(r.url.split("?")[0]) && r.body.startsWith("{")) {
				const g = JSON.parse(r.body);
				assert(!g.turn || g.turn.number <= r.dealt, `${p.name}: ${r.url} shows turn ${g.turn && g.turn.number} with ${r.dealt} dealt`);
			}
		}
	// one play of the league, rated, ranked by score
	const plays = (await call(ann, "GET", `/leagues/${lid}/plays`)).body;
	assert(plays.total === 1, `plays ${plays.total}`);
	const st = (await call(ann, "GET", `/leagues/${lid}/standings`)).body.standings;
	assert(st.length === 3 && st.every((r) => r.games === 1 && r.rated), JSON.stringify(st));
	await ann.locator('[data-testid="challenge-play-link"]').click();
	await ann.waitForURL(/leagues\.html#play=/);
	await ann.locator("h1").first().waitFor();
	await C.shot(ann, "challenge-league-play", true);
	await C.audit(ann, "challenge-league-play");
}, ["b-three-phones-play-and-rank-live"]);

await test("e-guest-link", async () => {
	const g = await C.phone();
	const ch = (await call(ann, "POST", `/leagues/${lid}/challenges`, { name: "Guests welcome", closes: new Date(Date.now() + 864e5).toISOString(), solo: false })).body;
	await g.goto(`${BASE}/challenge.html#code=${ch.code}`);
	await g.locator('input[name="name"]').waitFor();
	await screen(g, "challenge-guest", { fr: true });
	await g.locator('input[name="name"]').fill("Dot");
	await g.locator(".ch-guest button[type=submit]").click();
	await g.waitForURL(/index\.html#game=/);
	await g.locator("#reveal").waitFor();
	await g.goto(`${BASE}/challenge.html#code=${ch.code}`);
	await g.locator('[data-testid="challenge-continue"]').waitFor();
	await g.context().close();
}, ["a-owner-opens-a-challenge"]);

for (const p of phones()) if (p) await p.context().close();
await C.finish("challenges");
