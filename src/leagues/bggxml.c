/* BoardGameGeek plays XML (the XML API 2's /plays answer, or BGG's own export) read into an
 * import with libxml2: no DTD, no entity, no network. Files are taken as BGG writes them: every
 * <play> is imported (quantity="N" as N plays) or listed in skipped_plays with a stable reason;
 * only a document that is not a BGG plays answer at all (another root element, one of BGG's
 * error answers, a <play> without BGG's id attribute) is refused. */
#include "leagues/bggxml.h"
#include "leagues/dates.h"
#include "leagues/io.h"
#include "leagues/store.h"

#include "json/jx.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- BoardGameGeek plays XML (the XML API's /plays answer, or BGG's own export) ---- */

enum {
	QUANTITY_MAX = 1000, /* plays one <play> may stand for */
	SEAT_SUFFIX = 16,    /* room for " (seat 64)" after a name */
};

/* BGG's own name for a player logged without a name or an account. */
static const char ANONYMOUS[] = "Anonymous player";

/* What a file says about itself: the user whose plays these are (a /plays?username= answer),
 * to name a seat that carries only that user's id. Strings in the import's arena or NULL. */
typedef struct {
	const char *username, *userid;
} bgg_file;

/* The length of s[0..len) cut to at most max bytes without splitting a UTF-8 sequence. */
static size_t utf8_cut(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	size_t n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

/* v (a buffer of libxml2's, which this cuts) trimmed of surrounding white space and cut to max
 * bytes at a character boundary, copied into the import's arena. */
static const char *arena_text(league_import *im, xmlChar *buf, size_t max)
{
	char *v = (char *)buf;
	while (*v == ' ' || *v == '\t' || *v == '\r' || *v == '\n')
		v++;
	size_t len = strlen(v);
	while (len > 0 && strchr(" \t\r\n", v[len - 1]) != NULL)
		len--;
	v[utf8_cut(v, len, max)] = '\0';
	return io_dup(im, v);
}

/* s (in the arena) cut to max bytes at a character boundary. */
static const char *arena_cut(league_import *im, const char *s, size_t max)
{
	size_t len = strlen(s);
	if (len <= max)
		return s;
	char t[NOTES_MAX + 1];
	len = utf8_cut(s, len, max < NOTES_MAX ? max : NOTES_MAX);
	memcpy(t, s, len);
	t[len] = '\0';
	return io_dup(im, t);
}

/* Attribute name of n as arena_text, or NULL when n has no such attribute. */
static const char *xml_attr(league_import *im, xmlNode *n, const char *name, size_t max)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	if (v == NULL)
		return NULL;
	const char *s = arena_text(im, v, max);
	xmlFree(v);
	return s;
}

/* Is attribute name of n BGG's "1" (a flag set)? */
static bool xml_flag(xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	bool set = v && strcmp((const char *)v, "1") == 0;
	xmlFree(v);
	return set;
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

/* A score as typed on BGG: a plain decimal number ("42", "-5", "15.1") is the score; any other
 * text ("5 stars", "Decisive") is no number, and is kept as typed by the caller. */
static bool plain_number(const char *s, double *v)
{
	const char *p = s + (*s == '-' || *s == '+');
	bool digits = false;
	for (; *p >= '0' && *p <= '9'; p++)
		digits = true;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits = true;
	if (!digits || *p != '\0')
		return false;
	*v = strtod(s, NULL);
	return isfinite(*v);
}

/* The uuid of copy k (1…) of BGG play id: "bgg-<id>", then "bgg-<id>-2", "bgg-<id>-3" … */
static const char *copy_uuid(league_import *im, const char *id, int k)
{
	char u[48];
	if (k == 1)
		snprintf(u, sizeof u, "bgg-%s", id);
	else
		snprintf(u, sizeof u, "bgg-%s-%d", id, k);
	return io_dup(im, u);
}

/* Lists play index, copies 1…copies of it, as skipped for reason. id: the play's numeric BGG
 * id (the copies are named by their uuids), or raw the id attribute as the file has it. */
static void skip_play(league_import *im, int index, const char *id, const char *raw, int copies,
                      const char *reason, const char *detail)
{
	for (int k = 1; k <= copies; k++)
		io_skip(im, index, id ? copy_uuid(im, id, k) : raw, reason, detail);
}

/* The name of a seat: the player's name, else their BGG username, else the file's user when
 * the seat carries that user's id, else "BGG user <id>"; a seat with none of these is BGG's
 * "Anonymous player" (*anonymous set). */
static const char *seat_name(league_import *im, const bgg_file *file, xmlNode *c, bool *anonymous)
{
	const char *name = xml_attr(im, c, "name", NAME_MAX_BYTES);
	const char *user = xml_attr(im, c, "username", NAME_MAX_BYTES);
	const char *uid = xml_attr(im, c, "userid", 20);
	*anonymous = false;
	if (name && *name && strcmp(name, ANONYMOUS) != 0)
		return name;
	if (user && *user)
		return user;
	if (all_digits(uid) && atoll(uid) > 0) {
		if (file->userid && file->username && *file->username &&
		    strcmp(uid, file->userid) == 0)
			return file->username;
		char t[48];
		snprintf(t, sizeof t, "BGG user %s", uid);
		return io_dup(im, t);
	}
	*anonymous = true;
	return ANONYMOUS;
}

/* What BGG says of a seat beyond its name, score and win, as the BG Stats playerScore
 * members they are (README "Formats"): color → role ("Darth Vader Starter"), startposition →
 * startPosition as written (ours: it may be a faction, "good") and, when it is a number, BG
 * Stats' seatOrder too, new → newPlayer. JSON text in the arena, or NULL when the seat has none
 * of them. */
static const char *seat_extra(league_import *im, xmlNode *c)
{
	const char *color = xml_attr(im, c, "color", NAME_MAX_BYTES);
	const char *start = xml_attr(im, c, "startposition", NAME_MAX_BYTES);
	const char *fresh = xml_attr(im, c, "new", 8);
	json_object *o = jx_obj();
	if (color && *color)
		jx_set(o, "role", jx_str(color));
	if (start && *start)
		jx_set(o, "startPosition", jx_str(start));
	if (all_digits(start) && strlen(start) <= 9 && atoi(start) > 0)
		jx_set(o, "seatOrder", jx_int(atoi(start)));
	if (fresh && *fresh)
		jx_set(o, "newPlayer", jx_bool(strcmp(fresh, "1") == 0));
	const char *t = json_object_object_length(o) == 0
	                    ? NULL
	                    : io_dup(im, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return t;
}

/* Reads <players> into ip's results. A seat nothing identifies (anonymous) and a second seat
 * under a name the play already has ("Redacted", "B." twice) are kept, unrated, the second as
 * "<name> (seat N)": one person cannot sit twice at a table, and which of two same-named
 * seats is the league's player is unknowable. */
static void read_players(league_import *im, const bgg_file *file, xmlNode *players, imp_play *ip)
{
	for (xmlNode *c = players ? players->children : NULL; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "player") != 0)
			continue;
		imp_result *r = &ip->res[ip->nres++];
		bool anonymous, twice = false;
		const char *name = seat_name(im, file, c, &anonymous);
		for (int k = 0; k < ip->nres - 1 && !twice; k++)
			twice = strcmp(ip->res[k].name, name) == 0;
		if (twice) {
			char t[NAME_MAX_BYTES + SEAT_SUFFIX];
			int keep = (int)utf8_cut(name, strlen(name), NAME_MAX_BYTES - SEAT_SUFFIX);
			snprintf(t, sizeof t, "%.*s (seat %d)", keep, name, ip->nres);
			name = io_dup(im, t);
		}
		r->name = name;
		r->r.unrated = anonymous || twice;
		/* read whole: a number cut to 256 digits would be another number */
		const char *score = xml_attr(im, c, "score", NOTES_MAX);
		if (score && *score) {
			r->r.has_score = plain_number(score, &r->r.score);
			if (!r->r.has_score)
				r->r.score_text = arena_cut(im, score, NAME_MAX_BYTES);
		}
		r->r.has_winner = true; /* BGG's flag, 0 when absent: it stands as given */
		r->r.winner = xml_flag(c, "win");
		r->r.extra = seat_extra(im, c);
	}
}

static int count_players(xmlNode *players)
{
	int n = 0;
	for (xmlNode *c = players ? players->children : NULL; c; c = c->next)
		n += c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "player") == 0;
	return n;
}

/* How many plays <play> stands for (its quantity attribute, 1 when absent), or -1 when that
 * is not a whole number. */
static int play_quantity(const char *q)
{
	if (q == NULL || *q == '\0')
		return 1;
	if (!all_digits(q) || strlen(q) > 9)
		return -1;
	return atoi(q);
}

/* The play's fields other than its players (game, date, length, location, comments, flags)
 * into p; a reason to skip it (and a sentence into why) or NULL. */
static const char *read_play(league_import *im, xmlNode *pl, league_play *p, char why[200])
{
	xmlNode *item = xml_child(pl, "item");
	const char *date = xml_attr(im, pl, "date", 40);
	if (date == NULL || *date == '\0') {
		snprintf(why, 200, "the play has no date attribute");
		return "no-date";
	}
	p->clock = PLAY_CLOCK_LOCAL;           /* BGG's dates are the players' local dates */
	if (strcmp(date, "0000-00-00") == 0) { /* a play logged without a date: kept, undated */
		snprintf(p->when, sizeof p->when, "%s", PLAY_UNDATED_AT);
		p->clock = PLAY_CLOCK_UNDATED;
	} else if (strlen(date) != 10 || !dates_parse_when(date, p->when)) {
		snprintf(why, 200, "the date \"%.40s\" is not a calendar date (YYYY-MM-DD)", date);
		return "bad-date";
	}
	p->game = item ? xml_attr(im, item, "name", NAME_MAX_BYTES) : NULL;
	if (p->game == NULL || *p->game == '\0') {
		snprintf(why, 200, "the play names no game (<item name=\"…\">)");
		return "no-game";
	}
	/* objectid is a game's BGG id when the item is a thing (a family's id is not) */
	const char *type = xml_attr(im, item, "objecttype", 32);
	const char *objectid = xml_attr(im, item, "objectid", 20);
	if ((type == NULL || strcmp(type, "thing") == 0) && all_digits(objectid) &&
	    atoll(objectid) > 0 && atoll(objectid) <= 2147483647)
		p->bgg_id = atoll(objectid);
	const char *length = xml_attr(im, pl, "length", 20);
	if (all_digits(length) && atoll(length) > 0 && atoll(length) <= 100000)
		p->duration_min = atoll(length);
	p->location = xml_attr(im, pl, "location", NAME_MAX_BYTES);
	xmlNode *comments = xml_child(pl, "comments");
	if (comments) {
		xmlChar *t = xmlNodeGetContent(comments); /* NULL: nothing in it */
		p->notes = t ? arena_text(im, t, NOTES_MAX) : NULL;
		xmlFree(t);
	}
	p->incomplete = xml_flag(pl, "incomplete");
	p->ignored = xml_flag(pl, "nowinstats");
	p->source = "bggxml";
	return NULL;
}

/* Adds copies 2…quantity of the play at im->plays[first] (same fields and results, uuids
 * "bgg-<id>-2" …). */
static void add_copies(league_import *im, int first, const char *id, int quantity)
{
	for (int k = 2; k <= quantity; k++) {
		int n = im->plays[first].nres;
		imp_play *c = io_new_play(im, im->plays[first].index, n);
		const imp_play *o = &im->plays[first]; /* after the new play: plays may move */
		imp_result *res = c->res;
		*c = *o;
		c->res = res;
		memcpy(c->res, o->res, (size_t)n * sizeof *res);
		c->p.uuid = copy_uuid(im, id, k);
	}
}

/* Reads <play> number index into the import (as many plays as its quantity) or its skips;
 * *total counts both, quantity included. Returns 0, or -1 when the file is not BGG's or is
 * over the limit of plays. */
static int parse_bgg_play(league_import *im, const bgg_file *file, xmlNode *pl, int index,
                          int *total)
{
	char f[64], why[200];
	snprintf(f, sizeof f, "/plays/play[%d]", index + 1);
	if (!xmlHasProp(pl, (const xmlChar *)"id"))
		return io_fail(im, f,
		               "a BGG play has an id attribute: this is not a BoardGameGeek plays "
		               "file");
	const char *raw = xml_attr(im, pl, "id", 40);
	const char *id = all_digits(raw) && atoll(raw) > 0 ? raw : NULL;
	int quantity = play_quantity(xml_attr(im, pl, "quantity", 20));
	int copies = quantity < 1 || quantity > QUANTITY_MAX ? 1 : quantity;
	*total += copies;
	if (*total > IMPORT_MAX_PLAYS)
		return io_fail(im, "/plays",
		               "too many plays in one file (100000 at most, quantity counted)");
	if (id == NULL) {
		snprintf(why, sizeof why, "a BGG play id is a positive whole number, not \"%.40s\"",
		         raw);
		skip_play(im, index, NULL, raw, copies, "bad-id", why);
		return 0;
	}
	if (quantity == 0) {
		skip_play(im, index, id, NULL, 1, "zero-quantity",
		          "quantity 0: BGG logs an expansion played within another play this way, "
		          "not as a play of its own");
		return 0;
	}
	if (quantity < 0 || quantity > QUANTITY_MAX) {
		snprintf(why, sizeof why, "quantity is a number of plays from 1 to %d",
		         QUANTITY_MAX);
		skip_play(im, index, id, NULL, 1, "bad-quantity", why);
		return 0;
	}
	xmlNode *players = xml_child(pl, "players");
	int n = count_players(players);
	if (n > IMPORT_MAX_RESULTS) {
		snprintf(why, sizeof why, "%d players: a play has at most %d", n,
		         IMPORT_MAX_RESULTS);
		skip_play(im, index, id, NULL, copies, "too-many-players", why);
		return 0;
	}
	league_play p = {
	    .duration_min = -1, .uuid = copy_uuid(im, id, 1), .bgg_play_id = atoll(id)};
	const char *reason = read_play(im, pl, &p, why);
	if (reason) {
		skip_play(im, index, id, NULL, copies, reason, why);
		return 0;
	}
	int first = im->nplays;
	imp_play *ip = io_new_play(im, index, n);
	ip->p = p;
	read_players(im, file, players, ip);
	if (io_check_names(im, ip, f) != 0 || io_rank(im, ip, false, f) != 0) {
		/* a play that cannot be stored as it is: skipped, the file goes on */
		snprintf(why, sizeof why, "%.190s", im->detail);
		im->field[0] = im->detail[0] = '\0';
		free(im->plays[first].res);
		im->nplays = first;
		skip_play(im, index, id, NULL, copies, "bad-players", why);
		return 0;
	}
	add_copies(im, first, id, quantity);
	return 0;
}

/* Replies why the document, whose root is not <plays>, is not a BGG plays answer: BGG's error
 * answers (<error><message>…, <errors>…, <div class="messagebox error">…) with their text. */
static int not_plays(league_import *im, xmlNode *root)
{
	char d[240];
	const char *name = root ? (const char *)root->name : "";
	if (strcmp(name, "error") == 0 || strcmp(name, "errors") == 0 || strcmp(name, "div") == 0) {
		xmlChar *t = xmlNodeGetContent(root);
		char msg[128];
		size_t m = 0;
		for (const char *s = t ? (const char *)t : ""; *s && m < 120; s++) {
			bool space = *s == ' ' || *s == '\t' || *s == '\r' || *s == '\n';
			if (!space)
				msg[m++] = *s;
			else if (m > 0 && msg[m - 1] != ' ')
				msg[m++] = ' ';
		}
		m = utf8_cut(msg, m, 100);
		while (m > 0 && msg[m - 1] == ' ')
			m--;
		msg[m] = '\0';
		xmlFree(t);
		snprintf(d, sizeof d,
		         "this is an error answer of BoardGameGeek, not a plays file: %s", msg);
		return io_fail(im, "", d);
	}
	snprintf(d, sizeof d, "a BGG plays file has the root element <plays>, not <%.40s>", name);
	return io_fail(im, "", d);
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

int bggxml_parse(league_import *im, const char *body, size_t len)
{
	const char *decl = xml_declaration(body, len);
	if (decl != NULL) {
		char d[128];
		snprintf(d, sizeof d,
		         "a BGG plays file has no DTD: the declaration %s is refused (entities are "
		         "not expanded)",
		         decl);
		return io_fail(im, "", d);
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
		rc = io_fail(im, "",
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
		rc = io_fail(im, "", d);
		goto out;
	}
	xmlNode *root = xmlDocGetRootElement(doc);
	if (root == NULL || strcmp((const char *)root->name, "plays") != 0) {
		rc = not_plays(im, root);
		goto out;
	}
	bgg_file file = {xml_attr(im, root, "username", NAME_MAX_BYTES),
	                 xml_attr(im, root, "userid", 20)};
	int i = 0, total = 0;
	for (xmlNode *c = root->children; c && rc == 0; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "play") == 0)
			rc = parse_bgg_play(im, &file, c, i++, &total);
out:
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctx);
	xmlSetStructuredErrorFunc(NULL, NULL);
	return rc;
}
