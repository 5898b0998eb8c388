// A league's members screen (leagues.js routes to it): what waits for an answer (consent.js),
// every member with their plays, look-alike names flagged, "This is me" on a guest; owners add,
// invite, rename, link to an account, merge and remove members.
import { h } from "./dom.js";
import { pendingPanels } from "./consent.js";
import { t, tn } from "./leagues-i18n.js";
import { api, confirmButton, consentUi, enc, field, flashBox, form, helpLink, panel, setFlash, show } from "./leagues-ui.js";

const nameKey = (n) => String(n).trim().toLocaleLowerCase();

export async function renderMembers(id) {
	const lid = enc(id);
	const lg = await api("GET", `/leagues/${lid}`);
	const owner = lg.you.owner;
	const you = lg.you.member;
	const byName = new Map();
	for (const m of lg.members) byName.set(nameKey(m.name), [...(byName.get(nameKey(m.name)) || []), m]);
	const done = async (text) => {
		setFlash(text);
		await renderMembers(id);
	};
	const card = (m) => {
		const same = byName.get(nameKey(m.name)).filter((o) => o.id !== m.id);
		const badges = [m.id === you ? t("members.you") : null, m.guest ? t("league.guest") : t("members.account"), tn("members.plays", m.plays)].filter(Boolean).join(" · ");
		const claim =
			you && m.guest && m.id !== you
				? () => confirmButton(t("members.this_is_me"), tn("members.claim_question", m.plays, { name: m.name }), t("members.claim_yes"), async () => {
						await api("POST", `/leagues/${lid}/members/${enc(m.id)}/link`, {});
						await done(t("members.claimed", { name: m.name }));
					})
				: () => null;
		return h(
			"li",
			{ class: "lg-member", "data-testid": "member", "data-name": m.name },
			h("div", { class: "lg-member-head" }, h("a", { class: "lg-name", href: `#player=${enc(m.id)}` }, m.name), h("span", { class: "muted" }, badges)),
			same.length ? h("p", { class: "lg-warn" }, t("members.same_name", { names: same.map((o) => o.name).join(", ") })) : null,
			owner ? manageMember(lg, m, done, claim()) : claim(),
		);
	};
	let add = null;
	if (owner) {
		const mName = h("input", { type: "text", required: true, maxlength: 64 });
		const mAcc = h("input", { type: "email", autocomplete: "off" });
		add = panel(
			h("h2", {}, t("league.add_member")),
			form([field(t("league.member_name"), mName), field(t("league.member_account"), mAcc)], t("league.add"), async () => {
				const m = await api("POST", `/leagues/${lid}/members`, mAcc.value ? { name: mName.value, account: mAcc.value } : { name: mName.value });
				await done(m.invitation ? t("members.invited", { email: mAcc.value, name: mName.value.trim() }) : t("members.added", { name: m.name }));
			}),
		);
	}
	const pending = await pendingPanels(consentUi(() => renderMembers(id)), lg);
	show(
		flashBox(),
		...pending,
		panel(h("h1", {}, t("members.title", { league: lg.name })), helpLink("leagues"), you && !owner && lg.members.some((m) => m.guest && m.id !== you) ? h("p", { class: "muted" }, t("members.claim_explain")) : null, h("ul", { class: "lg-members" }, lg.members.map(card))),
		add,
		h("a", { class: "button wide", href: `#league=${lid}` }, t("back")),
	);
}

/** An owner's tools for member m; claim: their own "this is me" (or null). */
function manageMember(lg, m, done, claim) {
	const lid = enc(lg.id);
	const path = `/leagues/${lid}/members/${enc(m.id)}`;
	const name = h("input", { type: "text", required: true, maxlength: 64, value: m.name });
	const parts = [
		claim,
		form([field(t("members.new_name"), name)], t("members.rename"), async () => {
			const r = await api("PATCH", path, { name: name.value });
			await done(t("members.renamed", { old: m.name, name: r.name }));
		}, { primary: false }),
	];
	if (m.guest) {
		const email = h("input", { type: "email", required: true, autocomplete: "off" });
		parts.push(
			form([field(t("members.link_email"), email)], t("members.link"), async () => {
				await api("PATCH", path, { account: email.value });
				await done(t("members.linked", { name: m.name, email: email.value }));
			}, { primary: false }),
		);
	}
	const others = lg.members.filter((o) => o.id !== m.id);
	if (others.length) {
		const into = h("select", {}, others.map((o) => h("option", { value: o.id }, o.name)));
		parts.push(
			h(
				"div",
				{ class: "lg-merge" },
				field(t("members.merge_into"), into),
				confirmButton(t("members.merge"), () => tn("members.merge_question", m.plays, { name: m.name, into: into.selectedOptions[0].textContent }), t("members.merge_yes"), async () => {
					const target = others.find((o) => o.id === into.value);
					await api("POST", `${path}/merge`, { into: into.value });
					await done(t("members.merged", { name: m.name, into: target.name }));
				}),
			),
		);
	}
	parts.push(
		m.plays === 0
			? confirmButton(t("members.remove"), t("members.remove_question", { name: m.name }), t("members.remove_yes"), async () => {
					await api("DELETE", path);
					await done(t("members.removed", { name: m.name }));
				}, { danger: true })
			: h("p", { class: "muted" }, t("members.cannot_remove")),
	);
	return h("details", { class: "lg-more lg-manage" }, h("summary", {}, t("members.manage"), h("span", { class: "sr-only" }, ` ${m.name}`)), ...parts.filter(Boolean));
}
