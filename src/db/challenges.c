/* The statements of league challenges and their typed rows (challenges.h). */
#include "db/challenges.h"

#include "db/rows.h"
#include "db/statements.h"

#include <string.h>

/* ---- the statements ---- */

/* challenge_get, challenge_by_code, challenge_lock */
#define CHALLENGE_COLUMNS(C)                                                                       \
	C(CHALLENGE_ID, id)                                                                        \
	C(CHALLENGE_LEAGUE, league)                                                                \
	C(CHALLENGE_LEAGUE_NAME, league_name)                                                      \
	C(CHALLENGE_NAME, name)                                                                    \
	C(CHALLENGE_CODE, code)                                                                    \
	C(CHALLENGE_BODY, body)                                                                    \
	C(CHALLENGE_SOLO, solo)                                                                    \
	C(CHALLENGE_OPENS, opens)                                                                  \
	C(CHALLENGE_CLOSES, closes)                                                                \
	C(CHALLENGE_CLOSED_AT, closed_at)                                                          \
	C(CHALLENGE_ENDS, ends)                                                                    \
	C(CHALLENGE_OPEN, open)                                                                    \
	C(CHALLENGE_DUE, due)                                                                      \
	C(CHALLENGE_CLOSED, closed)                                                                \
	C(CHALLENGE_PLAY, play)                                                                    \
	C(CHALLENGE_BEST_GAME, best_game)                                                          \
	C(CHALLENGE_BEST_TOKEN, best_token)
DB_COLUMNS(CHALLENGE_COLUMNS, CHALLENGE_NCOLS);

/* challenges_of_league */
#define CHALLENGES_OF_LEAGUE_COLUMNS(C)                                                            \
	C(CHALLENGES_OF_LEAGUE_ID, id)                                                             \
	C(CHALLENGES_OF_LEAGUE_NAME, name)                                                         \
	C(CHALLENGES_OF_LEAGUE_OPENS, opens)                                                       \
	C(CHALLENGES_OF_LEAGUE_CLOSES, closes)                                                     \
	C(CHALLENGES_OF_LEAGUE_CLOSED_AT, closed_at)                                               \
	C(CHALLENGES_OF_LEAGUE_SOLO, solo)                                                         \
	C(CHALLENGES_OF_LEAGUE_OPEN, open)                                                         \
	C(CHALLENGES_OF_LEAGUE_DUE, due)                                                           \
	C(CHALLENGES_OF_LEAGUE_CLOSED, closed)                                                     \
	C(CHALLENGES_OF_LEAGUE_STARTED, started)                                                   \
	C(CHALLENGES_OF_LEAGUE_FINISHED, finished)
DB_COLUMNS(CHALLENGES_OF_LEAGUE_COLUMNS, CHALLENGES_OF_LEAGUE_NCOLS);

/* challenge_insert: the new challenge's id (none when it would close before it opens) */
#define RETURNED_COLUMNS(C) C(RETURNED_ID, id)
DB_COLUMNS(RETURNED_COLUMNS, RETURNED_NCOLS);

/* challenge_attempt_insert */
#define ATTEMPT_INSERTED_COLUMNS(C) C(ATTEMPT_INSERTED_GAME, game)
DB_COLUMNS(ATTEMPT_INSERTED_COLUMNS, ATTEMPT_INSERTED_NCOLS);

/* challenges_due */
#define CHALLENGES_DUE_COLUMNS(C)                                                                  \
	C(CHALLENGES_DUE_LEAGUE, league)                                                           \
	C(CHALLENGES_DUE_ID, id)
DB_COLUMNS(CHALLENGES_DUE_COLUMNS, CHALLENGES_DUE_NCOLS);

/* challenge_attempts */
#define CHALLENGE_ATTEMPTS_COLUMNS(C)                                                              \
	C(CHALLENGE_ATTEMPTS_MEMBER, member)                                                       \
	C(CHALLENGE_ATTEMPTS_NAME, name)                                                           \
	C(CHALLENGE_ATTEMPTS_GAME, game)                                                           \
	C(CHALLENGE_ATTEMPTS_CODE, code)                                                           \
	C(CHALLENGE_ATTEMPTS_FINISHED, finished)                                                   \
	C(CHALLENGE_ATTEMPTS_SCORE, score)                                                         \
	C(CHALLENGE_ATTEMPTS_FINISHED_AT, finished_at)
DB_COLUMNS(CHALLENGE_ATTEMPTS_COLUMNS, CHALLENGE_ATTEMPTS_NCOLS);

#define UTC(x) "to_char(" x " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

/* One challenge with the clock's word on it (the select list of challenge_get and its kin). */
#define CHALLENGE_SELECT                                                                           \
	"SELECT x.id, "                                                                            \
	"       x.league_id AS league, "                                                           \
	"       l.name AS league_name, "                                                           \
	"       x.name, "                                                                          \
	"       x.code, "                                                                          \
	"       x.body, "                                                                          \
	"       x.solo, "                                                                          \
	"       " UTC(                                                                             \
	    "x.opens") " AS opens, "                                                               \
	               "       " UTC(                                                              \
	                   "x.closes") " AS closes, "                                              \
	                               "       coalesce(" UTC(                                     \
	                                   "x.closed_at") ", '') AS closed_at, "                   \
	                                                  "       " UTC(                           \
	                                                      "least(now(), x.closes)") " AS "     \
	                                                                                "ends, "   \
	                                                                                "       "  \
	                                                                                "now() "   \
	                                                                                ">= "      \
	                                                                                "x.opens " \
	                                                                                "AS "      \
	                                                                                "open, "   \
	                                                                                "       "  \
	                                                                                "now() "   \
	                                                                                ">= "      \
	                                                                                "x."       \
	                                                                                "closes "  \
	                                                                                "AS due, " \
	                                                                                "       "  \
	                                                                                "x."       \
	                                                                                "closed_"  \
	                                                                                "at IS "   \
	                                                                                "NOT "     \
	                                                                                "NULL AS " \
	                                                                                "closed, " \
	                                                                                "       "  \
	                                                                                "coalesce" \
	                                                                                "(x.play_" \
	                                                                                "id, '') " \
	                                                                                "AS "      \
	                                                                                "play, "   \
	                                                                                "       "  \
	                                                                                "coalesce" \
	                                                                                "(x.best_" \
	                                                                                "game, "   \
	                                                                                "'') AS "  \
	                                                                                "best_"    \
	                                                                                "game, "   \
	                                                                                "       "  \
	                                                                                "coalesce" \
	                                                                                "(x.best_" \
	                                                                                "token, "  \
	                                                                                "'') AS "  \
	                                                                                "best_"    \
	                                                                                "token "   \
	                                                                                "  FROM "  \
	                                                                                "er_"      \
	                                                                                "challeng" \
	                                                                                "es x "    \
	                                                                                "  JOIN "  \
	                                                                                "leagues " \
	                                                                                "l ON "    \
	                                                                                "l.id = "  \
	                                                                                "x."       \
	                                                                                "league_"  \
	                                                                                "id "

/* League challenges (migrations/0030_er_challenges.sql; run by src/leagues/challenges.c). */
// clang-format off
const db_statement db_challenges_statements[] = {
	/* db_challenge_insert */
	{"challenge_insert",
	 "INSERT INTO er_challenges "
	 "       (id, league_id, name, body, solo, opens, closes, code, created_by) "
	 "SELECT $1, $2, $3, $4, $5::boolean, coalesce($6::timestamptz, now()), $7::timestamptz, $8, $9 "
	 " WHERE $7::timestamptz > coalesce($6::timestamptz, now()) "
	 "RETURNING id",
	 9, DB_COLUMN_NAMES(RETURNED_COLUMNS)},
	/* db_challenge_get */
	{"challenge_get",
	 CHALLENGE_SELECT
	 " WHERE x.id = $1 "
	 "   AND x.league_id = $2",
	 2, DB_COLUMN_NAMES(CHALLENGE_COLUMNS)},
	/* db_challenge_by_code */
	{"challenge_by_code",
	 CHALLENGE_SELECT
	 " WHERE x.code = $1",
	 1, DB_COLUMN_NAMES(CHALLENGE_COLUMNS)},
	/* db_challenge_lock */
	{"challenge_lock",
	 CHALLENGE_SELECT
	 " WHERE x.id = $1 "
	 "   FOR UPDATE OF x",
	 1, DB_COLUMN_NAMES(CHALLENGE_COLUMNS)},
	/* db_challenges_of_league */
	{"challenges_of_league",
	 "SELECT x.id, "
	 "       x.name, "
	 "       " UTC("x.opens") " AS opens, "
	 "       " UTC("x.closes") " AS closes, "
	 "       coalesce(" UTC("x.closed_at") ", '') AS closed_at, "
	 "       x.solo, "
	 "       now() >= x.opens AS open, "
	 "       now() >= x.closes AS due, "
	 "       x.closed_at IS NOT NULL AS closed, "
	 "       count(a.game_id) AS started, "
	 "       count(a.game_id) FILTER (WHERE g.status = 'finished') AS finished "
	 "  FROM er_challenges x "
	 "  LEFT JOIN er_challenge_games a ON a.challenge_id = x.id "
	 "  LEFT JOIN games g ON g.id = a.game_id "
	 " WHERE x.league_id = $1 "
	 " GROUP BY x.id "
	 " ORDER BY x.opens DESC, x.id "
	 " LIMIT 100",
	 1, DB_COLUMN_NAMES(CHALLENGES_OF_LEAGUE_COLUMNS)},
	/* db_challenge_attempt_insert */
	{"challenge_attempt_insert",
	 "INSERT INTO er_challenge_games (challenge_id, member_id, game_id) "
	 "VALUES ($1, $2, $3) "
	 "ON CONFLICT DO NOTHING "
	 "RETURNING game_id AS game",
	 3, DB_COLUMN_NAMES(ATTEMPT_INSERTED_COLUMNS)},
	/* db_challenge_attempts: the human's seat is seat 1 (the first of the standings); a game
	 * counts as finished when it finished (its last event: to the microsecond, where the
	 * result's finished_at is to the second) before the challenge ended (its closing time, or
	 * now); once closed, when the closing transaction counted it in the play */
	{"challenge_attempts",
	 "SELECT a.member_id AS member, "
	 "       m.name, "
	 "       a.game_id AS game, "
	 "       g.code, "
	 "       f.finished, "
	 "       coalesce((g.result->'standings'->0->>'score')::float8, 0) AS score, "
	 "       coalesce(g.result->>'finished_at', '') AS finished_at "
	 "  FROM er_challenge_games a "
	 "  JOIN er_challenges x ON x.id = a.challenge_id "
	 "  JOIN league_members m ON m.id = a.member_id "
	 "  JOIN games g ON g.id = a.game_id "
	 " CROSS JOIN LATERAL ( "
	 "       SELECT CASE "
	 "              WHEN x.closed_at IS NOT NULL THEN coalesce(a.counted, false) "
	 "              ELSE g.status = 'finished' "
	 "                   AND coalesce((SELECT max(e.created_at) "
	 "                                   FROM events e "
	 "                                  WHERE e.game_id = g.id) "
	 "                                <= least(now(), x.closes), false) "
	 "              END AS finished "
	 "       ) f "
	 " WHERE a.challenge_id = $1 "
	 " ORDER BY f.finished DESC, "
	 "          CASE WHEN f.finished THEN (g.result->'standings'->0->>'score')::float8 END DESC NULLS LAST, "
	 "          g.result->>'finished_at', "
	 "          a.created_at, "
	 "          a.member_id",
	 1, DB_COLUMN_NAMES(CHALLENGE_ATTEMPTS_COLUMNS)},
	/* db_challenge_close */
	{"challenge_close",
	 "UPDATE er_challenges "
	 "   SET closed_at = now(), "
	 "       play_id = $2, "
	 "       best_game = $3, "
	 "       best_token = $4 "
	 " WHERE id = $1 "
	 "   AND closed_at IS NULL",
	 4, NULL},
	/* db_challenge_counted */
	{"challenge_counted",
	 "UPDATE er_challenge_games "
	 "   SET counted = true "
	 " WHERE challenge_id = $1 "
	 "   AND game_id = $2",
	 2, NULL},
	/* db_challenges_due */
	{"challenges_due",
	 "SELECT x.league_id AS league, "
	 "       x.id "
	 "  FROM er_challenges x "
	 " WHERE x.closed_at IS NULL "
	 "   AND x.closes <= now() "
	 " ORDER BY x.closes, x.id "
	 " LIMIT 100",
	 0, DB_COLUMN_NAMES(CHALLENGES_DUE_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

/* ---- the accessors ---- */

db_status db_challenge_insert(db_conn *c, const char *id, const char *league, const char *name,
                              const char *body, bool solo, const char *opens, const char *closes,
                              const char *code, const char *by, bool *inserted)
{
	const char *p[9] = {id,
	                    league,
	                    name,
	                    body,
	                    solo ? "true" : "false",
	                    opens,
	                    closes,
	                    code,
	                    by && by[0] ? by : NULL};
	int n = 0;
	db_status st = db_run_count(c, "challenge_insert", 9, p, &n);
	*inserted = st == DB_OK && n == 1;
	return st;
}

static void read_challenge(const PGresult *r, int i, void *row)
{
	db_challenge *x = row;
	db_col_copy(r, i, CHALLENGE_ID, x->id, sizeof x->id);
	db_col_copy(r, i, CHALLENGE_LEAGUE, x->league, sizeof x->league);
	db_col_copy(r, i, CHALLENGE_LEAGUE_NAME, x->league_name, sizeof x->league_name);
	db_col_copy(r, i, CHALLENGE_NAME, x->name, sizeof x->name);
	db_col_copy(r, i, CHALLENGE_CODE, x->code, sizeof x->code);
	db_col_copy(r, i, CHALLENGE_BODY, x->body, sizeof x->body);
	x->solo = db_col_bool(r, i, CHALLENGE_SOLO);
	db_col_copy(r, i, CHALLENGE_OPENS, x->opens, sizeof x->opens);
	db_col_copy(r, i, CHALLENGE_CLOSES, x->closes, sizeof x->closes);
	db_col_copy(r, i, CHALLENGE_CLOSED_AT, x->closed_at, sizeof x->closed_at);
	db_col_copy(r, i, CHALLENGE_ENDS, x->ends, sizeof x->ends);
	x->open = db_col_bool(r, i, CHALLENGE_OPEN);
	x->due = db_col_bool(r, i, CHALLENGE_DUE);
	x->closed = db_col_bool(r, i, CHALLENGE_CLOSED);
	db_col_copy(r, i, CHALLENGE_PLAY, x->play, sizeof x->play);
	db_col_copy(r, i, CHALLENGE_BEST_GAME, x->best_game, sizeof x->best_game);
	db_col_copy(r, i, CHALLENGE_BEST_TOKEN, x->best_token, sizeof x->best_token);
}

db_status db_challenge_get(db_conn *c, const char *id, const char *league, db_challenge *out)
{
	const char *p[2] = {id, league};
	memset(out, 0, sizeof *out);
	return db_get_one(c, "challenge_get", 2, p, read_challenge, out, &out->found);
}

db_status db_challenge_by_code(db_conn *c, const char *code, db_challenge *out)
{
	const char *p[1] = {code};
	memset(out, 0, sizeof *out);
	return db_get_one(c, "challenge_by_code", 1, p, read_challenge, out, &out->found);
}

db_status db_challenge_lock(db_conn *c, const char *id, db_challenge *out)
{
	const char *p[1] = {id};
	memset(out, 0, sizeof *out);
	return db_get_one(c, "challenge_lock", 1, p, read_challenge, out, &out->found);
}

static void read_challenge_row(const PGresult *r, int i, void *row)
{
	db_challenge_row *x = row;
	CHALLENGES_OF_LEAGUE_COLUMNS(DB_READ_COLUMN)
}

db_status db_challenges_of_league(db_conn *c, const char *league, db_challenge_rows *out)
{
	const char *p[1] = {league};
	void *rows;
	db_status st = db_load(c, "challenges_of_league", 1, p, sizeof *out->rows,
	                       read_challenge_row, &out->res, &out->n, &rows);
	out->rows = rows;
	return st;
}

db_status db_challenge_attempt_insert(db_conn *c, const char *challenge, const char *member,
                                      const char *game, bool *inserted)
{
	const char *p[3] = {challenge, member, game};
	int n = 0;
	db_status st = db_run_count(c, "challenge_attempt_insert", 3, p, &n);
	*inserted = st == DB_OK && n == 1;
	return st;
}

static void read_attempt(const PGresult *r, int i, void *row)
{
	db_attempt_row *x = row;
	CHALLENGE_ATTEMPTS_COLUMNS(DB_READ_COLUMN)
}

db_status db_challenge_attempts(db_conn *c, const char *challenge, db_attempt_rows *out)
{
	const char *p[1] = {challenge};
	void *rows;
	db_status st = db_load(c, "challenge_attempts", 1, p, sizeof *out->rows, read_attempt,
	                       &out->res, &out->n, &rows);
	out->rows = rows;
	return st;
}

db_status db_challenge_close(db_conn *c, const char *id, const char *play, const char *best_game,
                             const char *best_token)
{
	const char *p[4] = {id, play, best_game, best_token};
	return db_run_count(c, "challenge_close", 4, p, NULL);
}

db_status db_challenge_counted(db_conn *c, const char *id, const char *game)
{
	const char *p[2] = {id, game};
	return db_run_count(c, "challenge_counted", 2, p, NULL);
}

static void read_due(const PGresult *r, int i, void *row)
{
	db_due_challenge *x = row;
	CHALLENGES_DUE_COLUMNS(DB_READ_COLUMN)
}

db_status db_challenges_due(db_conn *c, db_due_challenges *out)
{
	void *rows;
	db_status st = db_load(c, "challenges_due", 0, NULL, sizeof *out->rows, read_due, &out->res,
	                       &out->n, &rows);
	out->rows = rows;
	return st;
}
