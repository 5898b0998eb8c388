/* Typed rows of the export, the backup and the import: uuids, BGG play ids, the export's rows and
 * the objects the files described (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define LEAGUE_UUIDS_COLUMNS(C) C(LEAGUE_UUIDS_UUID, uuid)
// clang-format on
DB_COLUMNS(LEAGUE_UUIDS_COLUMNS, LEAGUE_UUIDS_NCOLS);

// clang-format off
#define LEAGUE_BGG_PLAYS_COLUMNS(C) \
	C(LEAGUE_BGG_PLAYS_BGG_PLAY_ID, bgg_play_id) \
	C(LEAGUE_BGG_PLAYS_SOURCE, source)
// clang-format on
DB_COLUMNS(LEAGUE_BGG_PLAYS_COLUMNS, LEAGUE_BGG_PLAYS_NCOLS);

// clang-format off
#define LEAGUE_EXPORT_ROWS_COLUMNS(C) \
	C(LEAGUE_EXPORT_ROWS_PLAY, id) \
	C(LEAGUE_EXPORT_ROWS_UUID, uuid) \
	C(LEAGUE_EXPORT_ROWS_GAME, game) \
	C(LEAGUE_EXPORT_ROWS_BGG_ID, bgg_id) \
	C(LEAGUE_EXPORT_ROWS_DATE_BGS, date_bgs) \
	C(LEAGUE_EXPORT_ROWS_DURATION_MIN, duration_min) \
	C(LEAGUE_EXPORT_ROWS_NOTES, notes) \
	C(LEAGUE_EXPORT_ROWS_LOCATION, location) \
	C(LEAGUE_EXPORT_ROWS_COOPERATIVE, cooperative) \
	C(LEAGUE_EXPORT_ROWS_SOURCE, source) \
	C(LEAGUE_EXPORT_ROWS_SEAT, seat) \
	C(LEAGUE_EXPORT_ROWS_NAME, name) \
	C(LEAGUE_EXPORT_ROWS_MEMBER, member_id) \
	C(LEAGUE_EXPORT_ROWS_SCORE, score) \
	C(LEAGUE_EXPORT_ROWS_RANK, rank) \
	C(LEAGUE_EXPORT_ROWS_WINNER, winner) \
	C(LEAGUE_EXPORT_ROWS_BREAKDOWN, breakdown) \
	C(LEAGUE_EXPORT_ROWS_MU, mu) \
	C(LEAGUE_EXPORT_ROWS_SIGMA, sigma) \
	C(LEAGUE_EXPORT_ROWS_DATE, date) \
	C(LEAGUE_EXPORT_ROWS_IGNORED, ignored) \
	C(LEAGUE_EXPORT_ROWS_BGG_PLAY_ID, bgg_play_id) \
	C(LEAGUE_EXPORT_ROWS_PLAY_EXTRA, play_extra) \
	C(LEAGUE_EXPORT_ROWS_RESULT_EXTRA, result_extra) \
	C(LEAGUE_EXPORT_ROWS_SCORE_TEXT, score_text) \
	C(LEAGUE_EXPORT_ROWS_PLAYER_UUID, player_uuid) \
	C(LEAGUE_EXPORT_ROWS_ANONYMOUS, anonymous) \
	C(LEAGUE_EXPORT_ROWS_UNRATED, unrated) \
	C(LEAGUE_EXPORT_ROWS_INCOMPLETE, incomplete) \
	C(LEAGUE_EXPORT_ROWS_GAME_UUID, game_uuid)
// clang-format on
DB_COLUMNS(LEAGUE_EXPORT_ROWS_COLUMNS, LEAGUE_EXPORT_ROWS_NCOLS);

// clang-format off
#define LEAGUE_GAMES_LIST_COLUMNS(C) \
	C(LEAGUE_GAMES_LIST_NAME, name) \
	C(LEAGUE_GAMES_LIST_UUID, uuid) \
	C(LEAGUE_GAMES_LIST_BGG_ID, bgg_id) \
	C(LEAGUE_GAMES_LIST_COOPERATIVE, cooperative) \
	C(LEAGUE_GAMES_LIST_HIGHEST_WINS, highest_wins) \
	C(LEAGUE_GAMES_LIST_NO_POINTS, no_points) \
	C(LEAGUE_GAMES_LIST_USES_TEAMS, uses_teams) \
	C(LEAGUE_GAMES_LIST_SOURCE, source)
// clang-format on
DB_COLUMNS(LEAGUE_GAMES_LIST_COLUMNS, LEAGUE_GAMES_LIST_NCOLS);

// clang-format off
#define LEAGUE_LOCATIONS_LIST_COLUMNS(C) \
	C(LEAGUE_LOCATIONS_LIST_NAME, name) \
	C(LEAGUE_LOCATIONS_LIST_UUID, uuid) \
	C(LEAGUE_LOCATIONS_LIST_SOURCE, source)
// clang-format on
DB_COLUMNS(LEAGUE_LOCATIONS_LIST_COLUMNS, LEAGUE_LOCATIONS_LIST_NCOLS);

// clang-format off
#define LEAGUE_PLAYERS_LIST_COLUMNS(C) \
	C(LEAGUE_PLAYERS_LIST_UUID, uuid) \
	C(LEAGUE_PLAYERS_LIST_SOURCE, source)
// clang-format on
DB_COLUMNS(LEAGUE_PLAYERS_LIST_COLUMNS, LEAGUE_PLAYERS_LIST_NCOLS);

// clang-format off
const db_statement db_league_export_statements[] = {
	{"league_uuids",
	 "SELECT uuid "
	 "  FROM plays "
	 " WHERE league_id = $1 "
	 " ORDER BY uuid COLLATE \"C\"",
	 1, DB_COLUMN_NAMES(LEAGUE_UUIDS_COLUMNS)},
	{"league_bgg_plays",
	 "SELECT bgg_play_id, source "
	 "  FROM plays "
	 " WHERE league_id = $1 "
	 "   AND bgg_play_id IS NOT NULL "
	 " ORDER BY bgg_play_id",
	 1, DB_COLUMN_NAMES(LEAGUE_BGG_PLAYS_COLUMNS)},
	/* the export's playDate: the one place a play's date is written for BG Stats (date_bgs) */
	{"league_export_rows",
	 "SELECT p.id, p.uuid, p.game, p.bgg_id, "
	 "       to_char(play_local(p.played_at, p.utc_offset_min), 'YYYY-MM-DD HH24:MI:SS') AS date_bgs, "
	 "       p.duration_min, p.notes, p.location, p.cooperative, p.source, "
	 "       r.seat, m.name, "
	 "       m.id AS member_id, "
	 "       r.score, r.rank, r.winner, r.breakdown::text, t.mu, t.sigma, "
	 "       play_local_text(p.played_at, p.utc_offset_min) AS date, "
	 "       p.ignored, p.bgg_play_id, "
	 "       p.extra::text AS play_extra, "
	 "       r.extra::text AS result_extra, "
	 "       r.score_text, r.player_uuid, m.anonymous, r.unrated, p.incomplete, p.game_uuid "
	 "  FROM plays p "
	 "  LEFT JOIN play_results r ON r.play_id = p.id "
	 "  LEFT JOIN league_members m ON m.id = r.member_id "
	 "  LEFT JOIN league_ratings($1) t ON t.member_id = r.member_id AND t.seq = p.seq "
	 " WHERE p.league_id = $1 "
	 " ORDER BY p.played_at, p.seq, r.seat",
	 1, DB_COLUMN_NAMES(LEAGUE_EXPORT_ROWS_COLUMNS)},
	{"league_games_list",
	 "SELECT name, uuid, bgg_id, cooperative, highest_wins, no_points, uses_teams, source::text "
	 "  FROM league_games "
	 " WHERE league_id = $1 "
	 " ORDER BY name, uuid",
	 1, DB_COLUMN_NAMES(LEAGUE_GAMES_LIST_COLUMNS)},
	{"league_locations_list",
	 "SELECT name, uuid, source::text "
	 "  FROM league_locations "
	 " WHERE league_id = $1",
	 1, DB_COLUMN_NAMES(LEAGUE_LOCATIONS_LIST_COLUMNS)},
	{"league_players_list",
	 "SELECT uuid, source::text "
	 "  FROM league_players "
	 " WHERE league_id = $1",
	 1, DB_COLUMN_NAMES(LEAGUE_PLAYERS_LIST_COLUMNS)},
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

static void read_uuid(const PGresult *r, int i, void *row)
{
	db_uuid_row *x = row;
	x->uuid = db_col_text(r, i, LEAGUE_UUIDS_UUID);
}

db_status db_league_uuids(db_conn *c, const char *league, db_uuid_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_uuids", 1, p, out, read_uuid);
}

static void read_bgg_play(const PGresult *r, int i, void *row)
{
	db_bgg_play_row *x = row;
	x->bgg_play_id = db_col_int64(r, i, LEAGUE_BGG_PLAYS_BGG_PLAY_ID);
	x->source = db_col_text(r, i, LEAGUE_BGG_PLAYS_SOURCE);
}

db_status db_league_bgg_plays(db_conn *c, const char *league, db_bgg_play_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_bgg_plays", 1, p, out, read_bgg_play);
}

/* A play without results is one row whose result columns (seat to sigma) are NULL. */
static void read_export(const PGresult *r, int i, void *row)
{
	db_export_row *x = row;
	x->play = db_col_text(r, i, LEAGUE_EXPORT_ROWS_PLAY);
	x->uuid = db_col_text(r, i, LEAGUE_EXPORT_ROWS_UUID);
	x->game = db_col_text(r, i, LEAGUE_EXPORT_ROWS_GAME);
	x->bgg_id = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_BGG_ID);
	x->date_bgs = db_col_text(r, i, LEAGUE_EXPORT_ROWS_DATE_BGS);
	x->duration_min = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_DURATION_MIN);
	x->notes = db_col_text(r, i, LEAGUE_EXPORT_ROWS_NOTES);
	x->location = db_col_text(r, i, LEAGUE_EXPORT_ROWS_LOCATION);
	x->cooperative = db_col_bool(r, i, LEAGUE_EXPORT_ROWS_COOPERATIVE);
	x->source = db_col_text(r, i, LEAGUE_EXPORT_ROWS_SOURCE);
	x->seat = db_col_int(r, i, LEAGUE_EXPORT_ROWS_SEAT);
	x->name = db_col_text(r, i, LEAGUE_EXPORT_ROWS_NAME);
	x->member = db_col_text(r, i, LEAGUE_EXPORT_ROWS_MEMBER);
	x->score = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_SCORE);
	x->rank = db_col_int(r, i, LEAGUE_EXPORT_ROWS_RANK);
	x->winner = db_col_bool(r, i, LEAGUE_EXPORT_ROWS_WINNER);
	x->breakdown = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_BREAKDOWN);
	x->mu = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_MU);
	x->sigma = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_SIGMA);
	x->date = db_col_text(r, i, LEAGUE_EXPORT_ROWS_DATE);
	x->ignored = db_col_bool(r, i, LEAGUE_EXPORT_ROWS_IGNORED);
	x->bgg_play_id = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_BGG_PLAY_ID);
	x->play_extra = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_PLAY_EXTRA);
	x->result_extra = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_RESULT_EXTRA);
	x->score_text = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_SCORE_TEXT);
	x->player_uuid = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_PLAYER_UUID);
	x->anonymous = db_col_bool(r, i, LEAGUE_EXPORT_ROWS_ANONYMOUS);
	x->has_result = !db_col_null(r, i, LEAGUE_EXPORT_ROWS_MEMBER);
	x->unrated = db_col_bool(r, i, LEAGUE_EXPORT_ROWS_UNRATED);
	x->incomplete = db_col_bool(r, i, LEAGUE_EXPORT_ROWS_INCOMPLETE);
	x->game_uuid = db_col_text_or_null(r, i, LEAGUE_EXPORT_ROWS_GAME_UUID);
}

db_status db_league_export_rows(db_conn *c, const char *league, db_export_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_export_rows", 1, p, out, read_export);
}

static void read_league_game(const PGresult *r, int i, void *row)
{
	db_league_game_row *x = row;
	x->name = db_col_text(r, i, LEAGUE_GAMES_LIST_NAME);
	x->uuid = db_col_text_or_null(r, i, LEAGUE_GAMES_LIST_UUID);
	x->bgg_id = db_col_text_or_null(r, i, LEAGUE_GAMES_LIST_BGG_ID);
	x->cooperative = db_col_bool(r, i, LEAGUE_GAMES_LIST_COOPERATIVE);
	x->highest_wins = db_col_bool(r, i, LEAGUE_GAMES_LIST_HIGHEST_WINS);
	x->no_points = db_col_bool(r, i, LEAGUE_GAMES_LIST_NO_POINTS);
	x->uses_teams = db_col_bool(r, i, LEAGUE_GAMES_LIST_USES_TEAMS);
	x->source = db_col_text_or_null(r, i, LEAGUE_GAMES_LIST_SOURCE);
}

db_status db_league_games_list(db_conn *c, const char *league, db_league_game_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_games_list", 1, p, out, read_league_game);
}

static void read_league_location(const PGresult *r, int i, void *row)
{
	db_league_location_row *x = row;
	x->name = db_col_text(r, i, LEAGUE_LOCATIONS_LIST_NAME);
	x->uuid = db_col_text_or_null(r, i, LEAGUE_LOCATIONS_LIST_UUID);
	x->source = db_col_text_or_null(r, i, LEAGUE_LOCATIONS_LIST_SOURCE);
}

db_status db_league_locations_list(db_conn *c, const char *league, db_league_location_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_locations_list", 1, p, out, read_league_location);
}

static void read_league_player(const PGresult *r, int i, void *row)
{
	db_league_player_row *x = row;
	x->uuid = db_col_text(r, i, LEAGUE_PLAYERS_LIST_UUID);
	x->source = db_col_text(r, i, LEAGUE_PLAYERS_LIST_SOURCE);
}

db_status db_league_players_list(db_conn *c, const char *league, db_league_player_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_players_list", 1, p, out, read_league_player);
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
