/* SQL shared by the games' statements (games.c, games_group.c): what db/ sends, not part of
 * games.h's interface. */
#ifndef DB_GAMES_SQL_H
#define DB_GAMES_SQL_H

/* The token check of a game's write, an SQL condition on the game row g (events_append_if,
 * events_append_group): hash (hex text) is the host's token when seat is 0, else the token or
 * the link of seat seat, which must be claimed unless claim. Each argument is an SQL expression
 * (a parameter or a column), never input. */
// clang-format off
#define DB_GAME_TOKEN_OK_SQL(seat, hash, claim) \
	"CASE WHEN " seat " = 0 " \
	"     THEN g.host_token_hash = decode(" hash ", 'hex') " \
	"     ELSE EXISTS (SELECT 1 " \
	"                    FROM seats s " \
	"                   WHERE s.game_id = g.id " \
	"                     AND s.seat = " seat " " \
	"                     AND (s.claimed OR " claim ") " \
	"                     AND decode(" hash ", 'hex') IN (s.token_hash, s.link_hash)) " \
	"END "
// clang-format on

#endif
