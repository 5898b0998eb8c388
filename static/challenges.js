// The league page's challenges (static/README.md "Challenges"): the league's challenges, each a
// link to its board (challenge.html), and for owners the form that opens a new one. Drawn by
// leagues.js with its own helpers (ui: t, api, h, panel, field, form), so the words and the
// look are the league page's.

/** A date-time input's value (local time) for date d. */
function localInput(d) {
	const p = (n) => String(n).padStart(2, "0");
	return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A date-time input's local value as RFC 3339 (the phone's offset, through UTC). */
const rfc3339 = (value) => new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z");

/** When (RFC 3339) in the page's language, to the minute. */
export function when(iso, lang) {
	return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

const MODIFIERS = ["preparation", "equipment", "isolation", "capacity"];

function newForm(lg, ui) {
	const { t, h, field, form, api } = ui;
	const now = new Date();
	const name = h("input", { type: "text", name: "name", required: true, maxlength: 64, autocomplete: "off" });
	const opens = h("input", { type: "datetime-local", class: "ch-dt", name: "opens", value: localInput(now), required: true });
	const closes = h("input", { type: "datetime-local", class: "ch-dt", name: "closes", value: localInput(new Date(now.getTime() + 7 * 864e5)), required: true });
	const mode = h("select", { name: "mode" }, h("option", { value: "alicat" }, t("challenge.mode.alicat")), h("option", { value: "plain" }, t("challenge.mode.plain")));
	const boxes = MODIFIERS.map((m) => h("label", { class: "ch-check" }, h("input", { type: "checkbox", name: "mod", value: m }), h("span", {}, t(`challenge.modifier.${m}`))));
	const mods = h("fieldset", { class: "ch-mods" }, h("legend", {}, t("challenge.modifiers")), ...boxes);
	mode.addEventListener("change", () => (mods.hidden = mode.value !== "alicat"));
	return h(
		"details",
		{ class: "lg-more", "data-testid": "challenge-new" },
		h("summary", {}, t("challenge.new")),
		h("p", { class: "muted" }, t("challenge.new_hint")),
		form(
			[field(t("challenge.name"), name), field(t("challenge.opens"), opens), field(t("challenge.closes"), closes), field(t("challenge.mode"), mode), mods],
			t("challenge.create"),
			async () => {
				const solo = mode.value === "alicat";
				const body = { name: name.value, opens: rfc3339(opens.value), closes: rfc3339(closes.value), solo };
				if (solo) body.alicat_modifiers = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
				const ch = await api("POST", `/leagues/${encodeURIComponent(lg.id)}/challenges`, body);
				location.href = `challenge.html#league=${encodeURIComponent(lg.id)}&id=${encodeURIComponent(ch.id)}`;
			},
		),
	);
}

/** The league's challenges panel: filled in once the list arrives. */
export function challengesPanel(lg, ui) {
	const { t, h, panel, api } = ui;
	const list = h("div", { class: "muted" }, "…");
	api("GET", `/leagues/${encodeURIComponent(lg.id)}/challenges`)
		.then((r) => {
			list.className = "";
			list.replaceChildren(
				r.challenges.length
					? h(
							"ul",
							{ class: "lg-list", "data-testid": "challenges" },
							r.challenges.map((c) =>
								h(
									"li",
									{},
									h(
										"a",
										{ class: "button", href: `challenge.html#league=${encodeURIComponent(lg.id)}&id=${encodeURIComponent(c.id)}` },
										h("span", { class: "lg-play-game" }, c.name),
										h("span", { class: `ch-status ch-${c.status}` }, t(`challenge.status.${c.status}`)),
									),
								),
							),
						)
					: h("p", { class: "muted" }, t("challenge.none")),
			);
		})
		.catch((e) => list.replaceChildren(ui.errorBox(e)));
	return panel(h("h2", {}, t("challenge.title")), list, lg.you.owner ? newForm(lg, ui) : null);
}
