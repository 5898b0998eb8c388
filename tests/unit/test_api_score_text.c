/* The /er/score reply is written as text without building JSON objects (its hot path); it must
 * be the very document the JSON-object builders give (er_json_breakdown, and details_json
 * below), for every bed mask and number. Links the app library (src/games/er/json.c). */
#include "games/er/json.h"
#include "er_fixture.h"
#include "json/jx.h"
#include "test.h"

#include <stdlib.h>

static er_data D;

/* The beds of mask as [{"ward","bed"},…] (1-based, bed order). */
static json_object *bed_list(const er_data *d, uint32_t mask)
{
	json_object *a = jx_arr();
	for (int b = 0; b < ER_BEDS; b++) {
		if (!(mask & (1u << b)))
			continue;
		json_object *o = jx_obj();
		jx_set(o, "ward", jx_int(d->beds[b].ward + 1));
		jx_set(o, "bed", jx_int(d->beds[b].pos + 1));
		jx_push(a, o);
	}
	return a;
}

/* The reply's "details" built of json-c objects: the reference the text is compared with. */
static json_object *details_json(const er_data *d, const er_details *det)
{
	json_object *o = jx_obj();
	jx_set(o, "filled_wards", bed_list(d, det->filled_wards));
	jx_set(o, "critical", bed_list(d, det->critical));
	jx_set(o, "radiologist", bed_list(d, det->radiologist));
	jx_set(o, "epidemiologist", bed_list(d, det->epidemiologist));
	jx_set(o, "nurse_space", det->nurse_space < 0 ? NULL : jx_int(det->nurse_space + 1));
	return o;
}

static void check_one(const er_breakdown *b, const er_details *det)
{
	size_t len = 0;
	char *text = er_json_score_text(&D, b, det, &len);
	json_object *got = json_tokener_parse(text);
	json_object *want = jx_obj();
	jx_set(want, "total", jx_int(b->total));
	jx_set(want, "breakdown", er_json_breakdown(b));
	jx_set(want, "details", details_json(&D, det));
	CHECK(got != NULL);
	CHECK_EQ_INT(len, strlen(text));
	if (got && !json_object_equal(got, want)) {
		printf("  text: %s\n  json: %s\n", text, jx_text(want));
		CHECK(!"the text and the objects differ");
	}
	json_object_put(got);
	json_object_put(want);
	free(text);
}

static void random_replies(void)
{
	unsigned seed = 12345;
	for (int i = 0; i < 2000; i++) {
		er_breakdown b = {0};
		er_details det = {0};
		int *f[] = {&b.filled_wards, &b.critical,       &b.nurses, &b.cardiologists,
		            &b.radiologist,  &b.epidemiologist, &b.morgue, &b.modifiers};
		for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
			*f[k] = (int)(rand_r(&seed) % 120) - 20;
		b.total = rand_r(&seed) % 300;
		uint32_t *m[] = {&det.filled_wards, &det.critical, &det.radiologist,
		                 &det.epidemiologist};
		for (size_t k = 0; k < 4; k++)
			*m[k] = i == 0 ? 0
			        : i == 1
			            ? 0xffffffffu
			            : (uint32_t)rand_r(&seed) ^ ((uint32_t)rand_r(&seed) << 16);
		det.nurse_space = (int)(rand_r(&seed) % 8) - 1;
		check_one(&b, &det);
	}
}

int main(void)
{
	if (er_fixture_load(&D) != 0)
		return 1;
	TEST("api /er/score reply: the text equals the JSON objects (2000 replies, empty and full "
	     "bed lists)",
	     random_replies);
	TEST_MAIN_END();
}
