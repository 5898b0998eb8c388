/* Printable PDFs drawn with libharu: pure renderers, data in, PDF bytes out.
 *
 * No database, no HTTP. Everything drawn comes from the loaded template data: the sheet itself
 * from er_data (templates/er/sheet.json, cards, specialists) and the print layout, colours,
 * fonts and the English/French labels from templates/er/print.json (pdf_print). The only I/O
 * is libharu reading the TrueType fonts named in print.json.
 *
 * Use: pdf_doc_begin(), then any pages (pdf_er_blank_pages, pdf_er_filled_page,
 * pdf_er_ranking_page), then pdf_doc_finish() which returns the bytes and frees the document.
 * Ownership: a pdf_doc belongs to its caller until pdf_doc_finish/pdf_doc_free; every pointer
 * passed to a page function is borrowed for the call only. Documents share nothing, so any
 * number of threads may render at once. */
#ifndef PDF_H
#define PDF_H

#include "rules/er.h"

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct json_object;

typedef enum { PDF_A4 = 0, PDF_LETTER = 1 } pdf_paper;
typedef enum { PDF_EN = 0, PDF_FR = 1, PDF_LANGS = 2 } pdf_lang;

/* Label keys of print.json "labels".{en,fr}; every key is required in both languages. */
typedef enum {
	PL_TITLE,
	PL_SHEET,
	PL_PLAYER,
	PL_DATE,
	PL_LOBBY,
	PL_XRAY,
	PL_WARD,
	PL_STETHOSCOPES,
	PL_BLOOD_BAGS,
	PL_NURSES,
	PL_MORGUE,
	PL_SCORE,
	PL_FILLED_WARDS,
	PL_CRITICAL,
	PL_CARDIOLOGISTS,
	PL_RADIOLOGIST,
	PL_EPIDEMIOLOGIST,
	PL_TOTAL,
	PL_SPECIALISTS,
	PL_RANKING,
	PL_RANK,
	PL_SEAT,
	PL_GAME,
	PL_SCAN,
	PL_LEGEND,
	PL_MORGUE_EACH,
	PL_AUTHOR,
	PL_RED, /* the die colours, in words */
	PL_YELLOW,
	PL_GREEN,
	PL_COACH_TITLE, /* the coach's page (er_coach.c) */
	PL_COACH_BEST,
	PL_COACH_NOTE,    /* {width} */
	PL_COACH_PARTIAL, /* {n} {total} */
	PL_COACH_PARTIAL_NONE,
	PL_COACH_COSTLIEST,
	PL_COACH_TURN,
	PL_COACH_COST,
	PL_COACH_MOVE,
	PL_COACH_MISSED,
	PL_COACH_NONE,
	PL_COUNT
} pdf_label;

/* Colour keys of print.json "colours": the three die colours and wild in er_colour order. */
typedef enum { PC_RED, PC_YELLOW, PC_GREEN, PC_WILD, PC_LOBBY, PC_XRAY, PC_COUNT } pdf_colour_key;
typedef enum { PP_NONE, PP_DIAGONAL, PP_DOTS, PP_GRID } pdf_pattern;

typedef struct {
	float fill[3], ink[3];
	pdf_pattern pattern;
} pdf_colour;

typedef struct {
	int row, col; /* hex position (may lie outside the bed grid) */
} pdf_pos;

/* PDF_NAME_MAX: a player's name as printed with its seat — 64 characters of up to 4 UTF-8
 * bytes (api.md limits) and the label, never cut inside a character. */
enum {
	PDF_MAX_LOBBY = 16,
	PDF_LABEL_MAX = 128,
	PDF_TEXT_MAX = 256,
	PDF_PATH_MAX = 256,
	PDF_NAME_MAX = 512
};

/* print.json, loaded once (pdf_print_from_json); read-only afterwards. Fixed size, no pointers. */
typedef struct {
	char font[PDF_PATH_MAX]; /* TrueType file, embedded as a subset */
	float bold_stroke;       /* bold = outline stroked at this fraction of the size */
	float margin, hex_radius, grid_top, write_circle, pattern_step, wall_width;
	float box, ledger_row, score_box, qr_size;
	pdf_pos clipboard[ER_WARDS];
	int nlobby;
	int16_t lobby[PDF_MAX_LOBBY];
	pdf_colour colours[PC_COUNT];
	char labels[PDF_LANGS][PL_COUNT][PDF_LABEL_MAX]; /* UTF-8 */
	char lab_names[ER_LABS][8];                      /* sheet.json xray_labs[].id: "A", "B" */
	/* specialists.json "text".{en,fr}, indexed by er_spec_id */
	char spec_text[PDF_LANGS][ER_SPECIALISTS][PDF_TEXT_MAX];
} pdf_print;

/* Fills *out from print.json, sheet.json (the labs' names) and specialists.json (all
 * borrowed). Returns 0, or -1 with a message in err. */
int pdf_print_from_json(pdf_print *out, struct json_object *print, struct json_object *sheet,
                        struct json_object *specialists, char *err, size_t errlen);

/* Writes a slimmer copy of the TrueType font src to dst for embedding (font.c): glyphs and
 * metrics untouched; glyph names, licence text and layout tables dropped; the character map
 * cut to the Latin scripts, accents, punctuation and a few symbol blocks. 0, or -1 + err. */
int pdf_font_slim(const char *src, const char *dst, char *err, size_t errlen);
/* Replaces p's font path by a slim copy written into the existing directory dir
 * (dir/font.ttf). 0, or -1 + err. */
int pdf_print_slim_fonts(pdf_print *p, const char *dir, char *err, size_t errlen);

/* Parses "a4"/"letter" and "en"/"fr"; -1 if unknown. */
int pdf_paper_from_name(const char *s);
int pdf_lang_from_name(const char *s);

typedef struct pdf_doc pdf_doc;

/* A new document: metadata title (UTF-8), author (the print.json label), creation date
 * `created` (UTC), fonts embedded (subset) with the UTF-8 encoder, compression on. d and p are
 * borrowed and must outlive the document; d (the ER sheet layout) is needed only by the ER
 * pages and is NULL for a document without them (pads, reports). Returns NULL when libharu
 * fails (font missing). */
pdf_doc *pdf_doc_begin(const er_data *d, const pdf_print *p, pdf_paper paper, pdf_lang lang,
                       const char *title, time_t created);
/* Writes the document and frees it: 0 with *bytes (malloc'ed, the caller frees) and *len, or
 * -1 when libharu reported an error at any step (the document is freed either way). */
int pdf_doc_finish(pdf_doc *doc, unsigned char **bytes, size_t *len);
void pdf_doc_free(pdf_doc *doc);

/* count blank ER sheets to play on with a pencil, drawn once and shared by every page (a
 * pad). */
void pdf_er_blank_pages(pdf_doc *doc, int count);

/* A sheet written on: what a player's paper looks like at this point of the game. */
typedef struct {
	const er_sheet *sheet;
	const char *player;          /* UTF-8 name */
	const char *date;            /* as printed, e.g. "2026-11-23" */
	er_spec_id cardiologists[2]; /* ER_SPEC_NONE when unknown */
	er_spec_id radiologist, epidemiologist;
	const er_breakdown *score; /* NULL: score row left empty */
	const char *link;          /* QR code target; NULL: no QR code */
	int seat;                  /* 1-based, printed next to the name; 0: none */
} pdf_er_filled;
void pdf_er_filled_page(pdf_doc *doc, const pdf_er_filled *f);

/* The coach's page (er_coach.c): a seat's finished sheet beside the best sheet the search
 * found, the totals, the search's reach and the turns that cost the most. Built from the
 * analysis document of GET …/seats/{seat}/analysis (src/games/er/coach_pdf.c). */
typedef struct {
	int turn, cost;
	er_colour die;     /* the best move's die */
	int rolled;        /* its value */
	int ward, value;   /* the admission named (1-based ward), ward 0: to the morgue */
	int missed_label;  /* a pdf_label of the category that differs most, or -1 */
	int missed_points; /* the best line's points minus the player's in that category */
} pdf_er_coach_turn;

typedef struct {
	const char *player; /* UTF-8 */
	int seat;
	const char *game, *date;
	const er_sheet *mine, *best;
	const er_breakdown *mine_score, *best_score;
	int width, turns, searched;
	bool complete;
	int nturns; /* 0..3, the costliest first */
	pdf_er_coach_turn top[3];
	const char *link; /* QR code target; NULL: none */
} pdf_er_coach;
void pdf_er_coach_page(pdf_doc *doc, const pdf_er_coach *c);

/* One row of the ranking page, in rank order (ties share a rank). */
typedef struct {
	int rank;
	int seat;
	const char *player;
	er_breakdown score;
} pdf_er_rank;
void pdf_er_ranking_page(pdf_doc *doc, const char *game, const char *date, const pdf_er_rank *rows,
                         int nrows, const char *link);

/* ---- QR codes (qr.c), libqrencode ---- */

/* The QR code of data[0..len) (8-bit mode, level M) as an SVG document of black squares on a
 * white quiet zone; malloc'ed (the caller frees), *out_len its length. NULL when data does not
 * fit any QR version. */
char *pdf_qr_svg(const char *data, size_t len, size_t *out_len);

/* ---- score pads for Dice Hospital and Clinic (pad.c) ----
 * A table: a column per player, a row per value the digital entry asks, grouped by round, then
 * the end-game rows and the totals. The rows and every text come from the caller (the API reads
 * them from the games' encoders and templates/pads.json); blank cells are left to write on.
 */
enum { PDF_PAD_COLS = 4, PDF_PAD_ROWS = 96 };

typedef struct {
	const char *group; /* the round/section name printed in the left column; consecutive rows
	                      with an equal group string share one cell */
	const char *label; /* UTF-8 */
	bool tick;         /* a yes/no box; a non-empty cell ticks it */
	bool strong;       /* points and totals: bold on a shaded row */
	const char *cells[PDF_PAD_COLS]; /* written values; NULL or "" = empty */
} pdf_pad_row;

typedef struct {
	const char *title;               /* UTF-8 */
	const char *subtitle;            /* NULL: none */
	const char *player;              /* the column label, "Player" */
	int ncols;                       /* 1..PDF_PAD_COLS */
	const char *names[PDF_PAD_COLS]; /* NULL: a blank line to write the name on */
	int nrows;                       /* 1..PDF_PAD_ROWS */
	const pdf_pad_row *rows;
	const char *note;        /* a footer line (e.g. the unverified mark); NULL none */
	const char *link, *scan; /* QR code target and its caption; NULL: none */
} pdf_pad;
/* One page; every pointer is borrowed for the call. */
void pdf_pad_page(pdf_doc *doc, const pdf_pad *pad);

/* ---- the league report (league.c): standings with ratings, then recent plays ----
 * Texts come from the caller (templates/league-report.json); pages are added as needed. */
typedef enum {
	PLR_TITLE,     /* "League report" */
	PLR_STANDINGS, /* section headings */
	PLR_PLAYS,
	PLR_RANK, /* standings columns */
	PLR_PLAYER,
	PLR_GAMES,
	PLR_WINS,
	PLR_WIN_RATE,
	PLR_AVG_SCORE,
	PLR_AVG_RANK,
	PLR_RATING, /* μ − 3σ */
	PLR_MU_SIGMA,
	PLR_DATE, /* plays columns */
	PLR_GAME,
	PLR_RESULTS,
	PLR_PROVISIONAL, /* the footnote of the provisional mark */
	PLR_NONE,        /* "no plays yet" */
	PLR_COUNT
} pdf_league_label;

typedef struct {
	const char *name; /* UTF-8 */
	int games, wins;
	double win_rate, avg_rank, mu, sigma, ordinal;
	bool has_avg_score;
	double avg_score;
	bool provisional;
} pdf_league_row;

typedef struct {
	const char *date, *game;
	const char *results; /* UTF-8, e.g. "1. Ann 54 · 2. Bob 50" */
} pdf_league_play;

typedef struct {
	const char *labels[PLR_COUNT];
	const char *league;   /* the league's name */
	const char *subtitle; /* filters and date; NULL none */
	int nrows;
	const pdf_league_row *rows; /* in standings order */
	int nplays;
	const pdf_league_play *plays; /* newest first */
} pdf_league;
/* One or more pages; every pointer is borrowed for the call. */
void pdf_league_pages(pdf_doc *doc, const pdf_league *l);

/* ---- the league's pictures and the season recap (charts.c) ----
 * Drawn from the JSON the API answers (GET …/stats, GET …/seasons/{season}/recap), so the PDF
 * and the phone show one computation. Texts come from the caller
 * (templates/league-report.json). Readable in black and white: rating lines differ by dash
 * and marker and are named in a legend; the heat map prints each share. */
typedef enum {
	PCH_RATINGS, /* chart titles */
	PCH_SCORES,
	PCH_H2H,
	PCH_MONTHS,
	PCH_ORDINAL, /* axes */
	PCH_DATE,
	PCH_SCORE,
	PCH_PLAYS,
	PCH_MONTH,
	PCH_LOWEST, /* footnote of the lowest-wins mark */
	PCH_SHARE,  /* how to read the heat map */
	PCH_NONE,   /* nothing to draw */
	PCH_COUNT
} pdf_chart_label;

/* Two pages: the rating lines of the top five and the score spreads, then the head-to-head
 * heat map and the plays per month. stats and every string are borrowed for the call. */
void pdf_league_pictures(pdf_doc *doc, const struct json_object *stats, const char *heading,
                         const char *const labels[PCH_COUNT]);

typedef enum {
	PRC_TITLE, /* "Season recap" */
	PRC_PLAYS,
	PRC_CHAMPION,
	PRC_CLIMB,
	PRC_MOST_PLAYED,
	PRC_CLOSEST,
	PRC_STREAK,
	PRC_MARGIN,
	PRC_NONE, /* a highlight with nothing to say */
	PRC_COUNT
} pdf_recap_label;

/* The recap on two pages: the highlights, the rating lines and the plays per month, then the
 * score spreads and the heat map. */
void pdf_recap_pages(pdf_doc *doc, const struct json_object *recap, const char *const rl[PRC_COUNT],
                     const char *const labels[PCH_COUNT]);

#endif
