/* Start and stop hooks of the API layer, as one ordered list of steps: game data from
 * templates/, credentials (libsodium), the table engine and its kinds, accounts and leagues,
 * the PDF renderers, and the live-update listener. api_init runs the steps in order and, when
 * one fails, stops the ones already started in reverse order; api_shutdown stops them all in
 * reverse order. */
#include "accounts/accounts.h"
#include "api/api.h"
#include "games/clinic/kind.h"
#include "games/dh/kind.h"
#include "games/er/data.h"
#include "games/er/kind.h"
#include "leagues/cache.h"
#include "leagues/challclose.h"
#include "leagues/challenges.h"
#include "leagues/report.h"
#include "leagues/tablegames.h"
#include "engine/live.h"
#include "pdf/serve.h"
/* score pads (games/rounds/pads.c) */
#include "games/clinic/pad.h"
#include "games/dh/pad.h"
#include "games/rounds/pads.h"
#include "games/rounds/profiles.h"
#include "engine/tokens.h"
#include "base/log.h"
#include "engine/table.h"

#include <stddef.h>
#include <stdlib.h>

static const char *g_templates_dir;

static int start_tokens(void)
{
	return tokens_init();
}

static int start_er(void)
{
	return er_api_init(g_templates_dir);
}

static int start_profiles(void)
{
	return profiles_init(g_templates_dir);
}

/* A game created in a league: its creator must be an owner or a member (leagues). The session
 * cookie authorises it, so the request must come from this site like every other change a
 * cookie authorises (a foreign page could otherwise create games in its visitor's league). */
static int league_check(const http_req *req, http_resp *resp, void *c, const char *league)
{
	if (acct_csrf_reply(req, resp, false))
		return -1;
	return tablegames_may_record(req, resp, c, league) ? 0 : -1;
}

/* The table engine and every kind of game it serves (ER; Dice Hospital and Clinic). A finished
 * game with a league becomes a play (leagues). */
static int start_engine(void)
{
	if (table_init() != 0 || table_register(&er_table_kind) != 0 ||
	    table_register(&dh_table_kind) != 0 || table_register(&clinic_table_kind) != 0)
		return -1;
	table_set_finish_hook(tablegames_finish_hook);
	table_set_recorded_hook(tablegames_recorded);
	table_set_league_check(league_check);
	return 0;
}

static int start_pdf(void)
{
	return pdf_api_init(g_templates_dir);
}

/* The labels of the score pads (templates/pads.json, checked against the kinds' entries) and
 * of the league report (templates/league-report.json). */
static int start_pads(void)
{
	static const pad_kind *const pad_kinds[] = {&dh_pad_kind, &clinic_pad_kind};
	if (pads_api_init(g_templates_dir, pad_kinds, 2) != 0)
		return -1;
	if (report_init(g_templates_dir) == 0)
		return 0;
	pads_api_shutdown();
	return -1;
}

static void stop_pads(void)
{
	report_shutdown();
	pads_api_shutdown();
}

/* The listener uses the same database settings as the workers (DATABASE_URL, else the PG*
 * environment of libpq). */
static int start_live(void)
{
	const char *url = getenv("DATABASE_URL");
	return live_start(url ? url : "");
}

/* The notifier outlives the streams (stopped at quiesce): the requests still running after
 * the quiesce may commit changes that other servers' streams want to hear of. */
static void stop_live(void)
{
	live_shutdown();
	live_stop_notifier();
}

/* League challenges: the guests' rate limit, and the closer of those past their time. */
static int start_challenges(void)
{
	if (challenges_init() != 0)
		return -1;
	if (challclose_start() == 0)
		return 0;
	challenges_shutdown();
	return -1;
}

static void stop_challenges(void)
{
	challclose_stop();
	challenges_shutdown();
}

static void stop_nothing(void)
{
}

static void stop_leagues(void)
{
	cache_shutdown();
	accounts_shutdown();
}

typedef struct {
	const char *what;
	int (*start)(void);
	void (*stop)(void);
} step;

static const step steps[] = {
    {"libsodium", start_tokens, stop_nothing},
    {"the ER game data", start_er, er_api_shutdown},
    {"the scoring profiles", start_profiles, profiles_shutdown},
    {"the table engine", start_engine, table_shutdown},
    {"accounts (password hashing)", accounts_init, stop_leagues},
    {"the PDF renderers", start_pdf, pdf_api_shutdown},
    /* score pads */
    {"the score pads and the league report", start_pads, stop_pads},
    {"the live-update listener and notifier", start_live, stop_live},
    {"league challenges (guests' limit, closer)", start_challenges, stop_challenges},
};
enum { NSTEPS = sizeof steps / sizeof steps[0] };

int api_init(const char *templates_dir)
{
	g_templates_dir = templates_dir;
	for (size_t i = 0; i < NSTEPS; i++) {
		if (steps[i].start() == 0)
			continue;
		log_warn("cannot start %s", steps[i].what);
		while (i-- > 0)
			steps[i].stop();
		return -1;
	}
	return 0;
}

void api_shutdown(void)
{
	for (size_t i = NSTEPS; i-- > 0;)
		steps[i].stop();
}
