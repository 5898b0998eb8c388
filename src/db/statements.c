/* The list of the statement tables (db/statements.h): every table of src/db/, one line each, and
 * the lookup of a statement by name. db_statements_unsplit holds the statements not yet moved
 * into the file that runs them, one line each (clang-format is off for the table so long SQL
 * stays on its line). */
#include "db/statements.h"

#include <string.h>

/* Rows without their columns' names (NULL): the test of the columns does not hold them to it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
// clang-format off
const db_statement db_statements_unsplit[] = {


	/* the table engine: games, seats, events (migrations 0002 and 0005; their rows are read in
	 * src/db/games.c and nowhere else) */
	{"game_insert", "INSERT INTO games (id, kind, code, host_token_hash, config, league) VALUES ($1, $2, $3, decode($4, 'hex'), $5::jsonb, $6) ON CONFLICT (code) DO NOTHING RETURNING id", 6},
	{"seat_insert", "INSERT INTO seats (game_id, seat, name, bot, token_hash) VALUES ($1, $2::int, $3, $4::boolean, decode($5, 'hex'))", 5},
	{"game_get", "SELECT g.kind, g.config, g.version, g.status = 'finished', g.host_token_hash = decode($2, 'hex'), s.seat, coalesce(s.claimed, false), (SELECT r.seat FROM replaced_tokens r WHERE r.game_id = g.id AND r.token_hash = decode($2, 'hex')), g.code, coalesce(g.league, ''), to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), coalesce(g.display_token_hash = decode($2, 'hex'), false) FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.token_hash = decode($2, 'hex') WHERE g.id = $1", 2},
	{"game_lock", "SELECT g.kind, g.config, g.version, g.status = 'finished', g.host_token_hash = decode($2, 'hex'), s.seat, coalesce(s.claimed, false), (SELECT r.seat FROM replaced_tokens r WHERE r.game_id = g.id AND r.token_hash = decode($2, 'hex')), g.code, coalesce(g.league, ''), to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), coalesce(g.display_token_hash = decode($2, 'hex'), false) FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.token_hash = decode($2, 'hex') WHERE g.id = $1 FOR UPDATE OF g", 2},
	{"seats_list", "SELECT seat, name, bot, claimed FROM seats WHERE game_id = $1 ORDER BY seat", 1},
	{"seat_claim", "UPDATE seats SET claimed = true WHERE game_id = $1 AND seat = $2::int AND NOT claimed", 2},
	{"join_lock", "SELECT g.id, g.kind, s.name, s.claimed, encode(s.token_hash, 'hex') FROM seats s JOIN games g ON g.id = s.game_id WHERE g.code = $1 AND s.seat = $2::int AND NOT s.bot FOR UPDATE OF s", 2},
	{"join_take", "WITH old AS (INSERT INTO replaced_tokens (token_hash, game_id, seat) SELECT decode($3, 'hex'), $1, $2::int WHERE $3::text IS NOT NULL ON CONFLICT DO NOTHING) UPDATE seats SET token_hash = decode($4, 'hex'), claimed = true WHERE game_id = $1 AND seat = $2::int", 4},
	{"display_replace", "WITH old AS (INSERT INTO replaced_tokens (token_hash, game_id, seat) SELECT display_token_hash, id, 0 FROM games WHERE id = $1 AND display_token_hash IS NOT NULL ON CONFLICT DO NOTHING) UPDATE games SET display_token_hash = decode($2, 'hex') WHERE id = $1", 2},
	/* db_token_replaced: has a join or a new display link replaced this token of the game? */
	{"token_replaced", "SELECT EXISTS (SELECT 1 FROM replaced_tokens WHERE token_hash = decode($2, 'hex') AND game_id = $1) AS replaced", 2},
	{"game_by_code", "SELECT id, kind FROM games WHERE code = $1", 1},
	{"events_between", "SELECT version, kind, coalesce(seat, 0), turn, payload FROM events WHERE game_id = $1 AND version > $2::int AND version <= $3::int ORDER BY version", 3},
	{"events_log", "SELECT version, kind, coalesce(seat, 0), turn, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM events WHERE game_id = $1 AND version <= $2::int ORDER BY version", 2},
	{"events_since_n", "SELECT version, kind, coalesce(seat, 0), turn FROM events WHERE game_id = $1 AND version > $2::int ORDER BY version LIMIT $3::int", 3},
	{"events_append", "WITH e AS (INSERT INTO events (game_id, version, kind, seat, turn, payload) SELECT $1, x.version, x.kind, x.seat, x.turn, x.payload FROM unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::jsonb[]) AS x(version, kind, seat, turn, payload) RETURNING 1), u AS (UPDATE games SET version = $7::int, status = $8, result = $9::jsonb, updated_at = now() WHERE id = $1 RETURNING id) SELECT (SELECT count(*) FROM e) FROM u", 9},
	{"events_append_if", "WITH u AS (UPDATE games g SET version = $7::int, status = $8, result = $9::jsonb, updated_at = now() WHERE g.id = $1 AND g.version = $10::int AND g.status = 'playing' AND CASE WHEN $11::int = 0 THEN g.host_token_hash = decode($12, 'hex') ELSE EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.seat = $11::int AND s.claimed AND s.token_hash = decode($12, 'hex')) END RETURNING g.id), e AS (INSERT INTO events (game_id, version, kind, seat, turn, payload) SELECT u.id, x.version, x.kind, x.seat, x.turn, x.payload FROM u, unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::jsonb[]) AS x(version, kind, seat, turn, payload) RETURNING 1) SELECT (SELECT count(*) FROM e) FROM u", 12},

	/* accounts and sessions (migrations/0004_leagues.sql; src/leagues/accounts.c; rows read in src/db/accounts.c) */
	{"account_insert", "INSERT INTO accounts (id, email, display_name, password_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id", 4},
	{"account_by_email", "SELECT id, display_name, password_hash FROM accounts WHERE email = $1", 1},
	{"session_insert", "INSERT INTO sessions (token_hash, account_id) VALUES (decode($1, 'hex'), $2)", 2},
	{"session_delete", "DELETE FROM sessions WHERE token_hash = decode($1, 'hex')", 1},
	{"session_purge", "DELETE FROM sessions WHERE account_id = $1 AND (last_seen <= now() - $2::float8 * interval '1 second' OR created_at <= now() - $3::float8 * interval '1 second')", 3},
	{"session_get", "WITH s AS (SELECT token_hash, account_id, last_seen, (clock_timestamp() < last_seen + $2::float8 * interval '1 second' AND clock_timestamp() < created_at + $3::float8 * interval '1 second') AS valid FROM sessions WHERE token_hash = decode($1, 'hex')), u AS (UPDATE sessions t SET last_seen = clock_timestamp() FROM s WHERE t.token_hash = s.token_hash AND s.valid AND s.last_seen < clock_timestamp() - $4::float8 * interval '1 second' RETURNING 1) SELECT s.valid, a.id, a.email, a.display_name, l.id IS NOT NULL, EXISTS (SELECT 1 FROM league_owners o WHERE o.league_id = l.id AND o.account_id = a.id), coalesce((SELECT m.id FROM league_members m WHERE m.league_id = l.id AND m.account_id = a.id), ''), l.version FROM s JOIN accounts a ON a.id = s.account_id LEFT JOIN leagues l ON l.id = $5", 5},

	/* failed log-ins per address group and e-mail hash (migrations/0022_login_failures.sql;
	 * src/leagues/accounts.c; rows read in src/db/accounts.c) */
	/* db_login_wait */
	{"login_wait",
	 "SELECT greatest(0, ceil(extract(epoch FROM blocked_until - now())))::int AS wait_s "
	 "  FROM login_failures "
	 " WHERE email_hash = decode($2, 'hex') "
	 "   AND addr_group = $1", 2},
	/* db_login_failed: $3 free failures, $4 base and $5 longest delay, $6 forget after (s) */
	{"login_failed",
	 "WITH gone AS ( "
	 "    DELETE FROM login_failures "
	 "     WHERE last_failure < now() - $6::float8 * interval '1 second' "
	 "       AND NOT (email_hash = decode($2, 'hex') AND addr_group = $1) "
	 ") "
	 "INSERT INTO login_failures AS f "
	 "       (email_hash, addr_group, failures, last_failure, blocked_until) "
	 "VALUES (decode($2, 'hex'), $1, 1, now(), "
	 "        now() + login_delay(1, $3::int, $4::float8, $5::float8)) "
	 "ON CONFLICT (email_hash, addr_group) DO UPDATE "
	 "   SET failures = login_failures_next(f.failures, f.last_failure, $6::float8), "
	 "       last_failure = now(), "
	 "       blocked_until = now() + login_delay( "
	 "           login_failures_next(f.failures, f.last_failure, $6::float8), "
	 "           $3::int, $4::float8, $5::float8) "
	 "RETURNING f.failures", 6},
	/* db_login_forget */
	{"login_forget",
	 "DELETE FROM login_failures "
	 " WHERE email_hash = decode($2, 'hex') "
	 "   AND addr_group = $1", 2},

	/* leagues, members, seasons, plays, ratings (migrations/0004_leagues.sql; src/leagues/; rows read in src/db/leagues.c, account_find in src/db/accounts.c) */
	{"league_insert", "INSERT INTO leagues (id, name) VALUES ($1, $2)", 2},
	{"league_owner_insert", "WITH b AS (UPDATE leagues SET version = version + 1 WHERE id = $1 RETURNING id) INSERT INTO league_owners (league_id, account_id) SELECT b.id, $2 FROM b ON CONFLICT DO NOTHING", 2},
	{"league_access", "SELECT EXISTS (SELECT 1 FROM league_owners o WHERE o.league_id = l.id AND o.account_id = $2), coalesce((SELECT m.id FROM league_members m WHERE m.league_id = l.id AND m.account_id = $2), ''), l.version FROM leagues l WHERE l.id = $1", 2},
	{"league_bump", "UPDATE leagues SET version = version + 1 WHERE id = $1 RETURNING version", 1},
	{"league_rekey_games", "SELECT league_rekey_games($1)", 1},
	{"league_lock", "SELECT id FROM leagues WHERE id = $1 FOR UPDATE", 1},
	{"league_get", "SELECT name, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), (SELECT count(*) FROM plays WHERE league_id = $1) FROM leagues WHERE id = $1", 1},
	{"league_list", "SELECT l.id, l.name, EXISTS (SELECT 1 FROM league_owners o WHERE o.league_id = l.id AND o.account_id = $1), (SELECT count(*) FROM plays p WHERE p.league_id = l.id) FROM leagues l WHERE EXISTS (SELECT 1 FROM league_owners o WHERE o.league_id = l.id AND o.account_id = $1) OR EXISTS (SELECT 1 FROM league_members m WHERE m.league_id = l.id AND m.account_id = $1) ORDER BY l.name, l.id", 1},
	{"league_owners", "SELECT a.id, a.display_name FROM league_owners o JOIN accounts a ON a.id = o.account_id WHERE o.league_id = $1 ORDER BY a.display_name, a.id", 1},
	{"league_members", "SELECT m.id, m.name, m.account_id, (SELECT count(*) FROM play_results r WHERE r.member_id = m.id) FROM league_members m WHERE m.league_id = $1 ORDER BY m.name", 1},
	{"league_games", "SELECT coalesce(k.name, x.game) FROM (SELECT DISTINCT ON (y.key) y.key, y.game FROM (SELECT key, game, sum(plays) AS c FROM league_game_names WHERE league_id = $1 GROUP BY key, game) y ORDER BY y.key, y.c DESC, y.game) x LEFT JOIN known_games k ON k.key = x.key ORDER BY lower(coalesce(k.name, x.game)), 1", 1},
	{"league_seasons", "SELECT id, name, starts::text, ends::text FROM seasons WHERE league_id = $1 ORDER BY starts, name", 1},
	{"account_find", "SELECT id FROM accounts WHERE id = $1 OR email = lower($1)", 1},
	{"member_insert", "WITH b AS (UPDATE leagues SET version = version + 1 WHERE id = $2 RETURNING id) INSERT INTO league_members (id, league_id, name, account_id, name_key) SELECT $1, b.id, $3, $4, $5 FROM b WHERE NOT EXISTS (SELECT 1 FROM league_members o WHERE o.league_id = b.id AND o.name_key = $5) ON CONFLICT DO NOTHING RETURNING id", 5},
	{"member_insert_guest", "INSERT INTO league_members (id, league_id, name, name_key) SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM league_members o WHERE o.league_id = $2 AND o.name_key = $4) ON CONFLICT DO NOTHING RETURNING id", 4},
	{"member_by_name", "SELECT id FROM league_members WHERE league_id = $1 AND name_key = $2 ORDER BY name = $3 DESC, name_clash, created_at, id LIMIT 1", 3},
	{"member_rename", "UPDATE league_members m SET name = $3, name_key = $4, name_clash = false WHERE m.league_id = $1 AND m.id = $2 AND NOT EXISTS (SELECT 1 FROM league_members o WHERE o.league_id = $1 AND o.id <> m.id AND o.name_key = $4) RETURNING m.id", 4},
	{"member_unclash", "UPDATE league_members m SET name_clash = false FROM (SELECT DISTINCT ON (x.name_key) x.id FROM league_members x WHERE x.league_id = $1 AND x.name_clash AND x.name_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM league_members o WHERE o.league_id = $1 AND NOT o.name_clash AND o.name_key = x.name_key) ORDER BY x.name_key, x.created_at, x.id) k WHERE m.id = k.id", 1},
	{"member_get", "SELECT m.id, m.name, m.account_id, (SELECT count(*) FROM play_results r WHERE r.member_id = m.id) FROM league_members m WHERE m.league_id = $1 AND m.id = $2", 2},
	{"member_delete", "WITH b AS (UPDATE leagues SET version = version + 1 WHERE id = $1 RETURNING id) DELETE FROM league_members m USING b WHERE m.league_id = b.id AND m.id = $2", 2},
	{"member_conflicts", "SELECT a.play_id FROM play_results a JOIN play_results b ON a.play_id = b.play_id WHERE a.member_id = $1 AND b.member_id = $2", 2},
	{"member_merge", "UPDATE play_results SET member_id = $2 WHERE member_id = $1", 2},
	{"member_link", "WITH b AS (UPDATE leagues l SET version = l.version + 1 FROM league_members m WHERE m.id = $1 AND l.id = m.league_id RETURNING m.id) UPDATE league_members SET account_id = $2 FROM b WHERE league_members.id = b.id AND league_members.account_id IS NULL", 2},
	{"member_league", "SELECT league_id, name FROM league_members WHERE id = $1", 1},
	{"season_insert", "WITH b AS (UPDATE leagues SET version = version + 1 WHERE id = $2 RETURNING id) INSERT INTO seasons (id, league_id, name, starts, ends) SELECT $1, b.id, $3, $4::date, $5::date FROM b ON CONFLICT (league_id, name) DO NOTHING RETURNING id", 5},
	{"season_get", "SELECT id FROM seasons WHERE league_id = $1 AND id = $2", 2},
	{"play_insert", "INSERT INTO plays (id, league_id, game, bgg_id, played_at, duration_min, notes, location, cooperative, utc_offset_min, source, uuid, game_id, created_by, ignored, incomplete, bgg_play_id, extra) VALUES ($1, $2, $3, $4::int, $5::timestamptz, $6::int, $7, $8, $9::boolean, $10::int, $11, $12, $13, $14, $15::boolean, $16::boolean, $17::bigint, $18::jsonb) ON CONFLICT DO NOTHING RETURNING id", 18},
	{"play_get", "SELECT id, game, bgg_id, play_local_text(played_at, utc_offset_min), duration_min, notes, location, cooperative, source, uuid, game_id, ignored, incomplete, bgg_play_id, created_by FROM plays WHERE league_id = $1 AND id = $2", 2},
	{"play_results", "SELECT r.member_id, m.name, r.seat, r.score, r.rank, r.winner, r.breakdown::text, l.mus[k.at], l.sigmas[k.at], r.score_text, r.unrated FROM play_results r JOIN plays p ON p.id = r.play_id JOIN league_members m ON m.id = r.member_id LEFT JOIN member_lines l ON l.member_id = r.member_id LEFT JOIN LATERAL (SELECT array_position(l.seqs, p.seq) AS at) k ON true WHERE r.play_id = $1 ORDER BY r.seat", 1},
	/* a whole import's plays and results in two statements (src/leagues/plays.c, league_batch) */
	{"plays_insert_many", "INSERT INTO plays (id, league_id, game, bgg_id, played_at, duration_min, notes, location, cooperative, utc_offset_min, source, uuid, created_by, ignored, incomplete, bgg_play_id, extra, game_uuid) SELECT u.id, $1, u.game, u.bgg_id, u.played_at, u.dur, u.notes, u.location, u.coop, u.off, u.source, u.uuid, $2, u.ignored, u.incomplete, u.bgg_play_id, u.extra, u.game_uuid FROM unnest($3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::int[], $8::text[], $9::text[], $10::boolean[], $11::int[], $12::text[], $13::text[], $14::boolean[], $15::boolean[], $16::bigint[], $17::jsonb[], $18::text[]) WITH ORDINALITY AS u(id, game, bgg_id, played_at, dur, notes, location, coop, off, source, uuid, ignored, incomplete, bgg_play_id, extra, game_uuid, n) ORDER BY u.n", 18},
	{"results_insert_many", "INSERT INTO play_results (play_id, member_id, seat, score, rank, winner, breakdown, score_text, extra, player_uuid, unrated) SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[], $5::int[], $6::boolean[], $7::jsonb[], $8::text[], $9::jsonb[], $10::text[], $11::boolean[])", 11},
	{"play_created_by", "SELECT coalesce(created_by, '') FROM plays WHERE id = $1", 1},
	{"play_update", "UPDATE plays SET game_uuid = CASE WHEN game = $2 THEN game_uuid END, game = $2, bgg_id = $3::int, played_at = $4::timestamptz, duration_min = $5::int, notes = $6, location = $7, cooperative = $8::boolean, utc_offset_min = $9::int WHERE id = $1 AND league_id = $10", 10},
	{"results_delete", "DELETE FROM play_results WHERE play_id = $1", 1},
	{"play_delete", "DELETE FROM plays WHERE id = $1 AND league_id = $2", 2},
	{"play_list", "WITH f AS NOT MATERIALIZED (SELECT p.id, p.played_at, p.seq FROM plays p WHERE p.league_id = $1 AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM seasons s WHERE s.id = $2 AND s.league_id = p.league_id AND p.local_date BETWEEN s.starts AND s.ends)) AND ($3::text IS NULL OR lower(p.game) = ANY (ARRAY(SELECT lower(fg.name) FROM league_filter_games($1, $3) fg)) AND EXISTS (SELECT 1 FROM league_filter_games($1, $3) fg WHERE fg.name = p.game AND fg.bgg = coalesce(p.bgg_id, 0)))), t AS (SELECT count(*) AS total FROM f) SELECT t.total, p.id, p.game, play_local_text(p.played_at, p.utc_offset_min), p.cooperative, p.source, p.ignored, p.incomplete, coalesce((SELECT json_agg(json_build_object('player', r2.member_id, 'name', m2.name, 'score', r2.score, 'rank', r2.rank, 'winner', r2.winner) ORDER BY r2.seat) FROM play_results r2 JOIN league_members m2 ON m2.id = r2.member_id WHERE r2.play_id = p.id), '[]')::text FROM t LEFT JOIN LATERAL (SELECT f.id, f.played_at, f.seq FROM f ORDER BY f.played_at DESC, f.seq DESC LIMIT $4::int OFFSET $5::int) pg ON true LEFT JOIN plays p ON p.id = pg.id ORDER BY pg.played_at DESC, pg.seq DESC", 5},
	{"play_log_insert", "INSERT INTO play_log (league_id, play_id, account_id, action, before, after) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)", 6},
	{"play_log_list", "SELECT play_id, account_id, action, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), before::text, after::text FROM play_log WHERE league_id = $1 ORDER BY id", 1},
	{"league_rows", "SELECT r.play_id, r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative, p.seq FROM plays p JOIN play_results r ON r.play_id = p.id JOIN league_members m ON m.id = r.member_id LEFT JOIN seasons s ON s.id = $2 AND s.league_id = p.league_id WHERE p.league_id = $1 AND NOT p.ignored AND NOT p.incomplete AND NOT m.anonymous AND NOT r.unrated AND ($2::text IS NULL OR p.local_date BETWEEN s.starts AND s.ends) AND ($3::text IS NULL OR lower(p.game) = ANY (ARRAY(SELECT lower(fg.name) FROM league_filter_games($1, $3) fg)) AND EXISTS (SELECT 1 FROM league_filter_games($1, $3) fg WHERE fg.name = p.game AND fg.bgg = coalesce(p.bgg_id, 0))) ORDER BY p.played_at, p.seq, r.seat", 3},
	{"analyze_league_tables", "SELECT analyze_league_tables()", 0},
	{"league_stat_rows", "WITH gn AS (SELECT g.game, g.bgg, g.key, coalesce(k.name, x.game) AS shown FROM league_game_names g JOIN (SELECT DISTINCT ON (y.key) y.key, y.game FROM (SELECT key, game, sum(plays) AS c FROM league_game_names WHERE league_id = $1 GROUP BY key, game) y ORDER BY y.key, y.c DESC, y.game) x ON x.key = g.key LEFT JOIN known_games k ON k.key = g.key WHERE g.league_id = $1) SELECT r.play_id, r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative, p.seq, play_local_text(p.played_at, p.utc_offset_min), p.local_date::text, coalesce(gn.key, p.game), coalesce(gn.shown, p.game), NOT coalesce(lg.highest_wins, true) FROM plays p JOIN play_results r ON r.play_id = p.id JOIN league_members m ON m.id = r.member_id LEFT JOIN seasons s ON s.id = $2 AND s.league_id = p.league_id LEFT JOIN gn ON gn.game = p.game AND gn.bgg = coalesce(p.bgg_id, 0) LEFT JOIN (SELECT DISTINCT ON (name) name, highest_wins FROM league_games WHERE league_id = $1 ORDER BY name, uuid) lg ON lg.name = p.game WHERE p.league_id = $1 AND NOT p.ignored AND NOT p.incomplete AND NOT m.anonymous AND NOT r.unrated AND ($2::text IS NULL OR p.local_date BETWEEN s.starts AND s.ends) AND ($3::text IS NULL OR lower(p.game) = ANY (ARRAY(SELECT lower(fg.name) FROM league_filter_games($1, $3) fg)) AND EXISTS (SELECT 1 FROM league_filter_games($1, $3) fg WHERE fg.name = p.game AND fg.bgg = coalesce(p.bgg_id, 0))) ORDER BY p.played_at, p.seq, r.seat", 3},
	{"recompute_work_mem", "SELECT set_config('work_mem', '64MB', true)", 0},
	{"league_rows_keyed", "SELECT r.play_id, r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative, p.seq, g.key, p.local_date::text, (extract(epoch FROM p.played_at) * 1000000)::bigint FROM plays p JOIN play_results r ON r.play_id = p.id JOIN league_members m ON m.id = r.member_id LEFT JOIN league_game_names g ON g.league_id = p.league_id AND g.game = p.game AND g.bgg = coalesce(p.bgg_id, 0) WHERE p.league_id = $1 AND NOT p.ignored AND NOT p.incomplete AND NOT m.anonymous AND NOT r.unrated ORDER BY p.played_at, p.seq, r.seat", 1},
	{"league_play_rows_keyed", "SELECT r.play_id, r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative, p.seq, g.key, p.local_date::text, (extract(epoch FROM p.played_at) * 1000000)::bigint FROM plays p JOIN play_results r ON r.play_id = p.id JOIN league_members m ON m.id = r.member_id LEFT JOIN league_game_names g ON g.league_id = p.league_id AND g.game = p.game AND g.bgg = coalesce(p.bgg_id, 0) WHERE p.league_id = $1 AND p.id = $2 AND NOT p.ignored AND NOT p.incomplete AND NOT m.anonymous AND NOT r.unrated ORDER BY r.seat", 2},
	{"league_scopes_clear", "WITH s AS (INSERT INTO league_scope_state (league_id, seasons) VALUES ($1, $2::text[]) ON CONFLICT (league_id) DO UPDATE SET seasons = excluded.seasons), l AS (DELETE FROM league_scope_lines WHERE league_id = $1) DELETE FROM league_scopes WHERE league_id = $1", 2},
	{"league_scopes_drop", "WITH l AS (DELETE FROM league_scope_lines WHERE league_id = $1 AND scope = ANY ($2::text[])) DELETE FROM league_scopes WHERE league_id = $1 AND scope = ANY ($2::text[])", 2},
	{"league_scopes_insert", "INSERT INTO league_scopes (league_id, scope, member_id, games, wins, rank_sum, scored, score_sum, best, rated, mu, sigma) SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::bigint[], $7::int[], $8::float8[], $9::float8[], $10::bool[], $11::float8[], $12::float8[]) AS u", 12},
	{"league_game_keys", "SELECT coalesce(string_agg(game || chr(31) || bgg || chr(31) || key, chr(30) ORDER BY game, bgg), '') FROM league_game_names WHERE league_id = $1", 1},
	{"league_added_rows", "SELECT NOT p.ignored AND NOT p.incomplete AND NOT EXISTS (SELECT 1 FROM plays q WHERE q.league_id = $1 AND q.id <> p.id AND NOT q.ignored AND NOT q.incomplete AND (q.played_at, q.seq) > (p.played_at, p.seq)) AND NOT EXISTS (SELECT 1 FROM play_results r4 JOIN member_lines ml ON ml.member_id = r4.member_id JOIN plays q ON q.seq = ml.all_seqs[cardinality(ml.all_seqs)] WHERE r4.play_id = p.id AND (q.played_at, q.seq) > (p.played_at, p.seq)), g.key, p.local_date::text, ARRAY(SELECT s.id FROM seasons s WHERE s.league_id = $1 AND s.id = ANY (t.seasons) AND p.local_date BETWEEN s.starts AND s.ends ORDER BY s.id)::text, r.member_id, m.name, r.rank, r.score, r.winner, p.cooperative FROM plays p JOIN league_scope_state t ON t.league_id = p.league_id JOIN play_results r ON r.play_id = p.id JOIN league_members m ON m.id = r.member_id LEFT JOIN league_game_names g ON g.league_id = p.league_id AND g.game = p.game AND g.bgg = coalesce(p.bgg_id, 0) WHERE p.id = $2 AND p.league_id = $1 AND NOT m.anonymous AND NOT r.unrated ORDER BY r.seat", 2},
	{"league_scopes_of", "SELECT s.scope, s.member_id, ''::text, s.games, s.wins, s.rank_sum, s.scored, s.score_sum, s.best, s.rated, s.mu, s.sigma FROM league_scopes s WHERE s.league_id = $1 AND s.scope = ANY ($2::text[]) AND s.member_id = ANY ($3::text[])", 3},
	{"league_scopes_upsert", "INSERT INTO league_scopes AS s (league_id, scope, member_id, games, wins, rank_sum, scored, score_sum, best, rated, mu, sigma) SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::bigint[], $7::int[], $8::float8[], $9::float8[], $10::bool[], $11::float8[], $12::float8[]) AS u ON CONFLICT (league_id, scope, member_id) DO UPDATE SET games = excluded.games, wins = excluded.wins, rank_sum = excluded.rank_sum, scored = excluded.scored, score_sum = excluded.score_sum, best = excluded.best, rated = excluded.rated, mu = excluded.mu, sigma = excluded.sigma", 12},
	{"league_scope_lines_store", "INSERT INTO league_scope_lines AS l (league_id, scope, mus, sigmas) SELECT $1, u.scope, ($4::float8[])[u.at + 1 : u.at + u.n], ($5::float8[])[u.at + 1 : u.at + u.n] FROM (SELECT x.scope, x.n, (sum(x.n) OVER (ORDER BY x.k) - x.n)::int AS at FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS x(scope, n, k)) u ON CONFLICT (league_id, scope) DO UPDATE SET mus = l.mus || excluded.mus, sigmas = l.sigmas || excluded.sigmas", 5},
	{"league_scope_standings", "WITH sc AS (SELECT league_scope_key($1, $2, $3) AS scope) SELECT sc.scope IS NOT NULL, s.member_id, m.name, s.games, s.wins, s.rank_sum, s.scored, s.score_sum, s.best, s.rated, s.mu, s.sigma FROM sc LEFT JOIN league_scopes s ON s.league_id = $1 AND s.scope = sc.scope LEFT JOIN league_members m ON m.id = s.member_id", 3},
	{"league_scope_line", "WITH sc AS (SELECT league_scope_key($1, $2, $3) AS scope) SELECT sc.scope IS NOT NULL, l.mus::text, l.sigmas::text FROM sc LEFT JOIN league_scope_lines l ON l.league_id = $1 AND l.scope = sc.scope", 3},
	{"member_lines_store", "WITH gone AS (DELETE FROM member_lines WHERE league_id = $1 AND member_id <> ALL ($2::text[])) INSERT INTO member_lines AS l (member_id, league_id, seqs, mus, sigmas, all_seqs, rated_upto) SELECT u.member, $1, ($4::bigint[])[u.at + 1 : u.at + u.n], ($5::float8[])[u.at + 1 : u.at + u.n], ($6::float8[])[u.at + 1 : u.at + u.n], ($8::bigint[])[u.at_all + 1 : u.at_all + u.n_all], ($9::int[])[u.at_all + 1 : u.at_all + u.n_all] FROM (SELECT x.member, x.n, x.n_all, (sum(x.n) OVER (ORDER BY x.k) - x.n)::int AS at, (sum(x.n_all) OVER (ORDER BY x.k) - x.n_all)::int AS at_all FROM unnest($2::text[], $3::int[], $7::int[]) WITH ORDINALITY AS x(member, n, n_all, k)) u ON CONFLICT (member_id) DO UPDATE SET league_id = excluded.league_id, seqs = excluded.seqs, mus = excluded.mus, sigmas = excluded.sigmas, all_seqs = excluded.all_seqs, rated_upto = excluded.rated_upto", 9},
	{"member_lines_of", "SELECT member_id, seqs::text, mus::text, sigmas::text FROM member_lines WHERE league_id = $1", 1},
	{"member_lines_append", "INSERT INTO member_lines AS l (member_id, league_id, seqs, mus, sigmas, all_seqs, rated_upto) SELECT a.member_id, $1, CASE WHEN u.member IS NULL THEN '{}'::bigint[] ELSE ARRAY[p.seq] END, CASE WHEN u.member IS NULL THEN '{}'::float8[] ELSE ARRAY[u.mu] END, CASE WHEN u.member IS NULL THEN '{}'::float8[] ELSE ARRAY[u.sigma] END, ARRAY[p.seq], ARRAY[(u.member IS NOT NULL)::int] FROM plays p JOIN play_results a ON a.play_id = p.id LEFT JOIN unnest($3::text[], $4::float8[], $5::float8[]) AS u(member, mu, sigma) ON u.member = a.member_id WHERE p.id = $2 AND p.league_id = $1 ON CONFLICT (member_id) DO UPDATE SET seqs = l.seqs || excluded.seqs, mus = l.mus || excluded.mus, sigmas = l.sigmas || excluded.sigmas, all_seqs = l.all_seqs || excluded.all_seqs, rated_upto = l.rated_upto || (coalesce(l.rated_upto[cardinality(l.rated_upto)], 0) + excluded.rated_upto[1])", 5},
	{"league_rows_out", "SELECT r.member_id, p.seq, (extract(epoch FROM p.played_at) * 1000000)::bigint FROM plays p JOIN play_results r ON r.play_id = p.id WHERE p.league_id = $1 AND (p.ignored OR p.incomplete) UNION ALL SELECT r.member_id, p.seq, (extract(epoch FROM p.played_at) * 1000000)::bigint FROM league_members m JOIN play_results r ON r.member_id = m.id JOIN plays p ON p.id = r.play_id WHERE m.league_id = $1 AND m.anonymous AND NOT (p.ignored OR p.incomplete) UNION ALL SELECT r.member_id, p.seq, (extract(epoch FROM p.played_at) * 1000000)::bigint FROM league_members m JOIN play_results r ON r.member_id = m.id AND r.unrated JOIN plays p ON p.id = r.play_id WHERE m.league_id = $1 AND NOT m.anonymous AND NOT (p.ignored OR p.incomplete) ORDER BY 3, 2", 1},
	{"player_history", "WITH l AS MATERIALIZED (SELECT cardinality(m.all_seqs) AS total, m.mus[cardinality(m.mus)] AS cur_mu, m.sigmas[cardinality(m.sigmas)] AS cur_sigma, m.all_seqs[b.lo : b.hi] AS s, m.rated_upto[b.lo : b.hi] AS u, (0 || m.rated_upto)[b.lo : b.hi] AS u0, b.rlo, m.mus[b.rlo : m.rated_upto[b.hi]] AS pm, m.sigmas[b.rlo : m.rated_upto[b.hi]] AS ps FROM member_lines m, LATERAL (SELECT $3::int + 1 AS lo, least($3::bigint + $2::bigint, cardinality(m.all_seqs))::int AS hi, greatest(1, (0 || m.rated_upto)[$3::int + 1]) AS rlo) b WHERE m.member_id = $1) SELECT coalesce(l.total, 0), l.cur_mu, l.cur_sigma, p.id, p.game, play_local_text(p.played_at, p.utc_offset_min), p.cooperative, r.score, r.rank, r.winner, x.j > x.j0, CASE WHEN x.j > 0 THEN l.pm[x.j - l.rlo + 1] END, CASE WHEN x.j > 0 THEN l.ps[x.j - l.rlo + 1] END, (SELECT count(*) FROM play_results r2 WHERE r2.play_id = p.id) FROM (SELECT 1) o LEFT JOIN l ON true LEFT JOIN LATERAL unnest(l.s, l.u, l.u0) WITH ORDINALITY AS x(seq, j, j0, k) ON true LEFT JOIN plays p ON p.seq = x.seq LEFT JOIN play_results r ON r.play_id = p.id AND r.member_id = $1 ORDER BY x.k", 3},
	{"league_uuids", "SELECT uuid FROM plays WHERE league_id = $1 ORDER BY uuid COLLATE \"C\"", 1},
	{"league_bgg_plays", "SELECT bgg_play_id, source FROM plays WHERE league_id = $1 AND bgg_play_id IS NOT NULL ORDER BY bgg_play_id", 1},
	/* the export's playDate: the one place a play's date is written for BG Stats (column 4) */
	{"league_export_rows", "SELECT p.id, p.uuid, p.game, p.bgg_id, to_char(play_local(p.played_at, p.utc_offset_min), 'YYYY-MM-DD HH24:MI:SS'), p.duration_min, p.notes, p.location, p.cooperative, p.source, r.seat, m.name, m.id, r.score, r.rank, r.winner, r.breakdown::text, t.mu, t.sigma, play_local_text(p.played_at, p.utc_offset_min), p.ignored, p.bgg_play_id, p.extra::text, r.extra::text, r.score_text, r.player_uuid, m.anonymous, r.unrated, p.incomplete, p.game_uuid FROM plays p LEFT JOIN play_results r ON r.play_id = p.id LEFT JOIN league_members m ON m.id = r.member_id LEFT JOIN league_ratings($1) t ON t.member_id = r.member_id AND t.seq = p.seq WHERE p.league_id = $1 ORDER BY p.played_at, p.seq, r.seat", 1},
	{"league_games_list", "SELECT name, uuid, bgg_id, cooperative, highest_wins, no_points, uses_teams, source::text FROM league_games WHERE league_id = $1 ORDER BY name, uuid", 1},
	{"league_locations_list", "SELECT name, uuid, source::text FROM league_locations WHERE league_id = $1", 1},
	{"league_players_list", "SELECT uuid, source::text FROM league_players WHERE league_id = $1", 1},
	{"league_games_store", "INSERT INTO league_games (league_id, name, uuid, bgg_id, cooperative, highest_wins, no_points, uses_teams, source) SELECT $1, u.name, u.uuid, u.bgg_id, u.coop, u.high, u.nopts, u.teams, u.source FROM unnest($2::text[], $3::text[], $4::int[], $5::boolean[], $6::boolean[], $7::boolean[], $8::boolean[], $9::jsonb[]) AS u(name, uuid, bgg_id, coop, high, nopts, teams, source) ON CONFLICT (league_id, name, (coalesce(uuid, ''))) DO NOTHING", 9},
	{"league_locations_store", "INSERT INTO league_locations (league_id, name, uuid, source) SELECT $1, u.name, u.uuid, u.source FROM unnest($2::text[], $3::text[], $4::jsonb[]) AS u(name, uuid, source) ON CONFLICT (league_id, name) DO NOTHING", 4},
	{"league_players_store", "INSERT INTO league_players (league_id, uuid, source) SELECT $1, u.uuid, u.source FROM unnest($2::text[], $3::jsonb[]) AS u(uuid, source) ON CONFLICT (league_id, uuid) DO NOTHING", 3},
	/* the BG Stats files a league was fed (migration 0023): import.c stores, bgsexport.c reads */
	{"league_file_store", "INSERT INTO league_files (league_id, body) VALUES ($1, $2) ON CONFLICT (league_id, md5(body)) DO NOTHING", 2},
	{"league_files_list", "SELECT body FROM league_files WHERE league_id = $1 ORDER BY seq", 1},
	/* bgsexport.c: the plays edited since they were stored (by id) and the uuids deleted */
	{"league_play_changes", "SELECT DISTINCT action, CASE action WHEN 'edit' THEN play_id ELSE before->>'uuid' END AS key FROM play_log WHERE league_id = $1 AND action IN ('edit', 'delete') ORDER BY action, key", 1},
	{"member_mark_anonymous", "UPDATE league_members SET anonymous = true WHERE id = $1", 1},
	/* consent: invitations, claims of guests, merges kept to be undone (migrations/0021_consent.sql; src/leagues/consent.c; rows read in src/db/consent.c) */
	{"invitation_insert", "WITH i AS (INSERT INTO league_invitations (id, league_id, account_id, role, name, member_id, invited_by) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (league_id, account_id, role) DO NOTHING RETURNING id) SELECT id, true FROM i UNION ALL SELECT o.id, false FROM league_invitations o WHERE o.league_id = $2 AND o.account_id = $3 AND o.role = $4", 7},
	{"invitations_of_account", "SELECT i.id, i.league_id, l.name, i.role, coalesce(i.name, m.name, ''), coalesce(i.member_id, ''), coalesce(a.display_name, ''), to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM league_invitations i JOIN leagues l ON l.id = i.league_id LEFT JOIN league_members m ON m.id = i.member_id LEFT JOIN accounts a ON a.id = i.invited_by WHERE i.account_id = $1 ORDER BY i.created_at, i.id", 1},
	{"invitations_of_league", "SELECT i.id, i.account_id, a.email, a.display_name, i.role, coalesce(i.name, m.name, ''), coalesce(i.member_id, ''), to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM league_invitations i JOIN accounts a ON a.id = i.account_id LEFT JOIN league_members m ON m.id = i.member_id WHERE i.league_id = $1 ORDER BY i.created_at, i.id", 1},
	{"invitation_get", "SELECT i.league_id, i.account_id, i.role, i.name, i.member_id FROM league_invitations i WHERE i.id = $1", 1},
	{"invitation_delete", "DELETE FROM league_invitations WHERE id = $1 AND league_id = $2 RETURNING id", 2},
	{"claim_insert", "WITH i AS (INSERT INTO member_claims (id, league_id, guest_id, account_id) VALUES ($1, $2, $3, $4) ON CONFLICT (guest_id, account_id) DO NOTHING RETURNING id) SELECT id, true FROM i UNION ALL SELECT o.id, false FROM member_claims o WHERE o.guest_id = $3 AND o.account_id = $4", 4},
	{"claims_of_league", "SELECT c.id, c.guest_id, g.name, (SELECT count(*) FROM play_results r WHERE r.member_id = c.guest_id), c.account_id, a.display_name, coalesce(y.id, ''), coalesce(y.name, ''), to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM member_claims c JOIN league_members g ON g.id = c.guest_id JOIN accounts a ON a.id = c.account_id LEFT JOIN league_members y ON y.league_id = c.league_id AND y.account_id = c.account_id WHERE c.league_id = $1 AND ($2::text IS NULL OR c.account_id = $2) ORDER BY c.created_at, c.id", 2},
	{"claim_get", "SELECT c.guest_id, c.account_id FROM member_claims c WHERE c.id = $1 AND c.league_id = $2", 2},
	{"claim_delete", "DELETE FROM member_claims WHERE id = $1 AND league_id = $2 AND ($3::text IS NULL OR account_id = $3) RETURNING id", 3},
	{"claims_drop_guest", "DELETE FROM member_claims WHERE guest_id = $1", 1},
	{"merge_insert", "INSERT INTO member_merges (id, league_id, into_id, from_id, from_name, from_account, from_anonymous, from_created_at, plays, by_account) SELECT $1, m.league_id, $4, m.id, m.name, m.account_id, m.anonymous, m.created_at, ARRAY(SELECT r.play_id FROM play_results r WHERE r.member_id = m.id ORDER BY r.play_id), $5 FROM league_members m WHERE m.league_id = $2 AND m.id = $3 RETURNING id", 5},
	{"merges_of_league", "SELECT g.id, g.from_id, g.from_name, g.into_id, m.name, cardinality(g.plays), coalesce(a.display_name, ''), to_char(g.at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM member_merges g JOIN league_members m ON m.id = g.into_id LEFT JOIN accounts a ON a.id = g.by_account WHERE g.league_id = $1 ORDER BY g.at DESC, g.id", 1},
	{"merge_get", "SELECT g.from_id, g.from_name, g.into_id FROM member_merges g WHERE g.id = $1 AND g.league_id = $2", 2},
	{"merge_restore_member", "INSERT INTO league_members (id, league_id, name, anonymous, created_at, name_clash) SELECT g.from_id, g.league_id, g.from_name, g.from_anonymous, g.from_created_at, $3::boolean FROM member_merges g WHERE g.id = $1 AND g.league_id = $2 ON CONFLICT DO NOTHING RETURNING id", 3},
	{"merge_restore_results", "UPDATE play_results r SET member_id = g.from_id FROM member_merges g WHERE g.id = $1 AND r.member_id = g.into_id AND r.play_id = ANY (g.plays)", 1},
	{"merge_unlink_into", "UPDATE league_members m SET account_id = NULL FROM member_merges g WHERE g.id = $1 AND m.id = g.into_id AND m.account_id = g.from_account RETURNING g.from_id, g.from_account", 1},
	{"merge_delete", "DELETE FROM member_merges WHERE id = $1", 1},
	/* idempotency keys of plays entered by hand (migration 0014) */
	{"play_key_get", "SELECT coalesce(account_id, ''), request_hash, status, reply FROM play_keys WHERE league_id = $1 AND key = $2", 2},
	{"play_key_insert", "INSERT INTO play_keys (league_id, key, account_id, request_hash, status, reply) VALUES ($1, $2, $3, $4, $5::int, $6)", 6},
	/* scoring profiles of Dice Hospital and Clinic (db/profiles.c, migration 0003) */
	{"profile_insert", "INSERT INTO profiles (game, id, name, body, league) VALUES ($1, $2, $3, $4::jsonb, $5) ON CONFLICT (game, id) DO NOTHING RETURNING id", 5},
	{"profile_get", "SELECT body::text FROM profiles WHERE game = $1 AND id = $2", 2},
	{"profiles_list", "SELECT game, id, body::text, league, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM profiles WHERE $1::text IS NULL OR game = $1 ORDER BY game, id", 1},
	DB_STATEMENTS_END,
};
// clang-format on
#pragma GCC diagnostic pop

const db_statement *const db_statement_tables[] = {
    db_health_statements,
    db_readpool_statements,
    db_statements_unsplit,
    NULL,
};

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
