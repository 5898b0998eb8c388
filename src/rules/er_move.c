/* ER moves: checking and applying one player's whole turn, and listing the legal admissions.
 *
 * Rulebook: seed 003 (cited by section heading), summary 002. Pure: no I/O, no allocation.
 *
 * Resource model (ER rulebook "AMBULANCE BONUS", "STETHOSCOPE", "BLOOD BAG", "USING BLOOD
 * BAGS"): choosing the Chief Physician's die costs one blood bag that was held before this turn
 * (the chosen die's own bonus is only gained by choosing it, so it cannot pay for the choice);
 * then the chosen die's bonus stethoscopes/blood bag are circled at once and may be spent on
 * this turn's patients, even if the patient goes to the morgue. */
#include <stdio.h>
#include <stdlib.h>

#include "rules/er.h"

#include <string.h>

static const char *cname(er_colour c)
{
	const char *n = er_colour_name(c);
	return n ? n : "?";
}

static bool is_die_colour(int c)
{
	return c >= ER_RED && c <= ER_GREEN;
}

static er_result check_turn(const er_turn *t)
{
	er_result ok = er_ok();
	if (t->card < 1 || t->card > ER_CARDS)
		return er_fail(ER_RULE_UNKNOWN_CARD, "card %d is not an ambulance card (1-%d)",
		               t->card, ER_CARDS);
	for (int c = 0; c < ER_DICE; c++)
		if (t->dice[c] < 1 || t->dice[c] > 6)
			return er_fail(ER_RULE_DIE_OUT_OF_RANGE, "the %s die shows %d, outside 1-6",
			               cname((er_colour)c), t->dice[c]);
	if (!t->chief && t->chief_die != ER_NO_COLOUR && !is_die_colour(t->chief_die))
		return er_fail(ER_RULE_DIE_OUT_OF_RANGE,
		               "the Chief Physician's die is not a die colour");
	return ok;
}

/* |value - v| for the die; the nearer printed value for the extra patient
 * ("USING STETHOSCOPES": ±1 each, no wrap between 6 and 1; "EXTRA PATIENT"). */
static int steth_cost(const er_turn *t, er_colour die, const er_bonus *b, er_pt p, int value)
{
	if (p == ER_PT_DIE)
		return abs(value - t->dice[die]);
	int c0 = abs(value - b->extra_values[0]), c1 = abs(value - b->extra_values[1]);
	return c0 < c1 ? c0 : c1;
}

/* "ADMIT PATIENT / Value" and "SCREEN"; ALICAT: "higher than or equal to". */
static bool value_fits(const er_sheet *s, int w, int value, bool alicat)
{
	if (s->count[w] == 0)
		return true;
	const er_patient *prev = &s->ward[w][s->count[w] - 1];
	if (prev->screen)
		return true;
	return alicat ? value >= prev->value : value > prev->value;
}

static int nurses_crossed(const er_sheet *s)
{
	int n = 0;
	for (int w = 0; w < ER_WARDS; w++)
		n += s->nurse_crossed[w];
	return n;
}

static er_result admit(const er_data *d, const er_turn *t, er_colour die, const er_bonus *b,
                       const er_step *st, bool alicat, er_sheet *c)
{
	er_result ok = er_ok();
	const char *who = st->patient == ER_PT_DIE ? "die" : "extra";
	int w = st->ward, v = st->value;
	if (w < 0 || w >= ER_WARDS)
		return er_fail(ER_RULE_INVALID_MOVE, "ward %d does not exist (1-%d)", w + 1,
		               ER_WARDS);
	/* "ADMIT PATIENT / Bed space": the next bed from the lobby. */
	if (c->count[w] >= d->wards[w].nbeds)
		return er_fail(ER_RULE_WARD_FULL, "ward %d is full (%d beds)", w + 1,
		               d->wards[w].nbeds);
	/* "USING STETHOSCOPES": never below 1 or above 6. */
	if (v < 1 || v > 6)
		return er_fail(ER_RULE_VALUE_OUT_OF_RANGE,
		               "value %d for the %s patient is outside 1-6", v, who);
	int avail = c->steth_circled - c->steth_used;
	int cost = steth_cost(t, die, b, st->patient, v);
	if (cost > avail) {
		if (st->patient == ER_PT_EXTRA)
			return er_fail(
			    ER_RULE_EXTRA_VALUE,
			    "the extra patient is %d or %d: writing %d needs %d stethoscope(s), "
			    "%d available",
			    b->extra_values[0], b->extra_values[1], v, cost, avail);
		return er_fail(
		    ER_RULE_NOT_ENOUGH_STETHOSCOPES,
		    "the %s die rolled %d: writing %d needs %d stethoscope(s), %d available",
		    cname(die), t->dice[die], v, cost, avail);
	}
	c->steth_used = (int16_t)(c->steth_used + cost);
	/* "ADMIT PATIENT / Colour"; "USING BLOOD BAGS": a blood bag ignores the die's colour. */
	er_colour colour = st->patient == ER_PT_DIE ? die : b->extra_colour;
	if (st->recolour != ER_NO_COLOUR) {
		if (!is_die_colour(st->recolour))
			return er_fail(ER_RULE_INVALID_MOVE,
			               "recolour must be red, yellow or green");
		if (c->blood_circled - c->blood_used < 1)
			return er_fail(ER_RULE_NOT_ENOUGH_BLOOD_BAGS,
			               "recolouring the %s patient needs a blood bag, none left",
			               who);
		c->blood_used++;
		colour = st->recolour;
	}
	int bed = d->wards[w].first_bed + c->count[w];
	er_colour bc = d->beds[bed].colour;
	if (bc != ER_WILD && bc != colour)
		return er_fail(ER_RULE_COLOUR_MISMATCH,
		               "ward %d bed %d is %s, the %s patient is %s", w + 1, c->count[w] + 1,
		               cname(bc), who, cname(colour));
	if (!value_fits(c, w, v, alicat))
		return er_fail(ER_RULE_VALUE_NOT_INCREASING,
		               "ward %d: %d is not %s the previous patient %d (no screen)", w + 1,
		               v, alicat ? "equal to or higher than" : "higher than",
		               c->ward[w][c->count[w] - 1].value);
	er_patient *p = &c->ward[w][c->count[w]++];
	p->value = (int8_t)v;
	p->screen = false;
	/* "CRITICAL PATIENT", "NURSE": the chosen patient only, when admitted. */
	p->critical = st->patient == ER_PT_DIE && b->kind == ER_BONUS_CRITICAL;
	if (st->patient == ER_PT_DIE && b->kind == ER_BONUS_NURSE && !c->nurse_crossed[w] &&
	    c->nurse_track < ER_NURSE_SPACES &&
	    (!alicat || nurses_crossed(c) < d->alicat_max_extra_nurses)) {
		/* "NURSE": once per ward, else lost; "SOLO MODE / Nurse": at most 5 for ALICAT. */
		c->nurse_crossed[w] = true;
		c->nurse_track++;
	}
	return ok;
}

/* What the steps of one move have done so far (er_move_apply). */
typedef struct {
	bool resolved[2]; /* indexed by er_pt */
	bool screened;
} move_progress;

/* Checks and applies one step of a move to the working copy *c of the sheet. */
static er_result apply_step(const er_data *d, const er_turn *t, er_colour die, const er_bonus *b,
                            const er_step *st, int i, bool alicat, move_progress *mp, er_sheet *c)
{
	switch (st->kind) {
	case ER_STEP_SCREEN: {
		/* "SCREEN": once, on the last patient of any ward, before or after. */
		if (b->kind != ER_BONUS_SCREEN)
			return er_fail(ER_RULE_SCREEN_NOT_OFFERED,
			               "the %s die's bonus is %s, not a screen", cname(die),
			               er_bonus_name(b->kind));
		if (mp->screened)
			return er_fail(ER_RULE_SCREEN_NOT_OFFERED,
			               "the screen bonus gives one screen");
		int w = st->ward;
		if (w < 0 || w >= ER_WARDS)
			return er_fail(ER_RULE_INVALID_MOVE, "ward %d does not exist (1-%d)", w + 1,
			               ER_WARDS);
		if (c->count[w] == 0)
			return er_fail(ER_RULE_SCREEN_EMPTY_WARD,
			               "ward %d has no patient to screen", w + 1);
		c->ward[w][c->count[w] - 1].screen = true;
		mp->screened = true;
		return er_ok();
	}
	case ER_STEP_ADMIT:
	case ER_STEP_MORGUE:
		if (st->patient != ER_PT_DIE && st->patient != ER_PT_EXTRA)
			return er_fail(ER_RULE_INVALID_MOVE,
			               "a step names the die or extra patient");
		if (st->patient == ER_PT_EXTRA && b->kind != ER_BONUS_EXTRA)
			return er_fail(ER_RULE_BONUS_NOT_OFFERED,
			               "the %s die's bonus is %s, not an extra patient", cname(die),
			               er_bonus_name(b->kind));
		if (mp->resolved[st->patient])
			return er_fail(ER_RULE_PATIENT_TWICE, "the %s patient is placed twice",
			               st->patient == ER_PT_DIE ? "die" : "extra");
		mp->resolved[st->patient] = true;
		if (st->kind == ER_STEP_ADMIT)
			return admit(d, t, die, b, st, alicat, c);
		/* "MORGUE": once full, no further penalty; "AMBULANCE BONUS": the critical and
		 * nurse bonuses are lost. */
		if (c->morgue < d->morgue_boxes)
			c->morgue++;
		return er_ok();
	default:
		return er_fail(ER_RULE_INVALID_MOVE, "step %d has an unknown kind", i + 1);
	}
}

er_result er_move_apply(const er_data *d, const er_turn *t, const er_move *m, bool alicat,
                        er_sheet *s)
{
	er_result r = check_turn(t);
	if (r.rule)
		return r;
	if (!is_die_colour(m->die))
		return er_fail(ER_RULE_INVALID_MOVE, "the chosen die is not red, yellow or green");
	if (m->nsteps < 0 || m->nsteps > ER_MAX_STEPS)
		return er_fail(ER_RULE_INVALID_MOVE, "a move has 0-%d steps, not %d", ER_MAX_STEPS,
		               m->nsteps);
	for (int w = 0; w < ER_WARDS; w++)
		if (s->count[w] < 0 || s->count[w] > d->wards[w].nbeds)
			return er_fail(ER_RULE_SHEET_TOO_MANY,
			               "ward %d holds %d patients but has %d beds", w + 1,
			               s->count[w], d->wards[w].nbeds);

	er_sheet c = *s;
	er_colour die = m->die;
	/* "CHOOSE PATIENT", "USING BLOOD BAGS": the chief's die costs a blood bag held before. */
	if (!t->chief && t->chief_die == die) {
		if (c.blood_circled - c.blood_used < 1)
			return er_fail(
			    ER_RULE_CHIEF_DIE,
			    "the Chief Physician took the %s die: choosing it needs a blood bag "
			    "held before this turn",
			    cname(die));
		c.blood_used++;
	}
	/* "AMBULANCE BONUS": gained on choosing, usable at once ("STETHOSCOPE", "BLOOD BAG"). */
	const er_bonus *b = &d->cards[t->card - 1].bay[die];
	if (b->kind == ER_BONUS_STETHOSCOPES)
		c.steth_circled += d->steth_per_bonus;
	else if (b->kind == ER_BONUS_BLOOD_BAG)
		c.blood_circled += d->blood_per_bonus;

	move_progress mp = {{false, false}, false};
	for (int i = 0; i < m->nsteps; i++) {
		r = apply_step(d, t, die, b, &m->steps[i], i, alicat, &mp, &c);
		if (r.rule) {
			r.step = i; /* the step that broke it, for the reply's field */
			return r;
		}
	}
	if (!mp.resolved[ER_PT_DIE])
		return er_fail(ER_RULE_UNRESOLVED_PATIENT,
		               "the %s die's patient must be admitted or sent to the morgue",
		               cname(die));
	if (b->kind == ER_BONUS_EXTRA && !mp.resolved[ER_PT_EXTRA])
		return er_fail(
		    ER_RULE_UNRESOLVED_PATIENT,
		    "the extra patient (%s %d/%d) must be admitted or sent to the morgue",
		    cname(b->extra_colour), b->extra_values[0], b->extra_values[1]);
	*s = c;
	return er_ok();
}

/* Options are per single admission: each is costed from the start-of-turn ledger plus the chosen
 * die's bonus, minus the chief-die blood bag. When a die has an extra patient, the die patient's
 * and the extra patient's options each assume the other goes to the morgue; admitting both may
 * need more than the ledger holds, which er_move_apply() checks. */
int er_move_options(const er_data *d, const er_turn *t, const er_sheet *s, bool alicat,
                    er_option *out, int max)
{
	int n = 0;
	if (check_turn(t).rule)
		return 0;
	for (int w = 0; w < ER_WARDS; w++)
		if (s->count[w] < 0 || s->count[w] > d->wards[w].nbeds)
			return 0;
	for (int di = 0; di < ER_DICE; di++) {
		er_colour die = (er_colour)di;
		int steth = s->steth_circled - s->steth_used;
		int blood = s->blood_circled - s->blood_used, chief = 0;
		if (!t->chief && t->chief_die == die) {
			if (blood < 1)
				continue;
			blood--;
			chief = 1;
		}
		const er_bonus *b = &d->cards[t->card - 1].bay[die];
		if (b->kind == ER_BONUS_STETHOSCOPES)
			steth += d->steth_per_bonus;
		else if (b->kind == ER_BONUS_BLOOD_BAG)
			blood += d->blood_per_bonus;
		int npt = b->kind == ER_BONUS_EXTRA ? 2 : 1;
		for (int pi = 0; pi < npt; pi++) {
			er_pt p = (er_pt)pi;
			er_colour colour = p == ER_PT_DIE ? die : b->extra_colour;
			for (int w = 0; w < ER_WARDS; w++) {
				if (s->count[w] >= d->wards[w].nbeds)
					continue;
				er_colour bc = d->beds[d->wards[w].first_bed + s->count[w]].colour;
				bool recolour = bc != ER_WILD && bc != colour;
				if (recolour && blood < 1)
					continue;
				for (int v = 1; v <= 6; v++) {
					int cost = steth_cost(t, die, b, p, v);
					if (cost > steth)
						continue;
					bool sf = false;
					if (!value_fits(s, w, v, alicat)) {
						/* "SCREEN": screen this ward's last patient first.
						 */
						if (p != ER_PT_DIE || b->kind != ER_BONUS_SCREEN)
							continue;
						sf = true;
					}
					if (n >= max)
						return n;
					out[n++] = (er_option){
					    .die = die,
					    .patient = p,
					    .ward = (int8_t)w,
					    .value = (int8_t)v,
					    .stethoscopes = (int8_t)cost,
					    .blood_bags = (int8_t)(chief + (recolour ? 1 : 0)),
					    .recolour = recolour ? bc : ER_NO_COLOUR,
					    .screen_first = sf,
					};
				}
			}
		}
	}
	return n;
}
