// What every browser test file shares: the server's address, the screenshot folder, one headless
// Chromium for all files (Lighthouse's too), phones and screens made the same way, axe-core, the
// layout checks (ER screens, other phone screens, the table display), the API from node, and a
// runner printing "PASS name (ms)" / "FAIL name" + indented details per test.
//
// A file makes its own suite (`const S = suite("er")`): its tests, the script errors and axe
// violations of its pages, and the two checks that close every file (`await S.finish()`: no axe
// violation on any screen it looked at, no script error on any page it opened). Files are run by
// all.mjs, one after another or two at a time, in one browser.
import { chromium } from "playwright-core";
import AxeBuilder from "@axe-core/playwright";
import axeCore from "axe-core";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";

export const BASE = process.env.BASE_URL || "http://127.0.0.1:8080";
export const SHOTS = process.env.SHOTS || "build/e2e";
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
export const ROOT = new URL("../../", import.meta.url);
mkdirSync(SHOTS, { recursive: true });

/** A JSON file of the repository, by its path from the top. */
export const readJson = (path) => JSON.parse(readFileSync(new URL(path, ROOT), "utf8"));

export const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync"];
// every rule, the experimental ones turned on
const AXE_RULES = Object.fromEntries(axeCore.getRules(["experimental"]).map((r) => [r.ruleId, { enabled: true }]));
// a refused move is an expected 4xx in the network log, an outage a test makes an expected 503;
// a cut network is expected offline
const EXPECTED_CONSOLE = /status of (4\d\d|503)|ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED/;

export function assert(cond, msg) {
	if (!cond) throw new Error(msg);
}

/** A string with its {vars} filled in, as the pages' t() does. */
export const fill = (s, vars = {}) => s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

/** The API from node (a test's own setup, not what a phone does): {status, body}. */
export async function api(method, path, body, token) {
	const headers = { Accept: "application/json" };
	const sends = body !== undefined && body !== null;
	if (sends) headers["Content-Type"] = "application/json";
	if (token) headers.Authorization = `Bearer ${token}`;
	const r = await fetch(`${BASE}/api/v1${path}`, { method, headers, body: sends ? JSON.stringify(body) : undefined });
	const text = await r.text();
	let parsed = null;
	try {
		parsed = text ? JSON.parse(text) : null;
	} catch {}
	return { status: r.status, body: parsed };
}

/** The play the page's "Log in BG Stats" link pushes: its href checked to be BG Stats'
 * createPlay.html link (static/bgstats-link.js), its data parameter decoded. The link's other
 * side, BG Stats, is not reachable from the tests. */
export async function bgstatsPlay(page) {
	const link = page.locator("#bgstats-link");
	await link.waitFor();
	const href = await link.getAttribute("href");
	const url = new URL(href);
	assert(`${url.origin}${url.pathname}` === "https://app.bgstatsapp.com/createPlay.html", `the link: ${href}`);
	assert([...url.searchParams.keys()].join() === "data", `one data parameter: ${href}`);
	assert(href.split("?data=")[1] === encodeURIComponent(url.searchParams.get("data")), "the JSON URL-encoded");
	return JSON.parse(url.searchParams.get("data"));
}

/** playDate as BG Stats reads it: "YYYY-MM-DD HH:MM:SS", the page's local time of an RFC 3339 time. */
export const localPlayDate = (page, iso) => page.evaluate((x) => {
	const d = new Date(x), p = (n) => String(n).padStart(2, "0");
	return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}, iso);

/** The words of the screen as a player reads them, two checks every audited screen gets:
 * - a badge or warning (a class naming a badge, warn or notice, role note, alert or status, an
 *   error box) says a thing once per section (the closest section, fieldset, article, dialog,
 *   form, details, table, list or .panel): the same one on every line says nothing;
 * - no text left unfinished: "(s)" for a plural, a word followed by " ." or " ," (an empty name
 *   slot: "the seat of ."), a line opening with "." or ",", "()", a {placeholder} unfilled.
 * typed: what people typed that the screen shows as it came (players' names of a real file, such
 * as "Bobae ,(Llu)"), read as a plain word by the second check.
 * Returns the problems found, "what: where" each. */
export async function wordsCheck(page, typed = []) {
	return page.evaluate((typed) => {
		const out = [];
		const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden" && !el.closest("[hidden], .sr-only");
		const where = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""}`;
		const SECTION = "section, fieldset, article, dialog, form, details, table, ul, ol, dl, .panel, main, body";
		const seen = new Map(); // section → text → count
		for (const el of document.querySelectorAll('[class*="badge"], [class*="warn"], [class*="notice"], [role="note"], [role="alert"], [role="status"], .error')) {
			if (!shown(el) || el.closest("svg")) continue;
			const text = (el.innerText || "").replace(/\s+/g, " ").trim();
			if (!text) continue;
			const sec = el.parentElement?.closest(SECTION) || document.body;
			const texts = seen.get(sec) || new Map();
			seen.set(sec, texts);
			texts.set(text, (texts.get(text) || 0) + 1);
		}
		for (const [sec, texts] of seen) for (const [text, n] of texts) if (n > 1) out.push(`"${text.slice(0, 60)}" ${n} times in ${where(sec)}`);
		const BAD = [[/\(s\)|\(e\)s?\b|\(x\)/i, "a raw plural"], [/\S\s+[.,](?!\d)/, "an empty slot before a full stop or comma"], [/^\s*[.,]/, "a line opening with a full stop or comma"], [/\(\s*\)/, "empty brackets"], [/\{\w+\}/, "a placeholder left"]];
		for (const shownLine of document.body.innerText.split("\n")) {
			const line = typed.reduce((l, t) => l.split(t).join("Name"), shownLine);
			for (const [re, what] of BAD) if (re.test(line)) out.push(`${what}: "${shownLine.trim().slice(0, 80)}"`);
		}
		return [...new Set(out)];
	}, typed);
}

let shared = null; // the one browser of the process (a promise: files may ask at once)

/** The one headless Chromium every file's pages live in. Its DevTools also listen on a port of
 * loopback that Chromium picks (for Lighthouse, devtoolsPort). */
export function browser() {
	shared ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...FLAGS, "--disable-dev-shm-usage", "--remote-debugging-port=0"] });
	return shared;
}

/** The loopback port of the browser's DevTools (Lighthouse drives the browser through it):
 * Chromium writes it to DevToolsActivePort in its profile, the --user-data-dir of the browser
 * process this process started. */
export async function devtoolsPort() {
	await browser();
	for (const pid of readdirSync("/proc")) {
		if (!/^\d+$/.test(pid)) continue;
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
			if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== process.pid) continue; // state, ppid, …
			const dir = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").find((a) => a.startsWith("--user-data-dir="));
			if (dir) return Number(readFileSync(`${dir.slice("--user-data-dir=".length)}/DevToolsActivePort`, "utf8").split("\n")[0]);
		} catch {} // another child, or gone meanwhile
	}
	throw new Error("the browser's DevTools port was not found");
}

export async function closeBrowser() {
	if (shared) await (await shared).close();
	shared = null;
}

/** Every test of every file: {file, name, ok}. */
export const results = [];

const trace = (e, lines) => String(e && e.stack ? e.stack : e).split("\n").slice(0, lines).map((l) => `  ${l}`).join("\n");

/** axe-core's violations on a page without frames: its source is put in the document the first
 * time (a 550 KB script: parsing it for every audit cost more than most audits), then axe.run. */
export async function pageAxe(page) {
	const run = (rules) => window.axe.run(document, { rules, resultTypes: ["violations"] })
		.then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })));
	if (!(await page.evaluate(() => typeof window.axe === "object" && typeof window.axe.run === "function"))) await page.evaluate(axeCore.source);
	return page.evaluate(run, AXE_RULES);
}

/** A file's tests, pages and findings. */
export function suite(file) {
	const jsErrors = [];
	const audits = []; // "screen: rule (impact) — target — why" of every axe violation
	const words = []; // "screen: problem" of every screen's words (wordsCheck)
	const typed = []; // what people typed, shown as it came (wordsCheck's typed)
	const mine = [];
	let screens = 0; // how many times audit ran
	const spent = { audit: 0, shot: 0, shots: 0 }; // ms in axe and the words check, in screenshots
	const only = process.env.ONLY || "";

	/** Runs fn as test name (skipped unless ONLY is part of its name); needs: names of this
	 * file's tests that must have passed first. */
	async function test(name, fn, needs = []) {
		if (only && !name.includes(only)) return;
		const missing = needs.filter((n) => !mine.find((r) => r.name === n && r.ok));
		const record = (ok) => {
			const r = { file, name, ok };
			mine.push(r);
			results.push(r);
		};
		if (missing.length) {
			record(false);
			console.log(`FAIL ${name}\n  skipped: needs ${missing.join(", ")}`);
			return;
		}
		const t0 = Date.now();
		try {
			const r = await fn();
			record(true);
			console.log(`PASS ${name} (${Date.now() - t0} ms)${typeof r === "string" ? ` ${r}` : ""}`);
		} catch (e) {
			record(false);
			console.log(`FAIL ${name}\n${trace(e, 8)}`);
		}
	}

	/** A new browser context and its page: a 360-wide phone by default (options: width, height,
	 * dpr, isMobile, locale, colorScheme, timezoneId, acceptDownloads, serviceWorkers, timeout); pictures at one
	 * pixel per CSS pixel (dpr 1: layout in CSS pixels is the same at any density, and twice the
	 * pixels doubles the time of every screenshot). The network is closed:
	 * anything not served by our server, a page error or an unexpected console error is
	 * recorded as this file's script error. */
	async function phone({ width = 360, height = 740, dpr = 1, isMobile = true, locale = "en-GB", colorScheme = "light",
		timezoneId = undefined, acceptDownloads = true, serviceWorkers = "allow", timeout = 10000 } = {}) {
		const ctx = await (await browser()).newContext({ viewport: { width, height }, isMobile, hasTouch: isMobile,
			deviceScaleFactor: dpr, locale, colorScheme, timezoneId, acceptDownloads, serviceWorkers });
		await ctx.route((url) => !url.href.startsWith(BASE), (route) => {
			jsErrors.push(`external request: ${route.request().url()}`);
			return route.abort();
		});
		const page = await ctx.newPage();
		page.setDefaultTimeout(timeout);
		page.on("pageerror", (e) => jsErrors.push(`pageerror: ${e.message} at ${page.url()}\n${String(e.stack || "").split("\n").slice(1, 4).join("\n")}`));
		page.on("console", (m) => {
			if (m.type() === "error" && !EXPECTED_CONSOLE.test(m.text()))
				jsErrors.push(`console: ${m.text()} at ${page.url()} ${JSON.stringify(m.location())}`);
		});
		return page;
	}

	/** axe-core on the page as it is now (experimental rules on); violations are collected and
	 * fail this file's closing check. Returns how many rules were broken. Every rule runs on
	 * every node; only the violations are listed node by node (resultTypes). On a page without
	 * frames axe runs in the page itself, put there once per document (pageAxe); with frames,
	 * @axe-core/playwright's partial mode carries every frame's result out to be finished in a
	 * blank page. */
	async function audit(page, name) {
		screens++;
		const t0 = Date.now();
		for (const w of await wordsCheck(page, typed)) words.push(`${name}: ${w}`);
		const violations = page.frames().length === 1 ? await pageAxe(page)
			: (await new AxeBuilder({ page }).options({ rules: AXE_RULES, resultTypes: ["violations"] }).analyze()).violations;
		for (const v of violations)
			for (const n of v.nodes)
				audits.push(`${name}: ${v.id} (${v.impact}) — ${n.target.join(" ")} — ${n.failureSummary.split("\n").slice(1, 3).join(" ")}`);
		spent.audit += Date.now() - t0;
		return violations.length;
	}

	/** A screenshot; of the whole page from its top (the sticky header where it belongs). */
	async function shot(page, name, fullPage = false) {
		const t0 = Date.now();
		if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
		await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
		spent.shot += Date.now() - t0;
		spent.shots++;
	}

	/** The checks that close the file: no axe violation and no problem of words (wordsCheck) on
	 * the screens it audited (when it audited any), no script error. */
	async function finish(prefix) {
		console.log(`time e2e-${file}: ${screens} audits ${(spent.audit / 1000).toFixed(1)} s, ${spent.shots} screenshots ${(spent.shot / 1000).toFixed(1)} s`);
		if (screens > 0) {
			await test(`${prefix}-axe-every-screen`, async () => {
				assert(audits.length === 0, `${audits.length} violation(s) on ${screens} screens:\n${audits.slice(0, 30).join("\n")}`);
			});
			await test(`${prefix}-words-every-screen`, async () => {
				assert(words.length === 0, `${words.length} problem(s) of words on ${screens} screens:\n${words.slice(0, 30).join("\n")}`);
			});
		}
		await test(`${prefix}-no-script-errors`, async () => {
			assert(jsErrors.length === 0, jsErrors.join("\n"));
		});
	}

	/** Strings people typed that this file's screens show as they came (wordsCheck's typed). */
	const typedWords = (list) => typed.push(...list.filter((t) => t));
	return { test, phone, audit, shot, finish, typedWords, jsErrors, audits, words, results: mine };
}

/** The ER phone screens at 360 px: nothing wider than the screen, no two controls overlapping
 * (the sticky header and the fixed action bar aside: content scrolls under them by design), no
 * text spilling out of its control, tap targets big enough (beds: the hex is 40 × 46 at this
 * width, and the bounding boxes of neighbouring hexes overlap by design; their centres must not). */
export async function erLayoutCheck(page, name) {
	const problems = await page.evaluate(() => {
		const out = [];
		if (document.documentElement.scrollWidth > window.innerWidth) out.push(`page ${document.documentElement.scrollWidth}px wide`);
		const visible = (el) => {
			const r = el.getBoundingClientRect();
			return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden" && !el.closest("[hidden], details:not([open]) > :not(summary)");
		};
		const controls = [...document.querySelectorAll("button, a, input:not([type=radio]):not([type=checkbox]), select, [role=button], [role=radio]")].filter(visible);
		const boxes = controls.map((el) => ({ el, r: el.getBoundingClientRect(), dock: !!el.closest(".dock"), bed: el.classList.contains("bed") }));
		const desc = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${[...el.attributes].filter((a) => a.name.startsWith("data-")).map((a) => `[${a.name}=${a.value}]`).join("")} "${(el.textContent || "").trim().slice(0, 24)}"`;
		for (const b of boxes) {
			if (b.r.right > window.innerWidth + 0.5 || b.r.left < -0.5) out.push(`${desc(b.el)} outside the screen`);
			if (!b.bed && !b.el.closest(".card-grid, .mine, .links, .top") && b.el.tagName !== "A" && b.el.scrollWidth > b.el.clientWidth + 1 && getComputedStyle(b.el).overflowX !== "auto")
				out.push(`${desc(b.el)}: text wider than the control`);
			const min = b.bed ? [39, 44] : [44, 44];
			if (!b.el.closest(".top, .card-grid") && b.el.tagName !== "A" && (b.r.width < min[0] - 0.5 || b.r.height < min[1] - 0.5) && !b.el.closest("details > summary"))
				out.push(`${desc(b.el)} is ${Math.round(b.r.width)}×${Math.round(b.r.height)}`);
		}
		for (let i = 0; i < boxes.length; i++)
			for (let j = i + 1; j < boxes.length; j++) {
				const a = boxes[i], b = boxes[j];
				if (a.dock !== b.dock || a.el.closest(".top") || b.el.closest(".top") || a.el.contains(b.el) || b.el.contains(a.el)) continue;
				if (a.bed && b.bed) {
					const d = Math.hypot(a.r.x + a.r.width / 2 - b.r.x - b.r.width / 2, a.r.y + a.r.height / 2 - b.r.y - b.r.height / 2);
					if (d < a.r.width * 0.95) out.push(`${desc(a.el)} and ${desc(b.el)} overlap`);
					continue;
				}
				const ix = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
				const iy = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
				if (ix > 1 && iy > 1) out.push(`${desc(a.el)} and ${desc(b.el)} overlap`);
			}
		return out;
	});
	const size = await page.evaluate(() => `${window.innerWidth} × ${window.innerHeight}`);
	assert(problems.length === 0, `${name} at ${size}:\n${problems.slice(0, 12).join("\n")}`);
}

/** A phone screen's layout at its width, by what spec names (every part optional but controls):
 * - controls: the selector of the controls checked: none outside the screen (with `outside`),
 *   no text spilling out of one (but `noText`, or none with noText: true), at least 44 × 44
 *   (but `noSize`; `heightOnly`: only its height), no two overlapping (one inside the other
 *   aside); controls inside `skip` (a header of small links) are only checked for `outside`;
 * - width: the screen's width when fixed (the window no wider either: a phone widens its layout
 *   to fit what runs off); else the window's;
 * - cut: the elements none of which may end right of the screen (but those in `cutExempt`);
 * - scrollBoxes: boxes that scroll by themselves, whose own box must fit;
 * - sticksOut: boxes none of whose visible children may stick out at the right.
 * Nothing is visible that has no size, is hidden, or is folded in a closed <details>; nor what
 * has visibility: hidden, unless invisibleToo. */
export async function phoneLayoutCheck(page, name, spec) {
	const problems = await page.evaluate((o) => {
		const out = [];
		const W = o.width || window.innerWidth;
		const de = document.documentElement;
		if (de.scrollWidth > W || (o.width && window.innerWidth > W)) out.push(`page ${de.scrollWidth}px wide, the window ${window.innerWidth}px`);
		const visible = (el) => {
			const r = el.getBoundingClientRect();
			return r.width > 0 && r.height > 0 && (o.invisibleToo || getComputedStyle(el).visibility !== "hidden") && !el.closest("[hidden], details:not([open]) > :not(summary)");
		};
		const is = (el, sel) => !!sel && el.matches(sel);
		const inside = (el, sel) => !!sel && !!el.closest(sel);
		const desc = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${[...el.attributes].filter((a) => a.name.startsWith("data-")).map((a) => `[${a.name}=${a.value}]`).join("")} "${(el.textContent || el.value || "").trim().slice(0, 30)}"`;
		if (o.cut)
			for (const el of document.querySelectorAll(o.cut))
				if (visible(el) && el.getBoundingClientRect().right > W + 0.5 && !inside(el, o.cutExempt)) out.push(`${desc(el)} cut at the right`);
		if (o.scrollBoxes) for (const box of document.querySelectorAll(o.scrollBoxes)) if (box.getBoundingClientRect().right > W + 0.5) out.push(`${desc(box)}: a scroll box wider than the screen`);
		if (o.sticksOut)
			for (const el of document.querySelectorAll(o.sticksOut))
				for (const c of el.querySelectorAll("*"))
					if (visible(c) && c.getBoundingClientRect().right > el.getBoundingClientRect().right + 0.5) out.push(`${desc(c)} sticks out of ${desc(el)}`);
		const boxes = [...document.querySelectorAll(o.controls)].filter(visible).map((el) => ({ el, r: el.getBoundingClientRect(), skip: inside(el, o.skip) }));
		for (const b of boxes) {
			if (o.outside && (b.r.right > W + 0.5 || b.r.left < -0.5)) out.push(`${desc(b.el)} outside the screen`);
			if (b.skip) continue;
			if (o.noText !== true && !is(b.el, o.noText) && b.el.scrollWidth > b.el.clientWidth + 1) out.push(`${desc(b.el)}: text wider than the control`);
			if (!is(b.el, o.noSize) && (b.r.height < 43.5 || (b.r.width < 43.5 && !is(b.el, o.heightOnly)))) out.push(`${desc(b.el)} is ${Math.round(b.r.width)}×${Math.round(b.r.height)}`);
		}
		for (let i = 0; i < boxes.length; i++)
			for (let j = i + 1; j < boxes.length; j++) {
				const a = boxes[i], b = boxes[j];
				if (a.skip || b.skip || a.el.contains(b.el) || b.el.contains(a.el)) continue;
				const ix = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
				const iy = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
				if (ix > 1 && iy > 1) out.push(`${desc(a.el)} and ${desc(b.el)} overlap`);
			}
		return [...new Set(out)];
	}, spec);
	const size = await page.evaluate(() => `${window.innerWidth} × ${window.innerHeight}`);
	assert(problems.length === 0, `${name} at ${size}:\n${problems.slice(0, 12).join("\n")}`);
}

/** The table display (display.html) at 1280 × 720: the page does not scroll; no panel overlaps
 * another or holds more than it shows; no text is cut or spills out of its box (a name too long
 * for its place ends with an ellipsis: that is drawn, not cut); every text is at least 14 px,
 * names and totals bigger. */
export async function tvLayoutCheck(p, name) {
	const problems = await p.evaluate(() => {
		const out = [];
		const de = document.documentElement;
		if (de.scrollHeight > innerHeight || de.scrollWidth > innerWidth) out.push(`the page scrolls: ${de.scrollWidth}×${de.scrollHeight}`);
		const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
		const desc = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${[...el.classList].join(".")} "${(el.textContent || "").trim().slice(0, 30)}"`;
		const boxes = [...document.querySelectorAll(".dsp-head, .dsp-now, .dsp-seat, .dsp-panel")].filter(shown);
		for (let i = 0; i < boxes.length; i++) {
			const a = boxes[i].getBoundingClientRect();
			if (a.right > innerWidth + 0.5 || a.bottom > innerHeight + 0.5) out.push(`${desc(boxes[i])} leaves the screen`);
			if (boxes[i].scrollHeight > boxes[i].clientHeight + 1) out.push(`${desc(boxes[i])} holds more than it shows (${boxes[i].scrollHeight} > ${boxes[i].clientHeight})`);
			for (let j = i + 1; j < boxes.length; j++) {
				if (boxes[i].contains(boxes[j]) || boxes[j].contains(boxes[i])) continue;
				const b = boxes[j].getBoundingClientRect();
				if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1)
					out.push(`${desc(boxes[i])} and ${desc(boxes[j])} overlap`);
			}
		}
		for (const el of document.querySelectorAll("#dsp *")) {
			if (!shown(el) || el.closest("svg") || el.classList.contains("sr-only")) continue;
			const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
			if (!own) continue;
			const cs = getComputedStyle(el);
			const px = parseFloat(cs.fontSize);
			if (px < 14) out.push(`${desc(el)}: ${px}px type`);
			const cut = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 2;
			if (cut && cs.display !== "inline" && cs.textOverflow !== "ellipsis") out.push(`${desc(el)}: text cut (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`);
		}
		for (const el of document.querySelectorAll(".dsp-total, .dsp-rank strong, .dsp-table td.total, #dsp-h1"))
			if (shown(el) && parseFloat(getComputedStyle(el).fontSize) < 26) out.push(`${desc(el)}: ${getComputedStyle(el).fontSize}, not big enough`);
		return out;
	});
	assert(problems.length === 0, `${name}:\n  ${problems.slice(0, 12).join("\n  ")}`);
}
