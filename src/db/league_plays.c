/* Typed rows of plays, their results, the play log and the idempotency keys of plays entered by
 * hand (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

#include <stdio.h>

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define PLAY_INSERT_COLUMNS(C) C(PLAY_INSERT_ID, id, SKIP, _, _)
// clang-format on
LG_COLUMNS(PLAY_INSERT_COLUMNS, PLAY_INSERT_NCOLS);

// clang-format off
#define PLAY_GET_COLUMNS(C) \
	C(PLAY_GET_ID, id, TEXT, id, _) \
	C(PLAY_GET_GAME, game, TEXT, game, _) \
	C(PLAY_GET_BGG_ID, bgg_id, OPT_INT64, bgg_id, has_bgg_id) \
	C(PLAY_GET_DATE, date, TEXT_OR_NULL, date, _) \
	C(PLAY_GET_DURATION_MIN, duration_min, OPT_INT64, duration_min, has_duration) \
	C(PLAY_GET_NOTES, notes, TEXT, notes, _) \
	C(PLAY_GET_LOCATION, location, TEXT, location, _) \
	C(PLAY_GET_COOPERATIVE, cooperative, BOOL, cooperative, _) \
	C(PLAY_GET_SOURCE, source, TEXT, source, _) \
	C(PLAY_GET_UUID, uuid, TEXT, uuid, _) \
	C(PLAY_GET_GAME_ID, game_id, TEXT_OR_NULL, game_id, _) \
	C(PLAY_GET_IGNORED, ignored, BOOL, ignored, _) \
	C(PLAY_GET_INCOMPLETE, incomplete, BOOL, incomplete, _) \
	C(PLAY_GET_BGG_PLAY_ID, bgg_play_id, INT64, bgg_play_id, _) \
	C(PLAY_GET_CREATED_BY, created_by, TEXT_OR_NULL, created_by, _)
// clang-format on
LG_COLUMNS(PLAY_GET_COLUMNS, PLAY_GET_NCOLS);

// clang-format off
#define PLAY_RESULTS_COLUMNS(C) \
	C(PLAY_RESULTS_MEMBER, member_id, TEXT, member, _) \
	C(PLAY_RESULTS_NAME, name, TEXT, name, _) \
	C(PLAY_RESULTS_SEAT, seat, INT, seat, _) \
	C(PLAY_RESULTS_SCORE, score, OPT_DOUBLE, score, has_score) \
	C(PLAY_RESULTS_RANK, rank, INT, rank, _) \
	C(PLAY_RESULTS_WINNER, winner, BOOL, winner, _) \
	C(PLAY_RESULTS_BREAKDOWN, breakdown, TEXT_OR_NULL, breakdown, _) \
	C(PLAY_RESULTS_MU, mu, OPT_DOUBLE, mu, has_rating) \
	C(PLAY_RESULTS_SIGMA, sigma, DOUBLE_IF, sigma, has_rating) \
	C(PLAY_RESULTS_SCORE_TEXT, score_text, TEXT_OR_NULL, score_text, _) \
	C(PLAY_RESULTS_UNRATED, unrated, BOOL, unrated, _) \
	C(PLAY_RESULTS_TEAM, team, TEXT_OR_NULL, team, _) \
	C(PLAY_RESULTS_EXTRA, extra, TEXT_OR_NULL, extra, _)
// clang-format on
LG_COLUMNS(PLAY_RESULTS_COLUMNS, PLAY_RESULTS_NCOLS);

// clang-format off
#define PLAY_CREATED_BY_COLUMNS(C) C(PLAY_CREATED_BY_CREATED_BY, created_by, SKIP, _, _)
// clang-format on
LG_COLUMNS(PLAY_CREATED_BY_COLUMNS, PLAY_CREATED_BY_NCOLS);

// clang-format off
#define PLAY_LIST_COLUMNS(C) \
	C(PLAY_LIST_TOTAL, total, INT64, total, _) \
	C(PLAY_LIST_ID, id, TEXT_OR_NULL, id, _) \
	C(PLAY_LIST_GAME, game, TEXT, game, _) \
	C(PLAY_LIST_DATE, date, TEXT_OR_NULL, date, _) \
	C(PLAY_LIST_COOPERATIVE, cooperative, BOOL, cooperative, _) \
	C(PLAY_LIST_SOURCE, source, TEXT, source, _) \
	C(PLAY_LIST_IGNORED, ignored, BOOL, ignored, _) \
	C(PLAY_LIST_INCOMPLETE, incomplete, BOOL, incomplete, _) \
	C(PLAY_LIST_PLAYERS, players, TEXT, players, _)
// clang-format on
LG_COLUMNS(PLAY_LIST_COLUMNS, PLAY_LIST_NCOLS);

// clang-format off
#define PLAY_LOG_LIST_COLUMNS(C) \
	C(PLAY_LOG_LIST_PLAY, play_id, TEXT, play, _) \
	C(PLAY_LOG_LIST_ACCOUNT, account_id, TEXT_OR_NULL, account, _) \
	C(PLAY_LOG_LIST_ACTION, action, TEXT, action, _) \
	C(PLAY_LOG_LIST_AT, at, TEXT, at, _) \
	C(PLAY_LOG_LIST_BEFORE, before, TEXT_OR_NULL, before, _) \
	C(PLAY_LOG_LIST_AFTER, after, TEXT_OR_NULL, after, _)
// clang-format on
LG_COLUMNS(PLAY_LOG_LIST_COLUMNS, PLAY_LOG_LIST_NCOLS);

// clang-format off
#define PLAY_KEY_GET_COLUMNS(C) \
	C(PLAY_KEY_GET_ACCOUNT, account_id, TEXT, account, _) \
	C(PLAY_KEY_GET_REQUEST_HASH, request_hash, TEXT, request_hash, _) \
	C(PLAY_KEY_GET_STATUS, status, INT, status, _) \
	C(PLAY_KEY_GET_REPLY, reply, TEXT, reply, _)
// clang-format on
LG_COLUMNS(PLAY_KEY_GET_COLUMNS, PLAY_KEY_GET_NCOLS);

// clang-format off
const db_statement db_league_plays_statements[] = {
	{"play_insert",
	 "INSERT INTO plays (id, league_id, game, bgg_id, played_at, duration_min, notes, location, "
	 "                   cooperative, utc_offset_min, clock, source, uuid, game_id, created_by, "
	 "                   ignored, incomplete, bgg_play_id, extra) "
	 "VALUES ($1, $2, $3, $4::int, $5::timestamptz, $6::int, $7, $8, "
	 "        $9::boolean, $10::int, $11, $12, $13, $14, $15, $16::boolean, "
	 "        $17::boolean, $18::bigint, $19::jsonb) "
	 "    ON CONFLICT DO NOTHING "
	 "RETURNING id",
	 19, LG_COLUMN_NAMES(PLAY_INSERT_COLUMNS)},
	{"play_get",
	 "SELECT id, game, bgg_id, "
	 "       play_date_text(played_at, utc_offset_min, clock) AS date, "
	 "       duration_min, notes, location, cooperative, source, uuid, game_id, ignored, incomplete, "
	 "       bgg_play_id, created_by "
	 "  FROM plays "
	 " WHERE league_id = $1 "
	 "   AND id = $2",
	 2, LG_COLUMN_NAMES(PLAY_GET_COLUMNS)},
	{"play_results",
	 "SELECT r.member_id, m.name, r.seat, r.score, r.rank, r.winner, r.breakdown::text, "
	 "       l.mus[k.at] AS mu, "
	 "       l.sigmas[k.at] AS sigma, "
	 "       r.score_text, r.unrated, r.team, r.extra::text AS extra "
	 "  FROM play_results r "
	 "  JOIN plays p ON p.id = r.play_id "
	 "  JOIN league_members m ON m.id = r.member_id "
	 "  LEFT JOIN member_lines l ON l.member_id = r.member_id "
	 "  LEFT JOIN LATERAL (SELECT array_position(l.seqs, p.seq) AS at) k ON true "
	 " WHERE r.play_id = $1 "
	 " ORDER BY r.seat",
	 1, LG_COLUMN_NAMES(PLAY_RESULTS_COLUMNS)},
	/* a whole import's plays and results in two statements (src/leagues/plays.c, league_batch) */
	{"plays_insert_many",
	 "INSERT INTO plays (id, league_id, game, bgg_id, played_at, duration_min, notes, location, "
	 "                   cooperative, utc_offset_min, clock, source, uuid, created_by, ignored, "
	 "                   incomplete, bgg_play_id, extra, game_uuid) "
	 "SELECT u.id, $1, u.game, u.bgg_id, u.played_at, u.dur, u.notes, u.location, "
	 "       u.coop, u.off, u.clock, u.source, u.uuid, $2, u.ignored, u.incomplete, "
	 "       u.bgg_play_id, u.extra, u.game_uuid "
	 "  FROM unnest($3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::int[], $8::text[], "
	 "              $9::text[], $10::boolean[], $11::int[], $12::text[], $13::text[], $14::text[], "
	 "              $15::boolean[], $16::boolean[], $17::bigint[], $18::jsonb[], $19::text[]) "
	 "       WITH ORDINALITY "
	 "       AS u(id, game, bgg_id, played_at, dur, notes, location, coop, off, clock, source, uuid, "
	 "            ignored, incomplete, bgg_play_id, extra, game_uuid, n) "
	 " ORDER BY u.n",
	 19, NULL},
	{"results_insert_many",
	 "INSERT INTO play_results (play_id, member_id, seat, score, rank, winner, breakdown, score_text, "
	 "                          extra, player_uuid, unrated, team) "
	 "SELECT * "
	 "  FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[], $5::int[], $6::boolean[], "
	 "              $7::jsonb[], $8::text[], $9::jsonb[], $10::text[], $11::boolean[], "
	 "              $12::text[])",
	 12, NULL},
	{"play_created_by",
	 "SELECT coalesce(created_by, '') AS created_by "
	 "  FROM plays "
	 " WHERE id = $1",
	 1, LG_COLUMN_NAMES(PLAY_CREATED_BY_COLUMNS)},
	{"play_update",
	 "UPDATE plays "
	 "   SET game_uuid = CASE WHEN game = $2 THEN game_uuid END, "
	 "       game = $2, "
	 "       bgg_id = $3::int, "
	 "       played_at = $4::timestamptz, "
	 "       duration_min = $5::int, "
	 "       notes = $6, "
	 "       location = $7, "
	 "       cooperative = $8::boolean, "
	 "       utc_offset_min = $9::int, "
	 "       clock = $10 "
	 " WHERE id = $1 "
	 "   AND league_id = $11",
	 11, NULL},
	{"results_delete",
	 "DELETE FROM play_results "
	 " WHERE play_id = $1",
	 1, NULL},
	{"play_delete",
	 "DELETE FROM plays "
	 " WHERE id = $1 "
	 "   AND league_id = $2",
	 2, NULL},
	{"play_list",
	 "WITH f AS NOT MATERIALIZED ( "
	 "    SELECT p.id, p.played_at, p.seq "
	 "      FROM plays p "
	 "     WHERE p.league_id = $1 "
	 "       AND ($2::text IS NULL "
	 "            OR EXISTS (SELECT 1 "
	 "                         FROM seasons s "
	 "                        WHERE s.id = $2 "
	 "                          AND s.league_id = p.league_id "
	 "                          AND p.local_date BETWEEN s.starts AND s.ends)) "
	 "       AND ($3::text IS NULL "
	 "            OR lower(p.game) = ANY (ARRAY(SELECT lower(fg.name) FROM league_filter_games($1, $3) fg)) "
	 "               AND EXISTS (SELECT 1 "
	 "                             FROM league_filter_games($1, $3) fg "
	 "                            WHERE fg.name = p.game "
	 "                              AND fg.bgg = coalesce(p.bgg_id, 0))) "
	 "), "
	 "t AS ( "
	 "    SELECT count(*) AS total "
	 "      FROM f "
	 ") "
	 "SELECT t.total, p.id, p.game, "
	 "       play_date_text(p.played_at, p.utc_offset_min, p.clock) AS date, "
	 "       p.cooperative, p.source, p.ignored, p.incomplete, "
	 "       coalesce((SELECT json_agg(json_build_object('player', r2.member_id, 'name', m2.name, "
	 "                                                   'score', r2.score, 'rank', r2.rank, "
	 "                                                   'winner', r2.winner) "
	 "                                 ORDER BY r2.seat) "
	 "                   FROM play_results r2 "
	 "                   JOIN league_members m2 ON m2.id = r2.member_id "
	 "                  WHERE r2.play_id = p.id), '[]')::text AS players "
	 "  FROM t "
	 "  LEFT JOIN LATERAL (SELECT f.id, f.played_at, f.seq "
	 "                       FROM f "
	 "                      ORDER BY f.played_at DESC, f.seq DESC "
	 "                      LIMIT $4::int "
	 "                     OFFSET $5::int) pg ON true "
	 "  LEFT JOIN plays p ON p.id = pg.id "
	 " ORDER BY pg.played_at DESC, pg.seq DESC",
	 5, LG_COLUMN_NAMES(PLAY_LIST_COLUMNS)},
	{"play_log_insert",
	 "INSERT INTO play_log (league_id, play_id, account_id, action, before, after) "
	 "VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)",
	 6, NULL},
	{"play_log_list",
	 "SELECT play_id, account_id, action, "
	 "       to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS at, "
	 "       before::text, after::text "
	 "  FROM play_log "
	 " WHERE league_id = $1 "
	 " ORDER BY id",
	 1, LG_COLUMN_NAMES(PLAY_LOG_LIST_COLUMNS)},
	/* idempotency keys of plays entered by hand (migration 0014) */
	{"play_key_get",
	 "SELECT coalesce(account_id, '') AS account_id, "
	 "       request_hash, status, reply "
	 "  FROM play_keys "
	 " WHERE league_id = $1 "
	 "   AND key = $2",
	 2, LG_COLUMN_NAMES(PLAY_KEY_GET_COLUMNS)},
	{"play_key_insert",
	 "INSERT INTO play_keys (league_id, key, account_id, request_hash, status, reply) "
	 "VALUES ($1, $2, $3, $4, $5::int, $6)",
	 6, NULL},
	DB_STATEMENTS_END,
};
// clang-format on

/* ---- plays ---- */

db_status db_play_insert(db_conn *c, const char *const p[19], bool *inserted)
{
	int n;
	db_status st = db_run_count(c, "play_insert", 19, p, &n);
	*inserted = n == 1;
	return st;
}

db_status db_plays_insert_many(db_conn *c, const char *league, const char *author,
                               const char *const arrays[17])
{
	const char *p[19] = {league, author};
	for (int k = 0; k < 17; k++)
		p[2 + k] = arrays[k];
	return db_run_count(c, "plays_insert_many", 19, p, NULL);
}

db_status db_results_insert_many(db_conn *c, const char *const arrays[12])
{
	return db_run_count(c, "results_insert_many", 12, arrays, NULL);
}

db_status db_play_update(db_conn *c, const char *const p[11])
{
	return db_run_count(c, "play_update", 11, p, NULL);
}

db_status db_results_delete(db_conn *c, const char *play)
{
	const char *p[1] = {play};
	return db_run_count(c, "results_delete", 1, p, NULL);
}

db_status db_play_delete(db_conn *c, const char *play, const char *league)
{
	const char *p[2] = {play, league};
	return db_run_count(c, "play_delete", 2, p, NULL);
}

#define LG_ROW db_play_row
LG_FIELD_TABLE(play_fields, PLAY_GET_COLUMNS);
#undef LG_ROW

db_status db_play_get(db_conn *c, const char *league, const char *play, db_play_rows *out)
{
	const char *p[2] = {league, play};
	RETURN_FIELDS(c, "play_get", 2, p, out, play_fields);
}

#define LG_ROW db_result_row
LG_FIELD_TABLE(result_fields, PLAY_RESULTS_COLUMNS);
#undef LG_ROW

db_status db_play_results(db_conn *c, const char *play, db_result_rows *out)
{
	const char *p[1] = {play};
	RETURN_FIELDS(c, "play_results", 1, p, out, result_fields);
}

db_status db_play_created_by(db_conn *c, const char *play, bool *found,
                             char account[DB_LG_ID_MAX + 1])
{
	const char *p[1] = {play};
	return lg_one_text(c, "play_created_by", 1, p, PLAY_CREATED_BY_CREATED_BY, found, account,
	                   DB_LG_ID_MAX + 1);
}

#define LG_ROW db_play_item
LG_FIELD_TABLE(play_item_fields, PLAY_LIST_COLUMNS);
#undef LG_ROW

db_status db_play_list(db_conn *c, const char *league, const char *season, const char *game,
                       const char *limit, const char *offset, db_play_page *out)
{
	const char *p[5] = {league, season, game, limit, offset};
	void *rows;
	out->total = 0;
	db_status st = lg_load(c, "play_list", 5, p, sizeof *out->items.rows, play_item_fields,
	                       LG_NFIELDS(play_item_fields), &out->items.res, &out->items.n, &rows);
	out->items.rows = rows;
	if (st == DB_OK && out->items.n > 0) {
		out->total = out->items.rows[0].total;
		if (out->items.rows[0].id == NULL) /* the one row of an empty page */
			out->items.n = 0;
	}
	return st;
}

db_status db_play_log_insert(db_conn *c, const char *league, const char *play, const char *account,
                             const char *action, const char *before, const char *after)
{
	const char *p[6] = {league, play, account, action, before, after};
	return db_run_count(c, "play_log_insert", 6, p, NULL);
}

#define LG_ROW db_play_key_row
LG_FIELD_TABLE(play_key_fields, PLAY_KEY_GET_COLUMNS);
#undef LG_ROW

db_status db_play_key_get(db_conn *c, const char *league, const char *key, db_play_key_rows *out)
{
	const char *p[2] = {league, key};
	RETURN_FIELDS(c, "play_key_get", 2, p, out, play_key_fields);
}

db_status db_play_key_insert(db_conn *c, const char *league, const char *key, const char *account,
                             const char *request_hash, int status, const char *reply)
{
	char st[16];
	snprintf(st, sizeof st, "%d", status);
	const char *p[6] = {league, key, account, request_hash, st, reply};
	return db_run_count(c, "play_key_insert", 6, p, NULL);
}

#define LG_ROW db_log_row
LG_FIELD_TABLE(log_fields, PLAY_LOG_LIST_COLUMNS);
#undef LG_ROW

db_status db_play_log_list(db_conn *c, const char *league, db_log_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "play_log_list", 1, p, out, log_fields);
}
