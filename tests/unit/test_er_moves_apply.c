/* er_move_apply: every rule id's forbidden and allowed sides as a table of cases, the rulebook's
 * own examples, the detail of a refusal and the step that broke the rule. Citations and the
 * printed data the cases use: er_moves_fixture.h. */
#include <stdint.h>
#include <stdlib.h>

#include "er_fixture.h"
#include "er_moves_fixture.h"
#include "test.h"

static er_data D;

typedef struct {
	const char *name;
	const char *sheet; /* er_fixture_sheet spec */
	int steth, blood;  /* available at the start of the turn */
	int morgue;        /* circled morgue boxes */
	unsigned nurses;   /* crossed nurses, bit w-1 */
	bool alicat;
	int card;
	int dice[3];    /* red, yellow, green */
	bool chief;     /* this player is the Chief Physician */
	char chief_die; /* 'r', 'y', 'g' or 0: the chief's die, for a non-chief */
	char die;       /* 'r', 'y', 'g' (anything else: not a die colour) */
	int nsteps;
	er_step steps[ER_MAX_STEPS + 2];
	const char *rule; /* expected rule, NULL = accepted */
	/* post-conditions, checked when post is set */
	bool post;
	const char *after; /* wards after the move (NULL: not checked) */
	int steth_left, blood_left, morgue_after, track_after;
} mcase;

static er_colour col(char c)
{
	return c == 'r' ? ER_RED : c == 'y' ? ER_YELLOW : c == 'g' ? ER_GREEN : ER_NO_COLOUR;
}

static int popcount(unsigned x)
{
	int n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

/* A ledger with `steth` stethoscopes available that er_sheet_validate accepts. */
static void set_ledger(er_sheet *s, int steth, int blood)
{
	s->steth_circled = (int16_t)(steth % 2 ? steth : steth + 1);
	s->steth_used = (int16_t)(steth % 2 ? 0 : 1);
	s->blood_circled = (int16_t)blood;
	s->blood_used = 0;
}

static int setup(const mcase *c, er_sheet *s, er_turn *t, er_move *m)
{
	if (er_fixture_sheet(&D, s, c->sheet ? c->sheet : "") != 0)
		return -1;
	set_ledger(s, c->steth, c->blood);
	s->morgue = (int8_t)c->morgue;
	for (int w = 0; w < ER_WARDS; w++)
		s->nurse_crossed[w] = (c->nurses >> w) & 1;
	s->nurse_track = (int8_t)(popcount(c->nurses) + (c->alicat ? D.alicat_start_nurses : 0));
	*t = (er_turn){.card = c->card, .chief = c->chief, .chief_die = col(c->chief_die)};
	for (int i = 0; i < 3; i++)
		t->dice[i] = (int8_t)c->dice[i];
	*m = (er_move){.die = c->die == 'x' ? ER_WILD : col(c->die), .nsteps = c->nsteps};
	for (int i = 0; i < ER_MAX_STEPS; i++)
		m->steps[i] = c->steps[i];
	return 0;
}

static void check_wards(const er_sheet *got, const char *spec)
{
	er_sheet want;
	CHECK(er_fixture_sheet(&D, &want, spec) == 0);
	for (int w = 0; w < ER_WARDS; w++) {
		CHECK_EQ_INT(got->count[w], want.count[w]);
		for (int i = 0; i < want.count[w] && i < got->count[w]; i++) {
			CHECK_EQ_INT(got->ward[w][i].value, want.ward[w][i].value);
			CHECK_EQ_INT(got->ward[w][i].critical, want.ward[w][i].critical);
			CHECK_EQ_INT(got->ward[w][i].screen, want.ward[w][i].screen);
		}
	}
}

static const mcase *cur_case;

static void run_case(void)
{
	const mcase *c = cur_case;
	er_sheet s, before;
	er_turn t;
	er_move m;
	CHECK(setup(c, &s, &t, &m) == 0);
	before = s;
	er_result r = er_move_apply(&D, &t, &m, c->alicat, &s);
	CHECK_STR(r.rule, c->rule);
	CHECK(r.step >= -1 && r.step < (m.nsteps > 0 ? m.nsteps : 1));
	if (r.rule == NULL)
		CHECK_EQ_INT(r.step, -1);
	if (r.rule && c->rule && strcmp(r.rule, c->rule) != 0)
		printf("  detail: %s\n", r.detail);
	if (!c->rule && r.rule)
		printf("  detail: %s\n", r.detail);
	if (r.rule) {
		CHECK(r.detail[0] != '\0');
		CHECK(memcmp(&s, &before, sizeof s) == 0); /* untouched on failure */
		return;
	}
	/* every accepted move leaves a sheet that could arise in play */
	er_result v = er_sheet_validate(&D, &s, c->alicat, 0);
	CHECK_STR(v.rule, NULL);
	if (!c->post)
		return;
	if (c->after)
		check_wards(&s, c->after);
	CHECK_EQ_INT(s.steth_circled - s.steth_used, c->steth_left);
	CHECK_EQ_INT(s.blood_circled - s.blood_used, c->blood_left);
	CHECK_EQ_INT(s.morgue, c->morgue_after);
	CHECK_EQ_INT(s.nurse_track, c->track_after);
}

/* Card 9: red screen, yellow nurse, green critical. Card 16: red stethoscopes, yellow critical,
 * green nurse. */
static const mcase cases[] = {
    /* ---- colour ---- */
    {"seed003 ADMIT PATIENT/Colour: a red die cannot go in a green bed", .card = 16,
     .dice = {3, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 2, 3)), .rule = ER_RULE_COLOUR_MISMATCH},
    {"seed003 ADMIT PATIENT/Colour: a red die goes in a red bed", .card = 16, .dice = {3, 4, 5},
     .die = 'r', STEPS(ADMIT(DIE, 3, 3)), .post = true, .after = "||3", .steth_left = 2},
    {"seed003 ADMIT PATIENT/Colour: grey bed spaces are wild and match any die", .card = 9,
     .dice = {3, 4, 5}, .die = 'y', STEPS(ADMIT(DIE, 1, 4)), .post = true, .after = "4",
     .track_after = 1},
    {"seed003 ADMIT PATIENT/Colour: the extra patient has the printed colour, not the bay's",
     .card = 1, .dice = {3, 4, 5}, .die = 'y', STEPS(ADMIT(EXTRA, 7, 1), MORGUE(DIE)),
     .rule = ER_RULE_COLOUR_MISMATCH},
    {"seed003 EXTRA PATIENT: a red extra patient goes in a red bed", .card = 1, .dice = {3, 4, 5},
     .die = 'y', STEPS(ADMIT(EXTRA, 3, 1), MORGUE(DIE)), .post = true, .after = "||1",
     .morgue_after = 1},
    /* ---- bed space / ward full ---- */
    {"seed003 ADMIT PATIENT/Bed space: a full ward takes no patient", .sheet = "||||||1,2,3",
     .card = 16, .dice = {3, 4, 5}, .die = 'y', STEPS(ADMIT(DIE, 7, 4)), .rule = ER_RULE_WARD_FULL},
    {"seed003 ADMIT PATIENT/Bed space: the next bed in order is filled", .sheet = "||||||1,2",
     .card = 16, .dice = {3, 4, 5}, .die = 'y', STEPS(ADMIT(DIE, 7, 4)), .post = true,
     .after = "||||||1,2,4!"},
    /* ---- value ---- */
    {"seed003 ADMIT PATIENT/Value: a 3 after a 3 is not increasing", .sheet = "||3", .card = 16,
     .dice = {3, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 3)), .rule = ER_RULE_VALUE_NOT_INCREASING},
    {"seed003 ADMIT PATIENT/Value: a 2 after a 3 is not increasing", .sheet = "||3", .card = 16,
     .dice = {2, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 2)), .rule = ER_RULE_VALUE_NOT_INCREASING},
    {"seed003 ADMIT PATIENT/Value: a 4 after a 3 is higher", .sheet = "||3", .card = 16,
     .dice = {4, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 4)), .post = true, .after = "||3,4",
     .steth_left = 2},
    {"seed002 Placement: values need not be consecutive, a 3 after a 1", .sheet = "||1", .card = 16,
     .dice = {3, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 3)), .post = true, .after = "||1,3",
     .steth_left = 2},
    {"seed003 ADMIT PATIENT/Value: the first patient in a ward can have any value", .card = 16,
     .dice = {1, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 1)), .post = true, .after = "||1",
     .steth_left = 2},
    {"seed003 SOLO/ALICAT ADMIT PATIENT: ALICAT may write a 3 after a 3", .sheet = "||3",
     .alicat = true, .card = 16, .dice = {3, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 3)),
     .post = true, .after = "||3,3", .steth_left = 2, .track_after = 2},
    {"seed003 SOLO/ALICAT ADMIT PATIENT: not even ALICAT may write a 2 after a 3", .sheet = "||3",
     .alicat = true, .card = 16, .dice = {2, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 2)),
     .rule = ER_RULE_VALUE_NOT_INCREASING},
    {"seed003 SCREEN: the next patient after a screened one can have any value", .sheet = "||5s",
     .card = 16, .dice = {1, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 1)), .post = true,
     .after = "||5s,1", .steth_left = 2},
    {"seed003 SCREEN: only the last patient's screen counts", .sheet = "||3s,5", .card = 16,
     .dice = {4, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 4)), .rule = ER_RULE_VALUE_NOT_INCREASING},
    /* ---- value range ---- */
    {"seed003 USING STETHOSCOPES: cannot increase a value above 6", .card = 16, .dice = {6, 4, 5},
     .steth = 5, .die = 'r', STEPS(ADMIT(DIE, 3, 7)), .rule = ER_RULE_VALUE_OUT_OF_RANGE},
    {"seed003 USING STETHOSCOPES: cannot reduce a value below 1", .card = 16, .dice = {1, 4, 5},
     .steth = 5, .die = 'r', STEPS(ADMIT(DIE, 3, 0)), .rule = ER_RULE_VALUE_OUT_OF_RANGE},
    {"seed003 USING STETHOSCOPES: a 5 raised to 6 with one stethoscope", .card = 9,
     .dice = {5, 4, 5}, .steth = 1, .die = 'r', STEPS(ADMIT(DIE, 3, 6)), .post = true,
     .after = "||6", .steth_left = 0},
    /* ---- stethoscopes ---- */
    {"seed003 USING STETHOSCOPES: a 3 written as 5 needs 2 stethoscopes, 1 held", .card = 9,
     .dice = {3, 4, 5}, .steth = 1, .die = 'r', STEPS(ADMIT(DIE, 3, 5)),
     .rule = ER_RULE_NOT_ENOUGH_STETHOSCOPES},
    {"seed003 USING STETHOSCOPES: a 3 written as 5 with 2 stethoscopes", .card = 9,
     .dice = {3, 4, 5}, .steth = 2, .die = 'r', STEPS(ADMIT(DIE, 3, 5)), .post = true,
     .after = "||5", .steth_left = 0},
    {"seed003 USING STETHOSCOPES: a 4 written as 3 subtracts 1", .card = 9, .dice = {4, 4, 5},
     .steth = 1, .die = 'r', STEPS(ADMIT(DIE, 3, 3)), .post = true, .after = "||3",
     .steth_left = 0},
    {"seed003 USING STETHOSCOPES: cannot change a 6 into a 1 (no wrap, costs 5)", .card = 9,
     .dice = {6, 4, 5}, .steth = 1, .die = 'r', STEPS(ADMIT(DIE, 3, 1)),
     .rule = ER_RULE_NOT_ENOUGH_STETHOSCOPES},
    {"seed003 USING STETHOSCOPES: cannot change a 1 into a 6 (no wrap, costs 5)", .card = 9,
     .dice = {1, 4, 5}, .steth = 4, .die = 'r', STEPS(ADMIT(DIE, 3, 6)),
     .rule = ER_RULE_NOT_ENOUGH_STETHOSCOPES},
    {"seed003 USING STETHOSCOPES: a 6 stepped down to 1 with 5 stethoscopes", .card = 9,
     .dice = {6, 4, 5}, .steth = 5, .die = 'r', STEPS(ADMIT(DIE, 3, 1)), .post = true,
     .after = "||1", .steth_left = 0},
    {"seed003 STETHOSCOPE: the 2 gained this turn are usable at once", .card = 16,
     .dice = {2, 4, 5}, .steth = 1, .die = 'r', STEPS(ADMIT(DIE, 3, 5)), .post = true,
     .after = "||5", .steth_left = 0},
    {"seed003 STETHOSCOPE: another die's stethoscopes are not gained", .card = 16,
     .dice = {2, 2, 5}, .steth = 1, .die = 'y', STEPS(ADMIT(DIE, 7, 5)),
     .rule = ER_RULE_NOT_ENOUGH_STETHOSCOPES},
    {"seed003 AMBULANCE BONUS: stethoscopes are gained even if the patient goes to the morgue",
     .card = 16, .dice = {2, 4, 5}, .steth = 1, .die = 'r', STEPS(MORGUE(DIE)), .post = true,
     .after = "", .steth_left = 3, .morgue_after = 1},
    /* ---- blood bags ---- */
    {"seed003 USING BLOOD BAGS: recolouring needs a blood bag", .card = 9, .dice = {3, 4, 5},
     .die = 'r', STEPS(ADMIT_RC(DIE, 2, 3, ER_GREEN)), .rule = ER_RULE_NOT_ENOUGH_BLOOD_BAGS},
    {"seed003 USING BLOOD BAGS: a held blood bag lets a red die take a green bed", .card = 9,
     .dice = {3, 4, 5}, .blood = 1, .die = 'r', STEPS(ADMIT_RC(DIE, 2, 3, ER_GREEN)), .post = true,
     .after = "|3", .steth_left = 0, .blood_left = 0},
    {"seed003 USING BLOOD BAGS: recoloured to the wrong colour still mismatches", .card = 9,
     .dice = {3, 4, 5}, .blood = 1, .die = 'r', STEPS(ADMIT_RC(DIE, 2, 3, ER_YELLOW)),
     .rule = ER_RULE_COLOUR_MISMATCH},
    {"seed003 USING BLOOD BAGS: more than one blood bag each turn (die and extra)", .card = 1,
     .dice = {3, 4, 5}, .blood = 2, .die = 'y',
     STEPS(ADMIT_RC(DIE, 2, 4, ER_GREEN), ADMIT_RC(EXTRA, 4, 1, ER_YELLOW)), .post = true,
     .after = "|4||1", .steth_left = 0, .blood_left = 0},
    {"seed003 USING BLOOD BAGS: the second recolour needs a second blood bag", .card = 1,
     .dice = {3, 4, 5}, .blood = 1, .die = 'y',
     STEPS(ADMIT_RC(DIE, 2, 4, ER_GREEN), ADMIT_RC(EXTRA, 4, 1, ER_YELLOW)),
     .rule = ER_RULE_NOT_ENOUGH_BLOOD_BAGS},
    {"seed003 BLOOD BAG: the blood bag gained this turn is usable at once", .card = 10,
     .dice = {3, 4, 5}, .die = 'g', STEPS(ADMIT_RC(DIE, 3, 5, ER_RED)), .post = true,
     .after = "||5", .steth_left = 0, .blood_left = 0},
    {"seed003 BLOOD BAG: kept for a later turn when not used", .card = 10, .dice = {3, 4, 5},
     .die = 'g', STEPS(ADMIT(DIE, 2, 5)), .post = true, .after = "|5", .steth_left = 0,
     .blood_left = 1},
    /* ---- chief's die ---- */
    {"seed003 CHOOSE PATIENT: the chief's die needs a blood bag", .card = 9, .dice = {3, 4, 5},
     .chief_die = 'r', .die = 'r', STEPS(ADMIT(DIE, 3, 3)), .rule = ER_RULE_CHIEF_DIE},
    {"seed003 USING BLOOD BAGS: a held blood bag buys the chief's die", .card = 9,
     .dice = {3, 4, 5}, .blood = 1, .chief_die = 'r', .die = 'r', STEPS(ADMIT(DIE, 3, 3)),
     .post = true, .after = "||3", .steth_left = 0, .blood_left = 0},
    {"seed003 CHOOSE PATIENT: the other two dice are free", .card = 9, .dice = {3, 4, 5},
     .chief_die = 'r', .die = 'y', STEPS(ADMIT(DIE, 7, 4)), .post = true, .after = "||||||4",
     .steth_left = 0, .track_after = 1},
    {"seed003 CHOOSE PATIENT: the Chief Physician chooses any die", .card = 9, .dice = {3, 4, 5},
     .chief = true, .die = 'r', STEPS(ADMIT(DIE, 3, 3)), .post = true, .after = "||3"},
    {"seed003 USING BLOOD BAGS: the chief's die cannot be paid by its own blood bag bonus",
     .card = 3, .dice = {3, 4, 5}, .chief_die = 'r', .die = 'r', STEPS(ADMIT(DIE, 3, 3)),
     .rule = ER_RULE_CHIEF_DIE},
    {"seed003 USING BLOOD BAGS: chief's die bought with a held bag, its bonus bag kept", .card = 3,
     .dice = {3, 4, 5}, .blood = 1, .chief_die = 'r', .die = 'r', STEPS(ADMIT(DIE, 3, 3)),
     .post = true, .after = "||3", .blood_left = 1},
    {"seed003 USING BLOOD BAGS: chief's die and a recolour need two blood bags", .card = 9,
     .dice = {3, 4, 5}, .blood = 1, .chief_die = 'r', .die = 'r',
     STEPS(ADMIT_RC(DIE, 2, 3, ER_GREEN)), .rule = ER_RULE_NOT_ENOUGH_BLOOD_BAGS},
    {"seed003 USING BLOOD BAGS: chief's die and a recolour with two blood bags", .card = 9,
     .dice = {3, 4, 5}, .blood = 2, .chief_die = 'r', .die = 'r',
     STEPS(ADMIT_RC(DIE, 2, 3, ER_GREEN)), .post = true, .after = "|3", .blood_left = 0},
    {"seed003 USING BLOOD BAGS: chief's die bought even when its patient goes to the morgue",
     .card = 9, .dice = {3, 4, 5}, .chief_die = 'r', .die = 'r', STEPS(MORGUE(DIE)),
     .rule = ER_RULE_CHIEF_DIE},
    /* ---- extra patient ---- */
    {"seed003 EXTRA PATIENT: a red 1/2 extra written as 4 with 1 stethoscope", .card = 1,
     .dice = {3, 4, 5}, .steth = 1, .die = 'y', STEPS(MORGUE(DIE), ADMIT(EXTRA, 3, 4)),
     .rule = ER_RULE_EXTRA_VALUE},
    {"seed003 EXTRA PATIENT: a red 1/2 extra written as 3 with 1 stethoscope", .card = 1,
     .dice = {3, 4, 5}, .steth = 1, .die = 'y', STEPS(MORGUE(DIE), ADMIT(EXTRA, 3, 3)),
     .post = true, .after = "||3", .steth_left = 0, .morgue_after = 1},
    {"seed003 EXTRA PATIENT: a red 1/2 extra written as 2 at no cost", .card = 1, .dice = {3, 4, 5},
     .die = 'y', STEPS(MORGUE(DIE), ADMIT(EXTRA, 3, 2)), .post = true, .after = "||2",
     .steth_left = 0, .morgue_after = 1},
    {"seed003 EXTRA PATIENT: a red 1/2 extra cannot be a 3 without stethoscopes", .card = 1,
     .dice = {3, 4, 5}, .die = 'y', STEPS(MORGUE(DIE), ADMIT(EXTRA, 3, 3)),
     .rule = ER_RULE_EXTRA_VALUE},
    {"seed003 EXTRA PATIENT: die first, then extra, different wards", .card = 1, .dice = {3, 4, 5},
     .die = 'y', STEPS(ADMIT(DIE, 7, 4), ADMIT(EXTRA, 3, 1)), .post = true, .after = "||1||||4"},
    {"seed003 EXTRA PATIENT: extra first, then die (either order)", .card = 1, .dice = {3, 4, 5},
     .die = 'y', STEPS(ADMIT(EXTRA, 3, 1), ADMIT(DIE, 7, 4)), .post = true, .after = "||1||||4"},
    {"seed003 EXTRA PATIENT: both into the same ward, extra first", .card = 1, .dice = {3, 4, 5},
     .die = 'y', STEPS(ADMIT(EXTRA, 3, 2), ADMIT(DIE, 3, 4)), .post = true, .after = "||2,4"},
    {"seed003 EXTRA PATIENT: same ward, the order decides the increasing rule", .card = 1,
     .dice = {3, 4, 5}, .die = 'y', STEPS(ADMIT(DIE, 1, 4), ADMIT_RC(EXTRA, 1, 2, ER_GREEN)),
     .blood = 1, .rule = ER_RULE_VALUE_NOT_INCREASING},
    {"seed003 EXTRA PATIENT: stethoscopes shared between die and extra", .card = 1,
     .dice = {3, 4, 5}, .steth = 1, .die = 'y', STEPS(ADMIT(DIE, 7, 5), ADMIT(EXTRA, 3, 3)),
     .rule = ER_RULE_EXTRA_VALUE},
    /* ---- unresolved / twice ---- */
    {"seed003 ADMIT PATIENT: the chosen patient must be admitted or sent to the morgue", .card = 9,
     .dice = {3, 4, 5}, .die = 'r', .nsteps = 0, .rule = ER_RULE_UNRESOLVED_PATIENT},
    {"seed003 EXTRA PATIENT: you must also admit the extra patient", .card = 1, .dice = {3, 4, 5},
     .die = 'y', STEPS(ADMIT(DIE, 7, 4)), .rule = ER_RULE_UNRESOLVED_PATIENT},
    {"seed003 MORGUE: the extra patient may go to the morgue", .card = 1, .dice = {3, 4, 5},
     .die = 'y', STEPS(ADMIT(DIE, 7, 4), MORGUE(EXTRA)), .post = true, .after = "||||||4",
     .morgue_after = 1},
    {"seed003 MORGUE: both patients to the morgue circle two boxes", .card = 1, .dice = {3, 4, 5},
     .die = 'y', STEPS(MORGUE(DIE), MORGUE(EXTRA)), .post = true, .after = "", .morgue_after = 2},
    {"seed003 ADMIT PATIENT: a patient is written once", .card = 9, .dice = {3, 4, 5}, .die = 'r',
     STEPS(ADMIT(DIE, 3, 3), ADMIT(DIE, 1, 3)), .rule = ER_RULE_PATIENT_TWICE},
    {"seed003 MORGUE: an admitted patient cannot also go to the morgue", .card = 9,
     .dice = {3, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 3), MORGUE(DIE)),
     .rule = ER_RULE_PATIENT_TWICE},
    {"seed003 EXTRA PATIENT: one extra patient, not two", .card = 1, .dice = {3, 4, 5}, .die = 'y',
     STEPS(MORGUE(DIE), ADMIT(EXTRA, 3, 1), ADMIT(EXTRA, 1, 2)), .rule = ER_RULE_PATIENT_TWICE},
    /* ---- screen ---- */
    {"seed003 SCREEN: only a die with the screen bonus gives a screen", .sheet = "||5", .card = 9,
     .dice = {3, 4, 1}, .die = 'g', STEPS(SCREEN(3), ADMIT(DIE, 3, 1)),
     .rule = ER_RULE_SCREEN_NOT_OFFERED},
    {"seed003 SCREEN: the screen bonus gives one screen", .sheet = "||5|1", .card = 9,
     .dice = {1, 4, 5}, .die = 'r', STEPS(SCREEN(3), SCREEN(2), ADMIT(DIE, 3, 1)),
     .rule = ER_RULE_SCREEN_NOT_OFFERED},
    {"seed003 SCREEN: screen first, then a 1 after a 5", .sheet = "||5", .card = 9,
     .dice = {1, 4, 5}, .die = 'r', STEPS(SCREEN(3), ADMIT(DIE, 3, 1)), .post = true,
     .after = "||5s,1"},
    {"seed003 SCREEN: a screen in any ward, not only the one admitted to", .sheet = "|2|5",
     .card = 9, .dice = {6, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 6), SCREEN(2)), .post = true,
     .after = "|2s|5,6"},
    {"seed003 SCREEN: a ward with no patient cannot be screened", .card = 9, .dice = {1, 4, 5},
     .die = 'r', STEPS(SCREEN(3), ADMIT(DIE, 3, 1)), .rule = ER_RULE_SCREEN_EMPTY_WARD},
    {"seed003 SCREEN: screening a patient already screened is allowed (no effect)", .sheet = "||5s",
     .card = 9, .dice = {1, 4, 5}, .die = 'r', STEPS(SCREEN(3), ADMIT(DIE, 3, 1)), .post = true,
     .after = "||5s,1"},
    {"seed002 Circle (screen): place the 6, then the screen on the 6", .sheet = "||2", .card = 9,
     .dice = {6, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 6), SCREEN(3)), .post = true,
     .after = "||2,6s"},
    {"seed003 SCREEN: the screen after the admission does not help that admission", .sheet = "||5",
     .card = 9, .dice = {1, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 1), SCREEN(3)),
     .rule = ER_RULE_VALUE_NOT_INCREASING},
    {"seed003 SCREEN: the screen is optional", .sheet = "||2", .card = 9, .dice = {6, 4, 5},
     .die = 'r', STEPS(ADMIT(DIE, 3, 6)), .post = true, .after = "||2,6"},
    /* ---- bonus not offered ---- */
    {"seed003 EXTRA PATIENT: no extra patient without the extra bonus", .card = 9,
     .dice = {3, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 3), ADMIT(EXTRA, 1, 1)),
     .rule = ER_RULE_BONUS_NOT_OFFERED},
    {"seed003 EXTRA PATIENT: no extra patient in the morgue without the bonus", .card = 9,
     .dice = {3, 4, 5}, .die = 'r', STEPS(ADMIT(DIE, 3, 3), MORGUE(EXTRA)),
     .rule = ER_RULE_BONUS_NOT_OFFERED},
    /* ---- critical / nurse / morgue ---- */
    {"seed003 CRITICAL PATIENT: the chosen patient gets an exclamation point", .card = 9,
     .dice = {3, 4, 5}, .die = 'g', STEPS(ADMIT(DIE, 2, 5)), .post = true, .after = "|5!"},
    {"seed003 CRITICAL PATIENT: lost if the patient goes to the morgue", .card = 9,
     .dice = {3, 4, 5}, .die = 'g', STEPS(MORGUE(DIE)), .post = true, .after = "",
     .morgue_after = 1},
    {"seed003 CRITICAL PATIENT: the extra patient is not critical", .card = 21, .dice = {3, 4, 5},
     .die = 'g', STEPS(ADMIT(EXTRA, 2, 3), MORGUE(DIE)), .post = true, .after = "|3",
     .morgue_after = 1},
    {"seed003 NURSE: cross the ward's nurse and circle the next track space", .card = 9,
     .dice = {3, 4, 5}, .die = 'y', STEPS(ADMIT(DIE, 4, 4)), .post = true, .after = "|||4",
     .track_after = 1},
    {"seed003 NURSE: a ward whose nurse is crossed gives nothing", .sheet = "|||1", .card = 9,
     .dice = {3, 4, 5}, .nurses = 1u << 3, .die = 'y', STEPS(ADMIT(DIE, 4, 4)), .post = true,
     .after = "|||1,4", .track_after = 1},
    {"seed003 NURSE: lost if the patient goes to the morgue", .card = 9, .dice = {3, 4, 5},
     .die = 'y', STEPS(MORGUE(DIE)), .post = true, .after = "", .morgue_after = 1,
     .track_after = 0},
    {"seed003 SOLO/ALICAT AMBULANCE BONUS: ALICAT's nurse circles its next space", .card = 9,
     .alicat = true, .dice = {3, 4, 5}, .die = 'y', STEPS(ADMIT(DIE, 4, 4)), .post = true,
     .after = "|||4", .track_after = 3},
    {"seed003 SOLO/ALICAT AMBULANCE BONUS: more than 5 extra nurses is lost", .sheet = "1|1|1|1|1",
     .nurses = 0x1f, .alicat = true, .card = 9, .dice = {3, 4, 5}, .die = 'y',
     STEPS(ADMIT(DIE, 7, 4)), .post = true, .after = "1|1|1|1|1||4", .track_after = 7},
    {"seed003 MORGUE: circles a morgue box", .morgue = 3, .card = 9, .dice = {3, 4, 5}, .die = 'r',
     STEPS(MORGUE(DIE)), .post = true, .after = "", .morgue_after = 4},
    {"seed003 MORGUE: once full, no further box (stops counting at 4)", .morgue = 4, .card = 9,
     .dice = {3, 4, 5}, .die = 'r', STEPS(MORGUE(DIE)), .post = true, .after = "",
     .morgue_after = 4},
    {"seed003 MORGUE: you may choose the morgue even when a bed is free", .card = 9,
     .dice = {3, 4, 5}, .die = 'r', STEPS(MORGUE(DIE)), .post = true, .after = "",
     .morgue_after = 1},
    /* ---- turn input ---- */
    {"seed003 GETTING READY: 27 ambulance cards, card 0 is unknown", .card = 0, .dice = {3, 4, 5},
     .die = 'r', STEPS(MORGUE(DIE)), .rule = ER_RULE_UNKNOWN_CARD},
    {"seed003 GETTING READY: 27 ambulance cards, card 28 is unknown", .card = 28, .dice = {3, 4, 5},
     .die = 'r', STEPS(MORGUE(DIE)), .rule = ER_RULE_UNKNOWN_CARD},
    {"seed003 GETTING READY: card 27 exists", .card = 27, .dice = {3, 4, 5}, .die = 'r',
     STEPS(MORGUE(DIE)), .post = true, .after = "", .morgue_after = 1},
    {"seed003 FLIP & ROLL: a die shows 1-6, not 0", .card = 9, .dice = {3, 0, 5}, .die = 'r',
     STEPS(MORGUE(DIE)), .rule = ER_RULE_DIE_OUT_OF_RANGE},
    {"seed003 FLIP & ROLL: a die shows 1-6, not 7", .card = 9, .dice = {3, 4, 7}, .die = 'r',
     STEPS(MORGUE(DIE)), .rule = ER_RULE_DIE_OUT_OF_RANGE},
    {"seed003 FLIP & ROLL: dice showing 1 and 6 are fine", .card = 9, .dice = {1, 6, 6}, .die = 'r',
     STEPS(MORGUE(DIE)), .post = true, .after = "", .morgue_after = 1},
    /* ---- malformed moves ---- */
    {"invalid-move: the chosen die must be red, yellow or green", .card = 9, .dice = {3, 4, 5},
     .die = 'x', STEPS(MORGUE(DIE)), .rule = ER_RULE_INVALID_MOVE},
    {"invalid-move: ward 8 does not exist", .card = 9, .dice = {3, 4, 5}, .die = 'r',
     STEPS(ADMIT(DIE, 8, 3)), .rule = ER_RULE_INVALID_MOVE},
    {"invalid-move: a blood bag recolours to a die colour, not wild", .card = 9, .dice = {3, 4, 5},
     .blood = 1, .die = 'r', STEPS(ADMIT_RC(DIE, 2, 3, ER_WILD)), .rule = ER_RULE_INVALID_MOVE},
    {"invalid-move: too many steps", .card = 9, .dice = {3, 4, 5}, .die = 'r',
     STEPS(MORGUE(DIE), MORGUE(DIE), MORGUE(DIE), MORGUE(DIE), MORGUE(DIE)),
     .rule = ER_RULE_INVALID_MOVE},
};

/* seed002 Circle (screen): "place the 6, then the screen on the 6 to reset the number for that
 * ward for the next dice/patient" — two turns. */
static void test_screen_after_then_next_turn(void)
{
	er_sheet s;
	CHECK(er_fixture_sheet(&D, &s, "||2") == 0);
	er_turn t1 = {.card = 9, .dice = {6, 4, 5}, .chief = true, .chief_die = ER_NO_COLOUR};
	er_move m1 = {.die = ER_RED, STEPS(ADMIT(DIE, 3, 6), SCREEN(3))};
	CHECK_STR(er_move_apply(&D, &t1, &m1, false, &s).rule, NULL);
	er_turn t2 = {.card = 16, .dice = {1, 4, 5}, .chief = true, .chief_die = ER_NO_COLOUR};
	er_move m2 = {.die = ER_RED, STEPS(ADMIT(DIE, 3, 1))};
	CHECK_STR(er_move_apply(&D, &t2, &m2, false, &s).rule, NULL);
	check_wards(&s, "||2,6s,1");
}

/* The detail names the ward (1-based) and the values. */
static void test_detail_sentence(void)
{
	er_sheet s;
	CHECK(er_fixture_sheet(&D, &s, "||3") == 0);
	er_turn t = {.card = 16, .dice = {3, 4, 5}, .chief = true, .chief_die = ER_NO_COLOUR};
	er_move m = {.die = ER_RED, STEPS(ADMIT(DIE, 3, 3))};
	er_result r = er_move_apply(&D, &t, &m, false, &s);
	CHECK_STR(r.rule, ER_RULE_VALUE_NOT_INCREASING);
	CHECK(strstr(r.detail, "ward 3") != NULL);
	CHECK(strstr(r.detail, "previous patient 3") != NULL);
}

/* er_result.step names the step that broke the rule (the API's field "/move/steps/N"), -1 when
 * the move as a whole broke it or nothing did. Card 9: red screen, yellow nurse, green critical;
 * card 16: red stethoscopes. */
typedef struct {
	const char *name;
	const char *sheet;
	int card, blood;
	int dice[3];
	bool chief;
	char chief_die, die;
	int nsteps;
	er_step steps[ER_MAX_STEPS];
	const char *rule;
	int step;
} stepcase;

static const stepcase step_cases[] = {
    {"seed003 ADMIT PATIENT/Colour: the first step's red die in a green bed is step 0",
     NULL,
     16,
     0,
     {3, 4, 5},
     true,
     0,
     'r',
     STEPS(ADMIT(DIE, 2, 3)),
     ER_RULE_COLOUR_MISMATCH,
     0},
    {"seed003 SCREEN: the third step's second screen is step 2",
     "||2",
     9,
     0,
     {6, 4, 5},
     true,
     0,
     'r',
     STEPS(ADMIT(DIE, 3, 6), SCREEN(3), SCREEN(3)),
     ER_RULE_SCREEN_NOT_OFFERED,
     2},
    {"seed003 CHOOSE PATIENT: the die's patient placed again in step 1",
     NULL,
     9,
     0,
     {3, 4, 5},
     true,
     0,
     'r',
     STEPS(MORGUE(DIE), ADMIT(DIE, 3, 3)),
     ER_RULE_PATIENT_TWICE,
     1},
    {"seed003 ADMIT PATIENT/Value: a 3 after a 3 in step 1, after a screen elsewhere",
     "||3|1",
     9,
     0,
     {3, 4, 5},
     true,
     0,
     'r',
     STEPS(SCREEN(4), ADMIT(DIE, 3, 3)),
     ER_RULE_VALUE_NOT_INCREASING,
     1},
    {"seed003 CHOOSE PATIENT: a patient never placed is no one step (-1)",
     "||2",
     9,
     0,
     {6, 4, 5},
     true,
     0,
     'r',
     STEPS(SCREEN(3)),
     ER_RULE_UNRESOLVED_PATIENT,
     -1},
    {"seed003 USING BLOOD BAGS: the chief's die without a blood bag is the move's (-1)",
     NULL,
     9,
     0,
     {3, 4, 5},
     false,
     'r',
     'r',
     STEPS(MORGUE(DIE)),
     ER_RULE_CHIEF_DIE,
     -1},
    {"seed003 FLIP & ROLL: a bad turn is no step (-1)",
     NULL,
     0,
     0,
     {3, 4, 5},
     true,
     0,
     'r',
     STEPS(MORGUE(DIE)),
     ER_RULE_UNKNOWN_CARD,
     -1},
    {"seed003 MORGUE: an accepted move has step -1",
     NULL,
     9,
     0,
     {3, 4, 5},
     true,
     0,
     'r',
     STEPS(MORGUE(DIE)),
     NULL,
     -1},
};

static void test_failing_step(void)
{
	for (size_t i = 0; i < sizeof step_cases / sizeof step_cases[0]; i++) {
		const stepcase *c = &step_cases[i];
		er_sheet s;
		CHECK(er_fixture_sheet(&D, &s, c->sheet ? c->sheet : "") == 0);
		set_ledger(&s, 0, c->blood);
		er_turn t = {.card = c->card, .chief = c->chief, .chief_die = col(c->chief_die)};
		for (int k = 0; k < 3; k++)
			t.dice[k] = (int8_t)c->dice[k];
		er_move m = {.die = col(c->die), .nsteps = c->nsteps};
		memcpy(m.steps, c->steps, sizeof m.steps);
		er_result r = er_move_apply(&D, &t, &m, false, &s);
		if ((r.rule == NULL) != (c->rule == NULL) || r.step != c->step ||
		    (r.rule && strcmp(r.rule, c->rule) != 0))
			printf("  %s: got %s at step %d (%s)\n", c->name, r.rule ? r.rule : "ok",
			       r.step, r.detail);
		CHECK_STR(r.rule, c->rule);
		CHECK_EQ_INT(r.step, c->step);
	}
}

int main(void)
{
	if (er_fixture_load(&D) != 0) {
		printf("FAIL er_fixture_load\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cur_case = &cases[i];
		TEST(cases[i].name, run_case);
	}
	TEST("seed002 Circle (screen): the 6 screened after it was placed resets the next turn",
	     test_screen_after_then_next_turn);
	TEST("er_move_apply: the detail names the ward and the values", test_detail_sentence);
	TEST("er_move_apply: step names the step that broke the rule, -1 for the whole move",
	     test_failing_step);
	TEST_MAIN_END();
}
