/* ALICAT, the solo bot (src/rules/er_alicat.c): table of cases from the ER rulebook
 * (seed 003, "SOLO MODE"), then a property test: thousands of random positions where ALICAT's
 * move must be accepted by er_move_apply() and agree with er_move_options().
 *
 * Moves are compared in a compact form: the chosen die (R, Y, G), then the steps in order:
 * "D3=4" admits the die patient to ward 3 with value 4, "E2=1" the extra patient, ">G" after it
 * a recolouring blood bag, "MD"/"ME" the morgue, "S5" a screen on ward 5. Wards are 1..7. */
#include <stdint.h>

#include "er_fixture.h"
#include "test.h"

static er_data D;

static const char die_letter[] = {'R', 'Y', 'G', 'W'};

static void fmt_move(const er_move *m, char *buf, size_t n)
{
	size_t k = 0;
	k += (size_t)snprintf(buf + k, n - k, "%c", m->die >= 0 ? die_letter[m->die] : '?');
	for (int i = 0; i < m->nsteps && k < n; i++) {
		const er_step *st = &m->steps[i];
		char who = st->patient == ER_PT_DIE ? 'D' : 'E';
		if (st->kind == ER_STEP_SCREEN)
			k += (size_t)snprintf(buf + k, n - k, " S%d", st->ward + 1);
		else if (st->kind == ER_STEP_MORGUE)
			k += (size_t)snprintf(buf + k, n - k, " M%c", who);
		else if (st->recolour == ER_NO_COLOUR)
			k += (size_t)snprintf(buf + k, n - k, " %c%d=%d", who, st->ward + 1,
			                      st->value);
		else
			k += (size_t)snprintf(buf + k, n - k, " %c%d=%d>%c", who, st->ward + 1,
			                      st->value, die_letter[st->recolour]);
	}
}

/* The ledger holding `steth` stethoscopes and `blood` blood bags, shaped as in play. */
static void set_ledger(er_sheet *s, int steth, int blood)
{
	s->steth_circled = (int16_t)(steth % 2 ? steth : steth + 1);
	s->steth_used = (int16_t)(s->steth_circled - steth);
	s->blood_circled = (int16_t)blood;
	s->blood_used = 0;
	s->nurse_track = (int8_t)D.alicat_start_nurses;
}

enum { HUMAN_R = ER_RED, HUMAN_Y = ER_YELLOW, HUMAN_G = ER_GREEN, ALICAT_CHIEF = -1 };

typedef struct {
	const char *name;
	const char *sheet; /* er_fixture_sheet() form */
	int card;
	int r, y, g;
	int chief; /* ALICAT_CHIEF, or the colour of the human chief's die */
	int steth, blood;
	bool final_turn;
	const char *want;
} alicat_case;

/* Cards used (game-data.md §1.4, bays red / yellow / green):
 *  1 critical / extra red 1/2 / blood_bag      9 screen / nurse / critical
 *  3 blood_bag / screen / nurse               11 blood_bag / nurse / critical
 * 18 critical / nurse / stethoscopes          25 critical / nurse / blood_bag
 * Sheet beds, lobby → clipboard (game-data.md §1.1): ward 1 W G W R; 2 G Y W G Y; 3 R W R Y R;
 * 4 Y Y W G; 5 G W Y R W; 6 R G G R R G; 7 Y W Y. Clipboards 5 7 8 6 9 10 4. */
static const alicat_case cases[] = {
    /* ALICAT: CHOOSE PATIENT */
    {"seed003 SOLO MODE / CHOOSE PATIENT: the lowest die (ALICAT chief, all three)", "", 25, 5, 2,
     4, ALICAT_CHIEF, 1, 0, false, "Y D1=2"},
    {"seed003 SOLO MODE / CHOOSE PATIENT: tie -> left-most die (red)", "", 25, 3, 3, 3,
     ALICAT_CHIEF, 1, 0, false, "R D1=3"},
    {"seed003 SOLO MODE / CHOOSE PATIENT: tie yellow/green -> yellow", "", 25, 5, 3, 3,
     ALICAT_CHIEF, 1, 0, false, "Y D1=3"},
    {"seed003 SOLO MODE / CHOOSE PATIENT: human chief took the lowest, ALICAT takes the lower of "
     "the other two",
     "", 25, 5, 2, 4, HUMAN_Y, 1, 0, false, "G D1=4"},
    {"seed003 SOLO MODE / CHOOSE PATIENT: human chief took red, tie of the others -> left-most", "",
     25, 1, 4, 4, HUMAN_R, 1, 0, false, "Y D1=4"},
    /* ALICAT: ADMIT PATIENT */
    {"seed003 SOLO MODE / ADMIT PATIENT: first legal bed clockwise, plain before a blood bag "
     "in an earlier ward",
     "1", 25, 2, 6, 6, ALICAT_CHIEF, 1, 1, false, "R D3=2"},
    {"seed003 SOLO MODE / ADMIT PATIENT: a value equal to the previous patient is legal", "3", 25,
     6, 6, 3, ALICAT_CHIEF, 1, 0, false, "G D1=3"},
    {"seed003 SOLO MODE / ADMIT PATIENT + SCREEN: any value after a screened patient", "5s", 25, 6,
     6, 2, ALICAT_CHIEF, 1, 0, false, "G D1=2"},
    {"seed003 SOLO MODE / ADMIT PATIENT: stethoscopes raise the value to the previous patient's",
     "4|5|||5", 11, 6, 6, 2, ALICAT_CHIEF, 3, 0, false, "G D1=4"},
    {"seed003 SOLO MODE / AMBULANCE BONUS: stethoscopes gained this turn are usable at once",
     "4|5|||5", 18, 6, 6, 2, ALICAT_CHIEF, 1, 0, false, "G D1=4"},
    {"seed003 SOLO MODE / ADMIT PATIENT: a blood bag recolours to the first bed that fits",
     "5||5|||5", 25, 3, 6, 6, ALICAT_CHIEF, 0, 1, false, "R D2=3>G"},
    {"seed003 SOLO MODE / AMBULANCE BONUS: a blood bag gained this turn is usable at once",
     "5||5|||5", 11, 3, 6, 6, ALICAT_CHIEF, 0, 0, false, "R D2=3>G"},
    {"seed003 SOLO MODE / ADMIT PATIENT: stethoscopes are tried before a blood bag, even in a "
     "later ward",
     "1||5|||5", 25, 2, 6, 6, ALICAT_CHIEF, 3, 1, false, "R D3=5"},
    {"seed003 SOLO MODE / ADMIT PATIENT: a blood bag before the combination, even in a later "
     "ward",
     "5||6|||5", 25, 3, 6, 6, ALICAT_CHIEF, 2, 1, false, "R D2=3>G"},
    {"seed003 SOLO MODE / ADMIT PATIENT: stethoscopes and a blood bag combined", "5|5|6|5|6|5|6",
     25, 3, 6, 6, ALICAT_CHIEF, 2, 1, false, "R D1=5>G"},
    {"seed003 SOLO MODE / ADMIT PATIENT: one stethoscope short -> combination not possible -> "
     "next die",
     "5|5|6|5|6|5|6", 25, 3, 6, 6, ALICAT_CHIEF, 1, 1, false, "Y D2=6"},
    {"seed003 SOLO MODE / ADMIT PATIENT: lowest die cannot be admitted -> next lowest",
     "5|5|5|5|5|5|5", 25, 1, 5, 6, ALICAT_CHIEF, 0, 0, false, "Y D2=5"},
    {"seed003 SOLO MODE / ADMIT PATIENT: ALICAT chief -> the final die needs no blood bag",
     "5|5|5|5|5|5|5", 25, 1, 1, 5, ALICAT_CHIEF, 0, 0, false, "G D1=5"},
    {"seed003 SOLO MODE / ADMIT PATIENT: human chief -> the final die is the chief's, with a "
     "blood bag",
     "5|5|5|5|5|5|5", 11, 1, 1, 5, HUMAN_G, 0, 1, false, "G D1=5"},
    {"seed003 SOLO MODE / ADMIT PATIENT: the chief's die needs a blood bag held before the turn "
     "(its own blood bag bonus cannot pay)",
     "5|5|5|5|5|5|5", 25, 1, 1, 5, HUMAN_G, 0, 0, false, "R MD"},
    {"seed003 SOLO MODE / ADMIT PATIENT: nothing fits -> lowest die (left-most tie) to the "
     "morgue",
     "5|5|5|5|5|5|5", 25, 1, 2, 1, ALICAT_CHIEF, 0, 0, false, "R MD"},
    /* ALICAT: AMBULANCE BONUS / Screen */
    {"seed003 SOLO MODE / Screen: admit first, then the highest unscreened last value in an "
     "incomplete ward, left-most tie",
     "3|6s||1,2,3,6|4|4|2", 9, 1, 6, 6, ALICAT_CHIEF, 1, 0, false, "R D3=1 S5"},
    {"seed003 SOLO MODE / Screen: the patient just admitted can be the one screened", "", 9, 6, 6,
     6, ALICAT_CHIEF, 1, 0, false, "R D1=6 S1"},
    {"seed003 SOLO MODE / Screen: a patient sent to the morgue still gains the screen",
     "5|5|5|5|5|5|5", 9, 1, 1, 5, HUMAN_G, 0, 0, false, "R MD S1"},
    {"seed003 SOLO MODE / Screen: no unscreened patient in an incomplete ward -> no screen",
     "||||||1,2", 3, 6, 3, 6, ALICAT_CHIEF, 1, 0, true, "Y D7=3"},
    /* ALICAT: AMBULANCE BONUS / Extra patient */
    {"seed003 SOLO MODE / Extra patient: after the regular patient, the lower value, on the "
     "sheet as it now stands",
     "", 1, 6, 1, 6, ALICAT_CHIEF, 1, 0, false, "Y D1=1 E3=1"},
    {"seed003 SOLO MODE / Extra patient: the lower value cannot be admitted -> the higher",
     "2|5|2|5|5|5|5", 1, 6, 5, 6, ALICAT_CHIEF, 0, 0, false, "Y D2=5 E3=2"},
    {"seed003 SOLO MODE / Extra patient: neither value can be admitted -> morgue", "2|5|5|5|5|5|5",
     1, 6, 5, 6, ALICAT_CHIEF, 0, 0, false, "Y D2=5 ME"},
    {"seed003 SOLO MODE / Extra patient: follows the protocol, blood bag step", "||5|5|5|5|5", 1, 6,
     1, 6, ALICAT_CHIEF, 0, 1, false, "Y D1=1 E1=1>G"},
    /* Final turn */
    {"seed003 SOLO MODE / Final turn: not the final turn -> the usual protocol",
     "1,2,3||1,2,3,4|||1,2,3,4,5", 25, 4, 2, 6, ALICAT_CHIEF, 1, 0, false, "Y D4=2"},
    {"seed003 SOLO MODE / Final turn: fill the ward worth most (ward 6, 10 points)",
     "1,2,3||1,2,3,4|||1,2,3,4,5", 25, 4, 2, 6, ALICAT_CHIEF, 1, 0, true, "G D6=6"},
    {"seed003 SOLO MODE / Final turn: the lowest die that can fill it, with stethoscopes and a "
     "blood bag",
     "1,2,3||1,2,3,4|||1,2,3,4,5", 25, 5, 2, 6, ALICAT_CHIEF, 3, 1, true, "Y D6=5>G"},
    {"seed003 SOLO MODE / Final turn: no ward can be filled -> the usual protocol", "", 25, 5, 2, 4,
     ALICAT_CHIEF, 1, 0, true, "Y D1=2"},
    {"seed003 SOLO MODE / Final turn: human chief's die taken with a blood bag to fill a ward",
     "||||||1,2", 25, 1, 3, 1, HUMAN_Y, 0, 1, true, "Y D7=3"},
    {"seed003 SOLO MODE / Final turn: a normally available die first, tie -> left-most",
     "||||||1,2", 25, 2, 3, 2, HUMAN_Y, 1, 1, true, "R D7=2>Y"},
};

static void run_case(const alicat_case *c)
{
	er_sheet s;
	CHECK_EQ_INT(er_fixture_sheet(&D, &s, c->sheet), 0);
	set_ledger(&s, c->steth, c->blood);
	er_turn t = {.card = c->card,
	             .dice = {(int8_t)c->r, (int8_t)c->y, (int8_t)c->g},
	             .chief = c->chief == ALICAT_CHIEF,
	             .chief_die = c->chief == ALICAT_CHIEF ? ER_NO_COLOUR : (er_colour)c->chief};
	er_move m;
	er_result r = er_alicat_move(&D, &s, &t, c->final_turn, &m);
	CHECK_STR(r.rule, NULL);
	char got[128];
	fmt_move(&m, got, sizeof got);
	if (strcmp(got, c->want) != 0) {
		printf("  case: %s\n  sheet \"%s\": want \"%s\", got \"%s\"\n", c->name, c->sheet,
		       c->want, got);
		test_failed_now = 1;
	}
	er_sheet copy = s;
	r = er_move_apply(&D, &t, &m, true, &copy);
	if (r.rule) {
		printf("  case: %s\n  apply rejected \"%s\": %s (%s)\n", c->name, got, r.rule,
		       r.detail);
		test_failed_now = 1;
	}
}

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
}

/* seed003 SOLO MODE / AMBULANCE BONUS / Nurse: "ALICAT starts the game with 2 circled nurses.
 * In the unlikely event that ALICAT gains more than 5 additional nurses, the bonus is lost"
 * (er_move_apply does it). Wards 1-4 have their nurse crossed; ALICAT's nurse patients go to
 * wards 7, 5 and 5 again. */
static void test_nurse_cap(void)
{
	static const struct {
		int card, r, y, g;
		const char *want;
		int track, crossed;
	} turns[] = {
	    {25, 6, 1, 6, "Y D7=1", 7, 5}, /* the 5th extra nurse */
	    {16, 6, 6, 1, "G D5=1", 7, 5}, /* a 6th: lost */
	    {27, 1, 6, 6, "R D5=1", 7, 5}, /* again lost */
	};
	er_sheet s;
	CHECK_EQ_INT(er_fixture_sheet(&D, &s, "2|2|2|2"), 0);
	set_ledger(&s, 0, 0);
	for (int w = 0; w < 4; w++)
		s.nurse_crossed[w] = true;
	s.nurse_track = 6;
	CHECK_STR(er_sheet_validate(&D, &s, true, 0).rule, NULL);
	for (size_t i = 0; i < sizeof turns / sizeof turns[0]; i++) {
		er_turn t = {.card = turns[i].card,
		             .dice = {(int8_t)turns[i].r, (int8_t)turns[i].y, (int8_t)turns[i].g},
		             .chief = true,
		             .chief_die = ER_NO_COLOUR};
		er_move m;
		CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, NULL);
		char got[128];
		fmt_move(&m, got, sizeof got);
		CHECK_STR(got, turns[i].want);
		CHECK_STR(er_move_apply(&D, &t, &m, true, &s).rule, NULL);
		int crossed = 0;
		for (int w = 0; w < ER_WARDS; w++)
			crossed += s.nurse_crossed[w];
		CHECK_EQ_INT(s.nurse_track, turns[i].track);
		CHECK_EQ_INT(crossed, turns[i].crossed);
	}
	CHECK(!s.nurse_crossed[4]);
	CHECK_STR(er_sheet_validate(&D, &s, true, 0).rule, NULL);
}

static void test_invalid_input(void)
{
	er_sheet s;
	er_sheet_init(&s, &D, true, 0);
	er_move m;
	er_turn t = {.card = 0, .dice = {1, 2, 3}, .chief = true, .chief_die = ER_NO_COLOUR};
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, ER_RULE_UNKNOWN_CARD);
	t.card = 28;
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, ER_RULE_UNKNOWN_CARD);
	t.card = 1;
	t.dice[1] = 7;
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, ER_RULE_DIE_OUT_OF_RANGE);
	t.dice[1] = 0;
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, ER_RULE_DIE_OUT_OF_RANGE);
	t.dice[1] = 2;
	t.chief = false; /* the human chief's die must be known */
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, ER_RULE_CHIEF_DIE);
	t.chief_die = ER_WILD;
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, ER_RULE_CHIEF_DIE);
	t.chief_die = ER_RED;
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, NULL);
	s.count[6] = 4;
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, ER_RULE_SHEET_TOO_MANY);
	s.count[6] = 1;
	s.ward[6][0].value = 0;
	CHECK_STR(er_alicat_move(&D, &s, &t, false, &m).rule, ER_RULE_SHEET_VALUE);
}

/* ---- property test ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static er_option opts[ER_MAX_OPTIONS];

/* The protocol step an option belongs to: 0 plain, 1 stethoscopes, 2 blood bag, 3 both. */
static int option_step(const er_option *o, int chief_bag)
{
	return (o->stethoscopes > 0 ? 1 : 0) + (o->blood_bags - chief_bag > 0 ? 2 : 0);
}

/* Cross-checks an ALICAT move against er_move_options() (an independent listing of every legal
 * admission): on the final turn, a ward that can be filled is filled (the most valuable, by the
 * first die in ALICAT's order); otherwise the chosen die is the first candidate in ALICAT's
 * order with an admission that raises the value or keeps it, and its (step, ward) is the least
 * such. A die sent to the morgue means no candidate had one. */
static int check_against_options(const er_sheet *s, const er_turn *t, bool final_turn,
                                 const er_move *m)
{
	int n = er_move_options(&D, t, s, true, opts, ER_MAX_OPTIONS);
	int cand[4], nc = 0;
	for (int c = 0; c < ER_DICE; c++)
		if (t->chief || c != (int)t->chief_die)
			cand[nc++] = c;
	if (nc == 3 || (nc == 2 && t->dice[cand[1]] < t->dice[cand[0]])) {
		for (int i = 1; i < nc; i++)
			for (int j = i; j > 0 && t->dice[cand[j]] < t->dice[cand[j - 1]]; j--) {
				int x = cand[j];
				cand[j] = cand[j - 1];
				cand[j - 1] = x;
			}
	}
	if (!t->chief)
		cand[nc++] = t->chief_die;
	if (final_turn) {
		/* The ward worth most among those one candidate can fill (any admission of the
		 * die patient to its last bed, not after a screen), then the first such die. */
		int fill_ward = -1, fill_die = -1;
		for (int i = 0; i < nc; i++)
			for (int k = 0; k < n; k++) {
				const er_option *o = &opts[k];
				int w = o->ward;
				if ((int)o->die != cand[i] || o->patient != ER_PT_DIE ||
				    o->screen_first || s->count[w] != D.wards[w].nbeds - 1)
					continue;
				if (fill_ward < 0 ||
				    D.wards[w].clipboard > D.wards[fill_ward].clipboard ||
				    (w == fill_ward && i < fill_die) ||
				    (D.wards[w].clipboard == D.wards[fill_ward].clipboard &&
				     w < fill_ward)) {
					fill_ward = w;
					fill_die = i;
				}
			}
		if (fill_ward >= 0) {
			if ((int)m->die != cand[fill_die] || m->steps[0].kind != ER_STEP_ADMIT ||
			    m->steps[0].ward != fill_ward) {
				printf("  options say: fill ward %d with die %c\n", fill_ward + 1,
				       die_letter[cand[fill_die]]);
				return -1;
			}
			return 0;
		}
	}
	for (int i = 0; i < nc; i++) {
		int c = cand[i], best_step = 99, best_ward = 99;
		int chief_bag = (!t->chief && c == (int)t->chief_die) ? 1 : 0;
		for (int k = 0; k < n; k++) {
			const er_option *o = &opts[k];
			if ((int)o->die != c || o->patient != ER_PT_DIE || o->screen_first ||
			    o->value < t->dice[c])
				continue;
			int st = option_step(o, chief_bag);
			if (st < best_step || (st == best_step && o->ward < best_ward)) {
				best_step = st;
				best_ward = o->ward;
			}
		}
		if (best_step == 99)
			continue;
		if ((int)m->die != c || m->steps[0].kind != ER_STEP_ADMIT ||
		    m->steps[0].ward != best_ward) {
			printf("  options say die %c ward %d (step %d)\n", die_letter[c],
			       best_ward + 1, best_step + 1);
			return -1;
		}
		return 0;
	}
	if (m->steps[0].kind != ER_STEP_MORGUE) {
		printf("  options say the morgue\n");
		return -1;
	}
	return 0;
}

/* A random legal move from er_move_options() (the extra patient to the morgue), to reach
 * positions ALICAT would not reach by itself (screens, decreased values, …). */
static bool random_option_move(const er_sheet *s, const er_turn *t, er_move *m)
{
	int n = er_move_options(&D, t, s, true, opts, ER_MAX_OPTIONS);
	if (n == 0)
		return false;
	er_move_from_option(&D, t, &opts[rnd((unsigned)n)], m);
	return true;
}

static void test_random_games(void)
{
	int moves = 0, rejected = 0, disagree = 0, invalid = 0, morgues = 0, fills = 0;
	for (int game = 0; game < 3000; game++) {
		unsigned mods = rnd(2) ? ER_MOD_PREPARATION : 0;
		er_sheet s;
		er_sheet_init(&s, &D, true, mods);
		bool mixed = rnd(3) == 0; /* some games take random legal moves now and then */
		for (int turn = 1; turn <= 24; turn++) {
			er_turn t = {.card = 1 + (int)rnd(ER_CARDS),
			             .dice = {(int8_t)(1 + rnd(6)), (int8_t)(1 + rnd(6)),
			                      (int8_t)(1 + rnd(6))},
			             .chief = turn % 2 == 0,
			             .chief_die = ER_NO_COLOUR};
			if (!t.chief)
				t.chief_die = (er_colour)rnd(3);
			bool final_turn = turn == 24 || rnd(8) == 0;
			er_move m;
			er_result r = er_alicat_move(&D, &s, &t, final_turn, &m);
			if (r.rule) {
				rejected++;
				continue;
			}
			er_sheet copy = s;
			r = er_move_apply(&D, &t, &m, true, &copy);
			moves++;
			if (r.rule) {
				if (rejected++ < 5) {
					char got[128];
					fmt_move(&m, got, sizeof got);
					printf(
					    "  game %d turn %d: apply rejected \"%s\": %s (%s)\n",
					    game, turn, got, r.rule, r.detail);
				}
				continue;
			}
			if (check_against_options(&s, &t, final_turn, &m) != 0 && disagree++ < 5) {
				char got[128];
				fmt_move(&m, got, sizeof got);
				printf("  game %d turn %d card %d dice %d%d%d: ALICAT \"%s\"\n",
				       game, turn, t.card, t.dice[0], t.dice[1], t.dice[2], got);
			}
			if (m.steps[0].kind == ER_STEP_MORGUE)
				morgues++;
			if (final_turn && m.steps[0].kind == ER_STEP_ADMIT &&
			    copy.count[m.steps[0].ward] == D.wards[m.steps[0].ward].nbeds)
				fills++;
			r = er_sheet_validate(&D, &copy, true, mods);
			if (r.rule && invalid++ < 5)
				printf("  game %d turn %d: sheet invalid: %s (%s)\n", game, turn,
				       r.rule, r.detail);
			er_move rm;
			if (mixed && rnd(3) == 0 && random_option_move(&s, &t, &rm)) {
				er_sheet c2 = s;
				if (er_move_apply(&D, &t, &rm, true, &c2).rule == NULL)
					copy = c2;
			}
			s = copy;
		}
	}
	printf("  %d ALICAT moves, %d morgue, %d final-turn fills\n", moves, morgues, fills);
	CHECK(moves > 50000);
	CHECK(morgues > 0);
	CHECK(fills > 0);
	CHECK_EQ_INT(rejected, 0);
	CHECK_EQ_INT(disagree, 0);
	CHECK_EQ_INT(invalid, 0);
}

int main(void)
{
	if (er_fixture_load(&D) != 0) {
		printf("FAIL er_alicat: cannot load templates/er\n");
		return 1;
	}
	TEST("er_alicat: rulebook cases (seed003 SOLO MODE)", test_cases);
	TEST("er_alicat: seed003 SOLO MODE / Nurse: at most 5 extra nurses (via apply)",
	     test_nurse_cap);
	TEST("er_alicat: invalid input is an error, not a move", test_invalid_input);
	TEST("er_alicat: random positions: apply accepts, options agree", test_random_games);
	TEST_MAIN_END();
}
