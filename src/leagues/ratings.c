/* A league's ratings recomputed from its plays in order (ratings.h): each member's line, the
 * games' keys, the kept scopes; after a change of one play, from the kept rows. */
#include "leagues/ratings.h"
#include "leagues/kept.h"
#include "leagues/rows.h"
#include "leagues/scopes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	rows_array_elem(&a->members, a->first, id);
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
 * of s, rated by rows_rate*, and the league's results they leave out (read here), each
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

/* Rates s (the league's rows in play order) from row from on (rows_rate_from: rows
 * before it are as the last rating left them) and keeps the result: each member's line, then
 * the standings and lines of every scope (touch not NULL: of those holding the play it names;
 * scopes_keep). */
static db_status rate_rows(db_conn *c, const char *league, league_rows *s, int from,
                           const league_touch *touch)
{
	rating *cur = xcalloc((size_t)s->nmembers + 1, sizeof *cur);
	rows_rate_from(s, from, cur);
	db_status st = lines_store(c, league, s);
	if (st == DB_OK)
		st = scopes_keep(c, league, s, cur, touch);
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
		st = rows_load_keyed(c, league, &s);
	if (st != DB_OK)
		return st;
	st = rate_rows(c, league, &s, 0, NULL);
	if (st == DB_OK)
		kept_pending_set(kept_from_rows(league, &s), version);
	rows_free(&s);
	return st;
}

db_status ratings_recompute(db_conn *c, const char *league)
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

db_status ratings_recompute_play(db_conn *c, const char *league, const char *play)
{
	long long v;
	bool same;
	db_status st = bump_rekey(c, league, &v, &same);
	return st == DB_OK ? rate_changed(c, league, play, v, same) : st;
}

db_status ratings_recompute_added(db_conn *c, const char *league, const char *play)
{
	long long v;
	bool same, done = false;
	db_status st = bump_rekey(c, league, &v, &same);
	if (st == DB_OK && same)
		st = scopes_append(c, league, play, &done);
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
