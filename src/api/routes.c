/* The route table: one line per endpoint {method, pattern, handler, api}. `api` routes answer
 * 503 without running the handler while the database is down. Order matters only between
 * patterns that could match the same path (the first match wins): list literals first.
 * Keep static/openapi.json in step (tests/api/test_openapi.py). */
#include "api/api.h"
#include "api/accounts.h"
#include "api/leagues.h"
#include "api/er_api.h"
#include "api/er_games.h"
/* Dice Hospital and Clinic (issue 8) */
#include "api/clinic_games.h"
#include "api/dh_games.h"
#include "api/profiles.h"
#include "engine/table.h"
/* printable PDFs and QR codes (pdf.c, issue 9) */
#include "api/pdf_api.h"

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

    /* accounts and sessions (accounts.c, issue 10) */
    {"POST", "/api/v1/accounts", api_account_create, true},
    {"GET", "/api/v1/accounts/me", api_account_me, true},
    {"POST", "/api/v1/sessions", api_session_create, true},
    {"DELETE", "/api/v1/sessions/current", api_session_delete, true},

    /* leagues and history (leagues.c, league_io.c, issue 10) */
    {"POST", "/api/v1/leagues", api_league_create, true},
    {"GET", "/api/v1/leagues", api_league_list, true},
    {"GET", "/api/v1/leagues/{id}", api_league_get, true},
    {"POST", "/api/v1/leagues/{id}/members", api_league_member_add, true},
    {"DELETE", "/api/v1/leagues/{id}/members/{member}", api_league_member_delete, true},
    {"POST", "/api/v1/leagues/{id}/members/{member}/link", api_league_member_link, true},
    {"POST", "/api/v1/leagues/{id}/owners", api_league_owner_add, true},
    {"POST", "/api/v1/leagues/{id}/seasons", api_league_season_add, true},
    {"POST", "/api/v1/leagues/{id}/plays", api_league_play_add, true},
    {"GET", "/api/v1/leagues/{id}/plays", api_league_play_list, true},
    {"GET", "/api/v1/leagues/{id}/plays/{play}", api_league_play_get, true},
    {"PUT", "/api/v1/leagues/{id}/plays/{play}", api_league_play_edit, true},
    {"DELETE", "/api/v1/leagues/{id}/plays/{play}", api_league_play_delete, true},
    {"GET", "/api/v1/leagues/{id}/log", api_league_log, true},
    {"GET", "/api/v1/leagues/{id}/standings", api_league_standings, true},
    {"GET", "/api/v1/leagues/{id}/head-to-head", api_league_head_to_head, true},
    {"GET", "/api/v1/players/{id}/history", api_player_history, true},
    {"GET", "/api/v1/leagues/{id}/export.json", api_league_export_json, true},
    {"GET", "/api/v1/leagues/{id}/export.csv", api_league_export_csv, true},
    {"GET", "/api/v1/leagues/{id}/backup.json", api_league_backup, true},
    /* the one route with a larger body (16 MiB) of its own content types */
    {"POST", "/api/v1/leagues/{id}/import", api_league_import, true, 16 * 1024 * 1024, true},
    /* Dice Hospital and Clinic at the table (issue 8): the engine's reads and create, each
     * kind's rounds and finish (dh_games.c, clinic_games.c); scoring profiles (profiles.c) */
    {"GET", "/api/v1/profiles", api_profiles_list, true},
    {"POST", "/api/v1/profiles", api_profiles_create, true},
    {"POST", "/api/v1/dh/games", table_api_create, true},
    {"GET", "/api/v1/dh/games/{id}", table_api_get, true},
    {"GET", "/api/v1/dh/games/{id}/log", table_api_log, true},
    {"GET", "/api/v1/dh/games/{id}/events", table_api_events, true},
    {"PUT", "/api/v1/dh/games/{id}/rounds/{n}", api_dh_round, true},
    {"POST", "/api/v1/dh/games/{id}/finish", api_dh_finish, true},
    {"POST", "/api/v1/clinic/business", api_clinic_business, true},
    {"POST", "/api/v1/clinic/games", table_api_create, true},
    {"GET", "/api/v1/clinic/games/{id}", table_api_get, true},
    {"GET", "/api/v1/clinic/games/{id}/log", table_api_log, true},
    {"GET", "/api/v1/clinic/games/{id}/events", table_api_events, true},
    {"PUT", "/api/v1/clinic/games/{id}/rounds/{n}", api_clinic_round, true},
    {"POST", "/api/v1/clinic/games/{id}/finish", api_clinic_finish, true},
    /* printable PDFs and QR codes, stateless (pdf.c, issue 9) */
    {"GET", "/api/v1/er/sheets.pdf", api_er_sheets_pdf, false},
    {"GET", "/api/v1/qr.svg", api_qr_svg, false},
    {"GET", "/api/v1/er/games/{id}/seats/{seat}/sheet.pdf", api_er_seat_sheet_pdf, true},
    {"GET", "/api/v1/er/games/{id}/sheets.pdf", api_er_game_sheets_pdf, true},
};

const size_t api_nroutes = sizeof api_routes / sizeof api_routes[0];
