/* er_sheet_init / er_sheet_validate / er_ward_full / er_patients: both sides of every sheet
 * rule. "seed003 SECTION" cites the ER rulebook ../shared/seeds/003_1582640d1cd95055.txt;
 * api.md "Stateless rules endpoints": a sheet that could not arise in play is a 422 with rule.
 *
 * Beds per ward (game-data.md §1.1): 4, 5, 5, 4, 5, 6, 3. */
#include "er_fixture.h"
#include "test.h"

static er_data D;

typedef struct {
	const char *name;
	const char *sheet; /* er_fixture_sheet spec */
	bool alicat;
	unsigned mods;
	unsigned nurses; /* crossed nurses, bit w-1; the track is set to match */
	void (*tweak)(er_sheet *);
	const char *rule; /* NULL = valid */
} scase;

/* tweaks */
static void v0(er_sheet *s)
{
	s->ward[0][0].value = 0;
}
static void v7(er_sheet *s)
{
	s->ward[0][1].value = 7;
}
static void w1_five(er_sheet *s)
{
	s->count[0] = 5;
	for (int i = 0; i < 5; i++)
		s->ward[0][i].value = (int8_t)(i + 1);
}
static void w7_neg(er_sheet *s)
{
	s->count[6] = -1;
}
static void steth_overused(er_sheet *s)
{
	s->steth_used = 2;
}
static void steth_neg(er_sheet *s)
{
	s->steth_used = -1;
}
static void steth_even(er_sheet *s)
{
	s->steth_circled = 2;
}
static void steth_zero(er_sheet *s)
{
	s->steth_circled = 0;
}
static void steth_3_all_used(er_sheet *s)
{
	s->steth_circled = 3, s->steth_used = 3;
}
static void steth_15(er_sheet *s)
{
	s->steth_circled = 17, s->steth_used = 4;
}
static void steth_1(er_sheet *s)
{
	s->steth_circled = 1;
}
static void steth_4(er_sheet *s)
{
	s->steth_circled = 4;
}
static void steth_5(er_sheet *s)
{
	s->steth_circled = 5;
}
static void blood_overused(er_sheet *s)
{
	s->blood_circled = 1, s->blood_used = 2;
}
static void blood_neg(er_sheet *s)
{
	s->blood_used = -1;
}
static void blood_12(er_sheet *s)
{
	s->blood_circled = 12, s->blood_used = 12;
}
static void blood_1(er_sheet *s)
{
	s->blood_circled = 1;
}
static void track_plus1(er_sheet *s)
{
	s->nurse_track++;
}
static void track_minus1(er_sheet *s)
{
	s->nurse_track--;
}
static void track_minus2(er_sheet *s)
{
	s->nurse_track = (int8_t)(s->nurse_track - 2);
}
static void morgue_neg(er_sheet *s)
{
	s->morgue = -1;
}
static void morgue_4(er_sheet *s)
{
	s->morgue = 4;
}
static void morgue_5(er_sheet *s)
{
	s->morgue = 5;
}
static void cardio_8_5(er_sheet *s)
{
	s->cardiologists[0] = 8, s->cardiologists[1] = 5;
}
static void cardio_5_8(er_sheet *s)
{
	s->cardiologists[0] = 5, s->cardiologists[1] = 8;
}
static void cardio_10(er_sheet *s)
{
	s->cardiologists[0] = 10;
}
static void cardio_3(er_sheet *s)
{
	s->cardiologists[1] = 3;
}
static void cardio_neg(er_sheet *s)
{
	s->cardiologists[1] = -5;
}

#define PREP ER_MOD_PREPARATION

static const scase cases[] = {
    /* value */
    {"seed003 USING STETHOSCOPES: a value 0 cannot arise", "1,2", .tweak = v0,
     .rule = ER_RULE_SHEET_VALUE},
    {"seed003 USING STETHOSCOPES: a value 7 cannot arise", "1,2", .tweak = v7,
     .rule = ER_RULE_SHEET_VALUE},
    {"seed003 USING STETHOSCOPES: values 1 and 6 are fine", "1,6|6", .rule = NULL},
    /* too many */
    {"seed003 YOUR HOSPITAL: ward 1 has 4 beds, 5 patients cannot arise", .tweak = w1_five,
     .rule = ER_RULE_SHEET_TOO_MANY},
    {"seed003 YOUR HOSPITAL: a negative patient count cannot arise", .tweak = w7_neg,
     .rule = ER_RULE_SHEET_TOO_MANY},
    {"seed003 YOUR HOSPITAL: every ward full is fine",
     "1,2,3,4|1,2,3,4,5|1,2,3,4,5|1,2,3,4|"
     "1,2,3,4,5|1,2,3,4,5,6|1,2,3",
     .rule = NULL},
    {"seed003 YOUR HOSPITAL: an empty sheet is fine", "", .rule = NULL},
    /* order */
    {"seed003 ADMIT PATIENT/Value: a 3 after a 3 cannot arise", "||3,3",
     .rule = ER_RULE_SHEET_ORDER},
    {"seed003 ADMIT PATIENT/Value: a 2 after a 3 cannot arise", "||3,2",
     .rule = ER_RULE_SHEET_ORDER},
    {"seed003 ADMIT PATIENT/Value: 1, 3, 6 is increasing", "||1,3,6", .rule = NULL},
    {"seed003 SCREEN: after a screen any value, a 1 after a 5", "||5s,1", .rule = NULL},
    {"seed003 SCREEN: a screen resets once, a 1 after that 1 cannot arise", "||5s,1,1",
     .rule = ER_RULE_SHEET_ORDER},
    {"seed003 SCREEN: a screen on any patient, even mid-ward", "||2,5s,1,3", .rule = NULL},
    {"seed003 SOLO/ALICAT ADMIT PATIENT: ALICAT may repeat a value", "||3,3,3", .alicat = true},
    {"seed003 SOLO/ALICAT ADMIT PATIENT: ALICAT may not decrease", "||3,2", .alicat = true,
     .rule = ER_RULE_SHEET_ORDER},
    {"seed003 CRITICAL PATIENT: critical patients anywhere are fine", "1!,2|3!s", .rule = NULL},
    /* ledger */
    {"seed003 USING STETHOSCOPES: more used than circled cannot arise", .tweak = steth_overused,
     .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 USING STETHOSCOPES: a negative use cannot arise", .tweak = steth_neg,
     .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 STETHOSCOPE: gained in pairs, 2 circled cannot arise", .tweak = steth_even,
     .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 USING STETHOSCOPES: the pre-circled one cannot be missing", .tweak = steth_zero,
     .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 STETHOSCOPE: 1 + 2 circled, all used is fine", .tweak = steth_3_all_used},
    {"seed003 BLOOD BAG: beyond the printed boxes is fine (17 stethoscopes)", .tweak = steth_15},
    {"seed003 USING BLOOD BAGS: more used than circled cannot arise", .tweak = blood_overused,
     .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 USING BLOOD BAGS: a negative use cannot arise", .tweak = blood_neg,
     .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 BLOOD BAG: beyond the 9 printed boxes is fine", .tweak = blood_12},
    {"seed003 ADJUSTING THE DIFFICULTY/Preparation: ALICAT starts with 3 stethoscopes",
     .alicat = true, .mods = PREP, .tweak = steth_1, .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 ADJUSTING THE DIFFICULTY/Preparation: 3 + 2 stethoscopes is fine", .alicat = true,
     .mods = PREP, .tweak = steth_5},
    {"seed003 ADJUSTING THE DIFFICULTY/Preparation: 4 stethoscopes cannot arise", .alicat = true,
     .mods = PREP, .tweak = steth_4, .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 ADJUSTING THE DIFFICULTY/Preparation: ALICAT starts with 2 blood bags",
     .alicat = true, .mods = PREP, .tweak = blood_1, .rule = ER_RULE_SHEET_LEDGER},
    {"seed003 ADJUSTING THE DIFFICULTY/Preparation: without it ALICAT starts with 1",
     .alicat = true, .tweak = steth_1},
    {"seed003 ADJUSTING THE DIFFICULTY: the modifiers are ALICAT's only", .mods = PREP,
     .tweak = steth_1},
    /* nurses */
    {"seed003 NURSE: a crossed nurse in a ward with no patient cannot arise", "1", .nurses = 2,
     .rule = ER_RULE_SHEET_NURSES},
    {"seed003 NURSE: each crossed nurse circles one space", "1|2", .nurses = 3},
    {"seed003 NURSE: a circled space without a crossed nurse cannot arise", "1|2", .nurses = 3,
     .tweak = track_plus1, .rule = ER_RULE_SHEET_NURSES},
    {"seed003 NURSE: a crossed nurse without its space cannot arise", "1|2", .nurses = 3,
     .tweak = track_minus1, .rule = ER_RULE_SHEET_NURSES},
    {"seed003 NURSE: all 7 nurses crossed is fine", "1|1|1|1|1|1|1", .nurses = 0x7f},
    {"seed003 SOLO/GETTING READY: ALICAT's first two nurses are circled", "1|2", .alicat = true,
     .nurses = 3},
    {"seed003 SOLO/GETTING READY: ALICAT without its two starting nurses cannot arise", "1|2",
     .alicat = true, .nurses = 3, .tweak = track_minus2, .rule = ER_RULE_SHEET_NURSES},
    {"seed003 SOLO/AMBULANCE BONUS/Nurse: ALICAT gains at most 5 nurses", "1|1|1|1|1|1",
     .alicat = true, .nurses = 0x3f, .rule = ER_RULE_SHEET_NURSES},
    {"seed003 SOLO/AMBULANCE BONUS/Nurse: ALICAT's 5 extra nurses are fine", "1|1|1|1|1|1",
     .alicat = true, .nurses = 0x1f},
    /* morgue */
    {"seed003 MORGUE: a negative morgue cannot arise", .tweak = morgue_neg,
     .rule = ER_RULE_SHEET_MORGUE},
    {"seed003 MORGUE: 5 boxes cannot arise (4 printed, then no more)", .tweak = morgue_5,
     .rule = ER_RULE_SHEET_MORGUE},
    {"seed003 MORGUE: a full morgue of 4 is fine", .tweak = morgue_4},
    /* cardiologists */
    {"seed003 CARDIOLOGISTS: 8 then 5 are the points on offer", .tweak = cardio_8_5},
    {"seed003 CARDIOLOGISTS: 5 (2 players, solo) is fine", .tweak = cardio_5_8},
    {"seed003 CARDIOLOGISTS: 10 on one card cannot arise (solo 10 is 5 per card)",
     .tweak = cardio_10, .rule = ER_RULE_SHEET_CARDIO},
    {"seed003 CARDIOLOGISTS: 3 points cannot arise", .tweak = cardio_3,
     .rule = ER_RULE_SHEET_CARDIO},
    {"seed003 CARDIOLOGISTS: negative points cannot arise", .tweak = cardio_neg,
     .rule = ER_RULE_SHEET_CARDIO},
};

static const scase *cur;

static int popcount(unsigned x)
{
	int n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

static void run_case(void)
{
	er_sheet s;
	CHECK(er_fixture_sheet(&D, &s, cur->sheet ? cur->sheet : "") == 0);
	for (int w = 0; w < ER_WARDS; w++)
		s.nurse_crossed[w] = (cur->nurses >> w) & 1;
	s.nurse_track = (int8_t)(popcount(cur->nurses) + (cur->alicat ? D.alicat_start_nurses : 0));
	if (cur->alicat && (cur->mods & PREP)) {
		s.steth_circled = 3;
		s.blood_circled = 2;
	}
	if (cur->tweak)
		cur->tweak(&s);
	er_result r = er_sheet_validate(&D, &s, cur->alicat, cur->mods);
	CHECK_STR(r.rule, cur->rule);
	if (r.rule)
		CHECK(r.detail[0] != '\0');
	if (r.rule && !cur->rule)
		printf("  detail: %s\n", r.detail);
}

static void test_init_human(void)
{
	er_sheet s;
	memset(&s, 0x55, sizeof s);
	er_sheet_init(&s, &D, false, PREP);
	CHECK_EQ_INT(s.steth_circled, 1);
	CHECK_EQ_INT(s.steth_used, 0);
	CHECK_EQ_INT(s.blood_circled, 0);
	CHECK_EQ_INT(s.nurse_track, 0);
	CHECK_EQ_INT(s.morgue, 0);
	CHECK_EQ_INT(er_patients(&s), 0);
	for (int w = 0; w < ER_WARDS; w++)
		CHECK(!s.nurse_crossed[w] && s.count[w] == 0);
	CHECK_STR(er_sheet_validate(&D, &s, false, 0).rule, NULL);
}

static void test_init_alicat(void)
{
	er_sheet s;
	er_sheet_init(&s, &D, true, 0);
	CHECK_EQ_INT(s.steth_circled, 1);
	CHECK_EQ_INT(s.blood_circled, 0);
	CHECK_EQ_INT(s.nurse_track, 2);
	CHECK_STR(er_sheet_validate(&D, &s, true, 0).rule, NULL);
	/* a human sheet's rules reject ALICAT's two circled nurses */
	CHECK_STR(er_sheet_validate(&D, &s, false, 0).rule, ER_RULE_SHEET_NURSES);
}

static void test_init_alicat_preparation(void)
{
	er_sheet s;
	er_sheet_init(&s, &D, true, PREP | ER_MOD_EQUIPMENT);
	CHECK_EQ_INT(s.steth_circled, 3);
	CHECK_EQ_INT(s.blood_circled, 2);
	CHECK_EQ_INT(s.nurse_track, 2);
	CHECK_STR(er_sheet_validate(&D, &s, true, PREP).rule, NULL);
	/* other modifiers change no ledger */
	er_sheet_init(&s, &D, true, ER_MOD_EQUIPMENT | ER_MOD_ISOLATION | ER_MOD_CAPACITY);
	CHECK_EQ_INT(s.steth_circled, 1);
	CHECK_EQ_INT(s.blood_circled, 0);
}

static void test_ward_full_and_patients(void)
{
	er_sheet s;
	CHECK(er_fixture_sheet(&D, &s, "1,2,3,4|1,2|||||1,2,3") == 0);
	CHECK(er_ward_full(&D, &s, 0));
	CHECK(!er_ward_full(&D, &s, 1));
	CHECK(!er_ward_full(&D, &s, 2));
	CHECK(er_ward_full(&D, &s, 6));
	CHECK(!er_ward_full(&D, &s, -1));
	CHECK(!er_ward_full(&D, &s, 7));
	CHECK_EQ_INT(er_patients(&s), 9);
}

int main(void)
{
	if (er_fixture_load(&D) != 0) {
		printf("FAIL er_fixture_load\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cur = &cases[i];
		TEST(cases[i].name, run_case);
	}
	TEST("seed003 GETTING READY: a new sheet has 1 stethoscope and nothing else",
	     test_init_human);
	TEST("seed003 SOLO/GETTING READY: ALICAT's sheet starts with 2 nurses circled",
	     test_init_alicat);
	TEST("seed003 ADJUSTING THE DIFFICULTY/Preparation: 2 more stethoscopes, 2 blood bags",
	     test_init_alicat_preparation);
	TEST("seed003 FILLED WARDS: er_ward_full and er_patients", test_ward_full_and_patients);
	TEST_MAIN_END();
}
