/* Storing a play from any source (store.c): by hand, a finished table game, an import. */
#ifndef LEAGUES_STORE_H
#define LEAGUES_STORE_H

#include "engine/tokens.h"
#include "base/sbuf.h"
#include "db/db.h"

#include <stdbool.h>
#include <stdint.h>

/* A play's notes and game name, in bytes, at most. */
enum { NOTES_MAX = 4096, GAME_MAX = 256 };

/* A play's result as stored: which member, where they sat, score (has_score), rank, winner. */
typedef struct {
	char member[ID_LEN + 1];
	double score;
	bool has_score, has_rank, winner, has_winner;
	int rank;
	const char *breakdown;   /* JSON text or NULL (borrowed) */
	const char *score_text;  /* the score as typed in another app ("20+16+16") or NULL */
	const char *extra;       /* JSON text or NULL: the source playerScore's other members */
	const char *player_uuid; /* the source file's player object (league_players) or NULL */
	const char *team;        /* the seat's team in a game played in teams, or NULL (borrowed) */
	bool unrated; /* a seat nothing identifies (an anonymous player): kept in the play, out
	               * of standings and ratings */
} league_result;

/* What a play's time says (migration 0026): a local time with its UTC offset, a local time
 * whose offset nobody wrote (BG Stats, BGG: kept at offset 0, shown without "Z"), or no date
 * at all (BGG's "0000-00-00": stored as 0001-01-01T00:00:00Z, before every dated play, in no
 * season). */
typedef enum { PLAY_CLOCK_OFFSET = 0, PLAY_CLOCK_LOCAL, PLAY_CLOCK_UNDATED } play_clock;

/* when of an undated play, and the playDate a BG Stats export writes for one (BGG's own
 * "no date", in BG Stats' form; BG Stats has none of its own). */
#define PLAY_UNDATED_AT  "0001-01-01T00:00:00Z"
#define PLAY_UNDATED_BGS "0000-00-00 00:00:00"

/* A play to store (all strings borrowed). */
typedef struct {
	const char *game;
	int64_t bgg_id; /* 0: none */
	char when[64];
	int64_t duration_min; /* -1: unknown */
	const char *notes, *location;
	bool cooperative;
	int utc_offset_min;    /* the players' clock: local time = when + this */
	play_clock clock;      /* what when says: with its offset, local only, undated */
	bool ignored;          /* kept and shown, left out of standings and ratings */
	bool incomplete;       /* not played to the end: out of standings and ratings too */
	int64_t bgg_play_id;   /* the BoardGameGeek play this is, 0: none */
	const char *source;    /* "hand", "table", "bgstats", "bggxml", "csv" */
	const char *uuid;      /* NULL: generated */
	const char *game_id;   /* NULL unless source is "table" */
	const char *extra;     /* JSON text or NULL: the source play's members we do not model */
	const char *game_uuid; /* the file's game object the play named (BG Stats), or NULL */
	league_result *results;
	int nresults;
} league_play;

/* Derives missing ranks (from scores, else from winner flags) and winners (rank 1); false with
 * a detail when the results cannot be ranked (some ranks given, others not). A cooperative
 * play keeps each player's winner flag (some may win and others lose: a traitor, Mysterium's
 * culprits); winners rank 1, the others 2, and a player without a flag shares the first
 * flag's outcome. */
bool store_play_rank(league_play *p, const char **detail);

/* Inserts a play (new id into id) with its results. DB_ABORT when a play of the same uuid
 * (or game_id) is already in the league (nothing stored). Does not recompute ratings. */
db_status store_play_insert(db_conn *c, const char *league, const char *author,
                            const league_play *p, char id[ID_LEN + 1]);

/* Rewrites play's columns and results as p holds them (an edit), in the caller's transaction.
 * Does not recompute ratings. */
db_status store_play_update(db_conn *c, const char *league, const char *play, const league_play *p);

/* Many plays stored two statements per BATCH_PLAYS (an import), so that no statement grows
 * with the file past the statement timeout: each store_batch_add gives the play its id and
 * copies its columns and results, and stores the batch once it holds BATCH_PLAYS plays;
 * store_batch_store stores what is left. Plays go in the order added, as plays of league by
 * author, in the caller's transaction. The caller has made sure no uuid is already in the
 * league or twice in the batch. Does not recompute ratings. Zero-initialise; free with
 * store_batch_free. */
enum { BATCH_PLAY_COLS = 17, BATCH_RESULT_COLS = 12, BATCH_PLAYS = 500 };

typedef struct {
	sbuf play[BATCH_PLAY_COLS];
	sbuf res[BATCH_RESULT_COLS];
	int nplays, nresults;
} league_batch;

db_status store_batch_add(db_conn *c, const char *league, const char *author, league_batch *b,
                          const league_play *p, char id[ID_LEN + 1]);

db_status store_batch_store(db_conn *c, const char *league, const char *author, league_batch *b);

void store_batch_free(league_batch *b);

#endif
