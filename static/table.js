// The table: the sheet shown (hex board + ledger), the players, the specialists, ALICAT's last
// move in a solo game, and the final ranking.
import { h, icon } from "./dom.js";
import { t, lang } from "./i18n.js";
import { mount, errorOf } from "./view.js";
import { paperOf } from "./home.js";
import { createBoard, createLedger } from "./hexsheet.js";
import { D } from "./derive.js";
import * as api from "./api.js";

const BREAKDOWN = ["filled_wards", "critical", "nurses", "cardiologists", "radiologist", "epidemiologist", "morgue", "modifiers"];

function breakdown(score) {
	const rows = BREAKDOWN.filter((k) => k in score.breakdown && (k !== "modifiers" || score.breakdown[k]))
		.map((k) => h("tr", {}, h("th", { scope: "row" }, t(`score.${k}`)), h("td", {}, score.breakdown[k])));
	rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t("score.total")), h("td", {}, score.total)));
	return h("table", { class: "breakdown" }, h("tbody", {}, rows));
}

/** The seat whose sheet is shown: the one tapped in the list, else the phone's. */
const viewing = (S) => (S.view && S.view !== D.me(S) ? S.view : D.me(S));

/** The sheet shown: the phone's own with its move being made or queued, another's as stored. */
function shownSheet(S) {
	const q = !S.draft && D.queuedMove(S);
	return viewing(S) !== D.me(S) ? D.seatOf(S, viewing(S)).sheet : S.draft ? D.draftSheet(S) : q ? D.withSteps(D.mySheet(S), q.body.move.steps) : D.mySheet(S);
}

/** The sheet of the seat being viewed: built once, then updated in place. */
export function sheetView({ store, A }) {
	const get = store.get;
	const heading = h("h2", { id: "sheet-h" });
	const boardBox = h("div", { class: "board-box" });
	const ledgerBox = h("div", { class: "ledger-box" });
	const toggles = h("div", { class: "hl-toggles" });
	const el = h("section", { class: "sheet-panel", "aria-labelledby": "sheet-h" }, heading, boardBox, toggles, ledgerBox);
	let board = null, ledger = null;

	// the beds that earned the Radiologist's or the Epidemiologist's points (score details)
	let hlKind = null, hlSeq = 0;
	async function highlight(kind) {
		hlKind = kind;
		const seq = ++hlSeq;
		const S = get();
		if (!kind) return store.set({ highlight: [] });
		const seat = D.seatOf(S, viewing(S));
		try {
			const r = await api.request("POST", "/er/score", { sheet: seat.sheet, radiologist: S.game.specialists.radiologist, epidemiologist: S.game.specialists.epidemiologist });
			if (seq !== hlSeq) return;
			const hexes = (r.details[kind] || []).map((b) => S.data.sheet.wards[b.ward - 1].beds[b.bed - 1].hex);
			store.set({ highlight: hexes, hlCount: hexes.length });
		} catch {
			if (seq === hlSeq) store.set({ highlight: [] });
		}
	}
	store.subscribe((S) => S.game && S.data && [S.lang, viewing(S), D.seatOf(S, viewing(S)).bot, D.seatOf(S, viewing(S)).sheet, S.highlight && S.highlight.length], (v) => {
		if (!v) return;
		const S = get();
		const bot = D.seatOf(S, viewing(S)).bot;
		if (bot && hlKind) highlight(null);
		toggles.replaceChildren(...(bot ? [] : ["radiologist", "epidemiologist"].map((k) => h("button", {
			type: "button", class: "secondary hl", "data-hl": k, "aria-pressed": String(hlKind === k),
			onclick: () => highlight(hlKind === k ? null : k),
		}, t(`sheet.show_${k}`)))));
	});
	store.subscribe((S) => S.game && S.data && [viewing(S), D.seatOf(S, viewing(S)).sheet], (v) => v && hlKind && highlight(hlKind));

	// board, its marks, ledger, its marks: four views, four short tasks on a slow phone
	const ready = (S) => !!(S.game && S.data);
	store.subscribe(ready, (on) => on && !board && boardBox.append((board = createBoard(get().data.sheet, { onBed: A.tapBed, onScreen: A.screenWard, onUnlit: A.unlit })).el));
	store.subscribe((S) => S.game && S.data && (() => {
		const seat = viewing(S);
		const mine = seat === D.me(S);
		const interactive = mine && D.canMove(S) && !!S.draft && !S.busy;
		const queued = mine && !S.draft ? D.queuedMove(S) : null;
		const sheet = shownSheet(S);
		const screenable = [];
		if (interactive && S.draft.bay.bonus === "screen" && !D.screenStep(S.draft)) sheet.wards.forEach((w, i) => w.length && screenable.push(i));
		const lit = interactive && !S.picker ? [...D.litBeds(S).keys()] : [];
		return {
			lang: S.lang, seat, sheet, interactive, screenable, lit,
			draft: mine ? [...D.draftBeds(S)] : [], picking: interactive && S.picker ? S.picker.ward : null,
			pending: queued ? [...D.stepBeds(D.mySheet(S), queued.body.move.steps)] : [],
			name: D.seatOf(S, seat).name, bot: D.seatOf(S, seat).bot, score: D.seatOf(S, seat).score,
			finished: S.game.status === "finished", hl: S.highlight || [],
			// the legal beds of the patient being placed are known (the options have arrived)
			ready: !!S.opts && (!S.draft || !S.draft.current || !!S.draft.second ||
				!D.patientsOf(S.draft).some((p) => p !== S.draft.current && S.draft.done[p] && S.draft.done[p] !== "morgue")),
		};
	})(), (v) => {
		if (!v) return;
		heading.replaceChildren(v.bot ? icon("robot") : "", `${v.name}${v.bot ? ` (${t("game.bot")})` : ""}`, " ",
			h("span", { class: "pscore" }, t("game.score", { n: v.score.total })));
		board.update({
			sheet: v.sheet, interactive: v.interactive, lit: new Map(v.lit.map((w) => [w, true])), screenable: new Set(v.screenable),
			draft: new Set(v.draft), pending: new Set(v.pending), picking: v.picking, label: t("game.sheet_of", { name: v.name }), highlight: new Set(v.hl),
		});
		board.el.setAttribute("aria-label", t("game.sheet_of", { name: v.name }));
		el.dataset.opts = v.ready ? "ready" : "loading";
	});
	store.subscribe(ready, (on) => on && !ledger && ledgerBox.append((ledger = createLedger(get().data.sheet)).el));
	// ALICAT's difficulty points get their own box in its score row
	store.subscribe((S) => ready(S) && [shownSheet(S), D.seatOf(S, viewing(S)), S.game.alicat_modifiers.some((m) => m !== "preparation"), S.lang],
		(v) => v && ledger.update(v[0], v[1].score, v[1].bot && v[2]));
	return { el };
}

export function tableViews({ store, A, root }) {
	const get = store.get;

	const players = mount(store, h("div", {}), (S) => S.game && [
		S.lang, S.view, D.me(S), S.game.status, S.game.turn && S.game.turn.moved, S.game.turn && S.game.turn.chief_seat, D.next(S).action,
		S.game.seats.map((s) => [s.name, s.score.total, s.bot]),
	], (v) => {
		if (!v) return [];
		const S = get();
		const st = S.game;
		const tr = st.turn;
		const shown = S.view || D.me(S);
		return h("section", { class: "table-panel", "aria-labelledby": "players-h" }, h("h2", { id: "players-h" }, t("game.players")),
			h("ul", { class: "players" }, st.seats.map((s) => {
				const moved = tr && tr.moved.includes(s.seat);
				const chief = tr && tr.chief_seat === s.seat && D.next(S).action !== "reveal";
				return h("li", {}, h("button", {
					type: "button", class: `player${shown === s.seat ? " viewing" : ""}`, "data-seat": s.seat,
					"aria-pressed": String(shown === s.seat), onclick: () => A.view(s.seat),
				},
				h("span", { class: "pname" }, s.name, s.seat === D.me(S) ? " ★" : ""),
				chief ? h("span", { class: "tag" }, t("game.chief_tag")) : null,
				s.bot ? h("span", { class: "tag" }, t("game.bot")) : null,
				st.status === "playing" && tr && D.next(S).action === "move"
					? h("span", { class: `state${moved ? " ok" : ""}` }, moved ? `✓ ${t("game.moved")}` : t("game.waiting")) : null,
				h("span", { class: "pscore", "data-score": s.seat }, t("game.score", { n: s.score.total }))));
			})));
	});

	const specialists = mount(store, h("div", {}), (S) => S.game && S.data && [S.lang, S.game.specialists], (v) => {
		if (!v) return [];
		const S = get();
		const sp = S.game.specialists;
		return h("details", { class: "specialists" }, h("summary", {}, t("game.specialists")),
			h("ul", {},
				sp.cardiologists.map((c, i) => h("li", {}, h("b", {}, `${t("kind.cardiologist")} ${i + 1}: `), D.specName(S, c.id), " — ",
					c.offer > 0 ? t("game.cardio_side", { points: c.offer }) : t("game.cardio_discarded"))),
				h("li", {}, h("b", {}, `${t("kind.radiologist")}: `), D.specName(S, sp.radiologist)),
				h("li", {}, h("b", {}, `${t("kind.epidemiologist")}: `), D.specName(S, sp.epidemiologist))));
	});

	// ---- the game's PDFs (any token of the game reads them): the sheet shown, the whole game ----
	const shown = (S) => (S.view && D.seatOf(S, S.view) ? S.view : D.me(S));
	async function pdf(kind) {
		const S = get();
		const seat = shown(S);
		const path = kind === "game" ? "sheets.pdf" : `seats/${seat}/sheet.pdf`;
		store.set({ pdfBusy: kind });
		try {
			const blob = await api.request("GET", `/er/games/${encodeURIComponent(S.id)}/${path}?paper=${paperOf()}&lang=${lang()}`, undefined, S.token, { blob: true });
			const url = URL.createObjectURL(blob);
			const a = h("a", { href: url, download: `er-${S.game.code}-${kind === "game" ? "game" : `seat-${seat}`}.pdf`, hidden: true });
			document.body.append(a);
			a.click();
			a.remove();
			setTimeout(() => URL.revokeObjectURL(url), 60000);
		} catch (e) {
			store.set({ err: errorOf(e) });
		} finally {
			store.set({ pdfBusy: null });
		}
	}
	const pdfSel = (S) => [S.lang, S.pdfBusy, D.seatOf(S, shown(S)).name];
	const pdfButtons = (S) => h("div", { class: "actions-inline pdfs" },
		h("button", { type: "button", class: "secondary", id: "pdf-sheet", disabled: !!S.pdfBusy, onclick: () => pdf("sheet") }, t("pdf.sheet", { name: D.seatOf(S, shown(S)).name })),
		h("button", { type: "button", class: "secondary", id: "pdf-game", disabled: !!S.pdfBusy, onclick: () => pdf("game") }, t("pdf.game")));
	// in progress: folded at the end of the screen (the details element stays: it keeps open)
	const printsBox = h("details", { class: "specialists prints" },
		mount(store, h("summary", {}), (S) => S.lang, () => t("pdf.title")),
		mount(store, h("div", {}), (S) => S.game && pdfSel(S), (v) => v && [h("p", { class: "muted" }, t("pdf.help")), pdfButtons(get())]));
	const prints = h("div", {}, printsBox);
	store.subscribe((S) => !!S.game && S.game.status === "finished", (v) => (printsBox.hidden = v));

	// "Log in BG Stats" (bgstats-link.js, loaded when a game ends)
	const bgstats = (g) => {
		const slot = h("div", {});
		import("./bgstats-link.js").then((m) => slot.replaceChildren(m.bgstatsLink(m.tablePlay("er", g), t("bgstats.log"))));
		return slot;
	};
	// "How good could it have been?": the coach of the sheet shown, else of this phone's seat (coach.js)
	const coach = (S) => {
		const s = [shown(S), D.me(S)].map((n) => D.seatOf(S, n)).find((x) => x && !x.bot);
		return s && h("a", { class: "button primary", id: "coach-open", href: `#game=${encodeURIComponent(S.id)}&coach=${s.seat}` }, t("coach.open"));
	};
	// a league challenge's game: back to its board (challenge.js keeps the way with the game)
	const back = (S) => {
		const b = (api.savedGames()[S.id] || {}).back;
		return /^challenge\.html#/.test(b || "") && h("a", { class: "button", id: "challenge-back", href: b }, t("game.challenge_back"));
	};
	const results = mount(store, h("div", {}), (S) => S.game && S.game.status === "finished" && [S.game.version, ...pdfSel(S)], (v) => {
		if (!v) return [];
		const S = get();
		const seats = [...S.game.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
		return h("section", { class: "results", "aria-labelledby": "results-h" }, h("h2", { id: "results-h" }, t("game.ranking")),
			h("ol", { class: "ranking" }, seats.map((s) => h("li", { class: `result${s.rank === 1 ? " winner" : ""}`, "data-rank": s.rank },
				h("div", { class: "result-head" }, h("span", { class: "rank" }, t("game.rank", { rank: s.rank })),
					h("span", { class: "pname" }, s.name), h("strong", {}, t("game.score", { n: s.score.total }))),
				breakdown(s.score)))),
			bgstats(S.game), coach(S), back(S), h("h3", {}, t("pdf.title")), pdfButtons(S));
	});

	// ---- solo: what ALICAT did, one tap from its sheet ----
	function describeMove(S, a) {
		if (!a.move) return t("alicat.no_move");
		const parts = [t("alicat.took", { colour: t(`colour.${a.move.die}`), v: a.dice[a.move.die] })];
		for (const st of a.move.steps) {
			if ("admit" in st) parts.push(t("alicat.wrote", { v: st.value, ward: st.ward }));
			else if ("morgue" in st) parts.push(t("alicat.morgue"));
			else if ("screen" in st) parts.push(t("alicat.screened", { ward: st.screen }));
		}
		return parts.join(" ");
	}
	/** What ALICAT gained in the turn: the items, then the points (those of the turn, not its total). */
	function describeGain(a) {
		const g = [];
		if (a.gained.stethoscopes > 0) g.push(t("count.steth", { n: a.gained.stethoscopes }));
		if (a.gained.blood_bags > 0) g.push(t("count.blood", { n: a.gained.blood_bags }));
		if (a.gained.nurses > 0) g.push(t("count.nurse", { n: a.gained.nurses }));
		if (a.gained.points) g.push(t("alicat.points", { n: Math.abs(a.gained.points), sign: a.gained.points > 0 ? "+" : "−" }));
		return g.length ? g.join(", ") : t("alicat.gain_none");
	}
	/** Where ALICAT's score comes from: "Score 23: Nurses 3, Radiologist 10, Epidemiologist 10." */
	const scoreLine = (s) => t("alicat.total", { n: s.total, list: BREAKDOWN.filter((k) => s.breakdown[k]).map((k) => `${t(`score.${k}`)} ${s.breakdown[k]}`).join(", ") });
	const alicat = mount(store, h("div", {}), (S) => S.game && S.game.solo && S.data && (() => {
		const bot = S.game.seats.find((s) => s.bot);
		return [S.lang, S.alicat, S.view === bot.seat, bot.score.total, bot.score.breakdown.radiologist, bot.score.breakdown.epidemiologist];
	})(), (v) => {
		if (!v) return [];
		const S = get();
		const bot = S.game.seats.find((s) => s.bot);
		const a = S.alicat;
		const showing = S.view === bot.seat;
		const bd = bot.score.breakdown;
		const intro = h("p", { id: "alicat-start" }, t("alicat.start", { nurses: S.data.sheet.nurse_track[1], radiologist: bd.radiologist, epidemiologist: bd.epidemiologist }),
			S.game.alicat_modifiers.length ? ` ${t("alicat.modifiers", { list: S.game.alicat_modifiers.map((m) => t(`mod.${m}`)).join("; ") })}` : "");
		return h("section", { class: "alicat-panel", id: "alicat", "aria-labelledby": "alicat-h" },
			h("h2", { id: "alicat-h" }, icon("robot"), a ? t("alicat.last", { n: a.turn }) : t("alicat.title")),
			a ? h("p", { id: "alicat-move" }, describeMove(S, a), a.gained ? [" ", h("span", { class: "gain" }, t("alicat.gained", { list: describeGain(a) }))] : null, ` ${scoreLine(bot.score)}`) : null,
			h("details", { class: "alicat-rules" }, h("summary", {}, t("alicat.how")), intro),
			h("button", { type: "button", class: "secondary", id: "alicat-sheet", onclick: () => {
				A.view(showing ? D.me(S) : bot.seat);
				store.flush();
				const el = root.querySelector(".sheet-panel");
				if (el) el.scrollIntoView({ block: "start" });
			} }, t(showing ? "alicat.my_sheet" : "alicat.see_sheet")));
	});

	return { players, specialists, results, alicat, prints };
}
