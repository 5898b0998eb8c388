"""League reads on a streaming standby (DATABASE_READ_URL; README "Read replicas").

The test builds its own primary and hot standby (initdb, pg_basebackup -R) under a temporary
directory, on Unix sockets only, and checks where each read went by its X-Read-From header:
another session's reads go to the standby; the writer's next read sees its write (the standby
caught up within the wait, or the primary answered); with replay paused the writer reads the
primary and everyone else the standby; with the standby stopped every read falls back to the
primary; without DATABASE_READ_URL every read says primary.

It needs no pg_virtualenv cluster, and runs in the plain API pass only: under AddressSanitizer
(the suite's second pass) it is skipped, the routing being the same code."""
import glob, os, shutil, subprocess, tempfile, time

from league_util import Server, join, user

SKIP = any(k in os.environ.get("SERVER_BIN", "") for k in ("asan", "tsan"))
BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
             key=lambda p: int(p.split("/")[-2]))[-1]
AS = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
PRIMARY_PORT, STANDBY_PORT = 5432, 5433  # socket names in a private directory: no clash

READS = ["plays", "standings", "head-to-head", "export.csv", "export.json", "backup.json",
         "standings.pdf"]


def _pg(*args, check=True):
    return subprocess.run(AS + [os.path.join(BIN, args[0])] + list(args[1:]), check=check,
                          capture_output=True, text=True, timeout=60)


class Pair:
    """A primary and its streaming standby, on sockets in one temporary directory."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="dh-replica-")
        if AS:
            shutil.chown(self.dir, "postgres", "postgres")
        os.chmod(self.dir, 0o700)
        self.sock = os.path.join(self.dir, "sock")
        self.primary = os.path.join(self.dir, "primary")
        self.standby = os.path.join(self.dir, "standby")

    def url(self, port):
        return f"host={self.sock} port={port} dbname=dh user=dh"

    def start(self, data, port):
        opts = (f"-c listen_addresses='' -c unix_socket_directories='{self.sock}' "
                f"-c port={port} -c fsync=off -c full_page_writes=off")
        _pg("pg_ctl", "start", "-D", data, "-l", data + ".log", "-w", "-t", "30", "-o", opts)

    def stop(self, data):
        _pg("pg_ctl", "stop", "-D", data, "-m", "fast", "-w", check=False)

    def sql(self, port, query):
        r = _pg("psql", "-X", "-q", "-A", "-t", "-h", self.sock, "-p", str(port), "-U", "dh",
                "-d", "dh", "-v", "ON_ERROR_STOP=1", "-c", query)
        return r.stdout.strip()

    def __enter__(self):
        os.makedirs(self.sock)
        if AS:
            shutil.chown(self.sock, "postgres", "postgres")
        _pg("initdb", "-D", self.primary, "-U", "dh", "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync")
        self.start(self.primary, PRIMARY_PORT)
        _pg("createdb", "-h", self.sock, "-p", str(PRIMARY_PORT), "-U", "dh", "dh")
        _pg("pg_basebackup", "-h", self.sock, "-p", str(PRIMARY_PORT), "-U", "dh", "-D",
            self.standby, "-R", "-X", "stream", "--no-sync", "-c", "fast")
        self.start(self.standby, STANDBY_PORT)
        assert self.sql(STANDBY_PORT, "SELECT pg_is_in_recovery()") == "t"
        return self

    def __exit__(self, *exc):
        self.stop(self.standby)
        self.stop(self.primary)
        shutil.rmtree(self.dir, ignore_errors=True)


def _until(what, fn, timeout=10):
    """fn() until it returns a true value (returned), or fail after timeout seconds."""
    end = time.time() + timeout
    while True:
        v = fn()
        if v:
            return v
        assert time.time() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def _read(client, lid, what, expect=200):
    st, hd, o = client.get(f"/api/v1/leagues/{lid}/{what}")
    assert st == expect, (what, st, o)
    return hd.get("x-read-from"), o


def _play(client, lid, members, game):
    st, hd, o = client.post(f"/api/v1/leagues/{lid}/plays", {
        "game": game, "date": "2026-03-01",
        "results": [{"player": members[0], "score": 50}, {"player": members[1], "score": 40}]})
    assert st == 201, (st, o)
    return o["id"]


def _games(plays):
    return [p["game"] for p in plays["plays"]]


def test_reads_go_to_the_standby_and_the_writer_reads_its_writes():
    if SKIP:
        print("  skipped: runs in the plain API pass only")
        return
    with Pair() as pg, Server(database=pg.url(PRIMARY_PORT),
                              env={"DATABASE_READ_URL": pg.url(STANDBY_PORT) +
                                   " target_session_attrs=prefer-standby"}) as s:
        ann = user(s, "ann@example.org", "Ann")
        bob = user(s, "bob@example.org", "Bob")
        st, hd, lg = ann.post("/api/v1/leagues", {"name": "Replicated"})
        assert st == 201, (st, lg)
        lid = lg["id"]
        m = join(ann, lid, bob, "Bob")
        members = [lg["members"][0]["id"], m["id"]]

        # the writer's own first read sees the league it just made, wherever it comes from
        src, o = _read(ann, lid, "plays")
        assert src in ("replica", "primary") and o["total"] == 0, (src, o)
        # another session reads the standby, once it has replayed Bob's membership
        _until("Bob's read on the standby",
               lambda: bob.get(f"/api/v1/leagues/{lid}/plays")[0] == 200)
        for what in READS:
            src, _ = _read(bob, lid, what)
            assert src == "replica", (what, src)
        st, hd, o = bob.get(f"/api/v1/players/{members[1]}/history")
        assert st == 200 and hd.get("x-read-from") == "replica", (st, hd)

        # read-your-writes: each play the writer records is in its next read
        n, from_replica, ms = 20, 0, []
        for i in range(n):
            _play(ann, lid, members, f"Game {i}")
            t0 = time.monotonic()
            src, o = _read(ann, lid, "plays")
            ms.append((time.monotonic() - t0) * 1000)
            assert o["total"] == i + 1 and _games(o)[0] == f"Game {i}", (i, src, o)
            from_replica += src == "replica"
        t0 = time.monotonic()
        _read(bob, lid, "plays")
        print(f"  the writer's next read: {from_replica}/{n} from the standby, "
              f"{n - from_replica}/{n} from the primary; median {sorted(ms)[n // 2]:.1f} ms "
              f"(another session's: {(time.monotonic() - t0) * 1000:.1f} ms)")

        # replay paused: the writer's reads go to the primary and see the play; others keep
        # reading the standby, which does not have it yet
        pg.sql(STANDBY_PORT, "SELECT pg_wal_replay_pause()")
        _until("replay paused",
               lambda: pg.sql(STANDBY_PORT, "SELECT pg_get_wal_replay_pause_state()") == "paused")
        _play(ann, lid, members, "While paused")
        for what in READS:
            src, o = _read(ann, lid, what)
            assert src == "primary", (what, src)
        src, o = _read(ann, lid, "plays")
        assert _games(o)[0] == "While paused" and o["total"] == n + 1, o
        src, o = _read(bob, lid, "plays")
        assert src == "replica" and o["total"] == n and "While paused" not in _games(o), (src, o)
        src, o = _read(bob, lid, "export.csv")
        assert src == "replica" and b"While paused" not in o, src

        # replay resumed: the writer is back on the standby once it has caught up
        pg.sql(STANDBY_PORT, "SELECT pg_wal_replay_resume()")
        _until("the writer back on the standby", lambda: _read(ann, lid, "plays")[0] == "replica")
        src, o = _read(bob, lid, "plays")
        assert src == "replica" and _games(o)[0] == "While paused", (src, o)

        # the standby stopped: every read falls back to the primary, none fails
        pg.stop(pg.standby)
        for who in (ann, bob):
            for what in READS:
                src, o = _read(who, lid, what)
                assert src == "primary", (what, src)
        _play(ann, lid, members, "Standby gone")
        src, o = _read(bob, lid, "plays")
        assert src == "primary" and _games(o)[0] == "Standby gone", (src, o)
        st, hd, o = s.json("GET", "/api/v1/health")
        assert st == 200 and o["database"] == "ok", (st, o)
        assert "read replica unavailable" in s.output(), s.output()[-2000:]

        # without DATABASE_READ_URL every read says primary
        with Server(database=pg.url(PRIMARY_PORT)) as s2:
            ann.s = s2
            ann.origin = f"http://127.0.0.1:{s2.port}"
            for what in READS:
                src, _ = _read(ann, lid, what)
                assert src == "primary", (what, src)


def test_a_league_game_finished_is_in_the_finishers_next_read():
    """A Dice Hospital game created in a league is recorded as a play by the request that
    finishes it: with the standby's replay paused, that request's session reads the standings
    and plays from the primary, play included, while another member still reads the standby."""
    if SKIP:
        print("  skipped: runs in the plain API pass only")
        return
    with Pair() as pg, Server(database=pg.url(PRIMARY_PORT),
                              env={"DATABASE_READ_URL": pg.url(STANDBY_PORT) +
                                   " target_session_attrs=prefer-standby"}) as s:
        ann = user(s, "ann@example.org", "Ann")
        bob = user(s, "bob@example.org", "Bob")
        st, hd, lg = ann.post("/api/v1/leagues", {"name": "At the table"})
        assert st == 201, (st, lg)
        lid = lg["id"]
        join(ann, lid, bob, "Bob")
        st, hd, g = ann.post("/api/v1/dh/games", {
            "players": [{"name": "Ann"}, {"name": "Bob"}], "league": lid})
        assert st == 201, (st, g)
        host = {"Authorization": "Bearer " + g["host_token"]}
        for n in range(1, 9):
            st, hd, o = ann.put(f"/api/v1/dh/games/{g['id']}/rounds/{n}", {"entries": [
                {"seat": 1, "discharged": {"red": 1, "yellow": 1, "green": 1}},
                {"seat": 2, "discharged": {"red": 0, "yellow": 1, "green": 0}}]},
                headers=host)
            assert st == 200, (n, st, o)
        # both read the standby before the game ends
        for who in (ann, bob):
            _until("a read on the standby", lambda: _read(who, lid, "standings")[0] == "replica")
        pg.sql(STANDBY_PORT, "SELECT pg_wal_replay_pause()")
        _until("replay paused",
               lambda: pg.sql(STANDBY_PORT, "SELECT pg_get_wal_replay_pause_state()") == "paused")
        st, hd, fin = ann.post(f"/api/v1/dh/games/{g['id']}/finish",
                               {"entries": [{"seat": 1, "patients_left": 2, "pips_left": 7},
                                            {"seat": 2, "patients_left": 1, "pips_left": 3}]},
                               headers=host)
        assert st == 200, (st, fin)
        src, o = _read(ann, lid, "standings")
        assert src == "primary" and [r["games"] for r in o["standings"]] == [1, 1], (src, o)
        src, o = _read(ann, lid, "plays")
        assert src == "primary" and _games(o) == ["Dice Hospital"], (src, o)
        src, o = _read(bob, lid, "plays")
        assert src == "replica" and o["total"] == 0, (src, o)
        pg.sql(STANDBY_PORT, "SELECT pg_wal_replay_resume()")


def test_a_read_url_that_fails_its_reads_falls_back_to_the_primary():
    """A read server that answers but fails every league statement (a database without the
    tables: not a standby of ours) costs a retry on the primary, never a failed read."""
    if SKIP:
        print("  skipped: runs in the plain API pass only")
        return
    with Pair() as pg, Server(database=pg.url(PRIMARY_PORT),
                              env={"DATABASE_READ_URL":
                                   f"host={pg.sock} port={PRIMARY_PORT} dbname=postgres "
                                   "user=dh"}) as s:
        ann = user(s, "ann@example.org", "Ann")
        st, hd, lg = ann.post("/api/v1/leagues", {"name": "Elsewhere"})
        assert st == 201, (st, lg)
        for what in READS:
            src, _ = _read(ann, lg["id"], what)
            assert src == "primary", (what, src)
        st, hd, o = s.json("GET", "/api/v1/health")
        assert st == 200 and o["database"] == "ok", (st, o)


def test_a_read_url_that_does_not_parse_refuses_to_start():
    """A typo in DATABASE_READ_URL stops the server at start, as one in DATABASE_URL does,
    instead of every read going to the primary unnoticed."""
    from harness import make_database
    b = Server(database=make_database("h_read_url_typo"),
               env={"DATABASE_READ_URL": "host=db2 bogus"}, wait=False).start()
    try:
        assert b.proc.wait(20) != 0, "the server started"
        assert "DATABASE_READ_URL is not a valid connection string" in b.output(), b.output()
    finally:
        b.drop_log()
