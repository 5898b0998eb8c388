"""Accounts and sessions (api.md "Leagues and history"): sign-up, log-in, log-out,
the session cookie's attributes, idle and absolute expiry, rotation on log-in, CSRF (Origin and
Content-Type), log-in rate limits per address and per address and account together (429 +
Retry-After; the growing waits and what no traffic makes the server forget: test_limits), the same
answer for an unknown e-mail and a wrong password, and every 401."""
import time

from harness import Server, make_database, problem
from league_util import Client, user


def _db():
    return make_database("h_accounts")


def test_signup_login_me_logout():
    with Server(database=_db()) as s:
        c = Client(s)
        acc = c.signup("Ada@Example.org", name="Ada")
        assert acc["email"] == "ada@example.org" and acc["display_name"] == "Ada", acc
        assert "password" not in str(acc) and "hash" not in str(acc)
        st, hd, o = c.get("/api/v1/accounts/me")
        problem(st, hd, o, 401, rule="no-session")
        me = c.login("ada@example.org")
        assert me["id"] == acc["id"], me
        sc = c.last_set_cookie
        assert "HttpOnly" in sc and "SameSite=Lax" in sc and "Path=/" in sc, sc
        assert "Secure" not in sc, "no Secure over plain HTTP"
        st, hd, o = c.get("/api/v1/accounts/me")
        assert st == 200 and o["id"] == acc["id"] and o["display_name"] == "Ada", o
        assert hd.get("cache-control") == "no-store"
        token = c.cookie
        st, hd, o = c.delete("/api/v1/sessions/current")
        assert st == 204, (st, o)
        assert "Max-Age=0" in c.last_set_cookie
        # the old token is dead on the server, not only forgotten by the client
        c.cookie = token
        st, hd, o = c.get("/api/v1/accounts/me")
        problem(st, hd, o, 401, rule="no-session")
        st, hd, o = c.delete("/api/v1/sessions/current")
        problem(st, hd, o, 401)
        # the password is never logged
        assert "correct horse" not in s.output()


def test_signup_errors():
    with Server(database=_db()) as s:
        c = Client(s)
        c.signup("bob@example.org")
        st, hd, o = c.post("/api/v1/accounts", {"email": "BOB@example.org",
                                                "password": "another password",
                                                "display_name": "Bob"})
        problem(st, hd, o, 409, rule="email-taken", field="/email")
        st, hd, o = c.post("/api/v1/accounts", {"email": "x@y.z", "password": "short",
                                                "display_name": "X"})
        problem(st, hd, o, 400, field="/password")
        st, hd, o = c.post("/api/v1/accounts", {"email": "no-at-sign", "password": "long enough",
                                                "display_name": "X"})
        problem(st, hd, o, 400, field="/email")
        st, hd, o = c.post("/api/v1/accounts", {"email": "a@b.c", "password": "long enough",
                                                "display_name": "X", "admin": True})
        problem(st, hd, o, 400, field="/admin")


def test_unknown_email_and_wrong_password_look_the_same():
    with Server(database=_db()) as s:
        c = Client(s)
        c.signup("carol@example.org")
        answers, times = [], {"unknown": [], "wrong": []}
        for i in range(4):
            for kind, email in (("unknown", f"nobody{i}@example.org"),
                                ("wrong", "carol@example.org")):
                t0 = time.monotonic()
                st, hd, o = c.post("/api/v1/sessions", {"email": email, "password": "nope nope"})
                times[kind].append(time.monotonic() - t0)
                problem(st, hd, o, 401, rule="bad-credentials")
                answers.append((st, o["detail"], o["rule"]))
        assert len(set(answers)) == 1, answers
        # both pay for one Argon2id verification (~20-40 ms here; skipping it would answer an
        # unknown e-mail in ~1 ms): same order of time, medians within 5x on a loaded machine
        med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
        assert med["unknown"] > 0.004 and med["wrong"] > 0.004, med
        assert max(med.values()) < 5 * min(med.values()), med


def test_login_rotates_the_session():
    with Server(database=_db()) as s:
        c = Client(s)
        c.signup("dan@example.org")
        c.login("dan@example.org")
        first = c.cookie
        c.login("dan@example.org")  # carries the first cookie
        second = c.cookie
        assert first != second
        st, hd, o = c.get("/api/v1/accounts/me")
        assert st == 200
        c.cookie = first
        st, hd, o = c.get("/api/v1/accounts/me")
        problem(st, hd, o, 401, rule="no-session")
        # two devices: logging in on one keeps the other's session
        other = Client(s)
        other.login("dan@example.org")
        c.cookie = second
        assert c.get("/api/v1/accounts/me")[0] == 200
        assert other.get("/api/v1/accounts/me")[0] == 200


def test_idle_expiry():
    """A session used more often than SESSION_IDLE_S lives past it; left unused longer, it ends.
    The time unused is a fixed wait, the one thing here that cannot be polled: a request asking
    whether the session has ended would use it (tests/README.md)."""
    idle = 2.0
    with Server(database=_db(), env={"SESSION_IDLE_S": "2", "SESSION_MAX_S": "60"}) as s:
        c = Client(s)
        c.signup("eve@example.org")
        # The server reads the session somewhere between a request's sending and its answer, so
        # two readings are at most (this answer - the previous sending) apart: a use within the
        # limit of the one before must find the session alive. A machine that stalls past the
        # limit may end it: then a new run starts, until one of 2 x idle is done (or 60 s pass).
        deadline = time.monotonic() + 60
        run_start = prev_sent = time.monotonic()
        c.login("eve@example.org")
        while time.monotonic() - run_start < 2 * idle:
            assert time.monotonic() < deadline, "no run of uses each within the idle limit"
            time.sleep(0.4)  # the spacing of the uses: what is under test
            sent = time.monotonic()
            st, hd, o = c.get("/api/v1/accounts/me")
            last_answer = time.monotonic()
            if last_answer - prev_sent < idle:
                assert st == 200, (st, o, last_answer - prev_sent)
            elif st != 200:
                problem(st, hd, o, 401, rule="session-expired")
                run_start = sent = time.monotonic()
                c.login("eve@example.org")
                last_answer = time.monotonic()
            prev_sent = sent
        # unused for the limit (and a margin for the database's clock) after its last reading
        time.sleep(max(0.0, last_answer + idle + 0.3 - time.monotonic()))
        st, hd, o = c.get("/api/v1/accounts/me")
        problem(st, hd, o, 401, rule="session-expired")
        st, hd, o = c.get("/api/v1/accounts/me")
        problem(st, hd, o, 401, rule="no-session")  # and it is gone


def test_absolute_expiry():
    """SESSION_MAX_S after the log-in the session ends, however often it is used: polled until
    it ends (with a deadline), never sooner than the limit after the log-in was sent."""
    max_s = 3.0
    with Server(database=_db(), env={"SESSION_IDLE_S": "60", "SESSION_MAX_S": "3"}) as s:
        c = Client(s)
        c.signup("fay@example.org")
        login_sent = time.monotonic()
        c.login("fay@example.org")
        assert "Max-Age=3" in c.last_set_cookie, c.last_set_cookie
        deadline = login_sent + max_s + 20
        while True:
            st, hd, o = c.get("/api/v1/accounts/me")
            answered = time.monotonic()
            if st != 200:
                break
            assert answered < deadline, "the session outlived SESSION_MAX_S by 20 s"
            time.sleep(0.1)
        problem(st, hd, o, 401, rule="session-expired")
        # created inside the log-in, read before this answer: ended no sooner than the limit
        assert answered - login_sent >= max_s, f"ended {answered - login_sent:.2f} s after log-in"


def test_csrf_origin_and_content_type():
    with Server(database=_db()) as s:
        c = Client(s)
        body = {"email": "gus@example.org", "password": "long enough", "display_name": "Gus"}
        st, hd, o = c.post("/api/v1/accounts", body, origin=False)
        problem(st, hd, o, 403, rule="origin-mismatch")
        st, hd, o = c.post("/api/v1/accounts", body, headers={"Origin": "http://evil.example"})
        problem(st, hd, o, 403, rule="origin-mismatch")
        st, hd, o = c.post("/api/v1/accounts", body,
                           headers={"Origin": "http://127.0.0.1:1" if s.port != 1 else "x"})
        problem(st, hd, o, 403, rule="origin-mismatch")
        # a form post (text/plain, the one a cross-site form can send without preflight)
        st, hd, o = c.call("POST", "/api/v1/sessions", "email=a&password=b", raw=True,
                           headers={"Content-Type": "text/plain"})
        problem(st, hd, o, 415)
        c.signup("gus@example.org")
        c.login("gus@example.org")
        st, hd, o = c.delete("/api/v1/sessions/current", origin=False)
        problem(st, hd, o, 403, rule="origin-mismatch")
        assert c.get("/api/v1/accounts/me")[0] == 200, "the refused log-out did nothing"


def test_login_failures_per_address_and_account():
    with Server(database=_db()) as s:
        c = Client(s)
        c.signup("hal@example.org")
        statuses = []
        for i in range(7):
            st, hd, o = c.post("/api/v1/sessions", {"email": "hal@example.org",
                                                    "password": f"guess {i}"})
            statuses.append(st)
        assert statuses[:5] == [401] * 5 and statuses[5] == 429, statuses
        assert int(hd["retry-after"]) >= 1, hd
        problem(st, hd, o, 429)
        # even the right password waits: this address is limited for this account, whatever
        # password it sends
        st, hd, o = c.post("/api/v1/sessions", {"email": "hal@example.org",
                                                "password": "correct horse battery"})
        assert st == 429 and "retry-after" in hd


def test_login_rate_limit_per_address():
    with Server(database=_db()) as s:
        c = Client(s)
        statuses = []
        for i in range(11):
            st, hd, o = c.post("/api/v1/sessions", {"email": f"who{i}@example.org",
                                                    "password": "whatever"})
            statuses.append(st)
        assert statuses[:10] == [401] * 10 and statuses[10] == 429, statuses
        assert int(hd["retry-after"]) >= 1


def test_secure_cookie_over_https():
    """Served over TLS (TLS_CERT/TLS_KEY), the session cookie carries Secure; the Origin the
    browser sends is https://host."""
    import http.client, json, os, ssl, subprocess, tempfile
    with tempfile.TemporaryDirectory() as d:
        cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                        "-out", cert, "-days", "1", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        with Server(database=_db(), env={"TLS_CERT": cert, "TLS_KEY": key}) as s:
            ctx = ssl.create_default_context(cafile=cert)

            def req(path, body):
                c = http.client.HTTPSConnection("127.0.0.1", s.port, context=ctx, timeout=10)
                c.request("POST", path, body=json.dumps(body),
                          headers={"Content-Type": "application/json",
                                   "Origin": f"https://127.0.0.1:{s.port}"})
                r = c.getresponse()
                r.read()
                c.close()
                return r.status, r.getheader("Set-Cookie")

            st, _ = req("/api/v1/accounts", {"email": "tls@example.org", "password": "over tls ok",
                                             "display_name": "T"})
            assert st == 201, st
            st, cookie = req("/api/v1/sessions", {"email": "tls@example.org", "password": "over tls ok"})
            assert st == 200 and cookie, (st, cookie)
            assert "; Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie, cookie


def test_secure_cookie_behind_a_trusted_proxy():
    """Behind a reverse proxy that ends TLS, X-Forwarded-Proto: https makes the cookie Secure —
    only from a proxy in TRUST_PROXY (anyone else could send the header)."""
    for trust, secure in (("127.0.0.0/8", True), ("10.9.9.9", False)):
        with Server(database=_db(), env={"TRUST_PROXY": trust}) as s:
            c = Client(s)
            c.signup("p@example.org")
            st, hd, o = c.post("/api/v1/sessions", {"email": "p@example.org",
                                                    "password": "correct horse battery"},
                               headers={"X-Forwarded-Proto": "https"})
            assert st == 200, o
            assert ("; Secure" in c.last_set_cookie) == secure, (trust, c.last_set_cookie)
