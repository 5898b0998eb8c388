/* The load generator's measurements: the clock, the sample vectors and their percentiles, the
 * error record (games_load_stats.h). */
#include "games_load_stats.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

enum { MAX_ERRORS_KEPT = 3 };

static int errors;
static json_object *first_errors;

double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int vec_push(vec *v, double x)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 4096;
		double *nv = realloc(v->v, cap * sizeof *nv);
		if (nv == NULL)
			return -1;
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = x;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Same rule as games_load.py. */
double pct(vec *v, double p)
{
	if (v->n == 0)
		return NAN;
	qsort(v->v, v->n, sizeof *v->v, cmp_double);
	size_t i = (size_t)llround(p / 100.0 * (double)(v->n - 1));
	return v->v[i < v->n ? i : v->n - 1];
}

void errors_init(void)
{
	first_errors = json_object_new_array();
}

void record_error(const char *what, int status, const char *detail, size_t len)
{
	errors++;
	if ((int)json_object_array_length(first_errors) >= MAX_ERRORS_KEPT)
		return;
	json_object *e = json_object_new_array();
	json_object_array_add(e, json_object_new_string(what));
	json_object_array_add(e, json_object_new_int(status));
	json_object_array_add(
	    e, json_object_new_string_len(detail ? detail : "",
	                                  detail ? (int)(len > 400 ? 400 : len) : 0));
	json_object_array_add(first_errors, e);
}

int errors_count(void)
{
	return errors;
}

json_object *errors_first(void)
{
	return first_errors;
}

void errors_free(void)
{
	json_object_put(first_errors);
	first_errors = NULL;
}
