/* Start and stop hooks of the API layer: game data from templates/, credentials (libsodium),
 * and the live-update listener. */
#include "api/api.h"

#include "api/er_api.h"
#include "api/er_games.h"
#include "api/live.h"
#include "api/tokens.h"
#include "base/log.h"
#include "engine/table.h"

#include <stdio.h>
#include <stdlib.h>

int api_init(const char *templates_dir)
{
	if (tokens_init() != 0) {
		fprintf(stderr, "libsodium failed to initialise\n");
		return -1;
	}
	if (er_api_init(templates_dir) != 0)
		return -1;
	if (table_init() != 0 || table_register(&er_table_kind) != 0) {
		log_bug("cannot start the table engine");
		table_shutdown();
		er_api_shutdown();
		return -1;
	}
	/* The listener uses the same database settings as the workers (DATABASE_URL, else the PG*
	 * environment of libpq). */
	const char *url = getenv("DATABASE_URL");
	if (live_start(url ? url : "") != 0) {
		fprintf(stderr, "cannot start the live-update listener\n");
		table_shutdown();
		er_api_shutdown();
		return -1;
	}
	return 0;
}

void api_shutdown(void)
{
	live_shutdown();
	table_shutdown();
	er_api_shutdown();
}
