// A spreadsheet's columns before it is imported (the league's Files panel, leagues-files.js): the
// server reads the file and proposes what each column holds (POST …/import/preview?format=csv);
// this shows that mapping as one choice per column, the date order and a game for every play
// when they are needed, and the first plays as they would be stored; each change asks the
// server again. "Import" hands the mapping back as the import's query.

/** The roles a column can take, as the API writes them ("" leaves it out). */
const PLAY_ROLES = ["", "play", "date", "time", "game", "bgg_id", "duration", "cooperative", "location", "notes", "winner_name", "ignored", "incomplete"];
const SEAT_ROLES = ["player", "score", "rank", "winner", "unrated", "team"];

/** The import's query for a mapping: columns, dates, game. */
export function mappingQuery(m) {
	const q = new URLSearchParams({ columns: m.columns.join(",") });
	if (m.dates) q.set("dates", m.dates);
	if (m.game) q.set("game", m.game);
	return q.toString();
}

/**
 * The mapping screen for file (a File) in the league lid. deps: { h, t, tn, api, errorBox, ApiError }
 * from leagues-files.js; onImport(mapping) when the owner imports; onCancel() when they do not.
 * Resolves to the element once the first preview has arrived (rejects with its ApiError).
 */
export async function csvMappingView(file, lid, deps, onImport, onCancel) {
	const { h, t, tn, api, errorBox } = deps;
	const preview = (m) => api("POST", `/leagues/${encodeURIComponent(lid)}/import/preview?format=csv${m ? `&${mappingQuery(m)}` : ""}`, file, "text/csv");
	let p = await preview(null);
	const box = h("section", { class: "lg-result lg-csv", id: "lg-csv-mapping", tabindex: "-1", "data-testid": "csv-mapping", "aria-labelledby": "lg-csv-title" });
	let seq = 0; // the newest preview asked for: an older answer arriving late is dropped

	const current = () => ({
		columns: [...box.querySelectorAll("select[data-col]")].map((s) => s.value),
		dates: box.querySelector("select[data-dates]")?.value || null,
		game: box.querySelector("input[data-game]")?.value.trim() || null,
	});
	const again = async () => {
		const n = ++seq;
		const m = current();
		box.setAttribute("aria-busy", "true");
		try {
			const next = await preview(m);
			if (n !== seq) return;
			p = next;
			draw(m);
		} catch (e) {
			if (n !== seq) return;
			box.querySelector(".lg-csv-preview").replaceChildren(errorBox(e));
		} finally {
			if (n === seq) box.removeAttribute("aria-busy");
		}
	};

	const roleLabel = (role) => {
		if (role === "") return t("csv.role.none");
		const [kind, seat] = role.split(":");
		return seat ? t(`csv.role.${kind}_n`, { n: seat }) : t(`csv.role.${kind}`);
	};
	const columnSelect = (name, c, role, seats) => {
		const roles = [...PLAY_ROLES, ...SEAT_ROLES];
		for (let s = 1; s <= seats; s++) for (const k of SEAT_ROLES) roles.push(`${k}:${s}`);
		const sel = h("select", { "data-col": c, id: `lg-csv-col-${c}` }, roles.map((r) => h("option", { value: r, selected: r === role }, roleLabel(r))));
		sel.addEventListener("change", again);
		return h("label", { class: "field lg-csv-col" }, h("span", {}, name || t("csv.unnamed", { n: c + 1 })), sel);
	};

	const playRow = (x) => {
		const players = x.players.map((s) => `${s.name}${s.score !== null ? ` ${s.score}` : s.score_text ? ` ${s.score_text}` : ""}${s.winner ? " ★" : ""}`).join(", ");
		// the date, and its time when the file gives one
		const when = x.date.slice(11, 19) === "00:00:00" ? x.date.slice(0, 10) : `${x.date.slice(0, 10)} ${x.date.slice(11, 16)}`;
		return h("tr", {}, h("td", {}, x.row), h("td", { class: "lg-text" }, when), h("td", { class: "lg-text" }, x.game), h("td", { class: "lg-text" }, players || "–"));
	};

	const draw = (m) => {
		const seatsUsed = Math.max(0, ...p.columns.map((r) => Number(r.split(":")[1] || 0)));
		const seats = Math.min(64, Math.max(4, seatsUsed + 1));
		const cols = h("div", { class: "lg-csv-cols" }, p.header.map((name, c) => columnSelect(name, c, p.columns[c] ?? "", seats)));
		const needDates = p.dates_ambiguous || p.dates || (m && m.dates);
		const dates = needDates
			? h(
					"label",
					{ class: "field" },
					h("span", {}, t("csv.dates")),
					h("select", { "data-dates": "" }, [
						h("option", { value: "", selected: !p.dates }, t("csv.dates.choose")),
						h("option", { value: "dmy", selected: p.dates === "dmy" }, t("csv.dates.dmy")),
						h("option", { value: "mdy", selected: p.dates === "mdy" }, t("csv.dates.mdy")),
					]),
				)
			: null;
		dates?.querySelector("select").addEventListener("change", again);
		const game = h("input", { type: "text", "data-game": "", maxlength: 256, value: p.game || "", autocomplete: "off" });
		game.addEventListener("change", again);
		const problem = p.problem ? errorBox(new deps.ApiError(400, p.problem)) : null;
		const counts = h("p", { "data-testid": "csv-counts" }, tn("csv.plays", p.plays), p.skipped ? ` · ${tn("csv.skipped", p.skipped)}` : "");
		const table = p.preview.length
			? h(
					"table",
					{ class: "lg-table", "data-testid": "csv-preview" },
					h("caption", { class: "muted" }, t("csv.first_plays")),
					h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("csv.row")), h("th", { scope: "col" }, t("csv.date")), h("th", { scope: "col" }, t("csv.game")), h("th", { scope: "col" }, t("csv.players")))),
					h("tbody", {}, p.preview.map(playRow)),
				)
			: null;
		const skipped = p.skipped_rows.length ? h("ul", { class: "lg-skips", "data-testid": "csv-skipped" }, p.skipped_rows.map((k) => h("li", {}, t("csv.row_n", { n: k.row }), " — ", t(`reason.${k.reason}`)))) : null;
		const go = h("button", { type: "button", class: "wide", disabled: !!p.problem || p.plays === 0, "data-testid": "csv-import" }, t("csv.import"));
		go.addEventListener("click", () => onImport(current()));
		const cancel = h("button", { type: "button", class: "wide secondary" }, t("csv.cancel"));
		cancel.addEventListener("click", onCancel);
		const parts = [
			h("h3", { id: "lg-csv-title" }, t("csv.title", { file: file.name })),
			h("p", { class: "muted" }, t("csv.explain")),
			cols,
			dates,
			h("label", { class: "field" }, h("span", {}, t("csv.game_all")), game),
			h("div", { class: "lg-csv-preview", "aria-live": "polite" }, problem, counts, table, skipped),
			go,
			cancel,
		];
		box.replaceChildren(...parts.filter((x) => x));
	};
	draw(null);
	return box;
}
