/* What a spreadsheet will import as, before it is imported (POST …/import/preview?format=csv):
 * the header, the mapping proposed from it (or the one sent), and the first plays as they
 * would be stored, or what is wrong with the mapping or with each row. Nothing is stored. */
#include "leagues/csvpreview.h"
#include "leagues/access.h"
#include "leagues/csvin.h"
#include "leagues/import.h"

#include "json/jx.h"

#include <microhttpd.h>
#include <stdio.h>
#include <string.h>

static json_object *seat_json(const imp_result *x)
{
	json_object *o = jx_obj();
	jx_set(o, "name", jx_str(x->name));
	jx_set(o, "score", x->r.has_score ? jx_double(x->r.score) : jx_null());
	jx_set(o, "score_text", jx_str_or_null(x->r.score_text));
	jx_set(o, "rank", jx_int(x->r.rank));
	jx_set(o, "winner", jx_bool(x->r.winner));
	return o;
}

static json_object *play_json(const league_import *im, const imp_play *ip)
{
	json_object *o = jx_obj();
	jx_set(o, "row", jx_int(im->csv_lines[ip->index]));
	jx_set(o, "date", jx_str(ip->p.when));
	jx_set(o, "game", jx_str(ip->p.game));
	jx_set(o, "cooperative", jx_bool(ip->p.cooperative));
	json_object *players = jx_arr();
	for (int k = 0; k < ip->nres; k++)
		jx_push(players, seat_json(&ip->res[k]));
	jx_set(o, "players", players);
	return o;
}

static json_object *mapping_json(const csv_file *f, const csv_mapping *m, json_object *o)
{
	json_object *cols = jx_arr();
	for (int c = 0; c < f->ncols && c < CSV_MAX_COLS; c++) {
		char name[24];
		csv_role_name(m->roles[c], name);
		jx_push(cols, jx_str(name));
	}
	jx_set(o, "columns", cols);
	jx_set(o, "dates",
	       m->dates == CSV_DATES_DMY   ? jx_str("dmy")
	       : m->dates == CSV_DATES_MDY ? jx_str("mdy")
	                                   : jx_null());
	int date_col = -1;
	for (int c = 0; c < f->ncols && c < CSV_MAX_COLS; c++)
		if (m->roles[c].kind == CR_DATE)
			date_col = c;
	bool ambiguous = false;
	(void)csv_date_order(f, date_col, &ambiguous);
	jx_set(o, "dates_ambiguous", jx_bool(ambiguous));
	jx_set(o, "game", jx_str_or_null(m->game));
	return o;
}

/* The reply for a file read and a mapping: the plays it gives, or the mapping's problem. */
static json_object *preview_json(league_import *im, const csv_file *f, const csv_mapping *m)
{
	json_object *o = jx_obj();
	jx_set(o, "separator", jx_strn(&f->sep, 1));
	jx_set(o, "encoding", jx_str(f->windows_1252 ? "windows-1252" : "utf-8"));
	json_object *header = jx_arr();
	for (int c = 0; c < f->ncols && c < CSV_MAX_COLS; c++)
		jx_push(header, jx_str(f->header[c]));
	jx_set(o, "header", header);
	mapping_json(f, m, o);
	jx_set(o, "rows", jx_int(f->nrows));
	json_object *problem = NULL;
	if (csv_plays(im, f, m) != 0) {
		problem = jx_obj();
		jx_set(problem, "rule", jx_str(im->rule ? im->rule : "malformed-file"));
		jx_set(problem, "field", jx_str(im->field));
		jx_set(problem, "detail", jx_str(im->detail));
	}
	jx_set(o, "problem", problem);
	jx_set(o, "plays", jx_int(im->nplays));
	jx_set(o, "skipped", jx_int(im->nskips));
	json_object *first = jx_arr();
	for (int i = 0; i < im->nplays && i < CSV_PREVIEW_PLAYS; i++)
		jx_push(first, play_json(im, &im->plays[i]));
	jx_set(o, "preview", first);
	json_object *skips = jx_arr();
	for (int i = 0; i < im->nskips && i < CSV_PREVIEW_SKIPS; i++) {
		json_object *k = jx_obj();
		jx_set(k, "row", jx_int(im->csv_lines ? im->csv_lines[im->skips[i].index] : 0));
		jx_set(k, "reason", jx_str(im->skips[i].reason));
		jx_set(k, "detail", jx_str(im->skips[i].detail));
		jx_push(skips, k);
	}
	jx_set(o, "skipped_rows", skips);
	return o;
}

int api_league_import_preview(const http_req *req, http_resp *resp)
{
	league_access a;
	if (!access_open_write(req, resp, false, true, &a))
		return 0;
	const char *ct = http_header(req, MHD_HTTP_HEADER_CONTENT_TYPE);
	import_format f;
	if (!import_format_of(req, resp, ct, &f))
		return 0;
	if (f != IMPORT_CSV)
		return http_reply_problem(resp, 400, "a preview reads a spreadsheet: format=csv",
		                          NULL, NULL);
	league_import im = {0};
	import_csv_mapping(req, &im);
	csv_file file;
	csv_mapping m;
	int rc = csv_read(&im, req->body, req->body_len, &file);
	if (rc == 0)
		rc = csv_mapping_parse(&im, &file, im.csv_columns, im.csv_dates, im.csv_game, &m);
	if (rc != 0)
		http_reply_problem(resp, 400, im.detail, im.rule ? im.rule : "malformed-file",
		                   im.field[0] ? im.field : NULL);
	else
		http_reply_json(resp, 200, preview_json(&im, &file, &m));
	csv_file_free(&file);
	io_import_free(&im);
	return 0;
}
