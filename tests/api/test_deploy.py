"""The deployment as shipped: docker/nginx.conf (run as it is, shipped_nginx.py) in front of
two servers on one database, used the way a person does, everything through the proxy with a
browser's Origin (scheme://host:port): sign up, log in, create a league and change it, import
a 2 MB BG Stats export, play an ER game with two phones whose event streams run through the
proxy, download PDFs. Then what a TLS-terminating proxy in front of nginx (docker/README.md)
sends: X-Forwarded-Proto: https gives a Secure cookie, and each client's address in
X-Forwarded-For gets its own rate-limit bucket. And nginx never replays a POST that a server
may have carried out on another server."""
import http.client, json, os, random, socket, subprocess, tempfile, threading, time, uuid

from harness import ROOT, Server, make_database
from league_util import Client
from shipped_nginx import Nginx, Via
from games import GAMES, create, play_turn, random_policy
from test_er_live import Stream

# nginx and the outer proxy of these tests both connect from loopback
ENV = {"TRUST_PROXY": "127.0.0.1"}


def _bgstats_export(min_bytes):
    """tests/api/data/bgstats-sample.json with its plays repeated under fresh uuids until the
    file has at least min_bytes: (bytes, number of plays)."""
    with open(os.path.join(ROOT, "tests", "api", "data", "bgstats-sample.json")) as f:
        sample = json.load(f)
    rng = random.Random(7)
    base, plays, size = sample["plays"], [], 0
    while size < min_bytes:
        for p in base:
            q = dict(p, uuid=str(uuid.UUID(int=rng.getrandbits(128), version=4)))
            plays.append(q)
            size += len(json.dumps(q)) + 2
    body = json.dumps(dict(sample, plays=plays)).encode()
    assert len(body) >= min_bytes, len(body)
    return body, len(plays)


def _versions(evs):
    return [int(e["id"]) for e in evs if e.get("event") not in (None, "hello")]


def _is_pdf(hd, data):
    return hd.get("content-type", "").startswith("application/pdf") and data[:5] == b"%PDF-"


def _qr(pdf):
    """The text of the QR code on the first page of a PDF (poppler's pdftoppm, zbarimg)."""
    with tempfile.TemporaryDirectory(prefix="deploy-pdf-") as d:
        f = os.path.join(d, "sheet.pdf")
        with open(f, "wb") as fh:
            fh.write(pdf)
        subprocess.run(["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile", f,
                        os.path.join(d, "page")], check=True, capture_output=True)
        r = subprocess.run(["zbarimg", "-q", "--raw", os.path.join(d, "page.png")],
                           check=True, capture_output=True)
        return r.stdout.decode().rstrip("\n")


def _servers(name):
    db = make_database(name)
    return Server(database=db, env=ENV).start(), Server(database=db, env=ENV).start()


def _stop(*servers):
    for s in reversed(servers):
        s.__exit__(None, None, None)


def test_a_person_through_the_shipped_proxy():
    a, b = _servers("h_deploy")
    try:
        with Nginx([a.port, b.port]) as ng:
            via = Via(ng.port)
            ann = Client(via)  # Origin http://127.0.0.1:<nginx's port>, as a browser sends it
            assert ann.origin.endswith(f":{ng.port}")
            ann.signup("ann@example.org", name="Ann")
            ann.login("ann@example.org")
            st, _, me = ann.get("/api/v1/accounts/me")
            assert st == 200 and me["email"] == "ann@example.org", (st, me)
            st, _, lg = ann.post("/api/v1/leagues", {"name": "Tuesday club"})
            assert st == 201, (st, lg)
            lid = lg["id"]
            st, _, m = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Bea"})
            assert st == 201, (st, m)

            # a real export's size: more than nginx's 64 KiB for other routes
            body, nplays = _bgstats_export(2 * 1024 * 1024)
            st, _, data = via.request("POST", f"/api/v1/leagues/{lid}/import?format=bgstats",
                                      body, timeout=60,
                                      headers={"Content-Type": "application/json",
                                               "Origin": ann.origin,
                                               "Cookie": "dh_session=" + ann.cookie})
            assert st == 200, (st, data[:300], ng.log())
            o = json.loads(data)
            assert o["imported"] == nplays, (o, nplays)

            # an ER game: created on one phone, both seats joined by code, each phone's
            # event stream open through the proxy
            g = create(via, 2, deck="app")
            phones = {}
            for seat in (1, 2):
                st, _, j = via.json("POST", "/api/v1/join", {"code": g["code"], "seat": seat})
                assert st == 200 and j["seat"] == seat, (st, j)
                phones[seat] = j["seat_token"]
            streams = [Stream(via, g["id"], phones[seat]) for seat in (1, 2)]
            for x in streams:
                assert x.status == 200 and x.headers["content-type"].startswith(
                    "text/event-stream"), (x.status, x.headers)
                x.events(lambda e: any(ev.get("event") == "hello" for ev in e))
            game = dict(g, seats=[{"seat": s_, "seat_token": t} for s_, t in phones.items()])
            pol = random_policy(random.Random(3))
            for _ in range(2):
                cur, made = play_turn(via, game, pol)
                assert set(made) == {1, 2}, made
            v = cur["version"]
            for x in streams:
                evs = x.events(lambda e: v in _versions(e))
                assert _versions(evs) == list(range(1, v + 1)), evs
                x.close()

            # PDFs: blank sheets, a seat's sheet whose QR code is the address the browser
            # used (port included), and the league's report (with the session cookie)
            st, hd, data = via.request("GET", "/api/v1/er/sheets.pdf?count=2")
            assert st == 200 and _is_pdf(hd, data), (st, hd)
            st, hd, data = via.request("GET", f"{GAMES}/{g['id']}/seats/1/sheet.pdf",
                                       headers={"Authorization": "Bearer " + phones[1]})
            assert st == 200 and _is_pdf(hd, data), (st, hd)
            assert _qr(data) == f"http://127.0.0.1:{ng.port}/#game={g['id']}&join={g['code']}"
            st, hd, data = ann.get(f"/api/v1/leagues/{lid}/standings.pdf")
            assert st == 200 and _is_pdf(hd, data), (st, hd)
        # both servers took part
        assert "access POST" in a.output() and "access POST" in b.output()
    finally:
        _stop(a, b)


class ViaFrom(Via):
    """Via, connecting from another loopback address."""

    def __init__(self, port, source):
        super().__init__(port)
        self.source = source

    def conn(self, timeout=10):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                          source_address=(self.source, 0))


def _wrong_join(via, client):
    """A wrong join code from client, as the outer proxy forwards it: the status."""
    return via.json("POST", "/api/v1/join", {"code": "ZZZZZZ", "seat": 1},
                    headers={"X-Forwarded-For": client})[0]


def test_behind_an_outer_tls_proxy():
    """What a TLS-terminating proxy in front of nginx sends (X-Forwarded-Proto: https and
    X-Forwarded-For: the client) reaches the servers: the session cookie is Secure, and the
    rate limits count per client, not per outer proxy."""
    a, b = _servers("h_deploy_tls")
    try:
        with Nginx([a.port, b.port]) as ng:
            via = Via(ng.port)
            ann = Client(via)
            ann.signup("ann@example.org")
            tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.20"}
            # both servers, in turn (round robin): each one sets a Secure cookie
            for _ in range(2):
                st, _, o = ann.post("/api/v1/sessions", {"email": "ann@example.org",
                                                         "password": "correct horse battery"},
                                    headers=tls)
                assert st == 200, (st, o)
                assert "; Secure" in ann.last_set_cookie, ann.last_set_cookie
            # without the outer proxy's word, plain HTTP: not Secure
            ann.login("ann@example.org")
            assert "; Secure" not in ann.last_set_cookie, ann.last_set_cookie
            # a sheet printed over the outer proxy's TLS links to https
            g = create(via, 1)
            st, hd, data = via.request("GET", f"{GAMES}/{g['id']}/seats/1/sheet.pdf",
                                       headers={"Authorization": "Bearer " + g["host_token"],
                                                **tls})
            assert st == 200 and _qr(data) == f"https://127.0.0.1:{ng.port}/#game={g['id']}&join={g['code']}"

            # one client behind the outer proxy uses up its join attempts on both servers
            sts = []
            while sts[-2:] != [429, 429]:
                assert len(sts) < 120, sts
                sts.append(_wrong_join(via, "203.0.113.10"))
                assert sts[-1] in (404, 429), sts
            assert sts.count(404) >= 40, sts  # 20 a server
            # another client behind the same proxy is not refused
            others = [_wrong_join(via, "203.0.113.11") for _ in range(4)]
            assert others == [404] * 4, others

            # a client that reaches nginx itself (from 127.0.0.2, not the outer proxy's
            # address) and writes these headers is not believed: plain HTTP, its own address
            direct = ViaFrom(ng.port, "127.0.0.2")
            bob = Client(direct)
            st, _, o = bob.post("/api/v1/sessions", {"email": "ann@example.org",
                                                     "password": "correct horse battery"},
                                headers=tls)
            assert st == 200 and "; Secure" not in bob.last_set_cookie, (st, bob.last_set_cookie)
            claims = [_wrong_join(direct, "203.0.113.10") for _ in range(4)]
            assert claims == [404] * 4, claims
    finally:
        _stop(a, b)


class _Swallower:
    """An upstream that answers GET /api/v1/health and takes every POST without answering:
    it reads the request whole, then closes the connection (a server that died after it may
    have carried the request out). Counts the POSTs it took."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.posts = 0
        self.t = threading.Thread(target=self._accept, daemon=True)
        self.t.start()

    def _accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(c,), daemon=True).start()

    def _serve(self, c):
        c.settimeout(10)
        buf = b""
        try:
            while True:
                while b"\r\n\r\n" not in buf:
                    chunk = c.recv(65536)
                    if not chunk:
                        return
                    buf += chunk
                head, _, buf = buf.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                n = 0
                for l in lines[1:]:
                    k, _, v = l.partition(":")
                    if k.strip().lower() == "content-length":
                        n = int(v)
                while len(buf) < n:
                    buf += c.recv(65536)
                buf = buf[n:]
                if lines[0].startswith("POST "):
                    self.posts += 1
                    return
                ok = b'{"status":"ok","database":"ok"}'
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\n\r\n%s" % (len(ok), ok))
        except OSError:
            return
        finally:
            c.close()

    def close(self):
        self.sock.close()


def test_nginx_does_not_replay_a_post():
    """A server that took a POST and failed before answering: nginx answers 502 rather than
    send the same POST to the other server (a move or an import carried out twice)."""
    db = make_database("h_deploy_replay")
    real = Server(database=db, env=ENV).start()
    dead = _Swallower()
    try:
        with Nginx([dead.port, real.port]) as ng:
            sts = []
            for _ in range(4):  # round robin: at least one reaches the swallower
                c = http.client.HTTPConnection("127.0.0.1", ng.port, timeout=10)
                c.request("POST", GAMES, body=json.dumps({"players": [{"name": "A"}]}),
                          headers={"Content-Type": "application/json"})
                r = c.getresponse()
                r.read()
                c.close()
                sts.append(r.status)
            assert dead.posts >= 1, (sts, dead.posts)
            # the access log line follows the answer: wait for one per 201
            created = lambda: real.output().count(f"access POST {GAMES} 201")
            end = time.time() + 10
            while created() < sts.count(201) and time.time() < end:
                time.sleep(0.05)
            # each POST went to one server only: the swallowed one was answered 502
            assert 502 in sts and created() + dead.posts == len(sts), \
                (f"a POST that a server took was sent again to another: {sts}, "
                 f"{created()} created, {dead.posts} swallowed")
    finally:
        dead.close()
        real.__exit__(None, None, None)
