// The league's Files panel (drawn by leagues.js): the exports, and for owners the import's drop
// zone (a file dropped or chosen, its format found, sent with XMLHttpRequest's progress; a
// spreadsheet mapped first, csvimport.js) and its result, kept on the league's screen until closed.
import { ApiError } from "./api.js";
import { h, s } from "./dom.js";
import { csvMappingView, mappingQuery } from "./csvimport.js";
import { t, tn, has, lang } from "./leagues-i18n.js";
import { BASE, api, enc, errorBox, helpLink, panel } from "./leagues-ui.js";

const IMPORT_MAX = 16 * 1024 * 1024;
const importResults = new Map(); // league id → {file, reply} or {file, error}: stays until closed

/** POSTs file (a Blob) with XMLHttpRequest, whose upload events give the progress:
 * onProgress(loaded, total) while it is sent, onSent() once it all is. */
function upload(path, file, contentType, onProgress, onSent) {
	return new Promise((resolve, reject) => {
		const xhr = new XMLHttpRequest();
		xhr.open("POST", BASE + path);
		xhr.setRequestHeader("Content-Type", contentType);
		xhr.setRequestHeader("Accept", "application/json");
		xhr.upload.addEventListener("progress", (e) => e.lengthComputable && onProgress(e.loaded, e.total));
		xhr.upload.addEventListener("load", onSent);
		xhr.addEventListener("load", () => {
			let data = null;
			try {
				data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
			} catch {
				data = { detail: xhr.responseText };
			}
			if (xhr.status >= 200 && xhr.status < 300) resolve(data);
			else reject(new ApiError(xhr.status, data || {}));
		});
		xhr.addEventListener("error", () => reject(new ApiError(0, { detail: t("error.network") })));
		xhr.send(file);
	});
}

/** The import's format from the file's name and first bytes. */
async function importFormat(file) {
	if (/\.(csv|tsv|txt)$/i.test(file.name) || file.type === "text/csv") return ["csv", "text/csv"];
	const head = await file.slice(0, 4096).text();
	if (/\.xml$/i.test(file.name) || head.trimStart().startsWith("<")) return ["bggxml", "application/xml"];
	return [/"format"\s*:\s*"dicehospital-league-backup"/.test(head) ? "backup" : "bgstats", "application/json"];
}

/** The import's drop zone of league lg; redraw() draws the league's screen again (with the
 * result) once a file is imported or refused. */
function dropZone(lg, redraw) {
	const input = h("input", { type: "file", id: "lg-file", class: "lg-file", accept: ".json,.xml,.csv,.tsv,.txt,application/json,application/xml,text/xml,text/csv" });
	const text = h("span", { class: "lg-progress-text" });
	const bar = h("progress", { max: 100, value: 0, "aria-label": t("import.progress") });
	const progress = h("div", { class: "lg-progress", role: "status", hidden: true }, text, bar);
	const icon = s("svg", { viewBox: "0 0 24 24", width: 32, height: 32, "aria-hidden": "true", class: "lg-drop-icon" }, s("path", { d: "M12 16V4M7 9l5-5 5 5M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round" }));
	const label = h("label", { for: "lg-file", class: "lg-drop-label" }, icon, h("strong", {}, t("import.drop")), h("span", { class: "muted" }, t("import.formats")));
	const zone = h("div", { class: "lg-drop", "data-testid": "dropzone", "data-state": "idle" }, input, label, progress);
	let busy = false;
	const state = (v) => (zone.dataset.state = v);
	const finish = async (result) => {
		importResults.set(lg.id, result);
		state(result.error ? "error" : "done");
		await redraw();
		const box = document.getElementById("lg-import-result");
		if (box) {
			box.scrollIntoView({ block: "nearest" });
			box.focus({ preventScroll: true });
		}
	};
	/** Sends the file as format (query: a spreadsheet's mapping) with its progress. */
	const send = async (file, format, type, query = "") => {
		state("sending");
		progress.hidden = false;
		const sent = () => {
			if (zone.dataset.state !== "sending") return;
			state("importing");
			bar.removeAttribute("value"); // indeterminate: the server reads and stores the plays
			text.textContent = t("import.importing");
		};
		const step = (loaded, total) => {
			const pct = Math.round((100 * loaded) / total);
			bar.value = pct;
			text.textContent = t("import.sending", { pct });
			if (loaded >= total) sent();
		};
		step(0, 1);
		const reply = await upload(`/leagues/${enc(lg.id)}/import?format=${format}${query ? `&${query}` : ""}`, file, type, step, sent);
		sent();
		await finish({ file: file.name, reply });
	};
	const release = () => {
		busy = false;
		input.disabled = false;
	};
	/** A spreadsheet: its columns are mapped on a screen of their own before it is sent. */
	const mapColumns = async (file) => {
		state("reading");
		progress.hidden = false;
		bar.removeAttribute("value");
		text.textContent = t("csv.reading");
		const deps = { h, t, tn, api, errorBox, ApiError };
		const view = await csvMappingView(
			file,
			lg.id,
			deps,
			async (m) => {
				view.remove();
				busy = true;
				input.disabled = true;
				try {
					await send(file, "csv", "text/csv", mappingQuery(m));
				} catch (e) {
					await finish({ file: file.name, error: e instanceof ApiError ? e : new ApiError(0, { detail: String(e.message || e) }) });
				} finally {
					release();
				}
			},
			() => {
				view.remove();
				state("idle");
				progress.hidden = true;
				input.value = "";
				input.focus();
			},
		);
		progress.hidden = true;
		state("mapping");
		document.getElementById("lg-csv-mapping")?.remove();
		zone.after(view);
		view.scrollIntoView({ block: "nearest" });
		view.focus({ preventScroll: true });
	};
	const go = async (file) => {
		if (busy || !file) return;
		busy = true;
		input.disabled = true;
		try {
			if (file.size > IMPORT_MAX) throw new ApiError(413, { detail: t("import.too_large") });
			if (file.size === 0) throw new ApiError(400, { detail: t("import.empty") });
			const [format, type] = await importFormat(file);
			if (format === "csv") await mapColumns(file);
			else await send(file, format, type);
		} catch (e) {
			await finish({ file: file.name, error: e instanceof ApiError ? e : new ApiError(0, { detail: String(e.message || e) }) });
		} finally {
			release();
		}
	};
	input.addEventListener("change", () => go(input.files[0]));
	for (const ev of ["dragenter", "dragover"])
		zone.addEventListener(ev, (e) => {
			e.preventDefault();
			if (!busy) state("over");
		});
	zone.addEventListener("dragleave", (e) => {
		if (!busy && !zone.contains(e.relatedTarget)) state("idle");
	});
	zone.addEventListener("drop", (e) => {
		e.preventDefault();
		if (!busy) state("idle");
		go(e.dataTransfer && e.dataTransfer.files[0]);
	});
	return zone;
}

/** The import's result, kept on the league's screen until closed: counts, and every skipped
 * play grouped by its reason (in words; the server's sentence in English or as a tooltip). */
function importResultView(lg, r) {
	const close = h("button", { type: "button", class: "wide" }, t("import.close"));
	const box = h("section", { class: "lg-result", id: "lg-import-result", tabindex: "-1", "data-testid": "import-result", "aria-labelledby": "lg-result-title" });
	close.addEventListener("click", () => {
		importResults.delete(lg.id);
		box.remove();
		document.getElementById("lg-file")?.focus();
	});
	if (r.error) {
		box.append(h("h3", { id: "lg-result-title" }, t("import.failed", { file: r.file })), errorBox(r.error), close);
		return box;
	}
	const x = r.reply;
	const count = (n, key) => h("div", {}, h("dt", {}, t(key)), h("dd", {}, n));
	box.append(
		h("h3", { id: "lg-result-title" }, t("import.done", { file: r.file })),
		h("dl", { class: "lg-counts" }, count(x.imported, "import.imported"), count(x.skipped, "import.skipped"), count(x.players_created, "import.created")),
	);
	if (x.skipped_plays.length) {
		const byReason = new Map();
		for (const k of x.skipped_plays) byReason.set(k.reason, [...(byReason.get(k.reason) || []), k]);
		const SHOWN = 100;
		box.append(
			h("h4", {}, t("import.skipped_title")),
			h(
				"ul",
				{ class: "lg-skips", "data-testid": "skipped" },
				[...byReason].map(([reason, list]) => {
					// the server's sentence: once when every play of the reason has the same
					const same = list.every((k) => k.detail === list[0].detail);
					const detail = (text) => (lang() === "en" ? h("div", { class: "muted" }, text) : null);
					return h(
						"li",
						{ "data-reason": reason, title: same && lang() !== "en" ? list[0].detail : null },
						h("strong", {}, has(`reason.${reason}`) ? t(`reason.${reason}`) : reason),
						` — ${tn("import.n_plays", list.length)}`,
						same ? detail(list[0].detail) : null,
						h(
							"details",
							{},
							h("summary", {}, t("import.show_plays")),
							h(
								"ul",
								{},
								list.slice(0, SHOWN).map((k) => h("li", { title: same || lang() === "en" ? null : k.detail }, t("import.play_n", { n: k.index + 1 }), k.id ? h("span", { class: "muted lg-id" }, k.id) : null, same ? null : detail(k.detail))),
								list.length > SHOWN ? h("li", { class: "muted" }, t("league.and_more", { n: list.length - SHOWN })) : null,
							),
						),
					);
				}),
			),
		);
	}
	box.append(close);
	return box;
}

/** The Files panel of league lg; redraw() draws the league's screen again. */
export function filesPanel(lg, redraw) {
	const lid = enc(lg.id);
	const r = importResults.get(lg.id);
	return panel(
		h("h2", {}, t("files.title")),
		helpLink("imports"),
		h("div", { class: "lg-actions" }, h("a", { class: "button", href: `${BASE}/leagues/${lid}/export.json`, download: "" }, t("league.export_json")), h("a", { class: "button", href: `${BASE}/leagues/${lid}/export.csv`, download: "" }, t("league.export_csv")), h("a", { class: "button", href: `${BASE}/leagues/${lid}/backup.json`, download: "" }, t("league.backup"))),
		lg.you.owner ? h("div", {}, h("h3", {}, t("league.import")), dropZone(lg, redraw)) : null,
		r ? importResultView(lg, r) : null,
	);
}
