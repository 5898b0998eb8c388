/* The list of the statement tables (db/statements.h): every table of src/db/, one line each, and
 * the lookup of a statement by name. */
#include "db/statements.h"

#include <string.h>

/* One line per table (clang-format is off so that it stays so). */
// clang-format off
const db_statement *const db_statement_tables[] = {
	db_health_statements,
	db_readpool_statements,
	db_games_statements,
	db_games_group_statements,
	db_accounts_statements,
	db_consent_statements,
	db_profiles_statements,
	db_leagues_statements,
	db_league_members_statements,
	db_league_plays_statements,
	db_league_ratings_statements,
	db_league_scopes_statements,
	db_league_stats_statements,
	db_league_export_statements,
	db_league_files_statements,
	db_challenges_statements,
	db_analyses_statements,
	NULL,
};
// clang-format on

const db_statement *db_statement_find(const char *name)
{
	if (!name)
		return NULL;
	for (const db_statement *const *t = db_statement_tables; *t; t++)
		for (const db_statement *s = *t; s->name; s++)
			if (strcmp(s->name, name) == 0)
				return s;
	return NULL;
}
