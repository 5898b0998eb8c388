/* Typed rows of the export, the backup and the import: uuids, BGG play ids, the export's rows and
 * the objects the files described (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define LEAGUE_UUIDS_COLUMNS(C) C(LEAGUE_UUIDS_UUID, uuid, TEXT, uuid, _)
// clang-format on
LG_COLUMNS(LEAGUE_UUIDS_COLUMNS, LEAGUE_UUIDS_NCOLS);

// clang-format off
#define LEAGUE_BGG_PLAYS_COLUMNS(C) \
	C(LEAGUE_BGG_PLAYS_BGG_PLAY_ID, bgg_play_id, INT64, bgg_play_id, _) \
	C(LEAGUE_BGG_PLAYS_SOURCE, source, TEXT, source, _)
// clang-format on
LG_COLUMNS(LEAGUE_BGG_PLAYS_COLUMNS, LEAGUE_BGG_PLAYS_NCOLS);

// clang-format off
#define LEAGUE_EXPORT_ROWS_COLUMNS(C) \
	C(LEAGUE_EXPORT_ROWS_PLAY, id, TEXT, play, _) \
	C(LEAGUE_EXPORT_ROWS_UUID, uuid, TEXT, uuid, _) \
	C(LEAGUE_EXPORT_ROWS_GAME, game, TEXT, game, _) \
	C(LEAGUE_EXPORT_ROWS_BGG_ID, bgg_id, TEXT_OR_NULL, bgg_id, _) \
	C(LEAGUE_EXPORT_ROWS_DATE_BGS, date_bgs, TEXT, date_bgs, _) \
	C(LEAGUE_EXPORT_ROWS_DURATION_MIN, duration_min, TEXT_OR_NULL, duration_min, _) \
	C(LEAGUE_EXPORT_ROWS_NOTES, notes, TEXT, notes, _) \
	C(LEAGUE_EXPORT_ROWS_LOCATION, location, TEXT, location, _) \
	C(LEAGUE_EXPORT_ROWS_COOPERATIVE, cooperative, BOOL, cooperative, _) \
	C(LEAGUE_EXPORT_ROWS_SOURCE, source, TEXT, source, _) \
	C(LEAGUE_EXPORT_ROWS_SEAT, seat, INT, seat, _) \
	C(LEAGUE_EXPORT_ROWS_NAME, name, TEXT, name, _) \
	C(LEAGUE_EXPORT_ROWS_MEMBER, member_id, OPT_TEXT, member, has_result) \
	C(LEAGUE_EXPORT_ROWS_SCORE, score, TEXT_OR_NULL, score, _) \
	C(LEAGUE_EXPORT_ROWS_RANK, rank, INT, rank, _) \
	C(LEAGUE_EXPORT_ROWS_WINNER, winner, BOOL, winner, _) \
	C(LEAGUE_EXPORT_ROWS_BREAKDOWN, breakdown, TEXT_OR_NULL, breakdown, _) \
	C(LEAGUE_EXPORT_ROWS_MU, mu, TEXT_OR_NULL, mu, _) \
	C(LEAGUE_EXPORT_ROWS_SIGMA, sigma, TEXT_OR_NULL, sigma, _) \
	C(LEAGUE_EXPORT_ROWS_DATE, date, TEXT_OR_NULL, date, _) \
	C(LEAGUE_EXPORT_ROWS_IGNORED, ignored, BOOL, ignored, _) \
	C(LEAGUE_EXPORT_ROWS_BGG_PLAY_ID, bgg_play_id, TEXT_OR_NULL, bgg_play_id, _) \
	C(LEAGUE_EXPORT_ROWS_PLAY_EXTRA, play_extra, TEXT_OR_NULL, play_extra, _) \
	C(LEAGUE_EXPORT_ROWS_RESULT_EXTRA, result_extra, TEXT_OR_NULL, result_extra, _) \
	C(LEAGUE_EXPORT_ROWS_SCORE_TEXT, score_text, TEXT_OR_NULL, score_text, _) \
	C(LEAGUE_EXPORT_ROWS_PLAYER_UUID, player_uuid, TEXT_OR_NULL, player_uuid, _) \
	C(LEAGUE_EXPORT_ROWS_ANONYMOUS, anonymous, BOOL, anonymous, _) \
	C(LEAGUE_EXPORT_ROWS_UNRATED, unrated, BOOL, unrated, _) \
	C(LEAGUE_EXPORT_ROWS_INCOMPLETE, incomplete, BOOL, incomplete, _) \
	C(LEAGUE_EXPORT_ROWS_GAME_UUID, game_uuid, TEXT_OR_NULL, game_uuid, _) \
	C(LEAGUE_EXPORT_ROWS_TEAM, team, TEXT_OR_NULL, team, _)
// clang-format on
LG_COLUMNS(LEAGUE_EXPORT_ROWS_COLUMNS, LEAGUE_EXPORT_ROWS_NCOLS);

// clang-format off
#define LEAGUE_GAMES_LIST_COLUMNS(C) \
	C(LEAGUE_GAMES_LIST_NAME, name, TEXT, name, _) \
	C(LEAGUE_GAMES_LIST_UUID, uuid, TEXT_OR_NULL, uuid, _) \
	C(LEAGUE_GAMES_LIST_BGG_ID, bgg_id, TEXT_OR_NULL, bgg_id, _) \
	C(LEAGUE_GAMES_LIST_COOPERATIVE, cooperative, BOOL, cooperative, _) \
	C(LEAGUE_GAMES_LIST_HIGHEST_WINS, highest_wins, BOOL, highest_wins, _) \
	C(LEAGUE_GAMES_LIST_NO_POINTS, no_points, BOOL, no_points, _) \
	C(LEAGUE_GAMES_LIST_USES_TEAMS, uses_teams, BOOL, uses_teams, _) \
	C(LEAGUE_GAMES_LIST_SOURCE, source, TEXT_OR_NULL, source, _)
// clang-format on
LG_COLUMNS(LEAGUE_GAMES_LIST_COLUMNS, LEAGUE_GAMES_LIST_NCOLS);

// clang-format off
#define LEAGUE_LOCATIONS_LIST_COLUMNS(C) \
	C(LEAGUE_LOCATIONS_LIST_NAME, name, TEXT, name, _) \
	C(LEAGUE_LOCATIONS_LIST_UUID, uuid, TEXT_OR_NULL, uuid, _) \
	C(LEAGUE_LOCATIONS_LIST_SOURCE, source, TEXT_OR_NULL, source, _)
// clang-format on
LG_COLUMNS(LEAGUE_LOCATIONS_LIST_COLUMNS, LEAGUE_LOCATIONS_LIST_NCOLS);

// clang-format off
#define LEAGUE_PLAYERS_LIST_COLUMNS(C) \
	C(LEAGUE_PLAYERS_LIST_UUID, uuid, TEXT, uuid, _) \
	C(LEAGUE_PLAYERS_LIST_SOURCE, source, TEXT, source, _)
// clang-format on
LG_COLUMNS(LEAGUE_PLAYERS_LIST_COLUMNS, LEAGUE_PLAYERS_LIST_NCOLS);

// clang-format off
const db_statement db_league_export_statements[] = {
	{"league_uuids",
	 "SELECT uuid "
	 "  FROM plays "
	 " WHERE league_id = $1 "
	 " ORDER BY uuid COLLATE \"C\"",
	 1, LG_COLUMN_NAMES(LEAGUE_UUIDS_COLUMNS)},
	{"league_bgg_plays",
	 "SELECT bgg_play_id, source "
	 "  FROM plays "
	 " WHERE league_id = $1 "
	 "   AND bgg_play_id IS NOT NULL "
	 " ORDER BY bgg_play_id",
	 1, LG_COLUMN_NAMES(LEAGUE_BGG_PLAYS_COLUMNS)},
	/* the export's playDate: the one place a play's date is written for BG Stats (date_bgs) */
	{"league_export_rows",
	 "SELECT p.id, p.uuid, p.game, p.bgg_id, "
	 "       CASE WHEN p.clock = 'undated' THEN '0000-00-00 00:00:00' "
	 "            ELSE to_char(play_local(p.played_at, p.utc_offset_min), 'YYYY-MM-DD HH24:MI:SS') "
	 "       END AS date_bgs, "
	 "       p.duration_min, p.notes, p.location, p.cooperative, p.source, "
	 "       r.seat, m.name, "
	 "       m.id AS member_id, "
	 "       r.score, r.rank, r.winner, r.breakdown::text, t.mu, t.sigma, "
	 "       play_date_text(p.played_at, p.utc_offset_min, p.clock) AS date, "
	 "       p.ignored, p.bgg_play_id, "
	 "       p.extra::text AS play_extra, "
	 "       r.extra::text AS result_extra, "
	 "       r.score_text, r.player_uuid, m.anonymous, r.unrated, p.incomplete, p.game_uuid, "
	 "       r.team "
	 "  FROM plays p "
	 "  LEFT JOIN play_results r ON r.play_id = p.id "
	 "  LEFT JOIN league_members m ON m.id = r.member_id "
	 "  LEFT JOIN league_ratings($1) t ON t.member_id = r.member_id AND t.seq = p.seq "
	 " WHERE p.league_id = $1 "
	 " ORDER BY p.played_at, p.seq, r.seat",
	 1, LG_COLUMN_NAMES(LEAGUE_EXPORT_ROWS_COLUMNS)},
	{"league_games_list",
	 "SELECT name, uuid, bgg_id, cooperative, highest_wins, no_points, uses_teams, source::text "
	 "  FROM league_games "
	 " WHERE league_id = $1 "
	 " ORDER BY name, uuid",
	 1, LG_COLUMN_NAMES(LEAGUE_GAMES_LIST_COLUMNS)},
	{"league_locations_list",
	 "SELECT name, uuid, source::text "
	 "  FROM league_locations "
	 " WHERE league_id = $1",
	 1, LG_COLUMN_NAMES(LEAGUE_LOCATIONS_LIST_COLUMNS)},
	{"league_players_list",
	 "SELECT uuid, source::text "
	 "  FROM league_players "
	 " WHERE league_id = $1",
	 1, LG_COLUMN_NAMES(LEAGUE_PLAYERS_LIST_COLUMNS)},
	{"league_games_store",
	 "INSERT INTO league_games (league_id, name, uuid, bgg_id, cooperative, highest_wins, no_points, "
	 "                          uses_teams, source) "
	 "SELECT $1, u.name, u.uuid, u.bgg_id, u.coop, u.high, u.nopts, u.teams, u.source "
	 "  FROM unnest($2::text[], $3::text[], $4::int[], $5::boolean[], $6::boolean[], $7::boolean[], "
	 "              $8::boolean[], $9::jsonb[]) "
	 "       AS u(name, uuid, bgg_id, coop, high, nopts, teams, source) "
	 "    ON CONFLICT (league_id, name, (coalesce(uuid, ''))) DO NOTHING",
	 9, NULL},
	{"league_locations_store",
	 "INSERT INTO league_locations (league_id, name, uuid, source) "
	 "SELECT $1, u.name, u.uuid, u.source "
	 "  FROM unnest($2::text[], $3::text[], $4::jsonb[]) AS u(name, uuid, source) "
	 "    ON CONFLICT (league_id, name) DO NOTHING",
	 4, NULL},
	{"league_players_store",
	 "INSERT INTO league_players (league_id, uuid, source) "
	 "SELECT $1, u.uuid, u.source "
	 "  FROM unnest($2::text[], $3::jsonb[]) AS u(uuid, source) "
	 "    ON CONFLICT (league_id, uuid) DO NOTHING",
	 3, NULL},
	DB_STATEMENTS_END,
};
// clang-format on

/* ---- export, backup, import ---- */

#define LG_ROW db_uuid_row
LG_FIELD_TABLE(uuid_fields, LEAGUE_UUIDS_COLUMNS);
#undef LG_ROW

db_status db_league_uuids(db_conn *c, const char *league, db_uuid_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_uuids", 1, p, out, uuid_fields);
}

#define LG_ROW db_bgg_play_row
LG_FIELD_TABLE(bgg_play_fields, LEAGUE_BGG_PLAYS_COLUMNS);
#undef LG_ROW

db_status db_league_bgg_plays(db_conn *c, const char *league, db_bgg_play_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_bgg_plays", 1, p, out, bgg_play_fields);
}

/* A play without results is one row whose result columns (seat to sigma) are NULL. */
#define LG_ROW db_export_row
LG_FIELD_TABLE(export_fields, LEAGUE_EXPORT_ROWS_COLUMNS);
#undef LG_ROW

db_status db_league_export_rows(db_conn *c, const char *league, db_export_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_export_rows", 1, p, out, export_fields);
}

#define LG_ROW db_league_game_row
LG_FIELD_TABLE(league_game_fields, LEAGUE_GAMES_LIST_COLUMNS);
#undef LG_ROW

db_status db_league_games_list(db_conn *c, const char *league, db_league_game_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_games_list", 1, p, out, league_game_fields);
}

#define LG_ROW db_league_location_row
LG_FIELD_TABLE(league_location_fields, LEAGUE_LOCATIONS_LIST_COLUMNS);
#undef LG_ROW

db_status db_league_locations_list(db_conn *c, const char *league, db_league_location_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_locations_list", 1, p, out, league_location_fields);
}

#define LG_ROW db_league_player_row
LG_FIELD_TABLE(league_player_fields, LEAGUE_PLAYERS_LIST_COLUMNS);
#undef LG_ROW

db_status db_league_players_list(db_conn *c, const char *league, db_league_player_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_players_list", 1, p, out, league_player_fields);
}

db_status db_league_games_store(db_conn *c, const char *league, const char *const arrays[8])
{
	const char *p[9] = {league,    arrays[0], arrays[1], arrays[2], arrays[3],
	                    arrays[4], arrays[5], arrays[6], arrays[7]};
	return db_run_count(c, "league_games_store", 9, p, NULL);
}

db_status db_league_locations_store(db_conn *c, const char *league, const char *const arrays[3])
{
	const char *p[4] = {league, arrays[0], arrays[1], arrays[2]};
	return db_run_count(c, "league_locations_store", 4, p, NULL);
}

db_status db_league_players_store(db_conn *c, const char *league, const char *const arrays[2])
{
	const char *p[3] = {league, arrays[0], arrays[1]};
	return db_run_count(c, "league_players_store", 3, p, NULL);
}
