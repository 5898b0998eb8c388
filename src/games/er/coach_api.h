/* The ER coach over HTTP and for other C code: "how good could this game have been?"
 *
 *   GET  /api/v1/er/games/{id}/seats/{seat}/analysis[?width=N]   a finished game's seat
 *   POST /api/v1/er/analysis                                      a game played on paper
 *
 * Both are `heavy` routes (job pool). The search itself is pure (rules/er_coach.h); a game's
 * analysis is searched after a 202 and stored per (game, seat, width) in er_analyses
 * (db/analyses.h); a paper game's is replied at once. */
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

/* A finished ER game's analysis for a human seat, for a handler on a job thread (a heavy
 * route) that has checked who may see the game: 1 with *out_json the stored analysis (malloc'ed
 * JSON text: the caller frees it), or 0 with resp filled. Width 0: the server's default.
 *
 * Not stored yet: the game is loaded and checked (404 no such game / no-such-seat, 409
 * game-not-finished, 422 bot-seat, 500 a stored game that does not replay), then its search is
 * queued (coach_runs.h) and resp is 202 with Retry-After and {searching, width, deadline_ms}:
 * the search (at most ER_COACH_DEADLINE_MS, default 10 s) runs after the reply (resp->after)
 * and stores what it found, complete or not. Asked again meanwhile: 202; once stored: 1. Also
 * 400 width-out-of-range, 503 with Retry-After (the database unavailable, the search failed to
 * store, or too many searches at once). */
int er_coach_analysis_get(const char *game_id, int seat, int width, http_resp *resp,
                          char **out_json);

int api_er_game_analysis(const http_req *req, http_resp *resp);
int api_er_analysis(const http_req *req, http_resp *resp);

#endif
