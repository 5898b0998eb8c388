// A small state store: one plain object, changed with set(); views subscribe with a selector and
// run only when what they select has changed (compared as JSON), so a live event that changes one
// seat's score touches that score and nothing else.
export function createStore(initial) {
	let state = initial;
	const subs = [];
	let scheduled = false;

	function run(force) {
		scheduled = false;
		for (const sub of subs) {
			let v;
			try {
				v = sub.select(state);
			} catch (e) {
				console.error(e);
				continue;
			}
			const key = JSON.stringify(v === undefined ? null : v);
			if (!force && key === sub.key) continue;
			sub.key = key;
			sub.fn(v, state);
		}
	}

	return {
		get: () => state,
		/** Merges patch (an object, or a function of the state returning one) and updates views. */
		set(patch) {
			const p = typeof patch === "function" ? patch(state) : patch;
			state = { ...state, ...p };
			if (!scheduled) {
				scheduled = true;
				queueMicrotask(() => run(false));
			}
		},
		/** fn(selected, state) runs now and whenever select(state) changes. */
		subscribe(select, fn) {
			const sub = { select, fn, key: undefined };
			subs.push(sub);
			return () => subs.splice(subs.indexOf(sub), 1);
		},
		/** Runs every view whose selection changed (synchronously); force: all of them. */
		flush(force = false) {
			run(force);
		},
	};
}
