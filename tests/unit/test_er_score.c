/* ER scoring (er_score.c): the score row, each Radiologist and Epidemiologist, ALICAT's fixed
 * points and difficulty modifiers, the Cardiologist goals. Rulebook: seed 003
 * (003_1582640d1cd95055.txt), cited by section; printed data: game-data.md §1.
 *
 * Bed map (global index, ward/pos) used to build the sheets below, hex rows as printed:
 *   row 0:    3(1/3)  7(2/3)  8(2/4) 11(3/2) 12(3/3) 13(3/4)
 *   row 1:  2(1/2)  6(2/2)  [A]  10(3/1) 15(4/1) 16(4/2) 17(4/3)
 *   row 2:    1(1/1)  5(2/1)  9(3/0) 14(4/0) 19(5/1) 20(5/2) 21(5/3)
 *   row 3:        0(1/0)  4(2/0)    .   18(5/0) 25(6/2) 26(6/3) 22(5/4)
 *   row 4:                    23(6/0) 24(6/1)  [B]  27(6/4) 28(6/5)
 *   row 5:                        29(7/0) 30(7/1) 31(7/2)
 * Lab A (hex 102) touches beds 7 8 10 9 5 6 (clockwise from upper-left); lab B (hex 405)
 * touches 25 26 27 31 30 24. */
#include "er_fixture.h"
#include "test.h"

static er_data D;

#define BIT(b) (1u << (b))

/* ---- specialists, scored directly (er_score_specialist does not validate) ---- */

typedef struct {
	const char *name;
	er_spec_id id;
	const char *sheet; /* er_fixture_sheet spec, or NULL to use beds[] */
	int beds[ER_BEDS]; /* er_fixture_sheet_beds values when sheet == NULL */
	int points;
	int64_t mask; /* expected bed mask, -1 to skip */
} spec_case;

static const spec_case spec_cases[] = {
    /* RADIOLOGIST */
    {"seed003 SPECIALIST CARDS / xray-critical-half: half of adjacent criticals, rounded up",
     ER_RADIO_CRITICAL_HALF,
     "3!|1,2!,3,4!,5!|6!",
     {0},
     9,
     BIT(5) | BIT(7) | BIT(8) | BIT(9)},
    {"seed003 SPECIALIST CARDS / xray-critical-half: both labs add up (17 + 2 -> 10)",
     ER_RADIO_CRITICAL_HALF,
     "|1,2!,3,4!,5!|6!|||1,2!",
     {0},
     10,
     BIT(5) | BIT(7) | BIT(8) | BIT(9) | BIT(24)},
    {"seed003 SPECIALIST CARDS / xray-critical-half: criticals away from labs score 0",
     ER_RADIO_CRITICAL_HALF,
     "5!|1,2,3|||6!",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / xray-extreme-total: lab A surrounded, total 12 -> 10",
     ER_RADIO_EXTREME_TOTAL,
     "|1,2,2,2,2|2,2",
     {0},
     10,
     BIT(5) | BIT(6) | BIT(7) | BIT(8) | BIT(9) | BIT(10)},
    {"seed003 SPECIALIST CARDS / xray-extreme-total: total 13 scores 0",
     ER_RADIO_EXTREME_TOTAL,
     "|1,2,2,2,3|2,2",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / xray-extreme-total: lab B total 30 -> 10",
     ER_RADIO_EXTREME_TOTAL,
     "|||||1,5,5,5,5|1,5,5",
     {0},
     10,
     BIT(24) | BIT(25) | BIT(26) | BIT(27) | BIT(30) | BIT(31)},
    {"seed003 SPECIALIST CARDS / xray-extreme-total: total 29 scores 0",
     ER_RADIO_EXTREME_TOTAL,
     "|||||1,5,5,5,4|1,5,5",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / xray-extreme-total: both labs -> 20",
     ER_RADIO_EXTREME_TOTAL,
     "|1,1,1,1,1|1,1|||1,6,6,6,6|1,6,6",
     {0},
     20,
     -1},
    {"seed003 SPECIALIST CARDS / xray-extreme-total: five patients do not surround a lab",
     ER_RADIO_EXTREME_TOTAL,
     "|1,2,2,2,2|2",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / xray-high-values: 2 per adjacent 4-6",
     ER_RADIO_HIGH_VALUES,
     "6|1,4,5,6,3|4,1|||1,4|1,1,6",
     {0},
     12,
     BIT(5) | BIT(6) | BIT(7) | BIT(9) | BIT(24) | BIT(31)},
    {"seed003 SPECIALIST CARDS / xray-high-values: adjacent values 1-3 score 0",
     ER_RADIO_HIGH_VALUES,
     "6|1,3,2,1,3|2,1",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / xray-opposite-pairs: 4 per equal opposite pair",
     ER_RADIO_OPPOSITE_PAIRS,
     "|1,3,1,4,3|4,2",
     {0},
     8,
     BIT(5) | BIT(7) | BIT(8) | BIT(9)},
    {"seed003 SPECIALIST CARDS / xray-opposite-pairs: an empty side is no pair",
     ER_RADIO_OPPOSITE_PAIRS,
     "|1,3,1,4,3",
     {0},
     4,
     BIT(5) | BIT(8)},
    {"seed003 SPECIALIST CARDS / xray-opposite-pairs: no equal pair scores 0",
     ER_RADIO_OPPOSITE_PAIRS,
     "|1,1,2,3,4|5,6",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / xray-matching-set: 3 matching -> 5",
     ER_RADIO_MATCHING_SET,
     "|1,4,4,1,4|2,3",
     {0},
     5,
     BIT(5) | BIT(6) | BIT(8)},
    {"seed003 SPECIALIST CARDS / xray-matching-set: 4 matching -> 10",
     ER_RADIO_MATCHING_SET,
     "|1,4,4,1,4|4,3",
     {0},
     10,
     BIT(5) | BIT(6) | BIT(8) | BIT(9)},
    {"seed003 SPECIALIST CARDS / xray-matching-set: 6 at A and 5 at B -> 20 + 15",
     ER_RADIO_MATCHING_SET,
     "|1,2,2,2,2|2,2|||1,3,3,3,3|1,3,1",
     {0},
     35,
     -1},
    {"seed003 SPECIALIST CARDS / xray-matching-set: 2 matching scores 0",
     ER_RADIO_MATCHING_SET,
     "|1,4,4,1,3|2,3",
     {0},
     0,
     0},
    /* EPIDEMIOLOGIST */
    {"seed003 SPECIALIST CARDS / sequence-1-6: one path 1..6 across wards -> 10",
     ER_EPI_SEQUENCE_1_6,
     "6,1|6,2|3|4|1,5,6",
     {0},
     10,
     BIT(1) | BIT(5) | BIT(9) | BIT(14) | BIT(19) | BIT(20)},
    {"seed003 SPECIALIST CARDS / sequence-1-6: a gap in the values scores 0",
     ER_EPI_SEQUENCE_1_6,
     "6,1|6,2|3|3|1,5,6",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / sequence-1-6: each patient in one sequence; the first-found "
     "path blocks two disjoint ones (20, greedy 10)",
     ER_EPI_SEQUENCE_1_6,
     NULL,
     {0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 2, 1, 0, 0, 3, 3,
      4, 1, 6, 4, 5, 6, 0, 2, 3, 5, 5, 1, 0, 0, 0, 0},
     20,
     -1},
    {"seed003 SPECIALIST CARDS / line-of-3: a straight line of equal values -> 5",
     ER_EPI_LINE_OF_3,
     "2,2,2",
     {0},
     5,
     BIT(0) | BIT(1) | BIT(2)},
    {"seed003 SPECIALIST CARDS / line-of-3: a bent triple is not a line",
     ER_EPI_LINE_OF_3,
     "2,2|2",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / line-of-3: overlapping lines pick the disjoint maximum",
     ER_EPI_LINE_OF_3,
     "|1,2,4s,3s,3|1,3s,3s,3s,3|3",
     {0},
     10,
     BIT(8) | BIT(10) | BIT(14) | BIT(11) | BIT(12) | BIT(13)},
    {"seed003 SPECIALIST CARDS / largest-group: 3 per patient, across a ward wall",
     ER_EPI_LARGEST_GROUP,
     "1,2,5,5|1,2,3,5",
     {0},
     9,
     BIT(2) | BIT(3) | BIT(7)},
    {"seed003 SPECIALIST CARDS / largest-group: a lone patient is a group of 1",
     ER_EPI_LARGEST_GROUP,
     "||||||4",
     {0},
     3,
     BIT(29)},
    {"seed003 SPECIALIST CARDS / largest-group: no patients scores 0",
     ER_EPI_LARGEST_GROUP,
     "",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / most-least-common: a missing value means no minus",
     ER_EPI_MOST_LEAST_COMMON,
     "1,2,3|1|1",
     {0},
     9,
     BIT(0) | BIT(4) | BIT(9)},
    {"seed003 SPECIALIST CARDS / most-least-common: all values present, 3x3 - 3x1",
     ER_EPI_MOST_LEAST_COMMON,
     "1,2,3|1,4,5,6|1",
     {0},
     6,
     -1},
    {"seed003 SPECIALIST CARDS / most-least-common: one of each value scores 0",
     ER_EPI_MOST_LEAST_COMMON,
     "1,2,3|4,5,6",
     {0},
     0,
     -1},
    {"seed003 SPECIALIST CARDS / most-least-common: no patients scores 0",
     ER_EPI_MOST_LEAST_COMMON,
     "",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / odd-even-triangles: one all-odd triple -> 4",
     ER_EPI_ODD_EVEN_TRIANGLES,
     "1,3|2,5",
     {0},
     4,
     BIT(0) | BIT(1) | BIT(5)},
    {"seed003 SPECIALIST CARDS / odd-even-triangles: mixed parity scores 0",
     ER_EPI_ODD_EVEN_TRIANGLES,
     "1,2|2,5",
     {0},
     0,
     0},
    {"seed003 SPECIALIST CARDS / odd-even-triangles: the first-found triple blocks two "
     "disjoint ones (8, greedy 4)",
     ER_EPI_ODD_EVEN_TRIANGLES,
     "2,4,6|2,4,6|2",
     {0},
     8,
     -1},
    /* not scored at the end */
    {"seed003 END OF THE GAME / a Cardiologist id scores nothing as a specialist",
     ER_CARDIO_ALL_WARDS,
     "1|1|1|1|1|1|1",
     {0},
     0,
     0},
    {"seed003 END OF THE GAME / no specialist scores nothing", ER_SPEC_NONE, "1,2,3", {0}, 0, 0},
};

static void t_spec_cases(void)
{
	for (size_t i = 0; i < sizeof spec_cases / sizeof spec_cases[0]; i++) {
		const spec_case *c = &spec_cases[i];
		er_sheet s;
		int rc = c->sheet ? er_fixture_sheet(&D, &s, c->sheet)
		                  : er_fixture_sheet_beds(&D, &s, c->beds);
		test_failed_now = 0;
		CHECK_EQ_INT(rc, 0);
		uint32_t mask = 0xdeadbeef;
		CHECK_EQ_INT(er_score_specialist(&D, &s, c->id, &mask), c->points);
		if (c->mask >= 0)
			CHECK_EQ_INT(mask, c->mask);
		CHECK_EQ_INT(er_score_specialist(&D, &s, c->id, NULL), c->points);
		if (test_failed_now) {
			printf("FAIL %s\n", c->name);
			test_fail_count++;
		} else {
			printf("PASS %s\n", c->name);
			test_pass_count++;
		}
	}
	test_failed_now = 0;
}

/* A chosen packing must be disjoint and of the reported size. */
static void t_packing_masks(void)
{
	er_sheet s;
	uint32_t m = 0;
	CHECK_EQ_INT(er_fixture_sheet(&D, &s, "2,4,6|2,4,6|2"), 0);
	CHECK_EQ_INT(er_score_specialist(&D, &s, ER_EPI_ODD_EVEN_TRIANGLES, &m), 8);
	CHECK_EQ_INT(__builtin_popcount(m), 6);
	CHECK_EQ_INT(er_fixture_sheet(&D, &s,
	                              "3,3,3,3|3,3,3,3,3|3,3,3,3,3|3,3,3,3|3,3,3,3,3|"
	                              "3,3,3,3,3,3|3,3,3"),
	             0);
	/* all 32 beds equal: at most 10 disjoint triples of 32 beds */
	int t = er_score_specialist(&D, &s, ER_EPI_ODD_EVEN_TRIANGLES, &m);
	CHECK_EQ_INT(__builtin_popcount(m), 3 * t / 4);
	CHECK(t <= 40);
	int l = er_score_specialist(&D, &s, ER_EPI_LINE_OF_3, &m);
	CHECK_EQ_INT(__builtin_popcount(m), 3 * l / 5);
	CHECK(l <= 50);
	/* largest group: every bed is connected when walls are ignored */
	CHECK_EQ_INT(er_score_specialist(&D, &s, ER_EPI_LARGEST_GROUP, &m), 3 * 32);
	CHECK_EQ_INT(m, 0xffffffffu);
	CHECK_EQ_INT(er_score_specialist(&D, &s, ER_EPI_MOST_LEAST_COMMON, NULL), 96);
	CHECK_EQ_INT(er_score_specialist(&D, &s, ER_RADIO_MATCHING_SET, NULL), 40);
}

/* ---- the score row ---- */

/* A legal sheet touching every category (seed003 END OF THE GAME):
 * ward 1 full 1,2,3,4 (clipboard 5) and ward 7 full 2,4!,6 (clipboard 4) -> 9;
 * criticals 4! (ward 7) and 5! (ward 3) -> 9; nurses crossed in wards 1, 3, 7 -> 3rd space 9;
 * cardiologists 8 + 5; morgue 2 -> -2. */
static void base_sheet(er_sheet *s)
{
	er_fixture_sheet(&D, s, "1,2,3,4||5!||||2,4!,6");
	s->nurse_crossed[0] = s->nurse_crossed[2] = s->nurse_crossed[6] = true;
	s->nurse_track = 3;
	s->cardiologists[0] = 8;
	s->cardiologists[1] = 5;
	s->morgue = 2;
}

static void check_total(const er_breakdown *b)
{
	CHECK_EQ_INT(b->total, b->filled_wards + b->critical + b->nurses + b->cardiologists +
	                           b->radiologist + b->epidemiologist + b->morgue + b->modifiers);
}

static void t_breakdown(void)
{
	er_sheet s;
	base_sheet(&s);
	er_breakdown b;
	er_details det;
	er_result r =
	    er_score(&D, &s, ER_RADIO_HIGH_VALUES, ER_EPI_LARGEST_GROUP, false, 0, &b, &det);
	CHECK(r.rule == NULL);
	CHECK_EQ_INT(b.filled_wards, 9);
	CHECK_EQ_INT(b.critical, 9);
	CHECK_EQ_INT(b.nurses, 9);
	CHECK_EQ_INT(b.cardiologists, 13);
	CHECK_EQ_INT(b.radiologist, 6); /* 5 at hex 202, 4 and 6 at hex 505, 506 */
	CHECK_EQ_INT(b.epidemiologist, 3);
	CHECK_EQ_INT(b.morgue, -2);
	CHECK_EQ_INT(b.modifiers, 0);
	CHECK_EQ_INT(b.total, 47);
	check_total(&b);
	CHECK_EQ_INT(det.filled_wards,
	             BIT(0) | BIT(1) | BIT(2) | BIT(3) | BIT(29) | BIT(30) | BIT(31));
	CHECK_EQ_INT(det.critical, BIT(9) | BIT(30));
	CHECK_EQ_INT(det.radiologist, BIT(9) | BIT(30) | BIT(31));
	CHECK_EQ_INT(__builtin_popcount(det.epidemiologist), 1);
	CHECK_EQ_INT(det.nurse_space, 2);
	/* details and out may be NULL */
	r = er_score(&D, &s, ER_RADIO_HIGH_VALUES, ER_EPI_LARGEST_GROUP, false, 0, NULL, NULL);
	CHECK(r.rule == NULL);
}

static void t_empty_sheet(void)
{
	er_sheet s;
	er_fixture_blank(&D, &s);
	er_breakdown b;
	er_details det;
	er_result r = er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, &det);
	CHECK(r.rule == NULL);
	CHECK_EQ_INT(b.total, 0);
	CHECK_EQ_INT(det.nurse_space, -1);
	CHECK_EQ_INT(det.filled_wards, 0);
	r = er_score(&D, &s, ER_RADIO_CRITICAL_HALF, ER_EPI_MOST_LEAST_COMMON, false, 0, &b, &det);
	CHECK(r.rule == NULL);
	CHECK_EQ_INT(b.total, 0);
}

static void t_nurses_track(void)
{
	/* game-data.md §1.3: 2, 5, 9, 14, 20, 27, 35 */
	static const int want[ER_NURSE_SPACES + 1] = {0, 2, 5, 9, 14, 20, 27, 35};
	for (int n = 0; n <= ER_NURSE_SPACES; n++) {
		er_sheet s;
		er_fixture_sheet(&D, &s, "1|1|1|1|1|1|1");
		for (int w = 0; w < n; w++)
			s.nurse_crossed[w] = true;
		s.nurse_track = (int8_t)n;
		er_breakdown b;
		er_details det;
		CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, &det).rule ==
		      NULL);
		CHECK_EQ_INT(b.nurses, want[n]);
		CHECK_EQ_INT(det.nurse_space, n - 1);
		check_total(&b);
	}
}

static void t_morgue(void)
{
	for (int m = 0; m <= 4; m++) {
		er_sheet s;
		er_fixture_blank(&D, &s);
		s.morgue = (int8_t)m;
		er_breakdown b;
		CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, NULL).rule ==
		      NULL);
		CHECK_EQ_INT(b.morgue, -m);
		CHECK_EQ_INT(b.total, -m);
	}
}

static void t_critical_anywhere(void)
{
	er_sheet s;
	er_fixture_sheet(&D, &s, "1!,6!|||||2!|");
	er_breakdown b;
	er_details det;
	CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, &det).rule == NULL);
	CHECK_EQ_INT(b.critical, 9);
	CHECK_EQ_INT(b.filled_wards, 0);
	CHECK_EQ_INT(det.critical, BIT(0) | BIT(1) | BIT(23));
	check_total(&b);
}

/* er_score validates first: impossible sheets are rejected, not scored. */
static void t_rejects(void)
{
	er_sheet s;
	er_breakdown b;
	er_fixture_sheet(&D, &s, "3,3");
	CHECK_STR(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, NULL).rule,
	          ER_RULE_SHEET_ORDER);
	er_fixture_sheet(&D, &s, "3s,3"); /* a screen allows it */
	CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, NULL).rule == NULL);
	er_fixture_sheet(&D, &s, "1");
	s.nurse_track = 1; /* no nurse crossed */
	CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, NULL).rule != NULL);
	er_fixture_sheet(&D, &s, "1");
	s.count[0] = 5; /* ward 1 has 4 beds */
	CHECK_STR(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, NULL).rule,
	          ER_RULE_SHEET_TOO_MANY);
}

/* Epidemiologists through er_score on legal sheets (greedy traps included). */
static void t_score_epi_legal(void)
{
	er_sheet s;
	er_breakdown b;
	er_details det;
	er_fixture_sheet(&D, &s, "|1,2,4s,3s,3|1,3s,3s,3s,3|3");
	CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_EPI_LINE_OF_3, false, 0, &b, &det).rule == NULL);
	CHECK_EQ_INT(b.epidemiologist, 10);
	CHECK_EQ_INT(det.epidemiologist, BIT(8) | BIT(10) | BIT(14) | BIT(11) | BIT(12) | BIT(13));
	CHECK_EQ_INT(b.filled_wards, 7 + 8);
	check_total(&b);
	er_fixture_sheet(&D, &s, "2,4,6|2,4,6|2");
	CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_EPI_ODD_EVEN_TRIANGLES, false, 0, &b, &det).rule ==
	      NULL);
	CHECK_EQ_INT(b.epidemiologist, 8);
	check_total(&b);
}

/* ---- ALICAT (seed003 SOLO MODE / END OF THE GAME, ADJUSTING THE DIFFICULTY) ---- */

/* ALICAT may write equal values; ward 1 full 1,1,2,2 (clipboard 5); ward 2 "1s"; ward 3 "5s,3";
 * 1 nurse crossed (track 3 with the 2 starting spaces -> 9); 1 stethoscope bonus (3 circled),
 * 2 blood bags. Patients in incomplete wards: 3; screens: 2; equipment: 3 + 2. */
static void alicat_sheet(er_sheet *s)
{
	er_fixture_sheet(&D, s, "1,1,2,2|1s|5s,3");
	s->nurse_crossed[0] = true;
	s->nurse_track = 3;
	s->steth_circled = 3;
	s->steth_used = 2;
	s->blood_circled = 2;
	s->blood_used = 1;
	s->cardiologists[0] = 5;
}

static void t_alicat(void)
{
	static const struct {
		er_spec_id radio, epi;
		unsigned mods;
		int radio_pts, epi_pts, mod_pts;
	} cases[] = {
	    {ER_RADIO_HIGH_VALUES, ER_EPI_LARGEST_GROUP, 0, 8, 9, 0},
	    {ER_RADIO_EXTREME_TOTAL, ER_EPI_SEQUENCE_1_6, 0, 10, 10, 0},
	    {ER_RADIO_CRITICAL_HALF, ER_EPI_ODD_EVEN_TRIANGLES, 0, 8, 8, 0},
	    {ER_RADIO_OPPOSITE_PAIRS, ER_EPI_LINE_OF_3, 0, 8, 10, 0},
	    {ER_RADIO_MATCHING_SET, ER_EPI_MOST_LEAST_COMMON, 0, 10, 9, 0},
	    {ER_SPEC_NONE, ER_SPEC_NONE, 0, 0, 0, 0},
	    {ER_RADIO_HIGH_VALUES, ER_EPI_LARGEST_GROUP, ER_MOD_EQUIPMENT, 8, 9, 5},
	    {ER_RADIO_HIGH_VALUES, ER_EPI_LARGEST_GROUP, ER_MOD_ISOLATION, 8, 9, 2},
	    {ER_RADIO_HIGH_VALUES, ER_EPI_LARGEST_GROUP, ER_MOD_CAPACITY, 8, 9, 3},
	    {ER_RADIO_HIGH_VALUES, ER_EPI_LARGEST_GROUP, ER_MOD_EQUIPMENT | ER_MOD_CAPACITY, 8, 9,
	     8},
	    {ER_RADIO_HIGH_VALUES, ER_EPI_LARGEST_GROUP,
	     ER_MOD_EQUIPMENT | ER_MOD_ISOLATION | ER_MOD_CAPACITY, 8, 9, 10},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		er_sheet s;
		alicat_sheet(&s);
		er_breakdown b;
		er_details det;
		er_result r =
		    er_score(&D, &s, cases[i].radio, cases[i].epi, true, cases[i].mods, &b, &det);
		CHECK(r.rule == NULL);
		if (r.rule)
			printf("  case %zu: %s: %s\n", i, r.rule, r.detail);
		CHECK_EQ_INT(b.radiologist, cases[i].radio_pts);
		CHECK_EQ_INT(b.epidemiologist, cases[i].epi_pts);
		CHECK_EQ_INT(b.modifiers, cases[i].mod_pts);
		CHECK_EQ_INT(b.filled_wards, 5);
		CHECK_EQ_INT(b.nurses, 9);
		CHECK_EQ_INT(b.cardiologists, 5);
		CHECK_EQ_INT(det.radiologist, 0);
		CHECK_EQ_INT(det.epidemiologist, 0);
		CHECK_EQ_INT(b.total,
		             5 + 9 + 5 + cases[i].radio_pts + cases[i].epi_pts + cases[i].mod_pts);
		check_total(&b);
	}
	/* the human's sheet with the same patients is impossible (1 then 1, no screen) */
	er_sheet s;
	alicat_sheet(&s);
	s.nurse_track = 1;
	er_breakdown b;
	CHECK_STR(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false, 0, &b, NULL).rule,
	          ER_RULE_SHEET_ORDER);
	/* modifiers count only for ALICAT */
	er_fixture_sheet(&D, &s, "1s|2");
	CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, false,
	               ER_MOD_EQUIPMENT | ER_MOD_ISOLATION | ER_MOD_CAPACITY, &b, NULL)
	          .rule == NULL);
	CHECK_EQ_INT(b.modifiers, 0);
	/* Preparation: 3 stethoscopes (1 + 2) and 2 blood bags count for Equipment */
	er_fixture_sheet(&D, &s, "");
	s.nurse_track = 2;
	s.steth_circled = 3;
	s.blood_circled = 2;
	CHECK(er_score(&D, &s, ER_SPEC_NONE, ER_SPEC_NONE, true,
	               ER_MOD_PREPARATION | ER_MOD_EQUIPMENT, &b, NULL)
	          .rule == NULL);
	CHECK_EQ_INT(b.modifiers, 5);
	CHECK_EQ_INT(b.nurses, 5);
	CHECK_EQ_INT(b.total, 10);
}

/* ---- Cardiologist goals (seed003 SPECIALIST CARDS / CARDIOLOGIST) ---- */

typedef struct {
	const char *name;
	er_spec_id goal;
	const char *sheet;
	int steth, blood, nurses;
	bool met;
} cardio_case;

static const cardio_case cardio_cases[] = {
    {"seed003 SPECIALIST CARDS / stethoscopes-8: 8 gained besides the pre-circled one",
     ER_CARDIO_STETHOSCOPES_8, "", 9, 0, 0, true},
    {"seed003 SPECIALIST CARDS / stethoscopes-8: the pre-circled one does not count",
     ER_CARDIO_STETHOSCOPES_8, "", 7, 0, 0, false},
    {"seed003 SPECIALIST CARDS / surround-xray: all 6 beds round lab B", ER_CARDIO_SURROUND_XRAY,
     "|||||1,2,3,4,5|1,2,3", 1, 0, 0, true},
    {"seed003 SPECIALIST CARDS / surround-xray: all 6 beds round lab A", ER_CARDIO_SURROUND_XRAY,
     "|1,2,3,4,5|1,2", 1, 0, 0, true},
    {"seed003 SPECIALIST CARDS / surround-xray: 5 of 6 is not surrounded", ER_CARDIO_SURROUND_XRAY,
     "|1,2,3,4,5|1|||1,2,3,4,5|1,2", 1, 0, 0, false},
    {"seed003 SPECIALIST CARDS / nurses-3: 3 nurses circled", ER_CARDIO_NURSES_3, "", 1, 0, 3,
     true},
    {"seed003 SPECIALIST CARDS / nurses-3: 2 nurses are not enough", ER_CARDIO_NURSES_3, "", 1, 0,
     2, false},
    {"seed003 SPECIALIST CARDS / blood-bags-4: 4 gained, used or not", ER_CARDIO_BLOOD_BAGS_4, "",
     1, 4, 0, true},
    {"seed003 SPECIALIST CARDS / blood-bags-4: 3 are not enough", ER_CARDIO_BLOOD_BAGS_4, "", 1, 3,
     0, false},
    {"seed003 SPECIALIST CARDS / all-wards: a patient in each of the 7 wards", ER_CARDIO_ALL_WARDS,
     "1|1|1|1|1|1|1", 1, 0, 0, true},
    {"seed003 SPECIALIST CARDS / all-wards: ward 7 empty", ER_CARDIO_ALL_WARDS,
     "1|1|1|1|1|1,2,3,4,5,6|", 1, 0, 0, false},
    {"seed003 SPECIALIST CARDS / fill-2-wards: two wards full", ER_CARDIO_FILL_2_WARDS,
     "1,2,3,4||||||1,2,3", 1, 0, 0, true},
    {"seed003 SPECIALIST CARDS / fill-2-wards: one full ward and a partial one",
     ER_CARDIO_FILL_2_WARDS, "1,2,3,4|1,2,3,4|||||1,2", 1, 0, 0, false},
    {"seed003 SPECIALIST CARDS / a Radiologist is no Cardiologist goal", ER_RADIO_HIGH_VALUES,
     "1|1|1|1|1|1|1", 9, 4, 3, false},
};

static void t_cardio(void)
{
	for (size_t i = 0; i < sizeof cardio_cases / sizeof cardio_cases[0]; i++) {
		const cardio_case *c = &cardio_cases[i];
		er_sheet s;
		test_failed_now = 0;
		CHECK_EQ_INT(er_fixture_sheet(&D, &s, c->sheet), 0);
		s.steth_circled = (int16_t)c->steth;
		s.steth_used = (int16_t)(c->steth > 1 ? c->steth - 1 : 0); /* used or not */
		s.blood_circled = (int16_t)c->blood;
		s.blood_used = (int16_t)c->blood;
		s.nurse_track = (int8_t)c->nurses;
		CHECK_EQ_INT(er_cardio_goal_met(&D, &s, c->goal), c->met);
		if (test_failed_now) {
			printf("FAIL %s\n", c->name);
			test_fail_count++;
		} else {
			printf("PASS %s\n", c->name);
			test_pass_count++;
		}
	}
	test_failed_now = 0;
}

int main(void)
{
	if (er_fixture_load(&D) != 0) {
		printf("FAIL er_score: cannot load templates\n");
		return 1;
	}
	t_spec_cases();
	TEST("seed003 SPECIALIST CARDS / disjoint packings report disjoint beds; all-equal sheet",
	     t_packing_masks);
	TEST("seed003 END OF THE GAME / every category of the score row, total adds up",
	     t_breakdown);
	TEST("seed003 END OF THE GAME / an empty sheet scores 0", t_empty_sheet);
	TEST("seed003 END OF THE GAME / nurses: highest circled space (game-data §1.3)",
	     t_nurses_track);
	TEST("seed003 MORGUE / -1 per circled box", t_morgue);
	TEST("seed003 END OF THE GAME / critical patients anywhere, not only in full wards",
	     t_critical_anywhere);
	TEST("seed003 ADMIT PATIENT / scoring rejects sheets that cannot arise", t_rejects);
	TEST("seed003 SPECIALIST CARDS / epidemiologists through er_score on legal sheets",
	     t_score_epi_legal);
	TEST("seed003 SOLO MODE / ALICAT: fixed specialist points and difficulty modifiers",
	     t_alicat);
	t_cardio();
	TEST_MAIN_END();
}
