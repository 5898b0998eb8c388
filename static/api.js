// The REST API (shared/api.md): JSON in and out, problem+json errors raised as ApiError.
const BASE = "/api/v1";

export class ApiError extends Error {
	constructor(status, problem) {
		super(problem.detail || problem.title || `HTTP ${status}`);
		this.status = status;
		this.problem = problem;
		this.rule = problem.rule || null;
		this.field = problem.field || null;
	}
}

/** Calls the API (body as JSON, or as it is with opts.contentType); resolves to the reply (a
 * Blob with opts.blob), rejects with ApiError (status 0: unreachable, opts.network its detail).
 * opts.cache: fetch's cache mode ("no-store" unless given); opts.headers: more headers. */
export async function request(method, path, body, token, opts = {}) {
	const headers = { Accept: opts.blob ? "*/*" : "application/json" };
	if (body !== undefined) headers["Content-Type"] = opts.contentType || "application/json";
	if (token) headers.Authorization = `Bearer ${token}`;
	Object.assign(headers, opts.headers);
	let r, text;
	try {
		// the body too: the connection can drop after the head (flaky Wi-Fi, a phone that sleeps)
		r = await fetch(BASE + path, {
			method,
			headers,
			body: body === undefined || opts.contentType ? body : JSON.stringify(body),
			cache: opts.cache || "no-store",
		});
		if (r.ok && opts.blob) return await r.blob();
		text = await r.text();
	} catch {
		throw new ApiError(0, { title: "network", detail: opts.network || "" });
	}
	let data = null;
	try {
		data = text ? JSON.parse(text) : null;
	} catch {
		data = { detail: text };
	}
	if (!r.ok) throw new ApiError(r.status, data || {});
	return data;
}

let dataPromise = null;
/** The sheet layout, the 27 cards and the 16 specialists (fetched once). */
export function gameData() {
	if (!dataPromise) dataPromise = request("GET", "/er/data").catch((e) => ((dataPromise = null), Promise.reject(e)));
	return dataPromise;
}

export const createGame = (body) => request("POST", "/er/games", body);
/** Joins a seat; replace: this phone takes over a seat another phone has claimed. */
export const join = (code, seat, replace = false) => request("POST", "/join", replace ? { code, seat, replace: true } : { code, seat });
/** The seats of a table by join code: [{seat, name, bot, claimed}]. */
export const joinInfo = (code) => request("GET", `/join/${encodeURIComponent(code)}`);
export const getLog = (id, token) => request("GET", `/er/games/${encodeURIComponent(id)}/log`, undefined, token);
export const getGame = (id, token) => request("GET", `/er/games/${encodeURIComponent(id)}`, undefined, token);
export const reveal = (id, token, body) => request("POST", `/er/games/${encodeURIComponent(id)}/turns`, body, token);
export const sendMove = (id, token, seat, body) =>
	request("POST", `/er/games/${encodeURIComponent(id)}/seats/${seat}/moves`, body, token);
export const undoMove = (id, token, seat, turn) =>
	request("DELETE", `/er/games/${encodeURIComponent(id)}/seats/${seat}/moves/${turn}`, undefined, token);
export const moveOptions = (sheet, turn) => request("POST", "/er/moves/options", { sheet, turn });
export const applyMove = (sheet, turn, move) => request("POST", "/er/moves/apply", { sheet, turn, move });

/** Live updates: calls onChange(version) for each server-sent event of the game. */
export function liveEvents(id, token, onChange, onState) {
	const url = `${BASE}/er/games/${encodeURIComponent(id)}/events?token=${encodeURIComponent(token)}`;
	const es = new EventSource(url);
	const handler = (ev) => {
		let v = null;
		try {
			v = JSON.parse(ev.data).version;
		} catch {}
		onChange(v, ev.type);
	};
	for (const kind of ["hello", "reveal", "move", "undo", "message"]) es.addEventListener(kind, handler);
	es.onopen = () => onState && onState(true);
	es.onerror = () => onState && onState(false);
	return es;
}

// ---- this phone's seats, per game (a reload keeps the seat) ----
const STORE = "dh.er.games";

/** A JSON object kept in localStorage ({} when missing or unreadable). */
export function readStored(key) {
	try {
		return JSON.parse(localStorage.getItem(key)) || {};
	} catch {
		return {};
	}
}

export const savedGames = () => readStored(STORE);

/** Merges entry into game id of the list under key, marked as the latest opened. */
export function storeGame(key, id, entry) {
	const all = readStored(key);
	all[id] = { ...(all[id] || {}), ...entry, at: new Date().toISOString() };
	localStorage.setItem(key, JSON.stringify(all));
}

export const saveGame = (id, entry) => storeGame(STORE, id, entry);

// this phone's Dice Hospital and Clinic games (tabletop/shared.js)
export const TT_STORE = "dh.tabletop.games";

/** Forgets game id of the list under key (the ER games unless told). */
export function forgetGame(id, key = STORE) {
	const all = readStored(key);
	delete all[id];
	localStorage.setItem(key, JSON.stringify(all));
}
