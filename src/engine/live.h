/* Live updates (api.md "Live updates"): once a change to a game has committed, the table
 * engine calls live_changed(), which has the notifier (db/notify.c) NOTIFY "game_events" with
 * "id:version" in a batch after the commit; the LISTEN thread of each server process
 * (db/listen.c) wakes the server-sent-event streams (http/sse.c) of that game, so two servers
 * on one database stay in step. Streams read what they send from the events table, so a stream
 * that missed a notification (listener reconnecting, notifier catch-all, a server that died
 * before its batch went out) catches up on its next wake-up or heartbeat. This file only
 * formats the events. */
#ifndef LIVE_H
#define LIVE_H

#include "db/db.h"
#include "http/http.h"

/* Starts the listener and the notifier threads (each its own connection from conninfo). */
int live_start(const char *conninfo);
/* Game game_id is at `version` now (committed): tell every server's streams. Any thread. */
void live_changed(const char *game_id, int version);
/* A token of game game_id was replaced (a join, a new display link; committed): every server
 * ends the streams that read with it. Any thread. */
void live_tokens_changed(const char *game_id);
/* The count of token changes that a stream of game_id opened now starts from: read it before
 * the stream's token is authenticated, so a replacement committed in between still ends it. */
unsigned live_token_changes(const char *game_id);
/* Sends what the notifier still holds and stops it: after the last request (http_stop). Logs
 * how many changes it announced in how many statements. */
void live_stop_notifier(void);
/* Ends every stream (resuming suspended connections, as libmicrohttpd requires before
 * stopping) and stops the listener. Call before http_stop(). */
void live_shutdown(void);

/* Turns resp into a text/event-stream for game_id on req's connection, starting after
 * version `from` (Last-Event-ID); `current` is the game's version now, `changes` what
 * live_token_changes said before the token was authenticated. Or 429 when the game or the
 * token (token_for_stream) already has as many streams as allowed (sse.h). The stream ends
 * when its token is replaced (live_tokens_changed). */
int live_stream(const http_req *req, http_resp *resp, const char *game_id, int from, int current,
                unsigned changes);

#endif
