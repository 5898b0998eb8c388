/* What the files of the ER kind share (kind.c, config.c, state.c, handlers.c) and nobody else
 * uses: the state the engine keeps, the turn limit, the names of the deck and dice, and the
 * descriptor's functions each file gives (engine/table.h says what each one does and who owns
 * what). */
#ifndef ER_KIND_INTERNAL_H
#define ER_KIND_INTERNAL_H

#include "engine/table.h"
#include "rules/er_game.h"

#include <json-c/json.h>

enum { ER_MAX_TURNS = 25 };

/* The ER state kept by the engine: the replayed game, and the last standing move of each
 * (seat, turn) so that an identical resubmission is answered as before. A plain value. */
typedef struct {
	er_game g;
	bool has_move[ER_MAX_SEATS][ER_MAX_TURNS + 1];
	er_move move[ER_MAX_SEATS][ER_MAX_TURNS + 1];
} er_table;

/* "table", "app" (er_game_config.app_deck), NULL-terminated: config.c */
extern const char *const er_deck_names[];
/* "red", "yellow", "green" (er_colour), NULL-terminated: kind.c */
extern const char *const er_colour_names[];

/* ---- config.c ---- */

/* Reads a stored configuration (our own writing: a failure is a bug or corrupted data). */
int er_config_parse(const er_data *d, const char *text, er_game_config *cfg);
/* POST /api/v1/er/games: players, solo, ALICAT's modifiers, specialists (else drawn from the
 * seed), deck, league, seed (table_kind.create_parse). */
int er_create_parse(json_object *root, table_new *n, table_refusal *r);
void er_create_reply(json_object *config, json_object *reply);

/* ---- state.c ---- */

void er_state_json(const void *state, const table_view *v, json_object *o);
void er_state_text(const void *state, const table_view *v, struct jw *w);
/* Final standings stored in games.result when a game ends (for leagues). */
json_object *er_result_json(const void *state, const table_view *v);
/* The log, turn by turn: "start", every seat's sheet and total before the first turn (ALICAT
 * starts with nurses and points), then for each turn that closed, its card, dice, chief, the
 * moves that stood and every seat's sheet and total. */
void er_log_start(const void *state, const table_view *v, json_object *log);
void er_log_step(const void *state, const table_event *tev, const table_view *v, json_object *log);

#endif
