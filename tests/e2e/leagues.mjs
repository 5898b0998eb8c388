// End-to-end test of the league screens (static/leagues.html) in headless Debian
// chromium: sign up, create a league, add members, add two plays by hand, read the standings
// (rating with its provisional mark, sorting), a player's history with its rating chart, a
// play's summary, the French strings, and no script error or external request.
// Started by tests/e2e/run.sh with BASE_URL and SHOTS; prints PASS/FAIL lines like run.mjs.
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";

const BASE = process.env.BASE_URL || "http://127.0.0.1:8080";
const SHOTS = process.env.SHOTS || "build/e2e";
const ROOT = new URL("../../", import.meta.url);
const FR = JSON.parse(readFileSync(new URL("static/i18n/leagues.fr.json", ROOT), "utf8"));
mkdirSync(SHOTS, { recursive: true });
let failed = 0;
const errors = [];

async function test(name, fn) {
	if (process.env.ONLY && !name.includes(process.env.ONLY)) return; // ONLY=part-of-a-name
	const t0 = Date.now();
	try {
		await fn();
		console.log(`PASS ${name} (${Date.now() - t0} ms)`);
	} catch (e) {
		failed++;
		console.log(`FAIL ${name}\n${String(e && e.stack ? e.stack : e).split("\n").slice(0, 6).map((l) => `  ${l}`).join("\n")}`);
	}
}

function assert(cond, msg) {
	if (!cond) throw new Error(msg);
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	headless: true,
	args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-dev-shm-usage"],
});
const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "en-GB" });
await ctx.route((url) => !url.href.startsWith(BASE), (route) => {
	errors.push(`external request: ${route.request().url()}`);
	return route.abort();
});
const page = await ctx.newPage();
page.setDefaultTimeout(8000);
page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));

await test("leagues-signup-to-standings", async () => {
	await page.goto(`${BASE}/index.html`);
	await page.locator('a[href="leagues.html"]').click();
	await page.getByRole("button", { name: "Create an account" }).click();
	await page.getByLabel("E-mail").fill("e2e@example.org");
	await page.getByLabel("Your name in the league").fill("Ann");
	await page.getByLabel("Password (8 characters or more)").fill("e2e password");
	await page.locator("form button[type=submit]").click();
	await page.getByRole("heading", { name: "My leagues" }).waitFor();
	await page.getByLabel("League name").fill("Tuesday club");
	await page.getByRole("button", { name: "Create the league" }).click();
	await page.getByRole("heading", { name: "Tuesday club" }).waitFor();
	for (const name of ["Bea", "Cid"]) {
		await page.getByLabel("Name", { exact: true }).fill(name);
		await page.getByRole("button", { name: "Add", exact: true }).click();
		await page.locator("li", { hasText: name }).first().waitFor();
	}
	// two plays by hand: scores decide the ranks
	const plays = [
		{ Ann: 50, Bea: 40, Cid: 30 },
		{ Ann: 20, Bea: 45 },
	];
	for (const [k, scores] of plays.entries()) {
		await page.getByRole("link", { name: "Add a play" }).click();
		await page.getByLabel("Game", { exact: true }).fill("Azul");
		await page.getByLabel("Date").fill(`2026-03-0${k + 1}`);
		for (const [who, score] of Object.entries(scores)) {
			await page.getByLabel(who, { exact: true }).check();
			await page.getByLabel(`Score ${who}`).fill(String(score));
		}
		await page.getByRole("button", { name: "Save the play" }).click();
		await page.getByRole("heading", { name: "Azul" }).waitFor();
		await page.getByRole("link", { name: "Back" }).click();
		await page.getByRole("heading", { name: "Standings" }).waitFor();
	}
	const rows = page.locator('[data-testid="standings"] tbody tr');
	assert((await rows.count()) === 3, "three players in the standings");
	const first = await rows.first().innerText();
	assert(/Ann|Bea/.test(first), `a winner leads: ${first}`);
	assert((await page.locator('[data-testid="standings"] .lg-prov').count()) === 3, "every rating is provisional after two plays");
	// sort by games played, then by name
	await page.getByRole("button", { name: "Player" }).click();
	const names = await page.locator('[data-testid="standings"] tbody tr td:first-child').allInnerTexts();
	assert(JSON.stringify(names) === JSON.stringify(["Ann", "Bea", "Cid"]), `sorted by name: ${names}`);
	await page.screenshot({ path: `${SHOTS}/leagues-standings.png`, fullPage: true });
	// a player's history with the rating chart
	await page.locator('[data-testid="standings"] a', { hasText: "Bea" }).click();
	await page.getByRole("heading", { name: "History of Bea" }).waitFor();
	await page.locator("svg.lg-chart polyline").waitFor();
	assert((await page.locator("table.lg-table tbody tr").count()) === 2, "two plays in Bea's history");
	await page.screenshot({ path: `${SHOTS}/leagues-history.png`, fullPage: true });
	// a play's summary
	await page.locator("table.lg-table tbody tr a").first().click();
	await page.getByRole("heading", { name: "Azul" }).waitFor();
	assert((await page.locator("table.lg-table tbody tr").count()) === 2, "the last play had two players");
});

await test("leagues-french", async () => {
	await page.selectOption("#lang", "fr");
	await page.goto(`${BASE}/leagues.html#`);
	await page.getByRole("heading", { name: FR["leagues.mine"] }).waitFor();
	await page.locator("a.button", { hasText: "Tuesday club" }).click();
	await page.getByRole("heading", { name: FR["league.standings"] }).waitFor();
	await page.getByRole("link", { name: FR["league.add_play"] }).waitFor();
	await page.screenshot({ path: `${SHOTS}/leagues-fr.png`, fullPage: true });
});

// api.md Conventions: a play keeps the local time and offset it was recorded with. At 23:30
// on 31 December in New York (04:30 UTC on 1 January) a play added with today's date is a
// play of 31 December, with the phone's offset.
await test("leagues-play-keeps-local-date-and-offset", async () => {
	const ny = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: "en-GB", timezoneId: "America/New_York" });
	await ny.addCookies(await ctx.cookies());
	const p2 = await ny.newPage();
	p2.setDefaultTimeout(8000);
	p2.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
	await p2.clock.setFixedTime(new Date("2027-01-01T04:30:00Z"));
	await p2.goto(`${BASE}/leagues.html#`);
	await p2.locator("a.button", { hasText: "Tuesday club" }).click();
	await p2.getByRole("link", { name: "Add a play" }).click();
	await p2.getByLabel("Game", { exact: true }).fill("Hanabi");
	assert((await p2.getByLabel("Date").inputValue()) === "2026-12-31", "today is the phone's local date");
	for (const [who, score] of Object.entries({ Ann: 20, Bea: 18 })) {
		await p2.getByLabel(who, { exact: true }).check();
		await p2.getByLabel(`Score ${who}`).fill(String(score));
	}
	await p2.getByRole("button", { name: "Save the play" }).click();
	await p2.getByRole("heading", { name: "Hanabi" }).waitFor();
	assert(await p2.getByText("2026-12-31").first().isVisible(), "the play page shows 31 December");
	const dates = await p2.evaluate(async () => {
		const ls = await (await fetch("/api/v1/leagues", { credentials: "same-origin" })).json();
		const lid = ls.leagues.find((l) => l.name === "Tuesday club").id;
		const pl = await (await fetch(`/api/v1/leagues/${lid}/plays?limit=500`, { credentials: "same-origin" })).json();
		return pl.plays.filter((x) => x.game === "Hanabi").map((x) => x.date);
	});
	assert(dates.length === 1 && /^2026-12-31T23:30:00-05:00$/.test(dates[0]), `stored with its offset: ${dates}`);
	await ny.close();
});

await test("leagues-long-lists", async () => {
	// 61 more plays through the API, past a page of 50: Bea's history shows every play, and the
	// league's recent plays grow with "More plays" until all are listed
	await page.selectOption("#lang", "en");
	await page.goto(`${BASE}/leagues.html#`);
	await page.getByRole("heading", { name: "My leagues" }).waitFor();
	const origin = new URL(BASE).origin;
	const { leagues } = await (await page.request.get(`${BASE}/api/v1/leagues`)).json();
	const lid = leagues.find((l) => l.name === "Tuesday club").id;
	const lg = await (await page.request.get(`${BASE}/api/v1/leagues/${lid}`)).json();
	const id = (name) => lg.members.find((m) => m.name === name).id;
	for (let i = 0; i < 61; i++) {
		const date = `2026-04-${String(1 + (i % 28)).padStart(2, "0")}`;
		const r = await page.request.post(`${BASE}/api/v1/leagues/${lid}/plays`, { headers: { Origin: origin }, data: { game: "Azul", date, results: [{ player: id("Bea"), score: i }, { player: id("Cid"), score: 30 }] } });
		assert(r.status() === 201, `play ${i}: ${r.status()}`);
	}
	await page.goto(`${BASE}/leagues.html#player=${encodeURIComponent(id("Bea"))}`);
	await page.getByRole("heading", { name: "History of Bea" }).waitFor();
	await page.locator("svg.lg-chart polyline").waitFor();
	const rows = await page.locator("table.lg-table tbody tr").count();
	const hist = await (await page.request.get(`${BASE}/api/v1/players/${encodeURIComponent(id("Bea"))}/history?limit=1`)).json();
	assert(hist.total > 61 && rows === hist.total, `every play in Bea's history: ${rows} of ${hist.total}`);
	await page.goto(`${BASE}/leagues.html#league=${encodeURIComponent(lid)}`);
	const recent = page.locator('[data-testid="recent-plays"] li');
	await recent.first().waitFor();
	assert((await recent.count()) === 10, "ten recent plays at first");
	const more = page.getByRole("button", { name: "More plays" });
	const all = (await (await page.request.get(`${BASE}/api/v1/leagues/${lid}/plays?limit=1`)).json()).total;
	for (const n of [60, Math.min(110, all)]) {
		await more.click();
		await page.waitForFunction((k) => document.querySelectorAll('[data-testid="recent-plays"] li').length === k, n);
	}
	await more.waitFor({ state: "hidden" });
});

await test("leagues-logout", async () => {
	await page.selectOption("#lang", "en");
	await page.goto(`${BASE}/leagues.html#`);
	await page.getByRole("button", { name: "Log out" }).click();
	await page.getByRole("heading", { name: "Log in" }).waitFor();
	await page.reload();
	await page.getByRole("heading", { name: "Log in" }).waitFor();
});

await test("leagues-installable-and-offline", async () => {
	// the league page links the manifest and registers the service worker, whose install keeps
	// the page and its files: it opens with the network cut (127.0.0.1 is a secure context)
	const c = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "en-GB" });
	await c.route((url) => !url.href.startsWith(BASE), (route) => {
		errors.push(`external request: ${route.request().url()}`);
		return route.abort();
	});
	const p = await c.newPage();
	p.setDefaultTimeout(8000);
	p.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
	await p.goto(`${BASE}/leagues.html`);
	await p.getByRole("heading", { name: "Log in" }).waitFor();
	const manifest = await p.locator('link[rel="manifest"]').getAttribute("href");
	assert(manifest === "manifest.webmanifest", `manifest link: ${manifest}`);
	assert(await p.evaluate(async (href) => (await fetch(href)).ok, manifest), "the manifest is served");
	const ready = await p.evaluate(() => Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), 6000))]));
	assert(ready, "leagues.html registers the service worker");
	// straight after the install: what the worker keeps by itself, not what it met on the way
	const files = ["leagues.html", "leagues.js", "leagues.css", "i18n/leagues.en.json", "i18n/leagues.fr.json", "app.css", "api.js", "dom.js"];
	const kept = await p.evaluate((fs) => Promise.all(fs.map((f) => caches.match(new URL(f, location.href).href).then((r) => !!r))), files);
	const missing = files.filter((f, i) => !kept[i]);
	assert(missing.length === 0, `not in the service worker's cache: ${missing}`);
	await c.setOffline(true);
	await p.reload();
	await p.locator("header .lg-nav", { hasText: "Leagues" }).waitFor();
	await p.locator("#app a.button").waitFor(); // the network's absence said, with a way back
	await p.screenshot({ path: `${SHOTS}/leagues-offline.png` });
	await c.setOffline(false);
	await c.close();
});

await test("leagues-no-script-errors", async () => {
	assert(errors.length === 0, errors.join("\n"));
});

await browser.close();
process.exit(failed ? 1 : 0);
