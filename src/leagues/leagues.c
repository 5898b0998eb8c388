/* Leagues, members, seasons, plays, ratings, standings, head-to-head, history (leagues.h). */
#include "leagues/leagues.h"
#include "base/sbuf.h"

#include "base/log.h"
#include "base/oom.h"
#include "db/accounts.h"
#include "db/leagues.h"
#include "json/jx.h"
#include "json/spec.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_RESULTS = RATING_MAX_PLAYERS, NOTES_MAX = 4096, GAME_MAX = 256, H2H_MAX_PLAYERS = 1024 };

/* ---- small helpers ---- */

/* An element of a PostgreSQL array literal: NULL, or the text quoted ("…" with \\ and \"). */
static void sb_elem(sbuf *s, const char *v)
{
	if (v == NULL) {
		sb_str(s, "NULL");
		return;
	}
	sb_str(s, "\"");
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_str(s, "\\");
		sb_add(s, p, 1);
	}
	sb_str(s, "\"");
}

/* A stored number (score) as JSON: an integer when it is one, null when absent. */
static json_object *jx_num(bool has, double d)
{
	if (!has)
		return NULL;
	if (d == floor(d) && fabs(d) < 9e15)
		return jx_int((int64_t)d);
	return jx_double(d);
}

static json_object *rating_json(rating r)
{
	json_object *o = jx_obj();
	jx_set(o, "mu", jx_double(r.mu));
	jx_set(o, "sigma", jx_double(r.sigma));
	jx_set(o, "ordinal", jx_double(rating_ordinal(r)));
	jx_set(o, "provisional", jx_bool(rating_provisional(r)));
	return o;
}

static int reply_status(http_resp *resp, db_status st)
{
	(void)st;
	return acct_reply_db(resp);
}

/* Runs fn in a transaction and maps a failure to a reply (fn replies itself on DB_ABORT). */
static void run_tx(db_conn *c, db_tx_fn fn, void *arg, http_resp *resp)
{
	db_status st = c ? db_tx(c, false, fn, arg) : DB_UNAVAILABLE;
	if (st != DB_OK && st != DB_ABORT)
		reply_status(resp, st);
}

/* ---- the standings/history cache ----
 * Standings and histories change only when the league's plays do, and every such change bumps
 * leagues.version in the same transaction. So a reply computed at version v is valid for any
 * request that finds the league at v (on any server): the per-process cache is keyed by
 * (what was asked, version) and needs no invalidation. The version comes with the access
 * check, so a cached reply costs the same two round trips as any league read. */
enum { LCACHE_SLOTS = 64, LCACHE_KEY = 400 };

typedef struct {
	char key[LCACHE_KEY];
	long long version;
	char *text; /* owned */
	size_t len;
	unsigned long long used;
} lcache_slot;

static lcache_slot g_lcache[LCACHE_SLOTS];
static pthread_mutex_t g_lcache_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long g_lcache_tick;

/* Answers from the cache when it holds key at version. */
static bool lcache_reply(const char *key, long long version, http_resp *resp)
{
	bool hit = false;
	pthread_mutex_lock(&g_lcache_mu);
	for (int i = 0; i < LCACHE_SLOTS && !hit; i++) {
		lcache_slot *e = &g_lcache[i];
		if (e->text && e->version == version && strcmp(e->key, key) == 0) {
			resp->body = xmalloc(e->len + 1);
			memcpy(resp->body, e->text, e->len + 1);
			resp->body_len = e->len;
			e->used = ++g_lcache_tick;
			hit = true;
		}
	}
	pthread_mutex_unlock(&g_lcache_mu);
	if (hit) {
		resp->status = 200;
		resp->content_type = "application/json";
	}
	return hit;
}

/* Replies o (taking it) and keeps its text under (key, version). */
static int lcache_reply_put(const char *key, long long version, http_resp *resp, json_object *o)
{
	const char *text = jx_text(o);
	size_t len = strlen(text);
	if (strlen(key) < LCACHE_KEY) {
		pthread_mutex_lock(&g_lcache_mu);
		lcache_slot *victim = &g_lcache[0];
		for (int i = 0; i < LCACHE_SLOTS; i++) {
			lcache_slot *e = &g_lcache[i];
			if (strcmp(e->key, key) == 0 || e->text == NULL) {
				victim = e;
				break;
			}
			if (e->used < victim->used)
				victim = e;
		}
		free(victim->text);
		snprintf(victim->key, sizeof victim->key, "%s", key);
		victim->version = version;
		victim->text = xmalloc(len + 1);
		memcpy(victim->text, text, len + 1);
		victim->len = len;
		victim->used = ++g_lcache_tick;
		pthread_mutex_unlock(&g_lcache_mu);
	}
	return http_reply_json(resp, 200, o);
}

void leagues_shutdown(void)
{
	pthread_mutex_lock(&g_lcache_mu);
	for (int i = 0; i < LCACHE_SLOTS; i++) {
		free(g_lcache[i].text);
		memset(&g_lcache[i], 0, sizeof g_lcache[i]);
	}
	pthread_mutex_unlock(&g_lcache_mu);
}

/* ---- access ---- */

bool league_access_check(const http_req *req, http_resp *resp, db_conn *c, const char *league,
                         bool owner, league_access *a)
{
	memset(a, 0, sizeof *a);
	if (!acct_session(req, resp, c, &a->acc))
		return false;
	db_league_access row;
	if (db_league_access_get(c, league, a->acc.id, &row) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	bool ok = false;
	if (!row.found) {
		http_reply_problem(resp, 404, "no such league", NULL, NULL);
	} else {
		a->owner = row.owner;
		snprintf(a->member, sizeof a->member, "%s", row.member);
		a->version = row.version;
		if (!a->owner && (owner || a->member[0] == '\0'))
			http_reply_problem(resp, 403,
			                   owner ? "only the league's owners may do this"
			                         : "you are not a member of this league",
			                   owner ? "not-owner" : "not-member", NULL);
		else
			ok = true;
	}
	return ok;
}

db_status league_lock(db_conn *c, const char *league)
{
	bool found;
	db_status st = db_league_lock(c, league, &found);
	return st == DB_OK && !found ? DB_ABORT : st;
}

db_status league_member_by_name(db_conn *c, const char *league, const char *name,
                                char id[ID_LEN + 1], bool *created)
{
	char nid[ID_LEN + 1];
	id_new(nid);
	bool inserted, found;
	*created = false;
	db_status st = db_member_insert_guest(c, nid, league, name, &inserted);
	if (st != DB_OK)
		return st;
	if (inserted) {
		*created = true;
		snprintf(id, ID_LEN + 1, "%s", nid);
		return DB_OK;
	}
	st = db_member_by_name(c, league, name, &found, id);
	if (st != DB_OK)
		return st;
	return found ? DB_OK : DB_FAIL;
}

/* ---- dates ---- */

static bool digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

bool league_parse_when(const char *s, char out[64])
{
	int y, mo, d, h = 0, mi = 0, se = 0;
	size_t n = strlen(s);
	if (n < 10 || n > 40 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) ||
	    s[7] != '-' || !digits(s + 8, 2, &d))
		return false;
	static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && !leap))
		return false;
	if (n == 10) {
		snprintf(out, 64, "%sT00:00:00Z", s);
		return true;
	}
	const char *t = s + 10;
	if ((*t != 'T' && *t != ' ') || !digits(t + 1, 2, &h) || t[3] != ':' ||
	    !digits(t + 4, 2, &mi) || h > 23 || mi > 59)
		return false;
	t += 6;
	if (*t == ':') {
		if (!digits(t + 1, 2, &se) || se > 60)
			return false;
		t += 3;
		if (*t == '.') {
			t++;
			if (*t < '0' || *t > '9')
				return false;
			while (*t >= '0' && *t <= '9')
				t++;
		}
	}
	int oh, om;
	if (*t == 'Z' && t[1] == '\0') {
		/* UTC */
	} else if ((*t == '+' || *t == '-') && digits(t + 1, 2, &oh) && t[3] == ':' &&
	           digits(t + 4, 2, &om) && t[6] == '\0' && oh < 24 && om < 60) {
		/* offset */
	} else if (*t == '\0') {
		snprintf(out, 64, "%sZ", s); /* no zone: UTC */
		return true;
	} else {
		return false;
	}
	snprintf(out, 64, "%s", s);
	return true;
}

/* ---- ranks ---- */

bool league_play_rank(league_play *p, const char **detail)
{
	int n = p->nresults, given = 0, scored = 0, flagged = 0;
	for (int i = 0; i < n; i++) {
		given += p->results[i].has_rank;
		scored += p->results[i].has_score;
		flagged += p->results[i].has_winner;
	}
	if (p->cooperative) {
		/* a team result: everybody shares rank 1 and the outcome of the first flag */
		bool won = false;
		for (int i = 0; i < n; i++)
			if (p->results[i].has_winner) {
				won = p->results[i].winner;
				break;
			}
		for (int i = 0; i < n; i++) {
			p->results[i].rank = 1;
			p->results[i].winner = won;
		}
		return true;
	}
	if (given > 0 && given < n) {
		*detail = "give a rank for every player or for none";
		return false;
	}
	if (given == 0 && scored == n) {
		for (int i = 0; i < n; i++) {
			int better = 0;
			for (int j = 0; j < n; j++)
				better += p->results[j].score > p->results[i].score;
			p->results[i].rank = better + 1; /* 1, 2, 2, 4: equal scores tie */
		}
	} else if (given == 0 && flagged == n) {
		for (int i = 0; i < n; i++)
			p->results[i].rank = p->results[i].winner ? 1 : 2;
	} else if (given == 0) {
		*detail = "give every player a rank, a score or a winner flag";
		return false;
	}
	for (int i = 0; i < n; i++)
		if (!p->results[i].has_winner)
			p->results[i].winner = p->results[i].rank == 1;
	return true;
}

/* ---- storing plays ---- */

/* Stores a play's results in one statement (five arrays; seat = position). */
static db_status results_store(db_conn *c, const char *play, const league_result *res, int n)
{
	sbuf a[5] = {{0}};
	for (int i = 0; i < n; i++) {
		const league_result *x = &res[i];
		char score[40], rank[16];
		snprintf(score, sizeof score, "%.17g", x->score);
		snprintf(rank, sizeof rank, "%d", x->rank);
		const char *v[5] = {x->member, x->has_score ? score : NULL, rank,
		                    x->winner ? "t" : "f", x->breakdown};
		for (int k = 0; k < 5; k++) {
			sb_str(&a[k], i ? "," : "{");
			sb_elem(&a[k], v[k]);
		}
	}
	for (int k = 0; k < 5; k++)
		sb_str(&a[k], n ? "}" : "{}");
	const char *arrays[5] = {a[0].b, a[1].b, a[2].b, a[3].b, a[4].b};
	db_status st = db_results_insert(c, play, arrays);
	for (int k = 0; k < 5; k++)
		free(a[k].b);
	return st;
}

db_status league_play_insert(db_conn *c, const char *league, const char *author,
                             const league_play *p, char id[ID_LEN + 1])
{
	char bgg[24], dur[24];
	id_new(id);
	snprintf(bgg, sizeof bgg, "%" PRId64, p->bgg_id);
	snprintf(dur, sizeof dur, "%" PRId64, p->duration_min);
	const char *ip[13] = {id,
	                      league,
	                      p->game,
	                      p->bgg_id > 0 ? bgg : NULL,
	                      p->when,
	                      p->duration_min >= 0 ? dur : NULL,
	                      p->notes ? p->notes : "",
	                      p->location ? p->location : "",
	                      p->cooperative ? "true" : "false",
	                      p->source,
	                      p->uuid ? p->uuid : id,
	                      p->game_id,
	                      author};
	bool inserted;
	db_status st = db_play_insert(c, ip, &inserted);
	if (st != DB_OK)
		return st;
	if (!inserted)
		return DB_ABORT;
	return results_store(c, id, p->results, p->nresults);
}

/* ---- the league's result rows (ratings, standings, head-to-head) ---- */

typedef struct {
	const char *play, *member, *name;
	int m; /* member index 0..nmembers-1 */
	int rank;
	double score;
	bool has_score, winner, coop;
	bool has_stored;
	rating stored, after;
	bool rated;
} lrow;

typedef struct {
	db_league_results set; /* owns the strings of rows */
	lrow *rows;
	int nrows, nmembers;
} lset;

static void lset_free(lset *s)
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

/* Loads the league's results in play order (season/game filters may be NULL). */
static db_status lset_load(db_conn *c, const char *league, const char *season, const char *game,
                           lset *s)
{
	memset(s, 0, sizeof *s);
	db_status st = db_league_rows(c, league, season, game, &s->set);
	if (st != DB_OK)
		return st;
	s->nrows = s->set.n;
	s->rows = xcalloc((size_t)s->nrows, sizeof *s->rows);
	member_map mm = {.cap = 64};
	while (mm.cap < 2 * (size_t)s->nrows)
		mm.cap *= 2;
	mm.ids = xcalloc(mm.cap, sizeof *mm.ids);
	mm.idx = xcalloc(mm.cap, sizeof *mm.idx);
	for (int i = 0; i < s->nrows; i++) {
		lrow *x = &s->rows[i];
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
	}
	s->nmembers = mm.n;
	free(mm.ids);
	free(mm.idx);
	return DB_OK;
}

/* Rates the plays of s in order: each row's rating after its play; cur[m] ends as each
 * member's final rating (cur has nmembers entries, caller-owned). */
static void lset_rate(lset *s, rating *cur)
{
	for (int m = 0; m < s->nmembers; m++)
		cur[m] = rating_default();
	rating g[MAX_RESULTS];
	int rk[MAX_RESULTS];
	for (int i = 0; i < s->nrows;) {
		int j = i;
		while (j < s->nrows && strcmp(s->rows[j].play, s->rows[i].play) == 0)
			j++;
		int n = j - i;
		bool rated = !s->rows[i].coop && n >= 2 && n <= MAX_RESULTS;
		if (rated) {
			for (int k = 0; k < n; k++) {
				g[k] = cur[s->rows[i + k].m];
				rk[k] = s->rows[i + k].rank;
			}
			rating_rate(g, rk, (size_t)n);
			for (int k = 0; k < n; k++)
				cur[s->rows[i + k].m] = g[k];
		}
		for (int k = i; k < j; k++) {
			s->rows[k].after = cur[s->rows[k].m];
			s->rows[k].rated = rated;
		}
		i = j;
	}
}

db_status league_recompute(db_conn *c, const char *league)
{
	lset s;
	db_status st = db_league_bump(c, league); /* invalidates cached standings */
	if (st != DB_OK)
		return st;
	st = lset_load(c, league, NULL, NULL, &s);
	if (st != DB_OK)
		return st;
	rating *cur = xcalloc((size_t)s.nmembers, sizeof *cur);
	lset_rate(&s, cur);
	/* only the rows whose stored rating differs are written: one statement, four arrays */
	sbuf plays = {0}, members = {0}, mus = {0}, sigmas = {0};
	int changed = 0;
	for (int i = 0; i < s.nrows; i++) {
		const lrow *x = &s.rows[i];
		bool same = x->rated ? x->has_stored && x->stored.mu == x->after.mu &&
		                           x->stored.sigma == x->after.sigma
		                     : !x->has_stored;
		if (same)
			continue;
		char num[40];
		sb_str(&plays, changed ? "," : "{");
		sb_str(&plays, x->play);
		sb_str(&members, changed ? "," : "{");
		sb_str(&members, x->member);
		sb_str(&mus, changed ? "," : "{");
		sb_str(&sigmas, changed ? "," : "{");
		if (x->rated) {
			snprintf(num, sizeof num, "%.17g", x->after.mu);
			sb_str(&mus, num);
			snprintf(num, sizeof num, "%.17g", x->after.sigma);
			sb_str(&sigmas, num);
		} else {
			sb_str(&mus, "NULL");
			sb_str(&sigmas, "NULL");
		}
		changed++;
	}
	if (changed) {
		sb_str(&plays, "}");
		sb_str(&members, "}");
		sb_str(&mus, "}");
		sb_str(&sigmas, "}");
		const char *arrays[4] = {plays.b, members.b, mus.b, sigmas.b};
		st = db_ratings_store(c, arrays);
	}
	free(plays.b);
	free(members.b);
	free(mus.b);
	free(sigmas.b);
	free(cur);
	lset_free(&s);
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
	json_object *root = jx_parse_stored(result_json), *a = NULL, *v;
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
	if (!finished || !league_parse_when(finished, p.when)) {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(p.when, sizeof p.when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	char cw[64];
	if (created && finished && league_parse_when(created, cw)) {
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
			st = league_recompute(c, league_id);
	}
	json_object_put(root);
	return st;
}

/* ---- JSON of stored things ---- */

/* The play as JSON, or NULL when the league has no such play (*st DB_OK) or on failure. */
static json_object *play_json(db_conn *c, const char *league, const char *play, db_status *st)
{
	db_play_rows pr = {0};
	db_result_rows rr = {0};
	json_object *o = NULL;
	if ((*st = db_play_get(c, league, play, &pr)) != DB_OK || pr.n != 1)
		goto out;
	const db_play_row *y = &pr.rows[0];
	if ((*st = db_play_results(c, play, &rr)) != DB_OK)
		goto out;
	o = jx_obj();
	jx_set(o, "id", jx_str(y->id));
	jx_set(o, "league", jx_str(league));
	jx_set(o, "game", jx_str(y->game));
	jx_set(o, "bgg_id", y->has_bgg_id ? jx_int(y->bgg_id) : NULL);
	jx_set(o, "date", jx_str(y->date));
	jx_set(o, "duration_min", y->has_duration ? jx_int(y->duration_min) : NULL);
	jx_set(o, "notes", jx_str(y->notes));
	jx_set(o, "location", jx_str(y->location));
	jx_set(o, "cooperative", jx_bool(y->cooperative));
	jx_set(o, "source", jx_str(y->source));
	jx_set(o, "uuid", jx_str(y->uuid));
	jx_set(o, "game_id", jx_str_or_null(y->game_id));
	json_object *a = jx_arr();
	for (int i = 0; i < rr.n; i++) {
		const db_result_row *z = &rr.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "player", jx_str(z->member));
		jx_set(x, "name", jx_str(z->name));
		jx_set(x, "seat", jx_int(z->seat));
		jx_set(x, "score", jx_num(z->has_score, z->score));
		jx_set(x, "rank", jx_int(z->rank));
		jx_set(x, "winner", jx_bool(z->winner));
		if (z->breakdown)
			jx_set(x, "breakdown", jx_parse_stored(z->breakdown));
		if (z->has_rating)
			jx_set(x, "rating_after", rating_json((rating){z->mu, z->sigma}));
		jx_push(a, x);
	}
	jx_set(o, "results", a);
out:
	db_rowset_clear(&pr);
	db_rowset_clear(&rr);
	return o;
}

static json_object *league_json(db_conn *c, const char *league, const league_access *acc,
                                db_status *st)
{
	db_league_row lr;
	if ((*st = db_league_get(c, league, &lr)) != DB_OK || !lr.found)
		return NULL;
	db_owner_rows owners = {0};
	db_member_rows members = {0};
	db_game_name_rows games = {0};
	db_season_rows seasons = {0};
	json_object *o = NULL;
	if ((*st = db_league_owners(c, league, &owners)) != DB_OK ||
	    (*st = db_league_members(c, league, &members)) != DB_OK ||
	    (*st = db_league_games(c, league, &games)) != DB_OK ||
	    (*st = db_league_seasons(c, league, &seasons)) != DB_OK)
		goto out;
	o = jx_obj();
	jx_set(o, "id", jx_str(league));
	jx_set(o, "name", jx_str(lr.name));
	jx_set(o, "created_at", jx_str(lr.created_at));
	jx_set(o, "plays", jx_int(lr.plays));
	json_object *you = jx_obj();
	jx_set(you, "account", jx_str(acc->acc.id));
	jx_set(you, "owner", jx_bool(acc->owner));
	jx_set(you, "member", jx_str_or_null(acc->member[0] ? acc->member : NULL));
	jx_set(o, "you", you);
	json_object *ow = jx_arr(), *me = jx_arr(), *ga = jx_arr(), *se = jx_arr();
	for (int i = 0; i < owners.n; i++) {
		json_object *x = jx_obj();
		jx_set(x, "account", jx_str(owners.rows[i].account));
		jx_set(x, "display_name", jx_str(owners.rows[i].display_name));
		jx_push(ow, x);
	}
	for (int i = 0; i < members.n; i++) {
		const db_member_row *m = &members.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(m->id));
		jx_set(x, "name", jx_str(m->name));
		jx_set(x, "account", jx_str_or_null(m->account));
		jx_set(x, "guest", jx_bool(m->account == NULL));
		jx_set(x, "plays", jx_int(m->plays));
		jx_push(me, x);
	}
	for (int i = 0; i < games.n; i++)
		jx_push(ga, jx_str(games.rows[i].game));
	jx_set(o, "games", ga);
	for (int i = 0; i < seasons.n; i++) {
		const db_season_row *z = &seasons.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(z->id));
		jx_set(x, "name", jx_str(z->name));
		jx_set(x, "starts", jx_str(z->starts));
		jx_set(x, "ends", jx_str(z->ends));
		jx_push(se, x);
	}
	jx_set(o, "owners", ow);
	jx_set(o, "members", me);
	jx_set(o, "seasons", se);
out:
	db_rowset_clear(&owners);
	db_rowset_clear(&members);
	db_rowset_clear(&games);
	db_rowset_clear(&seasons);
	return o;
}

/* ---- leagues ---- */

typedef struct {
	const char *name;
	account acc;
	char id[ID_LEN + 1];
	http_resp *resp;
} create_arg;

static db_status league_create_tx(db_conn *c, void *arg)
{
	create_arg *a = arg;
	char member[ID_LEN + 1];
	id_new(a->id);
	id_new(member);
	bool inserted;
	db_status st;
	if ((st = db_league_insert(c, a->id, a->name)) != DB_OK ||
	    (st = db_league_owner_insert(c, a->id, a->acc.id)) != DB_OK)
		return st;
	/* the owner plays too: a member entry under their display name */
	st = db_member_insert(c, member, a->id, a->acc.display_name, a->acc.id, &inserted);
	if (st != DB_OK)
		return st;
	league_access acc = {.acc = a->acc, .owner = true};
	snprintf(acc.member, sizeof acc.member, "%s", member);
	json_object *j = league_json(c, a->id, &acc, &st);
	if (j == NULL)
		return st == DB_OK ? DB_FAIL : st;
	http_resp_clear(a->resp);
	http_reply_json(a->resp, 201, j);
	return DB_OK;
}

int api_league_create(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	create_arg a = {.resp = resp};
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &a.name, NULL}};
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) || !acct_session(req, resp, c, &a.acc))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, 1, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else
		run_tx(c, league_create_tx, &a, resp);
	json_object_put(root);
	return 0;
}

int api_league_list(const http_req *req, http_resp *resp)
{
	account acc;
	db_conn *c = db_thread_conn();
	if (!acct_session(req, resp, c, &acc))
		return 0;
	db_league_items items = {0};
	if (db_league_list(c, acc.id, &items) != DB_OK)
		return acct_reply_db(resp);
	json_object *a = jx_arr();
	for (int i = 0; i < items.n; i++) {
		const db_league_item *y = &items.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(y->id));
		jx_set(x, "name", jx_str(y->name));
		jx_set(x, "owner", jx_bool(y->owner));
		jx_set(x, "plays", jx_int(y->plays));
		jx_push(a, x);
	}
	db_rowset_clear(&items);
	json_object *o = jx_obj();
	jx_set(o, "leagues", a);
	return http_reply_json(resp, 200, o);
}

int api_league_get(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!league_access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	db_status st;
	json_object *o = league_json(c, req->params[0], &a, &st);
	if (o == NULL)
		return acct_reply_db(resp);
	return http_reply_json(resp, 200, o);
}

/* Account by id or e-mail: true with id filled. */
static bool find_account(db_conn *c, const char *key, char id[ID_LEN + 1], db_status *st)
{
	bool found;
	*st = db_account_find(c, key, &found, id);
	return *st == DB_OK && found;
}

int api_league_member_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *name = NULL, *account_key = NULL;
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"account", JS_STRING, JS_F_NULLABLE, 1, 254, NULL, &account_key, NULL},
	};
	league_access a;
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) ||
	    !league_access_check(req, resp, c, req->params[0], true, &a))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	char acc[ID_LEN + 1] = "", id[ID_LEN + 1];
	db_status st = DB_OK;
	if (js_fields(root, "", f, 2, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	if (account_key && !find_account(c, account_key, acc, &st)) {
		if (st != DB_OK)
			acct_reply_db(resp);
		else
			http_reply_problem(resp, 422, "no account has this id or e-mail address",
			                   "unknown-account", "/account");
		goto out;
	}
	id_new(id);
	bool inserted;
	st = db_member_insert(c, id, req->params[0], name, acc[0] ? acc : NULL, &inserted);
	if (st != DB_OK) {
		acct_reply_db(resp);
	} else if (!inserted) {
		http_reply_problem(resp, 409,
		                   "the league already has a member of this name or this account",
		                   "member-exists", "/name");
	} else {
		json_object *o = jx_obj();
		jx_set(o, "id", jx_str(id));
		jx_set(o, "name", jx_str(name));
		jx_set(o, "account", jx_str_or_null(acc[0] ? acc : NULL));
		jx_set(o, "guest", jx_bool(acc[0] == '\0'));
		http_reply_json(resp, 201, o);
	}
out:
	json_object_put(root);
	return 0;
}

int api_league_member_delete(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, false) ||
	    !league_access_check(req, resp, c, req->params[0], true, &a))
		return 0;
	db_member_rows m = {0};
	if (db_member_get(c, req->params[0], req->params[1], &m) != DB_OK)
		return acct_reply_db(resp);
	bool found = m.n == 1;
	bool has_plays = found && m.rows[0].plays > 0;
	db_rowset_clear(&m);
	if (!found)
		return http_reply_problem(resp, 404, "no such member in this league", NULL, NULL);
	if (has_plays)
		return http_reply_problem(resp, 409,
		                          "this member has plays: delete or edit them first",
		                          "member-has-plays", NULL);
	if (db_member_delete(c, req->params[0], req->params[1]) != DB_OK)
		return acct_reply_db(resp);
	resp->status = 204;
	return 0;
}

typedef struct {
	const char *league, *guest;
	league_access a;
	http_resp *resp;
} link_arg;

/* The guest entry becomes the caller's: merged into their member entry when they have one
 * (its plays move over), else linked to their account. */
static db_status member_link_tx(db_conn *c, void *arg)
{
	link_arg *x = arg;
	db_status st = league_lock(c, x->league);
	if (st != DB_OK)
		return st;
	db_member_rows m = {0};
	if ((st = db_member_get(c, x->league, x->guest, &m)) != DB_OK)
		return st;
	bool found = m.n == 1, guest = found && m.rows[0].account == NULL;
	db_rowset_clear(&m);
	http_resp_clear(x->resp);
	if (!found) {
		http_reply_problem(x->resp, 404, "no such member in this league", NULL, NULL);
		return DB_ABORT;
	}
	if (!guest) {
		http_reply_problem(x->resp, 409, "this entry already belongs to an account",
		                   "not-a-guest", NULL);
		return DB_ABORT;
	}
	if (x->a.member[0]) {
		bool clash;
		if ((st = db_member_conflicts(c, x->guest, x->a.member, &clash)) != DB_OK)
			return st;
		if (clash) {
			http_reply_problem(
			    x->resp, 409,
			    "this guest and you played in the same play: they cannot "
			    "be one person",
			    "same-play", NULL);
			return DB_ABORT;
		}
		if ((st = db_member_merge(c, x->guest, x->a.member)) != DB_OK ||
		    (st = db_member_delete(c, x->league, x->guest)) != DB_OK)
			return st;
		if ((st = league_recompute(c, x->league)) != DB_OK)
			return st;
		json_object *o = jx_obj();
		jx_set(o, "id", jx_str(x->a.member));
		jx_set(o, "merged", jx_str(x->guest));
		http_reply_json(x->resp, 200, o);
		return DB_OK;
	}
	if ((st = db_member_link(c, x->guest, x->a.acc.id)) != DB_OK)
		return st;
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(x->guest));
	jx_set(o, "account", jx_str(x->a.acc.id));
	http_reply_json(x->resp, 200, o);
	return DB_OK;
}

int api_league_member_link(const http_req *req, http_resp *resp)
{
	link_arg x = {.league = req->params[0], .guest = req->params[1], .resp = resp};
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) ||
	    !league_access_check(req, resp, c, x.league, false, &x.a))
		return 0;
	json_object *root = NULL; /* the body is {} (nothing to say), and nothing else */
	js_error err;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", NULL, 0, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else
		run_tx(c, member_link_tx, &x, resp);
	json_object_put(root);
	return 0;
}

int api_league_owner_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *key = NULL;
	js_error err;
	const js_field f[] = {{"account", JS_STRING, JS_F_REQUIRED, 1, 254, NULL, &key, NULL}};
	league_access a;
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) ||
	    !league_access_check(req, resp, c, req->params[0], true, &a))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	char acc[ID_LEN + 1];
	db_status st = DB_OK;
	if (js_fields(root, "", f, 1, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (!find_account(c, key, acc, &st)) {
		if (st != DB_OK)
			acct_reply_db(resp);
		else
			http_reply_problem(resp, 422, "no account has this id or e-mail address",
			                   "unknown-account", "/account");
	} else {
		if (db_league_owner_insert(c, req->params[0], acc) != DB_OK) {
			acct_reply_db(resp);
		} else {
			json_object *o = jx_obj();
			jx_set(o, "account", jx_str(acc));
			http_reply_json(resp, 201, o);
		}
	}
	json_object_put(root);
	return 0;
}

int api_league_season_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *name = NULL, *starts = NULL, *ends = NULL;
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"starts", JS_STRING, JS_F_REQUIRED, 10, 10, NULL, &starts, NULL},
	    {"ends", JS_STRING, JS_F_REQUIRED, 10, 10, NULL, &ends, NULL},
	};
	league_access a;
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) ||
	    !league_access_check(req, resp, c, req->params[0], true, &a))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	char w[64], id[ID_LEN + 1];
	if (js_fields(root, "", f, 3, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (!league_parse_when(starts, w)) {
		http_reply_problem(resp, 400, "must be a date YYYY-MM-DD", NULL, "/starts");
	} else if (!league_parse_when(ends, w)) {
		http_reply_problem(resp, 400, "must be a date YYYY-MM-DD", NULL, "/ends");
	} else if (strcmp(ends, starts) < 0) {
		http_reply_problem(resp, 400, "a season cannot end before it starts", NULL,
		                   "/ends");
	} else {
		id_new(id);
		bool inserted;
		if (db_season_insert(c, id, req->params[0], name, starts, ends, &inserted) !=
		    DB_OK) {
			acct_reply_db(resp);
		} else if (!inserted) {
			http_reply_problem(resp, 409, "the league has a season of this name",
			                   "season-exists", "/name");
		} else {
			json_object *o = jx_obj();
			jx_set(o, "id", jx_str(id));
			jx_set(o, "name", jx_str(name));
			jx_set(o, "starts", jx_str(starts));
			jx_set(o, "ends", jx_str(ends));
			http_reply_json(resp, 201, o);
		}
	}
	json_object_put(root);
	return 0;
}

/* ---- plays by hand ---- */

typedef struct {
	league_play p;
	league_result res[MAX_RESULTS];
} play_in;

/* Parses a play body into *in (strings borrowed from root). 0, or -1 after a 400 reply. */
static int play_parse(json_object *root, http_resp *resp, play_in *in)
{
	const char *game = NULL, *date = NULL, *notes = NULL, *location = NULL;
	int64_t bgg = 0, dur = -1;
	bool coop = false, has_bgg = false, has_dur = false;
	json_object *results = NULL;
	js_error err;
	const js_field f[] = {
	    {"game", JS_STRING, JS_F_REQUIRED, 1, GAME_MAX, NULL, &game, NULL},
	    {"bgg_id", JS_INT, JS_F_NULLABLE, 1, 2147483647, NULL, &bgg, &has_bgg},
	    {"date", JS_STRING, JS_F_NULLABLE, 10, 40, NULL, &date, NULL},
	    {"duration_min", JS_INT, JS_F_NULLABLE, 0, 100000, NULL, &dur, &has_dur},
	    {"notes", JS_STRING, JS_F_NULLABLE, 0, NOTES_MAX, NULL, &notes, NULL},
	    {"location", JS_STRING, JS_F_NULLABLE, 0, GAME_MAX, NULL, &location, NULL},
	    {"cooperative", JS_BOOL, JS_F_NULLABLE, 0, 0, NULL, &coop, NULL},
	    {"results", JS_ARRAY, JS_F_REQUIRED, 1, MAX_RESULTS, NULL, &results, NULL},
	};
	memset(in, 0, sizeof *in);
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return http_reply_invalid(resp, err.field, err.detail), -1;
	league_play *p = &in->p;
	p->game = game;
	p->bgg_id = has_bgg ? bgg : 0;
	p->duration_min = has_dur ? dur : -1;
	p->notes = notes;
	p->location = location;
	p->cooperative = coop;
	p->source = "hand";
	p->results = in->res;
	if (date == NULL) {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(p->when, sizeof p->when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	} else if (!league_parse_when(date, p->when)) {
		http_reply_problem(resp, 400, "must be a date (YYYY-MM-DD) or an RFC 3339 time",
		                   NULL, "/date");
		return -1;
	}
	size_t n = json_object_array_length(results);
	for (size_t i = 0; i < n; i++) {
		league_result *x = &in->res[i];
		const char *player = NULL;
		double score = 0;
		int64_t rank = 0;
		bool winner = false;
		char at[32];
		const js_field rf[] = {
		    {"player", JS_STRING, JS_F_REQUIRED, 1, ID_LEN, NULL, &player, NULL},
		    {"score", JS_NUMBER, JS_F_NULLABLE, 0, 0, NULL, &score, &x->has_score},
		    {"rank", JS_INT, JS_F_NULLABLE, 1, 1000, NULL, &rank, &x->has_rank},
		    {"winner", JS_BOOL, JS_F_NULLABLE, 0, 0, NULL, &winner, &x->has_winner},
		};
		js_path_index(at, sizeof at, "/results", i);
		if (js_fields(json_object_array_get_idx(results, i), at, rf, 4, &err) != 0)
			return http_reply_invalid(resp, err.field, err.detail), -1;
		snprintf(x->member, sizeof x->member, "%s", player);
		x->score = score;
		x->rank = (int)rank;
		x->winner = winner;
		for (size_t k = 0; k < i; k++)
			if (strcmp(in->res[k].member, x->member) == 0) {
				char fp[48];
				snprintf(fp, sizeof fp, "%s/player", at);
				http_reply_problem(resp, 400, "a player appears twice in one play",
				                   NULL, fp);
				return -1;
			}
	}
	p->nresults = (int)n;
	const char *why = NULL;
	if (!league_play_rank(p, &why)) {
		http_reply_problem(resp, 400, why, NULL, "/results");
		return -1;
	}
	return 0;
}

typedef struct {
	const char *league, *play;
	league_access a;
	play_in *in;
	http_resp *resp;
	char id[ID_LEN + 1];
} play_arg;

/* Every player must be a member of the league: 422 "unknown-player" otherwise. */
static db_status check_players(db_conn *c, play_arg *x)
{
	for (int i = 0; i < x->in->p.nresults; i++) {
		db_member_rows m = {0};
		db_status st = db_member_get(c, x->league, x->in->res[i].member, &m);
		if (st != DB_OK)
			return st;
		bool found = m.n == 1;
		db_rowset_clear(&m);
		if (!found) {
			char fp[48];
			snprintf(fp, sizeof fp, "/results/%d/player", i);
			http_resp_clear(x->resp);
			http_reply_problem(x->resp, 422, "no member of this league has this id",
			                   "unknown-player", fp);
			return DB_ABORT;
		}
	}
	return DB_OK;
}

static db_status log_play(db_conn *c, const char *league, const char *play, const char *who,
                          const char *action, json_object *before, json_object *after)
{
	return db_play_log_insert(c, league, play, who, action, before ? jx_text(before) : NULL,
	                          after ? jx_text(after) : NULL);
}

static db_status play_add_tx(db_conn *c, void *arg)
{
	play_arg *x = arg;
	db_status st = league_lock(c, x->league);
	if (st == DB_OK)
		st = check_players(c, x);
	if (st == DB_OK)
		st = league_play_insert(c, x->league, x->a.acc.id, &x->in->p, x->id);
	if (st == DB_OK)
		st = league_recompute(c, x->league);
	if (st != DB_OK)
		return st;
	json_object *after = play_json(c, x->league, x->id, &st);
	if (after == NULL)
		return st == DB_OK ? DB_FAIL : st;
	st = log_play(c, x->league, x->id, x->a.acc.id, "create", NULL, after);
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 201, after);
	return st;
}

int api_league_play_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	play_arg x = {.league = req->params[0], .resp = resp};
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) ||
	    !league_access_check(req, resp, c, x.league, false, &x.a))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	x.in = xmalloc(sizeof *x.in);
	if (play_parse(root, resp, x.in) == 0)
		run_tx(c, play_add_tx, &x, resp);
	free(x.in);
	json_object_put(root);
	return 0;
}

int api_league_play_get(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!league_access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	db_status st;
	json_object *o = play_json(c, req->params[0], req->params[1], &st);
	if (o == NULL && st == DB_OK)
		return http_reply_problem(resp, 404, "no such play in this league", NULL, NULL);
	if (o == NULL)
		return acct_reply_db(resp);
	return http_reply_json(resp, 200, o);
}

int api_league_play_list(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!league_access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	/* ?limit=N&offset=M: a page, newest first (default: every play) */
	const char *lim = http_query(req, "limit"), *off = http_query(req, "offset");
	char *e1 = NULL, *e2 = NULL;
	long limit = lim ? strtol(lim, &e1, 10) : 0, offset = off ? strtol(off, &e2, 10) : 0;
	if ((lim && (*lim == '\0' || *e1 != '\0' || limit < 1 || limit > 100000)) ||
	    (off && (*off == '\0' || *e2 != '\0' || offset < 0 || offset > 100000000)))
		return http_reply_problem(resp, 400,
		                          "limit (1 to 100000) and offset (0 or more) are "
		                          "whole numbers",
		                          NULL, NULL);
	char lb[24], ob[24];
	snprintf(lb, sizeof lb, "%ld", limit);
	snprintf(ob, sizeof ob, "%ld", offset);
	db_play_items items = {0};
	if (db_play_list(c, req->params[0], lim ? lb : NULL, ob, &items) != DB_OK)
		return acct_reply_db(resp);
	json_object *arr = jx_arr();
	for (int i = 0; i < items.n; i++) {
		const db_play_item *y = &items.rows[i];
		json_object *o = jx_obj();
		jx_set(o, "id", jx_str(y->id));
		jx_set(o, "game", jx_str(y->game));
		jx_set(o, "date", jx_str(y->date));
		jx_set(o, "cooperative", jx_bool(y->cooperative));
		jx_set(o, "source", jx_str(y->source));
		jx_set(o, "players", jx_parse_stored(y->players));
		jx_push(arr, o);
	}
	db_rowset_clear(&items);
	json_object *o = jx_obj();
	jx_set(o, "plays", arr);
	return http_reply_json(resp, 200, o);
}

/* Loads the play for an edit or a deletion: its JSON (before) and whether the caller may
 * change it (owners any play; members the plays they entered). DB_ABORT after a reply. */
static db_status play_for_change(db_conn *c, play_arg *x, bool owner_only, json_object **before)
{
	db_status st;
	*before = play_json(c, x->league, x->play, &st);
	http_resp_clear(x->resp);
	if (*before == NULL) {
		if (st != DB_OK)
			return st;
		http_reply_problem(x->resp, 404, "no such play in this league", NULL, NULL);
		return DB_ABORT;
	}
	if (x->a.owner)
		return DB_OK;
	bool found;
	char by[DB_LG_ID_MAX + 1];
	if ((st = db_play_created_by(c, x->play, &found, by)) != DB_OK) {
		json_object_put(*before);
		return st;
	}
	bool mine = !owner_only && found && strcmp(by, x->a.acc.id) == 0;
	if (!mine) {
		json_object_put(*before);
		*before = NULL;
		http_reply_problem(x->resp, 403,
		                   owner_only ? "only the league's owners may delete results"
		                              : "only the league's owners or the play's author may "
		                                "edit it",
		                   "not-owner", NULL);
		return DB_ABORT;
	}
	return DB_OK;
}

/* An edit keeps the score breakdown (of a finished table game) of every player whose score it
 * does not change; the text points into before, which outlives the store. */
static void keep_breakdowns(json_object *before, league_result *res, int n)
{
	json_object *old = NULL;
	if (before == NULL || !json_object_object_get_ex(before, "results", &old))
		return;
	for (size_t i = 0; i < json_object_array_length(old); i++) {
		json_object *o = json_object_array_get_idx(old, i), *pl, *bd, *sc;
		if (!json_object_object_get_ex(o, "breakdown", &bd) ||
		    !json_object_object_get_ex(o, "player", &pl) ||
		    !json_object_object_get_ex(o, "score", &sc) || sc == NULL)
			continue;
		for (int k = 0; k < n; k++)
			if (strcmp(res[k].member, json_object_get_string(pl)) == 0 &&
			    res[k].has_score && res[k].score == json_object_get_double(sc))
				res[k].breakdown = jx_text(bd);
	}
}

static db_status play_edit_tx(db_conn *c, void *arg)
{
	play_arg *x = arg;
	json_object *before = NULL, *after = NULL;
	db_status st = league_lock(c, x->league);
	if (st == DB_OK)
		st = play_for_change(c, x, false, &before);
	if (st == DB_OK)
		st = check_players(c, x);
	const league_play *p = &x->in->p;
	char bgg[24], dur[24];
	snprintf(bgg, sizeof bgg, "%" PRId64, p->bgg_id);
	snprintf(dur, sizeof dur, "%" PRId64, p->duration_min);
	const char *up[9] = {x->play,
	                     p->game,
	                     p->bgg_id > 0 ? bgg : NULL,
	                     p->when,
	                     p->duration_min >= 0 ? dur : NULL,
	                     p->notes ? p->notes : "",
	                     p->location ? p->location : "",
	                     p->cooperative ? "true" : "false",
	                     x->league};
	if (st == DB_OK)
		st = db_play_update(c, up);
	if (st == DB_OK)
		st = db_results_delete(c, x->play);
	if (st == DB_OK) {
		keep_breakdowns(before, x->in->res, p->nresults);
		st = results_store(c, x->play, p->results, p->nresults);
	}
	if (st == DB_OK)
		st = league_recompute(c, x->league);
	if (st == DB_OK && (after = play_json(c, x->league, x->play, &st)) == NULL && st == DB_OK)
		st = DB_FAIL;
	if (st == DB_OK)
		st = log_play(c, x->league, x->play, x->a.acc.id, "edit", before, after);
	if (st == DB_OK) {
		http_resp_clear(x->resp);
		http_reply_json(x->resp, 200, after);
		after = NULL;
	}
	json_object_put(before);
	json_object_put(after);
	return st;
}

int api_league_play_edit(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	play_arg x = {.league = req->params[0], .play = req->params[1], .resp = resp};
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) ||
	    !league_access_check(req, resp, c, x.league, false, &x.a))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	x.in = xmalloc(sizeof *x.in);
	if (play_parse(root, resp, x.in) == 0)
		run_tx(c, play_edit_tx, &x, resp);
	free(x.in);
	json_object_put(root);
	return 0;
}

static db_status play_delete_tx(db_conn *c, void *arg)
{
	play_arg *x = arg;
	json_object *before = NULL;
	db_status st = league_lock(c, x->league);
	if (st == DB_OK)
		st = play_for_change(c, x, true, &before);
	if (st == DB_OK)
		st = db_play_delete(c, x->play, x->league);
	if (st == DB_OK)
		st = league_recompute(c, x->league);
	if (st == DB_OK)
		st = log_play(c, x->league, x->play, x->a.acc.id, "delete", before, NULL);
	json_object_put(before);
	if (st == DB_OK) {
		http_resp_clear(x->resp);
		x->resp->status = 204;
	}
	return st;
}

int api_league_play_delete(const http_req *req, http_resp *resp)
{
	play_arg x = {.league = req->params[0], .play = req->params[1], .resp = resp};
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, false) ||
	    !league_access_check(req, resp, c, x.league, false, &x.a))
		return 0;
	run_tx(c, play_delete_tx, &x, resp);
	return 0;
}

int api_league_log(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!league_access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	db_log_rows log = {0};
	if (db_play_log_list(c, req->params[0], &log) != DB_OK)
		return acct_reply_db(resp);
	json_object *arr = jx_arr();
	for (int i = 0; i < log.n; i++) {
		const db_log_row *y = &log.rows[i];
		json_object *o = jx_obj();
		jx_set(o, "play", jx_str(y->play));
		jx_set(o, "account", jx_str_or_null(y->account));
		jx_set(o, "action", jx_str(y->action));
		jx_set(o, "at", jx_str(y->at));
		jx_set(o, "before", y->before ? jx_parse_stored(y->before) : NULL);
		jx_set(o, "after", y->after ? jx_parse_stored(y->after) : NULL);
		jx_push(arr, o);
	}
	db_rowset_clear(&log);
	json_object *o = jx_obj();
	jx_set(o, "log", arr);
	return http_reply_json(resp, 200, o);
}

/* ---- standings, head-to-head, history ---- */

/* The season and game filters of a standings-like request: season must be one of the
 * league's (404 otherwise), game any name. */
static bool read_filters(const http_req *req, http_resp *resp, db_conn *c, const char **season,
                         const char **game)
{
	*season = http_query(req, "season");
	*game = http_query(req, "game");
	if (*season && **season == '\0')
		*season = NULL;
	if (*game && **game == '\0')
		*game = NULL;
	if (*season == NULL)
		return true;
	bool found;
	if (db_season_exists(c, req->params[0], *season, &found) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	if (!found)
		http_reply_problem(resp, 404, "no such season in this league", NULL, NULL);
	return found;
}

typedef struct {
	const char *member, *name;
	int games, wins, scored, rank_sum;
	double score_sum, best;
	bool has_best;
	rating r;
	bool rated; /* played at least one rated play */
} standing;

static int standing_cmp(const void *a, const void *b)
{
	const standing *x = a, *y = b;
	double ox = rating_ordinal(x->r), oy = rating_ordinal(y->r);
	if (ox != oy)
		return ox > oy ? -1 : 1;
	if (x->wins != y->wins)
		return y->wins - x->wins;
	return strcmp(x->name, y->name);
}

json_object *leagues_standings_json(db_conn *c, const char *league, const char *season,
                                    const char *game, db_status *st)
{
	lset s;
	if ((*st = lset_load(c, league, season, game, &s)) != DB_OK)
		return NULL;
	rating *cur = xcalloc((size_t)s.nmembers, sizeof *cur);
	standing *t = xcalloc((size_t)s.nmembers, sizeof *t);
	lset_rate(&s, cur);
	for (int i = 0; i < s.nrows; i++) {
		const lrow *x = &s.rows[i];
		standing *p = &t[x->m];
		p->member = x->member;
		p->name = x->name;
		p->games++;
		p->wins += x->winner;
		p->rank_sum += x->rank;
		p->rated = p->rated || x->rated;
		if (x->has_score) {
			p->scored++;
			p->score_sum += x->score;
			if (!p->has_best || x->score > p->best)
				p->best = x->score;
			p->has_best = true;
		}
	}
	for (int m = 0; m < s.nmembers; m++)
		t[m].r = cur[m];
	qsort(t, (size_t)s.nmembers, sizeof *t, standing_cmp);
	json_object *arr = jx_arr();
	for (int m = 0; m < s.nmembers; m++) {
		const standing *p = &t[m];
		if (p->games == 0)
			continue;
		json_object *o = jx_obj();
		jx_set(o, "player", jx_str(p->member));
		jx_set(o, "name", jx_str(p->name));
		jx_set(o, "games", jx_int(p->games));
		jx_set(o, "wins", jx_int(p->wins));
		jx_set(o, "win_rate", jx_double((double)p->wins / p->games));
		jx_set(o, "average_score", p->scored ? jx_double(p->score_sum / p->scored) : NULL);
		jx_set(o, "best_score", p->has_best ? jx_double(p->best) : NULL);
		jx_set(o, "average_rank", jx_double((double)p->rank_sum / p->games));
		jx_set(o, "rating", rating_json(p->r));
		jx_set(o, "rated", jx_bool(p->rated));
		jx_push(arr, o);
	}
	json_object *o = jx_obj();
	jx_set(o, "league", jx_str(league));
	jx_set(o, "season", jx_str_or_null(season));
	jx_set(o, "game", jx_str_or_null(game));
	jx_set(o, "standings", arr);
	free(t);
	free(cur);
	lset_free(&s);
	return o;
}

int api_league_standings(const http_req *req, http_resp *resp)
{
	league_access a;
	const char *season, *game;
	db_conn *c = db_thread_conn();
	if (!league_access_check(req, resp, c, req->params[0], false, &a) ||
	    !read_filters(req, resp, c, &season, &game))
		return 0;
	char key[LCACHE_KEY];
	snprintf(key, sizeof key, "standings\n%s\n%s\n%s", req->params[0], season ? season : "",
	         game ? game : "");
	if (lcache_reply(key, a.version, resp))
		return 0;
	db_status st;
	json_object *o = leagues_standings_json(c, req->params[0], season, game, &st);
	if (o == NULL)
		return acct_reply_db(resp);
	return lcache_reply_put(key, a.version, resp, o);
}

typedef struct {
	int games, wins, losses, ties;
} h2h;

int api_league_head_to_head(const http_req *req, http_resp *resp)
{
	league_access a;
	const char *season, *game;
	db_conn *c = db_thread_conn();
	if (!league_access_check(req, resp, c, req->params[0], false, &a) ||
	    !read_filters(req, resp, c, &season, &game))
		return 0;
	lset s;
	if (lset_load(c, req->params[0], season, game, &s) != DB_OK)
		return acct_reply_db(resp);
	size_t nm = (size_t)s.nmembers;
	if (nm > H2H_MAX_PLAYERS) { /* the table is nm² cells: bounded memory */
		lset_free(&s);
		return http_reply_problem(
		    resp, 422,
		    "too many players for one head-to-head table: choose a game "
		    "or a season",
		    "too-many-players", NULL);
	}
	h2h *t = xcalloc(nm * nm, sizeof *t);
	const char **names = xcalloc(nm, sizeof *names), **ids = xcalloc(nm, sizeof *ids);
	for (int i = 0; i < s.nrows;) {
		int j = i;
		while (j < s.nrows && strcmp(s.rows[j].play, s.rows[i].play) == 0)
			j++;
		for (int k = i; k < j; k++) {
			const lrow *x = &s.rows[k];
			names[x->m] = x->name;
			ids[x->m] = x->member;
			if (x->coop)
				continue;
			for (int l = i; l < j; l++) {
				const lrow *y = &s.rows[l];
				if (l == k)
					continue;
				h2h *e = &t[(size_t)x->m * nm + (size_t)y->m];
				e->games++;
				e->wins += x->rank < y->rank;
				e->losses += x->rank > y->rank;
				e->ties += x->rank == y->rank;
			}
		}
		i = j;
	}
	json_object *arr = jx_arr();
	for (size_t m = 0; m < nm; m++)
		for (size_t n = 0; n < nm; n++) {
			const h2h *e = &t[m * nm + n];
			if (e->games == 0)
				continue;
			json_object *o = jx_obj();
			jx_set(o, "player", jx_str(ids[m]));
			jx_set(o, "name", jx_str(names[m]));
			jx_set(o, "opponent", jx_str(ids[n]));
			jx_set(o, "opponent_name", jx_str(names[n]));
			jx_set(o, "games", jx_int(e->games));
			jx_set(o, "wins", jx_int(e->wins));
			jx_set(o, "losses", jx_int(e->losses));
			jx_set(o, "ties", jx_int(e->ties));
			jx_push(arr, o);
		}
	json_object *o = jx_obj();
	jx_set(o, "head_to_head", arr);
	free(t);
	free(names);
	free(ids);
	lset_free(&s);
	return http_reply_json(resp, 200, o);
}

int api_player_history(const http_req *req, http_resp *resp)
{
	db_conn *c = db_thread_conn();
	account acc;
	if (!acct_session(req, resp, c, &acc))
		return 0;
	db_member_league ml;
	if (db_member_league_get(c, req->params[0], &ml) != DB_OK)
		return acct_reply_db(resp);
	if (!ml.found)
		return http_reply_problem(resp, 404, "no such player", NULL, NULL);
	const char *league = ml.league, *name = ml.name;
	league_access a;
	if (!league_access_check(req, resp, c, league, false, &a))
		return 0;
	/* ?limit=N: only the last N plays (the rating is still the one after all of them) */
	const char *lim = http_query(req, "limit");
	char *end = NULL;
	long limit = lim ? strtol(lim, &end, 10) : 0;
	if (lim && (*lim == '\0' || *end != '\0' || limit < 1 || limit > 1000000))
		return http_reply_problem(resp, 400, "limit must be a whole number from 1", NULL,
		                          NULL);
	char key[LCACHE_KEY];
	snprintf(key, sizeof key, "history\n%s\n%ld", req->params[0], limit);
	if (lcache_reply(key, a.version, resp))
		return 0;
	db_history_rows h = {0};
	if (db_player_history(c, req->params[0], &h) != DB_OK)
		return acct_reply_db(resp);
	json_object *arr = jx_arr();
	rating cur = rating_default();
	int first = limit && h.n > limit ? h.n - (int)limit : 0;
	for (int i = 0; i < h.n; i++) {
		const db_history_row *y = &h.rows[i];
		json_object *o = jx_obj();
		jx_set(o, "play", jx_str(y->play));
		jx_set(o, "game", jx_str(y->game));
		jx_set(o, "date", jx_str(y->date));
		jx_set(o, "cooperative", jx_bool(y->cooperative));
		jx_set(o, "score", jx_num(y->has_score, y->score));
		jx_set(o, "rank", jx_int(y->rank));
		jx_set(o, "winner", jx_bool(y->winner));
		if (y->has_rating)
			cur = (rating){y->mu, y->sigma};
		jx_set(o, "rated", jx_bool(y->has_rating));
		jx_set(o, "rating", rating_json(cur));
		jx_set(o, "players", jx_int(y->players));
		if (i >= first)
			jx_push(arr, o);
		else
			json_object_put(o);
	}
	db_rowset_clear(&h);
	json_object *o = jx_obj();
	jx_set(o, "player", jx_str(req->params[0]));
	jx_set(o, "name", jx_str(name));
	jx_set(o, "league", jx_str(league));
	jx_set(o, "rating", rating_json(cur));
	jx_set(o, "history", arr);
	return lcache_reply_put(key, a.version, resp, o);
}

int leagues_table_hook(void *c, const char *game_id, const char *league, const char *kind,
                       const char *result_json)
{
	return leagues_record_game(c, game_id, league, kind, result_json) == DB_OK ? 0 : -1;
}

bool leagues_may_record(const http_req *req, http_resp *resp, db_conn *c, const char *league)
{
	league_access a;
	return league_access_check(req, resp, c, league, false, &a);
}

/* ---- for the league report PDF (league_pdf.c, issue 9) ---- */

bool leagues_read_filters(const http_req *req, http_resp *resp, db_conn *c, const char **season,
                          const char **game)
{
	return read_filters(req, resp, c, season, game);
}
