/* The BG Stats export (GET …/export.json): the files the league was fed, written back with the
 * league's changes applied (README "Formats").
 *
 * The first file a league was fed is the document: every top-level member, every object with
 * its id, in its order. Each of its plays is written as it came when the league holds it
 * unchanged, rebuilt over its own object when it was edited since, left out when it was
 * deleted; a play the league never took (a play without players, without a date…) stays as it
 * came. A later file adds the objects the document lacks (the same uuid is the same object;
 * an id already taken gets the next free one, and every reference follows) and its plays the
 * document lacks. The league's other plays (entered here, finished at a table, from BGG or a
 * backup, or from a file imported before files were kept) come last, in play order, with new
 * objects for the games, locations and players no file described, whose ids continue after the
 * largest. Every member is set through bd_put(), which replaces a member already there: no object
 * of the export repeats a name. */
#include "db/league_files.h"
#include "json/jx.h"
#include "leagues/bgsexport.h"
#include "leagues/access.h"
#include "leagues/bgsdoc.h"
#include "leagues/io.h"

#include <stdlib.h>
#include <string.h>

/* ---- what an export reads ---- */

typedef struct {
	int first, n; /* the play's rows in rs */
	int file;     /* the file whose play object it was written with, -1: none yet */
	bool edited;
} ex_play;

typedef struct {
	const char *id, *name; /* borrowed from the rows */
	bool plain;            /* neither anonymous nor an unrated second seat */
	int64_t pid;           /* its player object's id; 0: not chosen yet */
	json_object *renamed;  /* the object it chose by its uuid under another name, or NULL */
} ex_member;

typedef struct {
	const char *league;
	json_object *doc; /* owned: the export */
	bd_list games, players, locations;
	db_export_rows rs;
	db_league_game_rows lgames;
	db_league_location_rows llocs;
	db_league_player_rows lplayers;
	db_play_change_rows changes;
	db_league_file_rows files;
	db_member_rows mrows; /* the league's members */
	ex_play *plays;       /* owned, in play order */
	int nplays;
	json_object *play_by_uuid, *bgg_plays, *deleted, *kept; /* owned maps */
	ex_member *members;                                     /* owned */
	int nmembers;
	json_object *member_by_id; /* owned: member id → index */
	json_object *used;         /* owned: the player ids seats name */
	json_object *seated;       /* owned: the player ids the files' plays named */
	json_object *out;          /* the document's new plays (owned until put in) */
} ex;

static void ex_free(ex *e)
{
	json_object_put(e->doc);
	bd_list_close(&e->games);
	bd_list_close(&e->players);
	bd_list_close(&e->locations);
	db_rowset_clear(&e->rs);
	db_rowset_clear(&e->lgames);
	db_rowset_clear(&e->llocs);
	db_rowset_clear(&e->lplayers);
	db_rowset_clear(&e->changes);
	db_rowset_clear(&e->files);
	db_rowset_clear(&e->mrows);
	free(e->plays);
	free(e->members);
	json_object_put(e->play_by_uuid);
	json_object_put(e->bgg_plays);
	json_object_put(e->deleted);
	json_object_put(e->kept);
	json_object_put(e->member_by_id);
	json_object_put(e->used);
	json_object_put(e->seated);
	json_object_put(e->out);
}

/* The league's plays and members from its rows, and what the play log changed. */
static void ex_index_rows(ex *e)
{
	json_object *edited = jx_obj();
	for (int i = 0; i < e->changes.n; i++)
		if (e->changes.rows[i].key)
			bd_map_set(e->changes.rows[i].edit ? edited : e->deleted,
			           e->changes.rows[i].key, 1);
	e->plays = xcalloc((size_t)e->rs.n + 1, sizeof *e->plays);
	e->members = xcalloc((size_t)e->rs.n + 1, sizeof *e->members);
	int64_t v;
	for (int i = 0; i < e->rs.n; i++) {
		const db_export_row *x = &e->rs.rows[i];
		if (i == 0 || strcmp(x->play, e->rs.rows[i - 1].play) != 0) {
			ex_play *p = &e->plays[e->nplays];
			*p = (ex_play){
			    .first = i, .file = -1, .edited = bd_map_get(edited, x->play, &v)};
			bd_map_set(e->play_by_uuid, x->uuid, e->nplays);
			if (!io_is_uuid(x->uuid)) { /* the uuid the export writes for it */
				char d[IO_UUID_LEN + 1];
				io_play_uuid(x->uuid, d);
				bd_map_set(e->play_by_uuid, d, e->nplays);
			}
			e->nplays++;
			if (x->bgg_play_id)
				bd_map_set(e->bgg_plays, x->bgg_play_id, 1);
		}
		e->plays[e->nplays - 1].n++;
		if (!x->has_result)
			continue;
		if (!bd_map_get(e->member_by_id, x->member, &v)) {
			v = e->nmembers++;
			e->members[v] =
			    (ex_member){.id = x->member, .name = x->name, .plain = true};
			bd_map_set(e->member_by_id, x->member, v);
		}
		if (x->anonymous || x->unrated)
			e->members[v].plain = false;
	}
	json_object_put(edited);
}

/* ---- new objects for what no file described ---- */

/* A stored source object (JSON text or NULL) as a new object to write over. */
static json_object *ex_source(const char *text)
{
	json_object *o = text ? jx_parse_stored(text) : NULL;
	if (json_object_is_type(o, json_type_object))
		return o;
	json_object_put(o);
	return jx_obj();
}

/* The id of play x's game object: the one the play named, else the first of its name, else a
 * new one (from what a file said of the game, else from the play). */
static int64_t ex_game(ex *e, const db_export_row *x)
{
	json_object *o =
	    x->game_uuid ? bd_list_at(&e->games, e->games.by_uuid, x->game_uuid) : NULL;
	const char *named = o ? bd_get_str(o, "name") : NULL;
	if (!named || strcmp(named, x->game) != 0)
		o = bd_list_at(&e->games, e->games.by_name, x->game);
	char uuid[IO_UUID_LEN + 1];
	io_derived_uuid("game", e->league, x->game, uuid);
	if (!o)
		o = bd_list_at(&e->games, e->games.by_uuid, uuid);
	int64_t id;
	if (o && bd_get_id(o, "id", &id))
		return id;
	const db_league_game_row *g = NULL;
	for (int i = 0; i < e->lgames.n; i++)
		if (strcmp(e->lgames.rows[i].name, x->game) == 0 &&
		    (!g || (x->game_uuid && e->lgames.rows[i].uuid &&
		            strcmp(e->lgames.rows[i].uuid, x->game_uuid) == 0)))
			g = &e->lgames.rows[i];
	o = ex_source(g ? g->source : NULL);
	bd_put(o, "uuid", jx_str(g && g->uuid ? g->uuid : uuid));
	bd_put(o, "name", jx_str(x->game));
	if (g && g->bgg_id)
		bd_put(o, "bggId", jx_int(io_int_text(g->bgg_id)));
	else if (!bd_get(o, "bggId"))
		bd_put(o, "bggId", jx_int(io_int_text(x->bgg_id)));
	bd_put(o, "cooperative", jx_bool(g ? g->cooperative : x->cooperative));
	bd_put(o, "highestWins", jx_bool(g ? g->highest_wins : true));
	bd_put(o, "noPoints", jx_bool(g ? g->no_points : false));
	bd_put(o, "usesTeams", jx_bool(g ? g->uses_teams : false));
	return bd_list_add(&e->games, e->doc, o);
}

/* The id of the location named name (not ""), made when new. */
static int64_t ex_location(ex *e, const char *name)
{
	json_object *o = bd_list_at(&e->locations, e->locations.by_name, name);
	char uuid[IO_UUID_LEN + 1];
	io_derived_uuid("location", e->league, name, uuid);
	if (!o)
		o = bd_list_at(&e->locations, e->locations.by_uuid, uuid);
	int64_t id;
	if (o && bd_get_id(o, "id", &id))
		return id;
	const db_league_location_row *l = NULL;
	for (int i = 0; i < e->llocs.n && !l; i++)
		if (strcmp(e->llocs.rows[i].name, name) == 0)
			l = &e->llocs.rows[i];
	o = ex_source(l ? l->source : NULL);
	bd_put(o, "uuid", jx_str(l && l->uuid ? l->uuid : uuid));
	bd_put(o, "name", jx_str(name));
	return bd_list_add(&e->locations, e->doc, o);
}

/* The player object a file described by uuid u: the document's, else added from what the
 * league kept of it; NULL when neither has it. */
static json_object *ex_player_uuid(ex *e, const char *u)
{
	json_object *o = bd_list_at(&e->players, e->players.by_uuid, u);
	for (int i = 0; !o && i < e->lplayers.n; i++)
		if (strcmp(e->lplayers.rows[i].uuid, u) == 0) {
			bd_list_add(&e->players, e->doc, ex_source(e->lplayers.rows[i].source));
			o = bd_list_at(&e->players, e->players.by_uuid, u);
		}
	return o;
}

/* The player object of member m: of the objects its results came from, the one of its name,
 * else the first; else the document's first of its name; else a new one. */
static int64_t ex_member_pid(ex *e, ex_member *m)
{
	if (m->pid)
		return m->pid;
	json_object *named = NULL, *first = NULL;
	for (int i = 0; i < e->rs.n && !named; i++) {
		const db_export_row *x = &e->rs.rows[i];
		if (!x->has_result || !x->player_uuid || strcmp(x->member, m->id) != 0)
			continue;
		json_object *o = ex_player_uuid(e, x->player_uuid);
		if (o && bd_names_match(bd_get_str(o, "name"), m->name))
			named = o;
		else if (o && !first)
			first = o;
	}
	if (!named && first && m->plain)
		m->renamed = first;
	json_object *o = named ? named : first;
	if (!o)
		o = bd_list_at(&e->players, e->players.by_name, m->name);
	char uuid[IO_UUID_LEN + 1];
	io_derived_uuid("player", m->id, NULL, uuid);
	if (!o)
		o = bd_list_at(&e->players, e->players.by_uuid, uuid);
	if (o && bd_get_id(o, "id", &m->pid))
		return m->pid;
	const db_export_row *x = NULL;
	for (int i = 0; i < e->rs.n && !x; i++)
		if (e->rs.rows[i].has_result && strcmp(e->rs.rows[i].member, m->id) == 0)
			x = &e->rs.rows[i];
	o = jx_obj();
	bd_put(o, "uuid", jx_str(uuid));
	bd_put(o, "name", jx_str(m->name));
	bd_put(o, "isAnonymous", jx_bool(x && x->anonymous));
	return m->pid = bd_list_add(&e->players, e->doc, o);
}

static int64_t ex_row_pid(ex *e, const db_export_row *x)
{
	int64_t v;
	if (!bd_map_get(e->member_by_id, x->member, &v))
		return 0;
	return ex_member_pid(e, &e->members[v]);
}

/* Renames each object a member chose by its uuid under another name (a member renamed, or
 * merged into one no file described), when no other member chose it. */
static void ex_renames(ex *e)
{
	for (int i = 0; i < e->nmembers; i++) {
		ex_member *m = &e->members[i];
		bool alone = m->renamed != NULL;
		for (int k = 0; k < e->nmembers && alone; k++)
			alone = k == i || e->members[k].pid != m->pid;
		if (alone)
			bd_put(m->renamed, "name", jx_str(m->name));
	}
}

/* ---- plays ---- */

/* What maps a later file's ids to the document's (text of its id → the document's id); NULL
 * maps: the first file, the document itself. */
typedef struct {
	json_object *root;                        /* owned, but the first file's (the document) */
	json_object *games, *players, *locations; /* owned maps or NULL */
} ex_file;

static void remap(json_object *o, const char *key, json_object *map)
{
	int64_t id, to;
	char k[24];
	if (!map || !bd_get_id(o, key, &id))
		return;
	bd_id_key(id, k);
	if (bd_map_get(map, k, &to) && to != id)
		bd_put(o, key, jx_int(to));
}

/* The references of play object po from its file's ids to the document's. */
static void remap_play(json_object *po, const ex_file *f)
{
	remap(po, "gameRefId", f->games);
	remap(po, "locationRefId", f->locations);
	json_object *a = bd_get_arr(po, "expansionPlays");
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		remap(json_object_array_get_idx(a, i), "gameRefId", f->games);
	a = bd_get_arr(po, "playerScores");
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		remap(json_object_array_get_idx(a, i), "playerRefId", f->players);
}

static void mark_used(ex *e, int64_t pid)
{
	char k[24];
	bd_id_key(pid, k);
	bd_map_set(e->used, k, 1);
}

static void mark_seats_used(ex *e, json_object *po)
{
	json_object *a = bd_get_arr(po, "playerScores");
	int64_t id;
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		if (bd_get_id(json_object_array_get_idx(a, i), "playerRefId", &id))
			mark_used(e, id);
}

/* The seats of an unchanged play: each names its own player object, or its member's when the
 * member is no longer the one that object became (merged into another, renamed). */
static void ex_seats_kept(ex *e, json_object *po, const ex_play *p)
{
	json_object *a = bd_get_arr(po, "playerScores");
	for (size_t k = 0; a && k < json_object_array_length(a); k++) {
		json_object *s = json_object_array_get_idx(a, k);
		const db_export_row *r = (int)k < p->n ? &e->rs.rows[p->first + (int)k] : NULL;
		int64_t ref = 0;
		bool has = bd_get_id(s, "playerRefId", &ref);
		if (r && r->has_result && !r->anonymous && !r->unrated &&
		    !(has && bd_names_match(bd_get_str(bd_list_by_id(&e->players, ref), "name"),
		                            r->name))) {
			ref = ex_row_pid(e, r);
			bd_put(s, "playerRefId", jx_int(ref));
			has = true;
		}
		if (has)
			mark_used(e, ref);
	}
}

/* Does seat object s say the score row r holds (none, or the same number)? */
static bool score_same(json_object *s, const db_export_row *r)
{
	const char *have = io_finite_text(r->score);
	json_object *v = bd_get(s, "score");
	double d;
	if (json_object_is_type(v, json_type_string)) {
		if (!io_score_parse(json_object_get_string(v), &d))
			return have == NULL && r->score_text == NULL;
	} else if (json_object_is_type(v, json_type_int) ||
	           json_object_is_type(v, json_type_double)) {
		d = json_object_get_double(v);
	} else {
		return have == NULL;
	}
	return have != NULL && strtod(have, NULL) == d;
}

/* A seat of play p as the league holds it (row r), over the seat object it had (src, may be
 * NULL; its other members kept). */
static json_object *ex_seat(ex *e, json_object *src, const db_export_row *r)
{
	json_object *s = src ? json_object_get(src) : ex_source(r->result_extra);
	int64_t pid = ex_row_pid(e, r), rank = -1;
	bd_put(s, "playerRefId", jx_int(pid));
	mark_used(e, pid);
	if (src ? !score_same(src, r) : !bd_get(s, "score"))
		bd_put(s, "score", io_score_json(r->score, r->score_text));
	bd_put(s, "winner", jx_bool(r->winner));
	if (!src || !bd_get_id(src, "rank", &rank) || rank != 0) /* 0: BG Stats ranked nobody */
		bd_put(s, "rank", jx_int(r->rank));
	if (!bd_get(s, "seatOrder"))
		bd_put(s, "seatOrder", jx_int(r->seat));
	return s;
}

/* The seat of old (not yet taken) that row r sat in: the one naming its member's object or a
 * player of its name, else (pass 2: a member merged into another since) the one at its place. */
static json_object *ex_old_seat(ex *e, json_object *old, bool *taken, const db_export_row *r,
                                int pass)
{
	size_t no = old ? json_object_array_length(old) : 0, at = (size_t)(r->seat - 1);
	if (pass == 2) {
		if (at >= no || taken[at])
			return NULL;
		taken[at] = true;
		return json_object_array_get_idx(old, at);
	}
	int64_t pid = ex_row_pid(e, r), ref;
	for (size_t j = 0; j < no; j++) {
		json_object *s = json_object_array_get_idx(old, j);
		if (!taken[j] && bd_get_id(s, "playerRefId", &ref) &&
		    (ref == pid ||
		     bd_names_match(bd_get_str(bd_list_by_id(&e->players, ref), "name"),
		                    r->name))) {
			taken[j] = true;
			return s;
		}
	}
	return NULL;
}

/* The seats of play p over the file's seats (old), each row over the seat it sat in. */
static json_object *ex_seats(ex *e, json_object *old, const ex_play *p)
{
	size_t no = old ? json_object_array_length(old) : 0;
	bool *taken = xcalloc(no + 1, sizeof *taken);
	json_object **src = xcalloc((size_t)p->n + 1, sizeof *src);
	for (int pass = 1; pass <= 2; pass++)
		for (int i = 0; i < p->n; i++) {
			const db_export_row *r = &e->rs.rows[p->first + i];
			if (r->has_result && !src[i])
				src[i] = ex_old_seat(e, old, taken, r, pass);
		}
	json_object *seats = jx_arr();
	for (int i = 0; i < p->n; i++)
		if (e->rs.rows[p->first + i].has_result)
			jx_push(seats, ex_seat(e, src[i], &e->rs.rows[p->first + i]));
	free(src);
	free(taken);
	return seats;
}

/* Play object po of a file, edited in the league since: its members as the league holds them. */
static void ex_edited(ex *e, json_object *po, const ex_play *p)
{
	const db_export_row *x = &e->rs.rows[p->first];
	int64_t v;
	bd_put(po, "playDate", jx_str(x->date_bgs));
	if (x->duration_min)
		bd_put(po, "durationMin", jx_int(io_int_text(x->duration_min)));
	else if (bd_get_id(po, "durationMin", &v) && v > 0)
		bd_put(po, "durationMin", jx_int(0));
	bd_put(po, "gameRefId", jx_int(ex_game(e, x)));
	if (x->location[0]) {
		bd_put(po, "locationRefId", jx_int(ex_location(e, x->location)));
	} else if (bd_get_id(po, "locationRefId", &v)) {
		const char *n = bd_get_str(bd_list_by_id(&e->locations, v), "name");
		if (n && *n)
			json_object_object_del(po, "locationRefId");
	}
	const char *c = bd_get_str(po, "comments");
	if (strcmp(c ? c : "", x->notes) != 0)
		bd_put(po, "comments", jx_str(x->notes));
	json_object *ig = bd_get(po, "ignored");
	if ((json_object_is_type(ig, json_type_boolean) && json_object_get_boolean(ig)) !=
	    x->ignored)
		bd_put(po, "ignored", jx_bool(x->ignored));
	bd_put(po, "playerScores", ex_seats(e, bd_get_arr(po, "playerScores"), p));
}

/* A play no file holds: what the league kept of its source play, with what it holds over it. */
static json_object *ex_new_play(ex *e, const ex_play *p)
{
	const db_export_row *x = &e->rs.rows[p->first];
	json_object *o = ex_source(x->play_extra);
	if (!x->play_extra) { /* a play of ours: what BG Stats writes for one entered plainly */
		bd_put(o, "usesTeams", jx_bool(false));
		bd_put(o, "manualWinner", jx_bool(false));
		bd_put(o, "rounds", jx_int(0));
	}
	char uuid[IO_UUID_LEN + 1];
	io_play_uuid(x->uuid, uuid);
	bd_put(o, "uuid", jx_str(uuid));
	bd_put(o, "playDate", jx_str(x->date_bgs));
	bd_put(o, "durationMin", jx_int(io_int_text(x->duration_min)));
	bd_put(o, "gameRefId", jx_int(ex_game(e, x)));
	if (x->location[0])
		bd_put(o, "locationRefId", jx_int(ex_location(e, x->location)));
	bd_put(o, "bggId", jx_int(io_int_text(x->bgg_play_id)));
	bd_put(o, "comments", jx_str(x->notes));
	bd_put(o, "ignored", jx_bool(x->ignored));
	if (x->incomplete) /* BGG's incomplete play: no BG Stats member says it */
		bd_put(o, "incomplete", jx_bool(true));
	json_object *seats = jx_arr();
	for (int i = p->first; i < p->first + p->n; i++)
		if (e->rs.rows[i].has_result)
			jx_push(seats, ex_seat(e, NULL, &e->rs.rows[i]));
	bd_put(o, "playerScores", seats);
	return o;
}

/* Play object po of file fi: written (as it came, or as the league changed it) or left out. */
static void ex_file_play(ex *e, int fi, const ex_file *f, json_object *po)
{
	int64_t v;
	if (!json_object_is_type(po, json_type_object)) {
		if (fi == 0)
			jx_push(e->out, json_object_get(po));
		return;
	}
	remap_play(po, f);
	json_object *a = bd_get_arr(po, "playerScores");
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		if (bd_get_id(json_object_array_get_idx(a, i), "playerRefId", &v)) {
			char k[24];
			bd_id_key(v, k);
			bd_map_set(e->seated, k, 1);
		}
	const char *u = bd_get_str(po, "uuid");
	if (u && bd_map_get(e->play_by_uuid, u, &v)) {
		ex_play *p = &e->plays[v];
		if (p->file == -1) {
			p->file = fi;
			if (p->edited)
				ex_edited(e, po, p);
			else
				ex_seats_kept(e, po, p);
		} else if (p->file == fi) { /* the file's second play of one uuid, as it came */
			mark_seats_used(e, po);
		} else {
			return; /* an earlier file had it */
		}
		jx_push(e->out, json_object_get(po));
		return;
	}
	if (u && bd_map_get(e->deleted, u, &v))
		return;
	char k[24];
	if (bd_get_id(po, "bggId", &v) && v > 0) { /* the league has that BGG play from elsewhere */
		bd_id_key(v, k);
		if (bd_map_get(e->bgg_plays, k, &v))
			return;
	}
	if (u && fi > 0 && bd_map_get(e->kept, u, &v))
		return;
	if (u)
		bd_map_set(e->kept, u, 1);
	mark_seats_used(e, po); /* a play the league never took (no players, no date…) */
	jx_push(e->out, json_object_get(po));
}

/* ---- files ---- */

/* Is o a BG Stats export (an object with the arrays games, players and plays)? */
static bool is_export(json_object *o)
{
	return bd_get_arr(o, "games") && bd_get_arr(o, "players") && bd_get_arr(o, "plays");
}

/* The objects of list l in a later file (root) the document lacks, added; the map of its ids
 * to the document's (owned). */
static json_object *ex_merge_list(ex *e, bd_list *l, json_object *root)
{
	json_object *map = jx_obj(), *a = bd_get_arr(root, l->key);
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		json_object *o = json_object_array_get_idx(a, i), *have;
		int64_t id, to;
		const char *u = bd_get_str(o, "uuid");
		if (!bd_get_id(o, "id", &id))
			continue;
		have = u ? bd_list_at(l, l->by_uuid, u) : NULL;
		if (!have || !bd_get_id(have, "id", &to))
			to = bd_list_add(l, e->doc, json_object_get(o));
		char k[24];
		bd_id_key(id, k);
		bd_map_set(map, k, to);
	}
	return map;
}

/* A later file: its objects and the top-level members the document lacks. */
static void ex_merge_file(ex *e, ex_file *f)
{
	f->games = ex_merge_list(e, &e->games, f->root);
	f->players = ex_merge_list(e, &e->players, f->root);
	f->locations = ex_merge_list(e, &e->locations, f->root);
	json_object_object_foreach(f->root, key, val)
	{
		if (!json_object_object_get_ex(e->doc, key, NULL))
			bd_put(e->doc, key, json_object_get(val));
	}
}

/* Is a member of the league named name (as the import matches names)? */
static bool ex_has_member(const ex *e, const char *name)
{
	for (int i = 0; i < e->mrows.n; i++)
		if (bd_names_match(e->mrows.rows[i].name, name))
			return true;
	return false;
}

/* Drops each player object that sat in the league's plays, that no seat names any more and
 * whose member the league no longer has (merged into another); the one userInfo names stays. */
static void ex_drop_players(ex *e)
{
	json_object *from = jx_obj(), *kept = jx_arr();
	for (int i = 0; i < e->rs.n; i++)
		if (e->rs.rows[i].player_uuid)
			bd_map_set(from, e->rs.rows[i].player_uuid, 1);
	int64_t me = 0, v;
	bd_get_id(bd_get(e->doc, "userInfo"), "meRefId", &me);
	bool dropped = false;
	for (size_t i = 0; e->players.arr && i < json_object_array_length(e->players.arr); i++) {
		json_object *o = json_object_array_get_idx(e->players.arr, i);
		int64_t id;
		char k[24];
		bool has = bd_get_id(o, "id", &id);
		if (has)
			bd_id_key(id, k);
		if (has && id != me && !bd_map_get(e->used, k, &v) &&
		    (bd_map_get(from, bd_get_str(o, "uuid"), &v) || bd_map_get(e->seated, k, &v)) &&
		    !ex_has_member(e, bd_get_str(o, "name"))) {
			dropped = true;
			continue;
		}
		jx_push(kept, json_object_get(o));
	}
	if (dropped)
		bd_put(e->doc, "players", kept);
	else
		json_object_put(kept);
	json_object_put(from);
}

/* The export document from what e read. */
static void ex_build(ex *e)
{
	int nf = e->files.n;
	ex_file *fs = xcalloc((size_t)nf + 1, sizeof *fs);
	for (int i = 0; i < nf; i++) {
		json_object *o = jx_parse_stored(e->files.rows[i].body);
		if (!is_export(o)) {
			json_object_put(o);
			continue;
		}
		fs[i].root = o;
		if (!e->doc)
			e->doc = o;
	}
	if (!e->doc) {
		e->doc = jx_obj();
		bd_put(e->doc, "about",
		       jx_str("Dice Hospital companion league export, BG Stats format"));
		bd_put(e->doc, "games", jx_arr());
		bd_put(e->doc, "players", jx_arr());
		bd_put(e->doc, "locations", jx_arr());
		bd_put(e->doc, "plays", jx_arr());
	}
	bd_list_open(&e->games, e->doc, "games");
	bd_list_open(&e->players, e->doc, "players");
	bd_list_open(&e->locations, e->doc, "locations");
	for (int i = 0; i < nf; i++)
		if (fs[i].root && fs[i].root != e->doc)
			ex_merge_file(e, &fs[i]);
	ex_index_rows(e);
	e->out = jx_arr();
	for (int i = 0; i < nf; i++) {
		json_object *a = fs[i].root ? bd_get_arr(fs[i].root, "plays") : NULL;
		for (size_t k = 0; a && k < json_object_array_length(a); k++)
			ex_file_play(e, i, &fs[i], json_object_array_get_idx(a, k));
	}
	for (int i = 0; i < e->nplays; i++)
		if (e->plays[i].file == -1)
			jx_push(e->out, ex_new_play(e, &e->plays[i]));
	bd_put(e->doc, "plays", e->out);
	e->out = NULL;
	ex_renames(e);
	ex_drop_players(e);
	for (int i = 0; i < nf; i++) {
		if (fs[i].root != e->doc)
			json_object_put(fs[i].root);
		json_object_put(fs[i].games);
		json_object_put(fs[i].players);
		json_object_put(fs[i].locations);
	}
	free(fs);
}

static int export_json_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	ex e = {.league = req->params[0]};
	if (!io_export_rows_all(req, resp, c, acc, &a, &e.rs))
		return 0;
	if (db_league_games_list(c, e.league, &e.lgames) != DB_OK ||
	    db_league_locations_list(c, e.league, &e.llocs) != DB_OK ||
	    db_league_players_list(c, e.league, &e.lplayers) != DB_OK ||
	    db_league_play_changes(c, e.league, &e.changes) != DB_OK ||
	    db_league_files_list(c, e.league, &e.files) != DB_OK ||
	    db_league_members(c, e.league, &e.mrows) != DB_OK) {
		ex_free(&e);
		return acct_reply_db(resp);
	}
	e.play_by_uuid = jx_obj();
	e.bgg_plays = jx_obj();
	e.deleted = jx_obj();
	e.kept = jx_obj();
	e.member_by_id = jx_obj();
	e.used = jx_obj();
	e.seated = jx_obj();
	ex_build(&e);
	const char *t = json_object_to_json_string_ext(e.doc, JSON_C_TO_STRING_PLAIN |
	                                                          JSON_C_TO_STRING_NOSLASHESCAPE);
	char *text = xstrdup(oom_check((void *)t));
	ex_free(&e);
	return io_reply_file(resp, "application/json", "league-bgstats.json", text, strlen(text));
}

int api_league_export_json(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, export_json_read);
}
