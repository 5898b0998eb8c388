"""Benchmark of the job pool (tests/bench/jobs.sh, inside pg_virtualenv): GET /api/v1/health
latency on 4 keep-alive connections, each sending one request every 10 ms, first quiet, then
while 20 log-ins (Argon2id), 3 imports of a 2 MB BG Stats file and 10 PDFs of 100 pages run at
once; p50 and p99 of both phases, served and from due (sample), and the verdict "p99 under load
< 2x quiet" on the served latency; beside them, how busy the machine's CPUs were in each
phase (/proc/stat). Log-ins come from several loopback addresses (127.0.1.N) and
accounts so that the log-in limits (per address, per account) do not answer them 429."""
import http.client, json, multiprocessing, os, statistics, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "api"))
from harness import Server, make_database  # noqa: E402

SAMPLERS = 4  # as many as libmicrohttpd threads (THREADS)
QUIET_N = 1000  # health requests per sampler in the quiet phase
ROUNDS = 3  # bursts of the heavy load, one after the other
INTERVAL = 0.01  # seconds between one sampler's requests (4 samplers: 400 requests/s)
PASSWORD = "correct horse battery"


def call(port, method, path, body=None, headers=None, source=None, timeout=120):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                   source_address=(source, 0) if source else None)
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        return r.status, r.getheader("Set-Cookie"), r.read()
    finally:
        c.close()


def post_json(port, path, obj, cookie=None, source=None):
    h = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"}
    if cookie:
        h["Cookie"] = "dh_session=" + cookie
    return call(port, "POST", path, json.dumps(obj), h, source)


def bgstats_file(n, size):
    """A BG Stats export of about size bytes: the test sample's players and games, plays of
    distinct uuids (file n)."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "api", "data")
    with open(os.path.join(root, "bgstats-sample.json")) as f:
        d = json.load(f)
    proto = d["plays"][0]
    plays, total, i = [], len(json.dumps(d)), 0
    while total < size:
        p = json.loads(json.dumps(proto))
        p["uuid"] = f"be{n:06x}-0000-4000-8000-{i:012x}"
        p["playDate"] = f"2024-{i % 12 + 1:02d}-{i % 28 + 1:02d} 20:{i % 60:02d}:00"
        p["playerScores"][0]["score"] = str(40 + i % 30)
        plays.append(p)
        total += len(json.dumps(p)) + 2
        i += 1
    d["plays"] = plays
    return json.dumps(d).encode()


def sample(port, stop, out, limit):
    """GET /api/v1/health on one keep-alive connection (as a phone keeps its own) every
    INTERVAL seconds, until stop is set or limit requests. The connection stays with one
    libmicrohttpd thread: a request waits for whatever that thread is doing. Appends, per
    request, (from due, served):

    - from due: from when the request was due to its reply read. A stalled connection then
      shows the whole stall in every request it held up, instead of hiding it as one slow
      sample among thousands (coordinated omission); but it also counts the sampler's own
      lateness: a sampler that wakes late for a request due while its previous reply was
      already in hand (its timer, on CPUs the load shares) delays a request that did not
      exist yet.
    - served: the same without that lateness: from when the request could first be sent
      (when it was due, or its previous reply was read, whichever is later) to its reply
      read. A late reply still carries over to the requests it held up."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    # the connection is opened by a first request, not counted: the figure is a request on a
    # phone's open connection, in both phases, not the set-up of a fresh sampler
    c.request("GET", "/api/v1/health")
    c.getresponse().read()
    n = 0
    due = last = time.monotonic()
    while not stop.is_set() and n < limit:
        now = time.monotonic()
        if now < due:
            time.sleep(due - now)
        sent, ready = time.monotonic(), max(due, last)
        c.request("GET", "/api/v1/health")
        r = c.getresponse()
        r.read()
        last = time.monotonic()
        out.append((last - due, (last - sent) + (ready - due)))
        assert r.status == 200, r.status
        n += 1
        due += INTERVAL
    c.close()


def sample_proc(port, stop, limit, queue):
    out = []
    sample(port, stop, out, limit)
    queue.put(out)


class Samplers:
    """SAMPLERS samplers, each in its own process (one interpreter lock each: a sampler never
    waits for another to finish reading its answer)."""

    def __init__(self, port, limit):
        ctx = multiprocessing.get_context("fork")
        self.stop, self.queue = ctx.Event(), ctx.Queue()
        self.procs = [ctx.Process(target=sample_proc, args=(port, self.stop, limit, self.queue))
                      for _ in range(SAMPLERS)]
        for p in self.procs:
            p.start()

    def collect(self, stop=False):
        """Every latency measured (stop: tell the samplers to stop first, else each ends
        after its limit)."""
        if stop:
            self.stop.set()
        out = []
        for _ in self.procs:
            out += self.queue.get(timeout=300)
        for p in self.procs:
            p.join()
        return out


def server_health_s(output):
    """Seconds the server itself spent on each GET /api/v1/health so far, from its
    access log ("access GET /api/v1/health 200 433us"): from its request line to its reply
    sent. The rest of what a sampler measures is the wait for a CPU, the server's thread or
    the sampler's own, before and after."""
    return [int(l.split()[4][:-2]) / 1e6 for l in output.splitlines()
            if l.startswith("access GET /api/v1/health 200 ")]


def cpu_ticks():
    """The machine's CPU time so far (/proc/stat, every CPU): (busy, stolen, all) in ticks.
    Stolen: the time the hypervisor ran something else on this machine's CPUs."""
    with open("/proc/stat") as f:
        user, nice, system, idle, iowait, irq, softirq, steal = map(int, f.readline().split()[1:9])
    return (user + nice + system + irq + softirq, steal,
            user + nice + system + idle + iowait + irq + softirq + steal)


def cpu_share(t0, t1):
    """Percent of the CPU time between two cpu_ticks() that was busy, and that was stolen."""
    total = max(1, t1[2] - t0[2])
    return 100 * (t1[0] - t0[0]) / total, 100 * (t1[1] - t0[1]) / total


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] * 1000


def heavy_load(port, emails, leagues, files, cookie, go, queue):
    """ROUNDS times, once go is set: 20 log-ins, 3 imports and 10 PDFs at once, each on its own
    thread; puts the list of (kind, status, ok, seconds) on queue."""
    # The phones that send this load are elsewhere in real life: their side of it (building
    # 2 MB bodies, reading PDFs back) must not take the CPU from the server or the samplers.
    os.nice(19)
    go.wait()
    results, lock = [], threading.Lock()
    for r in range(ROUNDS):
        one_round(port, emails[5 * r:5 * r + 5], leagues[3 * r:3 * r + 3],
                  files[3 * r:3 * r + 3], cookie, results, lock, r)
    queue.put(results)


def one_round(port, emails, leagues, files, cookie, results, lock, r):
    """One burst; the log-ins of round r from their own accounts and addresses (127.0.r+2.N),
    so that the log-in limits (per address, per account) do not answer them 429."""

    def heavy(kind, i):
        t0 = time.monotonic()
        if kind == "login":
            st, _, b = post_json(port, "/api/v1/sessions",
                                 {"email": emails[i % 5], "password": PASSWORD},
                                 source=f"127.0.{r + 2}.{i % 4 + 2}")
            ok = st == 200
        elif kind == "import":
            st, _, b = call(port, "POST", f"/api/v1/leagues/{leagues[i]}/import?format=bgstats",
                            files[i], {"Content-Type": "application/json",
                                       "Origin": f"http://127.0.0.1:{port}",
                                       "Cookie": "dh_session=" + cookie})
            ok = st == 200
        else:
            st, _, b = call(port, "GET", "/api/v1/er/sheets.pdf?count=100")
            ok = st == 200 and b.startswith(b"%PDF")
        with lock:
            results.append((kind, st, ok, time.monotonic() - t0))

    kinds = os.environ.get("JOBS_KINDS", "login,import,pdf").split(",")
    work = [threading.Thread(target=heavy, args=("login", i)) for i in range(20) if "login" in kinds]
    work += [threading.Thread(target=heavy, args=("import", i)) for i in range(3)
             if "import" in kinds]
    work += [threading.Thread(target=heavy, args=("pdf", i)) for i in range(10) if "pdf" in kinds]
    for t in work:
        t.start()
    for t in work:
        t.join()


def main():
    binary = os.environ.get("SERVER", "build/server")
    with Server(database=make_database("bench_jobs"), binary=binary) as s:
        port = s.port
        # set-up: 5 accounts, a session of the first, 3 leagues it owns, 3 files of 2 MB
        emails = [f"bench{i}@example.org" for i in range(5 * ROUNDS)]
        for i, e in enumerate(emails):
            st, _, b = post_json(port, "/api/v1/accounts",
                                 {"email": e, "password": PASSWORD, "display_name": f"B{i}"},
                                 source="127.0.1.100")
            assert st == 201, (st, b)
        st, sc, b = post_json(port, "/api/v1/sessions", {"email": emails[0], "password": PASSWORD},
                              source="127.0.1.101")
        assert st == 200, (st, b)
        cookie = sc.split(";")[0].split("=", 1)[1]
        leagues = []
        for i in range(3 * ROUNDS):
            st, _, b = post_json(port, "/api/v1/leagues", {"name": f"Bench {i}"}, cookie)
            assert st == 201, (st, b)
            leagues.append(json.loads(b)["id"])
        files = [bgstats_file(i, 2 * 1024 * 1024) for i in range(3 * ROUNDS)]

        Samplers(port, 20).collect()  # warm-up
        mark = len(server_health_s(s.output()))
        ticks0 = cpu_ticks()
        quiet = Samplers(port, QUIET_N).collect()
        quiet_cpu = cpu_share(ticks0, cpu_ticks())
        srv = server_health_s(s.output())
        quiet_srv, mark = srv[mark:], len(srv)

        # The heavy requests come from another process: their threads (a 2 MB upload, PDFs
        # read back) must not hold an interpreter lock a sampler waits for.
        ctx = multiprocessing.get_context("fork")
        queue = ctx.Queue()
        go = ctx.Event()
        proc = ctx.Process(target=heavy_load,
                           args=(port, emails, leagues, files, cookie, go, queue))
        proc.start()  # before sampling: a fork must not stall the samplers
        time.sleep(0.5)
        samplers = Samplers(port, 100000)
        t0, ticks0 = time.monotonic(), cpu_ticks()
        go.set()
        results = queue.get(timeout=600)
        proc.join()
        load_s, loaded_cpu = time.monotonic() - t0, cpu_share(ticks0, cpu_ticks())
        loaded = samplers.collect(stop=True)
        loaded_srv = server_health_s(s.output())[mark:]

    bad = [r for r in results if not r[2]]
    kinds = {}
    for kind, st, ok, dt in results:
        kinds.setdefault(kind, []).append(dt)
    size = statistics.mean(len(f) for f in files) / 1e6
    print(f"load: {ROUNDS} rounds of 20 log-ins, 3 imports of {size:.1f} MB and 10 PDFs of 100 pages "
          f"at once; "
          f"done in {load_s:.2f} s; failed: {len(bad)} {[(k, st) for k, st, _, _ in bad][:5]}")
    for kind, dts in sorted(kinds.items()):
        print(f"  {kind}: {len(dts)} requests, median {statistics.median(dts) * 1000:.0f} ms, "
              f"max {max(dts) * 1000:.0f} ms")
    print()
    print("GET /api/v1/health on 4 keep-alive connections, from when each request could first "
          "be sent (served; its previous reply read, or due) and from when it was due (the "
          "sampler's own lateness included):")
    print()
    print("| GET /api/v1/health | requests | served p50 ms | served p99 ms | from due p50 ms | "
          "from due p99 ms |")
    print("|---|---:|---:|---:|---:|---:|")
    (quiet_due, quiet_served), (loaded_due, loaded_served) = zip(*quiet), zip(*loaded)
    for name, due, served in (("quiet", quiet_due, quiet_served),
                              ("under load", loaded_due, loaded_served)):
        print(f"| {name} | {len(due)} | {pct(served, 0.5):.2f} | {pct(served, 0.99):.2f} | "
              f"{pct(due, 0.5):.2f} | {pct(due, 0.99):.2f} |")
    ratio = pct(loaded_served, 0.99) / pct(quiet_served, 0.99)
    ratio_due = pct(loaded_due, 0.99) / pct(quiet_due, 0.99)
    print()
    print(f"p99 under load / quiet: served {ratio:.2f} ×, from due {ratio_due:.2f} ×")
    print()
    print("The server's own time for the same requests (its access log: request line to reply "
          "sent):")
    print()
    print("| in the server | p50 ms | p99 ms | p99.9 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for name, xs in (("quiet", quiet_srv), ("under load", loaded_srv)):
        print(f"| {name} | {pct(xs, 0.5):.2f} | {pct(xs, 0.99):.2f} | {pct(xs, 0.999):.2f} | "
              f"{max(xs) * 1000:.2f} |")
    print()
    print(f"The machine's {os.cpu_count()} CPUs (/proc/stat): busy {quiet_cpu[0]:.0f} % and "
          f"stolen {quiet_cpu[1]:.1f} % quiet, busy {loaded_cpu[0]:.0f} % and stolen "
          f"{loaded_cpu[1]:.1f} % under load")
    print()
    print(f"VERDICT | GET /health p99 while heavy routes run < 2 × quiet | {ratio:.2f} × | "
          f"{'met' if ratio < 2 else 'NOT met'} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
