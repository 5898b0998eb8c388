/* An ER game at the table as a pure state machine over its event log (ER rulebook "GETTING
 * READY", "HOW TO PLAY", "END OF TURN", "END OF THE GAME", "SOLO MODE").
 *
 * The game state is the replay of the log: er_game_init() from the configuration, then
 * er_game_apply() for every stored event in version order. The API layer stores an event only
 * after er_game_apply() accepted it on the current state, so replay never fails. No I/O, no
 * allocation: an er_game is a plain value (copy it to try something). */
#ifndef ER_GAME_H
#define ER_GAME_H

#include "rules/er.h"

enum { ER_MAX_SEATS = 6 };

typedef struct {
	int nseats; /* 1..6 players; solo: 2 (seat 1 human, seat 2 ALICAT) */
	bool solo;
	unsigned modifiers; /* ALICAT difficulty modifiers (solo only) */
	er_spec_id cardio[2];
	er_spec_id radiologist, epidemiologist;
	bool app_deck; /* the server flips and rolls (reproducibly from seed) */
	uint64_t seed;
	int nturns; /* 24, 25 with 5 players (er_game_config_finish sets it) */
} er_game_config;

typedef enum { ER_EV_REVEAL, ER_EV_MOVE, ER_EV_UNDO } er_event_kind;

typedef struct {
	er_event_kind kind;
	int seat;             /* MOVE, UNDO: 1..nseats; REVEAL: the chief's seat */
	int turn;             /* the turn it belongs to (1-based) */
	int card;             /* REVEAL */
	int8_t dice[ER_DICE]; /* REVEAL */
	er_move move;         /* MOVE */
	int alicat_discard;   /* MOVE by the solo human: which Cardiologist (0/1) ALICAT's
	                         ward fill discards first; -1 = no preference (card 1) */
} er_event;

typedef struct {
	er_game_config cfg;
	int version; /* events applied */
	bool finished;
	int turn;      /* current turn, 0 before the first reveal */
	bool revealed; /* the current turn's card and dice are known */
	int card;
	int8_t dice[ER_DICE];
	int chief_seat;      /* 1-based; seat 1 is the first Chief Physician */
	er_colour chief_die; /* the chief's chosen die, once the chief has moved */
	bool moved[ER_MAX_SEATS];
	er_move moves[ER_MAX_SEATS];
	er_sheet before[ER_MAX_SEATS]; /* sheets at the start of the turn (undo) */
	er_sheet sheets[ER_MAX_SEATS];
	bool card_used[ER_CARDS + 1];
	er_cardio_race race;    /* multiplayer */
	er_solo_race solo_race; /* solo */
	int alicat_discard;     /* the human's preference for this turn, -1 none */
	int8_t cardio_state[2]; /* points on offer per card (multiplayer); solo: 5 while the
	                           card remains, 0 once discarded */
} er_game;

/* Game-flow rule ids. er_game_rule_status() maps them to HTTP statuses (409 conflicts). */
#define ER_RULE_GAME_FINISHED         "game-finished"
#define ER_RULE_TURN_STALE            "turn-stale"
#define ER_RULE_TURN_NOT_REVEALED     "turn-not-revealed"
#define ER_RULE_TURN_ALREADY_REVEALED "turn-already-revealed"
#define ER_RULE_CARD_USED             "card-used"
#define ER_RULE_NOT_CHIEF             "not-chief"
#define ER_RULE_CHIEF_FIRST           "chief-moves-first"
#define ER_RULE_ALREADY_MOVED         "already-moved"
#define ER_RULE_NOTHING_TO_UNDO       "nothing-to-undo"
#define ER_RULE_UNDO_AFTER_OTHERS     "undo-after-others"
#define ER_RULE_BOT_SEAT              "bot-seat"
#define ER_RULE_NO_SUCH_SEAT          "no-such-seat"

/* 409 for game-flow conflicts, 422 for everything else (the rules of a move). */
int er_game_rule_status(const char *rule);

/* Fills nturns (and validates): 1..6 seats, solo ⇒ 2 seats, specialists of the right kinds and
 * two different Cardiologists. */
er_result er_game_config_finish(const er_data *d, er_game_config *cfg);
/* Draws 2 Cardiologists, 1 Radiologist and 1 Epidemiologist from the seed (setup step 4). */
void er_game_draw_specialists(const er_data *d, uint64_t seed, er_game_config *cfg);

void er_game_init(er_game *g, const er_data *d, const er_game_config *cfg);
/* Checks ev against the state and applies it (version++), or leaves g untouched. Closing a
 * turn (every seat moved) runs the Cardiologist check, passes the chief clockwise and, after
 * the last turn, finishes the game. */
er_result er_game_apply(er_game *g, const er_data *d, const er_event *ev);

/* App deck: the card and dice of turn `turn`, reproducible from the seed (the 27 cards are
 * shuffled once, 3 are removed — 2 with 5 players — and each turn's dice are rolled from the
 * seed and the turn number). */
void er_game_app_reveal(const er_game_config *cfg, int turn, int *card, int8_t dice[ER_DICE]);

/* Solo: true when ALICAT (seat 2) should move now (its turn is revealed, it has not moved,
 * and it is chief or the human chief has moved); *ev receives ALICAT's move event. */
bool er_game_alicat_next(const er_game *g, const er_data *d, er_event *ev);

/* The turn as seat `seat` sees it (chief flag, the chief's die). */
void er_game_turn_for(const er_game *g, int seat, er_turn *t);

/* Scores (and, when finished, ranks: 1 is best, equal totals share a rank; solo: a tie goes to
 * ALICAT) of every seat. */
void er_game_scores(const er_game *g, const er_data *d, er_breakdown *scores, int *ranks);

#endif
