/* Dice Hospital (the board game): the scorekeeper of one game played with the real box.
 *
 * Rulebook: ../shared/seeds/000_f801c236a9bfa085.txt (cited as "seed 000, <section heading>"),
 * French edition 004_f856b716ad65ef8d.txt (seed 004); ids and confirmed values:
 * ../shared/game-data.md §2; board-printed values come from a scoring profile
 * (templates/dice-hospital/NAME.json), each with its verified flag.
 *
 * The state (dh_game) is a plain value of fixed size without pointers: the table engine caches
 * it by copy. The functions are pure: validate and apply one round or the finish (on success
 * the state changes, on refusal it is untouched), and compute the scores with the reason for
 * every point and the standings with the tie-break that decided. JSON is parsed and emitted
 * elsewhere, except the profile loader (like er_data.c for templates/er). */
#ifndef RULES_DH_H
#define RULES_DH_H

#include "rules/tabletop.h"

enum {
	DH_MAX_SEATS = 4,
	DH_ROUNDS = 8,         /* seed 000, GAME SEQUENCE: 8 rounds */
	DH_SPACES = 12,        /* seed 000, PHASE 1: a total of 12 spaces for patients */
	DH_COLOURS = 3,        /* red, yellow, green */
	DH_REPORTS = 6,        /* seed 000, SOLO PLAY RULES: six cards, 2 rows of 3 */
	DH_MAX_ENTRIES = 8,    /* entries a round or finish input may carry (duplicates refused) */
	DH_MAX_REGISTRARS = 2, /* seed 000, EXPERIMENTAL MEDICINE: 2 cards of each type */
	DH_MAX_TOKENS = 99,    /* fatalities, blood bags: the boxes are not a limit */
	DH_MAX_ITEMS = 160,    /* reasons per seat: 8 rounds × ≤ 8 + end ≤ 12 */
	DH_MAX_REPORT_POINTS = 20,
};

typedef enum { DH_RED = 0, DH_YELLOW, DH_GREEN } dh_colour;

/* seed 000, HOSPITAL ADMINISTRATORS; ids of game-data.md §2 (order = the C rules). */
typedef enum {
	DH_ADMIN_NONE = -1,
	DH_ADMIN_2_RED = 0,
	DH_ADMIN_2_YELLOW,
	DH_ADMIN_2_GREEN,
	DH_ADMIN_3_COLOURS,
	DH_ADMIN_MOST,
	DH_ADMIN_NEGLECT_RED,
	DH_ADMIN_NEGLECT_YELLOW,
	DH_ADMIN_NEGLECT_GREEN,
	DH_ADMINS
} dh_admin;

/* seed 000, HARD MODE / OPTIONAL RULES / EVENT CARDS / EXPERIMENTAL MEDICINE, and the solo
 * score modifiers (SOLO PLAY RULES). Only collections, experimental medicine and the two solo
 * penalties change the arithmetic; the others are recorded with the game. */
typedef enum {
	DH_VAR_FINAL_ROUND_COLLECTIONS = 0,
	DH_VAR_OPENING_CRISIS,
	DH_VAR_NATIONWIDE_EPIDEMIC,
	DH_VAR_RESISTANT_SUPERBUG,
	DH_VAR_EVENTS,
	DH_VAR_EXPERIMENTAL_MEDICINE,
	DH_VAR_FATALITY_PENALTY,       /* solo only */
	DH_VAR_MEDICAL_REPORT_PENALTY, /* solo only */
	DH_VARIANTS
} dh_variant;

/* The reasons for points (tt_item.rule). */
typedef enum {
	DH_R_DISCHARGE = 0, /* seed 000, PHASE 5: the discharge table */
	DH_R_ADMIN_2_RED,   /* seed 000, HOSPITAL ADMINISTRATORS */
	DH_R_ADMIN_2_YELLOW,
	DH_R_ADMIN_2_GREEN,
	DH_R_ADMIN_3_COLOURS,
	DH_R_ADMIN_MOST,
	DH_R_WARDS_EMPTY,       /* seed 000, PHASE 5: +5 */
	DH_R_REGISTRAR,         /* seed 000, EXPERIMENTAL MEDICINE, REGISTRAR */
	DH_R_REPORT_COMPLETED,  /* seed 000, SOLO PLAY RULES */
	DH_R_FATALITY,          /* seed 000, END GAME SCORING (doubled: FATALITY PENALTY) */
	DH_R_BLOOD_BAG,         /* seed 000, END GAME SCORING */
	DH_R_COLLECTED,         /* seed 000, FINAL ROUND COLLECTIONS step 4 */
	DH_R_PATIENT_LEFT,      /* seed 000, FINAL ROUND COLLECTIONS step 7 */
	DH_R_REPORT_INCOMPLETE, /* seed 000, SOLO PLAY RULES (doubled: MEDICAL REPORT PENALTY) */
	DH_RULES
} dh_rule;

/* Tie-breaks, seed 000 END GAME SCORING. */
typedef enum {
	DH_TIE_NONE = 0, /* the total alone decided */
	DH_TIE_FEWEST_PATIENTS,
	DH_TIE_HIGHEST_PIPS,
	DH_TIE_SHARED,
} dh_tie;

typedef struct {
	char id[TT_ID_LEN];
	char name[TT_NAME_LEN];
	char checked_at[TT_STAMP_LEN];     /* when a group checked values against its box, or "" */
	tt_value discharge[DH_SPACES + 1]; /* [n] = points for n discharged in one round; [0] = 0 */
	tt_value wards_empty, administrator_bonus, registrar, fatality, blood_bag, collected,
	    patient_left, fatality_penalty_factor, report_penalty_factor;
} dh_profile;

/* A Medical Report card as dealt (seed 000, SOLO PLAY RULES): dice needed by colour, points. */
typedef struct {
	int8_t need[DH_COLOURS];
	int8_t points;
} dh_report;

typedef struct {
	int nseats; /* 2..4, or 1 with solo */
	bool solo;
	bool variant[DH_VARIANTS];
	int8_t admin[DH_MAX_SEATS]; /* dh_admin per seat (DH_ADMIN_NONE: played without) */
	/* Solo: cards 1..6; 1–3 the bottom row left to right, 4–6 the top row (4 above 1). */
	dh_report reports[DH_REPORTS];
	dh_profile profile;
} dh_config;

typedef struct {
	bool entered;
	int8_t discharged[DH_COLOURS];
	bool wards_empty;
	int8_t registrar; /* Registrar meeples that discharged at least one patient */
} dh_round_entry;

typedef struct {
	bool entered;
	int16_t fatalities, blood_bags, patients_left, pips_left, collected;
} dh_finish_entry;

typedef struct {
	dh_config cfg;
	dh_round_entry rounds[DH_ROUNDS][DH_MAX_SEATS];
	/* Solo: cards completed in each round, in the order given (1..6). */
	int8_t reports_done[DH_ROUNDS][DH_REPORTS];
	int8_t nreports_done[DH_ROUNDS];
	dh_finish_entry finish[DH_MAX_SEATS];
	bool finished;
	/* once finished: the round the game ended after (DH_ROUNDS for the rulebook's game, fewer
	 * when the table stopped early) */
	int8_t rounds_played;
} dh_game;

/* Input of one round (PUT …/rounds/{n}): the seats listed replace their entries of that round,
 * the others keep theirs (each phone may enter its own seat). Solo: reports (card numbers) are
 * the cards completed this round in order; has_reports false keeps the stored list. */
typedef struct {
	int nentries;
	struct {
		int seat;
		int discharged[DH_COLOURS];
		bool wards_empty;
		int registrar;
	} e[DH_MAX_ENTRIES];
	bool has_reports;
	int nreports;
	int reports[DH_MAX_ENTRIES];
} dh_round_input;

typedef struct {
	int nentries;
	struct {
		int seat;
		int fatalities, blood_bags, patients_left, pips_left, collected;
	} e[DH_MAX_ENTRIES];
	/* the round the table stopped after (1..DH_ROUNDS); 0: the rulebook's end, after round 8 */
	int ended_after;
} dh_finish_input;

typedef struct {
	int seat;
	int total;
	int rank;                        /* 1 is best; equal ranks share */
	dh_tie tie;                      /* what decided this seat's place among equal totals */
	int round_points[DH_ROUNDS + 1]; /* [1..8]; [0] = end of the game */
	bool all_verified;               /* every value used carries verified = true */
	int nitems;
	tt_item items[DH_MAX_ITEMS];
} dh_seat_score;

typedef struct {
	int nseats;
	dh_seat_score seat[DH_MAX_SEATS]; /* by seat number - 1 */
	int order[DH_MAX_SEATS];          /* seats (1-based) best first */
	/* Solo: which cards are completed, and in which round (0 = not). */
	int8_t report_round[DH_REPORTS];
	bool finished;
} dh_scores;

/* ---- names ---- */
const char *dh_admin_id(int a);       /* NULL if out of range */
int dh_admin_from_id(const char *id); /* DH_ADMIN_NONE if unknown */
const char *dh_variant_id(int v);
const char *dh_rule_id(int r);          /* e.g. "discharge-table" */
const char *dh_rule_profile_key(int r); /* the profile value it uses, NULL for card points */
const char *dh_tie_id(dh_tie t);        /* NULL, "fewest-patients-left", "highest-pips", "shared" */
const char *dh_colour_id(int c);

/* ---- data ---- */
/* Loads a scoring profile (templates/dice-hospital/<id>.json or a stored one). */
int dh_profile_from_json(dh_profile *out, struct json_object *doc, char *err, size_t errlen);
/* Checks templates/dice-hospital/administrators.json lists exactly the ids the C code knows. */
int dh_admins_check_json(struct json_object *doc, char *err, size_t errlen);

/* ---- the game ---- */
/* Checks a configuration (players, solo, administrators, variants, reports). Field pointers
 * name the create body: /players, /players/1/administrator, /variants/…, /reports/2/… */
int dh_config_check(const dh_config *cfg, tt_error *err);
void dh_game_init(dh_game *g, const dh_config *cfg);
/* Round n (1..8). On refusal g is unchanged. */
int dh_round_apply(dh_game *g, int round, const dh_round_input *in, tt_error *err);
/* The finish: every seat once, after every seat entered round 8. On refusal g is unchanged. */
int dh_finish_apply(dh_game *g, const dh_finish_input *in, tt_error *err);
/* Scores, reasons and standings of the game as entered so far (end-game items once finished). */
void dh_score(const dh_game *g, dh_scores *out);
/* Rounds 1..8 every seat has entered (the last complete round, 0 if none). */
int dh_rounds_complete(const dh_game *g);

#endif
