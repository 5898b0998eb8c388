/* A spreadsheet's rows read into plays through a mapping (csv_plays, csvin.h): rows grouped
 * into plays, each play imported or listed in skipped_plays with the spreadsheet row it
 * starts on. */
#include "leagues/csvin.h"

#include "base/oom.h"
#include "base/sbuf.h"
#include "leagues/store.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where each role is: its column, -1 when no column holds it (seat roles by seat). */
typedef struct {
	int col[CR_TEAM + 1];           /* the play's roles and the row's seat */
	int seat[CSV_MAX_SEATS + 1][6]; /* player, score, rank, winner, unrated, team of seat 1… */
	int nseats;                     /* the highest seat numbered */
	bool per_player;                /* a row per player per play */
} csv_cols;

static void locate(const csv_file *f, const csv_mapping *m, csv_cols *c)
{
	memset(c, -1, sizeof *c);
	c->nseats = 0;
	c->per_player = false;
	for (int k = 0; k < f->ncols && k < CSV_MAX_COLS; k++) {
		csv_role r = m->roles[k];
		if (r.kind == CR_NONE)
			continue;
		if (r.kind >= CR_PLAYER && r.seat > 0) {
			c->seat[r.seat][r.kind - CR_PLAYER] = k;
			if (r.seat > c->nseats)
				c->nseats = r.seat;
		} else {
			c->col[r.kind] = k;
		}
	}
	c->per_player = c->col[CR_PLAYER] >= 0;
}

/* The text of a cell trimmed, without the apostrophe a spreadsheet export puts before text
 * it would otherwise run as a formula (ours does: csv.c), cut to max bytes at a character
 * boundary; in the arena when changed. "" for no column. */
static const char *cell_text(league_import *im, const char *const *row, int col, size_t max)
{
	if (col < 0)
		return "";
	const char *s = row[col];
	while (*s == ' ' || *s == '\t')
		s++;
	if (s[0] == '\'' && s[1] != '\0' && strchr("=+-@\t\r", s[1]) != NULL)
		s++;
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n > max)
		for (n = max; n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80;)
			n--;
	if (s[n] == '\0')
		return s;
	char *t = xmalloc(n + 1);
	memcpy(t, s, n);
	t[n] = '\0';
	const char *d = io_dup(im, t);
	free(t);
	return d;
}

static bool whole(const char *s, long long lo, long long hi, long long *v)
{
	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9' || strlen(s) > 12)
		return false;
	char *end;
	*v = strtoll(s, &end, 10);
	while (*end == ' ')
		end++;
	return *end == '\0' && *v >= lo && *v <= hi;
}

/* Minutes as a number ("45") or hours and minutes ("1:30"). */
static bool minutes(const char *s, long long *v)
{
	const char *colon = strchr(s, ':');
	if (colon == NULL)
		return whole(s, 0, 100000, v);
	char h[16];
	long long hh, mm;
	size_t n = (size_t)(colon - s);
	if (n == 0 || n >= sizeof h)
		return false;
	memcpy(h, s, n);
	h[n] = '\0';
	if (!whole(h, 0, 1666, &hh) || !whole(colon + 1, 0, 59, &mm))
		return false;
	*v = hh * 60 + mm;
	return true;
}

/* Lists the play as skipped, its detail starting with the spreadsheet row. Returns 0. */
static int skip(league_import *im, int index, const char *id, int line, const char *reason,
                const char *fmt, ...)
{
	char d[256];
	int k = snprintf(d, sizeof d, "row %d: ", line);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d + k, sizeof d - (size_t)k, fmt, ap);
	va_end(ap);
	io_skip(im, index, id, reason, d);
	return 0;
}

/* A seat from its cells (name already in the arena). */
static void seat(league_import *im, imp_play *ip, const char *name, const char *const *row,
                 const int cols[6])
{
	int score = cols[1], rank = cols[2], winner = cols[3];
	imp_result *r = &ip->res[ip->nres++];
	r->name = name;
	const char *sc = cell_text(im, row, score, NOTES_MAX);
	if (*sc) {
		r->r.has_score = csv_number(sc, &r->r.score);
		if (!r->r.has_score)
			r->r.score_text = cell_text(im, row, score, NAME_MAX_BYTES);
	}
	long long rk;
	if (rank >= 0 && whole(row[rank], 1, IMPORT_MAX_RESULTS, &rk)) {
		r->r.rank = (int)rk;
		r->r.has_rank = true;
	}
	int w = winner >= 0 ? csv_flag(row[winner]) : -1;
	if (w >= 0) {
		r->r.has_winner = true;
		r->r.winner = w == 1;
	}
	r->r.unrated = cols[4] >= 0 && csv_flag(row[cols[4]]) == 1;
	const char *team = cell_text(im, row, cols[5], NAME_MAX_BYTES); /* over 64 bytes: none */
	r->r.team = *team && strlen(team) <= 64 ? team : NULL; /* as bgstats.c's seat_team */
}

/* The seats of a play of rows[first..first+n) into ip (room for them made by the caller). */
static void seats(league_import *im, const csv_file *f, const csv_cols *c, const int *rows, int n,
                  imp_play *ip)
{
	if (c->per_player) {
		for (int i = 0; i < n; i++) {
			const char *const *row = f->rows[rows[i]];
			const char *name =
			    cell_text(im, row, c->col[CR_PLAYER], NAME_MAX_BYTES + 1);
			const int cols[6] = {c->col[CR_PLAYER],  c->col[CR_SCORE],
			                     c->col[CR_RANK],    c->col[CR_WINNER],
			                     c->col[CR_UNRATED], c->col[CR_TEAM]};
			if (*name)
				seat(im, ip, name, row, cols);
		}
	} else {
		const char *const *row = f->rows[rows[0]];
		for (int s = 1; s <= c->nseats; s++) {
			const char *name = cell_text(im, row, c->seat[s][0], NAME_MAX_BYTES + 1);
			if (*name)
				seat(im, ip, name, row, c->seat[s]);
		}
	}
	const char *winner =
	    cell_text(im, f->rows[rows[0]], c->col[CR_WINNER_NAME], NAME_MAX_BYTES);
	if (*winner == '\0')
		return;
	if (ip->nres == 0 && c->nseats == 0 && !c->per_player) { /* only the winner is written */
		ip->nres = 1;
		ip->res[0].name = winner;
	}
	for (int i = 0; i < ip->nres; i++) {
		ip->res[i].r.has_winner = true;
		ip->res[i].r.winner = strcmp(ip->res[i].name, winner) == 0;
	}
}

/* The play's uuid: its play column, else derived from every cell of its rows (so the same
 * file imported again is skipped as duplicate). */
static const char *play_uuid(league_import *im, const csv_file *f, const char *id, const int *rows,
                             int n)
{
	if (*id && strlen(id) <= 128)
		return id;
	sbuf s = {0};
	for (int i = 0; i < n; i++)
		for (int k = 0; k < f->ncols; k++) {
			sb_str(&s, f->rows[rows[i]][k]);
			sb_add(&s, "\x1f", 1);
		}
	char u[IO_UUID_LEN + 1];
	io_derived_uuid("csv-play", s.b ? s.b : "", NULL, u);
	free(s.b);
	return io_dup(im, u);
}

/* Reads the play of rows[0..n) (index: its place among the file's plays) into im, or its
 * skip. Returns 0. */
static int read_play(league_import *im, const csv_file *f, const csv_mapping *m, const csv_cols *c,
                     const int *rows, int n, int index)
{
	const char *const *row = f->rows[rows[0]];
	int line = f->lines[rows[0]];
	const char *id = cell_text(im, row, c->col[CR_PLAY], 200);
	const char *sid = *id ? id : NULL;
	league_play p = {.duration_min = -1, .source = "csv"};
	p.game = cell_text(im, row, c->col[CR_GAME], GAME_MAX + 1);
	if (*p.game == '\0' && m->game)
		p.game = m->game;
	if (*p.game == '\0')
		return skip(im, index, sid, line, "no-game", "the play names no game");
	if (strlen(p.game) > GAME_MAX)
		return skip(im, index, sid, line, "malformed", "a game's name has at most %d bytes",
		            GAME_MAX);
	const char *date = c->col[CR_DATE] >= 0 ? row[c->col[CR_DATE]] : "";
	const char *time = c->col[CR_TIME] >= 0 ? row[c->col[CR_TIME]] : NULL;
	int rc = csv_date(date, time, m->dates, p.when, &p.utc_offset_min);
	if (rc == 1)
		return skip(im, index, sid, line, "no-date", "the play has no date");
	if (rc != 0)
		return skip(im, index, sid, line, "bad-date",
		            "\"%.40s\" is not a date as spreadsheets write them (2024-03-31, "
		            "31/03/2024, 03/31/2024, 31.03.2024, with a time or not)",
		            date);
	long long v;
	const char *bgg = cell_text(im, row, c->col[CR_BGG_ID], 20);
	if (*bgg && whole(bgg, 1, 2147483647, &v))
		p.bgg_id = v;
	const char *dur = cell_text(im, row, c->col[CR_DURATION], 20);
	if (*dur && minutes(dur, &v))
		p.duration_min = v;
	p.cooperative = c->col[CR_COOPERATIVE] >= 0 && csv_flag(row[c->col[CR_COOPERATIVE]]) == 1;
	p.ignored = c->col[CR_IGNORED] >= 0 && csv_flag(row[c->col[CR_IGNORED]]) == 1;
	p.incomplete = c->col[CR_INCOMPLETE] >= 0 && csv_flag(row[c->col[CR_INCOMPLETE]]) == 1;
	p.location = cell_text(im, row, c->col[CR_LOCATION], GAME_MAX);
	p.notes = cell_text(im, row, c->col[CR_NOTES], NOTES_MAX);
	int room = c->per_player ? n : c->nseats > 0 ? c->nseats : 1;
	if (room > IMPORT_MAX_RESULTS)
		return skip(im, index, sid, line, "too-many-players",
		            "a play has at most %d players", IMPORT_MAX_RESULTS);
	p.uuid = play_uuid(im, f, id, rows, n);
	int first = im->nplays;
	imp_play *ip = io_new_play(im, index, room);
	ip->p = p;
	seats(im, f, c, rows, n, ip);
	char field[32];
	snprintf(field, sizeof field, "/rows/%d", line);
	if (io_check_names(im, ip, field) != 0 || io_rank(im, ip, false, field) != 0) {
		char why[200];
		snprintf(why, sizeof why, "%.190s", im->detail);
		im->field[0] = im->detail[0] = '\0';
		free(im->plays[first].res);
		im->nplays = first;
		skip(im, index, sid, line, "bad-players", "%s", why);
	}
	return 0;
}

/* Does the group rows[0..n) already seat the player of row r? */
static bool seated(const csv_file *f, int col, const int *rows, int n, int r)
{
	const char *name = f->rows[r][col];
	for (int i = 0; i < n; i++)
		if (*name && strcmp(f->rows[rows[i]][col], name) == 0)
			return true;
	return false;
}

static bool same_cell(const csv_file *f, int col, int a, int b)
{
	return col < 0 || strcmp(f->rows[a][col], f->rows[b][col]) == 0;
}

typedef struct {
	const char *key; /* the play column's text */
	int row;
} keyed_row;

static int by_play(const void *a, const void *b)
{
	const keyed_row *x = a, *y = b;
	int cmp = strcmp(x->key, y->key);
	return cmp ? cmp : (x->row > y->row) - (x->row < y->row);
}

/* The rows of each play, in the order of their first rows: rows[] holds them play after
 * play, starts[k] where play k begins (starts[nplays] = nrows). Caller frees both. */
static int group_rows(const csv_file *f, const csv_cols *c, int **rows_out, int **starts_out)
{
	int n = f->nrows, np = 0;
	int *rows = xcalloc((size_t)n + 1, sizeof *rows),
	    *starts = xcalloc((size_t)n + 2, sizeof *starts);
	if (c->per_player && c->col[CR_PLAY] >= 0) {
		/* by the play column: sort, group, then order the groups by their first row */
		keyed_row *order = xcalloc((size_t)n + 1, sizeof *order);
		int *gid = xcalloc((size_t)n + 1, sizeof *gid); /* each row's play: its first row */
		for (int i = 0; i < n; i++)
			order[i] = (keyed_row){f->rows[i][c->col[CR_PLAY]], i};
		qsort(order, (size_t)n, sizeof *order, by_play);
		for (int i = 0, first = 0; i < n; i++) {
			if (i == 0 || *order[i].key == '\0' ||
			    strcmp(order[i].key, order[i - 1].key) != 0)
				first = order[i].row;
			gid[order[i].row] = first;
		}
		/* play after play, each in row order: walk the rows, emitting a group at its first
		 */
		int *count = xcalloc((size_t)n + 1, sizeof *count),
		    *pos = xcalloc((size_t)n + 1, sizeof *pos);
		for (int i = 0; i < n; i++)
			count[gid[i]]++;
		int at = 0;
		for (int i = 0; i < n; i++)
			if (gid[i] == i) {
				starts[np++] = at;
				pos[i] = at;
				at += count[i];
			}
		for (int i = 0; i < n; i++)
			rows[pos[gid[i]]++] = i;
		free(order), free(gid), free(count), free(pos);
	} else if (c->per_player) {
		for (int i = 0; i < n; i++) {
			int s = np ? starts[np - 1] : 0;
			bool joins = np > 0 && same_cell(f, c->col[CR_DATE], i, i - 1) &&
			             same_cell(f, c->col[CR_TIME], i, i - 1) &&
			             same_cell(f, c->col[CR_GAME], i, i - 1) &&
			             same_cell(f, c->col[CR_LOCATION], i, i - 1) &&
			             !seated(f, c->col[CR_PLAYER], rows + s, i - s, i);
			if (!joins)
				starts[np++] = i;
			rows[i] = i;
		}
	} else {
		for (int i = 0; i < n; i++)
			rows[i] = starts[np++] = i;
	}
	starts[np] = n;
	*rows_out = rows;
	*starts_out = starts;
	return np;
}

int csv_plays(league_import *im, const csv_file *f, const csv_mapping *m)
{
	csv_cols c;
	locate(f, m, &c);
	if (c.col[CR_DATE] < 0)
		return im->rule = "csv-mapping", io_fail(im, "columns", "no column holds the date");
	if (c.col[CR_GAME] < 0 && m->game == NULL)
		return im->rule = "csv-mapping",
		       io_fail(im, "game",
		               "no column holds the game: choose one, or name the game of "
		               "every play");
	bool ambiguous;
	if (m->dates == CSV_DATES_AUTO) {
		(void)csv_date_order(f, c.col[CR_DATE], &ambiguous);
		if (ambiguous)
			return im->rule = "csv-mapping",
			       io_fail(
			           im, "dates",
			           "the dates could be day/month or month/day (03/04/2024): say "
			           "which");
	}
	int *rows, *starts;
	int np = group_rows(f, &c, &rows, &starts);
	if (np > IMPORT_MAX_PLAYS) {
		free(rows), free(starts);
		return io_fail(im, "", "too many plays in one file (100000 at most)");
	}
	im->csv_lines = xcalloc((size_t)np + 1, sizeof *im->csv_lines);
	for (int k = 0; k < np; k++) {
		im->csv_lines[k] = f->lines[rows[starts[k]]];
		(void)read_play(im, f, m, &c, rows + starts[k], starts[k + 1] - starts[k], k);
	}
	free(rows);
	free(starts);
	return 0;
}

int csv_parse(league_import *im, const char *body, size_t len)
{
	csv_file f;
	csv_mapping m;
	int rc = csv_read(im, body, len, &f);
	if (rc == 0)
		rc = csv_mapping_parse(im, &f, im->csv_columns, im->csv_dates, im->csv_game, &m);
	if (rc == 0)
		rc = csv_plays(im, &f, &m);
	csv_file_free(&f);
	return rc;
}
