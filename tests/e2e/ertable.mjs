// Browser tests of the ER screens at the table on a 360 × 740 phone: the lit beds and the dice of
// the turn in view together above the action bar, a move drafted offline, the solo game against
// ALICAT (its sheet, what it gained, its difficulty points, undo and a reload of the draft), a
// die and Submit held while other seats' moves arrive, the game's PDFs and the page their QR
// code opens on another phone, the LAN address offered when the page is on localhost, and join
// codes pasted with a space or a dash. Run by all.mjs (lib.mjs: the runner, phones, axe).
import { BASE, api, assert, erLayoutCheck, suite } from "./lib.mjs";
import { finishDraft, tapMove } from "./erkit.mjs";

const S = suite("ertable");
const { test, phone } = S;

/** A screenshot (light or dark, as the phone is), axe-core (collected), the layout (asserted). */
async function screen(page, name, fullPage = false) {
	await S.shot(page, name, fullPage);
	await S.audit(page, name);
	await erLayoutCheck(page, name);
}

/** Creates a game through the API and opens it on a new phone with the host's link. */
async function openGame(body, opts = {}) {
	const g = await api("POST", "/er/games", body);
	assert(g.status === 201, `create: ${g.status} ${JSON.stringify(g.body)}`);
	const page = await phone(opts);
	await page.goto(`${BASE}/#game=${g.body.id}&token=${g.body.host_token}`);
	await page.locator(".turn-head").waitFor();
	return { page, game: g.body };
}

/** Chooses a die (not the chief's when another is free). */
async function chooseDie(page) {
	const bays = page.locator('.bay:not([aria-disabled="true"])');
	await bays.first().waitFor();
	const free = page.locator('.bay:not([aria-disabled="true"]):not(.chief-die)');
	await ((await free.count()) ? free.first() : bays.first()).click();
}

/** Is the bay of this colour on the turn's card an extra patient? (the cards of GET /er/data) */
const cardData = (await api("GET", "/er/data")).body.cards;
const extraBay = (st, colour) => cardData.find((c) => c.id === st.turn.card).bays[colour].bonus === "extra";

// ---- the tests ----

await test("er-join-code-pasted-with-space-or-dash", async () => {
	const g = await api("POST", "/er/games", { players: [{ name: "Ana" }, { name: "Ben" }], deck: "app" });
	const code = g.body.code;
	const P = await phone();
	await P.goto(BASE + "/");
	await P.locator("#join-code").waitFor();
	for (const typed of [`${code.slice(0, 3)} ${code.slice(3)}`, `${code.slice(0, 3).toLowerCase()}-${code.slice(3).toLowerCase()}`, ` ${code} `]) {
		await P.fill("#join-code", "");
		await P.locator("#join-code").focus();
		await P.keyboard.insertText(typed); // as a paste
		assert((await P.inputValue("#join-code")) === code, `"${typed}" reads ${await P.inputValue("#join-code")}, not ${code}`);
	}
	await P.click("#join-go");
	await P.locator('.seat[data-seat="2"]', { hasText: "Ben" }).waitFor();
	// a link with the code as people write it opens the same table
	await P.goto(`${BASE}/#join=${code.slice(0, 3).toLowerCase()}-${code.slice(3)}`);
	await P.locator("h1", { hasText: code }).waitFor();
	await P.locator('.seat[data-seat="2"]', { hasText: "Ben" }).waitFor();
	await P.context().close();
});

/** The lit beds and the dice of the turn between the header and the dock, polled until the page
 * has scrolled them there (or the deadline passes: then what is out of view). */
async function litAndDiceInView(page, what) {
	const deadline = Date.now() + 4000;
	let r;
	for (;;) {
		r = await page.evaluate(() => {
			const top = document.querySelector(".top").getBoundingClientRect().bottom;
			const dock = document.querySelector(".dock").getBoundingClientRect().top;
			const lit = [...document.querySelectorAll(".bed.lit")];
			const dice = [...document.querySelectorAll(".card .die")];
			const out = [...lit, ...dice].map((e) => [e, e.getBoundingClientRect()]).filter(([, b]) => b.top < top - 0.5 || b.bottom > dock + 0.5)
				.map(([e, b]) => `${e.dataset.ward ? `bed ${e.dataset.ward}/${e.dataset.bed}` : `die ${e.textContent}`} ${Math.round(b.top)}–${Math.round(b.bottom)}`);
			return { lit: lit.length, dice: dice.length, out, top: Math.round(top), dock: Math.round(dock) };
		});
		if (r.lit && r.dice === 3 && !r.out.length) return r;
		if (Date.now() > deadline) break;
		await page.waitForTimeout(50);
	}
	assert(false, `${what}: ${r.lit} lit bed(s), ${r.dice} dice; out of view between the header (${r.top}) and the dock (${r.dock}): ${r.out.join(", ")}`);
}

await test("er-lit-beds-and-dice-in-view", async () => {
	// solo, so that ALICAT's Cardiologist choice shows in the dock on its turns (it moves first)
	for (const colorScheme of ["light", "dark"]) {
		const { page } = await openGame({ players: [{ name: "Solo" }], solo: true, deck: "app", seed: 11 }, { colorScheme });
		let discard = 0, second = 0;
		for (let n = 1; n <= (colorScheme === "light" ? 8 : 3); n++) {
			await page.locator("#reveal").click();
			await chooseDie(page);
			await litAndDiceInView(page, `turn ${n}, die chosen`);
			if (await page.locator("#alicat-discard").count()) discard++;
			if (n === 2) await screen(page, `er-lit-in-view-${colorScheme}`);
			// the extra patient of a bay: its beds come in view too once the first is written
			const lit = page.locator(".bed.lit");
			await lit.first().click();
			if (await page.locator(".picker").count()) await page.locator(".picker button.value").first().click();
			if (await page.locator("#morgue").count()) {
				await page.locator('.sheet-panel[data-opts="ready"]').waitFor();
				if (await lit.count()) {
					await litAndDiceInView(page, `turn ${n}, second patient`);
					second++;
				}
			}
			await finishDraft(page);
			await page.click("#submit");
			await page.locator("#turn-number", { hasText: `${n + 1}/24` }).waitFor();
		}
		if (colorScheme === "light") assert(discard > 0, "the Cardiologist choice showed on no turn");
		await page.context().close();
	}
});

await test("er-lit-beds-in-view-when-the-page-grows-late", async () => {
	// the same solo game on a slow network: each answer of the server comes 600 ms late, so
	// the page above the lit beds grows after they were brought in view (on turn 6 it pushes
	// bed 7/1 under the dock): they come in view again
	const { page } = await openGame({ players: [{ name: "Solo" }], solo: true, deck: "app", seed: 11 });
	let pending = 0;
	await page.route((u) => u.pathname.startsWith("/api/") && !u.pathname.endsWith("/events"), async (route) => {
		pending++;
		await new Promise((r) => setTimeout(r, 600));
		await route.continue().finally(() => pending--);
	});
	const settled = async () => {
		while (pending) await page.waitForTimeout(50);
		await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
	};
	for (let n = 1; n <= 6; n++) {
		await page.locator("#reveal").click();
		await chooseDie(page);
		await settled();
		await litAndDiceInView(page, `turn ${n}, the answers in`);
		await finishDraft(page);
		await page.click("#submit");
		await page.locator("#turn-number", { hasText: `${n + 1}/24` }).waitFor();
	}
	await page.context().close();
});

/** A game of these players (app deck, seeded) with turn 1 revealed: the game and the seats'
 * tokens in seat order. */
async function revealed(names, seed) {
	const g = await api("POST", "/er/games", { players: names.map((name) => ({ name })), deck: "app", seed });
	await api("POST", `/er/games/${g.body.id}/turns`, { turn: 1 }, g.body.host_token);
	return { g, tokens: g.body.seats.map((s) => s.seat_token) };
}

/** A two-player game (app deck) with turn 1 revealed: {g, tokens of seats 1 and 2}. */
async function twoPlayers(seed) {
	const { g, tokens } = await revealed(["Ana", "Ben"], seed);
	return { g, ana: tokens[0], ben: tokens[1] };
}

await test("er-offline-draft-sent-when-back", async () => {
	const { g, ana } = await twoPlayers(5);
	const A = await phone();
	await A.goto(`${BASE}/#game=${g.body.id}&token=${ana}`);
	await A.locator('.bay:not([aria-disabled="true"])').first().waitFor();
	// Ana's phone loses the network, and she drafts her whole move meanwhile
	await A.context().setOffline(true);
	await A.locator("#conn[data-conn=offline]").waitFor();
	await chooseDie(A);
	for (let i = 0; i < 8; i++) {
		const lit = A.locator(".bed.lit");
		if (await lit.count()) {
			await lit.first().click();
			if (await A.locator(".picker").count()) await A.locator(".picker button.value").first().click();
		} else if (await A.locator("#morgue").count()) await A.click("#morgue");
		else break; // each tap is drawn before click() returns (the store renders in a microtask)
	}
	await A.context().setOffline(false);
	await A.locator("#conn[data-conn=live]").waitFor({ timeout: 15000 });
	// the connection is back: the drafted move can be sent, without starting it again
	await A.locator("#submit:not([disabled])").waitFor({ timeout: 5000 });
	await A.click("#submit");
	await A.locator("#status", { hasText: "Move accepted" }).waitFor();
	await A.context().close();
});

/** A seat's turn-1 move through the API, its die's patient (and extra patient) to the morgue. */
async function morgueMover(game, tokens) {
	const st = (await api("GET", `/er/games/${game.id}`, null, tokens[0])).body;
	return async (seat, die) => {
		const body = { turn: 1, move: { die, steps: [{ morgue: "die" }, ...(extraBay(st, die) ? [{ morgue: "extra" }] : [])] } };
		const r = await api("POST", `/er/games/${game.id}/seats/${seat}/moves`, body, tokens[seat - 1]);
		assert(r.status === 200, `seat ${seat}'s move: ${r.status} ${JSON.stringify(r.body)}`);
	};
}

await test("er-a-late-answer-keeps-the-later-game", async () => {
	// Ben's move is written, but its answer is late: meanwhile Cara's move ends the turn and a
	// live update shows his phone turn 2. The late answer, the game at his own move, must not
	// take the phone back to turn 1 (it would wait there for Cara for good).
	const { g, tokens } = await revealed(["Ana", "Ben", "Cara"], 9);
	const morgue = await morgueMover(g.body, tokens);
	await morgue(1, "red");
	const B = await phone();
	let written, release;
	const wrote = new Promise((r) => (written = r));
	const released = new Promise((r) => (release = r));
	await B.route((u) => u.pathname.endsWith("/seats/2/moves"), async (route) => {
		const response = await route.fetch(); // the move is in the game
		written();
		await released;
		await route.fulfill({ response });
	});
	await B.goto(`${BASE}/#game=${g.body.id}&token=${tokens[1]}`);
	await tapMove(B);
	await wrote;
	await morgue(3, "green");
	await B.locator("#turn-number", { hasText: "2/24" }).waitFor({ timeout: 10000 });
	release();
	await B.locator("#status", { hasText: "Move accepted" }).waitFor();
	// the store draws in a message task (store.js): one more message and a frame, and it has
	await B.evaluate(() => new Promise((r) => {
		const c = new MessageChannel();
		c.port1.onmessage = () => requestAnimationFrame(() => r());
		c.port2.postMessage(0);
	}));
	const shown = await B.locator("#turn-number").innerText();
	assert(shown.includes("2/24"), `after the late answer: ${shown}`);
	await B.context().close();
});

await test("er-taps-held-while-other-seats-move-still-count", async () => {
	// Ben presses a die, then Submit; each time another seat's move reaches his phone before he
	// lets go: what he pressed is still under his finger, so the tap counts (a redrawn button
	// would lose it)
	const { g, tokens } = await revealed(["Ana", "Ben", "Cara", "Dan"], 8);
	const morgue = await morgueMover(g.body, tokens);
	await morgue(1, "red");
	const B = await phone();
	await B.goto(`${BASE}/#game=${g.body.id}&token=${tokens[1]}`);
	const held = async (sel, seat) => {
		await B.locator(sel).waitFor();
		const box = await B.locator(sel).boundingBox();
		await B.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
		await B.mouse.down();
		await morgue(seat, "green");
		await B.locator(`.player[data-seat="${seat}"] .state.ok`).waitFor();
		await B.mouse.up();
	};
	await held('.bay[data-die="yellow"]', 3);
	await B.locator('.bay.chosen[data-die="yellow"]').waitFor({ timeout: 5000 });
	await finishDraft(B);
	await held("#submit", 4);
	await B.locator("#turn-number", { hasText: "2/24" }).waitFor({ timeout: 5000 });
	await B.context().close();
});

await test("er-queued-move-drawn-pending", async () => {
	const { g, ana, ben } = await twoPlayers(6);
	// Ana (chief) moves first, through the API
	const st = (await api("GET", `/er/games/${g.body.id}`, null, ana)).body;
	const r = await api("POST", `/er/games/${g.body.id}/seats/1/moves`, { turn: 1, move: { die: "red", steps: [{ morgue: "die" }, ...(extraBay(st, "red") ? [{ morgue: "extra" }] : [])] } }, ana);
	assert(r.status === 200, `Ana's move: ${r.status} ${JSON.stringify(r.body)}`);
	// Ben drafts and sends his move offline: it waits on the phone, drawn on his sheet as pending
	const B = await phone({ colorScheme: "dark" });
	await B.goto(`${BASE}/#game=${g.body.id}&token=${ben}`);
	await chooseDie(B);
	await finishDraft(B);
	await B.context().setOffline(true);
	await B.locator("#conn[data-conn=offline]").waitFor();
	const drafted = await B.locator(".bed.draft").evaluateAll((els) => els.map((e) => `${e.dataset.ward}/${e.dataset.bed}:${e.textContent}`));
	await B.click("#submit");
	await B.locator("#conn", { hasText: "1 move waiting" }).waitFor();
	const pending = await B.locator(".bed.pending").evaluateAll((els) => els.map((e) => `${e.dataset.ward}/${e.dataset.bed}:${e.textContent}`));
	assert(JSON.stringify(pending) === JSON.stringify(drafted), `pending beds ${pending} (drafted ${drafted})`);
	if (pending.length) {
		const label = await B.locator(".bed.pending").first().getAttribute("aria-label");
		assert(label.includes("waiting to be sent"), `pending bed's label: ${label}`);
	}
	await screen(B, "er-offline-queued-dark");
	await B.context().setOffline(false);
	await B.locator("#conn[data-conn=live]").waitFor({ timeout: 15000 });
	await B.locator("#turn-number", { hasText: "2/24" }).waitFor({ timeout: 15000 });
	assert((await B.locator(".bed.pending").count()) === 0, "nothing pending once sent");
	for (const b of drafted) {
		const [w, rest] = b.split("/");
		const [bed, val] = rest.split(":");
		assert((await B.locator(`.bed[data-ward="${w}"][data-bed="${bed}"]`).textContent()).startsWith(val.replace("!", "")), `bed ${b} written`);
	}
	await B.context().close();
});

await test("er-solo-alicat-gains-of-the-turn", async () => {
	// ALICAT with a difficulty modifier that scores: equipment (1 point per circled stethoscope and blood bag)
	const { page: S, game: g } = await openGame({ players: [{ name: "Solo" }], solo: true, deck: "app", seed: 21, alicat_modifiers: ["equipment"] });
	const host = g.host_token;
	// turn 1: the player leads, ALICAT follows; what it gained is that turn's, not its total
	await S.locator("#reveal").click();
	await chooseDie(S);
	await finishDraft(S);
	await S.click("#submit");
	await S.locator("#turn-number", { hasText: "2/24" }).waitFor();
	await S.locator("#alicat h2", { hasText: "turn 1" }).waitFor();
	let log = (await api("GET", `/er/games/${g.id}/log`, null, host)).body;
	const startTotal = log.start.seats[1].total;
	const t1 = log.turns[0].seats[1];
	assert(startTotal > 0, `ALICAT starts with points: ${startTotal}`);
	let text = await S.locator("#alicat-move").textContent();
	const p1 = t1.total - startTotal;
	assert(!text.includes(`+${t1.total} points`), `turn 1 shows ALICAT's total as gained: ${text}`);
	if (p1) assert(text.includes(`${p1 > 0 ? "+" : "−"}${Math.abs(p1)} point`), `turn 1: ${p1} points gained: ${text}`);
	const nurses1 = t1.sheet.nurse_track - log.start.seats[1].sheet.nurse_track;
	if (nurses1) assert(text.includes(`${nurses1} nurse`), `turn 1: ${nurses1} nurse(s): ${text}`);
	else assert(!/nurse/.test(text), text);

	// turn 2: ALICAT is Chief Physician and moves first: its move of this turn shows at once
	await S.locator("#reveal").click();
	await S.locator("#alicat h2", { hasText: "turn 2" }).waitFor();
	const st = (await api("GET", `/er/games/${g.id}`, null, host)).body;
	const p2 = st.seats[1].score.total - t1.total;
	text = await S.locator("#alicat-move").textContent();
	if (p2) assert(text.includes(`${p2 > 0 ? "+" : "−"}${Math.abs(p2)} point`), `turn 2: ${p2} points gained: ${text}`);
	else assert(!/points/.test(text), `turn 2: no point gained: ${text}`);
	await S.context().close();
});

await test("er-solo-alicat-sheet", async () => {
	const { page: S, game: g } = await openGame({ players: [{ name: "Solo" }], solo: true, deck: "app", seed: 21, alicat_modifiers: ["equipment"] });
	await S.locator("#reveal").click();
	await chooseDie(S);
	await finishDraft(S);
	await S.click("#submit");
	await S.locator("#turn-number", { hasText: "2/24" }).waitFor();
	await S.locator("#reveal").click();
	// ALICAT's move of turn 2 (as Chief Physician it moves in the reveal's own write): the box of
	// turn 1's move is there already, so wait for this turn's
	await S.locator("#alicat h2", { hasText: "turn 2" }).waitFor();
	const st = (await api("GET", `/er/games/${g.id}`, null, g.host_token)).body;
	// ALICAT's sheet: its difficulty points have their own box, and the boxes add up to the total
	await S.click("#alicat-sheet");
	await S.locator("#sheet-h", { hasText: "ALICAT" }).waitFor();
	const cells = await S.locator("[data-score-cell]").evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.scoreCell, Number(e.textContent)])));
	assert("modifiers" in cells && cells.modifiers === st.seats[1].score.breakdown.modifiers && cells.modifiers > 0, `difficulty box: ${JSON.stringify(cells)}`);
	const sum = Object.entries(cells).filter(([k]) => k !== "total").reduce((n, [, v]) => n + v, 0);
	assert(sum === cells.total && cells.total === st.seats[1].score.total, `boxes add up to ${sum}, total ${cells.total}`);
	await S.locator(".ledger-svg").scrollIntoViewIfNeeded();
	await screen(S, "er-solo-alicat-sheet");
	// choosing a die while ALICAT's sheet shows: the move is made on the player's own sheet
	await chooseDie(S);
	await S.locator("#sheet-h", { hasText: "Solo" }).waitFor();
	await S.locator(".bed.lit").first().waitFor();
	assert((await S.locator("#alicat-sheet").textContent()).includes("See ALICAT's sheet"), "the button goes to ALICAT's sheet again");
	await S.context().close();
});

await test("er-solo-undo-and-reload-keep-the-draft", async () => {
	const { page: S } = await openGame({ players: [{ name: "Solo" }], solo: true, deck: "app", seed: 22 });
	await S.locator("#reveal").click();
	await chooseDie(S);
	await S.locator(".bed.lit").first().waitFor();
	// undo: the patient placed goes, its bed is lit again
	const bed = S.locator(".bed.lit").first();
	const at = [await bed.getAttribute("data-ward"), await bed.getAttribute("data-bed")];
	await bed.click();
	if (await S.locator(".picker").count()) await S.locator(".picker button.value").first().click();
	const placed = S.locator(`.bed[data-ward="${at[0]}"][data-bed="${at[1]}"]`);
	await S.locator(`.bed.draft[data-ward="${at[0]}"][data-bed="${at[1]}"]`).waitFor();
	await S.click("#undo-step");
	await S.locator(`.bed.lit[data-ward="${at[0]}"][data-bed="${at[1]}"]`).waitFor();
	assert((await placed.textContent()).trim() === "", "the bed is empty again");
	// a reload keeps the draft of this turn
	await S.locator(`.bed.lit[data-ward="${at[0]}"][data-bed="${at[1]}"]`).click();
	if (await S.locator(".picker").count()) await S.locator(".picker button.value").first().click();
	await S.locator(`.bed.draft[data-ward="${at[0]}"][data-bed="${at[1]}"]`).waitFor();
	const value = (await placed.textContent()).trim();
	await S.reload();
	await S.locator(`.bed.draft[data-ward="${at[0]}"][data-bed="${at[1]}"]`).waitFor();
	assert((await placed.textContent()).trim() === value, `the draft's ${value} is back after the reload`);
	await screen(S, "er-solo-draft-reloaded");
	await finishDraft(S);
	await S.click("#submit");
	await S.locator("#turn-number", { hasText: "3/24" }).or(S.locator("#status", { hasText: "Move accepted" })).first().waitFor();
	// the move sent, a reload starts no draft
	await S.reload();
	await S.locator(".turn-head").waitFor();
	await S.locator("#reveal").waitFor();
	assert((await S.locator(".bed.draft").count()) === 0, "no draft after the move");
	await S.context().close();
});

/** Plays a solo game (app deck) through the API up to turn `until` (the whole game: 24), every
 * patient of the player to the morgue with a die that is not ALICAT's. */
async function soloByApi(until, seed) {
	const g = (await api("POST", "/er/games", { players: [{ name: "Solo" }], solo: true, deck: "app", seed })).body;
	for (let n = 1; n <= until; n++) {
		await api("POST", `/er/games/${g.id}/turns`, { turn: n }, g.host_token);
		const st = (await api("GET", `/er/games/${g.id}`, null, g.host_token)).body;
		const die = ["red", "yellow", "green"].find((c) => c !== st.turn.chief_die);
		const steps = [{ morgue: "die" }, ...(extraBay(st, die) ? [{ morgue: "extra" }] : [])];
		const r = await api("POST", `/er/games/${g.id}/seats/1/moves`, { turn: n, move: { die, steps } }, g.host_token);
		assert(r.status === 200, `turn ${n}: ${r.status} ${JSON.stringify(r.body)}`);
	}
	return g;
}

/** Clicks a button that downloads a PDF; returns its name and bytes. */
async function download(page, sel) {
	const [dl] = await Promise.all([page.waitForEvent("download"), page.click(sel)]);
	const path = await dl.path();
	const { readFileSync } = await import("node:fs");
	return { name: dl.suggestedFilename(), bytes: readFileSync(path) };
}

await test("er-game-pdfs-offered", async () => {
	// in progress: the sheet shown and the whole game, from the game screen
	const g = await soloByApi(2, 31);
	const P = await phone({ acceptDownloads: true });
	await P.goto(`${BASE}/#game=${g.id}&token=${g.host_token}`);
	await P.locator(".turn-head").waitFor();
	await P.locator(".prints summary").click();
	let f = await download(P, "#pdf-sheet");
	assert(f.name === `er-${g.code}-seat-1.pdf` && f.bytes.subarray(0, 5).toString() === "%PDF-", `sheet PDF: ${f.name} ${f.bytes.subarray(0, 8)}`);
	// ALICAT's sheet shown: its PDF
	await P.click("#alicat-sheet");
	await P.locator("#pdf-sheet", { hasText: "ALICAT" }).waitFor();
	f = await download(P, "#pdf-sheet");
	assert(f.name === `er-${g.code}-seat-2.pdf`, f.name);
	await P.locator(".prints").scrollIntoViewIfNeeded();
	await screen(P, "er-pdfs-in-progress");
	await P.context().close();
	// finished: with the ranking
	const done = await soloByApi(24, 32);
	const Q = await phone({ acceptDownloads: true, colorScheme: "dark" });
	await Q.goto(`${BASE}/#game=${done.id}&token=${done.host_token}`);
	await Q.locator(".results #pdf-game").waitFor();
	f = await download(Q, ".results #pdf-game");
	assert(f.name === `er-${done.code}-game.pdf` && f.bytes.subarray(0, 5).toString() === "%PDF-" && f.bytes.length > 2000, `game PDF: ${f.name}, ${f.bytes.length} bytes`);
	assert(!(await Q.locator(".prints").isVisible()), "offered once, in the ranking");
	await Q.locator(".results #pdf-game").scrollIntoViewIfNeeded();
	await screen(Q, "er-pdfs-finished-dark");
	await Q.context().close();
});

await test("er-pdf-qr-on-another-phone", async () => {
	// the PDF's QR code opens "#game=ID&join=CODE" (src/games/er/pdf.c): on a phone without the
	// game, whose table it is and its seats to take
	const { g, ana } = await twoPlayers(8);
	for (const colorScheme of ["light", "dark"]) {
		const O = await phone({ colorScheme });
		await O.goto(`${BASE}/#game=${g.body.id}&join=${g.body.code}`);
		await O.locator("h1", { hasText: "This game is not on this phone" }).waitFor();
		const intro = await O.locator("#not-here").textContent();
		assert(intro.includes("Ana, Ben") && intro.includes(g.body.code), intro);
		await O.locator('.seat[data-seat="2"]', { hasText: "Ben" }).waitFor();
		await screen(O, `er-qr-not-here-${colorScheme}`);
		if (colorScheme === "dark") {
			// taking a seat opens the game
			await O.click('.seat[data-seat="2"]');
			await O.locator(".turn-head").waitFor();
			assert((await O.locator(".you-line").textContent()).includes("Ben"), "plays Ben's seat");
		}
		await O.context().close();
	}
	// the phone that holds the game opens it from the same code
	const A = await phone();
	await A.goto(`${BASE}/#game=${g.body.id}&token=${ana}`);
	await A.locator(".turn-head").waitFor();
	await A.goto(`${BASE}/#game=${g.body.id}&join=${g.body.code}`);
	await A.locator(".you-line", { hasText: "Ana" }).waitFor();
	await A.context().close();
	// a link without a token nor a code: join by code, right there
	const O = await phone();
	await O.goto(`${BASE}/#game=${g.body.id}`);
	await O.locator("h1", { hasText: "not on this phone" }).waitFor();
	await O.fill("#join-code", g.body.code);
	await O.click("#join-go");
	await O.locator('.seat[data-seat="1"]', { hasText: "Ana" }).waitFor();
	await O.context().close();
});

await test("er-share-address-on-localhost", async () => {
	for (const colorScheme of ["light", "dark"]) {
		const P = await phone({ colorScheme });
		// the machine's address on the network (what the server finds is checked by tests/api/test_addresses.py)
		const lan = `http://192.0.2.10:${new URL(BASE).port}`;
		await P.route(`${BASE}/api/v1/addresses`, (r) => r.fulfill({ json: { public_url: null, lan: [`${lan}/`] } }));
		await P.goto(BASE + "/");
		await P.click("#pick-er"); // the home screen's choice of game
		await P.fill('input[name="player1"]', "Ana");
		await P.fill('input[name="player2"]', "Ben");
		await P.click("#create");
		await P.locator("#share-warn", { hasText: `open at ${new URL(BASE).host}` }).waitFor();
		assert((await P.inputValue('[data-link="seat-2"]')).startsWith(BASE), "the address the host opened, until another is chosen");
		await P.locator(`input[name="share-origin"][value="${lan}"]`).check();
		await P.locator(`[data-link="seat-2"][value^="${lan}/#game="]`).waitFor();
		const qrs = await P.locator("img.qr").evaluateAll((imgs) => imgs.map((i) => decodeURIComponent(i.getAttribute("src"))));
		assert(qrs.length >= 2 && qrs.every((q) => q.includes(`data=${lan}/#`)), `QR codes: ${qrs}`);
		await screen(P, `er-share-address-${colorScheme}`);
		await P.context().close();
	}
});

await S.finish("ertable");
