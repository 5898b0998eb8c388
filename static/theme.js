// Dark mode: follows the system unless this phone chose light or dark (remembered).
import { t, onLangChange } from "./i18n.js";

const STORE = "dh.theme";
const MODES = ["auto", "light", "dark"];

export function initTheme(button) {
	let mode = MODES.includes(localStorage.getItem(STORE)) ? localStorage.getItem(STORE) : "auto";
	const dark = window.matchMedia("(prefers-color-scheme: dark)");
	const meta = document.querySelector('meta[name="theme-color"]');
	function apply() {
		const isDark = mode === "dark" || (mode === "auto" && dark.matches);
		document.documentElement.dataset.theme = isDark ? "dark" : "light";
		meta.setAttribute("content", isDark ? "#10213d" : "#0d47a1");
		// visible text first in the accessible name: "Dark — theme"
		button.replaceChildren(t(`theme.${mode}`), Object.assign(document.createElement("span"), { className: "sr-only", textContent: ` — ${t("theme.label")}` }));
		button.setAttribute("data-mode", mode);
	}
	button.addEventListener("click", () => {
		mode = MODES[(MODES.indexOf(mode) + 1) % MODES.length];
		if (mode === "auto") localStorage.removeItem(STORE);
		else localStorage.setItem(STORE, mode);
		apply();
	});
	dark.addEventListener("change", apply);
	onLangChange(apply);
	apply();
}
