"""Database timeouts and the write turns of the table engine (src/db/, src/engine/table.c).

A psql session holds a game's row lock (BEGIN; SELECT … FROM games … FOR UPDATE: the row every
write of a game locks, statements game_lock and events_append_if). The server's sessions carry
lock_timeout / statement_timeout, so a write of that game is answered 503 with Retry-After
within about the timeout, the connection that got the cancellation serves the next request, and
writes of other games (also those whose ids share the game's write stripe) never wait for it.
Also: SIGTERM/SIGINT while the server waits for the database or applies migrations."""
import glob, json, os, shutil, signal, subprocess, tempfile, threading, time

from games import GAMES, create, first_option_move, reveal, state, submit
from harness import ROOT, SERVER_BIN, Server, make_database, problem
from league_util import user

STRIPES = 256  # WRITE_STRIPES in src/engine/table.c


def _stripe(gid):
    """The write stripe of a game id: FNV-1a, as stripe_of in src/engine/table.c."""
    h = 2166136261
    for b in gid.encode():
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h % STRIPES


class RowLock:
    """A psql session holding the row lock of game gid until release()."""

    def __init__(self, dbname, gid, table="games"):
        self.p = subprocess.Popen(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                                   "-d", dbname], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        assert "'" not in gid
        self.p.stdin.write(f"BEGIN;\nSELECT id FROM {table} WHERE id = '{gid}' FOR UPDATE;\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline().strip()
        assert line == gid, line

    def release(self):
        if self.p.poll() is None:
            self.p.stdin.write("ROLLBACK;\n")
            self.p.stdin.close()
            self.p.wait(10)


def _sql(dbname, query):
    return subprocess.run(["psql", "-X", "-q", "-A", "-t", "-d", dbname, "-c", query],
                          capture_output=True, text=True, check=True).stdout.strip()


def _wait_lock_waiter(dbname, timeout=10):
    """Until a server session waits for a lock (the write of the held game is in flight)."""
    end = time.time() + timeout
    while time.time() < end:
        n = _sql(dbname, "SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                 "'dicehospital' AND wait_event_type = 'Lock'")
        if n != "0":
            return
        time.sleep(0.05)
    raise AssertionError("no write waited for the row lock")


def _busy(st, hd, obj):
    problem(st, hd, obj, 503)
    assert hd.get("retry-after", "").isdigit(), hd


def _write(s, g):
    """One write of game g (a reveal of turn 1; a repeat is answered 200 or 409)."""
    t0 = time.time()
    st, hd, obj = reveal(s, g["id"], g["host_token"], expect=None)
    return st, hd, obj, time.time() - t0


def test_lock_timeout_is_503_and_the_connection_serves_the_next_request():
    """One worker thread, so the request after the cancelled one runs on the same connection."""
    db = make_database("t_dbto_lock")
    with Server(database=db, env={"THREADS": "1", "DB_LOCK_TIMEOUT_MS": "700"}) as s:
        g = create(s, 2)
        assert _write(s, g)[0] == 200
        lock = RowLock("t_dbto_lock", g["id"])
        try:
            st, hd, obj, took = _write(s, g)
            _busy(st, hd, obj)
            assert 0.6 < took < 3, took
            # a read does not wait for a row lock
            st, _, obj = s.json("GET", f"{GAMES}/{g['id']}", token=g["host_token"])
            assert st == 200, (st, obj)
        finally:
            lock.release()
        st, hd, obj, took = _write(s, g)
        assert st in (200, 409), (st, obj)
        other = create(s, 2)
        assert _write(s, other)[0] == 200
        assert "statement \"" in s.output() and "55P03" in s.output(), s.output()[-2000:]


def test_statement_timeout_is_503():
    """Without a lock timeout the statement timeout cancels the wait (57014)."""
    db = make_database("t_dbto_stmt")
    env = {"THREADS": "1", "DB_LOCK_TIMEOUT_MS": "0", "DB_STATEMENT_TIMEOUT_MS": "700"}
    with Server(database=db, env=env) as s:
        g = create(s, 2)
        lock = RowLock("t_dbto_stmt", g["id"])
        try:
            st, hd, obj, took = _write(s, g)
            _busy(st, hd, obj)
            assert 0.6 < took < 3, took
        finally:
            lock.release()
        assert _write(s, g)[0] == 200
        assert "57014" in s.output(), s.output()[-2000:]


def test_league_write_timeout_is_503():
    """The league handlers answer from acct_reply_db: a timeout is 503 there too. Adding a member
    checks its league's row (foreign key: FOR KEY SHARE), which FOR UPDATE holds."""
    db = make_database("t_dbto_league")
    with Server(database=db, env={"DB_LOCK_TIMEOUT_MS": "500"}) as s:
        owner = user(s, "to@example.org")
        st, hd, lg = owner.post("/api/v1/leagues", {"name": "Timeouts"})
        assert st == 201, (st, lg)
        lock = RowLock("t_dbto_league", lg["id"], table="leagues")
        try:
            st, hd, obj = owner.post(f"/api/v1/leagues/{lg['id']}/members", {"name": "Ann"})
            _busy(st, hd, obj)
        finally:
            lock.release()
        st, hd, obj = owner.post(f"/api/v1/leagues/{lg['id']}/members", {"name": "Ann"})
        assert st == 201, (st, obj)


def test_stuck_game_does_not_stall_other_games():
    """A write of the held game waits (its turn taken) while writes of other games, two of them
    in its stripe, are answered at once; it is answered 503 within about the lock timeout, and
    the game moves again once the lock is released."""
    db = make_database("t_dbto_stripe")
    with Server(database=db, env={"THREADS": "4", "DB_LOCK_TIMEOUT_MS": "4000"}) as s:
        a = create(s, 2)
        same, others = [], []
        for _ in range(3000):  # bounded: about STRIPES creates per game of a's stripe
            g = create(s, 2)
            if _stripe(g["id"]) == _stripe(a["id"]):
                same.append(g)
            elif len(others) < 8:
                others.append(g)
            if len(same) == 2 and len(others) == 8:
                break
        assert len(same) == 2, "no two games of the stripe in 3000"
        for g in [a] + same + others:  # every game written once: its token known, state cached
            assert _write(s, g)[0] == 200
        lock = RowLock("t_dbto_stripe", a["id"])
        held = {}

        def write_a():
            held["reply"] = _write(s, a)

        t = threading.Thread(target=write_a)
        try:
            t.start()
            _wait_lock_waiter("t_dbto_stripe")
            for g in same + others:
                st, hd, obj, took = _write(s, g)
                assert st in (200, 409), (st, obj)
                assert took < 1.0, (g["id"], took)
            assert t.is_alive(), "the write of the held game did not wait for its lock"
            t.join(15)
        finally:
            lock.release()
            t.join(15)
        st, hd, obj, took = held["reply"]
        _busy(st, hd, obj)
        assert took < 4.0 + 2.0, took
        st, hd, obj, took = _write(s, a)
        assert st in (200, 409) and took < 1.0, (st, obj, took)


def _first_messages(s, gid, tok, last, want, timeout=3):
    """The start of the event stream (raw bytes as text) once it holds `want`, or whatever came
    within timeout seconds."""
    c = s.conn(timeout)
    h = {"Authorization": "Bearer " + tok, "Accept": "text/event-stream"}
    if last is not None:
        h["Last-Event-ID"] = last
    c.request("GET", f"{GAMES}/{gid}/events", headers=h)
    r = c.getresponse()
    assert r.status == 200, r.status
    c.sock.settimeout(0.2)
    buf, end = b"", time.time() + timeout
    while want.encode() not in buf and time.time() < end:
        try:
            chunk = r.fp.read1(4096)
        except OSError:  # a read timeout: nothing yet
            continue
        if not chunk:
            break
        buf += chunk
    c.close()
    return buf.decode(errors="replace")


def test_last_event_id_is_parsed_strictly():
    """Last-Event-ID resumes after a version the game has reached; anything else (signs,
    spaces, letters, overflow, a version beyond the game's) is ignored: the stream starts with
    its hello at the current version, as without the header."""
    db = make_database("t_dbto_sse")
    # streams closed by the client are counted until the server notices: room for all of them
    with Server(database=db, env={"SSE_PER_TOKEN": "100", "SSE_PER_GAME": "100"}) as s:
        g = create(s, 1)
        gid, tok = g["id"], g["host_token"]
        reveal(s, gid, tok)
        now = state(s, gid, tok)
        submit(s, gid, 1, g["seats"][0]["seat_token"], now["turn"]["number"],
               first_option_move(s, now, 1))
        version = state(s, gid, tok)["version"]
        assert version >= 2, version
        hello = f"event: hello\ndata: {{\"version\":{version}}}"
        assert hello in _first_messages(s, gid, tok, None, hello)
        # a version it has sent: the stream resumes after it, without a hello
        out = _first_messages(s, gid, tok, "1", "id: 2\n")
        assert "id: 2\n" in out and "hello" not in out, out
        # (spaces around a header value are not part of it: " 1" is "1")
        for bad in ["-1", "+1", "1 1", "0x1", "1e0", "1.0", "abc", "99999999999", "4294967297",
                    "-4294967295", str(version + 1)]:
            out = _first_messages(s, gid, tok, bad, hello)
            assert hello in out, (bad, out)


def test_unit_db_against_the_database():
    """tests/unit/test_db.c's cases that need a real server (TEST_DB_CONNINFO): a connection
    whose pipeline cannot be left is replaced; every statement's result columns match the names
    its enum registers; the LISTEN connection quotes its channel; binary
    whole-number arrays; reads in one snapshot; the short lock timeout kept on the session."""
    db = make_database("t_dbto_unit")
    env = dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=os.path.join(ROOT, "migrations"))
    subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"], env=env, check=True,
                   capture_output=True, timeout=60)
    binary = os.path.join(ROOT, os.path.dirname(SERVER_BIN), "tests", "test_db")
    p = subprocess.run([binary], env=dict(os.environ, TEST_DB_CONNINFO=db),
                       capture_output=True, text=True, timeout=120)
    for name in ("db statements' result columns match their lists",
                 "db connection left in pipeline mode", "db LISTEN on a channel that needs quoting",
                 "db binary bigint[] and integer[] parameters read by PostgreSQL",
                 "db reads in one snapshot (db_tx_snapshot)",
                 "db lock timeout: nowait's kept on the session, the role's for a wait",
                 "db a broken connection counts as lost until replaced"):
        assert "PASS " + name in p.stdout, p.stdout + p.stderr
    assert p.returncode == 0, p.stdout + p.stderr


def _slow_migrations(tmp):
    """The real migrations and a last one that creates a table, then sleeps."""
    for f in glob.glob(os.path.join(ROOT, "migrations", "*.sql")):
        shutil.copy(f, tmp)
    with open(os.path.join(tmp, "9000_slow.sql"), "w") as f:
        f.write("CREATE TABLE slow_marker (x int);\nSELECT pg_sleep(60);\n")


def _wait_migration_sleeping(dbname, proc, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        assert proc.poll() is None, "the migration ended by itself"
        if _sql(dbname, "SELECT count(*) FROM pg_stat_activity WHERE query LIKE "
                "'%pg_sleep(60)%' AND state = 'active' AND pid <> pg_backend_pid()") != "0":
            return
        time.sleep(0.05)
    raise AssertionError("the slow migration did not start")


def _stopped_cleanly(dbname, proc, out_path, want_rc, sig):
    proc.send_signal(sig)
    try:
        rc = proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("the signal did not stop the migration")
    with open(out_path, errors="replace") as f:
        out = f.read()
    assert rc == want_rc, (rc, out)
    assert "stopped by a signal while applying 9000_slow.sql: rolled back, not recorded" in out, out
    assert "received" in out, out
    assert "AddressSanitizer" not in out and "runtime error:" not in out, out[-3000:]
    assert _sql(dbname, "SELECT count(*) FROM schema_migrations WHERE version = 9000") == "0"
    assert _sql(dbname, "SELECT to_regclass('slow_marker') IS NULL") == "t"
    # nothing of the run is left behind: no session, no advisory lock
    assert _sql(dbname, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == "0"


def _run(args, db, tmp, extra=None):
    out = tempfile.NamedTemporaryFile(prefix="migrate-", suffix=".log", delete=False)
    env = dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=tmp, PORT="0",
               STATIC_DIR=os.path.join(ROOT, "static"),
               TEMPLATES_DIR=os.path.join(ROOT, "templates"), **(extra or {}))
    proc = subprocess.Popen([os.path.join(ROOT, SERVER_BIN)] + args, env=env, stdout=out,
                            stderr=subprocess.STDOUT)
    return proc, out.name


def test_sigterm_during_migrate_rolls_back_and_exits_1():
    """`server migrate` stopped by SIGTERM in the middle of a migration: the statement is
    cancelled, the migration rolled back and not recorded, exit status 1 with a message; a later
    run applies it."""
    db = make_database("t_dbto_migsig")
    tmp = tempfile.mkdtemp()
    try:
        _slow_migrations(tmp)
        proc, out = _run(["migrate"], db, tmp)
        _wait_migration_sleeping("t_dbto_migsig", proc)
        _stopped_cleanly("t_dbto_migsig", proc, out, 1, signal.SIGTERM)
        os.unlink(out)
        with open(os.path.join(tmp, "9000_slow.sql"), "w") as f:
            f.write("CREATE TABLE slow_marker (x int);\n")
        p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"],
                           env=dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=tmp),
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stdout + p.stderr
        assert _sql("t_dbto_migsig", "SELECT to_regclass('slow_marker') IS NOT NULL") == "t"
    finally:
        shutil.rmtree(tmp)


def test_sigint_while_serving_starts_exits_0():
    """The server stopped by SIGINT while it applies its migrations at start: the same, and
    exit status 0 (stopped as asked)."""
    db = make_database("t_dbto_servesig")
    tmp = tempfile.mkdtemp()
    try:
        _slow_migrations(tmp)
        proc, out = _run([], db, tmp)
        _wait_migration_sleeping("t_dbto_servesig", proc)
        _stopped_cleanly("t_dbto_servesig", proc, out, 0, signal.SIGINT)
        os.unlink(out)
    finally:
        shutil.rmtree(tmp)


def test_sigterm_while_waiting_for_the_database():
    """Waiting for a database that is not there (DB_WAIT) ends at once on SIGTERM."""
    proc, out = _run(["migrate"], "host=/nonexistent/socket/dir dbname=x", ROOT + "/migrations",
                     {"DB_WAIT": "60"})
    try:
        end = time.time() + 10
        while time.time() < end and "waiting up to" not in open(out).read():
            time.sleep(0.05)
        t0 = time.time()
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(10)
        assert rc == 1 and time.time() - t0 < 3, (rc, open(out).read())
        assert "SIGTERM received" in open(out).read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.unlink(out)
