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

/* Profile loading helpers (strict: type-checked, bounded); err gets "<path>: reason". */
int tt_get_value(struct json_object *values, const char *key, int lo, int hi, tt_value *out,
                 char *err, size_t errlen);
/* values[key] is an object with integer members names[0..n) each in [lo, hi] and "verified". */
int tt_get_named(struct json_object *values, const char *key, const char *const *names, int n,
                 int lo, int hi, tt_value *out, char *err, size_t errlen);
/* values[key][list_key] is an array of exactly n integers in [lo, hi]. */
int tt_get_list(struct json_object *values, const char *key, const char *list_key, int n, int lo,
                int hi, tt_value *out, char *err, size_t errlen);
/* Copies the profile's "id" ([a-z0-9-] 1..32) and "name" (1..128 bytes) and checks "game". */
int tt_get_header(struct json_object *doc, const char *game, char *id, char *name, char *err,
                  size_t errlen);

#endif
