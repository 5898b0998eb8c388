// Browser test of the table display (static/display.html, display.js) on a 1280 × 720 screen, and
// of "Show on a big screen" on the host's phone (bigscreen.js): the host opens the dialog, the
// display is opened at the URL its QR code encodes (decoded from a screenshot with zbarimg, and
// the same as the link shown), and a move made on a phone, then a Dice Hospital round, appear on
// the display live. Finished ER, Dice Hospital and Clinic games (played through the API) show
// their final ranking; six ER sheets fit. Every display is audited with axe-core (experimental
// rules on) in dark and light, and checked for a page that scrolls, text cut or spilling out of
// its box, panels that overlap, and type too small to read across a table. Screenshots:
// build/e2e/display-*.png. Run by all.mjs (lib.mjs: the runner, phones, axe).
import { BASE, SHOTS, api, assert, suite, tvLayoutCheck } from "./lib.mjs";
import { playErByApi, tapMove } from "./erkit.mjs";
import { execFileSync } from "node:child_process";

const D = suite("display");
const { test, audit, shot } = D;
const phone = (o = {}) => D.phone(o);
// a TV whose system asks for light: the display is dark all the same
const tv = (o = {}) => D.phone({ width: 1280, height: 720, dpr: 1, isMobile: false, colorScheme: "light", ...o });

/** Shot, axe and layout of the display as it is now, in dark; then the same in light. */
async function look(p, name) {
	assert((await p.evaluate(() => document.documentElement.dataset.theme)) === "dark", `${name}: dark by default`);
	assert((await p.locator("h1").count()) === 1, `${name}: one h1`);
	await shot(p, name);
	await audit(p, name);
	await tvLayoutCheck(p, name);
	await p.click("#dsp-theme");
	assert((await p.evaluate(() => document.documentElement.dataset.theme)) === "light", `${name}: the button switches to light`);
	await shot(p, `${name}-light`);
	await audit(p, `${name} (light)`);
	await p.click("#dsp-theme");
}

/** The "Show on a big screen" dialog on the host's phone: the link it shows, the URL its QR code
 * encodes (the QR image read back by zbarimg), the same; focus returns to the button. */
async function bigScreenLink(host, button, name) {
	await host.locator(button).scrollIntoViewIfNeeded();
	await host.screenshot({ path: `${SHOTS}/${name}-button.png` });
	await host.click(button);
	const img = host.locator("#bs-qr");
	await img.waitFor();
	await host.waitForFunction(() => { const i = document.querySelector("#bs-qr"); return i && i.complete && i.naturalWidth > 0; });
	const link = await host.inputValue("#bs-link");
	const png = `${SHOTS}/${name}-qr.png`;
	await img.screenshot({ path: png });
	const decoded = execFileSync("zbarimg", ["--raw", "-q", png], { encoding: "utf8" }).trim();
	assert(decoded === link, `the QR code encodes the link shown: ${decoded} vs ${link}`);
	assert(link.startsWith(`${BASE}/display.html#kind=`) && /&token=display\.[A-Za-z0-9_-]{43}$/.test(link) && !link.includes("?"),
		`the display URL, its token in the fragment: ${link}`);
	await host.screenshot({ path: `${SHOTS}/${name}.png` });
	await audit(host, name);
	await host.click("#bs-close");
	assert(await host.evaluate((b) => document.activeElement && document.activeElement.matches(b), button), "focus back on the button");
	return link;
}

const displayUrl = async (kind, g) => {
	const r = await api("POST", `/${kind}/games/${g.id}/display`, undefined, g.host_token);
	assert(r.status === 200, `display token: ${r.status}`);
	return BASE + r.body.url;
};

await test("display-a-er-host-qr-and-a-live-move", async () => {
	const host = await phone();
	await host.goto(BASE + "/");
	await host.click("#pick-er"); // the home screen's choice of game
	await host.fill('input[name="player1"]', "Alice");
	await host.fill('input[name="player2"]', "Bob");
	await host.click("#add-player");
	await host.fill('input[name="player3"]', "Cara");
	await host.check('input[name="deck"][value="app"]');
	await host.click("#create");
	const seat2 = await host.inputValue('[data-link="seat-2"]');
	await host.click("#open-host");
	await host.locator(".turn-head #show-display").waitFor();
	await host.locator("#conn[data-conn=live]").waitFor(); // the header is drawn again once live
	const link = await bigScreenLink(host, "#show-display", "display-host-er");

	const screen = await tv();
	await screen.goto(link);
	await screen.locator(".dsp-seat").nth(2).waitFor();
	assert((await screen.locator(".dsp-seat").count()) === 3, "three sheets side by side");
	assert(!screen.url().includes("token="), `the token left the address bar: ${screen.url()}`);
	await screen.locator("#conn [data-conn=live]").waitFor();
	assert((await screen.innerText("#dsp-now-h")).includes("Alice flips the next card"), await screen.innerText("#dsp-now-h"));
	await look(screen, "display-er-start");

	// the Chief Physician flips and rolls on her phone: the card and the dice are on the display
	await host.click("#reveal");
	await host.locator('.bay[data-die="red"] .die').waitFor();
	const dice = await host.locator(".card .bay .die").allInnerTexts();
	await screen.locator(".dsp-card .dsp-bay").nth(2).waitFor();
	const shown = await screen.locator(".dsp-card .die").evaluateAll((els) => els.map((e) => e.firstChild.textContent));
	assert(JSON.stringify(shown) === JSON.stringify(dice), `the dice of the turn: ${shown} vs ${dice}`);
	assert((await screen.innerText("#dsp-status")).includes("Chief Physician: Alice"), await screen.innerText("#dsp-status"));
	// her move, made by tapping, is on her sheet on the display
	await tapMove(host);
	await screen.locator('.dsp-seat[data-seat="1"] .dsp-moved.ok').waitFor();
	// (a patient in a bed, or in the morgue of the ledger under the sheet)
	await screen.waitForFunction(() => document.querySelectorAll('.dsp-seat[data-seat="1"] :is(.bed.filled, .box.dead)').length >= 1);
	// Bob's phone moves: the display follows live, and says who is left
	const bob = await phone();
	await bob.goto(seat2);
	await tapMove(bob);
	await screen.locator('.dsp-seat[data-seat="2"] .dsp-moved.ok').waitFor();
	await screen.locator("#dsp-waiting", { hasText: "Waiting for Cara" }).waitFor();
	const total = await bob.locator('.player[data-seat="2"] .pscore').innerText();
	assert((await screen.locator('.dsp-seat[data-seat="2"] .dsp-total').getAttribute("data-total")) === total.replace(/\D/g, ""), `Bob's total ${total}`);
	await look(screen, "display-er-live");

	// the display is no player: the seats claimed are Alice's, which the host's phone plays with
	// the host token, and Bob's phone's; Cara's phone never came
	const seats = (await api("GET", `/join/${await host.locator(".turn-head .code").innerText()}`)).body.seats;
	assert(JSON.stringify(seats.map((s) => s.claimed)) === "[true,true,false]", `claims: ${JSON.stringify(seats)}`);

	// the dialog shows the link it made again; a new link makes the old screen say so
	await host.click("#show-display");
	await host.locator("#bs-link").waitFor();
	assert((await host.inputValue("#bs-link")) === link, "the phone keeps the link it got");
	await host.click("#bs-new");
	await host.waitForFunction((old) => document.querySelector("#bs-link") && document.querySelector("#bs-link").value !== old, link);
	const fresh = await host.inputValue("#bs-link");
	await host.click("#bs-close");
	await screen.reload();
	await screen.locator('#dsp-lost[data-lost="replaced"]').waitFor();
	await shot(screen, "display-replaced");
	await audit(screen, "display-replaced");
	await screen.goto(fresh);
	await screen.locator(".dsp-seat").nth(2).waitFor();
	await host.context().close();
	await bob.context().close();
	await screen.context().close();
});

await test("display-b-dh-round-live", async () => {
	const host = await phone();
	await host.goto(BASE + "/");
	await host.locator("#pick-dh").click(); // the home screen's choice of game
	await host.locator("#tt-new").waitFor();
	await host.click("#tt-add-player");
	for (const [i, n] of ["Ann", "Bob", "Cy"].entries()) await host.fill(`input[name="tt-player${i + 1}"]`, n);
	await host.click("#tt-create");
	const code = await host.locator("#tt-code-shown").getAttribute("data-code");
	await host.click("#tt-open-host");
	await host.locator("#tt-entry .tt-seat").first().waitFor();
	await host.locator("#tt-status", { hasText: "· live" }).waitFor(); // the head is drawn again once live
	const link = await bigScreenLink(host, "#tt-show-display", "display-host-dh");

	const screen = await tv();
	await screen.goto(link);
	await screen.locator('.dsp-table tbody tr[data-seat="3"]').waitFor();
	await screen.locator("#conn [data-conn=live]").waitFor();
	assert((await screen.innerText("#dsp-h1")).includes("Round 1 of 8"), await screen.innerText("#dsp-h1"));

	// Bob's phone enters his round 1: his points are on the display, and who is left
	const bob = await phone();
	await bob.goto(BASE + "/");
	await bob.fill("#join-code", code);
	await bob.click("#join-go");
	await bob.locator('.seat[data-seat="2"]').click();
	await bob.locator('#tt-entry .tt-seat[data-seat="2"]').waitFor();
	const plus = bob.locator('.tt-stepper[data-seat="2"][data-field="discharged.red"] button').nth(1);
	await plus.click();
	await plus.click();
	await bob.locator("#tt-save:not([disabled])").click();
	await bob.locator("#tt-msg", { hasText: "Round 1 saved" }).waitFor();
	const points = await bob.locator('.tt-score[data-seat="2"] .tt-total').getAttribute("data-total");
	assert(points !== "0", `Bob scored: ${points}`);
	await screen.locator(`.dsp-table tr[data-seat="2"] td[data-round="1"]`, { hasText: points }).waitFor();
	await screen.locator("#dsp-waiting", { hasText: "Waiting for Ann, Cy" }).waitFor();
	await look(screen, "display-dh-round");

	// the rest of the game through the API with the host's token: the final ranking
	const hostToken = await host.evaluate(() => Object.values(JSON.parse(localStorage.getItem("dh.tabletop.games")))[0].token);
	const id = decodeURIComponent(link.match(/game=([^&]+)/)[1]);
	const e = (seat, red) => ({ seat, discharged: { red, yellow: 1, green: 0 }, wards_empty: false });
	let r = await api("PUT", `/dh/games/${id}/rounds/1`, { entries: [e(1, 1), e(3, 0)] }, hostToken);
	for (let n = 2; n <= 8; n++) r = await api("PUT", `/dh/games/${id}/rounds/${n}`, { entries: [e(1, 1), e(2, 2), e(3, 0)] }, hostToken);
	r = await api("POST", `/dh/games/${id}/finish`, { entries: [1, 2, 3].map((seat) => ({ seat, blood_bags: seat, patients_left: 1, pips_left: 3 })) }, hostToken);
	assert(r.status === 200 && r.body.status === "finished", `finish: ${r.status} ${JSON.stringify(r.body)}`);
	await screen.locator(".dsp-rank li.winner").waitFor();
	assert((await screen.innerText("#dsp-scores-h")) === "Final ranking", await screen.innerText("#dsp-scores-h"));
	await look(screen, "display-dh-final");
	await host.context().close();
	await bob.context().close();
	await screen.context().close();
});

await test("display-c-clinic-track-and-order", async () => {
	const g = (await api("POST", "/clinic/games", { players: ["Eve", "Florentine Abernathy-Smythe", "Gus", "Hana"].map((name) => ({ name })) })).body;
	const e = (seat, bought) => ({ seat, popularity_bought: bought, lab_doctors: seat % 2, deaths: 0, unpaid_expenses: 0, time_spent: seat });
	for (let n = 1; n <= 3; n++) {
		const r = await api("PUT", `/clinic/games/${g.id}/rounds/${n}`, { entries: [e(1, 2), e(2, 1), e(3, 3), e(4, 0)] }, g.host_token);
		assert(r.status === 200, `round ${n}: ${r.status} ${JSON.stringify(r.body)}`);
	}
	const screen = await tv();
	await screen.goto(await displayUrl("clinic", g));
	await screen.locator('.dsp-track li[data-seat="4"]').waitFor();
	assert((await screen.locator('.dsp-track li[data-seat="3"]').getAttribute("data-popularity")) !== "0", "popularity on the track");
	await screen.locator("#dsp-order", { hasText: "→" }).waitFor();
	await look(screen, "display-clinic");
	for (let n = 4; n <= 6; n++) await api("PUT", `/clinic/games/${g.id}/rounds/${n}`, { entries: [e(1, 2), e(2, 1), e(3, 3), e(4, 0)] }, g.host_token);
	const r = await api("POST", `/clinic/games/${g.id}/finish`, { entries: [1, 2, 3, 4].map((seat) => ({ seat, nurses: seat })) }, g.host_token);
	assert(r.status === 200, `finish: ${r.status}`);
	await screen.locator(".dsp-rank li.winner").waitFor();
	await look(screen, "display-clinic-final");
	await screen.context().close();
});

await test("display-d-er-six-sheets-and-final-ranking", async () => {
	const six = (await api("POST", "/er/games", { players: ["Alice", "Bartholomew Longname", "Cara", "Dev", "Eli", "Fatima"].map((name) => ({ name })), deck: "app" })).body;
	await api("POST", `/er/games/${six.id}/turns`, { turn: 1 }, six.host_token);
	const screen = await tv();
	await screen.goto(await displayUrl("er", six));
	await screen.locator(".dsp-seat").nth(5).waitFor();
	await screen.locator(".dsp-card .dsp-bay").nth(2).waitFor();
	await look(screen, "display-er-six");
	const done = await playErByApi(["Ann", "Ben"]);
	await screen.goto(await displayUrl("er", done));
	await screen.locator(".dsp-winner").waitFor();
	await screen.locator(".dsp-rank li.winner").waitFor();
	await look(screen, "display-er-final");
	// French
	const fr = await tv({ locale: "fr-FR" });
	await fr.goto(await displayUrl("er", done));
	await fr.locator(".dsp-winner").waitFor();
	assert((await fr.innerText("#dsp-scores-h")) === "Classement final", await fr.innerText("#dsp-scores-h"));
	await look(fr, "display-er-final-fr");
	await fr.context().close();
	await screen.context().close();
});

await test("display-e-no-token", async () => {
	const screen = await tv();
	await screen.goto(`${BASE}/display.html`);
	await screen.locator('#dsp-lost[data-lost="none"]').waitFor();
	await shot(screen, "display-no-token");
	await audit(screen, "display-no-token");
	await screen.context().close();
});

await D.finish("display");
