// The state store (static/README.md, "The ER screens").
const SLICE = 4;

export function createStore(initial) {
	let state = initial;
	const subs = [];
	let scheduled = false; // a pass is queued or under way
	let next = 0; // the pass's next view
	let dirty = false; // changed behind the pass: one more
	const later = new MessageChannel();
	later.port1.onmessage = () => pass();
	const goOn = () => (document.hidden ? later.port2.postMessage(0) : requestAnimationFrame(() => later.port2.postMessage(0)));

	function runOne(sub, force) {
		let v;
		try {
			v = sub.select(state);
		} catch (e) {
			console.error(e);
			return;
		}
		const key = JSON.stringify(v === undefined ? null : v);
		if (!force && key === sub.key) return;
		sub.key = key;
		sub.fn(v, state);
	}

	function pass() {
		const t0 = performance.now();
		try {
			while (next < subs.length) {
				runOne(subs[next++], false);
				if (next < subs.length && performance.now() - t0 > SLICE) return goOn();
			}
		} catch (e) {
			next = 0;
			dirty = scheduled = false;
			throw e;
		}
		next = 0;
		if (dirty) {
			dirty = false;
			return goOn();
		}
		scheduled = false;
	}

	return {
		get: () => state,
		/** Merges patch (an object, or a function of the state returning one) and updates views. */
		set(patch) {
			state = { ...state, ...(typeof patch === "function" ? patch(state) : patch) };
			if (scheduled) dirty ||= next > 0;
			else {
				scheduled = true;
				queueMicrotask(pass);
			}
		},
		/** fn(selected, state) runs now and whenever select(state) changes. */
		subscribe(select, fn) {
			const sub = { select, fn, key: undefined };
			subs.push(sub);
			return () => {
				const i = subs.indexOf(sub);
				if (i < 0) return;
				subs.splice(i, 1);
				if (i < next) next--;
			};
		},
		/** Runs every view whose selection changed (synchronously); force: all of them. */
		flush(force = false) {
			for (const sub of [...subs]) runOne(sub, force);
		},
	};
}
