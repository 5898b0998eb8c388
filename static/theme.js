// Dark mode: follows the system unless this phone chose light or dark (remembered, for every
// page: another tab's choice applies at once). tr: the page's translations (the leagues page has
// its own); returns apply(), to call when the page's language changes.
import { t, onLangChange } from "./i18n.js";

const STORE = "dh.theme";
const MODES = ["auto", "light", "dark"];

export function initTheme(button, tr = t) {
	const mode = () => (MODES.includes(localStorage.getItem(STORE)) ? localStorage.getItem(STORE) : "auto");
	const dark = matchMedia("(prefers-color-scheme: dark)");
	function apply() {
		const m = mode();
		const isDark = m === "dark" || (m === "auto" && dark.matches);
		document.documentElement.dataset.theme = isDark ? "dark" : "light";
		document.querySelector('meta[name="theme-color"]').setAttribute("content", isDark ? "#10213d" : "#0d47a1");
		// visible text first in the accessible name: "Dark — theme"
		button.replaceChildren(tr(`theme.${m}`), Object.assign(document.createElement("span"), { className: "sr-only", textContent: ` — ${tr("theme.label")}` }));
		button.setAttribute("data-mode", m);
	}
	button.addEventListener("click", () => {
		const m = MODES[(MODES.indexOf(mode()) + 1) % MODES.length];
		if (m === "auto") localStorage.removeItem(STORE);
		else localStorage.setItem(STORE, m);
		apply();
	});
	dark.addEventListener("change", apply);
	addEventListener("storage", (e) => e.key === STORE && apply());
	onLangChange(apply);
	apply();
	return apply;
}
