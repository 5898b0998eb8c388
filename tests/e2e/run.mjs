// End-to-end tests of the phone front end in headless Debian chromium (playwright-core).
// Started by tests/e2e/run.sh with BASE_URL (a running server) and SHOTS (screenshot folder).
// Prints "PASS name" / "FAIL name" (+ indented details) per test; exits 1 on any failure.
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";

const BASE = process.env.BASE_URL || "http://127.0.0.1:8080";
const SHOTS = process.env.SHOTS || "build/e2e";
const ROOT = new URL("../../", import.meta.url);
const readJson = (path) => JSON.parse(readFileSync(new URL(path, ROOT), "utf8"));
const EN = readJson("static/i18n/en.json");
const FR = readJson("static/i18n/fr.json");
mkdirSync(SHOTS, { recursive: true });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const results = [];
const jsErrors = [];

function assert(cond, msg) {
	if (!cond) throw new Error(msg);
}

async function test(name, fn, needs = []) {
	const missing = needs.filter((n) => !results.find((r) => r.name === n && r.ok));
	if (missing.length) {
		results.push({ name, ok: false });
		console.log(`FAIL ${name}\n  skipped: needs ${missing.join(", ")}`);
		return;
	}
	const t0 = Date.now();
	try {
		await fn();
		results.push({ name, ok: true });
		console.log(`PASS ${name} (${Date.now() - t0} ms)`);
	} catch (e) {
		results.push({ name, ok: false });
		console.log(`FAIL ${name}\n${String(e && e.stack ? e.stack : e).split("\n").slice(0, 6).map((l) => `  ${l}`).join("\n")}`);
	}
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	headless: true,
	// playwright-core gives every launch a fresh temporary --user-data-dir of its own
	args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
});

async function phone(locale = "en-GB") {
	const ctx = await browser.newContext({ ...PHONE, locale });
	// the network is closed: anything not served by our server is a bug
	await ctx.route((url) => !url.href.startsWith(BASE), (route) => {
		jsErrors.push(`external request: ${route.request().url()}`);
		return route.abort();
	});
	const page = await ctx.newPage();
	page.setDefaultTimeout(8000);
	page.on("pageerror", (e) => jsErrors.push(`pageerror: ${e.message}`));
	page.on("console", (m) => {
		// a refused move is an expected 4xx in the network log, not a script error
		if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) jsErrors.push(`console: ${m.text()}`);
	});
	return page;
}

const shot = (page, name, fullPage = false) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
const text = (page, sel) => page.locator(sel).first().innerText();
const litCount = (page) => page.locator(".bed.lit").count();

async function placeOn(page, ward, value) {
	await page.locator(`.bed.lit[data-ward="${ward}"][data-bed]`).first().click();
	const picker = page.locator(`.picker button.value[data-value="${value}"]`);
	if (await picker.count()) await picker.click();
	await page.locator("#submit:not([disabled])").waitFor();
}

let A, B, code;

await test("a-create-and-join", async () => {
	A = await phone();
	await A.goto(BASE + "/");
	await A.locator("#new-game").waitFor();
	await shot(A, "home");
	// the tap targets of the home screen are big enough
	for (const el of await A.locator("#new-game button, #join button, select, input[type=text]").all()) {
		const box = await el.boundingBox();
		assert(box && box.height >= 44, `tap target too small: ${await el.evaluate((e) => e.outerHTML.slice(0, 80))} ${JSON.stringify(box)}`);
	}
	await A.fill('input[name="player1"]', "Alice");
	await A.fill('input[name="player2"]', "Bob");
	await A.check('input[name="deck"][value="table"]');
	await A.click("#create");
	code = await A.locator("#join-code-shown").getAttribute("data-code");
	assert(/^[A-Z0-9]{6}$/.test(code), `join code ${code}`);
	assert((await A.locator("[data-link]").count()) === 3, "two seat links and a host link");
	assert((await A.inputValue('[data-link="seat-2"]')).includes("#game="), "seat link carries the game");
	await shot(A, "created");
	await A.click("#open-host");
	await A.locator(".reveal-panel").waitFor();
	assert((await text(A, ".you-line")).includes("Alice"), "the host plays seat 1");

	B = await phone();
	await B.goto(BASE + "/");
	await B.fill("#join-code", code.toLowerCase());
	await B.selectOption("#join-seat", "2");
	await B.click("#join-go");
	await B.locator(".turn-head").waitFor();
	assert((await text(B, ".you-line")).includes("Bob"), "joined as Bob");
	assert((await text(B, "#status")).includes("Waiting for Alice"), await text(B, "#status"));
	// a reload keeps the seat (the token is in localStorage, not in the URL)
	assert(!B.url().includes("token="), "token left in the address bar");
	await B.reload();
	await B.locator(".turn-head").waitFor();
	assert((await text(B, ".you-line")).includes("Bob"), "seat kept after reload");
});

await test("b-turn-live", async () => {
	// the Chief Physician picks the flipped card by its bonuses, and the rolled dice
	await A.selectOption('[data-filter="red"]', "critical");
	await A.selectOption('[data-filter="yellow"]', "extra");
	assert((await A.locator(".pick-card").count()) === 1, "filters narrow to card 1");
	await A.click('.pick-card[data-card="1"]');
	await A.click('[data-roll="red"][data-value="3"]');
	await A.click('[data-roll="yellow"][data-value="4"]');
	await A.click('[data-roll="green"][data-value="5"]');
	await shot(A, "game-reveal");
	await A.click("#reveal");
	await A.locator('.bay[data-die="red"]').waitFor();
	assert((await text(A, "#turn-number")).includes("1/24"), await text(A, "#turn-number"));
	// Bob's phone follows live (server-sent events): the turn shows, the chief has not chosen yet
	await B.locator('.bay[data-die="red"] .die', { hasText: "3" }).waitFor();
	assert((await text(B, "#status")).includes("Chief Physician"), await text(B, "#status"));

	await A.click('.bay[data-die="red"]');
	await A.locator(".bed.lit").first().waitFor();
	assert((await A.locator('.bed.lit[data-ward="3"][data-bed="1"]').count()) === 1, "ward 3 bed 1 (red) lit for the red die");
	assert((await A.locator('.bed.lit[data-ward="2"]').count()) === 0, "ward 2 (green first) not lit");
	await shot(A, "game-choose");
	await A.locator('.bed.lit[data-ward="3"][data-bed="1"]').click();
	await A.locator(".picker").waitFor(); // a stethoscope allows 2, 3 or 4
	await shot(A, "game-picker");
	await A.click('.picker button.value[data-value="3"]');
	await A.locator("#submit:not([disabled])").waitFor();
	await A.click("#submit");
	await A.locator("#undo").waitFor();
	const bed = A.locator('.bed[data-ward="3"][data-bed="1"]');
	assert((await bed.innerText()).replace(/\s/g, "") === "3!", `sheet shows 3! (critical): ${await bed.innerText()}`);
	assert((await text(A, "#status")).includes("Move accepted"), await text(A, "#status"));

	// Bob: live update, then his move (the chief's red die is taken)
	await B.locator('.bay.chief-die[data-die="red"]').waitFor();
	await B.locator("#status", { hasText: "choose a patient die" }).waitFor();
	await B.click('.bay[data-die="green"]');
	await B.locator(".bed.lit").first().waitFor();
	await shot(B, "game-seat2");
	await placeOn(B, 2, 5);
	await B.click("#submit");
	// both phones see turn 2 waiting for Bob, the new Chief Physician
	await B.locator(".reveal-panel").waitFor();
	await A.locator("#chief", { hasText: "Bob" }).waitFor();
	assert((await text(A, "#turn-number")).includes("2/24"), await text(A, "#turn-number"));
	assert((await text(B, "#turn-number")).includes("2/24"), await text(B, "#turn-number"));
	assert((await text(B, '.bed[data-ward="2"][data-bed="1"]')).trim() === "5", "Bob's sheet shows 5");
	assert((await text(B, '[data-ledger="blood_bags"]')).trim() === "1", "Bob gained a blood bag");
	await shot(A, "game-turn2", true);
}, ["a-create-and-join"]);

await test("c-illegal-move-refused", async () => {
	// Bob reveals turn 2 and takes yellow; Alice holds no blood bag, so the chief's die is not hers
	await B.click('.pick-card[data-card="3"]');
	for (const [c, v] of [["red", 2], ["yellow", 6], ["green", 1]]) await B.click(`[data-roll="${c}"][data-value="${v}"]`);
	await B.click("#reveal");
	await B.click('.bay[data-die="yellow"]');
	// card 3's yellow bay is a screen: any ward's last patient can be screened
	await B.locator(".bed.screenable").first().waitFor();
	await placeOn(B, 7, 6);
	await B.click("#submit");
	// undo while the turn is open, then move again
	await B.click("#undo");
	await B.locator("#status", { hasText: "Move undone" }).waitFor();
	assert((await text(B, '.bed[data-ward="7"][data-bed="1"]')).trim() === "", "undo cleared the bed");
	await B.click('.bay[data-die="yellow"]');
	await placeOn(B, 7, 6);
	await B.click("#submit");
	await B.locator("#undo").waitFor();

	await A.locator('.bay.chief-die[data-die="yellow"]').waitFor();
	await A.locator("#status", { hasText: "choose a patient die" }).waitFor();
	await A.click('.bay[data-die="yellow"]');
	await A.locator("#morgue").waitFor();
	assert((await litCount(A)) === 0, "no bed lit for the chief's die without a blood bag");
	// an unlit bed does nothing when tapped
	await A.locator('.bed[data-ward="1"][data-bed="1"]').click({ force: true });
	assert((await A.locator(".picker").count()) === 0 && (await litCount(A)) === 0, "unlit bed not tappable");
	await A.click("#morgue");
	const err = await A.locator("#error").innerText();
	assert(/blood bag/.test(err) && /chief-die|Chief Physician/.test(err), `the rule's message: ${err}`);
	await shot(A, "game-refused");
	assert((await A.locator("#submit[disabled]").count()) === 1, "submit stays disabled");
	// the server's detail (ward, values…) as a second line, in English only
	assert((await A.locator('#error[data-rule="chief-die"] .detail').innerText()).includes("blood bag"), "server detail line");
	// in French the refusal reads in French: the same one, reworded when the language changes…
	await A.selectOption("#lang", "fr");
	await A.locator("#error", { hasText: FR["rule.chief-die"] }).waitFor();
	// …and the server's own refusal (problem+json rule chief-die), asked in French
	await A.evaluate(() => document.querySelector("#submit").removeAttribute("disabled"));
	const [res] = await Promise.all([
		A.waitForResponse((r) => r.request().method() === "POST" && /\/seats\/\d+\/moves$/.test(new URL(r.url()).pathname)),
		A.click("#submit"),
	]);
	const problem = await res.json();
	assert(res.status() === 422 && problem.rule === "chief-die", `server: ${res.status()} ${JSON.stringify(problem)}`);
	const box = A.locator('#error[data-rule="chief-die"]');
	const fr = await box.innerText();
	assert(fr.startsWith("Refusé") && fr.includes("422 · chief-die") && fr.includes(FR["rule.chief-die"]), `French refusal: ${fr}`);
	assert(!fr.includes(problem.detail) && !/blood bag|Chief Physician/.test(fr), `English in the French refusal: ${fr}`);
	assert((await box.getAttribute("title")) === problem.detail, "the server's detail kept as a tooltip");
	await shot(A, "game-refused-fr");
	await A.selectOption("#lang", "en");
	await A.locator("#error .detail", { hasText: problem.detail }).waitFor();

	// reset and take a legal die: the turn closes, Alice is Chief Physician again
	await A.click("#reset");
	await A.click('.bay[data-die="red"]');
	await placeOn(A, 1, 2);
	await A.click("#submit");
	await A.locator(".reveal-panel").waitFor();
	assert((await text(A, '.bed[data-ward="1"][data-bed="1"]')).trim() === "2", "Alice's 2 in ward 1");
	await B.locator("#turn-number", { hasText: "3/24" }).waitFor();
}, ["b-turn-live"]);

await test("d-french", async () => {
	await A.selectOption("#lang", "fr");
	await A.locator(".sheet-panel .ledger-label", { hasText: "Poches de sang" }).waitFor();
	assert((await text(A, "#chief")).startsWith("Médecin-chef"), await text(A, "#chief"));
	assert((await text(A, "#status")).includes("dé"), await text(A, "#status"));
	assert((await A.locator("html").getAttribute("lang")) === "fr", "html lang");
	await shot(A, "game-fr");
	await A.selectOption("#lang", "en");
	await A.locator(".ledger-label", { hasText: "Blood bags" }).first().waitFor();
	// a French phone starts in French
	const F = await phone("fr-FR");
	await F.goto(BASE + "/");
	await F.locator("#create", { hasText: "Créer la partie" }).waitFor();
	await shot(F, "home-fr");
	// a refused new game reads in French too: the same Cardiologist twice (rule cardiologists-same)
	await F.fill('input[name="player1"]', "Léa");
	await F.fill('input[name="player2"]', "Hugo");
	await F.check('input[name="specs"][value="choose"]');
	await F.selectOption('[data-spec="c2"]', await F.inputValue('[data-spec="c1"]'));
	// sent with the keyboard's Go key: with the specialist selects open the form is wider than the
	// phone (their long option texts), which keeps the Create button from a plain tap here
	await F.press('input[name="player2"]', "Enter");
	const refused = F.locator('#create-error[data-rule="cardiologists-same"]');
	await refused.waitFor();
	const msg = await refused.innerText();
	assert(msg.includes(FR["rule.cardiologists-same"]) && msg.includes("cardiologists-same"), `French refusal: ${msg}`);
	await refused.scrollIntoViewIfNeeded();
	await shot(F, "home-refused-fr");
	await F.context().close();
}, ["b-turn-live"]);

await test("e-layout-360", async () => {
	// the smallest phone: nothing wider than the screen, beds still ≥ 44 px
	await A.setViewportSize({ width: 360, height: 640 });
	await A.locator(".reveal-panel").waitFor();
	const over = await A.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	assert(over <= 0, `horizontal overflow of ${over}px`);
	for (const b of await A.locator(".bed").all()) {
		const box = await b.boundingBox();
		assert(box.width >= 44 && box.height >= 44, `bed ${JSON.stringify(box)}`);
	}
	await shot(A, "game-360");
}, ["b-turn-live"]);

await test("f-solo-app-deck", async () => {
	// solo against ALICAT, the app flips and rolls: ALICAT moves by itself after the human
	const S = await phone();
	await S.goto(BASE + "/");
	await S.check("#solo");
	await S.fill('input[name="player1"]', "Solo");
	await S.locator('input[value="preparation"]').check();
	await S.check('input[name="deck"][value="app"]');
	await S.click("#create");
	await S.click("#open-host");
	await S.click("#reveal");
	await S.locator('.bay[data-die="red"]').waitFor();
	await S.click('.bay[data-die="red"]');
	for (let i = 0; i < 4 && !(await S.locator("#submit:not([disabled])").count()); i++) {
		await S.waitForTimeout(150);
		if (await S.locator(".bed.lit").count()) {
			await S.locator(".bed.lit").first().click();
			if (await S.locator(".picker").count()) await S.locator(".picker button.value").first().click();
		} else if (await S.locator("#morgue").count()) await S.click("#morgue");
	}
	await S.locator("#submit:not([disabled])").waitFor();
	await shot(S, "game-solo");
	await S.click("#submit");
	await S.locator("#turn-number", { hasText: "2/24" }).waitFor();
	await S.locator('.player[data-seat="2"]', { hasText: "ALICAT" }).click();
	const filled = await S.locator(".sheet-panel .bed.filled").count();
	assert(filled >= 1, "ALICAT admitted a patient");
	await S.context().close();
});

await test("g-end-of-game", async () => {
	// a solo game played to the end over the API (every patient to the morgue), then its results
	const call = async (method, path, body, token) => {
		const r = await fetch(BASE + "/api/v1" + path, {
			method, body: body && JSON.stringify(body),
			headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
		});
		const o = await r.json();
		assert(r.ok, `${method} ${path}: ${r.status} ${JSON.stringify(o)}`);
		return o;
	};
	const g = await call("POST", "/er/games", { players: [{ name: "Zoé" }], solo: true, deck: "app", seed: 7 });
	const tok = g.seats[0].seat_token;
	const cards = await call("GET", "/er/data");
	let st = await call("GET", `/er/games/${g.id}`, undefined, tok);
	while (st.status === "playing") {
		if (st.next.action === "reveal") st = await call("POST", `/er/games/${g.id}/turns`, { turn: st.next.turn }, tok);
		else {
			const die = ["red", "yellow", "green"].find((c) => c !== st.turn.chief_die);
			const bay = cards.cards.find((c) => c.id === st.turn.card).bays[die];
			const steps = [{ morgue: "die" }, ...(bay.bonus === "extra" ? [{ morgue: "extra" }] : [])];
			st = await call("POST", `/er/games/${g.id}/seats/1/moves`, { turn: st.turn.number, move: { die, steps } }, tok);
		}
	}
	const P = await phone();
	await P.goto(`${BASE}/#game=${g.id}&token=${tok}`);
	await P.locator(".results .result").first().waitFor();
	assert((await P.locator(".results .result").count()) === 2, "two results");
	assert((await P.locator('.result[data-rank="1"]').innerText()).includes("ALICAT"), "ALICAT wins this one");
	assert((await P.locator(".results .breakdown").count()) === 2, "breakdowns");
	await shot(P, "game-end");
	await P.context().close();
});

await test("h-rule-messages", async () => {
	// every rule id the server can send (src: ER_RULE_* defines, RULE_* constants, ids passed to
	// http_reply_problem) has a message in both languages, and no message names an unknown rule
	const ids = new Set();
	const src = (dir) => readdirSync(new URL(dir, ROOT)).filter((f) => /\.[ch]$/.test(f)).map((f) => readFileSync(new URL(dir + f, ROOT), "utf8"));
	for (const c of [...src("src/rules/"), ...src("src/api/")]) {
		for (const m of c.matchAll(/^#define\s+ER_RULE_\w+\s+"([^"]+)"/gm)) ids.add(m[1]);
		for (const m of c.matchAll(/\bRULE_\w+\[\]\s*=\s*"([^"]+)"/g)) ids.add(m[1]);
		for (const call of c.matchAll(/http_reply_problem(?:_ex)?\(([\s\S]*?)\);/g))
			for (const m of call[1].matchAll(/"([a-z]+(?:-[a-z0-9]+)+)"/g)) ids.add(m[1]);
	}
	assert(ids.size >= 40 && ids.has("value-not-increasing") && ids.has("solo-one-player"), `rule ids found: ${[...ids]}`);
	const rules = (dict) => Object.keys(dict).filter((k) => k.startsWith("rule.")).map((k) => k.slice(5));
	const en = new Set(rules(EN)), fr = new Set(rules(FR));
	const problems = [
		...[...en].filter((r) => !fr.has(r)).map((r) => `rule.${r} in en.json, not in fr.json`),
		...[...fr].filter((r) => !en.has(r)).map((r) => `rule.${r} in fr.json, not in en.json`),
		...[...ids].filter((r) => !en.has(r)).map((r) => `server rule ${r} has no rule.${r} message`),
		...[...en].filter((r) => !ids.has(r)).map((r) => `rule.${r}: the server sends no such rule`),
		...[...en].filter((r) => !EN[`rule.${r}`].trim() || (fr.has(r) && !FR[`rule.${r}`].trim())).map((r) => `rule.${r} is empty`),
	];
	assert(problems.length === 0, problems.join("\n"));
});

await test("no-script-errors", async () => {
	assert(jsErrors.length === 0, jsErrors.join("\n"));
}, []);

await browser.close();
const failed = results.filter((r) => !r.ok).length;
process.exit(failed ? 1 : 0);
