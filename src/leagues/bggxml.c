/* BoardGameGeek plays XML (the XML API's /plays answer, or BGG's own export) read into an
 * import with libxml2: no DTD, no entity, no network. */
#include "leagues/import.h"

#include "base/log.h"
#include "base/oom.h"
#include "base/sbuf.h"
#include "db/leagues.h"
#include "json/jx.h"
#include "json/spec.h"
#include "leagues/import.h"
#include "leagues/internal.h"
#include "leagues/leagues.h"

#include <math.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

/* ---- BoardGameGeek plays XML (the XML API's /plays answer, or BGG's own export) ---- */

static const char *xml_attr(league_import *im, xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	if (v == NULL)
		return NULL;
	const char *s = lio_dup(im, (const char *)v);
	xmlFree(v);
	return s;
}

static xmlNode *xml_child(xmlNode *n, const char *name)
{
	for (xmlNode *c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
			return c;
	return NULL;
}

static bool all_digits(const char *s)
{
	if (s == NULL || *s == '\0' || strlen(s) > 18)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int parse_bgg_play(league_import *im, xmlNode *pl, int index)
{
	char f[64];
	snprintf(f, sizeof f, "/plays/play[%d]", index + 1);
	const char *id = xml_attr(im, pl, "id"), *date = xml_attr(im, pl, "date");
	xmlNode *item = xml_child(pl, "item"), *players = xml_child(pl, "players");
	if (!all_digits(id))
		return lio_fail(im, f, "a play needs its numeric id attribute");
	int n = 0;
	for (xmlNode *c = players ? players->children : NULL; c; c = c->next)
		n += c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "player") == 0;
	if (n < 1 || n > IMPORT_MAX_RESULTS)
		return lio_fail(im, f, "a play needs <players> with 1 to 64 <player>");
	const char *game = item ? xml_attr(im, item, "name") : NULL;
	if (!game || !*game || strlen(game) > NAME_MAX_BYTES)
		return lio_fail(im, f, "a play needs <item name=\"…\"> (1 to 256 bytes)");
	imp_play *ip = lio_new_play(im, index, n);
	league_play *p = &ip->p;
	char uuid[40];
	snprintf(uuid, sizeof uuid, "bgg-%s", id);
	p->uuid = lio_dup(im, uuid);
	p->source = "bggxml";
	p->game = game;
	const char *objectid = xml_attr(im, item, "objectid"), *length = xml_attr(im, pl, "length");
	if (all_digits(objectid) && atoll(objectid) > 0 && atoll(objectid) <= 2147483647)
		p->bgg_id = atoll(objectid);
	if (!date || strlen(date) != 10 || !league_parse_when(date, p->when))
		return lio_fail(im, f, "date must be YYYY-MM-DD");
	if (all_digits(length) && atoll(length) > 0 && atoll(length) <= 100000)
		p->duration_min = atoll(length);
	p->location = xml_attr(im, pl, "location");
	if (p->location && strlen(p->location) > NAME_MAX_BYTES)
		p->location = NULL;
	xmlNode *comments = xml_child(pl, "comments");
	if (comments) {
		xmlChar *t = xmlNodeGetContent(comments);
		p->notes = lio_dup(im, t ? (const char *)t : "");
		xmlFree(t);
		if (strlen(p->notes) > 4096)
			return lio_fail(im, f, "comments have at most 4096 bytes");
	}
	for (xmlNode *c = players->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "player") != 0)
			continue;
		imp_result *r = &ip->res[ip->nres++];
		const char *name = xml_attr(im, c, "name"), *user = xml_attr(im, c, "username");
		const char *score = xml_attr(im, c, "score"), *win = xml_attr(im, c, "win");
		char anon[32];
		snprintf(anon, sizeof anon, "Anonymous player %d", ip->nres);
		r->name = name && *name ? name : user && *user ? user : lio_dup(im, anon);
		if (score && *score) {
			char *end;
			char d[96];
			r->r.score = strtod(score, &end);
			if (*end || !isfinite(r->r.score)) {
				snprintf(d, sizeof d, "player %d's score must be a %snumber",
				         ip->nres, *end ? "" : "finite ");
				return lio_fail(im, f, d);
			}
			r->r.has_score = true;
		}
		r->r.has_winner = win != NULL;
		r->r.winner = win && strcmp(win, "1") == 0;
	}
	if (lio_check_names(im, ip, f) != 0 || lio_rank(im, ip, false, f) != 0)
		return -1;
	return 0;
}

static void xml_silent(void *ctx, const xmlError *e)
{
	(void)ctx;
	(void)e;
}

/* The markup declaration the file holds ("<!DOCTYPE", "<!ENTITY"), or NULL. BGG's plays XML
 * has no DTD; a DTD's only use in an upload is entities, and expanding them is the billion
 * laughs (a 1 MB entity referenced 100,000 times is 100 GB of text). So any declaration is
 * refused before libxml2 sees the file, wherever it stands (a comment included). */
static const char *xml_declaration(const char *body, size_t len)
{
	static const char *const refused[] = {"<!DOCTYPE", "<!ENTITY"};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		if (memmem(body, len, refused[i], strlen(refused[i])) != NULL)
			return refused[i];
	return NULL;
}

/* SAX internalSubset: a DOCTYPE the byte scan could not see (a file in UTF-16, say) stops
 * the parser before its internal subset is read, so no entity is ever declared. */
static void xml_stop_at_doctype(void *ctx, const xmlChar *name, const xmlChar *external_id,
                                const xmlChar *system_id)
{
	(void)name;
	(void)external_id;
	(void)system_id;
	xmlParserCtxtPtr p = ctx;
	*(bool *)p->_private = true;
	xmlStopParser(p);
}

int league_parse_bggxml(league_import *im, const char *body, size_t len)
{
	const char *decl = xml_declaration(body, len);
	if (decl != NULL) {
		char d[128];
		snprintf(d, sizeof d,
		         "a BGG plays file has no DTD: the declaration %s is refused (entities are "
		         "not expanded)",
		         decl);
		return lio_fail(im, "", d);
	}
	xmlParserCtxtPtr ctx = xmlNewParserCtxt();
	if (ctx == NULL)
		oom_abort();
	bool doctype = false;
	ctx->_private = &doctype;
	ctx->sax->internalSubset = xml_stop_at_doctype;
	xmlSetStructuredErrorFunc(NULL, (xmlStructuredErrorFunc)xml_silent);
	/* No network; entities are never substituted (no XML_PARSE_NOENT) and no DTD is loaded
	 * (no XML_PARSE_DTDLOAD or XML_PARSE_DTDATTR); a DOCTYPE stops the parser above. */
	xmlDocPtr doc = xmlCtxtReadMemory(ctx, body, (int)len, "plays.xml", NULL,
	                                  XML_PARSE_NONET | XML_PARSE_NOCDATA);
	int rc = 0;
	if (doctype) {
		rc = lio_fail(im, "",
		              "a BGG plays file has no DTD: the declaration <!DOCTYPE is refused "
		              "(entities are not expanded)");
		goto out;
	}
	if (doc == NULL) {
		const xmlError *e = xmlCtxtGetLastError(ctx);
		char d[256];
		snprintf(d, sizeof d, "not well-formed XML (line %d: %s)", e ? e->line : 0,
		         e && e->message ? e->message : "?");
		d[strcspn(d, "\n")] = '\0';
		rc = lio_fail(im, "", d);
		goto out;
	}
	xmlNode *root = xmlDocGetRootElement(doc);
	if (root == NULL || strcmp((const char *)root->name, "plays") != 0) {
		rc = lio_fail(im, "", "a BGG plays file has the root element <plays>");
		goto out;
	}
	int i = 0;
	for (xmlNode *c = root->children; c && rc == 0; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "play") != 0)
			continue;
		if (i >= IMPORT_MAX_PLAYS) {
			rc = lio_fail(im, "/plays", "too many plays in one file (100000 at most)");
			break;
		}
		rc = parse_bgg_play(im, c, i++);
	}
out:
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctx);
	xmlSetStructuredErrorFunc(NULL, NULL);
	return rc;
}
