// "Show on a big screen" on the host's phone (ER and the Dice Hospital and Clinic tables): a
// dialog with the QR code and the link of the table's display (display.html), a read-only screen
// for a tablet or TV in the middle of the table. The server stores only the display token's hash,
// so this phone keeps the link it got (localStorage) and shows it again; "New link" asks for
// another, and the screen that held the old one says it was replaced. Loaded on the first tap,
// with its strings (i18n/display.*.json) and its style (bigscreen.css).
import { request, readStored } from "./api.js";
import { h } from "./dom.js";
import { t, addStrings, lang } from "./i18n.js";
import { errorBox, errorOf } from "./view.js";

const STORE = "dh.display.links";

function remember(id, url) {
	const all = readStored(STORE);
	all[id] = url;
	localStorage.setItem(STORE, JSON.stringify(all));
}

let showing = false; // the dialog's strings and style are on their way

/** The dialog's style, once: resolves when it has loaded (or failed to). */
function styled() {
	if (document.querySelector('link[href="bigscreen.css"]')) return null;
	const link = h("link", { rel: "stylesheet", href: "bigscreen.css" });
	const done = new Promise((resolve) => {
		link.onload = resolve;
		link.onerror = resolve;
	});
	document.head.append(link);
	return done;
}

/** A new display link for game id of kind (the host's token), absolute on this server. */
async function newLink(kind, id, token) {
	const r = await request("POST", `/${kind}/games/${encodeURIComponent(id)}/display`, undefined, token);
	const url = new URL(r.url, location.href).href;
	remember(id, url);
	return url;
}

/** Opens the dialog for game id of kind (token: the host's); the button that opened it (found
 * again by its id: a live update may have drawn it anew) gets the focus back when it closes. */
export async function showBigScreen(kind, id, token) {
	if (document.getElementById("bigscreen") || showing) return null; // a second tap meanwhile
	showing = true;
	const opener = document.activeElement && document.activeElement.id;
	try {
		await Promise.all([addStrings("display"), styled()]);
	} finally {
		showing = false;
	}
	const body = h("div", { class: "bs-body" }, h("p", { role: "status" }, t("dsp.busy")));
	const close = h("button", { type: "button", class: "primary", id: "bs-close", onclick: () => dialog.close() }, t("dsp.close"));
	const dialog = h("dialog", { class: "bigscreen", id: "bigscreen", "aria-labelledby": "bs-h" },
		h("h2", { id: "bs-h" }, t("dsp.show")), h("p", {}, t("dsp.help")),
		h("p", {}, h("a", { id: "bs-help", href: `help/${lang()}/display.html`, target: "_blank", rel: "noopener" }, t("dsp.help_link"))), body, close);
	dialog.addEventListener("close", () => {
		dialog.remove();
		const o = opener && document.getElementById(opener);
		if (o) o.focus();
	});
	document.body.append(dialog);
	dialog.showModal();

	function show(url) {
		const fresh = h("button", { type: "button", class: "secondary", id: "bs-new", onclick: () => load(true) }, t("dsp.new"));
		body.replaceChildren(
			h("img", { class: "bs-qr", id: "bs-qr", src: `/api/v1/qr.svg?data=${encodeURIComponent(url)}`, alt: t("dsp.qr_alt"), width: 240, height: 240 }),
			h("label", { class: "field" }, h("span", {}, t("dsp.link")), h("input", { type: "text", id: "bs-link", readonly: true, value: url, onfocus: (e) => e.target.select() })),
			h("div", { class: "actions-inline" }, h("a", { class: "button secondary", id: "bs-open", href: url, target: "_blank", rel: "noopener" }, t("dsp.open")), fresh));
	}
	async function load(replace) {
		const saved = readStored(STORE)[id];
		if (saved && !replace) return show(saved);
		body.replaceChildren(h("p", { role: "status" }, t("dsp.busy")));
		try {
			show(await newLink(kind, id, token));
		} catch (e) {
			const err = errorOf(e);
			body.replaceChildren(errorBox(err, { id: "bs-error", "data-rule": err.rule || "" }));
		}
	}
	await load(false);
	return dialog;
}
