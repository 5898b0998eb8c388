// "Game ready" for every game (home.js for ER, tabletop/create.js): the code and its QR code,
// a link per seat (Copy, QR code) and the host's, and the localhost warning.
import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const share = { list: null, loading: false, origin: "" };
const base = () => `${share.origin || location.origin}${location.pathname}`;
export const linkOf = (route) => `${base()}${route}`;
const isLocal = () => /^(localhost|127\.[\d.]+|\[::1\])$/.test(location.hostname);
const qr = (url, alt) => h("img", { class: "qr", src: `/api/v1/qr.svg?data=${encodeURIComponent(url)}`, alt, width: 160, height: 160, loading: "lazy" });

function copyButton(input) {
	return h("button", {
		type: "button", class: "copy", onclick: async (e) => {
			const btn = e.currentTarget;
			try {
				await navigator.clipboard.writeText(input.value);
			} catch {
				input.select();
				if (document.execCommand) document.execCommand("copy");
			}
			btn.textContent = t("created.copied");
		},
	}, t("created.copy"));
}

function linkRow(label, url, testid, withQr) {
	const id = `link-${testid}`;
	const input = h("input", { type: "text", readonly: true, value: url, id, "data-link": testid, onfocus: (e) => e.target.select() });
	return h("li", { class: "link-row" }, h("label", { class: "link-label", for: id }, label), h("div", { class: "link-line" }, input, copyButton(input)),
		withQr ? h("details", { class: "qr-box" }, h("summary", {}, t("created.qr")), qr(url, t("created.qr_alt", { what: label }))) : null);
}

function sharePanel(redraw) {
	if (!isLocal()) return null;
	if (!share.list) {
		share.list = [];
		share.loading = true;
		api.request("GET", "/addresses").then((r) => {
			share.list = [...(r.public_url ? [r.public_url.replace(/\/$/, "")] : []), ...r.lan.map((u) => u.replace(/\/$/, ""))];
		}).catch(() => {}).finally(() => {
			share.loading = false;
			redraw();
		});
	}
	const choice = (origin, key) => h("label", { class: "check" },
		h("input", { type: "radio", name: "share-origin", value: origin, checked: (share.origin || location.origin) === origin, onchange: () => { share.origin = origin; redraw(); } }),
		h("span", {}, t(key, { host: origin.replace(/^https?:\/\//, "") })));
	return h("div", { class: "share-warn", id: "share-warn", "aria-busy": share.loading ? "true" : null },
		h("p", {}, t("share.local_warn", { host: location.host })),
		share.list.length
			? h("fieldset", {}, h("legend", {}, t("share.address")), choice(location.origin, "share.this_machine"), share.list.map((o) => choice(o, "share.lan")))
			: h("p", {}, t("share.no_lan")));
}

/** The panel's children. g: {code, codeId, codeText, seats: [{seat, label, route}], host (route),
 * open: {id, href, label}}; redraw() after an address is chosen or arrives. */
export function gameReady(g, redraw) {
	return [
		h("h1", {}, t("created.title")),
		sharePanel(redraw),
		h("h2", { class: "big-code", id: g.codeId, "data-code": g.code }, g.codeText),
		h("div", { class: "join-qr" }, qr(linkOf(`#join=${encodeURIComponent(g.code)}`), t("created.qr_alt", { what: t("created.join_link") })), h("p", { class: "muted" }, t("created.join_qr"))),
		h("p", {}, t("created.links")),
		h("ul", { class: "links" },
			g.seats.map((s) => linkRow(s.label, linkOf(s.route), `seat-${s.seat}`, true)),
			linkRow(t("created.host"), linkOf(g.host), "host", false)),
		h("a", { class: "button primary wide", id: g.open.id, href: g.open.href }, g.open.label)];
}
