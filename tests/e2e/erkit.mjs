// What the ER phone tests share (er.mjs: a table's game on three phones; erscreens.mjs: the
// home screens, a solo game and the screens' details; display.mjs and ertable.mjs tap the same way): the
// phone at the smallest size we support, the checks every screen gets, moves made by tapping.
import { BASE, assert, erLayoutCheck } from "./lib.mjs";

/** A file's phone (360 × 640 unless asked otherwise), text of a selector, and screen(): axe
 * (collected by the file's suite), the ER layout check (asserted) and a screenshot. */
export function erKit(S) {
	const phone = (o = {}) => S.phone({ height: 640, ...o });
	const text = (page, sel) => page.locator(sel).first().textContent();
	/** The checks every screen gets: axe (collected), layout (asserted), a screenshot. */
	async function screen(page, name, fullPage = false) {
		await S.shot(page, name, fullPage);
		await S.audit(page, name);
		await erLayoutCheck(page, name);
	}
	return { phone, text, screen };
}

/** One move made only by tapping: a die (not the chief's when another is free), then the lit
 * beds (first value offered) or the morgue, until the move can be submitted. */
export async function tapMove(page, { submit = true } = {}) {
	const bays = page.locator('.bay:not([aria-disabled="true"])');
	await bays.first().waitFor();
	const free = page.locator('.bay:not([aria-disabled="true"]):not(.chief-die)');
	await ((await free.count()) ? free.first() : bays.first()).click();
	await finishDraft(page);
	if (submit) await page.click("#submit");
}

/** Finishes the draft of the move begun: the lit beds (first value offered) or the morgue,
 * until the move can be submitted. */
export async function finishDraft(page) {
	for (let i = 0; i < 8; i++) {
		await page.locator('.sheet-panel[data-opts="ready"]').waitFor();
		if (await page.locator("#submit:not([disabled])").count()) break;
		const lit = page.locator(".bed.lit");
		if (await lit.count()) {
			await lit.first().click();
			if (await page.locator(".picker").count()) await page.locator(".picker button.value").first().click();
		} else if (await page.locator("#morgue").count()) await page.click("#morgue");
		else await page.locator('.bed.lit, #morgue, #submit:not([disabled])').first().waitFor();
		// a tap is drawn before click() returns (the store renders in a microtask); what it
		// loads afterwards, the panel's ready flag waits for
	}
	await page.locator("#submit:not([disabled])").waitFor();
}

/** The Chief Physician enters a card not yet flipped (the first offered) and dice. */
export async function tapReveal(page, n) {
	await page.locator(".reveal-panel .pick-card").first().waitFor();
	const card = Number(await page.locator(".pick-card").first().getAttribute("data-card"));
	await page.locator(".pick-card").first().click();
	for (const [i, c] of ["red", "yellow", "green"].entries()) await page.click(`[data-roll="${c}"][data-value="${((n + i * 2) % 6) + 1}"]`);
	await page.click("#reveal");
	return card;
}

/** The home screen with Dice Hospital: ER chosen (a new phone sees the choice of game first). */
export async function erHome(page) {
	await page.goto(BASE + "/");
	await page.click("#pick-er");
	await page.locator("#new-game").waitFor();
}

/** The header's words: the game the screen is about, or the product's name. */
export const brand = (page) => page.locator("header .brand").first().innerText();

/** No raw string key on screen (a missing string shows as its key, "home.title"). */
export async function noRawKeys(page, name) {
	const raw = (await page.locator("body").innerText()).match(/\b(?:app|name|home|new|join|created|print|game|tt|nav)\.[a-z][a-z0-9_]*\b/);
	assert(!raw, `${name}: untranslated key on screen: ${raw && raw[0]}`);
}

/** Waits until the page shows turn n; on a timeout, says what the phone shows and holds. */
export async function waitTurn(page, n) {
	try {
		await page.locator("#turn-number", { hasText: `${n}/24` }).waitFor();
	} catch (e) {
		// what the phone says and holds, to tell a lost live update from a move never sent
		const status = await page.locator("#status").innerText().catch(() => "?");
		const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => /queue|draft/.test(k)).map((k) => `${k}=${localStorage.getItem(k).slice(0, 300)}`).join("\n    ")).catch(() => "?");
		throw new Error(`${e.message.split("\n")[0]}\n  turn shown: ${await page.locator("#turn-number").innerText().catch(() => "?")}; status: ${status}\n    ${kept}`);
	}
}
