/* Printable PDFs and QR codes over HTTP (issue 9): the handlers parse the query, call the pure
 * renderers of src/pdf/ and hand the bytes to the HTTP layer.
 *
 *   GET /api/v1/er/sheets.pdf?count=N&paper=a4|letter&lang=en|fr   blank ER sheets, 1–100 pages
 *   GET /api/v1/qr.svg?data=…                                       a QR code (≤ 512 bytes)
 *
 * Both are stateless (no database). A blank pad is a function of its parameters and of the
 * templates loaded at start; its creation date is the start time, so the bytes — and the ETag
 * computed from the parameters — stay the same until a restart: If-None-Match gets 304. */
#include "api/pdf_api.h"

#include "api/er_api.h"
#include "base/log.h"
#include "base/oom.h"
#include "pdf/pdf.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { PDF_MAX_COUNT = 100, QR_MAX_DATA = 512 };

static pdf_print g_print;         /* print.json, fonts pointing at g_font_dir */
static char g_font_dir[64];       /* private directory holding the slim font copy */
static time_t g_started;          /* creation date of blank pads */
static unsigned long long g_seed; /* start time folded into every ETag */

static json_object *load(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/er/%s", dir, name);
	json_object *o = json_object_from_file(path);
	if (o == NULL)
		log_warn("templates: cannot read %s: %s", path, json_util_get_last_err());
	return o;
}

int pdf_api_init(const char *templates_dir)
{
	char err[256] = "";
	int rc = -1;
	json_object *print = load(templates_dir, "print.json");
	json_object *specs = load(templates_dir, "specialists.json");
	if (!print || !specs)
		goto out;
	if (pdf_print_from_json(&g_print, print, specs, err, sizeof err) != 0)
		goto fail;
	const char *tmp = getenv("TMPDIR");
	snprintf(g_font_dir, sizeof g_font_dir, "%s/dicehospital-pdf-XXXXXX",
	         tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	if (mkdtemp(g_font_dir) == NULL) {
		snprintf(err, sizeof err, "mkdtemp %s: %s", g_font_dir, strerror(errno));
		g_font_dir[0] = '\0';
		goto fail;
	}
	if (pdf_print_slim_fonts(&g_print, g_font_dir, err, sizeof err) != 0)
		goto fail;
	g_started = time(NULL);
	g_seed = (unsigned long long)g_started;
	rc = 0;
	goto out;
fail:
	log_warn("pdf: %s", err);
out:
	json_object_put(print);
	json_object_put(specs);
	return rc;
}

void pdf_api_shutdown(void)
{
	if (g_font_dir[0] == '\0')
		return;
	char path[sizeof g_font_dir + 16];
	snprintf(path, sizeof path, "%s/font.ttf", g_font_dir);
	unlink(path);
	rmdir(g_font_dir);
	g_font_dir[0] = '\0';
}

const pdf_print *pdf_api_print(void)
{
	return &g_print;
}

/* ---- query parameters ---- */

/* A whole decimal number lo..hi, or -1. */
static int parse_int(const char *s, int lo, int hi)
{
	if (s == NULL || *s == '\0' || strlen(s) > 4)
		return -1;
	int v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v >= lo && v <= hi ? v : -1;
}

/* paper and lang (defaults a4, en), or a 400 problem naming the parameter in resp. */
int pdf_api_paper_lang(const http_req *req, http_resp *resp, pdf_paper *paper, pdf_lang *lang)
{
	const char *p = http_query(req, "paper"), *l = http_query(req, "lang");
	int pv = p ? pdf_paper_from_name(p) : PDF_A4, lv = l ? pdf_lang_from_name(l) : PDF_EN;
	if (pv < 0) {
		http_reply_problem(resp, 400, "paper: a4 or letter", NULL, "/paper");
		return -1;
	}
	if (lv < 0) {
		http_reply_problem(resp, 400, "lang: en or fr", NULL, "/lang");
		return -1;
	}
	*paper = (pdf_paper)pv;
	*lang = (pdf_lang)lv;
	return 0;
}

/* ---- caching ---- */

/* Does the If-None-Match list (or "*") contain etag? Weak comparison (RFC 9110 §13.1.2). */
static bool etag_matches(const char *inm, const char *etag)
{
	size_t el = strlen(etag);
	for (const char *p = inm; p && *p;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return true;
		if (p[0] == 'W' && p[1] == '/')
			p += 2;
		if (strncmp(p, etag, el) == 0 &&
		    (p[el] == '\0' || p[el] == ',' || p[el] == ' ' || p[el] == '\t'))
			return true;
		p = strchr(p, ',');
	}
	return false;
}

/* FNV-1a over s, seeded: an ETag only has to change when the bytes can. */
static unsigned long long fnv(unsigned long long h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Sets ETag and Cache-Control; true (and a 304 filled in) when the client has this version. */
static bool not_modified(const http_req *req, http_resp *resp, const char *key)
{
	char etag[40];
	snprintf(etag, sizeof etag, "\"%016llx\"", fnv(0xcbf29ce484222325ULL ^ g_seed, key));
	http_resp_header(resp, "ETag", etag);
	http_resp_header(resp, "Cache-Control", "public, max-age=86400");
	if (!etag_matches(http_header(req, "If-None-Match"), etag))
		return false;
	resp->status = 304;
	return true;
}

/* Hands bytes (malloc'ed, ownership passes) to resp as a download. */
int pdf_api_reply(http_resp *resp, unsigned char *bytes, size_t len, const char *filename)
{
	resp->status = 200;
	resp->content_type = "application/pdf";
	resp->body = (char *)bytes;
	resp->body_len = len;
	char cd[128];
	snprintf(cd, sizeof cd, "inline; filename=\"%s\"", filename);
	return http_resp_header(resp, "Content-Disposition", cd);
}

/* ---- handlers ---- */

int api_er_sheets_pdf(const http_req *req, http_resp *resp)
{
	const char *c = http_query(req, "count");
	int count = c ? parse_int(c, 1, PDF_MAX_COUNT) : 1;
	if (count < 0)
		return http_reply_problem(resp, 400, "count: a whole number from 1 to 100", NULL,
		                          "/count");
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	char key[64];
	snprintf(key, sizeof key, "er-sheets|%d|%d|%d", count, (int)paper, (int)lang);
	if (not_modified(req, resp, key))
		return 0;
	pdf_doc *doc = pdf_doc_begin(er_api_data(), &g_print, paper, lang,
	                             g_print.labels[lang][PL_SHEET], g_started);
	if (doc == NULL)
		return http_reply_problem(resp, 500, "the PDF renderer could not start", NULL,
		                          NULL);
	for (int i = 0; i < count; i++)
		pdf_er_blank_page(doc);
	unsigned char *bytes;
	size_t len;
	if (pdf_doc_finish(doc, &bytes, &len) != 0)
		return http_reply_problem(resp, 500, "the PDF could not be drawn", NULL, NULL);
	return pdf_api_reply(resp, bytes, len, "er-sheets.pdf");
}

int api_qr_svg(const http_req *req, http_resp *resp)
{
	const char *data = http_query(req, "data");
	size_t n = data ? strlen(data) : 0;
	if (n == 0 || n > QR_MAX_DATA)
		return http_reply_problem(resp, 400, "data: 1 to 512 bytes to encode", NULL,
		                          "/data");
	char key[QR_MAX_DATA + 8];
	snprintf(key, sizeof key, "qr|%s", data);
	if (not_modified(req, resp, key))
		return 0;
	size_t len;
	char *svg = pdf_qr_svg(data, n, &len);
	if (svg == NULL)
		return http_reply_problem(resp, 400, "data: too long for a QR code", NULL, "/data");
	resp->status = 200;
	resp->content_type = "image/svg+xml";
	resp->body = svg;
	resp->body_len = len;
	return 0;
}
