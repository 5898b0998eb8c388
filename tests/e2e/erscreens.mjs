// End-to-end tests of the ER phone screens in headless Debian chromium (playwright-core), at the
// smallest phone we support (360 × 640): the home screen's choice of game and this phone's games,
// a solo game against ALICAT to its end, the print page, the app shell offline, refusals in words,
// the front end's weight, the picker, the header and ALICAT's line. Every screen is audited with
// axe-core (experimental rules on) in light, dark and French. Run by all.mjs (lib.mjs: the runner,
// phones, axe; erkit.mjs: the ER taps and checks); er.mjs has a table's game on three phones.
import { BASE, ROOT, api, assert, bgstatsPlay, localPlayDate, pageAxe, readJson, suite, wordsCheck } from "./lib.mjs";
import { brand, erHome, erKit, noRawKeys, tapMove, waitTurn } from "./erkit.mjs";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

const EN = readJson("static/i18n/en.json");
const FR = readJson("static/i18n/fr.json");
const ES = suite("erscreens");
const { test } = ES;
const { phone, text, screen } = erKit(ES);

await test("a0-home-the-game-first", async () => {
	// a phone at 360 × 740 that never chose: the three games come first, nothing chosen, no form
	const variants = [["en-GB", "light", EN, "en"], ["en-GB", "dark", EN, "en-dark"], ["fr-FR", "light", FR, "fr"], ["fr-FR", "dark", FR, "fr-dark"]];
	for (const [locale, colorScheme, S, v] of variants) {
		const P = await phone({ locale, colorScheme, height: 740 });
		await P.goto(BASE + "/");
		const picks = P.locator(".games button");
		await picks.first().waitFor();
		const names = [S["name.er"], S["name.dh"], S["name.clinic"]];
		assert(JSON.stringify(await picks.allInnerTexts()) === JSON.stringify(names), `${v}: the games offered: ${await picks.allInnerTexts()}`);
		assert((await P.locator('.games [aria-pressed="true"]').count()) === 0 && (await P.locator("#new-game, #tt-new").count()) === 0, `${v}: nothing chosen yet`);
		const first = await P.evaluate(() => [...document.querySelectorAll("main h1, main h2, main button, main input")].slice(0, 4).map((e) => e.id || e.tagName));
		assert(first.join() === "home-h,pick-er,pick-dh,pick-clinic", `${v}: the choice of game comes first: ${first}`);
		const last = await picks.last().boundingBox();
		assert(last.y + last.height <= 740, `${v}: the three games in view without scrolling (${last.y + last.height})`);
		assert((await brand(P)) === S["app.title"] && (await P.title()) === S["app.title"], `${v}: the header names the product: ${await brand(P)}`);
		await noRawKeys(P, `home-pick-${v}`);
		await screen(P, `home-pick-${v}`);
		// each choice shows its game's new-game form, named for it; join by code stays on the page
		await P.click("#pick-dh");
		await P.locator("#tt-new legend").first().waitFor();
		const dh = await P.locator("#tt-new").innerText();
		const first_player = v.startsWith("fr") ? "Premier joueur" : "First Player";
		assert(dh.includes(S["name.dh"]) && dh.includes(first_player) && !/Chief Physician|Médecin-chef/.test(dh), `${v}: the Dice Hospital form: ${dh.slice(0, 200)}`);
		assert((await P.locator("#pick-dh").getAttribute("aria-pressed")) === "true" && (await P.locator("#join-code").isVisible()), `${v}: Dice Hospital chosen, join by code kept`);
		await noRawKeys(P, `home-dh-${v}`);
		await screen(P, `home-dh-${v}`, true);
		// remembered: the phone opens on the last choice
		await P.reload();
		await P.locator("#tt-new").waitFor();
		assert((await P.locator("#pick-dh").getAttribute("aria-pressed")) === "true", `${v}: the choice remembered`);
		await P.click("#pick-clinic");
		await P.locator("#tt-new h2", { hasText: S["name.clinic"] }).waitFor();
		assert(!/Chief Physician|Médecin-chef|First Player|Premier joueur/.test(await P.locator("#tt-new").innerText()), `${v}: the Clinic form has no other game's roles`);
		await noRawKeys(P, `home-clinic-${v}`);
		await screen(P, `home-clinic-${v}`, true);
		await P.click("#pick-er");
		await P.locator("#new-game h2", { hasText: S["name.er"] }).waitFor();
		assert(await P.locator("#join-code").isVisible(), `${v}: join by code with ER chosen`);
		await P.reload();
		await P.locator("#new-game").waitFor();
		await P.context().close();
	}
});

await test("a1-home-lists-every-kind-and-headers-name-the-game", async () => {
	// one phone holds an ER game (created here), a Dice Hospital game (created here) and a Clinic
	// game (joined by code); every screen's header names its game, the home screen lists all three
	const P = await phone({ height: 740 });
	await erHome(P);
	await P.fill('input[name="player1"]', "Ivy");
	await P.fill('input[name="player2"]', "Jon");
	await P.click("#create");
	await P.locator("#open-host").waitFor();
	assert((await brand(P)) === EN["name.er"], `the new ER game's links: ${await brand(P)}`);
	await P.click("#open-host");
	await P.locator(".turn-head").waitFor();
	assert((await brand(P)) === EN["name.er"] && (await P.title()) === EN["name.er"], `the ER game: ${await brand(P)}`);
	await P.goto(BASE + "/#print");
	await P.locator("#print-pdf").waitFor();
	assert((await brand(P)) === EN["name.er"], `blank ER sheets: ${await brand(P)}`);
	await P.goto(BASE + "/");
	await P.click("#pick-dh");
	await P.fill('input[name="tt-player1"]', "Kim");
	await P.fill('input[name="tt-player2"]', "Lou");
	await P.click("#tt-create");
	await P.click("#tt-open-host");
	await P.locator("#tt-entry .tt-seat").first().waitFor();
	assert((await brand(P)) === EN["name.dh"], `the Dice Hospital table: ${await brand(P)}`);
	const cl = await api("POST", "/clinic/games", { players: [{ name: "Max" }, { name: "Noa" }] });
	assert(cl.status === 201, `clinic game: ${cl.status} ${JSON.stringify(cl.body)}`);
	await P.goto(BASE + "/");
	await P.fill("#join-code", cl.body.code);
	await P.click("#join-go");
	await P.locator('.seat[data-seat="2"]').waitFor();
	await P.locator("header .brand", { hasText: EN["name.clinic"] }).waitFor(); // the seats of a Clinic table
	await P.click('.seat[data-seat="2"]');
	await P.locator("#tt-entry .tt-seat").first().waitFor();
	assert((await brand(P)) === EN["name.clinic"], `the Clinic table: ${await brand(P)}`);
	await P.goto(BASE + "/");
	await P.locator(".mine").waitFor();
	assert((await brand(P)) === EN["app.title"], `home: ${await brand(P)}`);
	const mine = await P.locator(".mine a").evaluateAll((as) => as.map((a) => [a.getAttribute("href").replace(/=[^&]*$/, "="), a.innerText]));
	const expect = [["#tt=clinic&game=", `${EN["name.clinic"]} · ${cl.body.code} — Noa`], ["#tt=dh&game=", `${EN["name.dh"]} · `], ["#game=", `${EN["name.er"]} · `]];
	assert(mine.length === 3 && expect.every(([href, words], i) => mine[i][0] === href && mine[i][1].startsWith(words)), `this phone's games, the latest first: ${JSON.stringify(mine)}`);
	await screen(P, "home-mine", true);
	// a choice brings its form into view, below this phone's games
	await P.click("#pick-clinic");
	await P.locator("#tt-new h2", { hasText: EN["name.clinic"] }).waitFor();
	await P.waitForFunction(() => Math.abs(document.querySelector(".new-slot").getBoundingClientRect().top - 56) < 20);
	// a game forgotten leaves the list; the leagues page names the product, not one game
	await P.click(`.mine [data-forget="${cl.body.id}"]`);
	await P.locator(".mine a").nth(1).waitFor();
	assert((await P.locator(".mine a").count()) === 2, "forgotten");
	await P.goto(BASE + "/leagues.html");
	await P.locator("header .brand", { hasText: EN["app.title"] }).waitFor();
	await P.context().close();
});

await test("g-solo-to-the-end", async () => {
	// solo against ALICAT, the app flips and rolls: a whole game by tapping
	const S = await phone();
	await erHome(S);
	await S.check("#solo");
	await S.fill('input[name="player1"]', "Solo");
	await S.locator('input[value="preparation"]').check();
	await S.check('input[name="deck"][value="app"]');
	await screen(S, "home-solo");
	await S.click("#create");
	await S.click("#open-host");
	await S.locator("#alicat-start").waitFor({ state: "attached" });
	assert((await text(S, "#alicat-start")).includes("two nurses"), "ALICAT's starting points explained");
	for (let n = 1; n <= 24; n++) {
		await S.locator("#reveal").waitFor();
		// the header and the action bar agree on who is chief
		const chief = await text(S, "#chief");
		const status = await text(S, "#status");
		if (n % 2 === 0) assert(chief.includes("ALICAT") && status.includes("ALICAT is Chief Physician"), `turn ${n}: ${chief} / ${status}`);
		else assert(chief.includes("Solo") && status.includes("You are Chief Physician"), `turn ${n}: ${chief} / ${status}`);
		await S.click("#reveal");
		if (n === 1) await screen(S, "game-solo-reveal");
		await tapMove(S);
		if (n < 24) {
			await waitTurn(S, n + 1);
			// ALICAT's move is shown on the main screen
			await S.locator("#alicat-move").waitFor();
			await S.locator("#alicat h2", { hasText: `turn ${n}` }).waitFor();
			// every step of ALICAT's turn in words, a morgue or a screen too
			const said = await text(S, "#alicat-move");
			assert(/\d/.test(said) && !/undefined|NaN/.test(said), `ALICAT's turn ${n}: ${said}`);
		}
		if (n === 2) {
			await S.locator("#alicat-move").scrollIntoViewIfNeeded();
			await screen(S, "game-solo-alicat");
			await S.click("#alicat-sheet");
			await S.locator("#sheet-h", { hasText: "ALICAT" }).waitFor();
			await screen(S, "game-solo-alicat-sheet");
			await S.locator('.bed[data-ward="7"][data-bed="3"]').click();
			await S.locator("#explain", { hasText: "This is ALICAT's sheet" }).waitFor();
			await S.locator('.player[data-seat="1"]').click();
		}
	}
	await S.locator(".results .result").first().waitFor();
	assert((await S.locator(".results .result").count()) === 2, "two results");
	// "Log in BG Stats": the play as the league would record it (ALICAT left out, seat 1 the
	// first Chief Physician), its date the game's finished_at in the phone's time
	const [id, seat] = await S.evaluate(() => Object.entries(JSON.parse(localStorage.getItem("dh.er.games")))[0]);
	const g = (await api("GET", `/er/games/${id}`, undefined, seat.token)).body;
	const bs = await bgstatsPlay(S);
	const me = g.seats.find((x) => !x.bot);
	const mins = Math.round((Date.parse(g.finished_at) - Date.parse(g.created_at)) / 60000);
	const want = { sourceName: "Dice Hospital companion", sourcePlayId: g.id, playDate: await localPlayDate(S, g.finished_at), durationMin: mins,
		game: { name: "Dice Hospital: ER – Emergency Roll", sourceGameId: "product:er", highestWins: true, noPoints: false },
		players: [{ name: "Solo", sourcePlayerId: "name:solo", winner: me.rank === 1, score: me.score.total, rank: me.rank, startPlayer: true }] };
	assert(isDeepStrictEqual(bs, want), `BG Stats play: ${JSON.stringify(bs)}`);
	await screen(S, "game-solo-end");
	await ES.shot(S, "game-solo-end-bgstats", true);
	await S.context().close();
});

await test("h-print-page", async () => {
	const P = await phone();
	await erHome(P);
	await P.click("#open-print");
	await P.locator("#print-pdf").waitFor();
	assert((await P.locator("h1").count()) === 1, "h1");
	await P.fill("#print-count", "12");
	await P.check('input[name="paper"][value="letter"]');
	await P.check('input[name="plang"][value="fr"]');
	const href = await P.locator("#print-pdf").getAttribute("href");
	assert(href === "/api/v1/er/sheets.pdf?count=12&paper=letter&lang=fr", href);
	const pdf = await fetch(BASE + href);
	const body = Buffer.from(await pdf.arrayBuffer());
	assert(pdf.status === 200 && pdf.headers.get("content-type").startsWith("application/pdf") && body.subarray(0, 5).toString() === "%PDF-", `the link gives a PDF: ${pdf.status}`);
	await P.fill("#print-count", "500"); // out of range: the last valid count stays
	assert((await P.locator("#print-pdf").getAttribute("href")).includes("count=12"), "count bounded to 1–100");
	await screen(P, "print");
	await P.context().close();
});

await test("h2-service-worker-app-shell", async () => {
	// 127.0.0.1 is a secure context: the worker installs, and the app opens with the network cut
	const W = await phone();
	await erHome(W);
	assert(await W.evaluate(() => window.isSecureContext), "secure context");
	await W.evaluate(() => navigator.serviceWorker.ready.then(() => true));
	await W.reload(); // now controlled by the worker, which fills its cache
	await W.locator("#new-game").waitFor();
	await W.evaluate(() => navigator.serviceWorker.controller !== null);
	await W.context().setOffline(true);
	await W.reload();
	await W.locator("#new-game").waitFor();
	assert((await W.locator("h1").count()) === 1, "home drawn offline");
	await W.context().setOffline(false);
	await W.context().close();
});

await test("i-rule-messages", async () => {
	// every rule id the ER screens can meet has a message in both languages (src: the ER rules,
	// the ER kind and its handlers, the table engine and the rate limits: ER_RULE_* defines, RULE_* constants, ids passed to
	// http_reply_problem or table_refuse; Dice Hospital, Clinic and leagues word their own; the
	// engine's display-token rules are worded with the display's strings, i18n/display.*.json,
	// which the display page and the host's "Show on a big screen" dialog load; the coach's with
	// its own, i18n/coach.*.json, which the coach's screen and the display load)
	const ids = new Set();
	const src = (dir, re) => !existsSync(new URL(dir, ROOT)) ? [] : readdirSync(new URL(dir, ROOT), { recursive: true }).filter((f) => /\.[ch]$/.test(f) && re.test(f)).map((f) => readFileSync(new URL(dir + f, ROOT), "utf8"));
	for (const c of [...src("src/rules/", /^er[_.]/), ...src("src/games/er/", /./), ...src("src/http/", /^ratelimit/), ...src("src/api/", /^(api_init|routes)/), ...src("src/engine/", /./)]) {
		for (const m of c.matchAll(/^#define\s+\w*RULE_\w+\s+"([^"]+)"/gm)) ids.add(m[1]);
		for (const m of c.matchAll(/\bRULE_\w+\[\]\s*=\s*"([^"]+)"/g)) ids.add(m[1]);
		for (const call of c.matchAll(/(?:http_reply_problem(?:_ex)?|table_refuse)\(([\s\S]*?)\);/g))
			for (const m of call[1].matchAll(/"([a-z]+(?:-[a-z0-9]+)+)"/g)) ids.add(m[1]);
	}
	assert(ids.size >= 40 && ids.has("value-not-increasing") && ids.has("solo-one-player"), `rule ids found: ${[...ids]}`);
	const rules = (dict) => Object.keys(dict).filter((k) => k.startsWith("rule.")).map((k) => k.slice(5));
	const dspEn = { ...readJson("static/i18n/display.en.json"), ...readJson("static/i18n/coach.en.json") };
	const dspFr = { ...readJson("static/i18n/display.fr.json"), ...readJson("static/i18n/coach.fr.json") };
	const en = new Set([...rules(EN), ...rules(dspEn)]), fr = new Set([...rules(FR), ...rules(dspFr)]);
	const problems = [
		...[...en].filter((r) => !fr.has(r)).map((r) => `rule.${r} in en.json, not in fr.json`),
		...[...fr].filter((r) => !en.has(r)).map((r) => `rule.${r} in fr.json, not in en.json`),
		...[...ids].filter((r) => !en.has(r)).map((r) => `server rule ${r} has no rule.${r} message`),
		...[...en].filter((r) => !({ ...EN, ...dspEn })[`rule.${r}`].trim() || (fr.has(r) && !({ ...FR, ...dspFr })[`rule.${r}`].trim())).map((r) => `rule.${r} is empty`),
		...Object.keys(EN).filter((k) => !(k in FR)).map((k) => `${k} has no French`),
		...Object.keys(dspEn).filter((k) => !(k in dspFr)).map((k) => `${k} has no French (i18n/display.fr.json, i18n/coach.fr.json)`),
		...Object.keys(EN).filter((k) => /^tt/.test(k)).map((k) => `${k}: the DH/Clinic strings live in i18n/tabletop.*.json`),
	];
	assert(problems.length === 0, problems.join("\n"));
});

await test("j-refusal-in-words", async () => {
	// a refusal from the server reads as words in the current language, never as an HTTP code
	const P = await phone({ locale: "fr-FR" });
	await erHome(P);
	await P.fill('input[name="player1"]', "Léa");
	await P.fill('input[name="player2"]', "Hugo");
	await P.check('input[name="specs"][value="choose"]');
	await P.selectOption('[data-spec="c2"]', await P.inputValue('[data-spec="c1"]'));
	await P.press('input[name="player2"]', "Enter");
	const refused = P.locator('#create-error[data-rule="cardiologists-same"]');
	await refused.waitFor();
	const msg = await refused.textContent();
	assert(msg.includes(FR["rule.cardiologists-same"]) && !/\b4\d\d\b/.test(msg), `French refusal in words: ${msg}`);
	await refused.scrollIntoViewIfNeeded();
	await screen(P, "home-refused-fr");
	await P.context().close();
});

await test("k-front-end-size-and-preload", async () => {
	// the ER front end ≤ 165 KB uncompressed: every file index.html's screens load, but not the
	// other pages (leagues.html and its files, leagues.js and leagues-*.js, charts.js, consent.js, csvimport.js and challenges.js among them, challenge.html and its files, display.html and its files), the Dice Hospital and
	// Clinic screens (tabletop.*, tabletop/ and i18n/tabletop.*, loaded only on their routes), the
	// host's "Show on a big screen" dialog (bigscreen.*, loaded on its first tap, with
	// i18n/display.*), the new game's "Game ready" (share.js, loaded when shown), the finished
	// game's "Log in BG Stats" (bgstats-link.js, loaded when the game ends), the coach (coach.js,
	// coach.css and i18n/coach.*, loaded on its route), nor openapi.json,
	// nor the README's pictures (screenshots/, which no screen loads), nor the help pages (help/,
	// which a link opens); every ER module is preloaded by index.html (no chain of fetches) and
	// kept by the service worker
	const dir = new URL("static/", ROOT);
	const other = /^(openapi\.json|leagues[.-]|league-picker\.js|charts\.js|consent\.js|tabletop[./]|display\.|bigscreen\.|share\.js|bgstats-link\.js|csvimport\.js|coach\.|challenges?\.|screenshots\/|help\/|i18n\/(leagues|tabletop|display|coach)\.)/;
	const files = readdirSync(dir, { recursive: true }).filter((f) => /\.(js|css|html|json|svg|webmanifest|png|ico)$/.test(f) && !other.test(f));
	const total = files.reduce((n, f) => n + readFileSync(new URL(f, dir)).length, 0);
	assert(total <= 165 * 1024, `front end ${total} bytes`);
	const html = readFileSync(new URL("index.html", dir), "utf8");
	const modules = files.filter((f) => f.endsWith(".js") && f !== "app.js" && f !== "sw.js");
	const missing = modules.filter((m) => !html.includes(`rel="modulepreload" href="${m}"`));
	assert(missing.length === 0, `not preloaded: ${missing}`);
	const sw = readFileSync(new URL("sw.js", dir), "utf8");
	const notKept = [...modules, "app.js", "app.css", "index.html", "i18n/en.json", "i18n/fr.json"].filter((m) => !sw.includes(`"${m}"`));
	assert(notKept.length === 0, `not in sw.js's shell: ${notKept}`);
	return `(${Math.round(total / 1024)} KB in ${files.length} files)`;
});

await test("l-words-checks-catch-planted", async () => {
	// the two checks every audited screen gets (lib.mjs wordsCheck) fail on planted examples
	const P = await phone(); // a blank page: the planted screens are the only words on it
	await P.setContent(`<main><section><h2>Round 1</h2><ul><li>Red 3 <span class="tt-badge">not checked against your box</span></li>
		<li>Yellow 2 <span class="tt-badge">not checked against your box</span></li></ul></section>
		<p>Gained: 1 blood bag(s)</p><p>Another phone took over the seat of .</p><p>. Waiting</p><p>Score {n}</p><p>Bob ()</p></main>`);
	const found = (await wordsCheck(P)).join("\n");
	for (const [what, re] of [["the repeated badge", /"not checked against your box" 2 times in ul/], ["the raw plural", /raw plural: "Gained: 1 blood bag\(s\)"/],
		["the empty name slot", /empty slot .*seat of \."/], ["the leading full stop", /opening with a full stop or comma: "\. Waiting"/], ["the placeholder", /placeholder left: "Score \{n\}"/], ["empty brackets", /empty brackets: "Bob \(\)"/]])
		assert(re.test(found), `${what} not caught:\n${found}`);
	// one badge per section, counts in words, names filled: nothing to say
	await P.setContent(`<main><section><p class="tt-badge">not checked against your box</p><ul><li>Red 3</li><li>Yellow 2</li></ul></section>
		<section><p class="tt-badge">not checked against your box</p></section><p>Gained: 1 blood bag, 2 nurses. Score 23: Nurses 3.</p><p>Ward 1, bed 2: which value?</p></main>`);
	const clean = await wordsCheck(P);
	assert(clean.length === 0, `a clean page flagged: ${clean.join("; ")}`);
	// axe, put in the document once, still sees what changes after its first run
	await P.setContent(`<html lang="en"><title>t</title><main><h1>Planted</h1><p>fine</p></main></html>`);
	const none = (await pageAxe(P)).map((v) => v.id);
	assert(none.length === 0, `a clean page: ${none}`);
	await P.evaluate(() => document.querySelector("main").insertAdjacentHTML("beforeend", '<img width="10" height="10"><p style="color:#bbb;background:#fff">pale</p>'));
	const ids = (await pageAxe(P)).map((v) => v.id);
	assert(ids.includes("image-alt") && ids.includes("color-contrast"), `the planted image and pale text: ${ids}`);
	await P.context().close();
});

/** A two-player game at 360 × 740, Ann's phone with a die chosen (the lit beds drawn). */
async function litBoard(locale, colorScheme) {
	const g = (await api("POST", "/er/games", { players: [{ name: "Ann" }, { name: "Bob" }], deck: "app", seed: 5 })).body;
	const P = await phone({ locale, colorScheme, height: 740 });
	await P.goto(`${BASE}/#game=${g.id}&token=${g.seats[0].seat_token}`);
	await P.click("#reveal");
	await P.locator('.bay:not([aria-disabled="true"])').nth(2).click();
	await P.locator('.sheet-panel[data-opts="ready"]').waitFor();
	await P.locator(".bed.lit").first().waitFor();
	return P;
}

/** Polls until every element of sel is clear of the header and the dock; "" or what covers. */
async function clearOfBars(P, sel) {
	const look = () => P.evaluate((sel) => {
		const top = document.querySelector(".top").getBoundingClientRect().bottom, dock = document.querySelector(".dock").getBoundingClientRect().top;
		const els = [...document.querySelectorAll(sel)];
		if (!els.length) return `no ${sel}`;
		return els.map((e) => e.getBoundingClientRect()).filter((r) => r.top < top - 0.5 || r.bottom > dock + 0.5).map((r) => `${sel} at ${Math.round(r.top)}–${Math.round(r.bottom)}, header to ${Math.round(top)}, dock from ${Math.round(dock)}`).join("; ");
	}, sel);
	const end = Date.now() + 4000;
	let r = await look();
	while (r && Date.now() < end) {
		await P.waitForTimeout(100); // the poll's interval: the page scrolls smoothly
		r = await look();
	}
	return r;
}

await test("m-picker-leaves-the-bed-in-view-lit-beds-keep-colour", async () => {
	for (const [locale, colorScheme, v, S] of [["en-GB", "light", "en", EN], ["fr-FR", "dark", "fr-dark", FR]]) {
		const P = await litBoard(locale, colorScheme);
		// a lit bed is filled with its own colour, as the same colour's unlit beds are, and ringed
		// (measured once its ring has grown: a lit bed's ring is a 0.2 s transition)
		await P.waitForFunction(() => !document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === "running"));
		const fills = await P.evaluate(() => [...document.querySelectorAll(".bed.lit")].map((b) => {
			const colour = [...b.classList].find((c) => c.startsWith("c-"));
			const plain = document.querySelector(`.bed.${colour}:not(.lit):not(.filled) .hex`);
			const hex = getComputedStyle(b.querySelector(".hex"));
			return { colour, lit: hex.fill, plain: plain && getComputedStyle(plain).fill, ring: parseFloat(hex.strokeWidth) };
		}));
		for (const f of fills) assert(f.plain && f.lit === f.plain && f.ring >= 4, `${v}: a lit ${f.colour} bed: ${JSON.stringify(f)}`);
		// after a theme switch (each of the button's three modes) the lit beds stay between the bars
		for (let i = 0; i < 3; i++) {
			await P.click("#theme");
			const r = await clearOfBars(P, ".bed.lit");
			assert(!r, `${v}: after the theme button (${await P.locator("#theme").getAttribute("data-mode")}): ${r}`);
		}
		// a bed with several values opens the picker: that bed stays in view above it
		const n = await P.locator(".bed.lit").count();
		for (let i = n - 1; i >= 0 && !(await P.locator(".picker").count()); i--) await P.locator(".bed.lit").nth(i).click();
		await P.locator(".picker").waitFor();
		const r = await clearOfBars(P, ".bed.picking");
		assert(!r, `${v}: the bed being written is covered: ${r}`);
		// its choices in words: "1 stethoscope", "2 stethoscopes", never "(s)"
		const choices = await P.locator(".picker .value small").allInnerTexts();
		const one = S["count.steth.one"].replace("{n}", "1"), two = S["count.steth.other"].replace("{n}", "2");
		assert(choices.some((c) => c === one) && choices.some((c) => c === two) && !choices.some((c) => c.includes("(s)")), `${v}: ${choices}`);
		await screen(P, `er-picker-open-${v}`);
		await P.context().close();
	}
});

await test("n-header-and-prompt-fit-360", async () => {
	for (const [locale, colorScheme, v] of [["en-GB", "light", "en"], ["en-GB", "dark", "en-dark"], ["fr-FR", "light", "fr"], ["fr-FR", "dark", "fr-dark"]]) {
		const P = await litBoard(locale, colorScheme);
		for (let i = 0; i < 3; i++) {
			// the game's name on at most two lines, clear of the leagues link, whatever the theme button says
			const m = await P.evaluate(() => {
				const b = document.querySelector(".brand"), l = document.querySelector(".top-link");
				const lines = Math.round(b.lastChild.nodeType === 3 ? (() => { const r = document.createRange(); r.selectNodeContents(b.lastChild); return r.getClientRects().length; })() : 0);
				return { lines, gap: l.getBoundingClientRect().left - b.getBoundingClientRect().right, text: b.innerText };
			});
			assert(m.lines >= 1 && m.lines <= 2 && m.gap >= 4, `${v} (${await P.locator("#theme").getAttribute("data-mode")}): "${m.text}" on ${m.lines} lines, ${m.gap} px from the leagues link`);
			await P.click("#theme");
		}
		// the turn's prompt and its buttons take at most a quarter of the screen
		const dock = await P.locator(".dock").boundingBox();
		assert(dock.height <= 740 / 4, `${v}: the dock is ${Math.round(dock.height)} px high: ${await P.locator("#status").innerText()}`);
		await P.context().close();
	}
});

await test("o-alicat-line-explains-its-points", async () => {
	for (const [locale, colorScheme, v, S] of [["en-GB", "light", "en", EN], ["fr-FR", "dark", "fr-dark", FR]]) {
		const g = (await api("POST", "/er/games", { players: [{ name: "Solo" }], solo: true, deck: "app", seed: 21 })).body;
		const P = await phone({ locale, colorScheme, height: 740 });
		await P.goto(`${BASE}/#game=${g.id}&token=${g.seats[0].seat_token}`);
		await P.click("#reveal");
		await tapMove(P);
		await P.locator("#alicat-move").waitFor();
		const st = (await api("GET", `/er/games/${g.id}`, null, g.host_token)).body;
		const bot = st.seats.find((s) => s.bot);
		await P.locator("#alicat-move", { hasText: String(bot.score.total) }).waitFor();
		const line = await P.locator("#alicat-move").innerText();
		// the score and every part of it that is not zero, in words
		const parts = Object.entries(bot.score.breakdown).filter(([, n]) => n);
		assert(parts.every(([k, n]) => line.includes(`${S[`score.${k}`]} ${n}`)) && line.includes(String(bot.score.total)), `${v}: ${line} / ${JSON.stringify(bot.score)}`);
		assert(!/\(s\)/.test(line), `${v}: ${line}`);
		// "How ALICAT scores" is a button: bordered, 44 px high, it opens the rules
		const how = P.locator(".alicat-rules summary");
		const look = await how.evaluate((e) => ({ border: parseFloat(getComputedStyle(e).borderTopWidth), h: e.getBoundingClientRect().height }));
		assert(look.border >= 1 && look.h >= 44, `${v}: the rules' summary looks like ${JSON.stringify(look)}`);
		await how.click();
		await P.locator("#alicat-start").waitFor();
		await P.locator("#alicat").scrollIntoViewIfNeeded();
		await screen(P, `er-alicat-line-${v}`);
		await P.context().close();
	}
});

await ES.finish("erscreens");
