// Browser tests of the coach (static/coach.js): a seeded two-player ER game (app deck) played to
// its end through the API (erkit.mjs), then on Ann's phone at 360 px "How good could it have
// been?": the busy state while the analysis runs, both sheets drawn, the turn slider moving both,
// the totals as the analysis gives them, the three costliest turns in one sentence each in
// English and French, the honest note, the PDF; then the table display (1280 × 720) at the game's
// end with each human seat's coach, in English and French, and four players chosen from a list.
// Every screen audited with axe-core and the layout checks. Screenshots: build/e2e/coach-*.png. Run by all.mjs.
import { BASE, api, assert, readJson, suite, tvLayoutCheck } from "./lib.mjs";
import { erKit, playErByApi } from "./erkit.mjs";

const C = suite("coach");
const { test, audit, shot } = C;
const { phone, screen } = erKit(C);
const EN = { ...readJson("static/i18n/en.json"), ...readJson("static/i18n/coach.en.json") };
const FR = { ...readJson("static/i18n/fr.json"), ...readJson("static/i18n/coach.fr.json") };

const game = await playErByApi(["Ann", "Bob"], 11);
const ann = game.seats[0];
let analysis = null; // the API's, read once the phone has asked for it

/** The analysis as the API gives it (any token of the game), once computed: 202 asks again. */
async function analysisOf(seat, token) {
	for (let i = 0; i < 60; i++) {
		const r = await api("GET", `/er/games/${game.id}/seats/${seat}/analysis`, undefined, token);
		if (r.status === 200) return r.body;
		assert(r.status === 202, `analysis: ${r.status} ${JSON.stringify(r.body)}`);
		await new Promise((res) => setTimeout(res, 500)); // the server said: not yet
	}
	throw new Error("the analysis never came");
}

/** The sentence's start in each language: "Turn 7: ", "Tour 7 : ". */
const lead = (S, turn) => S["coach.turn_line"].split("{move}")[0].replace("{turn}", turn);

/** Waits for the coach's panel; checks its sheets, totals, sentences and note against the API's
 * analysis in the language of S. */
async function checkPanel(P, S, v) {
	await P.locator('#coach[aria-busy="false"] .coach-panel').waitFor({ timeout: 60000 });
	analysis ??= await analysisOf(1, ann.seat_token);
	const a = analysis;
	// both sheets drawn, at the end of the game, with their totals
	for (const [which, side] of [["player", a.player], ["best", a.best]]) {
		const sheet = P.locator(`.coach-sheet[data-sheet="${which}"]`);
		assert((await sheet.locator(".board .bed").count()) >= 30, `${v}: the ${which} board is drawn`);
		const filled = side.sheet.wards.reduce((k, w) => k + w.length, 0);
		assert(Number(await sheet.getAttribute("data-filled")) === filled, `${v}: ${which}: ${await sheet.getAttribute("data-filled")} beds filled, the sheet has ${filled}`);
		assert(Number(await sheet.locator(".coach-total").getAttribute("data-total")) === side.total, `${v}: ${which} total`);
	}
	// the totals table: every category, both columns
	const rows = await P.locator(".coach-totals tbody tr").evaluateAll((trs) => trs.map((tr) => [tr.dataset.cat, ...[...tr.querySelectorAll("td")].map((td) => td.textContent)]));
	for (const [cat, mine, best] of rows) {
		const want = cat === "total" ? [a.player.total, a.best.total] : [a.player.breakdown[cat], a.best.breakdown[cat]];
		assert(String(want[0]) === mine && String(want[1]) === best, `${v}: totals ${cat}: ${mine}/${best}, want ${want}`);
	}
	// the three costliest turns, one sentence each, in the language shown
	const costly = a.steps.filter((s) => typeof s.cost === "number" && s.cost > 0).sort((x, y) => y.cost - x.cost || x.turn - y.turn).slice(0, 3);
	const items = await P.locator(".coach-costly li").evaluateAll((lis) => lis.map((li) => ({ turn: Number(li.dataset.turn), text: li.querySelector("p").textContent })));
	assert(items.length === costly.length && costly.length === 3, `${v}: ${items.length} costliest turns shown, ${costly.length} in the analysis`);
	items.forEach((it, i) => {
		const st = costly[i];
		assert(it.turn === st.turn && it.text.startsWith(lead(S, st.turn)), `${v}: sentence ${i + 1}: ${it.text}`);
		const a1 = st.best_move.steps.find((x) => "admit" in x);
		if (a1) assert(it.text.includes(String(a1.ward)), `${v}: the ward in "${it.text}"`);
		assert(/[.!]$/.test(it.text) && !/\{\w+\}|\bcoach\./.test(it.text), `${v}: a whole sentence: ${it.text}`);
		assert(S === EN ? /\bpoints?\b/.test(it.text) : /\bpoints?\b/.test(it.text), `${v}: the points in words: ${it.text}`);
	});
	// the honest note: the best found, not a proven optimum; how far a search cut short got
	const note = await P.locator(".coach-note").first().innerText();
	assert(note.startsWith(S["coach.honest"].split("{width}")[0]), `${v}: the note: ${note}`);
	if (!a.complete) assert(note.includes(S["coach.partial"].split("{n}")[0].trim()), `${v}: a search cut short says so: ${note}`);
	return a;
}

await test("coach-a-phone-en", async () => {
	const P = await phone();
	await P.goto(`${BASE}/#game=${game.id}&token=${ann.seat_token}`);
	const open = P.locator("#coach-open");
	await open.waitFor();
	assert((await open.innerText()) === EN["coach.open"], await open.innerText());
	// busy while the analysis runs (the first ask computes it): every state the screen went
	// through is recorded, however short
	await P.evaluate(() => {
		window.coachStates = [];
		new MutationObserver(() => {
			const c = document.querySelector("#coach");
			const s = c && `${c.getAttribute("aria-busy")}:${!!c.querySelector("#coach-busy")}:${!!c.querySelector(".coach-panel")}`;
			if (s && window.coachStates.at(-1) !== s) window.coachStates.push(s);
		}).observe(document.body, { subtree: true, childList: true, attributes: true });
	});
	await open.click();
	const a = await checkPanel(P, EN, "en");
	const states = await P.evaluate(() => window.coachStates);
	assert(states.includes("true:true:false") && states.at(-1) === "false:false:true", `busy, then the panel: ${states}`);
	// the slider: both sheets after turn n
	const slider = P.locator(".coach-slider");
	assert((await slider.getAttribute("max")) === String(a.steps.length) && (await slider.inputValue()) === String(a.steps.length), "the slider starts at the end");
	const label = await P.locator(`label[for="${await slider.getAttribute("id")}"]`).innerText();
	assert(label.startsWith(EN["coach.slider"]), `the slider is labelled: ${label}`);
	for (const n of [5, 12]) {
		await slider.fill(String(n));
		const want = (sheet) => String(sheet.wards.reduce((k, w) => k + w.length, 0));
		const st = a.steps[n - 1];
		for (const [which, sheet] of [["player", st.player_sheet], ["best", st.best_sheet]])
			await P.locator(`.coach-sheet[data-sheet="${which}"][data-filled="${want(sheet)}"]`).waitFor();
		assert((await P.locator(".coach-slider-box output").innerText()).includes(String(n)), "the turn shown");
	}
	// a costly turn's button moves the slider there
	const first = P.locator(".coach-costly li").first();
	await first.locator("button").click();
	assert((await slider.inputValue()) === (await first.getAttribute("data-turn")), "See turn N moves the slider");
	await screen(P, "coach-phone-en", true);
	await slider.scrollIntoViewIfNeeded();
	await screen(P, "coach-phone-en-sheets");
	// the PDF, from the screen
	const [dl] = await Promise.all([P.waitForEvent("download"), P.click("#coach-pdf-p")]);
	const bytes = await (await import("node:fs")).promises.readFile(await dl.path());
	assert(bytes.subarray(0, 5).toString() === "%PDF-" && dl.suggestedFilename().endsWith(".pdf"), `the PDF: ${dl.suggestedFilename()}`);
	// back to the game
	await P.click("#coach-back");
	await P.locator("#coach-open").waitFor();
	await P.context().close();
});

await test("coach-b-phone-fr-dark", async () => {
	const P = await phone({ locale: "fr-FR", colorScheme: "dark" });
	await P.goto(`${BASE}/#game=${game.id}&token=${ann.seat_token}`);
	await P.locator("#coach-open", { hasText: FR["coach.open"] }).click();
	await checkPanel(P, FR, "fr");
	assert((await P.locator("h1").innerText()) === FR["coach.title"], "the French title");
	await screen(P, "coach-phone-fr-dark", true);
	// the language switched on the screen: the sentences follow
	await P.selectOption("#lang", "en");
	await P.locator("h1", { hasText: EN["coach.title"] }).waitFor();
	await checkPanel(P, EN, "fr→en");
	await P.context().close();
}, ["coach-a-phone-en"]);

await test("coach-c-big-screen", async () => {
	const r = await api("POST", `/er/games/${game.id}/display`, undefined, game.host_token);
	assert(r.status === 200, `display token: ${r.status}`);
	for (const [locale, S, v] of [["en-GB", EN, "en"], ["fr-FR", FR, "fr"]]) {
		const T = await C.phone({ width: 1280, height: 720, isMobile: false, locale, colorScheme: "light" });
		await T.goto(BASE + r.body.url);
		const picks = T.locator(".dsp-pick");
		await picks.nth(2).waitFor();
		assert((await picks.count()) === 3, `${v}: the ranking and a coach per human seat`);
		assert((await picks.nth(1).innerText()) === S["coach.pick_of"].replace("{name}", "Ann"), `${v}: ${await picks.nth(1).innerText()}`);
		await T.click('.dsp-pick[data-coach="1"]');
		await T.locator('#dsp-coach[aria-busy="false"] .coach-panel').waitFor({ timeout: 60000 });
		assert(!(await T.locator(".dsp-sheets").isVisible()), `${v}: the sheets give way to the coach`);
		assert((await T.locator("#dsp-coach .coach-sheet .board").count()) === 2, `${v}: two boards`);
		const items = await T.locator("#dsp-coach .coach-costly li p").allInnerTexts();
		assert(items.length === 3 && items.every((s, i) => s.startsWith(lead(S, analysis.steps.filter((x) => x.cost > 0).sort((x, y) => y.cost - x.cost || x.turn - y.turn)[i].turn))), `${v}: ${items.join(" | ")}`);
		await shot(T, `coach-display-${v}`);
		await audit(T, `coach-display-${v}`);
		await tvLayoutCheck(T, `coach-display-${v}`);
		// Bob's coach, then the ranking again
		await T.click('.dsp-pick[data-coach="2"]');
		await T.locator('#dsp-coach[aria-busy="false"] .coach-panel[data-seat="2"]').waitFor({ timeout: 60000 });
		await T.click('.dsp-pick[data-coach="ranking"]');
		await T.locator(".dsp-sheets").waitFor();
		assert(!(await T.locator("#dsp-coach").isVisible()), `${v}: the ranking again`);
		await T.context().close();
	}
}, ["coach-a-phone-en"]);

await test("coach-d-big-screen-four-players-choose-from-a-list", async () => {
	// four players: the strip offers a list (one line), not a button each
	const g4 = await playErByApi(["Ann", "Bartholomew Longname", "Cara", "Dev"], 12);
	const r = await api("POST", `/er/games/${g4.id}/display`, undefined, g4.host_token);
	const T = await C.phone({ width: 1280, height: 720, isMobile: false, colorScheme: "light" });
	await T.goto(BASE + r.body.url);
	await T.locator("#dsp-coach-pick").waitFor();
	assert((await T.locator("#dsp-coach-pick option").count()) === 5 && (await T.locator("button.dsp-pick").count()) === 0, "the ranking and four players in a list");
	await tvLayoutCheck(T, "coach-display-four-ranking");
	await T.selectOption("#dsp-coach-pick", "2");
	await T.locator('#dsp-coach[aria-busy="false"] .coach-panel[data-seat="2"]').waitFor({ timeout: 60000 });
	assert((await T.locator("#dsp-coach-h").innerText()).includes("Bartholomew Longname"), "the coach of the player chosen");
	await shot(T, "coach-display-four");
	await audit(T, "coach-display-four");
	await tvLayoutCheck(T, "coach-display-four");
	await T.context().close();
});

await C.finish("coach");
