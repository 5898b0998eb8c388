/* The prepared statements: every SQL statement the server runs at request time, and the names of
 * the columns each one returns.
 *
 * Each file of src/db/ that runs statements defines its own table, `db_X_statements[]`, beside
 * the code that runs them and reads their rows, and ends it with DB_STATEMENTS_END; statements.c
 * lists the tables, and every statement of every table is prepared on each new connection
 * (db/conn.c). A row is {name, sql, nparams, columns}:
 *   - name: "resource_action" (e.g. "game_get"), unique across all tables; the typed accessors
 *     run it with db_run(c, name, …) (db/rows.h);
 *   - sql: written over several lines, indented as SQL, one clause a line, no line over 120
 *     characters; parameters $1 … $nparams, sent as text (cast in SQL where the type matters:
 *     $1::int);
 *   - nparams: checked by db_exec against the caller's count;
 *   - columns: DB_COLUMN_NAMES(LIST) for a statement that returns rows (SELECT, RETURNING),
 *     NULL for one that returns none.
 *
 * A statement's result columns are declared once, as an X-macro list of (enum constant, column
 * name) pairs in select-list order, next to the statement:
 *
 *   #define GAME_BY_CODE_COLUMNS(C) C(GAME_BY_CODE_ID, id) C(GAME_BY_CODE_KIND, kind)
 *   DB_COLUMNS(GAME_BY_CODE_COLUMNS, GAME_BY_CODE_NCOLS);
 *
 * DB_COLUMNS makes the enum (GAME_BY_CODE_ID = 0, GAME_BY_CODE_KIND = 1, GAME_BY_CODE_NCOLS = 2),
 * by which readers name a column (db_col_text(r, i, GAME_BY_CODE_KIND)), never by a bare number;
 * DB_COLUMN_NAMES(GAME_BY_CODE_COLUMNS) makes the names as the row's last field. Every column
 * has a name in the SQL (an alias where it is an expression: `g.status = 'finished' AS
 * finished`). tests/unit/test_db_columns.c prepares every statement on a real PostgreSQL and
 * compares what PQdescribePrepared says it returns (how many columns, each one's name) with the
 * list, so the enum cannot drift from the SQL. */
#ifndef DB_STATEMENTS_H
#define DB_STATEMENTS_H

#include <stddef.h>

typedef struct {
	const char *name; /* "resource_action", unique */
	const char *sql;  /* parameters $1…$nparams, all sent as text */
	int nparams;
	/* the names of the result columns in select-list order, NULL-terminated; NULL when the
	 * statement returns no rows */
	const char *const *columns;
} db_statement;

/* The enum of a column list: each constant its column's place, then ncols, the count. */
#define DB_COLUMN_ENUM_(id, name) id,
#define DB_COLUMNS(LIST, ncols)   enum { LIST(DB_COLUMN_ENUM_) ncols }
/* The names of a column list, NULL-terminated (static storage: a compound literal at file scope).
 */
#define DB_COLUMN_NAME_(id, name) #name,
#define DB_COLUMN_NAMES(LIST)     ((const char *const[]){LIST(DB_COLUMN_NAME_) NULL})
/* The row that ends each table. */
#define DB_STATEMENTS_END                                                                          \
	{                                                                                          \
		NULL, NULL, 0, NULL                                                                \
	}

/* The tables, one per file that runs statements (each ends with DB_STATEMENTS_END). */
extern const db_statement db_health_statements[];         /* db/health.c */
extern const db_statement db_readpool_statements[];       /* db/readpool.c */
extern const db_statement db_games_statements[];          /* db/games.c */
extern const db_statement db_games_group_statements[];    /* db/games_group.c */
extern const db_statement db_analyses_statements[];       /* db/analyses.c */
extern const db_statement db_accounts_statements[];       /* db/accounts.c */
extern const db_statement db_consent_statements[];        /* db/consent.c */
extern const db_statement db_profiles_statements[];       /* db/profiles.c */
extern const db_statement db_leagues_statements[];        /* db/leagues.c */
extern const db_statement db_league_members_statements[]; /* db/league_members.c */
extern const db_statement db_league_plays_statements[];   /* db/league_plays.c */
extern const db_statement db_league_ratings_statements[]; /* db/league_ratings.c */
extern const db_statement db_league_scopes_statements[];  /* db/league_scopes.c */
extern const db_statement db_league_stats_statements[];   /* db/league_stats.c */
extern const db_statement db_league_export_statements[];  /* db/league_export.c */
extern const db_statement db_league_files_statements[];   /* db/league_files.c */
extern const db_statement db_challenges_statements[];     /* db/challenges.c */

/* Every table, NULL-terminated (statements.c). */
extern const db_statement *const db_statement_tables[];

/* The row of statement name in any table, or NULL. */
const db_statement *db_statement_find(const char *name);

#endif
