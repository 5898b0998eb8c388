// Drawing: bonus icons, ambulance cards, dice, the ER sheet (wards, ledger) and scores.
import { t } from "./i18n.js";

export const COLOURS = ["red", "yellow", "green"];

/** A tiny DOM builder: h("div", {class: "x", onclick}, child, "text", …). */
export function h(tag, attrs, ...children) {
	const el = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {})) {
		if (v === null || v === undefined || v === false) continue;
		if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
		else if (k === "class") el.className = v;
		else if (k === "html") el.innerHTML = v;
		else el.setAttribute(k, v === true ? "" : v);
	}
	for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c.nodeType ? c : String(c));
	return el;
}

const ICONS = {
	stethoscopes:
		'<path d="M6 3v6a5 5 0 0 0 10 0V3" fill="none" stroke="currentColor" stroke-width="2"/><path d="M11 14v2a4 4 0 0 0 8 0v-3" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="19" cy="11" r="2.2" fill="currentColor"/>',
	blood_bag:
		'<path d="M12 2C12 2 5 10 5 15a7 7 0 0 0 14 0C19 10 12 2 12 2z" fill="#b71c1c"/><path d="M9 15a3 3 0 0 0 3 3" stroke="#fff" stroke-width="1.6" fill="none"/>',
	screen: '<circle cx="12" cy="12" r="8" fill="none" stroke="currentColor" stroke-width="2.4"/><text x="12" y="16" font-size="11" text-anchor="middle" font-weight="700" fill="currentColor">3</text>',
	critical: '<path d="M12 2 22 20H2z" fill="#e65100"/><rect x="11" y="8" width="2" height="7" fill="#fff"/><rect x="11" y="16.5" width="2" height="2" fill="#fff"/>',
	nurse: '<circle cx="12" cy="12" r="10" fill="#1565c0"/><path d="M10 6h4v4h4v4h-4v4h-4v-4H6v-4h4z" fill="#fff"/>',
	extra: '<circle cx="12" cy="7" r="4" fill="currentColor"/><path d="M4 21a8 8 0 0 1 16 0z" fill="currentColor"/><path d="M18 2v6M15 5h6" stroke="currentColor" stroke-width="2"/>',
};

export function icon(kind, extraClass = "") {
	const span = h("span", { class: `icon ${extraClass}`, "aria-hidden": "true" });
	span.innerHTML = `<svg viewBox="0 0 24 24" width="24" height="24">${ICONS[kind] || ""}</svg>`;
	return span;
}

/** A bay's bonus as words (for labels and screen readers). */
export function bonusText(bay) {
	if (bay.bonus === "extra")
		return t("bonus.extra_of", { colour: t(`colour.${bay.colour}`), a: bay.values[0], b: bay.values[1] });
	return t(`bonus.${bay.bonus}`);
}

/** Icon + label of a bay bonus. */
export function bonusBadge(bay) {
	const parts = [icon(bay.bonus, bay.bonus === "extra" ? `ink-${bay.colour}` : "")];
	if (bay.bonus === "extra") parts.push(h("span", { class: `chip c-${bay.colour}` }, `${bay.values[0]}/${bay.values[1]}`));
	return h("span", { class: "bonus" }, parts, h("span", { class: "bonus-label" }, bonusText(bay)));
}

/** A die face in its colour. */
export function die(colour, value, attrs = {}) {
	return h("span", { class: `die c-${colour}`, ...attrs }, value ?? "?");
}

/** A compact card (three bays) used by the card picker. */
export function miniCard(card) {
	return h(
		"span",
		{ class: "mini-card" },
		COLOURS.map((c) => h("span", { class: `mini-bay b-${c}` }, icon(card.bays[c].bonus, card.bays[c].bonus === "extra" ? `ink-${card.bays[c].colour}` : ""),
			card.bays[c].bonus === "extra" ? h("small", {}, card.bays[c].values.join("/")) : null)),
	);
}

function circles(n, circled, used, label) {
	const boxes = Math.max(n, circled);
	const row = h("span", { class: "boxes", role: "img", "aria-label": `${label}: ${t("sheet.circled_used", { circled, used })}` });
	for (let i = 0; i < boxes; i++) {
		const cls = i < used ? "box circled used" : i < circled ? "box circled" : "box";
		row.append(h("span", { class: cls }));
	}
	return row;
}

/**
 * The sheet. opts: {layout (data.sheet), sheet, lit: Map(ward index → anything), onBed(w),
 * screenable: Set(ward index), onScreen(w), draft: Set("w:pos") of beds written this turn,
 * readOnly}
 */
export function renderSheet(opts) {
	const { layout, sheet } = opts;
	const lit = opts.lit || new Map();
	const screenable = opts.screenable || new Set();
	const draft = opts.draft || new Set();
	const wards = h("div", { class: "wards" });
	layout.wards.forEach((ward, w) => {
		const patients = sheet.wards[w] || [];
		const crossed = sheet.nurses_crossed.includes(w + 1);
		const full = patients.length === ward.beds.length;
		const row = h("div", { class: `ward${full ? " full" : ""}`, "data-ward": w + 1, role: "group", "aria-label": t("sheet.ward", { n: w + 1 }) });
		row.append(h("span", { class: "ward-head", title: t("sheet.clipboard", { n: ward.clipboard }) },
			h("b", {}, w + 1), h("small", { "aria-label": t("sheet.clipboard", { n: ward.clipboard }) }, ward.clipboard)));
		const beds = h("span", { class: "beds" });
		ward.beds.forEach((bed, pos) => {
			const p = patients[pos];
			const isNext = pos === patients.length;
			const isLast = pos === patients.length - 1;
			const canAdmit = !opts.readOnly && isNext && lit.has(w);
			const canScreen = !opts.readOnly && isLast && screenable.has(w);
			let label = t("sheet.bed", { ward: w + 1, bed: pos + 1, colour: t(`colour.${bed.colour}`) }) + ": ";
			label += p ? `${p.value}${p.critical ? `, ${t("sheet.critical")}` : ""}${p.screen ? `, ${t("sheet.screened")}` : ""}` : t("sheet.empty");
			const cls = ["bed", `c-${bed.colour}`];
			if (p) cls.push("filled");
			if (p && p.screen) cls.push("screened");
			if (canAdmit) cls.push("lit");
			if (canScreen) cls.push("screenable");
			if (draft.has(`${w}:${pos}`)) cls.push("draft");
			if (isNext && opts.picking === w) cls.push("picking");
			const active = canAdmit || canScreen;
			const b = h(
				"button",
				{
					type: "button",
					class: cls.join(" "),
					"data-ward": w + 1,
					"data-bed": pos + 1,
					"aria-label": label,
					"aria-disabled": active ? null : "true",
					tabindex: active ? null : "-1",
					onclick: () => {
						if (canAdmit) opts.onBed(w);
						else if (canScreen) opts.onScreen(w);
					},
				},
				p ? h("span", { class: "v" }, p.value) : "",
				p && p.critical ? h("span", { class: "crit", "aria-hidden": "true" }, "!") : "",
			);
			beds.append(b);
		});
		row.append(beds);
		row.append(h("span", { class: `nurse${crossed ? " crossed" : ""}`, role: "img",
			"aria-label": `${t("sheet.nurse", { n: w + 1 })}${crossed ? ` (${t("sheet.nurse_crossed")})` : ""}` }, icon("nurse")));
		wards.append(row);
	});
	return h("div", { class: "sheet" }, wards, renderLedger(layout, sheet));
}

export function renderLedger(layout, sheet) {
	const track = h("span", { class: "track" },
		layout.nurse_track.map((v, i) => h("span", { class: `space${i < sheet.nurse_track ? " circled" : ""}` }, v)));
	const morgue = h("span", { class: "boxes" });
	for (let i = 0; i < layout.morgue.boxes; i++) morgue.append(h("span", { class: `box sq${i < sheet.morgue ? " dead" : ""}` }));
	const cardio = h("span", { class: "cardio" }, sheet.cardiologists.map((v) => h("span", { class: "pts" }, v || "–")));
	const line = (key, content) => h("div", { class: "ledger-line" }, h("span", { class: "ledger-label" }, t(key)), content);
	return h(
		"div",
		{ class: "ledger" },
		line("sheet.stethoscopes", h("span", { class: "ledger-val" }, circles(layout.stethoscopes.boxes, sheet.stethoscopes.circled, sheet.stethoscopes.used, t("sheet.stethoscopes")),
			h("b", { class: "avail", "data-ledger": "stethoscopes" }, sheet.stethoscopes.circled - sheet.stethoscopes.used))),
		line("sheet.blood_bags", h("span", { class: "ledger-val" }, circles(layout.blood_bags.boxes, sheet.blood_bags.circled, sheet.blood_bags.used, t("sheet.blood_bags")),
			h("b", { class: "avail", "data-ledger": "blood_bags" }, sheet.blood_bags.circled - sheet.blood_bags.used))),
		line("sheet.nurse_track", track),
		line("sheet.morgue", morgue),
		line("sheet.cardiologists", cardio),
	);
}

const BREAKDOWN = ["filled_wards", "critical", "nurses", "cardiologists", "radiologist", "epidemiologist", "morgue", "modifiers"];

export function renderBreakdown(score) {
	const rows = BREAKDOWN.filter((k) => k in score.breakdown && (k !== "modifiers" || score.breakdown[k]))
		.map((k) => h("tr", {}, h("th", { scope: "row" }, t(`score.${k}`)), h("td", {}, score.breakdown[k])));
	rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t("score.total")), h("td", {}, score.total)));
	return h("table", { class: "breakdown" }, h("tbody", {}, rows));
}
