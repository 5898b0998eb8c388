/* Strict JSON: parsing with json-c at a small depth, and declarative field specs.
 *
 * json-c's getters coerce ("3" → 3): every getter here checks the type first. Errors name the
 * offending field as a JSON pointer ("/move/steps/1/ward"). */
#ifndef JSON_SPEC_H
#define JSON_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json_types.h>

enum { JS_MAX_DEPTH = 16, JS_MAX_NAME = 64 };

typedef struct {
	char field[256]; /* JSON pointer of the offending input, "" for the whole body */
	char detail[256];
} js_error;

/* Parses exactly one JSON value from buf[0..len) (strict, UTF-8 validated, depth ≤ 16, no
 * trailing bytes except whitespace). Returns 0 and *out (caller owns), or -1 and err. */
int js_parse(const char *buf, size_t len, struct json_object **out, js_error *err);

typedef enum {
	JS_INT,    /* int64 within [min, max] → int64_t *out (or int *out with JS_F_INT32) */
	JS_BOOL,   /* → bool *out */
	JS_STRING, /* length within [min, max] bytes → const char **out (borrowed from the object)
	            */
	JS_OBJECT, /* → struct json_object **out (borrowed) */
	JS_ARRAY,  /* length within [min, max] → struct json_object **out (borrowed) */
	JS_ENUM,   /* string, one of choices[] → int *out (index) */
	JS_NUMBER, /* int or double → double *out */
} js_type;

enum { JS_F_REQUIRED = 1u << 0, JS_F_NULLABLE = 1u << 1, JS_F_INT32 = 1u << 2 };

typedef struct {
	const char *name;
	js_type type;
	unsigned flags;
	int64_t min, max;
	const char *const *choices; /* JS_ENUM: NULL-terminated */
	void *out;
	bool *present; /* optional: set true when the field was present (and not null) */
} js_field;
/* Bounds: min = max = 0 means unbounded (JS_INT: any integer in ±2^53, the range JSON numbers
 * carry exactly; JS_F_INT32 narrows it to int). A null member of a JS_F_NULLABLE field leaves
 * present false and sets pointer outs (string, object, array) to NULL; without JS_F_NULLABLE,
 * null is rejected. Error details are sentences about the field: "must be a string of 1 to 64
 * bytes", "is required", "is not an allowed field". */

/* Checks that obj is an object, that it has no member outside fields[], that required fields
 * are present and every present field has the right type and bounds, and fills the outs.
 * `at` is the JSON pointer of obj ("" for the root). Returns 0, or -1 with err. */
int js_fields(struct json_object *obj, const char *at, const js_field *fields, size_t n,
              js_error *err);

/* Same checks for one value (an array element, say). */
int js_value(struct json_object *v, const char *at, const js_field *spec, js_error *err);

/* The member key of o when o is an object and that member has type t, else NULL (borrowed
 * from o). For readers of trusted documents (templates/) that report their own errors. */
struct json_object *js_member(struct json_object *o, const char *key, json_type t);

/* The value of the hexadecimal digit c (0-9, a-f, A-F), or -1. */
int js_hex_digit(unsigned char c);

/* JSON pointer of member key under at, escaping '~' and '/' (RFC 6901) into buf; returns 0, or
 * -1 when truncated (buf still NUL-terminated). */
int js_path(char *buf, size_t len, const char *at, const char *key);
/* JSON pointer of array element index under at ("/players" → "/players/0"). */
int js_path_index(char *buf, size_t len, const char *at, size_t index);

#endif
