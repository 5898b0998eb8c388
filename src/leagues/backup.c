/* A whole league as our own JSON backup (GET …/backup), and read back by the import: a backup
 * restores the league it came from identically. */
#include "leagues/backup.h"
#include "leagues/access.h"
#include "leagues/dates.h"
#include "leagues/io.h"
#include "leagues/store.h"

#include "json/jx.h"
#include "json/spec.h"

#include <stdio.h>
#include <string.h>

static int backup_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	db_export_rows rs;
	if (!io_export_rows_all(req, resp, c, acc, &a, &rs))
		return 0;
	json_object *plays = jx_arr(), *play = NULL, *results = NULL;
	const char *cur = "";
	for (int i = 0; i < rs.n; i++) {
		const db_export_row *y = &rs.rows[i];
		if (strcmp(cur, y->play) != 0) {
			cur = y->play;
			play = jx_obj();
			jx_set(play, "uuid", jx_str(y->uuid));
			jx_set(play, "game", jx_str(y->game));
			jx_set(play, "bgg_id", io_num_text(y->bgg_id));
			jx_set(play, "date", jx_str_or_null(y->date)); /* null: undated */
			jx_set(play, "duration_min", io_num_text(y->duration_min));
			jx_set(play, "notes", jx_str(y->notes));
			jx_set(play, "location", jx_str(y->location));
			jx_set(play, "cooperative", jx_bool(y->cooperative));
			jx_set(play, "source", jx_str(y->source));
			if (y->ignored)
				jx_set(play, "ignored", jx_bool(true));
			if (y->incomplete)
				jx_set(play, "incomplete", jx_bool(true));
			if (y->bgg_play_id)
				jx_set(play, "bgg_play_id", io_num_text(y->bgg_play_id));
			results = jx_arr();
			jx_set(play, "results", results);
			jx_push(plays, play);
		}
		if (!y->has_result)
			continue;
		json_object *x = jx_obj();
		jx_set(x, "name", jx_str(y->name));
		jx_set(x, "score", io_num_text(y->score));
		jx_set(x, "rank", jx_int(y->rank));
		jx_set(x, "winner", jx_bool(y->winner));
		if (y->breakdown)
			jx_set(x, "breakdown", jx_parse_stored(y->breakdown));
		if (y->unrated)
			jx_set(x, "unrated", jx_bool(true));
		if (y->score_text)
			jx_set(x, "score_text", jx_str(y->score_text));
		if (y->team)
			jx_set(x, "team", jx_str(y->team));
		jx_push(results, x);
	}
	db_rowset_clear(&rs);
	const char *league = req->params[0];
	db_league_row lr;
	db_member_rows mr = {0};
	db_season_rows sr = {0};
	json_object *members = jx_arr(), *seasons = jx_arr(), *o = jx_obj();
	jx_set(o, "format", jx_str(BACKUP_FORMAT));
	jx_set(o, "version", jx_int(1));
	jx_set(o, "members", members);
	jx_set(o, "seasons", seasons);
	jx_set(o, "plays", plays);
	if (db_league_get(c, league, &lr) != DB_OK || db_league_members(c, league, &mr) != DB_OK ||
	    db_league_seasons(c, league, &sr) != DB_OK) {
		db_rowset_clear(&mr);
		json_object_put(o);
		return acct_reply_db(resp);
	}
	jx_set(o, "name", jx_str(lr.found ? lr.name : ""));
	for (int i = 0; i < mr.n; i++) {
		json_object *m = jx_obj();
		jx_set(m, "name", jx_str(mr.rows[i].name));
		jx_push(members, m);
	}
	for (int i = 0; i < sr.n; i++) {
		json_object *m = jx_obj();
		jx_set(m, "name", jx_str(sr.rows[i].name));
		jx_set(m, "starts", jx_str(sr.rows[i].starts));
		jx_set(m, "ends", jx_str(sr.rows[i].ends));
		jx_push(seasons, m);
	}
	db_rowset_clear(&mr);
	db_rowset_clear(&sr);
	char *text = xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return io_reply_file(resp, "application/json", "league-backup.json", text, strlen(text));
}

int api_league_backup(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, backup_read);
}

/* ---- our backup ---- */

int backup_parse(league_import *im)
{
	const char *format = NULL;
	int64_t version = 0;
	json_object *members = NULL, *seasons = NULL, *plays = NULL;
	const char *name = NULL;
	js_error err;
	const js_field f[] = {
	    {"format", JS_STRING, JS_F_REQUIRED, 1, 64, NULL, &format, NULL},
	    {"version", JS_INT, JS_F_REQUIRED, 1, 1, NULL, &version, NULL},
	    {"name", JS_STRING, 0, 1, NAME_MAX_BYTES, NULL, &name, NULL},
	    {"members", JS_ARRAY, JS_F_REQUIRED, 0, 0, NULL, &members, NULL},
	    {"seasons", JS_ARRAY, JS_F_REQUIRED, 0, 0, NULL, &seasons, NULL},
	    {"plays", JS_ARRAY, JS_F_REQUIRED, 0, IMPORT_MAX_PLAYS, NULL, &plays, NULL},
	};
	if (js_fields(im->root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return io_fail(im, err.field, err.detail);
	if (strcmp(format, BACKUP_FORMAT) != 0)
		return io_fail(im, "/format", "is not \"" BACKUP_FORMAT "\"");
	char at[300];
	size_t n = json_object_array_length(members);
	im->members = xcalloc(n, sizeof *im->members);
	for (size_t i = 0; i < n; i++) {
		const js_field mf[] = {{"name", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL,
		                        &im->members[i], NULL}};
		js_path_index(at, sizeof at, "/members", i);
		if (js_fields(json_object_array_get_idx(members, i), at, mf, 1, &err) != 0)
			return io_fail(im, err.field, err.detail);
		im->nmembers++;
	}
	n = json_object_array_length(seasons);
	im->seasons = xcalloc(n, sizeof *im->seasons);
	for (size_t i = 0; i < n; i++) {
		imp_season *s = &im->seasons[i];
		const js_field sf[] = {
		    {"name", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL, &s->name, NULL},
		    {"starts", JS_STRING, JS_F_REQUIRED, 10, 10, NULL, &s->starts, NULL},
		    {"ends", JS_STRING, JS_F_REQUIRED, 10, 10, NULL, &s->ends, NULL},
		};
		char w[64];
		js_path_index(at, sizeof at, "/seasons", i);
		if (js_fields(json_object_array_get_idx(seasons, i), at, sf, 3, &err) != 0)
			return io_fail(im, err.field, err.detail);
		if (!dates_parse_when(s->starts, w) || !dates_parse_when(s->ends, w) ||
		    strcmp(s->ends, s->starts) < 0)
			return io_fail(im, at, "a season has dates YYYY-MM-DD, ends ≥ starts");
		im->nseasons++;
	}
	static const char *const sources[] = {"hand", "table", "bgstats", "bggxml", "csv", NULL};
	n = json_object_array_length(plays);
	for (size_t i = 0; i < n; i++) {
		json_object *pl = json_object_array_get_idx(plays, i), *results = NULL;
		const char *date = NULL;
		int source = 0;
		int64_t bgg = 0, dur = -1, bggplay = 0;
		bool has_bgg = false, has_dur = false;
		league_play tmp = {0};
		const js_field pf[] = {
		    {"uuid", JS_STRING, JS_F_REQUIRED, 1, 128, NULL, &tmp.uuid, NULL},
		    {"game", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL, &tmp.game, NULL},
		    {"bgg_id", JS_INT, JS_F_NULLABLE, 1, 2147483647, NULL, &bgg, &has_bgg},
		    {"date", JS_STRING, JS_F_REQUIRED | JS_F_NULLABLE, 10, 40, NULL, &date, NULL},
		    {"duration_min", JS_INT, JS_F_NULLABLE, 0, 100000, NULL, &dur, &has_dur},
		    {"notes", JS_STRING, 0, 0, 4096, NULL, &tmp.notes, NULL},
		    {"location", JS_STRING, 0, 0, NAME_MAX_BYTES, NULL, &tmp.location, NULL},
		    {"cooperative", JS_BOOL, 0, 0, 0, NULL, &tmp.cooperative, NULL},
		    {"source", JS_ENUM, JS_F_REQUIRED, 0, 0, sources, &source, NULL},
		    {"ignored", JS_BOOL, 0, 0, 0, NULL, &tmp.ignored, NULL},
		    {"incomplete", JS_BOOL, 0, 0, 0, NULL, &tmp.incomplete, NULL},
		    {"bgg_play_id", JS_INT, 0, 1, 9007199254740991, NULL, &bggplay, NULL},
		    {"results", JS_ARRAY, JS_F_REQUIRED, 0, IMPORT_MAX_RESULTS, NULL, &results,
		     NULL},
		};
		js_path_index(at, sizeof at, "/plays", i);
		if (js_fields(pl, at, pf, sizeof pf / sizeof pf[0], &err) != 0)
			return io_fail(im, err.field, err.detail);
		size_t nr = json_object_array_length(results);
		imp_play *ip = io_new_play(im, (int)i, (int)nr);
		ip->p = tmp;
		ip->p.source = sources[source];
		ip->p.bgg_id = has_bgg ? bgg : 0;
		ip->p.duration_min = has_dur ? dur : -1;
		ip->p.bgg_play_id = bggplay;
		bool local = false;
		if (date == NULL) { /* an undated play */
			snprintf(ip->p.when, sizeof ip->p.when, "%s", PLAY_UNDATED_AT);
			ip->p.clock = PLAY_CLOCK_UNDATED;
		} else if (!dates_parse_play(date, ip->p.when, &ip->p.utc_offset_min, &local)) {
			char df[sizeof at + 8];
			snprintf(df, sizeof df, "%s/date", at);
			return io_fail(im, df,
			               "date must be an RFC 3339 time with an offset from -15:59 "
			               "to +15:59, a local time without one, or null (undated)");
		}
		if (local)
			ip->p.clock = PLAY_CLOCK_LOCAL;
		for (size_t k = 0; k < nr; k++) {
			imp_result *r = &ip->res[ip->nres++];
			int64_t rank = 0;
			json_object *bd = NULL;
			bool has_bd = false;
			char rf[340];
			const js_field xf[] = {
			    {"name", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL, &r->name,
			     NULL},
			    {"score", JS_NUMBER, JS_F_NULLABLE, 0, 0, NULL, &r->r.score,
			     &r->r.has_score},
			    {"rank", JS_INT, JS_F_REQUIRED, 1, 1000, NULL, &rank, NULL},
			    {"winner", JS_BOOL, JS_F_REQUIRED, 0, 0, NULL, &r->r.winner, NULL},
			    {"breakdown", JS_OBJECT, JS_F_NULLABLE, 0, 0, NULL, &bd, &has_bd},
			    {"unrated", JS_BOOL, 0, 0, 0, NULL, &r->r.unrated, NULL},
			    {"score_text", JS_STRING, 0, 1, 256, NULL, &r->r.score_text, NULL},
			    {"team", JS_STRING, 0, 1, 64, NULL, &r->r.team, NULL},
			};
			snprintf(rf, sizeof rf, "%s/results/%zu", at, k);
			if (js_fields(json_object_array_get_idx(results, k), rf, xf,
			              sizeof xf / sizeof xf[0], &err) != 0)
				return io_fail(im, err.field, err.detail);
			r->r.rank = (int)rank;
			r->r.has_rank = r->r.has_winner = true;
			r->r.breakdown =
			    has_bd ? json_object_to_json_string_ext(bd, JSON_C_TO_STRING_PLAIN)
			           : NULL;
		}
		if (io_check_names(im, ip, at) != 0)
			return -1;
	}
	return 0;
}
