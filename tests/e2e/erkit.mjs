// What the ER phone tests share (er.mjs: a table's game on three phones; erscreens.mjs: the
// home screens, a solo game and the screens' details; display.mjs and ertable.mjs tap the same way): the
// phone at the smallest size we support, the checks every screen gets, moves made by tapping.
import { BASE, api, assert, erLayoutCheck } from "./lib.mjs";

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

/** A finished ER game played through the API (app deck, seeded): each seat takes its first
 * legal option with a die it pays nothing for, or sends the patient to the morgue. Returns the
 * created game (id, host_token, seats with their tokens). */
export async function playErByApi(names, seed = 7) {
	const data = (await api("GET", "/er/data")).body;
	const bayOf = (card, die) => data.cards.find((c) => c.id === card).bays[die];
	const g = (await api("POST", "/er/games", { players: names.map((name) => ({ name })), deck: "app", seed })).body;
	const tok = Object.fromEntries(g.seats.map((s) => [s.seat, s.seat_token]));
	let cur = (await api("GET", `/er/games/${g.id}`, undefined, g.host_token)).body;
	while (cur.status !== "finished") {
		cur = (await api("POST", `/er/games/${g.id}/turns`, { turn: cur.next.turn }, g.host_token)).body;
		const first = cur.turn.chief_seat;
		for (const seat of [first, ...g.seats.map((s) => s.seat).filter((n) => n !== first)]) {
			const tr = cur.turn; // the chief's die is known once the chief has moved
			const chief = seat === tr.chief_seat;
			const turn = { card: tr.card, dice: tr.dice, chief, chief_die: chief ? null : tr.chief_die };
			const dice = ["red", "yellow", "green"].filter((c) => chief || c !== tr.chief_die);
			const opts = (await api("POST", "/er/moves/options", { sheet: cur.seats[seat - 1].sheet, turn })).body.options;
			const o = opts.find((x) => dice.includes(x.die) && x.blood_bags === 0);
			const die = o ? o.die : dice[0];
			const steps = [];
			if (o && o.screen_first) steps.push({ screen: o.ward });
			if (o) steps.push({ admit: o.patient, ward: o.ward, value: o.value, recolour: o.recolour });
			else steps.push({ morgue: "die" });
			if (bayOf(tr.card, die).bonus === "extra") steps.push({ morgue: o && o.patient === "extra" ? "die" : "extra" });
			const r = await api("POST", `/er/games/${g.id}/seats/${seat}/moves`, { turn: tr.number, move: { die, steps } }, tok[seat]);
			assert(r.status === 200, `move: ${r.status} ${JSON.stringify(r.body)}`);
			cur = r.body;
		}
	}
	return g;
}
