/* A finished table game becomes a league play (tablegames.c): the engine's hooks
 * (engine/table.h), registered by api_init.c. */
#ifndef LEAGUES_TABLEGAMES_H
#define LEAGUES_TABLEGAMES_H

#include "db/db.h"
#include "http/http.h"

#include <stdbool.h>

/* Records a finished table game as a play of its league, exactly once (plays.game_id is
 * unique: a second call for the same game changes nothing), inside the caller's transaction
 * (the one that finishes the game). kind is "er", "dh" or "clinic"; result_json is what
 * games.result stores: {"standings": [{"seat", "name", "bot", "score", "rank", "breakdown"?}],
 * "created_at"?, "finished_at"?} (RFC 3339). Seats map to league members by name (new names
 * become guest members); bots are not players of the league (a game with one human is solo).
 * The league's ratings are recomputed. Returns 0 (DB_OK: recorded, already recorded, or
 * nothing to record — an unknown league is logged and skipped), or a db_status (DB_RETRY,
 * DB_FAIL, DB_UNAVAILABLE) after which the caller must roll back (DB_RETRY: retry). */
int tablegames_record_game(db_conn *c, const char *game_id, const char *league_id, const char *kind,
                           const char *result_json);

/* The same as a table_finish_hook (engine/table.h): 0, or -1 to roll back. api_init.c
 * registers it with table_set_finish_hook. */
int tablegames_finish_hook(void *c, const char *game_id, const char *league, const char *kind,
                           const char *result_json);

/* A table_recorded_hook (engine/table.h; api_init.c registers it): after the commit that
 * recorded a finished game as a play, the request's session (its cookie, if any) reads its
 * write from then on, as after a league write (access_wrote). */
void tablegames_recorded(const http_req *req, void *c);

/* For the table engine when a game is created with "league": may this request record games
 * in that league? True when it carries the session of an owner or a member of the league;
 * otherwise false with 401/403/404 (or 503) filled into resp. The engine asks it
 * (table_set_league_check, api_init.c) before creating a game with "league". */
bool tablegames_may_record(const http_req *req, http_resp *resp, db_conn *c, const char *league);

#endif
