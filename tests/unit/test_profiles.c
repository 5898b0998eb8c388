/* Scoring profiles shipped in templates/ (api/profiles.c) and the frozen label tables
 * (json/strtab.c): what request threads read from process-wide data. json-c objects may not be
 * shared between threads (their reference counts are plain integers), so every lookup must hand
 * out a private document. */
#include "games/rounds/profiles.h"
#include "json/jx.h"
#include "json/strtab.h"
#include "test.h"

#include <pthread.h>

enum { THREADS = 4, ROUNDS = 20000 };

static void test_each_lookup_is_a_private_document(void)
{
	dh_profile p;
	clinic_profile c;
	json_object *a = NULL, *b = NULL, *x = NULL;
	table_refusal r = {0};
	CHECK_EQ_INT(profiles_find_dh(NULL, &p, &a, &r), 0);
	CHECK_EQ_INT(profiles_find_dh("default", &p, &b, &r), 0);
	CHECK_EQ_INT(profiles_find_clinic(NULL, &c, &x, &r), 0);
	CHECK(a != NULL && b != NULL && a != b);
	/* the caller's reference is the only one: nothing else holds the document */
	CHECK_EQ_INT(json_object_put(a), 1);
	CHECK_EQ_INT(json_object_put(b), 1);
	CHECK_EQ_INT(json_object_put(x), 1);
}

static void *lookups(void *arg)
{
	long bad = 0;
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		dh_profile p;
		clinic_profile c;
		json_object *d = NULL, *e = NULL;
		table_refusal r = {0};
		bad += profiles_find_dh(NULL, &p, &d, &r) != 0;
		bad += profiles_find_clinic(NULL, &c, &e, &r) != 0;
		json_object_put(d);
		json_object_put(e);
	}
	return (void *)bad;
}

/* Four threads looking profiles up at once, as request threads do: every lookup succeeds (with a
 * shared document the reference count drifts and json-c aborts or frees it under the others). */
static void test_concurrent_lookups(void)
{
	pthread_t t[THREADS];
	long bad = 0;
	for (int i = 0; i < THREADS; i++)
		CHECK_EQ_INT(pthread_create(&t[i], NULL, lookups, NULL), 0);
	for (int i = 0; i < THREADS; i++) {
		void *rv = NULL;
		pthread_join(t[i], &rv);
		bad += (long)rv;
	}
	CHECK_EQ_INT(bad, 0);
}

static void test_strtab(void)
{
	json_object *doc = jx_parse_stored("{\"dh\": {\"en\": {\"title\": \"Score pad\", \"n\": 3,"
	                                   " \"fields\": {\"/discharged/red\": \"Red\"}}},"
	                                   " \"a\": \"x\", \"list\": [\"no\"]}");
	strtab t;
	strtab_from_json(&t, doc);
	json_object_put(doc);
	const char *title[] = {"dh", "en", "title"},
	           *field[] = {"dh", "en", "fields", "/discharged/red"};
	const char *num[] = {"dh", "en", "n"}, *missing[] = {"dh", "fr", "title"}, *a[] = {"a"};
	const char *list[] = {"list"}, *partial[] = {"dh", "en"};
	CHECK_STR(strtab_get(&t, title, 3), "Score pad");
	CHECK_STR(strtab_get(&t, field, 4), "Red");
	CHECK_STR(strtab_get(&t, a, 1), "x");
	CHECK(strtab_get(&t, num, 3) == NULL);     /* not a string */
	CHECK(strtab_get(&t, missing, 3) == NULL); /* no such path */
	CHECK(strtab_get(&t, list, 1) == NULL);    /* arrays are left out */
	CHECK(strtab_get(&t, partial, 2) == NULL); /* an object is not a string */
	CHECK_EQ_INT(t.n, 3);
	strtab_free(&t);
	CHECK_EQ_INT(t.n, 0);
}

int main(void)
{
	if (profiles_init("templates") != 0) {
		printf("FAIL profiles: templates/ does not load\n");
		return 1;
	}
	TEST("profiles: each lookup is a private document", test_each_lookup_is_a_private_document);
	TEST("profiles: concurrent lookups from four threads", test_concurrent_lookups);
	TEST("strtab: paths of string leaves", test_strtab);
	profiles_shutdown();
	TEST_MAIN_END();
}
