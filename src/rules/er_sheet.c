/* ER sheet: a fresh sheet, and the check that a sheet could have arisen in play.
 *
 * Rulebook: seed 003 (cited by section heading). Pure: no I/O, no allocation. */
#include <stdio.h>
#include <string.h>

#include "rules/er.h"

void er_sheet_init(er_sheet *s, const er_data *d, bool alicat, unsigned modifiers)
{
	memset(s, 0, sizeof *s);
	/* "USING STETHOSCOPES": you start the game with 1 circled stethoscope. */
	s->steth_circled = (int16_t)d->start_stethoscopes;
	if (alicat) {
		/* "SOLO MODE / GETTING READY" 3: circle the first two nurses in ALICAT's ledger. */
		s->nurse_track = (int8_t)d->alicat_start_nurses;
		if (modifiers & ER_MOD_PREPARATION) {
			s->steth_circled += d->alicat_prep_steth;
			s->blood_circled += d->alicat_prep_blood;
		}
	}
}

bool er_ward_full(const er_data *d, const er_sheet *s, int ward)
{
	if (ward < 0 || ward >= ER_WARDS)
		return false;
	return s->count[ward] >= d->wards[ward].nbeds;
}

er_result er_sheet_validate(const er_data *d, const er_sheet *s, bool alicat, unsigned modifiers)
{
	er_result ok = er_ok();
	bool prep = alicat && (modifiers & ER_MOD_PREPARATION);
	int prep_steth = prep ? d->alicat_prep_steth : 0,
	    prep_blood = prep ? d->alicat_prep_blood : 0;

	/* "ADMIT PATIENT / Bed space": wards fill in order, at most nbeds patients. */
	for (int w = 0; w < ER_WARDS; w++) {
		if (s->count[w] < 0 || s->count[w] > d->wards[w].nbeds)
			return er_fail(ER_RULE_SHEET_TOO_MANY,
			               "ward %d holds %d patients but has %d beds", w + 1,
			               s->count[w], d->wards[w].nbeds);
	}
	/* "USING STETHOSCOPES": values are 1..6. */
	for (int w = 0; w < ER_WARDS; w++) {
		for (int i = 0; i < s->count[w]; i++) {
			int v = s->ward[w][i].value;
			if (v < 1 || v > 6)
				return er_fail(ER_RULE_SHEET_VALUE,
				               "ward %d bed %d holds value %d, outside 1-6", w + 1,
				               i + 1, v);
		}
	}
	/* "ADMIT PATIENT / Value" and "SCREEN"; ALICAT: "higher than or equal to". */
	for (int w = 0; w < ER_WARDS; w++) {
		for (int i = 1; i < s->count[w]; i++) {
			const er_patient *prev = &s->ward[w][i - 1], *p = &s->ward[w][i];
			if (prev->screen)
				continue;
			if (alicat ? p->value < prev->value : p->value <= prev->value)
				return er_fail(ER_RULE_SHEET_ORDER,
				               "ward %d bed %d: %d follows %d without a screen",
				               w + 1, i + 1, p->value, prev->value);
		}
	}
	/* Ledger: "USING STETHOSCOPES", "STETHOSCOPE" (gained in pairs), "USING BLOOD BAGS",
	 * "ADJUSTING THE DIFFICULTY / Preparation". */
	int start = d->start_stethoscopes + prep_steth;
	if (s->steth_used < 0 || s->steth_used > s->steth_circled)
		return er_fail(ER_RULE_SHEET_LEDGER, "%d stethoscopes used but %d circled",
		               s->steth_used, s->steth_circled);
	if (s->steth_circled < start || (s->steth_circled - start) % d->steth_per_bonus != 0)
		return er_fail(ER_RULE_SHEET_LEDGER,
		               "%d stethoscopes circled: must be %d plus a multiple of %d",
		               s->steth_circled, start, d->steth_per_bonus);
	if (s->blood_used < 0 || s->blood_used > s->blood_circled)
		return er_fail(ER_RULE_SHEET_LEDGER, "%d blood bags used but %d circled",
		               s->blood_used, s->blood_circled);
	if (s->blood_circled < prep_blood)
		return er_fail(ER_RULE_SHEET_LEDGER, "%d blood bags circled: at least %d",
		               s->blood_circled, prep_blood);
	/* "NURSE": a nurse is crossed in the ward where the patient was written; each crossing
	 * circles the next track space. "SOLO MODE": ALICAT starts with 2, gains at most 5. */
	int crossed = 0;
	for (int w = 0; w < ER_WARDS; w++) {
		if (!s->nurse_crossed[w])
			continue;
		crossed++;
		if (s->count[w] < 1)
			return er_fail(ER_RULE_SHEET_NURSES,
			               "ward %d has its nurse crossed but no patient", w + 1);
	}
	if (alicat) {
		if (crossed > d->alicat_max_extra_nurses)
			return er_fail(ER_RULE_SHEET_NURSES, "ALICAT crossed %d nurses, at most %d",
			               crossed, d->alicat_max_extra_nurses);
		if (s->nurse_track != d->alicat_start_nurses + crossed)
			return er_fail(
			    ER_RULE_SHEET_NURSES,
			    "ALICAT's nurse track has %d spaces circled, expected %d + %d crossed",
			    s->nurse_track, d->alicat_start_nurses, crossed);
	} else if (s->nurse_track != crossed) {
		return er_fail(ER_RULE_SHEET_NURSES,
		               "nurse track has %d spaces circled but %d nurses are crossed",
		               s->nurse_track, crossed);
	}
	/* "MORGUE": 4 boxes; once full, no more circles. */
	if (s->morgue < 0 || s->morgue > d->morgue_boxes)
		return er_fail(ER_RULE_SHEET_MORGUE, "morgue has %d boxes circled, 0-%d possible",
		               s->morgue, d->morgue_boxes);
	/* "CARDIOLOGISTS": 8 (first), 5 (second, 2 players, solo: 5 per card). */
	for (int k = 0; k < 2; k++) {
		int c = s->cardiologists[k];
		if (c != 0 && c != 5 && c != 8)
			return er_fail(
			    ER_RULE_SHEET_CARDIO,
			    "Cardiologist %d records %d points: only 0, 5 or 8 are possible", k + 1,
			    c);
	}
	return ok;
}
