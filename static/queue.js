// The offline queue of moves, per game in localStorage (static/README.md, "At the table for real").
import * as api from "./api.js";

const key = (id) => `dh.er.queue.${id}`;

export function queued(id) {
	try {
		return JSON.parse(localStorage.getItem(key(id))) || [];
	} catch {
		return [];
	}
}

function save(id, list) {
	if (list.length) localStorage.setItem(key(id), JSON.stringify(list));
	else localStorage.removeItem(key(id));
}

/** Adds a write: {kind: "move"|"reveal", seat, body}. */
export function enqueue(id, item) {
	const list = queued(id).filter((x) => !(x.kind === item.kind && x.seat === item.seat && x.body.turn === item.body.turn));
	list.push(item);
	save(id, list);
}

function send(id, token, item) {
	return item.kind === "reveal" ? api.reveal(id, token, item.body) : api.sendMove(id, token, item.seat, item.body);
}

/** Sends what waits, oldest first. Resolves to {sent: n, state (the last reply), refused: ApiError|null};
 * stops at the first network failure (the rest waits for the next try). */
export async function flush(id, token) {
	let sent = 0, state = null, refused = null;
	for (;;) {
		const list = queued(id);
		if (!list.length) break;
		try {
			state = await send(id, token, list[0]);
			sent++;
		} catch (e) {
			if (!(e instanceof api.ApiError) || e.status === 0 || e.status >= 500) break;
			refused = e; // the table moved on, or the move is not legal any more: drop it, say why
		}
		save(id, queued(id).slice(1));
	}
	return { sent, state, refused };
}
