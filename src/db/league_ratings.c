/* Typed rows of what the ratings are computed from and kept in: the league's results in play
 * order, the members' lines, a member's history (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define LEAGUE_ROWS_COLUMNS(C) \
	C(LEAGUE_ROWS_PLAY, play_id, TEXT, play, _) \
	C(LEAGUE_ROWS_MEMBER, member_id, TEXT, member, _) \
	C(LEAGUE_ROWS_NAME, name, TEXT, name, _) \
	C(LEAGUE_ROWS_RANK, rank, INT, rank, _) \
	C(LEAGUE_ROWS_SCORE, score, OPT_DOUBLE, score, has_score) \
	C(LEAGUE_ROWS_WINNER, winner, BOOL, winner, _) \
	C(LEAGUE_ROWS_COOPERATIVE, cooperative, BOOL, cooperative, _) \
	C(LEAGUE_ROWS_SEQ, seq, INT64, seq, _) \
	C(LEAGUE_ROWS_TEAM, team, TEXT_OR_NULL, team, _)
// clang-format on
LG_COLUMNS(LEAGUE_ROWS_COLUMNS, LEAGUE_ROWS_NCOLS);

/* league_rows_keyed and league_play_rows_keyed: the columns of league_rows, then three more */
// clang-format off
#define LEAGUE_ROWS_KEYED_MORE(C) \
	C(LEAGUE_ROWS_KEY, key, TEXT, game_key, _) \
	C(LEAGUE_ROWS_LOCAL_DATE, local_date, TEXT, local_date, _) \
	C(LEAGUE_ROWS_AT_US, at_us, INT64, at_us, _)
#define LEAGUE_ROWS_KEYED_COLUMNS(C) LEAGUE_ROWS_COLUMNS(C) LEAGUE_ROWS_KEYED_MORE(C)
// clang-format on
enum {
	LEAGUE_ROWS_KEYED_FROM_ =
	    LEAGUE_ROWS_NCOLS - 1, /* the next is the first after league_rows' */
	LEAGUE_ROWS_KEYED_MORE(LG_ENUM_) LEAGUE_ROWS_KEYED_NCOLS
};

// clang-format off
#define ANALYZE_LEAGUE_TABLES_COLUMNS(C) C(ANALYZE_LEAGUE_TABLES_RESULT, analyze_league_tables, SKIP, _, _)
// clang-format on
LG_COLUMNS(ANALYZE_LEAGUE_TABLES_COLUMNS, ANALYZE_LEAGUE_TABLES_NCOLS);

// clang-format off
#define RECOMPUTE_WORK_MEM_COLUMNS(C) C(RECOMPUTE_WORK_MEM_RESULT, set_config, SKIP, _, _)
// clang-format on
LG_COLUMNS(RECOMPUTE_WORK_MEM_COLUMNS, RECOMPUTE_WORK_MEM_NCOLS);

// clang-format off
#define LEAGUE_ROWS_OUT_COLUMNS(C) \
	C(LEAGUE_ROWS_OUT_MEMBER, member_id, TEXT, member, _) \
	C(LEAGUE_ROWS_OUT_SEQ, seq, INT64, seq, _) \
	C(LEAGUE_ROWS_OUT_AT_US, at_us, INT64, at_us, _)
// clang-format on
LG_COLUMNS(LEAGUE_ROWS_OUT_COLUMNS, LEAGUE_ROWS_OUT_NCOLS);

// clang-format off
#define PLAYER_HISTORY_COLUMNS(C) \
	C(PLAYER_HISTORY_TOTAL, total, INT64, total, _) \
	C(PLAYER_HISTORY_CUR_MU, cur_mu, OPT_DOUBLE, current_mu, has_current) \
	C(PLAYER_HISTORY_CUR_SIGMA, cur_sigma, DOUBLE_IF, current_sigma, has_current) \
	C(PLAYER_HISTORY_PLAY, id, TEXT_OR_NULL, play, _) \
	C(PLAYER_HISTORY_GAME, game, TEXT, game, _) \
	C(PLAYER_HISTORY_DATE, date, TEXT_OR_NULL, date, _) \
	C(PLAYER_HISTORY_COOPERATIVE, cooperative, BOOL, cooperative, _) \
	C(PLAYER_HISTORY_SCORE, score, OPT_DOUBLE, score, has_score) \
	C(PLAYER_HISTORY_RANK, rank, INT, rank, _) \
	C(PLAYER_HISTORY_WINNER, winner, BOOL, winner, _) \
	C(PLAYER_HISTORY_RATED, rated, BOOL, rated, _) \
	C(PLAYER_HISTORY_MU, mu, OPT_DOUBLE, mu, has_rating) \
	C(PLAYER_HISTORY_SIGMA, sigma, DOUBLE_IF, sigma, has_rating) \
	C(PLAYER_HISTORY_PLAYERS, players, INT64, players, _)
// clang-format on
LG_COLUMNS(PLAYER_HISTORY_COLUMNS, PLAYER_HISTORY_NCOLS);

/* league_rows_keyed and league_play_rows_keyed: the rated rows of league $1 with their game's
 * key, the whole league or one play */
// clang-format off
#define KEYED_ROWS_OF_LEAGUE \
	"SELECT r.play_id, r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative, p.seq, r.team, " \
	"       g.key, " \
	"       p.local_date::text, " \
	"       (extract(epoch FROM p.played_at) * 1000000)::bigint AS at_us " \
	"  FROM plays p " \
	"  JOIN play_results r ON r.play_id = p.id " \
	"  JOIN league_members m ON m.id = r.member_id " \
	"  LEFT JOIN league_game_names g " \
	"         ON g.league_id = p.league_id AND g.game = p.game AND g.bgg = coalesce(p.bgg_id, 0) " \
	" WHERE p.league_id = $1 "
#define KEYED_ROWS_RATED \
	"   AND NOT p.ignored " \
	"   AND NOT p.incomplete " \
	"   AND NOT m.anonymous " \
	"   AND NOT r.unrated "
// clang-format on

// clang-format off
const db_statement db_league_ratings_statements[] = {
	{"league_rows",
	 "SELECT r.play_id, r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative, p.seq, "
	 "       r.team "
	 "  FROM plays p "
	 "  JOIN play_results r ON r.play_id = p.id "
	 "  JOIN league_members m ON m.id = r.member_id "
	 "  LEFT JOIN seasons s ON s.id = $2 AND s.league_id = p.league_id "
	 LG_RATED_ROWS_WHERE
	 " ORDER BY p.played_at, p.seq, r.seat",
	 3, LG_COLUMN_NAMES(LEAGUE_ROWS_COLUMNS)},
	{"league_rows_keyed",
	 KEYED_ROWS_OF_LEAGUE
	 KEYED_ROWS_RATED
	 " ORDER BY p.played_at, p.seq, r.seat",
	 1, LG_COLUMN_NAMES(LEAGUE_ROWS_KEYED_COLUMNS)},
	{"league_play_rows_keyed",
	 KEYED_ROWS_OF_LEAGUE
	 "   AND p.id = $2 "
	 KEYED_ROWS_RATED
	 " ORDER BY r.seat",
	 2, LG_COLUMN_NAMES(LEAGUE_ROWS_KEYED_COLUMNS)},
	{"analyze_league_tables",
	 "SELECT analyze_league_tables()",
	 0, LG_COLUMN_NAMES(ANALYZE_LEAGUE_TABLES_COLUMNS)},
	{"recompute_work_mem",
	 "SELECT set_config('work_mem', '64MB', true)",
	 0, LG_COLUMN_NAMES(RECOMPUTE_WORK_MEM_COLUMNS)},
	{"member_lines_store",
	 "WITH gone AS ( "
	 "    DELETE FROM member_lines "
	 "     WHERE league_id = $1 "
	 "       AND member_id <> ALL ($2::text[]) "
	 ") "
	 "INSERT INTO member_lines AS l (member_id, league_id, seqs, mus, sigmas, all_seqs, rated_upto) "
	 "SELECT u.member, $1, "
	 "       ($4::bigint[])[u.at + 1 : u.at + u.n], "
	 "       ($5::float8[])[u.at + 1 : u.at + u.n], "
	 "       ($6::float8[])[u.at + 1 : u.at + u.n], "
	 "       ($8::bigint[])[u.at_all + 1 : u.at_all + u.n_all], "
	 "       ($9::int[])[u.at_all + 1 : u.at_all + u.n_all] "
	 "  FROM (SELECT x.member, x.n, x.n_all, "
	 "               (sum(x.n) OVER (ORDER BY x.k) - x.n)::int AS at, "
	 "               (sum(x.n_all) OVER (ORDER BY x.k) - x.n_all)::int AS at_all "
	 "          FROM unnest($2::text[], $3::int[], $7::int[]) WITH ORDINALITY AS x(member, n, n_all, k)) u "
	 "    ON CONFLICT (member_id) DO UPDATE "
	 "   SET league_id = excluded.league_id, "
	 "       seqs = excluded.seqs, "
	 "       mus = excluded.mus, "
	 "       sigmas = excluded.sigmas, "
	 "       all_seqs = excluded.all_seqs, "
	 "       rated_upto = excluded.rated_upto",
	 9, NULL},
	{"member_lines_append",
	 "INSERT INTO member_lines AS l (member_id, league_id, seqs, mus, sigmas, all_seqs, rated_upto) "
	 "SELECT a.member_id, $1, "
	 "       CASE WHEN u.member IS NULL THEN '{}'::bigint[] ELSE ARRAY[p.seq] END, "
	 "       CASE WHEN u.member IS NULL THEN '{}'::float8[] ELSE ARRAY[u.mu] END, "
	 "       CASE WHEN u.member IS NULL THEN '{}'::float8[] ELSE ARRAY[u.sigma] END, "
	 "       ARRAY[p.seq], "
	 "       ARRAY[(u.member IS NOT NULL)::int] "
	 "  FROM plays p "
	 "  JOIN play_results a ON a.play_id = p.id "
	 "  LEFT JOIN unnest($3::text[], $4::float8[], $5::float8[]) AS u(member, mu, sigma) "
	 "         ON u.member = a.member_id "
	 " WHERE p.id = $2 "
	 "   AND p.league_id = $1 "
	 "    ON CONFLICT (member_id) DO UPDATE "
	 "   SET seqs = l.seqs || excluded.seqs, "
	 "       mus = l.mus || excluded.mus, "
	 "       sigmas = l.sigmas || excluded.sigmas, "
	 "       all_seqs = l.all_seqs || excluded.all_seqs, "
	 "       rated_upto = l.rated_upto || (coalesce(l.rated_upto[cardinality(l.rated_upto)], 0) "
	 "                                     + excluded.rated_upto[1])",
	 5, NULL},
	{"league_rows_out",
	 "SELECT r.member_id, p.seq, "
	 "       (extract(epoch FROM p.played_at) * 1000000)::bigint AS at_us "
	 "  FROM plays p "
	 "  JOIN play_results r ON r.play_id = p.id "
	 " WHERE p.league_id = $1 "
	 "   AND (p.ignored OR p.incomplete) "
	 " UNION ALL "
	 "SELECT r.member_id, p.seq, (extract(epoch FROM p.played_at) * 1000000)::bigint "
	 "  FROM league_members m "
	 "  JOIN play_results r ON r.member_id = m.id "
	 "  JOIN plays p ON p.id = r.play_id "
	 " WHERE m.league_id = $1 "
	 "   AND m.anonymous "
	 "   AND NOT (p.ignored OR p.incomplete) "
	 " UNION ALL "
	 "SELECT r.member_id, p.seq, (extract(epoch FROM p.played_at) * 1000000)::bigint "
	 "  FROM league_members m "
	 "  JOIN play_results r ON r.member_id = m.id AND r.unrated "
	 "  JOIN plays p ON p.id = r.play_id "
	 " WHERE m.league_id = $1 "
	 "   AND NOT m.anonymous "
	 "   AND NOT (p.ignored OR p.incomplete) "
	 " ORDER BY 3, 2",
	 1, LG_COLUMN_NAMES(LEAGUE_ROWS_OUT_COLUMNS)},
	{"player_history",
	 "WITH l AS MATERIALIZED ( "
	 "    SELECT cardinality(m.all_seqs) AS total, "
	 "           m.mus[cardinality(m.mus)] AS cur_mu, "
	 "           m.sigmas[cardinality(m.sigmas)] AS cur_sigma, "
	 "           m.all_seqs[b.lo : b.hi] AS s, "
	 "           m.rated_upto[b.lo : b.hi] AS u, "
	 "           (0 || m.rated_upto)[b.lo : b.hi] AS u0, "
	 "           b.rlo, "
	 "           m.mus[b.rlo : m.rated_upto[b.hi]] AS pm, "
	 "           m.sigmas[b.rlo : m.rated_upto[b.hi]] AS ps "
	 "      FROM member_lines m, "
	 "           LATERAL (SELECT $3::int + 1 AS lo, "
	 "                           least($3::bigint + $2::bigint, cardinality(m.all_seqs))::int AS hi, "
	 "                           greatest(1, (0 || m.rated_upto)[$3::int + 1]) AS rlo) b "
	 "     WHERE m.member_id = $1 "
	 ") "
	 "SELECT coalesce(l.total, 0) AS total, "
	 "       l.cur_mu, l.cur_sigma, p.id, p.game, "
	 "       play_date_text(p.played_at, p.utc_offset_min, p.clock) AS date, "
	 "       p.cooperative, r.score, r.rank, r.winner, "
	 "       x.j > x.j0 AS rated, "
	 "       CASE WHEN x.j > 0 THEN l.pm[x.j - l.rlo + 1] END AS mu, "
	 "       CASE WHEN x.j > 0 THEN l.ps[x.j - l.rlo + 1] END AS sigma, "
	 "       (SELECT count(*) FROM play_results r2 WHERE r2.play_id = p.id) AS players "
	 "  FROM (SELECT 1) o "
	 "  LEFT JOIN l ON true "
	 "  LEFT JOIN LATERAL unnest(l.s, l.u, l.u0) WITH ORDINALITY AS x(seq, j, j0, k) ON true "
	 "  LEFT JOIN plays p ON p.seq = x.seq "
	 "  LEFT JOIN play_results r ON r.play_id = p.id AND r.member_id = $1 "
	 " ORDER BY x.k",
	 3, LG_COLUMN_NAMES(PLAYER_HISTORY_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

/* ---- ratings and standings ---- */

#define LG_ROW db_league_result
LG_FIELD_TABLE(league_result_fields, LEAGUE_ROWS_COLUMNS);
#undef LG_ROW

db_status db_league_rows(db_conn *c, const char *league, const char *season, const char *game,
                         db_league_results *out)
{
	const char *p[3] = {league, season, game};
	RETURN_FIELDS(c, "league_rows", 3, p, out, league_result_fields);
}

#define LG_ROW db_league_result
LG_FIELD_TABLE(league_result_keyed_fields, LEAGUE_ROWS_KEYED_COLUMNS);
#undef LG_ROW

db_status db_league_rows_keyed(db_conn *c, const char *league, db_league_results *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_rows_keyed", 1, p, out, league_result_keyed_fields);
}

db_status db_league_play_rows_keyed(db_conn *c, const char *league, const char *play,
                                    db_league_results *out)
{
	const char *p[2] = {league, play};
	RETURN_FIELDS(c, "league_play_rows_keyed", 2, p, out, league_result_keyed_fields);
}

db_status db_league_analyze(db_conn *c)
{
	return db_run_count(c, "analyze_league_tables", 0, NULL, NULL);
}

db_status db_recompute_work_mem(db_conn *c)
{
	return db_run_count(c, "recompute_work_mem", 0, NULL, NULL);
}

db_status db_member_lines_store(db_conn *c, const char *league, const db_member_lines *l)
{
	int len[9] = {0}, fmt[9] = {0, 0, 0, 1, 1, 1, 0, 1, 1};
	const char *p[9] = {league,
	                    l->members,
	                    l->counts,
	                    db_f8array_done(l->seqs, &len[3]),
	                    db_f8array_done(l->mus, &len[4]),
	                    db_f8array_done(l->sigmas, &len[5]),
	                    l->counts_all,
	                    db_f8array_done(l->all_seqs, &len[7]),
	                    db_f8array_done(l->rated_upto, &len[8])};
	return db_run_bin(c, "member_lines_store", 9, p, len, fmt, NULL);
}

db_status db_member_lines_append(db_conn *c, const char *league, const char *play,
                                 const char *members, db_f8array *mus, db_f8array *sigmas)
{
	int len[5] = {0}, fmt[5] = {0, 0, 0, 1, 1};
	const char *p[5] = {league, play, members, db_f8array_done(mus, &len[3]),
	                    db_f8array_done(sigmas, &len[4])};
	return db_run_bin(c, "member_lines_append", 5, p, len, fmt, NULL);
}

#define LG_ROW db_out_row
LG_FIELD_TABLE(out_row_fields, LEAGUE_ROWS_OUT_COLUMNS);
#undef LG_ROW

db_status db_league_rows_out(db_conn *c, const char *league, db_out_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_rows_out", 1, p, out, out_row_fields);
}

/* cur_mu, cur_sigma: the rating after every play, mu and sigma the one after this play (NULL:
 * none yet); play NULL: the one row of an empty page. */
#define LG_ROW db_history_row
LG_FIELD_TABLE(history_fields, PLAYER_HISTORY_COLUMNS);
#undef LG_ROW

db_status db_player_history(db_conn *c, const char *member, const char *limit, const char *offset,
                            db_history_page *out)
{
	const char *p[3] = {member, limit, offset};
	void *rows;
	out->total = 0;
	out->has_current = false;
	out->current_mu = out->current_sigma = 0;
	db_status st = lg_load(c, "player_history", 3, p, sizeof *out->items.rows, history_fields,
	                       LG_NFIELDS(history_fields), &out->items.res, &out->items.n, &rows);
	out->items.rows = rows;
	if (st == DB_OK && out->items.n > 0) {
		const db_history_row *x = &out->items.rows[0];
		out->total = x->total;
		out->has_current = x->has_current;
		out->current_mu = x->current_mu;
		out->current_sigma = x->current_sigma;
		if (x->play == NULL) /* the one row of an empty page */
			out->items.n = 0;
	}
	return st;
}
