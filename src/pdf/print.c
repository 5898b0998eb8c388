/* Loading templates/er/print.json (layout, colours, fonts, labels) and the specialists' texts. */
#include "pdf/pdf.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const label_keys[PL_COUNT] = {
    [PL_TITLE] = "title",
    [PL_SHEET] = "sheet",
    [PL_PLAYER] = "player",
    [PL_DATE] = "date",
    [PL_LOBBY] = "lobby",
    [PL_XRAY] = "xray",
    [PL_WARD] = "ward",
    [PL_STETHOSCOPES] = "stethoscopes",
    [PL_BLOOD_BAGS] = "blood_bags",
    [PL_NURSES] = "nurses",
    [PL_MORGUE] = "morgue",
    [PL_SCORE] = "score",
    [PL_FILLED_WARDS] = "filled_wards",
    [PL_CRITICAL] = "critical",
    [PL_CARDIOLOGISTS] = "cardiologists",
    [PL_RADIOLOGIST] = "radiologist",
    [PL_EPIDEMIOLOGIST] = "epidemiologist",
    [PL_TOTAL] = "total",
    [PL_SPECIALISTS] = "specialists",
    [PL_RANKING] = "ranking",
    [PL_RANK] = "rank",
    [PL_SEAT] = "seat",
    [PL_GAME] = "game",
    [PL_SCAN] = "scan",
    [PL_LEGEND] = "legend",
    [PL_MORGUE_EACH] = "morgue_each",
    [PL_AUTHOR] = "author",
    [PL_RED] = "red",
    [PL_YELLOW] = "yellow",
    [PL_GREEN] = "green",
    [PL_COACH_TITLE] = "coach_title",
    [PL_COACH_BEST] = "coach_best",
    [PL_COACH_NOTE] = "coach_note",
    [PL_COACH_PARTIAL] = "coach_partial",
    [PL_COACH_PARTIAL_NONE] = "coach_partial_none",
    [PL_COACH_COSTLIEST] = "coach_costliest",
    [PL_COACH_TURN] = "coach_turn",
    [PL_COACH_COST] = "coach_cost",
    [PL_COACH_MOVE] = "coach_move",
    [PL_COACH_MISSED] = "coach_missed",
    [PL_COACH_NONE] = "coach_none",
};

static const char *const colour_keys[PC_COUNT] = {"red",  "yellow", "green",
                                                  "wild", "lobby",  "xray"};
static const char *const lang_keys[PDF_LANGS] = {"en", "fr"};
static const char *const pattern_names[] = {"none", "diagonal", "dots", "grid"};

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* A string member copied into dst[size]: 0, or -1 when missing or too long. */
static int copy_str(json_object *o, const char *key, char *dst, size_t size)
{
	json_object *v = member(o, key);
	if (!json_object_is_type(v, json_type_string))
		return -1;
	const char *s = json_object_get_string(v);
	if (strlen(s) >= size)
		return -1;
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

/* A positive number member. */
static int number(json_object *o, const char *key, float *out)
{
	json_object *v = member(o, key);
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return -1;
	double x = json_object_get_double(v);
	if (!(x > 0 && x < 10000))
		return -1;
	*out = (float)x;
	return 0;
}

static int int_member(json_object *o, const char *key, int lo, int hi, int *out)
{
	json_object *v = member(o, key);
	if (!json_object_is_type(v, json_type_int))
		return -1;
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return -1;
	*out = (int)x;
	return 0;
}

static int rgb(json_object *o, const char *key, float out[3])
{
	json_object *a = member(o, key);
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) != 3)
		return -1;
	for (size_t i = 0; i < 3; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		if (!json_object_is_type(v, json_type_double) &&
		    !json_object_is_type(v, json_type_int))
			return -1;
		double x = json_object_get_double(v);
		if (x < 0 || x > 1)
			return -1;
		out[i] = (float)x;
	}
	return 0;
}

static int load_layout(pdf_print *p, json_object *l, char *err, size_t errlen)
{
	struct {
		const char *key;
		float *dst;
	} nums[] = {
	    {"margin", &p->margin},
	    {"hex_radius", &p->hex_radius},
	    {"grid_top", &p->grid_top},
	    {"write_circle", &p->write_circle},
	    {"pattern_step", &p->pattern_step},
	    {"wall_width", &p->wall_width},
	    {"box", &p->box},
	    {"ledger_row", &p->ledger_row},
	    {"score_box", &p->score_box},
	    {"qr_size", &p->qr_size},
	};
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
		if (number(l, nums[i].key, nums[i].dst) != 0)
			return fail(err, errlen, "print.json: layout.%s: a positive number",
			            nums[i].key);
	json_object *cb = member(l, "clipboards");
	if (!json_object_is_type(cb, json_type_array) || json_object_array_length(cb) != ER_WARDS)
		return fail(err, errlen, "print.json: layout.clipboards: one per ward");
	for (size_t i = 0; i < ER_WARDS; i++) {
		json_object *c = json_object_array_get_idx(cb, i);
		int ward;
		pdf_pos pos;
		if (int_member(c, "ward", 1, ER_WARDS, &ward) != 0 ||
		    int_member(c, "row", -2, 8, &pos.row) != 0 ||
		    int_member(c, "col", -2, 10, &pos.col) != 0)
			return fail(err, errlen,
			            "print.json: layout.clipboards[%zu]: ward, row, col", i);
		p->clipboard[ward - 1] = pos;
	}
	json_object *lobby = member(l, "lobby_hexes");
	if (!json_object_is_type(lobby, json_type_array) || json_object_array_length(lobby) < 1 ||
	    json_object_array_length(lobby) > PDF_MAX_LOBBY)
		return fail(err, errlen, "print.json: layout.lobby_hexes: 1 to %d hexes",
		            PDF_MAX_LOBBY);
	p->nlobby = (int)json_object_array_length(lobby);
	for (int i = 0; i < p->nlobby; i++)
		p->lobby[i] = (int16_t)json_object_get_int(json_object_array_get_idx(lobby, i));
	return 0;
}

static int load_colours(pdf_print *p, json_object *c, char *err, size_t errlen)
{
	for (int k = 0; k < PC_COUNT; k++) {
		json_object *o = member(c, colour_keys[k]);
		char pat[16];
		if (rgb(o, "fill", p->colours[k].fill) != 0 ||
		    rgb(o, "ink", p->colours[k].ink) != 0 ||
		    copy_str(o, "pattern", pat, sizeof pat) != 0)
			return fail(err, errlen, "print.json: colours.%s: fill, ink, pattern",
			            colour_keys[k]);
		int found = -1;
		for (int i = 0; i < (int)(sizeof pattern_names / sizeof pattern_names[0]); i++)
			if (strcmp(pat, pattern_names[i]) == 0)
				found = i;
		if (found < 0)
			return fail(err, errlen, "print.json: colours.%s.pattern: unknown \"%s\"",
			            colour_keys[k], pat);
		p->colours[k].pattern = (pdf_pattern)found;
	}
	return 0;
}

static int load_texts(pdf_print *p, json_object *labels, json_object *specs, char *err,
                      size_t errlen)
{
	for (int g = 0; g < PDF_LANGS; g++) {
		json_object *l = member(labels, lang_keys[g]);
		for (int k = 0; k < PL_COUNT; k++)
			if (copy_str(l, label_keys[k], p->labels[g][k], PDF_LABEL_MAX) != 0)
				return fail(err, errlen, "print.json: labels.%s.%s: a short string",
				            lang_keys[g], label_keys[k]);
	}
	json_object *arr = member(specs, "specialists");
	if (!json_object_is_type(arr, json_type_array) ||
	    json_object_array_length(arr) != ER_SPECIALISTS)
		return fail(err, errlen, "specialists.json: %d specialists", ER_SPECIALISTS);
	for (size_t i = 0; i < ER_SPECIALISTS; i++) {
		json_object *s = json_object_array_get_idx(arr, i);
		json_object *text = member(s, "text");
		for (int g = 0; g < PDF_LANGS; g++)
			if (copy_str(text, lang_keys[g], p->spec_text[g][i], PDF_TEXT_MAX) != 0)
				return fail(err, errlen, "specialists.json: [%zu].text.%s", i,
				            lang_keys[g]);
	}
	return 0;
}

static int load_labs(pdf_print *p, json_object *sheet, char *err, size_t errlen)
{
	json_object *labs = member(sheet, "xray_labs");
	if (!json_object_is_type(labs, json_type_array) ||
	    json_object_array_length(labs) != ER_LABS)
		return fail(err, errlen, "sheet.json: xray_labs: %d labs", ER_LABS);
	for (size_t i = 0; i < ER_LABS; i++)
		if (copy_str(json_object_array_get_idx(labs, i), "id", p->lab_names[i],
		             sizeof p->lab_names[i]) != 0)
			return fail(err, errlen, "sheet.json: xray_labs[%zu].id: a short string",
			            i);
	return 0;
}

int pdf_print_from_json(pdf_print *out, json_object *print, json_object *sheet,
                        json_object *specialists, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	json_object *fonts = member(print, "fonts");
	if (copy_str(fonts, "regular", out->font, PDF_PATH_MAX) != 0 ||
	    number(fonts, "bold_stroke", &out->bold_stroke) != 0)
		return fail(err, errlen,
		            "print.json: fonts.regular (a TrueType path), fonts.bold_stroke");
	if (load_layout(out, member(print, "layout"), err, errlen) != 0 ||
	    load_colours(out, member(print, "colours"), err, errlen) != 0 ||
	    load_texts(out, member(print, "labels"), specialists, err, errlen) != 0 ||
	    load_labs(out, sheet, err, errlen) != 0)
		return -1;
	return 0;
}

int pdf_paper_from_name(const char *s)
{
	if (s && strcmp(s, "a4") == 0)
		return PDF_A4;
	if (s && strcmp(s, "letter") == 0)
		return PDF_LETTER;
	return -1;
}

int pdf_lang_from_name(const char *s)
{
	for (int g = 0; s && g < PDF_LANGS; g++)
		if (strcmp(s, lang_keys[g]) == 0)
			return g;
	return -1;
}
