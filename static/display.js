// The table display (display.html#kind=KIND&game=ID&token=display.…): a read-only screen for a
// tablet or TV in the middle of the table, landscape, dark unless switched to light, type sized
// to the screen's width (readable from two metres). It reads the game with the display token the
// host's phone made (bigscreen.js), keeps that token in this browser (localStorage) and out of the
// address bar, and follows the game's event stream as the phones do: one read of the state per
// burst of events; a dropped stream is resumed by the browser with Last-Event-ID, and one the
// browser gave up on is opened again with ?last_event_id= of the last version shown.
// ER: every player's hex sheet side by side (hexsheet.js, read-only), the card and dice of the
// turn, the Chief Physician and who still has to move, the Cardiologist race, the scores, the
// final ranking. Dice Hospital and Clinic: the scoreboard round by round, the standings (Clinic:
// the popularity track and the turn order), the final ranking.
import * as api from "./api.js";
import { h, icon, sr } from "./dom.js";
import { t, setLang, preferredLang, addStrings, lang } from "./i18n.js";
import { createStore } from "./store.js";
import { mount, errorBox, errorOf } from "./view.js";
import { createBoard, createLedger } from "./hexsheet.js";
import { bonusText } from "./turn.js";
import { D } from "./derive.js";

const STORE = "dh.display.games";
const THEME = "dh.display.theme";
const KINDS = ["er", "dh", "clinic"];
const COLOURS = ["red", "yellow", "green"];
// every kind's event names: each one only asks for a fresh read of the state
const EVENTS = ["hello", "reveal", "move", "undo", "round", "finish", "message"];
const REOPEN_MS = 5000;

/** The game this screen shows, from the address (then kept here) or from this browser. */
function target() {
	const p = new URLSearchParams(location.hash.replace(/^#/, ""));
	const kind = p.get("kind"), id = p.get("game");
	if (!KINDS.includes(kind) || !id) return null;
	const saved = api.readStored(STORE);
	let token = p.get("token");
	if (token) {
		saved[id] = { kind, token };
		localStorage.setItem(STORE, JSON.stringify(saved));
		// the token now lives in this browser: keep it out of the address bar
		history.replaceState(null, "", `#kind=${kind}&game=${encodeURIComponent(id)}`);
	} else token = saved[id] && saved[id].token;
	return token ? { kind, id, token } : null;
}

/** Dark unless this screen was switched to light (remembered): the mode now. */
function applyTheme() {
	const mode = localStorage.getItem(THEME) === "light" ? "light" : "dark";
	document.documentElement.dataset.theme = mode;
	document.querySelector('meta[name="theme-color"]').setAttribute("content", mode === "dark" ? "#121417" : "#fbfaf7");
	return mode;
}

/** The button that switches dark and light; it names the mode shown. */
function themeButton(store) {
	const button = h("button", { type: "button", class: "secondary dsp-theme", id: "dsp-theme" });
	const apply = () => {
		const mode = applyTheme();
		button.replaceChildren(t(`theme.${mode}`), sr(` — ${t("theme.label")}`));
	};
	button.addEventListener("click", () => {
		localStorage.setItem(THEME, localStorage.getItem(THEME) === "light" ? "dark" : "light");
		apply();
	});
	store.subscribe((S) => S.lang, apply);
	return button;
}

/** "★ Ann wins with 42 points" (the star is decoration). */
const winnerLine = (names, n) => [h("span", { class: "dsp-star", "aria-hidden": "true" }, "★ "), t(names.length > 1 ? "dsp.winners" : "dsp.winner", { names: names.join(", "), n })];

// ---- ER ----

const ranked = (seats, key) => [...seats].sort((a, b) => key(b) - key(a) || a.seat - b.seat);
const seatName = (g, n) => (g.seats.find((s) => s.seat === n) || { name: "?" }).name;

/** The Chief Physician of the turn on the table (or of the next one, between turns). */
function erChief(g) {
	if (g.status === "finished") return null;
	const n = g.next || {};
	return n.action === "reveal" ? n.chief_seat : g.turn && g.turn.chief_seat;
}

/** Whose turn it is, in words: the header's second line. */
function erStatus(g) {
	const chief = erChief(g);
	return chief ? t("game.chief", { name: seatName(g, chief) }) : "";
}

function erTurnLine(g) {
	if (g.status === "finished") return t("game.finished");
	const n = g.next || {};
	return n.action === "reveal" ? t("game.turn", { n: n.turn, total: g.turns }) : t("game.turn", { n: g.turn.number, total: g.turns });
}

/** The strip under the header: the card and dice while the turn is open, who flips the next
 * card between turns, the winners at the end. */
function erNow(store) {
	return mount(store, h("section", { class: "dsp-now", "aria-labelledby": "dsp-now-h" }), (S) => S.game && S.data && [S.lang, S.game.version, S.coach], (v) => {
		if (!v) return [];
		const { game: g, data } = store.get();
		const n = g.next || {};
		if (g.status === "finished") {
			const top = g.seats.filter((s) => s.rank === 1);
			return [h("h2", { id: "dsp-now-h", class: "dsp-winner" }, winnerLine(top.map((s) => s.name), top[0].score.total)), coachPicker(store)];
		}
		if (n.action === "reveal" || !g.turn) return [h("h2", { id: "dsp-now-h", class: "dsp-flip" }, t("dsp.flip", { name: seatName(g, n.chief_seat) }))];
		const tr = g.turn;
		const card = data.cards.find((c) => c.id === tr.card);
		const waiting = g.seats.filter((s) => !tr.moved.includes(s.seat)).map((s) => s.name);
		return [
			h("h2", { id: "dsp-now-h", class: "sr-only" }, t("game.card_title", { n: tr.card })),
			h("ul", { class: "dsp-card" }, COLOURS.map((c) => {
				const bay = card.bays[c];
				return h("li", { class: `dsp-bay b-${c}${tr.chief_die === c ? " chief-die" : ""}`, "data-die": c },
					h("span", { class: `die c-${c}` }, tr.dice[c], sr(` — ${t("game.die_of", { colour: t(`colour.${c}`) })}`)),
					h("span", { class: "dsp-bonus" }, icon(bay.bonus, bay.bonus === "extra" ? `ink-${bay.colour}` : ""), h("span", {}, bonusText(bay))),
					tr.chief_die === c ? h("span", { class: "tag" }, t("game.chief_tag")) : null);
			})),
			h("p", { class: "dsp-waiting", id: "dsp-waiting" }, waiting.length ? t("dsp.waiting_for", { names: waiting.join(", ") }) : ""),
		];
	});
}

/** One player's sheet: name, Chief, moved, total; the board (built once, updated bed by bed);
 * under it the ledger as printed when three sheets or fewer share the screen, else in one line. */
function erSeat(store, seat, roomy) {
	const sel = (S) => S.game.seats.find((s) => s.seat === seat);
	const head = mount(store, h("h2", { class: "dsp-seat-h", id: `dsp-seat-h${seat}` }), (S) => {
		const g = S.game, s = sel(S), tr = g.turn;
		const open = g.status === "playing" && g.next && g.next.action === "move";
		return [S.lang, s.name, s.bot, s.score.total, open && tr.moved.includes(seat), open, erChief(g) === seat];
	}, ([, name, bot, total, moved, open, chief]) => [
		h("span", { class: "dsp-name" }, bot ? icon("robot") : null, name),
		chief ? h("span", { class: "tag" }, t("game.chief_tag")) : null,
		open ? h("span", { class: `dsp-moved${moved ? " ok" : ""}` }, moved ? `✓ ${t("game.moved")}` : t("game.waiting")) : null,
		h("strong", { class: "dsp-total", "data-total": total }, total, sr(t("game.score", { n: total }).slice(String(total).length))),
	]);
	const layout = store.get().data.sheet;
	const board = createBoard(layout, { onBed() {}, onScreen() {}, onUnlit() {} });
	// a picture to look at, not a control: no bed takes a tap or the focus
	const beds = [...board.el.querySelectorAll(".bed")];
	for (const b of beds) b.setAttribute("role", "img");
	board.el.setAttribute("aria-labelledby", `dsp-seat-h${seat}`);
	store.subscribe((S) => [S.lang, sel(S).sheet, sel(S).name], ([, sheet, name]) => {
		board.update({ sheet, interactive: false, label: t("game.sheet_of", { name }) });
		for (const b of beds) b.removeAttribute("tabindex");
	});
	if (roomy) {
		const ledger = createLedger(layout);
		store.subscribe((S) => [S.lang, sel(S).sheet, sel(S).score], ([, sheet, score]) => ledger.update(sheet, score));
		return h("article", { class: "dsp-seat", "data-seat": seat, "aria-labelledby": `dsp-seat-h${seat}` }, head,
			h("div", { class: "dsp-board" }, board.el), h("div", { class: "dsp-ledger" }, ledger.el));
	}
	const stats = mount(store, h("p", { class: "dsp-stats" }), (S) => [S.lang, sel(S).sheet], ([, sh]) => {
		const nurses = sh.nurse_track ? layout.nurse_track[sh.nurse_track - 1] : 0;
		const steth = sh.stethoscopes.circled - sh.stethoscopes.used, blood = sh.blood_bags.circled - sh.blood_bags.used;
		return [
			h("span", { "aria-hidden": "true" }, icon("stethoscopes"), steth, icon("blood_bag"), blood, h("span", { class: "dsp-skull" }, "✝"), sh.morgue, icon("nurse"), nurses),
			sr(t("dsp.stats", { steth, blood, morgue: sh.morgue, nurses })),
		];
	});
	return h("article", { class: "dsp-seat", "data-seat": seat, "aria-labelledby": `dsp-seat-h${seat}` }, head, h("div", { class: "dsp-board" }, board.el), stats);
}

function erScores(store) {
	return mount(store, h("section", { class: "dsp-panel dsp-scores", "aria-labelledby": "dsp-scores-h" }), (S) => S.game && [
		S.lang, S.game.status, S.game.seats.map((s) => [s.name, s.score.total, s.rank]),
	], (v) => {
		if (!v) return [];
		const g = store.get().game;
		const done = g.status === "finished";
		const seats = done ? [...g.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat) : ranked(g.seats, (s) => s.score.total);
		return [h("h2", { id: "dsp-scores-h" }, done ? t("game.ranking") : t("dsp.scores")),
			h("ol", { class: "dsp-rank" }, seats.map((s, i) => h("li", { class: done && s.rank === 1 ? "winner" : "", "data-seat": s.seat },
				h("span", { class: "dsp-pos" }, done ? s.rank : i + 1), h("span", { class: "dsp-name" }, s.name),
				h("strong", { "data-total": s.score.total }, s.score.total))))];
	});
}

/** The Cardiologist race: each card's goal, what it is worth now, who has reached it. */
function erRace(store) {
	return mount(store, h("section", { class: "dsp-panel dsp-race", "aria-labelledby": "dsp-race-h" }), (S) => S.game && S.data && [
		S.lang, S.game.specialists.cardiologists, S.game.seats.map((s) => s.sheet.cardiologists),
	], (v) => {
		if (!v) return [];
		const g = store.get().game;
		return [h("h2", { id: "dsp-race-h" }, t("dsp.race")),
			h("ol", { class: "dsp-cardios" }, g.specialists.cardiologists.map((c, k) => {
				const done = g.seats.filter((s) => s.sheet.cardiologists[k] > 0);
				return h("li", { "data-cardio": k + 1 },
					h("p", { class: "dsp-goal" }, D.specName(store.get(), c.id)),
					h("p", {}, h("span", { class: `dsp-offer${c.offer > 0 ? "" : " gone"}` }, c.offer > 0 ? t("dsp.race_offer", { n: c.offer }) : t("dsp.race_discarded")), " · ",
						h("span", { class: "dsp-took" }, done.length ? done.map((s) => `✓ ${s.name} ${t("game.score", { n: s.sheet.cardiologists[k] })}`).join(" · ") : t("dsp.race_nobody"))));
			}))];
	});
}

// ---- ER, the end: the coach of each human seat (coach.js), one at a time ----

/** The finished game's choice: the ranking (every sheet) or one human seat's coach; a button
 * each for up to three players, else a list to choose from (the strip keeps one line). */
function coachPicker(store) {
	const { game: g, coach } = store.get();
	const humans = g.seats.filter((s) => !s.bot);
	if (humans.length > 3)
		return h("label", { class: "dsp-picks dsp-pick-list" }, t("coach.pick"), h("select", { id: "dsp-coach-pick", class: "dsp-pick", onchange: (e) => store.set({ coach: Number(e.target.value) || null }) },
			h("option", { value: "", selected: !coach }, t("coach.ranking")),
			humans.map((s) => h("option", { value: s.seat, selected: coach === s.seat }, s.name))));
	const button = (seat, words) => h("button", { type: "button", class: "secondary dsp-pick", "data-coach": seat || "ranking", "aria-pressed": String((coach || null) === seat), onclick: () => store.set({ coach: seat }) }, words);
	return h("nav", { class: "dsp-picks", "aria-label": t("coach.pick") }, button(null, t("coach.ranking")),
		humans.map((s) => button(s.seat, t("coach.pick_of", { name: s.name }))));
}

/** The coach of the seat picked: asked once per seat (the server keeps it), drawn big. */
function erCoach(store, ctx) {
	const box = h("section", { class: "dsp-panel dsp-coach", id: "dsp-coach", hidden: true, "aria-labelledby": "dsp-coach-h" });
	const want = (seat) => {
		const { analyses } = store.get();
		if (analyses[seat]) return;
		store.set({ analyses: { ...analyses, [seat]: { busy: true } } });
		ctx.coach.fetchAnalysis(ctx.id, seat, ctx.token)
			.then((a) => ({ a }), (e) => ({ err: e }))
			.then((r) => store.set({ analyses: { ...store.get().analyses, [seat]: r } }));
	};
	store.subscribe((S) => S.game && S.data && S.game.status === "finished" && S.coach && [S.lang, S.coach, S.analyses[S.coach]], (v) => {
		box.hidden = !v;
		if (!v) return box.replaceChildren();
		const [, seat, got] = v;
		if (!got) return want(seat);
		const { game: g, data } = store.get();
		const name = (g.seats.find((s) => s.seat === seat) || { name: "?" }).name;
		const head = h("h2", { id: "dsp-coach-h" }, t("coach.title"), " — ", name);
		box.setAttribute("aria-busy", String(!!got.busy));
		if (got.busy) return box.replaceChildren(head, h("p", { class: "coach-busy", role: "status" }, h("span", { class: "coach-spinner", "aria-hidden": "true" }), t("coach.busy")));
		if (got.err) return box.replaceChildren(head, errorBox(errorOf(got.err), { id: "dsp-coach-error" }));
		box.replaceChildren(head, ctx.coach.coachPanel({ data, a: got.a, name, key: `tv${seat}`, seat, big: true, pdf: null }));
	});
	return box;
}

function erMain(store, ctx) {
	const sheets = h("section", { class: "dsp-sheets", "aria-label": t("game.players") });
	// the seats of a game are fixed: their sheets are made once, when the game first arrives
	store.subscribe((S) => S.game && S.data && S.game.seats.length, (n) => {
		if (!n || sheets.firstChild) return;
		sheets.dataset.n = n;
		sheets.replaceChildren(...store.get().game.seats.map((s) => erSeat(store, s.seat, n <= 3)));
		store.flush();
	});
	store.subscribe((S) => S.lang, () => sheets.setAttribute("aria-label", t("game.players")));
	const side = h("aside", { class: "dsp-side" }, erScores(store), erRace(store));
	// a coach picked hides the sheets and the side panels; the ranking shows them again
	store.subscribe((S) => !!S.coach && !!S.game && S.game.status === "finished", (on) => {
		sheets.hidden = on;
		side.hidden = on;
	});
	return [erNow(store), sheets, side, erCoach(store, ctx)];
}

// ---- Dice Hospital and Clinic ----

/** The popularity a Clinic seat has now: after its last entered round (else where it starts). */
function popularity(s) {
	const entered = s.rounds.filter((r) => r.entered);
	return (entered.length ? entered[entered.length - 1] : s.rounds[0]).popularity_after;
}

function ttStatus(g) {
	if (g.status === "finished") return t("game.finished");
	if (g.next.action === "finish") return t("dsp.end_of_game");
	return t("tt.round_of", { n: g.next.round, total: g.rounds });
}

/** The scoreboard: a row per seat, a column per round, the end and the total. */
function ttBoard(store) {
	return mount(store, h("section", { class: "dsp-panel dsp-board-tt", "aria-labelledby": "dsp-board-h" }), (S) => S.game && [S.lang, S.game.version], (v) => {
		if (!v) return [];
		const g = store.get().game;
		const now = g.status === "playing" && g.next.action === "round" ? g.next.round : null;
		const waiting = new Set(g.next.seats || []);
		const rounds = Array.from({ length: g.rounds }, (_, i) => i + 1);
		const cell = (s, r) => {
			const x = s.rounds[r - 1];
			if (x && x.entered) return h("td", { class: r === now ? "now" : "", "data-round": r }, x.points);
			return h("td", { class: `${r === now ? "now " : ""}empty`, "data-round": r }, r === now && waiting.has(s.seat) ? h("span", { "aria-hidden": "true" }, "…") : "", r === now ? sr(t("dsp.to_enter")) : "");
		};
		return [h("h2", { id: "dsp-board-h" }, t("dsp.scores")),
			h("table", { class: "dsp-table" },
				h("thead", {}, h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("game.players"))),
					rounds.map((r) => h("th", { scope: "col", class: r === now ? "now" : "" }, h("abbr", { title: t("tt.round_short", { n: r }) }, t("dsp.round_col", { n: r })))),
					h("th", { scope: "col" }, t("tt.end")), h("th", { scope: "col" }, t("dsp.total")))),
				h("tbody", {}, g.seats.map((s) => h("tr", { "data-seat": s.seat },
					h("th", { scope: "row" }, s.name), rounds.map((r) => cell(s, r)),
					h("td", { class: g.status === "finished" ? "" : "empty" }, g.status === "finished" ? s.score.end ?? "" : ""),
					h("td", { class: "total", "data-total": s.score.total }, s.score.total)))))];
	});
}

/** Standings while playing (by total), the final ranking with its tie-breaks at the end; who
 * still has to enter the round; Clinic's turn order. */
function ttSide(store, isDh) {
	return mount(store, h("section", { class: "dsp-panel dsp-scores", "aria-labelledby": "dsp-scores-h" }), (S) => S.game && [S.lang, S.game.version], (v) => {
		if (!v) return [];
		const g = store.get().game;
		const done = g.status === "finished";
		const rows = done ? g.standings.map((s) => ({ seat: s.seat, name: s.name, total: s.total, rank: s.rank, tie: s.tie_break, title: s.title }))
			: ranked(g.seats, (s) => s.score.total).map((s, i) => ({ seat: s.seat, name: s.name, total: s.score.total, rank: i + 1 }));
		const waiting = !done && g.next.action === "round" ? (g.next.seats || []).map((n) => seatName(g, n)) : [];
		const order = !isDh && !done && g.turn_orders ? g.turn_orders[Math.min(g.rounds_complete, g.rounds)] || g.turn_orders[0] : null;
		const top = rows.filter((s) => s.rank === 1);
		return [done ? h("p", { class: "dsp-winner", id: "dsp-winner" }, winnerLine(top.map((s) => s.name), top[0].total)) : null,
			h("h2", { id: "dsp-scores-h" }, done ? t("tt.ranking") : t("dsp.standings")),
			h("ol", { class: "dsp-rank" }, rows.map((s) => h("li", { class: done && s.rank === 1 ? "winner" : "", "data-seat": s.seat, "data-rank": s.rank },
				h("span", { class: "dsp-pos" }, s.rank), h("span", { class: "dsp-name" }, s.name, s.title ? h("span", { class: "tag" }, s.title) : null),
				h("strong", { "data-total": s.total }, s.total),
				s.tie ? h("span", { class: "dsp-tie" }, t(`tt.tie.${s.tie}`)) : null))),
			waiting.length ? h("p", { class: "dsp-waiting", id: "dsp-waiting" }, t("dsp.waiting_for", { names: waiting.join(", ") })) : null,
			order ? h("p", { class: "dsp-order", id: "dsp-order" }, t("tt.turn_order_next", { order: order.order.map((n) => seatName(g, n)).join(" → ") })) : null];
	});
}

/** Clinic's popularity track: a row of spaces per seat, filled up to its popularity. */
function ttPopularity(store) {
	return mount(store, h("section", { class: "dsp-panel dsp-pop", "aria-labelledby": "dsp-pop-h" }), (S) => S.game && [S.lang, S.game.seats.map((s) => [s.name, popularity(s)])], (v) => {
		if (!v) return [];
		const rows = v[1];
		const top = Math.max(10, ...rows.map((r) => r[1]));
		return [h("h2", { id: "dsp-pop-h" }, t("dsp.popularity")),
			h("ul", { class: "dsp-track" }, rows.map(([name, p], i) => h("li", { "data-seat": i + 1, "data-popularity": p },
				h("span", { class: "dsp-name" }, name),
				h("span", { class: "dsp-spaces", "aria-hidden": "true" }, Array.from({ length: top }, (_, k) => h("span", { class: k < p ? "on" : "" }))),
				h("strong", {}, p))))];
	});
}

function ttMain(store, isDh) {
	return [h("div", { class: "dsp-left" }, ttBoard(store), isDh ? null : ttPopularity(store)), h("aside", { class: "dsp-side" }, ttSide(store, isDh))];
}

// ---- the page ----

function open(root, { kind, id, token }) {
	const store = createStore({ lang: lang(), game: null, data: null, live: "connecting", lost: null, coach: null, analyses: {} });
	const { get, set } = store;
	let es = null, reopen = null;

	function lose(e) {
		set({ lost: e.rule === "display-replaced" ? "replaced" : "gone" });
		if (es) es.close();
		clearTimeout(reopen);
	}

	// One read at a time; an event that arrives meanwhile asks for one more, so the state shown is
	// never older than the last event.
	let reading = null, again = false;
	async function refresh() {
		if (reading) return void (again = true);
		reading = true;
		do {
			again = false;
			try {
				const g = await api.request("GET", `/${kind}/games/${encodeURIComponent(id)}`, undefined, token);
				if (!get().game || g.version !== get().game.version) set({ game: g });
			} catch (e) {
				if (e instanceof api.ApiError && (e.status === 401 || e.status === 404)) lose(e);
			}
		} while (again && !get().lost);
		reading = null;
	}

	function listen() {
		const g = get().game;
		const after = g ? `&last_event_id=${g.version}` : "";
		es = new EventSource(`/api/v1/${kind}/games/${encodeURIComponent(id)}/events?token=${encodeURIComponent(token)}${after}`);
		for (const k of EVENTS) es.addEventListener(k, () => refresh());
		es.onopen = () => set({ live: "live" });
		es.onerror = () => {
			set({ live: "lost" });
			// the browser reconnects by itself (Last-Event-ID) unless the server refused the
			// stream; then read the state (which says why) and open a new one a little later
			if (es.readyState === EventSource.CLOSED && !get().lost) {
				refresh();
				clearTimeout(reopen);
				reopen = setTimeout(() => !get().lost && listen(), REOPEN_MS);
			}
		};
	}

	const title = () => (kind === "er" ? t("app.title") : t(`tt.${kind}`));
	const h1 = mount(store, h("h1", { id: "dsp-h1" }), (S) => S.game && [S.lang, S.game.version], (v) => {
		if (!v) return [];
		const g = get().game;
		return [h("span", { class: "dsp-game" }, title()), " ", h("span", { class: "dsp-line" }, kind === "er" ? erTurnLine(g) : ttStatus(g))];
	});
	const status = mount(store, h("p", { class: "dsp-status", id: "dsp-status" }), (S) => S.game && [S.lang, S.game.version], (v) => (v && kind === "er" ? erStatus(get().game) : ""));
	const conn = mount(store, h("span", { class: "conn", id: "conn", role: "status" }), (S) => [S.lang, S.live], ([, live]) => {
		const c = live === "live" ? "live" : "lost";
		return [icon(c === "live" ? "wifi" : "wifi_off"), h("span", { "data-conn": c }, t(`conn.${c}`))];
	});
	const head = h("header", { class: "dsp-head" }, h1, status, h("div", { class: "dsp-tools" }, conn, themeButton(store)));
	const main = h("main", { class: `dsp-main dsp-${kind}`, id: "dsp-main" });
	const lostBox = mount(store, h("div", {}), (S) => [S.lang, S.lost], ([, lost]) => (lost ? h("main", { class: "dsp-panel dsp-lost", id: "dsp-lost", "data-lost": lost },
		h("div", { role: "alert" }, h("h1", {}, t(lost === "replaced" ? "rule.display-replaced" : "dsp.gone")))) : []));
	store.subscribe((S) => !!S.game && !S.lost, (on) => {
		head.hidden = !on;
		main.hidden = !on;
	});
	document.title = `${title()} — ${t("dsp.page")}`;
	root.replaceChildren(lostBox, head, main);

	// a screen switched on before the server answers tries again until it does
	let coach = null; // coach.js, with its strings and style (an ER game's end)
	async function boot() {
		try {
			if (kind === "er" && !get().data) set({ data: await api.gameData() });
			if (kind === "er" && !coach) {
				coach = await import("./coach.js");
				await coach.coachReady();
			}
		} catch {
			set({ live: "lost" });
			return void (reopen = setTimeout(boot, REOPEN_MS));
		}
		main.replaceChildren(...(kind === "er" ? erMain(store, { id, token, coach }) : ttMain(store, kind === "dh")));
		await refresh();
		if (!get().lost) listen();
	}
	boot();
	document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && !get().lost && refresh());
	return store;
}

/** Keeps a tablet's screen on while the page is shown (where the browser allows it). */
function stayAwake() {
	const ask = () => navigator.wakeLock && document.visibilityState === "visible" && navigator.wakeLock.request("screen").catch(() => {});
	document.addEventListener("visibilitychange", ask);
	ask();
}

async function start() {
	const root = document.getElementById("dsp");
	applyTheme();
	await setLang(preferredLang(), false);
	const tg = target();
	await Promise.all([addStrings("display"), tg && tg.kind !== "er" ? addStrings("tabletop") : null]);
	if (!tg) {
		document.title = t("dsp.page");
		root.replaceChildren(h("main", { class: "dsp-panel dsp-lost", id: "dsp-lost", "data-lost": "none" }, h("h1", {}, t("dsp.page")), h("p", {}, t("dsp.no_token"))));
		return;
	}
	const store = open(root, tg);
	stayAwake();
	window.addEventListener("hashchange", () => location.reload());
	return store;
}

start();
