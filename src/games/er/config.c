/* An ER game's configuration (api.md "Games"): the body of POST /api/v1/er/games read into an
 * er_game_config (players, solo, ALICAT's modifiers, specialists or a draw from the seed, deck,
 * league, seed), refused with the field and rule it breaks; the configuration as the engine
 * stores it, read back; the create reply's ER members. */
#include "games/er/kind_internal.h"

#include "games/er/data.h"
#include "games/er/json.h"
#include "engine/tokens.h"
#include "json/jx.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const er_deck_names[] = {"table", "app", NULL};

static json_object *config_json(const er_data *d, const er_game_config *cfg)
{
	char seed[32];
	json_object *o = jx_obj(), *c = jx_arr();
	jx_set(o, "nseats", jx_int(cfg->nseats));
	jx_set(o, "solo", jx_bool(cfg->solo));
	jx_set(o, "alicat_modifiers", er_json_modifiers(cfg->modifiers));
	for (int k = 0; k < 2; k++)
		jx_push(c, jx_str(d->specialists[cfg->cardio[k]].code));
	jx_set(o, "cardiologists", c);
	jx_set(o, "radiologist", jx_str(d->specialists[cfg->radiologist].code));
	jx_set(o, "epidemiologist", jx_str(d->specialists[cfg->epidemiologist].code));
	jx_set(o, "deck", jx_str(er_deck_names[cfg->app_deck]));
	snprintf(seed, sizeof seed, "%" PRIu64, cfg->seed);
	jx_set(o, "seed", jx_str(seed));
	jx_set(o, "nturns", jx_int(cfg->nturns));
	return o;
}

int er_config_parse(const er_data *d, const char *text, er_game_config *cfg)
{
	json_object *o = json_tokener_parse(text), *v;
	int rc = -1;
	js_error err;
	if (o == NULL)
		return -1;
	memset(cfg, 0, sizeof *cfg);
	if (json_object_object_get_ex(o, "nseats", &v))
		cfg->nseats = json_object_get_int(v);
	if (json_object_object_get_ex(o, "solo", &v))
		cfg->solo = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "alicat_modifiers", &v) &&
	    er_json_modifiers_parse(v, "", &cfg->modifiers, &err) != 0)
		goto out;
	if (!json_object_object_get_ex(o, "cardiologists", &v) || json_object_array_length(v) != 2)
		goto out;
	for (int k = 0; k < 2; k++)
		cfg->cardio[k] =
		    er_spec_from_code(d, json_object_get_string(json_object_array_get_idx(v, k)));
	if (json_object_object_get_ex(o, "radiologist", &v))
		cfg->radiologist = er_spec_from_code(d, json_object_get_string(v));
	if (json_object_object_get_ex(o, "epidemiologist", &v))
		cfg->epidemiologist = er_spec_from_code(d, json_object_get_string(v));
	if (json_object_object_get_ex(o, "deck", &v))
		cfg->app_deck = strcmp(json_object_get_string(v), "app") == 0;
	if (json_object_object_get_ex(o, "seed", &v))
		cfg->seed = strtoull(json_object_get_string(v), NULL, 10);
	rc = er_game_config_finish(d, cfg).rule ? -1 : 0;
out:
	json_object_put(o);
	return rc;
}

/* A parse error as a refusal: 400 naming the field. */
static int refuse_parse(table_refusal *r, const js_error *err)
{
	return table_refuse(r, 400, NULL, err->field, "%s", err->detail);
}

static int parse_players(json_object *players, table_new *n, table_refusal *r)
{
	js_error err = {{0}, {0}};
	char at[64];
	n->nseats = (int)json_object_array_length(players);
	for (int i = 0; i < n->nseats; i++) {
		const char *name = NULL;
		snprintf(at, sizeof at, "/players/%d", i);
		const js_field f[] = {
		    {"name", JS_STRING, JS_F_REQUIRED, 1, TABLE_NAME_MAX, NULL, &name, NULL},
		};
		if (js_fields(json_object_array_get_idx(players, (size_t)i), at, f, 1, &err) != 0)
			return refuse_parse(r, &err);
		snprintf(n->names[i], sizeof n->names[i], "%s", name);
	}
	return 0;
}

static int parse_specialists(const er_data *d, json_object *o, er_game_config *cfg,
                             table_refusal *r)
{
	json_object *cardio = NULL, *radio = NULL, *epi = NULL;
	const char *rs = NULL, *es = NULL;
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"cardiologists", JS_ARRAY, JS_F_REQUIRED, 2, 2, NULL, &cardio, NULL},
	    {"radiologist", JS_STRING, JS_F_REQUIRED, 1, 32, NULL, &rs, NULL},
	    {"epidemiologist", JS_STRING, JS_F_REQUIRED, 1, 32, NULL, &es, NULL},
	};
	if (js_fields(o, "/specialists", f, sizeof f / sizeof f[0], &err) != 0)
		return refuse_parse(r, &err);
	for (int k = 0; k < 2; k++) {
		char at[64];
		snprintf(at, sizeof at, "/specialists/cardiologists/%d", k);
		if (er_json_specialist(d, json_object_array_get_idx(cardio, (size_t)k), at,
		                       ER_KIND_CARDIOLOGIST, true, &cfg->cardio[k], &err) != 0)
			return refuse_parse(r, &err);
	}
	json_object_object_get_ex(o, "radiologist", &radio);
	json_object_object_get_ex(o, "epidemiologist", &epi);
	if (er_json_specialist(d, radio, "/specialists/radiologist", ER_KIND_RADIOLOGIST, true,
	                       &cfg->radiologist, &err) != 0 ||
	    er_json_specialist(d, epi, "/specialists/epidemiologist", ER_KIND_EPIDEMIOLOGIST, true,
	                       &cfg->epidemiologist, &err) != 0)
		return refuse_parse(r, &err);
	return 0;
}

int er_create_parse(json_object *root, table_new *n, table_refusal *r)
{
	const er_data *d = er_api_data();
	json_object *players = NULL, *mods = NULL, *specs = NULL;
	bool solo = false, has_seed = false;
	int deck = 1;
	int64_t seed = 0;
	er_game_config cfg = {0};
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"players", JS_ARRAY, JS_F_REQUIRED, 1, ER_MAX_SEATS, NULL, &players, NULL},
	    {"solo", JS_BOOL, 0, 0, 0, NULL, &solo, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &mods, NULL},
	    {"specialists", JS_OBJECT, JS_F_NULLABLE, 0, 0, NULL, &specs, NULL},
	    {"deck", JS_ENUM, 0, 0, 0, er_deck_names, &deck, NULL},
	    {"league", JS_STRING, JS_F_NULLABLE, 1, TABLE_NAME_MAX, NULL, &n->league, NULL},
	    {"seed", JS_INT, JS_F_NULLABLE, 0, INT64_MAX, NULL, &seed, &has_seed},
	};
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return refuse_parse(r, &err);
	if (parse_players(players, n, r) != 0)
		return -1;
	if (mods && er_json_modifiers_parse(mods, "/alicat_modifiers", &cfg.modifiers, &err) != 0)
		return refuse_parse(r, &err);
	if (solo && n->nseats != 1)
		return table_refuse(r, 422, "solo-one-player", "/players",
		                    "a solo game has exactly one player (and ALICAT)");
	if (cfg.modifiers && !solo)
		return table_refuse(r, 422, "modifiers-solo-only", "/alicat_modifiers",
		                    "ALICAT's modifiers apply only to solo games");
	if (__builtin_popcount(cfg.modifiers) > 2)
		return table_refuse(r, 422, "modifiers-one-or-two", "/alicat_modifiers",
		                    "pick 1 or 2 of ALICAT's modifiers (seed 003, ADJUSTING THE "
		                    "DIFFICULTY)");
	cfg.solo = solo;
	cfg.nseats = solo ? 2 : n->nseats;
	cfg.app_deck = deck == 1;
	cfg.seed = has_seed ? (uint64_t)seed : random_u64() >> 1;
	er_game_draw_specialists(d, cfg.seed, &cfg);
	if (specs && parse_specialists(d, specs, &cfg, r) != 0)
		return -1;
	er_result res = er_game_config_finish(d, &cfg);
	if (res.rule)
		return table_refuse(r, 422, res.rule, NULL, "%s", res.detail);
	if (solo) { /* seat 2 is ALICAT, the solo bot (seed 003, SOLO MODE) */
		n->nseats = 2;
		snprintf(n->names[1], sizeof n->names[1], "ALICAT");
		n->bot[1] = true;
	}
	n->config = config_json(d, &cfg);
	return 0;
}

void er_create_reply(json_object *config, json_object *reply)
{
	json_object *sp = jx_obj(), *v;
	static const char *const keys[] = {"cardiologists", "radiologist", "epidemiologist"};
	for (int i = 0; i < 3; i++)
		if (json_object_object_get_ex(config, keys[i], &v))
			jx_set(sp, keys[i], json_object_get(v));
	jx_set(reply, "specialists", sp);
	if (json_object_object_get_ex(config, "deck", &v))
		jx_set(reply, "deck", json_object_get(v));
	if (json_object_object_get_ex(config, "seed", &v))
		jx_set(reply, "seed", json_object_get(v));
	if (json_object_object_get_ex(config, "nturns", &v))
		jx_set(reply, "turns", json_object_get(v));
}
