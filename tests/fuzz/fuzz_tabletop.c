/* libFuzzer target: Dice Hospital and Clinic games (games/dh/kind.c, games/clinic/kind.c →
 * rules/dh.c, rules/clinic.c) fed a game configuration and a sequence of round and finish
 * bodies as JSON, through the kinds' own parsers, rules, state and result builders. Whatever
 * the bytes, nothing may crash, leak or trip a sanitizer; a refused event must leave the state
 * byte for byte as it was. Input: byte 0 picks the kind, the seats and solo; then one event
 * per line, "r<round> <json>" or "f <json>". Corpus: tests/fuzz/corpus/tabletop/. */
#include "games/clinic/kind.h"
#include "games/dh/kind.h"
#include "engine/table.h"
#include "json/jx.h"
#include "rules/clinic.h"
#include "rules/dh.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *profile[2];

static json_object *load(const char *rel)
{
	char path[512];
	const char *dir = getenv("TEMPLATES_ROOT");
	snprintf(path, sizeof path, "%s/%s", dir ? dir : "templates", rel);
	return json_object_from_file(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	profile[0] = load("dice-hospital/default.json");
	profile[1] = load("clinic/default.json");
	if (!profile[0] || !profile[1]) {
		fprintf(stderr, "fuzz_tabletop: cannot load templates (run from the repo root)\n");
		abort();
	}
	return 0;
}

/* The stored configuration a create would write, from the first byte. */
static char *config_text(int clinic, int nseats, bool solo, uint8_t bits)
{
	json_object *o = jx_obj();
	jx_set(o, "nseats", jx_int(nseats));
	jx_set(o, "solo", jx_bool(solo));
	jx_set(o, "profile", json_object_get(profile[clinic]));
	if (!clinic) {
		json_object *v = jx_obj(), *rep = jx_arr();
		jx_set(v, "final_round_collections", jx_bool(bits & 1));
		jx_set(v, "experimental_medicine", jx_bool(bits & 2));
		jx_set(v, "fatality_penalty", jx_bool(solo && (bits & 4)));
		jx_set(v, "medical_report_penalty", jx_bool(solo && (bits & 4)));
		jx_set(o, "variants", v);
		for (int i = 0; solo && i < DH_REPORTS; i++) {
			json_object *r = jx_obj();
			jx_set(r, dh_colour_id(i % 3), jx_int(1 + (i & 1)));
			jx_set(r, "points", jx_int(i + 1));
			jx_push(rep, r);
		}
		jx_set(o, "reports", rep);
	} else {
		json_object *ex = jx_arr(), *order = jx_arr();
		if (bits & 1)
			jx_push(ex, jx_str("zombies"));
		if (bits & 2)
			jx_push(ex, jx_str("floor_4"));
		jx_set(o, "expansions", ex);
		for (int i = 0; i < nseats; i++)
			jx_push(order, jx_int(nseats - i));
		jx_set(o, "turn_order", order);
		jx_set(o, "goal", solo && (bits & 4) ? jx_str("goal-1") : jx_null());
	}
	char *text = strdup(jx_text(o));
	json_object_put(o);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int clinic = data[0] & 1;
	bool solo = (data[0] >> 1) % 5 == 0;
	int nseats = solo ? 1 : 2 + (data[0] >> 3) % 3;
	const table_kind *kind = clinic ? &clinic_table_kind : &dh_table_kind;
	char *config = config_text(clinic, nseats, solo, data[0] >> 5);
	void *state = calloc(1, kind->state_size), *copy = malloc(kind->state_size);
	void *body = calloc(1, kind->event_size);
	char names[TABLE_MAX_SEATS][TABLE_NAME_BYTES + 1] = {"A", "B", "C", "D", "E", "F"};
	bool bot[TABLE_MAX_SEATS] = {false};
	table_view v = {.id = "x",
	                .code = "ABCDEF",
	                .league = "",
	                .created_at = "",
	                .nseats = nseats,
	                .names = (const char(*)[TABLE_NAME_BYTES + 1]) names,
	                .bot = bot,
	                .host = true};
	if (kind->init(state, config, nseats) != 0)
		abort(); /* our own configuration must load */
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	for (char *line = text, *end; line && *line; line = end) {
		end = strchr(line, '\n');
		if (end)
			*end++ = '\0';
		table_event ev = {.body = body};
		char *json = strchr(line, ' ');
		if (!json)
			continue;
		*json++ = '\0';
		if (line[0] == 'r') {
			ev.name = "round";
			ev.turn = atoi(line + 1);
		} else if (line[0] == 'f') {
			ev.name = "finish";
		} else
			continue;
		if (kind->event_decode(&ev, json) != 0)
			continue;
		table_refusal r;
		memcpy(copy, state, kind->state_size);
		kind->repeats(state, &ev);
		if (kind->apply(state, &ev, &r) != 0) {
			if (memcmp(copy, state, kind->state_size) != 0 || !r.status)
				abort(); /* a refusal changes nothing and says why */
			continue;
		}
		json_object *enc = kind->event_encode(&ev);
		json_object_put(enc);
		json_object *o = jx_obj();
		kind->state_json(state, &v, o);
		json_object_put(o);
		if (kind->finished(state))
			json_object_put(kind->result_json(state, &v));
	}
	free(text);
	free(body);
	free(copy);
	free(state);
	free(config);
	return 0;
}
