/* The LISTEN connection thread (listen.h).
 *
 * Ownership: the conninfo and channel copies belong to this file (freed by db_listen_stop);
 * the PGconn belongs to the thread. */
#include "db/listen.h"

#include "db/notify.h"

#include "base/log.h"
#include "base/oom.h"
#include "db/db.h"

#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { POLL_MS = 250, ID_MAX = 64 };

static struct {
	char *conninfo, *channel;
	db_listen_fn fn;
	void *cls;
	pthread_t thread;
	bool started;
	atomic_bool closing;
} g;

static void listen_notice(void *arg, const char *message)
{
	(void)arg;
	char line[256];
	snprintf(line, sizeof line, "%s", message);
	line[strcspn(line, "\n")] = '\0';
	log_warn("listen: server says: %s", line);
}

/* A connection that LISTENs on the channel, or NULL with the reason in err (the caller
 * retries). The channel is quoted as an identifier, so any name means that channel and no
 * more. */
static PGconn *listen_connect(char *err, size_t errlen)
{
	PGconn *pg = db_connect(g.conninfo, DB_ROLE_LISTEN, err, errlen);
	if (!pg)
		return NULL;
	PQsetNoticeProcessor(pg, listen_notice, NULL);
	char *quoted = PQescapeIdentifier(pg, g.channel, strlen(g.channel));
	bool ok = false;
	if (quoted) {
		size_t len = strlen(quoted) + sizeof "LISTEN ";
		char *sql = xmalloc(len);
		snprintf(sql, len, "LISTEN %s", quoted);
		PQfreemem(quoted);
		PGresult *r = PQexec(pg, sql);
		free(sql);
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		PQclear(r);
	}
	if (!ok) {
		snprintf(err, errlen, "LISTEN %s failed: %s", g.channel, PQerrorMessage(pg));
		err[strcspn(err, "\n")] = '\0';
		PQfinish(pg);
		return NULL;
	}
	return pg;
}

/* Hands every pending notification ("id:version") to the callback. */
static void dispatch(PGconn *pg)
{
	PGnotify *n;
	while ((n = PQnotifies(pg)) != NULL) {
		if (strcmp(n->extra, DB_NOTIFY_ALL) == 0) { /* the notifier may have lost some */
			g.fn(g.cls, NULL, 0);
			PQfreemem(n);
			continue;
		}
		char id[ID_MAX];
		const char *colon = strrchr(n->extra, ':');
		size_t len = colon ? (size_t)(colon - n->extra) : strlen(n->extra);
		if (len > 0 && len < sizeof id) {
			memcpy(id, n->extra, len);
			id[len] = '\0';
			g.fn(g.cls, id, colon ? atoi(colon + 1) : 0);
		} else {
			log_bug("listen: malformed notification payload on %s", g.channel);
		}
		PQfreemem(n);
	}
}

static void *listener(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "db-listen"); /* in top, perf and gdb */
	PGconn *pg = NULL;
	bool said = false;
	while (!atomic_load(&g.closing)) {
		if (pg == NULL) {
			char err[512];
			pg = listen_connect(err, sizeof err);
			if (pg == NULL) {
				if (!said)
					log_warn(
					    "listen: no connection (%s); retrying every second",
					    err);
				said = true;
				sleep(1);
				continue;
			}
			if (said)
				log_info("listen: listening again on %s", g.channel);
			said = false;
			g.fn(g.cls, NULL, 0); /* catch up on whatever was missed meanwhile */
		}
		struct pollfd pfd = {.fd = PQsocket(pg), .events = POLLIN};
		int rc = poll(&pfd, 1, POLL_MS);
		if (rc > 0 && PQconsumeInput(pg) == 0) {
			PQfinish(pg);
			pg = NULL;
			continue;
		}
		dispatch(pg);
		if (PQstatus(pg) != CONNECTION_OK) {
			PQfinish(pg);
			pg = NULL;
		}
	}
	PQfinish(pg);
	return NULL;
}

int db_listen_start(const char *conninfo, const char *channel, db_listen_fn fn, void *cls)
{
	if (g.started || !fn || !channel)
		return -1;
	g.conninfo = xstrdup(conninfo ? conninfo : "");
	g.channel = xstrdup(channel);
	g.fn = fn;
	g.cls = cls;
	atomic_store(&g.closing, false);
	if (pthread_create(&g.thread, NULL, listener, NULL) != 0) {
		log_warn("listen: cannot start the listener thread");
		free(g.conninfo);
		free(g.channel);
		g.conninfo = g.channel = NULL;
		return -1;
	}
	g.started = true;
	return 0;
}

void db_listen_stop(void)
{
	if (!g.started)
		return;
	atomic_store(&g.closing, true);
	pthread_join(g.thread, NULL);
	g.started = false;
	free(g.conninfo);
	free(g.channel);
	g.conninfo = g.channel = NULL;
}
