// End-to-end tests of the league screens (static/leagues.html) in headless Debian chromium, at
// 360 × 740: sign up, create a league, add members, add plays by hand, the standings as cards
// that fit the screen, a player's history with its rating chart, a play's summary, editing and
// deleting a play, members renamed, merged (and the merge undone), removed, invitations accepted,
// guests claimed ("this is me") and approved, names that differ only in case, seasons,
// co-owners, head-to-head, a play keeping its local date and offset, long lists a page at a time,
// log-out, the page installable and offline, the play form's new player and a play kept offline,
// every screen in English and French, light and dark (screenshots, axe-core with no violation,
// nothing cut or overlapping), and no script error or external request. Plays that come from
// files: leagues-files.mjs.
// Run by all.mjs (lib.mjs: the runner, phones, axe; leagueskit.mjs: what the league tests share).
import { BASE, SHOTS, assert, bgstatsPlay, suite } from "./lib.mjs";
import { EN, FR, bgstatsFile, call, leaguesKit, newLeague, visit } from "./leagueskit.mjs";

const L = suite("leagues");
const { test, audits } = L;
const { phone, screen } = leaguesKit(L);

const ctx = (await phone()).context();
const page = ctx.pages()[0];

await test("leagues-signup-to-standings", async () => {
	await page.goto(`${BASE}/index.html`);
	await page.locator('a[href="leagues.html"]').click();
	await page.getByRole("button", { name: "Create an account" }).click();
	await page.getByLabel("E-mail").fill("e2e@example.org");
	await page.getByLabel("Your name in the league").fill("Ann");
	await page.getByLabel("Password (8 characters or more)").fill("e2e password");
	await page.locator("form button[type=submit]").click();
	await page.getByRole("heading", { name: "My leagues" }).waitFor();
	await page.getByLabel("League name").fill("Tuesday club");
	await page.getByRole("button", { name: "Create the league" }).click();
	await page.getByRole("heading", { name: "Tuesday club" }).waitFor();
	await page.getByRole("link", { name: /^Members \(1\)/ }).click();
	for (const name of ["Bea", "Cid"]) {
		await page.getByLabel("Name", { exact: true }).fill(name);
		await page.getByRole("button", { name: "Add", exact: true }).click();
		await page.locator(`[data-testid="member"][data-name="${name}"]`).waitFor();
	}
	await page.getByRole("link", { name: "Back" }).click();
	// two plays by hand: scores decide the ranks
	const plays = [
		{ Ann: 50, Bea: 40, Cid: 30 },
		{ Ann: 20, Bea: 45 },
	];
	for (const [k, scores] of plays.entries()) {
		await page.getByRole("link", { name: "Add a play" }).click();
		await page.getByLabel("Game", { exact: true }).fill("Azul");
		await page.getByLabel("Date").fill(`2026-03-0${k + 1}`);
		for (const [who, score] of Object.entries(scores)) {
			await page.getByLabel(who, { exact: true }).check();
			await page.getByLabel(`Score ${who}`, { exact: true }).fill(String(score));
		}
		await page.getByRole("button", { name: "Save the play" }).click();
		await page.getByRole("heading", { name: "Azul" }).waitFor();
		await page.getByRole("link", { name: "Back" }).click();
		await page.getByRole("heading", { name: "Standings" }).waitFor();
	}
	const cards = page.locator('[data-testid="standing"]');
	assert((await cards.count()) === 3, "three players in the standings");
	const first = await cards.first().innerText();
	assert(/Ann|Bea/.test(first), `a winner leads: ${first}`);
	assert((await page.locator('[data-testid="standings"] .lg-prov').count()) === 3, "every rating is provisional after two plays");
	// sort by name, then by games played
	await page.getByLabel("Sort by").selectOption("name");
	const names = await page.locator('[data-testid="standing"] .lg-name').allInnerTexts();
	assert(JSON.stringify(names) === JSON.stringify(["Ann", "Bea", "Cid"]), `sorted by name: ${names}`);
	await page.getByLabel("Sort by").selectOption("games");
	assert((await page.locator('[data-testid="standing"] .lg-name').last().innerText()) === "Cid", "Cid played least");
	await page.screenshot({ path: `${SHOTS}/leagues-standings.png`, fullPage: true });
	// a player's history with the rating chart
	await page.locator('[data-testid="standings"] a', { hasText: "Bea" }).click();
	await page.getByRole("heading", { name: "History of Bea" }).waitFor();
	await page.locator("svg.lg-chart polyline").waitFor();
	assert((await page.locator("table.lg-table tbody tr").count()) === 2, "two plays in Bea's history");
	await page.screenshot({ path: `${SHOTS}/leagues-history.png`, fullPage: true });
	// a play's summary
	await page.locator("table.lg-table tbody tr a").first().click();
	await page.getByRole("heading", { name: "Azul" }).waitFor();
	assert((await page.locator("table.lg-table tbody tr").count()) === 2, "the last play had two players");
});

await test("leagues-standings-fit-360", async () => {
	// long names and large numbers: every card, and all it says, stays on a 360 px screen
	const long = "Maximilienne-Charlotte de la Tour-Landry";
	const { lid } = await newLeague(page, "Wide club", [long, "Cid"], [["Azul", "2026-03-05", { [long]: 123456.5, Cid: -98765.25, Ann: 1000 }]]);
	await visit(page, `league=${lid}`, '[data-testid="standings"]');
	const cut = await page.evaluate(() => {
		const out = [];
		for (const el of document.querySelectorAll('[data-testid="standings"], [data-testid="standings"] *')) {
			const b = el.getBoundingClientRect();
			if (b.width && (b.right > window.innerWidth + 0.5 || b.left < -0.5)) out.push(`${el.tagName} "${el.textContent.trim().slice(0, 20)}" ${Math.round(b.left)}–${Math.round(b.right)}`);
		}
		return { out, wide: document.documentElement.scrollWidth };
	});
	assert(cut.out.length === 0 && cut.wide <= 360, `the standings run off a 360 px screen (${cut.wide} px):\n${cut.out.slice(0, 8).join("\n")}`);
	const card = page.locator('[data-testid="standing"]', { hasText: "Maximilienne" });
	for (const label of ["Games", "Wins", "Win rate", "Average score", "Best score", "Average rank"]) assert(await card.getByText(label, { exact: true }).isVisible(), `${label} is shown`);
	assert(await card.getByText("123456.5").first().isVisible(), "the best score is shown whole");
	await screen(page, "leagues-standings-360");
});
await test("leagues-edit-and-delete-a-play", async () => {
	const { lid } = await newLeague(page, "Edit club", ["Bea"], [["Azul", "2026-03-01", { Ann: 50, Bea: 40 }], ["Azul", "2026-03-02", { Ann: 20, Bea: 45 }]]);
	await visit(page, `league=${lid}`, '[data-testid="recent-plays"]');
	await page.locator('[data-testid="recent-plays"] a', { hasText: "2026-03-02" }).click();
	await page.getByRole("heading", { name: "Azul" }).waitFor();
	await page.getByRole("link", { name: EN["play.edit"] }).click();
	await page.getByRole("heading", { name: "Edit: Azul" }).waitFor();
	assert((await page.getByLabel("Score Bea").inputValue()) === "45", "the form holds the play");
	assert((await page.getByLabel("Date").inputValue()) === "2026-03-02", "and its date");
	await screen(page, "leagues-edit");
	await page.getByLabel("Score Ann").fill("60");
	await page.getByRole("button", { name: "Save the play" }).click();
	await page.getByText(EN["play.saved"]).waitFor();
	const rows = await page.locator("table.lg-table tbody tr").allInnerTexts();
	assert(/Ann ★\s+60\s+1/.test(rows[0]), `Ann now wins with 60: ${rows}`);
	// delete: asked first, then gone
	await page.getByRole("button", { name: EN["play.delete"] }).click();
	await screen(page, "leagues-delete-confirm");
	await page.getByRole("button", { name: EN["play.delete_yes"], exact: true }).click();
	await page.getByRole("heading", { name: "Edit club" }).waitFor();
	assert(await page.getByText("The play of Azul on 2026-03-02 is deleted.").isVisible(), "it says so");
	assert((await page.locator('[data-testid="recent-plays"] a', { hasText: "2026-03-02" }).count()) === 0, "the play is gone");
});

await test("leagues-member-names-ignore-case", async () => {
	const { lid } = await newLeague(page, "Names club", ["Bea"]);
	await visit(page, `members=${lid}`, '[data-testid="member"]');
	const before = await page.locator('[data-testid="member"]').count();
	await page.getByLabel("Name", { exact: true }).fill(" bea ");
	await page.getByRole("button", { name: "Add", exact: true }).click();
	await page.getByText(EN["rule.member-exists"]).waitFor();
	assert((await page.locator('[data-testid="member"]').count()) === before, "no second Bea");
});

await test("leagues-members-rename-merge-remove", async () => {
	const { lid } = await newLeague(page, "Members club", ["Bea", "Cid", "Bea T.", "Zed"], [["Azul", "2026-03-01", { Ann: 3, Cid: 2 }], ["Azul", "2026-03-02", { Ann: 3, "Bea T.": 4 }], ["Azul", "2026-03-03", { Ann: 3, Bea: 4 }]]);
	const member = (n) => page.locator(`[data-testid="member"][data-name="${n}"]`);
	await visit(page, `members=${lid}`, '[data-testid="member"][data-name="Zed"]');
	// rename
	await member("Cid").getByText("Manage").click();
	await member("Cid").getByLabel("New name").fill("Cidney");
	await member("Cid").getByRole("button", { name: "Rename" }).click();
	await page.getByText("Cid is now called Cidney.").waitFor();
	await member("Cidney").waitFor();
	// a merge refused: they played together (in words), then one that goes through
	await member("Cidney").getByText("Manage").click();
	await member("Cidney").getByLabel("Merge into").selectOption({ label: "Ann" });
	await member("Cidney").getByRole("button", { name: "Merge" }).click();
	await screen(page, "leagues-members-manage");
	await member("Cidney").getByRole("button", { name: EN["members.merge_yes"] }).last().click();
	await member("Cidney").getByText(EN["rule.same-play"]).waitFor();
	await visit(page, `members=${lid}`, '[data-testid="member"]');
	await member("Bea T.").getByText("Manage").click();
	await member("Bea T.").getByLabel("Merge into").selectOption({ label: "Bea" });
	await member("Bea T.").getByRole("button", { name: "Merge" }).click();
	await member("Bea T.").getByRole("button", { name: EN["members.merge_yes"] }).last().click();
	await page.getByText("Bea T. is merged into Bea.").waitFor();
	assert((await member("Bea T.").count()) === 0, "merged away");
	assert((await member("Bea").innerText()).includes("2 plays"), "Bea has both plays");
	// remove a member without plays; one with plays cannot be
	await member("Zed").getByText("Manage").click();
	await member("Zed").getByRole("button", { name: "Remove" }).click();
	await member("Zed").getByRole("button", { name: "Remove" }).last().click();
	await page.getByText("Zed is removed.").waitFor();
	await member("Bea").getByText("Manage").click();
	assert(await member("Bea").getByText(EN["members.cannot_remove"]).isVisible(), "Bea has plays");
});

/** Draws p's screen in French (waiting for ready, a French text) and pictures it, then back in
 * English (waiting for back, an English text). */
async function inFrench(p, name, ready, back) {
	await p.selectOption("#lang", "fr");
	await p.getByText(ready).first().waitFor();
	await screen(p, `${name}-fr`);
	await p.selectOption("#lang", "en");
	await p.getByText(back).first().waitFor();
}

await test("leagues-invite-accept-claim-approve-undo", async () => {
	// Dan played as a guest; he signs up. The owner invites his account, he accepts on his
	// phone; he claims the guest, the owner approves on hers; then she undoes the merge.
	const { lid } = await newLeague(page, "Claim club", ["Dan", "Eve"], [["Azul", "2026-03-06", { Ann: 1, Dan: 9 }]]);
	const p2 = await phone();
	await call(p2, "POST", "/accounts", { email: "dan@example.org", password: "dan password", display_name: "Daniel" });
	await call(p2, "POST", "/sessions", { email: "dan@example.org", password: "dan password" });
	// the owner, on the members screen: an invitation, no member yet
	await visit(page, `members=${lid}`, '[data-testid="member"][data-name="Dan"]');
	await page.getByLabel("Name", { exact: true }).fill("Daniel");
	await page.getByLabel(EN["league.member_account"]).fill("dan@example.org");
	await page.getByRole("button", { name: "Add", exact: true }).click();
	await page.getByText("dan@example.org is invited as Daniel: they join once they accept.").waitFor();
	assert((await page.locator('[data-testid="member"][data-name="Daniel"]').count()) === 0, "no member before he accepts");
	await page.locator('[data-testid="sent-invitation"]', { hasText: "dan@example.org" }).waitFor();
	// Dan, on his phone: the invitation on "My leagues"
	await visit(p2, "", '[data-testid="invitation"]');
	const inv = p2.locator('[data-testid="invitation"][data-league="Claim club"]');
	assert((await inv.innerText()).includes("Join Claim club as Daniel"), await inv.innerText());
	await screen(p2, "leagues-invitation");
	await inFrench(p2, "leagues-invitation", "Rejoindre Claim club sous le nom Daniel", "Join Claim club as Daniel");
	await inv.getByRole("button", { name: EN["inv.accept"] }).click();
	await p2.getByText("You are in Claim club now.").waitFor();
	assert((await p2.locator('[data-testid="invitation"]').count()) === 0, "answered");
	// … he claims the guest: asked, nothing moves yet
	await p2.getByRole("link", { name: /Claim club/ }).click();
	await p2.getByText(EN["members.claim_hint"]).waitFor();
	await p2.getByRole("link", { name: /^All members/ }).click();
	const guest = p2.locator('[data-testid="member"][data-name="Dan"]');
	await guest.getByRole("button", { name: EN["members.this_is_me"] }).click();
	await screen(p2, "leagues-claim");
	await guest.getByRole("button", { name: EN["members.claim_yes"] }).click();
	await p2.getByText("Asked: the plays of Dan become yours once an owner approves.").waitFor();
	assert((await guest.innerText()).includes("1 play"), "the guest keeps the play until an owner approves");
	await p2.locator('[data-testid="pending"] [data-testid="claim"]', { hasText: "Dan" }).waitFor();
	// the owner sees the claim and approves it
	await visit(page, `members=${lid}`, '[data-testid="claim"]');
	const claim = page.locator('[data-testid="claim"]', { hasText: "Daniel says Dan is them (1 play)" });
	await claim.waitFor();
	await screen(page, "leagues-claim-pending");
	await inFrench(page, "leagues-claim-pending", "Daniel dit être Dan (1 partie)", "Daniel says Dan is them");
	await claim.getByRole("button", { name: EN["pending.approve"] }).click();
	await claim.getByRole("button", { name: EN["pending.approve_yes"] }).last().click();
	await page.getByText("Dan is Daniel's now.").waitFor();
	assert((await page.locator('[data-testid="member"][data-name="Dan"]').count()) === 0, "the guest entry is gone");
	const merge = page.locator('[data-testid="merge"]', { hasText: "Dan → Daniel (1 play)" });
	await merge.waitFor();
	// Dan's history has the play
	await visit(p2, `members=${lid}`, '[data-testid="member"][data-name="Daniel"]');
	await p2.locator('[data-testid="member"][data-name="Daniel"] a').click();
	await p2.getByRole("heading", { name: "History of Daniel" }).waitFor();
	assert((await p2.locator("table.lg-table tbody tr").count()) === 1, "Dan's play is Daniel's");
	// the owner undoes the merge: Dan is back with his play
	await merge.getByRole("button", { name: EN["merges.undo"] }).click();
	await screen(page, "leagues-merge-undo");
	await merge.getByRole("button", { name: EN["merges.undo_yes"] }).last().click();
	await page.getByText("Dan is back, with their plays.").waitFor();
	assert((await page.locator('[data-testid="member"][data-name="Dan"]').innerText()).includes("1 play"), "Dan has his play again");
	assert((await page.locator('[data-testid="merge"]').count()) === 0, "nothing left to undo");
	// a guest the owner offers to an account: an invitation too
	await call(page, "POST", "/accounts", { email: "eve@example.org", password: "eve password", display_name: "Eve" });
	await visit(page, `members=${lid}`, '[data-testid="member"][data-name="Eve"]');
	const eve = page.locator('[data-testid="member"][data-name="Eve"]');
	await eve.getByText("Manage").click();
	await eve.getByLabel(EN["members.link_email"]).fill("eve@example.org");
	await eve.getByRole("button", { name: EN["members.link"] }).click();
	await page.getByText("eve@example.org is invited: Eve becomes theirs once they accept.").waitFor();
	await p2.context().close();
});
await test("leagues-seasons-owners-head-to-head", async () => {
	const { lid } = await newLeague(page, "Season club", ["Bea", "Cid"], [["Azul", "2026-03-01", { Ann: 5, Bea: 3 }], ["Azul", "2026-03-02", { Ann: 1, Bea: 3, Cid: 2 }], ["Azul", "2026-04-02", { Ann: 9, Bea: 3 }]]);
	await visit(page, `league=${lid}`, '[data-testid="standings"]');
	// a season
	await page.getByText(EN["seasons.add"]).click();
	await page.getByLabel(EN["seasons.name"]).fill("Spring 2026");
	await page.getByLabel(EN["seasons.starts"]).fill("2026-03-01");
	await page.getByLabel(EN["seasons.ends"]).fill("2026-03-31");
	await page.getByRole("button", { name: EN["seasons.save"] }).click();
	await page.getByText("Season Spring 2026 added.").waitFor();
	await page.locator('[data-testid="seasons"] a', { hasText: "Spring 2026" }).click();
	await page.locator('[data-testid="seasons"] a[aria-current="true"]').waitFor();
	assert((await page.locator("#lg-season option:checked").textContent()) === "Spring 2026", "the standings show the season");
	// a co-owner
	await call(page, "POST", "/accounts", { email: "fay@example.org", password: "fay password", display_name: "Fay" });
	await page.getByText(EN["owners.add"]).click();
	await page.getByLabel(EN["owners.email"]).fill("fay@example.org");
	await page.getByRole("button", { name: EN["owners.save"] }).click();
	await page.getByText("fay@example.org is invited: they become a co-owner once they accept.").waitFor();
	assert((await page.locator('[data-testid="owners"]').getByText("Fay").count()) === 0, "not before she accepts");
	const here = await page.evaluate(() => location.hash.slice(1));
	const fay = await phone();
	await call(fay, "POST", "/sessions", { email: "fay@example.org", password: "fay password" });
	const { body: invs } = await call(fay, "GET", "/invitations");
	assert((await call(fay, "POST", `/invitations/${invs.invitations[0].id}/accept`, {})).status === 200, "Fay accepts");
	await fay.context().close();
	await visit(page, here, '[data-testid="owners"]');
	assert(await page.locator('[data-testid="owners"]').getByText("Fay").isVisible(), "Fay among the owners");
	await page.getByText(EN["owners.add"]).click();
	await page.getByLabel(EN["owners.email"]).fill("nobody@example.org");
	await page.getByRole("button", { name: EN["owners.save"] }).click();
	await page.getByText(EN["rule.unknown-account"]).waitFor();
	// head-to-head of the season: Ann against Bea, 1 won and 1 lost in March
	await page.getByRole("link", { name: EN["league.h2h"] }).click();
	await page.getByRole("heading", { name: EN["h2h.title"] }).waitFor();
	await page.getByLabel("Player").selectOption({ label: "Ann" });
	const bea = page.locator('[data-testid="h2h"] li', { hasText: "Bea" });
	await bea.waitFor();
	assert((await bea.innerText()).includes("2 plays together: won 1, lost 1, tied 0."), await bea.innerText());
	assert(await page.getByText("Spring 2026").isVisible(), "the season is said");
	await screen(page, "leagues-h2h");
});
await test("leagues-every-screen-en-light-fr-dark", async () => {
	// every screen in English and French, light and dark: screenshots, axe, layout, no key
	const { lid, id, ids } = await newLeague(page, "Screens club", ["Bea", "Cid", "Dot"], [
		["Azul", "2026-03-01", { Ann: 50, Bea: 40, Cid: 30 }],
		["Dice Hospital: ER – Emergency Roll", "2026-03-02", { Ann: 20, Bea: 45, Dot: 12 }],
		["Clinic", "2026-03-03", { Cid: 61, Dot: 60 }],
	]);
	await call(page, "POST", `/leagues/${id}/seasons`, { name: "Spring 2026", starts: "2026-03-01", ends: "2026-05-31" });
	const { lid: imp } = await newLeague(page, "Screens import club");
	const { body: pl } = await call(page, "GET", `/leagues/${id}/plays?limit=1`);
	const play = `${lid}/${encodeURIComponent(pl.plays[0].id)}`;
	const screens = [
		["home", "home", "a.button"],
		["league", `league=${lid}`, '[data-testid="standings"]'],
		["members", `members=${lid}`, ".lg-manage", async (p) => p.locator(".lg-manage summary").first().click()],
		["h2h", `h2h=${lid}`, '[data-testid="h2h"] li'],
		["history", `player=${encodeURIComponent(ids.Bea)}`, "svg.lg-chart"],
		["play", `play=${play}`, "table.lg-table"],
		["edit", `edit=${play}`, ".lg-who"],
		["import", `league=${imp}`, '[data-testid="dropzone"]', async (p) => {
			await p.setInputFiles("#lg-file", { name: "plays.json", mimeType: "application/json", buffer: Buffer.from(bgstatsFile(40, ["Ann", "Bea"], "Azul", 230802, "50000000")) });
			await p.locator('[data-testid="import-result"] details summary').first().click();
		}],
	];
	// English in light, French in dark: each language and each theme once (a theme does not
	// depend on the language): two passes over every screen instead of four
	for (const [lang, dict, scheme] of [["en", EN, "light"], ["fr", FR, "dark"]]) {
		const p = await phone({ colorScheme: scheme, locale: lang === "fr" ? "fr-FR" : "en-GB" });
		await p.context().addCookies(await ctx.cookies());
		await p.addInitScript((l) => localStorage.setItem("dh.lang", l), lang);
		await p.goto(`${BASE}/leagues.html#`);
		for (const [name, hash, ready, then] of screens) {
			await visit(p, hash, ready);
			if (then) await then(p);
			assert((await p.evaluate(() => document.documentElement.dataset.theme)) === scheme, `${name}: the ${scheme} theme`);
			assert((await p.evaluate(() => document.documentElement.lang)) === lang, `${name}: in ${lang}`);
			await screen(p, `leagues-${name}-${lang}-${scheme}`);
		}
		assert(await p.getByText(dict["import.imported"]).isVisible(), `the import's result in ${lang}`);
		await p.context().close();
	}
	assert(audits.length === 0, `${audits.length} axe violation(s):\n${audits.slice(0, 20).join("\n")}`);
});

await test("leagues-language-that-does-not-load-keeps-the-page", async () => {
	// the French strings do not arrive (a phone losing its network, a page being left): the
	// page stays whole in the language it had, the choice goes back to it, no script error.
	// (No service worker here: it would serve the strings from its cache.)
	const p = await phone({ serviceWorkers: "block" });
	await p.context().addCookies(await ctx.cookies());
	await p.addInitScript(() => localStorage.setItem("dh.lang", "en"));
	await p.goto(`${BASE}/leagues.html#`);
	await p.getByRole("heading", { name: EN["leagues.mine"] }).waitFor();
	await p.route("**/i18n/leagues.fr.json", (r) => r.abort("internetdisconnected"));
	const errors = L.jsErrors.length;
	await p.selectOption("#lang", "fr");
	await p.waitForFunction(() => document.getElementById("lang").value === "en");
	assert(await p.getByRole("heading", { name: EN["leagues.mine"] }).isVisible(), "the page in English still");
	assert((await p.evaluate(() => document.documentElement.lang)) === "en", "lang stays en");
	assert(L.jsErrors.length === errors, `script errors: ${L.jsErrors.slice(errors).join("; ")}`);
	await p.context().close();
});

await test("leagues-french", async () => {
	await page.selectOption("#lang", "fr");
	await page.goto(`${BASE}/leagues.html#`);
	await page.getByRole("heading", { name: FR["leagues.mine"] }).waitFor();
	await page.locator("a.button", { hasText: "Tuesday club" }).click();
	await page.getByRole("heading", { name: FR["league.standings"] }).waitFor();
	await page.getByRole("link", { name: FR["league.add_play"] }).waitFor();
	// numbers the French way: a decimal comma, never a point
	const nums = await page.locator('[data-testid="standings"] .lg-rating-value, [data-testid="standings"] dd').allInnerTexts();
	assert(nums.length > 0 && nums.every((v) => !/\d\.\d/.test(v)) && nums.some((v) => /\d,\d/.test(v)), `French numbers: ${nums}`);
	await page.screenshot({ path: `${SHOTS}/leagues-fr.png`, fullPage: true });
});

// api.md Conventions: a play keeps the local time and offset it was recorded with. At 23:30
// on 31 December in New York (04:30 UTC on 1 January) a play added with today's date is a
// play of 31 December, with the phone's offset.
await test("leagues-play-keeps-local-date-and-offset", async () => {
	const p2 = await phone({ timezoneId: "America/New_York" });
	const ny = p2.context();
	await ny.addCookies(await ctx.cookies());
	await p2.clock.setFixedTime(new Date("2027-01-01T04:30:00Z"));
	await p2.goto(`${BASE}/leagues.html#`);
	await p2.evaluate(() => localStorage.setItem("dh.lang", "en"));
	await p2.reload();
	await p2.locator("a.button", { hasText: "Tuesday club" }).click();
	await p2.getByRole("link", { name: "Add a play" }).click();
	await p2.getByLabel("Game", { exact: true }).fill("Hanabi");
	assert((await p2.getByLabel("Date").inputValue()) === "2026-12-31", "today is the phone's local date");
	for (const [who, score] of Object.entries({ Ann: 20, Bea: 18 })) {
		await p2.getByLabel(who, { exact: true }).check();
		await p2.getByLabel(`Score ${who}`, { exact: true }).fill(String(score));
	}
	await p2.getByRole("button", { name: "Save the play" }).click();
	await p2.getByRole("heading", { name: "Hanabi" }).waitFor();
	assert(await p2.getByText("2026-12-31").first().isVisible(), "the play page shows 31 December");
	const dates = await p2.evaluate(async () => {
		const ls = await (await fetch("/api/v1/leagues", { credentials: "same-origin" })).json();
		const lid = ls.leagues.find((l) => l.name === "Tuesday club").id;
		const pl = await (await fetch(`/api/v1/leagues/${lid}/plays?limit=500`, { credentials: "same-origin" })).json();
		return pl.plays.filter((x) => x.game === "Hanabi").map((x) => x.date);
	});
	const uuid = await p2.evaluate(async () => {
		const ls = await (await fetch("/api/v1/leagues", { credentials: "same-origin" })).json();
		const lid = ls.leagues.find((l) => l.name === "Tuesday club").id;
		const pl = await (await fetch(`/api/v1/leagues/${lid}/plays?limit=500`, { credentials: "same-origin" })).json();
		const id = pl.plays.find((x) => x.game === "Hanabi").id;
		return (await (await fetch(`/api/v1/leagues/${lid}/plays/${id}`, { credentials: "same-origin" })).json()).uuid;
	});
	assert(dates.length === 1 && /^2026-12-31T23:30:00-05:00$/.test(dates[0]), `stored with its offset: ${dates}`);
	// "Log in BG Stats" on the play's page: the play's values, its date in the phone's time
	const bs = await bgstatsPlay(p2);
	assert(bs.sourcePlayId === uuid && bs.sourceName === "Dice Hospital companion", JSON.stringify(bs));
	const want = { playDate: "2026-12-31 23:30:00", game: { name: "Hanabi", sourceGameId: "name:hanabi", highestWins: true, noPoints: false },
		players: [{ name: "Ann", sourcePlayerId: "name:ann", winner: true, score: 20, rank: 1 }, { name: "Bea", sourcePlayerId: "name:bea", winner: false, score: 18, rank: 2 }] };
	const got = { playDate: bs.playDate, game: bs.game, players: bs.players, rest: Object.keys(bs).filter((k) => !["sourceName", "sourcePlayId", "playDate", "game", "players"].includes(k)) };
	assert(JSON.stringify(got) === JSON.stringify({ ...want, rest: [] }), `BG Stats play: ${JSON.stringify(bs)}`);
	await ny.close();
});
await test("leagues-long-lists", async () => {
	// 61 more plays through the API, past a page of 50: Bea's history shows the latest 50 and
	// the rest at "More plays", and the league's recent plays grow with "More plays" until all
	// are listed
	await page.selectOption("#lang", "en");
	await page.goto(`${BASE}/leagues.html#`);
	await page.getByRole("heading", { name: "My leagues" }).waitFor();
	const { body: nl } = await call(page, "POST", "/leagues", { name: "Long club" });
	const lid = nl.id;
	const add = async (name) => (await call(page, "POST", `/leagues/${lid}/members`, { name })).body.id;
	const bea = await add("Bea");
	const cid = await add("Cid");
	for (let i = 0; i < 63; i++) {
		const date = `2026-04-${String(1 + (i % 28)).padStart(2, "0")}`;
		const r = await call(page, "POST", `/leagues/${lid}/plays`, { game: "Azul", date, results: [{ player: bea, score: i }, { player: cid, score: 30 }] });
		assert(r.status === 201, `play ${i}: ${r.status}`);
	}
	await visit(page, `player=${encodeURIComponent(bea)}`, "table.lg-table");
	await page.getByRole("heading", { name: "History of Bea" }).waitFor();
	await page.locator("svg.lg-chart polyline").waitFor();
	const rows = () => page.locator("table.lg-table tbody tr").count();
	assert((await rows()) === 50, `the latest 50 plays of Bea's history: ${await rows()}`);
	const latest = await page.locator("table.lg-table tbody tr").first().locator("td").first().innerText();
	assert(latest === "2026-04-28", `the latest first: ${latest}`);
	await page.getByRole("button", { name: "More plays" }).click();
	assert((await rows()) === 63, `every play in Bea's history: ${await rows()}`);
	assert(!(await page.getByRole("button", { name: "More plays" }).isVisible()), "no more to show");
	await visit(page, `league=${encodeURIComponent(lid)}`, '[data-testid="recent-plays"]');
	const recent = page.locator('[data-testid="recent-plays"] li');
	await recent.first().waitFor();
	assert((await recent.count()) === 10, "ten recent plays at first");
	const more = page.getByRole("button", { name: "More plays" });
	for (const n of [60, 63]) {
		await more.click();
		await page.waitForFunction((k) => document.querySelectorAll('[data-testid="recent-plays"] li').length === k, n);
	}
	await more.waitFor({ state: "hidden" });
});

await test("leagues-logout-refused-says-so", async () => {
	// the server cannot end the session (503): the screen says so and does not pretend to be
	// logged out; a reload is still logged in
	await page.selectOption("#lang", "en");
	await page.goto(`${BASE}/leagues.html#`);
	await page.route("**/api/v1/sessions/current", (r) => r.request().method() === "DELETE"
		? r.fulfill({ status: 503, contentType: "application/problem+json", headers: { "Retry-After": "1" }, body: JSON.stringify({ type: "about:blank", title: "Service Unavailable", status: 503, detail: "the database is unavailable" }) })
		: r.continue());
	try {
		await page.getByRole("button", { name: "Log out" }).click();
		await page.locator('[role="alert"], .error').first().waitFor();
		assert((await page.getByRole("heading", { name: "Log in" }).count()) === 0, "the log-in form shown though the session was not ended");
	} finally {
		await page.unroute("**/api/v1/sessions/current");
	}
	await page.reload();
	await page.getByRole("button", { name: "Log out" }).waitFor();
});

await test("leagues-logout", async () => {
	await page.selectOption("#lang", "en");
	await page.goto(`${BASE}/leagues.html#`);
	await page.getByRole("button", { name: "Log out" }).click();
	await page.getByRole("heading", { name: "Log in" }).waitFor();
	await page.reload();
	await page.getByRole("heading", { name: "Log in" }).waitFor();
});

await test("leagues-installable-and-offline", async () => {
	// the league page links the manifest and registers the service worker, whose install keeps
	// the page and its files: it opens with the network cut (127.0.0.1 is a secure context)
	const p = await phone();
	const c = p.context();
	await p.goto(`${BASE}/leagues.html`);
	await p.getByRole("heading", { name: "Log in" }).waitFor();
	const manifest = await p.locator('link[rel="manifest"]').getAttribute("href");
	assert(manifest === "manifest.webmanifest", `manifest link: ${manifest}`);
	assert(await p.evaluate(async (href) => (await fetch(href)).ok, manifest), "the manifest is served");
	const ready = await p.evaluate(() => Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), 6000))]));
	assert(ready, "leagues.html registers the service worker");
	// straight after the install: what the worker keeps by itself, not what it met on the way
	const files = ["leagues.html", "leagues.js", "leagues-ui.js", "leagues-files.js", "leagues-members.js", "leagues-pictures.js", "leagues-play.js", "leagues-i18n.js", "leagues.css", "i18n/leagues.en.json", "i18n/leagues.fr.json", "app.css", "api.js", "dom.js"];
	const kept = await p.evaluate((fs) => Promise.all(fs.map((f) => caches.match(new URL(f, location.href).href).then((r) => !!r))), files);
	const missing = files.filter((f, i) => !kept[i]);
	assert(missing.length === 0, `not in the service worker's cache: ${missing}`);
	await c.setOffline(true);
	await p.reload();
	await p.locator("header .lg-nav", { hasText: "Leagues" }).waitFor();
	await p.locator("#app a.button").waitFor(); // the network's absence said, with a way back
	await p.screenshot({ path: `${SHOTS}/leagues-offline.png` });
	await c.setOffline(false);
	await c.close();
});

await test("leagues-play-form-new-player-and-a-play-kept-offline", async () => {
	for (const [locale, colorScheme, v, S] of [["en-GB", "light", "en", EN], ["fr-FR", "dark", "fr-dark", FR]]) {
		const P = await phone({ locale, colorScheme });
		const email = `cabin-${v}@example.org`;
		await call(P, "POST", "/accounts", { email, password: "e2e password", display_name: "Ann" });
		await call(P, "POST", "/sessions", { email, password: "e2e password" });
		const { lid } = await newLeague(P, `Cabin ${v}`);
		await visit(P, `add=${lid}`, "#lg-new-player");
		// the theme button of the other pages is here too
		await P.locator("header #theme").waitFor();
		// a new league has only its owner: Bob is added from the form itself, ticked as playing
		await P.fill("#lg-new-player", "Bob");
		await P.click("#lg-add-player");
		await P.locator('[data-member="Bob"]').waitFor();
		assert(await P.getByLabel("Bob", { exact: true }).isChecked(), `${v}: Bob ticked`);
		const members = (await call(P, "GET", `/leagues/${lid}`)).body.members.map((m) => m.name);
		assert(members.includes("Bob"), `${v}: Bob a member: ${members}`);
		// the star column says what it is, once
		const head = await P.locator(".lg-who-head").innerText();
		assert(head.includes(`★ ${S["play.winner"]}`) && head.includes(S["play.score"]), `${v}: the columns: ${head}`);
		await P.getByLabel("Ann", { exact: true }).check();
		await P.getByLabel(`${S["play.score"]} Ann`, { exact: true }).fill("31");
		await P.getByLabel(`${S["play.score"]} Bob`, { exact: true }).fill("27");
		await P.getByLabel(S["play.game"], { exact: true }).fill("Azul");
		await screen(P, `leagues-play-form-new-player-${v}`);
		// the network goes as the play is saved, after the server stored it: the reply is lost
		let stored = 0;
		await P.route("**/api/v1/leagues/*/plays", async (r) => {
			if (r.request().method() !== "POST") return r.continue();
			if (!stored++) await r.fetch();
			return r.abort("internetdisconnected");
		});
		await P.getByRole("button", { name: S["play.save"] }).click();
		await P.locator('[data-testid="pending"]').waitFor();
		assert((await P.locator('[data-testid="flash"]').innerText()) === S["play.pending_kept"], `${v}: said kept`);
		// kept across a reload while the network is still gone
		await P.reload();
		await P.locator('[data-testid="pending"]').waitFor();
		await screen(P, `leagues-play-kept-offline-${v}`);
		// the network back: sent again with its Idempotency-Key, stored once
		await P.unroute("**/api/v1/leagues/*/plays");
		const sent = P.locator('[data-testid="flash"]', { hasText: S["play.pending_sent.one"] });
		// a try made while the route still cut it may be under way: tap again until it goes
		for (let i = 0; i < 5 && !(await sent.count()); i++) {
			if (await P.locator("#lg-send-pending").count()) await P.click("#lg-send-pending");
			await sent.waitFor({ timeout: 3000 }).catch(() => {});
		}
		await sent.waitFor();
		assert((await P.locator('[data-testid="pending"]').count()) === 0, `${v}: nothing waits`);
		assert(await P.evaluate(() => localStorage.getItem("dh.leagues.pending") === null), `${v}: the phone's copy is gone`);
		const plays = (await call(P, "GET", `/leagues/${lid}/plays`)).body;
		assert(plays.total === 1, `${v}: one play stored: ${JSON.stringify(plays).slice(0, 300)}`);
		const play = (await call(P, "GET", `/leagues/${lid}/plays/${encodeURIComponent(plays.plays[0].id)}`)).body;
		assert(play.results.length === 2 && play.results.find((r) => r.name === "Bob").score === 27, `${v}: the play as typed: ${JSON.stringify(play.results)}`);
		assert(stored >= 2, `${v}: the play was sent ${stored} times`);
		await P.context().close();
	}
});

await L.finish("leagues");
