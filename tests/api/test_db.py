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
        subprocess.run(["psql", "-X", "-q", "-d", "postgres", "-c",
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = 'h_db_kill' AND pid <> pg_backend_pid()"],
                       check=True, capture_output=True)
        time.sleep(0.2)
        ok = sum(s.request("GET", "/api/v1/health")[0] == 200 for _ in range(20))
        assert ok == 20, f"{20 - ok} of 20 requests failed after the backends were terminated"
