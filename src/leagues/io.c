/* What the league files' exports and imports share (io.h): text helpers for CSV and numbers
 * written as typed, the rows an export reads, a file reply; the import's arena and the checks
 * every format's parser makes (ranks, names). */
#include "leagues/io.h"
#include "leagues/access.h"
#include "leagues/store.h"

#include "json/jx.h"

#include <ctype.h>
#include <sodium.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text helpers ---- */

/* A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text cells that
 * a spreadsheet would run as a formula get a leading apostrophe: those starting = + - @, and
 * TAB or CR (OWASP's list: spreadsheets skip them and read the formula behind). */
void io_csv_cell(sbuf *s, const char *v, bool text)
{
	if (v == NULL)
		v = "";
	bool quote = strpbrk(v, ",\"\r\n") != NULL;
	bool formula = text && *v != '\0' && strchr("=+-@\t\r", *v) != NULL;
	if (quote)
		sb_str(s, "\"");
	if (formula)
		sb_str(s, "'");
	for (const char *p = v; *p; p++) {
		if (*p == '"')
			sb_str(s, "\"");
		sb_add(s, p, 1);
	}
	if (quote)
		sb_str(s, "\"");
}

/* A number column as text (NULL: SQL NULL) as an integer, 0 when NULL. */
int64_t io_int_text(const char *v)
{
	return v ? atoll(v) : 0;
}

/* A stored number as text (NULL: SQL NULL), or NULL when it is not a finite number: a double
 * precision column takes 'Infinity' and 'NaN', which neither JSON nor a score can carry. */
const char *io_finite_text(const char *v)
{
	return v && isfinite(strtod(v, NULL)) ? v : NULL;
}

json_object *io_num_text(const char *v)
{
	v = io_finite_text(v);
	if (v == NULL)
		return NULL;
	double d = strtod(v, NULL);
	if (d == floor(d) && fabs(d) < 9e15)
		return jx_int((int64_t)d);
	return jx_double(d);
}

/* The shortest decimal that reads back to d: "45", "0.1" (not "0.10000000000000001"), "-2.5";
 * without an exponent (which a score as typed never has) from 1e-6 to 1e17. */
void io_shortest(double d, char buf[IO_NUM_MAX])
{
	if (d == 0) {
		snprintf(buf, IO_NUM_MAX, "0"); /* and -0 */
		return;
	}
	if (d == floor(d) && fabs(d) < 1e17) {
		snprintf(buf, IO_NUM_MAX, "%.0f", d);
		return;
	}
	for (int dec = 1; fabs(d) >= 1e-6 && fabs(d) < 1e17 && dec <= 24; dec++) {
		snprintf(buf, IO_NUM_MAX, "%.*f", dec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, IO_NUM_MAX, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

/* One decimal number at *p (digits, an optional fraction; no sign, exponent, "inf" or "nan"):
 * its value added with sign into *sum and *p moved past it; false when *p holds none. */
static bool score_term(const char **p, int sign, double *sum)
{
	const char *s = *p, *q = s;
	while (*q >= '0' && *q <= '9')
		q++;
	size_t whole = (size_t)(q - s);
	if (*q == '.') {
		q++;
		while (*q >= '0' && *q <= '9')
			q++;
	}
	size_t len = (size_t)(q - s);
	if (len == 0 || (whole == 0 && len == 1) || len > 64)
		return false;
	char t[80];
	memcpy(t, s, len);
	t[len] = '\0';
	*sum += sign * strtod(t, NULL);
	*p = q;
	return true;
}

/* A score as typed in BG Stats: a decimal number or a sum of them ("20+16+16", "-10+7+22"),
 * the trailing sign of a sum left unfinished ignored ("86+84+"); spaces between the parts.
 * True with the total in *out; false for anything else (words, "", "1e400", "12,5"). */
bool io_score_parse(const char *s, double *out)
{
	double sum = 0;
	int terms = 0;
	const char *p = s;
	if (strlen(s) > 256)
		return false;
	for (;;) {
		int sign = 1, signs = 0;
		while (*p == ' ' || *p == '+' || *p == '-') {
			if (*p != ' ') {
				sign = *p == '-' ? -sign : sign;
				signs++;
			}
			p++;
		}
		if (*p == '\0')
			break; /* the end, after an unfinished sum's sign or none */
		if (signs > 1 || (terms > 0 && signs == 0) || !score_term(&p, sign, &sum))
			return false;
		terms++;
	}
	if (terms == 0 || !isfinite(sum))
		return false;
	*out = sum == 0 ? 0 : sum; /* no "-0" */
	return true;
}

/* A score as BG Stats writes it: what was typed (text), else the shortest decimal of the
 * stored number (v: its text from the database, NULL for none), else null. */
json_object *io_score_json(const char *v, const char *text)
{
	if (text)
		return jx_str(text);
	v = io_finite_text(v);
	if (v == NULL)
		return NULL;
	char t[IO_NUM_MAX];
	io_shortest(strtod(v, NULL), t);
	return jx_str(t);
}

/* Is s a UUID in RFC 4122 text form: 8-4-4-4-12 hex digits (either case)? */
bool io_is_uuid(const char *s)
{
	for (int i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
			return false;
	}
	return s[36] == '\0';
}

/* A UUID of version 4's form derived from (kind, a, b): the same inputs give the same UUID, in
 * every process (BLAKE2b of them), so an export names a play, player, game or location of ours
 * the same way each time and an import can recognise it. */
void io_derived_uuid(const char *kind, const char *a, const char *b, char out[IO_UUID_LEN + 1])
{
	unsigned char h[16];
	crypto_generichash_state st;
	crypto_generichash_init(&st, NULL, 0, sizeof h);
	const char *parts[3] = {kind, a, b ? b : ""};
	for (int i = 0; i < 3; i++) /* each part with its terminating NUL: unambiguous */
		crypto_generichash_update(&st, (const unsigned char *)parts[i],
		                          strlen(parts[i]) + 1);
	crypto_generichash_final(&st, h, sizeof h);
	h[6] = (unsigned char)((h[6] & 0x0f) | 0x40); /* version 4 */
	h[8] = (unsigned char)((h[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	static const char hex[] = "0123456789abcdef";
	int k = 0;
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = hex[h[i] >> 4];
		out[k++] = hex[h[i] & 15];
	}
	out[k] = '\0';
}

/* A stored play's uuid as an export writes it: itself when in RFC 4122 form, else derived. */
void io_play_uuid(const char *stored, char out[IO_UUID_LEN + 1])
{
	if (io_is_uuid(stored))
		snprintf(out, IO_UUID_LEN + 1, "%s", stored);
	else
		io_derived_uuid("play", stored, NULL, out);
}

/* Reply body of another content type (text owned by the caller, copied). */
int io_reply_file(http_resp *resp, const char *ctype, const char *filename, char *body, size_t len)
{
	resp->status = 200;
	resp->body = body; /* ownership passes to the response */
	resp->body_len = len;
	resp->content_type = ctype;
	char cd[128];
	snprintf(cd, sizeof cd, "attachment; filename=\"%s\"", filename);
	http_resp_header(resp, "Content-Disposition", cd);
	return http_resp_header(resp, "Cache-Control", "no-store");
}

/* ---- export ---- */

/* The league's export rows into *rows (caller clears), or false after a reply: every play,
 * a play without results as one row with has_result false. */
bool io_export_rows_all(const http_req *req, http_resp *resp, db_conn *c, const account *acc,
                        league_access *a, db_export_rows *rows)
{
	memset(rows, 0, sizeof *rows);
	if (!access_as(resp, c, acc, req->params[0], false, a))
		return false;
	if (db_league_export_rows(c, req->params[0], rows) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	return true;
}

/* ---- import: parsed and checked completely before the transaction ---- */

void io_import_free(league_import *im)
{
	json_object_put(im->root);
	for (size_t i = 0; i < im->narena; i++)
		free(im->arena[i]);
	free(im->arena);
	for (int i = 0; i < im->nplays; i++)
		free(im->plays[i].res);
	free(im->plays);
	free(im->members);
	free(im->seasons);
	free(im->cache);
	for (int i = 0; i < im->nskips; i++)
		free(im->skips[i].detail);
	free(im->skips);
	free(im->games);
	free(im->locations);
	free(im->players);
	free(im->csv_lines);
}

void io_skip(league_import *im, int index, const char *id, const char *reason, const char *detail)
{
	im->skips = xrealloc(im->skips, (size_t)(im->nskips + 1) * sizeof *im->skips);
	im->skips[im->nskips++] =
	    (imp_skip){.index = index, .id = id, .reason = reason, .detail = xstrdup(detail)};
}

const char *io_dup(league_import *im, const char *s)
{
	im->arena = xrealloc(im->arena, (im->narena + 1) * sizeof *im->arena);
	return im->arena[im->narena++] = xstrdup(s);
}

int io_fail(league_import *im, const char *field, const char *detail)
{
	snprintf(im->field, sizeof im->field, "%s", field);
	snprintf(im->detail, sizeof im->detail, "%s", detail);
	return -1;
}

imp_play *io_new_play(league_import *im, int index, int nres)
{
	im->plays = xrealloc(im->plays, (size_t)(im->nplays + 1) * sizeof *im->plays);
	imp_play *p = &im->plays[im->nplays++];
	memset(p, 0, sizeof *p);
	p->index = index;
	p->res = xcalloc((size_t)nres, sizeof *p->res);
	p->p.duration_min = -1;
	return p;
}

/* Ranks an imported play (io.h). */
int io_rank(league_import *im, imp_play *ip, bool lowest_wins, const char *field)
{
	int n = ip->nres, ranked = 0, scored = 0, flagged = 0, flags = 0;
	for (int i = 0; i < n; i++) {
		ranked += ip->res[i].r.has_rank;
		scored += ip->res[i].r.has_score;
		flagged += ip->res[i].r.has_winner && ip->res[i].r.winner;
		flags += ip->res[i].r.has_winner;
	}
	if (ranked < n) { /* ranks for only some players: scores and winner flags decide */
		for (int i = 0; i < n; i++)
			ip->res[i].r.has_rank = false;
		ranked = 0;
	}
	bool done = ranked == n;
	if (!ip->p.cooperative && ranked < n && scored == n) {
		for (int pass = 0; pass < 2; pass++) {
			bool low = lowest_wins != (pass == 1), agrees = true;
			for (int i = 0; i < n; i++) {
				int better = 0;
				for (int j = 0; j < n; j++)
					better += low ? ip->res[j].r.score < ip->res[i].r.score
					              : ip->res[j].r.score > ip->res[i].r.score;
				ip->res[i].r.rank = better + 1;
				if (ip->res[i].r.has_winner && ip->res[i].r.winner && better > 0)
					agrees = false;
			}
			if (agrees || flagged == 0) {
				for (int i = 0; i < n; i++)
					ip->res[i].r.has_rank = true;
				done = true;
				break;
			}
		}
	}
	if (!done && !ip->p.cooperative && flagged > 0 && flags == n) {
		/* the winner flags disagree with the scores either way (a winner chosen by hand):
		 * the flags decide */
		for (int i = 0; i < n; i++) {
			ip->res[i].r.rank = ip->res[i].r.winner ? 1 : 2;
			ip->res[i].r.has_rank = true;
		}
	}
	league_result tmp[IMPORT_MAX_RESULTS];
	for (int i = 0; i < n; i++)
		tmp[i] = ip->res[i].r;
	ip->p.results = tmp;
	ip->p.nresults = n;
	const char *why = NULL;
	bool ok = store_play_rank(&ip->p, &why);
	for (int i = 0; i < n; i++)
		ip->res[i].r = tmp[i];
	ip->p.results = NULL;
	return ok ? 0 : io_fail(im, field, why);
}

int io_check_names(league_import *im, imp_play *ip, const char *field)
{
	for (int i = 0; i < ip->nres; i++) {
		size_t len = strlen(ip->res[i].name);
		if (len == 0 || len > NAME_MAX_BYTES)
			return io_fail(im, field, "a player's name must have 1 to 256 bytes");
		for (int k = 0; k < i; k++)
			if (strcmp(ip->res[k].name, ip->res[i].name) == 0)
				return io_fail(im, field, "a player appears twice in one play");
	}
	return 0;
}

/* ---- seat details ---- */

/* The string member k of o, or NULL when it has none or it is empty or not a string. */
static const char *extra_str(json_object *o, const char *k)
{
	json_object *v;
	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string) ||
	    json_object_get_string_len(v) == 0)
		return NULL;
	return json_object_get_string(v);
}

/* The boolean member k of o as JSON, or null. */
static json_object *extra_bool(json_object *o, const char *k)
{
	json_object *v;
	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_boolean))
		return NULL;
	return jx_bool(json_object_get_boolean(v));
}

json_object *io_seat_details(const char *extra)
{
	json_object *x = jx_obj();
	json_object *e = extra ? jx_parse_stored(extra) : NULL;
	bool obj = json_object_is_type(e, json_type_object);
	jx_set(x, "role", jx_str_or_null(obj ? extra_str(e, "role") : NULL));
	jx_set(x, "start_player", obj ? extra_bool(e, "startPlayer") : NULL);
	jx_set(x, "new_player", obj ? extra_bool(e, "newPlayer") : NULL);
	jx_set(x, "start_position", jx_str_or_null(obj ? extra_str(e, "startPosition") : NULL));
	json_object_put(e);
	return x;
}
