// Charts of the league screens in plain SVG (no library): lines with a band, a legend that shows
// and hides lines, score spreads per game, a head-to-head heat map, bars. Each chart is a
// <figure>: the picture (role="img", its aria-label), a sentence saying what it shows, and the
// numbers as a table in a <details>. Words and number formats come from the caller (fmt: a
// number the language's way); colours from CSS variables (leagues.css), so dark mode reads.
import { h, s } from "./dom.js";

const W = 320; // the viewBox's width: a 360 px phone's panel, one unit a pixel
const DASH = ["", "7 4", "2 3", "9 3 2 3", "4 2"];
const MARK = ["circle", "square", "triangle", "diamond", "cross"];

const r1 = (v) => Math.round(v * 10) / 10;
// a name cut to n characters ("…" last): the whole of it is in the figure's table
const cut = (t, n) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);
const NAME = 42; // characters of 11 px DejaVu Sans in a row's 312 units

/** The figure around a picture: the sentence, the table of numbers (head: column titles, rows:
 * cells, text or nodes) under a <details> titled more. */
export function figure({ kind, summary, head, rows, more }, ...body) {
	const cell = (tag) => (c, i) => h(i ? "td" : tag, {}, c);
	return h(
		"figure",
		{ class: "ch", "data-chart": kind },
		...body,
		h("figcaption", { class: "ch-sum" }, summary),
		h("details", { class: "ch-more" }, h("summary", {}, more), h("div", { class: "ch-scroll" }, h("table", { class: "ch-table" }, h("thead", {}, h("tr", {}, head.map((c) => h("th", {}, c)))), h("tbody", {}, rows.map((r) => h("tr", {}, r.map(cell("th")))))))),
	);
}

/** The picture's <svg>: role="img" named by label, as tall as the drawing. */
function svg(label, height, ...children) {
	return s("svg", { class: "ch-svg", viewBox: `0 0 ${W} ${height}`, role: "img", "aria-label": label, preserveAspectRatio: "xMinYMin meet" }, ...children);
}

/** About n round steps from below lo to above hi: [values]. */
export function ticks(lo, hi, n = 4) {
	const span = hi - lo || 1;
	const raw = span / n, mag = 10 ** Math.floor(Math.log10(raw));
	const step = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((k) => k >= raw);
	const out = [];
	for (let k = Math.floor(lo / step); k <= Math.ceil(hi / step); k++) out.push(k * step || 0);
	return out;
}

/** A marker shape centred on x, y. */
function marker(kind, x, y, r = 3.5) {
	const pts = (l) => l.map(([a, b]) => `${r1(x + a * r)},${r1(y + b * r)}`).join(" ");
	if (kind === "square") return s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r });
	if (kind === "triangle") return s("polygon", { points: pts([[0, -1.2], [1.1, 0.8], [-1.1, 0.8]]) });
	if (kind === "diamond") return s("polygon", { points: pts([[0, -1.3], [1.2, 0], [0, 1.3], [-1.2, 0]]) });
	if (kind === "cross") return s("path", { d: `M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`, class: "ch-x" });
	return s("circle", { cx: x, cy: y, r });
}

/** Lines over x: series [{id, name, points: [{x, y, lo, hi, faint, href, text}], shown}]; with
 * one series its band (lo…hi) is drawn and its faint part dashed; with several, a legend of
 * toggle buttons (each line its colour, dash and marker) and the faint parts paler. A tap on
 * the picture picks the nearest point: its text, and a link to href. xfmt, yfmt: axis labels;
 * more(n): the title of the legend's folded part (the lines not shown at first).
 * Returns the picture, legend and pick line in one <div>. */
export function lines({ label, series, xfmt, yfmt, legendLabel, more, open, cls = "" }) {
	const H = 190, L = 34, R = 10, T = 10, B = 22;
	const one = series.length === 1;
	const shown = new Set(series.filter((x) => x.shown !== false).map((x) => x.id));
	const pick = h("p", { class: "ch-pick", "aria-live": "polite" });
	const pic = svg(label, H);
	if (cls) pic.classList.add(cls);
	let scale = null;
	const draw = () => {
		const vis = series.filter((x) => shown.has(x.id));
		const all = vis.flatMap((x) => x.points);
		const ys = all.flatMap((p) => (one ? [p.y, p.lo ?? p.y, p.hi ?? p.y] : [p.y]));
		const xs = all.map((p) => p.x);
		let lo = Math.min(...ys, 0), hi = Math.max(...ys, 1);
		const xl = Math.min(...xs), xh = Math.max(...xs);
		const yt = ticks(lo, hi);
		lo = Math.min(lo, yt[0]);
		hi = Math.max(hi, yt[yt.length - 1]);
		const X = (v) => L + ((W - L - R) * (v - xl)) / (xh - xl || 1);
		const Y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo || 1);
		scale = { X, Y, vis };
		const grid = yt.map((v) => s("g", {}, s("line", { class: v === 0 ? "ch-zero" : "ch-grid", x1: L, x2: W - R, y1: r1(Y(v)), y2: r1(Y(v)) }), s("text", { class: "ch-tick", x: L - 4, y: r1(Y(v)) + 3, "text-anchor": "end" }, yfmt(v))));
		const axis = all.length ? [s("text", { class: "ch-tick", x: L, y: H - 6 }, xfmt(xl)), s("text", { class: "ch-tick", x: W - R, y: H - 6, "text-anchor": "end" }, xfmt(xh))] : [];
		const path = (pts) => pts.map((p) => `${r1(X(p.x))},${r1(Y(p.y))}`).join(" ");
		const drawn = vis.map((x) => {
			const k = series.indexOf(x);
			let n = 0; // the faint part: the first points (a rating is provisional until enough plays)
			while (n < x.points.length && x.points[n].faint) n++;
			const faint = x.points.slice(0, n);
			const firm = x.points.slice(Math.max(0, n - 1)); // joined to the faint part's last point
			const parts = [];
			if (one && x.points.some((p) => p.lo !== undefined)) {
				const up = x.points.map((p) => `${r1(X(p.x))},${r1(Y(p.hi))}`);
				const down = [...x.points].reverse().map((p) => `${r1(X(p.x))},${r1(Y(p.lo))}`);
				parts.push(s("polygon", { class: "ch-band", points: [...up, ...down].join(" ") }));
			}
			// one <polyline> a line: the firm part's, else the faint part's (a <path> beside a firm part)
			const hasFirm = firm.length > 1 || !faint.length;
			const dash = DASH[k % DASH.length] || null;
			if (faint.length) parts.push(hasFirm ? s("path", { class: "ch-line ch-faint", d: `M${path(faint)}`, "stroke-dasharray": one ? "5 4" : dash }) : s("polyline", { class: "ch-line ch-faint", points: path(faint), "stroke-dasharray": one ? "5 4" : dash }));
			if (hasFirm) parts.push(s("polyline", { class: "ch-line", points: path(firm), "stroke-dasharray": one ? null : dash }));
			// markers: a few along the line, and its last point
			const step = Math.max(1, Math.ceil(x.points.length / 6));
			const marks = x.points.filter((p, i) => (!one && i % step === 0) || i === x.points.length - 1);
			parts.push(s("g", { class: "ch-mark" }, marks.map((p) => marker(MARK[k % MARK.length], X(p.x), Y(p.y)))));
			return s("g", { class: `ch-s ch-c${k % 8}`, "data-series": x.id, "data-last": x.points.length ? x.points[x.points.length - 1].y : null }, parts);
		});
		pic.replaceChildren(s("title", {}, label), ...grid, ...axis, ...drawn, s("circle", { class: "ch-picked", r: 6, cx: -20, cy: -20 }));
	};
	const choose = (ev) => {
		if (!scale) return;
		const m = pic.getScreenCTM();
		if (!m) return;
		const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
		let best = null;
		for (const x of scale.vis)
			for (const p of x.points) {
				const d = Math.hypot(scale.X(p.x) - pt.x, (scale.Y(p.y) - pt.y) * 0.5);
				if (!best || d < best.d) best = { d, p, x };
			}
		if (!best) return;
		const c = pic.querySelector(".ch-picked");
		c.setAttribute("cx", r1(scale.X(best.p.x)));
		c.setAttribute("cy", r1(scale.Y(best.p.y)));
		pick.replaceChildren(h("span", {}, best.p.text), best.p.href ? h("a", { class: "button", href: best.p.href }, open) : null);
	};
	pic.addEventListener("click", choose);
	draw();
	const key = (x, k) => {
		const b = h(
			"button",
			{ type: "button", class: "ch-key", "aria-pressed": String(shown.has(x.id)), "data-series": x.id },
			s("svg", { class: `ch-c${k % 8}`, viewBox: "0 0 28 10", width: 28, height: 10, "aria-hidden": "true" }, s("path", { class: "ch-line", d: "M1,5H27", "stroke-dasharray": DASH[k % DASH.length] || null }), s("g", { class: "ch-mark" }, marker(MARK[k % MARK.length], 14, 5))),
			x.name,
		);
		b.addEventListener("click", () => {
			if (shown.has(x.id)) shown.delete(x.id);
			else shown.add(x.id);
			b.setAttribute("aria-pressed", String(shown.has(x.id)));
			pick.replaceChildren();
			draw();
		});
		return b;
	};
	// the lines shown at first in the legend, the others folded under more (a name and a count)
	const keys = series.map(key);
	const rest = keys.filter((b, k) => !shown.has(series[k].id));
	const legend = one
		? null
		: h(
				"div",
				{ class: "ch-legend", role: "group", "aria-label": legendLabel },
				keys.filter((b) => !rest.includes(b)),
				rest.length ? h("details", { class: "ch-more ch-keys" }, h("summary", {}, more(rest.length)), h("div", { class: "ch-legend" }, rest)) : null,
			);
	return h("div", { class: "ch-lines" }, pic, legend, pick);
}

/** Score spreads, one row per game on its own scale: rows [{label, note, min, q1, median, q3,
 * max, values, low}] (low: a lowest-wins game, its box marked). A box from q1 to q3, the median,
 * whiskers to min and max, every value a dot. */
export function boxes({ label, rows, fmt }) {
	const RH = 50, L = 8, R = 8;
	const pic = svg(
		label,
		rows.length * RH + 4,
		s("title", {}, label),
		rows.map((g, i) => {
			const y0 = i * RH + 14;
			const span = g.max - g.min || 1;
			const X = (v) => r1(L + ((W - L - R) * (v - g.min)) / span);
			const cy = y0 + 16;
			return s(
				"g",
				{ class: g.low ? "ch-box ch-low" : "ch-box", "data-game": g.label },
				s("text", { class: "ch-name", x: L, y: y0 }, g.note ? `${cut(g.label, NAME - 3 - g.note.length)} · ${g.note}` : cut(g.label, NAME)),
				s("line", { class: "ch-whisker", x1: X(g.min), x2: X(g.max), y1: cy, y2: cy }),
				s("rect", { class: "ch-iqr", x: X(g.q1), y: cy - 8, width: Math.max(1, X(g.q3) - X(g.q1)), height: 16, rx: 2 }),
				s("line", { class: "ch-median", x1: X(g.median), x2: X(g.median), y1: cy - 10, y2: cy + 10 }),
				s("g", { class: "ch-dots" }, (g.values || []).map((v, k) => s("circle", { cx: X(v), cy: cy + ((k % 5) - 2) * 2, r: 1.6 }))),
				s("text", { class: "ch-tick", x: L, y: cy + 20 }, fmt(g.min)),
				s("text", { class: "ch-tick", x: W - R, y: cy + 20, "text-anchor": "end" }, fmt(g.max)),
			);
		}),
	);
	return pic;
}

/** A heat map: rows and columns the players ([{id, name}]), a cell the share of their plays
 * together where the row's player finished above the column's (cell(a, b) → {above, games,
 * share} or null), its count written in it. Wide maps scroll inside their own box. */
export function heat({ label, players, cell, scrollLabel }) {
	const C = 40, NL = 92, TH = 74;
	const w = NL + C * players.length + 4, ht = TH + C * players.length + 4;
	const cells = [];
	players.forEach((a, i) =>
		players.forEach((b, j) => {
			const c = i === j ? null : cell(a.id, b.id);
			const x = NL + j * C, y = TH + i * C;
			if (!c) return cells.push(s("rect", { class: "ch-none", x: x + 1, y: y + 1, width: C - 2, height: C - 2 }));
			const box = s("rect", { x: x + 1, y: y + 1, width: C - 2, height: C - 2, rx: 3 });
			box.style.fill = `color-mix(in srgb, var(--ch-hi) ${Math.round(c.share * 100)}%, var(--ch-lo))`; // CSSOM: the CSP refuses style attributes
			cells.push(
				s(
					"g",
					{ class: "ch-cell", "data-a": a.id, "data-b": b.id, "data-above": c.above, "data-games": c.games },
					box,
					s("text", { x: x + C / 2, y: y + C / 2 + 4, "text-anchor": "middle" }, `${c.above}/${c.games}`),
				),
			);
		}),
	);
	const pic = s(
		"svg",
		{ class: "ch-heat", viewBox: `0 0 ${w} ${ht}`, width: w, height: ht, role: "img", "aria-label": label },
		s("title", {}, label),
		players.map((p, i) => s("text", { class: "ch-name", x: NL - 4, y: TH + i * C + C / 2 + 4, "text-anchor": "end" }, cut(p.name, 12))),
		players.map((p, j) => s("text", { class: "ch-name", transform: `translate(${NL + j * C + C / 2 + 4},${TH - 4}) rotate(-60)` }, cut(p.name, 12))),
		cells,
	);
	return h("div", { class: "ch-scroll ch-heatbox", tabindex: "0", role: "region", "aria-label": scrollLabel }, pic);
}

/** Upright bars: items [{label, value, text}] (text: the label shown, else label), shown under
 * the first, the last and every k-th. */
export function bars({ label, items, fmt }) {
	const H = 150, L = 30, R = 6, T = 8, B = 22;
	const hi = Math.max(1, ...items.map((x) => x.value));
	const yt = ticks(0, hi, 3);
	const top = Math.max(hi, yt[yt.length - 1]);
	const bw = (W - L - R) / Math.max(1, items.length);
	const Y = (v) => T + ((H - T - B) * (top - v)) / top;
	const every = Math.max(1, Math.ceil(items.length / 4));
	return svg(
		label,
		H,
		s("title", {}, label),
		yt.map((v) => s("g", {}, s("line", { class: v ? "ch-grid" : "ch-zero", x1: L, x2: W - R, y1: r1(Y(v)), y2: r1(Y(v)) }), s("text", { class: "ch-tick", x: L - 4, y: r1(Y(v)) + 3, "text-anchor": "end" }, fmt(v)))),
		items.map((x, i) => s("rect", { class: "ch-bar", "data-label": x.label, "data-value": x.value, x: r1(L + i * bw + bw * 0.12), y: r1(Y(x.value)), width: r1(Math.max(1, bw * 0.76)), height: r1(Y(0) - Y(x.value)) })),
		items.map((x, i) => (i % every === 0 || i === items.length - 1) && (i === items.length - 1 || items.length - 1 - i >= every / 2) ? s("text", { class: "ch-tick", x: r1(Math.min(W - R - 22, Math.max(L + 22, L + i * bw + bw / 2))), y: H - 6, "text-anchor": "middle" }, x.text ?? x.label) : null),
	);
}

/** Sideways bars, one row per item: [{label, value, part}] (part: the darker share of value,
 * e.g. the wins among the plays), with "part / value" at the end. */
export function hbars({ label, items }) {
	const RH = 36, L = 4, R = 44;
	const hi = Math.max(1, ...items.map((x) => x.value));
	const X = (v) => r1(((W - L - R) * v) / hi);
	return svg(
		label,
		items.length * RH + 2,
		s("title", {}, label),
		items.map((x, i) => {
			const y = i * RH;
			return s(
				"g",
				{ class: "ch-hbar", "data-label": x.label, "data-value": x.value, "data-part": x.part },
				s("text", { class: "ch-name", x: L, y: y + 12 }, cut(x.label, NAME)),
				s("rect", { class: "ch-bar ch-bar-all", x: L, y: y + 17, width: Math.max(1, X(x.value)), height: 12, rx: 2 }),
				s("rect", { class: "ch-bar", x: L, y: y + 17, width: X(x.part), height: 12, rx: 2 }),
				s("text", { class: "ch-tick", x: W - 2, y: y + 27, "text-anchor": "end" }, `${x.part} / ${x.value}`),
			);
		}),
	);
}
