/* Reads that may go to a standby: league reads (standings, histories, play lists, exports, the
 * report) run on a second connection of their thread, to the hosts of DATABASE_READ_URL (a libpq
 * conninfo, several hosts allowed; target_session_attrs=prefer-standby is the advice), when the
 * standby is up and, for a session that wrote lately, has replayed that write.
 *
 * Read-your-writes: after a league write, the writing session's position in the primary's WAL
 * (db_wal_position, after COMMIT) is remembered here (db_read_wrote); its reads use the standby
 * only once that standby has replayed as far, waiting up to READ_WAIT_MS, else they go to the
 * primary. Other sessions read whatever the standby has.
 *
 * A standby that is down, lagging or failing never fails a read: db_read_conn answers NULL (read
 * the primary), and the caller reads the primary again when a read on the standby failed. Its
 * failures never touch the primary's availability flag (db_available). */
#ifndef DB_READPOOL_H
#define DB_READPOOL_H

#include "db/db.h"

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t db_lsn; /* a WAL position ("16/B374D848" as 0x16B374D848) */

enum {
	READ_WAIT_MS = 200,      /* a writer's read waits this long for the standby to replay */
	READ_POLL_MS = 10,       /* asking the standby how far it is, this often meanwhile */
	READ_RETRY_MS = 5000,    /* after a failed connection, the primary answers this long */
	READ_SESSION_HEX = 64,   /* session keys: the hex of a session token's hash */
	READ_WROTE_SLOTS = 1024, /* sessions remembered (beyond: the oldest raise a common floor) */
};

/* true when DATABASE_READ_URL names a standby (read once, at the first call). */
bool db_read_enabled(void);

/* The primary's WAL insert position (statement wal_insert_lsn), run on c right after a COMMIT:
 * at or past the end of that commit's record. */
db_status db_wal_position(db_conn *c, db_lsn *out);

/* Remembers that session (READ_SESSION_HEX hex digits; "" for none) wrote up to lsn. */
void db_read_wrote(const char *session, db_lsn lsn);

/* This thread's standby connection when a read of session may use it now (connected lazily;
 * the standby has replayed the session's last write, waiting up to READ_WAIT_MS), else NULL:
 * read the primary. The connection belongs to this thread; never hand it to another. */
db_conn *db_read_conn(const char *session);

/* "replica" or "primary": which one c is (for the X-Read-From header). */
const char *db_read_source(db_conn *c);

#endif
