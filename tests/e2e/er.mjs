// End-to-end tests of an ER table's game on three phones in headless Debian chromium
// (playwright-core), at the smallest phone we support (360 × 640): create and join, seats, a turn
// that explains itself, a move queued offline, French and dark remembered, the game to its end by
// tapping. Every screen is audited with axe-core (experimental rules on). Run by all.mjs (lib.mjs:
// the runner, phones, axe; erkit.mjs: the ER taps and checks); erscreens.mjs has the rest of ER.
import { BASE, api, assert, readJson, suite } from "./lib.mjs";
import { erKit, erHome, tapMove, tapReveal, waitTurn } from "./erkit.mjs";

const EN = readJson("static/i18n/en.json");
const FR = readJson("static/i18n/fr.json");
const ER = suite("er");
const { test } = ER;
const { phone, text, screen } = erKit(ER);

let A, B, C, code;

await test("a-home-create-join", async () => {
	A = await phone();
	await erHome(A);
	assert((await A.locator("h1").count()) === 1, "one h1 on the home screen");
	await screen(A, "home");
	await A.fill('input[name="player1"]', "Alice");
	await A.fill('input[name="player2"]', "Bob");
	await A.click("#add-player");
	await A.fill('input[name="player3"]', "Cara");
	await A.check('input[name="deck"][value="table"]');
	await A.click("#create");
	code = await A.locator("#join-code-shown").getAttribute("data-code");
	assert(/^[A-Z0-9]{6}$/.test(code), `join code ${code}`);
	assert((await A.locator("[data-link]").count()) === 4, "three seat links and a host link");
	const seat2 = await A.inputValue('[data-link="seat-2"]');
	const seat3 = await A.inputValue('[data-link="seat-3"]');
	assert(seat2.startsWith(BASE) && seat2.includes("#game="), `seat link on the address the host opened: ${seat2}`);
	// QR codes drawn by the server: the join link and each seat link
	const qrs = await A.locator("img.qr").evaluateAll((imgs) => imgs.map((i) => decodeURIComponent(i.getAttribute("src"))));
	assert(qrs.length === 4 && qrs.every((s) => s.startsWith("/api/v1/qr.svg?data=")), `QR images: ${qrs}`);
	assert(qrs.some((s) => s.includes(`#join=${code}`)) && qrs.some((s) => s.includes(seat2)), "QR of the join link and of each seat link");
	await screen(A, "created");
	// the join link's QR code is drawn (GET /api/v1/qr.svg), the seat links' ones on request
	await A.waitForFunction(() => { const i = document.querySelector(".join-qr img.qr"); return i && i.complete && i.naturalWidth > 0; });
	await A.locator(".qr-box summary").first().click();
	await A.waitForFunction(() => { const i = document.querySelector(".qr-box[open] img.qr"); return i && i.complete && i.naturalWidth > 0; });
	await A.click("#open-host");
	await A.locator(".reveal-panel").waitFor();
	assert((await text(A, ".you-line")).includes("Alice"), "the host plays seat 1");
	assert((await A.locator("h1").count()) === 1, "one h1 on the game screen");

	B = await phone();
	await B.goto(`${BASE}/#join=${code.toLowerCase()}`);
	await B.locator('.seat[data-seat="2"]', { hasText: "Bob" }).waitFor();
	await screen(B, "join");
	await B.click('.seat[data-seat="2"]');
	await B.locator(".turn-head").waitFor();
	assert((await text(B, ".you-line")).includes("Bob"), "joined as Bob");
	assert((await text(B, "#status")).includes("Waiting for Alice"), await text(B, "#status"));
	// a reload keeps the seat (the token is in localStorage, not in the URL)
	assert(!B.url().includes("token="), "token left in the address bar");
	await B.reload();
	await B.locator(".turn-head").waitFor();
	assert((await text(B, ".you-line")).includes("Bob"), "seat kept after reload");
	// Cara plays in the dark (her phone's system setting)
	C = await phone({ colorScheme: "dark" });
	await C.goto(seat3);
	await C.locator(".turn-head").waitFor();
	assert((await C.evaluate(() => document.documentElement.dataset.theme)) === "dark", "dark theme follows the system");
	await screen(C, "game-dark-wait");
});

await test("b-claimed-seat-needs-confirmation", async () => {
	// a fourth phone tries Bob's seat: claimed, so it must confirm, and Bob's phone is told
	const D = await phone();
	await D.goto(`${BASE}/#join=${code}`);
	const bob = D.locator('.seat[data-seat="2"]');
	await bob.waitFor();
	assert((await bob.getAttribute("class")).includes("claimed"), "Bob's seat shows as claimed");
	await bob.click();
	await D.locator("#confirm-replace", { hasText: "This phone replaces the phone of Bob" }).waitFor();
	assert((await D.locator(".turn-head").count()) === 0, "not joined without confirming");
	await screen(D, "join-confirm");
	await D.click("#cancel-replace");
	assert((await D.locator("#confirm-replace").count()) === 0, "cancel closes the question");
	// the API refuses a claimed seat without replace
	const r = await api("POST", "/join", { code, seat: 2 });
	assert(r.status === 409 && r.body.rule === "seat-claimed", `409 seat-claimed: ${r.status} ${JSON.stringify(r.body)}`);
	await bob.click();
	await D.click("#confirm-replace");
	await D.locator(".turn-head").waitFor();
	assert((await text(D, ".you-line")).includes("Bob"), "the new phone plays Bob");
	// the displaced phone says so in words and offers to rejoin, without a reload: its event
	// stream ended and could not reopen
	await B.locator("#lost", { hasText: "Another phone took over the seat" }).waitFor();
	await B.locator("#rejoin").waitFor();
	await screen(B, "seat-replaced");
	// Bob takes the seat back on his own phone (confirming), for the game to come
	await B.click("#rejoin");
	await B.locator('.seat[data-seat="2"]').click();
	await B.click("#confirm-replace");
	await B.locator(".turn-head").waitFor();
	await D.context().close();
}, ["a-home-create-join"]);

await test("b2-seat-taken-over-names-the-seat-after-a-reload", async () => {
	// a phone that opened Bob's seat link, then another phone takes the seat over: after a reload
	// (the game no longer loads) the message still names Bob, in both languages
	const g = (await api("POST", "/er/games", { players: [{ name: "Ann" }, { name: "Bob" }], deck: "app" })).body;
	const link = (token) => `${BASE}/#game=${g.id}&token=${token}`;
	let bob = g.seats[1].seat_token, ann = g.seats[0].seat_token;
	for (const [locale, words] of [["en-GB", EN], ["fr-FR", FR]]) {
		const P = await phone({ locale });
		await P.goto(link(bob));
		await P.locator(".you-line", { hasText: "Bob" }).waitFor();
		const r = await api("POST", "/join", { code: g.code, seat: 2, replace: true });
		assert(r.status === 200, `taken over: ${r.status}`);
		bob = r.body.seat_token;
		await P.reload();
		const lost = P.locator("#lost h1");
		await lost.waitFor();
		const said = (await lost.innerText()).trim();
		assert(said === words["game.replaced"].replace("{name}", "Bob"), `${locale}: ${said}`);
		assert(await lost.isVisible(), "the message is visible");
		await screen(P, `seat-replaced-reload-${locale.slice(0, 2)}`);
		// a seat link first opened after the take-over: no name known, and no empty slot
		const Q = await phone({ locale });
		const r2 = await api("POST", "/join", { code: g.code, seat: 1, replace: true });
		assert(r2.status === 200, `Ann's seat joined: ${r2.status}`);
		await Q.goto(link(ann));
		ann = r2.body.seat_token;
		const lost2 = Q.locator("#lost h1");
		await lost2.waitFor();
		const said2 = (await lost2.innerText()).trim();
		assert(said2 === words["game.replaced_unnamed"], `${locale}: ${said2}`);
		assert(!/ \.|\s[.:]$|\s\.$/.test(said2) && !said2.includes("{"), `no empty name slot: ${said2}`);
		await P.context().close();
		await Q.context().close();
	}
});

await test("b3-seat-link-still-plays-after-a-join-by-code", async () => {
	// the host shares Bob's seat link, but Bob joins his free seat with the code on his phone:
	// the link still opens Bob's seat on another phone (the host's, or Bob's tablet)
	const g = (await api("POST", "/er/games", { players: [{ name: "Ann" }, { name: "Bob" }], deck: "app" })).body;
	const P = await phone();
	await P.goto(`${BASE}/#join=${g.code}`);
	const seat = P.locator('.seat[data-seat="2"]');
	await seat.waitFor();
	await seat.click();
	await P.locator(".you-line", { hasText: "Bob" }).waitFor();
	const Q = await phone();
	await Q.goto(`${BASE}/#game=${g.id}&token=${g.seats[1].seat_token}`);
	await Q.locator(".you-line", { hasText: "Bob" }).waitFor();
	assert(await Q.locator(".you-line").isVisible(), "the seat link plays Bob");
	assert((await Q.locator("#lost").count()) === 0, "no take-over message on the link's phone");
	await P.context().close();
	await Q.context().close();
});

const phones = () => [A, B, C];
const used = [];

await test("c-turn-explains-itself", async () => {
	// turn 1: Alice (chief) enters the card by its bonuses: filters narrow to card 1
	await A.selectOption('[data-filter="red"]', "critical");
	await A.selectOption('[data-filter="yellow"]', "extra");
	// the second choice keeps the first however soon it comes (the store draws over frames)
	await A.waitForFunction(() => document.querySelectorAll(".pick-card").length === 1, null, { timeout: 5000 }).catch(() => {});
	assert((await A.locator(".pick-card").count()) === 1, "filters narrow to card 1");
	await A.click('.pick-card[data-card="1"]');
	await A.click('[data-roll="red"][data-value="3"]');
	await A.click('[data-roll="yellow"][data-value="4"]');
	await A.click('[data-roll="green"][data-value="5"]');
	await screen(A, "game-reveal");
	await A.click("#reveal");
	used.push(1);
	await A.locator('.bay[data-die="red"]').waitFor();
	// Bob follows live; the chief has not chosen yet
	await B.locator('.bay[data-die="red"] .die', { hasText: "3" }).waitFor();
	assert((await text(B, "#status")).includes("Chief Physician"), await text(B, "#status"));
	// tapping a bed before choosing a die says what to do
	await A.locator('.bed[data-ward="1"][data-bed="1"]').click();
	await A.locator("#explain", { hasText: "Choose a die first" }).waitFor();
	await A.click('.bay[data-die="red"]');
	await A.locator(".bed.lit").first().waitFor();
	assert((await A.locator('.bed.lit[data-ward="3"][data-bed="1"]').count()) === 1, "ward 3 bed 1 (red) lit for the red die");
	// an unlit bed explains itself: out of order, and the wrong colour without a blood bag
	await A.locator('.bed[data-ward="1"][data-bed="3"]').click();
	await A.locator("#explain", { hasText: "Beds fill in order" }).waitFor();
	await A.locator('.bed[data-ward="2"][data-bed="1"]').click();
	const why = await text(A, "#explain");
	assert(/green/.test(why) && /blood bag/.test(why), `colour refusal in words: ${why}`);
	await screen(A, "game-explain");
	await A.locator('.bed.lit[data-ward="3"][data-bed="1"]').click();
	await A.locator(".picker").waitFor(); // a stethoscope allows 2, 3 or 4
	await screen(A, "game-picker");
	await A.click('.picker button.value[data-value="3"]');
	await A.locator("#submit:not([disabled])").waitFor();
	await A.click("#submit");
	await A.locator("#undo").waitFor();
	const bed = A.locator('.bed[data-ward="3"][data-bed="1"]');
	assert((await bed.textContent()).replace(/\s/g, "") === "3!", `sheet shows 3! (critical): ${await bed.textContent()}`);
	assert((await text(A, "#status")).includes("Move accepted"), await text(A, "#status"));

	// Bob has no blood bag: the chief's red die is greyed out with the reason, and a tap says why
	const red = B.locator('.bay.chief-die[data-die="red"]');
	await red.waitFor();
	assert((await red.getAttribute("class")).includes("closed") && (await red.getAttribute("aria-disabled")) === "true", "chief's die closed");
	assert((await red.textContent()).includes("no blood bag"), `reason shown: ${await red.textContent()}`);
	await red.click({ force: true }); // aria-disabled: playwright would wait, a finger does not
	await B.locator("#explain", { hasText: "blood bag" }).waitFor();
	assert((await B.locator(".bed.lit").count()) === 0 && (await B.locator("#submit").count()) === 0, "no move started with the chief's die");
	await screen(B, "game-chief-die-closed");
	// focus stays where it was when a live update arrives (Cara moves meanwhile)
	await B.locator('.bay[data-die="green"]').focus();
	await tapMove(C);
	await B.locator('.player[data-seat="3"] .state.ok').waitFor();
	assert((await B.evaluate(() => document.activeElement && document.activeElement.dataset.die)) === "green", "focus kept on the green die");
	await B.click('.bay[data-die="green"]');
	await B.locator(".bed.lit").first().waitFor();
	await screen(B, "game-choose");
	await tapMove(B);
	// turn 2: Bob is chief; every phone follows
	for (const p of phones()) await waitTurn(p, 2);
	await A.locator("#chief", { hasText: "Bob" }).waitFor();
	await screen(C, "game-dark-turn2");
}, ["a-home-create-join"]);

await test("d-offline-move-queued", async () => {
	// turn 2: Bob reveals a card not yet flipped (card 1 is not offered any more)
	await B.locator(".reveal-panel").waitFor();
	assert((await B.locator('.pick-card[data-card="1"]').count()) === 0, "card 1 (used) not offered");
	assert((await text(B, "#cards-shown")).includes("already flipped"), await text(B, "#cards-shown"));
	used.push(await tapReveal(B, 2));
	await tapMove(B);
	// Cara drafts her move, then the network drops before she sends it
	await tapMove(C, { submit: false });
	await C.context().setOffline(true);
	await C.locator("#conn[data-conn=offline]").waitFor();
	await C.click("#submit");
	await C.locator("#status", { hasText: "waits on this phone" }).waitFor();
	await C.locator("#conn", { hasText: "1 move waiting" }).waitFor();
	await C.locator("#status", { hasText: "Your move waits on this phone" }).waitFor();
	assert((await C.locator('.bay:not([aria-disabled="true"])').count()) === 0, "no second move offered while one waits");
	await screen(C, "game-offline-queued");
	assert((await A.locator('.player[data-seat="3"] .state.ok').count()) === 0, "not sent while offline");
	await C.context().setOffline(false);
	// sent when the connection is back, and seen on another phone
	await A.locator('.player[data-seat="3"] .state.ok').waitFor({ timeout: 15000 });
	await C.locator("#conn[data-conn=live]").waitFor({ timeout: 15000 });
	assert(!(await text(C, "#conn")).includes("waiting"), "queue emptied");
	await tapMove(A);
	for (const p of phones()) await waitTurn(p, 3);
}, ["c-turn-explains-itself"]);

await test("e-french-dark-remembered", async () => {
	// the language is switched, remembered across a reload, and the game reads in French
	await A.selectOption("#lang", "fr");
	await A.locator(".chief-line", { hasText: "Médecin-chef" }).waitFor();
	await A.reload();
	await A.locator(".chief-line", { hasText: "Médecin-chef" }).waitFor();
	assert((await A.locator("html").getAttribute("lang")) === "fr", "html lang");
	await screen(A, "game-fr");
	// the theme button: auto → light → dark, remembered
	const th = A.locator("#theme");
	while ((await th.getAttribute("data-mode")) !== "dark") await th.click();
	await A.reload();
	await A.locator(".chief-line").waitFor();
	assert((await A.evaluate(() => document.documentElement.dataset.theme)) === "dark", "dark kept after reload");
	await screen(A, "game-fr-dark");
	while ((await th.getAttribute("data-mode")) !== "auto") await th.click();
	await A.selectOption("#lang", "en");
	await A.locator(".chief-line", { hasText: "Chief Physician" }).waitFor();
	// a French phone starts in French, its home screen too
	const F = await phone({ locale: "fr-FR" });
	await erHome(F);
	await F.locator("#create", { hasText: "Créer la partie" }).waitFor();
	await screen(F, "home-fr");
	const Fd = await phone({ locale: "fr-FR", colorScheme: "dark" });
	await erHome(Fd);
	await screen(Fd, "home-fr-dark");
	await Fd.goto(BASE + "/#print");
	await Fd.locator("#print-pdf").waitFor();
	await screen(Fd, "print-fr-dark");
	// the new game's links and the seats of a table, in French and dark
	await Fd.goto(BASE + "/");
	await Fd.fill('input[name="player1"]', "Léa");
	await Fd.fill('input[name="player2"]', "Hugo");
	await Fd.click("#create");
	const frCode = await Fd.locator("#join-code-shown").getAttribute("data-code");
	await screen(Fd, "created-fr-dark");
	await Fd.goto(`${BASE}/#join=${frCode}`);
	await Fd.locator('.seat[data-seat="2"]').waitFor();
	await screen(Fd, "join-fr-dark");
	await F.context().close();
	await Fd.context().close();
}, ["d-offline-move-queued"]);

await test("f-three-phones-to-the-end", async () => {
	// turns 3 to 24 on three phones, every move by tapping the hex sheet; no card offered twice
	for (let n = 3; n <= 24; n++) {
		const chief = phones()[(n - 1) % 3];
		await chief.locator(".reveal-panel").waitFor();
		for (const c of used) assert((await chief.locator(`.pick-card[data-card="${c}"]`).count()) === 0, `turn ${n}: card ${c} offered again`);
		used.push(await tapReveal(chief, n));
		await tapMove(chief);
		await Promise.all(phones().filter((p) => p !== chief).map((p) => tapMove(p)));
		if (n < 24) for (const p of phones()) await waitTurn(p, n + 1);
	}
	assert(new Set(used).size === 24, `24 different cards: ${used}`);
	for (const p of phones()) await p.locator(".results .result").first().waitFor();
	assert((await A.locator(".results .result").count()) === 3, "three results");
	// the ranking is in view at the end
	const top = await A.locator(".results").evaluate((el) => el.getBoundingClientRect().top);
	assert(top >= 0 && top < 640, `ranking in view (top ${top})`);
	await screen(A, "game-end");
	await screen(C, "game-end-dark");
	// the sheet's score row agrees with the table
	const total = await A.locator('[data-score-cell="total"]').textContent();
	assert((await text(A, '.pscore[data-score="1"]')).includes(total), "score row total");
	// the beds that earned the Epidemiologist's points light up from the score details
	const epi = Number(await A.locator('[data-score-cell="epidemiologist"]').textContent());
	await A.click('[data-hl="epidemiologist"]');
	// pressed once the score details have come back and the sheet is drawn with them
	await A.locator('[data-hl="epidemiologist"][aria-pressed="true"]').waitFor();
	if (epi > 0) await A.locator(".bed.scored").first().waitFor();
	assert((await A.locator(".bed.scored").count() > 0) === epi > 0, `scored beds shown for ${epi} points`);
	await A.locator('[data-hl="epidemiologist"]').scrollIntoViewIfNeeded();
	await screen(A, "game-end-epidemiologist");
}, ["e-french-dark-remembered"]);

await ER.finish("er");
