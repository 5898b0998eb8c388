/* Dice Hospital: ER – Emergency Roll: the pure rules engine.
 *
 * Rulebook: ../shared/seeds/003_1582640d1cd95055.txt (cited below as "ER rulebook", by section
 * heading), summary 002_f6123e7c1d21d798.txt; printed data: ../shared/game-data.md §1.
 *
 * Nothing here does I/O. Every function works on caller-owned structs; nothing is allocated
 * except inside er_data_from_json(), which frees what it allocates before returning.
 *
 * Indexing conventions (internal): wards 0..6 (JSON and the rulebook: 1..7), beds 0..31 in
 * "global bed order" = ward 1 lobby→clipboard, then ward 2, … (er_data.wards[w].first_bed),
 * dice/colours as er_colour (bay order red, yellow, green). */
#ifndef ER_H
#define ER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

enum {
	ER_WARDS = 7,
	ER_MAX_BEDS = 6,
	ER_BEDS = 32,
	ER_LABS = 2,
	ER_CARDS = 27,
	ER_NURSE_SPACES = 7,
	ER_DICE = 3,
	ER_MAX_STEPS = 4,
	ER_SPECIALISTS = 16,
	ER_MAX_EDGES = 96,
	ER_MAX_LINES = 64,
	ER_MAX_TRIANGLES = 64,
	ER_MAX_OPTIONS = 1024,
};

typedef enum {
	ER_NO_COLOUR = -1,
	ER_RED = 0,
	ER_YELLOW = 1,
	ER_GREEN = 2,
	ER_WILD = 3,
} er_colour;

typedef enum {
	ER_BONUS_STETHOSCOPES = 0,
	ER_BONUS_BLOOD_BAG,
	ER_BONUS_SCREEN,
	ER_BONUS_CRITICAL,
	ER_BONUS_NURSE,
	ER_BONUS_EXTRA,
} er_bonus_kind;

typedef struct {
	er_bonus_kind kind;
	er_colour extra_colour; /* ER_BONUS_EXTRA only */
	int8_t extra_values[2]; /* ER_BONUS_EXTRA only, lower first */
} er_bonus;

typedef struct {
	int id;                /* 1..27 */
	er_bonus bay[ER_DICE]; /* indexed by die colour */
} er_card;

typedef struct {
	int16_t hex;      /* row*100+col, game-data.md §1.2 */
	er_colour colour; /* ER_WILD = grey bed */
	int8_t ward;      /* 0..6 */
	int8_t pos;       /* 0 = next to the lobby */
} er_bed;

typedef struct {
	int nbeds;
	int clipboard;
	int first_bed; /* global index of the bed next to the lobby */
} er_ward_layout;

/* Specialists: the rules of each are C code keyed by this enum; templates/er/specialists.json
 * maps the stable string ids onto it and supplies texts and ALICAT's fixed points. */
typedef enum {
	ER_SPEC_NONE = -1,
	ER_CARDIO_STETHOSCOPES_8 = 0,
	ER_CARDIO_SURROUND_XRAY,
	ER_CARDIO_NURSES_3,
	ER_CARDIO_BLOOD_BAGS_4,
	ER_CARDIO_ALL_WARDS,
	ER_CARDIO_FILL_2_WARDS,
	ER_RADIO_CRITICAL_HALF,
	ER_RADIO_EXTREME_TOTAL,
	ER_RADIO_HIGH_VALUES,
	ER_RADIO_OPPOSITE_PAIRS,
	ER_RADIO_MATCHING_SET,
	ER_EPI_SEQUENCE_1_6,
	ER_EPI_LINE_OF_3,
	ER_EPI_LARGEST_GROUP,
	ER_EPI_MOST_LEAST_COMMON,
	ER_EPI_ODD_EVEN_TRIANGLES,
} er_spec_id;

typedef enum { ER_KIND_CARDIOLOGIST, ER_KIND_RADIOLOGIST, ER_KIND_EPIDEMIOLOGIST } er_spec_kind;

typedef struct {
	er_spec_id id;
	er_spec_kind kind;
	char code[32];     /* "stethoscopes-8", … */
	int alicat_points; /* radiologists/epidemiologists: ALICAT's fixed score */
} er_specialist;

/* Game data loaded from templates/er/ plus the geometry derived from it (er_geom_build). */
typedef struct {
	er_ward_layout wards[ER_WARDS];
	er_bed beds[ER_BEDS];
	int16_t lab_hex[ER_LABS];
	int16_t neighbour_even[6], neighbour_odd[6];
	int nurse_track[ER_NURSE_SPACES];
	int start_stethoscopes;      /* 1: the pre-circled one */
	int steth_per_bonus;         /* 2: a stethoscope bonus circles a pair */
	int blood_per_bonus;         /* 1 */
	int alicat_prep_steth;       /* preparation modifier: +2 stethoscopes */
	int alicat_prep_blood;       /* preparation modifier: +2 blood bags */
	int morgue_boxes;            /* 4 */
	int alicat_start_nurses;     /* 2 */
	int alicat_max_extra_nurses; /* 5 */
	int turns_default, turns_five_players;
	er_card cards[ER_CARDS];                   /* cards[i].id == i + 1 */
	er_specialist specialists[ER_SPECIALISTS]; /* indexed by er_spec_id */

	/* derived by er_geom_build() */
	uint32_t adj[ER_BEDS]; /* bit j set: bed j is a hex neighbour (walls ignored) */
	int nedges;
	int8_t edges[ER_MAX_EDGES][2];
	int nlines;
	int8_t lines[ER_MAX_LINES][3]; /* straight lines of 3 beds along the 3 axes */
	int ntriangles;
	int8_t triangles[ER_MAX_TRIANGLES][3];
	int8_t lab_adj[ER_LABS][6]; /* bed index clockwise from upper-left, -1 if no bed */
} er_data;

/* A player's sheet (canonical JSON in api.md "The sheet"). */
typedef struct {
	int8_t value; /* 1..6 */
	bool critical;
	bool screen;
} er_patient;

typedef struct {
	er_patient ward[ER_WARDS][ER_MAX_BEDS];
	int8_t count[ER_WARDS]; /* patients admitted, in bed order from the lobby */
	bool nurse_crossed[ER_WARDS];
	int8_t nurse_track;                /* circled spaces, 0..7 */
	int16_t steth_circled, steth_used; /* circled includes the pre-circled one */
	int16_t blood_circled, blood_used;
	int8_t morgue;            /* circled morgue boxes, 0..4 */
	int16_t cardiologists[2]; /* points recorded per Cardiologist card */
} er_sheet;

/* What was flipped and rolled, from one player's point of view. */
typedef struct {
	int card;             /* 1..27 */
	int8_t dice[ER_DICE]; /* rolled values 1..6, by colour */
	bool chief;           /* this player is the Chief Physician */
	er_colour chief_die;  /* the die the chief took; ER_NO_COLOUR if chief or unknown */
} er_turn;

typedef enum { ER_STEP_SCREEN, ER_STEP_ADMIT, ER_STEP_MORGUE } er_step_kind;
typedef enum { ER_PT_DIE, ER_PT_EXTRA } er_pt;

typedef struct {
	er_step_kind kind;
	er_pt patient;      /* ADMIT, MORGUE */
	int8_t ward;        /* SCREEN, ADMIT: 0..6 */
	int8_t value;       /* ADMIT: value written */
	er_colour recolour; /* ADMIT: ER_NO_COLOUR, or a blood bag makes it this colour */
} er_step;

typedef struct {
	er_colour die; /* chosen die */
	int nsteps;
	er_step steps[ER_MAX_STEPS];
} er_move;

/* Result of every checking function: rule == NULL means success. `rule` points to a static
 * string (one of the ER_RULE_* ids); `detail` is a human sentence for problem+json; `step` is
 * the index of the move step that broke the rule (er_move_apply), -1 when no single step did
 * (success, a rule of the whole move, the turn or the sheet). */
typedef struct {
	const char *rule;
	char detail[160];
	int step;
} er_result;

/* Stable rule ids (api.md "rule"). */
#define ER_RULE_COLOUR_MISMATCH         "colour-mismatch"
#define ER_RULE_WARD_FULL               "ward-full"
#define ER_RULE_VALUE_NOT_INCREASING    "value-not-increasing"
#define ER_RULE_VALUE_OUT_OF_RANGE      "value-out-of-range"
#define ER_RULE_NOT_ENOUGH_STETHOSCOPES "not-enough-stethoscopes"
#define ER_RULE_NOT_ENOUGH_BLOOD_BAGS   "not-enough-blood-bags"
#define ER_RULE_CHIEF_DIE               "chief-die"
#define ER_RULE_EXTRA_VALUE             "extra-value"
#define ER_RULE_UNRESOLVED_PATIENT      "unresolved-patient"
#define ER_RULE_PATIENT_TWICE           "patient-twice"
#define ER_RULE_SCREEN_NOT_OFFERED      "screen-not-offered"
#define ER_RULE_SCREEN_EMPTY_WARD       "screen-empty-ward"
#define ER_RULE_BONUS_NOT_OFFERED       "bonus-not-offered"
#define ER_RULE_UNKNOWN_CARD            "unknown-card"
#define ER_RULE_DIE_OUT_OF_RANGE        "die-out-of-range"
/* sheets that cannot arise in play (er_sheet_validate) */
#define ER_RULE_SHEET_VALUE    "sheet-value-out-of-range"
#define ER_RULE_SHEET_TOO_MANY "sheet-too-many-patients"
#define ER_RULE_SHEET_ORDER    "sheet-value-not-increasing"
#define ER_RULE_SHEET_LEDGER   "sheet-ledger-impossible"
#define ER_RULE_SHEET_NURSES   "sheet-nurses-impossible"
#define ER_RULE_SHEET_MORGUE   "sheet-morgue-impossible"
#define ER_RULE_SHEET_CARDIO   "sheet-cardiologist-impossible"
/* a structurally malformed move or turn (unknown step kind/patient, ward outside 0..6,
 * recolour not a die colour, too many steps): normally caught by the JSON layer as 400 */
#define ER_RULE_INVALID_MOVE "invalid-move"

/* ALICAT difficulty modifiers (ER rulebook "ADJUSTING THE DIFFICULTY"), a bit set. */
enum {
	ER_MOD_PREPARATION = 1u << 0,
	ER_MOD_EQUIPMENT = 1u << 1,
	ER_MOD_ISOLATION = 1u << 2,
	ER_MOD_CAPACITY = 1u << 3,
};

/* A failed result: rule (static), a printf-style detail, step -1 (er_result.c). */
er_result er_fail(const char *rule, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Success: rule NULL, empty detail, step -1. */
er_result er_ok(void);

/* ---- data (er_data.c, er_geom.c) ---- */

/* Fills *out from the three parsed template documents (borrowed). Returns 0, or -1 with a
 * message in err. Calls er_geom_build(). */
int er_data_from_json(er_data *out, struct json_object *sheet, struct json_object *cards,
                      struct json_object *specialists, char *err, size_t errlen);
void er_geom_build(er_data *d);
/* Bed at (ward 0..6, pos) → global bed index, or -1. */
int er_bed_index(const er_data *d, int ward, int pos);
er_spec_id er_spec_from_code(const er_data *d, const char *code); /* ER_SPEC_NONE if unknown */
const char *er_colour_name(er_colour c);      /* "red", …, "wild"; NULL for ER_NO_COLOUR */
er_colour er_colour_from_name(const char *s); /* ER_NO_COLOUR if unknown */
const char *er_bonus_name(er_bonus_kind k);

/* ---- sheet (er_sheet.c) ---- */

/* A fresh sheet: 1 stethoscope circled. ALICAT: 2 nurses circled, preparation modifier adds
 * 2 stethoscopes and 2 blood bags (ER rulebook "SOLO MODE / GETTING READY", "ADJUSTING"). */
void er_sheet_init(er_sheet *s, const er_data *d, bool alicat, unsigned modifiers);
/* Rejects a sheet that could not arise in play; alicat relaxes the value rule to "≥". */
er_result er_sheet_validate(const er_data *d, const er_sheet *s, bool alicat, unsigned modifiers);
bool er_ward_full(const er_data *d, const er_sheet *s, int ward);

/* ---- moves (er_move.c) ---- */

/* Checks the whole move and applies it to *s, or leaves *s untouched and names the rule.
 * alicat: ALICAT's relaxed value rule (equal allowed) and its nurse cap. */
er_result er_move_apply(const er_data *d, const er_turn *t, const er_move *m, bool alicat,
                        er_sheet *s);

/* One legal admission of one patient (the die, or the extra patient of that die's bay). */
typedef struct {
	er_colour die;
	er_pt patient;
	int8_t ward;         /* 0..6 */
	int8_t value;        /* value written */
	int8_t stethoscopes; /* cost */
	int8_t blood_bags;   /* cost, including the chief-die blood bag */
	er_colour recolour;  /* ER_NO_COLOUR, or the colour a blood bag gives it */
	bool screen_first;   /* only legal after screening that ward with this die's bonus */
} er_option;

/* Every legal admission of each die (and its extra patient) for this player this turn, at the
 * cheapest cost for each (die, patient, ward, value, screen_first). Returns the count written
 * (≤ max); a move built from any option — its screen first when it needs one, the admission,
 * and when the die's bay is an extra patient the other patient to the morgue — is accepted by
 * er_move_apply on the same sheet. */
int er_move_options(const er_data *d, const er_turn *t, const er_sheet *s, bool alicat,
                    er_option *out, int max);

/* ---- scoring (er_score.c) ---- */

typedef struct {
	int filled_wards, critical, nurses, cardiologists, radiologist, epidemiologist, morgue;
	int modifiers; /* ALICAT's difficulty modifiers (equipment, isolation, capacity) */
	int total;
} er_breakdown;

/* Which beds earned points, as bit masks over global bed indexes (for the UI). */
typedef struct {
	uint32_t filled_wards;
	uint32_t critical;
	uint32_t radiologist;
	uint32_t epidemiologist;
	int nurse_space; /* index of the highest circled nurse space, -1 if none */
} er_details;

/* Validates, then scores. radiologist/epidemiologist may be ER_SPEC_NONE (0 points). */
er_result er_score(const er_data *d, const er_sheet *s, er_spec_id radiologist,
                   er_spec_id epidemiologist, bool alicat, unsigned modifiers, er_breakdown *out,
                   er_details *details);
int er_score_specialist(const er_data *d, const er_sheet *s, er_spec_id id, uint32_t *beds);

/* Cardiologist goals as predicates on a sheet (ER rulebook "SPECIALIST CARDS"). */
bool er_cardio_goal_met(const er_data *d, const er_sheet *s, er_spec_id goal);

/* ---- Cardiologist race (er_cardio.c) ---- */

/* Points on offer per card: 8 → 5 → 0 (discarded); 2 players: 5 → 0 (ER rulebook
 * "CARDIOLOGISTS"). */
typedef struct {
	int8_t offer[2];
} er_cardio_race;

void er_cardio_race_init(er_cardio_race *r, int nplayers);
/* End-of-turn check. met[i][k]: seat i meets card k's goal now; a seat that already scored
 * card k (sheet.cardiologists[k] > 0) is ignored. award[i][k] receives the points (0 if none);
 * every simultaneous achiever scores the full points on offer, then the card flips/discards. */
void er_cardio_race_turn(er_cardio_race *r, int nseats, const bool (*met)[2],
                         const int16_t (*already)[2], int16_t (*award)[2]);

/* Solo (ER rulebook "SOLO MODE / CARDIOLOGISTS"). While both cards remain they are one
 * combined goal worth 10 to the human (5 per card); each ward ALICAT fills this turn takes one
 * remaining card for 5 (discard_choice: which card the human discards first, 0 or 1). */
typedef struct {
	bool remaining[2];
} er_solo_race;
void er_solo_race_init(er_solo_race *r);
void er_solo_race_turn(er_solo_race *r, const bool human_met[2], int alicat_wards_filled,
                       int discard_choice, int16_t human_award[2], int16_t alicat_award[2]);

/* ---- ALICAT (er_alicat.c) ---- */

/* ALICAT's whole turn by its protocol (ER rulebook "SOLO MODE"). t->chief: ALICAT is the Chief
 * Physician; otherwise t->chief_die is the human chief's die. The move is accepted by
 * er_move_apply(d, t, out, true, copy of s). Returns an error only for invalid input. */
er_result er_alicat_move(const er_data *d, const er_sheet *s, const er_turn *t, bool final_turn,
                         er_move *out);

#endif
