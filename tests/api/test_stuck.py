"""No request waits on a libmicrohttpd thread (src/http/README.md "Requests that must wait",
src/engine/README.md "Writes").

A psql session holds one game's row lock (BEGIN; SELECT … FOR UPDATE) while eight of its
phones write, or holds a league's kept standings (LOCK TABLE league_scopes) while eight
requests ask for the standings that are then being computed, or holds a game's seats while
their tokens are used for the first time (a read that marks its seat claimed). Those requests wait on the
waiting threads, their connections suspended: /health and the moves of other games keep the
latency they had a moment before without the lock (p99 within 2x, or under a floor that noise
cannot cross while a stalled thread would: the lock is held far longer). Once the lock goes,
every waiting write is answered 200 or 503 and the game's log is gapless and holds exactly the
acknowledged moves, each once; every league read gets the one reply.

Few threads, as a small server has: 4 connection threads, 1 job thread, 4 waiting threads."""
import json, subprocess, threading, time

from games import GAMES, create, first_option_move, reveal, state, submit, tokens
from harness import Server, make_database, problem
from league_util import user
from test_db_timeouts import RowLock, _sql, _wait_lock_waiter

# the lock timeout outlasts the measurement, even under a sanitizer (the waiting requests are
# answered once the lock goes, not for having waited too long)
ENV = {"THREADS": "4", "JOB_THREADS": "1", "DB_LOCK_TIMEOUT_MS": "30000",
       "DB_STATEMENT_TIMEOUT_MS": "40000"}
FLOOR = 0.5    # seconds: a p99 under it passes whatever the quiet one was
HOLD = 2.0     # seconds at least that the lock is held while the server is measured
ROUNDS = 10    # each: two /health and one other game's reveal and move


class TableLock:
    """A psql session holding table in ACCESS EXCLUSIVE mode until release()."""

    def __init__(self, dbname, table):
        self.p = subprocess.Popen(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                                   "-d", dbname], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.p.stdin.write(f"BEGIN;\nLOCK TABLE {table} IN ACCESS EXCLUSIVE MODE;\n"
                           "SELECT 'locked';\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline().strip()
        assert line == "locked", line

    def release(self):
        if self.p.poll() is None:
            self.p.stdin.write("ROLLBACK;\n")
            self.p.stdin.close()
            self.p.wait(10)


def _timed(fn):
    t0 = time.monotonic()
    fn()
    return time.monotonic() - t0


def _health(s):
    st, _, _ = s.request("GET", "/api/v1/health")
    assert st == 200, st


def _measure(s, least=0.0):
    """Latencies (seconds) of /health and of other games' writes: ROUNDS rounds, each two
    /health and a new one-player game's reveal and move (the reply of each write timed, not the
    game's creation or the options asked for its move), for at least `least` seconds."""
    health, moves = [], []
    t_end = time.monotonic() + least
    while len(health) < 2 * ROUNDS or time.monotonic() < t_end:
        health.append(_timed(lambda: _health(s)))
        g = create(s, 1)
        cur = {}
        moves.append(_timed(lambda: cur.update(reveal(s, g["id"], g["host_token"])[2])))
        health.append(_timed(lambda: _health(s)))
        m = first_option_move(s, cur, 1)
        moves.append(_timed(lambda: submit(s, g["id"], 1, tokens(g)[1],
                                           cur["turn"]["number"], m)))
    return health, moves


def _p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * 0.99))]


def _kept_latency(quiet, loaded, what):
    q, l = _p99(quiet), _p99(loaded)
    assert l <= max(2 * q, FLOOR), f"{what}: p99 {l:.3f} s under the lock, {q:.3f} s quiet"


def _wait_for(cond, what, timeout=15):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError(what)


def test_a_held_game_row_stalls_no_other_request():
    """Eight phones of a six-seat game write while its row is held: once the chief has moved,
    the five other seats their moves of turn 1, the host the same moves of three of them again
    (a resubmission is answered as the first and stored once, whichever of the two lands
    first)."""
    db = make_database("t_stuck_row")
    with Server(database=db, env=ENV) as s:
        g = create(s, 6)
        gid, host, toks = g["id"], g["host_token"], tokens(g)
        _, _, cur = reveal(s, gid, host)
        turn, chief = cur["turn"]["number"], cur["turn"]["chief_seat"]
        _, _, cur = submit(s, gid, chief, toks[chief], turn, first_option_move(s, cur, chief))
        others = [x for x in sorted(toks) if x != chief]
        moves = {seat: first_option_move(s, cur, seat) for seat in others}
        for seat in others[:2]:  # their tokens known: their writes try the one-statement path
            state(s, gid, toks[seat])
        quiet_health, quiet_moves = _measure(s)

        replies, released = {}, []

        def phone(name, seat, token):
            body = json.dumps({"turn": turn, "move": moves[seat]})
            st, hd, data = s.request("POST", f"{GAMES}/{gid}/seats/{seat}/moves", body,
                                     {"Content-Type": "application/json",
                                      "Authorization": "Bearer " + token}, timeout=90)
            replies[name] = (seat, st, hd, json.loads(data), time.monotonic())

        phones = [threading.Thread(target=phone, args=(f"seat{x}", x, toks[x])) for x in others]
        phones += [threading.Thread(target=phone, args=(f"host{x}", x, host))
                   for x in others[1:4]]
        lock = RowLock("t_stuck_row", gid)
        try:
            for p in phones:
                p.start()
            _wait_lock_waiter("t_stuck_row")  # a write waits for the row, on a waiting thread
            held_health, held_moves = _measure(s, HOLD)
        finally:
            released.append(time.monotonic())
            lock.release()
            for p in phones:
                p.join(90)
        assert not any(p.is_alive() for p in phones), "a write of the held game never ended"
        _kept_latency(quiet_health, held_health, "/health")
        _kept_latency(quiet_moves, held_moves, "other games' moves")

        acked = set()
        for name, (seat, st, hd, obj, at) in sorted(replies.items()):
            assert at >= released[0], (name, st, obj)  # nothing answered under the lock
            if st == 503:
                problem(st, hd, obj, 503)
                assert hd.get("retry-after", "").isdigit(), hd
            else:
                assert st == 200, (name, st, obj)
                acked.add(seat)
        assert len(replies) == 8, replies
        rows = _sql("t_stuck_row", "SELECT version, kind, seat FROM events WHERE game_id = "
                    f"'{gid}' ORDER BY version").splitlines()
        versions = [int(r.split("|")[0]) for r in rows]
        assert versions == list(range(1, len(rows) + 1)), rows  # gapless
        moved = [int(r.split("|")[2]) for r in rows[2:]]  # after the reveal and the chief's
        assert sorted(moved) == sorted(acked), (rows, replies)  # each acknowledged move once
        final = state(s, gid, host)
        assert final["version"] == len(rows), (final["version"], rows)
        out = s.output()
        assert "SERVER-ERROR" not in out and "bug " not in out, out[-3000:]


def test_a_league_reply_being_computed_stalls_no_other_request():
    """Eight reads of a league's standings while the table they are computed from is locked:
    the first computes it on a waiting thread (waiting for the table), the others wait for that
    reply there too; every one gets the same reply once the lock goes."""
    db = make_database("t_stuck_league")
    with Server(database=db, env=ENV) as s:
        ann = user(s, "ann@example.org", "Ann")
        st, _, lg = ann.post("/api/v1/leagues", {"name": "Stuck"})
        assert st == 201, lg
        lid = lg["id"]
        st, _, bea = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Bea"})
        assert st == 201, bea
        st, _, full = ann.get(f"/api/v1/leagues/{lid}")
        me = full["members"][0]["id"]
        st, _, p = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-02-01",
            "results": [{"player": me, "score": 60}, {"player": bea["id"], "score": 45}]})
        assert st == 201, p
        quiet_health, quiet_moves = _measure(s)
        # a new version of the league: its standings are computed again on the next read
        st, _, p = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-02-02",
            "results": [{"player": me, "score": 50}, {"player": bea["id"], "score": 55}]})
        assert st == 201, p

        replies, released = {}, []

        def reader(i):
            replies[i] = ann.get(f"/api/v1/leagues/{lid}/standings", timeout=90)
            replies[i] += (time.monotonic(),)

        readers = [threading.Thread(target=reader, args=(i,)) for i in range(8)]
        lock = TableLock("t_stuck_league", "league_scopes")
        try:
            for r in readers:
                r.start()
            _wait_lock_waiter("t_stuck_league")  # the computation waits for the table
            held_health, held_moves = _measure(s, HOLD)
        finally:
            released.append(time.monotonic())
            lock.release()
            for r in readers:
                r.join(90)
        assert not any(r.is_alive() for r in readers), "a league read never ended"
        _kept_latency(quiet_health, held_health, "/health")
        _kept_latency(quiet_moves, held_moves, "other games' moves")
        bodies = set()
        for i, (st, hd, obj, at) in sorted(replies.items()):
            assert st == 200 and at >= released[0], (i, st, obj)
            bodies.add((hd["etag"], repr(obj)))
        assert len(bodies) == 1, bodies
        (_, body), = bodies
        assert "'wins': 1" in body, body  # the standings of both plays
        out = s.output()
        assert "SERVER-ERROR" not in out and "bug " not in out, out[-3000:]


class SeatsLock:
    """A psql session holding the row locks of game gid's seats until release()."""

    def __init__(self, dbname, gid):
        assert "'" not in gid
        self.p = subprocess.Popen(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                                   "-d", dbname], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.p.stdin.write("BEGIN;\nSELECT count(*) FROM (SELECT seat FROM seats WHERE "
                           f"game_id = '{gid}' FOR UPDATE) held;\n")
        self.p.stdin.flush()
        self.n = int(self.p.stdout.readline().strip())

    def release(self):
        if self.p.poll() is None:
            self.p.stdin.write("ROLLBACK;\n")
            self.p.stdin.close()
            self.p.wait(10)


def test_held_seats_stall_no_other_request():
    """Twelve first reads of a six-seat game (each seat's token twice: a token's first use marks
    its seat claimed) while a psql session holds the game's seat rows: the claims wait on the
    waiting threads, /health and other games' moves keep their latency, and once the lock goes
    every read is answered 200 and every seat is claimed."""
    db = make_database("t_stuck_seats")
    with Server(database=db, env=ENV) as s:
        g = create(s, 6)
        gid, toks = g["id"], tokens(g)
        quiet_health, quiet_moves = _measure(s)

        replies, released = {}, []

        def reader(i, token):
            st, _, data = s.request("GET", f"{GAMES}/{gid}", None,
                                    {"Authorization": "Bearer " + token}, timeout=90)
            replies[i] = (st, data, time.monotonic())

        readers = [threading.Thread(target=reader, args=(i, toks[seat]))
                   for i, seat in enumerate(sorted(toks) * 2)]
        lock = SeatsLock("t_stuck_seats", gid)
        assert lock.n == 6, lock.n
        try:
            for r in readers:
                r.start()
            _wait_lock_waiter("t_stuck_seats")  # a claim waits for its seat, on a waiting thread
            held_health, held_moves = _measure(s, HOLD)
        finally:
            released.append(time.monotonic())
            lock.release()
            for r in readers:
                r.join(90)
        assert not any(r.is_alive() for r in readers), "a read of the held game never ended"
        _kept_latency(quiet_health, held_health, "/health")
        _kept_latency(quiet_moves, held_moves, "other games' moves")
        assert len(replies) == 12, replies
        for i, (st, data, at) in sorted(replies.items()):
            assert st == 200 and at >= released[0], (i, st, data)
        claimed = _sql("t_stuck_seats", "SELECT count(*) FROM seats WHERE game_id = "
                       f"'{gid}' AND claimed")
        assert claimed == "6", claimed
        out = s.output()
        assert "SERVER-ERROR" not in out and "bug " not in out, out[-3000:]
