// The coach (static/README.md, "The coach"): how good a finished ER game could have been for one
// seat, from GET /api/v1/er/games/{id}/seats/{seat}/analysis. The player's sheet and the best
// sheet the search found side by side (hexsheet.js), a turn slider, the totals per category and
// the three turns that cost the most, each in one sentence built here from the step's data.
// Loaded on its route (#game=ID&coach=SEAT) with its strings (i18n/coach.*.json) and its style
// (coach.css); the table display (display.js) shows the same panel on a TV.
import * as api from "./api.js";
import { h } from "./dom.js";
import { t, lang, addStrings } from "./i18n.js";
import { createBoard, createLedger } from "./hexsheet.js";
import { errorBox, errorOf } from "./view.js";

const CATEGORIES = ["filled_wards", "critical", "nurses", "cardiologists", "radiologist", "epidemiologist", "morgue", "modifiers"];
// the paper of home.js's paperOf(), not imported: the table display loads this module too
const paperOf = () => (/^en-(US|CA)|^es-(US|MX)/.test(navigator.language) ? "letter" : "a4");
const WAIT_MAX_S = 10; // the longest pause between two asks while the analysis runs (202)

/** The coach's strings and style, once: resolves when both are there. */
export function coachReady() {
	let css = null;
	if (!document.querySelector('link[href="coach.css"]')) {
		const link = h("link", { rel: "stylesheet", href: "coach.css" });
		css = new Promise((resolve) => {
			link.onload = resolve;
			link.onerror = resolve;
		});
		document.head.append(link);
	}
	return Promise.all([addStrings("coach"), css]);
}

const analysisPath = (id, seat) => `/er/games/${encodeURIComponent(id)}/seats/${seat}/analysis`;

/** The analysis of a finished game's seat: asked again after Retry-After while the server
 * answers 202 (it is being computed); rejects with api.ApiError. stop(): true once nobody waits. */
export async function fetchAnalysis(id, seat, token, stop = () => false) {
	for (;;) {
		let r, text;
		try {
			r = await fetch(`/api/v1${analysisPath(id, seat)}`, { headers: { Accept: "application/json", Authorization: `Bearer ${token}` }, cache: "no-store" });
			text = await r.text();
		} catch {
			throw new api.ApiError(0, { title: "network" });
		}
		if (r.status === 202) {
			const wait = Math.min(WAIT_MAX_S, Math.max(1, Number(r.headers.get("Retry-After")) || 2));
			await new Promise((resolve) => setTimeout(resolve, wait * 1000));
			if (stop()) return null;
			continue;
		}
		let data = null;
		try {
			data = text ? JSON.parse(text) : null;
		} catch {
			data = { detail: text };
		}
		if (!r.ok) throw new api.ApiError(r.status, data || {});
		return data;
	}
}

// ---- sentences ----

/** The patient of the best move the sentence is about: the admission to the ward the coach names,
 * else the first admission; null when every patient went to the morgue. */
function admission(step) {
	const steps = (step.best_move && step.best_move.steps) || [];
	const admits = steps.filter((s) => "admit" in s);
	const ward = step.missed && step.missed.ward;
	return admits.find((s) => s.ward === ward) || admits[0] || null;
}

/** "the red 5 in ward 3", "the red 5 written as 3 in ward 3", "the extra yellow patient (4) in
 * ward 2", "the red 5 sent to the morgue". */
export function moveWords(step, data) {
	const m = step.best_move;
	if (!m) return "";
	const ti = step.turn_info;
	const rolled = ti.dice[m.die];
	const a = admission(step);
	if (!a) return t("coach.move.morgue", { colour: t(`colour.${m.die}`), value: rolled });
	if (a.admit === "extra") {
		const card = data.cards.find((c) => c.id === ti.card);
		const colour = card ? card.bays[m.die].colour : m.die;
		return t("coach.move.extra", { colour: t(`colour.${colour}`), value: a.value, ward: a.ward });
	}
	if (a.value !== rolled) return t("coach.move.written", { colour: t(`colour.${m.die}`), rolled, value: a.value, ward: a.ward });
	return t("coach.move.die", { colour: t(`colour.${m.die}`), value: a.value, ward: a.ward });
}

/** One turn that cost points, in a sentence: "Turn 7: the red 5 in ward 3 would have brought
 * 5 more points for filled wards." (and what the choice cost in all when that is more); when the
 * category that differs most is one the best line scored less in, what it gained in all and
 * what it gave up there. */
export function turnSentence(step, data) {
	const missed = step.missed;
	const cat = missed && CATEGORIES.includes(missed.category) ? missed.category : null;
	const move = moveWords(step, data);
	// the category that differs most may be one the best line gave up for more elsewhere
	if (cat && missed.points < 0)
		return t("coach.trade_line", { turn: step.turn, move, why: t("coach.why.any", { n: step.cost }), less: -missed.points, category: t(`score.${cat}`) });
	const points = cat ? missed.points : step.cost;
	const why = t(cat ? `coach.why.${cat}` : "coach.why.any", { n: points });
	let s = t("coach.turn_line", { turn: step.turn, move, why });
	if (cat && step.cost > points) s += ` ${t("coach.cost_all", { n: step.cost })}`;
	return s;
}

/** The (up to) three steps whose choice cost the most, the costliest first (the earlier turn
 * first on a tie). */
export function costliest(a) {
	return a.steps.filter((s) => typeof s.cost === "number" && s.cost > 0).sort((x, y) => y.cost - x.cost || x.turn - y.turn).slice(0, 3);
}

/** What a move did, short: "red 3 → ward 2, extra → morgue". */
function moveShort(move, ti) {
	if (!move) return "—";
	const parts = [];
	for (const s of move.steps) {
		if ("admit" in s) parts.push(t("coach.step.admit", { value: s.value, ward: s.ward }));
		else if ("morgue" in s) parts.push(t("coach.step.morgue"));
		else if ("screen" in s) parts.push(t("coach.step.screen", { ward: s.screen }));
	}
	return t("coach.step.move", { die: t("coach.step.die", { colour: t(`colour.${move.die}`), value: ti.dice[move.die] }), steps: parts.join(", ") });
}

// ---- the panel (phone and TV) ----

/**
 * The coach's panel for one seat. o: {data (GET /er/data), name (the player's), a (the
 * analysis), key (unique on the page: ids), big (the TV: boards only, no ledger), pdf (a
 * function that downloads the PDF, or null)}. Returns the element.
 */
export function coachPanel(o) {
	const { data, a, key, big } = o;
	const layout = data.sheet;
	const steps = a.steps || [];
	const last = steps.length;
	const hl = big ? "h3" : "h2"; // under the screen's h1, or under the display's coach h2
	const side = (which, name) => {
		const head = h(hl, { class: "coach-sheet-h", id: `coach-${which}-h-${key}` });
		const board = createBoard(layout, { onBed() {}, onScreen() {}, onUnlit() {} });
		// a picture to look at, not a control: no bed takes a tap or the focus
		const beds = [...board.el.querySelectorAll(".bed")];
		for (const b of beds) b.setAttribute("role", "img");
		board.el.setAttribute("aria-labelledby", head.id);
		const ledger = big ? null : createLedger(layout);
		const fig = h("section", { class: `coach-sheet coach-${which}`, "data-sheet": which, "aria-labelledby": head.id }, head,
			h("div", { class: "coach-board" }, board.el), ledger ? h("div", { class: "coach-ledger" }, ledger.el) : null);
		return {
			fig,
			// score: the final one (the last turn); running: the sheet's score after turn n
			show(n, sheet, score, running) {
				head.replaceChildren(h("span", {}, name), " ", h("strong", { class: "coach-total", "data-total": score ? score.total : "" }, score ? t("coach.points", { n: score.total }) : t("coach.after", { n, total: a.turns })));
				board.update({ sheet, interactive: false, label: `${name} — ${t("coach.after", { n, total: a.turns })}` });
				for (const b of beds) b.removeAttribute("tabindex");
				fig.dataset.filled = sheet.wards.reduce((k, w) => k + w.length, 0);
				if (ledger) ledger.update(sheet, score || running);
			},
		};
	};
	const mine = side("player", o.name);
	const best = side("best", t("coach.best"));

	// the slider: both sheets after turn n
	const sliderId = `coach-turn-${key}`;
	const out = h("output", { for: sliderId, id: `coach-turn-out-${key}` });
	const slider = h("input", { type: "range", id: sliderId, class: "coach-slider", min: 1, max: Math.max(1, last), step: 1, value: last, "aria-valuetext": "" });
	const words = h("p", { class: "coach-turn-words", id: `coach-turn-words-${key}` });
	function show(n) {
		n = Math.min(Math.max(1, n), last);
		slider.value = n;
		const st = steps[n - 1];
		const end = n === last;
		mine.show(n, st.player_sheet, end ? a.player : null, st.player_score);
		best.show(n, st.best_sheet, end ? a.best : null, st.best_score);
		out.textContent = t("coach.after", { n, total: a.turns });
		slider.setAttribute("aria-valuetext", out.textContent);
		const cost = typeof st.cost === "number" ? (st.cost > 0 ? t("coach.turn_cost", { n: st.cost }) : t("coach.turn_free")) : t("coach.turn_unsearched");
		words.replaceChildren(h("span", {}, t("coach.you_did", { move: moveShort(st.player_move, st.turn_info) })), h("br", {}),
			h("span", {}, t("coach.best_did", { move: moveShort(st.best_move, st.turn_info) })), h("br", {}), h("span", { class: "coach-cost" }, cost));
	}
	slider.addEventListener("input", () => show(Number(slider.value)));
	const sliderBox = h("div", { class: "coach-slider-box" },
		h("label", { for: sliderId }, t("coach.slider"), " ", out), slider, words);

	// the honest part: the best the search found, how far it got
	const note = h("p", { class: "coach-note", id: `coach-note-${key}` }, t("coach.honest", { width: a.width }),
		a.complete ? "" : ` ${t(a.searched_turns > 0 ? "coach.partial" : "coach.partial_none", { n: a.searched_turns, total: a.turns })}`);

	// totals
	const cats = CATEGORIES.filter((k) => k in a.player.breakdown && (k !== "modifiers" || a.player.breakdown[k] || a.best.breakdown[k]));
	const diff = a.best.total - a.player.total;
	const totals = h("table", { class: "coach-totals", id: `coach-totals-${key}` },
		h("caption", {}, diff > 0 ? t("coach.gap", { n: diff }) : t("coach.no_gap")),
		h("thead", {}, h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("coach.category"))), h("th", { scope: "col" }, t("coach.played")), h("th", { scope: "col" }, t("coach.best_short")))),
		h("tbody", {}, cats.map((k) => h("tr", { "data-cat": k }, h("th", { scope: "row" }, t(`score.${k}`)), h("td", {}, a.player.breakdown[k]), h("td", {}, a.best.breakdown[k] ?? ""))),
			h("tr", { class: "total", "data-cat": "total" }, h("th", { scope: "row" }, t("score.total")), h("td", {}, a.player.total), h("td", {}, a.best.total))));

	// the three turns that cost the most
	const top = costliest(a);
	const list = top.length
		? h("ol", { class: "coach-costly", id: `coach-costly-${key}` }, top.map((st) => h("li", { "data-turn": st.turn, "data-cost": st.cost },
			h("p", {}, turnSentence(st, data)),
			big ? null : h("button", { type: "button", class: "secondary", "data-show-turn": st.turn, onclick: () => {
				show(st.turn);
				slider.scrollIntoView({ block: "center", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
			} }, t("coach.see_turn", { n: st.turn })))))
		: h("p", { class: "coach-costly", id: `coach-costly-${key}` }, t(!a.complete && !a.searched_turns ? "coach.none_weighed" : "coach.none_costly"));
	const costlyH = h(hl, { id: `coach-costly-h-${key}` }, t("coach.costliest"));

	const sheets = h("div", { class: "coach-sheets" }, mine.fig, best.fig);
	const pdf = o.pdf ? h("button", { type: "button", class: "secondary", id: `coach-pdf-${key}`, onclick: o.pdf }, t("coach.pdf")) : null;
	// the TV shows the end of the game (a picture across the table, no slider to reach)
	const el = big
		? h("div", { class: "coach-panel coach-big", "data-seat": o.seat },
			h("div", { class: "coach-main" }, sheets, h("section", { class: "coach-costly-box", "aria-labelledby": costlyH.id }, costlyH, list)),
			h("div", { class: "coach-side" }, totals, note))
		: h("div", { class: "coach-panel", "data-seat": o.seat }, note, totals,
			h("section", { "aria-labelledby": costlyH.id }, costlyH, list), sliderBox, sheets, pdf);
	if (last) show(last);
	return el;
}

// ---- the phone's screen: #game=ID&coach=SEAT ----

/** Opens the coach for seat of game id on root; returns the screen ({render(lang), close()}). */
export function openCoach(root, { id, token, seat }) {
	let closed = false;
	let got = null; // {data, game, a}
	let err = null;
	const h1 = h("h1", { id: "coach-h" });
	const sub = h("p", { class: "coach-sub" });
	const body = h("div", { class: "coach-body", "aria-live": "polite" });
	const back = h("a", { class: "button", id: "coach-back", href: `#game=${encodeURIComponent(id)}` });
	const main = h("section", { class: "panel coach", id: "coach", "aria-labelledby": "coach-h", "aria-busy": "true" }, h1, sub, body, h("div", { class: "actions-inline" }, back));
	root.replaceChildren(main);

	async function pdf() {
		const btn = document.getElementById("coach-pdf-p");
		if (btn) btn.disabled = true;
		try {
			// the page is drawn from the stored analysis: waits while it is searched (202)
			await fetchAnalysis(id, seat, token, () => closed);
			if (closed) return;
			const blob = await api.request("GET", `${analysisPath(id, seat)}.pdf?paper=${paperOf()}&lang=${lang()}`, undefined, token, { blob: true });
			const url = URL.createObjectURL(blob);
			const a = h("a", { href: url, download: `er-${got.game.code}-coach-${seat}.pdf`, hidden: true });
			document.body.append(a);
			a.click();
			a.remove();
			setTimeout(() => URL.revokeObjectURL(url), 60000);
		} catch (e) {
			err = errorOf(e);
			draw();
		} finally {
			if (btn) btn.disabled = false;
		}
	}

	function draw() {
		const name = got ? (got.game.seats.find((s) => s.seat === seat) || { name: "?" }).name : "";
		h1.textContent = t("coach.title");
		sub.textContent = name ? t("coach.of", { name }) : "";
		back.textContent = t("coach.back");
		main.setAttribute("aria-busy", String(!got && !err));
		const parts = [];
		if (err) parts.push(errorBox(err, { id: "coach-error" }));
		if (!got && !err) parts.push(h("p", { class: "coach-busy", role: "status", id: "coach-busy" }, h("span", { class: "coach-spinner", "aria-hidden": "true" }), t("coach.busy")));
		if (got) parts.push(coachPanel({ data: got.data, a: got.a, name, key: "p", seat, big: false, pdf }));
		body.replaceChildren(...parts);
	}

	(async () => {
		try {
			await coachReady();
			draw();
			const [data, game] = await Promise.all([api.gameData(), api.getGame(id, token)]);
			const a = await fetchAnalysis(id, seat, token, () => closed);
			if (closed || !a) return;
			got = { data, game, a };
		} catch (e) {
			err = errorOf(e);
		}
		if (!closed) draw();
	})();

	return {
		render() {
			if (!closed && document.getElementById("coach-h")) draw();
		},
		close() {
			closed = true;
		},
		get closed() {
			return closed;
		},
	};
}
