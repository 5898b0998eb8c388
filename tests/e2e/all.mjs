// Runs browser test files one after another in one headless Chromium (lib.mjs) against the server
// at BASE_URL, screenshots into SHOTS. E2E_FILES=er,leagues runs those files (names of
// tests/e2e/*.mjs without .mjs; default: all, lighthouse last); ONLY=substring only the tests
// whose name has it. Each line is "PASS name (ms)" or "FAIL name" with indented details, and a
// "time e2e-FILE N s" line after each file; exits 1 on any failure. tests/e2e/run.sh runs two of these at once, each on its own server.
import { closeBrowser, results } from "./lib.mjs";

const FILES = ["er", "erscreens", "coach", "leagues", "leagues-files", "charts", "ertable", "tabletop", "tabletop-words", "display", "boxcheck", "help", "challenges", "lighthouse"];
const chosen = process.env.E2E_FILES ? process.env.E2E_FILES.split(",") : FILES;
const unknown = chosen.filter((f) => !FILES.includes(f));
if (unknown.length) {
	console.log(`FAIL e2e-files\n  unknown file(s): ${unknown.join(", ")} (files: ${FILES.join(", ")})`);
	process.exit(1);
}
for (const f of chosen) {
	const t0 = Date.now();
	await import(`./${f}.mjs`);
	console.log(`time e2e-${f} ${Math.round((Date.now() - t0) / 1000)} s`); // what run.sh's lanes are balanced by
}
await closeBrowser();
process.exit(results.some((r) => !r.ok) ? 1 : 0);
