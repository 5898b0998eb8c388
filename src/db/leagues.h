/* Typed rows of leagues, members, seasons, plays, results, ratings and the play log
 * (migrations/0004_leagues.sql). Every statement of src/leagues/ (leagues, plays, ratings,
 * standings, imports and exports) is run and its result read in src/db/: leagues.c (leagues,
 * seasons), league_members.c, league_plays.c, league_ratings.c, league_scopes.c, league_stats.c
 * and league_export.c, each statement written there with the enum of its columns
 * (db/statements.h), each accessor next to a comment naming its statement and its columns.
 *
 * Functions return a db_status: DB_OK, DB_UNAVAILABLE (the database is away), DB_RETRY
 * (serialization failure inside a transaction), DB_FAIL (anything else, logged by db_exec).
 *
 * Ownership: single rows are filled into caller-owned structs with fixed buffers. Row sets
 * (DB_ROWSET: .rows[0 … n-1]) own their result; the strings of their rows are borrowed from it
 * and valid until db_rowset_clear(&set), which every caller of a _list/_rows accessor calls
 * (also after a failure: the set is then empty). Parameters are text, as db_exec sends
 * them (NULL for SQL NULL). */
#ifndef DB_LEAGUES_H
#define DB_LEAGUES_H

#include "db/db.h"
#include "db/f8array.h"
#include "db/rows.h"

#include <stdbool.h>
#include <stdint.h>

enum {
	DB_LG_ID_MAX = 24,       /* ids are hex of 12 random bytes (api/tokens.h ID_LEN) */
	DB_LG_NAME_MAX = 64 * 4, /* bytes; names are ≤ 64 characters of UTF-8 */
	DB_LG_TIME_MAX = 32,     /* RFC 3339 UTC */
};

/* ---- leagues ---- */

/* league_insert / league_owner_insert / league_bump (no rows read). The statements that change
 * a league's owners, members or seasons (league_owner_insert, member_insert, member_delete,
 * member_link, season_insert) bump its version themselves, as league_bump does for its plays:
 * the version is the league's ETag (src/leagues/README.md). */
db_status db_league_insert(db_conn *c, const char *id, const char *name);
db_status db_league_owner_insert(db_conn *c, const char *league, const char *account);
/* db_league_bump: *version (may be NULL) receives the league's new version, -1 on failure. */
db_status db_league_bump(db_conn *c, const char *league, long long *version);
/* league_rekey_games: which game each spelling of the league's plays is (league_game_names),
 * written where it changed (migrations/0013_game_keys.sql). */
db_status db_league_rekey_games(db_conn *c, const char *league);

/* league_lock: locks the league row; *found false when there is no such league. */
db_status db_league_lock(db_conn *c, const char *league, bool *found);

/* league_access: columns is-owner, member id ('' when none), version; for account. */
typedef struct {
	bool found, owner;
	char member[DB_LG_ID_MAX + 1]; /* "" when the account is no member */
	int64_t version;
} db_league_access;
db_status db_league_access_get(db_conn *c, const char *league, const char *account,
                               db_league_access *out);

/* league_get: columns name, created_at, number of plays. */
typedef struct {
	bool found;
	char name[DB_LG_NAME_MAX + 1];
	char created_at[DB_LG_TIME_MAX + 1];
	int64_t plays;
} db_league_row;
db_status db_league_get(db_conn *c, const char *league, db_league_row *out);

/* league_list: columns id, name, owner?, plays — the leagues account owns or plays in. */
typedef struct {
	const char *id, *name;
	bool owner;
	int64_t plays;
} db_league_item;
typedef DB_ROWSET(db_league_item) db_league_items;
db_status db_league_list(db_conn *c, const char *account, db_league_items *out);

/* league_owners: columns account id, display_name. */
typedef struct {
	const char *account, *display_name;
} db_owner_row;
typedef DB_ROWSET(db_owner_row) db_owner_rows;
db_status db_league_owners(db_conn *c, const char *league, db_owner_rows *out);

/* league_members / member_get: columns id, name, account (NULL for a guest), plays. */
typedef struct {
	const char *id, *name;
	const char *account; /* NULL: a guest */
	int64_t plays;
} db_member_row;
typedef DB_ROWSET(db_member_row) db_member_rows;
db_status db_league_members(db_conn *c, const char *league, db_member_rows *out);
/* member_get: the member `member` of league (n = 0 when there is none). */
db_status db_member_get(db_conn *c, const char *league, const char *member, db_member_rows *out);

/* league_games: column game (distinct names of the league's plays). */
typedef struct {
	const char *game;
} db_game_name_row;
typedef DB_ROWSET(db_game_name_row) db_game_name_rows;
db_status db_league_games(db_conn *c, const char *league, db_game_name_rows *out);

/* league_seasons: columns id, name, starts, ends (dates as text). */
typedef struct {
	const char *id, *name, *starts, *ends;
} db_season_row;
typedef DB_ROWSET(db_season_row) db_season_rows;
db_status db_league_seasons(db_conn *c, const char *league, db_season_rows *out);

/* ---- members ---- */

/* A name given to these is stored in its display form and matched by its key, whatever form it
 * comes in (name_forms, base/names.h: white space trimmed and collapsed, NFC, case-folded;
 * migrations/0020_member_name_keys.sql). */

/* member_insert (account NULL: a guest) / member_insert_guest … RETURNING id: *inserted
 * false on a conflict (another member of the league has the name's key, or the account). */
db_status db_member_insert(db_conn *c, const char *id, const char *league, const char *name,
                           const char *account, bool *inserted);
db_status db_member_insert_guest(db_conn *c, const char *id, const char *league, const char *name,
                                 bool *inserted);
/* member_by_name: column id; of the members with the name's key, the one spelt exactly so
 * first, then one not marked name_clash, then the oldest. */
db_status db_member_by_name(db_conn *c, const char *league, const char *name, bool *found,
                            char id[DB_LG_ID_MAX + 1]);
/* member_rename … RETURNING id: *renamed unless another member of the league has the name's
 * key or member is not the league's. The caller
 * bumps the league's version (league_bump). */
db_status db_member_rename(db_conn *c, const char *league, const char *member, const char *name,
                           bool *renamed);
/* member_unclash: each key only members marked name_clash still share gives one of them (the
 * oldest) the name for matching again (migrations/0012_member_names.sql, 0020). */
db_status db_member_unclash(db_conn *c, const char *league);
/* member_delete / member_merge (results of `from` move to `to`) / member_link (no rows). */
db_status db_member_delete(db_conn *c, const char *league, const char *member);
db_status db_member_merge(db_conn *c, const char *from, const char *to);
db_status db_member_link(db_conn *c, const char *member, const char *account);
/* member_conflicts: *clash when a play has results of both a and b. */
db_status db_member_conflicts(db_conn *c, const char *a, const char *b, bool *clash);
/* member_league: columns league_id, name of member. */
typedef struct {
	bool found;
	char league[DB_LG_ID_MAX + 1];
	char name[DB_LG_NAME_MAX + 1];
} db_member_league;
db_status db_member_league_get(db_conn *c, const char *member, db_member_league *out);

/* ---- seasons ---- */

/* season_insert … RETURNING id: *inserted false when the name is taken. */
db_status db_season_insert(db_conn *c, const char *id, const char *league, const char *name,
                           const char *starts, const char *ends, bool *inserted);
/* season_get: whether season id belongs to league. */
db_status db_season_exists(db_conn *c, const char *league, const char *id, bool *found);

/* ---- plays ---- */

/* play_insert … RETURNING id; p in the statement's order: id, league, game, bgg_id, played_at,
 * duration_min, notes, location, cooperative, utc_offset_min, clock, source, uuid, game_id,
 * created_by, ignored, incomplete, bgg_play_id, extra (JSON text or NULL). *inserted false on a
 * conflict (the uuid is known). */
db_status db_play_insert(db_conn *c, const char *const p[19], bool *inserted);
/* plays_insert_many: league, created_by, then seventeen Postgres array literals, one element
 * per play in entry order: ids, games, bgg_ids, played_at, duration_min, notes, locations,
 * cooperative, utc_offset_min, clocks, sources, uuids, ignored, incomplete, bgg_play_ids,
 * extras, game uuids. */
db_status db_plays_insert_many(db_conn *c, const char *league, const char *author,
                               const char *const arrays[17]);
/* results_insert_many: twelve array literals, one element per result: play ids, members,
 * seats, scores, ranks, winners, breakdowns, scores as typed, extras, player uuids, unrated,
 * teams. */
db_status db_results_insert_many(db_conn *c, const char *const arrays[12]);
/* play_update: p in the statement's order: id, game, bgg_id, played_at, duration_min, notes,
 * location, cooperative, utc_offset_min, clock, league. */
db_status db_play_update(db_conn *c, const char *const p[11]);
db_status db_results_delete(db_conn *c, const char *play);
db_status db_play_delete(db_conn *c, const char *play, const char *league);

/* play_get: columns id, game, bgg_id, date (NULL: undated), duration_min, notes, location,
 * cooperative, source, uuid, game_id, ignored, incomplete, bgg_play_id, created_by (n = 0 when
 * there is no such play). */
typedef struct {
	const char *id, *game;
	bool has_bgg_id;
	int64_t bgg_id;
	const char *date;
	bool has_duration;
	int64_t duration_min;
	const char *notes, *location;
	bool cooperative;
	const char *source, *uuid;
	const char *game_id; /* NULL when not from a table game */
	bool ignored, incomplete;
	int64_t bgg_play_id;    /* 0: none */
	const char *created_by; /* the account that entered it, NULL when unknown or gone */
} db_play_row;
typedef DB_ROWSET(db_play_row) db_play_rows;
db_status db_play_get(db_conn *c, const char *league, const char *play, db_play_rows *out);

/* play_results: columns member id, name, seat, score, rank, winner, breakdown, mu, sigma,
 * score as typed, unrated, team, extra (the source seat's other members). */
typedef struct {
	const char *member, *name;
	int seat;
	bool has_score;
	double score;
	int rank;
	bool winner;
	const char *breakdown; /* JSON text or NULL */
	bool has_rating;
	double mu, sigma;
	const char *score_text; /* NULL when the score is the number as stored */
	bool unrated;
	const char *team;  /* the seat's team (a game played in teams) or NULL */
	const char *extra; /* JSON text or NULL: the source seat's members we do not model */
} db_result_row;
typedef DB_ROWSET(db_result_row) db_result_rows;
db_status db_play_results(db_conn *c, const char *play, db_result_rows *out);

/* play_created_by: the account that recorded play ("" when unknown); *found false when there
 * is no such play. */
db_status db_play_created_by(db_conn *c, const char *play, bool *found,
                             char account[DB_LG_ID_MAX + 1]);

/* play_list: a page of the league's plays, newest first (ties: the later entered first), with
 * the filters season and game (NULL: none), limit and offset (text of whole numbers); total
 * counts every play the filters select. Columns total, id, game, date, cooperative, source,
 * ignored, incomplete, players (JSON array text). */
typedef struct {
	int64_t total;
	const char *id, *game, *date;
	bool cooperative, ignored, incomplete;
	const char *source, *players;
} db_play_item;
typedef struct {
	DB_ROWSET(db_play_item) items; /* the page */
	int64_t total;
} db_play_page;
db_status db_play_list(db_conn *c, const char *league, const char *season, const char *game,
                       const char *limit, const char *offset, db_play_page *out);

/* play_log_insert: league, play, account, action, before/after (JSON text or NULL). */
db_status db_play_log_insert(db_conn *c, const char *league, const char *play, const char *account,
                             const char *action, const char *before, const char *after);
/* play_key_get: the reply stored with the league's Idempotency-Key key (migration 0014):
 * columns account ('' when gone), request hash, status, reply body. */
typedef struct {
	const char *account, *request_hash;
	int status;
	const char *reply;
} db_play_key_row;
typedef DB_ROWSET(db_play_key_row) db_play_key_rows;
db_status db_play_key_get(db_conn *c, const char *league, const char *key, db_play_key_rows *out);
/* play_key_insert: league, key, account, request hash, status, reply body. */
db_status db_play_key_insert(db_conn *c, const char *league, const char *key, const char *account,
                             const char *request_hash, int status, const char *reply);
/* play_log_list: columns play, account (NULL), action, at, before, after (JSON text or NULL). */
typedef struct {
	const char *play, *account, *action, *at, *before, *after;
} db_log_row;
typedef DB_ROWSET(db_log_row) db_log_rows;
db_status db_play_log_list(db_conn *c, const char *league, db_log_rows *out);

/* ---- ratings and standings ---- */

/* league_rows: columns play, member, name, rank, score, winner, cooperative, the play's seq,
 * the seat's team (NULL: alone) — the league's results in play order (season, game: filters or
 * NULL). */
typedef struct {
	const char *play, *member, *name;
	int rank;
	bool has_score;
	double score;
	bool winner, cooperative;
	int64_t seq;
	const char *team;                  /* the seat's team in a game played in teams, or NULL */
	const char *game_key, *local_date; /* league_rows_keyed only, else NULL */
	int64_t at_us;                     /* league_rows_keyed only: played_at, µs since 1970 */
} db_league_result;
typedef DB_ROWSET(db_league_result) db_league_results;
db_status db_league_rows(db_conn *c, const char *league, const char *season, const char *game,
                         db_league_results *out);
/* league_rows_keyed: every row of league_rows (no filters), with the game's key of each play
 * ("" when the spelling has none), its local date (YYYY-MM-DD) and when it was played. */
db_status db_league_rows_keyed(db_conn *c, const char *league, db_league_results *out);
/* league_rows_out: the league's results that league_rows_keyed leaves out (of ignored or
 * incomplete plays, of anonymous members, unrated seats): their member, play seq and when it
 * was played (µs since 1970), in play order. */
typedef struct {
	const char *member;
	int64_t seq, at_us;
} db_out_row;
typedef DB_ROWSET(db_out_row) db_out_rows;
db_status db_league_rows_out(db_conn *c, const char *league, db_out_rows *out);
/* league_play_rows_keyed: the rows of league_rows_keyed of one play (seat order; none when the
 * play is gone, ignored or incomplete). */
db_status db_league_play_rows_keyed(db_conn *c, const char *league, const char *play,
                                    db_league_results *out);

/* The kept standings of every scope (migrations/0016_league_scopes.sql).
 * league_scopes_clear: records the seasons the scopes cover (a Postgres array literal) and
 * empties the league's scopes; league_scopes_insert: eleven Postgres array literals, one entry
 * per (scope, member): scope, member, games, wins, rank sum, scored, score sum, best (NULL:
 * none), rated, mu, sigma. */
db_status db_league_scopes_clear(db_conn *c, const char *league, const char *seasons);
/* league_scopes_drop: the standings and lines of the league's scopes named (an array literal). */
db_status db_league_scopes_drop(db_conn *c, const char *league, const char *scopes);
/* added false: league_scopes_insert; true: league_scopes_upsert (the same arrays, a row
 * replaced where it exists). */
db_status db_league_scopes_store(db_conn *c, const char *league, bool added,
                                 const char *const arrays[11]);
/* league_scope_lines_store: the scopes (an array literal of their names), the number of
 * elements of each line (an array literal of integers), and every line's mus and sigmas one
 * scope after another (binary arrays: one number per row of the scope, NULL for a row of an
 * unrated play), each appended to its scope's line (created when new: after
 * league_scopes_clear, every line). */
db_status db_league_scope_lines_store(db_conn *c, const char *league, const char *scopes,
                                      const char *counts, db_f8array *mus, db_f8array *sigmas);
/* league_scope_line: the ratings after each row of the scope of these filters (season, game:
 * NULL for none; at least one set), parsed: n rows, mu[i] and sigma[i] (NAN for a row of an
 * unrated play; both arrays owned, free them). *kept false: the scope is not kept
 * (league_scope_standings), nothing read. */
typedef struct {
	double *mu, *sigma;
	int n;
} db_scope_line;
db_status db_league_scope_line(db_conn *c, const char *league, const char *season, const char *game,
                               bool *kept, db_scope_line *out);

/* A kept standing (league_scopes): see league_scope_standings. */
typedef struct {
	const char *member, *name;
	int games, wins, scored;
	int64_t rank_sum;
	double score_sum, best, mu, sigma;
	bool has_best, rated;
} db_scope_standing;
/* league_game_keys: every spelling of the league's games with its key, as one text (to tell
 * whether league_rekey_games changed a key); *out owned (free it). */
db_status db_league_game_keys(db_conn *c, const char *league, char **out);
/* league_added_rows: the rated rows of a play just added (seat order) when the league's scopes
 * are kept: columns last (the play is the league's last, counted), game key (NULL: none),
 * local date, the kept seasons containing it (array literal), member, name, rank, score,
 * winner, cooperative, team (NULL: alone). No rows: the scopes are not kept or the play has no
 * rated row. */
typedef struct {
	bool last;
	const char *key, *local_date, *seasons, *member, *name;
	int rank;
	bool has_score;
	double score;
	bool winner, cooperative;
	const char *team;
} db_added_row;
typedef DB_ROWSET(db_added_row) db_added_rows;
db_status db_league_added_rows(db_conn *c, const char *league, const char *play,
                               db_added_rows *out);
/* league_scopes_of: the kept standings of some scopes (array literal) and members (array
 * literal); columns as db_scope_standing plus the scope (name unused). */
typedef struct {
	const char *scope;
	db_scope_standing x;
} db_scope_row;
typedef DB_ROWSET(db_scope_row) db_scope_rows;
db_status db_league_scopes_of(db_conn *c, const char *league, const char *scopes,
                              const char *members, db_scope_rows *out);

/* league_scope_standings: a scope's kept standings (unordered) for the season and game filters
 * (NULL: none). *kept is false when the scope is not kept (the league not recomputed since the
 * scopes were added, a season added since, or a game filter naming several games): the caller
 * computes them. */
typedef DB_ROWSET(db_scope_standing) db_scope_standings;
db_status db_league_scope_standings(db_conn *c, const char *league, const char *season,
                                    const char *game, bool *kept, db_scope_standings *out);
/* league_stat_rows: the rows of league_rows (same filters, same order) with what the league's
 * pictures need besides: columns play, member, name, rank, score, winner, cooperative, the
 * play's seq, its local time (RFC 3339) and local date, the game's key and shown name (the
 * product's name, else its most used spelling), lowest wins (the file's game said so), the
 * seat's team (NULL: alone); set
 * after loading: without filters, the rating after each row from its member's line
 * (member_lines_of: a second statement; has_rating false for a row not rated; with a filter
 * has_rating is always false), and dense indexes from 0 of the member (m, by id) and of the
 * game (g, by key). */
typedef struct {
	const char *play, *member, *name;
	int rank;
	bool has_score;
	double score;
	bool winner, cooperative;
	int64_t seq;
	bool has_rating;
	double mu, sigma;
	const char *date, *local_date, *game_key, *game;
	bool lowest_wins;
	const char *team;
	int m, g;
} db_stat_row;
typedef DB_ROWSET(db_stat_row) db_stat_rows;
/* analyze_league_tables: fresh planner statistics of plays, results and members (after an
 * import that added many plays). */
db_status db_league_analyze(db_conn *c);
db_status db_league_stat_rows(db_conn *c, const char *league, const char *season, const char *game,
                              db_stat_rows *out);
/* Gives the rest of the transaction enough sort memory for a whole league's results in play
 * order (about 9 MB at 40,000 results; the default 4 MB spills to disk). */
db_status db_recompute_work_mem(db_conn *c);
/* member_lines_store: the line of every member of the league with a result (every other line
 * is deleted), members in one order throughout. members: an array literal; counts and
 * counts_all: array literals of each member's number of rated results and of results; seqs
 * (bigint), mus and sigmas: binary arrays of the rated plays' seqs and the ratings after
 * them, member after member, each in play order; all_seqs (bigint) and rated_upto (integer):
 * binary arrays of every result's play seq, member after member, each in play order, and how
 * many of the member's rated results are at or before it. All borrowed. */
typedef struct {
	const char *members, *counts, *counts_all;
	db_f8array *seqs, *mus, *sigmas, *all_seqs, *rated_upto;
} db_member_lines;
db_status db_member_lines_store(db_conn *c, const char *league, const db_member_lines *l);
/* member_lines_append: play (of league, after every other result of its players) at the end
 * of its players' lines, with the ratings after it of those rated (members: an array literal;
 * mus and sigmas in its order; none for a play not rated). */
db_status db_member_lines_append(db_conn *c, const char *league, const char *play,
                                 const char *members, db_f8array *mus, db_f8array *sigmas);

/* player_history: a page (limit, offset: text of whole numbers) of member's results in play
 * order, each with the rating after it (an unrated play keeps the one before: has_rating false
 * until the first rated play); total counts all of them, current is the rating after the last.
 * The page is a slice of the member's line (all_seqs, rated_upto: member_lines), each play
 * found by its seq.
 * Columns total, current mu and sigma, play, game, date, cooperative, score, rank, winner,
 * rated, mu, sigma, number of players. */
typedef struct {
	int64_t total;
	bool has_current;
	double current_mu, current_sigma;
	const char *play, *game, *date;
	bool cooperative;
	bool has_score;
	double score;
	int rank;
	bool winner, rated;
	bool has_rating;
	double mu, sigma;
	int64_t players;
} db_history_row;
typedef struct {
	DB_ROWSET(db_history_row) items; /* the page */
	int64_t total;
	bool has_current; /* false: no rated play yet */
	double current_mu, current_sigma;
} db_history_page;
db_status db_player_history(db_conn *c, const char *member, const char *limit, const char *offset,
                            db_history_page *out);

/* ---- export, backup, import (api/league_io.c) ---- */

/* league_uuids: column uuid, sorted bytewise (COLLATE "C": strcmp order). */
typedef struct {
	const char *uuid;
} db_uuid_row;
typedef DB_ROWSET(db_uuid_row) db_uuid_rows;
db_status db_league_uuids(db_conn *c, const char *league, db_uuid_rows *out);

/* league_bgg_plays: the BGG play ids of the league's plays with the source that stored them,
 * in ascending id order. */
typedef struct {
	int64_t bgg_play_id;
	const char *source;
} db_bgg_play_row;
typedef DB_ROWSET(db_bgg_play_row) db_bgg_play_rows;
db_status db_league_bgg_plays(db_conn *c, const char *league, db_bgg_play_rows *out);

/* league_export_rows: one row per result, in play then seat order; a play without results is
 * one row with has_result false (its result columns empty). */
typedef struct {
	const char *play, *uuid, *game;
	const char *bgg_id;       /* text or NULL */
	const char *date_bgs;     /* local "YYYY-MM-DD HH:MM:SS"; "0000-00-00 00:00:00": undated */
	const char *duration_min; /* text or NULL */
	const char *notes, *location;
	bool cooperative;
	const char *source;
	int seat;
	const char *name, *member;
	const char *score; /* text or NULL */
	int rank;
	bool winner;
	const char *breakdown;  /* JSON text or NULL */
	const char *mu, *sigma; /* text or NULL */
	const char *date;       /* as play_date_text: with its offset, local, NULL: undated */
	bool ignored;
	const char *bgg_play_id;  /* text or NULL */
	const char *play_extra;   /* JSON text or NULL: the source play's other members */
	const char *result_extra; /* JSON text or NULL: the source playerScore's other members */
	const char *score_text;   /* NULL when the score is the number as stored */
	const char *player_uuid;  /* the source player object (league_players) or NULL */
	bool anonymous;           /* the member is a seat of BG Stats' anonymous player */
	bool has_result;          /* false: a play without results (columns 10 to 18 NULL) */
	bool unrated, incomplete;
	const char *game_uuid; /* the file's game object the play named (league_games) or NULL */
	const char *team;      /* the seat's team (a game played in teams) or NULL */
} db_export_row;
typedef DB_ROWSET(db_export_row) db_export_rows;
db_status db_league_export_rows(db_conn *c, const char *league, db_export_rows *out);

/* league_games_list: columns name, uuid (NULL), bgg_id (text or NULL), cooperative,
 * highest_wins, no_points, uses_teams, source (JSON text or NULL) — league_games, every object
 * a file described (one name can have several uuids), in name then uuid order. */
typedef struct {
	const char *name, *uuid, *bgg_id;
	bool cooperative, highest_wins, no_points, uses_teams;
	const char *source;
} db_league_game_row;
typedef DB_ROWSET(db_league_game_row) db_league_game_rows;
db_status db_league_games_list(db_conn *c, const char *league, db_league_game_rows *out);

/* league_locations_list: columns name, uuid (NULL), source (JSON text or NULL). */
typedef struct {
	const char *name, *uuid, *source;
} db_league_location_row;
typedef DB_ROWSET(db_league_location_row) db_league_location_rows;
db_status db_league_locations_list(db_conn *c, const char *league, db_league_location_rows *out);

/* league_players_list: columns uuid, source (JSON text). */
typedef struct {
	const char *uuid, *source;
} db_league_player_row;
typedef DB_ROWSET(db_league_player_row) db_league_player_rows;
db_status db_league_players_list(db_conn *c, const char *league, db_league_player_rows *out);

/* league_games_store: eight Postgres array literals (names, uuids, BGG ids, cooperative,
 * highest wins, no points, uses teams, sources); a game already described is kept. */
db_status db_league_games_store(db_conn *c, const char *league, const char *const arrays[8]);
/* league_locations_store: names, uuids, sources. */
db_status db_league_locations_store(db_conn *c, const char *league, const char *const arrays[3]);
/* league_players_store: uuids, sources. */
db_status db_league_players_store(db_conn *c, const char *league, const char *const arrays[2]);
/* member_mark_anonymous: the member is a seat of BG Stats' anonymous player. */
db_status db_member_mark_anonymous(db_conn *c, const char *member);

#endif
