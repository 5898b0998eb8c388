/* Score pads of the games scored round by round (Dice Hospital, Clinic): a blank pad to write a
 * game on, and a game (finished or not) as a filled pad. A kind describes itself with a pad_kind
 * (games/dh/pad.c, games/clinic/pad.c); everything else is here.
 *
 *   GET /api/v1/{dh,clinic}/pads.pdf?paper=a4|letter&lang=en|fr&players=1..4
 *   GET /api/v1/{dh,clinic}/games/{id}/pad.pdf?paper=&lang=
 *
 * The rows are never listed here: they are the leaves of one seat's round entry and finish
 * entry as the kind's encoder writes them (the same encoder that stores the events of PUT
 * …/rounds/{n} and POST …/finish), so a new field of the digital entry is a new row of the pad,
 * and the start fails until templates/pads.json labels it in every language. */
#include "games/rounds/pads.h"

#include "pdf/serve.h"
#include "base/templates.h"
#include "base/log.h"
#include "base/oom.h"
#include "engine/table.h"
#include "json/spec.h"
#include "json/strtab.h"
#include "pdf/pdf.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	PAD_MAX_LEAVES = 32, /* fields of one entry */
	PAD_PTR = 64,        /* a field's JSON pointer */
	PAD_CELL = 40,       /* one written cell */
	PAD_GROUPS = 12,     /* rounds, the end of the game, the totals */
};

/* ---- labels (templates/pads.json, read-only after start) ---- */

static strtab g_labels; /* templates/pads.json; read-only after start */
static const char *const lang_keys[PDF_LANGS] = {"en", "fr"};
static const char *const common_keys[] = {"title",  "player",  "round",      "end",
                                          "points", "total",   "rank",       "tie_break",
                                          "game",   "profile", "unverified", "scan"};

/* The label of kind k in lang at key, under group ("fields", "ties") when not NULL; or NULL. */
static const char *label(const pad_kind *k, int lang, const char *group, const char *key)
{
	const char *path[] = {k->key, lang_keys[lang], group ? group : key, key};
	return strtab_get(&g_labels, path, group ? 4 : 3);
}

static const char *lab(const pad_kind *k, pdf_lang lang, const char *key)
{
	const char *s = label(k, lang, NULL, key);
	return s ? s : key;
}

static const char *field_lab(const pad_kind *k, pdf_lang lang, const char *ptr)
{
	const char *s = label(k, lang, "fields", ptr);
	return s ? s : ptr;
}

/* ---- the leaves of an entry ---- */

typedef struct {
	char ptr[PAD_PTR]; /* JSON pointer inside the entry, e.g. "/discharged/red" */
	bool tick;         /* a boolean field */
	char value[PAD_CELL];
} pad_leaf;

static void walk(json_object *v, const char *at, pad_leaf *out, int *n)
{
	char sub[PAD_PTR];
	if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, key, val)
		{
			js_path(sub, sizeof sub, at, key);
			walk(val, sub, out, n);
		}
		return;
	}
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			js_path_index(sub, sizeof sub, at, i);
			walk(json_object_array_get_idx(v, i), sub, out, n);
		}
		return;
	}
	if (*n >= PAD_MAX_LEAVES) {
		log_bug("pads: more than %d fields in an entry", PAD_MAX_LEAVES);
		return;
	}
	pad_leaf *l = &out[(*n)++];
	snprintf(l->ptr, sizeof l->ptr, "%s", at);
	l->tick = json_object_is_type(v, json_type_boolean);
	if (l->tick)
		snprintf(l->value, sizeof l->value, "%s", json_object_get_boolean(v) ? "x" : "");
	else
		snprintf(l->value, sizeof l->value, "%d", json_object_get_int(v));
}

/* The leaves of entry (released here). */
static int leaves_of(json_object *entry, pad_leaf *out)
{
	int n = 0;
	walk(entry, "", out, &n);
	json_object_put(entry);
	return n;
}

static int check_kind(const pad_kind *k, char *err, size_t errlen)
{
	pad_leaf lv[2][PAD_MAX_LEAVES];
	int n[2] = {leaves_of(round_pad_round_entry(k->rk, NULL, 1, 1), lv[0]),
	            leaves_of(round_pad_finish_entry(k->rk, NULL, 1), lv[1])};
	for (int g = 0; g < PDF_LANGS; g++) {
		for (size_t i = 0; i < sizeof common_keys / sizeof common_keys[0]; i++)
			if (!label(k, g, NULL, common_keys[i])) {
				snprintf(err, errlen, "%s.%s.%s: a string", k->key, lang_keys[g],
				         common_keys[i]);
				return -1;
			}
		for (int e = 0; e < 2; e++)
			for (int i = 0; i < n[e]; i++)
				if (!label(k, g, "fields", lv[e][i].ptr)) {
					snprintf(err, errlen,
					         "%s.%s.fields: no label for \"%.64s\"", k->key,
					         lang_keys[g], lv[e][i].ptr);
					return -1;
				}
		for (int t = 0; k->ties[t]; t++)
			if (!label(k, g, "ties", k->ties[t])) {
				snprintf(err, errlen, "%s.%s.ties: no label for \"%s\"", k->key,
				         lang_keys[g], k->ties[t]);
				return -1;
			}
	}
	return 0;
}

int pads_api_init(const char *templates_dir, const pad_kind *const *kinds, int nkinds)
{
	char err[256] = "";
	json_object *doc = templates_read(templates_dir, "pads.json");
	if (doc == NULL)
		return -1;
	strtab_from_json(&g_labels, doc);
	json_object_put(doc);
	for (int i = 0; i < nkinds; i++)
		if (check_kind(kinds[i], err, sizeof err) != 0)
			break;
	if (err[0]) {
		log_warn("templates: %s/pads.json: %s", templates_dir, err);
		pads_api_shutdown();
		return -1;
	}
	return 0;
}

void pads_api_shutdown(void)
{
	strtab_free(&g_labels);
}

/* ---- building a pad ---- */

/* One pad being built: rows and the storage of every text they point to. Heap-allocated. */
typedef struct {
	pdf_pad pad;
	pdf_pad_row rows[PDF_PAD_ROWS];
	char cells[PDF_PAD_ROWS][PDF_PAD_COLS][PAD_CELL];
	char groups[PAD_GROUPS][PDF_LABEL_MAX];
	char labels[PDF_PAD_ROWS][PDF_LABEL_MAX];
	char subtitle[512];
	char link[512];
} pad_build;

static pdf_pad_row *add_row(pad_build *b, const char *group, const char *label, bool strong)
{
	if (b->pad.nrows >= PDF_PAD_ROWS) {
		log_bug("pads: more than %d rows", PDF_PAD_ROWS);
		return NULL;
	}
	int i = b->pad.nrows++;
	pdf_pad_row *r = &b->rows[i];
	snprintf(b->labels[i], sizeof b->labels[i], "%s", label);
	*r = (pdf_pad_row){.group = group, .label = b->labels[i], .strong = strong};
	for (int c = 0; c < PDF_PAD_COLS; c++)
		r->cells[c] = b->cells[i][c];
	return r;
}

/* A row's cell c (0-based), printf-style. */
static void cell(pad_build *b, const pdf_pad_row *r, int c, const char *fmt, int v)
{
	int i = (int)(r - b->rows);
	snprintf(b->cells[i][c], PAD_CELL, fmt, v);
}

enum { PAD_MAX_ROUNDS = 8 };

/* What the pad of one seat's game says; filled from the kind's scorer. */
typedef struct {
	int nseats;
	bool finished;
	int total[PDF_PAD_COLS], rank[PDF_PAD_COLS];
	int round_points[PDF_PAD_COLS][PAD_MAX_ROUNDS + 1]; /* [0] = end of the game */
	bool verified[PDF_PAD_COLS];
	const char *tie[PDF_PAD_COLS]; /* pads.json "ties" key (static), NULL: none */
	char profile[TT_NAME_LEN];
} pad_scores;

/* Seat's entry of the round (0: the finish) is entered in g. */
static bool entered(const pad_kind *k, const void *g, int round, int seat)
{
	return round ? k->rk->round_entered(g, round, seat) : k->rk->finish_entered(g, seat);
}

/* What the pad of g says, from the kind's scorer. */
static void scores_of(const pad_kind *k, const void *g, pad_scores *out)
{
	round_scores *sc = round_scores_of(k->rk, g);
	out->nseats = sc->nseats;
	out->finished = sc->finished;
	snprintf(out->profile, sizeof out->profile, "%s", sc->profile_name);
	for (int s = 0; s < sc->nseats && s < PDF_PAD_COLS; s++) {
		const round_seat_score *ss = &sc->seat[s];
		out->total[s] = ss->total;
		out->rank[s] = ss->rank;
		out->verified[s] = ss->verified;
		out->tie[s] = ss->tie;
		for (int r = 0; r <= k->rk->rounds; r++)
			out->round_points[s][r] = ss->round_points[r];
	}
	free(sc);
}

/* The rows of one entry (a round, or the finish with round 0) for every seat. */
static void entry_rows(pad_build *b, const pad_kind *k, pdf_lang lang, const void *g, int round,
                       const char *group)
{
	pad_leaf seat_leaves[PDF_PAD_COLS][PAD_MAX_LEAVES];
	int n = 0;
	for (int s = 0; s < b->pad.ncols; s++) {
		json_object *e = round ? round_pad_round_entry(k->rk, g, round, s + 1)
		                       : round_pad_finish_entry(k->rk, g, s + 1);
		n = leaves_of(e, seat_leaves[s]);
	}
	for (int i = 0; i < n; i++) {
		pdf_pad_row *r =
		    add_row(b, group, field_lab(k, lang, seat_leaves[0][i].ptr), false);
		if (r == NULL)
			return;
		r->tick = seat_leaves[0][i].tick;
		for (int s = 0; g && s < b->pad.ncols; s++) {
			if (entered(k, g, round, s + 1))
				snprintf(b->cells[r - b->rows][s], PAD_CELL, "%s",
				         seat_leaves[s][i].value);
		}
	}
}

/* Every row: the rounds, the end of the game, the totals; filled from g and sc when g. */
static void build_rows(pad_build *b, const pad_kind *k, pdf_lang lang, const void *g,
                       const pad_scores *sc)
{
	const char *pts = lab(k, lang, "points");
	/* the rounds played: all of them, or those before the table ended the game early */
	int played = g && k->rk->finished(g) ? k->rk->rounds_played(g) : 0;
	int nrounds = played > 0 && played < k->rk->rounds ? played : k->rk->rounds;
	for (int r = 0; r <= nrounds && r < PAD_GROUPS - 1; r++) {
		int round = r < nrounds ? r + 1 : 0; /* the end of the game last */
		char *group = b->groups[r];
		if (round)
			snprintf(group, PDF_LABEL_MAX, "%s %d", lab(k, lang, "round"), round);
		else
			snprintf(group, PDF_LABEL_MAX, "%s", lab(k, lang, "end"));
		entry_rows(b, k, lang, g, round, group);
		pdf_pad_row *p = add_row(b, group, pts, true);
		for (int s = 0; p && g && s < b->pad.ncols; s++) {
			if (entered(k, g, round, s + 1))
				cell(b, p, s, "%d", sc->round_points[s][round]);
		}
	}
	char *group = b->groups[PAD_GROUPS - 1];
	snprintf(group, PDF_LABEL_MAX, "%s", lab(k, lang, "total"));
	pdf_pad_row *t = add_row(b, group, lab(k, lang, "total"), true);
	pdf_pad_row *rk = add_row(b, group, lab(k, lang, "rank"), false);
	pdf_pad_row *tb = add_row(b, group, lab(k, lang, "tie_break"), false);
	if (!g || !t || !rk || !tb)
		return;
	for (int s = 0; s < b->pad.ncols; s++) {
		cell(b, t, s, sc->verified[s] ? "%d" : "%d*", sc->total[s]);
		if (!sc->finished)
			continue;
		cell(b, rk, s, "%d", sc->rank[s]);
		if (sc->tie[s])
			snprintf(b->cells[tb - b->rows][s], PAD_CELL, "%s",
			         label(k, lang, "ties", sc->tie[s]));
	}
}

/* Draws b's pad as a one-page document: 0 with the bytes, or a 500 problem in resp. */
static int render(http_resp *resp, const pad_build *b, pdf_paper paper, pdf_lang lang,
                  time_t created, unsigned char **bytes, size_t *len)
{
	pdf_doc *doc = pdf_doc_begin(NULL, pdf_api_print(), paper, lang, b->pad.title, created);
	if (doc == NULL) {
		http_reply_problem(resp, 500, "the PDF renderer could not start", NULL, NULL);
		return -1;
	}
	pdf_pad_page(doc, &b->pad);
	if (pdf_doc_finish(doc, bytes, len) != 0) {
		http_reply_problem(resp, 500, "the PDF could not be drawn", NULL, NULL);
		return -1;
	}
	return 0;
}

/* ---- handlers ---- */

int pads_blank_pdf(const http_req *req, http_resp *resp, const pad_kind *k)
{
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	int players;
	if (!http_query_number(req, resp, "players", PDF_PAD_COLS, 1, PDF_PAD_COLS, NULL, &players))
		return 0;
	char key[64];
	snprintf(key, sizeof key, "%s-pad|%d|%d|%d", k->key, players, (int)paper, (int)lang);
	if (pdf_api_not_modified(req, resp, key))
		return 0;
	pad_build *b = xcalloc(1, sizeof *b);
	b->pad.title = lab(k, lang, "title");
	snprintf(b->subtitle, sizeof b->subtitle, "%s ____________    %s ____________",
	         lab(k, lang, "game"), pdf_api_print()->labels[lang][PL_DATE]);
	b->pad.subtitle = b->subtitle;
	b->pad.player = lab(k, lang, "player");
	b->pad.ncols = players;
	b->pad.rows = b->rows;
	build_rows(b, k, lang, NULL, NULL);
	unsigned char *bytes;
	size_t len;
	int rc = render(resp, b, paper, lang, pdf_api_started(), &bytes, &len);
	free(b);
	if (rc != 0)
		return 0;
	char name[32];
	snprintf(name, sizeof name, "%s-pads.pdf", k->key);
	return pdf_api_reply(resp, bytes, len, name);
}

int pads_game_pdf(const http_req *req, http_resp *resp, const pad_kind *k)
{
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	table_game *tg = table_load_for_read(req, resp, k->rk->table, req->params[0]);
	if (tg == NULL)
		return 0;
	const void *g = table_game_state(tg);
	table_view v;
	table_game_view(tg, &v);
	pad_scores sc = {0};
	scores_of(k, g, &sc);
	pad_build *b = xcalloc(1, sizeof *b);
	b->pad.title = lab(k, lang, "title");
	b->pad.player = lab(k, lang, "player");
	b->pad.ncols = v.nseats < PDF_PAD_COLS ? v.nseats : PDF_PAD_COLS;
	b->pad.rows = b->rows;
	for (int s = 0; s < b->pad.ncols; s++)
		b->pad.names[s] = v.names[s];
	bool all_verified = true;
	for (int s = 0; s < b->pad.ncols; s++)
		all_verified = all_verified && sc.verified[s];
	snprintf(b->subtitle, sizeof b->subtitle, "%s %s · %.10s · %s: %s", lab(k, lang, "game"),
	         v.code && *v.code ? v.code : v.id, v.created_at ? v.created_at : "",
	         lab(k, lang, "profile"), sc.profile);
	b->pad.subtitle = b->subtitle;
	b->pad.note = all_verified ? NULL : lab(k, lang, "unverified");
	char fragment[128];
	snprintf(fragment, sizeof fragment, "tt=%s&game=%s", k->key, v.id);
	pdf_api_link(req, fragment, b->link, sizeof b->link);
	b->pad.link = b->link;
	b->pad.scan = lab(k, lang, "scan");
	build_rows(b, k, lang, g, &sc);
	unsigned char *bytes;
	size_t len;
	int rc = render(resp, b, paper, lang, time(NULL), &bytes, &len);
	free(b);
	table_game_free(tg);
	if (rc != 0)
		return 0;
	http_resp_header(resp, "Cache-Control", "private, no-store");
	char name[32];
	snprintf(name, sizeof name, "%s-game.pdf", k->key);
	return pdf_api_reply(resp, bytes, len, name);
}
