// Consent on the league screens: the invitations an account answers (on "My leagues"), and on
// a league's members screen what waits for an answer — claims of guests that owners approve or
// refuse, invitations not yet accepted — and the recent merges an owner can undo. Nothing moves
// in a league before that answer (api.md "Conventions"). The screen's helpers come in `ui`
// (leagues-ui.js consentUi): {api, t, tn, h, panel, confirmButton, enc, done(text)}, done(text) showing
// text on the screen drawn again.

/** The account's pending invitations with Accept and Decline, or null when there are none. */
export async function invitationsPanel(ui) {
	const { api, t, h, panel } = ui;
	const { invitations } = await api("GET", "/invitations");
	if (!invitations.length) return null;
	const item = (x) => {
		const msg = h("div");
		const act = (verb, text) =>
			h("button", {
				type: "button",
				class: verb === "accept" ? "primary" : "",
				onclick: async (ev) => {
					ev.currentTarget.disabled = true;
					msg.replaceChildren();
					try {
						await api("POST", `/invitations/${ui.enc(x.id)}/${verb}`, {});
						await ui.done(t(text, { league: x.league.name }));
					} catch (e) {
						msg.replaceChildren(ui.errorBox(e));
						ev.target.disabled = false;
					}
				},
			}, t(`inv.${verb}`));
		return h(
			"li",
			{ class: "lg-member", "data-testid": "invitation", "data-league": x.league.name },
			h("div", { class: "lg-member-head" }, h("strong", {}, x.role === "owner" ? t("inv.as_owner", { league: x.league.name }) : t("inv.as_member", { league: x.league.name, name: x.name })), x.invited_by ? h("span", { class: "muted" }, t("inv.from", { by: x.invited_by })) : null),
			msg,
			h("div", { class: "lg-actions" }, act("accept", "inv.accepted"), act("decline", "inv.declined")),
		);
	};
	return panel(h("h2", {}, t("inv.title")), h("ul", { class: "lg-members", "data-testid": "invitations" }, invitations.map(item)));
}

/** What waits on league lg: for owners every claim (approve, refuse), invitation (withdraw)
 * and recent merge (undo); for a member their own claims (withdraw). null when nothing. */
export async function pendingPanels(ui, lg) {
	const { api, t, h, panel } = ui;
	const lid = ui.enc(lg.id);
	const owner = lg.you.owner;
	const [claims, invs, merges] = await Promise.all([
		api("GET", `/leagues/${lid}/claims`),
		owner ? api("GET", `/leagues/${lid}/invitations`) : { invitations: [] },
		owner ? api("GET", `/leagues/${lid}/merges`) : { merges: [] },
	]);
	const items = [...claims.claims.map((c) => (owner ? claimItem(ui, lid, c) : mineItem(ui, lid, c))), ...invs.invitations.map((x) => invitationItem(ui, lid, x))];
	const parts = [];
	if (items.length) parts.push(panel(h("h2", {}, t("pending.title")), owner ? h("p", { class: "muted" }, t("pending.explain")) : null, h("ul", { class: "lg-members", "data-testid": "pending" }, items)));
	if (merges.merges.length) parts.push(panel(h("h2", {}, t("merges.title")), h("ul", { class: "lg-members", "data-testid": "merges" }, merges.merges.map((m) => mergeItem(ui, lid, m)))));
	return parts;
}

function row(ui, testid, head, ...rest) {
	return ui.h("li", { class: "lg-member", "data-testid": testid }, ui.h("div", { class: "lg-member-head" }, head), ...rest);
}

function claimItem(ui, lid, c) {
	const { api, t, tn, h } = ui;
	const v = { who: c.account.display_name, guest: c.guest.name, plays: tn("members.plays", c.guest.plays), member: c.member?.name };
	return row(
		ui,
		"claim",
		h("strong", {}, t("pending.claim", v)),
		h("p", { class: "muted" }, c.member ? t("pending.claim_merge", v) : t("pending.claim_link", v)),
		h(
			"div",
			{ class: "lg-actions" },
			ui.confirmButton(t("pending.approve"), t("pending.approve_question", v), t("pending.approve_yes"), async () => {
				await api("POST", `/leagues/${lid}/claims/${ui.enc(c.id)}/approve`, {});
				await ui.done(t("pending.approved", v));
			}),
			ui.confirmButton(t("pending.refuse"), t("pending.refuse_question", v), t("pending.refuse"), async () => {
				await api("DELETE", `/leagues/${lid}/claims/${ui.enc(c.id)}`);
				await ui.done(t("pending.refused", v));
			}, { danger: true }),
		),
	);
}

function mineItem(ui, lid, c) {
	const { api, t, h } = ui;
	return row(
		ui,
		"claim",
		h("span", {}, t("pending.mine", { guest: c.guest.name })),
		ui.confirmButton(t("pending.withdraw"), t("pending.withdraw_question"), t("pending.withdraw"), async () => {
			await api("DELETE", `/leagues/${lid}/claims/${ui.enc(c.id)}`);
			await ui.done(t("pending.withdrawn"));
		}),
	);
}

function invitationItem(ui, lid, x) {
	const { api, t, h } = ui;
	const text = x.role === "owner" ? t("pending.inv_owner", { email: x.account.email }) : t("pending.inv_member", { email: x.account.email, name: x.name });
	return row(
		ui,
		"sent-invitation",
		h("span", {}, text),
		ui.confirmButton(t("pending.withdraw"), t("pending.withdraw_question"), t("pending.withdraw"), async () => {
			await api("DELETE", `/leagues/${lid}/invitations/${ui.enc(x.id)}`);
			await ui.done(t("pending.withdrawn"));
		}),
	);
}

function mergeItem(ui, lid, m) {
	const { api, t, tn, h } = ui;
	const v = { name: m.member.name, into: m.into.name, plays: tn("members.plays", m.plays) };
	return row(
		ui,
		"merge",
		h("span", {}, t("merges.item", v)),
		ui.confirmButton(t("merges.undo"), t("merges.undo_question", v), t("merges.undo_yes"), async () => {
			await api("POST", `/leagues/${lid}/merges/${ui.enc(m.id)}/undo`, {});
			await ui.done(t("merges.undone", v));
		}),
	);
}
