/* The start-up pass that keys members' names (migrations/0020_member_name_keys.sql). */
#ifndef DB_MEMBER_KEYS_H
#define DB_MEMBER_KEYS_H

#include <libpq-fe.h>

/* Gives every member whose name_key is NULL the key of its name (base/names.h) and marks
 * name_clash the members of a league whose names now share a key, all but the one that keeps
 * the name. One transaction on pg (the migration runner's connection, under its lock); nothing
 * to do when every row has its key or the column does not exist yet. 0, or -1 (logged; rolled
 * back). */
int db_member_keys_fill(PGconn *pg);

#endif
