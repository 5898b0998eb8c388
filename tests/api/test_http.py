"""The HTTP layer against the real server: status codes (404, 405 + Allow, 413, 414, 415, 400),
problem+json, static files (types, ETag/304, Cache-Control, HEAD, traversal), graceful stop on
SIGTERM, the connection timeout, and the access log.

Body checks (400/415/chunked 413) need a POST route; they use the first POST route that
`server routes` lists (POST /api/v1/er/score when present)."""
import http.client, json, os, re, signal, socket, subprocess, time

from harness import ROOT, SERVER_BIN, Server, make_database, problem

_server = None
_db = None


def db():
    global _db
    if _db is None:
        _db = make_database("h_http")
    return _db


def server():
    """One server for the read-only checks of this module."""
    global _server
    if _server is None:
        _server = Server(database=db()).start()
        import atexit
        atexit.register(lambda: _server.__exit__(None, None, None))
    return _server


def routes():
    out = subprocess.run([os.path.join(ROOT, SERVER_BIN), "routes"], check=True,
                         capture_output=True, text=True).stdout
    return [tuple(line.split(" ", 1)) for line in out.splitlines() if line.strip()]


def post_route():
    """A POST route without path parameters (preferring /api/v1/er/score), or None."""
    posts = [p for m, p in routes() if m == "POST" and "{" not in p]
    if "/api/v1/er/score" in posts:
        return "/api/v1/er/score"
    return posts[0] if posts else None


def raw(port, data, timeout=10, shut=False):
    """Sends raw bytes, returns (status, headers dict, body bytes) of the reply."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # an early reply may close the connection while we are still sending
        if shut:
            s.shutdown(socket.SHUT_WR)
        buf = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            buf += chunk
    finally:
        s.close()
    return parse_reply(buf)


def parse_reply(buf):
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    m = re.match(r"HTTP/1\.[01] (\d+)", lines[0]) if lines and lines[0] else None
    status = int(m.group(1)) if m else 0
    hd = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        hd[k.strip().lower()] = v.strip()
    return status, hd, body


def get_raw(path, extra=b""):
    s = server()
    return raw(s.port, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + extra +
               b"\r\n")


def as_json(body):
    return json.loads(body) if body else None


# ---- status codes ----

def test_404_problem():
    s = server()
    st, hd, o = s.json("GET", "/api/v1/no/such/thing")
    problem(st, hd, o, 404)
    assert o["title"] == "Not Found" and o["type"] == "about:blank"
    # a POST to an unknown path is 404 whatever its body (routing comes before 415)
    st, hd, o = s.json("POST", "/api/v1/no/such/thing", "x", {"Content-Type": "text/plain"})
    problem(st, hd, o, 404)


def test_405_with_allow():
    s = server()
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        st, hd, o = s.json(method, "/api/v1/health", {} if method != "DELETE" else None)
        problem(st, hd, o, 405)
        assert [m.strip() for m in hd["allow"].split(",")] == ["GET", "HEAD"], hd
    p = post_route()
    if p:
        st, hd, o = s.json("GET", p)
        problem(st, hd, o, 405)
        assert "POST" in hd["allow"]


def test_head_on_api_route():
    st, hd, body = server().request("HEAD", "/api/v1/openapi.json")
    assert st == 200 and body == b"" and int(hd["content-length"]) > 100


def test_414_url_too_long():
    s = server()
    st, hd, o = s.json("GET", "/api/v1/health?pad=" + "a" * 2100)
    problem(st, hd, o, 414)
    # 2048 bytes exactly is allowed
    path = "/api/v1/health?pad="
    st, _, _ = s.json("GET", path + "a" * (2048 - len(path)))
    assert st == 200


def test_413_content_length_over_cap():
    s = server()
    target = (post_route() or "/api/v1/health").encode()
    st, hd, body = raw(s.port, b"POST " + target + b" HTTP/1.1\r\nHost: x\r\n"
                       b"Content-Type: application/json\r\nContent-Length: 70000\r\n\r\n")
    problem(st, hd, as_json(body), 413)


def test_413_body_over_cap():
    p = post_route()
    if not p:
        return  # no POST route yet
    s = server()
    big = b'{"sheet": "' + b"x" * (64 * 1024) + b'"}'
    st, hd, body = raw(s.port, b"POST " + p.encode() + b" HTTP/1.1\r\nHost: x\r\n"
                       b"Content-Type: application/json\r\nContent-Length: " +
                       str(len(big)).encode() + b"\r\n\r\n" + big)
    problem(st, hd, as_json(body), 413)
    # chunked: no length up front, the cap is found while reading
    chunks = b"".join(b"1000\r\n" + b" " * 4096 + b"\r\n" for _ in range(17)) + b"0\r\n\r\n"
    st, hd, body = raw(s.port, b"POST " + p.encode() + b" HTTP/1.1\r\nHost: x\r\n"
                       b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                       b"Connection: close\r\n\r\n" + chunks)
    problem(st, hd, as_json(body), 413)


def test_415_and_400():
    p = post_route()
    if not p:
        return
    s = server()
    for ct in ("text/plain", "application/x-www-form-urlencoded", "application/jsonp"):
        st, hd, o = s.json("POST", p, "{}", {"Content-Type": ct})
        problem(st, hd, o, 415)
    st, hd, o = s.json("POST", p, "{}")  # http.client sends no Content-Type for a str body
    problem(st, hd, o, 415)
    # parameters are fine: no 415 (whatever the handler thinks of {})
    st, hd, o = s.json("POST", p, "{}", {"Content-Type": "application/json; charset=utf-8"})
    assert st != 415, o
    # malformed JSON → 400 naming the whole body
    for bad in ('{"sheet":', "{'a':1}", '{"a":1} trailing', "[" * 40 + "]" * 40, "\xff"):
        st, hd, o = s.json("POST", p, bad, {"Content-Type": "application/json"})
        problem(st, hd, o, 400, field="")
    # an unknown member is named by its JSON pointer
    st, hd, o = s.json("POST", p, {"no_such_field": 1})
    problem(st, hd, o, 400, field="/no_such_field")


# ---- static files ----

def test_static_content_types_and_cache():
    s = server()
    cases = {"/": "text/html", "/index.html": "text/html", "/app.css": "text/css",
             "/app.js": "text/javascript", "/openapi.json": "application/json"}
    for path, ct in cases.items():
        st, hd, body = s.request("GET", path)
        assert st == 200, (path, st)
        assert hd["content-type"].split(";")[0] == ct, (path, hd)
        want = "no-cache"  # every file revalidates by ETag: no stale modules after an upgrade
        assert hd["cache-control"] == want, (path, hd)
        assert re.fullmatch(r'"[^"]+"', hd["etag"]), hd
        with open(os.path.join(ROOT, "static", path.lstrip("/") or "index.html"), "rb") as f:
            assert body == f.read()
    st, hd, body = s.request("GET", "/")
    assert b"Dice Hospital companion" in body


def test_static_etag_304_and_head():
    s = server()
    st, hd, _ = s.request("GET", "/app.css")
    etag = hd["etag"]
    st, hd2, body = s.request("GET", "/app.css", headers={"If-None-Match": etag})
    assert st == 304 and body == b"" and hd2["etag"] == etag
    st, _, _ = s.request("GET", "/app.css", headers={"If-None-Match": '"nope"'})
    assert st == 200
    st, hd3, body = s.request("HEAD", "/app.css")
    assert st == 200 and body == b"" and hd3["etag"] == etag
    assert int(hd3["content-length"]) == os.path.getsize(os.path.join(ROOT, "static", "app.css"))
    st, hd, o = s.json("GET", "/no-such-file.js")
    problem(st, hd, o, 404)
    st, hd, o = s.json("POST", "/index.html", {})
    problem(st, hd, o, 405)


def test_static_traversal_never_leaks():
    with open(os.path.join(ROOT, "Makefile"), "rb") as f:
        secret = f.read()[:60]
    for path in (b"/../Makefile", b"/%2e%2e/Makefile", b"/%2E%2E/Makefile", b"/static/..%2fMakefile",
                 b"/..%2fMakefile", b"/..%2FMakefile", b"//etc/passwd", b"/..\\Makefile",
                 b"/%5c..%5cMakefile", b"/static/../../Makefile", b"/../../../../etc/passwd",
                 b"/index.html%00.js", b"/./index.html", b"/.git/config"):
        st, hd, body = get_raw(path)
        assert st in (400, 404), (path, st)
        assert secret not in body and b"root:" not in body, path
        assert hd["content-type"].startswith("application/problem+json"), (path, hd)


# ---- the front end's files: gzip and Content-Security-Policy on static files ----

def test_static_gzip_when_accepted_and_csp():
    import gzip
    s = server()
    with open(os.path.join(ROOT, "static", "app.css"), "rb") as f:
        raw = f.read()
    # plain: no encoding, the plain ETag, Vary names Accept-Encoding (a cache must keep both)
    st, hd, body = s.request("GET", "/app.css")
    assert st == 200 and body == raw and "content-encoding" not in hd, hd
    assert hd["vary"] == "Accept-Encoding", hd
    plain_etag = hd["etag"]
    # gzip taken: a smaller body that unzips to the file, under its own ETag
    for ae in ("gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "*"):
        st, hd, body = s.request("GET", "/app.css", headers={"Accept-Encoding": ae})
        assert st == 200 and hd.get("content-encoding") == "gzip", (ae, hd)
        assert gzip.decompress(body) == raw and len(body) < len(raw) / 2, ae
        assert hd["etag"] != plain_etag and hd["etag"].endswith('-gz"'), hd
        gz_etag = hd["etag"]
    # revalidation per variant
    st, hd, body = s.request("GET", "/app.css", headers={"Accept-Encoding": "gzip", "If-None-Match": gz_etag})
    assert st == 304 and body == b"", st
    st, hd, body = s.request("GET", "/app.css", headers={"Accept-Encoding": "gzip", "If-None-Match": plain_etag})
    assert st == 200 and hd.get("content-encoding") == "gzip"
    # refused or absent gzip, and files not worth compressing, go out as they are
    for ae in ("identity", "gzip;q=0", "deflate", "br"):
        st, hd, body = s.request("GET", "/app.css", headers={"Accept-Encoding": ae})
        assert st == 200 and body == raw and "content-encoding" not in hd, (ae, hd)
    st, hd, body = s.request("GET", "/icon-192.png", headers={"Accept-Encoding": "gzip"})
    assert st == 200 and "content-encoding" not in hd and "vary" not in hd, hd
    # every static file carries the policy: nothing external, no inline script or style, no framing
    for path in ("/", "/app.js", "/app.css", "/icon-192.png"):
        st, hd, _ = s.request("GET", path)
        csp = hd["content-security-policy"]
        for d in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'",
                  "frame-ancestors 'none'", "base-uri 'none'"):
            assert d in csp, (path, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "http" not in csp, csp


def test_static_gzip_follows_an_edited_file():
    """A file is compressed once per version (its replies are kept until inotify reports a
    change): the same bytes answer every request, and a file edited while the server runs is
    served new at once, compressed and plain, never the old compressed body."""
    import gzip, shutil, tempfile
    d = tempfile.mkdtemp(prefix="dh-static-")
    try:
        shutil.copy(os.path.join(ROOT, "static", "index.html"), d)
        css = os.path.join(d, "app.css")
        first = b"body { color: black; }\n" * 40
        with open(css, "wb") as f:
            f.write(first)
        with Server(database=make_database("h_static_gz"), env={"STATIC_DIR": d}) as s:
            gz = {"Accept-Encoding": "gzip"}
            bodies = [s.request("GET", "/app.css", headers=gz) for _ in range(3)]
            assert all(b[0] == 200 and b[1].get("content-encoding") == "gzip" for b in bodies)
            assert len({b[2] for b in bodies}) == 1 and gzip.decompress(bodies[0][2]) == first
            # edited in place (same size, newer mtime), then replaced by a longer file
            second = first.replace(b"black", b"green")
            with open(css, "wb") as f:
                f.write(second)
            os.utime(css, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
            st, hd, body = s.request("GET", "/app.css", headers=gz)
            assert st == 200 and gzip.decompress(body) == second, body[:80]
            assert hd["etag"] != bodies[0][1]["etag"], hd
            third = second + b"p { margin: 0; }\n" * 20
            with open(css + ".new", "wb") as f:
                f.write(third)
            os.replace(css + ".new", css)
            st, hd, body = s.request("GET", "/app.css", headers=gz)
            assert st == 200 and gzip.decompress(body) == third
            st, hd, body = s.request("GET", "/app.css")
            assert st == 200 and body == third and "content-encoding" not in hd
    finally:
        shutil.rmtree(d)


def test_static_gzip_weights():
    """Accept-Encoding weights (RFC 9110 §12.5.3): q=0 in any spelling refuses gzip, also
    against "*"; gzip named decides over "*"."""
    import gzip
    s = server()
    st, hd, raw = s.request("GET", "/app.css")
    assert st == 200 and "content-encoding" not in hd
    for ae in ("gzip;q=0, *", "*, gzip;q=0", "*;q=0", "gzip;Q=0", "gzip; q=0.000",
               "gzip;q=0.0, deflate", "identity", "*;q=0, identity"):
        st, hd, body = s.request("GET", "/app.css", headers={"Accept-Encoding": ae})
        assert st == 200 and "content-encoding" not in hd and body == raw, (ae, hd)
    for ae in ("gzip;q=0.001", "*;q=0, gzip", "x-gzip", "identity;q=0.5, *"):
        st, hd, body = s.request("GET", "/app.css", headers={"Accept-Encoding": ae})
        assert st == 200 and hd.get("content-encoding") == "gzip", (ae, hd)
        assert gzip.decompress(body) == raw


# ---- lifecycle ----

def _wait_until(cond, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def _server_read_all(s, client):
    """True once the server has read every byte the client sent on this connection (its end's
    receive queue in /proc/net/tcp is empty): libmicrohttpd parses what it reads in the same
    step, so the request is then known to the server. Synchronises without sleeping."""
    cport = client.getsockname()[1]
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                p = line.split()
                if int(p[1].split(":")[1], 16) == s.port and \
                        int(p[2].split(":")[1], 16) == cport:
                    return int(p[4].split(":")[1], 16) == 0
    return False


def _sigterm_taken(s):
    s.proc.send_signal(signal.SIGTERM)
    _wait_until(lambda: "SIGTERM received" in s.output() or s.proc.poll() is not None, 10,
                "the server to take SIGTERM")


def test_graceful_stop_with_request_in_flight():
    with Server(database=db()) as s:
        c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        c.sendall(b"GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n")  # headers unfinished
        _wait_until(lambda: _server_read_all(s, c), 10, "the server to read the request line")
        _sigterm_taken(s)
        assert s.proc.poll() is None, "exited with a request in flight"
        c.sendall(b"Connection: close\r\n\r\n")
        buf = b""
        while True:
            chunk = c.recv(65536)
            if not chunk:
                break
            buf += chunk
        c.close()
        st, hd, body = parse_reply(buf)
        assert st == 200 and json.loads(body)["openapi"].startswith("3.1")
        s.proc.wait(10)
        assert s.proc.returncode == 0, s.output()
        out = s.output()
        assert "SIGTERM received" in out and "stopped" in out


def test_graceful_stop_slow_body():
    p = post_route()
    if not p:
        return
    with Server(database=db()) as s:
        c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        body = b'{"no_such_field": 1}'
        c.sendall(b"POST " + p.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                  b"Content-Type: application/json\r\nContent-Length: " +
                  str(len(body)).encode() + b"\r\n\r\n" + body[:5])
        _wait_until(lambda: _server_read_all(s, c), 10, "the server to read the head")
        _sigterm_taken(s)
        c.sendall(body[5:])
        buf = b""
        while True:
            chunk = c.recv(65536)
            if not chunk:
                break
            buf += chunk
        c.close()
        st, _, _ = parse_reply(buf)
        assert st == 400, buf
        s.proc.wait(10)
        assert s.proc.returncode == 0


def test_sigint_exits_zero():
    with Server(database=db()) as s:
        assert s.request("GET", "/api/v1/health")[0] == 200
        assert s.stop(signal.SIGINT) == 0


def test_idle_connection_times_out():
    with Server(database=db(), env={"CONN_TIMEOUT": "2"}) as s:
        c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        t0 = time.time()
        data = c.recv(1024)  # the server closes the idle connection
        took = time.time() - t0
        c.close()
        assert data == b"" and 1.5 <= took <= 6, took
        # a keep-alive connection idle after a request is closed too
        c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        c.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        t0 = time.time()
        buf = b""
        while True:
            chunk = c.recv(65536)
            if not chunk:
                break
            buf += chunk
        took = time.time() - t0
        c.close()
        assert buf.startswith(b"HTTP/1.1 200") and 1.5 <= took <= 6, took


def test_keep_alive_replies_say_when_an_idle_connection_closes():
    """Every kept-alive reply says how long an idle connection stays open (the shorter of
    REQUEST_DEADLINE and CONN_TIMEOUT), so a client's connection pool drops it before the
    server closes it; a reply that closes the connection says close instead."""
    with Server(database=db(), env={"REQUEST_DEADLINE": "7", "CONN_TIMEOUT": "30"}) as s:
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
        for path in ("/api/v1/health", "/api/v1/nope", "/app.css"):
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            assert r.getheader("Keep-Alive") == "timeout=7", (path, r.getheaders())
        c.request("GET", "/api/v1/health", headers={"Connection": "close"})
        r = c.getresponse()
        r.read()
        assert r.getheader("Keep-Alive") is None and r.getheader("Connection") == "close"
        c.close()
    with Server(database=db(), env={"REQUEST_DEADLINE": "12", "CONN_TIMEOUT": "3"}) as s:
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
        c.request("GET", "/api/v1/health")
        r = c.getresponse()
        r.read()
        assert r.getheader("Keep-Alive") == "timeout=3", r.getheaders()
        c.close()


def test_bad_config_exits_1():
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN)], env=dict(os.environ, PORT="99999"),
                       capture_output=True, text=True, timeout=20)
    assert p.returncode == 1 and "PORT" in p.stderr
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "bogus"], capture_output=True,
                       text=True, timeout=20)
    assert p.returncode == 2 and "usage" in p.stderr


def test_access_log_lines():
    with Server(database=db()) as s:
        s.request("GET", "/api/v1/health")
        s.request("GET", "/api/v1/nope")
        s.request("GET", "/app.css?v=1")
        # the access line is written once the response is out, maybe after the client read it
        _wait_until(lambda: sum(l.startswith("access ") for l in s.output().splitlines()) >= 3,
                    10, "three access lines")
        lines = [l for l in s.output().splitlines() if l.startswith("access ")]
    assert any(re.fullmatch(r"access GET /api/v1/health 200 \d+us", l) for l in lines), lines
    assert any(re.fullmatch(r"access GET /api/v1/nope 404 \d+us client-error .+", l)
               for l in lines), lines
    # the query string is not logged
    assert any(re.fullmatch(r"access GET /app.css 200 \d+us", l) for l in lines), lines


def test_a_request_starts_clean_after_an_error_on_its_thread():
    # One connection thread (THREADS=1): every request takes the context the one before gave
    # back; what an earlier request left in it (a 405's Allow value, a 404's log note, path
    # parameters) must not reach the next one's reply or access line.
    with Server(database=db(), env={"THREADS": "1"}) as s:
        seq = [("PUT", "/api/v1/health", 405), ("GET", "/api/v1/health", 200),
               ("GET", "/api/v1/join/ABC123", None), ("GET", "/api/v1/nope", 404),
               ("GET", "/api/v1/health", 200)]
        sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        replies = []
        try:
            for method, path, _ in seq:
                sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                             .encode())
                buf = b""
                while b"\r\n\r\n" not in buf:
                    buf += sock.recv(65536)
                st, hd, body = parse_reply(buf)
                while len(body) < int(hd.get("content-length", "0")):
                    body += sock.recv(65536)
                replies.append((st, hd, body))
        finally:
            sock.close()
        for (method, path, want), (st, hd, body) in zip(seq, replies):
            if want:
                assert st == want, (method, path, st, body)
            if want == 200:
                assert "allow" not in hd and json.loads(body)["status"] == "ok", (path, hd, body)
        _wait_until(lambda: sum(l.startswith("access ") for l in s.output().splitlines()) >= 5,
                    10, "five access lines")
        lines = [l for l in s.output().splitlines() if l.startswith("access ")]
    assert re.fullmatch(r"access PUT /api/v1/health 405 \d+us client-error .+", lines[0]), lines
    # a 200 after an error: no note of the error before it
    assert re.fullmatch(r"access GET /api/v1/health 200 \d+us", lines[1]), lines
    assert re.fullmatch(r"access GET /api/v1/nope 404 \d+us client-error .+", lines[3]), lines
    assert re.fullmatch(r"access GET /api/v1/health 200 \d+us", lines[4]), lines
