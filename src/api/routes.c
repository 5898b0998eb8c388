/* The route table: one line per endpoint {method, pattern, handler, api, max_body, any_type,
 * heavy, pre_body} (http.h). `api` routes answer 503 without running the handler while the
 * database is down; `heavy` ones (Argon2id, imports, PDFs) run on the job pool. Order matters only
 * between patterns that could match the same path (the first match wins): list literals first. Keep
 * static/openapi.json in step (tests/api/test_openapi.py). */
#include "api/api.h"
#include "accounts/accounts.h"
#include "leagues/backup.h"
#include "leagues/bgsexport.h"
#include "leagues/challenges.h"
#include "leagues/claims.h"
#include "leagues/csv.h"
#include "leagues/csvpreview.h"
#include "leagues/import.h"
#include "leagues/invitations.h"
#include "leagues/leagues.h"
#include "leagues/members.h"
#include "leagues/plays.h"
#include "leagues/recap.h"
#include "leagues/report.h"
#include "leagues/roster.h"
#include "leagues/standings.h"
#include "leagues/stats.h"
#include "games/er/coach_api.h"
#include "games/er/data.h"
#include "games/er/kind.h"
/* Dice Hospital and Clinic */
#include "games/clinic/kind.h"
#include "games/dh/kind.h"
#include "games/rounds/profiles.h"
#include "engine/table.h"
/* printable PDFs and QR codes (pdf.c) */
#include "games/er/pdf.h"
#include "games/er/coach_pdf.h"
/* score pads of Dice Hospital and Clinic (games/rounds/pads.c) */
#include "games/clinic/pad.h"
#include "games/dh/pad.h"
/* the league report PDF (leagues/report.c) */
/* the pictures of a league: a player's page, the league's page, a season recap */

const http_route api_routes[] = {
    /* health answers 503 itself when the database is down, so it is not gated */
    {"GET", "/api/v1/health", api_health, false, 0, false, false, NULL},
    {"GET", "/api/v1/openapi.json", api_openapi, false, 0, false, false, NULL},
    /* the addresses other phones can open (addresses.c) */
    {"GET", "/api/v1/addresses", api_addresses, false, 0, false, false, NULL},

    /* ER rules, stateless (games/er/paper.c) */
    {"GET", "/api/v1/er/data", api_er_data, false, 0, false, false, NULL},
    {"POST", "/api/v1/er/score", api_er_score, false, 0, false, false, NULL},
    {"POST", "/api/v1/er/moves/apply", api_er_moves_apply, false, 0, false, false, NULL},
    {"POST", "/api/v1/er/moves/options", api_er_moves_options, false, 0, false, false, NULL},
    {"POST", "/api/v1/er/alicat/move", api_er_alicat_move, false, 0, false, false, NULL},

    /* the table engine, shared by every kind of game (engine/table.c) */
    {"POST", "/api/v1/join", table_api_join, true, 0, false, false, NULL},
    {"GET", "/api/v1/join/{code}", table_api_join_seats, true, 0, false, false, NULL},

    /* ER games at the table: the engine's reads and create, ER's own mutations (er_games.c) */
    {"POST", "/api/v1/er/games", table_api_create, true, 0, false, false, NULL},
    {"GET", "/api/v1/er/games/{id}", table_api_get, true, 0, false, false, NULL},
    {"GET", "/api/v1/er/games/{id}/log", table_api_log, true, 0, false, false, NULL},
    {"GET", "/api/v1/er/games/{id}/events", table_api_events, true, 0, false, false, NULL},
    {"POST", "/api/v1/er/games/{id}/turns", api_er_turn_reveal, true, 0, false, false, NULL},
    {"POST", "/api/v1/er/games/{id}/seats/{seat}/moves", api_er_move, true, 0, false, false, NULL},
    {"DELETE", "/api/v1/er/games/{id}/seats/{seat}/moves/{turn}", api_er_undo, true, 0, false,
     false, NULL},
    {"POST", "/api/v1/er/games/{id}/display", table_api_display, true, 0, false, false, NULL},

    /* accounts and sessions (accounts.c) */
    {"POST", "/api/v1/accounts", api_account_create, true, 0, false, true, NULL},
    {"GET", "/api/v1/accounts/me", api_account_me, true, 0, false, false, NULL},
    {"POST", "/api/v1/sessions", api_session_create, true, 0, false, true, NULL},
    {"DELETE", "/api/v1/sessions/current", api_session_delete, true, 0, false, false, NULL},

    /* leagues and history (leagues.c, leagues/import.c) */
    {"POST", "/api/v1/leagues", api_league_create, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues", api_league_list, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues/{id}", api_league_get, true, 0, false, false, NULL},
    {"POST", "/api/v1/leagues/{id}/members", api_league_member_add, true, 0, false, false, NULL},
    {"DELETE", "/api/v1/leagues/{id}/members/{member}", api_league_member_delete, true, 0, false,
     false, NULL},
    {"PATCH", "/api/v1/leagues/{id}/members/{member}", api_league_member_update, true, 0, false,
     false, NULL},
    {"POST", "/api/v1/leagues/{id}/members/{member}/link", api_league_member_link, true, 0, false,
     false, NULL},
    {"POST", "/api/v1/leagues/{id}/members/{member}/merge", api_league_member_merge, true, 0, false,
     false, NULL},
    {"POST", "/api/v1/leagues/{id}/owners", api_league_owner_add, true, 0, false, false, NULL},
    /* consent: invitations, claims of guests, merges undone (leagues/invitations.c, claims.c) */
    {"GET", "/api/v1/invitations", api_invitations_list, true, 0, false, false, NULL},
    {"POST", "/api/v1/invitations/{inv}/accept", api_invitation_accept, true, 0, false, false,
     NULL},
    {"POST", "/api/v1/invitations/{inv}/decline", api_invitation_decline, true, 0, false, false,
     NULL},
    {"GET", "/api/v1/leagues/{id}/invitations", api_league_invitations, true, 0, false, false,
     NULL},
    {"DELETE", "/api/v1/leagues/{id}/invitations/{inv}", api_league_invitation_withdraw, true, 0,
     false, false, NULL},
    {"GET", "/api/v1/leagues/{id}/claims", api_league_claims, true, 0, false, false, NULL},
    {"POST", "/api/v1/leagues/{id}/claims/{claim}/approve", api_league_claim_approve, true, 0,
     false, false, NULL},
    {"DELETE", "/api/v1/leagues/{id}/claims/{claim}", api_league_claim_delete, true, 0, false,
     false, NULL},
    {"GET", "/api/v1/leagues/{id}/merges", api_league_merges, true, 0, false, false, NULL},
    {"POST", "/api/v1/leagues/{id}/merges/{merge}/undo", api_league_merge_undo, true, 0, false,
     false, NULL},
    {"POST", "/api/v1/leagues/{id}/seasons", api_league_season_add, true, 0, false, false, NULL},
    {"POST", "/api/v1/leagues/{id}/plays", api_league_play_add, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues/{id}/plays", api_league_play_list, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues/{id}/plays/{play}", api_league_play_get, true, 0, false, false, NULL},
    {"PUT", "/api/v1/leagues/{id}/plays/{play}", api_league_play_edit, true, 0, false, false, NULL},
    {"DELETE", "/api/v1/leagues/{id}/plays/{play}", api_league_play_delete, true, 0, false, false,
     NULL},
    {"GET", "/api/v1/leagues/{id}/log", api_league_log, true, 0, false, false, NULL},
    /* challenges: one ER draw for every member (leagues/challenges.c) */
    {"POST", "/api/v1/leagues/{id}/challenges", api_league_challenge_create, true, 0, false, false,
     NULL},
    {"GET", "/api/v1/leagues/{id}/challenges", api_league_challenges, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues/{id}/challenges/{challenge}", api_league_challenge_get, true, 0, false,
     false, NULL},
    {"POST", "/api/v1/leagues/{id}/challenges/{challenge}/games", api_league_challenge_play, true,
     0, false, false, NULL},
    {"POST", "/api/v1/leagues/{id}/challenges/{challenge}/close", api_league_challenge_close, true,
     0, false, false, NULL},
    {"GET", "/api/v1/challenges/{code}", api_challenge_by_code, true, 0, false, false, NULL},
    {"POST", "/api/v1/challenges/{code}/games", api_challenge_guest_play, true, 0, false, false,
     NULL},
    {"GET", "/api/v1/leagues/{id}/standings", api_league_standings, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues/{id}/head-to-head", api_league_head_to_head, true, 0, false, false,
     NULL},
    {"GET", "/api/v1/players/{id}/history", api_player_history, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues/{id}/stats", api_league_stats, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues/{id}/players/{player}/stats", api_league_player_stats, true, 0, false,
     false, NULL},
    {"GET", "/api/v1/leagues/{id}/seasons/{season}/recap", api_league_recap, true, 0, false, false,
     NULL},
    {"GET", "/api/v1/leagues/{id}/export.json", api_league_export_json, true, 0, false, false,
     NULL},
    {"GET", "/api/v1/leagues/{id}/export.csv", api_league_export_csv, true, 0, false, false, NULL},
    {"GET", "/api/v1/leagues/{id}/backup.json", api_league_backup, true, 0, false, false, NULL},
    /* the routes with a larger body (16 MiB) of their own content types */
    {"POST", "/api/v1/leagues/{id}/import", api_league_import, true, 16 * 1024 * 1024, true, true,
     api_league_import_pre_body},
    {"POST", "/api/v1/leagues/{id}/import/preview", api_league_import_preview, true,
     16 * 1024 * 1024, true, true, api_league_import_pre_body},
    /* Dice Hospital and Clinic at the table: the engine's reads and create, each
     * kind's rounds and finish (games/dh/kind.c, games/clinic/kind.c); scoring profiles
     * (profiles.c) */
    {"GET", "/api/v1/profiles", api_profiles_list, true, 0, false, false, NULL},
    {"POST", "/api/v1/profiles", api_profiles_create, true, 0, false, false, NULL},
    {"POST", "/api/v1/dh/games", table_api_create, true, 0, false, false, NULL},
    {"GET", "/api/v1/dh/games/{id}", table_api_get, true, 0, false, false, NULL},
    {"GET", "/api/v1/dh/games/{id}/log", table_api_log, true, 0, false, false, NULL},
    {"GET", "/api/v1/dh/games/{id}/events", table_api_events, true, 0, false, false, NULL},
    {"PUT", "/api/v1/dh/games/{id}/rounds/{n}", api_dh_round, true, 0, false, false, NULL},
    {"POST", "/api/v1/dh/games/{id}/finish", api_dh_finish, true, 0, false, false, NULL},
    {"POST", "/api/v1/dh/games/{id}/display", table_api_display, true, 0, false, false, NULL},
    {"POST", "/api/v1/clinic/business", api_clinic_business, true, 0, false, false, NULL},
    {"POST", "/api/v1/clinic/games", table_api_create, true, 0, false, false, NULL},
    {"GET", "/api/v1/clinic/games/{id}", table_api_get, true, 0, false, false, NULL},
    {"GET", "/api/v1/clinic/games/{id}/log", table_api_log, true, 0, false, false, NULL},
    {"GET", "/api/v1/clinic/games/{id}/events", table_api_events, true, 0, false, false, NULL},
    {"PUT", "/api/v1/clinic/games/{id}/rounds/{n}", api_clinic_round, true, 0, false, false, NULL},
    {"POST", "/api/v1/clinic/games/{id}/finish", api_clinic_finish, true, 0, false, false, NULL},
    {"POST", "/api/v1/clinic/games/{id}/display", table_api_display, true, 0, false, false, NULL},
    /* printable PDFs and QR codes, stateless (pdf.c) */
    {"GET", "/api/v1/er/sheets.pdf", api_er_sheets_pdf, false, 0, false, true, NULL},
    {"GET", "/api/v1/qr.svg", api_qr_svg, false, 0, false, false, NULL},
    {"GET", "/api/v1/er/games/{id}/seats/{seat}/sheet.pdf", api_er_seat_sheet_pdf, true, 0, false,
     true, NULL},
    {"GET", "/api/v1/er/games/{id}/sheets.pdf", api_er_game_sheets_pdf, true, 0, false, true, NULL},
    /* the coach: how good could this game have been (games/er/coach_api.c) */
    {"GET", "/api/v1/er/games/{id}/seats/{seat}/analysis", api_er_game_analysis, true, 0, false,
     true, NULL},
    {"POST", "/api/v1/er/analysis", api_er_analysis, false, 0, false, true, NULL},
    /* the coach's page as a PDF (games/er/coach_pdf.c) */
    {"GET", "/api/v1/er/games/{id}/seats/{seat}/analysis.pdf", api_er_analysis_pdf, true, 0, false,
     true, NULL},
    /* score pads of Dice Hospital and Clinic: blank (stateless) and a game's (games/rounds/pads.c)
     */
    {"GET", "/api/v1/dh/pads.pdf", api_dh_pads_pdf, false, 0, false, true, NULL},
    {"GET", "/api/v1/clinic/pads.pdf", api_clinic_pads_pdf, false, 0, false, true, NULL},
    {"GET", "/api/v1/dh/games/{id}/pad.pdf", api_dh_game_pad_pdf, true, 0, false, true, NULL},
    {"GET", "/api/v1/clinic/games/{id}/pad.pdf", api_clinic_game_pad_pdf, true, 0, false, true,
     NULL},
    /* the league report: standings, ratings, recent plays (leagues/report.c) */
    {"GET", "/api/v1/leagues/{id}/standings.pdf", api_league_standings_pdf, true, 0, false, true,
     NULL},
    {"GET", "/api/v1/leagues/{id}/seasons/{season}/recap.pdf", api_league_recap_pdf, true, 0, false,
     true, NULL},
};

const size_t api_nroutes = sizeof api_routes / sizeof api_routes[0];
