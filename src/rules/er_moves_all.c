/* The whole moves of one turn, for the coach's search (er_coach.h).
 *
 * Built from er_move_options (every legal admission at its cheapest cost, ER rulebook "ADMIT
 * PATIENT", "USING STETHOSCOPES", "USING BLOOD BAGS") and the other choices of a turn: the
 * morgue ("MORGUE"), the screen bonus ("SCREEN": before the admission when it needs one, or on
 * any ward's last patient), the extra patient ("EXTRA PATIENT": admitted or to the morgue; both
 * patients into one ward in either order). Every candidate is checked by er_move_apply, so a
 * listed move is legal by construction. Pure: no I/O, no allocation. */
#include <string.h>

#include "rules/er_coach.h"

bool er_coach_sheet_eq(const er_sheet *a, const er_sheet *b)
{
	for (int w = 0; w < ER_WARDS; w++) {
		if (a->count[w] != b->count[w] || a->nurse_crossed[w] != b->nurse_crossed[w])
			return false;
		for (int p = 0; p < a->count[w]; p++) {
			const er_patient *x = &a->ward[w][p], *y = &b->ward[w][p];
			if (x->value != y->value || x->critical != y->critical ||
			    x->screen != y->screen)
				return false;
		}
	}
	return a->nurse_track == b->nurse_track && a->steth_circled == b->steth_circled &&
	       a->steth_used == b->steth_used && a->blood_circled == b->blood_circled &&
	       a->blood_used == b->blood_used && a->morgue == b->morgue &&
	       a->cardiologists[0] == b->cardiologists[0] &&
	       a->cardiologists[1] == b->cardiologists[1];
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
	return h * UINT64_C(0xFF51AFD7ED558CCD);
}

uint64_t er_coach_sheet_hash(const er_sheet *s)
{
	uint64_t h = UINT64_C(1469598103934665603);
	for (int w = 0; w < ER_WARDS; w++) {
		h = mix(h, (uint64_t)(s->count[w] * 2 + s->nurse_crossed[w]));
		for (int p = 0; p < s->count[w]; p++) {
			const er_patient *x = &s->ward[w][p];
			h = mix(h, (uint64_t)(x->value * 4 + x->critical * 2 + x->screen));
		}
	}
	h = mix(h, (uint64_t)s->nurse_track);
	h = mix(h, (uint64_t)(uint16_t)s->steth_circled << 16 | (uint16_t)s->steth_used);
	h = mix(h, (uint64_t)(uint16_t)s->blood_circled << 16 | (uint16_t)s->blood_used);
	h = mix(h, (uint64_t)s->morgue);
	h = mix(h, (uint64_t)(uint16_t)s->cardiologists[0] << 16 | (uint16_t)s->cardiologists[1]);
	return h;
}

typedef struct {
	const er_data *d;
	const er_turn *t;
	const er_sheet *s;
	er_move *moves;
	er_sheet *sheets;
	uint64_t hash[ER_COACH_MAX_MOVES];
	int n, max;
} lister;

/* Applies m to the sheet; lists it unless illegal or giving a sheet already listed. */
static void try_move(lister *l, const er_move *m)
{
	if (l->n >= l->max)
		return;
	er_sheet c = *l->s;
	if (er_move_apply(l->d, l->t, m, false, &c).rule)
		return;
	uint64_t h = er_coach_sheet_hash(&c);
	for (int i = 0; i < l->n; i++)
		if (l->hash[i] == h && er_coach_sheet_eq(&l->sheets[i], &c))
			return;
	l->hash[l->n] = h;
	l->moves[l->n] = *m;
	l->sheets[l->n] = c;
	l->n++;
}

static er_step admit_step(er_pt p, int ward, int value, er_colour recolour)
{
	return (er_step){ER_STEP_ADMIT, p, (int8_t)ward, (int8_t)value, recolour};
}

static er_step morgue_step(er_pt p)
{
	return (er_step){ER_STEP_MORGUE, p, 0, 0, ER_NO_COLOUR};
}

static er_step screen_step(int ward)
{
	return (er_step){ER_STEP_SCREEN, ER_PT_DIE, (int8_t)ward, 0, ER_NO_COLOUR};
}

/* "SCREEN": the die's patient (admitted as `first`, or to the morgue when first.kind is
 * MORGUE), then no screen or a screen of any ward's last patient that can still take one.
 * Screening a full ward, or a patient before admitting a higher one behind it, changes nothing
 * a later turn or the score sees, so those are not listed. */
static void with_screens(lister *l, er_colour die, er_step first)
{
	er_move m = {.die = die, .nsteps = 1};
	m.steps[0] = first;
	try_move(l, &m);
	int admitted = first.kind == ER_STEP_ADMIT ? first.ward : -1;
	for (int w = 0; w < ER_WARDS; w++) {
		int count = l->s->count[w] + (w == admitted);
		if (count == 0 || count >= l->d->wards[w].nbeds)
			continue;
		m.nsteps = 2;
		m.steps[1] = screen_step(w);
		try_move(l, &m);
	}
}

/* The bed after the next one in ward w, for a second patient admitted there this turn. */
static er_colour second_bed_colour(const lister *l, int w)
{
	int pos = l->s->count[w] + 1;
	if (pos >= l->d->wards[w].nbeds)
		return ER_NO_COLOUR;
	return l->d->beds[l->d->wards[w].first_bed + pos].colour;
}

/* "EXTRA PATIENT": both patients of the bay; each admitted (any option) or to the morgue. */
static void extra_pairs(lister *l, er_colour die, const er_bonus *b, const er_option *opts,
                        int nopts)
{
	er_move m = {.die = die, .nsteps = 2};
	m.steps[0] = morgue_step(ER_PT_DIE);
	m.steps[1] = morgue_step(ER_PT_EXTRA);
	try_move(l, &m);
	for (int i = 0; i < nopts; i++) {
		const er_option *a = &opts[i];
		if (a->die != die)
			continue;
		er_pt other = a->patient == ER_PT_DIE ? ER_PT_EXTRA : ER_PT_DIE;
		m.steps[0] = admit_step(a->patient, a->ward, a->value, a->recolour);
		m.steps[1] = morgue_step(other);
		try_move(l, &m);
		/* both admitted, different wards: the other patient's own options */
		for (int j = 0; j < nopts; j++) {
			const er_option *o = &opts[j];
			if (o->die != die || o->patient != other || o->ward == a->ward)
				continue;
			m.steps[1] = admit_step(other, o->ward, o->value, o->recolour);
			try_move(l, &m);
		}
		/* both into a's ward, a first: the next bed after a's */
		er_colour bc = second_bed_colour(l, a->ward);
		if (bc == ER_NO_COLOUR)
			continue;
		er_colour pc = other == ER_PT_DIE ? die : b->extra_colour;
		er_colour rc = bc == ER_WILD || bc == pc ? ER_NO_COLOUR : bc;
		for (int v = 1; v <= 6; v++) {
			m.steps[1] = admit_step(other, a->ward, v, rc);
			try_move(l, &m);
		}
	}
}

int er_moves_all(const er_data *d, const er_turn *t, const er_sheet *s, er_move *moves,
                 er_sheet *sheets, int max)
{
	static _Thread_local lister l;
	static _Thread_local er_option opts[ER_MAX_OPTIONS];
	l.d = d;
	l.t = t;
	l.s = s;
	l.moves = moves;
	l.sheets = sheets;
	l.n = 0;
	l.max = max < ER_COACH_MAX_MOVES ? max : ER_COACH_MAX_MOVES;
	int nopts = er_move_options(d, t, s, false, opts, ER_MAX_OPTIONS);
	for (int di = 0; di < ER_DICE; di++) {
		er_colour die = (er_colour)di;
		const er_bonus *b = &d->cards[t->card - 1].bay[die];
		if (b->kind == ER_BONUS_EXTRA) {
			extra_pairs(&l, die, b, opts, nopts);
			continue;
		}
		bool screen = b->kind == ER_BONUS_SCREEN;
		if (screen) {
			with_screens(&l, die, morgue_step(ER_PT_DIE));
		} else {
			er_move m = {.die = die, .nsteps = 1};
			m.steps[0] = morgue_step(ER_PT_DIE);
			try_move(&l, &m);
		}
		for (int i = 0; i < nopts; i++) {
			const er_option *o = &opts[i];
			if (o->die != die || o->patient != ER_PT_DIE)
				continue;
			er_step st = admit_step(ER_PT_DIE, o->ward, o->value, o->recolour);
			if (o->screen_first) {
				er_move m = {.die = die, .nsteps = 2};
				m.steps[0] = screen_step(o->ward);
				m.steps[1] = st;
				try_move(&l, &m);
			} else if (screen) {
				with_screens(&l, die, st);
			} else {
				er_move m = {.die = die, .nsteps = 1};
				m.steps[0] = st;
				try_move(&l, &m);
			}
		}
	}
	return l.n;
}
