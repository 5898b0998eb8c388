/* A spreadsheet's columns mapped to a play's fields (csvin.h): the mapping proposed from the
 * header, a mapping as the client sends it, and the rows read into plays. Two layouts: a row
 * per player per play (roles without a seat: player, score, rank, winner; rows grouped into
 * plays by a play column, else consecutive rows with the same date, time, game and location
 * and no player twice) and a row per play (seats numbered: player:1, score:1, player:2 …).
 * Our own export.csv is the first layout with a play column. */
#include "leagues/csvin.h"

#include "base/oom.h"
#include "base/sbuf.h"
#include "leagues/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const KIND_NAMES[] = {
    [CR_NONE] = "",
    [CR_PLAY] = "play",
    [CR_DATE] = "date",
    [CR_TIME] = "time",
    [CR_GAME] = "game",
    [CR_BGG_ID] = "bgg_id",
    [CR_DURATION] = "duration",
    [CR_COOPERATIVE] = "cooperative",
    [CR_LOCATION] = "location",
    [CR_NOTES] = "notes",
    [CR_WINNER_NAME] = "winner_name",
    [CR_IGNORED] = "ignored",
    [CR_INCOMPLETE] = "incomplete",
    [CR_PLAYER] = "player",
    [CR_SCORE] = "score",
    [CR_RANK] = "rank",
    [CR_WINNER] = "winner",
    [CR_UNRATED] = "unrated",
    [CR_TEAM] = "team",
};
enum { NKINDS = sizeof KIND_NAMES / sizeof KIND_NAMES[0] };

/* Header words (lower case, letters and digits only) and what they propose. "winner" words
 * propose a flag or a name by what the column holds (propose_winner). */
static const struct {
	const char *word;
	csv_kind kind;
} WORDS[] = {
    {"play", CR_PLAY},         {"playid", CR_PLAY},
    {"playuuid", CR_PLAY},     {"uuid", CR_PLAY},
    {"partie", CR_PLAY},       {"match", CR_PLAY},
    {"matchid", CR_PLAY},      {"date", CR_DATE},
    {"playdate", CR_DATE},     {"dateplayed", CR_DATE},
    {"played", CR_DATE},       {"playedat", CR_DATE},
    {"datum", CR_DATE},        {"jour", CR_DATE},
    {"fecha", CR_DATE},        {"data", CR_DATE},
    {"when", CR_DATE},         {"day", CR_DATE},
    {"time", CR_TIME},         {"heure", CR_TIME},
    {"uhrzeit", CR_TIME},      {"zeit", CR_TIME},
    {"hora", CR_TIME},         {"game", CR_GAME},
    {"gamename", CR_GAME},     {"bggname", CR_GAME},
    {"boardgame", CR_GAME},    {"jeu", CR_GAME},
    {"spiel", CR_GAME},        {"juego", CR_GAME},
    {"gioco", CR_GAME},        {"title", CR_GAME},
    {"bggid", CR_BGG_ID},      {"objectid", CR_BGG_ID},
    {"duration", CR_DURATION}, {"durationmin", CR_DURATION},
    {"length", CR_DURATION},   {"minutes", CR_DURATION},
    {"playtime", CR_DURATION}, {"dauer", CR_DURATION},
    {"durée", CR_DURATION},    {"coopératif", CR_COOPERATIVE},
    {"duracion", CR_DURATION}, {"cooperative", CR_COOPERATIVE},
    {"coop", CR_COOPERATIVE},  {"location", CR_LOCATION},
    {"lieu", CR_LOCATION},     {"ort", CR_LOCATION},
    {"venue", CR_LOCATION},    {"where", CR_LOCATION},
    {"notes", CR_NOTES},       {"note", CR_NOTES},
    {"comments", CR_NOTES},    {"comment", CR_NOTES},
    {"commentaire", CR_NOTES}, {"remarks", CR_NOTES},
    {"player", CR_PLAYER},     {"playername", CR_PLAYER},
    {"name", CR_PLAYER},       {"joueur", CR_PLAYER},
    {"spieler", CR_PLAYER},    {"team", CR_PLAYER},
    {"jugador", CR_PLAYER},    {"giocatore", CR_PLAYER},
    {"p", CR_PLAYER},          {"score", CR_SCORE},
    {"points", CR_SCORE},      {"pts", CR_SCORE},
    {"punkte", CR_SCORE},      {"vp", CR_SCORE},
    {"puntos", CR_SCORE},      {"punti", CR_SCORE},
    {"rank", CR_RANK},         {"place", CR_RANK},
    {"position", CR_RANK},     {"rang", CR_RANK},
    {"platz", CR_RANK},        {"placement", CR_RANK},
    {"winner", CR_WINNER},     {"winners", CR_WINNER},
    {"won", CR_WINNER},        {"win", CR_WINNER},
    {"gagnant", CR_WINNER},    {"sieger", CR_WINNER},
    {"victoire", CR_WINNER},   {"ganador", CR_WINNER},
    {"team", CR_TEAM},         {"equipe", CR_TEAM},
};

/* Our own export.csv (csv.c): read back as written. */
static const char *const EXPORT_HEADER[] = {
    "play",         "date",         "day",          "time",       "game",
    "bgg_id",       "duration_min", "cooperative",  "location",   "player",
    "seat",         "score",        "rank",         "winner",     "rating_mu",
    "rating_sigma", "notes",        "ignored",      "incomplete", "unrated",
    "role",         "team",         "start_player", "new_player", "start_position"};
static const csv_kind EXPORT_KINDS[] = {
    CR_PLAY,        CR_DATE,     CR_NONE,   CR_NONE,    CR_GAME,       CR_BGG_ID,  CR_DURATION,
    CR_COOPERATIVE, CR_LOCATION, CR_PLAYER, CR_NONE,    CR_SCORE,      CR_RANK,    CR_WINNER,
    CR_NONE,        CR_NONE,     CR_NOTES,  CR_IGNORED, CR_INCOMPLETE, CR_UNRATED, CR_NONE,
    CR_TEAM,        CR_NONE,     CR_NONE,   CR_NONE};
/* the columns of every export (the seat's details last, not read back), and of the exports
 * before ignored, incomplete, unrated and the seat's details */
enum { EXPORT_COLS = sizeof EXPORT_HEADER / sizeof EXPORT_HEADER[0], EXPORT_COLS_FIRST = 17 };

static bool is_seat_kind(csv_kind k)
{
	return k >= CR_PLAYER;
}

void csv_role_name(csv_role r, char buf[24])
{
	if (is_seat_kind(r.kind) && r.seat > 0)
		snprintf(buf, 24, "%s:%d", KIND_NAMES[r.kind], r.seat);
	else
		snprintf(buf, 24, "%s", KIND_NAMES[r.kind]);
}

/* ---- the proposed mapping ---- */

/* A header cell as a word (ASCII letters lower-cased, other ASCII left out, other bytes
 * kept) and the number it ends with (0: none). */
static void header_word(const char *h, char w[64], int *seat)
{
	size_t n = 0;
	for (; *h && n < 63; h++) {
		unsigned char c = (unsigned char)*h;
		if (c >= 'A' && c <= 'Z')
			w[n++] = (char)(c + 32);
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80)
			w[n++] = (char)c;
	}
	w[n] = '\0';
	*seat = 0;
	size_t d = n;
	while (d > 0 && w[d - 1] >= '0' && w[d - 1] <= '9')
		d--;
	if (d > 0 && d < n && n - d <= 2) {
		*seat = atoi(w + d);
		w[d] = '\0';
	}
}

/* A winner column: flags when most of its filled cells are flags, else the winner's name. */
static csv_kind propose_winner(const csv_file *f, int col)
{
	int filled = 0, flags = 0;
	for (int i = 0; i < f->nrows && i < 1000; i++) {
		const char *c = f->rows[i][col];
		if (*c == '\0')
			continue;
		filled++;
		flags += csv_flag(c) >= 0;
	}
	return flags * 5 >= filled * 4 ? CR_WINNER : CR_WINNER_NAME;
}

static csv_role propose_column(const csv_file *f, int col)
{
	char w[64];
	int seat;
	header_word(f->header[col], w, &seat);
	for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++) {
		if (strcmp(w, WORDS[i].word) != 0)
			continue;
		csv_kind k = WORDS[i].kind == CR_WINNER ? propose_winner(f, col) : WORDS[i].kind;
		if (seat > 0 && (!is_seat_kind(k) || seat > CSV_MAX_SEATS))
			return (csv_role){CR_NONE, 0};
		return (csv_role){k, is_seat_kind(k) ? seat : 0};
	}
	return (csv_role){CR_NONE, 0};
}

/* Several unnumbered player columns ("Player, Score, Player, Score"): seats in order. */
static void number_seats(csv_mapping *m, int ncols)
{
	int players = 0, numbered = 0;
	for (int c = 0; c < ncols; c++) {
		players += m->roles[c].kind == CR_PLAYER && m->roles[c].seat == 0;
		numbered += is_seat_kind(m->roles[c].kind) && m->roles[c].seat > 0;
	}
	if (numbered > 0) { /* a row per play: unnumbered seat columns are left out */
		for (int c = 0; c < ncols; c++)
			if (is_seat_kind(m->roles[c].kind) && m->roles[c].seat == 0)
				m->roles[c] = (csv_role){CR_NONE, 0};
		return;
	}
	if (players < 2)
		return;
	int seat = 0;
	for (int c = 0; c < ncols; c++) {
		csv_role *r = &m->roles[c];
		if (!is_seat_kind(r->kind))
			continue;
		seat += r->kind == CR_PLAYER;
		r->seat = seat > 0 ? seat : 1;
	}
}

void csv_propose(const csv_file *f, csv_mapping *m)
{
	memset(m, 0, sizeof *m);
	int n = f->ncols < CSV_MAX_COLS ? f->ncols : CSV_MAX_COLS;
	bool ours = f->ncols == EXPORT_COLS || f->ncols == EXPORT_COLS_FIRST;
	for (int c = 0; ours && c < n; c++)
		ours = strcmp(f->header[c], EXPORT_HEADER[c]) == 0;
	for (int c = 0; c < n; c++)
		m->roles[c] = ours ? (csv_role){EXPORT_KINDS[c], 0} : propose_column(f, c);
	if (!ours)
		number_seats(m, n);
	/* one column for each role of the play (the first), one for each role of a seat */
	for (int c = 0; c < n; c++)
		for (int k = 0; k < c; k++)
			if (m->roles[c].kind != CR_NONE && m->roles[k].kind == m->roles[c].kind &&
			    m->roles[k].seat == m->roles[c].seat) {
				m->roles[c] = (csv_role){CR_NONE, 0};
				break;
			}
	bool ambiguous;
	for (int c = 0; c < n; c++)
		if (m->roles[c].kind == CR_DATE)
			m->dates = csv_date_order(f, c, &ambiguous);
}

/* ---- a mapping as sent ---- */

static int map_fail(league_import *im, const char *field, const char *detail)
{
	im->rule = "csv-mapping";
	return io_fail(im, field, detail);
}

static bool parse_role(const char *s, size_t len, csv_role *r)
{
	char t[24];
	if (len >= sizeof t)
		return false;
	memcpy(t, s, len);
	t[len] = '\0';
	char *colon = strchr(t, ':');
	int seat = 0;
	if (colon) {
		*colon = '\0';
		char *end;
		long v = strtol(colon + 1, &end, 10);
		if (*end != '\0' || colon[1] == '\0' || v < 1 || v > CSV_MAX_SEATS)
			return false;
		seat = (int)v;
	}
	for (int k = 0; k < NKINDS; k++)
		if (strcmp(t, KIND_NAMES[k]) == 0 && (seat == 0 || is_seat_kind((csv_kind)k))) {
			*r = (csv_role){(csv_kind)k, seat};
			return true;
		}
	return false;
}

static int parse_columns(league_import *im, const csv_file *f, const char *columns, csv_mapping *m)
{
	int c = 0, numbered = 0, unnumbered = 0;
	for (const char *p = columns;; c++) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char d[160];
		if (c >= f->ncols || c >= CSV_MAX_COLS) {
			snprintf(d, sizeof d, "the mapping names more columns than the file's %d",
			         f->ncols);
			return map_fail(im, "columns", d);
		}
		if (!parse_role(p, len, &m->roles[c])) {
			snprintf(d, sizeof d,
			         "column %d: \"%.*s\" is no role (play, date, game, player, "
			         "score, player:2 …)",
			         c + 1, (int)(len > 24 ? 24 : len), p);
			return map_fail(im, "columns", d);
		}
		csv_role r = m->roles[c];
		numbered += is_seat_kind(r.kind) && r.seat > 0;
		unnumbered += is_seat_kind(r.kind) && r.seat == 0;
		for (int k = 0; k < c; k++)
			if (r.kind != CR_NONE && m->roles[k].kind == r.kind &&
			    m->roles[k].seat == r.seat) {
				char name[24];
				csv_role_name(r, name);
				snprintf(d, sizeof d, "columns %d and %d are both \"%s\"", k + 1,
				         c + 1, name);
				return map_fail(im, "columns", d);
			}
		if (!e)
			break;
		p = e + 1;
	}
	if (numbered && unnumbered)
		return map_fail(im, "columns",
		                "a mapping is a row per player (player, score …) or a row per play "
		                "(player:1, score:1, player:2 …), not both");
	return 0;
}

int csv_mapping_parse(league_import *im, const csv_file *f, const char *columns, const char *dates,
                      const char *game, csv_mapping *m)
{
	memset(m, 0, sizeof *m);
	if (columns == NULL) {
		csv_propose(f, m);
	} else if (parse_columns(im, f, columns, m) != 0) {
		return -1;
	}
	if (dates && *dates) {
		if (strcmp(dates, "dmy") == 0)
			m->dates = CSV_DATES_DMY;
		else if (strcmp(dates, "mdy") == 0)
			m->dates = CSV_DATES_MDY;
		else
			return map_fail(im, "dates",
			                "dates is dmy (day first) or mdy (month first)");
	}
	if (game && *game) {
		if (strlen(game) > GAME_MAX)
			return map_fail(im, "game", "a game's name has at most 256 bytes");
		m->game = game;
	}
	return 0;
}
