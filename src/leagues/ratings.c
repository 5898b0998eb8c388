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
		x->play = y->play;
		x->member = y->member;
		x->name = y->name;
		x->rank = y->rank;
		x->has_score = y->has_score;
		x->score = y->score;
		x->winner = y->winner;
		x->coop = y->cooperative;
		x->m = member_index(&mm, x->member);
		x->has_stored = y->has_rating;
		if (x->has_stored)
			x->stored = (rating){y->mu, y->sigma};
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

void league_rows_rate_some(league_rows *s, const int *idx, int n, rating *cur)
{
	for (int m = 0; m < s->nmembers; m++)
		cur[m] = rating_default();
	rating g[MAX_RESULTS];
	int rk[MAX_RESULTS];
	for (int i = 0; i < n;) {
		const char *play = nth_row(s, idx, i)->play;
		int j = i;
		while (j < n && strcmp(nth_row(s, idx, j)->play, play) == 0)
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

void league_rows_rate(league_rows *s, rating *cur)
{
	league_rows_rate_some(s, NULL, s->nrows, cur);
}

void league_rating_batch_add(league_rating_batch *b, const char *play, const char *member,
                             bool rated, rating r)
{
	league_array_elem(&b->plays, b->n == 0, play);
	league_array_elem(&b->members, b->n == 0, member);
	if (rated) {
		db_f8array_add(&b->mus, r.mu);
		db_f8array_add(&b->sigmas, r.sigma);
	} else {
		db_f8array_null(&b->mus);
		db_f8array_null(&b->sigmas);
	}
	b->n++;
}

db_status league_rating_batch_store(db_conn *c, league_rating_batch *b, db_status st)
{
	if (st == DB_OK && b->n > 0) {
		sb_str(&b->plays, "}");
		sb_str(&b->members, "}");
		st = db_ratings_store(c, b->plays.b, b->members.b, &b->mus, &b->sigmas);
	}
	free(b->plays.b);
	free(b->members.b);
	db_f8array_free(&b->mus);
	db_f8array_free(&b->sigmas);
	memset(b, 0, sizeof *b);
	return st;
}

/* Rates every play of the league in order and keeps the results: each result's rating, then
 * the standings and lines of every scope. */
static db_status rate_all(db_conn *c, const char *league)
{
	league_rows s;
	db_status st = db_recompute_work_mem(c);
	if (st == DB_OK)
		st = league_rows_load_keyed(c, league, &s);
	if (st != DB_OK)
		return st;
	rating *cur = xcalloc((size_t)s.nmembers, sizeof *cur);
	league_rows_rate(&s, cur);
	/* only the rows whose stored rating differs are written, in one statement */
	league_rating_batch b = {0};
	for (int i = 0; i < s.nrows; i++) {
		const league_row *x = &s.rows[i];
		bool same = x->rated ? x->has_stored && x->stored.mu == x->after.mu &&
		                           x->stored.sigma == x->after.sigma
		                     : !x->has_stored;
		if (!same)
			league_rating_batch_add(&b, x->play, x->member, x->rated, x->after);
	}
	st = league_rating_batch_store(c, &b, st);
	if (st == DB_OK) /* after the rows' own ratings are read: it rates them again per scope */
		st = league_scopes_keep(c, league, &s, cur);
	free(cur);
	league_rows_free(&s);
	return st;
}

db_status league_recompute(db_conn *c, const char *league)
{
	db_status st = db_league_bump(c, league); /* invalidates cached standings */
	if (st == DB_OK)                          /* which game each play is, for the game filter */
		st = db_league_rekey_games(c, league);
	return st == DB_OK ? rate_all(c, league) : st;
}

db_status league_recompute_added(db_conn *c, const char *league, const char *play)
{
	char *before = NULL, *after = NULL;
	bool done = false;
	db_status st = db_league_game_keys(c, league, &before);
	if (st == DB_OK)
		st = db_league_bump(c, league);
	if (st == DB_OK)
		st = db_league_rekey_games(c, league);
	if (st == DB_OK)
		st = db_league_game_keys(c, league, &after);
	/* a key that changed moves other plays between games: every scope is rated again */
	if (st == DB_OK && strcmp(before, after) == 0)
		st = league_scopes_append(c, league, play, &done);
	if (st == DB_OK && !done)
		st = rate_all(c, league);
	free(before);
	free(after);
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
