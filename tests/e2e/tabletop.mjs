// Browser test of the Dice Hospital and Clinic screens (static/tabletop.js, static/tabletop/) on a 360-px phone:
// a Dice Hospital game and a Clinic game entered round by round with the steppers to the final
// ranking and its tie-break, a second phone following live, the unverified badge, a refusal
// shown with its rule, and French. Run by all.mjs (lib.mjs).
import { BASE, api, assert, bgstatsPlay, localPlayDate, readJson, suite } from "./lib.mjs";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

// the screens' strings: the shared file and their own (i18n/tabletop.fr.json, loaded on their routes)
const FR = { ...readJson("static/i18n/fr.json"), ...readJson("static/i18n/tabletop.fr.json") };
const EN = { ...readJson("static/i18n/en.json"), ...readJson("static/i18n/tabletop.en.json") };
const T = suite("tabletop");
const { test } = T;
const phone = (locale = "en-GB") => T.phone({ locale, timeout: 8000 });

// Every screenshot is also a check that no string key leaked onto the screen untranslated
// (a missing key shows as "game.code").
const shot = async (page, name, fullPage = true) => {
	const text = await page.locator("body").innerText();
	const raw = text.match(/\b(?:game|tt|ttr|ttrule|nav|home|rule|league|leagues|pad|print)\.[a-z][a-z0-9_]*\b/);
	assert(!raw, `${name}: untranslated key on screen: ${raw && raw[0]}`);
	return T.shot(page, name, fullPage);
};

/** Taps the + of a stepper n times (the steppers are the only input: no keyboard). */
async function bump(page, seat, field, n) {
	const plus = page.locator(`.tt-stepper[data-seat="${seat}"][data-field="${field}"] button`).nth(1);
	for (let i = 0; i < n; i++) await plus.click();
}

async function saveAndWait(page, label) {
	await page.locator("#tt-save:not([disabled])").click();
	const ok = page.locator("#tt-msg").filter({ hasText: label }), err = page.locator("#tt-error");
	await ok.or(err).first().waitFor();
	assert(!(await err.count()), `refused: ${(await err.count()) ? await err.innerText() : ""}`);
}

async function noHorizontalScroll(page) {
	const w = await page.evaluate(() => document.documentElement.scrollWidth);
	assert(w <= 360, `the page scrolls sideways at 360 px: ${w}`);
}

async function createGame(page, kind, names) {
	await page.goto(BASE + "/");
	await page.locator(`#pick-${kind}`).click(); // the home screen's choice of game
	await page.locator("#tt-new").waitFor();
	for (let i = 2; i < names.length; i++) await page.click("#tt-add-player");
	for (let i = 0; i < names.length; i++) await page.fill(`input[name="tt-player${i + 1}"]`, names[i]);
	return page;
}

/** The finished game's "Log in BG Stats" link: the play the league records (the kind's game and
 * BGG id, the final totals and ranks, created_at to finished_at), Clinic's first in round 1's
 * turn order its start player. */
async function bgstatsChecked(page, kind, id, host) {
	const g = (await api("GET", `/${kind}/games/${id}`, undefined, host)).body;
	const first = (g.turn_orders || []).find((o) => o.round === 1)?.order[0];
	const want = {
		sourceName: "Dice Hospital companion", sourcePlayId: g.id, playDate: await localPlayDate(page, g.finished_at),
		durationMin: Math.round((Date.parse(g.finished_at) - Date.parse(g.created_at)) / 60000),
		game: kind === "dh" ? { name: "Dice Hospital", sourceGameId: "product:dh", highestWins: true, noPoints: false, bggId: 218121 }
			: { name: "Clinic", sourceGameId: "product:clinic", highestWins: true, noPoints: false, bggId: 272739 },
		players: g.standings.map((x) => ({ name: x.name, sourcePlayerId: `name:${x.name.toLowerCase()}`, winner: x.rank === 1, score: x.total, rank: x.rank,
			...(x.seat === first ? { startPlayer: true } : {}) })),
	};
	const bs = await bgstatsPlay(page);
	assert(isDeepStrictEqual(bs, want), `BG Stats play: ${JSON.stringify(bs)}\nwanted ${JSON.stringify(want)}`);
}

let H, P2, dhId;

await test("tt-a-dh-game-round-by-round", async () => {
	H = await phone();
	await createGame(H, "dh", ["Ann", "Bob", "Cy"]);
	await H.selectOption('select[name="tt-admin1"]', "most-discharged");
	await H.check('input[name="tt-variant-final_round_collections"]');
	// the default profile is the placeholders: flagged
	await H.locator("#tt-new .tt-badge").waitFor();
	await noHorizontalScroll(H);
	await shot(H, "tt-dh-new");
	await H.click("#tt-create");
	const code = await H.locator("#tt-code-shown").getAttribute("data-code");
	assert(/^[A-Z0-9]{6}$/.test(code), `code ${code}`);
	dhId = decodeURIComponent((await H.locator("#tt-open-host").getAttribute("href")).match(/game=([^&]+)/)[1]);
	await H.click("#tt-open-host");
	await H.locator("#tt-entry .tt-seat").first().waitFor();
	assert((await H.locator(".tt-profile-line .tt-badge").count()) === 1, "the unverified badge on the game");

	// a second phone joins seat 2 by code (the home screen's join form, then the table's seats by
	// name) and follows live
	P2 = await phone();
	await P2.goto(BASE + "/");
	await P2.fill("#join-code", code.toLowerCase());
	await P2.click("#join-go");
	await P2.locator('.seat[data-seat="2"]').click();
	await P2.locator("#tt-entry .tt-seat").first().waitFor();
	assert((await P2.locator("#tt-entry .tt-seat").count()) === 1, "a seat phone enters only its own seat");

	// rounds 1..8 on the host's phone, the whole table
	for (let r = 1; r <= 8; r++) {
		await bump(H, 1, "discharged.red", 1);
		await bump(H, 1, "discharged.yellow", 1);
		await bump(H, 1, "discharged.green", 1);
		await bump(H, 2, "discharged.red", 2);
		await bump(H, 2, "discharged.yellow", 1);
		await bump(H, 3, "discharged.yellow", 2);
		if (r === 1) await shot(H, "tt-dh-round");
		await saveAndWait(H, `Round ${r} saved`);
	}
	// the second phone got every round live: Ann 3 patients (6) + most discharged (+1) × 8
	await P2.locator('.tt-score[data-seat="1"] .tt-total[data-total="56"]').waitFor();
	// the reasons of a seat, with the unverified flag on the placeholder table
	await H.locator('.tt-score[data-seat="1"] .tt-score-head').click();
	await H.locator('.tt-score[data-seat="1"] .tt-reason[data-rule="administrator-most-discharged"]').first().waitFor();
	assert((await H.locator('.tt-score[data-seat="1"] .tt-reason.unverified[data-rule="discharge-table"]').count()) === 8, "8 unverified discharge lines");
	await noHorizontalScroll(H);
	await shot(H, "tt-dh-reasons");

	// the end of the game: Bob and Ann tie; fewest patients left decides
	await H.locator('[data-round="finish"]:not([disabled])').click();
	await bump(H, 1, "patients_left", 2);
	await bump(H, 1, "pips_left", 7);
	await bump(H, 2, "patients_left", 1);
	await bump(H, 2, "pips_left", 4);
	await bump(H, 2, "blood_bags", 7);
	await bump(H, 3, "collected", 2);
	await saveAndWait(H, "Final scores saved");
	await H.locator("#tt-standings li").first().waitFor();
	const rows = await H.locator("#tt-standings li").evaluateAll((els) => els.map((e) => [e.dataset.seat, e.dataset.rank, e.querySelector(".tt-tie")?.dataset.tie || ""]));
	// Ann 56 − 2 left = 54; Bob 6 × 8 + 7 bags − 1 left = 54: tied, Bob has fewer patients left;
	// Cy 3 × 8 + 2 collected = 26 (seed 000, END GAME SCORING; FINAL ROUND COLLECTIONS)
	const want = [["2", "1", "fewest-patients-left"], ["1", "2", "fewest-patients-left"], ["3", "3", ""]];
	assert(JSON.stringify(rows) === JSON.stringify(want), `ranking ${JSON.stringify(rows)}`);
	assert((await H.locator(".tt-tie").first().innerText()).includes("fewest patients left"), "the tie-break is worded");
	await P2.locator("#tt-standings li").first().waitFor();
	await noHorizontalScroll(H);
	await shot(H, "tt-dh-ranking");
});

await test("tt-b-dh-refusal-shows-rule", async () => {
	const page = await phone();
	await createGame(page, "dh", ["X", "Y"]);
	await page.click("#tt-create");
	await page.click("#tt-open-host");
	await page.locator("#tt-entry .tt-seat").first().waitFor();
	await bump(page, 1, "discharged.red", 12);
	await bump(page, 1, "discharged.yellow", 1);
	await page.locator("#tt-save").click();
	const err = page.locator("#tt-error");
	await err.waitFor();
	assert((await err.getAttribute("data-rule")) === "too-many-discharged", await err.innerText());
	assert((await err.getAttribute("data-field")) === "/entries/0/discharged", await err.getAttribute("data-field"));
	await page.context().close();
});

await test("tt-c-clinic-game-round-by-round", async () => {
	const page = await phone();
	await createGame(page, "clinic", ["Eve", "Flo"]);
	await page.check('input[name="tt-exp-zombies"]');
	await page.click("#tt-create");
	const code = await page.locator("#tt-code-shown").getAttribute("data-code");
	await page.click("#tt-open-host");
	// the Clinic screen's own join form
	const other = await phone();
	await other.goto(BASE + "/#tt=clinic");
	await other.fill("#tt-join-code", code);
	await other.click('#tt-join .seat[data-seat="2"]');
	await other.locator('#tt-entry .tt-seat[data-seat="2"]').waitFor();
	assert((await other.locator("#tt-entry .tt-seat").count()) === 1, "joined seat 2 only");
	await other.context().close();
	await page.locator("#tt-entry .tt-seat").first().waitFor();
	// the Business helper (seed 001, Phase 2: Business): 4 modules → $4 upkeep, 1 white doctor's
	// wage (a placeholder: flagged), 2 outpatients → $12; the rest buys popularity at $3
	await page.click("#tt-biz-toggle");
	const plus = page.locator('.tt-stepper[data-biz="outpatients"] button').nth(1);
	await plus.click();
	await plus.click();
	await page.click("#tt-biz-go");
	await page.locator("#tt-biz-out").waitFor();
	assert((await page.locator('[data-out="upkeep"] dd').innerText()).startsWith("$4"), await page.locator("#tt-biz-out").innerText());
	assert((await page.locator('[data-out="income"] dd').innerText()).startsWith("$12"), await page.locator("#tt-biz-out").innerText());
	// the placeholder wage is marked on its line, and one legend says what the mark means
	assert((await page.locator('[data-out="wages"] .tt-mark').count()) === 1, "the placeholder wage is flagged");
	assert((await page.locator("#tt-business .tt-legend").count()) === 1, "one legend for the marks");
	const affordable = (await page.locator('[data-out="affordable"] dd').innerText()).match(/^\d+/)[0];
	await page.click('[data-use="1"]');
	const bought = page.locator('.tt-stepper[data-seat="1"][data-field="popularity_bought"] output');
	assert((await bought.innerText()) === affordable, `helper → popularity bought ${await bought.innerText()} != ${affordable}`);
	await noHorizontalScroll(page);
	await shot(page, "tt-clinic-business");
	const minus = page.locator('.tt-stepper[data-seat="1"][data-field="popularity_bought"] button').first();
	for (let i = 0; i < Number(affordable); i++) await minus.click();
	for (let r = 1; r <= 6; r++) {
		await bump(page, 1, "popularity_bought", 2);
		await bump(page, 2, "popularity_bought", 1);
		await bump(page, 2, "lab_doctors", 1);
		await bump(page, 1, "time_spent", 3);
		await saveAndWait(page, `Round ${r} saved`);
	}
	assert(/Turn order/.test(await page.locator("#tt-turn-order").innerText()), "the turn order is shown");
	await page.locator('[data-round="finish"]:not([disabled])').click();
	await bump(page, 1, "doctors.red", 1);
	await bump(page, 2, "zombies", 1);
	await bump(page, 2, "patients_left.red", 1);
	await saveAndWait(page, "Final scores saved");
	// Eve 12 + 4 − 6 = 10 ; Flo 6 + 6 + 9 − 4 = 17
	const rows = await page.locator("#tt-standings li").evaluateAll((els) => els.map((e) => [e.dataset.seat, e.dataset.rank]));
	assert(JSON.stringify(rows) === JSON.stringify([["2", "1"], ["1", "2"]]), `ranking ${JSON.stringify(rows)}`);
	assert((await page.locator('.tt-score[data-seat="2"] .tt-total').getAttribute("data-total")) === "17", "Flo 17");
	await noHorizontalScroll(page);
	await shot(page, "tt-clinic-ranking");
	await page.context().close();
});

await test("tt-d-french", async () => {
	const page = await phone("fr-FR");
	await page.goto(BASE + "/#tt=clinic");
	await page.locator("#tt-new").waitFor();
	const title = await page.locator("#tt-new h1").innerText();
	assert(title === FR["tt.new_clinic"], `French title: ${title}`);
	await page.goto(`${BASE}/#tt=dh&game=${encodeURIComponent(dhId)}`);
	// not this phone's game: no token here
	await page.locator("[role=alert]").waitFor();
	await page.context().close();
});

await test("tt-e-score-pads-download", async () => {
	// the finished Dice Hospital game of tt-a on the host's phone: a blank pad and this game's pad
	// (fetched with the token, saved from a blob), both real PDFs
	await H.locator("#tt-pad-blank").waitFor();
	const href = await H.locator("#tt-pad-blank").getAttribute("href");
	assert(href === "/api/v1/dh/pads.pdf?players=3&paper=a4&lang=en", href);
	for (const sel of ["#tt-pad-blank", "#tt-pad-game"]) {
		const [dl] = await Promise.all([H.waitForEvent("download"), H.click(sel)]);
		const body = readFileSync(await dl.path());
		assert(body.subarray(0, 5).toString() === "%PDF-" && body.length > 2000, `${sel}: a PDF (${body.length} bytes)`);
		if (sel === "#tt-pad-game") assert(/^dh-[A-Za-z0-9]+\.pdf$/.test(dl.suggestedFilename()), dl.suggestedFilename());
	}
	assert(!(await H.locator("#tt-error").count()), "no error after the downloads");
	await noHorizontalScroll(H);
	await H.evaluate(() => window.scrollTo(0, 0));
	await shot(H, "tt-dh-pad-links", false);
});

await test("tt-f-league-picker-and-report", async () => {
	// a logged-in league owner: the league choice in the ER and the Dice Hospital create forms
	// (the browser sends the session cookie), and the league's standings.pdf link
	const page = await phone();
	const post = (path, data) => page.request.post(BASE + path, { data, headers: { Origin: BASE } });
	assert((await post("/api/v1/accounts", { email: "pads@example.org", password: "pads password", display_name: "Ann" })).status() === 201, "signup");
	assert((await post("/api/v1/sessions", { email: "pads@example.org", password: "pads password" })).status() === 200, "login");
	const lg = await (await post("/api/v1/leagues", { name: "Pad club" })).json();
	assert(lg.id, JSON.stringify(lg));
	// the league screens mark this browser as logged in (without it the forms do not ask)
	await page.goto(`${BASE}/leagues.html#`);
	await page.locator("a.button", { hasText: "Pad club" }).waitFor();
	// Dice Hospital: the picker sits in the create form; the game is created in the league
	await createGame(page, "dh", ["Ann", "Bob"]);
	await page.locator("#tt-league").waitFor();
	await page.selectOption("#tt-league", lg.id);
	await noHorizontalScroll(page);
	await shot(page, "tt-dh-new-league");
	const [dh] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/v1/dh/games") && r.request().method() === "POST"), page.click("#tt-create")]);
	assert(dh.status() === 201 && dh.request().postDataJSON().league === lg.id, `dh created in the league: ${dh.status()}`);
	// ER: the same picker on the home screen's new-game form
	await page.goto(BASE + "/");
	await page.click("#pick-er");
	await page.locator("#new-league").waitFor();
	await page.selectOption("#new-league", lg.id);
	await page.fill('input[name="player1"]', "Ann");
	await page.fill('input[name="player2"]', "Bob");
	await noHorizontalScroll(page);
	await page.locator("#new-league").scrollIntoViewIfNeeded();
	await shot(page, "er-new-league", false);
	const [er] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/v1/er/games") && r.request().method() === "POST"), page.click("#create")]);
	assert(er.status() === 201 && er.request().postDataJSON().league === lg.id, `er created in the league: ${er.status()} ${await er.text()}`);
	// the league's screen: the report link gives a PDF
	await page.goto(`${BASE}/leagues.html#league=${encodeURIComponent(lg.id)}`);
	await page.locator("#lg-report-pdf").waitFor();
	const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#lg-report-pdf")]);
	const body = readFileSync(await dl.path());
	assert(body.subarray(0, 5).toString() === "%PDF-", `standings.pdf: a PDF (${body.length} bytes)`);
	await noHorizontalScroll(page);
	await shot(page, "leagues-report-link");
	await page.context().close();
});

await test("tt-g-live-update-redraws-only-what-changed", async () => {
	// the host has started entering round 1 when the seat-2 phone saves its own round: the host's
	// form keeps what was entered, seat 1's score line stays as it was (the same element), only
	// seat 2's changes; a language change rewords the table without losing the entry
	const host = await createGame(await phone(), "dh", ["Ann", "Bob"]);
	await host.click("#tt-create");
	const code = await host.locator("#tt-code-shown").getAttribute("data-code");
	await host.click("#tt-open-host");
	await host.locator('#tt-entry .tt-seat[data-seat="1"]').waitFor();
	const other = await phone();
	await other.goto(BASE + "/#tt=dh");
	await other.fill("#tt-join-code", code);
	await other.click('#tt-join .seat[data-seat="2"]');
	await other.locator('#tt-entry .tt-seat[data-seat="2"]').waitFor();
	await bump(host, 1, "discharged.red", 1);
	await host.evaluate(() => {
		window.ttForm = document.querySelector('#tt-entry .tt-seat[data-seat="1"]');
		window.ttLine = document.querySelector('.tt-score[data-seat="1"]');
		window.ttHead = document.querySelector(".tt-head").firstChild;
	});
	await bump(other, 2, "discharged.red", 2);
	await saveAndWait(other, "Round 1 saved");
	const total = await other.locator('.tt-score[data-seat="2"] .tt-total').getAttribute("data-total");
	assert(total !== "0", `seat 2 scored: ${total}`);
	await host.locator(`.tt-score[data-seat="2"] .tt-total[data-total="${total}"]`).waitFor();
	const same = await host.evaluate(() => [
		window.ttForm === document.querySelector('#tt-entry .tt-seat[data-seat="1"]'),
		window.ttLine === document.querySelector('.tt-score[data-seat="1"]'),
		window.ttHead === document.querySelector(".tt-head").firstChild,
	]);
	assert(JSON.stringify(same) === "[true,true,true]", `redrawn by the live update (form, seat 1's line, head): ${same}`);
	const red = host.locator('.tt-stepper[data-seat="1"][data-field="discharged.red"] output');
	assert((await red.innerText()) === "1", `the entry kept: ${await red.innerText()}`);
	await host.selectOption("#lang", "fr");
	await host.locator("#tt-entry h2", { hasText: FR["tt.round_title"].split("{")[0].trim() }).waitFor();
	assert((await red.innerText()) === "1", `the entry kept across the language change: ${await red.innerText()}`);
	await host.context().close();
	await other.context().close();
});

// ---- the second trial at the table: one notice, games that end early, errors at their field,
// final screens that rank, "Game ready" as ER's; English light and French dark ----

const LOOKS = [["en-GB", "light", EN], ["fr-FR", "dark", FR]];
const fill = (s, vars) => s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

/** The element is shown as a player sees it: visible, in the page's width, and what is drawn at
 * its middle is itself (or inside it), not something covering it. A locator's evaluate finds the
 * element first and runs on it after: a redraw in between (the LAN addresses arriving redraw
 * "Game ready") leaves it detached, with an empty box, so that case looks again. */
async function seen(page, loc, what) {
	let state = "detached";
	for (let i = 0; i < 50 && state === "detached"; i++) {
		if (i) await page.waitForTimeout(100);
		await loc.waitFor();
		state = await loc.evaluate((el) => {
			if (!el.isConnected) return "detached";
			el.scrollIntoView({ block: "center" });
			const r = el.getBoundingClientRect();
			if (!r.width || !r.height) return "not visible";
			const top = document.elementFromPoint(r.left + Math.min(r.width / 2, 24), r.top + r.height / 2);
			if (r.right > document.documentElement.clientWidth + 1) return "out of the screen";
			if (!top || !(el === top || el.contains(top) || top.contains(el))) return `covered by ${top ? top.outerHTML.slice(0, 80) : "nothing"}`;
			return "ok";
		});
	}
	assert(state === "ok", `${what}: ${state}`);
}

/** A Dice Hospital or Clinic table made through the API, rounds entered: {g, host}. */
async function tableWith(kind, names, rounds, entryOf, extra = {}) {
	const c = await api("POST", `/${kind}/games`, { players: names.map((name) => ({ name })), ...extra });
	assert(c.status === 201, `created: ${c.status} ${JSON.stringify(c.body)}`);
	for (let n = 1; n <= rounds; n++) {
		const r = await api("PUT", `/${kind}/games/${c.body.id}/rounds/${n}`, { entries: names.map((_, i) => entryOf(i + 1, n)) }, c.body.host_token);
		assert(r.status === 200, `round ${n}: ${r.status} ${JSON.stringify(r.body)}`);
	}
	return { g: c.body, host: c.body.host_token };
}

const dhEntry = (seat) => ({ seat, discharged: { red: seat, yellow: 1, green: 0 } });

await test("tt-h-end-early-and-the-final-screens", async () => {
	for (const [locale, colorScheme, W] of LOOKS) {
		const { g, host } = await tableWith("dh", ["Ann", "Bob", "Cy"], 3, dhEntry);
		const page = await T.phone({ locale, colorScheme, timeout: 20000 });
		await page.goto(`${BASE}/#tt=dh&game=${encodeURIComponent(g.id)}&token=${encodeURIComponent(host)}`);
		// after 3 of 8 rounds the End tab is open; the end asks only what fits an early end
		await page.locator('#tt-entry .tt-seat[data-seat="3"]').waitFor();
		await page.locator('[data-round="finish"]:not([disabled])').click();
		await seen(page, page.locator("#tt-early-note"), "the early-end note");
		assert((await page.locator("#tt-early-note").innerText()).trim() === fill(W["tt.finish_early_note"], { n: 3, total: 8 }), await page.locator("#tt-early-note").innerText());
		assert((await page.locator("#tt-entry h2").innerText()).trim() === fill(W["tt.finish_early_title"], { n: 3 }), "the end's title");
		assert((await page.locator('[data-field="pips_left"]').count()) === 0, "no pips asked after an early end");
		assert((await page.locator('[data-field="fatalities"]').count()) === 3, "fatalities asked");
		await bump(page, 1, "patients_left", 2);
		await bump(page, 3, "blood_bags", 2);
		await bump(page, 1, "blood_bags", 1); // a line from the rulebook: no mark
		await page.locator("#tt-save:not([disabled])").click();
		await page.locator("#tt-standings li").first().waitFor();
		assert((await page.locator("#tt-status").innerText()).includes(fill(W["tt.finished_early"], { n: 3, total: 8 })), await page.locator("#tt-status").innerText());
		// one notice for the game: the head's; none on totals, ranking or lines without a stand-in value
		assert((await page.locator(".tt-badge").count()) === 1, `one notice: ${await page.locator(".tt-badge").count()}`);
		await seen(page, page.locator(".tt-profile-line .tt-badge"), "the game's notice");
		// the ranking: ranks, and every score in one column whatever follows
		const st = await api("GET", `/dh/games/${g.id}`, undefined, host);
		const order = st.body.standings.map((x) => String(x.seat));
		const rights = await page.locator("#tt-standings .tt-final").evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().right)));
		assert(new Set(rights).size === 1, `scores aligned: ${rights}`);
		// the Scores list in the ranking's order with ranks, no seat numbers that read as ranks
		const lines = await page.locator(".tt-score").evaluateAll((els) => els.map((e) => [e.dataset.seat, e.querySelector(".tt-rank")?.textContent || "", e.querySelector(".tt-score-head").textContent]));
		assert(JSON.stringify(lines.map((l) => l[0])) === JSON.stringify(order), `scores in rank order: ${JSON.stringify(lines)}`);
		const ranks = await page.locator("#tt-standings .tt-rank").allInnerTexts();
		assert(JSON.stringify(lines.map((l) => l[1])) === JSON.stringify(ranks), `the same ranks: ${JSON.stringify(lines)} ${ranks}`);
		assert(lines.every((l) => !/^\s*\d+\.\s/.test(l[2])), `no seat numbers: ${JSON.stringify(lines)}`);
		// a mark only on the lines that used the stand-in discharge table, told once
		await page.locator('.tt-score[data-seat="1"] .tt-score-head').click();
		await page.locator('.tt-score[data-seat="1"] .tt-legend').waitFor();
		const marked = await page.locator('.tt-score[data-seat="1"] .tt-reason').evaluateAll((els) => els.map((e) => [e.dataset.rule, !!e.querySelector(".tt-mark")]));
		assert(marked.length > 3 && marked.every(([rule, m]) => m === (rule === "discharge-table")), `marks: ${JSON.stringify(marked)}`);
		assert((await page.locator(".tt-legend").count()) === 1, "the mark explained once");
		await seen(page, page.locator(".tt-legend"), "the mark's legend");
		assert((await page.locator(".tt-legend").innerText()).includes(W["tt.unverified_legend"]), "the legend's words");
		if (locale === LOOKS[0][0]) await bgstatsChecked(page, "dh", g.id, host);
		await noHorizontalScroll(page);
		await shot(page, `tt-dh-final-${locale.slice(0, 2)}-${colorScheme}`);
		await page.context().close();
	}
});

await test("tt-i-clinic-final-tie-under-its-winner", async () => {
	for (const [locale, colorScheme, W] of LOOKS) {
		const zero = (seat) => ({ seat, popularity_bought: 1 });
		const { g, host } = await tableWith("clinic", ["Eve", "Flo", "Gus"], 2, zero);
		const fin = await api("POST", `/clinic/games/${g.id}/finish`, { entries: [{ seat: 1 }, { seat: 2 }, { seat: 3, nurses: 1 }], ended_after: 2 }, host);
		assert(fin.status === 200, `finished: ${fin.status} ${JSON.stringify(fin.body)}`);
		const page = await T.phone({ locale, colorScheme, timeout: 20000 });
		await page.goto(`${BASE}/#tt=clinic&game=${encodeURIComponent(g.id)}&token=${encodeURIComponent(host)}`);
		await page.locator("#tt-standings li").first().waitFor();
		// Gus first on points; Eve and Flo tied, the turn order decided: said under its winner only
		const ties = await page.locator("#tt-standings li").evaluateAll((els) => els.map((e) => [e.dataset.rank, !!e.querySelector(".tt-tie")]));
		assert(JSON.stringify(ties) === JSON.stringify([["1", false], ["2", true], ["3", false]]), `tie-break shown: ${JSON.stringify(ties)}`);
		await seen(page, page.locator("#tt-standings .tt-tie"), "the tie-break");
		assert((await page.locator("#tt-standings .tt-tie").innerText()).trim() === W["tt.tie.turn-order"], "its words");
		assert((await page.locator(".tt-badge").count()) === 1, "one notice for the game");
		const rights = await page.locator("#tt-standings .tt-final").evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().right)));
		assert(new Set(rights).size === 1, `scores aligned: ${rights}`);
		if (locale === LOOKS[0][0]) await bgstatsChecked(page, "clinic", g.id, host);
		await noHorizontalScroll(page);
		await shot(page, `tt-clinic-final-${locale.slice(0, 2)}-${colorScheme}`);
		await page.context().close();
	}
});

await test("tt-j-round-error-at-its-field", async () => {
	for (const [locale, colorScheme, W] of LOOKS) {
		for (const kind of ["dh", "clinic"]) {
			const { g, host } = await tableWith(kind, ["Ann", "Bob", "Cy", "Dee"], 0, null);
			const page = await T.phone({ locale, colorScheme, timeout: 20000 });
			await page.goto(`${BASE}/#tt=${kind}&game=${encodeURIComponent(g.id)}&token=${encodeURIComponent(host)}`);
			await page.locator('#tt-entry .tt-seat[data-seat="4"]').waitFor();
			// the last player but one is wrong; the save button is at the bottom
			const [seat, field] = kind === "dh" ? [3, "discharged.red"] : [3, "popularity_bought"];
			if (kind === "dh") {
				await bump(page, 3, "discharged.red", 12);
				await bump(page, 3, "discharged.yellow", 1);
			} else {
				await bump(page, 3, "popularity_bought", 2);
				await bump(page, 3, "unpaid_expenses", 3);
			}
			await page.locator("#tt-save").click();
			const err = page.locator(`.tt-seat[data-seat="${seat}"] #tt-error`);
			await err.waitFor();
			assert((await page.locator("#tt-error").count()) === 1, "the refusal once");
			// next to the field, in view, and the focus there
			const after = await err.evaluate((el, f) => {
				const row = el.closest(".tt-field-error").previousElementSibling;
				return !!row && !!row.querySelector(`[data-field="${f}"]`);
			}, field);
			assert(after, "the refusal right under its field");
			const box = await err.boundingBox();
			const vh = page.viewportSize().height;
			assert(box && box.y >= 0 && box.y + box.height <= vh, `the refusal in view: ${JSON.stringify(box)}`);
			await seen(page, err, "the refusal");
			const focus = await page.evaluate((n) => !!document.activeElement && !!document.activeElement.closest(`.tt-seat[data-seat="${n}"]`), seat);
			assert(focus, "the focus is in that player's block");
			assert((await err.innerText()).includes("Cy"), `names the player: ${await err.innerText()}`);
			if (kind === "clinic") assert((await err.innerText()).includes(W["ttrule.bought-with-unpaid-expenses"] || ""), await err.innerText());
			await shot(page, `tt-${kind}-error-at-field-${locale.slice(0, 2)}-${colorScheme}`, false);
			await page.context().close();
		}
	}
});

await test("tt-k-game-ready-as-er", async () => {
	for (const [locale, colorScheme, W] of LOOKS) {
		for (const kind of ["dh", "clinic", "er"]) {
			const page = await T.phone({ locale, colorScheme, timeout: 20000 });
			// the machine's addresses answer late, as on a busy host: "Game ready" is drawn, then
			// drawn again when they arrive
			await page.route(`${BASE}/api/v1/addresses`, async (r) => {
				await new Promise((done) => setTimeout(done, 300));
				await r.continue();
			});
			if (kind === "er") {
				await page.goto(BASE + "/");
				await page.click("#pick-er");
				await page.fill('input[name="player1"]', "Ann");
				await page.fill('input[name="player2"]', "Bob");
				await page.click("#create");
			} else {
				await createGame(page, kind, ["Ann", "Bob"]);
				await page.click("#tt-create");
			}
			await page.locator(".created h1").waitFor();
			assert((await page.locator(".created h1").innerText()).trim() === W["created.title"], "Game ready");
			// opened at 127.0.0.1: the warning that other phones cannot open that address; busy
			// until the machine's addresses arrive, which redraws "Game ready"
			await page.locator("#share-warn:not([aria-busy])").waitFor();
			await seen(page, page.locator("#share-warn"), `${kind}: the localhost warning`);
			assert((await page.locator("#share-warn").innerText()).includes(fill(W["share.local_warn"], { host: new URL(BASE).host })), "its words");
			await seen(page, page.locator(".join-qr img.qr"), `${kind}: the join QR code`);
			assert((await page.locator(".created button.copy").count()) === 3, `${kind}: a Copy button per link`);
			await seen(page, page.locator(".created button.copy").first(), `${kind}: Copy`);
			// a seat's "QR code" looks like a control: a button's border and colours, a pointer
			const summary = page.locator(".qr-box summary").first();
			await summary.scrollIntoViewIfNeeded();
			await seen(page, summary, `${kind}: the seat's QR code control`);
			const look = await summary.evaluate((el) => {
				const c = getComputedStyle(el), b = getComputedStyle(document.querySelector(".created button.copy"));
				return [c.borderTopWidth === b.borderTopWidth && c.borderTopColor === b.borderTopColor, c.cursor, el.getBoundingClientRect().height];
			});
			assert(look[0] && look[1] === "pointer" && look[2] >= 44, `${kind}: QR code as a button: ${look}`);
			await summary.click();
			await seen(page, page.locator(".qr-box[open] img.qr").first(), `${kind}: the seat's QR code`);
			await noHorizontalScroll(page);
			await shot(page, `tt-game-ready-${kind}-${locale.slice(0, 2)}-${colorScheme}`);
			await page.context().close();
		}
	}
});

await T.finish("tt");
