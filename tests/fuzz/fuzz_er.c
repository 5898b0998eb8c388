/* libFuzzer target: ER sheets, turns and moves as JSON, through the same parsers and rules the
 * stateless endpoints use (api/er_json.c → rules). Whatever the bytes, nothing may crash, leak
 * or trip a sanitizer; a move that apply accepts must leave a sheet that validates and scores,
 * and ALICAT's move must be accepted by apply. Corpus: tests/fuzz/corpus/er/. */
#include "games/er/json.h"
#include "json/spec.h"
#include "rules/er.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static er_data D;

static json_object *load(const char *name)
{
	char path[512];
	const char *dir = getenv("TEMPLATES_DIR");
	snprintf(path, sizeof path, "%s/%s", dir ? dir : "templates/er", name);
	return json_object_from_file(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char err[256];
	json_object *s = load("sheet.json"), *c = load("cards.json"), *p = load("specialists.json");
	if (!s || !c || !p || er_data_from_json(&D, s, c, p, err, sizeof err) != 0) {
		fprintf(stderr, "fuzz_er: cannot load templates (run from the repo root)\n");
		abort();
	}
	json_object_put(s);
	json_object_put(c);
	json_object_put(p);
	return 0;
}

static void check_scores(const er_sheet *s, bool alicat, unsigned mods)
{
	er_breakdown b;
	er_details det;
	for (int r = ER_RADIO_CRITICAL_HALF; r <= ER_RADIO_MATCHING_SET; r++) {
		er_spec_id e = (er_spec_id)(ER_EPI_SEQUENCE_1_6 + (r - ER_RADIO_CRITICAL_HALF));
		er_result res = er_score(&D, s, (er_spec_id)r, e, alicat, mods, &b, &det);
		if (res.rule)
			abort(); /* a sheet that validated must score */
		if (b.filled_wards + b.critical + b.nurses + b.cardiologists + b.radiologist +
		        b.epidemiologist + b.morgue + b.modifiers !=
		    b.total)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *root = NULL, *sheet = NULL, *turn = NULL, *move = NULL, *mods = NULL;
	js_error err;
	bool alicat = false;
	unsigned m = 0;
	const char *rule;
	er_sheet s;
	er_turn t;
	er_move mv;
	const js_field f[] = {
	    {"sheet", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &sheet, NULL},
	    {"turn", JS_OBJECT, 0, 0, 0, NULL, &turn, NULL},
	    {"move", JS_OBJECT, 0, 0, 0, NULL, &move, NULL},
	    {"alicat", JS_BOOL, 0, 0, 0, NULL, &alicat, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &mods, NULL},
	};
	if (js_parse((const char *)data, size, &root, &err) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0)
		goto out;
	if (mods && er_json_modifiers_parse(mods, "/alicat_modifiers", &m, &err) != 0)
		goto out;
	if (!alicat)
		m = 0;
	if (er_json_sheet_parse(&D, sheet, "/sheet", alicat, m, &s, &rule, &err) != 0)
		goto out;
	check_scores(&s, alicat, m);
	json_object_put(er_json_sheet(&D, &s));
	if (turn == NULL || er_json_turn_parse(turn, "/turn", &t, &err) != 0)
		goto out;
	static er_option opts[ER_MAX_OPTIONS];
	int n = er_move_options(&D, &t, &s, alicat, opts, ER_MAX_OPTIONS);
	if (n < 0 || n > ER_MAX_OPTIONS)
		abort();
	if (alicat && (t.chief || t.chief_die != ER_NO_COLOUR)) {
		er_move am;
		er_sheet copy = s;
		if (er_alicat_move(&D, &s, &t, false, &am).rule == NULL &&
		    er_move_apply(&D, &t, &am, true, &copy).rule != NULL)
			abort(); /* ALICAT must play by the rules */
	}
	if (move && er_json_move_parse(move, "/move", &mv, &err) == 0) {
		er_sheet before = s;
		er_result r = er_move_apply(&D, &t, &mv, alicat, &s);
		if (r.rule == NULL) {
			if (er_sheet_validate(&D, &s, alicat, m).rule)
				abort();
			check_scores(&s, alicat, m);
			json_object_put(er_json_move(&mv));
		} else if (memcmp(&before, &s, sizeof s) != 0) {
			abort(); /* a rejected move must not touch the sheet */
		} else if (r.step < -1 || r.step >= mv.nsteps) {
			abort(); /* the failing step, if any, is one of the move's */
		}
	}
out:
	json_object_put(root);
	return 0;
}
