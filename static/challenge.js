// A league challenge's board (challenge.html; static/README.md "Challenges"): one ER draw every
// member plays once. #league=L&id=C for a member (the session's cookie), #code=X for a guest
// with the link. Play (or continue on this phone) opens the game in the ER screens; the
// ranking follows the finished games while the challenge is open (the board is read again every
// few seconds and when the page comes back into view); once closed, every sheet and the coach's
// best sheet for the draw. The league page's strings (i18n/leagues.{en,fr}.json).
import { request, saveGame, savedGames, join } from "./api.js";
import { h } from "./dom.js";
import { initTheme } from "./theme.js";
import { when } from "./challenges.js";
import { t, has, lang, keepLang, loadLang } from "./leagues-i18n.js";

const GUEST_STORE = "dh.challenge.guest"; // challenge code → the guest's game id on this phone
const POLL_MS = 5000;
const app = document.getElementById("app");
let timer = null;
let shown = null; // the board shown (JSON text): a poll that brings the same redraws nothing

const api = (method, path, body) => request(method, path, body, undefined, { network: t("error.network") });
const params = () => new URLSearchParams(location.hash.replace(/^#/, ""));
const fmt = (x) => new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(Number(x));

function errorBox(e) {
	const text = e.status === 0 ? t("error.network") : e.rule && has(`rule.${e.rule}`) ? t(`rule.${e.rule}`) : e.message;
	return h("p", { class: "error", role: "alert", "data-rule": e.rule || null }, text);
}

function where() {
	const p = params();
	if (p.get("code")) return { code: p.get("code"), path: `/challenges/${encodeURIComponent(p.get("code"))}` };
	const lid = p.get("league"), id = p.get("id");
	return lid && id ? { lid, id, path: `/leagues/${encodeURIComponent(lid)}/challenges/${encodeURIComponent(id)}` } : null;
}

/** Opens game g (a create reply of the challenge) in the ER screens, kept on this phone. */
function openGame(g, label) {
	const seat = g.seats[0];
	saveGame(g.id, { token: seat.seat_token, seat: seat.seat, code: g.code, label, back: `challenge.html${location.hash}` });
	location.href = `index.html#game=${encodeURIComponent(g.id)}`;
}

/** The action of this phone: play, continue, or what stands in the way. */
function actions(b, w) {
	const out = h("div", { class: "ch-act", "data-testid": "challenge-action" });
	const mine = b.you ? b.you.game : w.code ? localStorage.getItem(`${GUEST_STORE}.${w.code}`) : null;
	if (mine && savedGames()[mine]) {
		out.append(h("a", { class: "button primary wide", href: `index.html#game=${encodeURIComponent(mine)}`, "data-testid": "challenge-continue" }, t(b.status === "closed" || (b.you && b.you.status === "finished") ? "challenge.see_game" : "challenge.continue")));
		return out;
	}
	if (b.you) {
		// started on another phone (or its reply was lost): take the seat on this one
		const btn = h("button", { type: "button", class: "wide" }, t("challenge.continue_here"));
		btn.addEventListener("click", async () => {
			try {
				const r = await join(b.you.code, b.you.seat, true);
				saveGame(r.game, { token: r.seat_token, seat: r.seat, code: b.you.code, label: b.name, back: `challenge.html${location.hash}` });
				location.href = `index.html#game=${encodeURIComponent(r.game)}`;
			} catch (e) {
				out.append(errorBox(e));
			}
		});
		out.append(btn);
		return out;
	}
	if (b.status !== "open") return null;
	const msg = h("div");
	if (w.code) {
		const name = h("input", { type: "text", name: "name", required: true, maxlength: 64, autocomplete: "nickname" });
		const f = h("form", { class: "ch-guest" }, msg, h("label", { class: "field" }, h("span", {}, t("challenge.guest_name")), name), h("button", { class: "primary wide", type: "submit" }, t("challenge.play")));
		f.addEventListener("submit", async (ev) => {
			ev.preventDefault();
			msg.replaceChildren();
			try {
				const g = await api("POST", `${w.path}/games`, { name: name.value });
				localStorage.setItem(`${GUEST_STORE}.${w.code}`, g.id);
				openGame(g, b.name);
			} catch (e) {
				msg.replaceChildren(errorBox(e));
			}
		});
		out.append(h("p", { class: "muted" }, t("challenge.guest_hint", { league: b.league_name })), f);
		return out;
	}
	const btn = h("button", { type: "button", class: "primary wide", "data-testid": "challenge-play" }, t("challenge.play"));
	btn.addEventListener("click", async () => {
		btn.disabled = true;
		msg.replaceChildren();
		try {
			openGame(await api("POST", `${w.path}/games`), b.name);
		} catch (e) {
			msg.replaceChildren(errorBox(e));
			btn.disabled = false;
		}
	});
	out.append(msg, h("p", { class: "muted" }, t("challenge.once")), btn);
	return out;
}

/** A sheet in words: each ward's patients in bed order ("!" critical, "□" screened). */
function sheetView(sheet) {
	return h(
		"table",
		{ class: "ch-table ch-sheet" },
		h("tbody", {}, sheet.wards.map((w, i) => h("tr", {}, h("th", { scope: "row" }, t("challenge.ward", { n: i + 1 })), h("td", { class: "lg-text" }, w.length ? w.map((p) => `${p.value}${p.critical ? "!" : ""}${p.screen ? "□" : ""}`).join(" ") : "–")))),
	);
}

function breakdownView(bd) {
	return h("table", { class: "ch-table" }, h("tbody", {}, Object.entries(bd).map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, t(`challenge.points.${k}`)), h("td", {}, fmt(v))))));
}

function standingsView(b) {
	if (!b.standings.length) return h("p", { class: "muted" }, t("challenge.nobody"));
	return h(
		"ol",
		{ class: "lg-list ch-board", "data-testid": "challenge-board" },
		b.standings.map((e) => {
			const head = h(
				"div",
				{ class: "ch-row" },
				h("span", { class: "lg-pos" }, e.rank ?? "·"),
				h("span", { class: "ch-name" }, e.name),
				h("span", { class: "ch-score", "data-testid": "challenge-score" }, e.status === "finished" ? fmt(e.score) : t(e.status === "unfinished" ? "challenge.unfinished" : "challenge.playing")),
			);
			if (!e.sheet) return h("li", { class: "lg-card", "data-member": e.member }, head);
			return h("li", { class: "lg-card", "data-member": e.member }, head, h("details", { class: "lg-more" }, h("summary", {}, t("challenge.sheet")), sheetView(e.sheet), e.breakdown ? breakdownView(e.breakdown) : null));
		}),
	);
}

/** The coach's best sheet for the draw: fetched from the analysis of the top finisher's game. */
function bestView(b) {
	const box = h("section", { class: "panel", "data-testid": "challenge-best" }, h("h2", {}, t("challenge.best")));
	const status = h("p", { class: "muted" }, t("challenge.best_wait"));
	box.append(status);
	const load = async () => {
		const r = await fetch(b.best.analysis_url, { headers: { Authorization: `Bearer ${b.best.token}`, Accept: "application/json" } });
		if (r.status === 202) return setTimeout(load, 1000 * (Number(r.headers.get("Retry-After")) || 2));
		if (!r.ok) return status.replaceChildren(t("challenge.best_none"));
		const a = await r.json();
		status.replaceChildren(t("challenge.best_total", { best: fmt(a.best.total), player: fmt(a.player.total) }));
		box.append(sheetView(a.best.sheet));
	};
	load().catch(() => status.replaceChildren(t("challenge.best_none")));
	return box;
}

function shareView(b) {
	const url = `${location.origin}${location.pathname}#code=${encodeURIComponent(b.code)}`;
	const input = h("input", { type: "text", readonly: true, value: url, "aria-label": t("challenge.share"), "data-testid": "challenge-link" });
	const copy = h("button", { type: "button" }, t("challenge.copy"));
	copy.addEventListener("click", () => navigator.clipboard?.writeText(url).then(() => (copy.textContent = t("challenge.copied"))));
	return h("details", { class: "lg-more" }, h("summary", {}, t("challenge.share")), h("p", { class: "muted" }, t("challenge.share_hint")), input, h("div", { class: "lg-actions" }, copy));
}

function closeView(b, w, owner) {
	if (!owner || b.status === "closed") return null;
	const msg = h("div");
	const btn = h("button", { type: "button", class: "wide lg-danger", "data-testid": "challenge-close" }, t("challenge.close"));
	const box = h("div", {}, msg, btn);
	btn.addEventListener("click", () => {
		const yes = h("button", { type: "button", class: "lg-danger-solid", "data-testid": "challenge-close-yes" }, t("challenge.close"));
		const no = h("button", { type: "button" }, t("action.cancel"));
		no.addEventListener("click", () => box.replaceChildren(msg, btn));
		yes.addEventListener("click", async () => {
			yes.disabled = true;
			try {
				await api("POST", `${w.path}/close`);
				refresh(true);
			} catch (e) {
				msg.replaceChildren(errorBox(e));
				yes.disabled = false;
			}
		});
		box.replaceChildren(msg, h("div", { class: "lg-confirm", role: "group", "aria-label": t("challenge.close") }, h("p", {}, t("challenge.close_confirm")), h("div", { class: "lg-actions" }, yes, no)));
		yes.focus();
	});
	return box;
}

function draw(b, w, owner) {
	const mode = b.solo ? t("challenge.mode.alicat") + (b.alicat_modifiers?.length ? ` (${b.alicat_modifiers.map((m) => t(`challenge.modifier.${m}`)).join(", ")})` : "") : t("challenge.mode.plain");
	const time = b.status === "upcoming" ? t("challenge.opens_at", { when: when(b.opens, lang()) }) : b.status === "closed" ? t("challenge.closed_at", { when: when(b.closed_at, lang()) }) : t("challenge.closes_at", { when: when(b.closes, lang()) });
	const parts = [
		h(
			"section",
			{ class: "panel" },
			h("h1", {}, b.name),
			h("p", { class: "muted" }, b.league_name, " · ", mode),
			h("p", {}, h("span", { class: `ch-status ch-${b.status}`, "data-testid": "challenge-status" }, t(`challenge.status.${b.status}`)), " ", time),
			actions(b, w),
		),
		h("section", { class: "panel" }, h("h2", {}, t("challenge.ranking")), h("p", { class: "muted" }, b.status === "closed" ? t("challenge.final") : t("challenge.live")), standingsView(b)),
		b.status === "closed" && b.play && w.lid ? h("p", {}, h("a", { class: "button wide", href: `leagues.html#play=${encodeURIComponent(w.lid)}/${encodeURIComponent(b.play)}`, "data-testid": "challenge-play-link" }, t("challenge.league_play"))) : null,
		b.status === "closed" && b.seed ? h("p", { class: "muted" }, t("challenge.seed", { seed: b.seed })) : null,
		b.best ? bestView(b) : null,
		b.code && b.status !== "closed" ? h("section", { class: "panel" }, shareView(b), closeView(b, w, owner)) : null,
		w.lid ? h("a", { class: "button wide", href: `leagues.html#league=${encodeURIComponent(w.lid)}` }, t("back")) : null,
	];
	app.replaceChildren(...parts.filter((x) => x));
}

let owner = false;
async function refresh(force = false) {
	const w = where();
	if (!w) return app.replaceChildren(h("p", { class: "error", role: "alert" }, t("challenge.no_link")));
	try {
		const b = await api("GET", w.path);
		const text = JSON.stringify(b);
		if (force || text !== shown) draw(b, w, owner);
		shown = text;
		clearTimeout(timer);
		if (b.status !== "closed") timer = setTimeout(() => document.visibilityState === "visible" && refresh(), POLL_MS);
	} catch (e) {
		if (e.status === 401 && w.lid) location.href = "leagues.html";
		else app.replaceChildren(errorBox(e));
	}
}

async function start() {
	const w = where();
	if (w && w.lid) {
		try {
			owner = (await api("GET", `/leagues/${encodeURIComponent(w.lid)}`)).you.owner;
		} catch {
			owner = false;
		}
	}
	await refresh(true);
}

const sel = document.getElementById("lang");
sel.value = lang();
sel.addEventListener("change", async () => {
	keepLang(sel.value);
	await loadLang(sel.value);
	applyTheme();
	refresh(true);
});
addEventListener("hashchange", () => refresh(true));
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && refresh());
await loadLang(lang());
const applyTheme = initTheme(document.getElementById("theme"), t);
await start();
