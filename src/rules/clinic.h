/* Clinic: Deluxe Edition: the scorekeeper of one game played with the real box.
 *
 * Rulebook: ../shared/seeds/001_0126e4d1d8383d3e.txt (cited as "seed 001, <section>");
 * confirmed values: ../shared/game-data.md §3; board-printed values come from a scoring profile
 * (templates/clinic/NAME.json), each with its verified flag.
 *
 * The state (clinic_game) is a plain value of fixed size without pointers (the table engine
 * caches it by copy). Pure functions: validate and apply a round or the finish (on refusal the
 * state is untouched), compute each seat's popularity with the reason for every point, the turn
 * order of every round (seed 001, Phase 3: Admin, "Reset turn order") and the standings (ties:
 * earlier in the final turn order wins). The Business helper computes a round's upkeep, wages,
 * income and the popularity the income can buy (seed 001, Phase 2: Business). */
#ifndef RULES_CLINIC_H
#define RULES_CLINIC_H

#include "rules/tabletop.h"

enum {
	CL_MAX_SEATS = 4,
	CL_ROUNDS = 6,   /* seed 001, Playing the Game: 6 rounds */
	CL_DOCTORS = 5,  /* white, yellow, orange, red; purple (Workaholic Doctors) */
	CL_PATIENTS = 4, /* white, yellow, orange, red */
	CL_FLOORS = 5,   /* floors 0..3; 4 with the expansion that adds it */
	CL_MAX_ENTRIES = 8,
	CL_MAX_COUNT = 999, /* per-field cap of any count (the boxes are the real limit) */
	CL_MAX_TITLES = 8,  /* seed 001, Solitaire Mode: Hall of Fame */
	CL_MAX_GOALS = 8,
	CL_TITLE_LEN = 33,
	CL_MAX_ITEMS = 80,
};

typedef enum { CL_WHITE = 0, CL_YELLOW, CL_ORANGE, CL_RED, CL_PURPLE } cl_colour;

/* seed 001, Expansions (and the Floor 4 the Solitaire Mode and Extinguishers mention). */
typedef enum {
	CL_EXP_BLOOD_TRANSFUSION = 0,
	CL_EXP_EXTINGUISHERS,
	CL_EXP_WORKAHOLIC_DOCTORS,
	CL_EXP_ZOMBIES,
	CL_EXP_FLOOR_4,
	CL_EXPANSIONS
} cl_expansion;

/* The reasons for points (tt_item.rule). */
typedef enum {
	CL_R_UNPAID = 0,   /* seed 001, Phase 2: Business, Expenses */
	CL_R_BOUGHT,       /* seed 001, Phase 2: Business, Gain Popularity */
	CL_R_LAB,          /* seed 001, Phase 3: Admin, step 7 */
	CL_R_DEATH,        /* seed 001, Phase 3: Admin, step 9 */
	CL_R_DOCTOR_WHITE, /* seed 001, End of the Game, Positive scoring 1 (×5 colours) */
	CL_R_DOCTOR_YELLOW,
	CL_R_DOCTOR_ORANGE,
	CL_R_DOCTOR_RED,
	CL_R_DOCTOR_PURPLE,
	CL_R_NURSE,
	CL_R_ROOM_FLOOR_0, /* Positive scoring 2 (×5 floors) */
	CL_R_ROOM_FLOOR_1,
	CL_R_ROOM_FLOOR_2,
	CL_R_ROOM_FLOOR_3,
	CL_R_ROOM_FLOOR_4,
	CL_R_BUILDING,      /* Positive scoring 3 */
	CL_R_ZOMBIE,        /* Expansions, Zombies in a Clinic, End of the Game */
	CL_R_PATIENT_WHITE, /* Negative scoring 4 (×4 colours) */
	CL_R_PATIENT_YELLOW,
	CL_R_PATIENT_ORANGE,
	CL_R_PATIENT_RED,
	CL_R_TIME_SPENT, /* Negative scoring 5 */
	CL_RULES
} cl_rule;

typedef struct {
	char id[TT_ID_LEN];
	char name[TT_NAME_LEN];
	char checked_at[TT_STAMP_LEN]; /* when a group checked values against its box, or "" */
	tt_value doctor[CL_DOCTORS], nurse, room[CL_FLOORS], patient_left[CL_PATIENTS];
	tt_value time_per, time_value; /* time_value per full time_per time spent */
	tt_value building, death, lab_doctor, unpaid_dollar, popularity_price, zombie;
	/* Business helper */
	tt_value upkeep_module, upkeep_operating_room_used, upkeep_orderly;
	tt_value income_outpatient, income_garden, income_extinguisher, income_treated[CL_PATIENTS];
	tt_value wage_doctor[CL_DOCTORS], wage_nurse, wage_orderly, wage_janitor;
	/* Solitaire */
	int ntitles;
	char title[CL_MAX_TITLES][CL_TITLE_LEN];
	tt_value title_min[CL_MAX_TITLES]; /* ascending */
	int ngoals;
	char goal[CL_MAX_GOALS][TT_ID_LEN];
	bool goals_verified;
} clinic_profile;

typedef struct {
	int nseats; /* 1..4; solo (solitaire) = 1 */
	bool solo;
	bool expansion[CL_EXPANSIONS];
	int8_t start_order[CL_MAX_SEATS]; /* seats in round 1's turn order (setup: random) */
	int8_t goal;                      /* solitaire: index into profile.goal, -1 none */
	clinic_profile profile;
} clinic_config;

typedef struct {
	bool entered;
	int16_t bought, lab_doctors, deaths, unpaid, time_spent;
} clinic_round_entry;

typedef struct {
	bool entered;
	int16_t doctors[CL_DOCTORS], nurses, rooms[CL_FLOORS], buildings;
	int16_t patients[CL_PATIENTS], zombies;
	bool goal_achieved;
} clinic_finish_entry;

typedef struct {
	clinic_config cfg;
	clinic_round_entry rounds[CL_ROUNDS][CL_MAX_SEATS];
	bool order_given[CL_ROUNDS];                /* the table entered the next turn order */
	int8_t order_next[CL_ROUNDS][CL_MAX_SEATS]; /* as entered (order_given) */
	clinic_finish_entry finish[CL_MAX_SEATS];
	bool finished;
	/* once finished: the round the game ended after (CL_ROUNDS for the rulebook's game, fewer
	 * when the table stopped early) */
	int8_t rounds_played;
} clinic_game;

typedef struct {
	int nentries;
	struct {
		int seat;
		int bought, lab_doctors, deaths, unpaid, time_spent;
	} e[CL_MAX_ENTRIES];
	bool has_order; /* turn order for the next round, as the board shows it */
	int norder;
	int order[CL_MAX_ENTRIES];
} clinic_round_input;

typedef struct {
	int nentries;
	struct {
		int seat;
		int doctors[CL_DOCTORS], nurses, rooms[CL_FLOORS], buildings;
		int patients[CL_PATIENTS], zombies;
		bool goal_achieved;
	} e[CL_MAX_ENTRIES];
	/* the round the table stopped after (1..CL_ROUNDS); 0: the rulebook's end, after round 6 */
	int ended_after;
} clinic_finish_input;

typedef struct {
	int seat;
	int total;
	int rank;
	bool tie_turn_order;                 /* tied on total; the final turn order decided */
	int round_points[CL_ROUNDS + 1];     /* [1..6], [0] = end of the game */
	int popularity_after[CL_ROUNDS + 1]; /* the track after each round ([0] = 0) */
	int time_spent;                      /* total so far */
	bool all_verified;
	int title; /* solitaire: index into profile.title, -1 none (goal not achieved / not solo) */
	int nitems;
	tt_item items[CL_MAX_ITEMS];
} clinic_seat_score;

typedef struct {
	int nseats;
	clinic_seat_score seat[CL_MAX_SEATS];
	int order[CL_MAX_SEATS]; /* seats best first */
	/* turn order of rounds 1..6 and the final one ([6], after round 6's Admin); rounds not
	 * reached yet hold the projection from the rounds entered */
	int8_t turn_order[CL_ROUNDS + 1][CL_MAX_SEATS];
	bool order_entered[CL_ROUNDS + 1]; /* that order was entered by the table, not computed */
	bool finished;
} clinic_scores;

/* seed 001, Expansions, Zombies in a Clinic, Labs: "1 doctor of any color in a lab with 1
 * zombie can cure the zombie, earning $32" (printed in the rulebook, not a board value). */
enum { CL_ZOMBIE_CURE_DOLLARS = 32 };

typedef struct {
	int modules, gardens, operating_rooms_used, orderlies;
	int doctors[CL_DOCTORS], nurses, janitors;
	int treated[CL_PATIENTS]; /* successfully treated in treatment / operating rooms */
	int outpatients;
	int garden_bonus;       /* Σ over treated patients of the gardens adjacent to their room */
	int extinguisher_bonus; /* same for extinguishers (expansion) */
	int zombies_cured;      /* by a doctor in a lab (Zombies in a Clinic expansion) */
	int savings;
} clinic_business_in;

typedef struct {
	int upkeep, wages, income, expenses;
	int paid_from_income, paid_from_savings, unpaid; /* unpaid costs 1 popularity per $1 */
	int income_left;
	int popularity_affordable; /* income_left / price */
	bool verified;             /* every profile value used is verified */
	bool upkeep_verified, wages_verified, income_verified;
} clinic_business_out;

const char *clinic_expansion_id(int e);
int clinic_expansion_from_id(const char *id);
const char *clinic_rule_id(int r);
const char *clinic_rule_profile_key(int r);

int clinic_profile_from_json(clinic_profile *out, struct json_object *doc, char *err,
                             size_t errlen);

int clinic_config_check(const clinic_config *cfg, tt_error *err);
void clinic_game_init(clinic_game *g, const clinic_config *cfg);
int clinic_round_apply(clinic_game *g, int round, const clinic_round_input *in, tt_error *err);
int clinic_finish_apply(clinic_game *g, const clinic_finish_input *in, tt_error *err);
void clinic_score(const clinic_game *g, clinic_scores *out);
int clinic_rounds_complete(const clinic_game *g);
/* Refuses negative counts (400, field /<name>) and extinguisher or zombie-cure income without
 * its expansion. */
int clinic_business(const clinic_config *cfg, const clinic_business_in *in,
                    clinic_business_out *out, tt_error *err);

#endif
