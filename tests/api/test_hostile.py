"""Hostile and broken clients: the request deadline, per-address and global
connection caps, the file descriptor limit, a second server on the same port, the listen
address, tokens in URLs, WWW-Authenticate, event-stream caps, dead streams and churn, HTTPS.

Loopback only: the attacker is 127.0.0.1, the other client ::1 (the server listens on every
interface, dual stack, by default). Every wait polls a condition with a deadline."""
import http.client, json, os, resource, socket, ssl, subprocess, tempfile, threading, time

from harness import ROOT, SERVER_BIN, Server, free_port, make_database, problem
from games import GAMES, create, first_option_move, reveal, state, tokens
from test_er_live import Stream

_DB = None


def db():
    global _DB
    if _DB is None:
        _DB = make_database("h_hostile")
    return _DB


def wait_until(cond, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def health6(port, timeout=5):
    """GET /api/v1/health from ::1 on a fresh connection: (status, seconds)."""
    t0 = time.perf_counter()
    c = http.client.HTTPConnection("::1", port, timeout=timeout)
    c.request("GET", "/api/v1/health")
    r = c.getresponse()
    r.read()
    c.close()
    return r.status, time.perf_counter() - t0


def read_reply(sock, timeout=5):
    """Reads an HTTP reply up to EOF or its Content-Length: (status, headers, body)."""
    sock.settimeout(timeout)
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(4096)
        if not chunk:
            break
        buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    hd = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:] if ":" in l)}
    n = int(hd.get("content-length", "0"))
    while len(body) < n:
        chunk = sock.recv(4096)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), hd, body


def closed_by_peer(sock, timeout):
    """True when the server closes the socket within timeout (EOF or reset)."""
    sock.settimeout(timeout)
    try:
        while True:
            if not sock.recv(4096):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except (socket.timeout, TimeoutError):
        return False


def hold(port, n, timeout=10):
    """n connections from 127.0.0.1 that each got a 200 (and stay open). A connection that the
    server still counts (the harness's readiness probe, closed a moment ago) may make one of
    them refused: it is closed and opened again until n are held."""
    held, end = [], time.time() + timeout
    while len(held) < n:
        assert time.time() < end, f"could not hold {n} connections"
        k = socket.create_connection(("127.0.0.1", port))
        k.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        st = read_reply(k)[0]
        if st == 200:
            held.append(k)
        else:
            assert st in (429, 503), st
            k.close()
            time.sleep(0.05)
    return held


def fd_count(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def socket_inodes(pid):
    out = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            out.add(link[8:-1])
    return out


def server_side_inode(server_port, client_port):
    """The inode of the server's end of the TCP connection from client_port."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                p = line.split()
                if int(p[1].split(":")[1], 16) == server_port and \
                        int(p[2].split(":")[1], 16) == client_port:
                    return p[9]
    return None


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# ---- slow clients ----


def test_slow_header_attack_health_answers():
    """40 sockets from 127.0.0.1 send one header byte every second (CONN_LIMIT=20): the
    address is capped at CONN_PER_ADDR=8, so /health from ::1 keeps answering in < 100 ms,
    and the attacker's sockets are cut at the request deadline."""
    env = {"CONN_LIMIT": "20", "CONN_PER_ADDR": "8", "REQUEST_DEADLINE": "4"}
    with Server(database=db(), env=env) as s:
        stop = threading.Event()
        socks = []
        for _ in range(40):
            k = socket.create_connection(("127.0.0.1", s.port), timeout=5)
            k.sendall(b"G")
            socks.append(k)

        def trickle():
            while not stop.wait(1.0):
                for k in socks:
                    try:
                        k.send(b"E")
                    except OSError:
                        pass

        t = threading.Thread(target=trickle, daemon=True)
        t.start()
        try:
            times = []
            for _ in range(20):
                st, dt = health6(s.port)
                assert st == 200, st
                times.append(dt)
            times.sort()
            # Without the per-address cap, /health waits for as long as the attack goes on
            # (every connection slot is held). The < 100 ms figure is measured on
            # a quiet machine by `make bench` (tests/bench/slowheader.sh: p99 under attack next
            # to p99 without it); here the bound only has to tell "answered" from "held", so
            # a loaded CI machine cannot make it flaky.
            assert times[-2] < 1.0, times
            # the attacker got at most its cap of live connections: the others were cut
            # (first those over the cap, at 2 s; then the rest at the 4 s deadline)
            alive = list(socks)

            def at_most_cap():
                alive[:] = [k for k in alive if not closed_by_peer(k, 0.01)]
                return len(alive) <= 8
            wait_until(at_most_cap, 4, "the sockets over the per-address cap to be cut")
            t0 = time.time()
            for k in alive:
                assert closed_by_peer(k, 8), "a slow request outlived its deadline"
            assert time.time() - t0 < 8
        finally:
            stop.set()
            t.join()
            for k in socks:
                k.close()


def test_request_deadline():
    """Head and body within REQUEST_DEADLINE, however steadily the bytes come; a request in
    time is answered; an idle keep-alive connection is closed at the deadline too."""
    with Server(database=db(), env={"REQUEST_DEADLINE": "2"}) as s:
        # slow body: a byte every 0.3 s of a 100-byte body never completes in 2 s
        k = socket.create_connection(("127.0.0.1", s.port), timeout=5)
        k.sendall(b"POST /api/v1/er/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                  b"\r\nContent-Length: 100\r\n\r\n")
        t0 = time.time()
        cut = None
        for _ in range(40):
            try:
                k.send(b" ")
            except OSError:
                cut = time.time() - t0
                break
            if closed_by_peer(k, 0.3):
                cut = time.time() - t0
                break
        assert cut is not None and 1.5 < cut < 4, cut
        k.close()
        # a prompt request on a keep-alive connection is answered, then the idle connection
        # is closed at the deadline
        k = socket.create_connection(("127.0.0.1", s.port), timeout=5)
        k.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        st, hd, body = read_reply(k)
        assert st == 200, (st, body)
        t0 = time.time()
        assert closed_by_peer(k, 6)
        assert 1.5 < time.time() - t0 < 4
        k.close()


def test_per_address_cap_429():
    """Over CONN_PER_ADDR, a connection's request gets 429 problem+json with Retry-After and
    Connection: close; the other address is not affected."""
    with Server(database=db(), env={"CONN_PER_ADDR": "3"}) as s:
        idle = hold(s.port, 3)
        k = socket.create_connection(("127.0.0.1", s.port))
        k.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        st, hd, body = read_reply(k)
        assert st == 429 and hd.get("retry-after") and hd.get("connection") == "close", hd
        obj = json.loads(body)
        assert obj["status"] == 429 and "address" in obj["detail"], obj
        assert closed_by_peer(k, 3)
        k.close()
        assert health6(s.port)[0] == 200
        for k in idle:
            k.close()
        # once they are closed, the address is welcome again
        # (raw sockets: a 429 for a connection over the cap can come on any route, which the
        # per-route document does not list)
        for k in hold(s.port, 3):
            k.close()
        assert "client http: refusing connections (429) from 127.0.0.1" in s.output()


def hold_busy(port, n, timeout=10):
    """n connections from 127.0.0.1 whose request head is in (a POST that got its
    100 Continue and sends no body): a connection that waits for a head (idle, or slow) makes
    room for a new one at the limit, these do not."""
    held, end = [], time.time() + timeout
    while len(held) < n:
        assert time.time() < end, f"could not hold {n} busy connections"
        k = socket.create_connection(("127.0.0.1", port), timeout=5)
        k.sendall(b"POST /api/v1/er/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                  b"\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n")
        if k.recv(4096).startswith(b"HTTP/1.1 100"):
            held.append(k)
        else:
            k.close()
            time.sleep(0.05)
    return held


def test_connection_limit_503():
    """Over CONN_LIMIT (every address together) with no connection waiting for a head, a
    clear 503 problem+json, not a silent reset."""
    with Server(database=db(), env={"CONN_LIMIT": "4", "CONN_PER_ADDR": "100"}) as s:
        held = hold_busy(s.port, 4)
        c = http.client.HTTPConnection("::1", s.port, timeout=5)
        c.request("GET", "/api/v1/health")
        r = c.getresponse()
        obj = json.loads(r.read())
        assert r.status == 503 and r.getheader("Retry-After"), (r.status, obj)
        assert obj["status"] == 503
        c.close()
        for k in held:
            k.close()


def _start_raw(env, limits=None):
    """Starts the server directly (not through the harness) with an RLIMIT_NOFILE."""
    port = free_port()
    e = dict(os.environ)
    e.update({"PORT": str(port), "STATIC_DIR": os.path.join(ROOT, "static"),
              "TEMPLATES_DIR": os.path.join(ROOT, "templates"),
              "MIGRATIONS_DIR": os.path.join(ROOT, "migrations"), "DATABASE_URL": db()})
    e.update(env)

    def pre():
        if limits:
            resource.setrlimit(resource.RLIMIT_NOFILE, limits)

    return subprocess.Popen([os.path.join(ROOT, SERVER_BIN)], env=e, preexec_fn=pre,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), port


def _output_until(p, needle, timeout=20):
    out = ""
    end = time.time() + timeout
    while time.time() < end and needle not in out:
        line = p.stdout.readline()
        if not line:
            break
        out += line
    return out


def test_fd_limit_and_connection_limit_agree():
    """The server raises RLIMIT_NOFILE to fit CONN_LIMIT when the hard limit allows, else
    lowers CONN_LIMIT, and says so at start."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2048:
        hard_ok = hard
    else:
        hard_ok = 4096
    p, _ = _start_raw({"CONN_LIMIT": "1024"}, (256, hard_ok))
    try:
        out = _output_until(p, "listening on")
        assert "raised the file descriptor limit from 256" in out, out
        assert "up to 1024 connections" in out, out
        lim = int(open(f"/proc/{p.pid}/limits").read().split("Max open files")[1].split()[0])
        assert lim >= 1024, lim
    finally:
        p.terminate()
        p.wait(15)
    p, _ = _start_raw({"CONN_LIMIT": "1024"}, (200, 200))
    try:
        out = _output_until(p, "listening on")
        assert "CONN_LIMIT 1024 lowered to" in out and "listening on" in out, out
    finally:
        p.terminate()
        p.wait(15)


# ---- listening ----


def test_second_server_on_the_same_port_refuses_to_start():
    with Server(database=db()) as a:
        b = Server(database=db(), port=a.port, wait=False).start()
        try:
            rc = b.proc.wait(20)
            assert rc != 0, rc
            assert "address in use" in b.output(), b.output()[-2000:]
        finally:
            b.stop()
            b.drop_log()
        assert a.request("GET", "/api/v1/health")[0] == 200


def test_listen_address():
    """LISTEN=127.0.0.1 serves IPv4 loopback only; the default (every interface) serves both
    127.0.0.1 and ::1."""
    with Server(database=db(), env={"LISTEN": "127.0.0.1"}) as s:
        assert s.request("GET", "/api/v1/health")[0] == 200
        try:
            socket.create_connection(("::1", s.port), timeout=2).close()
            raise AssertionError("::1 reached a server listening on 127.0.0.1 only")
        except ConnectionRefusedError:
            pass
        assert "listening on 127.0.0.1 port" in s.output()
    s = Server(database=db(), env={"LISTEN": "::1"}, wait=False).start()
    try:
        wait_until(lambda: "listening on ::1" in s.output() or s.proc.poll() is not None, 20,
                   "the server on ::1")
        assert health6(s.port)[0] == 200
    finally:
        s.__exit__(None, None, None)
    with Server(database=db()) as s:
        assert s.request("GET", "/api/v1/health")[0] == 200 and health6(s.port)[0] == 200
        assert "listening on every interface" in s.output()
    b = Server(database=db(), env={"LISTEN": "not-an-address"}, wait=False).start()
    try:
        assert b.proc.wait(20) != 0 and "not a numeric" in b.output()
    finally:
        b.drop_log()


# ---- tokens ----


def test_query_token_only_for_the_event_stream():
    """?token= works for GET …/events (EventSource cannot send headers) and nowhere else:
    a mutation or a read with the token in the URL is 401, with WWW-Authenticate: Bearer."""
    with Server(database=db()) as s:
        g = create(s, 2, deck="table")
        gid, host = g["id"], g["host_token"]
        st, hd, obj = s.json("POST", f"{GAMES}/{gid}/turns?token={host}",
                             {"card": 10, "dice": {"red": 3, "yellow": 4, "green": 5}})
        problem(st, hd, obj, 401)
        assert hd["www-authenticate"].startswith("Bearer"), hd
        st, hd, obj = s.json("GET", f"{GAMES}/{gid}?token={host}")
        problem(st, hd, obj, 401)
        # nothing happened
        assert state(s, gid, host)["version"] == 0
        ev = Stream(s, gid, host, query_token=True)
        assert ev.status == 200
        assert ev.events(lambda e: len(e) >= 1)[0]["event"] == "hello"
        ev.close()


def test_every_401_carries_www_authenticate():
    with Server(database=db()) as s:
        g = create(s, 2, deck="table")
        gid = g["id"]
        for method, path, body in (("GET", f"{GAMES}/{gid}", None),
                                   ("GET", f"{GAMES}/{gid}/log", None),
                                   ("GET", f"{GAMES}/{gid}/events", None),
                                   ("POST", f"{GAMES}/{gid}/turns", {})):
            for h in ({}, {"Authorization": "Bearer " + "x" * 43}, {"Authorization": "Basic eA=="}):
                st, hd, obj = s.json(method, path, body, headers=h)
                assert st in (401, 403, 404), (method, path, h, st, obj)
                if st == 401:
                    assert hd.get("www-authenticate", "").startswith("Bearer"), \
                        (method, path, h, hd)
                if not h:
                    assert st == 401, (method, path, st)
        st, hd, obj = s.json("GET", f"{GAMES}/{gid}")
        problem(st, hd, obj, 401)
        assert hd["www-authenticate"] == 'Bearer realm="dice-hospital"', hd


# ---- event streams ----


def test_stream_caps_per_token_and_per_game():
    with Server(database=db(), env={"SSE_PER_TOKEN": "2", "SSE_PER_GAME": "3"}) as s:
        g = create(s, 3, deck="app")
        gid, host, toks = g["id"], g["host_token"], tokens(g)
        a = [Stream(s, gid, host) for _ in range(2)]
        assert all(x.status == 200 for x in a)
        for x in a:
            x.events(lambda e: len(e) >= 1)
        st, hd, obj = s.json("GET", f"{GAMES}/{gid}/events", token=host)
        problem(st, hd, obj, 429)
        assert hd.get("retry-after") and "token" in obj["detail"], (hd, obj)
        b = Stream(s, gid, toks[2])
        assert b.status == 200
        st, hd, obj = s.json("GET", f"{GAMES}/{gid}/events", token=toks[3])
        problem(st, hd, obj, 429)
        assert "game" in obj["detail"], obj
        # closing one frees its slot (found by the probe within a second or two)
        a[0].close()
        def reopened():
            x = Stream(s, gid, toks[3])
            if x.status == 200:
                return x
            x.close()
            return None
        c = wait_until(reopened, 10, "the closed stream's slot")
        for x in (a[1], b, c):
            x.close()


def test_closed_stream_released_within_10s():
    """A phone that goes away: its stream's connection and memory are released within 10 s
    (SSE_DEAD_S), not at the next failed keep-alive write."""
    with Server(database=db()) as s:
        g = create(s, 2, deck="app")
        x = Stream(s, g["id"], g["host_token"])
        x.events(lambda e: len(e) >= 1)
        inode = server_side_inode(s.port, x.c.sock.getsockname()[1])
        assert inode and inode in socket_inodes(s.proc.pid), inode
        t0 = time.time()
        x.close()
        wait_until(lambda: inode not in socket_inodes(s.proc.pid), 10,
                   "the stream's socket to be closed")
        assert time.time() - t0 < 10


def test_stream_churn_fds_and_rss_back_to_baseline():
    """1,000 stream opens and closes (20 rounds of 50 at once): file descriptors come back to
    the baseline and RSS stays near it (a leak would grow it by tens of MB over 5,000)."""
    env = {"SSE_PER_TOKEN": "1000", "SSE_PER_GAME": "1000", "CONN_PER_ADDR": "1000"}
    with Server(database=db(), env=env) as s:
        g = create(s, 2, deck="app")
        gid, host = g["id"], g["host_token"]
        pid = s.proc.pid

        def round_(n):
            xs = [Stream(s, gid, host) for _ in range(n)]
            for x in xs:
                assert x.status == 200
                x.events(lambda e: len(e) >= 1)
            for x in xs:
                x.close()

        round_(50)  # warm-up: every worker's database connection, arenas
        # baseline: the descriptors once the warm-up streams are gone (steady for 1 s)
        seen = [fd_count(pid)]

        def steady():
            seen.append(fd_count(pid))
            return len(seen) > 20 and seen[-1] == seen[-21]
        wait_until(steady, 15, "a steady descriptor count after the warm-up")
        base_fd = seen[-1]
        base_rss = rss_kb(pid)
        for _ in range(20):
            round_(50)
            wait_until(lambda: fd_count(pid) <= base_fd + 2, 10,
                       "the closed streams' descriptors")
        # a move still reaches a stream after the churn
        x = Stream(s, gid, host)
        x.events(lambda e: len(e) >= 1)
        reveal(s, gid, host)
        x.events(lambda e: any(ev.get("event") == "reveal" for ev in e))
        x.close()
        # a closed stream is noticed at its next write (the heartbeat period plus the kernel's
        # user timeout, well under 30 s): the bound leaves room for a loaded machine
        wait_until(lambda: fd_count(pid) <= base_fd, 30, "descriptors back to the baseline")
        grown = rss_kb(pid) - base_rss
        print(f"  churn: RSS {base_rss} kB -> {base_rss + grown} kB, descriptors {base_fd}")
        # AddressSanitizer keeps freed memory in its quarantine (256 MB) on purpose: the RSS
        # bound holds for the real build; the sanitizer build checks leaks at exit instead
        if "asan" not in SERVER_BIN:
            assert grown < 4 * 1024, f"RSS grew {grown} kB over 1,000 streams"


# ---- HTTPS ----


def test_https_end_to_end_with_a_self_signed_certificate():
    with tempfile.TemporaryDirectory() as d:
        cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                        "-out", cert, "-days", "1", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost"],
                       check=True, capture_output=True)
        with Server(database=db(), env={"TLS_CERT": cert, "TLS_KEY": key}) as s:
            ctx = ssl.create_default_context(cafile=cert)

            def req(method, path, body=None, token=None):
                c = http.client.HTTPSConnection("127.0.0.1", s.port, context=ctx, timeout=10)
                h = {"Content-Type": "application/json"} if body is not None else {}
                if token:
                    h["Authorization"] = "Bearer " + token
                c.request(method, path, body=json.dumps(body) if body is not None else None,
                          headers=h)
                r = c.getresponse()
                data = r.read()
                c.close()
                return r.status, json.loads(data) if data else None

            st, obj = req("GET", "/api/v1/health")
            assert st == 200 and obj["status"] == "ok", obj
            st, g = req("POST", GAMES, {"players": [{"name": "A"}, {"name": "B"}], "deck": "app"})
            assert st == 201, g
            # the event stream over TLS sees a reveal
            c = http.client.HTTPSConnection("127.0.0.1", s.port, context=ctx, timeout=10)
            c.request("GET", f"{GAMES}/{g['id']}/events?token={g['host_token']}")
            r = c.getresponse()
            assert r.status == 200
            st, _ = req("POST", f"{GAMES}/{g['id']}/turns", {}, token=g["host_token"])
            assert st == 200
            buf = b""
            end = time.time() + 5
            while b"event: reveal" not in buf and time.time() < end:
                buf += r.read1(4096)
            assert b"event: reveal" in buf, buf
            c.close()
            # plain HTTP on the TLS port gets no HTTP answer
            k = socket.create_connection(("127.0.0.1", s.port), timeout=5)
            k.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            k.settimeout(5)
            try:
                data = k.recv(100)
            except OSError:
                data = b""
            assert not data.startswith(b"HTTP/1.1 200"), data
            k.close()
            assert "HTTPS" in s.output()
        # a missing key refuses to start
        b = Server(database=db(), env={"TLS_CERT": cert}, wait=False).start()
        try:
            assert b.proc.wait(20) != 0 and "TLS_KEY" in b.output(), b.output()
        finally:
            b.drop_log()


# ---- behind a reverse proxy ----


def _join_until_429(s, xff):
    """Wrong join codes from one forwarded address until 429: true when that took the 20
    attempts of the limit (plus one for every 2 s the loop took: a loaded machine refills)."""
    t0 = time.monotonic()
    for i in range(1, 40):
        st, hd, obj = s.json("POST", "/api/v1/join", {"code": "ZZZZZZ", "seat": 1},
                             headers={"X-Forwarded-For": xff})
        if st == 429:
            return 21 <= i <= 21 + int((time.monotonic() - t0) / 2)
        assert st == 404, (st, obj)
    return False


def _refused_now(s, xff):
    """Three quick wrong joins as xff: the bucket is empty when at least two are 429 (it
    refills one attempt per 2 s, so one may slip through just after a refill)."""
    sts = [s.json("POST", "/api/v1/join", {"code": "ZZZZZZ", "seat": 1},
                  headers={"X-Forwarded-For": xff})[0] for _ in range(3)]
    assert set(sts) <= {404, 429}, sts
    return sts.count(429) >= 2


def test_trust_proxy_forwarded_address():
    """X-Forwarded-For names the client only when the peer is in TRUST_PROXY (its last entry,
    the one the proxy appended): the join limit then counts per forwarded address, and the
    proxy is not held to the per-address connection cap. Untrusted, the header is ignored."""
    env = {"TRUST_PROXY": "10.9.9.9, 127.0.0.0/8", "CONN_PER_ADDR": "2"}
    with Server(database=db(), env=env) as s:
        assert _join_until_429(s, "203.0.113.7")
        # a forged first entry does not move a client into someone else's bucket
        assert _refused_now(s, "198.51.100.1, 203.0.113.7")
        # another client behind the same proxy has its own bucket
        assert _join_until_429(s, "203.0.113.7, 198.51.100.1")
        # the proxy's own connections are not capped per address
        held = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(4)]
        for k in held:
            k.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_reply(k)[0] == 200
        for k in held:
            k.close()
    with Server(database=db(), env={"TRUST_PROXY": "10.9.9.9"}) as s:
        assert _join_until_429(s, "203.0.113.7")
        assert _refused_now(s, "198.51.100.1"), \
            "an untrusted peer chose its bucket with X-Forwarded-For"
    b = Server(database=db(), env={"TRUST_PROXY": "10.0.0.0/33"}, wait=False).start()
    try:
        assert b.proc.wait(20) != 0 and "TRUST_PROXY" in b.output()
    finally:
        b.drop_log()


def _refused_raw(s, xff_lines):
    """Three quick wrong joins with X-Forwarded-For sent as several header lines: true when
    the bucket is empty (see _refused_now)."""
    sts = []
    body = b'{"code": "ZZZZZZ", "seat": 1}'
    head = "".join(f"X-Forwarded-For: {x}\r\n" for x in xff_lines)
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", s.port), timeout=5) as k:
            k.sendall((f"POST /api/v1/join HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\n{head}"
                       f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                       "Connection: close\r\n\r\n").encode() + body)
            sts.append(read_reply(k)[0])
    assert set(sts) <= {404, 429}, sts
    return sts.count(429) >= 2


def test_trust_proxy_walks_past_trusted_hops():
    """Behind two proxies (a TLS proxy in front of nginx, both in TRUST_PROXY), X-Forwarded-For
    is read from the right past every trusted hop and the first untrusted one is the client:
    clients behind the outer proxy have a bucket each (not the outer proxy's one), and what a
    client writes into the header itself does not move it into another bucket."""
    env = {"TRUST_PROXY": "127.0.0.0/8, 10.20.0.0/16"}
    with Server(database=db(), env=env) as s:
        assert _join_until_429(s, "203.0.113.7, 10.20.0.5")
        # the same client, having written an address of its own before its real one
        assert _refused_now(s, "198.51.100.1, 203.0.113.7, 10.20.0.5")
        # through another trusted hop of the outer network: still that client
        assert _refused_now(s, "203.0.113.7, 10.20.9.9, 10.20.0.5")
        # another client behind the same outer proxy has its own bucket
        assert _join_until_429(s, "203.0.113.8, 10.20.0.5")
        # a proxy that adds a header line of its own: the lines read as one list
        assert _refused_raw(s, ["198.51.100.2", "203.0.113.7, 10.20.0.5"])
        assert not _refused_raw(s, ["198.51.100.3, 10.20.0.5"])
        # the outer proxy's own requests (no client before it) are the outer proxy's
        assert _join_until_429(s, "10.20.0.5")


# ---- credentials in request targets never reach the log ----


def _open_stream(s, gid, token):
    """An event stream with the token in its URL that got its 200 (a connection the server
    still counts, such as the harness's readiness probe, may make one refused: retried)."""
    end = time.time() + 10
    while True:
        x = Stream(s, gid, token, query_token=True)
        if x.status == 200:
            x.events(lambda e: len(e) >= 1)
            return x
        x.close()
        assert x.status in (429, 503) and time.time() < end, x.status
        time.sleep(0.05)


def _refused(port, target, family_addr="127.0.0.1"):
    k = socket.create_connection((family_addr, port), timeout=5)
    k.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    st = read_reply(k)[0]
    k.close()
    return st


def _wait_log(s, needle, timeout=10):
    wait_until(lambda: needle in s.output(), timeout, f"{needle!r} in the server's log")


def test_query_token_never_logged():
    """The seat token of ?token= (and a seat link in qr.svg's data, and a token under an
    encoded name) is redacted where the target is captured: not in the access line of a stream,
    of a connection refused 429 (per-address cap) or 503 (connection limit), or of a request
    aborted before its head ended; each line still shows the path."""
    with Server(database=db(), env={"CONN_PER_ADDR": "2", "SSE_PER_TOKEN": "10"}) as s:
        g = create(s, 2, deck="app")
        gid, host = g["id"], g["host_token"]
        path = f"{GAMES}/{gid}/events"
        _open_stream(s, gid, host).close()
        _wait_log(s, f"GET {path} 200 ")
        held = hold(s.port, 2)
        assert _refused(s.port, f"{path}?token={host}") == 429
        link = f"http%3A%2F%2Fx%2F%23game%3D{gid}%26token%3D{host}"
        assert _refused(s.port, f"/api/v1/qr.svg?data={link}") == 429
        for k in held:
            k.close()
        _wait_log(s, f"GET {path}?token=REDACTED 429 ")
        _wait_log(s, "GET /api/v1/qr.svg?data=REDACTED 429 ")
        out = s.output()
        assert host not in out, [l for l in out.splitlines() if host in l]
    env = {"CONN_LIMIT": "2", "SSE_PER_TOKEN": "10", "REQUEST_DEADLINE": "2"}
    with Server(database=db(), env=env) as s:
        g = create(s, 2, deck="app")
        gid, host = g["id"], g["host_token"]
        path = f"{GAMES}/{gid}/events"
        # two streams fill the slots (a request whose head is in is never evicted)
        streams = [_open_stream(s, gid, host) for _ in range(2)]
        assert _refused(s.port, f"{path}?token={host}", "::1") == 503
        _wait_log(s, f"GET {path}?token=REDACTED 503 ")
        for x in streams:
            x.close()
        # the request line is in, the head never ends: the deadline cuts it
        k = socket.create_connection(("::1", s.port), timeout=5)
        k.sendall(f"GET {path}?a=1&%74oken={host}&b=2 HTTP/1.1\r\nHost: x\r\n".encode())
        assert closed_by_peer(k, 8)
        k.close()
        _wait_log(s, f"- {path}?a=1&%74oken=REDACTED&b=2 0 ")
        out = s.output()
        assert host not in out, [l for l in out.splitlines() if host in l]
