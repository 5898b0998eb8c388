"""The database layer seen from outside: health, the database going away and coming back.

The outage tests stop and restart the throw-away cluster pg_virtualenv made (cluster
"$PGVERSION/regress", as root in /etc/postgresql, otherwise under $PG_CLUSTER_CONF_ROOT, which
pg_ctlcluster honours), so they run one at a time, like every API test."""
import json, os, subprocess, time

from harness import Server, make_database, problem

# A route served only with the database (api=true in the route table): while the database is
# down the HTTP layer answers it 503 without calling its handler.
DB_ROUTE = "/api/v1/er/games/doesnotexist"


def _cluster(action):
    ver = os.environ.get("PGVERSION") or subprocess.run(
        ["sh", "-c", "ls /usr/lib/postgresql | sort -V | tail -n 1"],
        capture_output=True, text=True, check=True).stdout.strip()
    cmd = ["pg_ctlcluster"] + (["--mode", "fast"] if action == "stop" else []) + \
        [ver, "regress", action]
    subprocess.run(cmd, check=True, capture_output=True, timeout=60)


def _wait_db_ready(timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if subprocess.run(["pg_isready", "-q"]).returncode == 0:
            return
        time.sleep(0.2)
    raise AssertionError("the cluster did not come back")


def _poll(s, path, want, timeout):
    """Requests path until it answers status want; returns (status, headers, body)."""
    end = time.time() + timeout
    last = None
    while time.time() < end:
        assert s.proc.poll() is None, "server died: " + s.output()[-2000:]
        try:
            last = s.request("GET", path, timeout=5)
            if last[0] == want:
                return last
        except OSError as e:
            last = (None, {}, str(e).encode())
        time.sleep(0.2)
    raise AssertionError(f"{path}: no {want} within {timeout}s, last: {last}")


def _unavailable(st, hd, body):
    obj = json.loads(body)
    problem(st, hd, obj, 503)
    assert hd.get("retry-after", "").isdigit(), hd
    return obj


def test_health_ok():
    with Server(database=make_database("h_db_health")) as s:
        st, hd, obj = s.json("GET", "/api/v1/health")
        assert st == 200, (st, obj)
        assert hd["content-type"].startswith("application/json"), hd
        assert obj["status"] == "ok" and obj["database"] == "ok", obj
        assert isinstance(obj["version"], str) and obj["version"], obj
        assert obj["writes_queued"] == 0, obj  # no move waits for the database
        assert hd.get("cache-control") == "no-store", hd


def test_health_wrong_method():
    with Server(database=make_database("h_db_health")) as s:
        st, hd, obj = s.json("POST", "/api/v1/health", {})
        problem(st, hd, obj, 405)
        assert "GET" in hd.get("allow", ""), hd


def test_database_down_and_back():
    with Server(database=make_database("h_db_outage")) as s:
        assert s.request("GET", "/api/v1/health")[0] == 200
        down_at = time.time()
        _cluster("stop")
        try:
            # health pings the database itself: it sees the outage at once
            obj = _unavailable(*_poll(s, "/api/v1/health", 503, 5))
            assert obj.get("database") == "unavailable", obj
            assert obj.get("writes_queued") == 0, obj
            # a database route is refused by the layer, quickly, while the database is down
            t0 = time.time()
            _unavailable(*_poll(s, DB_ROUTE, 503, 5))
            assert time.time() - t0 < 3, "503 took too long"
            # repeated requests keep answering 503; the server stays up
            for _ in range(5):
                st, hd, body = s.request("GET", "/api/v1/health")
                _unavailable(st, hd, body)
            assert s.proc.poll() is None
            assert time.time() - down_at < 20
        finally:
            _cluster("start")
            _wait_db_ready()
        # recovers by itself (the health thread probes every second while down)
        st, hd, obj = s.json("GET", "/api/v1/health")
        end = time.time() + 10
        while st != 200 and time.time() < end:
            time.sleep(0.2)
            st, hd, obj = s.json("GET", "/api/v1/health")
        assert st == 200, ("no recovery within 10 s", st, obj)
        # every worker thread replaces its dead connection before using it: no request fails
        for i in range(30):
            st, _, obj = s.json("GET", "/api/v1/health")
            assert st == 200, (i, st, obj)
        st, hd, obj = s.json("GET", DB_ROUTE)
        assert st != 503, (st, obj)
        out = s.output()
        assert "database unavailable" in out and "database available again" in out, out[-2000:]


def test_backend_terminated():
    """An administrator (or a failover) kills our connections: the next requests still work."""
    with Server(database=make_database("h_db_kill")) as s:
        for _ in range(10):
            assert s.request("GET", "/api/v1/health")[0] == 200
        # each backend waited for until it has ended (up to 10 s)
        r = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-d", "postgres", "-c",
                            "SELECT bool_and(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity "
                            "WHERE datname = 'h_db_kill' AND pid <> pg_backend_pid()"],
                           check=True, capture_output=True, text=True)
        assert r.stdout.strip() == "t", ("no backend of the server ended", r.stdout, r.stderr)
        ok = sum(s.request("GET", "/api/v1/health")[0] == 200 for _ in range(20))
        assert ok == 20, f"{20 - ok} of 20 requests failed after the backends were terminated"


def test_game_cache_dropped_on_another_database_server():
    """After a failover the new primary may hold, under a version number a server has cached,
    another event than the one the old primary showed (a commit no standby received). Simulated
    here: server A caches game G at version 2 (seat 1's move), then G is set back to version 1
    in the database and server B writes another move as version 2; the database restarts, as a
    promoted standby would be another postmaster. A's cached version 2 is not the game's: A
    must read G again, not serve its copy (src/engine/game_cache.h), nor apply a move to it."""
    from games import create, morgue_move, reveal, state, submit, tokens
    db = make_database("h_db_epoch")
    name = db.split("=", 1)[1]
    with Server(database=db) as a, Server(database=db) as b:
        g = create(a, 2, deck="table")
        gid, toks = g["id"], tokens(g)
        reveal(a, gid, g["host_token"], 10, (3, 4, 5))
        submit(a, gid, 1, toks[1], 1, morgue_move(10, "red"))
        assert state(a, gid, toks[1])["version"] == 2
        # the log is append-only (a trigger): what a lost commit leaves is set up without it
        subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", name, "-c",
                        "SET session_replication_role = replica", "-c",
                        f"DELETE FROM events WHERE game_id = '{gid}' AND version = 2",
                        "-c", f"UPDATE games SET version = 1 WHERE id = '{gid}'"],
                       check=True, capture_output=True)
        submit(b, gid, 1, toks[1], 1, morgue_move(10, "yellow"))
        _cluster("restart")
        _wait_db_ready()
        end = time.time() + 10
        while True:
            st, _, obj = a.json("GET", f"/api/v1/er/games/{gid}", token=toks[1])
            if st == 200 or time.time() > end:
                break
            time.sleep(0.2)
        assert st == 200, (st, obj)
        assert obj["version"] == 2 and obj["seats"][0]["sheet"]["morgue"] == 1, obj
        moves = [e for e in a.json("GET", f"/api/v1/er/games/{gid}/log", token=toks[1])[2]["events"]
                 if e["kind"] == "move"]
        assert [m["payload"]["move"]["die"] for m in moves] == ["yellow"], moves
        # seat 2's move is checked against the game as stored, and lands after B's
        _, _, cur = submit(a, gid, 2, toks[2], 1, morgue_move(10, "green"))
        assert cur["version"] == 3, cur
        st, _, obj = b.json("GET", f"/api/v1/er/games/{gid}", token=toks[2])
        assert st == 200 and obj["version"] == 3, obj
        assert "connected to another database server" in a.output(), a.output()[-2000:]
