/* Storing a play from any source (store.h): ranks derived, one play inserted or rewritten with
 * its results, many plays of an import stored two statements per BATCH_PLAYS plays. */
#include "leagues/store.h"
#include "leagues/rows.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ranks ---- */

bool store_play_rank(league_play *p, const char **detail)
{
	int n = p->nresults, given = 0, scored = 0, flagged = 0;
	for (int i = 0; i < n; i++) {
		given += p->results[i].has_rank;
		scored += p->results[i].has_score;
		flagged += p->results[i].has_winner;
	}
	if (p->cooperative) {
		/* each flag stands; a player without one shares the first flag's outcome */
		bool won = false, mixed = false;
		for (int i = 0; i < n; i++)
			if (p->results[i].has_winner) {
				won = p->results[i].winner;
				break;
			}
		for (int i = 0; i < n; i++) {
			if (!p->results[i].has_winner)
				p->results[i].winner = won;
			mixed |= p->results[i].winner != p->results[0].winner;
		}
		for (int i = 0; i < n; i++)
			p->results[i].rank = mixed && !p->results[i].winner ? 2 : 1;
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

/* Appends the n results of play to the result arrays of results_insert_many (seat =
 * position in res), counting the rows in *rows. */
static void results_add(sbuf arr[BATCH_RESULT_COLS], int *rows, const char *play,
                        const league_result *res, int n)
{
	for (int i = 0; i < n; i++) {
		const league_result *x = &res[i];
		char seat[16], score[40], rank[16];
		snprintf(seat, sizeof seat, "%d", i + 1);
		snprintf(score, sizeof score, "%.17g", x->score);
		snprintf(rank, sizeof rank, "%d", x->rank);
		const char *r[BATCH_RESULT_COLS] = {play,
		                                    x->member,
		                                    seat,
		                                    x->has_score ? score : NULL,
		                                    rank,
		                                    x->winner ? "t" : "f",
		                                    x->breakdown,
		                                    x->score_text,
		                                    x->extra,
		                                    x->player_uuid,
		                                    x->unrated ? "t" : "f",
		                                    x->team};
		for (int k = 0; k < BATCH_RESULT_COLS; k++)
			rows_array_elem(&arr[k], *rows == 0, r[k]);
		(*rows)++;
	}
}

/* Stores the results of arr (rows of them; 0: none, nothing sent) in one statement; frees the
 * arrays. */
static db_status results_flush(db_conn *c, sbuf arr[BATCH_RESULT_COLS], int rows)
{
	const char *ra[BATCH_RESULT_COLS];
	for (int k = 0; k < BATCH_RESULT_COLS; k++) {
		sb_str(&arr[k], "}");
		ra[k] = arr[k].b;
	}
	db_status st = rows ? db_results_insert_many(c, ra) : DB_OK;
	for (int k = 0; k < BATCH_RESULT_COLS; k++) {
		free(arr[k].b);
		arr[k] = (sbuf){0};
	}
	return st;
}

/* Stores a play's results in one statement. */
static db_status results_store(db_conn *c, const char *play, const league_result *res, int n)
{
	sbuf arr[BATCH_RESULT_COLS] = {{0}};
	int rows = 0;
	results_add(arr, &rows, play, res, n);
	return results_flush(c, arr, rows);
}

enum { PLAY_COLS = 9, NUM_LEN = 24 };

/* The text of a play's columns game, bgg_id, played_at, duration_min, notes, location,
 * cooperative, utc_offset_min and clock, in the order both the insert and the update statements
 * take them (bgg, dur and off hold the numbers' text; NULL is SQL NULL). */
static void play_cols(const league_play *p, char bgg[NUM_LEN], char dur[NUM_LEN], char off[NUM_LEN],
                      const char *col[PLAY_COLS])
{
	snprintf(bgg, NUM_LEN, "%" PRId64, p->bgg_id);
	snprintf(dur, NUM_LEN, "%" PRId64, p->duration_min);
	snprintf(off, NUM_LEN, "%d", p->utc_offset_min);
	col[0] = p->game;
	col[1] = p->bgg_id > 0 ? bgg : NULL;
	col[2] = p->when;
	col[3] = p->duration_min >= 0 ? dur : NULL;
	col[4] = p->notes ? p->notes : "";
	col[5] = p->location ? p->location : "";
	col[6] = p->cooperative ? "true" : "false";
	col[7] = off;
	col[8] = p->clock == PLAY_CLOCK_UNDATED ? "undated"
	         : p->clock == PLAY_CLOCK_LOCAL ? "local"
	                                        : "offset";
}

db_status store_play_insert(db_conn *c, const char *league, const char *author,
                            const league_play *p, char id[ID_LEN + 1])
{
	char bgg[NUM_LEN], dur[NUM_LEN], off[NUM_LEN];
	id_new(id);
	char bggplay[NUM_LEN];
	snprintf(bggplay, sizeof bggplay, "%" PRId64, p->bgg_play_id);
	/* id, league, the play's columns, source, uuid, game_id, created_by, ignored, incomplete,
	 * bgg_play_id, extra */
	const char *ip[2 + PLAY_COLS + 8] = {id, league};
	play_cols(p, bgg, dur, off, ip + 2);
	ip[2 + PLAY_COLS] = p->source;
	ip[3 + PLAY_COLS] = p->uuid ? p->uuid : id;
	ip[4 + PLAY_COLS] = p->game_id;
	ip[5 + PLAY_COLS] = author;
	ip[6 + PLAY_COLS] = p->ignored ? "true" : "false";
	ip[7 + PLAY_COLS] = p->incomplete ? "true" : "false";
	ip[8 + PLAY_COLS] = p->bgg_play_id > 0 ? bggplay : NULL;
	ip[9 + PLAY_COLS] = p->extra;
	bool inserted;
	db_status st = db_play_insert(c, ip, &inserted);
	if (st != DB_OK)
		return st;
	if (!inserted)
		return DB_ABORT;
	return results_store(c, id, p->results, p->nresults);
}

/* ---- many plays at once ---- */

db_status store_batch_add(db_conn *c, const char *league, const char *author, league_batch *b,
                          const league_play *p, char id[ID_LEN + 1])
{
	char bgg[NUM_LEN], dur[NUM_LEN], off[NUM_LEN], bggplay[NUM_LEN];
	const char *col[PLAY_COLS];
	id_new(id);
	play_cols(p, bgg, dur, off, col);
	snprintf(bggplay, sizeof bggplay, "%" PRId64, p->bgg_play_id);
	/* the order of plays_insert_many's arrays */
	const char *v[BATCH_PLAY_COLS] = {id,
	                                  col[0],
	                                  col[1],
	                                  col[2],
	                                  col[3],
	                                  col[4],
	                                  col[5],
	                                  col[6],
	                                  col[7],
	                                  col[8],
	                                  p->source,
	                                  p->uuid ? p->uuid : id,
	                                  p->ignored ? "t" : "f",
	                                  p->incomplete ? "t" : "f",
	                                  p->bgg_play_id > 0 ? bggplay : NULL,
	                                  p->extra,
	                                  p->game_uuid};
	for (int k = 0; k < BATCH_PLAY_COLS; k++)
		rows_array_elem(&b->play[k], b->nplays == 0, v[k]);
	b->nplays++;
	results_add(b->res, &b->nresults, id, p->results, p->nresults);
	return b->nplays < BATCH_PLAYS ? DB_OK : store_batch_store(c, league, author, b);
}

db_status store_batch_store(db_conn *c, const char *league, const char *author, league_batch *b)
{
	if (b->nplays == 0)
		return DB_OK;
	const char *pa[BATCH_PLAY_COLS];
	for (int k = 0; k < BATCH_PLAY_COLS; k++) {
		sb_str(&b->play[k], "}");
		pa[k] = b->play[k].b;
	}
	db_status st = db_plays_insert_many(c, league, author, pa);
	db_status rs = results_flush(c, b->res, st == DB_OK ? b->nresults : 0);
	store_batch_free(b); /* empty again, for the next BATCH_PLAYS */
	return st != DB_OK ? st : rs;
}

void store_batch_free(league_batch *b)
{
	for (int k = 0; k < BATCH_PLAY_COLS; k++)
		free(b->play[k].b);
	for (int k = 0; k < BATCH_RESULT_COLS; k++)
		free(b->res[k].b);
	memset(b, 0, sizeof *b);
}

db_status store_play_update(db_conn *c, const char *league, const char *play, const league_play *p)
{
	char bgg[NUM_LEN], dur[NUM_LEN], off[NUM_LEN];
	/* id, the play's columns, league */
	const char *up[1 + PLAY_COLS + 1] = {play};
	play_cols(p, bgg, dur, off, up + 1);
	up[1 + PLAY_COLS] = league;
	db_status st = db_play_update(c, up);
	if (st == DB_OK)
		st = db_results_delete(c, play);
	if (st == DB_OK)
		st = results_store(c, play, p->results, p->nresults);
	return st;
}
