/* What the file formats share (io.c): a parsed import (plays, members, seasons, what a BG
 * Stats file says of its games, locations and players) and its arena, CSV cells, numbers and
 * scores, UUIDs, export rows, ranks and name checks. */
#ifndef LEAGUES_IO_H
#define LEAGUES_IO_H

#include "base/sbuf.h"
#include "db/db.h"
#include "db/leagues.h"
#include "http/http.h"
#include "leagues/access.h"
#include "leagues/store.h"
#include "rules/rating.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	IMPORT_MAX_BODY = 16 * 1024 * 1024,
	IMPORT_MAX_PLAYS = 100000,
	IMPORT_MAX_RESULTS = RATING_MAX_PLAYERS,
	NAME_MAX_BYTES = 256,
};

#define BACKUP_FORMAT "dicehospital-league-backup"

typedef enum { IMPORT_BGSTATS, IMPORT_BGGXML, IMPORT_BACKUP, IMPORT_CSV } import_format;

typedef struct {
	const char *name; /* borrowed from the import's tree or arena */
	bool anonymous;   /* a seat of BG Stats' anonymous player: an unrated member */
	league_result r;
} imp_result;

typedef struct {
	league_play p;   /* its strings borrowed like the names; p.results NULL (res holds them) */
	int index;       /* its position in the file's list of plays (skipped_plays' index) */
	imp_result *res; /* owned */
	int nres;
} imp_play;

typedef struct {
	const char *name, *starts, *ends;
} imp_season;

/* What a BG Stats file says of a game, a location and a player its imported plays name (kept
 * for the export; strings borrowed like the plays'; source: the whole object as JSON text). */
typedef struct {
	const char *name, *uuid, *source;
	int64_t bgg_id; /* 0: none */
	bool cooperative, highest_wins, no_points, uses_teams;
} imp_game;

typedef struct {
	const char *name, *uuid, *source;
} imp_location;

typedef struct {
	const char *uuid, *source;
} imp_player;

/* A play of the file that is not imported, and why (api.md: skipped_plays). reason is a
 * stable id ("duplicate", "no-date", …); id the play's id in the file (uuid, BGG play id) or
 * NULL; detail one sentence. Strings: reason static, id borrowed like the plays', detail owned. */
typedef struct {
	int index;
	const char *id, *reason;
	char *detail;
} imp_skip;

/* One parsed import. Zero-initialise it (plus league and account for storing); io_import_free
 * releases it. */
typedef struct {
	struct json_object *root; /* owns the strings of a JSON import */
	char **arena;             /* owns the strings of an XML import */
	size_t narena;
	imp_play *plays;
	int nplays;
	const char **members;
	int nmembers;
	imp_season *seasons;
	int nseasons;
	imp_skip *skips; /* parse-time skips, then the transaction's duplicates */
	int nskips, nparse_skips;
	imp_game *games; /* owned arrays */
	imp_location *locations;
	imp_player *players;
	int ngames, nlocations, nplayers;
	const char
	    *file_text; /* a BG Stats file's JSON, borrowed from root: kept with the league */
	char field[400], detail[256]; /* the first error */
	const char *rule;             /* its rule (static), NULL: malformed-file */
	/* a spreadsheet's mapping (csvin.h), borrowed from the request: NULL, the proposed one */
	const char *csv_columns, *csv_dates, *csv_game;
	int *csv_lines; /* owned: the spreadsheet row where each play of a CSV file starts */
	/* filled by the transaction */
	const char *league, *account;
	league_access *access; /* the importer's (an owner's), read again under the lock */
	http_resp *resp;       /* where a refusal under the lock is replied */
	int imported, created;
	struct {
		const char *name;
		char id[ID_LEN + 1];
	} * cache;
	int ncache;
} league_import;

void io_import_free(league_import *im);

/* io.c */
/* A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text cells that
 * a spreadsheet would run as a formula (= + - @ TAB CR first) get a leading apostrophe. */
void io_csv_cell(sbuf *s, const char *v, bool text);

/* A number column as text (NULL: SQL NULL) as an integer, 0 when NULL. */
int64_t io_int_text(const char *v);

/* A stored number as text (NULL: SQL NULL), or NULL when it is not a finite number: a double
 * precision column takes 'Infinity' and 'NaN', which neither JSON nor a score can carry. */
const char *io_finite_text(const char *v);

json_object *io_num_text(const char *v);

enum { IO_NUM_MAX = 64, IO_UUID_LEN = 36 };

/* The shortest decimal that reads back to d: "45", "0.1" (not "0.10000000000000001"), "-2.5". */
void io_shortest(double d, char buf[IO_NUM_MAX]);

/* A score as typed in BG Stats: a decimal number or a sum of them ("20+16+16", "-10+7+22"),
 * the trailing sign of a sum left unfinished ignored ("86+84+"); spaces between the parts.
 * True with the total in *out; false for anything else (words, "", "1e400", "12,5"). */
bool io_score_parse(const char *s, double *out);

/* A score as BG Stats writes it: what was typed (text), else the shortest decimal of the
 * stored number (v: its text from the database, NULL for none), else null. */
json_object *io_score_json(const char *v, const char *text);

/* Is s a UUID in RFC 4122 text form: 8-4-4-4-12 hex digits (either case)? */
bool io_is_uuid(const char *s);

/* A UUID of version 4's form derived from (kind, a, b; b may be NULL): the same inputs give the
 * same UUID in every process, so an export names a play, player, game or location of ours the
 * same way each time and an import can recognise it. */
void io_derived_uuid(const char *kind, const char *a, const char *b, char out[IO_UUID_LEN + 1]);

/* A stored play's uuid as an export writes it: itself when in RFC 4122 form, else derived. */
void io_play_uuid(const char *stored, char out[IO_UUID_LEN + 1]);

/* Reply body of another content type (text owned by the caller, copied). */
int io_reply_file(http_resp *resp, const char *ctype, const char *filename, char *body, size_t len);

/* The league's export rows into *rows (caller clears), or false after a reply: every play,
 * a play without results (a BGG play logged without players) as one row with has_result
 * false. */
bool io_export_rows_all(const http_req *req, http_resp *resp, db_conn *c, const account *acc,
                        league_access *a, db_export_rows *rows);

const char *io_dup(league_import *im, const char *s);

int io_fail(league_import *im, const char *field, const char *detail);

/* Lists play index of the file (its id in the file or NULL, borrowed) as skipped for reason
 * (a static stable id) with a sentence (copied). */
void io_skip(league_import *im, int index, const char *id, const char *reason, const char *detail);

/* A new play of the file (index: its position in the file's list of plays) with room for
 * nres results. */
imp_play *io_new_play(league_import *im, int index, int nres);

/* Ranks an imported play: ranks given for every player as they are (ranks given for only some
 * are dropped); else from the scores (highest first, or lowest first when the file says so, or
 * when that is what its winner flags say); else, or when the winner flags agree with the scores
 * neither way, from the winner flags. field names the play for an error. */
int io_rank(league_import *im, imp_play *ip, bool lowest_wins, const char *field);

int io_check_names(league_import *im, imp_play *ip, const char *field);

/* The seat details a file gave, from a seat's extra (BG Stats' playerScore members; BGG's
 * color, startposition and new, stored in BG Stats' form by bggxml.c): a new object with role,
 * start_player, new_player and start_position (BGG's startposition as written: BG Stats'
 * seatOrder is the order of the seats, always written), each null where the file said nothing.
 * The seat's team is play_results.team, the one it was rated in. The caller owns it. */
json_object *io_seat_details(const char *extra);

#endif
