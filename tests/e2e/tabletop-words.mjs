// Browser tests of the words of the Dice Hospital and Clinic screens (static/tabletop/) on a
// 360 × 740 phone, in English and French, light and dark: joining a table by its seats' names
// (a claimed seat taken over only after a question), refusals that name the player and the field
// in words with the rule's sentence, the French rulebook's terms (seed 004) with French
// typography, numbers, dollars and dates written the language's way, and the Clinic Business
// helper's zombies row. Two checks need no browser: every rule id the server can send for these
// games has a sentence in both languages, and no French string lacks its no-break space before
// ':' ';' '?' '!'. Every screenshot is checked with axe-core and for controls cut, overlapping or
// too small. Run by all.mjs (lib.mjs: the runner, phones, axe).
import { BASE, ROOT, api, assert, fill, readJson, suite, phoneLayoutCheck } from "./lib.mjs";
import { existsSync, readFileSync, readdirSync } from "node:fs";

const TT_EN = readJson("static/i18n/tabletop.en.json");
const TT_FR = readJson("static/i18n/tabletop.fr.json");
const EN = { ...readJson("static/i18n/en.json"), ...TT_EN };
const FR = { ...readJson("static/i18n/fr.json"), ...TT_FR };
const W = suite("tabletop-words");
const { test } = W;

async function created(path, body) {
	const r = await api("POST", path, body);
	assert(r.status === 201, `${path}: ${r.status} ${JSON.stringify(r.body)}`);
	return r.body;
}

const phone = ({ locale = "en-GB", dark = false } = {}) => W.phone({ locale, colorScheme: dark ? "dark" : "light", timeout: 8000 });

/** French typography in text: what precedes ':' ';' '?' '!' is a no-break space (U+00A0 or U+202F).
 * Returns the offending snippets. */
function badFrench(text) {
	const out = [];
	for (const m of text.matchAll(/[:;?!]/g)) {
		const before = text[m.index - 1];
		if (before !== "\u00a0" && before !== "\u202f") out.push(JSON.stringify(text.slice(Math.max(0, m.index - 24), m.index + 2)));
	}
	return out;
}

/** The text the screen shows (options of a list included), but for a scoring profile's name:
 * the profile's data, worded by the profile's author or template. */
const frenchText = (page) => page.evaluate(() => {
	const out = [];
	const walk = document.createTreeWalker(document.getElementById("app"), NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest("#tt-profile, .tt-profile-line, [hidden]") || !(el.closest("select") || el.checkVisibility())) continue;
		out.push(n.data);
	}
	return out.join("\n");
});

/** The layout at 360 px: nothing wider than the screen, no two controls overlapping, no text
 * spilling out of its control (fields and lists aside), tap targets of 44 px (links in running
 * text are no controls here). The header is not these screens'. */
const layoutCheck = (page, name) => phoneLayoutCheck(page, name, {
	controls: "#app button, #app a.button, #app input:not([type=radio]):not([type=checkbox]), #app select", outside: true, noText: "input, select",
});

/** Every screen: no string key on screen, French typography in French, axe (collected), the
 * layout (asserted), a screenshot of the viewport (or of the whole page). */
async function screen(page, name, fullPage = false) {
	const text = await page.locator("#app").innerText();
	const raw = text.match(/\b(?:tt|ttr|ttrule|rule|game|join|new|created|error)\.[a-z][a-z0-9_.-]*\b/);
	assert(!raw, `${name}: untranslated key on screen: ${raw && raw[0]}`);
	if ((await page.evaluate(() => document.documentElement.lang)) === "fr") {
		const bad = badFrench(await frenchText(page));
		assert(bad.length === 0, `${name}: French punctuation without its no-break space: ${bad.slice(0, 6).join(", ")}`);
	}
	await W.shot(page, name, fullPage);
	await W.audit(page, name);
	await layoutCheck(page, name);
}

/** Taps the + of a stepper n times. */
async function bump(page, seat, field, n) {
	const plus = page.locator(`.tt-stepper[data-seat="${seat}"][data-field="${field}"] button`).nth(1);
	for (let i = 0; i < n; i++) await plus.click();
}

/** The text of the refusal shown (#tt-error unless another id is given), once it is there. */
async function refusal(page, sel = "#tt-error") {
	await page.locator(sel).waitFor();
	return page.locator(sel).innerText();
}

/** A refusal that shows no HTTP status, rule id, JSON pointer nor the server's English detail. */
async function assertInWords(page, sel = "#tt-error") {
	const el = page.locator(sel);
	const [txt, rule, field, detail] = [await el.innerText(), await el.getAttribute("data-rule"), await el.getAttribute("data-field"), await el.getAttribute("data-detail")];
	assert(!/\b[45]\d\d\b/.test(txt), `an HTTP status on screen: ${txt}`);
	assert(!rule || !txt.includes(rule), `the rule id on screen: ${txt}`);
	assert(!/(^|\s)\/[a-z_]+(\/|\b)/.test(txt) && !(field && txt.includes(field)), `a JSON pointer on screen: ${txt}`);
	assert(!detail || !txt.includes(detail), `the server's English detail on screen: ${txt}`);
	return txt;
}

// ---- checks of the strings themselves (no browser) ----

await test("tw-a-every-rule-has-a-sentence", async () => {
	// every rule id the server can send for Dice Hospital and Clinic: their rules, their kinds,
	// the shared rounds module, and the table engine under them (ids passed to tt_fail,
	// table_refuse or http_reply_problem)
	const dirs = [["src/rules/", /^(dh|clinic|tabletop)\.c$/], ["src/games/dh/", /\.c$/], ["src/games/clinic/", /\.c$/], ["src/games/rounds/", /\.c$/], ["src/engine/", /\.c$/]];
	const ids = new Set();
	for (const [dir, re] of dirs) {
		const url = new URL(dir, ROOT);
		if (!existsSync(url)) continue;
		for (const f of readdirSync(url).filter((f) => re.test(f))) {
			const c = readFileSync(new URL(dir + f, ROOT), "utf8");
			for (const call of c.matchAll(/\b(?:tt_fail|table_refuse|http_reply_problem(?:_ex)?)\(([\s\S]*?)\);/g))
				for (const m of call[1].matchAll(/"([a-z]+(?:-[a-z0-9]+)+)"/g)) ids.add(m[1]);
		}
	}
	assert(ids.size >= 45 && ["too-many-discharged", "bought-with-unpaid-expenses", "seat-claimed", "seat-replaced", "profile-unknown"].every((r) => ids.has(r)),
		`rule ids found: ${[...ids].join(" ")}`);
	const problems = [];
	for (const id of [...ids].sort()) {
		if (!(TT_EN[`ttrule.${id}`] || "").trim()) problems.push(`ttrule.${id} missing in tabletop.en.json`);
		if (!(TT_FR[`ttrule.${id}`] || "").trim()) problems.push(`ttrule.${id} missing in tabletop.fr.json`);
	}
	for (const k of Object.keys(TT_EN).filter((k) => k.startsWith("ttrule.") && !(k in TT_FR))) problems.push(`${k} has no French`);
	assert(problems.length === 0, problems.join("\n"));
});

await test("tw-b-french-typography-of-the-strings", async () => {
	// a no-break space (U+00A0, or the narrow U+202F) before ':' ';' '?' '!', never a plain one or
	// none — in every French string file of the product (ER, tabletop, leagues, display, box check)
	const dir = new URL("static/i18n/", ROOT);
	const files = readdirSync(dir).filter((f) => /(^|\.)fr\.json$/.test(f));
	assert(files.length >= 5, `French files: ${files}`);
	const bad = files.flatMap((f) => Object.entries(readJson(`static/i18n/${f}`)).filter(([, v]) => typeof v === "string").flatMap(([k, v]) => badFrench(v).map((s) => `${f} ${k}: ${s}`)));
	assert(bad.length === 0, `${bad.length} French string(s) without the no-break space:\n${bad.slice(0, 20).join("\n")}`);
});


// ---- joining by seat ----

await test("tw-c-join-by-seat-name-and-take-over", async () => {
	const g = await created("/dh/games", { players: [{ name: "Ann" }, { name: "Bob" }, { name: "Cy" }], solo: false });
	// the first phone: the table's three seats by name (not 1–4), all free; Bob's seat
	const X = await phone();
	await X.goto(`${BASE}/#tt=dh`);
	await X.fill("#tt-join-code", g.code.toLowerCase());
	const seats = X.locator("#tt-join .seat");
	await seats.first().waitFor();
	const listed = await seats.evaluateAll((els) => els.map((e) => [e.dataset.seat, e.querySelector(".pname").textContent, e.dataset.claimed]));
	assert(JSON.stringify(listed) === JSON.stringify([["1", "Ann", "false"], ["2", "Bob", "false"], ["3", "Cy", "false"]]), `seats ${JSON.stringify(listed)}`);
	await X.locator("#tt-join").scrollIntoViewIfNeeded();
	await screen(X, "tw-join-seats-en-light");
	await X.click('#tt-join .seat[data-seat="2"]');
	await X.locator('#tt-entry .tt-seat[data-seat="2"]').waitFor();

	// a second phone, in French and dark: Bob's seat is marked taken; a tap asks first
	const Y = await phone({ locale: "fr-FR", dark: true });
	await Y.goto(`${BASE}/#tt=dh`);
	await Y.fill("#tt-join-code", g.code);
	const bob = Y.locator('#tt-join .seat[data-seat="2"]');
	await bob.waitFor();
	assert((await bob.getAttribute("data-claimed")) === "true", "Bob's seat marked claimed");
	assert((await bob.innerText()).includes(FR["tt.join.claimed"]), await bob.innerText());
	await bob.click();
	const q = Y.locator("#tt-confirm-q");
	await q.waitFor();
	assert((await q.innerText()) === FR["tt.join.replace_q"], await q.innerText());
	assert((await Y.locator("#tt-confirm-more").innerText()) === fill(FR["tt.join.replace_more"], { name: "Bob" }), "the other phone loses the seat, said so");
	assert(await Y.locator("#tt-confirm-replace").evaluate((el) => el === document.activeElement), "the confirmation has the focus");
	await Y.locator("#tt-join").scrollIntoViewIfNeeded();
	await screen(Y, "tw-join-confirm-fr-dark");
	// nothing was sent before the answer: the first phone still enters Bob's seat
	assert((await api("GET", `/join/${g.code}`)).body.seats[1].claimed, "still claimed");
	const [sent] = await Promise.all([Y.waitForRequest((r) => r.url().endsWith("/api/v1/join") && r.method() === "POST"), Y.click("#tt-confirm-replace")]);
	assert(sent.postDataJSON().replace === true && sent.postDataJSON().seat === 2, `sent ${sent.postData()}`);
	await Y.locator('#tt-entry .tt-seat[data-seat="2"]').waitFor();
	assert((await Y.locator(".you-line").innerText()) === fill(FR["tt.you"], { name: "Bob" }), await Y.locator(".you-line").innerText());

	// the first phone lost the seat: its next save says so in words
	await bump(X, 2, "discharged.red", 1);
	await X.locator("#tt-save").click();
	const lost = await refusal(X);
	assert(lost.includes(`Bob — ${EN["tt.w.seat"]}`) && lost.includes(EN["ttrule.seat-replaced"]), lost);
	await assertInWords(X);
	assert((await X.locator("#tt-rejoin").getAttribute("href")) === `#join=${g.code}`, "a way back to the table's seats");
	await X.locator("#tt-error").scrollIntoViewIfNeeded();
	await screen(X, "tw-seat-lost-en-light");

	// a seat claimed between reading the list and the tap (409 seat-claimed): the same question
	const Z = await phone();
	await Z.goto(`${BASE}/#tt=dh`);
	await Z.fill("#tt-join-code", g.code);
	await Z.locator('#tt-join .seat[data-seat="3"][data-claimed="false"]').waitFor();
	assert((await api("POST", "/join", { code: g.code, seat: 3 })).status === 200, "Cy's seat claimed elsewhere");
	await Z.click('#tt-join .seat[data-seat="3"]');
	await Z.locator("#tt-confirm-q").waitFor();
	assert((await Z.locator("#tt-confirm-q").innerText()) === EN["tt.join.replace_q"], "asked after the race");
	assert((await Z.locator('#tt-join .seat[data-seat="3"]').getAttribute("data-claimed")) === "true", "now marked claimed");
	assert(!(await Z.locator("#tt-join-error").count()), "no refusal shown for the race");
	await Z.locator("#tt-join").scrollIntoViewIfNeeded();
	await screen(Z, "tw-join-confirm-en-light");
	await Z.click("#tt-cancel-replace");
	await Z.locator("#tt-confirm-q").waitFor({ state: "detached" });
	// a code that is no table, in words; an ER table's code, sent to its own seats
	await Z.fill("#tt-join-code", "ZZZZZZ");
	const none = await refusal(Z, "#tt-join-error");
	assert(none.includes(EN["tt.join.no_table"]), none);
	const er = await created("/er/games", { players: [{ name: "Ana" }, { name: "Ben" }], deck: "app", seed: 3 });
	await Z.fill("#tt-join-code", er.code);
	await Z.locator(`#tt-join-other a[href="#join=${er.code}"]`).waitFor();
	assert(!(await Z.locator("#tt-join-error").count()), "the refusal gone with the new code");
	for (const p of [X, Y, Z]) await p.context().close();
});

// ---- refusals in words ----

await test("tw-d-refusals-name-the-player-and-field", async () => {
	// Dice Hospital: Bob's 13 discharged patients (a hospital holds 12; seed 000, PHASE 1)
	const g = await created("/dh/games", { players: [{ name: "Ann" }, { name: "Bob" }], solo: false });
	const H = await phone({ dark: true });
	await H.goto(`${BASE}/#tt=dh&game=${g.id}&token=${encodeURIComponent(g.host_token)}`);
	await H.locator('#tt-entry .tt-seat[data-seat="2"]').waitFor();
	await bump(H, 2, "discharged.red", 12);
	await bump(H, 2, "discharged.yellow", 1);
	await H.locator("#tt-save").click();
	let txt = await refusal(H);
	assert((await H.locator("#tt-error").getAttribute("data-rule")) === "too-many-discharged", "the rule kept in data-rule");
	assert(txt.includes(`Bob — ${EN["ttr.discharge-table"]}`) && txt.includes(EN["ttrule.too-many-discharged"]), `English: ${txt}`);
	await assertInWords(H);
	await H.locator("#tt-error").scrollIntoViewIfNeeded();
	await screen(H, "tw-refusal-en-dark");
	// the same refusal reworded in French, without the server's English
	await H.selectOption("#lang", "fr");
	await H.locator("#tt-error", { hasText: FR["ttrule.too-many-discharged"] }).waitFor();
	txt = await assertInWords(H);
	assert(txt.includes(`Bob — ${FR["ttr.discharge-table"]}`), `French: ${txt}`);
	await H.locator("#tt-error").scrollIntoViewIfNeeded();
	await screen(H, "tw-refusal-fr-dark");
	await H.context().close();

	// Clinic: Eve buys popularity in a round whose expenses went unpaid (seed 001, Phase 2)
	const c = await created("/clinic/games", { players: [{ name: "Eve" }, { name: "Flo" }], solo: false, expansions: [] });
	const C = await phone({ locale: "fr-FR" });
	await C.goto(`${BASE}/#tt=clinic&game=${c.id}&token=${encodeURIComponent(c.host_token)}`);
	await C.locator('#tt-entry .tt-seat[data-seat="1"]').waitFor();
	await bump(C, 1, "popularity_bought", 1);
	await bump(C, 1, "unpaid_expenses", 1);
	await C.locator("#tt-save").click();
	txt = await refusal(C);
	const bought = fill(FR["tt.c.popularity_bought"], { money: new Intl.NumberFormat("fr-FR", { style: "currency", currency: "USD", currencyDisplay: "narrowSymbol", maximumFractionDigits: 0 }).format(3) });
	assert(txt.includes(`Eve — ${bought}`) && txt.includes(FR["ttrule.bought-with-unpaid-expenses"]), `Clinic: ${txt}`);
	await assertInWords(C);
	await C.locator("#tt-error").scrollIntoViewIfNeeded();
	await screen(C, "tw-refusal-clinic-fr-light");
	await C.context().close();

	// the new-game form: two players with the same Administrator card (seed 000, SET UP)
	const N = await phone();
	await N.goto(`${BASE}/#tt=dh`);
	await N.fill('input[name="tt-player1"]', "Ann");
	await N.fill('input[name="tt-player2"]', "Bob");
	await N.selectOption('select[name="tt-admin1"]', "most-discharged");
	await N.selectOption('select[name="tt-admin2"]', "most-discharged");
	await N.click("#tt-create");
	txt = await refusal(N);
	assert(txt.includes(`Bob — ${EN["tt.administrator"]}`) && txt.includes(EN["ttrule.administrator-twice"]), `create: ${txt}`);
	await assertInWords(N);
	// a name left empty names the player by number
	await N.fill('input[name="tt-player2"]', "");
	await N.click("#tt-create");
	await N.locator("#tt-error", { hasText: EN["new.name_needed"] }).waitFor();
	assert((await N.locator("#tt-error").innerText()).includes(fill(EN["new.player"], { n: 2 })), await N.locator("#tt-error").innerText());
	await N.context().close();
});

// ---- French: the rulebook's words, typography, numbers and dates ----

await test("tw-e-french-rulebook-terms-numbers-dates", async () => {
	const F = await phone({ locale: "fr-FR" });
	await F.goto(`${BASE}/#tt=dh`);
	await F.locator("#tt-new").waitFor();
	const form = await F.locator("#tt-new").innerText();
	// seed 004: "jeton Premier joueur", MODE DIFFICILE, RÈGLES OPTIONNELLES, OFFICIER D'ÉTAT CIVIL
	for (const words of ["Premier joueur", "Panique aux admissions", "Épidémie nationale", "Virus super résistant", "Transfert final", "Cartes Événement", "Officier d'état civil"])
		assert(form.includes(words), `the French rulebook's "${words}" on the new-game form:\n${form}`);
	for (const wrong of ["Médecin-chef", "Crise d'ouverture", "Superbactérie", "(Interne)"]) assert(!form.includes(wrong), `"${wrong}" on the form`);
	const admins = await F.locator('select[name="tt-admin1"] option').allInnerTexts();
	assert(admins.includes(TT_FR["tt.admin.discharge-2-red"]) && TT_FR["tt.admin.discharge-2-red"].startsWith("Au moins 2 patients rouges sortis"), admins.join(" | "));
	await screen(F, "tw-dh-new-fr-light", true);

	// a finished game in French: ranks "1er", "2e", points with the language's signs
	const g = await created("/dh/games", { players: [{ name: "Léa" }, { name: "Hugo" }], solo: false });
	for (let r = 1; r <= 8; r++) {
		const res = await api("PUT", `/dh/games/${g.id}/rounds/${r}`, { entries: [{ seat: 1, discharged: { red: 2, yellow: 0, green: 0 } }, { seat: 2, discharged: { red: 1, yellow: 0, green: 0 } }] }, g.host_token);
		assert(res.status === 200, `round ${r}: ${res.status} ${JSON.stringify(res.body)}`);
	}
	const fin = await api("POST", `/dh/games/${g.id}/finish`, { entries: [{ seat: 1, fatalities: 1, patients_left: 2, pips_left: 6 }, { seat: 2, patients_left: 2, pips_left: 6 }] }, g.host_token);
	assert(fin.status === 200, `finish: ${fin.status} ${JSON.stringify(fin.body)}`);
	const D = await phone({ locale: "fr-FR", dark: true });
	await D.goto(`${BASE}/#tt=dh&game=${g.id}&token=${encodeURIComponent(g.host_token)}`);
	await D.locator("#tt-standings li").first().waitFor();
	const ranks = await D.locator("#tt-standings .tt-rank").allInnerTexts();
	assert(JSON.stringify(ranks) === JSON.stringify(["1er", "2e"]), `French ranks ${JSON.stringify(ranks)}`);
	await D.locator('.tt-score[data-seat="1"] .tt-score-head').click();
	const fatal = D.locator('.tt-score[data-seat="1"] .tt-reason[data-rule="fatality"] .tt-pts');
	await fatal.waitFor();
	assert((await fatal.innerText()) === new Intl.NumberFormat("fr-FR", { signDisplay: "exceptZero" }).format(-2), await fatal.innerText());
	await screen(D, "tw-dh-ranking-fr-dark", true);

	// a solo game's record on this phone, with its day as French writes it (seed 000, SOLO PLAY
	// RULES: "keep the record of your final score")
	const solo = await created("/dh/games", { players: [{ name: "Léa" }], solo: true,
		reports: Array.from({ length: 6 }, () => ({ red: 1, yellow: 0, green: 0, points: 2 })) });
	for (let r = 1; r <= 8; r++) {
		const res = await api("PUT", `/dh/games/${solo.id}/rounds/${r}`, { entries: [{ seat: 1, discharged: { red: 1, yellow: 0, green: 0 } }], reports_completed: [] }, solo.host_token);
		assert(res.status === 200, `solo round ${r}: ${res.status} ${JSON.stringify(res.body)}`);
	}
	const end = await api("POST", `/dh/games/${solo.id}/finish`, { entries: [{ seat: 1, patients_left: 1, pips_left: 3 }] }, solo.host_token);
	assert(end.status === 200, `solo finish: ${end.status} ${JSON.stringify(end.body)}`);
	await D.goto(`${BASE}/#tt=dh&game=${solo.id}&token=${encodeURIComponent(solo.host_token)}`);
	const best = D.locator("#tt-best");
	await best.waitFor();
	const total = Number(await best.getAttribute("data-best"));
	const today = new Intl.DateTimeFormat("fr-FR", { dateStyle: "medium" }).format(new Date());
	const want = fill(FR["tt.personal_best_day"], { n: new Intl.NumberFormat("fr-FR").format(total), date: today });
	assert((await best.innerText()) === want, `${JSON.stringify(await best.innerText())} != ${JSON.stringify(want)}`);
	await best.scrollIntoViewIfNeeded();
	await screen(D, "tw-dh-solo-best-fr-dark");
	for (const p of [F, D]) await p.context().close();
});

// ---- the Clinic Business helper's zombies ----

await test("tw-f-business-zombies-row", async () => {
	const open = async (page, g) => {
		await page.goto(`${BASE}/#tt=clinic&game=${g.id}&token=${encodeURIComponent(g.host_token)}`);
		await page.locator("#tt-biz-toggle").click();
		await page.locator("#tt-biz-go").waitFor();
	};
	// without the Zombies in a Clinic expansion: no zombies row
	const plain = await created("/clinic/games", { players: [{ name: "Eve" }, { name: "Flo" }], solo: false, expansions: [] });
	const E = await phone();
	await open(E, plain);
	assert(!(await E.locator('[data-biz="zombies_cured"]').count()), "a zombies row without the expansion");
	// with it: the row, in dollars as each language writes them (seed 001: $32 per zombie cured)
	const z = await created("/clinic/games", { players: [{ name: "Eve" }, { name: "Flo" }], solo: false, expansions: ["zombies"] });
	await open(E, z);
	const row = E.locator('.tt-row:has([data-biz="zombies_cured"]) .tt-label');
	assert((await row.innerText()) === "Zombies cured in a lab ($32 each)", await row.innerText());
	await E.click("#tt-biz-go");
	const income0 = await E.locator('[data-out="income"] dd').innerText();
	await E.locator('[data-biz="zombies_cured"] button').nth(1).click();
	await E.click("#tt-biz-go");
	await E.locator('[data-out="income"] dd', { hasText: "$32" }).waitFor();
	assert(income0.startsWith("$0"), `income before: ${income0}`);
	await E.locator("#tt-business").scrollIntoViewIfNeeded();
	await screen(E, "tw-business-en-light");
	await E.context().close();

	const F = await phone({ locale: "fr-FR", dark: true });
	await open(F, z);
	const frRow = await F.locator('.tt-row:has([data-biz="zombies_cured"]) .tt-label').innerText();
	assert(frRow === "Zombies guéris dans un laboratoire (32\u00a0$ chacun)", JSON.stringify(frRow));
	await F.click("#tt-biz-go");
	const upkeep = await F.locator('[data-out="upkeep"] dd').innerText();
	assert(upkeep.startsWith("4\u00a0$"), JSON.stringify(upkeep));
	await F.locator("#tt-business").scrollIntoViewIfNeeded();
	await screen(F, "tw-business-fr-dark");
	await F.context().close();
});

await W.finish("tw");
