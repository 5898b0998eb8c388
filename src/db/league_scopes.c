/* Typed rows of the kept standings of every scope (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

#include "base/oom.h"

#include <string.h>

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define LEAGUE_SCOPE_LINE_COLUMNS(C) \
	C(LEAGUE_SCOPE_LINE_KEPT, kept, SKIP, _, _) \
	C(LEAGUE_SCOPE_LINE_MUS, mus, SKIP, _, _) \
	C(LEAGUE_SCOPE_LINE_SIGMAS, sigmas, SKIP, _, _)
// clang-format on
LG_COLUMNS(LEAGUE_SCOPE_LINE_COLUMNS, LEAGUE_SCOPE_LINE_NCOLS);

// clang-format off
#define LEAGUE_GAME_KEYS_COLUMNS(C) C(LEAGUE_GAME_KEYS_KEYS, keys, SKIP, _, _)
// clang-format on
LG_COLUMNS(LEAGUE_GAME_KEYS_COLUMNS, LEAGUE_GAME_KEYS_NCOLS);

// clang-format off
#define LEAGUE_ADDED_ROWS_COLUMNS(C) \
	C(LEAGUE_ADDED_ROWS_LAST, last, BOOL, last, _) \
	C(LEAGUE_ADDED_ROWS_KEY, key, TEXT, key, _) \
	C(LEAGUE_ADDED_ROWS_LOCAL_DATE, local_date, TEXT, local_date, _) \
	C(LEAGUE_ADDED_ROWS_SEASONS, seasons, TEXT, seasons, _) \
	C(LEAGUE_ADDED_ROWS_MEMBER, member_id, TEXT, member, _) \
	C(LEAGUE_ADDED_ROWS_NAME, name, TEXT, name, _) \
	C(LEAGUE_ADDED_ROWS_RANK, rank, INT, rank, _) \
	C(LEAGUE_ADDED_ROWS_SCORE, score, OPT_DOUBLE, score, has_score) \
	C(LEAGUE_ADDED_ROWS_WINNER, winner, BOOL, winner, _) \
	C(LEAGUE_ADDED_ROWS_COOPERATIVE, cooperative, BOOL, cooperative, _) \
	C(LEAGUE_ADDED_ROWS_TEAM, team, TEXT_OR_NULL, team, _)
// clang-format on
LG_COLUMNS(LEAGUE_ADDED_ROWS_COLUMNS, LEAGUE_ADDED_ROWS_NCOLS);

/* A kept standing: league_scope_standings after its first column (kept), league_scopes_of after
 * its first (scope); one reader (read_scope_standing) for both. NULL from member on: a scope
 * with no member. */
// clang-format off
#define SCOPE_STANDING_COLUMNS(C) \
	C(SCOPE_MEMBER, member_id, TEXT_OR_NULL, member, _) \
	C(SCOPE_NAME, name, TEXT, name, _) \
	C(SCOPE_GAMES, games, INT, games, _) \
	C(SCOPE_WINS, wins, INT, wins, _) \
	C(SCOPE_RANK_SUM, rank_sum, INT64, rank_sum, _) \
	C(SCOPE_SCORED, scored, INT, scored, _) \
	C(SCOPE_SCORE_SUM, score_sum, DOUBLE, score_sum, _) \
	C(SCOPE_BEST, best, OPT_DOUBLE, best, has_best) \
	C(SCOPE_RATED, rated, BOOL, rated, _) \
	C(SCOPE_MU, mu, DOUBLE, mu, _) \
	C(SCOPE_SIGMA, sigma, DOUBLE, sigma, _)
#define LEAGUE_SCOPE_STANDINGS_COLUMNS(C) C(LEAGUE_SCOPE_STANDINGS_KEPT, kept, SKIP, _, _) SCOPE_STANDING_COLUMNS(C)
#define LEAGUE_SCOPES_OF_COLUMNS(C) C(LEAGUE_SCOPES_OF_SCOPE, scope, TEXT, scope, _) SCOPE_STANDING_COLUMNS(C)
// clang-format on
LG_COLUMNS(LEAGUE_SCOPE_STANDINGS_COLUMNS, LEAGUE_SCOPE_STANDINGS_NCOLS);
enum { LEAGUE_SCOPES_OF_SCOPE = LEAGUE_SCOPE_STANDINGS_KEPT }; /* the first column of both */

// clang-format off
const db_statement db_league_scopes_statements[] = {
	{"league_scopes_clear",
	 "WITH s AS ( "
	 "    INSERT INTO league_scope_state (league_id, seasons) "
	 "    VALUES ($1, $2::text[]) "
	 "        ON CONFLICT (league_id) DO UPDATE "
	 "       SET seasons = excluded.seasons "
	 "), "
	 "l AS ( "
	 "    DELETE FROM league_scope_lines "
	 "     WHERE league_id = $1 "
	 ") "
	 "DELETE FROM league_scopes "
	 " WHERE league_id = $1",
	 2, NULL},
	{"league_scopes_drop",
	 "WITH l AS ( "
	 "    DELETE FROM league_scope_lines "
	 "     WHERE league_id = $1 "
	 "       AND scope = ANY ($2::text[]) "
	 ") "
	 "DELETE FROM league_scopes "
	 " WHERE league_id = $1 "
	 "   AND scope = ANY ($2::text[])",
	 2, NULL},
	{"league_scopes_insert",
	 "INSERT INTO league_scopes (league_id, scope, member_id, games, wins, rank_sum, scored, score_sum, "
	 "                           best, rated, mu, sigma) "
	 "SELECT $1, u.* "
	 "  FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::bigint[], $7::int[], "
	 "              $8::float8[], $9::float8[], $10::bool[], $11::float8[], $12::float8[]) AS u",
	 12, NULL},
	{"league_scopes_upsert",
	 "INSERT INTO league_scopes AS s (league_id, scope, member_id, games, wins, rank_sum, scored, "
	 "                                score_sum, best, rated, mu, sigma) "
	 "SELECT $1, u.* "
	 "  FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::bigint[], $7::int[], "
	 "              $8::float8[], $9::float8[], $10::bool[], $11::float8[], $12::float8[]) AS u "
	 "    ON CONFLICT (league_id, scope, member_id) DO UPDATE "
	 "   SET games = excluded.games, "
	 "       wins = excluded.wins, "
	 "       rank_sum = excluded.rank_sum, "
	 "       scored = excluded.scored, "
	 "       score_sum = excluded.score_sum, "
	 "       best = excluded.best, "
	 "       rated = excluded.rated, "
	 "       mu = excluded.mu, "
	 "       sigma = excluded.sigma",
	 12, NULL},
	{"league_scope_lines_store",
	 "INSERT INTO league_scope_lines AS l (league_id, scope, mus, sigmas) "
	 "SELECT $1, u.scope, "
	 "       ($4::float8[])[u.at + 1 : u.at + u.n], "
	 "       ($5::float8[])[u.at + 1 : u.at + u.n] "
	 "  FROM (SELECT x.scope, x.n, (sum(x.n) OVER (ORDER BY x.k) - x.n)::int AS at "
	 "          FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS x(scope, n, k)) u "
	 "    ON CONFLICT (league_id, scope) DO UPDATE "
	 "   SET mus = l.mus || excluded.mus, "
	 "       sigmas = l.sigmas || excluded.sigmas",
	 5, NULL},
	{"league_scope_line",
	 "WITH sc AS ( "
	 "    SELECT league_scope_key($1, $2, $3) AS scope "
	 ") "
	 "SELECT sc.scope IS NOT NULL AS kept, "
	 "       l.mus::text, l.sigmas::text "
	 "  FROM sc "
	 "  LEFT JOIN league_scope_lines l ON l.league_id = $1 AND l.scope = sc.scope",
	 3, LG_COLUMN_NAMES(LEAGUE_SCOPE_LINE_COLUMNS)},
	{"league_game_keys",
	 "SELECT coalesce(string_agg(game || chr(31) || bgg || chr(31) || key, chr(30) ORDER BY game, bgg), "
	 "                '') AS keys "
	 "  FROM league_game_names "
	 " WHERE league_id = $1",
	 1, LG_COLUMN_NAMES(LEAGUE_GAME_KEYS_COLUMNS)},
	{"league_added_rows",
	 "SELECT NOT p.ignored "
	 "       AND NOT p.incomplete "
	 "       AND NOT EXISTS (SELECT 1 "
	 "                         FROM plays q "
	 "                        WHERE q.league_id = $1 "
	 "                          AND q.id <> p.id "
	 "                          AND NOT q.ignored "
	 "                          AND NOT q.incomplete "
	 "                          AND (q.played_at, q.seq) > (p.played_at, p.seq)) "
	 "       AND NOT EXISTS (SELECT 1 "
	 "                         FROM play_results r4 "
	 "                         JOIN member_lines ml ON ml.member_id = r4.member_id "
	 "                         JOIN plays q ON q.seq = ml.all_seqs[cardinality(ml.all_seqs)] "
	 "                        WHERE r4.play_id = p.id "
	 "                          AND (q.played_at, q.seq) > (p.played_at, p.seq)) AS last, "
	 "       g.key, "
	 "       p.local_date::text, "
	 "       ARRAY(SELECT s.id "
	 "               FROM seasons s "
	 "              WHERE s.league_id = $1 "
	 "                AND s.id = ANY (t.seasons) "
	 "                AND p.local_date BETWEEN s.starts AND s.ends "
	 "              ORDER BY s.id)::text AS seasons, "
	 "       r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative, r.team "
	 "  FROM plays p "
	 "  JOIN league_scope_state t ON t.league_id = p.league_id "
	 "  JOIN play_results r ON r.play_id = p.id "
	 "  JOIN league_members m ON m.id = r.member_id "
	 "  LEFT JOIN league_game_names g "
	 "         ON g.league_id = p.league_id AND g.game = p.game AND g.bgg = coalesce(p.bgg_id, 0) "
	 " WHERE p.id = $2 "
	 "   AND p.league_id = $1 "
	 "   AND NOT m.anonymous "
	 "   AND NOT r.unrated "
	 " ORDER BY r.seat",
	 2, LG_COLUMN_NAMES(LEAGUE_ADDED_ROWS_COLUMNS)},
	{"league_scopes_of",
	 "SELECT s.scope, s.member_id, "
	 "       ''::text AS name, "
	 "       s.games, s.wins, s.rank_sum, s.scored, s.score_sum, s.best, s.rated, s.mu, s.sigma "
	 "  FROM league_scopes s "
	 " WHERE s.league_id = $1 "
	 "   AND s.scope = ANY ($2::text[]) "
	 "   AND s.member_id = ANY ($3::text[])",
	 3, LG_COLUMN_NAMES(LEAGUE_SCOPES_OF_COLUMNS)},
	{"league_scope_standings",
	 "WITH sc AS ( "
	 "    SELECT league_scope_key($1, $2, $3) AS scope "
	 ") "
	 "SELECT sc.scope IS NOT NULL AS kept, "
	 "       s.member_id, m.name, s.games, s.wins, s.rank_sum, s.scored, s.score_sum, s.best, s.rated, "
	 "       s.mu, s.sigma "
	 "  FROM sc "
	 "  LEFT JOIN league_scopes s ON s.league_id = $1 AND s.scope = sc.scope "
	 "  LEFT JOIN league_members m ON m.id = s.member_id",
	 3, LG_COLUMN_NAMES(LEAGUE_SCOPE_STANDINGS_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

/* ---- kept standings ---- */

db_status db_league_scopes_clear(db_conn *c, const char *league, const char *seasons)
{
	const char *p[2] = {league, seasons};
	return db_run_count(c, "league_scopes_clear", 2, p, NULL);
}

db_status db_league_scopes_drop(db_conn *c, const char *league, const char *scopes)
{
	const char *p[2] = {league, scopes};
	return db_run_count(c, "league_scopes_drop", 2, p, NULL);
}

db_status db_league_scope_line(db_conn *c, const char *league, const char *season, const char *game,
                               bool *kept, db_scope_line *out)
{
	const char *p[3] = {league, season, game};
	PGresult *r;
	memset(out, 0, sizeof *out);
	*kept = false;
	db_status st = db_run(c, "league_scope_line", 3, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1 && db_col_bool(r, 0, LEAGUE_SCOPE_LINE_KEPT)) {
		*kept = true;
		int nm = 0, ns = 0;
		out->mu = lg_parse_float_array(db_col_text(r, 0, LEAGUE_SCOPE_LINE_MUS), &nm);
		out->sigma = lg_parse_float_array(db_col_text(r, 0, LEAGUE_SCOPE_LINE_SIGMAS), &ns);
		out->n = nm < ns ? nm : ns;
	}
	PQclear(r);
	return DB_OK;
}

db_status db_league_game_keys(db_conn *c, const char *league, char **out)
{
	const char *p[1] = {league};
	PGresult *r;
	*out = NULL;
	db_status st = db_run(c, "league_game_keys", 1, p, &r);
	if (st != DB_OK)
		return st;
	*out = xstrdup(db_nrows(r) == 1 ? db_col_text(r, 0, LEAGUE_GAME_KEYS_KEYS) : "");
	PQclear(r);
	return DB_OK;
}

#define LG_ROW db_added_row
LG_FIELD_TABLE(added_row_fields, LEAGUE_ADDED_ROWS_COLUMNS);
#undef LG_ROW

db_status db_league_added_rows(db_conn *c, const char *league, const char *play, db_added_rows *out)
{
	const char *p[2] = {league, play};
	RETURN_FIELDS(c, "league_added_rows", 2, p, out, added_row_fields);
}

db_status db_league_scopes_store(db_conn *c, const char *league, bool added,
                                 const char *const arrays[11])
{
	const char *p[12] = {league}; /* league_scopes_insert, league_scopes_upsert */
	for (int i = 0; i < 11; i++)
		p[i + 1] = arrays[i];
	return db_run_count(c, added ? "league_scopes_upsert" : "league_scopes_insert", 12, p,
	                    NULL);
}

db_status db_league_scope_lines_store(db_conn *c, const char *league, const char *scopes,
                                      const char *counts, db_f8array *mus, db_f8array *sigmas)
{
	int len[5] = {0}, fmt[5] = {0, 0, 0, 1, 1};
	const char *p[5] = {league, scopes, counts, db_f8array_done(mus, &len[3]),
	                    db_f8array_done(sigmas, &len[4])};
	return db_run_bin(c, "league_scope_lines_store", 5, p, len, fmt, NULL);
}

#define LG_ROW db_scope_standing
LG_FIELD_TABLE(scope_standing_fields, LEAGUE_SCOPE_STANDINGS_COLUMNS);
#undef LG_ROW

static void read_scope_row(const PGresult *r, int i, void *row)
{
	db_scope_row *x = row;
	x->scope = db_col_text(r, i, LEAGUE_SCOPES_OF_SCOPE);
	lg_read(r, i, &x->x, scope_standing_fields, LG_NFIELDS(scope_standing_fields));
}

db_status db_league_scopes_of(db_conn *c, const char *league, const char *scopes,
                              const char *members, db_scope_rows *out)
{
	const char *p[3] = {league, scopes, members};
	RETURN_LOADED(c, "league_scopes_of", 3, p, out, read_scope_row);
}

db_status db_league_scope_standings(db_conn *c, const char *league, const char *season,
                                    const char *game, bool *kept, db_scope_standings *out)
{
	const char *p[3] = {league, season, game};
	memset(out, 0, sizeof *out);
	*kept = false;
	void *rows;
	db_status st =
	    lg_load(c, "league_scope_standings", 3, p, sizeof *out->rows, scope_standing_fields,
	            LG_NFIELDS(scope_standing_fields), &out->res, &out->n, &rows);
	out->rows = rows;
	if (st != DB_OK)
		return st;
	*kept = out->n > 0 && db_col_bool(out->res, 0, LEAGUE_SCOPE_STANDINGS_KEPT);
	/* the one row of an empty scope carries no member */
	if (out->n == 1 && out->rows[0].member == NULL)
		out->n = 0;
	return DB_OK;
}
