/* A finished table game becomes a league play (tablegames.h): the name each kind's game gets,
 * its seats mapped to members, the league recomputed, and the engine's league check. */
#include "base/log.h"
#include "leagues/tablegames.h"
#include "leagues/access.h"
#include "leagues/dates.h"
#include "leagues/members.h"
#include "leagues/ratings.h"
#include "leagues/rows.h"
#include "leagues/store.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ---- finished table games ---- */

static const char *kind_game_name(const char *kind)
{
	if (strcmp(kind, "er") == 0)
		return "Dice Hospital: ER – Emergency Roll";
	if (strcmp(kind, "dh") == 0)
		return "Dice Hospital";
	if (strcmp(kind, "clinic") == 0)
		return "Clinic";
	return kind;
}

void tablegames_recorded(const http_req *req, void *c)
{
	/* the cookie's session, unchecked: the worst a stale or forged one does is send its own
	 * next reads to the primary */
	account writer = {0};
	if (acct_session_key(req, writer.session))
		access_wrote(c, &writer);
}

int tablegames_record_game(db_conn *c, const char *game_id, const char *league_id, const char *kind,
                           const char *result_json)
{
	if (league_id == NULL || league_id[0] == '\0')
		return DB_OK;
	db_status st = access_lock(c, league_id);
	if (st == DB_ABORT) {
		log_client("game %s names league %s, which does not exist: not recorded", game_id,
		           league_id);
		return DB_OK;
	}
	if (st != DB_OK)
		return st;
	json_object *root = json_tokener_parse(result_json), *a = NULL, *v;
	if (root == NULL || !json_object_object_get_ex(root, "standings", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		log_bug("game %s: result without standings: not recorded", game_id);
		json_object_put(root);
		return DB_OK;
	}
	league_result res[MAX_RESULTS];
	league_play p = {.game = kind_game_name(kind),
	                 .duration_min = -1,
	                 .source = "table",
	                 .game_id = game_id,
	                 .results = res};
	const char *finished = NULL, *created = NULL;
	if (json_object_object_get_ex(root, "finished_at", &v))
		finished = json_object_get_string(v);
	if (json_object_object_get_ex(root, "created_at", &v))
		created = json_object_get_string(v);
	/* a game the table ended before the rulebook's last round: kept and shown, not rated */
	if (json_object_object_get_ex(root, "incomplete", &v))
		p.incomplete = json_object_get_boolean(v);
	int off;
	if (!finished || !dates_parse_rfc3339(finished, p.when, &off)) {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(p.when, sizeof p.when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	char cw[64];
	if (created && finished && dates_parse_rfc3339(created, cw, &off)) {
		struct tm a0 = {0}, a1 = {0};
		if (strptime(cw, "%Y-%m-%dT%H:%M:%S", &a0) &&
		    strptime(p.when, "%Y-%m-%dT%H:%M:%S", &a1)) {
			double d = difftime(timegm(&a1), timegm(&a0));
			if (d >= 0)
				p.duration_min = (int64_t)(d / 60 + 0.5);
		}
	}
	size_t n = json_object_array_length(a);
	st = DB_OK;
	for (size_t i = 0; i < n && p.nresults < MAX_RESULTS && st == DB_OK; i++) {
		json_object *s = json_object_array_get_idx(a, i), *name, *bot, *score, *rank, *bd;
		if (json_object_object_get_ex(s, "bot", &bot) && json_object_get_boolean(bot))
			continue;
		if (!json_object_object_get_ex(s, "name", &name))
			continue;
		league_result *x = &res[p.nresults++];
		memset(x, 0, sizeof *x);
		bool created_member;
		st = members_by_name(c, league_id, json_object_get_string(name), x->member,
		                     &created_member);
		/* two seats of one name are two players: the second is "name (seat N)" */
		for (int k = 0; st == DB_OK && k < p.nresults - 1; k++)
			if (strcmp(res[k].member, x->member) == 0) {
				char alt[300];
				snprintf(alt, sizeof alt, "%.256s (seat %zu)",
				         json_object_get_string(name), i + 1);
				st = members_by_name(c, league_id, alt, x->member, &created_member);
				break;
			}
		if (json_object_object_get_ex(s, "score", &score)) {
			x->has_score = true;
			x->score = json_object_get_double(score);
		}
		if (json_object_object_get_ex(s, "rank", &rank)) {
			x->has_rank = true;
			x->rank = json_object_get_int(rank);
		}
		if (json_object_object_get_ex(s, "breakdown", &bd))
			x->breakdown = json_object_to_json_string_ext(bd, JSON_C_TO_STRING_PLAIN);
	}
	const char *why;
	if (st == DB_OK && p.nresults > 0 && store_play_rank(&p, &why)) {
		char id[ID_LEN + 1];
		st = store_play_insert(c, league_id, NULL, &p, id);
		if (st == DB_ABORT) /* already recorded */
			st = DB_OK;
		else if (st == DB_OK)
			st = ratings_recompute_added(c, league_id, id);
	}
	json_object_put(root);
	return st;
}

int tablegames_finish_hook(void *c, const char *game_id, const char *league, const char *kind,
                           const char *result_json)
{
	return tablegames_record_game(c, game_id, league, kind, result_json) == DB_OK ? 0 : -1;
}

bool tablegames_may_record(const http_req *req, http_resp *resp, db_conn *c, const char *league)
{
	league_access a;
	return access_check(req, resp, c, league, false, &a);
}
