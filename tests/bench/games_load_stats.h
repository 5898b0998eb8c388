/* The load generator's measurements (tests/bench/games_load.c): a monotonic clock, growable
 * vectors of samples with their percentiles, and the errors, counted, the first few kept as JSON
 * for the report. */
#ifndef GAMES_LOAD_STATS_H
#define GAMES_LOAD_STATS_H

#include <json-c/json.h>
#include <stddef.h>

typedef struct {
	double *v;
	size_t n, cap;
} vec;

/* Seconds on the monotonic clock. */
double now_s(void);

/* Appends x: 0, or -1 (out of memory, x dropped). */
int vec_push(vec *v, double x);

/* The p-th percentile (sorts v): sorted[round(p/100*(n-1))]; NaN if empty. */
double pct(vec *v, double p);

/* The error record: errors_init before the first record_error, errors_free at the end. */
void errors_init(void);
/* Counts one error; the first few keep [what, status, detail (≤ 400 bytes of len)]. */
void record_error(const char *what, int status, const char *detail, size_t len);
int errors_count(void);
/* The kept errors, a JSON array owned by the record. */
json_object *errors_first(void);
void errors_free(void);

#endif
