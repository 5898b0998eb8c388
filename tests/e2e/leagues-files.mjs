// End-to-end tests of the league screens (static/leagues.html) with plays that come from files,
// in headless Debian chromium at 360 × 740: the import's drop zone with its progress and a result
// that stays, spreadsheets through the column mapping, one game in the filter however a file
// spells it, a real export's team play listed team by team and teammates in head-to-head, and a
// BGG play's seat details and missing date on its page and in its edit; axe-core with no
// violation, nothing cut or overlapping, and no script error or external request.
// Run by all.mjs (lib.mjs: the runner, phones, axe; leagueskit.mjs: what the league tests share).
import { readFileSync } from "node:fs";
import { BASE, ROOT, assert, suite } from "./lib.mjs";
import { EN, bgstatsFile, call, leaguesKit, newLeague, origin, visit } from "./leagueskit.mjs";

const L = suite("leagues-files");
const { test } = L;
const { phone, screen } = leaguesKit(L);

// this file's account: "Ann", the first member of each of its leagues
const page = await phone();
await call(page, "POST", "/accounts", { email: "files@example.org", password: "e2e password", display_name: "Ann" });
await call(page, "POST", "/sessions", { email: "files@example.org", password: "e2e password" });

/** Drops a file on the drop zone as a finger or a mouse does (a DataTransfer with the file). */
async function dropFile(p, name, text, type) {
	const dt = await p.evaluateHandle(([n, t, ty]) => {
		const d = new DataTransfer();
		d.items.add(new File([t], n, { type: ty }));
		return d;
	}, [name, text, type]);
	await p.dispatchEvent('[data-testid="dropzone"]', "dragenter", { dataTransfer: dt });
	await p.dispatchEvent('[data-testid="dropzone"]', "drop", { dataTransfer: dt });
}

/** Records every state the drop zone goes through, and its progress bar's values. */
const watchImport = (p) =>
	p.evaluate(() => {
		window.__states = [];
		window.__values = [];
		new MutationObserver((ms) => {
			for (const m of ms) {
				if (m.attributeName === "data-state") window.__states.push(m.target.dataset.state);
				// each change's previous value: the last one set before the bar turned indeterminate
				if (m.attributeName === "value" && m.target.tagName === "PROGRESS" && m.oldValue !== null) window.__values.push(Number(m.oldValue));
			}
		}).observe(document.body, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["data-state", "value"] });
	});

await test("leagues-import-drop-zone-progress-and-result", async () => {
	// a 2 MB BG Stats file dropped on the zone: sent with progress, then imported; the result
	// stays (counts, and the skipped plays in words) after the screen reloads its data
	const { lid } = await newLeague(page, "Import club");
	await visit(page, `league=${lid}`, '[data-testid="dropzone"]');
	assert(await page.getByText(EN["import.drop"]).isVisible(), "the zone says what to do");
	const big = bgstatsFile(5000, ["Ann", "Bea", "Cid", "Dot"], "Wingspan", 266192);
	assert(big.length > 2e6, `a large file: ${big.length}`);
	await watchImport(page);
	await dropFile(page, "bgstats-export.json", big, "application/json");
	const result = page.locator('[data-testid="import-result"]');
	await result.waitFor({ timeout: 60000 });
	const states = await page.evaluate(() => window.__states);
	const values = await page.evaluate(() => window.__values);
	const order = ["sending", "importing", "done"].map((x) => states.indexOf(x));
	assert(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1])), `sending, then importing, then done: ${states}`);
	assert(values.includes(100), `upload progress reached 100 %: ${values}`);
	const counts = await result.locator(".lg-counts dd").allInnerTexts();
	assert(JSON.stringify(counts) === JSON.stringify(["4998", "2", "3"]), `imported, skipped, new players: ${counts}`);
	assert(await result.getByText(EN["reason.no-date"], { exact: true }).isVisible(), "a skipped play's reason, in words");
	assert(await result.getByText(EN["reason.no-players"], { exact: true }).isVisible(), "the other reason");
	await result.getByText(EN["import.show_plays"]).first().click();
	assert(await result.getByText("Play 2 of the file").isVisible(), "which play of the file");
	// the screen shows the new plays, and the result is still there
	await page.locator('[data-testid="standing"]').first().waitFor();
	assert((await page.locator('[data-testid="standing"]').count()) === 4, "four players in the standings");
	assert(await result.isVisible(), "the result stays after the screen reloads its data");
	await screen(page, "leagues-import-result");
	// tap to choose: the same file again, every play a duplicate; the result is the new one
	await page.setInputFiles("#lg-file", { name: "again.json", mimeType: "application/json", buffer: Buffer.from(big) });
	await page.locator('[data-testid="import-result"] h3', { hasText: "again.json" }).waitFor({ timeout: 60000 });
	const again = await page.locator('[data-testid="import-result"] .lg-counts dd').allInnerTexts();
	assert(JSON.stringify(again) === JSON.stringify(["0", "5000", "0"]), `all skipped the second time: ${again}`);
	assert(await page.locator('[data-testid="import-result"]').getByText(EN["reason.duplicate"], { exact: true }).isVisible(), "duplicates said so");
	// a file that is no export at all: the refusal stays, in words
	await page.setInputFiles("#lg-file", { name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": 1}') });
	await page.locator('[data-testid="import-result"] h3', { hasText: "notes.json" }).waitFor();
	assert(await page.locator('[data-testid="import-result"] [role=alert]').getByText(EN["rule.malformed-file"]).isVisible(), "the refusal in words");
	await page.getByRole("button", { name: EN["import.close"] }).click();
	await page.locator('[data-testid="import-result"]').waitFor({ state: "detached" });
});

await test("leagues-import-spreadsheets-through-the-mapping", async () => {
	// real play logs (tests/api/data/csv-real/, sources in its README): the columns proposed,
	// a game named for every play where no column holds it, the first plays shown; Import
	const page = await phone();
	await call(page, "POST", "/accounts", { email: "sheets@example.org", password: "e2e password", display_name: "Ann" });
	await call(page, "POST", "/sessions", { email: "sheets@example.org", password: "e2e password" });
	const { lid } = await newLeague(page, "Spreadsheet club");
	await visit(page, `league=${lid}`, '[data-testid="dropzone"]');
	const csv = (name) => readFileSync(new URL(`tests/api/data/csv-real/${name}`, ROOT));
	const mapping = page.locator('[data-testid="csv-mapping"]');
	const result = page.locator('[data-testid="import-result"]');
	await page.setInputFiles("#lg-file", { name: "full_archive.csv", mimeType: "text/csv", buffer: csv("ws-leaderboard-archive.csv") });
	await mapping.waitFor();
	assert((await mapping.locator("#lg-csv-col-0").inputValue()) === "player:1", "team1 is the first seat");
	assert((await mapping.locator("#lg-csv-col-2").inputValue()) === "score:2", "score2 is the second seat's");
	assert(await mapping.getByRole("button", { name: EN["csv.import"] }).isDisabled(), "no game yet: nothing to import");
	await mapping.getByLabel(EN["csv.game_all"]).fill("Hades' Star");
	await mapping.getByLabel(EN["csv.game_all"]).press("Tab");
	await mapping.locator('[data-testid="csv-counts"]', { hasText: "40 plays to import" }).waitFor();
	const first = mapping.locator('[data-testid="csv-preview"] tbody tr').first();
	assert((await first.innerText()).includes("Hinterm Mond 130 ★"), `the first play: ${await first.innerText()}`);
	await screen(page, "leagues-import-csv-mapping");
	await mapping.getByRole("button", { name: EN["csv.import"] }).click();
	await result.locator("h3", { hasText: "full_archive.csv" }).waitFor({ timeout: 60000 });
	assert(JSON.stringify(await result.locator(".lg-counts dd").allInnerTexts()) === JSON.stringify(["40", "0", "54"]), "40 plays, 54 teams");
	await page.locator('[data-testid="recent-plays"]', { hasText: "Hades' Star" }).waitFor();
	// the proposed mapping as it is: a log naming each play's winner, and our own export as
	// LibreOffice saves it
	for (const [name, counts] of [["pga99-adventskalendar-plays.csv", ["23", "3"]], ["libreoffice-export.csv", null]]) {
		await page.setInputFiles("#lg-file", { name, mimeType: "text/csv", buffer: csv(name) });
		await mapping.locator('[data-testid="csv-preview"]').waitFor();
		await mapping.getByRole("button", { name: EN["csv.import"] }).click();
		await result.locator("h3", { hasText: name }).waitFor({ timeout: 60000 });
		const got = await result.locator(".lg-counts dd").allInnerTexts();
		assert(!counts || JSON.stringify(got.slice(0, 2)) === JSON.stringify(counts), `${name}: ${got}`);
		assert(Number(got[0]) > 20 && got[1] === (counts ? counts[1] : "0"), `${name}: ${got}`);
	}
	await page.locator('[data-testid="standing"]', { hasText: "Arlen Pan" }).waitFor();
	await page.context().close();
});
await test("leagues-one-game-in-the-filter", async () => {
	// typed by hand as "Dice Hospital: ER", imported as "Dice Hospital: ER – Emergency Roll"
	const { id, lid } = await newLeague(page, "Games club", ["Bea"], [["Dice Hospital: ER", "2026-03-07", { Ann: 40, Bea: 30 }]]);
	const r = await page.request.post(`${BASE}/api/v1/leagues/${id}/import?format=bgstats`, { headers: { Origin: origin, "Content-Type": "application/json" }, data: bgstatsFile(3, ["Ann", "Bea"], "Dice Hospital: ER – Emergency Roll", 0, "40000000") });
	assert(r.status() === 200, `import: ${r.status()}`);
	await visit(page, `league=${lid}`, '[data-testid="standings"]');
	const options = await page.locator("#app select option").allTextContents();
	const er = options.filter((o) => /Dice Hospital/.test(o));
	assert(JSON.stringify(er) === JSON.stringify(["Dice Hospital: ER – Emergency Roll"]), `one game: ${options}`);
	await page.evaluate(() => (document.querySelector('[data-testid="standings"]').dataset.before = "1"));
	await page.locator("#lg-game").selectOption(er[0]);
	await page.locator('[data-testid="standings"]:not([data-before]) [data-testid="standing"]').first().waitFor();
	const games = await page.locator('[data-testid="standing"]', { hasText: "Bea" }).locator(".lg-stats dd").first().innerText();
	assert(games === "2", `Bea's plays of the game, both spellings: ${games}`);
});
await test("leagues-team-play-and-head-to-head", async () => {
	// a real BG Stats export (tests/api/data/bgstats-real/README.md): Wavelength, 10 seats in two
	// teams, the winning team on 10 points
	// its own phone and account: runs alone too (ONLY=team)
	const tp = await phone();
	await call(tp, "POST", "/accounts", { email: "tess@example.org", password: "tess password", display_name: "Tess" });
	const signin = await call(tp, "POST", "/sessions", { email: "tess@example.org", password: "tess password" });
	assert(signin.status < 300, `Tess signs in: ${signin.status}`);
	const { id, lid } = await newLeague(tp, "Team club");
	const file = readFileSync(new URL("../api/data/bgstats-real/michaelgao8-2021.json", import.meta.url), "utf8");
	const r = await tp.request.post(`${BASE}/api/v1/leagues/${id}/import?format=bgstats`, { headers: { Origin: origin, "Content-Type": "application/json" }, data: file });
	assert(r.status() === 200, `import: ${r.status()}`);
	const { body: list } = await call(tp, "GET", `/leagues/${id}/plays?limit=500`);
	const play = list.plays.find((x) => x.game === "Wavelength" && x.players.length === 10) || list.plays.find((x) => x.game === "Wavelength");
	await visit(tp, `play=${lid}/${encodeURIComponent(play.id)}`, '[data-testid="play-results"] tbody.lg-team');
	const groups = await tp.locator('[data-testid="play-results"] tbody.lg-team').evaluateAll((bs) => bs.map((b) => ({ head: b.querySelector("th").textContent, rows: [...b.querySelectorAll("td:first-child a")].map((a) => a.textContent.trim()) })));
	assert(groups.length === 2 && groups.every((g) => /^Team [01]$/.test(g.head)), JSON.stringify(groups));
	const one = groups.find((g) => g.head === "Team 1");
	assert(one && one.rows.includes("Carrie Diamond") && !one.rows.includes("Chris Lew"), JSON.stringify(groups));
	await screen(tp, "leagues-team-play");
	// head-to-head: Carrie and Ian were teammates in Wavelength, which is not counted against
	await visit(tp, `h2h=${lid}`, "#lg-h2h-player");
	await tp.getByLabel("Player").selectOption({ label: "Carrie Diamond" });
	const ian = tp.locator('[data-testid="h2h"] li', { hasText: "Ian George" });
	await ian.waitFor();
	assert(/On the same team in \d+ plays? \(not counted against each other\)\./.test(await ian.innerText()), await ian.innerText());
	await screen(tp, "leagues-h2h-teammates");
	await tp.context().close();
});
await test("leagues-seat-details-and-no-date", async () => {
	// a BGG play logged without a date, its seats' color, startposition and new: shown on its page
	const { id, lid } = await newLeague(page, "Seat club");
	const xml = '<plays><play id="7" date="0000-00-00" quantity="1"><item name="Star Wars: Unlock!" objectid="1"/><players>' +
		'<player name="Ann" startposition="1" color="Darth Vader Starter" score="12" new="1" win="1"/><player name="Bea" startposition="2" color="Luke" score="9" new="0" win="0"/></players></play></plays>';
	const r = await page.request.post(`${BASE}/api/v1/leagues/${id}/import?format=bggxml`, { headers: { Origin: origin, "Content-Type": "application/xml" }, data: xml });
	assert(r.status() === 200, `import: ${r.status()}`);
	const { body } = await call(page, "GET", `/leagues/${id}/plays`);
	await page.goto(`${BASE}/leagues.html#`);
	await page.selectOption("#lang", "en"); // the words the test reads
	await page.getByRole("heading", { name: EN["leagues.mine"] }).waitFor();
	await visit(page, `play=${lid}/${encodeURIComponent(body.plays[0].id)}`, '[data-testid="seat-details"]');
	const seats = await page.locator('[data-testid="seat-details"]').allInnerTexts();
	assert(JSON.stringify(seats) === JSON.stringify([`Darth Vader Starter · ${EN["play.seat_new"]} · start position 1`, "Luke · start position 2"]), `each seat's details: ${seats}`);
	assert(await page.locator("p.muted", { hasText: EN["play.undated"] }).isVisible(), "no date, in words");
	await screen(page, "leagues-play-seats");
	// an edit that leaves the date empty keeps the play undated
	await page.getByRole("link", { name: EN["play.edit"] }).click();
	assert((await page.getByLabel("Date").inputValue()) === "", "no date in the form");
	await screen(page, "leagues-edit-undated");
	await page.getByRole("button", { name: "Save the play" }).click();
	await page.getByText(EN["play.saved"]).waitFor();
	assert(await page.locator("p.muted", { hasText: EN["play.undated"] }).isVisible(), "still without a date");
	assert((await page.locator('[data-testid="seat-details"]').count()) === 2, "the seats keep their details");
	// counted in the standings; the pictures, which place plays in time, leave it out
	await visit(page, `league=${lid}`, '[data-testid="standing"]');
	assert((await page.locator('[data-testid="standing"]').count()) === 2, "both players in the standings");
});
await L.finish("leagues-files");
