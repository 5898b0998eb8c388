/* ALICAT, the solo bot: its whole turn by its protocol (ER rulebook "SOLO MODE").
 *
 * Pure: (sheet, turn, final_turn) → er_move. The move is built to be accepted by
 * er_move_apply(d, t, move, alicat = true, copy of the sheet), which does the bookkeeping
 * (stethoscopes and blood bags gained and spent, critical mark, nurse and its cap of 5 extra).
 *
 * Readings of the rulebook (quotes from "SOLO MODE"):
 * - Dice order: "the lowest-valued available patient die (or, if tied, the left-most die)";
 *   left-most is the bay order red, yellow, green.
 * - Values: "ALICAT can write a value that is higher than or equal to the patient value in the
 *   previous bed space"; after a screened patient any value. ALICAT's stethoscopes only ever
 *   raise a value ("use stethoscopes to increase the patient value"), and by the least that
 *   makes the bed legal, i.e. up to the previous patient's value.
 * - Resources are what the ledger holds plus what the chosen die's own bonus gives this turn
 *   ("As normal, stethoscopes [a blood bag] can be used by ALICAT on the same turn that they
 *   are gained"). The blood bag that lets ALICAT take the human chief's die must have been
 *   held before the turn (the rulebook's "in a later turn"), and is spent in addition to any
 *   recolouring blood bag.
 * - Admission protocol: four passes over wards 1→7 ("checking the wards clockwise from the
 *   left-most ward entrance"): plain, then stethoscopes, then a blood bag, then both; the first
 *   bed found wins. A blood bag recolours the die to the bed's colour.
 * - Die choice: lowest available die, then the next, then the final die; when the human is the
 *   chief the final die is the chief's die, taken with a blood bag ("ALICAT must in this case
 *   use a blood bag to choose the same patient die as you"), so it is only tried when ALICAT
 *   holds one. If nothing can be admitted, the lowest normally available die goes to the
 *   morgue; its bonus is still gained (stethoscopes, blood bag, screen, extra patient).
 * - Final turn: every ward with exactly one empty bed is a candidate; wards are tried by
 *   clipboard, highest first (ties: the left-most), and for each ward the normally available
 *   dice lowest first (left-most tie), with any stethoscopes (raising only: lowering never
 *   makes a last bed legal) and blood bags. The human chief's die, taken with a blood bag, is
 *   tried after the normally available dice: it is the protocol's last resort, and "any
 *   combination of stethoscopes and blood bags" includes that blood bag.
 * - Screen: "ALICAT always admits a new patient before drawing the screen": the last patient,
 *   not yet screened, of the highest value among the wards that are not full, left-most ward on
 *   ties. No screen when no ward qualifies.
 * - Extra patient: after the regular patient, on the sheet as it stands then and with the
 *   resources left: the lower printed value by the protocol, else the higher one, else the
 *   morgue. The printed colour is its colour. */
#include <stdio.h>
#include <string.h>

#include "rules/er.h"

typedef struct {
	int ward;
	int value;
	er_colour recolour;
	int steth; /* spent */
	int blood; /* spent on recolouring (not the chief-die blood bag) */
} placement;

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static bool is_full(const er_data *d, const er_sheet *s, int w)
{
	return s->count[w] >= d->wards[w].nbeds;
}

/* Colour of the next empty bed of ward w (not full). */
static er_colour next_colour(const er_data *d, const er_sheet *s, int w)
{
	return d->beds[d->wards[w].first_bed + s->count[w]].colour;
}

/* The least value ALICAT may write next in ward w: 1 if any value is allowed (empty ward, or
 * the last patient is screened), else the last patient's value. */
static int floor_value(const er_sheet *s, int w)
{
	int n = s->count[w];
	if (n == 0 || s->ward[w][n - 1].screen)
		return 1;
	return s->ward[w][n - 1].value;
}

/* Can a patient (v, c) take the next bed of ward w using stethoscopes exactly when use_steth
 * (raising the value, at most steth of them) and a recolouring blood bag exactly when use_blood
 * (if blood ≥ 1)? "Exactly" makes the protocol's four steps disjoint. */
static bool fits(const er_data *d, const er_sheet *s, int w, int v, er_colour c, int steth,
                 int blood, bool use_steth, bool use_blood, placement *out)
{
	if (is_full(d, s, w))
		return false;
	er_colour bed = next_colour(d, s, w);
	bool colour_ok = bed == ER_WILD || bed == c;
	int lo = floor_value(s, w);
	int need = v >= lo ? 0 : lo - v;
	if (colour_ok == use_blood || (need > 0) != use_steth)
		return false;
	if (need > steth || (use_blood && blood < 1))
		return false;
	*out = (placement){.ward = w,
	                   .value = v + need,
	                   .recolour = use_blood ? bed : ER_NO_COLOUR,
	                   .steth = need,
	                   .blood = use_blood ? 1 : 0};
	return true;
}

/* ALICAT's admission protocol for one patient: step k = 0 plain, 1 stethoscopes, 2 a blood bag,
 * 3 both; in each step the first ward 1→7 that fits. */
static bool protocol(const er_data *d, const er_sheet *s, int v, er_colour c, int steth, int blood,
                     placement *out)
{
	for (int k = 0; k < 4; k++)
		for (int w = 0; w < ER_WARDS; w++)
			if (fits(d, s, w, v, c, steth, blood, k & 1, k & 2, out))
				return true;
	return false;
}

/* Any way at all to put (v, c) in the next bed of ward w (the steps are disjoint, so the one
 * that fits is also the cheapest). */
static bool fits_any(const er_data *d, const er_sheet *s, int w, int v, er_colour c, int steth,
                     int blood, placement *out)
{
	for (int k = 0; k < 4; k++)
		if (fits(d, s, w, v, c, steth, blood, k & 1, k & 2, out))
			return true;
	return false;
}

static void write_patient(er_sheet *s, const placement *p)
{
	s->ward[p->ward][s->count[p->ward]++] = (er_patient){.value = (int8_t)p->value};
}

static er_step admit_step(er_pt who, const placement *p)
{
	return (er_step){.kind = ER_STEP_ADMIT,
	                 .patient = who,
	                 .ward = (int8_t)p->ward,
	                 .value = (int8_t)p->value,
	                 .recolour = p->recolour};
}

static er_result fail(const char *rule, const char *detail)
{
	er_result r = {.rule = rule, .step = -1};
	snprintf(r.detail, sizeof r.detail, "%s", detail);
	return r;
}

er_result er_alicat_move(const er_data *d, const er_sheet *s, const er_turn *t, bool final_turn,
                         er_move *out)
{
	er_result ok = er_ok();
	memset(out, 0, sizeof *out);
	out->die = ER_NO_COLOUR;
	if (t->card < 1 || t->card > ER_CARDS)
		return fail(ER_RULE_UNKNOWN_CARD, "the ambulance card must be 1..27");
	for (int c = 0; c < ER_DICE; c++)
		if (t->dice[c] < 1 || t->dice[c] > 6)
			return fail(ER_RULE_DIE_OUT_OF_RANGE, "every die must show 1..6");
	if (!t->chief && (t->chief_die < ER_RED || t->chief_die > ER_GREEN))
		return fail(ER_RULE_CHIEF_DIE, "ALICAT is not the Chief Physician: the chief's die "
		                               "must be known before ALICAT chooses");
	for (int w = 0; w < ER_WARDS; w++) {
		if (s->count[w] < 0 || s->count[w] > d->wards[w].nbeds)
			return fail(ER_RULE_SHEET_TOO_MANY, "a ward holds more patients than beds");
		for (int i = 0; i < s->count[w]; i++)
			if (s->ward[w][i].value < 1 || s->ward[w][i].value > 6)
				return fail(ER_RULE_SHEET_VALUE, "a patient value is outside 1..6");
	}

	const er_card *card = &d->cards[t->card - 1];
	int held_steth = imax(0, s->steth_circled - s->steth_used);
	int held_blood = imax(0, s->blood_circled - s->blood_used);

	/* Normally available dice, lowest value first, bay order on ties. */
	int avail[ER_DICE], navail = 0;
	for (int c = 0; c < ER_DICE; c++)
		if (t->chief || c != (int)t->chief_die)
			avail[navail++] = c;
	for (int i = 1; i < navail; i++)
		for (int j = i; j > 0 && t->dice[avail[j]] < t->dice[avail[j - 1]]; j--) {
			int x = avail[j];
			avail[j] = avail[j - 1];
			avail[j - 1] = x;
		}
	/* Candidates in protocol order: the available dice, then the human chief's die if ALICAT
	 * holds a blood bag to take it. */
	int cand[ER_DICE], ncand = navail;
	memcpy(cand, avail, sizeof avail);
	if (!t->chief && held_blood >= 1)
		cand[ncand++] = t->chief_die;

	int die = -1;
	placement reg;
	int steth_left = held_steth, blood_left = held_blood;
	for (int pass = final_turn ? 0 : 1; pass < 2 && die < 0; pass++) {
		/* pass 0: the final turn's "fill the last empty space in a ward"; pass 1: the
		 * protocol. */
		int order[ER_WARDS], nw = 0;
		if (pass == 0) {
			for (int w = 0; w < ER_WARDS; w++)
				if (s->count[w] == d->wards[w].nbeds - 1)
					order[nw++] = w;
			for (int i = 1; i < nw; i++)
				for (int j = i; j > 0 && d->wards[order[j]].clipboard >
				                             d->wards[order[j - 1]].clipboard;
				     j--) {
					int x = order[j];
					order[j] = order[j - 1];
					order[j - 1] = x;
				}
		}
		for (int wi = 0; wi < (pass == 0 ? nw : 1) && die < 0; wi++) {
			for (int i = 0; i < ncand && die < 0; i++) {
				int c = cand[i];
				bool via_chief = !t->chief && c == (int)t->chief_die;
				er_bonus_kind b = card->bay[c].kind;
				int st = held_steth +
				         (b == ER_BONUS_STETHOSCOPES ? d->steth_per_bonus : 0);
				int bl = held_blood - (via_chief ? 1 : 0) +
				         (b == ER_BONUS_BLOOD_BAG ? d->blood_per_bonus : 0);
				bool found = pass == 0 ? fits_any(d, s, order[wi], t->dice[c],
				                                  (er_colour)c, st, bl, &reg)
				                       : protocol(d, s, t->dice[c], (er_colour)c,
				                                  st, bl, &reg);
				if (found) {
					die = c;
					steth_left = st - reg.steth;
					blood_left = bl - reg.blood;
				}
			}
		}
	}

	er_sheet after = *s;
	if (die >= 0) {
		out->steps[out->nsteps++] = admit_step(ER_PT_DIE, &reg);
		write_patient(&after, &reg);
	} else {
		die = avail[0];
		er_bonus_kind b = card->bay[die].kind;
		steth_left = held_steth + (b == ER_BONUS_STETHOSCOPES ? d->steth_per_bonus : 0);
		blood_left = held_blood + (b == ER_BONUS_BLOOD_BAG ? d->blood_per_bonus : 0);
		out->steps[out->nsteps++] = (er_step){
		    .kind = ER_STEP_MORGUE, .patient = ER_PT_DIE, .recolour = ER_NO_COLOUR};
	}
	out->die = (er_colour)die;

	const er_bonus *bonus = &card->bay[die];
	if (bonus->kind == ER_BONUS_EXTRA) {
		placement ex;
		bool placed = false;
		for (int i = 0; i < 2 && !placed; i++)
			placed = protocol(d, &after, bonus->extra_values[i], bonus->extra_colour,
			                  steth_left, blood_left, &ex);
		if (placed) {
			out->steps[out->nsteps++] = admit_step(ER_PT_EXTRA, &ex);
			write_patient(&after, &ex);
		} else {
			out->steps[out->nsteps++] = (er_step){.kind = ER_STEP_MORGUE,
			                                      .patient = ER_PT_EXTRA,
			                                      .recolour = ER_NO_COLOUR};
		}
	} else if (bonus->kind == ER_BONUS_SCREEN) {
		int best = -1;
		for (int w = 0; w < ER_WARDS; w++) {
			int n = after.count[w];
			if (n == 0 || is_full(d, &after, w) || after.ward[w][n - 1].screen)
				continue;
			if (best < 0 || after.ward[w][n - 1].value >
			                    after.ward[best][after.count[best] - 1].value)
				best = w;
		}
		if (best >= 0)
			out->steps[out->nsteps++] = (er_step){
			    .kind = ER_STEP_SCREEN, .ward = (int8_t)best, .recolour = ER_NO_COLOUR};
	}
	return ok;
}
