/* JSON ↔ ER rules structs. See json.h for the return conventions and ownership. */
#include "games/er/json.h"
#include "json/jw.h"
#include "json/jx.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const colour_names[] = {"red", "yellow", "green", NULL};
static const char *const patient_names[] = {"die", "extra", NULL};
static const char *const modifier_names[] = {"preparation", "equipment", "isolation", "capacity",
                                             NULL};

/* Writes a JSON pointer (truncated if absurdly long: it only names a field in an error). */
__attribute__((format(printf, 3, 4))) static void jptr(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, n, fmt, ap);
	va_end(ap);
}

static void set_err(js_error *err, const char *field, const char *detail)
{
	snprintf(err->field, sizeof err->field, "%s", field);
	snprintf(err->detail, sizeof err->detail, "%s", detail);
}

/* Prepends a pointer to err->field: the items of a sheet are parsed with a relative pointer and
 * their place is written only when one is bad (pointers cost more than the parse otherwise). */
__attribute__((format(printf, 2, 3))) static void err_prefix(js_error *err, const char *fmt, ...)
{
	char rest[sizeof err->field];
	va_list ap;
	memcpy(rest, err->field, sizeof rest);
	va_start(ap, fmt);
	int n = vsnprintf(err->field, sizeof err->field, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof err->field)
		memccpy(err->field + n, rest, '\0', sizeof err->field - (size_t)n);
	err->field[sizeof err->field - 1] = '\0';
}

static int parse_patient(json_object *p, const char *at, er_patient *out, const char **rule,
                         js_error *err)
{
	int64_t value = 0;
	bool critical = false, screen = false;
	const js_field f[] = {
	    {"value", JS_INT, JS_F_REQUIRED, -1000, 1000, NULL, &value, NULL},
	    {"critical", JS_BOOL, 0, 0, 0, NULL, &critical, NULL},
	    {"screen", JS_BOOL, 0, 0, 0, NULL, &screen, NULL},
	};
	if (js_fields(p, at, f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	if (value < 1 || value > 6) {
		char field[256];
		jptr(field, sizeof field, "%s/value", at);
		set_err(err, field, "a patient value must be 1 to 6");
		*rule = ER_RULE_SHEET_VALUE;
		return -2;
	}
	out->value = (int8_t)value;
	out->critical = critical;
	out->screen = screen;
	return 0;
}

static int parse_ledger(json_object *o, const char *at, int16_t *circled, int16_t *used,
                        js_error *err)
{
	int64_t c = *circled, u = *used;
	const js_field f[] = {
	    {"circled", JS_INT, JS_F_REQUIRED, 0, 999, NULL, &c, NULL},
	    {"used", JS_INT, JS_F_REQUIRED, 0, 999, NULL, &u, NULL},
	};
	if (js_fields(o, at, f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	*circled = (int16_t)c;
	*used = (int16_t)u;
	return 0;
}

static int parse_wards(json_object *wards, const char *at, er_sheet *out, const char **rule,
                       js_error *err)
{
	for (int w = 0; w < ER_WARDS; w++) {
		json_object *ward = json_object_array_get_idx(wards, (size_t)w);
		const js_field spec = {"", JS_ARRAY, JS_F_REQUIRED, 0, 100, NULL, NULL, NULL};
		if (js_value(ward, "", &spec, err) != 0) {
			err_prefix(err, "%s/%d", at, w);
			return -1;
		}
		size_t n = json_object_array_length(ward);
		if (n > ER_MAX_BEDS) {
			set_err(err, "", "more patients than beds in this ward");
			err_prefix(err, "%s/%d", at, w);
			*rule = ER_RULE_SHEET_TOO_MANY;
			return -2;
		}
		out->count[w] = (int8_t)n;
		for (size_t i = 0; i < n; i++) {
			int rc = parse_patient(json_object_array_get_idx(ward, i), "",
			                       &out->ward[w][i], rule, err);
			if (rc != 0) {
				err_prefix(err, "%s/%d/%zu", at, w, i);
				return rc;
			}
		}
	}
	return 0;
}

static int parse_nurses(json_object *arr, const char *at, er_sheet *out, js_error *err)
{
	char field[256];
	size_t n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		int64_t ward = 0;
		jptr(field, sizeof field, "%s/%zu", at, i);
		const js_field spec = {"", JS_INT, JS_F_REQUIRED, 1, ER_WARDS, NULL, &ward, NULL};
		if (js_value(json_object_array_get_idx(arr, i), field, &spec, err) != 0)
			return -1;
		if (out->nurse_crossed[ward - 1]) {
			set_err(err, field, "a ward's nurse is listed twice");
			return -1;
		}
		out->nurse_crossed[ward - 1] = true;
	}
	return 0;
}

static int parse_cardiologists(json_object *arr, const char *at, er_sheet *out, js_error *err)
{
	char field[256];
	for (size_t i = 0; i < 2; i++) {
		int64_t pts = 0;
		jptr(field, sizeof field, "%s/%zu", at, i);
		const js_field spec = {"", JS_INT, JS_F_REQUIRED, 0, 99, NULL, &pts, NULL};
		if (js_value(json_object_array_get_idx(arr, i), field, &spec, err) != 0)
			return -1;
		out->cardiologists[i] = (int16_t)pts;
	}
	return 0;
}

int er_json_sheet_parse(const er_data *d, json_object *obj, const char *at, bool alicat,
                        unsigned modifiers, er_sheet *out, const char **rule, js_error *err)
{
	json_object *wards = NULL, *nurses = NULL, *steth = NULL, *blood = NULL, *cardio = NULL;
	int64_t nurse_track = 0, morgue = 0;
	bool has_track = false;
	char field[256];
	const js_field f[] = {
	    {"wards", JS_ARRAY, JS_F_REQUIRED, ER_WARDS, ER_WARDS, NULL, &wards, NULL},
	    {"nurses_crossed", JS_ARRAY, 0, 0, ER_WARDS, NULL, &nurses, NULL},
	    {"nurse_track", JS_INT, 0, 0, ER_NURSE_SPACES, NULL, &nurse_track, &has_track},
	    {"stethoscopes", JS_OBJECT, 0, 0, 0, NULL, &steth, NULL},
	    {"blood_bags", JS_OBJECT, 0, 0, 0, NULL, &blood, NULL},
	    {"morgue", JS_INT, 0, 0, 99, NULL, &morgue, NULL},
	    {"cardiologists", JS_ARRAY, 0, 2, 2, NULL, &cardio, NULL},
	};
	*rule = NULL;
	if (js_fields(obj, at, f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	/* Defaults are those of a fresh sheet (1 stethoscope, ALICAT's nurses and preparation). */
	er_sheet_init(out, d, alicat, modifiers);
	jptr(field, sizeof field, "%s/wards", at);
	int rc = parse_wards(wards, field, out, rule, err);
	if (rc != 0)
		return rc;
	jptr(field, sizeof field, "%s/nurses_crossed", at);
	if (nurses && parse_nurses(nurses, field, out, err) != 0)
		return -1;
	int crossed = 0;
	for (int w = 0; w < ER_WARDS; w++)
		crossed += out->nurse_crossed[w];
	out->nurse_track = (int8_t)(has_track ? nurse_track : out->nurse_track + crossed);
	jptr(field, sizeof field, "%s/stethoscopes", at);
	if (steth && parse_ledger(steth, field, &out->steth_circled, &out->steth_used, err) != 0)
		return -1;
	jptr(field, sizeof field, "%s/blood_bags", at);
	if (blood && parse_ledger(blood, field, &out->blood_circled, &out->blood_used, err) != 0)
		return -1;
	out->morgue = (int8_t)morgue;
	jptr(field, sizeof field, "%s/cardiologists", at);
	if (cardio && parse_cardiologists(cardio, field, out, err) != 0)
		return -1;
	er_result r = er_sheet_validate(d, out, alicat, modifiers);
	if (r.rule) {
		*rule = r.rule;
		set_err(err, at, r.detail);
		return -2;
	}
	return 0;
}

json_object *er_json_sheet(const er_data *d, const er_sheet *s)
{
	(void)d;
	json_object *o = jx_obj();
	json_object *wards = jx_arr();
	for (int w = 0; w < ER_WARDS; w++) {
		json_object *ward = jx_arr();
		for (int i = 0; i < s->count[w]; i++) {
			const er_patient *p = &s->ward[w][i];
			json_object *po = jx_obj();
			jx_set(po, "value", jx_int(p->value));
			jx_set(po, "critical", jx_bool(p->critical));
			jx_set(po, "screen", jx_bool(p->screen));
			jx_push(ward, po);
		}
		jx_push(wards, ward);
	}
	jx_set(o, "wards", wards);
	json_object *nurses = jx_arr();
	for (int w = 0; w < ER_WARDS; w++)
		if (s->nurse_crossed[w])
			jx_push(nurses, jx_int(w + 1));
	jx_set(o, "nurses_crossed", nurses);
	jx_set(o, "nurse_track", jx_int(s->nurse_track));
	json_object *st = jx_obj();
	jx_set(st, "circled", jx_int(s->steth_circled));
	jx_set(st, "used", jx_int(s->steth_used));
	jx_set(o, "stethoscopes", st);
	json_object *bb = jx_obj();
	jx_set(bb, "circled", jx_int(s->blood_circled));
	jx_set(bb, "used", jx_int(s->blood_used));
	jx_set(o, "blood_bags", bb);
	jx_set(o, "morgue", jx_int(s->morgue));
	json_object *cardio = jx_arr();
	jx_push(cardio, jx_int(s->cardiologists[0]));
	jx_push(cardio, jx_int(s->cardiologists[1]));
	jx_set(o, "cardiologists", cardio);
	return o;
}

void er_json_sheet_text(jw *w, const er_sheet *s)
{
	jw_obj(w);
	jw_key(w, "wards");
	jw_arr(w);
	for (int ward = 0; ward < ER_WARDS; ward++) {
		jw_arr(w);
		for (int i = 0; i < s->count[ward]; i++) {
			const er_patient *p = &s->ward[ward][i];
			jw_obj(w);
			jw_kint(w, "value", p->value);
			jw_kbool(w, "critical", p->critical);
			jw_kbool(w, "screen", p->screen);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "nurses_crossed");
	jw_arr(w);
	for (int ward = 0; ward < ER_WARDS; ward++)
		if (s->nurse_crossed[ward])
			jw_int(w, ward + 1);
	jw_arr_end(w);
	jw_kint(w, "nurse_track", s->nurse_track);
	jw_key(w, "stethoscopes");
	jw_obj(w);
	jw_kint(w, "circled", s->steth_circled);
	jw_kint(w, "used", s->steth_used);
	jw_obj_end(w);
	jw_key(w, "blood_bags");
	jw_obj(w);
	jw_kint(w, "circled", s->blood_circled);
	jw_kint(w, "used", s->blood_used);
	jw_obj_end(w);
	jw_kint(w, "morgue", s->morgue);
	jw_key(w, "cardiologists");
	jw_arr(w);
	jw_int(w, s->cardiologists[0]);
	jw_int(w, s->cardiologists[1]);
	jw_arr_end(w);
	jw_obj_end(w);
}

static int parse_dice(json_object *obj, const char *at, er_turn *out, js_error *err)
{
	int64_t v[ER_DICE] = {0, 0, 0};
	const js_field f[] = {
	    {"red", JS_INT, JS_F_REQUIRED, 1, 6, NULL, &v[ER_RED], NULL},
	    {"yellow", JS_INT, JS_F_REQUIRED, 1, 6, NULL, &v[ER_YELLOW], NULL},
	    {"green", JS_INT, JS_F_REQUIRED, 1, 6, NULL, &v[ER_GREEN], NULL},
	};
	if (js_fields(obj, at, f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	for (int i = 0; i < ER_DICE; i++)
		out->dice[i] = (int8_t)v[i];
	return 0;
}

int er_json_turn_parse(json_object *obj, const char *at, er_turn *out, js_error *err)
{
	int64_t card = 0;
	json_object *dice = NULL;
	bool chief = false, has_chief_die = false;
	int chief_die = -1;
	char field[256];
	const js_field f[] = {
	    {"card", JS_INT, JS_F_REQUIRED, 1, ER_CARDS, NULL, &card, NULL},
	    {"dice", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &dice, NULL},
	    {"chief", JS_BOOL, 0, 0, 0, NULL, &chief, NULL},
	    {"chief_die", JS_ENUM, JS_F_NULLABLE, 0, 0, colour_names, &chief_die, &has_chief_die},
	};
	if (js_fields(obj, at, f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	memset(out, 0, sizeof *out);
	out->card = (int)card;
	out->chief = chief;
	out->chief_die = has_chief_die ? (er_colour)chief_die : ER_NO_COLOUR;
	jptr(field, sizeof field, "%s/dice", at);
	if (parse_dice(dice, field, out, err) != 0)
		return -1;
	if (chief && out->chief_die != ER_NO_COLOUR) {
		jptr(field, sizeof field, "%s/chief_die", at);
		set_err(err, field, "the Chief Physician has no chief's die to avoid: use null");
		return -1;
	}
	return 0;
}

static int parse_step(json_object *obj, const char *at, er_step *out, js_error *err)
{
	int admit = -1, morgue = -1, recolour = -1;
	int64_t screen = 0, ward = 0, value = 0;
	bool has_screen = false, has_admit = false, has_morgue = false, has_ward = false,
	     has_value = false, has_recolour = false;
	const js_field f[] = {
	    {"screen", JS_INT, 0, 1, ER_WARDS, NULL, &screen, &has_screen},
	    {"admit", JS_ENUM, 0, 0, 0, patient_names, &admit, &has_admit},
	    {"morgue", JS_ENUM, 0, 0, 0, patient_names, &morgue, &has_morgue},
	    {"ward", JS_INT, 0, 1, ER_WARDS, NULL, &ward, &has_ward},
	    {"value", JS_INT, 0, -99, 99, NULL, &value, &has_value},
	    {"recolour", JS_ENUM, JS_F_NULLABLE, 0, 0, colour_names, &recolour, &has_recolour},
	};
	if (js_fields(obj, at, f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	if (has_screen + has_admit + has_morgue != 1) {
		set_err(err, at,
		        "a step is exactly one of {\"screen\": ward}, {\"admit\": …}, "
		        "{\"morgue\": \"die\"|\"extra\"}");
		return -1;
	}
	if (!has_admit && (has_ward || has_value || (has_recolour && recolour >= 0))) {
		/* {"morgue": "die", "ward": 3} would silently drop the ward: refuse it */
		char field[256];
		jptr(field, sizeof field, "%s/%s", at,
		     has_ward    ? "ward"
		     : has_value ? "value"
		                 : "recolour");
		set_err(err, field, "belongs to an admission step ({\"admit\": …}) only");
		return -1;
	}
	memset(out, 0, sizeof *out);
	out->recolour = ER_NO_COLOUR;
	if (has_screen) {
		out->kind = ER_STEP_SCREEN;
		out->ward = (int8_t)(screen - 1);
		return 0;
	}
	if (has_morgue) {
		out->kind = ER_STEP_MORGUE;
		out->patient = (er_pt)morgue;
		return 0;
	}
	if (!has_ward || !has_value) {
		char field[256];
		jptr(field, sizeof field, "%s/%s", at, has_ward ? "value" : "ward");
		set_err(err, field, "an admission needs \"ward\" (1–7) and \"value\"");
		return -1;
	}
	out->kind = ER_STEP_ADMIT;
	out->patient = (er_pt)admit;
	out->ward = (int8_t)(ward - 1);
	out->value = (int8_t)value;
	out->recolour = recolour < 0 ? ER_NO_COLOUR : (er_colour)recolour;
	return 0;
}

int er_json_move_parse(json_object *obj, const char *at, er_move *out, js_error *err)
{
	int die = -1;
	json_object *steps = NULL;
	char field[256];
	const js_field f[] = {
	    {"die", JS_ENUM, JS_F_REQUIRED, 0, 0, colour_names, &die, NULL},
	    {"steps", JS_ARRAY, JS_F_REQUIRED, 0, ER_MAX_STEPS, NULL, &steps, NULL},
	};
	if (js_fields(obj, at, f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	memset(out, 0, sizeof *out);
	out->die = (er_colour)die;
	out->nsteps = (int)json_object_array_length(steps);
	for (int i = 0; i < out->nsteps; i++) {
		jptr(field, sizeof field, "%s/steps/%d", at, i);
		if (parse_step(json_object_array_get_idx(steps, (size_t)i), field, &out->steps[i],
		               err) != 0)
			return -1;
	}
	return 0;
}

json_object *er_json_move(const er_move *m)
{
	json_object *o = jx_obj();
	jx_set(o, "die", jx_str(colour_names[m->die]));
	json_object *steps = jx_arr();
	for (int i = 0; i < m->nsteps; i++) {
		const er_step *s = &m->steps[i];
		json_object *so = jx_obj();
		switch (s->kind) {
		case ER_STEP_SCREEN:
			jx_set(so, "screen", jx_int(s->ward + 1));
			break;
		case ER_STEP_MORGUE:
			jx_set(so, "morgue", jx_str(patient_names[s->patient]));
			break;
		case ER_STEP_ADMIT:
			jx_set(so, "admit", jx_str(patient_names[s->patient]));
			jx_set(so, "ward", jx_int(s->ward + 1));
			jx_set(so, "value", jx_int(s->value));
			jx_set(so, "recolour",
			       s->recolour == ER_NO_COLOUR ? NULL
			                                   : jx_str(colour_names[s->recolour]));
			break;
		}
		jx_push(steps, so);
	}
	jx_set(o, "steps", steps);
	return o;
}

int er_json_modifiers_parse(json_object *arr, const char *at, unsigned *out, js_error *err)
{
	char field[256];
	*out = 0;
	size_t n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		int idx = -1;
		jptr(field, sizeof field, "%s/%zu", at, i);
		const js_field spec = {"", JS_ENUM,        JS_F_REQUIRED, 0,
		                       0,  modifier_names, &idx,          NULL};
		if (js_value(json_object_array_get_idx(arr, i), field, &spec, err) != 0)
			return -1;
		if (*out & (1u << idx)) {
			set_err(err, field, "a modifier is listed twice");
			return -1;
		}
		*out |= 1u << idx;
	}
	return 0;
}

json_object *er_json_modifiers(unsigned mods)
{
	json_object *a = jx_arr();
	for (int i = 0; modifier_names[i]; i++)
		if (mods & (1u << i))
			jx_push(a, jx_str(modifier_names[i]));
	return a;
}

json_object *er_json_breakdown(const er_breakdown *b)
{
	json_object *o = jx_obj();
	jx_set(o, "filled_wards", jx_int(b->filled_wards));
	jx_set(o, "critical", jx_int(b->critical));
	jx_set(o, "nurses", jx_int(b->nurses));
	jx_set(o, "cardiologists", jx_int(b->cardiologists));
	jx_set(o, "radiologist", jx_int(b->radiologist));
	jx_set(o, "epidemiologist", jx_int(b->epidemiologist));
	jx_set(o, "morgue", jx_int(b->morgue));
	jx_set(o, "modifiers", jx_int(b->modifiers));
	return o;
}

void er_json_modifiers_text(jw *w, unsigned mods)
{
	jw_arr(w);
	for (int i = 0; modifier_names[i]; i++)
		if (mods & (1u << i))
			jw_str(w, modifier_names[i]);
	jw_arr_end(w);
}

void er_json_breakdown_text(jw *w, const er_breakdown *b)
{
	jw_obj(w);
	jw_kint(w, "filled_wards", b->filled_wards);
	jw_kint(w, "critical", b->critical);
	jw_kint(w, "nurses", b->nurses);
	jw_kint(w, "cardiologists", b->cardiologists);
	jw_kint(w, "radiologist", b->radiologist);
	jw_kint(w, "epidemiologist", b->epidemiologist);
	jw_kint(w, "morgue", b->morgue);
	jw_kint(w, "modifiers", b->modifiers);
	jw_obj_end(w);
}

/* Appends the beds of mask as [{"ward","bed"},…] (1-based, bed order) to buf at *n. */
static void bed_list_text(const er_data *d, uint32_t mask, char *buf, size_t size, size_t *n)
{
	bool first = true;
	buf[(*n)++] = '[';
	for (int b = 0; b < ER_BEDS; b++) {
		if (!(mask & (1u << b)))
			continue;
		*n += (size_t)snprintf(buf + *n, size - *n, "%s{\"ward\":%d,\"bed\":%d}",
		                       first ? "" : ",", d->beds[b].ward + 1, d->beds[b].pos + 1);
		first = false;
	}
	buf[(*n)++] = ']';
}

char *er_json_score_text(const er_data *d, const er_breakdown *b, const er_details *det,
                         size_t *len)
{
	/* 32 beds in 4 lists of at most 19 bytes each, plus the numbers: well under 4 KiB */
	enum { SIZE = 4096 };
	char *buf = xmalloc(SIZE);
	size_t n = (size_t)snprintf(
	    buf, SIZE,
	    "{\"total\":%d,\"breakdown\":{\"filled_wards\":%d,\"critical\":%d,\"nurses\":%d,"
	    "\"cardiologists\":%d,\"radiologist\":%d,\"epidemiologist\":%d,\"morgue\":%d,"
	    "\"modifiers\":%d},\"details\":{\"filled_wards\":",
	    b->total, b->filled_wards, b->critical, b->nurses, b->cardiologists, b->radiologist,
	    b->epidemiologist, b->morgue, b->modifiers);
	bed_list_text(d, det->filled_wards, buf, SIZE, &n);
	n += (size_t)snprintf(buf + n, SIZE - n, ",\"critical\":");
	bed_list_text(d, det->critical, buf, SIZE, &n);
	n += (size_t)snprintf(buf + n, SIZE - n, ",\"radiologist\":");
	bed_list_text(d, det->radiologist, buf, SIZE, &n);
	n += (size_t)snprintf(buf + n, SIZE - n, ",\"epidemiologist\":");
	bed_list_text(d, det->epidemiologist, buf, SIZE, &n);
	if (det->nurse_space < 0)
		n += (size_t)snprintf(buf + n, SIZE - n, ",\"nurse_space\":null}}");
	else
		n += (size_t)snprintf(buf + n, SIZE - n, ",\"nurse_space\":%d}}",
		                      det->nurse_space + 1);
	*len = n;
	return buf;
}

json_object *er_json_option(const er_option *op)
{
	json_object *o = jx_obj();
	jx_set(o, "die", jx_str(colour_names[op->die]));
	jx_set(o, "patient", jx_str(patient_names[op->patient]));
	jx_set(o, "ward", jx_int(op->ward + 1));
	jx_set(o, "value", jx_int(op->value));
	jx_set(o, "stethoscopes", jx_int(op->stethoscopes));
	jx_set(o, "blood_bags", jx_int(op->blood_bags));
	jx_set(o, "recolour",
	       op->recolour == ER_NO_COLOUR ? NULL : jx_str(colour_names[op->recolour]));
	jx_set(o, "screen_first", jx_bool(op->screen_first));
	return o;
}

int er_json_specialist(const er_data *d, json_object *v, const char *at, er_spec_kind kind,
                       bool nullable, er_spec_id *out, js_error *err)
{
	static const char *const kinds[] = {"Cardiologist", "Radiologist", "Epidemiologist"};
	char detail[256];
	*out = ER_SPEC_NONE;
	if (v == NULL || json_object_is_type(v, json_type_null)) {
		if (nullable)
			return 0;
		snprintf(detail, sizeof detail, "must be a %s id (see GET /api/v1/er/data)",
		         kinds[kind]);
		set_err(err, at, detail);
		return -1;
	}
	if (!json_object_is_type(v, json_type_string)) {
		set_err(err, at,
		        nullable ? "must be a specialist id (a string) or null"
		                 : "must be a specialist id (a string)");
		return -1;
	}
	er_spec_id id = er_spec_from_code(d, json_object_get_string(v));
	if (id == ER_SPEC_NONE || d->specialists[id].kind != kind) {
		snprintf(detail, sizeof detail, "is not a %s id (see GET /api/v1/er/data)",
		         kinds[kind]);
		set_err(err, at, detail);
		return -1;
	}
	*out = id;
	return 0;
}
