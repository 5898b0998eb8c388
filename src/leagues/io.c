/* What the league files' exports and imports share (internal.h): text helpers for CSV and
 * numbers written as typed, the rows an export reads, a file reply; the import's arena and the
 * checks every format's parser makes (ranks, names). */
#include "leagues/internal.h"

#include "base/log.h"
#include "base/oom.h"
#include "base/sbuf.h"
#include "db/leagues.h"
#include "json/jx.h"
#include "json/spec.h"
#include "leagues/import.h"
#include "leagues/internal.h"
#include "leagues/leagues.h"

#include <math.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- text helpers ---- */

/* A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text cells that
 * a spreadsheet would run as a formula (= + - @ first) get a leading apostrophe. */
void lio_csv_cell(sbuf *s, const char *v, bool text)
{
	if (v == NULL)
		v = "";
	bool quote = strpbrk(v, ",\"\r\n") != NULL;
	bool formula = text && (*v == '=' || *v == '+' || *v == '-' || *v == '@');
	if (quote)
		sb_str(s, "\"");
	if (formula)
		sb_str(s, "'");
	for (const char *p = v; *p; p++) {
		if (*p == '"')
			sb_str(s, "\"");
		sb_add(s, p, 1);
	}
	if (quote)
		sb_str(s, "\"");
}

/* A number column as text (NULL: SQL NULL) as an integer, 0 when NULL. */
int64_t lio_int_text(const char *v)
{
	return v ? atoll(v) : 0;
}

/* A stored number as text (NULL: SQL NULL), or NULL when it is not a finite number: a double
 * precision column takes 'Infinity' and 'NaN', which neither JSON nor a score can carry. */
const char *lio_finite_text(const char *v)
{
	return v && isfinite(strtod(v, NULL)) ? v : NULL;
}

json_object *lio_num_text(const char *v)
{
	v = lio_finite_text(v);
	if (v == NULL)
		return NULL;
	double d = strtod(v, NULL);
	if (d == floor(d) && fabs(d) < 9e15)
		return jx_int((int64_t)d);
	return jx_double(d);
}

/* A score as BG Stats writes it: a string ("45", "" for none). */
json_object *lio_score_string(const char *v)
{
	v = lio_finite_text(v);
	if (v == NULL)
		return jx_str("");
	char t[64];
	double d = strtod(v, NULL);
	if (d == floor(d) && fabs(d) < 9e15)
		snprintf(t, sizeof t, "%lld", (long long)d);
	else
		snprintf(t, sizeof t, "%.17g", d);
	return jx_str(t);
}

/* Reply body of another content type (text owned by the caller, copied). */
int lio_reply_file(http_resp *resp, const char *ctype, const char *filename, char *body, size_t len)
{
	resp->status = 200;
	resp->body = body; /* ownership passes to the response */
	resp->body_len = len;
	resp->content_type = ctype;
	char cd[128];
	snprintf(cd, sizeof cd, "attachment; filename=\"%s\"", filename);
	http_resp_header(resp, "Content-Disposition", cd);
	return http_resp_header(resp, "Cache-Control", "no-store");
}

/* ---- export ---- */

/* The league's export rows into *rows (caller clears), or false after a reply: every play,
 * a play without results as one row with has_result false. */
bool lio_export_rows_all(const http_req *req, http_resp *resp, db_conn *c, league_access *a,
                         db_export_rows *rows)
{
	memset(rows, 0, sizeof *rows);
	if (!league_access_check(req, resp, c, req->params[0], false, a))
		return false;
	if (db_league_export_rows(c, req->params[0], rows) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	return true;
}

/* The same, the rows of results only: a play without results is left out. */
bool lio_export_rows(const http_req *req, http_resp *resp, db_conn *c, league_access *a,
                     db_export_rows *rows)
{
	if (!lio_export_rows_all(req, resp, c, a, rows))
		return false;
	int kept = 0;
	for (int i = 0; i < rows->n; i++)
		if (rows->rows[i].has_result)
			rows->rows[kept++] = rows->rows[i];
	rows->n = kept;
	return true;
}

/* Index of s in the list (appending it when new); 1-based (BG Stats ids). */
int lio_intern(const char ***list, int *n, const char *s)
{
	for (int i = 0; i < *n; i++)
		if (strcmp((*list)[i], s) == 0)
			return i + 1;
	*list = xrealloc(*list, (size_t)(*n + 1) * sizeof **list);
	(*list)[(*n)++] = s;
	return *n;
}

/* ---- import: parsed and checked completely before the transaction ---- */

void league_import_free(league_import *im)
{
	json_object_put(im->root);
	for (size_t i = 0; i < im->narena; i++)
		free(im->arena[i]);
	free(im->arena);
	for (int i = 0; i < im->nplays; i++)
		free(im->plays[i].res);
	free(im->plays);
	free(im->members);
	free(im->seasons);
	free(im->cache);
	for (int i = 0; i < im->nskips; i++)
		free(im->skips[i].detail);
	free(im->skips);
}

void lio_skip(league_import *im, int index, const char *id, const char *reason, const char *detail)
{
	im->skips = xrealloc(im->skips, (size_t)(im->nskips + 1) * sizeof *im->skips);
	im->skips[im->nskips++] =
	    (imp_skip){.index = index, .id = id, .reason = reason, .detail = xstrdup(detail)};
}

const char *lio_dup(league_import *im, const char *s)
{
	im->arena = xrealloc(im->arena, (im->narena + 1) * sizeof *im->arena);
	return im->arena[im->narena++] = xstrdup(s);
}

int lio_fail(league_import *im, const char *field, const char *detail)
{
	snprintf(im->field, sizeof im->field, "%s", field);
	snprintf(im->detail, sizeof im->detail, "%s", detail);
	return -1;
}

imp_play *lio_new_play(league_import *im, int index, int nres)
{
	im->plays = xrealloc(im->plays, (size_t)(im->nplays + 1) * sizeof *im->plays);
	imp_play *p = &im->plays[im->nplays++];
	memset(p, 0, sizeof *p);
	p->index = index;
	p->res = xcalloc((size_t)nres, sizeof *p->res);
	p->p.duration_min = -1;
	return p;
}

/* Ranks an imported play: given ranks as they are; else from the scores (highest first, or
 * lowest first when the file says so, or when that is what its winner flags say); else from
 * the winner flags. field names the play for an error. */
int lio_rank(league_import *im, imp_play *ip, bool lowest_wins, const char *field)
{
	int n = ip->nres, ranked = 0, scored = 0, flagged = 0;
	for (int i = 0; i < n; i++) {
		ranked += ip->res[i].r.has_rank;
		scored += ip->res[i].r.has_score;
		flagged += ip->res[i].r.has_winner && ip->res[i].r.winner;
	}
	if (!ip->p.cooperative && ranked < n && scored == n) {
		for (int pass = 0; pass < 2; pass++) {
			bool low = lowest_wins != (pass == 1), agrees = true;
			for (int i = 0; i < n; i++) {
				int better = 0;
				for (int j = 0; j < n; j++)
					better += low ? ip->res[j].r.score < ip->res[i].r.score
					              : ip->res[j].r.score > ip->res[i].r.score;
				ip->res[i].r.rank = better + 1;
				if (ip->res[i].r.has_winner && ip->res[i].r.winner && better > 0)
					agrees = false;
			}
			if (agrees || flagged == 0) {
				for (int i = 0; i < n; i++)
					ip->res[i].r.has_rank = true;
				break;
			}
		}
	}
	league_result tmp[IMPORT_MAX_RESULTS];
	for (int i = 0; i < n; i++)
		tmp[i] = ip->res[i].r;
	ip->p.results = tmp;
	ip->p.nresults = n;
	const char *why = NULL;
	bool ok = league_play_rank(&ip->p, &why);
	for (int i = 0; i < n; i++)
		ip->res[i].r = tmp[i];
	ip->p.results = NULL;
	return ok ? 0 : lio_fail(im, field, why);
}

int lio_check_names(league_import *im, imp_play *ip, const char *field)
{
	for (int i = 0; i < ip->nres; i++) {
		size_t len = strlen(ip->res[i].name);
		if (len == 0 || len > NAME_MAX_BYTES)
			return lio_fail(im, field, "a player's name must have 1 to 256 bytes");
		for (int k = 0; k < i; k++)
			if (strcmp(ip->res[k].name, ip->res[i].name) == 0)
				return lio_fail(im, field, "a player appears twice in one play");
	}
	return 0;
}
