/* The ER coach: "how good could this game have been?" — a beam search over the turns of a
 * finished game, on the rules engine itself (er_move_options, er_move_apply, er_score), for one
 * player's sheet with everything outside the player's control as it really was: each turn's
 * card, dice, Chief Physician and the die the chief took (ER rulebook "FLIP & ROLL", "CHOOSE
 * PATIENT"), and the Cardiologist race as the other sheets decided it ("CARDIOLOGISTS", "SOLO
 * MODE / CARDIOLOGISTS"). How it works: src/rules/README.md "The coach".
 *
 * Pure: no I/O; the search allocates its working memory and frees it before returning. */
#ifndef ER_COACH_H
#define ER_COACH_H

#include "rules/er.h"
#include "rules/er_game.h"

enum {
	ER_COACH_MAX_TURNS = 25,
	ER_COACH_MAX_WIDTH = 256,
	ER_COACH_MAX_OTHERS = 10, /* other seats × 2 cards */
	ER_COACH_MAX_MOVES = 4096,
};

/* A goal another seat reached: from the end of `turn` on, that seat meets Cardiologist `card`
 * (goals only grow: stethoscopes, blood bags, nurses and patients are never taken back). The
 * race is re-run with the analysed seat's hypothetical sheet: who scores what depends on it. */
typedef struct {
	int8_t card; /* 0, 1 */
	int8_t turn; /* 1..nturns */
} er_coach_other;

/* Everything the analysis needs about one seat's game. */
typedef struct {
	int nturns;
	er_turn turns[ER_COACH_MAX_TURNS]; /* as the seat saw them (er_game_turn_for) */
	er_move moves[ER_COACH_MAX_TURNS]; /* the seat's real moves */
	er_spec_id cardio[2], radiologist, epidemiologist;
	int nplayers; /* seats at the table (multiplayer race: 8 → 5, 2 players 5) */
	bool solo;    /* against ALICAT: er_solo_race with alicat_fills/alicat_discard */
	int nothers;
	er_coach_other others[ER_COACH_MAX_OTHERS];
	int8_t alicat_fills[ER_COACH_MAX_TURNS];   /* solo: wards ALICAT filled in that turn */
	int8_t alicat_discard[ER_COACH_MAX_TURNS]; /* solo: the human's choice, 0 or 1 */
} er_coach_game;

/* One complete line of play: the move of each turn and the sheet after it (with the race's
 * Cardiologist points of that turn written into sheets[t].cardiologists). */
typedef struct {
	er_move moves[ER_COACH_MAX_TURNS];
	er_sheet sheets[ER_COACH_MAX_TURNS];
	er_breakdown score;
	er_details details;
} er_coach_line;

typedef enum {
	ER_COACH_LINE_SEARCH = 0, /* this width's beam found it */
	ER_COACH_LINE_PLAYER,     /* the player's own line is (one of) the best */
	ER_COACH_LINE_GREEDY,     /* the greedy line is */
	ER_COACH_LINE_NARROWER,   /* the narrower search's best line is ("best" in the API) */
} er_coach_line_kind;

typedef struct {
	int width;                  /* 1..ER_COACH_MAX_WIDTH */
	bool costs;                 /* run the per-turn cost analysis (the backward searches) */
	long node_budget;           /* stop after this many expanded nodes; 0: no limit */
	bool (*expired)(void *ctx); /* polled now and then; true stops the search */
	void *ctx;
} er_coach_opts;

typedef struct {
	er_coach_line player, greedy, best;
	er_coach_line_kind best_kind;
	bool complete;      /* false: stopped by the deadline or the node budget */
	bool best_complete; /* the search for the best line ran to its end */
	int searched_turns; /* turns with a cost: the last searched_turns of the game */
	long nodes;         /* nodes expanded, all searches together */
	/* per turn t (0-based): cost = C(t) − C(t+1), C(t) the best continuation found from the
	 * player's sheet after t turns, forced to include the player's move t+1 followed by
	 * C(t+1)'s line, so 0 ≤ cost and Σ cost = best − player when complete. */
	bool has_cost[ER_COACH_MAX_TURNS];
	int cost[ER_COACH_MAX_TURNS];
	er_breakdown cont_before[ER_COACH_MAX_TURNS]; /* C(t)'s final breakdown */
	er_breakdown cont_after[ER_COACH_MAX_TURNS];  /* C(t+1)'s final breakdown */
	er_move cont_move[ER_COACH_MAX_TURNS];        /* C(t)'s move in turn t+1 */
	int bad_turn; /* invalid input: the 1-based turn whose real move broke a rule, or 0 */
} er_coach_result;

/* Analyses one seat's game. Returns er_ok(), or the rule a real move broke (res->bad_turn
 * names its turn) or invalid-move for an input out of range. res is caller-owned (large: keep it
 * off small stacks). Deterministic: equal input and width give an equal result. */
er_result er_coach_analyse(const er_data *d, const er_coach_game *g, const er_coach_opts *o,
                           er_coach_result *res);

/* ---- a seat's game from the event log (er_coach_game.c) ---- */

/* Replays the game's log (er_game_init, er_game_apply; ER rulebook "HOW TO PLAY", "END OF
 * TURN") and fills *out for seat (1-based, a human seat): each turn as the seat saw it and its
 * last accepted move, the turn at which every other seat first met each Cardiologist goal, and
 * solo ALICAT's ward fills and the human's discard choice per turn. Returns the number of
 * turns the seat completed (out->nturns is the game's), or -1 if an event is refused. */
int er_coach_game_from_log(const er_data *d, const er_game_config *cfg, const er_event *events,
                           int nevents, int seat, er_coach_game *out);

/* ---- the whole moves of a turn (er_moves_all.c) ---- */

/* Every whole move of this turn (a die's patient admitted by any er_move_options admission or
 * sent to the morgue; its screen before or after; its extra patient admitted or sent to the
 * morgue, in either order when both go to one ward), checked by er_move_apply; moves giving an
 * identical sheet are listed once (the first in enumeration order). Writes at most max moves
 * and their resulting sheets; returns the count. */
int er_moves_all(const er_data *d, const er_turn *t, const er_sheet *s, er_move *moves,
                 er_sheet *sheets, int max);

/* Sheets equal in every field a later turn or the score can see. */
bool er_coach_sheet_eq(const er_sheet *a, const er_sheet *b);
uint64_t er_coach_sheet_hash(const er_sheet *s);

#endif
