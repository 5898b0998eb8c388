/* Dice Hospital scorekeeper (src/rules/dh.c) against the rulebook: seed 000 =
 * ../shared/seeds/000_f801c236a9bfa085.txt (English), seed 004 (French); sections by heading.
 * Profile: templates/dice-hospital/default.json (game-data.md placeholders). */
#include <stdlib.h>

#include "rules/dh.h"
#include "test.h"
#include "tt_fixture.h"

static dh_profile prof;

static void load_profile(void)
{
	json_object *doc = tt_fixture_doc("dice-hospital/default.json");
	char err[200] = "";
	CHECK(doc != NULL);
	int rc = dh_profile_from_json(&prof, doc, err, sizeof err);
	if (rc != 0)
		printf("  %s\n", err);
	CHECK_EQ_INT(rc, 0);
	json_object_put(doc);
	json_object *admins = tt_fixture_doc("dice-hospital/administrators.json");
	CHECK_EQ_INT(dh_admins_check_json(admins, err, sizeof err), 0);
	json_object_put(admins);
}

static void config(dh_config *c, int nseats, bool solo)
{
	memset(c, 0, sizeof *c);
	c->nseats = nseats;
	c->solo = solo;
	for (int s = 0; s < DH_MAX_SEATS; s++)
		c->admin[s] = DH_ADMIN_NONE;
	c->profile = prof;
}

static void game(dh_game *g, int nseats, const int *admins)
{
	dh_config c;
	config(&c, nseats, false);
	for (int s = 0; admins && s < nseats; s++)
		c.admin[s] = (int8_t)admins[s];
	tt_error e;
	CHECK_EQ_INT(dh_config_check(&c, &e), 0);
	dh_game_init(g, &c);
}

/* entry i: seat, red, yellow, green, wards_empty, registrar */
static void entry(dh_round_input *in, int seat, int r, int y, int gr, bool empty, int reg)
{
	int i = in->nentries++;
	in->e[i].seat = seat;
	in->e[i].discharged[0] = r;
	in->e[i].discharged[1] = y;
	in->e[i].discharged[2] = gr;
	in->e[i].wards_empty = empty;
	in->e[i].registrar = reg;
}

static int put_round(dh_game *g, int round, const dh_round_input *in, tt_error *e)
{
	dh_game before = *g;
	int rc = dh_round_apply(g, round, in, e);
	if (rc != 0)
		CHECK(memcmp(&before, g, sizeof before) == 0); /* a refusal changes nothing */
	return rc;
}

static int total(const dh_game *g, int seat)
{
	dh_scores sc;
	dh_score(g, &sc);
	return sc.seat[seat - 1].total;
}

static int count_rule(const dh_game *g, int seat, dh_rule rule, int round)
{
	dh_scores sc;
	dh_score(g, &sc);
	int pts = 0;
	for (int i = 0; i < sc.seat[seat - 1].nitems; i++)
		if (sc.seat[seat - 1].items[i].rule == rule &&
		    sc.seat[seat - 1].items[i].round == round)
			pts += sc.seat[seat - 1].items[i].points;
	return pts;
}

static void fill_rounds(dh_game *g, int upto)
{
	for (int r = 1; r <= upto; r++) {
		dh_round_input in = {0};
		for (int s = 1; s <= g->cfg.nseats; s++)
			entry(&in, s, 1, 0, 0, false, 0);
		tt_error e;
		CHECK_EQ_INT(dh_round_apply(g, r, &in, &e), 0);
	}
}

/* game-data.md "Unverified values": the placeholder table, every entry unverified; the
 * rulebook's own constants verified (seed 000, PHASE 5 and END GAME SCORING). */
static void t_profile(void)
{
	int want[13] = {0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 54, 63, 72};
	for (int n = 0; n <= 12; n++)
		CHECK_EQ_INT(prof.discharge[n].value, want[n]);
	CHECK(!prof.discharge[5].verified);
	CHECK(prof.wards_empty.verified && prof.wards_empty.value == 5);
	CHECK(prof.fatality.verified && prof.fatality.value == -2);
	CHECK(prof.blood_bag.verified && prof.blood_bag.value == 1);
	CHECK_EQ_INT(prof.fatality_penalty_factor.value, 2);
	CHECK_STR(prof.id, "default");
	CHECK_EQ_INT(dh_admin_from_id("most-discharged"), DH_ADMIN_MOST);
	CHECK_EQ_INT(dh_admin_from_id("nope"), DH_ADMIN_NONE);
	/* a profile missing a value or with a bad type is refused */
	json_object *doc = tt_fixture_doc("dice-hospital/default.json");
	json_object *values = NULL;
	json_object_object_get_ex(doc, "values", &values);
	json_object_object_add(values, "fatality", json_object_new_string("-2"));
	char err[200];
	dh_profile p;
	CHECK_EQ_INT(dh_profile_from_json(&p, doc, err, sizeof err), -1);
	CHECK(strstr(err, "/values/fatality") != NULL);
	json_object_put(doc);
}

/* A profile a group checked against its box: "checked_at" on the profile and on each checked
 * value, a UTC time; a checked value is a verified one (game-data.md "Unverified values": the
 * league, or the group, edits the profile once to match the printed board). */
static void t_profile_checked(void)
{
	static const struct {
		const char *stamp;
		bool ok;
	} stamps[] = {{"2025-05-12T18:03:00Z", true},
	              {"2025-05-12 18:03:00Z", false},
	              {"2025-05-12T18:03:00", false},
	              {"2025-00-12T18:03:00Z", false},
	              {"2025-05-32T18:03:00Z", false},
	              {"2025-05-12T24:00:00Z", false},
	              {"", false},
	              {"2025-05-12T18:03:00Z ", false}};
	for (size_t i = 0; i < sizeof stamps / sizeof stamps[0]; i++)
		CHECK_EQ_INT(tt_stamp_ok(stamps[i].stamp), stamps[i].ok);
	CHECK_STR(prof.checked_at, "");
	struct {
		const char *at, *stamp;
		bool verified;
		const char *err;
	} cases[] = {
	    {NULL, "2025-05-12T18:03:00Z", true, NULL},
	    {NULL, "2025-13-12T18:03:00Z", true, "/checked_at"},
	    {"discharge", "2025-05-12T18:03:00Z", true, NULL},
	    {"discharge", "2025-05-12T18:03:00Z", false, "/values/discharge/verified"},
	    {"discharge", "yesterday", true, "/values/discharge/checked_at"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_object *doc = tt_fixture_doc("dice-hospital/default.json"), *values = NULL,
		            *v = doc;
		json_object_object_get_ex(doc, "values", &values);
		if (cases[i].at) {
			json_object_object_get_ex(values, cases[i].at, &v);
			json_object_object_add(v, "verified",
			                       json_object_new_boolean(cases[i].verified));
		}
		json_object_object_add(v, "checked_at", json_object_new_string(cases[i].stamp));
		char err[200] = "";
		dh_profile p;
		int rc = dh_profile_from_json(&p, doc, err, sizeof err);
		CHECK_EQ_INT(rc, cases[i].err ? -1 : 0);
		if (cases[i].err)
			CHECK(strncmp(err, cases[i].err, strlen(cases[i].err)) == 0 &&
			      err[strlen(cases[i].err)] == ':');
		else if (!cases[i].at)
			CHECK_STR(p.checked_at, cases[i].stamp);
		else
			CHECK(p.discharge[3].verified);
		json_object_put(doc);
	}
}

/* seed 000, INTRODUCTION (1-4 players), GAME SETUP (Administrators: one each, 8 cards),
 * SOLO PLAY RULES (no Administrator; the penalties are solo modifiers). */
static void t_config(void)
{
	dh_config c;
	tt_error e;
	config(&c, 5, false);
	CHECK_EQ_INT(dh_config_check(&c, &e), -1);
	CHECK_STR(e.rule, "too-many-players");
	config(&c, 1, false);
	CHECK_EQ_INT(dh_config_check(&c, &e), -1);
	CHECK_STR(e.rule, "too-few-players");
	config(&c, 2, true);
	CHECK_EQ_INT(dh_config_check(&c, &e), -1);
	CHECK_STR(e.rule, "solo-one-player");
	config(&c, 3, false);
	c.admin[0] = DH_ADMIN_MOST;
	c.admin[2] = DH_ADMIN_MOST;
	CHECK_EQ_INT(dh_config_check(&c, &e), -1);
	CHECK_STR(e.rule, "administrator-twice");
	CHECK_STR(e.field, "/players/2/administrator");
	config(&c, 2, false);
	c.variant[DH_VAR_FATALITY_PENALTY] = true;
	CHECK_EQ_INT(dh_config_check(&c, &e), -1);
	CHECK_STR(e.field, "/variants/fatality_penalty");
	config(&c, 1, true);
	c.admin[0] = DH_ADMIN_2_RED;
	CHECK_EQ_INT(dh_config_check(&c, &e), -1);
	CHECK_STR(e.rule, "administrator-in-solo");
	config(&c, 1, true);
	CHECK_EQ_INT(dh_config_check(&c, &e), -1); /* solo needs its six dealt reports */
	CHECK_STR(e.rule, "report-invalid");
	for (int i = 0; i < DH_REPORTS; i++) {
		c.reports[i].need[DH_RED] = 1;
		c.reports[i].points = 3;
	}
	CHECK_EQ_INT(dh_config_check(&c, &e), 0);
	config(&c, 4, false);
	CHECK_EQ_INT(dh_config_check(&c, &e), 0);
}

/* seed 000, PHASE 5 - DISCHARGED PATIENTS: the table (profile), +5 for empty wards. */
static void t_phase5(void)
{
	dh_game g;
	game(&g, 2, NULL);
	dh_round_input in = {0};
	entry(&in, 1, 2, 1, 1, false, 0); /* 4 discharged */
	entry(&in, 2, 0, 0, 0, true, 0);  /* none, wards empty */
	tt_error e;
	CHECK_EQ_INT(put_round(&g, 1, &in, &e), 0);
	CHECK_EQ_INT(total(&g, 1), 10);
	CHECK_EQ_INT(total(&g, 2), 5);
	dh_scores sc;
	dh_score(&g, &sc);
	CHECK(!sc.seat[0].all_verified); /* the discharge table is a placeholder */
	CHECK(sc.seat[1].all_verified);  /* +5 is the rulebook's */
	CHECK_EQ_INT(sc.seat[1].nitems, 1);
	CHECK_STR(dh_rule_id(sc.seat[1].items[0].rule), "wards-empty");
	CHECK_STR(dh_rule_profile_key(sc.seat[1].items[0].rule), "wards_empty");
	CHECK_EQ_INT(sc.seat[0].round_points[1], 10);
}

/* seed 000, HOSPITAL ADMINISTRATORS: ≥ 2 of a colour, one of each colour (both sides). */
static void t_admins_colours(void)
{
	int admins[4] = {DH_ADMIN_2_RED, DH_ADMIN_2_YELLOW, DH_ADMIN_2_GREEN, DH_ADMIN_3_COLOURS};
	dh_game g;
	game(&g, 4, admins);
	dh_round_input in = {0};
	entry(&in, 1, 2, 0, 0, false, 0); /* 2 red: +1 */
	entry(&in, 2, 1, 1, 0, false, 0); /* 1 yellow: no */
	entry(&in, 3, 0, 0, 3, false, 0); /* 3 green: +1 */
	entry(&in, 4, 1, 1, 1, false, 0); /* one of each: +1 */
	tt_error e;
	CHECK_EQ_INT(put_round(&g, 1, &in, &e), 0);
	CHECK_EQ_INT(count_rule(&g, 1, DH_R_ADMIN_2_RED, 1), 1);
	CHECK_EQ_INT(count_rule(&g, 2, DH_R_ADMIN_2_YELLOW, 1), 0);
	CHECK_EQ_INT(count_rule(&g, 3, DH_R_ADMIN_2_GREEN, 1), 1);
	CHECK_EQ_INT(count_rule(&g, 4, DH_R_ADMIN_3_COLOURS, 1), 1);
	CHECK_EQ_INT(total(&g, 1), 3 + 1);
	CHECK_EQ_INT(total(&g, 4), 6 + 1);
	dh_round_input in2 = {0};
	entry(&in2, 4, 2, 0, 2, false, 0); /* no yellow: no bonus */
	CHECK_EQ_INT(put_round(&g, 2, &in2, &e), 0);
	CHECK_EQ_INT(count_rule(&g, 4, DH_R_ADMIN_3_COLOURS, 2), 0);
}

/* seed 000, HOSPITAL ADMINISTRATORS "discharged the most patients": ties among three players —
 * the holder scores when tied for most; not when another discharged more; nobody is "most"
 * with zero discharged. */
static void t_most_discharged_ties(void)
{
	int admins[3] = {DH_ADMIN_MOST, DH_ADMIN_NONE, DH_ADMIN_NONE};
	dh_game g;
	game(&g, 3, admins);
	dh_round_input in = {0};
	entry(&in, 1, 1, 1, 1, false, 0);
	entry(&in, 2, 0, 3, 0, false, 0);
	entry(&in, 3, 0, 0, 3, false, 0);
	tt_error e;
	CHECK_EQ_INT(put_round(&g, 1, &in, &e), 0); /* three-way tie at 3: holder scores */
	CHECK_EQ_INT(count_rule(&g, 1, DH_R_ADMIN_MOST, 1), 1);
	dh_round_input in2 = {0};
	entry(&in2, 1, 2, 0, 0, false, 0);
	entry(&in2, 2, 2, 0, 0, false, 0);
	entry(&in2, 3, 3, 0, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 2, &in2, &e), 0); /* seat 3 has more */
	CHECK_EQ_INT(count_rule(&g, 1, DH_R_ADMIN_MOST, 2), 0);
	dh_round_input in3 = {0};
	entry(&in3, 1, 0, 0, 0, false, 0);
	entry(&in3, 2, 0, 0, 0, false, 0);
	entry(&in3, 3, 0, 0, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 3, &in3, &e), 0); /* all zero: nobody discharged most */
	CHECK_EQ_INT(count_rule(&g, 1, DH_R_ADMIN_MOST, 3), 0);
	/* re-entering seat 3's round 2 with 2 patients makes a three-way tie: holder scores */
	dh_round_input fix = {0};
	entry(&fix, 3, 0, 2, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 2, &fix, &e), 0);
	CHECK_EQ_INT(count_rule(&g, 1, DH_R_ADMIN_MOST, 2), 1);
	CHECK_EQ_INT(total(&g, 3), 6 + 3 + 0);
}

/* seed 000, EXPERIMENTAL MEDICINE, REGISTRAR: +1 if that meeple discharged a patient. */
static void t_registrar(void)
{
	dh_game g;
	game(&g, 2, NULL);
	dh_round_input in = {0};
	entry(&in, 1, 1, 0, 0, false, 1);
	tt_error e;
	CHECK_EQ_INT(put_round(&g, 1, &in, &e), -1);
	CHECK_STR(e.rule, "registrar-without-expansion");
	CHECK_STR(e.field, "/entries/0/registrar");
	g.cfg.variant[DH_VAR_EXPERIMENTAL_MEDICINE] = true;
	CHECK_EQ_INT(put_round(&g, 1, &in, &e), 0);
	CHECK_EQ_INT(count_rule(&g, 1, DH_R_REGISTRAR, 1), 1);
	CHECK_EQ_INT(total(&g, 1), 2);
	dh_round_input bad = {0};
	entry(&bad, 2, 1, 0, 0, false, 2); /* two Registrars but one patient */
	CHECK_EQ_INT(put_round(&g, 1, &bad, &e), -1);
	CHECK_STR(e.rule, "registrar-impossible");
}

/* Bad input: round outside 1–8, negative or impossible counts, a seat twice, an
 * unknown seat, a round before the earlier ones — refused, nothing changes. */
static void t_bad_rounds(void)
{
	dh_game g;
	game(&g, 2, NULL);
	dh_round_input in = {0};
	entry(&in, 1, 1, 0, 0, false, 0);
	tt_error e;
	CHECK_EQ_INT(put_round(&g, 0, &in, &e), -1);
	CHECK_STR(e.rule, "round-out-of-range");
	CHECK_EQ_INT(e.status, 400);
	CHECK_EQ_INT(put_round(&g, 9, &in, &e), -1);
	CHECK_STR(e.field, "/round");
	CHECK_EQ_INT(put_round(&g, 2, &in, &e), -1);
	CHECK_STR(e.rule, "round-not-reached");
	dh_round_input neg = {0};
	entry(&neg, 1, 0, -1, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 1, &neg, &e), -1);
	CHECK_STR(e.rule, "negative-count");
	CHECK_STR(e.field, "/entries/0/discharged/yellow");
	dh_round_input many = {0};
	entry(&many, 1, 5, 5, 3, false, 0); /* 13 > 12 spaces (seed 000, PHASE 1) */
	CHECK_EQ_INT(put_round(&g, 1, &many, &e), -1);
	CHECK_STR(e.rule, "too-many-discharged");
	CHECK_EQ_INT(e.status, 422);
	dh_round_input twice = {0};
	entry(&twice, 2, 1, 0, 0, false, 0);
	entry(&twice, 2, 0, 1, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 1, &twice, &e), -1);
	CHECK_STR(e.rule, "seat-twice");
	CHECK_STR(e.field, "/entries/1/seat");
	dh_round_input ghost = {0};
	entry(&ghost, 3, 1, 0, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 1, &ghost, &e), -1);
	CHECK_STR(e.rule, "unknown-seat");
	dh_round_input twelve = {0};
	entry(&twelve, 1, 4, 4, 4, true, 0); /* exactly 12 is possible */
	CHECK_EQ_INT(put_round(&g, 1, &twelve, &e), 0);
	CHECK_EQ_INT(total(&g, 1), 72 + 5);
}

/* Re-entering a round replaces it and re-scores; each seat may enter its own. */
static void t_reenter(void)
{
	dh_game g;
	game(&g, 2, NULL);
	dh_round_input a = {0}, b = {0};
	entry(&a, 1, 3, 0, 0, false, 0);
	tt_error e;
	CHECK_EQ_INT(put_round(&g, 1, &a, &e), 0);
	entry(&b, 2, 0, 1, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 1, &b, &e), 0); /* seat 2 alone keeps seat 1's entry */
	CHECK_EQ_INT(total(&g, 1), 6);
	CHECK_EQ_INT(total(&g, 2), 1);
	dh_round_input a2 = {0};
	entry(&a2, 1, 1, 0, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 1, &a2, &e), 0);
	CHECK_EQ_INT(total(&g, 1), 1);
}

/* seed 000, END GAME SCORING: −2 per fatality, +1 per blood bag; finish after round 8 only;
 * FINAL ROUND COLLECTIONS: +1 per patient collected, −1 per patient left. */
static void t_finish(void)
{
	dh_game g;
	game(&g, 2, NULL);
	fill_rounds(&g, 7);
	dh_finish_input f = {.nentries = 2};
	f.e[0].seat = 1;
	f.e[0].fatalities = 3;
	f.e[0].blood_bags = 2;
	f.e[0].patients_left = 2;
	f.e[0].pips_left = 7;
	f.e[1].seat = 2;
	f.e[1].patients_left = 1; /* round 8 did not end with empty wards */
	f.e[1].pips_left = 4;
	tt_error e;
	dh_game before = g;
	CHECK_EQ_INT(dh_finish_apply(&g, &f, &e), -1);
	CHECK_STR(e.rule, "finish-before-last-round");
	CHECK(memcmp(&before, &g, sizeof g) == 0);
	fill_rounds(&g, 8);
	dh_finish_input one = f;
	one.nentries = 1;
	CHECK_EQ_INT(dh_finish_apply(&g, &one, &e), -1);
	CHECK_STR(e.rule, "seat-missing");
	dh_finish_input pips = f;
	pips.e[0].pips_left = 13; /* 2 dice show at most 12 */
	CHECK_EQ_INT(dh_finish_apply(&g, &pips, &e), -1);
	CHECK_STR(e.rule, "impossible-pips");
	CHECK_STR(e.field, "/entries/0/pips_left");
	dh_finish_input coll = f;
	coll.e[1].collected = 1;
	CHECK_EQ_INT(dh_finish_apply(&g, &coll, &e), -1);
	CHECK_STR(e.rule, "collections-without-variant");
	dh_finish_input neg = f;
	neg.e[1].blood_bags = -1;
	CHECK_EQ_INT(dh_finish_apply(&g, &neg, &e), -1);
	CHECK_EQ_INT(e.status, 400);
	CHECK(memcmp(&before.rounds[0], &g.rounds[0], sizeof g.rounds[0]) == 0);
	CHECK_EQ_INT(dh_finish_apply(&g, &f, &e), 0);
	CHECK_EQ_INT(total(&g, 1), 8 - 6 + 2); /* patients left cost nothing without FRC */
	CHECK_EQ_INT(dh_finish_apply(&g, &f, &e), -1);
	CHECK_STR(e.rule, "game-finished");
	dh_game h;
	game(&h, 2, NULL);
	h.cfg.variant[DH_VAR_FINAL_ROUND_COLLECTIONS] = true;
	fill_rounds(&h, 8);
	f.e[0].collected = 3;
	CHECK_EQ_INT(dh_finish_apply(&h, &f, &e), 0);
	CHECK_EQ_INT(total(&h, 1), 8 - 6 + 2 + 3 - 2);
	CHECK_EQ_INT(count_rule(&h, 1, DH_R_PATIENT_LEFT, 0), -2);
}

/* seed 000, PHASE 5 - DISCHARGED PATIENTS (+5 for "all four of their wards completely
 * empty") and END GAME SCORING: without Final Round Collections nothing happens between round
 * 8's Phase 5 and the end, so round 8's empty wards and the patients left must agree. */
static void t_round8_wards_empty_agrees(void)
{
	for (int frc = 0; frc < 2; frc++) {
		dh_game g;
		game(&g, 2, NULL);
		g.cfg.variant[DH_VAR_FINAL_ROUND_COLLECTIONS] = frc;
		fill_rounds(&g, 7);
		dh_round_input r8 = {0};
		entry(&r8, 1, 1, 0, 0, true, 0); /* seat 1: wards empty */
		entry(&r8, 2, 1, 0, 0, false, 0);
		tt_error e;
		CHECK_EQ_INT(dh_round_apply(&g, 8, &r8, &e), 0);
		dh_finish_input f = {.nentries = 2};
		f.e[0].seat = 1;
		f.e[0].patients_left = 2; /* contradicts the empty wards */
		f.e[0].pips_left = 5;
		f.e[1].seat = 2;
		f.e[1].patients_left = 1;
		f.e[1].pips_left = 3;
		dh_game before = g;
		CHECK_EQ_INT(dh_finish_apply(&g, &f, &e), -1);
		CHECK_EQ_INT(e.status, 422);
		CHECK_STR(e.rule, "wards-empty-contradiction");
		CHECK_STR(e.field, "/entries/0/patients_left");
		CHECK(memcmp(&before, &g, sizeof g) == 0);
		f.e[0].patients_left = 0;
		f.e[0].pips_left = 0;
		f.e[1].patients_left = 0; /* no patient left, yet round 8 said not empty */
		f.e[1].pips_left = 0;
		CHECK_EQ_INT(dh_finish_apply(&g, &f, &e), -1);
		CHECK_STR(e.rule, "wards-empty-contradiction");
		CHECK_STR(e.field, "/entries/1/patients_left");
		f.e[1].patients_left = frc ? 0 : 1;
		f.e[1].pips_left = frc ? 0 : 3;
		f.e[1].collected = frc ? 1 : 0; /* collected by another hospital: not empty */
		CHECK_EQ_INT(dh_finish_apply(&g, &f, &e), 0);
		CHECK_EQ_INT(count_rule(&g, 1, DH_R_WARDS_EMPTY, 8), 5);
	}
}

/* seed 000, GAME SEQUENCE: "At the end of the 8th round, the game ends" is the only complete
 * game; a table that stops after round n ends there (ended_after = n) once every seat entered
 * rounds 1..n. Both sides of each rule: the rounds before n entered, none after; no pips asked
 * and no round-8 wards check; no collections (FINAL ROUND COLLECTIONS: "After the last round
 * of the game"). */
static void t_ended_early(void)
{
	static const struct {
		int played, entered_after, ended_after, left, pips, collected, status;
		const char *rule, *field;
	} cases[] = {
	    {3, 0, 3, 2, 0, 0, 0, NULL, NULL}, /* pips not asked: 0 for 2 patients */
	    {1, 0, 1, 0, 0, 0, 0, NULL, NULL}, /* after round 1 */
	    {3, 0, 4, 0, 0, 0, 422, "finish-before-last-round", "/entries"},
	    {3, 1, 3, 0, 0, 0, 422, "rounds-after-end", "/ended_after"},
	    {3, 0, 3, 1, 0, 1, 422, "collections-after-early-end", "/entries/0/collected"},
	    {3, 0, 9, 0, 0, 0, 400, "round-out-of-range", "/ended_after"},
	    {8, 0, 8, 2, 0, 0, 422, "impossible-pips", "/entries/0/pips_left"}, /* complete */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		dh_game g;
		game(&g, 2, NULL);
		g.cfg.variant[DH_VAR_FINAL_ROUND_COLLECTIONS] = true;
		fill_rounds(&g, cases[i].played);
		tt_error e;
		if (cases[i].entered_after) {
			dh_round_input r = {0};
			entry(&r, 1, 1, 0, 0, false, 0);
			CHECK_EQ_INT(dh_round_apply(&g, cases[i].played + 1, &r, &e), 0);
		}
		dh_finish_input f = {.nentries = 2, .ended_after = cases[i].ended_after};
		f.e[0].seat = 1;
		f.e[0].patients_left = cases[i].left;
		f.e[0].pips_left = cases[i].pips;
		f.e[0].collected = cases[i].collected;
		f.e[1].seat = 2;
		f.e[1].blood_bags = 2;
		dh_game before = g;
		int rc = dh_finish_apply(&g, &f, &e);
		if (cases[i].status == 0) {
			CHECK_EQ_INT(rc, 0);
			CHECK(g.finished);
			CHECK_EQ_INT(g.rounds_played, cases[i].ended_after);
			continue;
		}
		CHECK_EQ_INT(rc, -1);
		CHECK_EQ_INT(e.status, cases[i].status);
		CHECK_STR(e.rule, cases[i].rule);
		CHECK_STR(e.field, cases[i].field);
		CHECK(memcmp(&before, &g, sizeof g) == 0);
	}
	/* the rulebook's game: ended_after omitted (0) or 8 is the complete game */
	dh_game g;
	game(&g, 2, NULL);
	fill_rounds(&g, 8);
	dh_finish_input f = {.nentries = 2};
	for (int k = 0; k < 2; k++) {
		f.e[k].seat = k + 1;
		f.e[k].patients_left = 1; /* round 8 did not empty the wards */
		f.e[k].pips_left = 4;
	}
	tt_error e;
	dh_game h = g;
	CHECK_EQ_INT(dh_finish_apply(&g, &f, &e), 0);
	CHECK_EQ_INT(g.rounds_played, 8);
	f.ended_after = 8;
	CHECK_EQ_INT(dh_finish_apply(&h, &f, &e), 0);
	CHECK_EQ_INT(h.rounds_played, 8);
}

static void finish_with(dh_game *g, const int left[], const int pips[], const int bags[])
{
	dh_finish_input f = {.nentries = g->cfg.nseats};
	for (int s = 0; s < g->cfg.nseats; s++) {
		f.e[s].seat = s + 1;
		f.e[s].patients_left = left[s];
		f.e[s].pips_left = pips[s];
		f.e[s].blood_bags = bags[s];
	}
	tt_error e;
	CHECK_EQ_INT(dh_finish_apply(g, &f, &e), 0);
}

/* seed 000, END GAME SCORING: ties → fewest patients left → highest pips → shared; the
 * standings name what decided (seed 004, DÉCOMPTE DES POINTS DE FIN DE PARTIE, the same). */
static void t_tie_breaks(void)
{
	dh_game g;
	game(&g, 4, NULL);
	fill_rounds(&g, 8);
	/* all 8 points; seat 4 +1 blood bag wins outright; seats 1-3 tied at 8 */
	int left[4] = {2, 1, 2, 1}, pips[4] = {9, 5, 9, 1}, bags[4] = {0, 0, 0, 1};
	finish_with(&g, left, pips, bags);
	dh_scores sc;
	dh_score(&g, &sc);
	CHECK_EQ_INT(sc.seat[3].rank, 1);
	CHECK_EQ_INT(sc.seat[3].tie, DH_TIE_NONE);
	CHECK_EQ_INT(sc.seat[1].rank, 2); /* 1 patient left beats 2 */
	CHECK_EQ_INT(sc.seat[1].tie, DH_TIE_FEWEST_PATIENTS);
	CHECK_EQ_INT(sc.seat[0].rank, 3); /* seats 1 and 3 identical: shared */
	CHECK_EQ_INT(sc.seat[2].rank, 3);
	CHECK_STR(dh_tie_id(sc.seat[0].tie), "shared");
	CHECK_EQ_INT(sc.order[0], 4);
	CHECK_EQ_INT(sc.order[1], 2);

	dh_game h;
	game(&h, 3, NULL);
	fill_rounds(&h, 8);
	int left2[3] = {2, 2, 3}, pips2[3] = {10, 8, 3}, bags2[3] = {0, 0, 0};
	finish_with(&h, left2, pips2, bags2);
	dh_score(&h, &sc);
	CHECK_EQ_INT(sc.seat[0].rank, 1); /* same patients as seat 2, more pips */
	CHECK_STR(dh_tie_id(sc.seat[0].tie), "highest-pips");
	CHECK_EQ_INT(sc.seat[1].rank, 2);
	CHECK_STR(dh_tie_id(sc.seat[1].tie), "highest-pips");
	CHECK_EQ_INT(sc.seat[2].rank, 3);
	CHECK_STR(dh_tie_id(sc.seat[2].tie), "fewest-patients-left");
}

/* A whole 3-player game, 8 rounds, to a final ranking (seed 000, GAME SEQUENCE). */
static void t_whole_game(void)
{
	int admins[3] = {DH_ADMIN_2_RED, DH_ADMIN_MOST, DH_ADMIN_3_COLOURS};
	dh_game g;
	game(&g, 3, admins);
	g.cfg.variant[DH_VAR_FINAL_ROUND_COLLECTIONS] = true;
	int want[3] = {0, 0, 0};
	for (int r = 1; r <= 8; r++) {
		dh_round_input in = {0};
		entry(&in, 1, 2, 0, r % 2, false, 0); /* 2 or 3: +1 admin */
		entry(&in, 2, 1, 1, 1, r == 8, 0);    /* 3 */
		entry(&in, 3, 1, 1, 0, false, 0);     /* 2, no green: no admin */
		tt_error e;
		CHECK_EQ_INT(put_round(&g, r, &in, &e), 0);
		int n1 = 2 + r % 2;
		want[0] += prof.discharge[n1].value + 1;
		want[1] += 6 + (3 >= n1 ? 1 : 0) + (r == 8 ? 5 : 0);
		want[2] += 3;
	}
	int left[3] = {1, 0, 4}, pips[3] = {3, 0, 12}, bags[3] = {2, 1, 0};
	finish_with(&g, left, pips, bags);
	want[0] += 2 - 1;
	want[1] += 1;
	want[2] += -4;
	dh_scores sc;
	dh_score(&g, &sc);
	for (int s = 0; s < 3; s++)
		CHECK_EQ_INT(sc.seat[s].total, want[s]);
	CHECK_EQ_INT(sc.order[0], want[0] > want[1] ? 1 : 2);
	CHECK_EQ_INT(sc.order[2], 3);
	CHECK(sc.finished);
}

/* seed 000, SOLO PLAY RULES, the example: 2 yellow and 2 green discharged complete the card
 * needing 2 yellows and 1 green OR the one needing 2 greens and 1 yellow, not both; or the card
 * needing 2 yellows AND then the card needing 2 greens that slides down above it (seed 004,
 * the same example: "celui qui nécessite 2 jaunes ET celui qui nécessite 2 verts"). */
static void solo_game(dh_game *g)
{
	dh_config c;
	config(&c, 1, true);
	/* bottom row: 1 = 2Y+1G (4 pts), 2 = 2G+1Y (4), 3 = 2Y (2); top: 4 above 1 = 1R (1),
	 * 5 above 2 = 3R (5), 6 above 3 = 2G (3) */
	dh_report cards[6] = {{{0, 2, 1}, 4}, {{0, 1, 2}, 4}, {{0, 2, 0}, 2},
	                      {{1, 0, 0}, 1}, {{3, 0, 0}, 5}, {{0, 0, 2}, 3}};
	memcpy(c.reports, cards, sizeof cards);
	tt_error e;
	CHECK_EQ_INT(dh_config_check(&c, &e), 0);
	dh_game_init(g, &c);
}

static int put_solo(dh_game *g, int round, int r, int y, int gr, const int *cards, int n,
                    tt_error *e)
{
	dh_round_input in = {0};
	entry(&in, 1, r, y, gr, false, 0);
	in.has_reports = true;
	in.nreports = n;
	for (int i = 0; i < n; i++)
		in.reports[i] = cards[i];
	return put_round(g, round, &in, e);
}

static void t_solo_reports_example(void)
{
	dh_game g;
	solo_game(&g);
	tt_error e;
	int both[2] = {1, 2};
	CHECK_EQ_INT(put_solo(&g, 1, 0, 2, 2, both, 2, &e), -1); /* each die once */
	CHECK_STR(e.rule, "report-dice-insufficient");
	CHECK_STR(e.field, "/reports_completed/1");
	int one[1] = {1};
	CHECK_EQ_INT(put_solo(&g, 1, 0, 2, 2, one, 1, &e), 0);
	CHECK_EQ_INT(total(&g, 1), 10 + 4);
	int other[1] = {2};
	CHECK_EQ_INT(put_solo(&g, 1, 0, 2, 2, other, 1, &e), 0); /* re-entered: the other card */
	dh_scores sc;
	dh_score(&g, &sc);
	CHECK_EQ_INT(sc.report_round[0], 0);
	CHECK_EQ_INT(sc.report_round[1], 1);
	int slide[2] = {3, 6}; /* 2 yellows, then 2 greens slid down above it */
	CHECK_EQ_INT(put_solo(&g, 1, 0, 2, 2, slide, 2, &e), 0);
	CHECK_EQ_INT(total(&g, 1), 10 + 2 + 3);
	int top[1] = {5}; /* above card 2, which is still in place */
	CHECK_EQ_INT(put_solo(&g, 2, 3, 0, 0, top, 1, &e), -1);
	CHECK_STR(e.rule, "report-not-available");
	int again[1] = {3};
	CHECK_EQ_INT(put_solo(&g, 2, 0, 2, 0, again, 1, &e), -1);
	CHECK_STR(e.rule, "report-already-completed");
	/* lowering round 1 afterwards would break its reports: refused */
	dh_round_input low = {0};
	entry(&low, 1, 0, 2, 0, false, 0);
	CHECK_EQ_INT(put_round(&g, 1, &low, &e), -1);
	CHECK_STR(e.rule, "report-dice-insufficient");
}

/* seed 000, SOLO PLAY RULES, END GAME SCORING: incomplete reports subtracted; FATALITY
 * PENALTY and MEDICAL REPORT PENALTY double. */
static void t_solo_end(void)
{
	for (int variant = 0; variant < 2; variant++) {
		dh_game g;
		solo_game(&g);
		g.cfg.variant[DH_VAR_FATALITY_PENALTY] = variant;
		g.cfg.variant[DH_VAR_MEDICAL_REPORT_PENALTY] = variant;
		tt_error e;
		int first[2] = {3, 6};
		CHECK_EQ_INT(put_solo(&g, 1, 0, 2, 2, first, 2, &e), 0);
		for (int r = 2; r <= 8; r++)
			CHECK_EQ_INT(put_solo(&g, r, 0, 0, 0, NULL, 0, &e), 0);
		dh_finish_input f = {.nentries = 1};
		f.e[0].seat = 1;
		f.e[0].fatalities = 1;
		f.e[0].patients_left = 1;
		f.e[0].pips_left = 2;
		CHECK_EQ_INT(dh_finish_apply(&g, &f, &e), 0);
		int k = variant ? 2 : 1;
		/* 10 discharged + 5 completed − 2k fatality − (4+4+1+5)k incomplete */
		CHECK_EQ_INT(total(&g, 1), 15 - 2 * k - 14 * k);
		CHECK_EQ_INT(count_rule(&g, 1, DH_R_REPORT_INCOMPLETE, 0), -14 * k);
	}
}

int main(void)
{
	TEST("dh profile: game-data placeholders unverified, seed 000 constants verified",
	     load_profile);
	TEST("dh profile values (game-data.md Unverified values; seed 000 END GAME SCORING)",
	     t_profile);
	TEST("dh profile checked against a box: checked_at on the profile and its values",
	     t_profile_checked);
	TEST("dh config: players, solo, administrators (seed 000 GAME SETUP, SOLO PLAY RULES)",
	     t_config);
	TEST("dh round: discharge table and +5 empty wards (seed 000 PHASE 5)", t_phase5);
	TEST("dh administrators: >=2 of a colour, one of each (seed 000 HOSPITAL ADMINISTRATORS)",
	     t_admins_colours);
	TEST("dh most discharged: ties among three players (seed 000 HOSPITAL ADMINISTRATORS)",
	     t_most_discharged_ties);
	TEST("dh registrar (seed 000 EXPERIMENTAL MEDICINE, REGISTRAR)", t_registrar);
	TEST("dh bad rounds: range, negative, 13 > 12 spaces, seat twice (seed 000 PHASE 1)",
	     t_bad_rounds);
	TEST("dh re-entering a round replaces it and re-scores", t_reenter);
	TEST("dh round 8: all four wards empty agrees with the patients left (seed 000 PHASE 5, "
	     "END GAME SCORING)",
	     t_round8_wards_empty_agrees);
	TEST("dh finish: fatalities, blood bags, collections (seed 000 END GAME SCORING, FINAL "
	     "ROUND COLLECTIONS)",
	     t_finish);
	TEST("dh tie-breaks: fewest patients, highest pips, shared (seed 000 END GAME SCORING)",
	     t_tie_breaks);
	TEST("dh a game ended early: the rounds played, no pips, no collections (seed 000 GAME "
	     "SEQUENCE, FINAL ROUND COLLECTIONS)",
	     t_ended_early);
	TEST("dh whole 3-player game to a final ranking (seed 000 GAME SEQUENCE)", t_whole_game);
	TEST("dh solo Medical Report example (seed 000 SOLO PLAY RULES; seed 004 RÈGLES DU JEU "
	     "SOLO)",
	     t_solo_reports_example);
	TEST("dh solo end: incomplete reports, fatality and report penalties (seed 000 SOLO PLAY "
	     "RULES)",
	     t_solo_end);
	TEST_MAIN_END();
}
