/* A league challenge's board and its closing (challboard.h; src/leagues/README.md
 * "Challenges"). Before the challenge closes the board holds no seed, no game of another
 * member and no sheet: only who plays and the scores of those who finished, best first. */
#include "leagues/challboard.h"

#include "leagues/ratings.h"
#include "leagues/rows.h"
#include "leagues/store.h"
#include "engine/table.h"
#include "engine/tokens.h"
#include "base/log.h"
#include "db/games.h"
#include "json/jx.h"

#include <stdio.h>
#include <string.h>

static const char *const ER_GAME_NAME = "Dice Hospital: ER – Emergency Roll";

/* ---- closing ---- */

typedef struct {
	const char *league, *id;
	bool by_time;
	league_access *owner; /* an owner's close: rights read again under the lock */
	http_resp *resp;
} close_arg;

static db_status refuse(http_resp *resp, int status, const char *detail, const char *rule)
{
	http_resp_clear(resp);
	http_reply_problem(resp, status, detail, rule, NULL);
	return DB_ABORT;
}

/* The finished attempts as one play among their members, ranked by score; stored and rated.
 * play (out) is "" when nobody finished. best_game: the top finisher's game. */
static db_status record_play(db_conn *c, const db_challenge *ch, char play[ID_LEN + 1],
                             char best_game[ID_LEN + 1])
{
	db_attempt_rows at = {0};
	league_result res[MAX_RESULTS];
	league_play p = {.game = ER_GAME_NAME,
	                 .duration_min = -1,
	                 .notes = ch->name,
	                 .source = "table",
	                 .results = res};
	play[0] = best_game[0] = '\0';
	db_status st = db_challenge_attempts(c, ch->id, &at);
	for (int i = 0; st == DB_OK && i < at.n && p.nresults < MAX_RESULTS; i++) {
		if (!at.rows[i].finished)
			continue;
		if (best_game[0] == '\0')
			snprintf(best_game, ID_LEN + 1, "%s", at.rows[i].game);
		/* the board of the closed challenge shows what its play holds */
		if ((st = db_challenge_counted(c, ch->id, at.rows[i].game)) != DB_OK)
			break;
		league_result *x = &res[p.nresults++];
		memset(x, 0, sizeof *x);
		snprintf(x->member, sizeof x->member, "%s", at.rows[i].member);
		x->has_score = true;
		x->score = at.rows[i].score;
	}
	db_rowset_clear(&at);
	if (st != DB_OK || p.nresults == 0)
		return st;
	snprintf(p.when, sizeof p.when, "%s", ch->ends);
	const char *why;
	if (!store_play_rank(&p, &why)) {
		log_bug("challenge %s: results do not rank: %s", ch->id, why);
		return DB_FAIL;
	}
	st = store_play_insert(c, ch->league, NULL, &p, play);
	if (st == DB_OK)
		st = ratings_recompute_added(c, ch->league, play);
	return st;
}

db_status challboard_lock(db_conn *c, const char *league, const char *id, league_access *as,
                          bool owner, db_challenge *ch, http_resp *resp)
{
	db_status st = as ? access_lock_as(c, league, owner, as, resp) : access_lock(c, league);
	if (st == DB_OK)
		st = db_challenge_lock(c, id, ch);
	if (st == DB_OK && (!ch->found || strcmp(ch->league, league) != 0))
		return refuse(resp, 404, "no such challenge in this league", NULL);
	return st;
}

static db_status close_tx(db_conn *c, void *arg)
{
	close_arg *x = arg;
	db_challenge ch;
	db_status st = challboard_lock(c, x->league, x->id, x->owner, true, &ch, x->resp);
	if (st != DB_OK)
		return st;
	/* closed meanwhile (another request, another server): nothing more to record */
	if (ch.closed || (x->by_time && !ch.due))
		return DB_OK;
	char play[ID_LEN + 1], best[ID_LEN + 1], token[DISPLAY_TOKEN_LEN + 1] = "";
	if ((st = record_play(c, &ch, play, best)) != DB_OK)
		return st;
	if (best[0]) { /* a read-only token of the top finisher's game for every reader */
		char hash[TOKEN_HASH_HEX + 1];
		display_token_new(token);
		token_hash_hex(token, hash);
		if ((st = db_display_replace(c, best, hash)) != DB_OK)
			return st;
	}
	return db_challenge_close(c, ch.id, play[0] ? play : NULL, best[0] ? best : NULL,
	                          token[0] ? token : NULL);
}

bool challboard_close(db_conn *c, const char *league, const char *id, bool by_time,
                      league_access *owner, const account *writer, http_resp *resp)
{
	close_arg x = {
	    .league = league, .id = id, .by_time = by_time, .owner = owner, .resp = resp};
	http_resp_clear(resp);
	access_run_tx(c, writer, close_tx, &x, resp);
	return !resp->defer && resp->status == 0;
}

/* ---- the board ---- */

/* The challenge's configuration as a member may see it (no seed while it is open). */
static void config_json(const db_challenge *ch, json_object *o)
{
	json_object *body = jx_parse_stored(ch->body), *v;
	static const char *const keys[] = {"alicat_modifiers", "specialists"};
	jx_set(o, "solo", jx_bool(ch->solo));
	for (size_t i = 0; body && i < sizeof keys / sizeof keys[0]; i++)
		if (json_object_object_get_ex(body, keys[i], &v))
			jx_set(o, keys[i], json_object_get(v));
	/* once closed the draw is no secret: the seed lets anyone play it again */
	if (ch->closed && body && json_object_object_get_ex(body, "seed", &v)) {
		char seed[32];
		snprintf(seed, sizeof seed, "%lld", (long long)json_object_get_int64(v));
		jx_set(o, "seed", jx_str(seed));
	}
	json_object_put(body);
}

/* The finished game's human seat (seat 1): its sheet and score breakdown into e. */
static int add_sheet(db_conn *c, const char *game, json_object *e, http_resp *resp)
{
	const table_kind *er = table_kind_find("er");
	table_game *g = er ? table_load_trusted(c, resp, er, game) : NULL;
	if (g == NULL)
		return -1;
	json_object *st = table_game_json(g), *seats, *seat, *v;
	table_game_free(g);
	if (json_object_object_get_ex(st, "seats", &seats) &&
	    (seat = json_object_array_get_idx(seats, 0)) != NULL) {
		if (json_object_object_get_ex(seat, "sheet", &v))
			jx_set(e, "sheet", json_object_get(v));
		if (json_object_object_get_ex(seat, "score", &v) &&
		    json_object_object_get_ex(v, "breakdown", &v))
			jx_set(e, "breakdown", json_object_get(v));
	}
	json_object_put(st);
	return 0;
}

static const char *status_of(const db_challenge *ch)
{
	return ch->closed ? "closed" : ch->due ? "closing" : ch->open ? "open" : "upcoming";
}

json_object *challboard_json(db_conn *c, const db_challenge *ch, const char *member, bool with_code,
                             http_resp *resp)
{
	db_attempt_rows at = {0};
	db_status st = db_challenge_attempts(c, ch->id, &at);
	if (st != DB_OK) {
		access_reply_status(resp, st);
		return NULL;
	}
	json_object *o = jx_obj(), *rows = jx_arr(), *you = jx_null();
	jx_set(o, "id", jx_str(ch->id));
	jx_set(o, "league", jx_str(ch->league));
	jx_set(o, "league_name", jx_str(ch->league_name));
	jx_set(o, "name", jx_str(ch->name));
	config_json(ch, o);
	jx_set(o, "opens", jx_str(ch->opens));
	jx_set(o, "closes", jx_str(ch->closes));
	jx_set(o, "status", jx_str(status_of(ch)));
	jx_set(o, "closed_at", jx_str_or_null(ch->closed_at[0] ? ch->closed_at : NULL));
	jx_set(o, "play", jx_str_or_null(ch->play[0] ? ch->play : NULL));
	if (with_code)
		jx_set(o, "code", jx_str(ch->code));
	int rank = 0, finished = 0;
	double last = 0;
	for (int i = 0; i < at.n; i++) {
		const db_attempt_row *r = &at.rows[i];
		json_object *e = jx_obj();
		jx_set(e, "member", jx_str(r->member));
		jx_set(e, "name", jx_str(r->name));
		/* once closed, a game not finished in time counts for nothing */
		jx_set(e, "status",
		       jx_str(r->finished  ? "finished"
		              : ch->closed ? "unfinished"
		                           : "playing"));
		if (r->finished) { /* rows come best first: equal scores share a rank */
			finished++;
			if (finished == 1 || r->score != last)
				rank = finished;
			last = r->score;
			jx_set(e, "rank", jx_int(rank));
			jx_set(e, "score", jx_double(r->score));
			jx_set(e, "finished_at", jx_str(r->finished_at));
		}
		/* another member's game and sheet only once the draw is no secret */
		if (ch->closed) {
			jx_set(e, "game", jx_str(r->game));
			if (r->finished && add_sheet(c, r->game, e, resp) != 0) {
				json_object_put(e);
				json_object_put(o);
				json_object_put(rows);
				json_object_put(you);
				db_rowset_clear(&at);
				return NULL;
			}
		}
		if (member[0] && strcmp(member, r->member) == 0) {
			json_object_put(you);
			you = jx_obj();
			jx_set(you, "member", jx_str(r->member));
			jx_set(you, "game", jx_str(r->game));
			jx_set(you, "code", jx_str(r->code));
			jx_set(you, "seat", jx_int(1));
			jx_set(you, "status", jx_str(r->finished ? "finished" : "playing"));
		}
		jx_push(rows, e);
	}
	jx_set(o, "standings", rows);
	jx_set(o, "you", you);
	jx_set(o, "finished", jx_int(finished));
	jx_set(o, "started", jx_int(at.n));
	if (ch->closed && ch->best_game[0]) {
		char url[160];
		json_object *b = jx_obj();
		jx_set(b, "game", jx_str(ch->best_game));
		jx_set(b, "seat", jx_int(1));
		snprintf(url, sizeof url, "/api/v1/er/games/%s/seats/1/analysis", ch->best_game);
		jx_set(b, "analysis_url", jx_str(url));
		snprintf(url, sizeof url, "/api/v1/er/games/%s", ch->best_game);
		jx_set(b, "game_url", jx_str(url));
		jx_set(b, "token", jx_str(ch->best_token));
		jx_set(o, "best", b);
	} else {
		jx_set(o, "best", jx_null());
	}
	db_rowset_clear(&at);
	return o;
}
