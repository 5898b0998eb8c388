"""Times POST /api/v1/leagues/{id}/import of a 1,500-play BG Stats export into five fresh
leagues (whole request: upload, parse, one transaction, ratings). The file is the largest real
export of tests/api/data/bgstats-real/, its plays repeated with fresh uuids (and the dates
moved on a day each time) until it holds 1,500 plays when it has fewer: every play is one a
user's app wrote. Prints each time, the median and the verdict (target < 1 s).
Run inside pg_virtualenv (tests/bench/import.sh). The server is started and stopped by the API
tests' harness (tests/api/harness.py: a free port, ready once it listens, a crash or sanitizer
report fails the run)."""
import copy, glob, json, os, statistics, subprocess, sys, time, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "api"))
from harness import Server, make_database  # noqa: E402

NPLAYS = 1500


def grown(doc):
    """doc with its plays repeated (new uuids, the date a day later per round) up to NPLAYS."""
    src = doc["plays"]
    out = dict(doc, plays=list(src))
    k = 0
    while len(out["plays"]) < NPLAYS:
        p = copy.deepcopy(src[k % len(src)])
        p["uuid"] = str(uuid.UUID(int=k + 1, version=4))
        p.pop("bggId", None)
        rnd = 1 + k // len(src)
        y, m, d = (int(x) for x in p["playDate"][:10].split("-"))
        t = time.gmtime(time.mktime((y, m, d, 12, 0, 0, 0, 0, 0)) - rnd * 86400)
        p["playDate"] = time.strftime("%Y-%m-%d", t) + p["playDate"][10:]
        out["plays"].append(p)
        k += 1
    return out

SERVER = os.environ.get("SERVER", "build/server")


def analyzed():
    """How many times ANALYZE has run on league_members, the last table the server's refresh
    of the planner statistics after a large import analyses (migrations/0015)."""
    out = subprocess.run(["psql", "-X", "-At", "-d", "bench_import", "-c",
                          "SELECT analyze_count FROM pg_stat_user_tables "
                          "WHERE relname = 'league_members'"],
                         capture_output=True, text=True, check=True).stdout.strip()
    return int(out or 0)


def settled(before):
    """Waits until the refresh that follows an import's reply has run (so that the next import
    is timed on a quiet server, as a group's single import is); returns how long that took."""
    t0 = time.monotonic()
    while analyzed() <= before:
        if time.monotonic() - t0 > 60:
            raise SystemExit("the planner statistics were not refreshed within 60 s of an import")
        time.sleep(0.02)
    return time.monotonic() - t0


def main():
    files = glob.glob(os.path.join(ROOT, "tests/api/data/bgstats-real/*.json"))
    if not files:
        print("no real BG Stats export in tests/api/data/bgstats-real/")
        return 1
    path = max(files, key=os.path.getsize)
    doc = json.load(open(path, "rb"))
    nreal = len(doc["plays"])
    body = json.dumps(grown(doc)).encode()
    with Server(database=make_database("bench_import"), binary=SERVER) as srv:
        return run(srv, path, nreal, body)


def run(srv, path, nreal, body):
    """The five timed imports against the running server srv; the exit status."""
    nplays = len(json.loads(body)["plays"])
    cookie = None
    origin = f"http://127.0.0.1:{srv.port}"

    def call(method, path, data=None, ctype="application/json"):
        """One request on a connection of its own, timed whole (sent to read): body, seconds."""
        nonlocal cookie
        c = srv.conn(timeout=120)
        h = {"Origin": origin, "Content-Type": ctype}
        if cookie:
            h["Cookie"] = "dh_session=" + cookie
        if isinstance(data, dict):
            data = json.dumps(data)
        t0 = time.monotonic()
        c.request(method, path, body=data, headers=h)
        r = c.getresponse()
        out = r.read()
        dt = time.monotonic() - t0
        sc = r.getheader("Set-Cookie")
        if sc:
            cookie = sc.split(";")[0].split("=", 1)[1]
        assert 200 <= r.status < 300, (path, r.status, out[:300])
        return json.loads(out), dt

    call("POST", "/api/v1/accounts", {"email": "b@example.org", "password": "bench password",
                                      "display_name": "Bench"})
    call("POST", "/api/v1/sessions", {"email": "b@example.org", "password": "bench password"})
    times, settles = [], []
    for i in range(5):
        lg, _ = call("POST", "/api/v1/leagues", {"name": f"Import {i}"})
        before = analyzed()
        res, dt = call("POST", f"/api/v1/leagues/{lg['id']}/import?format=bgstats", body)
        times.append(dt)
        settles.append(settled(before))
    med = statistics.median(times)
    print(f"file: {os.path.relpath(path, ROOT)}: its {nreal} plays repeated to {nplays} "
          f"({len(body) / 1e3:.0f} KB); imported {res['imported']}, skipped {res['skipped']}")
    print("import times: " + ", ".join(f"{t * 1000:.0f} ms" for t in times))
    print("planner statistics refreshed after each reply (not part of the import's time) in: "
          + ", ".join(f"{t * 1000:.0f} ms" for t in settles))
    print(f"median {med * 1000:.0f} ms: target < 1 s {'met' if med < 1 else 'MISSED'}")
    print(f"VERDICT | import of a 1,500-play BG Stats export, median of 5 < 1 s | "
          f"{med * 1000:.0f} ms | {'met' if med < 1 else 'NOT met'} |")
    return 0 if med < 1 else 1


sys.exit(main())
