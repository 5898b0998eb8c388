/* Serving PDFs over HTTP (serve.h): the print layout and the font loaded at start, the paper
 * and language of a query, ETags for PDFs that depend only on their parameters, the reply, and
 * the front end's link printed as a QR code. */
#include "pdf/serve.h"

#include "base/log.h"
#include "base/oom.h"
#include "base/templates.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pdf_print g_print;         /* print.json, fonts pointing at g_font_dir */
static char g_font_dir[64];       /* private directory holding the slim font copy */
static time_t g_started;          /* creation date of blank pads */
static unsigned long long g_seed; /* start time folded into every ETag */

int pdf_api_init(const char *templates_dir)
{
	char err[256] = "";
	int rc = -1;
	json_object *print = templates_read(templates_dir, "er/print.json");
	json_object *specs = templates_read(templates_dir, "er/specialists.json");
	json_object *sheet = templates_read(templates_dir, "er/sheet.json");
	if (!print || !specs || !sheet)
		goto out;
	if (pdf_print_from_json(&g_print, print, sheet, specs, err, sizeof err) != 0)
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
	json_object_put(sheet);
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
	if (!http_etag_matches(http_header(req, "If-None-Match"), etag))
		return false;
	resp->status = 304;
	return true;
}

bool pdf_api_not_modified(const http_req *req, http_resp *resp, const char *key)
{
	return not_modified(req, resp, key);
}

time_t pdf_api_started(void)
{
	return g_started;
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

int pdf_api_finish(http_resp *resp, pdf_doc *doc, bool private_doc, const char *filename)
{
	if (doc == NULL)
		return http_reply_problem(resp, 500, "the PDF renderer could not start", NULL,
		                          NULL);
	unsigned char *bytes;
	size_t len;
	if (pdf_doc_finish(doc, &bytes, &len) != 0)
		return http_reply_problem(resp, 500, "the PDF could not be drawn", NULL, NULL);
	if (private_doc)
		http_resp_header(resp, "Cache-Control", "private, no-store");
	return pdf_api_reply(resp, bytes, len, filename);
}

/* ---- handlers ---- */

/* The link printed as a QR code: the origin other phones open this server at
 * (http_share_origin: PUBLIC_URL, a LAN address when the page was opened on localhost, else the
 * request's scheme and Host), then the front end's game route. No token: the paper must not
 * grant access to the game. */
void pdf_api_link(const http_req *req, const char *fragment, char *out, size_t cap)
{
	char origin[256];
	http_share_origin(req, origin, sizeof origin);
	snprintf(out, cap, "%s/#%s", origin, fragment);
}
