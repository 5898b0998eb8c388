/* Shared helpers of the Dice Hospital and Clinic scorekeepers (see tabletop.h). */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json/spec.h"
#include "rules/tabletop.h"

int tt_fail(tt_error *e, int status, const char *rule, const char *detail, const char *field_fmt,
            ...)
{
	if (!e)
		return -1;
	e->status = status;
	e->rule = rule;
	snprintf(e->detail, sizeof e->detail, "%s", detail);
	va_list ap;
	va_start(ap, field_fmt);
	vsnprintf(e->field, sizeof e->field, field_fmt, ap);
	va_end(ap);
	return -1;
}

void tt_add(const tt_tally *t, int round, int rule, int count, int points, bool verified)
{
	if (count <= 0 || *t->nitems >= t->cap)
		return;
	tt_item *it = &t->items[(*t->nitems)++];
	it->round = (int8_t)round;
	it->rule = (uint8_t)rule;
	it->count = (int16_t)count;
	it->points = points;
	it->verified = verified;
	*t->total += points;
	t->round_points[round] += points;
	if (!verified)
		*t->all_verified = false;
}

int tt_check_players(const tt_game *k, bool solo, int nseats, tt_error *err)
{
	char detail[TT_DETAIL_LEN];
	if (solo && nseats != 1)
		return tt_fail(err, 422, "solo-one-player", k->solo_one, "/players");
	if (!solo && nseats < 2)
		return tt_fail(err, 422, "too-few-players", k->too_few, "/players");
	if (nseats > k->max_seats) {
		snprintf(detail, sizeof detail, "%s takes at most %d players", k->name,
		         k->max_seats);
		return tt_fail(err, 422, "too-many-players", detail, "/players");
	}
	return 0;
}

static int check_entries(const tt_game *k, int nentries, tt_error *err)
{
	char detail[TT_DETAIL_LEN];
	if (nentries < 0 || nentries > k->max_entries) {
		snprintf(detail, sizeof detail, "at most %d entries", k->max_entries);
		return tt_fail(err, 400, "too-many-entries", detail, "/entries");
	}
	return 0;
}

int tt_round_open(const tt_game *k, int round, bool finished, int nentries, bool more,
                  tt_error *err)
{
	char detail[TT_DETAIL_LEN];
	if (round < 1 || round > k->rounds) {
		snprintf(detail, sizeof detail, "%s has rounds 1 to %d", k->name, k->rounds);
		return tt_fail(err, 400, "round-out-of-range", detail, "/round");
	}
	if (finished)
		return tt_fail(err, 409, "game-finished", "the game is finished", "/round");
	if (check_entries(k, nentries, err) != 0)
		return -1;
	if (nentries == 0 && !more)
		return tt_fail(err, 400, "no-entries", "a round needs at least one entry",
		               "/entries");
	return 0;
}

int tt_finish_check(const tt_game *k, bool finished, int complete, int latest, int last, int nseats,
                    int nentries, tt_entry_check *check, const void *game, const void *input,
                    tt_error *err)
{
	char detail[TT_DETAIL_LEN];
	if (finished)
		return tt_fail(err, 409, "game-finished", "the game is already finished", "%s", "");
	if (latest > last) {
		snprintf(detail, sizeof detail,
		         "round %d has entries: the game cannot end after round %d", latest, last);
		return tt_fail(err, 422, "rounds-after-end", detail, "/ended_after");
	}
	if (complete < last) {
		snprintf(detail, sizeof detail,
		         "the game ends after round %d: enter every seat's rounds first", last);
		return tt_fail(err, 422, "finish-before-last-round", detail, "/entries");
	}
	if (check_entries(k, nentries, err) != 0)
		return -1;
	for (int i = 0; i < nentries; i++)
		if (check(game, input, i, err) != 0)
			return -1;
	if (nentries != nseats)
		return tt_fail(err, 422, "seat-missing", "the finish needs every seat once",
		               "/entries");
	return 0;
}

int tt_check_seat(int nseats, const int *seats, int i, const char *twice, tt_error *err)
{
	if (seats[i] < 1 || seats[i] > nseats)
		return tt_fail(err, 422, "unknown-seat", "no such seat in this game",
		               "/entries/%d/seat", i);
	for (int o = 0; o < i; o++)
		if (seats[o] == seats[i])
			return tt_fail(err, 422, "seat-twice", twice, "/entries/%d/seat", i);
	return 0;
}

int tt_check_count(int v, int max, int i, const char *name, tt_error *err)
{
	char detail[TT_DETAIL_LEN];
	if (v < 0)
		return tt_fail(err, 400, "negative-count", "a count cannot be negative",
		               "/entries/%d/%s", i, name);
	if (v > max) {
		snprintf(detail, sizeof detail, "at most %d", max);
		return tt_fail(err, 400, "count-out-of-range", detail, "/entries/%d/%s", i, name);
	}
	return 0;
}

const char *tt_id_at(const char *const *ids, int n, int i)
{
	return i >= 0 && i < n ? ids[i] : NULL;
}

int tt_id_index(const char *const *ids, int n, const char *id)
{
	for (int i = 0; id && i < n; i++)
		if (strcmp(id, ids[i]) == 0)
			return i;
	return -1;
}

static int errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int errf(char *err, size_t len, const char *fmt, ...)
{
	if (err && len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int int_in(json_object *v, int lo, int hi, int32_t *out)
{
	if (!v || !json_object_is_type(v, json_type_int))
		return -1;
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return -1;
	*out = (int32_t)x;
	return 0;
}

/* values[key] as an object with a boolean "verified". */
static json_object *entry(json_object *values, const char *key, bool *verified, char *err,
                          size_t errlen)
{
	json_object *o = js_member(values, key, json_type_object);
	if (!o) {
		errf(err, errlen, "/values/%s: missing or not an object", key);
		return NULL;
	}
	json_object *v = js_member(o, "verified", json_type_boolean);
	if (!v) {
		errf(err, errlen, "/values/%s/verified: missing or not a boolean", key);
		return NULL;
	}
	*verified = json_object_get_boolean(v);
	return o;
}

int tt_get_value(json_object *values, const char *key, int lo, int hi, tt_value *out, char *err,
                 size_t errlen)
{
	bool ver;
	json_object *o = entry(values, key, &ver, err, errlen);
	if (!o)
		return -1;
	if (int_in(js_member(o, "value", json_type_int), lo, hi, &out->value) != 0)
		return errf(err, errlen, "/values/%s/value: missing or not an integer in [%d, %d]",
		            key, lo, hi);
	out->verified = ver;
	return 0;
}

int tt_get_named(json_object *values, const char *key, const char *const *names, int n, int lo,
                 int hi, tt_value *out, char *err, size_t errlen)
{
	bool ver;
	json_object *o = entry(values, key, &ver, err, errlen);
	if (!o)
		return -1;
	for (int i = 0; i < n; i++) {
		if (int_in(js_member(o, names[i], json_type_int), lo, hi, &out[i].value) != 0)
			return errf(err, errlen,
			            "/values/%s/%s: missing or not an integer in [%d, %d]", key,
			            names[i], lo, hi);
		out[i].verified = ver;
	}
	return 0;
}

int tt_get_list(json_object *values, const char *key, const char *list_key, int n, int lo, int hi,
                tt_value *out, char *err, size_t errlen)
{
	bool ver;
	json_object *o = entry(values, key, &ver, err, errlen);
	if (!o)
		return -1;
	json_object *a = js_member(o, list_key, json_type_array);
	if (!a || json_object_array_length(a) != (size_t)n)
		return errf(err, errlen, "/values/%s/%s: missing or not an array of %d integers",
		            key, list_key, n);
	for (int i = 0; i < n; i++) {
		if (int_in(json_object_array_get_idx(a, (size_t)i), lo, hi, &out[i].value) != 0)
			return errf(err, errlen, "/values/%s/%s/%d: not an integer in [%d, %d]",
			            key, list_key, i, lo, hi);
		out[i].verified = ver;
	}
	return 0;
}

int tt_get_scalars(json_object *values, const tt_scalar *s, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (tt_get_value(values, s[i].key, s[i].lo, s[i].hi, s[i].v, err, errlen) != 0)
			return -1;
	return 0;
}

static bool id_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n >= TT_ID_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

bool tt_stamp_ok(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	if (strlen(s) != sizeof shape - 1)
		return false;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
			return false;
	int mon = (s[5] - '0') * 10 + (s[6] - '0'), day = (s[8] - '0') * 10 + (s[9] - '0');
	int hour = (s[11] - '0') * 10 + (s[12] - '0'), min = (s[14] - '0') * 10 + (s[15] - '0');
	int sec = (s[17] - '0') * 10 + (s[18] - '0');
	return mon >= 1 && mon <= 12 && day >= 1 && day <= 31 && hour < 24 && min < 60 && sec < 61;
}

/* "checked_at" of doc (the profile, at "") or of one value (at "/values/<key>"): absent, or a
 * timestamp; a checked value is a verified one. Copies it into out (TT_STAMP_LEN) when given. */
static int check_stamp(json_object *o, const char *at, bool value, char *out, char *err,
                       size_t errlen)
{
	json_object *c = NULL;
	if (!json_object_object_get_ex(o, "checked_at", &c))
		return 0;
	if (!json_object_is_type(c, json_type_string) || !tt_stamp_ok(json_object_get_string(c)))
		return errf(err, errlen,
		            "%s/checked_at: must be a UTC time like 2025-05-12T18:03:00Z", at);
	json_object *v = js_member(o, "verified", json_type_boolean);
	if (value && !(v && json_object_get_boolean(v)))
		return errf(err, errlen, "%s/verified: a value checked against a box is verified",
		            at);
	if (out)
		snprintf(out, TT_STAMP_LEN, "%s", json_object_get_string(c));
	return 0;
}

int tt_get_profile(json_object *doc, const char *game, char *id, char *name, char *checked_at,
                   json_object **values, char *err, size_t errlen)
{
	json_object *g = js_member(doc, "game", json_type_string);
	if (!g || strcmp(json_object_get_string(g), game) != 0)
		return errf(err, errlen, "/game: must be \"%s\"", game);
	json_object *i = js_member(doc, "id", json_type_string);
	if (!i || !id_ok(json_object_get_string(i)))
		return errf(err, errlen, "/id: must be 1 to 32 characters of a-z, 0-9 and '-'");
	json_object *n = js_member(doc, "name", json_type_string);
	size_t nl = n ? strlen(json_object_get_string(n)) : 0;
	if (!n || nl < 1 || nl >= TT_NAME_LEN)
		return errf(err, errlen, "/name: must be a string of 1 to %d bytes",
		            TT_NAME_LEN - 1);
	checked_at[0] = '\0';
	if (check_stamp(doc, "", false, checked_at, err, errlen) != 0)
		return -1;
	*values = js_member(doc, "values", json_type_object);
	if (!*values)
		return errf(err, errlen, "/values: missing or not an object");
	json_object_object_foreach(*values, key, v)
	{
		char at[TT_FIELD_LEN];
		snprintf(at, sizeof at, "/values/%s", key);
		if (json_object_is_type(v, json_type_object) &&
		    check_stamp(v, at, true, NULL, err, errlen) != 0)
			return -1;
	}
	snprintf(id, TT_ID_LEN, "%s", json_object_get_string(i));
	snprintf(name, TT_NAME_LEN, "%s", json_object_get_string(n));
	return 0;
}
