/* Live updates (api.md "Live updates"): every committed change to a game NOTIFYs
 * "game_events" with "id:version" inside its transaction (statement game_update_notify); the
 * LISTEN thread of each server process (db/listen.c) wakes the server-sent-event streams
 * (http/sse.c) of that game, so two servers on one database stay in step. Streams read what
 * they send from the events table, so a stream that missed a notification (listener
 * reconnecting) catches up on its next wake-up. This file only formats the events. */
#ifndef LIVE_H
#define LIVE_H

#include "db/db.h"
#include "http/http.h"

/* Starts the listener thread (its own connection from conninfo). */
int live_start(const char *conninfo);
/* Ends every stream (resuming suspended connections, as libmicrohttpd requires before
 * stopping) and stops the listener. Call before http_stop(). */
void live_shutdown(void);

/* Turns resp into a text/event-stream for game_id on req's connection, starting after
 * version `from` (Last-Event-ID); `current` is the game's version now. Or 429 when the game or
 * the token (token_for_stream) already has as many streams as allowed (sse.h). */
int live_stream(const http_req *req, http_resp *resp, const char *game_id, int from, int current);

#endif
