/* Importing into a league (POST /api/v1/leagues/{id}/import): the body is parsed and checked
 * completely in its format (bgstats.c, bggxml.c, backup.c) before anything is stored, then stored
 * in one transaction (nothing half-imported); plays already in the league (same uuid: a BG
 * Stats play's uuid, "bgg-<play id>", a backup's uuid) are skipped; players are matched to
 * members by name, new names become guest members. Who may import is checked from the headers
 * before the body is read (api_league_import_pre_body). */
#include "leagues/import.h"
#include "leagues/access.h"
#include "leagues/backup.h"
#include "leagues/bggxml.h"
#include "leagues/bgstats.h"
#include "leagues/csvin.h"
#include "leagues/io.h"
#include "leagues/members.h"
#include "leagues/ratings.h"
#include "leagues/store.h"

#include "db/league_files.h"
#include "json/jx.h"
#include "json/spec.h"

#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* An import that adds this many plays refreshes the planner statistics of the league tables. */
enum { IMPORT_ANALYZE_PLAYS = 500 };

int import_parse(league_import *im, import_format format, const char *body, size_t len)
{
	if (format == IMPORT_BGGXML)
		return bggxml_parse(im, body, len);
	if (format == IMPORT_CSV)
		return csv_parse(im, body, len);
	js_error err;
	if (js_parse(body, len, &im->root, &err) != 0)
		return io_fail(im, err.field, err.detail);
	return format == IMPORT_BACKUP ? backup_parse(im) : bgstats_parse(im);
}

/* ---- storing an import ---- */

/* The member of name (created as a guest when new; a new seat of BG Stats' anonymous player is
 * marked anonymous: kept in its plays, never rated). */
static db_status imp_member(db_conn *c, league_import *im, const char *name, bool anonymous,
                            char id[ID_LEN + 1])
{
	for (int i = 0; i < im->ncache; i++)
		if (strcmp(im->cache[i].name, name) == 0) {
			snprintf(id, ID_LEN + 1, "%s", im->cache[i].id);
			return DB_OK;
		}
	bool created = false;
	db_status st = members_by_name(c, im->league, name, id, &created);
	if (st != DB_OK)
		return st;
	im->created += created;
	if (created && anonymous)
		st = db_member_mark_anonymous(c, id);
	if (st != DB_OK)
		return st;
	im->cache = xrealloc(im->cache, (size_t)(im->ncache + 1) * sizeof *im->cache);
	im->cache[im->ncache].name = name;
	snprintf(im->cache[im->ncache++].id, ID_LEN + 1, "%s", id);
	return DB_OK;
}

/* The member of seat k of ip into res[k].member. Names match members without case and
 * surrounding spaces, so two seats of one play can name one member ("Bob" and "bob"): the
 * later one is then "<name> (seat N)", kept in the play but unrated, as the files' own second
 * seats under one name are (bggxml.c). */
static db_status imp_seat(db_conn *c, league_import *im, const imp_play *ip, int k,
                          league_result *res)
{
	const imp_result *x = &ip->res[k];
	db_status st = imp_member(c, im, x->name, x->anonymous, res[k].member);
	bool twice = false;
	for (int i = 0; st == DB_OK && i < k && !twice; i++)
		twice = strcmp(res[i].member, res[k].member) == 0;
	if (st != DB_OK || !twice)
		return st;
	enum { KEEP = NAME_MAX_BYTES - 16 }; /* room for " (seat 64)" */
	size_t n = strlen(x->name);
	if (n > KEEP)
		for (n = KEEP; n > 0 && ((unsigned char)x->name[n] & 0xC0) == 0x80;)
			n--;
	char t[NAME_MAX_BYTES + 1];
	snprintf(t, sizeof t, "%.*s (seat %d)", (int)n, x->name, k + 1);
	res[k].unrated = true;
	return imp_member(c, im, io_dup(im, t), x->anonymous, res[k].member);
}

/* Is p the same BoardGameGeek play as one the league holds from another source? (A BG Stats
 * export synced with BGG carries the BGG play id; BGG's quantity gives several plays of one
 * id from the same source, which are not duplicates of each other.) rows: ascending ids. */
static bool bgg_play_known(const db_bgg_play_rows *rows, const league_play *p)
{
	if (p->bgg_play_id <= 0)
		return false;
	int lo = 0, hi = rows->n - 1;
	while (lo < hi) { /* the first row with an id >= p's */
		int mid = lo + (hi - lo) / 2;
		if (rows->rows[mid].bgg_play_id < p->bgg_play_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo; i < rows->n && rows->rows[i].bgg_play_id == p->bgg_play_id; i++)
		if (strcmp(rows->rows[i].source, p->source) != 0)
			return true;
	return false;
}

/* An element of a Postgres array literal (i: its position): NULL, or the text quoted. */
static void pg_elem(sbuf *a, int i, const char *v)
{
	sb_str(a, i ? "," : "{");
	if (v == NULL) {
		sb_str(a, "NULL");
		return;
	}
	sb_str(a, "\"");
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_str(a, "\\");
		sb_add(a, p, 1);
	}
	sb_str(a, "\"");
}

/* Closes the n array literals a and points arrays at them (the caller frees a[k].b). */
static void pg_close(sbuf *a, const char **arrays, int n, int count)
{
	for (int k = 0; k < n; k++) {
		sb_str(&a[k], count ? "}" : "{}");
		arrays[k] = a[k].b;
	}
}

/* What the file says of the games, locations and players its plays name: three statements
 * for the whole import (a game, location or player the league has is kept as it is). */
static db_status import_described(db_conn *c, const league_import *im)
{
	enum { NG = 8, NL = 3, NP = 2 };
	sbuf g[NG] = {{0}}, l[NL] = {{0}}, p[NP] = {{0}};
	const char *ga[NG], *la[NL], *pa[NP];
	for (int i = 0; i < im->ngames; i++) {
		const imp_game *x = &im->games[i];
		char bgg[24];
		snprintf(bgg, sizeof bgg, "%lld", (long long)x->bgg_id);
		const char *v[NG] = {x->name,
		                     x->uuid,
		                     x->bgg_id ? bgg : NULL,
		                     x->cooperative ? "t" : "f",
		                     x->highest_wins ? "t" : "f",
		                     x->no_points ? "t" : "f",
		                     x->uses_teams ? "t" : "f",
		                     x->source};
		for (int k = 0; k < NG; k++)
			pg_elem(&g[k], i, v[k]);
	}
	for (int i = 0; i < im->nlocations; i++) {
		const imp_location *x = &im->locations[i];
		const char *v[NL] = {x->name, x->uuid, x->source};
		for (int k = 0; k < NL; k++)
			pg_elem(&l[k], i, v[k]);
	}
	for (int i = 0; i < im->nplayers; i++) {
		pg_elem(&p[0], i, im->players[i].uuid);
		pg_elem(&p[1], i, im->players[i].source);
	}
	pg_close(g, ga, NG, im->ngames);
	pg_close(l, la, NL, im->nlocations);
	pg_close(p, pa, NP, im->nplayers);
	db_status st = DB_OK;
	if (im->ngames)
		st = db_league_games_store(c, im->league, ga);
	if (st == DB_OK && im->nlocations)
		st = db_league_locations_store(c, im->league, la);
	if (st == DB_OK && im->nplayers)
		st = db_league_players_store(c, im->league, pa);
	for (int k = 0; k < NG; k++)
		free(g[k].b);
	for (int k = 0; k < NL; k++)
		free(l[k].b);
	for (int k = 0; k < NP; k++)
		free(p[k].b);
	return st;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The uuids a play of the league is known by, sorted (strcmp): each stored one and, when it is
 * not in RFC 4122 form, the one the export writes for it (so an export imported back into its
 * league is a duplicate). The list and its derived strings are owned (*derived). */
static const char **known_uuids(const db_uuid_rows *rows, char (**derived)[IO_UUID_LEN + 1], int *n)
{
	const char **k = xcalloc((size_t)rows->n * 2 + 1, sizeof *k);
	*derived = xcalloc((size_t)rows->n + 1, sizeof **derived);
	*n = 0;
	for (int i = 0; i < rows->n; i++) {
		k[(*n)++] = rows->rows[i].uuid;
		if (!io_is_uuid(rows->rows[i].uuid)) {
			io_play_uuid(rows->rows[i].uuid, (*derived)[i]);
			k[(*n)++] = (*derived)[i];
		}
	}
	qsort(k, (size_t)*n, sizeof *k, str_cmp);
	return k;
}

typedef struct {
	const char *uuid; /* borrowed from the play */
	int index;        /* the play's position in im->plays */
} uuid_at;

static int uuid_order(const void *a, const void *b)
{
	const uuid_at *x = a, *y = b;
	int cmp = strcmp(x->uuid, y->uuid);
	return cmp ? cmp : (x->index > y->index) - (x->index < y->index);
}

/* For each play of the file, whether an earlier play of the file has its uuid (the first one
 * is imported, the others are duplicates). Caller frees. */
static bool *later_twins(const league_import *im)
{
	int n = im->nplays;
	bool *twice = xcalloc((size_t)n + 1, sizeof *twice);
	uuid_at *order = xcalloc((size_t)n + 1, sizeof *order);
	for (int i = 0; i < n; i++)
		order[i] = (uuid_at){im->plays[i].p.uuid, i};
	qsort(order, (size_t)n, sizeof *order, uuid_order);
	for (int i = 1; i < n; i++)
		twice[order[i].index] = strcmp(order[i].uuid, order[i - 1].uuid) == 0;
	free(order);
	return twice;
}

static db_status import_tx(db_conn *c, void *arg)
{
	league_import *im = arg;
	/* a retried transaction starts again from the parse-time skips */
	for (int i = im->nparse_skips; i < im->nskips; i++)
		free(im->skips[i].detail);
	im->nskips = im->nparse_skips;
	im->imported = im->created = im->ncache = 0;
	db_status st = access_lock_as(c, im->league, true, im->access, im->resp);
	for (int i = 0; st == DB_OK && i < im->nmembers; i++) {
		char id[ID_LEN + 1];
		st = imp_member(c, im, im->members[i], false, id);
	}
	for (int i = 0; st == DB_OK && i < im->nseasons; i++) {
		char id[ID_LEN + 1];
		id_new(id);
		const imp_season *s = &im->seasons[i];
		bool inserted; /* a season of this name already there is kept */
		st = db_season_insert(c, id, im->league, s->name, s->starts, s->ends, &inserted);
	}
	league_result res[IMPORT_MAX_RESULTS];
	/* the uuids already in the league, in byte order (one query, then a binary search) */
	db_uuid_rows known = {0};
	db_bgg_play_rows bgg = {0};
	if (st == DB_OK)
		st = db_league_uuids(c, im->league, &known);
	if (st == DB_OK)
		st = db_league_bgg_plays(c, im->league, &bgg);
	if (st == DB_OK)
		st = import_described(c, im);
	if (st == DB_OK && im->file_text) /* what the export writes back (bgsexport.c) */
		st = db_league_file_store(c, im->league, im->file_text);
	int nknown = 0;
	char(*derived)[IO_UUID_LEN + 1] = NULL;
	const char **kn = known_uuids(&known, &derived, &nknown);
	bool *twice = later_twins(im);
	league_batch batch = {0};
	for (int i = 0; st == DB_OK && i < im->nplays; i++) {
		imp_play *ip = &im->plays[i];
		bool exists = false;
		for (int lo = 0, hi = nknown - 1; lo <= hi && !exists;) {
			int mid = lo + (hi - lo) / 2, cmp = strcmp(kn[mid], ip->p.uuid);
			exists = cmp == 0;
			if (cmp < 0)
				lo = mid + 1;
			else
				hi = mid - 1;
		}
		if (exists) {
			io_skip(im, ip->index, ip->p.uuid, "duplicate",
			        "this play is already in the league");
			continue;
		}
		if (bgg_play_known(&bgg, &ip->p)) {
			io_skip(
			    im, ip->index, ip->p.uuid, "duplicate",
			    "this BoardGameGeek play is already in the league from another app");
			continue;
		}
		if (twice[i]) {
			io_skip(im, ip->index, ip->p.uuid, "duplicate",
			        "the same play appears twice in the file");
			continue;
		}
		for (int k = 0; st == DB_OK && k < ip->nres; k++) {
			res[k] = ip->res[k].r;
			st = imp_seat(c, im, ip, k, res);
		}
		if (st != DB_OK)
			break;
		ip->p.results = res;
		ip->p.nresults = ip->nres;
		char id[ID_LEN + 1];
		st = store_batch_add(c, im->league, im->account, &batch, &ip->p, id);
		ip->p.results = NULL;
		im->imported++;
	}
	if (st == DB_OK)
		st = store_batch_store(c, im->league, im->account, &batch);
	store_batch_free(&batch);
	free(twice);
	free(kn);
	free(derived);
	db_rowset_clear(&known);
	db_rowset_clear(&bgg);
	if (st == DB_OK)
		st = ratings_recompute(c, im->league);
	return st;
}

static int skip_cmp(const void *a, const void *b)
{
	const imp_skip *x = *(const imp_skip *const *)a, *y = *(const imp_skip *const *)b;
	return (x->index > y->index) - (x->index < y->index);
}

/* The reply's skipped_plays, in the file's order. */
static json_object *import_skips_json(const league_import *im)
{
	json_object *a = jx_arr();
	const imp_skip **order = xcalloc((size_t)im->nskips + 1, sizeof *order);
	for (int i = 0; i < im->nskips; i++)
		order[i] = &im->skips[i];
	qsort(order, (size_t)im->nskips, sizeof *order, skip_cmp);
	for (int i = 0; i < im->nskips; i++) {
		const imp_skip *k = order[i];
		json_object *o = jx_obj();
		jx_set(o, "index", jx_int(k->index));
		jx_set(o, "id", jx_str_or_null(k->id));
		jx_set(o, "reason", jx_str(k->reason));
		jx_set(o, "detail", jx_str(k->detail));
		jx_push(a, o);
	}
	free(order);
	return a;
}

/* Years of history just arrived: the pages opened next are planned for the league as it is
 * now. Runs after the reply (http_resp.after): the importer does not wait for it, and a
 * failure only leaves it to autovacuum. */
static void import_analyze(void)
{
	db_conn *c = db_thread_conn();
	if (c)
		(void)db_league_analyze(c);
}

static bool content_type_is(const char *ct, const char *want)
{
	size_t n = strlen(want);
	return ct && strncasecmp(ct, want, n) == 0 && (ct[n] == '\0' || ct[n] == ';');
}

bool import_format_of(const http_req *req, http_resp *resp, const char *ct, import_format *f)
{
	static const struct {
		const char *name;
		import_format format;
		const char *types[3]; /* the Content-Types it comes in */
		const char *refusal;  /* the 415's detail */
	} FORMATS[] = {
	    {"bgstats", IMPORT_BGSTATS, {"application/json"}, "this import is application/json"},
	    {"backup", IMPORT_BACKUP, {"application/json"}, "this import is application/json"},
	    {"bggxml",
	     IMPORT_BGGXML,
	     {"application/xml", "text/xml"},
	     "a BGG plays file is application/xml or text/xml"},
	    {"csv", IMPORT_CSV, {"text/csv", "text/plain"}, "a spreadsheet is text/csv"},
	};
	const char *format = http_query(req, "format");
	for (size_t i = 0; format && i < sizeof FORMATS / sizeof FORMATS[0]; i++) {
		if (strcmp(format, FORMATS[i].name) != 0)
			continue;
		bool ok = false;
		for (int k = 0; k < 3 && FORMATS[i].types[k]; k++)
			ok = ok || content_type_is(ct, FORMATS[i].types[k]);
		if (!ok) {
			http_reply_problem(resp, 415, FORMATS[i].refusal, NULL, NULL);
			return false;
		}
		if (req->body == NULL || req->body_len == 0) {
			http_reply_problem(resp, 400, "the file is empty", NULL, NULL);
			return false;
		}
		*f = FORMATS[i].format;
		return true;
	}
	http_reply_problem(resp, 400, "format must be bgstats, bggxml, backup or csv", NULL, NULL);
	return false;
}

void import_csv_mapping(const http_req *req, league_import *im)
{
	im->csv_columns = http_query(req, "columns");
	im->csv_dates = http_query(req, "dates");
	im->csv_game = http_query(req, "game");
}

int api_league_import_pre_body(const http_req *req, http_resp *resp)
{
	league_access a;
	if (!acct_csrf_reply(req, resp, false))
		access_check(req, resp, db_thread_conn(), req->params[0], true, &a);
	return 0;
}

int api_league_import(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = access_open_write(req, resp, false, true, &a);
	if (!c)
		return 0;
	const char *ct = http_header(req, MHD_HTTP_HEADER_CONTENT_TYPE);
	import_format f;
	if (!import_format_of(req, resp, ct, &f))
		return 0;
	league_import im = {
	    .league = req->params[0], .account = a.acc.id, .access = &a, .resp = resp};
	import_csv_mapping(req, &im);
	int rc = import_parse(&im, f, req->body, req->body_len);
	im.nparse_skips = im.nskips;
	if (rc == 0 && f == IMPORT_BGSTATS)
		im.file_text = json_object_to_json_string_ext(
		    im.root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (rc != 0) {
		http_reply_problem(resp, 400, im.detail, im.rule ? im.rule : "malformed-file",
		                   im.field[0] ? im.field : NULL);
	} else {
		db_status st = access_tx(c, import_tx, &im);
		if (st == DB_ABORT) {
			/* replied under the lock */
		} else if (st != DB_OK) {
			acct_reply_db(resp);
		} else {
			access_wrote(c, &a.acc);
			json_object *o = jx_obj();
			jx_set(o, "imported", jx_int(im.imported));
			jx_set(o, "skipped", jx_int(im.nskips));
			jx_set(o, "skipped_plays", import_skips_json(&im));
			jx_set(o, "players_created", jx_int(im.created));
			http_reply_json(resp, 200, o);
			if (im.imported >= IMPORT_ANALYZE_PLAYS)
				resp->after = import_analyze;
		}
	}
	io_import_free(&im);
	return 0;
}
