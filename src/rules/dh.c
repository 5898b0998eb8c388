/* Dice Hospital scorekeeper: rounds, finish, scores, standings (see dh.h).
 * Rulebook citations: seed 000 = ../shared/seeds/000_f801c236a9bfa085.txt by section heading. */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "rules/dh.h"

static const char *const admin_ids[DH_ADMINS] = {
    "discharge-2-red", "discharge-2-yellow", "discharge-2-green", "discharge-3-colours",
    "most-discharged", "neglect-red",        "neglect-yellow",    "neglect-green",
};
static const char *const variant_ids[DH_VARIANTS] = {
    "final_round_collections",
    "opening_crisis",
    "nationwide_epidemic",
    "resistant_superbug",
    "events",
    "experimental_medicine",
    "fatality_penalty",
    "medical_report_penalty",
};
static const char *const rule_ids[DH_RULES] = {
    "discharge-table",
    "administrator-discharge-2-red",
    "administrator-discharge-2-yellow",
    "administrator-discharge-2-green",
    "administrator-discharge-3-colours",
    "administrator-most-discharged",
    "wards-empty",
    "registrar",
    "medical-report-completed",
    "fatality",
    "blood-bag",
    "final-round-collected",
    "final-round-patient-left",
    "medical-report-incomplete",
};
static const char *const rule_keys[DH_RULES] = {
    "discharge",
    "administrator_bonus",
    "administrator_bonus",
    "administrator_bonus",
    "administrator_bonus",
    "administrator_bonus",
    "wards_empty",
    "registrar",
    NULL,
    "fatality",
    "blood_bag",
    "collected",
    "patient_left",
    NULL,
};
static const char *const colour_ids[DH_COLOURS] = {"red", "yellow", "green"};

/* Dice Hospital as the shared checks of tabletop.h name it. */
static const tt_game kind = {
    .name = "Dice Hospital",
    .rounds = DH_ROUNDS,
    .max_seats = DH_MAX_SEATS,
    .max_entries = DH_MAX_ENTRIES,
    .solo_one = "a solo game has exactly one player",
    .too_few = "Dice Hospital takes 2 to 4 players, or 1 with \"solo\": true",
};

const char *dh_admin_id(int a)
{
	return tt_id_at(admin_ids, DH_ADMINS, a);
}

int dh_admin_from_id(const char *id)
{
	int a = tt_id_index(admin_ids, DH_ADMINS, id);
	return a < 0 ? DH_ADMIN_NONE : a;
}

const char *dh_variant_id(int v)
{
	return tt_id_at(variant_ids, DH_VARIANTS, v);
}

const char *dh_rule_id(int r)
{
	return tt_id_at(rule_ids, DH_RULES, r);
}

const char *dh_rule_profile_key(int r)
{
	return tt_id_at(rule_keys, DH_RULES, r);
}

const char *dh_colour_id(int c)
{
	return tt_id_at(colour_ids, DH_COLOURS, c);
}

const char *dh_tie_id(dh_tie t)
{
	switch (t) {
	case DH_TIE_FEWEST_PATIENTS:
		return "fewest-patients-left";
	case DH_TIE_HIGHEST_PIPS:
		return "highest-pips";
	case DH_TIE_SHARED:
		return "shared";
	default:
		return NULL;
	}
}

/* ---- configuration ---- */

static int check_reports(const dh_config *c, tt_error *err)
{
	for (int i = 0; i < DH_REPORTS; i++) {
		const dh_report *r = &c->reports[i];
		int need = 0;
		for (int k = 0; k < DH_COLOURS; k++) {
			if (r->need[k] < 0 || r->need[k] > DH_SPACES)
				return tt_fail(err, 400, "report-invalid",
				               "a Medical Report needs 0 to 12 dice of a colour",
				               "/reports/%d/%s", i, colour_ids[k]);
			need += r->need[k];
		}
		if (!c->solo) {
			if (need || r->points)
				return tt_fail(err, 422, "reports-not-solo",
				               "Medical Reports are dealt in the solo game only",
				               "/reports");
			continue;
		}
		if (need < 1 || need > DH_SPACES)
			return tt_fail(err, 422, "report-invalid",
			               "a Medical Report needs 1 to 12 dice in all", "/reports/%d",
			               i);
		if (r->points < 1 || r->points > DH_MAX_REPORT_POINTS)
			return tt_fail(err, 400, "report-invalid",
			               "a Medical Report is worth 1 to 20 points",
			               "/reports/%d/points", i);
	}
	return 0;
}

/* seed 000, INTRODUCTION (1-4 players; solo on page 10), GAME SETUP (Administrators),
 * SOLO PLAY RULES (no Administrator; the penalties are solo score modifiers). */
int dh_config_check(const dh_config *c, tt_error *err)
{
	if (tt_check_players(&kind, c->solo, c->nseats, err) != 0)
		return -1;
	for (int s = 0; s < c->nseats; s++) {
		int a = c->admin[s];
		if (a == DH_ADMIN_NONE)
			continue;
		if (a < 0 || a >= DH_ADMINS)
			return tt_fail(err, 400, "administrator-unknown", "unknown Administrator",
			               "/players/%d/administrator", s);
		if (c->solo)
			return tt_fail(err, 422, "administrator-in-solo",
			               "the solo game uses no Hospital Administrator",
			               "/players/%d/administrator", s);
		for (int o = 0; o < s; o++)
			if (c->admin[o] == a)
				return tt_fail(err, 422, "administrator-twice",
				               "each Administrator card exists once",
				               "/players/%d/administrator", s);
	}
	if (!c->solo)
		for (int v = DH_VAR_FATALITY_PENALTY; v <= DH_VAR_MEDICAL_REPORT_PENALTY; v++)
			if (c->variant[v])
				return tt_fail(err, 422, "variant-solo-only",
				               "this score modifier belongs to the solo game",
				               "/variants/%s", variant_ids[v]);
	return check_reports(c, err);
}

void dh_game_init(dh_game *g, const dh_config *cfg)
{
	memset(g, 0, sizeof *g);
	g->cfg = *cfg;
}

/* The last round any seat entered (0: none). */
static int rounds_entered(const dh_game *g)
{
	int n = 0;
	for (int r = 0; r < DH_ROUNDS; r++)
		for (int s = 0; s < g->cfg.nseats; s++)
			if (g->rounds[r][s].entered)
				n = r + 1;
	return n;
}

int dh_rounds_complete(const dh_game *g)
{
	int n = 0;
	for (int r = 0; r < DH_ROUNDS; r++) {
		for (int s = 0; s < g->cfg.nseats; s++)
			if (!g->rounds[r][s].entered)
				return n;
		n = r + 1;
	}
	return n;
}

/* ---- solo Medical Reports (seed 000, SOLO PLAY RULES, MEDICAL REPORT CARDS) ----
 * Replays every round's completed cards: only the bottom row is available; a completed card
 * lets the card above slide down, available at once; each discharged die counts towards one
 * card only. Fills report_round[card] = round completed (0 = not). On a broken rule, names
 * the round's list (field of the round being entered when `cur` = that round). */
static int reports_replay(const dh_game *g, int cur, int8_t report_round[DH_REPORTS], tt_error *err)
{
	memset(report_round, 0, DH_REPORTS);
	for (int r = 0; r < DH_ROUNDS; r++) {
		int left[DH_COLOURS];
		for (int k = 0; k < DH_COLOURS; k++)
			left[k] = g->rounds[r][0].entered ? g->rounds[r][0].discharged[k] : 0;
		for (int i = 0; i < g->nreports_done[r]; i++) {
			int card = g->reports_done[r][i];
			const char *where = r + 1 == cur ? "/reports_completed/%d" : "/round";
			int at = r + 1 == cur ? i : 0;
			if (card < 1 || card > DH_REPORTS)
				return tt_fail(
				    err, 422, "report-unknown",
				    "Medical Reports are numbered 1-3 (bottom row) and 4-6 (top "
				    "row, 4 above 1)",
				    where, at);
			if (report_round[card - 1])
				return tt_fail(err, 422, "report-already-completed",
				               "this Medical Report is already completed", where,
				               at);
			if (card > 3 && !report_round[card - 4])
				return tt_fail(
				    err, 422, "report-not-available",
				    "only the bottom row can be completed: complete the card "
				    "below first",
				    where, at);
			const dh_report *rep = &g->cfg.reports[card - 1];
			for (int k = 0; k < DH_COLOURS; k++) {
				left[k] -= rep->need[k];
				if (left[k] < 0)
					return tt_fail(
					    err, 422, "report-dice-insufficient",
					    "each discharged die completes one card only: not "
					    "enough dice of a colour this round",
					    where, at);
			}
			report_round[card - 1] = (int8_t)(r + 1);
		}
	}
	return 0;
}

/* ---- rounds ---- */

static int check_entry(const dh_game *g, const dh_round_input *in, int i, tt_error *err)
{
	const dh_config *c = &g->cfg;
	int seats[DH_MAX_ENTRIES];
	for (int o = 0; o <= i; o++)
		seats[o] = in->e[o].seat;
	if (tt_check_seat(c->nseats, seats, i, "a seat appears twice in one round", err) != 0)
		return -1;
	int total = 0;
	for (int k = 0; k < DH_COLOURS; k++) {
		int n = in->e[i].discharged[k];
		if (n < 0)
			return tt_fail(err, 400, "negative-count", "a count cannot be negative",
			               "/entries/%d/discharged/%s", i, colour_ids[k]);
		total += n;
	}
	/* seed 000, PHASE 1: 12 patient spaces — no more can be discharged in one round. */
	if (total > DH_SPACES)
		return tt_fail(
		    err, 422, "too-many-discharged",
		    "a hospital holds 12 patients: at most 12 can be discharged in a round",
		    "/entries/%d/discharged", i);
	int reg = in->e[i].registrar;
	if (reg < 0)
		return tt_fail(err, 400, "negative-count", "a count cannot be negative",
		               "/entries/%d/registrar", i);
	if (reg > 0 && !c->variant[DH_VAR_EXPERIMENTAL_MEDICINE])
		return tt_fail(err, 422, "registrar-without-expansion",
		               "the Registrar comes with the Experimental Medicine expansion",
		               "/entries/%d/registrar", i);
	/* seed 000, REGISTRAR: +1 if that meeple discharged a patient; 2 cards of each type. */
	if (reg > DH_MAX_REGISTRARS || reg > total)
		return tt_fail(err, 422, "registrar-impossible",
		               "each Registrar (2 at most) scores once, and only by discharging a "
		               "patient",
		               "/entries/%d/registrar", i);
	return 0;
}

/* seed 000, GAME SEQUENCE (8 rounds), PHASE 5 - DISCHARGED PATIENTS. */
int dh_round_apply(dh_game *g, int round, const dh_round_input *in, tt_error *err)
{
	if (tt_round_open(&kind, round, g->finished, in->nentries, in->has_reports, err) != 0)
		return -1;
	if (in->has_reports && !g->cfg.solo)
		return tt_fail(err, 422, "reports-not-solo",
		               "Medical Reports belong to the solo game", "/reports_completed");
	if (in->has_reports && (in->nreports < 0 || in->nreports > DH_REPORTS))
		return tt_fail(err, 422, "report-unknown", "at most 6 Medical Reports",
		               "/reports_completed");
	for (int i = 0; i < in->nentries; i++)
		if (check_entry(g, in, i, err) != 0)
			return -1;
	for (int i = 0; i < in->nentries; i++) {
		int s = in->e[i].seat - 1;
		for (int r = 0; r < round - 1; r++)
			if (!g->rounds[r][s].entered)
				return tt_fail(err, 422, "round-not-reached",
				               "enter the earlier rounds of this seat first",
				               "/round");
	}
	if (in->has_reports && in->nreports > 0 && in->nentries == 0 &&
	    !g->rounds[round - 1][0].entered)
		return tt_fail(err, 422, "round-not-reached",
		               "enter the round's discharged patients first", "/entries");

	dh_game next = *g;
	for (int i = 0; i < in->nentries; i++) {
		dh_round_entry *e = &next.rounds[round - 1][in->e[i].seat - 1];
		e->entered = true;
		for (int k = 0; k < DH_COLOURS; k++)
			e->discharged[k] = (int8_t)in->e[i].discharged[k];
		e->wards_empty = in->e[i].wards_empty;
		e->registrar = (int8_t)in->e[i].registrar;
	}
	if (in->has_reports) {
		next.nreports_done[round - 1] = (int8_t)in->nreports;
		for (int i = 0; i < in->nreports; i++)
			next.reports_done[round - 1][i] = (int8_t)in->reports[i];
	}
	if (next.cfg.solo) {
		int8_t rr[DH_REPORTS];
		if (reports_replay(&next, round, rr, err) != 0)
			return -1;
	}
	*g = next;
	return 0;
}

/* ---- finish (seed 000, END GAME SCORING; FINAL ROUND COLLECTIONS) ---- */

/* A game the table stopped before the rulebook's end ("At the end of the 8th round, the game
 * ends", seed 000, GAME SEQUENCE): no round 8 to check the wards against, and the pips of the
 * patients left are not asked (they only break a tie of a complete game); the Final Round
 * Collections happen "after the last round of the game" (seed 000, FINAL ROUND COLLECTIONS),
 * which was not played. */
static int check_early_entry(const dh_finish_input *in, int i, tt_error *err)
{
	if (in->e[i].collected > 0)
		return tt_fail(err, 422, "collections-after-early-end",
		               "patients are collected after the last round, and the game ended "
		               "before it",
		               "/entries/%d/collected", i);
	return 0;
}

static int check_finish_entry(const void *game, const void *input, int i, tt_error *err)
{
	const dh_game *g = game;
	const dh_finish_input *in = input;
	const char *names[5] = {"fatalities", "blood_bags", "patients_left", "pips_left",
	                        "collected"};
	int v[5] = {in->e[i].fatalities, in->e[i].blood_bags, in->e[i].patients_left,
	            in->e[i].pips_left, in->e[i].collected};
	int seats[DH_MAX_ENTRIES];
	for (int o = 0; o <= i; o++)
		seats[o] = in->e[o].seat;
	if (tt_check_seat(g->cfg.nseats, seats, i, "a seat appears twice in the finish", err) != 0)
		return -1;
	for (int k = 0; k < 5; k++)
		if (tt_check_count(v[k], DH_MAX_TOKENS, i, names[k], err) != 0)
			return -1;
	int left = in->e[i].patients_left, pips = in->e[i].pips_left, coll = in->e[i].collected;
	if (left + coll > DH_SPACES)
		return tt_fail(err, 422, "too-many-patients",
		               "a hospital holds 12 patients (left + collected)",
		               "/entries/%d/patients_left", i);
	if (in->ended_after && in->ended_after < DH_ROUNDS)
		return check_early_entry(in, i, err);
	/* Each remaining die shows 1 to 6 pips (seed 000, GLOSSARY: PATIENT). */
	if (pips < left || pips > 6 * left)
		return tt_fail(err, 422, "impossible-pips",
		               "the pips of the patients left are between 1 and 6 per patient",
		               "/entries/%d/pips_left", i);
	if (coll > 0 && !g->cfg.variant[DH_VAR_FINAL_ROUND_COLLECTIONS])
		return tt_fail(
		    err, 422, "collections-without-variant",
		    "patients are collected only with the Final Round Collections variant",
		    "/entries/%d/collected", i);
	/* Nothing but the collections happens between round 8's Phase 5 ("ends this Phase with
	 * all four of their wards completely empty": +5) and the end: the patients left and
	 * collected are the ones in the wards then (seed 000, PHASE 5 - DISCHARGED PATIENTS;
	 * FINAL ROUND COLLECTIONS). */
	bool empty = g->rounds[DH_ROUNDS - 1][in->e[i].seat - 1].wards_empty;
	if (empty && left + coll > 0)
		return tt_fail(err, 422, "wards-empty-contradiction",
		               "round 8 ended with all four wards empty, so no patient is left",
		               "/entries/%d/patients_left", i);
	if (!empty && left + coll == 0)
		return tt_fail(
		    err, 422, "wards-empty-contradiction",
		    "no patient is left, so round 8 ended with all four wards empty (+5): "
		    "correct round 8 first",
		    "/entries/%d/patients_left", i);
	return 0;
}

int dh_finish_apply(dh_game *g, const dh_finish_input *in, tt_error *err)
{
	int last = in->ended_after ? in->ended_after : DH_ROUNDS;
	if (last < 1 || last > DH_ROUNDS)
		return tt_fail(err, 400, "round-out-of-range",
		               "a game ends after one of rounds 1 to 8", "/ended_after");
	if (tt_finish_check(&kind, g->finished, dh_rounds_complete(g), rounds_entered(g), last,
	                    g->cfg.nseats, in->nentries, check_finish_entry, g, in, err) != 0)
		return -1;
	for (int i = 0; i < in->nentries; i++) {
		dh_finish_entry *f = &g->finish[in->e[i].seat - 1];
		f->entered = true;
		f->fatalities = (int16_t)in->e[i].fatalities;
		f->blood_bags = (int16_t)in->e[i].blood_bags;
		f->patients_left = (int16_t)in->e[i].patients_left;
		f->pips_left = (int16_t)in->e[i].pips_left;
		f->collected = (int16_t)in->e[i].collected;
	}
	g->finished = true;
	g->rounds_played = (int8_t)last;
	return 0;
}

/* ---- scoring ---- */

static void add(dh_seat_score *s, int round, dh_rule rule, int count, int points, bool verified)
{
	tt_tally t = {s->items,  &s->nitems,      DH_MAX_ITEMS,
	              &s->total, s->round_points, &s->all_verified};
	tt_add(&t, round, (int)rule, count, points, verified);
}

static int discharged_total(const dh_round_entry *e)
{
	return e->discharged[DH_RED] + e->discharged[DH_YELLOW] + e->discharged[DH_GREEN];
}

/* One seat's round (seed 000, PHASE 5; HOSPITAL ADMINISTRATORS; REGISTRAR). most = the most
 * patients any entered seat discharged this round. */
static void score_round(const dh_game *g, int r, int s, int most, dh_seat_score *out)
{
	const dh_profile *p = &g->cfg.profile;
	const dh_round_entry *e = &g->rounds[r][s];
	if (!e->entered)
		return;
	int n = discharged_total(e);
	int round = r + 1;
	add(out, round, DH_R_DISCHARGE, n, p->discharge[n].value, p->discharge[n].verified);
	const tt_value *ab = &p->administrator_bonus;
	int a = g->cfg.solo ? DH_ADMIN_NONE : g->cfg.admin[s];
	for (int c = 0; c < DH_COLOURS; c++)
		if (a == DH_ADMIN_2_RED + c && e->discharged[c] >= 2)
			add(out, round, (dh_rule)(DH_R_ADMIN_2_RED + c), 1, ab->value,
			    ab->verified);
	if (a == DH_ADMIN_3_COLOURS && e->discharged[0] && e->discharged[1] && e->discharged[2])
		add(out, round, DH_R_ADMIN_3_COLOURS, 1, ab->value, ab->verified);
	/* "discharged the most patients": every tied player scores; a round where nobody
	 * discharged anyone has no "most" (reading: discharging none is not discharging most). */
	if (a == DH_ADMIN_MOST && n > 0 && n == most)
		add(out, round, DH_R_ADMIN_MOST, 1, ab->value, ab->verified);
	if (e->wards_empty)
		add(out, round, DH_R_WARDS_EMPTY, 1, p->wards_empty.value, p->wards_empty.verified);
	add(out, round, DH_R_REGISTRAR, e->registrar, e->registrar * p->registrar.value,
	    p->registrar.verified);
}

static void score_end(const dh_game *g, int s, const int8_t report_round[DH_REPORTS],
                      dh_seat_score *out)
{
	const dh_profile *p = &g->cfg.profile;
	const dh_finish_entry *f = &g->finish[s];
	bool solo = g->cfg.solo;
	int ff =
	    solo && g->cfg.variant[DH_VAR_FATALITY_PENALTY] ? p->fatality_penalty_factor.value : 1;
	bool fv = p->fatality.verified && (ff == 1 || p->fatality_penalty_factor.verified);
	add(out, 0, DH_R_FATALITY, f->fatalities, f->fatalities * p->fatality.value * ff, fv);
	add(out, 0, DH_R_BLOOD_BAG, f->blood_bags, f->blood_bags * p->blood_bag.value,
	    p->blood_bag.verified);
	if (g->cfg.variant[DH_VAR_FINAL_ROUND_COLLECTIONS]) {
		add(out, 0, DH_R_COLLECTED, f->collected, f->collected * p->collected.value,
		    p->collected.verified);
		add(out, 0, DH_R_PATIENT_LEFT, f->patients_left,
		    f->patients_left * p->patient_left.value, p->patient_left.verified);
	}
	if (!solo)
		return;
	int rf = g->cfg.variant[DH_VAR_MEDICAL_REPORT_PENALTY] ? p->report_penalty_factor.value : 1;
	int n = 0, pts = 0;
	for (int c = 0; c < DH_REPORTS; c++)
		if (!report_round[c]) {
			n++;
			pts += g->cfg.reports[c].points;
		}
	add(out, 0, DH_R_REPORT_INCOMPLETE, n, -pts * rf,
	    rf == 1 || p->report_penalty_factor.verified);
}

/* Tie-break key of seed 000, END GAME SCORING: total, then fewest patients left, then the
 * highest total pips (only once the finish is entered). Returns the first level where seats
 * a and b differ (0 total, 1 patients, 2 pips, 3 none) and sets *ahead = a is ahead there. */
static int compare(const dh_game *g, const dh_scores *sc, int a, int b, bool *ahead)
{
	int ta = sc->seat[a].total, tb = sc->seat[b].total;
	*ahead = false;
	if (ta != tb) {
		*ahead = ta > tb;
		return 0;
	}
	if (!g->finished)
		return 3;
	const dh_finish_entry *fa = &g->finish[a], *fb = &g->finish[b];
	if (fa->patients_left != fb->patients_left) {
		*ahead = fa->patients_left < fb->patients_left;
		return 1;
	}
	if (fa->pips_left != fb->pips_left) {
		*ahead = fa->pips_left > fb->pips_left;
		return 2;
	}
	return 3;
}

static void standings(const dh_game *g, dh_scores *sc)
{
	int n = g->cfg.nseats;
	for (int a = 0; a < n; a++) {
		int better = 0, level = -1;
		for (int b = 0; b < n; b++) {
			if (b == a)
				continue;
			bool ahead;
			int l = compare(g, sc, b, a, &ahead);
			if (l < 3 && ahead)
				better++;
			if (l > 0 && l > level)
				level = l;
		}
		sc->seat[a].rank = better + 1;
		sc->seat[a].tie = level < 1    ? DH_TIE_NONE
		                  : level == 1 ? DH_TIE_FEWEST_PATIENTS
		                  : level == 2 ? DH_TIE_HIGHEST_PIPS
		                               : DH_TIE_SHARED;
	}
	/* order: by rank, then seat number (insertion sort of at most 4) */
	for (int i = 0; i < n; i++)
		sc->order[i] = i + 1;
	for (int i = 1; i < n; i++)
		for (int j = i;
		     j > 0 && sc->seat[sc->order[j] - 1].rank < sc->seat[sc->order[j - 1] - 1].rank;
		     j--) {
			int t = sc->order[j];
			sc->order[j] = sc->order[j - 1];
			sc->order[j - 1] = t;
		}
}

void dh_score(const dh_game *g, dh_scores *out)
{
	memset(out, 0, sizeof *out);
	int n = g->cfg.nseats;
	out->nseats = n;
	out->finished = g->finished;
	if (g->cfg.solo) {
		tt_error ignored;
		/* the stored state passed this check when each round was applied */
		if (reports_replay(g, 0, out->report_round, &ignored) != 0)
			memset(out->report_round, 0, sizeof out->report_round);
	}
	for (int s = 0; s < n; s++) {
		out->seat[s].seat = s + 1;
		out->seat[s].all_verified = true;
	}
	for (int r = 0; r < DH_ROUNDS; r++) {
		int most = 0;
		for (int s = 0; s < n; s++)
			if (g->rounds[r][s].entered && discharged_total(&g->rounds[r][s]) > most)
				most = discharged_total(&g->rounds[r][s]);
		for (int s = 0; s < n; s++) {
			score_round(g, r, s, most, &out->seat[s]);
			if (s == 0 && g->cfg.solo) {
				int k = 0, pts = 0;
				for (int c = 0; c < DH_REPORTS; c++)
					if (out->report_round[c] == r + 1) {
						k++;
						pts += g->cfg.reports[c].points;
					}
				/* the points printed on the cards the player dealt: as entered */
				add(&out->seat[0], r + 1, DH_R_REPORT_COMPLETED, k, pts, true);
			}
		}
	}
	if (g->finished)
		for (int s = 0; s < n; s++)
			score_end(g, s, out->report_round, &out->seat[s]);
	standings(g, out);
}

/* ---- profile ---- */

int dh_profile_from_json(dh_profile *out, struct json_object *doc, char *err, size_t errlen)
{
	dh_profile p;
	memset(&p, 0, sizeof p);
	json_object *values = NULL;
	if (tt_get_profile(doc, "dh", p.id, p.name, p.checked_at, &values, err, errlen) != 0)
		return -1;
	if (tt_get_list(values, "discharge", "points", DH_SPACES, 0, 1000, &p.discharge[1], err,
	                errlen) != 0)
		return -1;
	p.discharge[0].verified = true;
	const tt_scalar scalars[] = {
	    {"wards_empty", &p.wards_empty, 0, 100},
	    {"administrator_bonus", &p.administrator_bonus, 0, 100},
	    {"registrar", &p.registrar, 0, 100},
	    {"fatality", &p.fatality, -100, 0},
	    {"blood_bag", &p.blood_bag, 0, 100},
	    {"collected", &p.collected, 0, 100},
	    {"patient_left", &p.patient_left, -100, 0},
	    {"fatality_penalty_factor", &p.fatality_penalty_factor, 1, 10},
	    {"report_penalty_factor", &p.report_penalty_factor, 1, 10},
	};
	if (tt_get_scalars(values, scalars, sizeof scalars / sizeof scalars[0], err, errlen) != 0)
		return -1;
	*out = p;
	return 0;
}

int dh_admins_check_json(struct json_object *doc, char *err, size_t errlen)
{
	json_object *list = NULL;
	if (!json_object_object_get_ex(doc, "administrators", &list) ||
	    !json_object_is_type(list, json_type_array) ||
	    json_object_array_length(list) != DH_ADMINS) {
		snprintf(err, errlen, "/administrators: must list the %d Administrators",
		         DH_ADMINS);
		return -1;
	}
	for (size_t i = 0; i < DH_ADMINS; i++) {
		json_object *a = json_object_array_get_idx(list, i), *id = NULL;
		if (!json_object_object_get_ex(a, "id", &id) ||
		    !json_object_is_type(id, json_type_string) ||
		    dh_admin_from_id(json_object_get_string(id)) != (int)i) {
			snprintf(err, errlen, "/administrators/%zu/id: expected \"%s\"", i,
			         admin_ids[i]);
			return -1;
		}
	}
	return 0;
}
