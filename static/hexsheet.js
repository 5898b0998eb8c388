// The ER sheet as printed, in SVG (static/README.md, "The sheet is the paper sheet"). Built once
// per layout; update() changes only the hexes and boxes whose state changed.
import { s, iconParts } from "./dom.js";
import { t, lang } from "./i18n.js";

const R = 24; // hex radius (centre to corner), in SVG units
const W = Math.sqrt(3) * R; // hex width
const PAD = 1;
const LOBBY = [303, 402, 503];
// where each ward's clipboard sits: the neighbour of its last bed in this direction (0 = upper
// left, clockwise), chosen so that no badge covers a bed or another badge
const BADGE_DIR = [0, 0, 1, 2, 1, 4, 3];
const STEP = { even: [[-1, 0], [-1, 1], [0, 1], [1, 1], [1, 0], [0, -1]], odd: [[-1, -1], [-1, 0], [0, 1], [1, 0], [1, -1], [0, -1]] };

const isEven = (row) => ((row % 2) + 2) % 2 === 0;
function centre(row, col) {
	return [col * W + (isEven(row) ? W / 2 : 0) + W / 2 + PAD, row * 1.5 * R + R + 1.5 * R + PAD];
}
const rc = (hex) => [Math.floor(hex / 100), hex % 100];
function hexPoints(cx, cy, r = R) {
	const p = [];
	for (let i = 0; i < 6; i++) {
		const a = (Math.PI / 180) * (60 * i - 90);
		p.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
	}
	return p.join(" ");
}

/**
 * The board. handlers: {onBed(w), onScreen(w), onUnlit(w, pos)} (w: ward index from 0, pos: bed
 * index from 0). Returns {el, update(o)} where o = {sheet, lit: Map(w → …), screenable: Set(w),
 * draft: Set("w:pos"), pending: Set("w:pos") (a move waiting to be sent), picking: w|null,
 * interactive, label, highlight: Set(hex)}.
 */
export function createBoard(layout, handlers) {
	const width = 8.5 * W + 2 * PAD;
	const height = 12.5 * R + 2 * PAD;
	const svg = s("svg", { viewBox: `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`, class: "board", role: "group" });
	const title = s("title", {});
	svg.append(title);
	// lobby and labs
	for (const hex of LOBBY) {
		const [cx, cy] = centre(...rc(hex));
		svg.append(s("polygon", { points: hexPoints(cx, cy, R - 1), class: "lobby" }));
	}
	const lobbyText = s("text", { x: centre(...rc(402))[0], y: centre(...rc(402))[1] + 4, class: "lobby-label", "text-anchor": "middle" });
	svg.append(lobbyText);
	for (const lab of layout.xray_labs) {
		const [cx, cy] = centre(...rc(lab.hex));
		svg.append(s("g", { class: "lab", "data-lab": lab.id },
			s("polygon", { points: hexPoints(cx, cy, R - 1) }),
			s("text", { x: cx, y: cy - 2, "text-anchor": "middle", class: "lab-x" }, "X"),
			s("text", { x: cx, y: cy + 12, "text-anchor": "middle", class: "lab-id" }, lab.id)));
	}
	const beds = []; // [w][pos] → {g, poly, ring, val, crit, key}
	const badges = [];
	layout.wards.forEach((ward, w) => {
		beds.push([]);
		const wardG = s("g", { class: "ward", "data-ward-group": w + 1 });
		ward.beds.forEach((bed, pos) => {
			const [row, col] = rc(bed.hex);
			const [cx, cy] = centre(row, col);
			const poly = s("polygon", { points: hexPoints(cx, cy, R - 0.8), class: "hex" });
			const ring = s("circle", { cx, cy, r: R * 0.62, class: "ring" });
			const val = s("text", { x: cx, y: cy + 7.5, "text-anchor": "middle", class: "val" });
			const crit = s("text", { x: cx + W * 0.27, y: cy - R * 0.3, "text-anchor": "middle", class: "crit" });
			const g = s("g", {
				class: `bed c-${bed.colour}`, "data-ward": w + 1, "data-bed": pos + 1, "data-hex": bed.hex, role: "button",
				onclick: () => tap(w, pos),
				onkeydown: (e) => {
					if (e.key === "Enter" || e.key === " ") {
						e.preventDefault();
						tap(w, pos);
					}
				},
			}, poly, ring, val, crit);
			wardG.append(g);
			beds[w].push({ g, poly, ring, val, crit, key: "" });
		});
		// clipboard and nurse at the ward's end
		const last = ward.beds[ward.beds.length - 1];
		const [lr, lc] = rc(last.hex);
		const [dr, dc] = STEP[isEven(lr) ? "even" : "odd"][BADGE_DIR[w]];
		const [bx, by] = centre(lr + dr, lc + dc);
		const nurse = s("g", { class: "nurse", transform: `translate(${(bx - 9).toFixed(1)} ${(by + 1).toFixed(1)}) scale(.75)` }, iconParts("nurse"));
		const cross = s("path", { d: `M${bx - 10} ${by + 20}l20 -18`, class: "nurse-cross" });
		const badge = s("g", { class: "badge", "data-badge": w + 1 },
			s("rect", { x: bx - 14, y: by - 20, width: 28, height: 20, rx: 4, class: "clip" }),
			s("text", { x: bx, y: by - 5, "text-anchor": "middle", class: "clip-val" }, ward.clipboard),
			nurse, cross, s("title", {}));
		badges.push({ badge, key: "" });
		wardG.append(badge);
		svg.append(wardG);
	});

	let current = null;
	function tap(w, pos) {
		if (!current) return;
		const ward = current.sheet.wards[w] || [];
		const isNext = pos === ward.length;
		if (isNext && current.lit.has(w)) return handlers.onBed(w);
		if (pos === ward.length - 1 && current.screenable.has(w)) return handlers.onScreen(w);
		if (handlers.onUnlit) handlers.onUnlit(w, pos);
	}

	function update(o) {
		current = { lit: new Map(), screenable: new Set(), draft: new Set(), pending: new Set(), highlight: new Set(), ...o };
		const { sheet, lit, screenable, draft, pending, highlight } = current;
		title.textContent = o.label || "";
		lobbyText.textContent = t("sheet.lobby");
		layout.wards.forEach((ward, w) => {
			const patients = sheet.wards[w] || [];
			ward.beds.forEach((bed, pos) => {
				const p = patients[pos];
				const isNext = pos === patients.length;
				const canAdmit = o.interactive && isNext && lit.has(w);
				const canScreen = o.interactive && pos === patients.length - 1 && screenable.has(w);
				const cls = ["bed", `c-${bed.colour}`];
				if (p) cls.push("filled");
				if (p && p.screen) cls.push("screened");
				if (canAdmit) cls.push("lit");
				if (canScreen) cls.push("screenable");
				if (draft.has(`${w}:${pos}`)) cls.push("draft");
				if (pending.has(`${w}:${pos}`)) cls.push("pending");
				if (isNext && o.picking === w) cls.push("picking");
				if (highlight.has(bed.hex)) cls.push("scored");
				const shown = p ? `${p.value}${p.critical ? "!" : ""}` : "";
				let label = `${shown ? `${shown} ` : ""}— ${t("sheet.bed", { ward: w + 1, bed: pos + 1, colour: t(`colour.${bed.colour}`) })}: `;
				label += p ? [p.value, p.critical && t("sheet.critical"), p.screen && t("sheet.screened")].filter(Boolean).join(", ") : t("sheet.empty");
				if (pending.has(`${w}:${pos}`)) label += ` (${t("sheet.pending")})`;
				if (canAdmit) label += ` — ${t("sheet.tap_to_write")}`;
				else if (canScreen) label += ` — ${t("sheet.tap_to_screen")}`;
				const b = beds[w][pos];
				const key = `${cls.join(" ")}|${label}|${o.interactive}`;
				if (b.key === key) return;
				b.key = key;
				b.g.setAttribute("class", cls.join(" "));
				b.g.setAttribute("aria-label", label.replace(/^— /, ""));
				const active = canAdmit || canScreen;
				// an unlit bed stays tappable: the tap says why it is not legal
				b.g.setAttribute("tabindex", active ? "0" : "-1");
				b.val.textContent = p ? p.value : "";
				b.crit.textContent = p && p.critical ? "!" : "";
			});
			const crossed = sheet.nurses_crossed.includes(w + 1);
			const full = patients.length === ward.beds.length;
			const bd = badges[w];
			const key = `${crossed}|${full}|${t("sheet.clipboard", { n: ward.clipboard })}`;
			if (bd.key !== key) {
				bd.key = key;
				bd.badge.setAttribute("class", `badge${crossed ? " crossed" : ""}${full ? " full" : ""}`);
				bd.badge.lastChild.textContent = `${t("sheet.ward", { n: w + 1 })}: ${t("sheet.clipboard", { n: ward.clipboard })}; ${t("sheet.nurse", { n: w + 1 })}${crossed ? ` (${t("sheet.nurse_crossed")})` : ""}`;
			}
		});
	}
	return { el: svg, update };
}

// ---- the ledger and the score row ----

const SCORE_ROW = ["filled_wards", "critical", "nurses", "cardiologists", "radiologist", "epidemiologist", "morgue"];

/** Returns {el, update(sheet, score, alicat)}: the ledger as printed, then the score row. */
export function createLedger(layout) {
	const wrap = s("svg", { viewBox: "0 0 360 250", class: "ledger-svg", role: "img" });
	const title = s("title", {});
	wrap.append(title);
	const labels = {};
	const label = (key, x, y, anchor = "start") => {
		const el = s("text", { x, y, class: "ledger-label", "text-anchor": anchor });
		labels[key] = el;
		return el;
	};
	/** n boxes drawn by make(i), appended in order; returns them (update() fills them in). */
	const boxes = (n, make) => Array.from({ length: n }, (_, i) => wrap.appendChild(make(i)));
	/** The "available" and "extra" counts under a ledger's boxes, centred on x. */
	const counts = (x, ledger) => {
		const both = [s("text", { x, y: 52, class: "avail", "data-ledger": ledger, "text-anchor": "middle" }), s("text", { x, y: 74, class: "extra-count", "text-anchor": "middle" })];
		wrap.append(...both);
		return both;
	};
	// stethoscopes: 15 circles, 3 rows of 5
	wrap.append(label("sheet.stethoscopes", 6, 14));
	const steth = boxes(layout.stethoscopes.boxes, (i) => s("circle", { cx: 16 + (i % 5) * 22, cy: 30 + Math.floor(i / 5) * 22, r: 8, class: "box" }));
	const [stethAvail, stethExtra] = counts(128, "stethoscopes");
	// blood bags: 9 drops, 3 × 3
	wrap.append(label("sheet.blood_bags", 150, 14));
	const blood = boxes(layout.blood_bags.boxes, (i) => {
		const x = 160 + (i % 3) * 22, y = 30 + Math.floor(i / 3) * 22;
		return s("path", { d: `M${x} ${y - 9}c-5 6-8 9-8 12a8 8 0 0 0 16 0c0-3-3-6-8-12z`, class: "box" });
	});
	const [bloodAvail, bloodExtra] = counts(236, "blood_bags");
	// morgue: 4 boxes
	wrap.append(label("sheet.morgue", 258, 14));
	const morgue = boxes(layout.morgue.boxes, (i) => s("rect", { x: 262 + (i % 2) * 26, y: 22 + Math.floor(i / 2) * 26, width: 20, height: 20, rx: 3, class: "box" }));
	wrap.append(s("text", { x: 340, y: 52, class: "penalty", "text-anchor": "middle" }, "−1"));
	// nurses track
	wrap.append(label("sheet.nurse_track", 6, 108));
	const track = [];
	layout.nurse_track.forEach((v, i) => {
		const cx = 24 + i * 48;
		const c = s("circle", { cx, cy: 130, r: 15, class: "box" });
		track.push(c);
		wrap.append(c, s("text", { x: cx, y: 135, "text-anchor": "middle", class: "track-val" }, v));
	});
	// score row (the breakdown's boxes, then the total), redrawn when the boxes change
	wrap.append(label("score.title", 6, 170));
	const row = s("g", {});
	wrap.append(row);
	let cells = {}, rowKeys = "";
	function scoreRow(keys) {
		if (`${lang()}:${keys}` === rowKeys) return;
		rowKeys = `${lang()}:${keys}`;
		cells = {};
		row.replaceChildren();
		const n = keys.length;
		const cw = 348 / n;
		keys.forEach((k, i) => {
			const x = 6 + i * cw;
			row.append(s("rect", { x: x + 2, y: 184, width: cw - 8, height: 34, rx: 4, class: `score-box${k === "total" ? " total" : ""}` }));
			cells[k] = s("text", { x: x + cw / 2 - 2, y: 207, "text-anchor": "middle", class: "score-val", "data-score-cell": k });
			const sign = i === 0 ? "" : i === n - 1 ? "=" : "+";
			row.append(cells[k], s("text", { x: x - 1, y: 207, "text-anchor": "middle", class: "score-sign" }, sign),
				s("text", { x: x + cw / 2 - 2, y: 236, "text-anchor": "middle", class: "score-label" }, t(`score.short.${k}`)));
		});
	}

	const box = (el, on, extraCls) => el.setAttribute("class", `box${on ? ` ${extraCls}` : ""}`);
	/** modifiers: the sheet is ALICAT's, with difficulty points (a box of their own). */
	function update(sheet, score, modifiers = false) {
		for (const [k, el] of Object.entries(labels)) el.textContent = t(k);
		const keys = modifiers ? [...SCORE_ROW, "modifiers", "total"] : [...SCORE_ROW, "total"];
		scoreRow(keys);
		steth.forEach((c, i) => box(c, i < sheet.stethoscopes.circled, i < sheet.stethoscopes.used ? "circled used" : "circled"));
		blood.forEach((c, i) => box(c, i < sheet.blood_bags.circled, i < sheet.blood_bags.used ? "circled used" : "circled"));
		morgue.forEach((c, i) => box(c, i < sheet.morgue, "dead"));
		track.forEach((c, i) => box(c, i < sheet.nurse_track, "circled"));
		const sa = sheet.stethoscopes.circled - sheet.stethoscopes.used;
		const ba = sheet.blood_bags.circled - sheet.blood_bags.used;
		stethAvail.textContent = sa;
		bloodAvail.textContent = ba;
		stethExtra.textContent = sheet.stethoscopes.circled > layout.stethoscopes.boxes ? `+${sheet.stethoscopes.circled - layout.stethoscopes.boxes}` : "";
		bloodExtra.textContent = sheet.blood_bags.circled > layout.blood_bags.boxes ? `+${sheet.blood_bags.circled - layout.blood_bags.boxes}` : "";
		const bd = (score && score.breakdown) || {};
		for (const k of keys) if (k !== "total") cells[k].textContent = k in bd ? bd[k] : "";
		cells.total.textContent = score ? score.total : "";
		const parts = [
			`${t("sheet.stethoscopes")}: ${t("sheet.available", { n: sa })} (${t("sheet.circled_used", { circled: sheet.stethoscopes.circled, used: sheet.stethoscopes.used })})`,
			`${t("sheet.blood_bags")}: ${t("sheet.available", { n: ba })} (${t("sheet.circled_used", { circled: sheet.blood_bags.circled, used: sheet.blood_bags.used })})`,
			`${t("sheet.morgue")}: ${sheet.morgue}`,
			`${t("sheet.nurse_track")}: ${sheet.nurse_track ? layout.nurse_track[sheet.nurse_track - 1] : 0}`,
		];
		if (score) parts.push(`${t("score.total")}: ${score.total} (${SCORE_ROW.filter((k) => k in bd).map((k) => `${t(`score.${k}`)} ${bd[k]}`).join(", ")}${bd.modifiers ? `, ${t("score.modifiers")} ${bd.modifiers}` : ""})`);
		title.textContent = parts.join(". ");
	}
	return { el: wrap, update };
}
