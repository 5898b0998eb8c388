// DOM helpers: h() builds HTML elements, s() SVG elements; icons of the ambulance bonuses.
const SVGNS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children, svg) {
	for (const [k, v] of Object.entries(attrs || {})) {
		if (v === null || v === undefined || v === false) continue;
		if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
		else if (k === "class" && !svg) el.className = v;
		else el.setAttribute(k, v === true ? "" : v);
	}
	for (const c of children.flat(Infinity))
		if (c !== null && c !== undefined && c !== false) el.append(c.nodeType ? c : String(c));
	return el;
}

/** h("div", {class: "x", onclick}, child, "text", …) */
export function h(tag, attrs, ...children) {
	return fill(document.createElement(tag), attrs, children, false);
}

/** s("circle", {cx, cy, r}) — an SVG element. */
export function s(tag, attrs, ...children) {
	return fill(document.createElementNS(SVGNS, tag), attrs, children, true);
}

/** Text only a screen reader reads (placed after the visible text, so names start with it). */
export const sr = (text) => h("span", { class: "sr-only" }, text);

// 24×24 drawings; colours come from CSS (currentColor and the .i-* classes) so dark mode works.
const ICONS = {
	// a stethoscope (the bonus gives two: the label says so)
	stethoscopes: [
		["path", { d: "M6 3v6a5 5 0 0 0 10 0V3", fill: "none", stroke: "currentColor", "stroke-width": 2 }],
		["path", { d: "M11 14v2a4 4 0 0 0 8 0v-3", fill: "none", stroke: "currentColor", "stroke-width": 2 }],
		["circle", { cx: 19, cy: 11, r: 2.2, fill: "currentColor" }],
	],
	blood_bag: [
		["path", { d: "M7 4h10v13a5 5 0 0 1-10 0z", class: "i-blood" }],
		["path", { d: "M10 2h4v2h-4z", class: "i-blood" }],
		["path", { d: "M12 9v6M9 12h6", stroke: "#fff", "stroke-width": 2 }],
	],
	// a folding hospital screen: three panels on feet (not a number: it must not read as a die)
	screen: [
		["path", { d: "M3 5l6-2v15l-6 2zM9 3l6 2v15l-6-2zM15 5l6-2v15l-6 2z", fill: "none", stroke: "currentColor", "stroke-width": 1.8, "stroke-linejoin": "round" }],
	],
	critical: [
		["path", { d: "M12 2 23 21H1z", class: "i-crit" }],
		["path", { d: "M11 8h2v7h-2zM11 16.5h2v2h-2z", fill: "#fff" }],
	],
	nurse: [
		["circle", { cx: 12, cy: 12, r: 10, class: "i-nurse" }],
		["path", { d: "M10 6h4v4h4v4h-4v4h-4v-4H6v-4h4z", fill: "#fff" }],
	],
	extra: [
		["circle", { cx: 10, cy: 7, r: 4, fill: "currentColor" }],
		["path", { d: "M2 21a8 8 0 0 1 16 0z", fill: "currentColor" }],
		["path", { d: "M20 3v7M16.5 6.5h7", stroke: "currentColor", "stroke-width": 2.2 }],
	],
	wifi_off: [
		["path", { d: "M2 8a15 15 0 0 1 20 0M5 12a10 10 0 0 1 14 0M8.5 15.5a5 5 0 0 1 7 0", fill: "none", stroke: "currentColor", "stroke-width": 2 }],
		["path", { d: "M3 3l18 18", stroke: "currentColor", "stroke-width": 2.4 }],
	],
	wifi: [
		["path", { d: "M2 8a15 15 0 0 1 20 0M5 12a10 10 0 0 1 14 0M8.5 15.5a5 5 0 0 1 7 0", fill: "none", stroke: "currentColor", "stroke-width": 2 }],
		["circle", { cx: 12, cy: 19, r: 1.8, fill: "currentColor" }],
	],
	// the games (filled by .chip)
	er: [["path", { d: "M3 3h18v18H3zm3 3v3h3V6zm4.5 4.5v3h3v-3zM15 15v3h3v-3z" }]],
	dh: [["path", { d: "M9 3h6v6h6v6h-6v6H9v-6H3V9h6z" }]],
	clinic: [["path", { d: "M3 21V9l9-6 9 6v12zm8-12v3H8v2h3v3h2v-3h3v-2h-3V9z" }]],
	robot: [
		["rect", { x: 4, y: 7, width: 16, height: 13, rx: 3, fill: "none", stroke: "currentColor", "stroke-width": 2 }],
		["circle", { cx: 9, cy: 13, r: 1.6, fill: "currentColor" }],
		["circle", { cx: 15, cy: 13, r: 1.6, fill: "currentColor" }],
		["path", { d: "M12 3v4", stroke: "currentColor", "stroke-width": 2 }],
	],
};

/** The drawing of an icon as SVG children (for use inside a larger SVG). */
export function iconParts(kind) {
	return (ICONS[kind] || []).map(([tag, a]) => s(tag, a));
}

/** An icon as an inline <svg> (decorative: the text next to it carries the meaning). */
export function icon(kind, extraClass = "") {
	return s("svg", { viewBox: "0 0 24 24", width: 24, height: 24, class: `icon ${extraClass}`, "aria-hidden": "true", focusable: "false" }, iconParts(kind));
}
