/* Start and stop hooks of the API layer: game data from templates/, credentials (libsodium),
 * and the live-update listener. */
#include "api/api.h"
#include "api/accounts.h"
#include "api/leagues.h"

#include "api/er_api.h"
#include "api/er_games.h"
/* Dice Hospital and Clinic (issue 8) */
#include "api/clinic_games.h"
#include "api/dh_games.h"
#include "api/profiles.h"
#include "api/live.h"
#include "api/tokens.h"
#include "base/log.h"
#include "engine/table.h"

#include <stdio.h>
#include <stdlib.h>

int api_init(const char *templates_dir)
{
	if (tokens_init() != 0) {
		log_warn("libsodium failed to initialise");
		return -1;
	}
	if (er_api_init(templates_dir) != 0)
		return -1;
	/* Dice Hospital and Clinic scoring profiles (issue 8) */
	if (profiles_init(templates_dir) != 0) {
		er_api_shutdown();
		return -1;
	}
	if (table_init() != 0 || table_register(&er_table_kind) != 0 ||
	    /* Dice Hospital and Clinic kinds (issue 8) */
	    table_register(&dh_table_kind) != 0 || table_register(&clinic_table_kind) != 0) {
		log_bug("cannot start the table engine");
		table_shutdown();
		er_api_shutdown();
		return -1;
	}
	/* accounts and leagues (issue 10) */
	if (accounts_init() != 0) {
		log_warn("cannot set up accounts (libsodium password hashing)");
		table_shutdown();
		er_api_shutdown();
		return -1;
	}
	table_set_finish_hook(leagues_table_hook); /* a finished game becomes a play (issue 10) */
	/* The listener uses the same database settings as the workers (DATABASE_URL, else the PG*
	 * environment of libpq). */
	const char *url = getenv("DATABASE_URL");
	if (live_start(url ? url : "") != 0) {
		log_warn("cannot start the live-update listener");
		accounts_shutdown(); /* issue 10 */
		table_shutdown();
		er_api_shutdown();
		return -1;
	}
	return 0;
}

void api_shutdown(void)
{
	live_shutdown();
	accounts_shutdown(); /* issue 10 */
	leagues_shutdown();  /* issue 10 */
	table_shutdown();
	profiles_shutdown(); /* issue 8 */
	er_api_shutdown();
}
