// End-to-end tests of the league pictures (static/charts.js, drawn by static/leagues-pictures.js) in
// headless Debian chromium at 360 × 740: a league imported from the largest real BG Stats export
// stored (tests/api/data/bgstats-real/deniedpluto-2025.json: 792 plays over ten years, 152
// players, 121 games) with a season of its busiest year; the
// player page, the league's pictures and the season recap checked against the API's numbers (a
// rating line ends at the standings' rating, the heat map's cells are the head-to-head, the bars
// the months, the recap's champion the season's first), a point tapped opens its play, the
// legend shows and hides lines, and every screen in English and French, light and dark
// (screenshots, axe-core, nothing wider than the phone: the heat map scrolls in its own box).
// Run by all.mjs (lib.mjs: the runner, phones, axe).
import { readFileSync } from "node:fs";
import { BASE, ROOT, assert, fill, suite, phoneLayoutCheck } from "./lib.mjs";
import { EN, FR, origin, visit } from "./leagueskit.mjs";

const C = suite("charts");
const { test } = C;
const phone = (o = {}) => C.phone(o);
const REAL = readFileSync(new URL("tests/api/data/bgstats-real/deniedpluto-2025.json", ROOT), "utf8");
const REAL_PLAYS = JSON.parse(REAL).plays;
const NPLAYS = REAL_PLAYS.length;
const NCOUNTED = REAL_PLAYS.filter((p) => !p.ignored).length; // the pictures leave ignored plays out
// the file's players' names as their owner typed them ("Bobae ,(Llu)"): shown as they came
C.typedWords(JSON.parse(REAL).players.map((p) => p.name));

const page = await phone();
const ctx = page.context();

/** The API with p's session (cookies of its context) and this site's Origin: the body. */
async function call(p, method, path, data, headers = {}) {
	const r = await p.request.fetch(`${BASE}/api/v1${path}`, { method, data, headers: { Origin: origin, ...headers } });
	assert(r.status() < 300, `${method} ${path}: ${r.status()} ${(await r.text()).slice(0, 300)}`);
	return r.headers()["content-type"]?.includes("json") ? r.json() : r.body();
}

/** At 360 px: nothing wider than the screen but inside a box that scrolls by itself, no two
 * controls overlapping, tap targets of 44 px (links in text and tables aside; a summary as wide
 * as its text, 44 px high). */
const layoutCheck = (p, name) => phoneLayoutCheck(p, name, {
	width: 360, cut: "#app *", cutExempt: ".sr-only, .ch-scroll", scrollBoxes: "#app .ch-scroll", invisibleToo: true,
	controls: "#app button, #app a.button, #app select, #app summary", noText: true, heightOnly: "summary",
});

/** French typography in text: a no-break space before ':' ';' '?' '!'. */
function badFrench(text) {
	return [...text.matchAll(/[:;?!]/g)].filter((m) => !["\u00a0", "\u202f"].includes(text[m.index - 1])).map((m) => JSON.stringify(text.slice(Math.max(0, m.index - 24), m.index + 2)));
}

/** Every picture a figure (role="img" with a name, a sentence, the numbers in a <details>),
 * axe, the layout, no string key on screen, French typography in French, a screenshot. */
async function screen(p, name, lang = "en") {
	await p.evaluate(() => window.scrollTo(0, 0));
	await C.shot(p, name, true);
	await C.audit(p, name);
	const figs = await p.evaluate(() =>
		[...document.querySelectorAll("figure.ch")].map((f) => ({
			kind: f.dataset.chart,
			img: [...f.querySelectorAll('[role="img"]')].every((x) => (x.getAttribute("aria-label") || "").length > 5),
			sum: f.querySelector("figcaption")?.textContent.length || 0,
			table: !!f.querySelector("details > summary + * table tbody tr"),
		})),
	);
	for (const f of figs) assert(f.img && f.sum > 20 && f.table, `${name}: the ${f.kind} figure lacks its name, sentence or table: ${JSON.stringify(f)}`);
	const text = await p.locator("#app").innerText();
	const raw = text.match(/\b(?:pics|recap|league|play|history)\.[a-z][a-z_.-]*\b/);
	assert(!raw, `${name}: a string key on the screen: ${raw && raw[0]}`);
	if (lang === "fr") {
		// the league's data (games named in English, "The Crew: …", whole or cut short in a
		// picture's names) is not French text, nor the standings' "?" of a provisional rating
		// (a sign, not a question)
		const all = await p.evaluate(() => {
			const app = document.getElementById("app").cloneNode(true);
			for (const el of app.querySelectorAll(".lg-prov, .ch-name")) el.remove();
			return app.textContent;
		});
		const words = [...L.games].sort((a, b) => b.length - a.length).reduce((x, g) => x.split(g).join(""), all); // "Dice Throne Adventures: …" before "Dice Throne"
		const bad = badFrench(words);
		assert(bad.length === 0, `${name}: French without the no-break space: ${bad.slice(0, 5).join(", ")}`);
	}
	await layoutCheck(p, name);
	return figs.map((f) => f.kind);
}

// the league: an account, the real export imported, a season of its busiest year
const L = {};

await test("charts-a-real-league", async () => {
	await call(page, "POST", "/accounts", { email: "charts@example.org", password: "charts password", display_name: "Ann" });
	await call(page, "POST", "/sessions", { email: "charts@example.org", password: "charts password" });
	const lg = await call(page, "POST", "/leagues", { name: "Real club" });
	const imp = await call(page, "POST", `/leagues/${lg.id}/import?format=bgstats`, REAL, { "Content-Type": "application/json" });
	assert(imp.imported === NPLAYS && imp.skipped === 0, `imported: ${imp.imported} of ${NPLAYS}`);
	const season = await call(page, "POST", `/leagues/${lg.id}/seasons`, { name: "2020", starts: "2020-01-01", ends: "2020-12-31" });
	Object.assign(L, { id: lg.id, lid: encodeURIComponent(lg.id), season: season.id });
	L.standings = (await call(page, "GET", `/leagues/${L.lid}/standings`)).standings;
	L.games = (await call(page, "GET", `/leagues/${L.lid}`)).games;
	assert(L.standings.length >= 10, `players: ${L.standings.length}`);
});

await test("charts-player-page-matches-the-api", async () => {
	const first = L.standings[0];
	const st = await call(page, "GET", `/leagues/${L.lid}/players/${encodeURIComponent(first.player)}/stats`);
	await visit(page, `player=${L.lid}/${encodeURIComponent(first.player)}`, 'figure[data-chart="rating"]');
	// the line ends at the standings' rating
	const last = Number(await page.locator('figure[data-chart="rating"] g.ch-s').getAttribute("data-last"));
	assert(last === first.rating.ordinal, `the line ends at ${last}, the standings say ${first.rating.ordinal}`);
	const sum = await page.locator('figure[data-chart="rating"] figcaption').innerText();
	assert(sum.includes(first.name) && sum.includes(String(Math.round(first.rating.ordinal * 10) / 10)), `the sentence: ${sum}`);
	// the games' bars: plays and wins of the stats
	const rows = await page.locator('figure[data-chart="games"] g.ch-hbar').evaluateAll((gs) => gs.map((g) => [g.dataset.label.split(" · ")[0], Number(g.dataset.value), Number(g.dataset.part)]));
	for (const [game, plays, wins] of rows) {
		const g = st.games.find((x) => x.game === game);
		assert(g && g.plays === plays && g.wins === wins, `${game}: ${plays} plays, ${wins} wins; the API: ${JSON.stringify(g)}`);
	}
	assert(rows.length === Math.min(10, st.games.length), `bars: ${rows.length} of ${st.games.length} games`);
	// streaks and rivals as the API says
	const fact = (k) => page.locator(`[data-fact="${k}"] dd`).innerText();
	assert((await fact("current")).startsWith(String(st.streaks.current)), `current streak ${await fact("current")}`);
	assert((await fact("longest")).startsWith(String(st.streaks.longest)), `longest streak ${await fact("longest")}`);
	if (st.nemesis) assert((await fact("nemesis")).startsWith(st.nemesis.name), `nemesis ${await fact("nemesis")}`);
	if (st.victim) assert((await fact("victim")).startsWith(st.victim.name), `victim ${await fact("victim")}`);
	// a tap on the last point shows that play, whose link opens it
	const mark = page.locator('figure[data-chart="rating"] .ch-mark > *').last();
	const b = await mark.boundingBox();
	await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
	const open = page.locator('figure[data-chart="rating"] .ch-pick a');
	const lastPlay = st.points[st.points.length - 1].play;
	assert((await open.getAttribute("href")) === `#play=${L.lid}/${encodeURIComponent(lastPlay)}`, `the tapped play: ${await open.getAttribute("href")}`);
	await open.click();
	await page.getByRole("heading", { name: st.points[st.points.length - 1].game, exact: true }).waitFor();
});

await test("charts-league-pictures-match-the-api", async () => {
	const [stats, hh] = await Promise.all([call(page, "GET", `/leagues/${L.lid}/stats`), call(page, "GET", `/leagues/${L.lid}/head-to-head`)]);
	await visit(page, `league=${L.lid}`, '[data-testid="standings"]');
	await page.getByRole("link", { name: EN["pics.see"], exact: true }).click();
	await page.locator('figure[data-chart="lines"]').waitFor();
	// the lines: five shown, each ending at its standings rating; the legend shows another
	const lines = () => page.locator('figure[data-chart="lines"] g.ch-s').evaluateAll((gs) => gs.map((g) => [g.dataset.series, Number(g.dataset.last)]));
	const shown = await lines();
	assert(shown.length === Math.min(5, L.standings.length), `lines shown: ${shown.length}`);
	for (const [pid, y] of shown) {
		const s = L.standings.find((x) => x.player === pid);
		assert(s && s.rating.ordinal === y, `${pid}'s line ends at ${y}, the standings: ${s && s.rating.ordinal}`);
	}
	assert(JSON.stringify(shown.map(([pid]) => pid)) === JSON.stringify(L.standings.slice(0, 5).map((x) => x.player)), "the top five are shown");
	const sixth = L.standings[5];
	const key = page.locator(`.ch-key[data-series="${sixth.player}"]`);
	assert((await key.getAttribute("aria-pressed")) === "false", "the sixth is hidden");
	assert(!(await key.isVisible()), "its key folded away");
	await page.locator(".ch-keys > summary").click();
	await key.click();
	assert((await key.getAttribute("aria-pressed")) === "true", "the tap shows it");
	const six = (await lines()).find(([pid]) => pid === sixth.player);
	assert(six && six[1] === sixth.rating.ordinal, `the sixth line ends at its rating: ${six}`);
	await key.click();
	assert((await lines()).length === 5, "a second tap hides it");
	// the heat map: the first twelve of the standings who have a rival (of many more here),
	// every pair of them as head-to-head counts it
	const rivals = new Set(hh.head_to_head.map((x) => x.player));
	const top = L.standings.map((x) => x.player).filter((p) => rivals.has(p)).slice(0, 12);
	assert(rivals.size > 12, `players with a rival: ${rivals.size}`);
	const cells = await page.locator("g.ch-cell").evaluateAll((gs) => gs.map((g) => ({ a: g.dataset.a, b: g.dataset.b, above: Number(g.dataset.above), games: Number(g.dataset.games) })));
	const want = hh.head_to_head.filter((x) => top.includes(x.player) && top.includes(x.opponent));
	assert(cells.length === want.length && want.length > 12, `${cells.length} cells, ${want.length} pairs among the first twelve`);
	for (const x of want) {
		const c = cells.find((y) => y.a === x.player && y.b === x.opponent);
		assert(c && c.above === x.wins && c.games === x.games, `${x.name} vs ${x.opponent_name}: ${JSON.stringify(c)}, head-to-head ${x.wins}/${x.games}`);
	}
	const heatSum = await page.locator('figure[data-chart="heat"] figcaption').innerText();
	assert(heatSum.includes(fill(EN["pics.heat_top"], { n: 12, total: rivals.size })), `the heat map says whom it shows: ${heatSum}`);
	const box = await page.locator(".ch-heatbox").evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, page: document.documentElement.scrollWidth }));
	assert(box.scroll > box.client && box.page <= 360, `the heat map scrolls in its box, not the page: ${JSON.stringify(box)}`);
	// the bars: the months
	const bars = await page.locator('figure[data-chart="months"] rect.ch-bar').evaluateAll((rs) => rs.map((r) => ({ month: r.dataset.label, plays: Number(r.dataset.value) })));
	assert(JSON.stringify(bars) === JSON.stringify(stats.months), `bars ${JSON.stringify(bars)}, months ${JSON.stringify(stats.months)}`);
	const total = bars.reduce((n, x) => n + x.plays, 0);
	assert(total === NCOUNTED, `plays in the bars: ${total}, of them not ignored: ${NCOUNTED}`);
	// a box per game with scores, the lowest-wins ones marked
	const spread = await page.locator("g.ch-box").evaluateAll((gs) => gs.map((g) => [g.dataset.game, g.classList.contains("ch-low")]));
	assert(spread.length === Math.min(8, stats.scores.length), `boxes: ${spread.length}`);
	for (const [game, low] of spread) assert(stats.scores.find((x) => x.game === game)?.lowest_wins === low, `${game}: lowest wins ${low}`);
});

await test("charts-season-recap", async () => {
	const season = await call(page, "GET", `/leagues/${L.lid}/standings?season=${encodeURIComponent(L.season)}`);
	await visit(page, `league=${L.lid}`, '[data-testid="seasons"]');
	await page.locator('[data-testid="seasons"] a.lg-recap').first().click();
	await page.locator('[data-testid="recap-facts"]').waitFor();
	const champion = await page.locator('[data-fact="champion"] dd a').innerText();
	assert(champion === season.standings[0].name, `champion ${champion}, the season's first ${season.standings[0].name}`);
	for (const k of ["climb", "most_played", "closest", "streak"]) assert(await page.locator(`[data-fact="${k}"]`).isVisible(), `the recap says ${k}`);
});

await test("charts-recap-pdf-link", async () => {
	await visit(page, `recap=${L.lid}/${encodeURIComponent(L.season)}`, "#lg-recap-pdf");
	const pdf = await page.locator("#lg-recap-pdf").getAttribute("href");
	assert(pdf === `/api/v1/leagues/${L.lid}/seasons/${encodeURIComponent(L.season)}/recap.pdf?lang=en`, `the PDF link: ${pdf}`);
	const body = await call(page, "GET", pdf.replace("/api/v1", ""));
	assert(Buffer.from(body).subarray(0, 5).toString() === "%PDF-", "the link gives a PDF");
});

await test("charts-every-screen-en-light-fr-dark", async () => {
	const cookies = await ctx.cookies();
	const player = L.standings[0].player;
	const screens = [
		["player", `player=${L.lid}/${encodeURIComponent(player)}`, 'figure[data-chart="rating"]', ["rating", "games"]],
		["pictures", `pictures=${L.lid}`, 'figure[data-chart="months"]', ["lines", "scores", "heat", "months"]],
		["recap", `recap=${L.lid}/${encodeURIComponent(L.season)}`, '[data-testid="recap-facts"]', ["lines", "months", "scores"]],
		["league", `league=${L.lid}`, '[data-testid="seasons"]', []],
	];
	// English in light, French in dark: each language and each theme once (a theme does not
	// depend on the language): two passes over every screen instead of four
	for (const [lang, dict, scheme] of [["en", EN, "light"], ["fr", FR, "dark"]]) {
		const p = await phone({ colorScheme: scheme, locale: lang === "fr" ? "fr-FR" : "en-GB" });
		await p.context().addCookies(cookies);
		await p.addInitScript((l) => localStorage.setItem("dh.lang", l), lang);
		for (const [name, hash, ready, kinds] of screens) {
			await visit(p, hash, ready);
			assert((await p.evaluate(() => document.documentElement.dataset.theme)) === scheme, `${name}: the ${scheme} theme`);
			// French typography on the pictures' screens (the league page's own words are leagues.mjs's)
			const got = await screen(p, `charts-${name}-${lang}-${scheme}`, name === "league" ? "" : lang);
			assert(JSON.stringify(got) === JSON.stringify(kinds), `${name}: figures ${got}, expected ${kinds}`);
			if (name === "pictures") {
				// the sentence in the language, its numbers written the language's way (a decimal comma in French)
				const lead = L.standings[0];
				const rating = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, useGrouping: false }).format(lead.rating.ordinal);
				const lined = (await call(p, "GET", `/leagues/${L.lid}/stats`)).players.filter((x) => x.points.length).length; // players with a rated play
				assert(lined > 100, `players with a line: ${lined}`);
				const want = fill(dict["pics.lines_sum"], { name: lead.name, rating, top: 5, n: lined });
				const sum = await p.locator('figure[data-chart="lines"] figcaption').innerText();
				assert(sum.startsWith(want), `the lines' sentence: ${sum}; expected ${want}`);
			}
		}
		await p.context().close();
	}
});

await test("charts-module-weight", async () => {
	// one small module for every picture, no library
	const n = readFileSync(new URL("static/charts.js", ROOT)).length;
	assert(n <= 15 * 1024, `static/charts.js: ${n} bytes`);
	return `(charts.js ${n} bytes)`;
});

await ctx.close();
await C.finish("charts");
