/* The engine's own routes, the same for every kind: a game's state, its log, its event stream,
 * creating a game, joining a seat by code. */
#include "engine/internal.h"

/* ---- reads ---- */

static const table_kind *kind_or_404(const http_req *req, http_resp *resp)
{
	const table_kind *k = eng_kind_of_path(req->path);
	if (k == NULL)
		http_reply_problem(resp, 404, "no such kind of game", NULL, NULL);
	return k;
}

int table_api_get(const http_req *req, http_resp *resp)
{
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL)
		return 0;
	table_game *g = table_load_for_read(req, resp, kind, req->params[0]);
	if (g == NULL)
		return 0;
	eng_reply_state(resp, g);
	free(g);
	return 0;
}

typedef struct {
	table_game *g; /* replayed from the start, event by event */
	table_view v;
	table_event ev;
	json_object *log, *events;
	int failed;
} log_arg;

static int log_one(const db_event_row *row, void *arg)
{
	log_arg *a = arg;
	table_game *g = a->g;
	table_refusal why;
	json_object *e = jx_obj();
	jx_set(e, "version", jx_int(row->version));
	jx_set(e, "kind", jx_str(row->kind));
	jx_set(e, "seat", jx_int(row->seat));
	jx_set(e, "turn", jx_int(row->turn));
	jx_set(e, "payload", jx_parse_stored(row->payload));
	jx_set(e, "at", jx_str(row->at));
	jx_push(a->events, e);
	memset(a->ev.body, 0, g->kind->event_size);
	a->ev.name = row->kind;
	a->ev.seat = row->seat;
	a->ev.turn = row->turn;
	if (g->kind->event_decode(&a->ev, row->payload) != 0 ||
	    g->kind->apply(g->state, &a->ev, &why) != 0) {
		a->failed = row->version;
		return 1;
	}
	g->version = row->version;
	a->v.version = g->version;
	if (g->kind->log_step)
		g->kind->log_step(g->state, &a->ev, &a->v, a->log);
	return 0;
}

/* The log: every event, and whatever the kind adds while replaying (ER: turn by turn). */
int table_api_log(const http_req *req, http_resp *resp)
{
	char hash[TOKEN_HASH_HEX + 1];
	db_game_row row;
	table_game *now = NULL;
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL || eng_request_token(req, false, hash, resp) != 0)
		return 0;
	db_conn *c = db_thread_conn();
	if (c == NULL)
		return eng_reply_db(resp, DB_UNAVAILABLE);
	if (eng_load(c, kind, req->params[0], hash, false, &now, &row, resp) != 0)
		goto out;
	log_arg a = {.g = xcalloc(1, eng_game_size(kind)),
	             .ev = {.body = xcalloc(1, kind->event_size)}};
	memcpy(a.g, now, sizeof *now);
	if (eng_init_state(a.g, row.config, resp) == 0) {
		eng_view_of(a.g, &a.v);
		a.log = jx_obj();
		a.events = jx_arr();
		jx_set(a.log, "id", jx_str(now->id));
		jx_set(a.log, "status",
		       jx_str(kind->finished(now->state) ? "finished" : "playing"));
		jx_set(a.log, "version", jx_int(now->version));
		jx_set(a.log, "events", a.events);
		if (kind->log_start)
			kind->log_start(a.g->state, &a.v, a.log);
		int stopped = 0;
		db_status st = db_events_log(c, now->id, now->version, log_one, &a, &stopped);
		if (st != DB_OK) {
			json_object_put(a.log);
			eng_reply_db(resp, st);
		} else if (stopped) {
			log_bug("game %s: event %d does not replay in the log", now->id, a.failed);
			json_object_put(a.log);
			eng_reply_bug(resp, "the stored game does not replay");
		} else {
			http_reply_json(resp, 200, a.log);
		}
	}
	free(a.ev.body);
	free(a.g);
out:
	db_game_row_clear(&row);
	free(now);
	return 0;
}

/* The version a stream resumes after: Last-Event-ID (or ?last_event_id=) when it is a version
 * this stream could have sent, decimal digits only from 0 to the game's current version;
 * anything else (signs, spaces, garbage, a version the game has not reached) is ignored and the
 * stream starts now, as without the header. Not a 400: browsers echo the last id we sent and
 * give up on an EventSource that gets an error, so a stray value should cost a resumption, not
 * the stream. */
static int resume_version(const char *last, int current)
{
	if (last == NULL || *last == '\0' || strlen(last) > 10)
		return 0;
	long long v = 0;
	for (const char *p = last; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		v = v * 10 + (*p - '0');
	}
	return v <= current && v <= INT_MAX ? (int)v : 0;
}

int table_api_events(const http_req *req, http_resp *resp)
{
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL)
		return 0;
	unsigned changes = live_token_changes(req->params[0]); /* before the token is checked */
	table_game *g = eng_load_for_read(req, resp, kind, req->params[0], true);
	if (g == NULL)
		return 0;
	const char *last = http_header(req, "Last-Event-ID");
	if (last == NULL)
		last = http_query(req, "last_event_id");
	int rc =
	    live_stream(req, resp, g->id, resume_version(last, g->version), g->version, changes);
	free(g);
	return rc;
}

/* ---- create ---- */

typedef struct {
	const table_kind *kind;
	const table_new *n;
	/* out */
	char id[ID_LEN + 1], code[CODE_LEN + 1], host[TOKEN_LEN + 1];
	char seat_tokens[TABLE_MAX_SEATS][TOKEN_LEN + 1];
} create_arg;

/* The game and its seats, one statement; a join code that collides with a live game's is drawn
 * again (ON CONFLICT DO NOTHING: nothing was written). */
static db_status create_tx(db_conn *c, void *arg)
{
	create_arg *a = arg;
	char hash[TOKEN_HASH_HEX + 1];
	db_seat_batch seats = {0};
	for (int s = 0; s < a->n->nseats; s++) {
		a->seat_tokens[s][0] = '\0';
		if (!a->n->bot[s]) {
			token_new(a->seat_tokens[s]);
			token_hash_hex(a->seat_tokens[s], hash);
		}
		db_seat_batch_add(&seats, s + 1, a->n->names[s], a->n->bot[s],
		                  a->n->bot[s] ? NULL : hash);
	}
	token_new(a->host);
	token_hash_hex(a->host, hash);
	bool inserted = false;
	db_status st = DB_FAIL;
	for (int attempt = 0; attempt < 8 && !inserted; attempt++) {
		id_new(a->id);
		code_new(a->code);
		st = db_game_insert(c, a->id, a->kind->name, a->code, hash, jx_text(a->n->config),
		                    a->n->league, &seats, &inserted);
		if (st != DB_OK)
			break;
	}
	db_seat_batch_free(&seats);
	if (st == DB_OK && !inserted)
		return DB_FAIL;
	return st;
}

static json_object *create_reply(const create_arg *a)
{
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(a->id));
	jx_set(o, "kind", jx_str(a->kind->name));
	jx_set(o, "code", jx_str(a->code));
	jx_set(o, "host_token", jx_str(a->host));
	json_object *seats = jx_arr();
	for (int s = 0; s < a->n->nseats; s++) {
		json_object *so = jx_obj();
		jx_set(so, "seat", jx_int(s + 1));
		jx_set(so, "name", jx_str(a->n->names[s]));
		jx_set(so, "seat_token", a->n->bot[s] ? jx_null() : jx_str(a->seat_tokens[s]));
		jx_set(so, "bot", jx_bool(a->n->bot[s]));
		jx_push(seats, so);
	}
	jx_set(o, "seats", seats);
	if (a->kind->create_reply)
		a->kind->create_reply(a->n->config, o);
	jx_set(o, "version", jx_int(0));
	return o;
}

int table_api_create(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	table_new n = {0};
	table_refusal why;
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL || http_body_json(req, resp, &root) != 0)
		return 0;
	if (kind->create_parse(root, &n, &why) != 0) {
		table_reply_refusal(resp, &why);
		goto out;
	}
	db_conn *c = db_thread_conn();
	if (c == NULL) {
		eng_reply_db(resp, DB_UNAVAILABLE);
		goto out;
	}
	/* a game recorded in a league is created by one of its owners or members */
	if (n.league && g_league_check && g_league_check(req, resp, c, n.league) != 0)
		goto out;
	create_arg *a = xcalloc(1, sizeof *a);
	a->kind = kind;
	a->n = &n;
	db_status st = db_tx(c, false, create_tx, a);
	if (st != DB_OK) {
		eng_reply_db(resp, st);
	} else {
		char loc[128];
		http_reply_json(resp, 201, create_reply(a));
		snprintf(loc, sizeof loc, "/api/v1/%s/games/%s", kind->name, a->id);
		http_resp_header(resp, "Location", loc);
	}
	free(a);
out:
	json_object_put(n.config);
	json_object_put(root);
	return 0;
}

int table_create_in(void *conn, const table_kind *kind, json_object *root, json_object **reply,
                    table_refusal *r, int *st)
{
	table_new n = {0};
	*reply = NULL;
	*st = DB_OK;
	if (kind->create_parse(root, &n, r) != 0)
		return -1;
	create_arg *a = xcalloc(1, sizeof *a);
	a->kind = kind;
	a->n = &n;
	*st = create_tx(conn, a);
	if (*st == DB_OK)
		*reply = create_reply(a);
	else
		r->status = 0;
	free(a);
	json_object_put(n.config);
	return *st == DB_OK ? 0 : -1;
}

/* ---- join ---- */

/* Upper-cases a join code (codes are typed by people; the alphabet is upper case). */
static void code_upper(const char *code, char out[CODE_LEN + 1])
{
	size_t i = 0;
	for (; i < CODE_LEN && code[i]; i++)
		out[i] = (char)(code[i] >= 'a' && code[i] <= 'z' ? code[i] - 32 : code[i]);
	out[i] = '\0';
}

typedef struct {
	char code[CODE_LEN + 1];
	int seat;
	bool replace;
	bool kept_link; /* the seat's link still plays it (a seat no phone claimed, no "replace") */
	char token[TOKEN_LEN + 1];
	db_join_row row;
	table_refusal why;
} join_arg;

static db_status join_tx(db_conn *c, void *arg)
{
	join_arg *a = arg;
	char hash[TOKEN_HASH_HEX + 1];
	db_status st = db_join_lock(c, a->code, a->seat, &a->row);
	if (st != DB_OK)
		return st;
	if (!a->row.found) {
		table_refuse(&a->why, 404, NULL, "/code",
		             "no game with this code has a player in this seat");
		return DB_ABORT;
	}
	if (a->row.claimed && !a->replace) {
		table_refuse(&a->why, 409, "seat-claimed", "/seat",
		             "a phone already plays %s's seat: send \"replace\": true to take it "
		             "over (that phone is told it lost the seat)",
		             a->row.name);
		return DB_ABORT;
	}
	token_new(a->token);
	token_hash_hex(a->token, hash);
	a->kept_link = !a->row.claimed && !a->replace;
	return db_join_take(c, a->row.game, a->seat, hash, a->kept_link);
}

/* POST /api/v1/join {"code","seat","replace"}: hands a phone its seat. Tokens are stored only as
 * hashes, so joining issues a fresh token for the seat. A seat no phone has claimed keeps its
 * link's token too (the host's seat link still works); a seat a phone has claimed needs
 * "replace": true (409 seat-claimed). With "replace" the seat's earlier tokens stop working (401
 * seat-replaced) and their event streams end. */
int table_api_join(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *code = NULL;
	int64_t seat = 0;
	js_error err = {{0}, {0}};
	join_arg *a = NULL;
	if (ratelimit_reply(g_join_limit, req, resp) || http_body_json(req, resp, &root) != 0)
		return 0;
	a = xcalloc(1, sizeof *a);
	const js_field f[] = {
	    {"code", JS_STRING, JS_F_REQUIRED, CODE_LEN, CODE_LEN, NULL, &code, NULL},
	    {"seat", JS_INT, JS_F_REQUIRED, 1, TABLE_MAX_SEATS, NULL, &seat, NULL},
	    {"replace", JS_BOOL, 0, 0, 0, NULL, &a->replace, NULL},
	};
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	code_upper(code, a->code);
	a->seat = (int)seat;
	db_conn *c = db_thread_conn();
	db_status st = c ? db_tx(c, false, join_tx, a) : DB_UNAVAILABLE;
	if (st == DB_ABORT) {
		table_reply_refusal(resp, &a->why);
	} else if (st != DB_OK) {
		eng_reply_db(resp, st);
	} else {
		if (!a->kept_link)
			live_tokens_changed(a->row.game);
		json_object *o = jx_obj();
		jx_set(o, "game", jx_str(a->row.game));
		jx_set(o, "kind", jx_str(a->row.kind));
		jx_set(o, "seat", jx_int(a->seat));
		jx_set(o, "name", jx_str(a->row.name));
		jx_set(o, "seat_token", jx_str(a->token));
		http_reply_json(resp, 200, o);
	}
out:
	free(a);
	json_object_put(root);
	return 0;
}

/* GET /api/v1/join/{code}: the seats a phone may join, by name, and which are claimed. */
int table_api_join_seats(const http_req *req, http_resp *resp)
{
	char code[CODE_LEN + 1], game[DB_NAME_MAX + 1], kind[DB_KIND_MAX + 1];
	db_seat_row seats[TABLE_MAX_SEATS];
	int n = 0;
	bool found = false;
	if (ratelimit_reply(g_join_limit, req, resp))
		return 0;
	if (strlen(req->params[0]) != CODE_LEN)
		return http_reply_problem(resp, 404, "no game has this code", NULL, NULL);
	code_upper(req->params[0], code);
	db_conn *c = db_thread_conn();
	db_status st = c ? db_game_by_code(c, code, &found, game, kind) : DB_UNAVAILABLE;
	if (st == DB_OK && found)
		st = db_seats_list(c, game, seats, TABLE_MAX_SEATS, &n);
	if (st != DB_OK)
		return eng_reply_db(resp, st);
	if (!found)
		return http_reply_problem(resp, 404, "no game has this code", NULL, NULL);
	json_object *o = jx_obj(), *arr = jx_arr();
	jx_set(o, "game", jx_str(game));
	jx_set(o, "kind", jx_str(kind));
	for (int i = 0; i < n; i++) {
		json_object *s = jx_obj();
		jx_set(s, "seat", jx_int(seats[i].seat));
		jx_set(s, "name", jx_str(seats[i].name));
		jx_set(s, "bot", jx_bool(seats[i].bot));
		jx_set(s, "claimed", jx_bool(seats[i].claimed));
		jx_push(arr, s);
	}
	jx_set(o, "seats", arr);
	return http_reply_json(resp, 200, o);
}

/* ---- the display token ---- */

typedef struct {
	const table_kind *kind;
	const char *id, *hash; /* the request's game and token hash */
	char token[DISPLAY_TOKEN_LEN + 1];
	http_resp *resp; /* refusals are replied inside the transaction */
} display_arg;

static db_status display_tx(db_conn *c, void *arg)
{
	display_arg *a = arg;
	char hash[TOKEN_HASH_HEX + 1];
	db_game_row row;
	table_game *g = NULL;
	http_resp_clear(a->resp);
	/* the row lock: of two requests at once, the second replaces the first one's token */
	int rc = eng_load(c, a->kind, a->id, a->hash, true, &g, &row, a->resp);
	bool host = rc == 0 && g->host;
	db_game_row_clear(&row);
	free(g);
	if (rc != 0)
		return DB_ABORT;
	if (!host) {
		http_reply_problem(a->resp, 403, "only the host token makes the display's link",
		                   "host-only", NULL);
		return DB_ABORT;
	}
	display_token_new(a->token);
	token_hash_hex(a->token, hash);
	return db_display_replace(c, a->id, hash);
}

/* POST …/games/{id}/display: the host's link for a screen in the middle of the table. A game
 * has one display token: each request makes a new one, and the one it replaces stops working
 * (401 display-replaced; its event streams end). Tokens are stored only as hashes, so an earlier
 * token cannot be handed out again; the host's phone keeps the link it got. */
int table_api_display(const http_req *req, http_resp *resp)
{
	char hash[TOKEN_HASH_HEX + 1];
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL || eng_request_token(req, false, hash, resp) != 0)
		return 0;
	db_conn *c = db_thread_conn();
	if (c == NULL)
		return eng_reply_db(resp, DB_UNAVAILABLE);
	display_arg *a = xcalloc(1, sizeof *a);
	*a = (display_arg){.kind = kind, .id = req->params[0], .hash = hash, .resp = resp};
	db_status st = db_tx(c, false, display_tx, a);
	if (st == DB_OK) {
		live_tokens_changed(a->id);
		char url[160];
		snprintf(url, sizeof url, "/display.html#kind=%s&game=%s&token=%s", kind->name,
		         a->id, a->token);
		json_object *o = jx_obj();
		jx_set(o, "display_token", jx_str(a->token));
		jx_set(o, "url", jx_str(url));
		http_reply_json(resp, 200, o);
	} else if (st != DB_ABORT) {
		eng_reply_db(resp, st);
	}
	free(a);
	return 0;
}

/* Every request but GET and HEAD (http_config.write_guard): a display token never writes. Its
 * shape says what it is (tokens.h), so no route, present or future, needs to look it up. */
int table_write_guard(const http_req *req, http_resp *resp)
{
	if (token_is_display(token_from_request(req)) || token_is_display(http_query(req, "token")))
		http_reply_problem(resp, 403, "a display token only reads the game",
		                   "display-read-only", NULL);
	return 0;
}
