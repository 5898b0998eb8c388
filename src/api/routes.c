/* The route table: one line per endpoint {method, pattern, handler, api}. `api` routes answer
 * 503 without running the handler while the database is down. Order matters only between
 * patterns that could match the same path (the first match wins): list literals first.
 * Keep static/openapi.json in step (tests/api/test_openapi.py). */
#include "api/api.h"
#include "api/er_api.h"
#include "api/er_games.h"
#include "engine/table.h"

const http_route api_routes[] = {
    /* health answers 503 itself when the database is down, so it is not gated */
    {"GET", "/api/v1/health", api_health, false},
    {"GET", "/api/v1/openapi.json", api_openapi, false},

    /* ER rules, stateless (er_rules.c) */
    {"GET", "/api/v1/er/data", api_er_data, false},
    {"POST", "/api/v1/er/score", api_er_score, false},
    {"POST", "/api/v1/er/moves/apply", api_er_moves_apply, false},
    {"POST", "/api/v1/er/moves/options", api_er_moves_options, false},
    {"POST", "/api/v1/er/alicat/move", api_er_alicat_move, false},

    /* the table engine, shared by every kind of game (engine/table.c) */
    {"POST", "/api/v1/join", table_api_join, true},
    {"GET", "/api/v1/join/{code}", table_api_join_seats, true},

    /* ER games at the table: the engine's reads and create, ER's own mutations (er_games.c) */
    {"POST", "/api/v1/er/games", table_api_create, true},
    {"GET", "/api/v1/er/games/{id}", table_api_get, true},
    {"GET", "/api/v1/er/games/{id}/log", table_api_log, true},
    {"GET", "/api/v1/er/games/{id}/events", table_api_events, true},
    {"POST", "/api/v1/er/games/{id}/turns", api_er_turn_reveal, true},
    {"POST", "/api/v1/er/games/{id}/seats/{seat}/moves", api_er_move, true},
    {"DELETE", "/api/v1/er/games/{id}/seats/{seat}/moves/{turn}", api_er_undo, true},
};

const size_t api_nroutes = sizeof api_routes / sizeof api_routes[0];
