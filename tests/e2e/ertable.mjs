// Browser tests of the ER screens at the table on a 360 × 740 phone: the lit beds and the dice of
// the turn in view together above the action bar, a move drafted offline, the solo game against
// ALICAT (its sheet, what it gained, its difficulty points, undo and a reload of the draft), the
// game's PDFs and the page their QR code opens on another phone, the LAN address offered when the
// page is on localhost, and join codes pasted with a space or a dash. Started by tests/e2e/run.sh
// after run.mjs (same server); ONLY=substring runs the tests whose name has it.
// Prints "PASS name" / "FAIL name" per test; exits 1 on any failure.
import { chromium } from "playwright-core";
import AxeBuilder from "@axe-core/playwright";
import { mkdirSync } from "node:fs";

const BASE = process.env.BASE_URL || "http://127.0.0.1:8080";
const SHOTS = process.env.SHOTS || "build/e2e";
const ONLY = process.env.ONLY || "";
mkdirSync(SHOTS, { recursive: true });

const VIEW = { width: 360, height: 740 };
const PHONE = { viewport: VIEW, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const results = [];
const jsErrors = [];
const audits = [];

function assert(cond, msg) {
	if (!cond) throw new Error(msg);
}

async function test(name, fn) {
	if (ONLY && !name.includes(ONLY)) return;
	const t0 = Date.now();
	try {
		await fn();
		results.push({ name, ok: true });
		console.log(`PASS ${name} (${Date.now() - t0} ms)`);
	} catch (e) {
		results.push({ name, ok: false });
		console.log(`FAIL ${name}\n${String(e && e.stack ? e.stack : e).split("\n").slice(0, 8).map((l) => `  ${l}`).join("\n")}`);
	}
}

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	headless: true,
	args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
});

async function phone({ locale = "en-GB", colorScheme = "light", acceptDownloads = false } = {}) {
	const ctx = await browser.newContext({ ...PHONE, locale, colorScheme, acceptDownloads });
	// the network is closed: anything not served by our server is a bug
	await ctx.route((url) => !url.href.startsWith(BASE), (route) => {
		jsErrors.push(`external request: ${route.request().url()}`);
		return route.abort();
	});
	const page = await ctx.newPage();
	page.setDefaultTimeout(10000);
	page.on("pageerror", (e) => jsErrors.push(`pageerror: ${e.message}`));
	page.on("console", (m) => {
		if (m.type() === "error" && !/status of 4\d\d|ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED/.test(m.text()))
			jsErrors.push(`console: ${m.text()} at ${page.url()}`);
	});
	return page;
}

const api = async (method, path, body, token) => {
	const r = await fetch(BASE + "/api/v1" + path, {
		method, body: body && JSON.stringify(body),
		headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
	});
	const o = await r.json().catch(() => null);
	return { status: r.status, body: o };
};

/** At 360 px: nothing wider than the screen, no two controls overlapping, no text spilling out of
 * its control, tap targets big enough (as run.mjs checks every screen). */
async function layoutCheck(page, name) {
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
	assert(problems.length === 0, `${name} at 360 × 740:\n${problems.slice(0, 12).join("\n")}`);
}

/** A screenshot (light or dark, as the phone is), axe-core (collected), the layout (asserted). */
async function screen(page, name, fullPage = false) {
	await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
	const r = await new AxeBuilder({ page }).analyze();
	for (const v of r.violations) for (const n of v.nodes) audits.push(`${name}: ${v.id} — ${n.target.join(" ")}`);
	await layoutCheck(page, name);
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

/** Finishes the draft of the move begun: the lit beds (first value offered) or the morgue. */
async function finishDraft(page) {
	for (let i = 0; i < 8; i++) {
		await page.locator('.sheet-panel[data-opts="ready"]').waitFor();
		if (await page.locator("#submit:not([disabled])").count()) return;
		const lit = page.locator(".bed.lit");
		if (await lit.count()) {
			await lit.first().click();
			if (await page.locator(".picker").count()) await page.locator(".picker button.value").first().click();
		} else if (await page.locator("#morgue").count()) await page.click("#morgue");
		await page.waitForTimeout(80);
	}
	await page.locator("#submit:not([disabled])").waitFor();
}

/** Chooses a die (not the chief's when another is free). */
async function chooseDie(page) {
	const bays = page.locator('.bay:not([aria-disabled="true"])');
	await bays.first().waitFor();
	const free = page.locator('.bay:not([aria-disabled="true"]):not(.chief-die)');
	await ((await free.count()) ? free.first() : bays.first()).click();
}

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

await test("zz-axe", async () => {
	assert(audits.length === 0, `${audits.length} violation(s):\n${audits.slice(0, 30).join("\n")}`);
});

await test("zz-no-script-errors", async () => {
	assert(jsErrors.length === 0, jsErrors.join("\n"));
});

await browser.close();
const failed = results.filter((r) => !r.ok).length;
process.exit(failed ? 1 : 0);
