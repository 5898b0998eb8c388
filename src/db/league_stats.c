/* Typed rows of the league's pictures: league_stat_rows with each row's rating and dense indexes
 * of its member and game (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

#include "base/oom.h"

#include <stdlib.h>
#include <string.h>

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define LEAGUE_STAT_ROWS_COLUMNS(C) \
	C(LEAGUE_STAT_ROWS_PLAY, play_id, TEXT, play, _) \
	C(LEAGUE_STAT_ROWS_MEMBER, member_id, TEXT, member, _) \
	C(LEAGUE_STAT_ROWS_NAME, name, TEXT, name, _) \
	C(LEAGUE_STAT_ROWS_RANK, rank, INT, rank, _) \
	C(LEAGUE_STAT_ROWS_SCORE, score, OPT_DOUBLE, score, has_score) \
	C(LEAGUE_STAT_ROWS_WINNER, winner, BOOL, winner, _) \
	C(LEAGUE_STAT_ROWS_COOPERATIVE, cooperative, BOOL, cooperative, _) \
	C(LEAGUE_STAT_ROWS_SEQ, seq, INT64, seq, _) \
	C(LEAGUE_STAT_ROWS_DATE, date, TEXT_OR_NULL, date, _) \
	C(LEAGUE_STAT_ROWS_LOCAL_DATE, local_date, TEXT, local_date, _) \
	C(LEAGUE_STAT_ROWS_GAME_KEY, game_key, TEXT, game_key, _) \
	C(LEAGUE_STAT_ROWS_GAME, game, TEXT, game, _) \
	C(LEAGUE_STAT_ROWS_LOWEST_WINS, lowest_wins, BOOL, lowest_wins, _) \
	C(LEAGUE_STAT_ROWS_TEAM, team, TEXT_OR_NULL, team, _)
// clang-format on
LG_COLUMNS(LEAGUE_STAT_ROWS_COLUMNS, LEAGUE_STAT_ROWS_NCOLS);

// clang-format off
#define MEMBER_LINES_OF_COLUMNS(C) \
	C(MEMBER_LINES_OF_MEMBER, member_id, SKIP, _, _) \
	C(MEMBER_LINES_OF_SEQS, seqs, SKIP, _, _) \
	C(MEMBER_LINES_OF_MUS, mus, SKIP, _, _) \
	C(MEMBER_LINES_OF_SIGMAS, sigmas, SKIP, _, _)
// clang-format on
LG_COLUMNS(MEMBER_LINES_OF_COLUMNS, MEMBER_LINES_OF_NCOLS);

// clang-format off
const db_statement db_league_stats_statements[] = {
	{"league_stat_rows",
	 "WITH gn AS ( "
	 "    SELECT g.game, g.bgg, g.key, coalesce(k.name, x.game) AS shown "
	 "      FROM league_game_names g "
	 "      JOIN (SELECT DISTINCT ON (y.key) y.key, y.game "
	 "              FROM (SELECT key, game, sum(plays) AS c "
	 "                      FROM league_game_names "
	 "                     WHERE league_id = $1 "
	 "                     GROUP BY key, game) y "
	 "             ORDER BY y.key, y.c DESC, y.game) x ON x.key = g.key "
	 "      LEFT JOIN known_games k ON k.key = g.key "
	 "     WHERE g.league_id = $1 "
	 ") "
	 "SELECT r.play_id, r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative, p.seq, "
	 "       play_date_text(p.played_at, p.utc_offset_min, p.clock) AS date, "
	 "       p.local_date::text, "
	 "       coalesce(gn.key, p.game) AS game_key, "
	 "       coalesce(gn.shown, p.game) AS game, "
	 "       NOT coalesce(lg.highest_wins, true) AS lowest_wins, "
	 "       r.team "
	 "  FROM plays p "
	 "  JOIN play_results r ON r.play_id = p.id "
	 "  JOIN league_members m ON m.id = r.member_id "
	 "  LEFT JOIN seasons s ON s.id = $2 AND s.league_id = p.league_id "
	 "  LEFT JOIN gn ON gn.game = p.game AND gn.bgg = coalesce(p.bgg_id, 0) "
	 "  LEFT JOIN (SELECT DISTINCT ON (name) name, highest_wins "
	 "               FROM league_games "
	 "              WHERE league_id = $1 "
	 "              ORDER BY name, uuid) lg ON lg.name = p.game "
	 LG_RATED_ROWS_WHERE
	 " ORDER BY p.played_at, p.seq, r.seat",
	 3, LG_COLUMN_NAMES(LEAGUE_STAT_ROWS_COLUMNS)},
	{"member_lines_of",
	 "SELECT member_id, seqs::text, mus::text, sigmas::text "
	 "  FROM member_lines "
	 " WHERE league_id = $1",
	 1, LG_COLUMN_NAMES(MEMBER_LINES_OF_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

/* m and g: dense_index, the ratings: stat_rows_rate (below). */
#define LG_ROW db_stat_row
LG_FIELD_TABLE(stat_row_fields, LEAGUE_STAT_ROWS_COLUMNS);
#undef LG_ROW

typedef struct {
	const char *key;
	int row;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
	return strcmp(((const keyed *)a)->key, ((const keyed *)b)->key);
}

/* Dense indexes from 0 in the order of each row's key (member id, or game key): *index_of(row)
 * for every row. Sorting here, not in the statement, spares the database two sorts of every
 * row of the league. */
static void dense_index(db_stat_rows *set, bool by_member)
{
	keyed *k = xcalloc((size_t)(set->n ? set->n : 1), sizeof *k);
	for (int i = 0; i < set->n; i++)
		k[i] = (keyed){by_member ? set->rows[i].member : set->rows[i].game_key, i};
	qsort(k, (size_t)set->n, sizeof *k, keyed_cmp);
	int idx = -1;
	for (int i = 0; i < set->n; i++) {
		if (i == 0 || strcmp(k[i].key, k[i - 1].key) != 0)
			idx++;
		db_stat_row *x = &set->rows[k[i].row];
		*(by_member ? &x->m : &x->g) = idx;
	}
	free(k);
}

/* One element of a member's line, for stat_rows_rate's table. */
typedef struct {
	const char *member; /* borrowed from the lines' result */
	int64_t seq;
	double mu, sigma;
} line_elem;

static size_t seq_hash(int64_t seq)
{
	uint64_t h = (uint64_t)seq * 0x9E3779B97F4A7C15ull;
	return (size_t)(h ^ (h >> 29));
}

/* Each row's stored rating (has_rating, mu, sigma): the element of its member's line
 * (member_lines_of) for its play's seq; a row without one is not rated. One table over every
 * element of the league's lines (open addressing by seq). */
static db_status stat_rows_rate(db_conn *c, const char *league, db_stat_rows *set)
{
	const char *p[1] = {league};
	PGresult *r;
	db_status st = db_run(c, "member_lines_of", 1, p, &r);
	if (st != DB_OK)
		return st;
	int nl = db_nrows(r), total = 0;
	/* seqs are read as doubles too: a bigserial's values stay far below 2^53, exact there */
	double **seqs = xcalloc((size_t)nl + 1, sizeof *seqs);
	double **mus = xcalloc((size_t)nl + 1, sizeof *mus),
	       **sigmas = xcalloc((size_t)nl + 1, sizeof *sigmas);
	int *len = xcalloc((size_t)nl + 1, sizeof *len);
	for (int i = 0; i < nl; i++) {
		int a, b, d;
		seqs[i] = lg_parse_float_array(db_col_text(r, i, MEMBER_LINES_OF_SEQS), &a);
		mus[i] = lg_parse_float_array(db_col_text(r, i, MEMBER_LINES_OF_MUS), &b);
		sigmas[i] = lg_parse_float_array(db_col_text(r, i, MEMBER_LINES_OF_SIGMAS), &d);
		len[i] = a < b ? (a < d ? a : d) : (b < d ? b : d);
		total += len[i];
	}
	size_t cap = 64;
	while (cap < 2 * (size_t)total)
		cap *= 2;
	line_elem *slot = xcalloc(cap, sizeof *slot);
	for (int i = 0; i < nl; i++)
		for (int k = 0; k < len[i]; k++) {
			int64_t seq = (int64_t)seqs[i][k];
			size_t h = seq_hash(seq) & (cap - 1);
			while (slot[h].member)
				h = (h + 1) & (cap - 1);
			slot[h] = (line_elem){db_col_text(r, i, MEMBER_LINES_OF_MEMBER), seq,
			                      mus[i][k], sigmas[i][k]};
		}
	for (int j = 0; j < set->n; j++) {
		db_stat_row *x = &set->rows[j];
		x->has_rating = false;
		for (size_t h = seq_hash(x->seq) & (cap - 1); slot[h].member;
		     h = (h + 1) & (cap - 1))
			if (slot[h].seq == x->seq && strcmp(slot[h].member, x->member) == 0) {
				x->has_rating = true;
				x->mu = slot[h].mu;
				x->sigma = slot[h].sigma;
				break;
			}
	}
	for (int i = 0; i < nl; i++) {
		free(seqs[i]);
		free(mus[i]);
		free(sigmas[i]);
	}
	free(seqs);
	free(mus);
	free(sigmas);
	free(len);
	free(slot);
	PQclear(r);
	return DB_OK;
}

db_status db_league_stat_rows(db_conn *c, const char *league, const char *season, const char *game,
                              db_stat_rows *out)
{
	const char *p[3] = {league, season, game};
	void *rows;
	db_status st = lg_load(c, "league_stat_rows", 3, p, sizeof *out->rows, stat_row_fields,
	                       LG_NFIELDS(stat_row_fields), &out->res, &out->n, &rows);
	out->rows = rows;
	if (st == DB_OK) {
		dense_index(out, true);
		dense_index(out, false);
		if (!season && !game) /* a filter's ratings are its scope's line (stats.c) */
			st = stat_rows_rate(c, league, out);
	}
	if (st != DB_OK)
		db_rowset_clear(out);
	return st;
}
