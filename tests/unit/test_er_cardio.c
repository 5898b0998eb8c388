/* The Cardiologist race (src/rules/er_cardio.c): ER rulebook (seed 003) "CARDIOLOGISTS" for
 * 2-6 players and "SOLO MODE / CARDIOLOGISTS" against ALICAT. */
#include "rules/er.h"
#include "test.h"

enum { SEATS = 6 };

typedef struct {
	bool met[SEATS][2];
	int16_t already[SEATS][2];
	int16_t award[SEATS][2];
} seats;

/* One end-of-turn check; every award is recorded in `already` as a sheet would. */
static void race_turn(er_cardio_race *r, seats *s, int n)
{
	er_cardio_race_turn(r, n, (const bool(*)[2])s->met, (const int16_t(*)[2])s->already,
	                    s->award);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2; k++)
			if (s->award[i][k])
				s->already[i][k] = s->award[i][k];
}

/* seed003 GETTING READY 4: "Place the Cardiologists with the '8/5' side face up. (2 players:
 * Place them with the '5' side face up instead.)" */
static void test_init(void)
{
	er_cardio_race r;
	for (int n = 3; n <= 6; n++) {
		er_cardio_race_init(&r, n);
		CHECK_EQ_INT(r.offer[0], 8);
		CHECK_EQ_INT(r.offer[1], 8);
	}
	er_cardio_race_init(&r, 2);
	CHECK_EQ_INT(r.offer[0], 5);
	CHECK_EQ_INT(r.offer[1], 5);
}

/* seed003 CARDIOLOGISTS: "The first time the goal is achieved, that player earns 8 points and
 * flips the card over. The second time it is achieved, the player earns 5 points and then
 * discards the card." */
static void test_8_5_discard(void)
{
	er_cardio_race r;
	er_cardio_race_init(&r, 4);
	seats s = {0};
	race_turn(&r, &s, 4); /* nobody */
	CHECK_EQ_INT(r.offer[0], 8);
	s.met[0][0] = true;
	race_turn(&r, &s, 4);
	CHECK_EQ_INT(s.award[0][0], 8);
	CHECK_EQ_INT(s.award[0][1], 0);
	CHECK_EQ_INT(r.offer[0], 5);
	CHECK_EQ_INT(r.offer[1], 8); /* the other card is untouched */
	s.met[1][0] = true;
	race_turn(&r, &s, 4);
	CHECK_EQ_INT(s.award[0][0], 0); /* seat 0 already holds it */
	CHECK_EQ_INT(s.award[1][0], 5);
	CHECK_EQ_INT(r.offer[0], 0);
	s.met[2][0] = true;
	race_turn(&r, &s, 4);
	CHECK_EQ_INT(s.award[2][0], 0); /* discarded */
	CHECK_EQ_INT(r.offer[0], 0);
	CHECK_EQ_INT(s.already[0][0], 8);
	CHECK_EQ_INT(s.already[1][0], 5);
	CHECK_EQ_INT(s.already[2][0], 0);
}

/* seed003 CARDIOLOGISTS: "If two [or] more players achieve the goal in the same turn, all these
 * players receive the full points currently available." */
static void test_ties(void)
{
	er_cardio_race r;
	er_cardio_race_init(&r, 5);
	seats s = {0};
	s.met[0][1] = s.met[2][1] = s.met[4][1] = true;
	race_turn(&r, &s, 5);
	CHECK_EQ_INT(s.award[0][1], 8);
	CHECK_EQ_INT(s.award[1][1], 0);
	CHECK_EQ_INT(s.award[2][1], 8);
	CHECK_EQ_INT(s.award[4][1], 8);
	CHECK_EQ_INT(r.offer[1], 5); /* flipped once, not once per achiever */
	s.met[1][1] = s.met[3][1] = true;
	race_turn(&r, &s, 5);
	CHECK_EQ_INT(s.award[1][1], 5);
	CHECK_EQ_INT(s.award[3][1], 5);
	CHECK_EQ_INT(s.award[0][1], 0);
	CHECK_EQ_INT(r.offer[1], 0);
	/* both cards in one turn, by different seats */
	er_cardio_race_init(&r, 3);
	seats t = {0};
	t.met[0][0] = t.met[1][1] = t.met[2][0] = t.met[2][1] = true;
	race_turn(&r, &t, 3);
	CHECK_EQ_INT(t.award[0][0], 8);
	CHECK_EQ_INT(t.award[2][0], 8);
	CHECK_EQ_INT(t.award[1][1], 8);
	CHECK_EQ_INT(t.award[2][1], 8);
	CHECK_EQ_INT(t.award[0][1], 0);
	CHECK_EQ_INT(r.offer[0], 5);
	CHECK_EQ_INT(r.offer[1], 5);
}

/* A seat that already scored a card (its sheet box holds points) never scores it again, and
 * does not flip the card. */
static void test_never_twice(void)
{
	er_cardio_race r;
	er_cardio_race_init(&r, 3);
	seats s = {0};
	s.met[1][0] = true;
	race_turn(&r, &s, 3);
	CHECK_EQ_INT(s.award[1][0], 8);
	for (int turn = 0; turn < 3; turn++) {
		race_turn(&r, &s, 3); /* seat 1 still meets the goal */
		CHECK_EQ_INT(s.award[1][0], 0);
		CHECK_EQ_INT(r.offer[0], 5);
	}
	CHECK_EQ_INT(s.already[1][0], 8);
}

/* seed003 CARDIOLOGISTS: "In a 2-player game, the first time a goal is achieved the player earns
 * 5 points and then discards the card. Players can still achieve the goal in the same turn as
 * described above" */
static void test_two_players(void)
{
	er_cardio_race r;
	er_cardio_race_init(&r, 2);
	seats s = {0};
	s.met[0][0] = true;
	race_turn(&r, &s, 2);
	CHECK_EQ_INT(s.award[0][0], 5);
	CHECK_EQ_INT(r.offer[0], 0);
	s.met[1][0] = true;
	race_turn(&r, &s, 2);
	CHECK_EQ_INT(s.award[1][0], 0);
	s.met[0][1] = s.met[1][1] = true;
	race_turn(&r, &s, 2);
	CHECK_EQ_INT(s.award[0][1], 5);
	CHECK_EQ_INT(s.award[1][1], 5);
	CHECK_EQ_INT(r.offer[1], 0);
}

/* ---- solo ---- */

typedef struct {
	bool human_met[2];
	int fills;
	int choice;
	int human[2], alicat[2]; /* expected awards */
	bool remaining[2];       /* expected after the turn */
} solo_turn;

static void run_solo(const char *name, const solo_turn *turns, int n)
{
	er_solo_race r;
	er_solo_race_init(&r);
	CHECK(r.remaining[0] && r.remaining[1]);
	for (int i = 0; i < n; i++) {
		const solo_turn *t = &turns[i];
		int16_t h[2] = {-1, -1}, a[2] = {-1, -1};
		er_solo_race_turn(&r, t->human_met, t->fills, t->choice, h, a);
		if (h[0] != t->human[0] || h[1] != t->human[1] || a[0] != t->alicat[0] ||
		    a[1] != t->alicat[1] || r.remaining[0] != t->remaining[0] ||
		    r.remaining[1] != t->remaining[1]) {
			printf(
			    "  %s, turn %d: human %d/%d (want %d/%d), ALICAT %d/%d (want %d/%d), "
			    "remaining %d%d (want %d%d)\n",
			    name, i + 1, h[0], h[1], t->human[0], t->human[1], a[0], a[1],
			    t->alicat[0], t->alicat[1], r.remaining[0], r.remaining[1],
			    t->remaining[0], t->remaining[1]);
			test_failed_now = 1;
		}
	}
}

#define RUN_SOLO(name, ...)                                                                        \
	do {                                                                                       \
		static const solo_turn turns_[] = {__VA_ARGS__};                                   \
		run_solo(name, turns_, (int)(sizeof turns_ / sizeof turns_[0]));                   \
	} while (0)

static void test_solo(void)
{
	/* "While both Cardiologists remain available, you must treat them as a single combined
	 * goal and can only score them if you achieve both goals. If you achieve both goals before
	 * ALICAT fills a ward, score 10 points and discard both goals." */
	RUN_SOLO("seed003 SOLO MODE / CARDIOLOGISTS: combined goal needs both, then 10",
	         {{true, false}, 0, 0, {0, 0}, {0, 0}, {true, true}},
	         {{false, true}, 0, 0, {0, 0}, {0, 0}, {true, true}},
	         {{true, true}, 0, 0, {5, 5}, {0, 0}, {false, false}},
	         {{true, true}, 1, 0, {0, 0}, {0, 0}, {false, false}});
	/* "If ALICAT fills a ward and at least one Cardiologist remains, ALICAT scores 5 points.
	 * You choose which Cardiologist to discard." */
	RUN_SOLO("seed003 SOLO MODE / CARDIOLOGISTS: ALICAT fills a ward -> 5, the chosen card",
	         {{false, false}, 1, 1, {0, 0}, {0, 5}, {true, false}});
	RUN_SOLO("seed003 SOLO MODE / CARDIOLOGISTS: ALICAT fills a ward -> 5, card 1 chosen",
	         {{false, false}, 1, 0, {0, 0}, {5, 0}, {false, true}});
	/* "If you score both on the same turn that ALICAT fills a ward, you score 10 points and
	 * ALICAT scores 5 points." */
	RUN_SOLO("seed003 SOLO MODE / CARDIOLOGISTS: both goals the turn ALICAT fills a ward",
	         {{true, true}, 1, 1, {5, 5}, {0, 5}, {false, false}});
	/* "If only one Cardiologist remains, you may score it individually by achieving the goal,
	 * and ALICAT may score it by filling a second ward. In either case, discard the card." */
	RUN_SOLO("seed003 SOLO MODE / CARDIOLOGISTS: one card left, the human scores it",
	         {{false, false}, 1, 0, {0, 0}, {5, 0}, {false, true}},
	         {{true, false}, 0, 1, {0, 0}, {0, 0}, {false, true}}, /* card 1 is gone */
	         {{true, true}, 0, 0, {0, 5}, {0, 0}, {false, false}},
	         {{true, true}, 1, 0, {0, 0}, {0, 0}, {false, false}});
	RUN_SOLO("seed003 SOLO MODE / CARDIOLOGISTS: one card left, ALICAT fills a second ward",
	         {{false, false}, 1, 1, {0, 0}, {0, 5}, {true, false}},
	         {{false, true}, 0, 1, {0, 0}, {0, 0}, {true, false}},
	         {{false, false}, 1, 1, {0, 0}, {5, 0}, {false, false}});
	/* "If you achieve the goal on the same turn ALICAT fills a second ward, you both score 5
	 * points." */
	RUN_SOLO("seed003 SOLO MODE / CARDIOLOGISTS: one card left, same turn -> both 5",
	         {{false, false}, 1, 0, {0, 0}, {5, 0}, {false, true}},
	         {{false, true}, 1, 0, {0, 5}, {0, 5}, {false, false}});
	/* Readings (er_cardio.c): two wards filled in one turn take both cards; the check is one
	 * simultaneous check, so the goal that stays after ALICAT's fill is scored at the next
	 * check. */
	RUN_SOLO("reading: ALICAT fills two wards in one turn -> both cards",
	         {{false, false}, 2, 1, {0, 0}, {5, 5}, {false, false}});
	RUN_SOLO("reading: two wards the turn the human meets both -> 10 each",
	         {{true, true}, 2, 0, {5, 5}, {5, 5}, {false, false}});
	RUN_SOLO("reading: the human's single goal waits for the next check",
	         {{false, true}, 1, 0, {0, 0}, {5, 0}, {false, true}},
	         {{false, true}, 0, 0, {0, 5}, {0, 0}, {false, false}});
	RUN_SOLO("reading: a discard choice other than 1 (the second card) means the first",
	         {{false, false}, 1, 7, {0, 0}, {5, 0}, {false, true}});
}

int main(void)
{
	TEST("er_cardio: seed003 GETTING READY / 8-5 side, 2 players 5", test_init);
	TEST("er_cardio: seed003 CARDIOLOGISTS / 8, then 5, then discarded", test_8_5_discard);
	TEST("er_cardio: seed003 CARDIOLOGISTS / simultaneous achievers all score the offer",
	     test_ties);
	TEST("er_cardio: seed003 CARDIOLOGISTS / a seat never scores a card twice",
	     test_never_twice);
	TEST("er_cardio: seed003 CARDIOLOGISTS / 2 players: 5, then discarded", test_two_players);
	TEST("er_cardio: seed003 SOLO MODE / CARDIOLOGISTS", test_solo);
	TEST_MAIN_END();
}
