/* The coach's PDF:
 *
 *   GET /api/v1/er/games/{id}/seats/{seat}/analysis.pdf[?width=N&paper=a4|letter&lang=en|fr]
 *
 * The stored analysis document (what GET …/analysis replies: er_coach_analysis_get) read with
 * json-c into the page's data (pdf.h pdf_er_coach), so the page depends on the document alone,
 * never on the search. Any token of the game reads it; the replies before there is one are the
 * analysis's own (202 while its search runs, 400 width, 404, 409 game-not-finished, 422
 * bot-seat). A heavy route. */
#include "games/er/coach_pdf.h"

#include "base/oom.h"
#include "engine/table.h"
#include "games/er/coach_api.h"
#include "games/er/data.h"
#include "games/er/json.h"
#include "games/er/kind.h"
#include "json/spec.h"
#include "rules/er_game.h"
#include "pdf/serve.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int get_int(json_object *o, const char *key, int dflt)
{
	json_object *v = get(o, key);
	return v && json_object_is_type(v, json_type_int) ? json_object_get_int(v) : dflt;
}

static const char *const CATEGORY[] = {"filled_wards", "critical",       "nurses", "cardiologists",
                                       "radiologist",  "epidemiologist", "morgue", NULL};
static const pdf_label CATEGORY_LABEL[] = {PL_FILLED_WARDS,  PL_CRITICAL,    PL_NURSES,
                                           PL_CARDIOLOGISTS, PL_RADIOLOGIST, PL_EPIDEMIOLOGIST,
                                           PL_MORGUE};

static int parse_side(const er_data *d, json_object *side, const char *at, er_sheet *sheet,
                      er_breakdown *b, char *err, size_t errlen)
{
	json_object *bd = get(side, "breakdown");
	if (!json_object_is_type(side, json_type_object) ||
	    !json_object_is_type(bd, json_type_object)) {
		snprintf(err, errlen, "%s: no breakdown", at);
		return -1;
	}
	*b = (er_breakdown){.filled_wards = get_int(bd, "filled_wards", 0),
	                    .critical = get_int(bd, "critical", 0),
	                    .nurses = get_int(bd, "nurses", 0),
	                    .cardiologists = get_int(bd, "cardiologists", 0),
	                    .radiologist = get_int(bd, "radiologist", 0),
	                    .epidemiologist = get_int(bd, "epidemiologist", 0),
	                    .morgue = get_int(bd, "morgue", 0),
	                    .modifiers = get_int(bd, "modifiers", 0),
	                    .total = get_int(side, "total", 0)};
	/* the PDF's score row subtracts the morgue as the paper does: a count of patients */
	if (b->morgue < 0)
		b->morgue = -b->morgue;
	char where[64];
	snprintf(where, sizeof where, "%s/sheet", at);
	const char *rule = NULL;
	js_error jerr = {0};
	if (er_json_sheet_parse(d, get(side, "sheet"), where, false, 0, sheet, &rule, &jerr) != 0) {
		snprintf(err, errlen, "%s: %s", where, rule ? rule : "not a sheet");
		return -1;
	}
	return 0;
}

/* The row of one step: its best move's die, the admission the coach names (to the ward of
 * `missed`, else the first), the category that cost the most. */
static void parse_turn(json_object *st, pdf_er_coach_turn *t)
{
	json_object *bm = get(st, "best_move"), *missed = get(st, "missed");
	json_object *dice = get(get(st, "turn_info"), "dice");
	const char *die = json_object_get_string(get(bm, "die"));
	*t = (pdf_er_coach_turn){.turn = get_int(st, "turn", 0),
	                         .cost = get_int(st, "cost", 0),
	                         .die = er_colour_from_name(die ? die : "red"),
	                         .rolled = get_int(dice, die ? die : "red", 0),
	                         .missed_label = -1};
	int want = get_int(missed, "ward", 0);
	json_object *steps = get(bm, "steps");
	size_t n =
	    json_object_is_type(steps, json_type_array) ? json_object_array_length(steps) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(steps, i);
		if (!get(s, "admit"))
			continue;
		int ward = get_int(s, "ward", 0);
		if (t->ward == 0 || ward == want) {
			t->ward = ward;
			t->value = get_int(s, "value", 0);
		}
		if (ward == want)
			break;
	}
	const char *cat = json_object_get_string(get(missed, "category"));
	for (int k = 0; cat && CATEGORY[k]; k++)
		if (strcmp(cat, CATEGORY[k]) == 0) {
			t->missed_label = (int)CATEGORY_LABEL[k];
			t->missed_points = get_int(missed, "points", 0);
		}
}

int er_coach_print_parse(const er_data *d, json_object *a, er_coach_print *out, char *err,
                         size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (!json_object_is_type(a, json_type_object)) {
		snprintf(err, errlen, "the analysis is not an object");
		return -1;
	}
	if (parse_side(d, get(a, "player"), "/player", &out->mine, &out->mine_score, err, errlen) !=
	        0 ||
	    parse_side(d, get(a, "best"), "/best", &out->best, &out->best_score, err, errlen) != 0)
		return -1;
	pdf_er_coach *c = &out->c;
	c->mine = &out->mine;
	c->best = &out->best;
	c->mine_score = &out->mine_score;
	c->best_score = &out->best_score;
	c->seat = get_int(a, "seat", 0);
	c->width = get_int(a, "width", 0);
	c->turns = get_int(a, "turns", 0);
	c->searched = get_int(a, "searched_turns", c->turns);
	json_object *complete = get(a, "complete");
	c->complete = complete == NULL || json_object_get_boolean(complete);
	/* the three costliest turns, the costliest first, the earlier on a tie */
	json_object *steps = get(a, "steps");
	size_t n =
	    json_object_is_type(steps, json_type_array) ? json_object_array_length(steps) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *st = json_object_array_get_idx(steps, i);
		json_object *cost = get(st, "cost");
		if (!json_object_is_type(cost, json_type_int) || json_object_get_int(cost) <= 0)
			continue;
		pdf_er_coach_turn t;
		parse_turn(st, &t);
		int at = c->nturns;
		while (at > 0 && (c->top[at - 1].cost < t.cost ||
		                  (c->top[at - 1].cost == t.cost && c->top[at - 1].turn > t.turn)))
			at--;
		if (at >= 3)
			continue;
		int last = c->nturns < 3 ? c->nturns : 2;
		memmove(&c->top[at + 1], &c->top[at], (size_t)(last - at) * sizeof c->top[0]);
		c->top[at] = t;
		if (c->nturns < 3)
			c->nturns++;
	}
	return 0;
}

/* The page of the analysis text (taken and freed) for the loaded game's seat. */
static int reply_page(const http_req *req, http_resp *resp, const table_view *v, int seat,
                      char *text, pdf_paper paper, pdf_lang lang)
{
	json_object *a = json_tokener_parse(text);
	free(text);
	er_coach_print *cp = xmalloc(sizeof *cp);
	char err[128] = "";
	if (er_coach_print_parse(er_api_data(), a, cp, err, sizeof err) != 0) {
		json_object_put(a);
		free(cp);
		return http_reply_problem(resp, 500, "the analysis could not be read", NULL, NULL);
	}
	json_object_put(a);
	char date[16], fragment[128], link[512], title[PDF_LABEL_MAX + 80];
	snprintf(date, sizeof date, "%.10s", v->created_at ? v->created_at : "");
	snprintf(fragment, sizeof fragment, "game=%s&join=%s", v->id, v->code ? v->code : "");
	pdf_api_link(req, fragment, link, sizeof link);
	cp->c.player = v->names[seat - 1];
	cp->c.seat = seat;
	cp->c.game = v->id;
	cp->c.date = date;
	cp->c.link = link;
	snprintf(title, sizeof title, "%s — %s", pdf_api_print()->labels[lang][PL_COACH_TITLE],
	         v->names[seat - 1]);
	pdf_doc *doc =
	    pdf_doc_begin(er_api_data(), pdf_api_print(), paper, lang, title, time(NULL));
	if (doc != NULL)
		pdf_er_coach_page(doc, &cp->c);
	free(cp);
	return pdf_api_finish(resp, doc, true, "er-coach.pdf");
}

int api_er_analysis_pdf(const http_req *req, http_resp *resp)
{
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	int width;
	if (!http_query_number(req, resp, "width", 0, 1, ER_COACH_MAX_WIDTH, ER_COACH_RULE_WIDTH,
	                       &width))
		return 0;
	/* anyone who may read the game may read its analysis (any token of the game) */
	table_game *tg = table_load_for_read(req, resp, &er_table_kind, req->params[0]);
	if (tg == NULL)
		return 0;
	table_view v;
	table_game_view(tg, &v);
	int seat = http_whole_number(req->params[1], 1, v.nseats);
	if (seat < 0) {
		table_game_free(tg);
		return http_reply_problem(resp, 404, "no such seat in this game",
		                          ER_RULE_NO_SUCH_SEAT, NULL);
	}
	char *text = NULL;
	int rc = 0;
	if (er_coach_analysis_get(req->params[0], seat, width, resp, &text))
		rc = reply_page(req, resp, &v, seat, text, paper, lang);
	table_game_free(tg);
	return rc;
}
