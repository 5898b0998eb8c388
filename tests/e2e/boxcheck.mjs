// Browser test of "check against your box, once" (static/tabletop/boxcheck.js, profiles.js) on a
// 360 × 740 phone: from a new Clinic game's form, the check screen lists every value no rulebook
// confirms with where the board prints it; a value out of range is refused at that number; every
// value confirmed and saved, the new game uses the group's profile and its head says "checked
// against your box" with the date; from a Dice Hospital game's badge, a corrected table saved for
// new games. English and French, light and dark: screenshots (build/e2e/bc-*.png), layout (no
// overflow, no overlap, 44-px targets) and axe-core (experimental rules on) with no violation.
// Run by all.mjs (lib.mjs: the runner, phones, axe).
import { BASE, assert, readJson, suite, phoneLayoutCheck } from "./lib.mjs";

const strings = (l) => ({ ...readJson(`static/i18n/tabletop.${l}.json`), ...readJson(`static/i18n/tabletop.boxcheck.${l}.json`) });
const EN = strings("en");
const FR = strings("fr");
const CLINIC = readJson("templates/clinic/default.json");
const UNVERIFIED = Object.keys(CLINIC.values).filter((k) => !CLINIC.values[k].verified);
const B = suite("boxcheck");
const { test } = B;
const phone = (locale = "en-GB", colorScheme = "light") => B.phone({ locale, colorScheme, timeout: 8000 });

/** The layout at 360 px: nothing wider than the screen, no two controls overlapping, no text
 * spilling out of its control (links and lists aside), nothing sticking out of a value's box or
 * the game's head, tap targets of 44 px (links aside); the header's small links are only kept
 * on the screen. */
const layoutCheck = (page, name) => phoneLayoutCheck(page, name, {
	controls: "button, a, input:not([type=radio]):not([type=checkbox]), select", outside: true, skip: ".top",
	noText: "a, select", noSize: "a", sticksOut: ".bc-value, .tt-head, #tt-profile-box",
});

/** A screen's checks: no file name, id or string key on it, the layout, axe (collected), a
 * full-page screenshot. */
async function screen(page, name) {
	const text = await page.locator("body").innerText();
	const leak = text.match(/game-data|\.md\b|\.json\b|\btt\.[a-z][a-z0-9_.]*|"verified"|\bdefault\b/);
	assert(!leak, `${name}: "${leak && leak[0]}" on the screen`);
	await layoutCheck(page, name);
	await B.audit(page, name);
	await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header at the top of the picture
	await B.shot(page, name, true);
}

/** The date the page shows for a check stamp, in the page's own locale. */
const pageDate = (page, stamp) => page.evaluate((s) => new Intl.DateTimeFormat(navigator.language, { dateStyle: "long" }).format(new Date(s)), stamp);

async function openCheckFromNewForm(page, kind, S) {
	await page.goto(`${BASE}/#tt=${kind}`);
	await page.locator("#tt-new").waitFor();
	const link = page.locator("#tt-profile-status.tt-check-link");
	await link.waitFor();
	assert((await link.innerText()).includes(S["tt.check_box"]), await link.innerText());
	await link.click();
	await page.locator("#bc-form").waitFor();
}

let savedProfile = null;

await test("bc-a-clinic-check-all-save-new-game", async () => {
	const page = await phone();
	await page.goto(`${BASE}/#tt=clinic`);
	await page.locator("#tt-new").waitFor();
	await page.locator("#tt-profile-status").waitFor();
	const option = await page.locator("#tt-profile option:checked").innerText();
	assert(option === EN["tt.profile_name.clinic.default"], `the picker names the profile for players: ${option}`);
	await screen(page, "bc-clinic-new-en");
	await openCheckFromNewForm(page, "clinic", EN);
	assert((await page.locator("h1").innerText()) === EN["tt.box.title"], "the check screen's title");
	const keys = await page.locator("fieldset.bc-value").evaluateAll((els) => els.map((e) => e.dataset.key));
	assert(JSON.stringify([...keys].sort()) === JSON.stringify([...UNVERIFIED].sort()), `every unverified value, once: ${keys}`);
	const where = await page.locator('fieldset[data-key="doctor"] .bc-where').innerText();
	assert(where.includes(CLINIC.values.doctor.where.en), `where the board prints it: ${where}`);
	// a penalty is typed without its sign: the board's −4 for a red patient left shows as 4
	assert((await page.locator('input[data-ptr="/values/patient_left/red"]').inputValue()) === "4", "a penalty's number");
	await screen(page, "bc-check-en");

	// a number out of range: refused by the server at that number, nothing saved
	const white = page.locator('input[data-ptr="/values/doctor/white"]');
	await white.fill("101");
	assert(await page.locator('input[data-confirm="doctor"]').isChecked(), "a corrected value is ticked");
	assert((await page.locator('fieldset[data-key="doctor"] .bc-state').getAttribute("data-state")) === "fixed", "corrected");
	await page.click("#bc-save");
	await page.locator('input[data-ptr="/values/doctor/white"][aria-invalid="true"]').waitFor();
	assert(/0 to 100/.test(await page.locator("#bc-bad").innerText()), await page.locator("#bc-bad").innerText());
	assert(await white.evaluate((el) => el === document.activeElement), "the refused number has the focus");
	await screen(page, "bc-check-refused-en");

	// every value confirmed as printed (the white doctor set back), saved in one go
	await white.fill("1");
	for (const k of UNVERIFIED) await page.locator(`input[data-confirm="${k}"]`).check();
	assert((await page.locator("#bc-progress").innerText()) === EN["tt.box.progress"].replace("{n}", UNVERIFIED.length).replace("{total}", UNVERIFIED.length), await page.locator("#bc-progress").innerText());
	const [resp] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/v1/profiles") && r.request().method() === "POST"), page.click("#bc-save")]);
	assert(resp.status() === 201, `saved: ${resp.status()} ${await resp.text()}`);
	savedProfile = await resp.json();
	assert(JSON.stringify(resp.request().postDataJSON().checked.sort()) === JSON.stringify([...UNVERIFIED].sort()), "every value sent as checked");
	assert(savedProfile.all_verified && savedProfile.checked_at, JSON.stringify(savedProfile).slice(0, 200));

	// back on the new-game form with the saved profile chosen and its check date
	await page.locator("#tt-new").waitFor();
	await page.locator("#tt-profile-status .tt-checked").waitFor();
	assert((await page.locator("#tt-profile").inputValue()) === savedProfile.id, "the saved profile is chosen");
	const date = await pageDate(page, savedProfile.checked_at);
	const want = EN["tt.checked_on"].replace("{date}", date);
	assert((await page.locator("#tt-profile-status").innerText()).includes(want), `${await page.locator("#tt-profile-status").innerText()} ≠ ${want}`);
	assert(new Date(savedProfile.checked_at).toISOString().slice(0, 10) === new Date().toISOString().slice(0, 10), "checked today");
	await screen(page, "bc-clinic-new-checked-en");

	// a game with it: the head says checked with the date, nothing carries the unverified badge
	await page.fill('input[name="tt-player1"]', "Eve");
	await page.fill('input[name="tt-player2"]', "Flo");
	const [made] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/v1/clinic/games") && r.request().method() === "POST"), page.click("#tt-create")]);
	assert(made.request().postDataJSON().profile === savedProfile.id, "created with the checked profile");
	await page.click("#tt-open-host");
	await page.locator(".tt-head .tt-checked").waitFor();
	assert((await page.locator(".tt-head .tt-profile-line").innerText()).includes(want), await page.locator(".tt-head .tt-profile-line").innerText());
	assert((await page.locator(".tt-head .tt-check-link").count()) === 0, "no link to check a checked profile");
	// the Business helper prices a nurse's wage (a board value) with the checked profile: not flagged
	await page.click("#tt-biz-toggle");
	await page.locator('.tt-stepper[data-biz="nurses"] button').nth(1).click();
	await page.click("#tt-biz-go");
	await page.locator('#tt-biz-out [data-out="wages"]').waitFor();
	assert(/^\$[1-9]/.test(await page.locator('#tt-biz-out [data-out="wages"] dd').innerText()), await page.locator("#tt-biz-out").innerText());
	assert((await page.locator(".tt-badge:not(.tt-checked)").count()) === 0, "nothing unverified anywhere");
	await screen(page, "bc-clinic-game-checked-en");
	await page.context().close();
});

await test("bc-b-check-screen-en-fr-light-dark", async () => {
	for (const [locale, scheme, S, tag] of [["en-GB", "dark", EN, "en-dark"], ["fr-FR", "light", FR, "fr"], ["fr-FR", "dark", FR, "fr-dark"]]) {
		const page = await phone(locale, scheme);
		await page.goto(`${BASE}/#tt=clinic`);
		await page.locator("#tt-profile-status").waitFor();
		await screen(page, `bc-clinic-new-${tag}`);
		await openCheckFromNewForm(page, "clinic", S);
		assert((await page.locator("h1").innerText()) === S["tt.box.title"], `${tag}: ${await page.locator("h1").innerText()}`);
		const where = await page.locator('fieldset[data-key="treatment_room"] .bc-where').innerText();
		assert(where.includes(CLINIC.values.treatment_room.where[locale.slice(0, 2)]), `${tag}: ${where}`);
		await screen(page, `bc-check-${tag}`);
		await page.context().close();
	}
});

await test("bc-c-dh-from-game-badge-corrected", async () => {
	const page = await phone("fr-FR");
	// another group's stored profile: on the server, not offered on this phone
	const other = await page.request.post(`${BASE}/api/v1/profiles`, { data: { game: "dh", id: "other-group", name: "Another group's box",
		values: readJson("templates/dice-hospital/default.json").values } });
	assert(other.status() === 201, await other.text());
	await page.goto(`${BASE}/#tt=dh`);
	await page.locator("#tt-new").waitFor();
	await page.fill('input[name="tt-player1"]', "Léa");
	await page.fill('input[name="tt-player2"]', "Hugo");
	await page.click("#tt-create");
	await page.click("#tt-open-host");
	const badge = page.locator(".tt-head a.tt-check-link");
	await badge.waitFor();
	assert((await badge.innerText()).includes(FR["tt.unverified"]), await badge.innerText());
	await screen(page, "bc-dh-game-unchecked-fr");
	await badge.click();
	await page.locator("#bc-form").waitFor();
	assert((await page.locator("fieldset.bc-value").count()) === 1, "Dice Hospital: the discharge table only");
	assert((await page.locator('fieldset[data-key="discharge"] input[type="number"]').count()) === 12, "12 numbers");
	await page.locator('input[data-ptr="/values/discharge/points/9"]').fill("55");
	assert((await page.locator('fieldset[data-key="discharge"] .bc-state').getAttribute("data-state")) === "fixed", "corrected");
	await screen(page, "bc-check-dh-fr");
	const [resp] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/v1/profiles") && r.request().method() === "POST"), page.click("#bc-save")]);
	assert(resp.status() === 201, await resp.text());
	const saved = await resp.json();
	assert(saved.values.discharge.points[9] === 55 && saved.all_verified, JSON.stringify(saved.values.discharge));
	await page.locator("#bc-saved").waitFor();
	await screen(page, "bc-saved-dh-fr");
	await page.click("#bc-new-game");
	await page.locator("#tt-profile-status .tt-checked").waitFor();
	assert((await page.locator("#tt-profile").inputValue()) === saved.id, "the new game starts with the corrected profile");
	// this phone's profiles are offered first; another group's stored profile is not offered
	const offered = await page.locator("#tt-profile option").evaluateAll((os) => os.map((o) => o.value));
	assert(offered[0] === "default" && offered[1] === saved.id && offered.length === 2, `offered: ${offered}`);
	await page.context().close();
});

await B.finish("bc");
