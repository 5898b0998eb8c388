"""An import is all or nothing (api.md "Leagues and history": one transaction): the server
killed with SIGKILL in the middle of a 2 MB BG Stats import leaves the league as it was, and
the same file imported again afterwards goes in whole.

The kill is placed deterministically: a psql session holds a row lock on a result that the
import's last step (rewriting the ratings) must update, so the server is killed while its
transaction has inserted every play and waits for that lock."""
import copy, json, os, signal, subprocess, threading, time

from harness import Server, make_database
from league_util import Client, user

HERE = os.path.dirname(os.path.abspath(__file__))
DB = "h_import_atomic"


def _big_export(min_bytes=2 * 1024 * 1024):
    """The sample export's plays repeated with fresh uuids and dates until the file is
    at least min_bytes."""
    with open(os.path.join(HERE, "data", "bgstats-sample.json")) as f:
        src = json.load(f)
    out = copy.deepcopy(src)
    out["plays"] = []
    k = 0
    while len(json.dumps(out)) < min_bytes:
        for _ in range(500):
            q = copy.deepcopy(src["plays"][k % len(src["plays"])])
            q["uuid"] = f"0a7b1c2d-0000-4000-8000-{k:012d}"
            q["playDate"] = f"{2000 + k // 336:04d}-{1 + (k // 28) % 12:02d}-{1 + k % 28:02d} 20:15:00"
            q.pop("bggId", None)
            out["plays"].append(q)
            k += 1
    body = json.dumps(out).encode()
    assert len(body) >= min_bytes
    return body, len(out["plays"])


def _sql(query):
    r = subprocess.run(["psql", "-X", "-At", "-v", "ON_ERROR_STOP=1", "-d", DB, "-c", query],
                       check=True, capture_output=True, text=True)
    return r.stdout.strip()


def _wait(cond, what, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.02)
    raise AssertionError("timed out waiting for " + what)


def _server_backends():
    return int(_sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
                    "AND application_name NOT LIKE 'psql%'"))


def _import_in_background(s, cookie, lid, body, fmt="bgstats", ctype="application/json"):
    """Posts the import on its own thread; returns the thread and a dict that receives the
    status (or the exception when the server dies under it)."""
    out = {}

    def run():
        try:
            c = Client(s)
            c.cookie = cookie
            st, hd, o = c.post(f"/api/v1/leagues/{lid}/import?format={fmt}", body, raw=True,
                               headers={"Content-Type": ctype})
            out["status"] = st
        except Exception as e:  # the connection dies with the server
            out["error"] = repr(e)

    t = threading.Thread(target=run)
    t.start()
    return t, out


def _killed_while_the_import_waits(s, ann, name, body, fmt, ctype):
    """A new league (name) of ann's with a play after every play of the file, by two players of
    the file: importing the file changes the ratings after it, so the import's last step
    rewrites their lines. Another session holds both players' lines; the import (fmt, ctype) is
    killed with the server (SIGKILL) once it waits for them after inserting its plays. Checks
    that it never answered and that the league holds only its play and members as before.
    Returns the league's id."""
    st, hd, lg = ann.post("/api/v1/leagues", {"name": name})
    lid = lg["id"]
    st, hd, bea = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Bea"})
    me = lg["members"][0]["id"]
    st, hd, hand = ann.post(f"/api/v1/leagues/{lid}/plays", {
        "game": "Azul", "date": "2099-01-01",
        "results": [{"player": me, "score": 10}, {"player": bea["id"], "score": 5}]})
    assert st == 201, hand
    holder = subprocess.Popen(["psql", "-X", "-q", "-At", "-d", DB], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    holder.stdin.write("BEGIN;\nSELECT 1 FROM member_lines WHERE member_id IN ('%s', '%s') "
                       "FOR UPDATE;\n\\echo locked\n" % (me, bea["id"]))
    holder.stdin.flush()
    lines = [holder.stdout.readline().strip() for _ in range(3)]
    assert lines == ["1", "1", "locked"], lines  # both players' lines locked
    t, res = _import_in_background(s, ann.cookie, lid, body, fmt, ctype)
    _wait(lambda: _sql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                       "AND query LIKE '%INSERT INTO member_lines%'") == "1",
          "the import to wait for the held lock after inserting its plays")
    s.proc.send_signal(signal.SIGKILL)
    s.proc.wait()
    t.join(30)
    assert "status" not in res, res  # the import never answered
    holder.stdin.write("ROLLBACK;\n")
    holder.stdin.close()
    holder.wait(30)
    # the killed server's backend notices its client is gone and rolls back
    _wait(lambda: _server_backends() == 0, "the dead server's backends to end")
    assert _sql(f"SELECT count(*) FROM plays WHERE league_id = '{lid}'") == "1"
    assert _sql(f"SELECT count(*) FROM league_members WHERE league_id = '{lid}'") == "2"
    return lid


def test_kill_9_during_a_2_mb_import_leaves_all_or_nothing():
    body, nplays = _big_export()
    database = make_database(DB)
    env = {"DB_LOCK_TIMEOUT_MS": "120000", "DB_STATEMENT_TIMEOUT_MS": "120000"}
    s = Server(database=database, env=env).start()
    try:
        ann = user(s, "ann@example.org", "Ann")
        lid = _killed_while_the_import_waits(s, ann, "Atomic", body, "bgstats", "application/json")
        # a new server: the file goes in whole, nothing of it was there
        s2 = Server(database=database, env=env).start()
        try:
            ann.s = s2
            ann.origin = f"http://127.0.0.1:{s2.port}"
            # this test is about all or nothing, not speed (tests/bench/import.sh times it): the
            # whole file and every scope rated, with other suites on the same CPUs
            st, hd, o = ann.post(f"/api/v1/leagues/{lid}/import?format=bgstats", body, raw=True,
                                 headers={"Content-Type": "application/json"}, timeout=120)
            assert st == 200 and o["imported"] == nplays and o["skipped"] == 0, (st, o)
            # killed at a moment of its own choosing while a new league's import runs: the
            # league holds all of the file or none of it
            st, hd, lg2 = ann.post("/api/v1/leagues", {"name": "Atomic 2"})
            t, res = _import_in_background(s2, ann.cookie, lg2["id"], body)
            _wait(lambda: _sql("SELECT count(*) FROM pg_stat_activity WHERE backend_xid IS NOT NULL "
                               "AND application_name NOT LIKE 'psql%'") != "0",
                  "the second import's transaction")
            time.sleep(0.3)  # somewhere in the middle of its inserts (either outcome is checked)
            s2.proc.send_signal(signal.SIGKILL)
            s2.proc.wait()
            t.join(30)
            _wait(lambda: _server_backends() == 0, "the dead server's backends to end")
            n2 = _sql(f"SELECT count(*) FROM plays WHERE league_id = '{lg2['id']}'")
            assert n2 in ("0", str(nplays)), n2
            # an answer means it all went in; no answer can be either (killed after COMMIT,
            # before the reply went out)
            assert "status" not in res or (res["status"] == 200 and n2 == str(nplays)), (res, n2)
            assert _sql(f"SELECT count(*) FROM plays WHERE league_id = '{lid}'") == str(nplays + 1)
            assert _sql("SELECT count(*) FROM plays p WHERE NOT EXISTS "
                        "(SELECT 1 FROM play_results r WHERE r.play_id = p.id)") == "0"
        finally:
            s2.stop()
    finally:
        s.stop()
        s.drop_log()


def _big_sheet(nplays=6000):
    """A spreadsheet of nplays plays of Ann against Bea, a row per player per play."""
    rows = ["date;game;player;score"]
    for k in range(nplays):
        day = f"{1 + k % 28:02d}.{1 + (k // 28) % 12:02d}.{1990 + k // 336}"
        rows += [f"{day} 20:{k % 60:02d};Azul;Ann;{k % 50}", f"{day} 20:{k % 60:02d};Azul;Bea;{(k * 7) % 50},5"]
    return ("\r\n".join(rows) + "\r\n").encode(), nplays


def test_kill_9_during_a_spreadsheet_import_leaves_nothing_of_it():
    """The same for a spreadsheet (format=csv): one transaction too."""
    body, nplays = _big_sheet()
    database = make_database(DB)
    env = {"DB_LOCK_TIMEOUT_MS": "120000", "DB_STATEMENT_TIMEOUT_MS": "120000"}
    s = Server(database=database, env=env).start()
    try:
        ann = user(s, "ann@example.org", "Ann")
        lid = _killed_while_the_import_waits(s, ann, "Atomic sheet", body, "csv", "text/csv")
        s2 = Server(database=database, env=env).start()
        try:
            ann.s = s2
            ann.origin = f"http://127.0.0.1:{s2.port}"
            st, hd, o = ann.post(f"/api/v1/leagues/{lid}/import?format=csv", body, raw=True,
                                 headers={"Content-Type": "text/csv"}, timeout=120)
            assert st == 200 and o["imported"] == nplays and o["skipped"] == 0, (st, o)
            assert _sql(f"SELECT count(*) FROM plays WHERE league_id = '{lid}' "
                        "AND source = 'csv'") == str(nplays)
        finally:
            s2.stop()
    finally:
        s.stop()
        s.drop_log()


def test_no_statement_of_a_large_import_grows_with_the_file():
    """The plays of an import go two statements per 500 (src/leagues/store.h, BATCH_PLAYS), so
    that a file of thousands of plays on a busy database stays within the statement timeout:
    here each play's row costs 2 ms more (a trigger): the file's 3,500 plays in one statement
    would take 7 s, past the 3 s timeout; each 500 take one second."""
    body, nplays = _big_export()
    assert nplays >= 3000, nplays
    s = Server(database=make_database(DB), env={"DB_STATEMENT_TIMEOUT_MS": "3000"}).start()
    try:
        ann = user(s, "ann@example.org", "Ann")
        _sql("CREATE FUNCTION slow_play() RETURNS trigger LANGUAGE plpgsql AS "
             "$$BEGIN PERFORM pg_sleep(0.002); RETURN NEW; END$$; "
             "CREATE TRIGGER slow_play BEFORE INSERT ON plays "
             "FOR EACH ROW EXECUTE FUNCTION slow_play()")
        st, hd, lg = ann.post("/api/v1/leagues", {"name": "Large"})
        st, hd, o = ann.post(f"/api/v1/leagues/{lg['id']}/import?format=bgstats", body, raw=True,
                             headers={"Content-Type": "application/json"}, timeout=120)
        assert st == 200 and o["imported"] == nplays and o["skipped"] == 0, (st, o)
        assert _sql(f"SELECT count(*) FROM plays WHERE league_id = '{lg['id']}'") == str(nplays)
        assert _sql("SELECT count(*) FROM plays p WHERE NOT EXISTS "
                    "(SELECT 1 FROM play_results r WHERE r.play_id = p.id)") == "0"
    finally:
        s.stop()
        s.drop_log()
