/* Parsing a league import without the database: a BG Stats JSON export, a BoardGameGeek plays
 * XML file or our backup, read and checked completely into an import (plays, members, seasons)
 * that the import route then stores in one transaction (import.c). The fuzz targets call
 * the same entry point (tests/fuzz/fuzz_bgstats.c, fuzz_bggxml.c, fuzz_backup.c). */
#ifndef API_LEAGUE_IMPORT_H
#define API_LEAGUE_IMPORT_H

#include "leagues/leagues.h"

#include <stddef.h>

struct json_object;

typedef enum { IMPORT_BGSTATS, IMPORT_BGGXML, IMPORT_BACKUP } import_format;

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

/* One parsed import. Zero-initialise it (plus league and account for storing); league_import_free
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

/* Parses body[0..len) in the format into im. Returns 0, or -1 with im->field (a JSON pointer
 * or XPath-like location, "" for the whole file) and im->detail. Either way the caller frees
 * im with league_import_free. */
int league_import_parse(league_import *im, import_format format, const char *body, size_t len);

void league_import_free(league_import *im);

#endif
