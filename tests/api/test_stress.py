"""Many clients at once on every anonymous endpoint, game creation of every kind, ER moves, Dice
Hospital rounds, event streams and logins: the server must not crash, answer 5xx, or change an
answer that does not depend on time (the same request gets the same reply from the first to
the last). Under the ThreadSanitizer build (tests/run.sh) any data race the load provokes is a
report, and a report fails the test (harness.Server.__exit__).

Each client speaks from its own loopback address (127.0.0.2 …), as phones on a LAN do, so the
per-address limits (logins, joins, connections) see a table's worth of clients, not one.

STRESS_SECONDS sets how long the load runs (default 20; `make stress` runs 300 with 16 clients),
STRESS_CLIENTS how many clients (default 16)."""
import hashlib, http.client, json, os, random, socket, threading, time

import contract
from games import create, deck, play_turn, random_policy
from harness import Server, make_database

SECONDS = float(os.environ.get("STRESS_SECONDS", "20"))
CLIENTS = int(os.environ.get("STRESS_CLIENTS", "16"))
ORIGIN_HOST = "127.0.0.1"

# Requests whose answer depends on nothing but the request: the first answer is the answer.
FIXED = [
    ("GET", "/api/v1/profiles", None),
    ("GET", "/api/v1/profiles?game=clinic", None),
    ("GET", "/api/v1/er/data", None),
    ("POST", "/api/v1/clinic/business", {"modules": 4, "outpatients": 2, "garden_bonus": 1}),
    ("POST", "/api/v1/clinic/business", {"modules": 4, "doctors": {"white": 1}, "savings": 1}),
    ("POST", "/api/v1/er/score", {"sheet": {"wards": [[{"value": 1}, {"value": 2, "critical": True},
                                                       {"value": 4}, {"value": 6}],
                                                      [], [{"value": 2}], [], [], [], []],
                                            "morgue": 1},
                                  "radiologist": "xray-high-values",
                                  "epidemiologist": "largest-group"}),
    ("POST", "/api/v1/er/moves/options", {"sheet": {"wards": [[], [], [{"value": 2}], [], [], [], []]},
                                          "turn": {"card": 9, "dice": {"red": 6, "yellow": 4,
                                                                       "green": 5},
                                                   "chief": True}}),
    ("POST", "/api/v1/er/alicat/move", {"sheet": {"wards": [[], [], [], [], [], [], []]},
                                        "turn": {"card": 9, "dice": {"red": 6, "yellow": 4,
                                                                     "green": 5},
                                                 "chief": True}}),
    ("GET", "/api/v1/qr.svg?data=https%3A%2F%2Fexample.org%2Fjoin%2FABC123", None),
    ("GET", "/api/v1/dh/pads.pdf?players=3", None),
]


class Client:
    """One phone: its own source address, a keep-alive connection, a session cookie."""

    def __init__(self, port, index):
        self.port = port
        self.addr = f"127.0.0.{2 + index}"
        self.c = None
        self.cookie = None
        self.origin = f"http://{ORIGIN_HOST}:{port}"

    def _conn(self):
        if self.c is None:
            self.c = http.client.HTTPConnection(ORIGIN_HOST, self.port, timeout=30,
                                                source_address=(self.addr, 0))
        return self.c

    def request(self, method, path, body=None, token=None, headers=None):
        h = dict(headers or {})
        if body is not None:
            body = json.dumps(body)
            h["Content-Type"] = "application/json"
        if token:
            h["Authorization"] = "Bearer " + token
        if self.cookie:
            h["Cookie"] = "dh_session=" + self.cookie
        if method != "GET":
            h["Origin"] = self.origin
        for attempt in (0, 1):
            c = self._conn()
            try:
                c.request(method, path, body=body, headers=h)
                r = c.getresponse()
                data = r.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # a keep-alive connection the server closed between requests (idle deadline):
                # open a new one once; a second failure is a failure.
                self.close()
                if attempt:
                    raise
        hd = {k.lower(): v for k, v in r.getheaders()}
        if hd.get("connection", "").lower() == "close":
            self.close()
        contract.check_response(method, path, r.status, hd, data)
        sc = hd.get("set-cookie")
        if sc:
            self.cookie = sc.split(";", 1)[0].split("=", 1)[1] or None
        obj = None
        if data and "json" in hd.get("content-type", ""):
            obj = json.loads(data)
        return r.status, hd, data, obj

    def json(self, method, path, body=None, headers=None, token=None):
        """harness.Server.json's signature, so the ER test helpers (games.py) drive a client."""
        st, hd, data, obj = self.request(method, path, body, token=token, headers=headers)
        if st >= 500:
            raise AssertionError(f"{method} {path}: {st} {data[:300]!r}")
        return st, hd, obj if obj is not None else data

    def close(self):
        if self.c is not None:
            self.c.close()
            self.c = None


class Load:
    """The shared bookkeeping of one run: counts, failures, the reference answers."""

    def __init__(self, port, deadline):
        self.port = port
        self.deadline = deadline
        self.lock = threading.Lock()
        self.counts = {}
        self.failures = []
        self.reference = {}

    def count(self, what):
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + 1

    def fail(self, msg):
        with self.lock:
            if len(self.failures) < 20:
                self.failures.append(msg)

    def check(self, what, st, data, want=(200,)):
        self.count(what)
        if st >= 500 or st not in want:
            self.fail(f"{what}: {st} {data[:300]!r}")
            return False
        return True

    def same(self, key, st, data):
        digest = (st, hashlib.sha256(data).hexdigest())
        with self.lock:
            ref = self.reference.setdefault(key, digest)
        if ref != digest:
            self.fail(f"{key}: answer changed: {digest} != {ref}")

    def running(self):
        return time.time() < self.deadline and len(self.failures) < 20


def fixed_requests(load, cl, rng):
    method, path, body = rng.choice(FIXED)
    st, hd, data, _ = cl.request(method, path, body)
    if load.check(path, st, data):
        load.same((method, path, json.dumps(body, sort_keys=True)), st, data)


def health(load, cl, rng):
    st, hd, data, obj = cl.request("GET", "/api/v1/health")
    load.check("health", st, data)


def er_game(load, cl, rng):
    """A two-seat table-deck game: a few turns, every seat moving with its own token (the
    helpers of the ER tests assert every status they get)."""
    g = create(cl, names=["Ann", "Bob"], deck="table")
    load.count("er create")
    for card, dice in deck(rng, 3):
        play_turn(cl, g, random_policy(rng), card, dice)
        load.count("er move")


def dh_game(load, cl, rng):
    st, hd, data, g = cl.request("POST", "/api/v1/dh/games",
                                 {"players": [{"name": "A"}, {"name": "B"}, {"name": "C"}]})
    if not load.check("dh create", st, data, (201,)):
        return
    for n in (1, 2):
        entries = [{"seat": s, "discharged": {"red": rng.randint(0, 2), "yellow": 1, "green": 0},
                    "wards_empty": False} for s in (1, 2, 3)]
        st, hd, data, _ = cl.request("PUT", f"/api/v1/dh/games/{g['id']}/rounds/{n}",
                                     {"entries": entries}, token=g["host_token"])
        if not load.check("dh round", st, data):
            return


def clinic_game(load, cl, rng):
    st, hd, data, g = cl.request("POST", "/api/v1/clinic/games",
                                 {"players": [{"name": "A"}, {"name": "B"}]})
    if load.check("clinic create", st, data, (201,)):
        st, hd, data, _ = cl.request("GET", f"/api/v1/clinic/games/{g['id']}",
                                     token=g["host_token"])
        load.check("clinic state", st, data)


def stream(load, cl, rng):
    """Opens a game's event stream, reads its first event, hangs up."""
    st, hd, data, g = cl.request("POST", "/api/v1/dh/games",
                                 {"players": [{"name": "A"}, {"name": "B"}]})
    if not load.check("stream create", st, data, (201,)):
        return
    s = socket.create_connection((ORIGIN_HOST, load.port), timeout=10,
                                 source_address=(cl.addr, 0))
    try:
        s.sendall(f"GET /api/v1/dh/games/{g['id']}/events?token={g['host_token']} HTTP/1.1\r\n"
                  f"Host: {ORIGIN_HOST}\r\nAccept: text/event-stream\r\n\r\n".encode())
        buf = b""
        while b"\n\n" not in buf.split(b"\r\n\r\n", 1)[-1] and len(buf) < 65536:
            chunk = s.recv(4096)
            if not chunk:
                break
            buf += chunk
        status = int(buf.split(b" ", 2)[1]) if buf.startswith(b"HTTP/1.1 ") else 0
        load.check("stream", status, buf)
    finally:
        s.close()


def login(load, cl, rng, email):
    st, hd, data, obj = cl.request("POST", "/api/v1/sessions",
                                   {"email": email, "password": "correct horse battery"})
    if st == 429:  # the per-address login limit: the right answer to a client this eager
        load.count("login limited")
        return
    if load.check("login", st, data):
        st, hd, data, obj = cl.request("GET", "/api/v1/accounts/me")
        load.check("me", st, data)


MIX = [(fixed_requests, 30), (health, 10), (er_game, 6), (dh_game, 5), (clinic_game, 5),
       (stream, 3)]


def client_loop(load, index, email):
    rng = random.Random(1000 + index)
    cl = Client(load.port, index)
    funcs = [f for f, w in MIX for _ in range(w)]
    next_login = time.time() + rng.uniform(0, 3)
    try:
        while load.running():
            if time.time() >= next_login:
                login(load, cl, rng, email)
                next_login = time.time() + 31  # under the per-account limit (5, then 1 / 30 s)
                continue
            rng.choice(funcs)(load, cl, rng)
    except Exception as e:  # noqa: BLE001 — any exception in a client is a failure
        load.fail(f"client {index}: {type(e).__name__}: {e}")
    finally:
        cl.close()


def test_many_clients_on_every_endpoint():
    with Server(database=make_database("h_stress")) as s:
        # accounts to log in with (sign-up from each client's own address)
        emails = []
        for i in range(CLIENTS):
            cl = Client(s.port, i)
            email = f"p{i}@example.org"
            st, hd, data, obj = cl.request("POST", "/api/v1/accounts",
                                           {"email": email, "password": "correct horse battery",
                                            "display_name": f"P{i}"})
            assert st == 201, (st, data)
            cl.close()
            emails.append(email)
        load = Load(s.port, time.time() + SECONDS)
        threads = [threading.Thread(target=client_loop, args=(load, i, emails[i]))
                   for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(SECONDS + 120)
        assert not any(t.is_alive() for t in threads), "a client never finished"
        assert s.proc.poll() is None, "the server died:\n" + s.output()[-3000:]
        assert not load.failures, "\n".join(load.failures)
        total = sum(load.counts.values())
        print(f"  stress: {total} requests in {SECONDS:.0f} s from {CLIENTS} clients: "
              + ", ".join(f"{k} {v}" for k, v in sorted(load.counts.items())))
        for what in ("health", "er create", "er move", "dh round", "clinic create", "stream",
                     "login"):
            assert load.counts.get(what, 0) > 0, (what, load.counts)
