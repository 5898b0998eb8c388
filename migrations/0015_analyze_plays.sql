-- Fresh planner statistics for the league tables, called after an import that added many plays
-- (src/leagues/import.c): autovacuum would get there within a minute, but the standings and
-- pictures a group opens right after importing years of history would be planned for the
-- league as it was before (ANALYZE cannot be a prepared statement; a function can run it).
CREATE FUNCTION analyze_league_tables() RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    ANALYZE plays;
    ANALYZE play_results;
    ANALYZE league_members;
END
$$;
