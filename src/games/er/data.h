/* ER game data shared by every ER endpoint: loaded once from templates/er/ at start
 * (er_api_init), read-only afterwards, so worker threads share it without locks. */
#ifndef ER_API_H
#define ER_API_H

#include "http/http.h"
#include "json/spec.h"
#include "rules/er.h"

int er_api_init(const char *templates_dir);
void er_api_shutdown(void);
const er_data *er_api_data(void);

/* Replies 400 (err names the field) when rc == -1, or 422 with rule when rc == -2. */
int er_api_reply_parse_error(http_resp *resp, int rc, const char *rule, const js_error *err);
/* Replies problem+json (status: 422, or the games' 409/403…) for a broken rule. `at` is the JSON
 * pointer of the input the rule was checked on ("/move", "/sheet"; NULL: none): `field` names
 * the step that broke it, "<at>/steps/<r->step>", when r->step >= 0, else `at` itself. */
int er_api_reply_rule(http_resp *resp, int status, const er_result *r, const char *at);
/* The JSON pointer naming what broke r inside the input at `at`: "<at>/steps/<r->step>" (written
 * to buf) when r->step >= 0, else NULL — the caller decides whether the whole `at` is named. */
const char *er_api_rule_field(const er_result *r, const char *at, char *buf, size_t n);

/* Handlers (paper.c) */
int api_er_data(const http_req *req, http_resp *resp);
int api_er_score(const http_req *req, http_resp *resp);
int api_er_moves_apply(const http_req *req, http_resp *resp);
int api_er_moves_options(const http_req *req, http_resp *resp);
int api_er_alicat_move(const http_req *req, http_resp *resp);

#endif
