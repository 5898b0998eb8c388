/* Typed rows of the export, the backup and the import: uuids, BGG play ids, the export's rows and
 * the objects the files described (see leagues.h; SQL in statements.c). */
#include "db/league_rows.h"
#include "db/leagues.h"

/* ---- export, backup, import ---- */

static void read_uuid(const PGresult *r, int i, void *row)
{
	db_uuid_row *x = row; /* league_uuids: 0 uuid */
	x->uuid = db_col_text(r, i, 0);
}

db_status db_league_uuids(db_conn *c, const char *league, db_uuid_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_uuids", 1, p, out, read_uuid);
}

static void read_bgg_play(const PGresult *r, int i, void *row)
{
	db_bgg_play_row *x = row; /* league_bgg_plays: 0 bgg_play_id, 1 source */
	x->bgg_play_id = db_col_int64(r, i, 0);
	x->source = db_col_text(r, i, 1);
}

db_status db_league_bgg_plays(db_conn *c, const char *league, db_bgg_play_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_bgg_plays", 1, p, out, read_bgg_play);
}

static void read_export(const PGresult *r, int i, void *row)
{
	/* league_export_rows: 0 play id, 1 uuid, 2 game, 3 bgg_id, 4 date (BG Stats form),
	 * 5 duration_min, 6 notes, 7 location, 8 cooperative, 9 source, 10 seat, 11 member name,
	 * 12 member id, 13 score, 14 rank, 15 winner, 16 breakdown, 17 mu, 18 sigma,
	 * 19 date (RFC 3339), 20 ignored, 21 bgg_play_id, 22 play extra, 23 result extra,
	 * 24 score_text, 25 player_uuid, 26 anonymous, 27 unrated, 28 incomplete, 29 game_uuid;
	 * 10 to 19 NULL for a play without results */
	db_export_row *x = row;
	x->play = db_col_text(r, i, 0);
	x->uuid = db_col_text(r, i, 1);
	x->game = db_col_text(r, i, 2);
	x->bgg_id = db_col_text_or_null(r, i, 3);
	x->date_bgs = db_col_text(r, i, 4);
	x->duration_min = db_col_text_or_null(r, i, 5);
	x->notes = db_col_text(r, i, 6);
	x->location = db_col_text(r, i, 7);
	x->cooperative = db_col_bool(r, i, 8);
	x->source = db_col_text(r, i, 9);
	x->seat = db_col_int(r, i, 10);
	x->name = db_col_text(r, i, 11);
	x->member = db_col_text(r, i, 12);
	x->score = db_col_text_or_null(r, i, 13);
	x->rank = db_col_int(r, i, 14);
	x->winner = db_col_bool(r, i, 15);
	x->breakdown = db_col_text_or_null(r, i, 16);
	x->mu = db_col_text_or_null(r, i, 17);
	x->sigma = db_col_text_or_null(r, i, 18);
	x->date = db_col_text(r, i, 19);
	x->ignored = db_col_bool(r, i, 20);
	x->bgg_play_id = db_col_text_or_null(r, i, 21);
	x->play_extra = db_col_text_or_null(r, i, 22);
	x->result_extra = db_col_text_or_null(r, i, 23);
	x->score_text = db_col_text_or_null(r, i, 24);
	x->player_uuid = db_col_text_or_null(r, i, 25);
	x->anonymous = db_col_bool(r, i, 26);
	x->has_result = !db_col_null(r, i, 12);
	x->unrated = db_col_bool(r, i, 27);
	x->incomplete = db_col_bool(r, i, 28);
	x->game_uuid = db_col_text_or_null(r, i, 29);
}

db_status db_league_export_rows(db_conn *c, const char *league, db_export_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_export_rows", 1, p, out, read_export);
}

static void read_league_game(const PGresult *r, int i, void *row)
{
	/* league_games_list: 0 name, 1 uuid, 2 bgg_id, 3 cooperative, 4 highest_wins,
	 * 5 no_points, 6 uses_teams, 7 source */
	db_league_game_row *x = row;
	x->name = db_col_text(r, i, 0);
	x->uuid = db_col_text_or_null(r, i, 1);
	x->bgg_id = db_col_text_or_null(r, i, 2);
	x->cooperative = db_col_bool(r, i, 3);
	x->highest_wins = db_col_bool(r, i, 4);
	x->no_points = db_col_bool(r, i, 5);
	x->uses_teams = db_col_bool(r, i, 6);
	x->source = db_col_text_or_null(r, i, 7);
}

db_status db_league_games_list(db_conn *c, const char *league, db_league_game_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_games_list", 1, p, out, read_league_game);
}

static void read_league_location(const PGresult *r, int i, void *row)
{
	db_league_location_row *x = row; /* league_locations_list: 0 name, 1 uuid, 2 source */
	x->name = db_col_text(r, i, 0);
	x->uuid = db_col_text_or_null(r, i, 1);
	x->source = db_col_text_or_null(r, i, 2);
}

db_status db_league_locations_list(db_conn *c, const char *league, db_league_location_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_locations_list", 1, p, out, read_league_location);
}

static void read_league_player(const PGresult *r, int i, void *row)
{
	db_league_player_row *x = row; /* league_players_list: 0 uuid, 1 source */
	x->uuid = db_col_text(r, i, 0);
	x->source = db_col_text(r, i, 1);
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
	return db_run_count(c, "league_games_store", 9, p, NULL); /* league_games_store */
}

db_status db_league_locations_store(db_conn *c, const char *league, const char *const arrays[3])
{
	const char *p[4] = {league, arrays[0], arrays[1], arrays[2]}; /* league_locations_store */
	return db_run_count(c, "league_locations_store", 4, p, NULL);
}

db_status db_league_players_store(db_conn *c, const char *league, const char *const arrays[2])
{
	const char *p[3] = {league, arrays[0], arrays[1]}; /* league_players_store */
	return db_run_count(c, "league_players_store", 3, p, NULL);
}
