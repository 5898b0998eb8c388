/* The games scored round by round at the table (Dice Hospital, Clinic): what their table kinds
 * share, written once. A kind describes itself with a round_kind (its rules and its fields);
 * this layer does the rest: the event of a round or of the finish (parse, store, replay), who
 * may send it, an identical resubmission, the two handlers (PUT …/rounds/{n}, POST …/finish),
 * the JSON of scores, standings, what comes next, the result and the log, and one seat's entry
 * for the score pads.
 *
 * The engine's table_kind slots that get an event (event_encode, prepare, repeats, apply,
 * log_step) point straight at the round_* functions below: the event body (round_ev) names
 * its round_kind. The slots without an event (event_decode, result_json) are one-line
 * functions of the kind that pass its round_kind. Inputs and states are the kind's own rules
 * structs (rules/dh.h, rules/clinic.h), seen here as `void *`. */
#ifndef GAMES_ROUNDS_KIND_H
#define GAMES_ROUNDS_KIND_H

#include "engine/table.h"
#include "http/http.h"
#include "json/spec.h"
#include "rules/tabletop.h"

#include <stdbool.h>
#include <stddef.h>

struct json_object;

enum {
	ROUND_MAX_SEATS = 4,
	ROUND_MAX_ROUNDS = 8,
	ROUND_MAX_ITEMS = 160,    /* reasons for points of one seat */
	ROUND_INPUT_BYTES = 1024, /* the largest round or finish input of a kind */
};

typedef struct round_kind round_kind;

/* The event body of every round kind (table_kind.event_size = sizeof(round_ev)): a round
 * (table_event.turn = the round) or the finish. `in` holds the kind's round input or finish
 * input (dh_round_input, clinic_finish_input …). `rk` points to the kind's static descriptor,
 * so the body stays a plain value the engine may copy. */
typedef struct {
	const round_kind *rk;
	bool finish;
	union {
		max_align_t align;
		unsigned char bytes[ROUND_INPUT_BYTES];
	} in;
} round_ev;

/* One seat's score as every round kind has it (filled by the kind's scorer). */
typedef struct {
	int total, rank;
	bool verified;   /* every value used carries verified = true */
	const char *tie; /* the tie-break that placed this seat among equal totals (static), NULL */
	const char *title;                      /* solo title (points into the state), NULL: none */
	int round_points[ROUND_MAX_ROUNDS + 1]; /* [1..rounds]; [0] = end of the game */
	int popularity_after[ROUND_MAX_ROUNDS + 1]; /* the track after each round (rk->track) */
	int nitems;
	tt_item items[ROUND_MAX_ITEMS];
} round_seat_score;

typedef struct {
	int nseats;
	bool finished, solo;
	const char *profile_id, *profile_name; /* point into the state */
	int order[ROUND_MAX_SEATS];            /* seats (1-based) best first */
	round_seat_score seat[ROUND_MAX_SEATS];
} round_scores;

/* A kind scored round by round. Every function is pure and required unless marked optional;
 * `in` is the kind's round or finish input, `state` its game (rules). */
struct round_kind {
	const table_kind *table; /* the engine's descriptor of the kind */
	const char *title;       /* "Dice Hospital": the game in texts for people */
	int rounds;              /* rounds of a game, at most ROUND_MAX_ROUNDS */
	bool track;              /* rounds show "popularity_after" (Clinic's popularity track) */
	bool titled;             /* solo standings name a "title" (Clinic's Hall of Fame) */

	/* ---- entries: request bodies, which are also the stored event payloads ---- */
	/* Parses a PUT …/rounds/{n} or POST …/finish body into in (zeroed first). */
	int (*round_parse)(struct json_object *root, void *in, js_error *err);
	int (*finish_parse)(struct json_object *root, void *in, js_error *err);
	/* The body of an input: {"entries": [{"seat", …}], …} (caller owns). */
	struct json_object *(*round_encode)(const void *in);
	struct json_object *(*finish_encode)(const void *in);
	/* Fills in (zeroed by the caller) as a one-entry input: seat's entry as state holds it;
	 * state NULL or round/seat out of range: the seat with every value zero. */
	void (*round_entry)(const void *state, int round, int seat, void *in);
	void (*finish_entry)(const void *state, int seat, void *in);
	/* The round's table-wide part (Dice Hospital: the solo Medical Reports completed; Clinic:
	 * the next turn order) against the state: -1 the input has none, 1 it stands already,
	 * 0 it differs. */
	int (*round_table_stands)(const void *state, int round, const void *in);
	/* Optional: who may send the table-wide part (after the seats are checked). */
	int (*round_prepare)(const table_view *v, const void *in, table_refusal *r);

	/* ---- rules ---- */
	int (*round_apply)(void *state, int round, const void *in, tt_error *err);
	int (*finish_apply)(void *state, const void *in, tt_error *err);
	int (*nseats)(const void *state);
	bool (*finished)(const void *state);
	bool (*round_entered)(const void *state, int round, int seat);
	bool (*finish_entered)(const void *state, int seat);
	int (*rounds_complete)(const void *state);
	/* Once finished: the round the game ended after (rounds, or fewer when the table stopped
	 * early); 0 before. */
	int (*rounds_played)(const void *state);
	/* The scores as entered so far (out is zeroed by the caller). */
	void (*score)(const void *state, round_scores *out);
	const char *(*rule_id)(int rule);          /* tt_item.rule → "discharge-table" */
	const char *(*rule_profile_key)(int rule); /* the profile value it uses, or NULL */
	/* The breakdown: each rule's category, and every category in the reply's order. */
	const char *(*category)(int rule);
	const char *const *categories; /* NULL-terminated */
};

/* ---- table_kind slots (table.h says what each does) ---- */
struct json_object *round_event_encode(const table_event *tev);
int round_prepare(const void *state, const table_view *v, table_event *tev, table_refusal *r);
bool round_repeats(const void *state, const table_event *tev);
int round_apply(void *state, const table_event *tev, table_refusal *r);
void round_log_step(const void *state, const table_event *tev, const table_view *v,
                    struct json_object *log);
/* For the kind's own event_decode and result_json. */
int round_event_decode(const round_kind *rk, table_event *tev, const char *payload);
/* {"standings", "solo", "profile", "rounds_played", "incomplete"} (caller owns). */
struct json_object *round_result_json(const round_kind *rk, const void *state, const table_view *v);

/* ---- handlers: the kind's route functions call these with its round_kind ---- */
int round_api_round(const http_req *req, http_resp *resp, const round_kind *rk);  /* PUT */
int round_api_finish(const http_req *req, http_resp *resp, const round_kind *rk); /* POST */

/* ---- pieces of the state reply (score.c; each returns a new object, caller owns) ---- */
/* Sets "rounds_played" (the round the game ended after, null before it is finished) and
 * "incomplete" (it ended before the rulebook's last round) on the state reply o. */
void round_end_json(const round_kind *rk, const void *state, struct json_object *o);
/* {"action": "round"|"finish"|"finished", "round", "seats"} */
struct json_object *round_next_json(const round_kind *rk, const void *state);
/* Seat s's rounds: [{"round", "entered", the entry's fields, "points", "reasons"}]. */
struct json_object *round_rounds_json(const round_kind *rk, const void *state, int seat,
                                      const round_seat_score *ss);
/* Seat s's finish entry, or null before it is entered. */
struct json_object *round_finish_json(const round_kind *rk, const void *state, int seat);
/* {"category": points} in rk->categories order. */
struct json_object *round_breakdown_json(const round_kind *rk, const round_seat_score *ss);
/* A seat's "score": {"total", "verified", "breakdown"}; round_score_end adds "end" and
 * "end_reasons" after the kind's own members. */
struct json_object *round_score_json(const round_kind *rk, const round_seat_score *ss);
void round_score_end(const round_kind *rk, const round_seat_score *ss, struct json_object *o);
/* The standings, best first; with_bot: each with "bot": false (the stored result). */
struct json_object *round_standings_json(const round_kind *rk, const round_scores *sc,
                                         const table_view *v, bool with_bot);
/* The scores of state (allocated: the caller frees). */
round_scores *round_scores_of(const round_kind *rk, const void *state);

/* ---- score pads: one seat's entry as the bodies carry it, without "seat" (caller owns);
 * state NULL: every value zero (a blank pad) ---- */
struct json_object *round_pad_round_entry(const round_kind *rk, const void *state, int round,
                                          int seat);
struct json_object *round_pad_finish_entry(const round_kind *rk, const void *state, int seat);

#endif
