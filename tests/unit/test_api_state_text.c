/* The state reply of an ER game (every move, reveal and read answers it) is written as text
 * (eng_reply_state with the kind's state_text); it must be the very bytes that the json-c path
 * sends (http_reply_json of eng_state_reply): same members, same order, same escapes. Games of
 * 2 to 6 players and solo games with ALICAT's modifiers are played through the ER kind's own
 * hooks (prepare, apply, bot_step) to their end, and every state on the way is compared, for
 * every requester (host, each seat, the display), with names and a league that need escaping.
 * Links the app library. */
#include "engine/internal.h"
#include "games/er/data.h"
#include "games/er/kind.h"
#include "rules/er_game.h"
#include "er_fixture.h"
#include "test.h"

#include <inttypes.h>
#include <stdlib.h>

static uint64_t rng = 88172645463325252ull;
static long n_compared;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int rnd_below(int n)
{
	return (int)(rnd() % (uint64_t)n);
}

/* Names every escape json-c writes, multi-byte UTF-8, '/' (not escaped in replies) and DEL. */
static const char *const names[] = {
    "Ada",
    "Zoë \"Doc\" O'Neil",
    "back\\slash / slash",
    "tab\there\nline\r\f\b",
    "\x01\x1f\x7f",
    "東京 🏥",
    "",
};

/* Both replies of g's state for each requester, compared byte for byte. */
static void compare_all(table_game *g)
{
	for (int who = -1; who <= g->nseats; who++) { /* -1: the display, 0: the host */
		g->display = who < 0;
		g->host = who == 0;
		g->you = who > 0 ? who : 0;
		http_resp a = {0}, b = {0};
		http_reply_json(&a, 200, eng_state_reply(g));
		eng_reply_state(&b, g);
		CHECK_EQ_INT(b.status, 200);
		const char *tb = http_resp_body(&b);
		CHECK_EQ_INT(b.body_len, strlen(tb));
		if (a.body_len != b.body_len || memcmp(a.body, tb, a.body_len) != 0) {
			printf("  version %d, requester %d\n  json-c: %s\n  text:   %s\n",
			       g->version, who, a.body, tb);
			CHECK(!"the text reply differs from the json-c one");
		}
		n_compared++;
		http_resp_clear(&a);
		http_resp_clear(&b);
	}
}

/* The stored configuration of a game (the text er_create_parse stores), made up from seed. */
static void config_text(const er_data *d, uint64_t seed, int nseats, bool solo, unsigned mods,
                        bool app_deck, char *out, size_t n)
{
	static const char *const mod_names[] = {"preparation", "equipment", "isolation",
	                                        "capacity"};
	er_game_config cfg = {0};
	char list[128] = "";
	er_game_draw_specialists(d, seed, &cfg);
	for (int i = 0; i < 4; i++)
		if (mods & (1u << i))
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"",
			         list[0] ? "," : "", mod_names[i]);
	snprintf(out, n,
	         "{\"nseats\":%d,\"solo\":%s,\"alicat_modifiers\":[%s],\"cardiologists\":[\"%s\","
	         "\"%s\"],\"radiologist\":\"%s\",\"epidemiologist\":\"%s\",\"deck\":\"%s\","
	         "\"seed\":\"%" PRIu64 "\"}",
	         nseats, solo ? "true" : "false", list, d->specialists[cfg.cardio[0]].code,
	         d->specialists[cfg.cardio[1]].code, d->specialists[cfg.radiologist].code,
	         d->specialists[cfg.epidemiologist].code, app_deck ? "app" : "table", seed);
}

/* Sends ev through the kind as the host would (prepare, then apply); the bots act after. */
static bool send(table_game *g, table_event *tev)
{
	const table_kind *k = &er_table_kind;
	table_view v;
	table_refusal r;
	g->host = true;
	g->you = 0;
	eng_view_of(g, &v);
	if (k->prepare(g->state, &v, tev, &r) != 0 || k->apply(g->state, tev, &r) != 0)
		return false;
	g->version++;
	er_event bot_body;
	table_event bot = {.body = &bot_body};
	memset(&bot_body, 0, sizeof bot_body);
	while (k->bot_step(g->state, &bot)) {
		if (k->apply(g->state, &bot, &r) != 0)
			return false;
		g->version++;
		memset(&bot_body, 0, sizeof bot_body);
	}
	return true;
}

/* A move for seat of the game: a random listed option, else its die to the morgue. */
static void pick_move(const er_game *eg, int seat, er_event *ev)
{
	static er_option opts[ER_MAX_OPTIONS];
	const er_data *d = er_api_data();
	er_turn t;
	er_game_turn_for(eg, seat, &t);
	int n = er_move_options(d, &t, &eg->sheets[seat - 1], false, opts, ER_MAX_OPTIONS);
	memset(ev, 0, sizeof *ev);
	ev->kind = ER_EV_MOVE;
	ev->alicat_discard = -1;
	if (n > 0) {
		er_move_from_option(d, &t, &opts[rnd_below(n)], &ev->move);
		return;
	}
	er_colour die = ER_RED;
	while (!t.chief && die == t.chief_die)
		die++;
	ev->move.die = die;
	ev->move.steps[ev->move.nsteps++] =
	    (er_step){ER_STEP_MORGUE, ER_PT_DIE, 0, 0, ER_NO_COLOUR};
	if (d->cards[t.card - 1].bay[die].kind == ER_BONUS_EXTRA)
		ev->move.steps[ev->move.nsteps++] =
		    (er_step){ER_STEP_MORGUE, ER_PT_EXTRA, 0, 0, ER_NO_COLOUR};
}

/* The next event the table waits for; false when the game is over. */
static bool next_event(const er_game *eg, er_event *ev, table_event *tev)
{
	if (eg->finished)
		return false;
	bool closed = true;
	for (int s = 0; s < eg->cfg.nseats; s++)
		closed = closed && eg->moved[s];
	if (eg->turn == 0 || closed) {
		memset(ev, 0, sizeof *ev);
		ev->kind = ER_EV_REVEAL;
		ev->alicat_discard = -1;
		*tev = (table_event){.name = "reveal", .body = ev};
		return true;
	}
	int seat = eg->chief_seat; /* the chief first, then the others in turn */
	for (int s = 1; eg->moved[seat - 1] && s <= eg->cfg.nseats; s++)
		seat = s;
	pick_move(eg, seat, ev);
	*tev = (table_event){.name = "move", .seat = seat, .turn = eg->turn, .body = ev};
	return true;
}

static void play_one(int nseats, bool solo, unsigned mods, const char *league)
{
	const table_kind *k = &er_table_kind;
	table_game *g = xcalloc(1, eng_game_size(k));
	char config[1024];
	int seats = solo ? 2 : nseats;
	config_text(er_api_data(), rnd() >> 1, seats, solo, mods, true, config, sizeof config);
	g->kind = k;
	g->nseats = seats;
	snprintf(g->id, sizeof g->id, "%024" PRIx64, rnd());
	snprintf(g->code, sizeof g->code, "K7Q2PX");
	snprintf(g->league, sizeof g->league, "%s", league);
	for (int s = 0; s < seats; s++) {
		snprintf(g->names[s], sizeof g->names[s], "%s",
		         names[(s + rnd_below(7)) % (sizeof names / sizeof names[0])]);
		g->bot[s] = solo && s == 1;
	}
	if (solo)
		snprintf(g->names[1], sizeof g->names[1], "ALICAT");
	if (k->init(g->state, config, seats) != 0) {
		CHECK(!"the made-up configuration does not load");
		free(g);
		return;
	}
	compare_all(g);
	er_event ev;
	table_event tev;
	int guard = 0;
	const er_game *eg = (const er_game *)g->state; /* er_table begins with its er_game */
	while (guard++ < 1000 && next_event(eg, &ev, &tev)) {
		if (!send(g, &tev)) {
			CHECK(!"an event of the played game is refused");
			break;
		}
		compare_all(g);
	}
	CHECK(eg->finished);
	free(g);
}

static void played_games(void)
{
	static const char *const leagues[] = {"", "club/ \"Thursday\" \\ nights", "0a1b"};
	for (int i = 0; i < 15; i++)
		play_one(2 + i % 5, false, 0, leagues[i % 3]);
	for (unsigned mods = 0; mods < 16; mods++)
		if (__builtin_popcount(mods) <= 2)
			play_one(1, true, mods, leagues[mods % 3]);
	printf("  %ld states compared\n", n_compared);
}

/* The writer alone, for what the games above do not reach: every byte below 0x80, integers at
 * the ends of their range, empty and nested containers. */
static void writer_against_json_c(void)
{
	char all[128];
	for (int i = 1; i < 128; i++)
		all[i - 1] = (char)i;
	all[127] = '\0';
	json_object *o = jx_obj(), *a = jx_arr();
	jx_set(o, "all", jx_str(all));
	jx_set(o, "min", jx_int(INT64_MIN));
	jx_set(o, "max", jx_int(INT64_MAX));
	jx_set(o, "zero", jx_int(0));
	jx_push(a, jx_arr());
	jx_push(a, jx_obj());
	jx_push(a, NULL);
	jx_push(a, jx_bool(false));
	jx_push(a, jx_int(-7));
	jx_set(o, "nested", a);
	http_resp want = {0};
	http_reply_json(&want, 200, o);
	jw *w = jw_thread();
	jw_obj(w);
	jw_kstr(w, "all", all);
	jw_kint(w, "min", INT64_MIN);
	jw_kint(w, "max", INT64_MAX);
	jw_kint(w, "zero", 0);
	jw_key(w, "nested");
	jw_arr(w);
	jw_arr(w);
	jw_arr_end(w);
	jw_obj(w);
	jw_obj_end(w);
	jw_null(w);
	jw_bool(w, false);
	jw_int(w, -7);
	jw_arr_end(w);
	jw_obj_end(w);
	CHECK_EQ_INT(w->s.len, want.body_len);
	if (w->s.len != want.body_len || memcmp(w->s.b, want.body, want.body_len) != 0) {
		printf("  json-c: %s\n  text:   %s\n", want.body, w->s.b);
		CHECK(!"the writer differs from json-c");
	}
	http_resp_clear(&want);
}

int main(void)
{
	if (er_api_init("templates") != 0) {
		printf("cannot load the ER templates\n");
		return 1;
	}
	TEST("json/jw: the text writer writes what json-c writes (every ASCII byte, int64 ends, "
	     "empty containers)",
	     writer_against_json_c);
	TEST("ER state reply: the text equals the json-c reply, byte for byte, for every state of "
	     "played games (2-6 seats, solo with modifiers, every requester, escaped names)",
	     played_games);
	TEST_MAIN_END();
}
