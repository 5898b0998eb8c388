// The help pages (static/help/LANG/TOPIC.html) and the links to them, in headless Chromium at
// 360 px: every screen that links help (the ER game's header, the host's "Show on a big screen"
// dialog, the box check, the league screens and their files) is opened in English and in French,
// each help link it shows is followed, and the page it opens answers 200, in the screen's
// language, on the topic of the screen. Then every help page, reached from the contents through
// their own links, is checked at 360 px in light and in dark: one h1, the language of its
// folder, its link to the same page in the other language, axe-core (experimental rules on), the
// layout checks of the phone screens (lib.mjs), the theme the phone asks for, and in French a
// no-break space before ':' ';' '?' '!'. A page read once opens again offline (the service
// worker). Screenshots: build/e2e/help-*.png. Run by all.mjs.
import { BASE, assert, erLayoutCheck, readJson, suite } from "./lib.mjs";

const H = suite("help");
const { test, audit, shot } = H;
const LANGS = { en: "en-GB", fr: "fr-FR" };
const WAIT = 20000; // ms a step of a page may take (the lanes share a busy machine)
const TOPICS = ["leagues", "imports", "display", "box", "er"];
const STRINGS = {
	en: { ...readJson("static/i18n/en.json"), ...readJson("static/i18n/leagues.en.json"), ...readJson("static/i18n/display.en.json"), ...readJson("static/i18n/tabletop.boxcheck.en.json") },
	fr: { ...readJson("static/i18n/fr.json"), ...readJson("static/i18n/leagues.fr.json"), ...readJson("static/i18n/display.fr.json"), ...readJson("static/i18n/tabletop.boxcheck.fr.json") },
};
const origin = new URL(BASE).origin;
const followed = []; // {from, lang, topic, url} of every help link followed from a screen

/** French typography in text: what precedes ':' ';' '?' '!' is a no-break space (U+00A0 or
 * U+202F), as tabletop-words.mjs checks the French screens. Returns the offending snippets. */
function badFrench(text) {
	const out = [];
	for (const m of text.matchAll(/[:;?!]/g)) {
		const before = text[m.index - 1];
		if (before !== "\u00a0" && before !== "\u202f") out.push(JSON.stringify(text.slice(Math.max(0, m.index - 24), m.index + 2)));
	}
	return out;
}

/** Follows the help link of topic that screen p shows (in the same tab, or the new one it opens):
 * its text is the screen's string, its address help/LANG/TOPIC.html, and the page it opens
 * answers 200 in lang. Goes back to the screen when it was followed in the same tab. */
async function follow(p, selector, { from, lang, topic, text }) {
	const link = p.locator(selector);
	await link.waitFor();
	assert((await link.innerText()).trim() === STRINGS[lang][text], `${from}: the link says ${JSON.stringify(await link.innerText())}`);
	const href = await link.getAttribute("href");
	assert(href === `help/${lang}/${topic}.html`, `${from}: the link goes to ${href}`);
	const blank = (await link.getAttribute("target")) === "_blank";
	let opened = p;
	let status;
	if (blank) {
		const [popup] = await Promise.all([p.context().waitForEvent("page"), link.click()]);
		await popup.waitForLoadState();
		opened = popup;
		status = (await p.request.get(popup.url())).status();
	} else {
		const [nav] = await Promise.all([p.waitForNavigation(), link.click()]);
		status = nav ? nav.status() : (await p.request.get(p.url())).status();
	}
	const url = opened.url();
	assert(url === `${BASE}/help/${lang}/${topic}.html`, `${from}: opened ${url}`);
	assert(status === 200 || status === 304, `${from}: ${url} answered ${status}`);
	assert((await opened.evaluate(() => document.documentElement.lang)) === lang, `${from}: ${url} is not in ${lang}`);
	assert((await opened.locator("h1").count()) === 1, `${from}: ${url} has no single h1`);
	followed.push({ from, lang, topic, url });
	if (blank) await opened.close();
	else await p.goBack();
}

/** A new ER game made on the phone's home screen, its host's game screen opened. */
async function erHost(p) {
	await p.goto(`${BASE}/`);
	await p.click("#pick-er");
	await p.fill('input[name="player1"]', "Alice");
	await p.fill('input[name="player2"]', "Bob");
	await p.check('input[name="deck"][value="app"]');
	await p.click("#create");
	await p.click("#open-host");
	await p.locator(".turn-head #show-display").waitFor();
}

for (const [lang, locale] of Object.entries(LANGS)) {
	await test(`help-a-er-game-and-big-screen-link-${lang}`, async () => {
		const p = await H.phone({ locale, timeout: WAIT });
		await erHost(p);
		await follow(p, ".turn-line a", { from: `ER game (${lang})`, lang, topic: "er", text: "help" });
		await p.locator(".turn-head #show-display").waitFor(); // back on the game after the help page
		await erLayoutCheck(p, `ER game with its help link (${lang})`);
		await shot(p, `help-link-er-${lang}`);
		await p.click("#show-display");
		await p.locator("#bs-help").waitFor();
		await shot(p, `help-link-display-${lang}`);
		await follow(p, "#bs-help", { from: `big screen dialog (${lang})`, lang, topic: "display", text: "dsp.help_link" });
		await p.context().close();
	});

	await test(`help-b-box-check-link-${lang}`, async () => {
		const p = await H.phone({ locale, timeout: WAIT });
		await p.goto(`${BASE}/#tt=clinic`);
		const check = p.locator("#tt-profile-status.tt-check-link");
		await check.waitFor();
		await check.click();
		await p.locator("#bc-form").waitFor();
		await follow(p, "#bc-help", { from: `box check (${lang})`, lang, topic: "box", text: "tt.box.help" });
		await shot(p, `help-link-box-${lang}`);
		await p.context().close();
	});

	await test(`help-c-league-screens-links-${lang}`, async () => {
		const p = await H.phone({ locale, timeout: WAIT });
		const call = async (method, path, data) => {
			const r = await p.request.fetch(`${BASE}/api/v1${path}`, { method, data, headers: { Origin: origin } });
			return { status: r.status(), body: await r.json() };
		};
		const signup = await call("POST", "/accounts", { email: `help-${lang}@example.org`, password: "help password", display_name: "Helen" });
		assert(signup.status === 201, `sign-up: ${signup.status}`);
		const login = await call("POST", "/sessions", { email: `help-${lang}@example.org`, password: "help password" });
		assert(login.status === 200 || login.status === 201, `log-in: ${login.status}`);
		const { body: lg } = await call("POST", "/leagues", { name: "Help club" });
		const lid = encodeURIComponent(lg.id);
		const screens = [
			["", `my leagues (${lang})`, [["leagues", "help.leagues"]]],
			[`league=${lid}`, `a league (${lang})`, [["leagues", "help.leagues"], ["imports", "help.imports"]]],
			[`members=${lid}`, `its members (${lang})`, [["leagues", "help.leagues"]]],
		];
		for (const [hash, from, links] of screens)
			for (const [topic, text] of links) {
				await p.goto(`${BASE}/leagues.html#${hash}`);
				await p.locator(`a.lg-help[data-help="${topic}"]`).waitFor();
				await follow(p, `a.lg-help[data-help="${topic}"]`, { from, lang, topic, text });
				await p.locator(`a.lg-help[data-help="${topic}"]`).waitFor(); // the screen again
			}
		await shot(p, `help-link-league-${lang}`, true);
		await p.context().close();
	});
}

await test("help-d-every-topic-linked-in-both-languages", async () => {
	const missing = Object.keys(LANGS).flatMap((lang) => TOPICS.filter((t) => !followed.some((f) => f.lang === lang && f.topic === t)).map((t) => `${lang}/${t}`));
	assert(missing.length === 0, `no screen links ${missing.join(", ")}`);
});

await test("help-f-a-page-read-once-opens-offline", async () => {
	// the service worker (sw.js, on 127.0.0.1: a secure context) keeps what it served, network
	// first: a help page read at the table opens again, with its style, when the network is gone
	const p = await H.phone({ locale: "fr-FR", timeout: WAIT });
	await p.goto(`${BASE}/`);
	await p.evaluate(() => navigator.serviceWorker.ready.then(() => true));
	await p.goto(`${BASE}/help/fr/er.html`);
	const deadline = Date.now() + 10000;
	while (!(await p.evaluate(() => navigator.serviceWorker.controller !== null))) {
		assert(Date.now() < deadline, "the help page is not under the service worker");
		await p.reload();
	}
	const h1 = await p.locator("h1").innerText();
	await p.reload(); // read once under the worker: now in its cache
	await p.context().setOffline(true);
	await p.reload();
	assert((await p.locator("h1").innerText()) === h1, `offline: ${await p.locator("h1").innerText()}`);
	assert((await p.evaluate(() => getComputedStyle(document.querySelector(".top")).position)) === "sticky", "offline: the page without its style");
	await p.context().setOffline(false);
	await p.context().close();
});

// Every help page, reached from the contents of each language through the pages' own links.
for (const scheme of ["light", "dark"])
	await test(`help-e-every-page-at-360-${scheme}`, async () => {
		const p = await H.phone({ colorScheme: scheme, serviceWorkers: "block", timeout: WAIT });
		const seen = new Set();
		const queue = Object.keys(LANGS).map((l) => `${BASE}/help/${l}/index.html`);
		while (queue.length) {
			const url = queue.shift();
			if (seen.has(url)) continue;
			seen.add(url);
			const r = await p.goto(url);
			assert(r.status() === 200, `${url}: ${r.status()}`);
			const lang = url.split("/").at(-2);
			const name = `${lang}/${url.split("/").at(-1)} (${scheme})`;
			const facts = await p.evaluate(() => ({
				lang: document.documentElement.lang,
				h1: document.querySelectorAll("h1").length,
				bg: getComputedStyle(document.body).backgroundColor,
				scripts: document.scripts.length,
				text: (() => {
					const out = [];
					const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
					for (let n = walk.nextNode(); n; n = walk.nextNode()) if (!n.parentElement.closest("code")) out.push(n.textContent);
					return out.join("");
				})(),
				links: [...document.querySelectorAll("a[href]")].map((a) => ({ href: a.href, lang: a.getAttribute("hreflang") })),
			}));
			assert(facts.lang === lang, `${name}: lang="${facts.lang}"`);
			assert(facts.h1 === 1, `${name}: ${facts.h1} h1`);
			assert(facts.scripts === 0, `${name}: a help page needs no script`);
			assert(facts.bg === (scheme === "dark" ? "rgb(18, 20, 23)" : "rgb(251, 250, 247)"), `${name}: background ${facts.bg} in ${scheme}`);
			if (lang === "fr") {
				const bad = badFrench(facts.text);
				assert(bad.length === 0, `${name}: no no-break space before ${bad.slice(0, 8).join(", ")}`);
			}
			const page = url.split("/").at(-1);
			const other = facts.links.find((l) => l.lang);
			assert(other && other.href === `${BASE}/help/${other.lang}/${page}` && other.lang !== lang, `${name}: the other language's link ${JSON.stringify(other)}`);
			await erLayoutCheck(p, name);
			await audit(p, name);
			if (page === "index.html" || page === "leagues.html") await shot(p, `help-${lang}-${page.replace(".html", "")}-${scheme}`, true);
			for (const l of facts.links) if (l.href.startsWith(`${BASE}/help/`)) queue.push(l.href);
		}
		const want = Object.keys(LANGS).flatMap((l) => ["index", ...TOPICS].map((t) => `${BASE}/help/${l}/${t}.html`));
		const unseen = want.filter((u) => !seen.has(u));
		assert(unseen.length === 0, `not reached from the contents: ${unseen.join(", ")}`);
		await p.context().close();
		return `(${seen.size} pages)`;
	});

await H.finish("help");
