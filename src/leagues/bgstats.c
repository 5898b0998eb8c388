/* BG Stats, the app most groups log their plays with: its export format (BGStatsExport.json)
 * read into an import (import_parse); bgsexport.c writes it (GET …/export.json).
 *
 * Files are read as BG Stats writes them (api.md "Leagues and history"): every play is either
 * imported or listed as skipped with a stable reason; only a file that is no BG Stats export at
 * all is refused. What BG Stats records that we do not model (a play's modificationDate, a
 * seat's role or team, a game's whole description…) is kept as JSON beside the play, the
 * result, the game, the location and the player, and the export writes it back. */
#include "leagues/bgstats.h"
#include "leagues/dates.h"
#include "leagues/io.h"
#include "leagues/store.h"

#include "json/jx.h"
#include "json/spec.h"

#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- import ---- */

static bool get_int(json_object *o, const char *k, int64_t *v)
{
	json_object *x;
	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_int))
		return false;
	*v = json_object_get_int64(x);
	return true;
}

static const char *get_str(json_object *o, const char *k)
{
	json_object *x;
	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

/* A boolean member, else def (absent, null or another type: BG Stats' own defaults). */
static bool get_bool(json_object *o, const char *k, bool def)
{
	json_object *x;
	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_boolean))
		return def;
	return json_object_get_boolean(x);
}

static json_object *get_arr(json_object *o, const char *k)
{
	json_object *x;
	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_array))
		return NULL;
	return x;
}

/* The objects of games, players or locations by their "id" (sorted, for bsearch); used: a play
 * that names it was imported. */
typedef struct {
	int64_t id;
	json_object *o;
	bool used;
} bgs_ref;

typedef struct {
	bgs_ref *r; /* owned */
	int n;
} bgs_index;

static int ref_cmp(const void *a, const void *b)
{
	int64_t x = ((const bgs_ref *)a)->id, y = ((const bgs_ref *)b)->id;
	return (x > y) - (x < y);
}

static void index_build(json_object *arr, bgs_index *ix)
{
	size_t n = arr ? json_object_array_length(arr) : 0;
	ix->r = xcalloc(n + 1, sizeof *ix->r);
	ix->n = 0;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		int64_t id;
		if (json_object_is_type(o, json_type_object) && get_int(o, "id", &id))
			ix->r[ix->n++] = (bgs_ref){.id = id, .o = o};
	}
	qsort(ix->r, (size_t)ix->n, sizeof *ix->r, ref_cmp);
}

static bgs_ref *index_find(const bgs_index *ix, json_object *o, const char *key)
{
	bgs_ref k;
	if (!get_int(o, key, &k.id))
		return NULL;
	return bsearch(&k, ix->r, (size_t)ix->n, sizeof *ix->r, ref_cmp);
}

typedef struct {
	league_import *im;
	bgs_index games, players, locations;
} bgs_file;

/* o as JSON text in the import's arena. */
static const char *obj_text(league_import *im, json_object *o)
{
	return io_dup(im, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
}

/* o's members but those named in skip (NULL-terminated), as JSON text in the arena; NULL when
 * there are none. */
static const char *extra_text(league_import *im, json_object *o, const char *const *skip)
{
	json_object *x = jx_obj();
	json_object_object_foreach(o, key, val)
	{
		bool modelled = false;
		for (const char *const *k = skip; *k && !modelled; k++)
			modelled = strcmp(*k, key) == 0;
		if (!modelled)
			json_object_object_add(x, key, json_object_get(val));
	}
	const char *t = json_object_object_length(x) ? obj_text(im, x) : NULL;
	json_object_put(x);
	return t;
}

/* Lists play i as skipped (uuid: its id in the file or NULL) for reason, with a sentence. */
static void bgs_skip(league_import *im, size_t i, const char *uuid, const char *reason,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void bgs_skip(league_import *im, size_t i, const char *uuid, const char *reason,
                     const char *fmt, ...)
{
	char detail[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	io_skip(im, (int)i, uuid, reason, detail);
}

/* The JSON type of a member a play or a playerScore may carry ('i' integer, 's' string, 'b'
 * boolean, 'a' array, 'n' number or string); null is taken as absent. */
typedef struct {
	const char *name;
	char type;
} bgs_member;

static bool type_ok(json_object *v, char type)
{
	switch (type) {
	case 'i':
		return json_object_is_type(v, json_type_int);
	case 's':
		return json_object_is_type(v, json_type_string);
	case 'b':
		return json_object_is_type(v, json_type_boolean);
	case 'a':
		return json_object_is_type(v, json_type_array);
	default: /* 'n' */
		return json_object_is_type(v, json_type_string) ||
		       json_object_is_type(v, json_type_int) ||
		       json_object_is_type(v, json_type_double);
	}
}

static const char *type_name(char type)
{
	return type == 'i'   ? "an integer"
	       : type == 's' ? "a string"
	       : type == 'b' ? "a boolean"
	       : type == 'a' ? "an array"
	                     : "a number or a string";
}

/* The first member of o (an object) whose type is not what we read, into why; false if any. */
static bool types_ok(json_object *o, const bgs_member *m, size_t n, const char *at, char *why,
                     size_t len)
{
	for (size_t i = 0; i < n; i++) {
		json_object *v;
		if (json_object_object_get_ex(o, m[i].name, &v) && v != NULL &&
		    !type_ok(v, m[i].type)) {
			snprintf(why, len, "%s%s must be %s", at, m[i].name, type_name(m[i].type));
			return false;
		}
	}
	return true;
}

static bool play_types_ok(json_object *pl, char *why, size_t len)
{
	static const bgs_member play[] = {
	    {"uuid", 's'},         {"playDate", 's'},    {"gameRefId", 'i'},
	    {"playerScores", 'a'}, {"durationMin", 'i'}, {"locationRefId", 'i'},
	    {"bggId", 'i'},        {"comments", 's'},    {"ignored", 'b'}};
	static const bgs_member score[] = {
	    {"playerRefId", 'i'}, {"score", 'n'}, {"winner", 'b'}, {"rank", 'i'}};
	if (!types_ok(pl, play, sizeof play / sizeof play[0], "", why, len))
		return false;
	json_object *scores = get_arr(pl, "playerScores");
	for (size_t k = 0; scores && k < json_object_array_length(scores); k++) {
		json_object *sc = json_object_array_get_idx(scores, k);
		char at[48];
		snprintf(at, sizeof at, "playerScores/%zu/", k);
		if (!json_object_is_type(sc, json_type_object)) {
			snprintf(why, len, "playerScores/%zu must be an object", k);
			return false;
		}
		if (!types_ok(sc, score, sizeof score / sizeof score[0], at, why, len))
			return false;
	}
	return true;
}

/* A seat's name, unique in its play: the player's name, numbered from 2 when an earlier seat
 * of the play has it (BG Stats' anonymous player sits several times in one play). */
static const char *seat_name(league_import *im, const imp_play *ip, const char *base)
{
	const char *name = base;
	char buf[NAME_MAX_BYTES + 1], suffix[16];
	for (int n = 2;; n++) {
		bool taken = false;
		for (int k = 0; k < ip->nres && !taken; k++)
			taken = strcmp(ip->res[k].name, name) == 0;
		if (!taken)
			return name;
		int sl = snprintf(suffix, sizeof suffix, " %d", n);
		size_t keep = strlen(base), room = NAME_MAX_BYTES - (size_t)sl;
		if (keep > room) { /* the name cut to leave room, at a character's start */
			keep = room;
			while (keep > 0 && ((unsigned char)base[keep] & 0xC0) == 0x80)
				keep--;
		}
		snprintf(buf, sizeof buf, "%.*s%s", (int)keep, base, suffix);
		name = io_dup(im, buf);
	}
}

/* Seat k's score sc into r: a number or a sum as typed ("20+16+16": its total, the text kept
 * when it is not the number's plain form); words or "" are no score. *kept: the member stays
 * in the seat's extra (not a string we could read, or not a string at all). */
static void seat_score(json_object *sc, imp_result *r, bool *kept)
{
	json_object *x;
	*kept = false;
	if (!json_object_object_get_ex(sc, "score", &x) || x == NULL)
		return;
	if (json_object_is_type(x, json_type_string)) {
		const char *s = json_object_get_string(x);
		char plain[IO_NUM_MAX];
		if (!io_score_parse(s, &r->r.score)) {
			*kept = true;
			return;
		}
		r->r.has_score = true;
		io_shortest(r->r.score, plain);
		if (strcmp(plain, s) != 0)
			r->r.score_text = s;
		return;
	}
	*kept = true; /* a JSON number: kept as written, read as the score when finite */
	r->r.score = json_object_get_double(x);
	r->r.has_score = isfinite(r->r.score);
}

/* The seat sc's team (BG Stats' "team": a string, or a number in some files) in the import's
 * arena, or NULL for none ("", null, over 64 bytes). */
static const char *seat_team(league_import *im, json_object *sc)
{
	json_object *x;
	if (!json_object_object_get_ex(sc, "team", &x) || x == NULL)
		return NULL;
	if (json_object_is_type(x, json_type_int))
		return io_dup(im, json_object_get_string(x));
	if (!json_object_is_type(x, json_type_string))
		return NULL;
	const char *s = json_object_get_string(x);
	return *s && strlen(s) <= 64 ? s : NULL;
}

/* The seats of play pl (index i) into ip; false after listing the play as skipped. teams: the
 * game plays in teams (usesTeams), so each seat's team is kept for the ratings. */
static bool bgs_seats(bgs_file *f, size_t i, json_object *pl, imp_play *ip, const char *uuid,
                      bool teams)
{
	static const char *const modelled[] = {"playerRefId", "score", "winner", NULL};
	static const char *const modelled_but_score[] = {"playerRefId", "winner", NULL};
	league_import *im = f->im;
	json_object *scores = get_arr(pl, "playerScores");
	for (size_t k = 0; k < json_object_array_length(scores); k++) {
		json_object *sc = json_object_array_get_idx(scores, k);
		bgs_ref *pr = index_find(&f->players, sc, "playerRefId");
		const char *name = pr ? get_str(pr->o, "name") : NULL;
		if (!name || !*name) {
			bgs_skip(im, i, uuid, "no-players",
			         "playerScores/%zu names no player of the file (playerRefId)", k);
			return false;
		}
		if (strlen(name) > NAME_MAX_BYTES) {
			bgs_skip(im, i, uuid, "malformed", "a player's name has at most 256 bytes");
			return false;
		}
		imp_result *r = &ip->res[ip->nres];
		r->name = seat_name(im, ip, name);
		r->anonymous = get_bool(pr->o, "isAnonymous", false);
		bool kept;
		seat_score(sc, r, &kept);
		json_object *w;
		if (json_object_object_get_ex(sc, "winner", &w) &&
		    json_object_is_type(w, json_type_boolean)) {
			r->r.has_winner = true;
			r->r.winner = json_object_get_boolean(w);
		}
		int64_t v;
		if (get_int(sc, "rank", &v) && v > 0 && v <= 1000) {
			r->r.rank = (int)v;
			r->r.has_rank = true;
		}
		r->r.extra = extra_text(im, sc, kept ? modelled_but_score : modelled);
		const char *pu = get_str(pr->o, "uuid");
		r->r.player_uuid = pu && *pu && strlen(pu) <= 128 ? pu : NULL;
		r->r.team = teams ? seat_team(im, sc) : NULL;
		ip->nres++;
		pr->used = true;
	}
	return true;
}

/* The play's game into p (false after listing the play as skipped); *lowest: its lowest score
 * wins; *teams: it was played in teams. */
static bool bgs_game(bgs_file *f, size_t i, json_object *pl, league_play *p, const char *uuid,
                     bool *lowest, bool *teams)
{
	bgs_ref *g = index_find(&f->games, pl, "gameRefId");
	const char *name = g ? get_str(g->o, "name") : NULL;
	if (!name || !*name) {
		bgs_skip(f->im, i, uuid, "no-game", "gameRefId names no game of the file");
		return false;
	}
	if (strlen(name) > NAME_MAX_BYTES) {
		bgs_skip(f->im, i, uuid, "malformed", "a game's name has at most 256 bytes");
		return false;
	}
	p->game = name;
	const char *gu = get_str(g->o, "uuid");
	p->game_uuid = gu && *gu && strlen(gu) <= 128 ? gu : NULL;
	int64_t v;
	if (get_int(g->o, "bggId", &v) && v > 0 && v <= INT_MAX)
		p->bgg_id = v;
	p->cooperative = get_bool(g->o, "cooperative", false);
	*lowest = !get_bool(g->o, "highestWins", true);
	/* the play's own usesTeams (as logged), else its game's (the default for new plays) */
	*teams = get_bool(pl, "usesTeams", get_bool(g->o, "usesTeams", false));
	g->used = true;
	return true;
}

/* Play i of the file: imported into im->plays, or listed in im->skips with its reason. */
static void bgs_play(bgs_file *f, size_t i, json_object *pl)
{
	static const char *const modelled[] = {
	    "uuid",     "playDate", "gameRefId",    "locationRefId", "bggId", "durationMin",
	    "comments", "ignored",  "playerScores", "incomplete",    NULL};
	league_import *im = f->im;
	char why[300], at[64];
	if (!json_object_is_type(pl, json_type_object)) {
		bgs_skip(im, i, NULL, "malformed", "a play is an object");
		return;
	}
	const char *uuid = get_str(pl, "uuid"), *date = get_str(pl, "playDate");
	if (!play_types_ok(pl, why, sizeof why)) {
		bgs_skip(im, i, uuid, "malformed", "%s", why);
		return;
	}
	if (!uuid || !*uuid) {
		bgs_skip(im, i, NULL, "no-uuid", "the play has no uuid");
		return;
	}
	if (strlen(uuid) > 128) {
		bgs_skip(im, i, NULL, "malformed", "uuid has at most 128 characters");
		return;
	}
	json_object *scores = get_arr(pl, "playerScores");
	size_t ns = scores ? json_object_array_length(scores) : 0;
	if (ns == 0) {
		bgs_skip(im, i, uuid, "no-players", "the play has no playerScores");
		return;
	}
	if (ns > IMPORT_MAX_RESULTS) {
		bgs_skip(im, i, uuid, "too-many-players", "a play has at most %d players",
		         IMPORT_MAX_RESULTS);
		return;
	}
	league_play p = {.uuid = uuid, .source = "bgstats", .duration_min = -1};
	if (date && strncmp(date, PLAY_UNDATED_BGS, 10) == 0) {
		snprintf(p.when, sizeof p.when, "%s",
		         PLAY_UNDATED_AT); /* our export's undated play */
		p.clock = PLAY_CLOCK_UNDATED;
	} else if (!date || !dates_parse_when(date, p.when)) {
		bgs_skip(
		    im, i, uuid, "no-date",
		    "playDate is missing or not a date and time (a UTC offset goes from -15:59 to "
		    "+15:59)");
		return;
	}
	if (p.clock != PLAY_CLOCK_UNDATED && dates_is_local(date))
		p.clock = PLAY_CLOCK_LOCAL;
	const char *notes = get_str(pl, "comments");
	if (notes && strlen(notes) > NOTES_MAX) {
		bgs_skip(im, i, uuid, "malformed", "comments have at most %d bytes", NOTES_MAX);
		return;
	}
	bool lowest = false, teams = false;
	if (!bgs_game(f, i, pl, &p, uuid, &lowest, &teams))
		return;
	int64_t v;
	if (get_int(pl, "durationMin", &v) && v > 0 && v <= 100000)
		p.duration_min = v;
	/* the BGG *play* this is (a play synced with BGG); the game's BGG id is games[].bggId */
	if (get_int(pl, "bggId", &v) && v > 0)
		p.bgg_play_id = v;
	p.notes = notes;
	p.ignored = get_bool(pl, "ignored", false);
	p.incomplete = get_bool(pl, "incomplete", false); /* ours: BGG's incomplete play */
	bgs_ref *loc = index_find(&f->locations, pl, "locationRefId");
	const char *lname = loc ? get_str(loc->o, "name") : NULL;
	if (lname && *lname && strlen(lname) <= NAME_MAX_BYTES) {
		p.location = lname;
		loc->used = true;
	}
	p.extra = extra_text(im, pl, modelled);
	imp_play *ip = io_new_play(im, (int)i, (int)ns);
	ip->p = p;
	js_path_index(at, sizeof at, "/plays", i);
	if (!bgs_seats(f, i, pl, ip, uuid, teams) || io_rank(im, ip, lowest, at) != 0) {
		if (im->field[0] || im->detail[0]) { /* io_rank's refusal: this play only */
			bgs_skip(im, i, uuid, "unranked", "%s", im->detail);
			im->field[0] = im->detail[0] = '\0';
		}
		free(ip->res);
		im->nplays--;
	}
}

/* What the file says of the games, locations and players its plays name (im->games …). */
static void bgs_described(bgs_file *f)
{
	league_import *im = f->im;
	im->games = xcalloc((size_t)f->games.n + 1, sizeof *im->games);
	for (int i = 0; i < f->games.n; i++) {
		json_object *o = f->games.r[i].o;
		if (!f->games.r[i].used)
			continue;
		imp_game *g = &im->games[im->ngames++];
		int64_t v;
		g->name = get_str(o, "name");
		g->uuid = get_str(o, "uuid");
		g->bgg_id = get_int(o, "bggId", &v) && v > 0 && v <= INT_MAX ? v : 0;
		g->cooperative = get_bool(o, "cooperative", false);
		g->highest_wins = get_bool(o, "highestWins", true);
		g->no_points = get_bool(o, "noPoints", false);
		g->uses_teams = get_bool(o, "usesTeams", false);
		g->source = obj_text(im, o);
	}
	im->locations = xcalloc((size_t)f->locations.n + 1, sizeof *im->locations);
	for (int i = 0; i < f->locations.n; i++)
		if (f->locations.r[i].used) {
			json_object *o = f->locations.r[i].o;
			im->locations[im->nlocations++] =
			    (imp_location){get_str(o, "name"), get_str(o, "uuid"), obj_text(im, o)};
		}
	im->players = xcalloc((size_t)f->players.n + 1, sizeof *im->players);
	for (int i = 0; i < f->players.n; i++) {
		json_object *o = f->players.r[i].o;
		const char *uuid = get_str(o, "uuid");
		if (f->players.r[i].used && uuid && *uuid && strlen(uuid) <= 128)
			im->players[im->nplayers++] = (imp_player){uuid, obj_text(im, o)};
	}
	for (int i = 0; i < im->ngames; i++) /* a uuid longer than a column takes: none */
		if (im->games[i].uuid && (!*im->games[i].uuid || strlen(im->games[i].uuid) > 128))
			im->games[i].uuid = NULL;
	for (int i = 0; i < im->nlocations; i++)
		if (im->locations[i].uuid &&
		    (!*im->locations[i].uuid || strlen(im->locations[i].uuid) > 128))
			im->locations[i].uuid = NULL;
}

int bgstats_parse(league_import *im)
{
	json_object *root = im->root;
	if (!json_object_is_type(root, json_type_object))
		return io_fail(im, "", "a BG Stats export is a JSON object");
	json_object *plays = get_arr(root, "plays");
	if (!get_arr(root, "players") || !get_arr(root, "games") || !plays)
		return io_fail(im, "", "a BG Stats export has the arrays games, players and plays");
	json_object *locs;
	if (json_object_object_get_ex(root, "locations", &locs) && locs != NULL &&
	    !json_object_is_type(locs, json_type_array))
		return io_fail(im, "/locations", "locations is an array");
	size_t n = json_object_array_length(plays);
	if (n > IMPORT_MAX_PLAYS)
		return io_fail(im, "/plays", "too many plays in one file (100000 at most)");
	bgs_file f = {.im = im};
	index_build(get_arr(root, "games"), &f.games);
	index_build(get_arr(root, "players"), &f.players);
	index_build(get_arr(root, "locations"), &f.locations);
	for (size_t i = 0; i < n; i++)
		bgs_play(&f, i, json_object_array_get_idx(plays, i));
	bgs_described(&f);
	free(f.games.r);
	free(f.players.r);
	free(f.locations.r);
	return 0;
}
