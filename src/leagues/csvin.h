/* Spreadsheets in: a play log saved as CSV, read through a column mapping (csvin.c reads the
 * file and its cells, csvmap.c proposes a mapping and turns rows into plays). Pure and
 * bounded: no database, no I/O; the fuzz target tests/fuzz/fuzz_csv.c calls it through
 * import_parse. */
#ifndef LEAGUES_CSVIN_H
#define LEAGUES_CSVIN_H

#include "leagues/io.h"

#include <stdbool.h>
#include <stddef.h>

enum {
	CSV_MAX_COLS = 128,      /* columns a file may have */
	CSV_MAX_CELLS = 4000000, /* cells in the whole file */
	CSV_MAX_SEATS = 64,      /* seats of a row per play (player:1 … player:64) */
	CSV_PREVIEW_PLAYS = 10,  /* plays the preview shows */
	CSV_PREVIEW_SKIPS = 20,  /* rows with a problem the preview lists */
};

/* What a column holds. A seat role with seat 0 is the row's own player (a row per player per
 * play); seat 1… is that seat of a row per play. */
typedef enum {
	CR_NONE,
	CR_PLAY,
	CR_DATE,
	CR_TIME,
	CR_GAME,
	CR_BGG_ID,
	CR_DURATION,
	CR_COOPERATIVE,
	CR_LOCATION,
	CR_NOTES,
	CR_WINNER_NAME,
	CR_IGNORED,    /* kept, out of standings and ratings (BG Stats' ignored, BGG nowinstats) */
	CR_INCOMPLETE, /* not played to the end: out of standings and ratings too */
	CR_PLAYER,     /* the seat roles, from here on */
	CR_SCORE,
	CR_RANK,
	CR_WINNER,
	CR_UNRATED, /* a seat nothing identifies (an anonymous player): kept, never rated */
	CR_TEAM,    /* the seat's team in a game played in teams: rated as one (rating.h) */
} csv_kind;

typedef struct {
	csv_kind kind;
	int seat;
} csv_role;

/* How a date written D/M/Y or M/D/Y is read: decided by the file (a first number over 12 is
 * a day, a second one is a day too), else as the mapping says. */
typedef enum { CSV_DATES_AUTO, CSV_DATES_DMY, CSV_DATES_MDY } csv_dates;

/* A file read into rows of cells (all strings in the import's arena). */
typedef struct {
	char sep;            /* ',' ';' or '\t' */
	bool windows_1252;   /* the bytes were not UTF-8: read as Windows-1252 */
	int ncols;           /* the header's cells */
	const char **header; /* ncols names, owned array */
	const char ***rows;  /* nrows rows of ncols cells ("" when the row is short), owned */
	int *lines;          /* the spreadsheet row number of each data row (the header is 1) */
	int nrows;
} csv_file;

/* The mapping of a file: one role per column, the date order, a game name for every play
 * when no column names it. */
typedef struct {
	csv_role roles[CSV_MAX_COLS];
	csv_dates dates;
	const char *game; /* borrowed or NULL */
} csv_mapping;

/* csvin.c */
/* Reads body (UTF-8 with or without a byte order mark, else Windows-1252; RFC 4180 quoting;
 * separator detected from the header line) into f. Returns 0, or -1 with im's field and
 * detail. */
int csv_read(league_import *im, const char *body, size_t len, csv_file *f);
void csv_file_free(csv_file *f);

/* A date cell (and a time cell, may be NULL or "") as a timestamptz literal into when with the
 * UTC offset it states into *offset_min (0 when it states none). Returns 0; 1 when empty; 2
 * when it is no date of the forms read; 3 when it is D/M/Y or M/D/Y and order is AUTO. */
int csv_date(const char *cell, const char *time, csv_dates order, char when[64], int *offset_min);

/* The order the file's D/M/Y or M/D/Y dates in column col are in, from the file alone:
 * AUTO when it holds none or cannot tell (*ambiguous set when it cannot tell). */
csv_dates csv_date_order(const csv_file *f, int col, bool *ambiguous);

/* A score cell: a number, a decimal comma ("12,5"), or a sum as BG Stats' ("20+16"). */
bool csv_number(const char *cell, double *v);

/* A winner cell: 1 yes, 0 no, -1 neither (empty or words). */
int csv_flag(const char *cell);

/* csvmap.c */
/* The mapping proposed from the header (and the date column's cells). */
void csv_propose(const csv_file *f, csv_mapping *m);

/* Reads a mapping's text: a role per column, comma separated (empty: ignored), "player:2"
 * for a seat; dates "dmy", "mdy" or NULL; game NULL or a name. Returns 0, or -1 with im's
 * field ("columns", "dates", "game") and detail. */
int csv_mapping_parse(league_import *im, const csv_file *f, const char *columns, const char *dates,
                      const char *game, csv_mapping *m);

/* The role's name as the mapping writes it ("score:2"), into buf. */
void csv_role_name(csv_role r, char buf[24]);

/* The plays of f by m into im (skips for the rows that are no play). Returns 0, or -1 when
 * the mapping cannot read the file at all (no date or player column…) with field and
 * detail. */
int csv_plays(league_import *im, const csv_file *f, const csv_mapping *m);

/* The whole import (import_parse): read, the mapping in im (csv_columns, csv_dates, csv_game;
 * NULL: proposed), plays. */
int csv_parse(league_import *im, const char *body, size_t len);

#endif
