// The turn: header, card and dice, reveal panel, dock (static/README.md, "The ER screens").
import { h, icon, sr } from "./dom.js";
import { t } from "./i18n.js";
import { mount, errorBox } from "./view.js";
import { D, COLOURS } from "./derive.js";

const BONUSES = ["stethoscopes", "blood_bag", "screen", "critical", "nurse", "extra"];

/** A bay's bonus as words. */
export function bonusText(bay) {
	if (bay.bonus === "extra") return t("bonus.extra_of", { colour: t(`colour.${bay.colour}`), a: bay.values[0], b: bay.values[1] });
	return t(`bonus.${bay.bonus}`);
}

function bonusBadge(bay) {
	return h("span", { class: "bonus" },
		icon(bay.bonus, bay.bonus === "extra" ? `ink-${bay.colour}` : ""),
		h("span", { class: "bonus-label" }, bonusText(bay)));
}

function miniCard(card) {
	return h("span", { class: "mini-card", "aria-hidden": "true" }, COLOURS.map((c) => {
		const bay = card.bays[c];
		return h("span", { class: `mini-bay b-${c}` }, icon(bay.bonus, bay.bonus === "extra" ? `ink-${bay.colour}` : ""),
			bay.bonus === "extra" ? h("small", {}, bay.values.join("/")) : null);
	}));
}

export function turnViews({ store, A }) {
	const get = store.get;
	const live = (S) => [S.lang, S.live, S.online, S.queued.length];

	// ---- header ----
	const header = mount(store, h("section", { class: "turn-head" }), (S) => S.game && [
		...live(S), S.game.status, S.game.turn && S.game.turn.number, D.next(S).action, D.next(S).turn, D.chiefSeat(S), D.me(S), D.isHost(S), S.game.code,
	], (v) => {
		if (!v) return [];
		const S = get();
		const st = S.game;
		const tr = st.turn;
		const n = D.next(S);
		const line = st.status === "finished" ? t("game.finished")
			: tr && n.action !== "reveal" ? t("game.turn", { n: tr.number, total: st.turns })
			: t("game.no_turn", { n: n.turn || 1, total: st.turns });
		const chief = D.chiefSeat(S);
		const conn = !S.online ? "offline" : S.live === "live" ? "live" : "lost";
		return [
			h("div", { class: "turn-line" }, h("h1", { id: "turn-number" }, line), h("span", { class: "code" }, st.code), h("a", { href: `help/${S.lang}/er.html` }, t("help"))),
			chief ? h("div", { class: "chief-line", id: "chief" }, t("game.chief", { name: D.seatOf(S, chief).name })) : null,
			h("div", { class: "you-conn" },
				h("span", { class: "you-line" }, D.isHost(S) ? `${t("game.host")} · ` : "", t("game.you", { name: D.seatOf(S, D.me(S)).name })),
				h("span", { class: `conn ${conn}`, id: "conn", role: "status", "data-conn": conn },
					icon(conn === "live" ? "wifi" : "wifi_off"),
					h("span", {}, t(`conn.${conn}`), S.queued.length ? ` · ${t("conn.queued", { n: S.queued.length })}` : ""))),
			D.isHost(S) ? h("button", { type: "button", class: "secondary wide", id: "show-display", onclick: () => import("./bigscreen.js").then((m) => m.showBigScreen("er", S.id, S.token)) }, t("dsp.show")) : null,
		];
	});

	// ---- the host may play any human seat ----
	const hostSeat = mount(store, h("div", {}), (S) => S.game && D.isHost(S) && S.game.status !== "finished" && [S.lang, D.me(S), S.game.seats.map((s) => s.name)], (v) => {
		if (!v) return [];
		const S = get();
		const humans = S.game.seats.filter((s) => !s.bot);
		if (humans.length < 2) return [];
		return h("label", { class: "host-seat" }, h("span", {}, t("game.play_as")),
			h("select", { id: "play-as", onchange: (e) => A.playAs(Number(e.target.value)) },
				humans.map((s) => h("option", { value: s.seat, selected: s.seat === D.me(S) }, `${s.seat}: ${s.name}`))));
	});

	// ---- the card and dice of the turn ----
	const card = mount(store, h("div", {}), (S) => S.game && S.data && [
		S.lang, S.game.turn && { ...S.game.turn, moved: 0 }, D.next(S).action, S.game.status, S.draft && S.draft.die, D.canMove(S), D.me(S), D.bloodLeft(S), S.queued.length,
	], (v) => {
		if (!v) return [];
		const S = get();
		const tr = S.game.turn;
		if (!tr || D.next(S).action === "reveal" || S.game.status === "finished") return [];
		const c = D.card(S, tr.card);
		const moving = D.canMove(S);
		const mine = D.myTurn(S);
		return h("section", { class: "card", "aria-labelledby": "card-h" },
			h("h2", { id: "card-h", class: "sr-only" }, t("game.card_title", { n: tr.card })),
			COLOURS.map((col) => {
				const bay = c.bays[col];
				const isChiefDie = tr.chief_die === col;
				const closed = moving && D.chiefDieClosed(S, col);
				const chosen = S.draft && S.draft.die === col;
				return h("button", {
					type: "button", class: `bay b-${col}${chosen ? " chosen" : ""}${isChiefDie ? " chief-die" : ""}${closed ? " closed" : ""}`,
					"data-die": col, "aria-pressed": moving ? String(!!chosen) : null,
					"aria-disabled": moving && !closed ? null : "true", "aria-describedby": closed ? `why-${col}` : null,
					onclick: () => A.chooseDie(col),
				}, bonusBadge(bay), h("span", { class: `die c-${col}` }, tr.dice[col]),
				isChiefDie ? h("span", { class: "tag" }, t("game.chief_tag")) : null,
				closed ? h("span", { class: "why", id: `why-${col}` }, t("game.chief_die_closed")) : null,
				sr(` — ${t("game.die_of", { colour: t(`colour.${col}`) })}${isChiefDie ? `, ${mine.chief ? t("game.chief_die") : t("game.chief_die_cost")}` : ""}`));
			}));
	});

	// ---- the Chief Physician enters the flipped card and the dice ----
	const reveal = mount(store, h("div", {}), (S) => S.game && S.data && D.canReveal(S) && S.game.deck === "table" && [S.lang, S.reveal, S.usedCards, D.next(S).turn, S.queued.length], (v) => {
		if (!v) return [];
		const S = get();
		const r = S.reveal;
		const unused = S.data.cards.filter((c) => !S.usedCards.includes(c.id));
		const cards = unused.filter((c) => COLOURS.every((col) => !r.filter[col] || c.bays[col].bonus === r.filter[col]));
		const filters = h("div", { class: "filters" }, COLOURS.map((col) =>
			h("label", { class: `filter b-${col}` }, h("span", {}, t("game.bay", { colour: t(`colour.${col}`) })),
				h("select", { "data-filter": col, onchange: (e) => A.setReveal({ filter: { ...get().reveal.filter, [col]: e.target.value } }) },
					h("option", { value: "" }, t("bonus.any")),
					BONUSES.map((b) => h("option", { value: b, selected: r.filter[col] === b }, t(`bonus.${b}`)))))));
		const grid = h("div", { class: "card-grid", role: "radiogroup", "aria-label": t("game.pick_card_short") },
			cards.map((c) => h("button", {
				type: "button", class: `pick-card${r.card === c.id ? " chosen" : ""}`, "data-card": c.id, role: "radio",
				"aria-checked": String(r.card === c.id), onclick: () => A.setReveal({ card: c.id }),
			}, miniCard(c), sr(COLOURS.map((col) => `${t("game.bay", { colour: t(`colour.${col}`) })}: ${bonusText(c.bays[col])}`).join("; ")))));
		const dice = h("div", { class: "dice-entry" }, COLOURS.map((col) =>
			h("div", { class: "dice-row", role: "radiogroup", "aria-label": t("game.die_of", { colour: t(`colour.${col}`) }) },
				h("span", { class: `die c-${col}`, "aria-hidden": "true" }, r.dice[col] || "?"),
				[1, 2, 3, 4, 5, 6].map((val) => h("button", {
					type: "button", role: "radio", class: `pip c-${col}${r.dice[col] === val ? " chosen" : ""}`,
					"data-roll": col, "data-value": val, "aria-checked": String(r.dice[col] === val),
					onclick: () => A.setReveal({ dice: { ...get().reveal.dice, [col]: val } }),
				}, val, sr(` ${t(`colour.${col}`)}`))))));
		const hidden = S.data.cards.length - unused.length;
		return h("section", { class: "reveal-panel", "aria-labelledby": "reveal-h" },
			h("h2", { id: "reveal-h" }, t("game.reveal_title")),
			h("p", {}, t("game.pick_card")), filters,
			h("p", { class: "muted", id: "cards-shown" }, t("game.cards_shown", { n: cards.length }), hidden ? ` ${t("game.cards_used", { n: hidden })}` : ""),
			grid,
			h("h3", {}, t("game.dice_rolled")), dice);
	});

	// ---- the dock: what to do now, and the buttons to do it ----
	function statusText(S) {
		const st = S.game;
		if (st.status === "finished") return t("game.finished");
		if (D.waiting(S, "move")) return t("game.move_waits");
		if (D.waiting(S, "reveal")) return t("game.reveal_waits");
		const n = D.next(S);
		if (n.action === "reveal") {
			const chief = D.seatOf(S, n.chief_seat);
			if (st.solo && chief.bot) return t("game.alicat_reveal");
			return D.canReveal(S) ? t("game.your_reveal") : t("game.wait_reveal", { name: chief.name });
		}
		const tr = st.turn;
		if (D.canMove(S)) {
			const d = S.draft;
			if (!d) return tr.chief_seat === D.me(S) ? `${t("game.chief_first")} ${t("game.choose_die")}` : t("game.choose_die");
			const left = D.pending(d);
			if (!left.length) return t("game.ready") + (d.bay.bonus === "screen" && !D.screenStep(d) ? ` ${t("game.screen_hint")}` : "");
			const lit = D.litBeds(S);
			let s = d.current === "extra"
				? t("game.place_extra", { colour: t(`colour.${d.bay.colour}`), values: d.bay.values.join("/") })
				: t("game.place", { patient: t("game.patient_die"), colour: t(`colour.${d.die}`), value: tr.dice[d.die] });
			if (S.opts && (d.current === "die" || d.second || !d.done.die || d.done.die === "morgue") && !lit.size) s = t("game.no_bed");
			if (d.bay.bonus === "screen" && !D.screenStep(d)) s += ` ${t("game.screen_hint")}`;
			return s;
		}
		if (D.hasMoved(S)) {
			const waiting = st.seats.filter((s) => !tr.moved.includes(s.seat)).map((s) => s.name);
			return t("game.wait_others", { names: waiting.join(", ") });
		}
		return t("game.wait_chief", { name: D.seatOf(S, tr.chief_seat).name });
	}

	function picker(S) {
		const p = S.picker;
		const pos = D.draftSheet(S).wards[p.ward].length;
		const q = t("game.pick_value", { ward: p.ward + 1, bed: pos + 1 });
		return h("div", { class: "picker", role: "group", "aria-labelledby": "picker-q" },
			h("p", { id: "picker-q" }, q),
			h("div", { class: "values" }, p.list.map((o) => {
				const costs = [];
				if (o.stethoscopes) costs.push(t("count.steth", { n: o.stethoscopes }));
				if (o.recolour) costs.push(t("game.cost_recolour", { colour: t(`colour.${o.recolour}`) }));
				if (o.blood_bags) costs.push(t("count.blood", { n: o.blood_bags }));
				if (o.screen_first) costs.push(t("game.cost_screen", { ward: o.ward }));
				return h("button", { type: "button", class: "value", "data-value": o.value, onclick: () => A.place(o) },
					h("b", {}, o.value), h("small", {}, costs.length ? costs.join(" · ") : t("game.rolled")));
			})),
			h("button", { type: "button", class: "secondary", id: "cancel-picker", onclick: A.cancelPicker }, t("game.cancel")));
	}

	function discardChoice(S) {
		const st = S.game;
		if (!D.canMove(S) || !st.solo || !st.specialists.cardiologists.every((c) => c.offer > 0)) return null;
		// only when ALICAT's move can fill a ward this turn: a ward of its sheet one or two beds short
		// (two with an extra patient), or its move of this turn already made
		const bot = st.seats.find((s) => s.bot);
		const card = D.card(S, st.turn.card);
		const extra = COLOURS.some((c) => card.bays[c].bonus === "extra") ? 2 : 1;
		const near = S.data.sheet.wards.some((w, i) => {
			const left = w.beds.length - bot.sheet.wards[i].length;
			return left > 0 && left <= extra;
		});
		if (!near && !st.turn.moved.includes(bot.seat)) return null;
		return h("label", { class: "discard" }, h("span", {}, t("game.alicat_discard")),
			h("select", { id: "alicat-discard", onchange: (e) => A.setDiscard(e.target.value) },
				h("option", { value: "" }, t("game.alicat_discard_auto")),
				st.specialists.cardiologists.map((c, i) => h("option", { value: i + 1, selected: S.discard === String(i + 1) }, `${i + 1}: ${D.specName(S, c.id)}`))));
	}

	// not drawn again on another seat's move (a tap on it kept)
	const dock = mount(store, h("div", { class: "dock" }), (S) => S.game && S.data && !S.lost && [
		S.lang, S.err, S.msg, S.explain, S.picker, S.draft, S.preview, S.previewOff, S.busy, S.opts, S.hostReveal, S.discard, S.reveal.card, D.me(S), S.queued.length,
		statusText(S), D.canReveal(S), D.canMove(S), D.mayReveal(S), D.hasMoved(S), S.game.solo && S.game.version,
	], (v) => {
		if (!v) return [];
		const S = get();
		const st = S.game;
		const out = [];
		if (S.err) out.push(errorBox(S.err, { id: "error", "data-rule": S.err.rule }));
		if (S.explain) out.push(h("p", { class: "explain", id: "explain", role: "alert" }, t(S.explain.key, S.explain.vars)));
		out.push(h("p", { class: "status", role: "status", id: "status" }, S.msg ? `${t(S.msg[0], S.msg[1])} ` : "", statusText(S)));
		if (S.picker) {
			out.push(picker(S));
			return out;
		}
		const bar = h("div", { class: "actions" });
		const d = S.draft;
		if (st.status === "finished") {
			bar.append(h("a", { class: "button", href: "#" }, t("nav.home")));
		} else if (D.canReveal(S)) {
			const label = st.deck === "app" ? t("game.flip_roll") : t("game.reveal");
			bar.append(h("button", { type: "button", class: "primary", id: "reveal", disabled: S.busy, onclick: A.doReveal }, label));
		} else if (D.canMove(S) && d) {
			if (D.patientsOf(d).length > 1)
				out.push(h("div", { class: "segment", role: "group", "aria-label": t("game.which_patient") }, D.patientsOf(d).map((p) =>
					h("button", {
						type: "button", class: d.current === p ? "on" : "", "aria-pressed": String(d.current === p),
						disabled: !!d.done[p], "data-patient": p, onclick: () => A.setCurrent(p),
					}, p === "die" ? `${t("game.patient_die")} ${st.turn.dice[d.die]}` : `${t("game.patient_extra")} ${d.bay.values.join("/")}`))));
			if (d.current) bar.append(h("button", { type: "button", class: "secondary", id: "morgue", onclick: A.toMorgue }, t("game.morgue_btn")));
			// undo takes back the last patient placed (or screen); with nothing placed, the die
			if (d.steps.length) bar.append(h("button", { type: "button", class: "secondary", id: "undo-step", onclick: A.undoStep }, t("game.undo_step")));
			else bar.append(h("button", { type: "button", class: "secondary", id: "reset", onclick: A.resetDraft }, t("game.reset")));
			// offline, the move goes unchecked into the queue (the server checks it when it is sent)
			bar.append(h("button", { type: "button", class: "primary", id: "submit", disabled: S.busy || !!D.pending(d).length || !(S.preview || S.previewOff), onclick: A.submit }, t("game.submit")));
		} else if (D.mayReveal(S)) {
			bar.append(h("button", { type: "button", class: "secondary", id: "host-reveal", onclick: A.hostReveal },
				t("game.host_reveal", { name: D.seatOf(S, D.next(S).chief_seat).name })));
		} else if (D.hasMoved(S) && !st.solo) {
			bar.append(h("button", { type: "button", class: "secondary", id: "undo", disabled: S.busy, onclick: A.undo }, t("game.undo")));
		}
		const disc = discardChoice(S);
		if (disc) out.push(disc);
		if (bar.childNodes.length) out.push(bar);
		return out;
	});

	return { header, hostSeat, card, reveal, dock };
}
