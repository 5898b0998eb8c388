/* What the Dice Hospital (dh.h) and Clinic (clinic.h) scorekeepers share: a profile value with
 * its "verified" flag, a validation error (stable rule id + JSON pointer of the field), and a
 * scored item (the reason for some points). Pure: no I/O, no allocation; every struct is a plain
 * value without pointers except tt_error.rule, which points to a static string. */
#ifndef RULES_TABLETOP_H
#define RULES_TABLETOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

enum { TT_ID_LEN = 33, TT_NAME_LEN = 129, TT_FIELD_LEN = 96, TT_DETAIL_LEN = 160 };
/* A UTC timestamp as profiles record it, "2025-05-12T18:03:00Z" (20 bytes) and its NUL. */
enum { TT_STAMP_LEN = 21 };

/* One board-printed or rulebook number of a scoring profile. verified = a seed confirms it. */
typedef struct {
	int32_t value;
	bool verified;
} tt_value;

/* A refusal. status: 400 = a value outside its domain (negative count, round 9), 422 = well
 * formed but impossible in the game (13 patients discharged, a finish before round 8). */
typedef struct {
	int status;
	const char *rule;         /* static, stable id, e.g. "seat-twice" */
	char field[TT_FIELD_LEN]; /* JSON pointer into the request, e.g. "/entries/1/seat" */
	char detail[TT_DETAIL_LEN];
} tt_error;

/* Fills e and returns -1 (for "return tt_fail(…)"). field is a printf format. */
int tt_fail(tt_error *e, int status, const char *rule, const char *detail, const char *field_fmt,
            ...) __attribute__((format(printf, 5, 6)));

/* One reason for points: `count` times the rule `rule` (an index into the game's rule table)
 * earned `points` in total, using a profile value whose verified flag is `verified`.
 * round: 1..8 / 1..6, 0 = end of the game. */
typedef struct {
	int8_t round;
	uint8_t rule;
	int16_t count;
	int32_t points;
	bool verified;
} tt_item;

/* Where tt_add writes one seat's reasons and points: the fields of the game's seat score. */
typedef struct {
	tt_item *items;
	int *nitems;
	int cap; /* capacity of items */
	int *total;
	int *round_points; /* by round; [0] = end of the game */
	bool *all_verified;
} tt_tally;

/* Records that count times rule earned points in round (0 = end): appends the item, adds the
 * points to the total and to the round, and clears all_verified when the value is unverified.
 * Does nothing when count <= 0 or the items are full. */
void tt_add(const tt_tally *t, int round, int rule, int count, int points, bool verified);

/* What the shared checks say of a game: its numbers and its own sentences. */
typedef struct {
	const char *name; /* in details: "Clinic has rounds 1 to 6" */
	int rounds, max_seats, max_entries;
	const char *solo_one; /* detail of 422 solo-one-player */
	const char *too_few;  /* detail of 422 too-few-players */
} tt_game;

/* The players of a new game: one seat when solo (422 solo-one-player), else at least 2 (422
 * too-few-players), and at most max_seats (422 too-many-players). Field /players. */
int tt_check_players(const tt_game *k, bool solo, int nseats, tt_error *err);
/* The checks that open a round: round in range (400 round-out-of-range), the game not finished
 * (409), 0..max_entries entries (400 too-many-entries) and at least one unless the round carries
 * something else (`more`: 400 no-entries). */
int tt_round_open(const tt_game *k, int round, bool finished, int nentries, bool more,
                  tt_error *err);

/* A game's own check of entry i of its finish (game and input: the game's types). */
typedef int tt_entry_check(const void *game, const void *input, int i, tt_error *err);
/* The checks of a finish, in this order: not finished yet (409 game-finished), no round after
 * the one the game ends after has an entry (latest = the last round any seat entered, last = the
 * round the game ends after: k->rounds for the rulebook's game, fewer when the table stopped
 * early; 422 rounds-after-end, field /ended_after), every seat entered every round up to last
 * (complete = rounds every seat entered; 422 finish-before-last-round), at most max_entries
 * entries (400 too-many-entries), check(game, input, i) on each entry, one entry for each of
 * the nseats seats (422 seat-missing). */
int tt_finish_check(const tt_game *k, bool finished, int complete, int latest, int last, int nseats,
                    int nentries, tt_entry_check *check, const void *game, const void *input,
                    tt_error *err);
/* Entry i's seat (seats[0..i]) names one of the nseats seats (422 unknown-seat) that no earlier
 * entry named (422 seat-twice, with the sentence `twice`). */
int tt_check_seat(int nseats, const int *seats, int i, const char *twice, tt_error *err);
/* The count v of entry i's member `name` is in [0, max] (400 negative-count or
 * count-out-of-range, field /entries/<i>/<name>). */
int tt_check_count(int v, int max, int i, const char *name, tt_error *err);

/* ids[i] when 0 <= i < n, else NULL. */
const char *tt_id_at(const char *const *ids, int n, int i);
/* The index of id in ids[0..n), or -1 (also for NULL). */
int tt_id_index(const char *const *ids, int n, const char *id);

/* Profile loading helpers (strict: type-checked, bounded); err gets "<path>: reason". */
int tt_get_value(struct json_object *values, const char *key, int lo, int hi, tt_value *out,
                 char *err, size_t errlen);
/* values[key] is an object with integer members names[0..n) each in [lo, hi] and "verified". */
int tt_get_named(struct json_object *values, const char *key, const char *const *names, int n,
                 int lo, int hi, tt_value *out, char *err, size_t errlen);
/* values[key][list_key] is an array of exactly n integers in [lo, hi]. */
int tt_get_list(struct json_object *values, const char *key, const char *list_key, int n, int lo,
                int hi, tt_value *out, char *err, size_t errlen);
/* One scalar of a profile: values[key] within [lo, hi] into *v. */
typedef struct {
	const char *key;
	tt_value *v;
	int lo, hi;
} tt_scalar;
/* Every scalar of s[0..n) with tt_get_value; stops at the first error. */
int tt_get_scalars(struct json_object *values, const tt_scalar *s, size_t n, char *err,
                   size_t errlen);
/* Opens a profile: checks "game", copies "id" ([a-z0-9-] 1..32), "name" (1..128 bytes) and
 * "checked_at" (optional: when a group last checked values against its box, a timestamp as
 * tt_stamp_ok takes it; "" when absent) into checked_at[TT_STAMP_LEN], and sets *values to its
 * "values" object (borrowed from doc). Every value of a profile may carry its own
 * "checked_at" too (checked here: a timestamp, and the value "verified": true). */
int tt_get_profile(struct json_object *doc, const char *game, char *id, char *name,
                   char *checked_at, struct json_object **values, char *err, size_t errlen);
/* Whether s is a UTC timestamp "YYYY-MM-DDTHH:MM:SSZ" with plausible fields. */
bool tt_stamp_ok(const char *s);

#endif
