/* Shared helpers for the ER unit tests: load the real game data from templates/er/ and build
 * sheets from a compact text form. Tests may do I/O; the rules code may not.
 *
 *   er_data d; er_sheet s;
 *   if (er_fixture_load(&d) != 0) …                 // templates/er/{sheet,cards,specialists}.json
 *   er_fixture_sheet(&d, &s, "1,3!,5s|2||||4,4s|"); // wards 1..7 separated by '|'
 *
 * Sheet spec: wards in order 1..7 separated by '|' (missing trailing wards are empty); in each
 * ward, patients from the lobby outwards separated by ','; a patient is its value 1..6 followed
 * by any of '!' (critical) and 's' (screen). Spaces are ignored. Ledger fields are set as by a
 * fresh non-ALICAT sheet (steth_circled = start_stethoscopes, the rest 0) without calling
 * er_sheet_init(), so a test that includes this header does not need er_sheet.c; set other
 * fields directly. */
#ifndef ER_FIXTURE_H
#define ER_FIXTURE_H

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/er.h"

#define ER_FIXTURE_UNUSED __attribute__((unused))

/* Loads templates/er/{sheet,cards,specialists}.json from $TEMPLATES_DIR (the folder holding
 * the three files, e.g. "templates/er") or "templates/er" relative to the cwd. Prints the
 * reason and returns -1 on failure. */
ER_FIXTURE_UNUSED static int er_fixture_load(er_data *d)
{
	static const char *const names[3] = {"sheet.json", "cards.json", "specialists.json"};
	const char *dir = getenv("TEMPLATES_DIR");
	if (!dir || !*dir)
		dir = "templates/er";
	json_object *doc[3] = {NULL, NULL, NULL};
	int rc = -1;
	for (int i = 0; i < 3; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		doc[i] = json_object_from_file(path);
		if (!doc[i]) {
			printf("  er_fixture_load: cannot read %s: %s\n", path,
			       json_util_get_last_err() ? json_util_get_last_err() : "?");
			goto out;
		}
	}
	char err[256];
	rc = er_data_from_json(d, doc[0], doc[1], doc[2], err, sizeof err);
	if (rc != 0)
		printf("  er_fixture_load: %s\n", err);
out:
	for (int i = 0; i < 3; i++)
		json_object_put(doc[i]);
	return rc;
}

/* A fresh sheet (see the header comment) with no patients. */
ER_FIXTURE_UNUSED static void er_fixture_blank(const er_data *d, er_sheet *s)
{
	memset(s, 0, sizeof *s);
	s->steth_circled = (int16_t)d->start_stethoscopes;
}

/* Fills *s from the compact spec. Returns 0, or -1 (with a message) on a malformed spec or
 * more patients than a ward has beds. */
ER_FIXTURE_UNUSED static int er_fixture_sheet(const er_data *d, er_sheet *s, const char *spec)
{
	er_fixture_blank(d, s);
	int w = 0;
	const char *p = spec ? spec : "";
	while (*p) {
		char c = *p;
		if (c == ' ' || c == ',') {
			p++;
		} else if (c == '|') {
			if (++w >= ER_WARDS && p[1] != '\0') {
				printf("  er_fixture_sheet: more than %d wards in \"%s\"\n",
				       ER_WARDS, spec);
				return -1;
			}
			p++;
		} else if (c >= '1' && c <= '6') {
			if (w >= ER_WARDS || s->count[w] >= d->wards[w].nbeds) {
				printf("  er_fixture_sheet: ward %d overfull in \"%s\"\n", w + 1,
				       spec);
				return -1;
			}
			er_patient *pt = &s->ward[w][s->count[w]++];
			pt->value = (int8_t)(c - '0');
			p++;
			for (; *p == '!' || *p == 's'; p++) {
				if (*p == '!')
					pt->critical = true;
				else
					pt->screen = true;
			}
		} else {
			printf("  er_fixture_sheet: unexpected '%c' in \"%s\"\n", c, spec);
			return -1;
		}
	}
	return 0;
}

/* Global bed index of the bed at hex, or -1. */
ER_FIXTURE_UNUSED static int er_fixture_bed_at_hex(const er_data *d, int hex)
{
	for (int i = 0; i < ER_BEDS; i++)
		if (d->beds[i].hex == hex)
			return i;
	return -1;
}

/* The patient in global bed b (NULL if that bed is empty on s). */
ER_FIXTURE_UNUSED static er_patient *er_fixture_patient(const er_data *d, er_sheet *s, int b)
{
	if (b < 0 || b >= ER_BEDS)
		return NULL;
	int w = d->beds[b].ward, p = d->beds[b].pos;
	return p < s->count[w] ? &s->ward[w][p] : NULL;
}

/* Fills *s from values by global bed index (0 = empty). Each ward's patients must form a
 * prefix from the lobby; returns -1 otherwise. No validation of the value order: for tests of
 * er_score_specialist(), which does not validate. */
ER_FIXTURE_UNUSED static int er_fixture_sheet_beds(const er_data *d, er_sheet *s,
                                                   const int values[ER_BEDS])
{
	er_fixture_blank(d, s);
	for (int b = 0; b < ER_BEDS; b++) {
		int w = d->beds[b].ward, p = d->beds[b].pos;
		if (values[b] == 0)
			continue;
		if (values[b] < 1 || values[b] > 6 || p != s->count[w]) {
			printf(
			    "  er_fixture_sheet_beds: bed %d (ward %d pos %d) value %d breaks the "
			    "lobby-first order or range\n",
			    b, w + 1, p, values[b]);
			return -1;
		}
		s->ward[w][s->count[w]++] = (er_patient){.value = (int8_t)values[b]};
	}
	return 0;
}

/* How many patients the sheet holds, in every ward. */
ER_FIXTURE_UNUSED static int er_patients(const er_sheet *s)
{
	int n = 0;
	for (int w = 0; w < ER_WARDS; w++)
		n += s->count[w] > 0 ? s->count[w] : 0;
	return n;
}

/* The move of one option (er_move_options): its screen first when it needs one, the
 * admission, and — when the die's bay is an extra patient — the other patient to the morgue.
 * Accepted by er_move_apply on the sheet the option was computed for. */
ER_FIXTURE_UNUSED static void er_move_from_option(const er_data *d, const er_turn *t,
                                                  const er_option *o, er_move *m)
{
	memset(m, 0, sizeof *m);
	m->die = o->die;
	if (o->screen_first)
		m->steps[m->nsteps++] =
		    (er_step){.kind = ER_STEP_SCREEN, .ward = o->ward, .recolour = ER_NO_COLOUR};
	m->steps[m->nsteps++] = (er_step){.kind = ER_STEP_ADMIT,
	                                  .patient = o->patient,
	                                  .ward = o->ward,
	                                  .value = o->value,
	                                  .recolour = o->recolour};
	if (d->cards[t->card - 1].bay[o->die].kind == ER_BONUS_EXTRA)
		m->steps[m->nsteps++] =
		    (er_step){.kind = ER_STEP_MORGUE,
		              .patient = o->patient == ER_PT_DIE ? ER_PT_EXTRA : ER_PT_DIE,
		              .recolour = ER_NO_COLOUR};
}

#endif
