/* The ER coach over HTTP and for other C code: "how good could this game have been?"
 *
 *   GET  /api/v1/er/games/{id}/seats/{seat}/analysis[?width=N]   a finished game's seat
 *   POST /api/v1/er/analysis                                      a game played on paper
 *
 * Both are `heavy` routes (job pool). The search itself is pure (rules/er_coach.h); a game's
 * analysis is cached per (game, seat, width) in er_analyses (db/analyses.h). */
#ifndef ER_COACH_API_H
#define ER_COACH_API_H

#include "http/http.h"
#include "rules/er_coach.h"

enum { ER_COACH_DEFAULT_WIDTH = 64, ER_COACH_DEFAULT_DEADLINE_MS = 10000 };
/* The 400 of a width outside 1..ER_COACH_MAX_WIDTH. */
#define ER_COACH_RULE_WIDTH "width-out-of-range"

/* The server's default width: ER_COACH_WIDTH (1..256) from the environment, else
 * ER_COACH_DEFAULT_WIDTH. */
int er_coach_default_width(void);

/* A finished ER game's analysis for a human seat, as the GET route replies it: from the cache,
 * else computed (at most ER_COACH_DEADLINE_MS of search, default 10 s) and cached when the
 * search completed. conn: the calling thread's db_conn (db_thread_conn()); width 0: the
 * server's default. No authorisation here: the caller decides who may see the game.
 *
 * Returns 200 with *out_json set (malloc'ed JSON text, NUL-terminated: the caller frees it), or
 * the HTTP status of the refusal with *out_json NULL and *rule a static rule id (or NULL) and
 * *detail a static sentence: 400 width-out-of-range, 404 (no such game / no-such-seat), 409
 * game-not-finished, 422 bot-seat, 503 (database unavailable), 500 (a stored game that does not
 * replay). Slow: call it on a job thread (a heavy route), never on a connection thread. */
int er_coach_analysis_text(void *conn, const char *game_id, int seat, int width, char **out_json,
                           const char **rule, const char **detail);

int api_er_game_analysis(const http_req *req, http_resp *resp);
int api_er_analysis(const http_req *req, http_resp *resp);

#endif
