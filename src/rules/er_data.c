/* ER game data: loading templates/er/{sheet,cards,specialists}.json into er_data.
 * Pure: the caller parses the files; this only reads the borrowed json-c objects. Every value is
 * type-checked before use (json-c's getters coerce silently). */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json/spec.h"
#include "rules/er.h"

static const char *const colour_names[] = {"red", "yellow", "green", "wild"};
static const char *const bonus_names[] = {"stethoscopes", "blood_bag", "screen",
                                          "critical",     "nurse",     "extra"};
/* Codes of er_spec_id in enum order: the only place the C side names them, to map the
 * template's stable string ids onto the rules implemented in C. */
static const char *const spec_codes[ER_SPECIALISTS] = {
    "stethoscopes-8",   "surround-xray",       "nurses-3",           "blood-bags-4",
    "all-wards",        "fill-2-wards",        "xray-critical-half", "xray-extreme-total",
    "xray-high-values", "xray-opposite-pairs", "xray-matching-set",  "sequence-1-6",
    "line-of-3",        "largest-group",       "most-least-common",  "odd-even-triangles",
};
static const char *const kind_names[] = {"cardiologist", "radiologist", "epidemiologist"};

const char *er_colour_name(er_colour c)
{
	if (c < ER_RED || c > ER_WILD)
		return NULL;
	return colour_names[c];
}

er_colour er_colour_from_name(const char *s)
{
	if (!s)
		return ER_NO_COLOUR;
	for (int i = 0; i <= ER_WILD; i++)
		if (strcmp(s, colour_names[i]) == 0)
			return (er_colour)i;
	return ER_NO_COLOUR;
}

const char *er_bonus_name(er_bonus_kind k)
{
	if ((int)k < 0 || (int)k > ER_BONUS_EXTRA)
		return NULL;
	return bonus_names[k];
}

int er_bed_index(const er_data *d, int ward, int pos)
{
	if (!d || ward < 0 || ward >= ER_WARDS || pos < 0 || pos >= d->wards[ward].nbeds)
		return -1;
	return d->wards[ward].first_bed + pos;
}

er_spec_id er_spec_from_code(const er_data *d, const char *code)
{
	if (!code)
		return ER_SPEC_NONE;
	for (int i = 0; i < ER_SPECIALISTS; i++) {
		const char *c = d ? d->specialists[i].code : spec_codes[i];
		if (strcmp(c, code) == 0)
			return (er_spec_id)i;
	}
	return ER_SPEC_NONE;
}

/* ---- strict getters ---- */

typedef struct {
	char *buf;
	size_t len;
} errbuf;

static int fail(errbuf *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(errbuf *e, const char *fmt, ...)
{
	if (e->buf && e->len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->buf, e->len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Integer member within [lo, hi]. */
static int get_int(errbuf *e, json_object *o, const char *at, const char *key, int lo, int hi,
                   int *out)
{
	json_object *v = js_member(o, key, json_type_int);
	if (!v)
		return fail(e, "%s/%s: missing or not an integer", at, key);
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return fail(e, "%s/%s: %lld out of range [%d, %d]", at, key, (long long)x, lo, hi);
	*out = (int)x;
	return 0;
}

static int int_elem(errbuf *e, json_object *arr, size_t i, const char *at, int lo, int hi, int *out)
{
	json_object *v = json_object_array_get_idx(arr, i);
	if (!v || !json_object_is_type(v, json_type_int))
		return fail(e, "%s/%zu: not an integer", at, i);
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return fail(e, "%s/%zu: %lld out of range [%d, %d]", at, i, (long long)x, lo, hi);
	*out = (int)x;
	return 0;
}

static json_object *get_array(errbuf *e, json_object *o, const char *at, const char *key, size_t n)
{
	json_object *v = js_member(o, key, json_type_array);
	if (!v) {
		fail(e, "%s/%s: missing or not an array", at, key);
		return NULL;
	}
	if (n != (size_t)-1 && json_object_array_length(v) != n) {
		fail(e, "%s/%s: expected %zu elements, got %zu", at, key, n,
		     json_object_array_length(v));
		return NULL;
	}
	return v;
}

static const char *get_str(errbuf *e, json_object *o, const char *at, const char *key)
{
	json_object *v = js_member(o, key, json_type_string);
	if (!v) {
		fail(e, "%s/%s: missing or not a string", at, key);
		return NULL;
	}
	return json_object_get_string(v);
}

static json_object *get_obj(errbuf *e, json_object *o, const char *at, const char *key)
{
	json_object *v = js_member(o, key, json_type_object);
	if (!v)
		fail(e, "%s/%s: missing or not an object", at, key);
	return v;
}

/* ---- sheet.json ---- */

static int load_sheet(er_data *d, json_object *sheet, errbuf *e)
{
	if (!sheet || !json_object_is_type(sheet, json_type_object))
		return fail(e, "sheet: not an object");
	json_object *wards = get_array(e, sheet, "sheet", "wards", ER_WARDS);
	if (!wards)
		return -1;
	int nbed = 0;
	for (int w = 0; w < ER_WARDS; w++) {
		char at[64];
		snprintf(at, sizeof at, "sheet/wards/%d", w);
		json_object *wo = json_object_array_get_idx(wards, (size_t)w);
		if (!wo || !json_object_is_type(wo, json_type_object))
			return fail(e, "%s: not an object", at);
		int num, clip;
		if (get_int(e, wo, at, "ward", w + 1, w + 1, &num) ||
		    get_int(e, wo, at, "clipboard", 0, 100, &clip))
			return -1;
		json_object *beds = get_array(e, wo, at, "beds", (size_t)-1);
		if (!beds)
			return -1;
		size_t nb = json_object_array_length(beds);
		if (nb < 1 || nb > ER_MAX_BEDS)
			return fail(e, "%s/beds: %zu beds, expected 1..%d", at, nb, ER_MAX_BEDS);
		if (nbed + (int)nb > ER_BEDS)
			return fail(e, "sheet/wards: more than %d beds", ER_BEDS);
		d->wards[w].nbeds = (int)nb;
		d->wards[w].clipboard = clip;
		d->wards[w].first_bed = nbed;
		for (size_t p = 0; p < nb; p++) {
			char bat[96];
			snprintf(bat, sizeof bat, "%s/beds/%zu", at, p);
			json_object *bo = json_object_array_get_idx(beds, p);
			int hex;
			if (!bo || !json_object_is_type(bo, json_type_object))
				return fail(e, "%s: not an object", bat);
			if (get_int(e, bo, bat, "hex", 0, 599, &hex))
				return -1;
			const char *cs = get_str(e, bo, bat, "colour");
			if (!cs)
				return -1;
			er_colour c = er_colour_from_name(cs);
			if (c == ER_NO_COLOUR)
				return fail(e, "%s/colour: unknown colour \"%s\"", bat, cs);
			for (int j = 0; j < nbed; j++)
				if (d->beds[j].hex == hex)
					return fail(e, "%s/hex: %d used twice", bat, hex);
			d->beds[nbed] = (er_bed){
			    .hex = (int16_t)hex, .colour = c, .ward = (int8_t)w, .pos = (int8_t)p};
			nbed++;
		}
	}
	if (nbed != ER_BEDS)
		return fail(e, "sheet/wards: %d beds, expected %d", nbed, ER_BEDS);

	json_object *grid = get_obj(e, sheet, "sheet", "grid");
	if (!grid)
		return -1;
	json_object *offs = get_obj(e, grid, "sheet/grid", "neighbour_offsets");
	if (!offs)
		return -1;
	json_object *ev = get_array(e, offs, "sheet/grid/neighbour_offsets", "even", 6);
	if (!ev)
		return -1;
	json_object *od = get_array(e, offs, "sheet/grid/neighbour_offsets", "odd", 6);
	if (!od)
		return -1;
	for (size_t i = 0; i < 6; i++) {
		int a, b;
		if (int_elem(e, ev, i, "sheet/grid/neighbour_offsets/even", -101, 101, &a) ||
		    int_elem(e, od, i, "sheet/grid/neighbour_offsets/odd", -101, 101, &b))
			return -1;
		d->neighbour_even[i] = (int16_t)a;
		d->neighbour_odd[i] = (int16_t)b;
	}

	json_object *labs = get_array(e, sheet, "sheet", "xray_labs", ER_LABS);
	if (!labs)
		return -1;
	for (int l = 0; l < ER_LABS; l++) {
		char at[64];
		snprintf(at, sizeof at, "sheet/xray_labs/%d", l);
		json_object *lo = json_object_array_get_idx(labs, (size_t)l);
		int hex;
		if (!lo || !json_object_is_type(lo, json_type_object))
			return fail(e, "%s: not an object", at);
		if (get_int(e, lo, at, "hex", 0, 599, &hex))
			return -1;
		for (int j = 0; j < ER_BEDS; j++)
			if (d->beds[j].hex == hex)
				return fail(e, "%s/hex: %d is a bed", at, hex);
		d->lab_hex[l] = (int16_t)hex;
	}

	json_object *nt = get_array(e, sheet, "sheet", "nurse_track", ER_NURSE_SPACES);
	if (!nt)
		return -1;
	for (size_t i = 0; i < ER_NURSE_SPACES; i++) {
		int v;
		if (int_elem(e, nt, i, "sheet/nurse_track", 0, 1000, &v))
			return -1;
		if (i > 0 && v <= d->nurse_track[i - 1])
			return fail(e, "sheet/nurse_track/%zu: not increasing", i);
		d->nurse_track[i] = v;
	}

	json_object *st = get_obj(e, sheet, "sheet", "stethoscopes");
	json_object *bb = st ? get_obj(e, sheet, "sheet", "blood_bags") : NULL;
	json_object *mg = bb ? get_obj(e, sheet, "sheet", "morgue") : NULL;
	json_object *tu = mg ? get_obj(e, sheet, "sheet", "turns") : NULL;
	json_object *al = tu ? get_obj(e, sheet, "sheet", "alicat") : NULL;
	json_object *prep = al ? get_obj(e, al, "sheet/alicat", "preparation") : NULL;
	if (!prep)
		return -1;
	if (get_int(e, st, "sheet/stethoscopes", "start", 0, 100, &d->start_stethoscopes) ||
	    get_int(e, st, "sheet/stethoscopes", "per_bonus", 1, 100, &d->steth_per_bonus) ||
	    get_int(e, bb, "sheet/blood_bags", "per_bonus", 1, 100, &d->blood_per_bonus) ||
	    get_int(e, prep, "sheet/alicat/preparation", "stethoscopes", 0, 100,
	            &d->alicat_prep_steth) ||
	    get_int(e, prep, "sheet/alicat/preparation", "blood_bags", 0, 100,
	            &d->alicat_prep_blood) ||
	    get_int(e, mg, "sheet/morgue", "boxes", 0, 100, &d->morgue_boxes) ||
	    get_int(e, tu, "sheet/turns", "default", 1, 1000, &d->turns_default) ||
	    get_int(e, tu, "sheet/turns", "five_players", 1, 1000, &d->turns_five_players) ||
	    get_int(e, al, "sheet/alicat", "start_nurses", 0, ER_NURSE_SPACES,
	            &d->alicat_start_nurses) ||
	    get_int(e, al, "sheet/alicat", "max_extra_nurses", 0, ER_NURSE_SPACES,
	            &d->alicat_max_extra_nurses))
		return -1;
	return 0;
}

/* ---- cards.json ---- */

static int load_bonus(er_bonus *b, json_object *bo, const char *at, errbuf *e)
{
	if (!bo || !json_object_is_type(bo, json_type_object))
		return fail(e, "%s: missing or not an object", at);
	const char *bs = get_str(e, bo, at, "bonus");
	if (!bs)
		return -1;
	int k = -1;
	for (int i = 0; i <= ER_BONUS_EXTRA; i++)
		if (strcmp(bs, bonus_names[i]) == 0)
			k = i;
	if (k < 0)
		return fail(e, "%s/bonus: unknown bonus \"%s\"", at, bs);
	*b = (er_bonus){.kind = (er_bonus_kind)k, .extra_colour = ER_NO_COLOUR};
	if (k != ER_BONUS_EXTRA)
		return 0;
	const char *cs = get_str(e, bo, at, "colour");
	if (!cs)
		return -1;
	er_colour c = er_colour_from_name(cs);
	if (c < ER_RED || c > ER_GREEN)
		return fail(e, "%s/colour: \"%s\" is not a die colour", at, cs);
	json_object *vals = get_array(e, bo, at, "values", 2);
	if (!vals)
		return -1;
	char vat[128];
	snprintf(vat, sizeof vat, "%s/values", at);
	int v0, v1;
	if (int_elem(e, vals, 0, vat, 1, 6, &v0) || int_elem(e, vals, 1, vat, 1, 6, &v1))
		return -1;
	if (v0 == v1)
		return fail(e, "%s: the two values are equal", vat);
	b->extra_colour = c;
	b->extra_values[0] = (int8_t)(v0 < v1 ? v0 : v1);
	b->extra_values[1] = (int8_t)(v0 < v1 ? v1 : v0);
	return 0;
}

static int load_cards(er_data *d, json_object *cards, errbuf *e)
{
	if (!cards || !json_object_is_type(cards, json_type_object))
		return fail(e, "cards: not an object");
	json_object *dice = get_array(e, cards, "cards", "dice", ER_DICE);
	if (!dice)
		return -1;
	for (size_t i = 0; i < ER_DICE; i++) {
		json_object *v = json_object_array_get_idx(dice, i);
		if (!v || !json_object_is_type(v, json_type_string) ||
		    er_colour_from_name(json_object_get_string(v)) != (er_colour)i)
			return fail(e, "cards/dice/%zu: expected \"%s\"", i, colour_names[i]);
	}
	json_object *arr = get_array(e, cards, "cards", "cards", ER_CARDS);
	if (!arr)
		return -1;
	for (int i = 0; i < ER_CARDS; i++) {
		char at[64];
		snprintf(at, sizeof at, "cards/cards/%d", i);
		json_object *co = json_object_array_get_idx(arr, (size_t)i);
		if (!co || !json_object_is_type(co, json_type_object))
			return fail(e, "%s: not an object", at);
		if (get_int(e, co, at, "id", i + 1, i + 1, &d->cards[i].id))
			return -1;
		char bat[80];
		snprintf(bat, sizeof bat, "%s/bays", at);
		json_object *bays = get_obj(e, co, at, "bays");
		if (!bays)
			return -1;
		if (json_object_object_length(bays) != ER_DICE)
			return fail(e, "%s: expected exactly %d bays", bat, ER_DICE);
		for (int c = 0; c < ER_DICE; c++) {
			char cat[96];
			snprintf(cat, sizeof cat, "%s/%s", bat, colour_names[c]);
			if (load_bonus(&d->cards[i].bay[c],
			               js_member(bays, colour_names[c], json_type_object), cat, e))
				return -1;
		}
	}
	return 0;
}

/* ---- specialists.json ---- */

static int load_specialists(er_data *d, json_object *sp, errbuf *e)
{
	if (!sp || !json_object_is_type(sp, json_type_object))
		return fail(e, "specialists: not an object");
	json_object *arr = get_array(e, sp, "specialists", "specialists", ER_SPECIALISTS);
	if (!arr)
		return -1;
	bool seen[ER_SPECIALISTS] = {false};
	for (int i = 0; i < ER_SPECIALISTS; i++) {
		char at[64];
		snprintf(at, sizeof at, "specialists/specialists/%d", i);
		json_object *so = json_object_array_get_idx(arr, (size_t)i);
		if (!so || !json_object_is_type(so, json_type_object))
			return fail(e, "%s: not an object", at);
		const char *code = get_str(e, so, at, "id");
		const char *kind = code ? get_str(e, so, at, "kind") : NULL;
		if (!kind)
			return -1;
		er_spec_id id = er_spec_from_code(NULL, code);
		if (id == ER_SPEC_NONE)
			return fail(e, "%s/id: unknown specialist \"%s\"", at, code);
		if (seen[id])
			return fail(e, "%s/id: \"%s\" listed twice", at, code);
		seen[id] = true;
		er_spec_kind k = id <= ER_CARDIO_FILL_2_WARDS  ? ER_KIND_CARDIOLOGIST
		                 : id <= ER_RADIO_MATCHING_SET ? ER_KIND_RADIOLOGIST
		                                               : ER_KIND_EPIDEMIOLOGIST;
		if (strcmp(kind, kind_names[k]) != 0)
			return fail(e, "%s/kind: \"%s\" should be \"%s\"", at, kind, kind_names[k]);
		er_specialist *s = &d->specialists[id];
		s->id = id;
		s->kind = k;
		snprintf(s->code, sizeof s->code, "%s", code);
		s->alicat_points = 0;
		if (k != ER_KIND_CARDIOLOGIST &&
		    get_int(e, so, at, "alicat_points", 0, 100, &s->alicat_points))
			return -1;
	}
	return 0;
}

int er_data_from_json(er_data *out, struct json_object *sheet, struct json_object *cards,
                      struct json_object *specialists, char *err, size_t errlen)
{
	errbuf e = {err, errlen};
	if (err && errlen)
		err[0] = '\0';
	if (!out)
		return fail(&e, "no output");
	er_data d;
	memset(&d, 0, sizeof d);
	if (load_sheet(&d, sheet, &e) || load_cards(&d, cards, &e) ||
	    load_specialists(&d, specialists, &e))
		return -1;
	er_geom_build(&d);
	*out = d;
	return 0;
}
