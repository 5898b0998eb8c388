"""Write groups (src/engine/README.md "Writes"): the optimistic writes of many games, arriving
at once on the connection threads, are sent in shared statements (fewer statements than
writes, the server's log says how many), and each write is still its own: answered with its
game's state, in its game's log exactly once, the seat claimed by the phone's first move. A
table's seats moving at once land once each too (one parked write holds the game's turn; the
others wait for it on waiting threads). The same moves with WRITE_GROUPS=0 (every write its own
statement) give the same games."""
import concurrent.futures as cf
import contextlib
import re
import subprocess
import time

from games import create, first_option_move, log, normal_move, reveal, state, submit, tokens
from harness import Server, make_database

GAMES_N = 24


def _play_first_turn(s):
    """GAMES_N two-seat games: each revealed, then every chief's first move at once across the
    games, then every other seat's. Returns {game id: (host token, join code, {seat: move})}."""
    games = [create(s, 2, deck="table") for _ in range(GAMES_N)]
    for i, g in enumerate(games):
        reveal(s, g["id"], g["host_token"], card=1 + i % 20, dice=[2, 3 + i % 3, 5])
    made = {g["id"]: (g["host_token"], g["code"], {}) for g in games}
    pool = cf.ThreadPoolExecutor(max_workers=GAMES_N)
    for phase in ("chief", "other"):
        # every move chosen first, then all sent at once (no request of the choosing between)
        todo = []
        for g in games:
            tok = tokens(g)
            st = state(s, g["id"], tok[1])
            chief = st["turn"]["chief_seat"]
            seat = chief if phase == "chief" else 3 - chief
            move = first_option_move(s, st, seat)
            made[g["id"]][2][seat] = move
            todo.append((g["id"], seat, tok[seat], move))
        jobs = [pool.submit(submit, s, gid, seat, tok, 1, move) for gid, seat, tok, move in todo]
        for j in jobs:
            _, _, obj = j.result()
            assert obj["version"] >= 2, obj
    pool.shutdown()
    return made


def _check_logs(s, made, dbname):
    for gid, (host, _, moves) in made.items():
        events = log(s, gid, host)["events"]
        assert [e["version"] for e in events] == [1, 2, 3], (gid, events)  # gapless
        assert events[0]["kind"] == "reveal", events
        # each move once, as it was sent
        assert sorted(e["seat"] for e in events[1:]) == [1, 2], events
        for e in events[1:]:
            assert e["kind"] == "move" and e["payload"]["move"] == normal_move(moves[e["seat"]]), e
    # the phones' first moves claimed their seats
    out = _psql(dbname, "SELECT count(*) FILTER (WHERE claimed), count(*) FROM seats")
    assert out == f"{2 * GAMES_N}|{2 * GAMES_N}", out


def _group_figures(out):
    """(writes, statements, largest, chained) from the server's log at its stop."""
    m = re.search(r"engine: (\d+) write\(s\) sent in (\d+) group statement\(s\), at most (\d+) "
                  r"in one, (\d+) chained", out)
    assert m, out[-2000:]
    return tuple(int(x) for x in m.groups())


def _psql(dbname, *sql):
    args = ["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", dbname]
    for q in sql:
        args += ["-c", q]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()


def _hold_appends(dbname):
    """While the table `hold` has a row, every statement that appends events waits for it to
    be emptied (polling: no lock, which the groups' 1 ms lock timeout would end)."""
    _psql(dbname, "CREATE TABLE hold (x int)",
          "CREATE FUNCTION held() RETURNS trigger LANGUAGE plpgsql AS "
          "$$BEGIN WHILE EXISTS (SELECT 1 FROM hold) LOOP PERFORM pg_sleep(0.01); END LOOP; "
          "RETURN NULL; END$$",
          "CREATE TRIGGER held AFTER INSERT ON events "
          "FOR EACH STATEMENT EXECUTE FUNCTION held()")


def _wait_groups_out(dbname, n):
    """Until n group statements are running (held by _hold_appends)."""
    for _ in range(1000):
        out = _psql(dbname, "SELECT count(*) FROM pg_stat_activity "
                            "WHERE state = 'active' AND query LIKE 'WITH w AS%'")
        if int(out) >= n:
            return
        time.sleep(0.01)
    raise AssertionError(f"{n} group statements never ran at once")


def _wait_queued(s, n):
    """Until n moves wait in the groups' queue, chained ones included (the server's own figure,
    GET /api/v1/health writes_queued): sent moves have reached it, whatever the machine's
    pace."""
    for _ in range(3000):
        st, _, obj = s.json("GET", "/api/v1/health")
        assert st == 200, obj
        if obj["writes_queued"] == n:
            return
        assert obj["writes_queued"] < n, obj
        time.sleep(0.01)
    raise AssertionError(f"{n} moves never waited in the queue: {obj}")


def _ready_table(s, n, i):
    """A revealed n-seat game whose chief has moved, every phone having opened it (the server
    knows each seat's token). Returns (game, tokens, the other seats' first moves)."""
    g = create(s, n, deck="table")
    reveal(s, g["id"], g["host_token"], card=1 + i % 20, dice=[2, 3 + i % 3, 5])
    tok = tokens(g)
    st = state(s, g["id"], tok[1])
    chief = st["turn"]["chief_seat"]
    submit(s, g["id"], chief, tok[chief], 1, first_option_move(s, st, chief))
    st = state(s, g["id"], tok[1])
    for seat in tok:
        state(s, g["id"], tok[seat])
    return g, tok, {seat: first_option_move(s, st, seat) for seat in tok if seat != chief}


def _busy_groups(s, dbname, pool, tables):
    """Both group threads held in a statement (each with a move of one of two tables of
    _ready_table), so that the writes that come next wait in the queue. Returns the two moves'
    futures."""
    held = []
    for i, (g, tok, moves) in enumerate(tables):
        seat = next(iter(moves))
        held.append(pool.submit(submit, s, g["id"], seat, tok[seat], 1, moves[seat]))
        _wait_groups_out(dbname, i + 1)
    return held


def _slow_commits(dbname):
    """Every statement that appends events takes 50 ms more, as on a slow disk: writes that
    arrive meanwhile wait in the groups' queue (the test cluster runs without fsync, where a
    statement ends before the next write comes)."""
    _psql(dbname, "CREATE FUNCTION slow_disk() RETURNS trigger LANGUAGE plpgsql AS "
                  "$$BEGIN PERFORM pg_sleep(0.05); RETURN NULL; END$$",
          "CREATE TRIGGER slow_disk AFTER INSERT ON events "
          "FOR EACH STATEMENT EXECUTE FUNCTION slow_disk()")


def test_moves_of_many_games_share_statements_and_each_lands_once():
    with Server(database=make_database("t_write_groups")) as s:
        _slow_commits("t_write_groups")
        made = _play_first_turn(s)
        _check_logs(s, made, "t_write_groups")
        s.stop()  # the figures are logged at the stop
        out = s.output()
    writes, statements, largest, _ = _group_figures(out)
    # the moves (a reveal, the game's first write here, takes the locking write)
    assert writes >= 2 * GAMES_N, (writes, statements)
    assert statements < writes and largest > 1, (writes, statements, largest)


def test_a_tables_seats_moving_at_once_land_once_each():
    """Six four-seat games; each chief moves, then the three other seats of every game at once
    (rulebook, "Choose patient": once the Chief Physician has chosen, the other players choose
    simultaneously). A game's first move of the three parks with a group; the other two find
    the game's turn taken and wait for it on waiting threads. Every move lands once, in order."""
    n = 6
    with Server(database=make_database("t_write_groups_table")) as s:
        _slow_commits("t_write_groups_table")
        games = [create(s, 4, deck="table") for _ in range(n)]
        sent = {}
        for i, g in enumerate(games):
            reveal(s, g["id"], g["host_token"], card=1 + i % 20, dice=[2, 3 + i % 3, 5])
            tok = tokens(g)
            st = state(s, g["id"], tok[1])
            chief = st["turn"]["chief_seat"]
            sent[(g["id"], chief)] = first_option_move(s, st, chief)
            submit(s, g["id"], chief, tok[chief], 1, sent[(g["id"], chief)])
        # every move chosen first, then all sent at once (no request of the choosing between)
        todo = []
        for g in games:
            tok = tokens(g)
            st = state(s, g["id"], tok[1])
            for seat in range(1, 5):
                if (g["id"], seat) not in sent:
                    sent[(g["id"], seat)] = first_option_move(s, st, seat)
                    todo.append((g["id"], seat, tok[seat], sent[(g["id"], seat)]))
        with cf.ThreadPoolExecutor(max_workers=len(todo)) as pool:
            jobs = [pool.submit(submit, s, gid, seat, tok, 1, move) for gid, seat, tok, move in todo]
            for j in jobs:
                _, _, obj = j.result()
                assert obj["version"] >= 3, obj
        for g in games:
            events = log(s, g["id"], g["host_token"])["events"]
            assert [e["version"] for e in events] == [1, 2, 3, 4, 5], events  # gapless
            assert sorted(e["seat"] for e in events[1:]) == [1, 2, 3, 4], events
            for e in events[1:]:
                assert e["payload"]["move"] == normal_move(sent[(g["id"], e["seat"])]), e
        s.stop()
        writes, statements, largest, _ = _group_figures(s.output())
    # the chiefs' moves, one at a time, and each game's first of the others went with groups
    # (how the others' first moves share statements depends on when each arrives: the test
    # above counts the sharing, with many more games at once)
    assert writes >= 2 * n, (writes, statements, largest)


@contextlib.contextmanager
def _groups_held(db, nseats, i):
    """A server on database db with a table of nseats ready (_ready_table) and both group
    threads held in a statement (_busy_groups): what is sent meanwhile waits in the queue until
    release() empties the hold. Yields (server, table, pool, release)."""
    with Server(database=make_database(db)) as s:
        table = _ready_table(s, nseats, i)
        busy = [_ready_table(s, 2, 10 + k) for k in range(2)]
        _hold_appends(db)
        _psql(db, "INSERT INTO hold VALUES (1)")
        with cf.ThreadPoolExecutor(max_workers=8) as pool:
            held = _busy_groups(s, db, pool, busy)
            try:
                yield s, table, pool, lambda: _psql(db, "DELETE FROM hold")
            finally:
                _psql(db, "DELETE FROM hold")
                for h in held:
                    h.result()


def _figures_at_stop(s):
    """The server stopped, and its group figures (_group_figures)."""
    s.stop()  # the figures are logged at the stop
    return _group_figures(s.output())


def test_a_tables_moves_waiting_together_go_as_one_entry():
    """Rulebook, "Choose patient": after the Chief Physician, the other players choose at once.
    While the game's first of those moves waits for its statement, the other seats' moves are
    chained to it: one entry of the group, each move in the log once, in order, each phone
    answered with the game at its own move.

    The first is sent alone, and the others once it waits in the queue: a move that came while
    the first was still being computed would find the game's turn taken and no write in the
    queue to chain to, and would wait for the turn on a waiting thread (landing after the
    entry, but not in it)."""
    with _groups_held("t_write_groups_chain", 4, 0) as (s, (g, tok, moves), pool, release):
        first, *others = sorted(moves)
        jobs = [pool.submit(submit, s, g["id"], first, tok[first], 1, moves[first])]
        _wait_queued(s, 1)  # the first holds the game's turn, waiting in the queue
        jobs += [pool.submit(submit, s, g["id"], seat, tok[seat], 1, moves[seat])
                 for seat in others]
        _wait_queued(s, 3)  # the other two chained to it: the three wait as one entry
        release()
        versions = sorted(j.result()[2]["version"] for j in jobs)
        assert versions == [3, 4, 5], versions  # each answered at its own move
        events = log(s, g["id"], g["host_token"])["events"]
        assert [e["version"] for e in events] == [1, 2, 3, 4, 5], events
        for e in events[2:]:
            assert e["payload"]["move"] == normal_move(moves[e["seat"]]), e
        # every phone then reads the game at the entry's end, every move in it
        for token in [g["host_token"], *(tok[seat] for seat in moves)]:
            now = state(s, g["id"], token)
            assert now["version"] == 5, now
            assert sorted(now["turn"]["moved"]) == sorted(tok), now["turn"]
        writes, statements, largest, chained = _figures_at_stop(s)
    assert chained == 2 and largest >= 3, (writes, statements, largest, chained)


def test_an_entry_with_a_replaced_token_is_decided_move_by_move():
    """A chained move whose seat was taken over by another phone meanwhile (a join with
    "replace") fails its entry's token check: nothing of the entry is written, and each move is
    decided alone — the first lands, the replaced token's gets 401 seat-replaced."""
    with _groups_held("t_write_groups_chain_replaced", 3, 1) as (s, (g, tok, moves), pool,
                                                                 release):
        first, second = sorted(moves)
        a = pool.submit(submit, s, g["id"], first, tok[first], 1, moves[first])
        _wait_queued(s, 1)
        b = pool.submit(submit, s, g["id"], second, tok[second], 1, moves[second], expect=None)
        _wait_queued(s, 2)  # chained to the first
        st, _, joined = s.json("POST", "/api/v1/join",
                               {"code": g["code"], "seat": second, "replace": True})
        assert st == 200, joined
        release()
        assert a.result()[2]["version"] == 3
        st, _, why = b.result()
        assert st == 401 and why["rule"] == "seat-replaced", (st, why)
        events = log(s, g["id"], g["host_token"])["events"]
        assert [e["version"] for e in events] == [1, 2, 3], events
        assert events[2]["seat"] == first, events
        writes, statements, largest, chained = _figures_at_stop(s)
    assert chained == 1, (writes, statements, largest, chained)


def test_without_write_groups_the_same_moves_land_the_same_way():
    with Server(database=make_database("t_write_groups_off"), env={"WRITE_GROUPS": "0"}) as s:
        _slow_commits("t_write_groups_off")
        made = _play_first_turn(s)
        _check_logs(s, made, "t_write_groups_off")
        s.stop()
        assert "group statement" not in s.output()
