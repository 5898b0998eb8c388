/* One LISTEN connection per server process (PostgreSQL LISTEN/NOTIFY), on its own thread.
 *
 * Payloads are "id:version" (db/notify.h sends them once the transaction that appended an
 * event has committed). Each notification is handed to the callback as (id, version); after
 * every (re)connection, and for the catch-all payload DB_NOTIFY_ALL, the callback gets
 * (NULL, 0): notifications may have been missed, so every listener should catch up. The thread
 * reconnects by itself (every second while the database is away). The callback runs on the listener
 * thread and must not block. */
#ifndef DB_LISTEN_H
#define DB_LISTEN_H

typedef void (*db_listen_fn)(void *cls, const char *id, int version);

/* Starts the thread: LISTEN channel on a connection of its own from conninfo (copied; "" →
 * libpq's PG* environment). channel must be a plain identifier. 0, or -1 (logged). One
 * listener per process. */
int db_listen_start(const char *conninfo, const char *channel, db_listen_fn fn, void *cls);
/* Stops and joins the thread (idempotent). */
void db_listen_stop(void);

#endif
