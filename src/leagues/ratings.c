/* The league's result rows and its ratings, recomputed from the plays in order; finished
 * table games recorded as plays (leagues.h). */
#include "leagues/leagues.h"
#include "base/log.h"
#include "base/oom.h"
#include "base/sbuf.h"
#include "db/accounts.h"
#include "db/leagues.h"
#include "json/jx.h"
#include "json/spec.h"
#include "leagues/internal.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the league's result rows (ratings, standings, head-to-head) ---- */

void league_rows_free(league_rows *s)
{
	db_rowset_clear(&s->set);
	free(s->rows);
	memset(s, 0, sizeof *s);
}

/* Member index of id (0..), added when new: open addressing over the member ids (ids are
 * random hex, so their first bytes hash well). */
typedef struct {
	const char **ids; /* borrowed */
	int *idx;
	size_t cap;
	int n;
} member_map;

static int member_index(member_map *mm, const char *id)
{
	size_t h = 1469598103934665603ull;
	for (const char *p = id; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	for (size_t i = h & (mm->cap - 1);; i = (i + 1) & (mm->cap - 1)) {
		if (mm->ids[i] == NULL) {
			mm->ids[i] = id;
			mm->idx[i] = mm->n++;
			return mm->idx[i];
		}
		if (strcmp(mm->ids[i], id) == 0)
			return mm->idx[i];
	}
}

/* Builds s->rows from the loaded s->set. */
static void rows_index(league_rows *s)
{
	s->nrows = s->set.n;
	s->rows = xcalloc((size_t)s->nrows, sizeof *s->rows);
	member_map mm = {.cap = 64};
	while (mm.cap < 2 * (size_t)s->nrows)
		mm.cap *= 2;
	mm.ids = xcalloc(mm.cap, sizeof *mm.ids);
	mm.idx = xcalloc(mm.cap, sizeof *mm.idx);
	for (int i = 0; i < s->nrows; i++) {
		league_row *x = &s->rows[i];
		const db_league_result *y = &s->set.rows[i];
		x->seq = y->seq;
		x->at = y->at_us;
		x->play = y->play;
		x->member = y->member;
		x->name = y->name;
		x->rank = y->rank;
		x->has_score = y->has_score;
		x->score = y->score;
		x->winner = y->winner;
		x->coop = y->cooperative;
		x->m = member_index(&mm, x->member);
		x->key = y->game_key;
		x->date = y->local_date;
	}
	s->nmembers = mm.n;
	free(mm.ids);
	free(mm.idx);
}

/* Loads the league's results in play order (season/game filters may be NULL). */
db_status league_rows_load(db_conn *c, const char *league, const char *season, const char *game,
                           league_rows *s)
{
	memset(s, 0, sizeof *s);
	db_status st = db_league_rows(c, league, season, game, &s->set);
	if (st == DB_OK)
		rows_index(s);
	return st;
}

db_status league_rows_load_keyed(db_conn *c, const char *league, league_rows *s)
{
	memset(s, 0, sizeof *s);
	db_status st = db_league_rows_keyed(c, league, &s->set);
	if (st == DB_OK)
		rows_index(s);
	return st;
}

/* Row k of the rows idx[0..n) (idx NULL: all rows in order). */
static league_row *nth_row(league_rows *s, const int *idx, int k)
{
	return &s->rows[idx ? idx[k] : k];
}

/* Rates the rows idx[0..n) (NULL: all rows) in order from the ratings in cur (updated): each
 * row's after and rated. */
static void rate_span(league_rows *s, const int *idx, int n, rating *cur)
{
	rating g[MAX_RESULTS];
	int rk[MAX_RESULTS];
	for (int i = 0; i < n;) {
		int64_t play = nth_row(s, idx, i)->seq;
		int j = i;
		while (j < n && nth_row(s, idx, j)->seq == play)
			j++;
		int np = j - i;
		bool rated = !nth_row(s, idx, i)->coop && np >= 2 && np <= MAX_RESULTS;
		if (rated) {
			for (int k = 0; k < np; k++) {
				g[k] = cur[nth_row(s, idx, i + k)->m];
				rk[k] = nth_row(s, idx, i + k)->rank;
			}
			rating_rate(g, rk, (size_t)np);
			for (int k = 0; k < np; k++)
				cur[nth_row(s, idx, i + k)->m] = g[k];
		}
		for (int k = i; k < j; k++) {
			league_row *x = nth_row(s, idx, k);
			x->after = cur[x->m];
			x->rated = rated;
		}
		i = j;
	}
}

void league_rows_rate_some(league_rows *s, const int *idx, int n, rating *cur)
{
	for (int m = 0; m < s->nmembers; m++)
		cur[m] = rating_default();
	rate_span(s, idx, n, cur);
}

void league_rows_rate_from(league_rows *s, int from, rating *cur)
{
	for (int m = 0; m < s->nmembers; m++)
		cur[m] = rating_default();
	for (int i = 0; i < from; i++)
		cur[s->rows[i].m] = s->rows[i].line;
	league_row *tail = s->rows + from;
	league_rows t = {.rows = tail, .nrows = s->nrows - from, .nmembers = s->nmembers};
	rate_span(&t, NULL, t.nrows, cur);
	for (int i = 0; i < t.nrows; i++)
		tail[i].line = tail[i].after;
}

void league_rows_rate(league_rows *s, rating *cur)
{
	league_rows_rate_from(s, 0, cur);
}

void league_rating_batch_add(league_rating_batch *b, const char *member, rating r)
{
	league_array_elem(&b->members, b->n == 0, member);
	db_f8array_add(&b->mus, r.mu);
	db_f8array_add(&b->sigmas, r.sigma);
	b->n++;
}

db_status league_rating_batch_append(db_conn *c, const char *league, const char *play,
                                     league_rating_batch *b, db_status st)
{
	if (st == DB_OK) {
		sb_str(&b->members, b->n ? "}" : "{}");
		st = db_member_lines_append(c, league, play, b->members.b, &b->mus, &b->sigmas);
	}
	free(b->members.b);
	db_f8array_free(&b->mus);
	db_f8array_free(&b->sigmas);
	memset(b, 0, sizeof *b);
	return st;
}

/* One member's results in play order for its line: the rows of s the member has (rows[]),
 * merged with the member's results the rows leave out (out: league_rows_out). */
typedef struct {
	sbuf members, counts, counts_all;
	db_f8array seqs, mus, sigmas, all_seqs, upto;
	bool first;
} line_arrays;

static void add_int(sbuf *a, bool first, int64_t v)
{
	char num[32];
	snprintf(num, sizeof num, "%s%" PRId64, first ? "" : ",", v);
	sb_str(a, num);
}

/* Appends member id's line: its rows (n of them, rows indices of s in play order) and its out
 * rows (nout, indices into out, in play order) merged in play order. */
static void line_add(line_arrays *a, const char *id, const league_rows *s, const int *rows, int n,
                     const db_out_rows *out, const int *outs, int nout)
{
	league_array_elem(&a->members, a->first, id);
	int nrated = 0;
	for (int i = 0; i < n; i++)
		nrated += s->rows[rows[i]].rated;
	add_int(&a->counts, a->first, nrated);
	add_int(&a->counts_all, a->first, n + nout);
	a->first = false;
	int so_far = 0;
	for (int i = 0, j = 0; i < n || j < nout;) {
		const league_row *x = i < n ? &s->rows[rows[i]] : NULL;
		const db_out_row *o = j < nout ? &out->rows[outs[j]] : NULL;
		int64_t seq;
		if (x && (!o || x->at < o->at_us || (x->at == o->at_us && x->seq < o->seq))) {
			seq = x->seq;
			if (x->rated) {
				db_f8array_int8(&a->seqs, seq);
				db_f8array_add(&a->mus, x->line.mu);
				db_f8array_add(&a->sigmas, x->line.sigma);
				so_far++;
			}
			i++;
		} else {
			seq = o->seq;
			j++;
		}
		db_f8array_int8(&a->all_seqs, seq);
		db_f8array_int4(&a->upto, so_far);
	}
}

/* Stores every member's line (member_lines_store; the other lines of the league go): the rows
 * of s, rated by league_rows_rate*, and the league's results they leave out (read here), each
 * member's in play order. */
static db_status lines_store(db_conn *c, const char *league, const league_rows *s)
{
	db_out_rows out = {0};
	db_status st = db_league_rows_out(c, league, &out);
	if (st != DB_OK)
		return st;
	int nm = s->nmembers, cap = nm + out.n + 1;
	const char **id = xcalloc((size_t)cap, sizeof *id);
	int *nrows = xcalloc((size_t)cap, sizeof *nrows),
	    *nouts = xcalloc((size_t)cap, sizeof *nouts);
	int *of_out = xcalloc((size_t)out.n + 1, sizeof *of_out); /* each out row's member */
	for (int i = 0; i < s->nrows; i++) {
		nrows[s->rows[i].m]++;
		id[s->rows[i].m] = s->rows[i].member;
	}
	int total = nm;
	for (int j = 0; j < out.n; j++) {
		int m = 0;
		while (m < total && !(id[m] && strcmp(id[m], out.rows[j].member) == 0))
			m++;
		if (m == total)
			id[total++] = out.rows[j].member;
		of_out[j] = m;
		nouts[m]++;
	}
	/* each member's rows and out rows, member after member, each in play order */
	int *at_rows = xcalloc((size_t)cap, sizeof *at_rows),
	    *at_outs = xcalloc((size_t)cap, sizeof *at_outs);
	for (int m = 1; m < total; m++) {
		at_rows[m] = at_rows[m - 1] + nrows[m - 1];
		at_outs[m] = at_outs[m - 1] + nouts[m - 1];
	}
	int *rows = xcalloc((size_t)s->nrows + 1, sizeof *rows);
	int *outs = xcalloc((size_t)out.n + 1, sizeof *outs);
	int *fill_rows = xcalloc((size_t)cap, sizeof *fill_rows),
	    *fill_outs = xcalloc((size_t)cap, sizeof *fill_outs);
	for (int i = 0; i < s->nrows; i++)
		rows[at_rows[s->rows[i].m] + fill_rows[s->rows[i].m]++] = i;
	for (int j = 0; j < out.n; j++)
		outs[at_outs[of_out[j]] + fill_outs[of_out[j]]++] = j;
	line_arrays a = {.first = true,
	                 .seqs = {.oid = DB_ARRAY_INT8},
	                 .all_seqs = {.oid = DB_ARRAY_INT8},
	                 .upto = {.oid = DB_ARRAY_INT4}};
	sb_str(&a.counts, "{");
	sb_str(&a.counts_all, "{");
	for (int m = 0; m < total; m++)
		if (nrows[m] + nouts[m] > 0)
			line_add(&a, id[m], s, rows + at_rows[m], nrows[m], &out, outs + at_outs[m],
			         nouts[m]);
	if (a.first) /* no result: every line of the league goes */
		sb_str(&a.members, "{");
	sb_str(&a.members, "}");
	sb_str(&a.counts, "}");
	sb_str(&a.counts_all, "}");
	db_member_lines l = {.members = a.members.b,
	                     .counts = a.counts.b,
	                     .counts_all = a.counts_all.b,
	                     .seqs = &a.seqs,
	                     .mus = &a.mus,
	                     .sigmas = &a.sigmas,
	                     .all_seqs = &a.all_seqs,
	                     .rated_upto = &a.upto};
	st = db_member_lines_store(c, league, &l);
	free(a.members.b);
	free(a.counts.b);
	free(a.counts_all.b);
	db_f8array *arrays[] = {&a.seqs, &a.mus, &a.sigmas, &a.all_seqs, &a.upto};
	for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
		db_f8array_free(arrays[k]);
	free(fill_rows);
	free(fill_outs);
	free(rows);
	free(outs);
	free(at_rows);
	free(at_outs);
	free(of_out);
	free(nrows);
	free(nouts);
	free(id);
	db_rowset_clear(&out);
	return st;
}

/* Rates s (the league's rows in play order) from row from on (league_rows_rate_from: rows
 * before it are as the last rating left them) and keeps the result: each member's line, then
 * the standings and lines of every scope (touch not NULL: of those holding the play it names;
 * league_scopes_keep). */
static db_status rate_rows(db_conn *c, const char *league, league_rows *s, int from,
                           const league_touch *touch)
{
	rating *cur = xcalloc((size_t)s->nmembers + 1, sizeof *cur);
	league_rows_rate_from(s, from, cur);
	db_status st = lines_store(c, league, s);
	if (st == DB_OK)
		st = league_scopes_keep(c, league, s, cur, touch);
	free(cur);
	return st;
}

/* Rates every play of the league in order and keeps the results; the rows are kept for the
 * league's next change (version: the one this transaction wrote). */
static db_status rate_all(db_conn *c, const char *league, long long version)
{
	league_rows s;
	db_status st = db_recompute_work_mem(c);
	if (st == DB_OK)
		st = league_rows_load_keyed(c, league, &s);
	if (st != DB_OK)
		return st;
	st = rate_rows(c, league, &s, 0, NULL);
	if (st == DB_OK)
		kept_pending_set(kept_from_rows(league, &s), version);
	league_rows_free(&s);
	return st;
}

db_status league_recompute(db_conn *c, const char *league)
{
	long long v;
	db_status st = db_league_bump(c, league, &v); /* invalidates cached standings */
	if (st == DB_OK) /* which game each play is, for the game filter */
		st = db_league_rekey_games(c, league);
	return st == DB_OK ? rate_all(c, league, v) : st;
}

/* Bumps the league's version (*version: the new one) and rekeys its games; *same: no game's
 * key changed (a key that changes moves other plays between games). */
static db_status bump_rekey(db_conn *c, const char *league, long long *version, bool *same)
{
	char *before = NULL, *after = NULL;
	db_status st = db_league_game_keys(c, league, &before);
	if (st == DB_OK)
		st = db_league_bump(c, league, version);
	if (st == DB_OK)
		st = db_league_rekey_games(c, league);
	if (st == DB_OK)
		st = db_league_game_keys(c, league, &after);
	*same = st == DB_OK && strcmp(before, after) == 0;
	free(before);
	free(after);
	return st;
}

/* The league's rows kept at version with play's rows read again in their place (*out; NULL
 * when none are kept at version, or too many plays were spliced in already). */
static db_status kept_spliced(db_conn *c, const char *league, const char *play, long long version,
                              kept_league **out)
{
	*out = NULL;
	kept_league *k = kept_take(league, version);
	if (!k)
		return DB_OK;
	db_league_results rows;
	db_status st = db_league_play_rows_keyed(c, league, play, &rows);
	if (st == DB_OK && kept_splice(k, play, &rows)) {
		*out = k;
		return DB_OK;
	}
	kept_free(k);
	return st;
}

/* Rates the league from the rows kept at version - 1 with play's rows read again, when they
 * are kept and every game kept its key (same): from the first row the change moved on, the
 * rows before it keeping their ratings; else the whole league read and rated. */
static db_status rate_changed(db_conn *c, const char *league, const char *play, long long version,
                              bool same)
{
	kept_league *k = NULL;
	db_status st = same ? kept_spliced(c, league, play, version - 1, &k) : DB_OK;
	if (st != DB_OK || !k)
		return st == DB_OK ? rate_all(c, league, version) : st;
	st = rate_rows(c, league, kept_rows(k), kept_rated(k), kept_touch(k));
	if (st == DB_OK) {
		kept_rated_all(k);
		kept_pending_set(k, version);
	} else
		kept_free(k);
	return st;
}

db_status league_recompute_play(db_conn *c, const char *league, const char *play)
{
	long long v;
	bool same;
	db_status st = bump_rekey(c, league, &v, &same);
	return st == DB_OK ? rate_changed(c, league, play, v, same) : st;
}

db_status league_recompute_added(db_conn *c, const char *league, const char *play)
{
	long long v;
	bool same, done = false;
	db_status st = bump_rekey(c, league, &v, &same);
	if (st == DB_OK && same)
		st = league_scopes_append(c, league, play, &done);
	if (st == DB_OK && !done) /* a play dated before others: every play after it moves */
		return rate_changed(c, league, play, v, same);
	/* rated from the kept standings: the kept rows take the play too, for the next change */
	kept_league *k = NULL;
	if (st == DB_OK)
		st = kept_spliced(c, league, play, v - 1, &k);
	if (k)
		kept_pending_set(k, v);
	return st;
}

/* ---- finished table games ---- */

static const char *kind_game_name(const char *kind)
{
	if (strcmp(kind, "er") == 0)
		return "Dice Hospital: ER – Emergency Roll";
	if (strcmp(kind, "dh") == 0)
		return "Dice Hospital";
	if (strcmp(kind, "clinic") == 0)
		return "Clinic";
	return kind;
}

void leagues_table_recorded(const http_req *req, void *c)
{
	/* the cookie's session, unchecked: the worst a stale or forged one does is send its own
	 * next reads to the primary */
	account writer = {0};
	if (acct_session_key(req, writer.session))
		league_wrote(c, &writer);
}

int leagues_record_game(db_conn *c, const char *game_id, const char *league_id, const char *kind,
                        const char *result_json)
{
	if (league_id == NULL || league_id[0] == '\0')
		return DB_OK;
	db_status st = league_lock(c, league_id);
	if (st == DB_ABORT) {
		log_client("game %s names league %s, which does not exist: not recorded", game_id,
		           league_id);
		return DB_OK;
	}
	if (st != DB_OK)
		return st;
	json_object *root = json_tokener_parse(result_json), *a = NULL, *v;
	if (root == NULL || !json_object_object_get_ex(root, "standings", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		log_bug("game %s: result without standings: not recorded", game_id);
		json_object_put(root);
		return DB_OK;
	}
	league_result res[MAX_RESULTS];
	league_play p = {.game = kind_game_name(kind),
	                 .duration_min = -1,
	                 .source = "table",
	                 .game_id = game_id,
	                 .results = res};
	const char *finished = NULL, *created = NULL;
	if (json_object_object_get_ex(root, "finished_at", &v))
		finished = json_object_get_string(v);
	if (json_object_object_get_ex(root, "created_at", &v))
		created = json_object_get_string(v);
	/* a game the table ended before the rulebook's last round: kept and shown, not rated */
	if (json_object_object_get_ex(root, "incomplete", &v))
		p.incomplete = json_object_get_boolean(v);
	int off;
	if (!finished || !league_parse_rfc3339(finished, p.when, &off)) {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(p.when, sizeof p.when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	char cw[64];
	if (created && finished && league_parse_rfc3339(created, cw, &off)) {
		struct tm a0 = {0}, a1 = {0};
		if (strptime(cw, "%Y-%m-%dT%H:%M:%S", &a0) &&
		    strptime(p.when, "%Y-%m-%dT%H:%M:%S", &a1)) {
			double d = difftime(timegm(&a1), timegm(&a0));
			if (d >= 0)
				p.duration_min = (int64_t)(d / 60 + 0.5);
		}
	}
	size_t n = json_object_array_length(a);
	st = DB_OK;
	for (size_t i = 0; i < n && p.nresults < MAX_RESULTS && st == DB_OK; i++) {
		json_object *s = json_object_array_get_idx(a, i), *name, *bot, *score, *rank, *bd;
		if (json_object_object_get_ex(s, "bot", &bot) && json_object_get_boolean(bot))
			continue;
		if (!json_object_object_get_ex(s, "name", &name))
			continue;
		league_result *x = &res[p.nresults++];
		memset(x, 0, sizeof *x);
		bool created_member;
		st = league_member_by_name(c, league_id, json_object_get_string(name), x->member,
		                           &created_member);
		/* two seats of one name are two players: the second is "name (seat N)" */
		for (int k = 0; st == DB_OK && k < p.nresults - 1; k++)
			if (strcmp(res[k].member, x->member) == 0) {
				char alt[300];
				snprintf(alt, sizeof alt, "%.256s (seat %zu)",
				         json_object_get_string(name), i + 1);
				st = league_member_by_name(c, league_id, alt, x->member,
				                           &created_member);
				break;
			}
		if (json_object_object_get_ex(s, "score", &score)) {
			x->has_score = true;
			x->score = json_object_get_double(score);
		}
		if (json_object_object_get_ex(s, "rank", &rank)) {
			x->has_rank = true;
			x->rank = json_object_get_int(rank);
		}
		if (json_object_object_get_ex(s, "breakdown", &bd))
			x->breakdown = json_object_to_json_string_ext(bd, JSON_C_TO_STRING_PLAIN);
	}
	const char *why;
	if (st == DB_OK && p.nresults > 0 && league_play_rank(&p, &why)) {
		char id[ID_LEN + 1];
		st = league_play_insert(c, league_id, NULL, &p, id);
		if (st == DB_ABORT) /* already recorded */
			st = DB_OK;
		else if (st == DB_OK)
			st = league_recompute_added(c, league_id, id);
	}
	json_object_put(root);
	return st;
}
