"""The table engine (src/engine/): behaviour every kind of game shares, tested through ER games
and through the minimal kind that only the tests register (tests/engine/)."""
import http.client, json, os, random, threading, time

from games import GAMES, create, deck, play_turn, random_policy, state, tokens
from harness import ROOT, Server, make_database


def test_reads_while_moves_commit_never_5xx():
    """A read takes the game row and its events in one snapshot: were they read apart, a move
    committed in between would make the replay overshoot the row's version (500). Readers on a second
    server (its own state cache, so it replays) read continuously while a whole game is played
    on the first; thousands of reads, none 5xx, every version read is one that existed."""
    db = make_database("t_table_rw")
    with Server(database=db) as a, Server(database=db) as b:
        rng = random.Random(7)
        g = create(a, 4, deck="table")
        gid, tok = g["id"], g["host_token"]
        done = threading.Event()
        seen = {"reads": 0, "bad": [], "versions": set()}
        lock = threading.Lock()

        def reader(path):
            c = http.client.HTTPConnection("127.0.0.1", b.port, timeout=10)
            while not done.is_set() or seen["reads"] < 3000:
                c.request("GET", path, headers={"Authorization": "Bearer " + tok})
                r = c.getresponse()
                body = r.read()
                with lock:
                    seen["reads"] += 1
                    if r.status >= 500 or r.status != 200:
                        seen["bad"].append((r.status, body[:300]))
                    else:
                        seen["versions"].add(json.loads(body)["version"])
                if seen["reads"] > 20000:
                    break
            c.close()

        threads = [threading.Thread(target=reader, args=(p,)) for p in
                   (f"{GAMES}/{gid}", f"{GAMES}/{gid}", f"{GAMES}/{gid}/log")]
        for t in threads:
            t.start()
        try:
            policy = random_policy(rng)
            for card, dice in deck(rng, g["turns"]):
                play_turn(a, g, policy, card, dice)
        finally:
            done.set()
            for t in threads:
                t.join(60)
        final = state(a, gid, tok)["version"]
        assert not seen["bad"], seen["bad"][:3]
        assert seen["reads"] >= 3000, seen["reads"]
        assert seen["versions"] <= set(range(final + 1)), sorted(seen["versions"])[-3:]
        assert len(seen["versions"]) > 10, "the reads overlapped the moves"


TALLY = "/api/v1/tally/games"


def tally_server(db):
    """The real server linked with the tally kind that only the tests register
    (tests/engine/tally_kind.c), from the same build as the server under test."""
    from harness import SERVER_BIN
    return Server(database=db, binary=os.path.join(os.path.dirname(SERVER_BIN), "tests",
                                                   "server_tally"))


def test_a_kind_registered_only_in_the_tests_gets_the_whole_engine():
    """Adding a kind is a descriptor and its handlers, not a copy. The tally kind has
    one handler (add points); create, join (claimed seats, replace), reads, the version check,
    authorisation, the log, the event stream and the stored result are the engine's."""
    from harness import problem
    from test_er_live import Stream
    import subprocess
    db = make_database("t_table_tally")
    with tally_server(db) as s:
        st, hd, g = s.json("POST", TALLY, {"players": ["Ann", "Bob"], "target": 10})
        assert st == 201, g
        assert hd["location"] == f"{TALLY}/{g['id']}"
        assert g["kind"] == "tally" and g["version"] == 0 and len(g["code"]) == 6, g
        assert [(x["seat"], x["name"], x["bot"]) for x in g["seats"]] == \
            [(1, "Ann", False), (2, "Bob", False)], g
        gid, host = g["id"], g["host_token"]
        ann = g["seats"][0]["seat_token"]
        st, hd, obj = s.json("POST", TALLY, {"players": ["Ann"], "bogus": 1})
        problem(st, hd, obj, 400, field="/bogus")
        # join by code: the engine's, for this kind too
        st, _, j = s.json("POST", "/api/v1/join", {"code": g["code"], "seat": 2})
        assert st == 200 and j["kind"] == "tally" and j["name"] == "Bob", j
        bob = j["seat_token"]
        st, hd, obj = s.json("POST", "/api/v1/join", {"code": g["code"], "seat": 2})
        problem(st, hd, obj, 409, rule="seat-claimed")
        stream = Stream(s, gid, bob, games=TALLY)
        assert stream.status == 200, stream.status
        hello = stream.events(lambda e: len(e) >= 1)
        assert hello[0]["event"] == "hello" and hello[0]["data"]["version"] == 0, hello

        def add(tok, seat, turn, points, expect=200):
            st, hd, obj = s.json("POST", f"{TALLY}/{gid}/seats/{seat}/adds",
                                 {"turn": turn, "points": points}, token=tok)
            assert st == expect, (st, obj)
            return st, hd, obj

        _, _, cur = add(ann, 1, 1, 6)
        assert cur["version"] == 1 and cur["seats"][0]["points"] == 6 and cur["you"] == 1, cur
        st, hd, obj = add(ann, 2, 1, 3, expect=403)            # a seat token writes its seat
        problem(st, hd, obj, 403)
        st, hd, obj = add(bob, 2, 2, 3, expect=409)            # the kind's own rule
        problem(st, hd, obj, 409, rule="turn-stale", field="/turn")
        st, hd, obj = add(bob, 3, 1, 3, expect=404)            # no such seat
        problem(st, hd, obj, 404, rule="no-such-seat")
        st, hd, obj = s.json("POST", f"{TALLY}/{gid}/seats/2/adds", {"turn": 1, "points": 3})
        problem(st, hd, obj, 401)
        add(host, 2, 1, 4)                                     # the host writes any seat
        _, _, cur = add(ann, 1, 2, 5)
        assert cur["status"] == "finished" and cur["version"] == 3, cur
        st, hd, obj = add(bob, 2, 2, 1, expect=409)
        problem(st, hd, obj, 409, rule="game-finished")
        got = stream.events(lambda e: len(e) >= 3)
        assert [(e["event"], e["data"]["version"], e["data"]["seat"]) for e in got[:3]] == \
            [("add", 1, 1), ("add", 2, 2), ("add", 3, 1)], got
        st, _, lg = s.json("GET", f"{TALLY}/{gid}/log", token=bob)
        assert st == 200 and lg["status"] == "finished" and lg["version"] == 3, lg
        assert [(e["kind"], e["seat"], e["turn"], e["payload"]) for e in lg["events"]] == \
            [("add", 1, 1, {"points": 6}), ("add", 2, 1, {"points": 4}),
             ("add", 1, 2, {"points": 5})], lg["events"]
        st, _, again = s.json("GET", f"{TALLY}/{gid}", token=host)
        assert again["seats"] == cur["seats"] and "you" not in again, again
        st, hd, obj = s.json("GET", f"/api/v1/er/games/{gid}", token=host)
        assert st == 404, (st, obj)
    # the finished result is stored for the league history, as for every kind
    out = subprocess.run(["psql", "-At", "-d", db.split("=", 1)[1], "-c",
                          f"SELECT status, result FROM games WHERE id = '{gid}'"],
                         check=True, capture_output=True, text=True).stdout.strip()
    status, result = out.split("|", 1)
    assert status == "finished", out
    assert [(x["name"], x["score"], x["rank"]) for x in json.loads(result)["standings"]] == \
        [("Ann", 11, 1), ("Bob", 4, 2)], result


# ---- the optimistic write (one round trip per move) ----


class RoundTripProxy:
    """A TCP proxy between the server and PostgreSQL that counts, per connection, the round
    trips the client starts (and the statements it runs): a burst of client bytes that follows bytes from the server (or
    opens the connection). A connection is told apart by what its client sends: the workers
    prepare the engine's statements (events_append_if), the notifier sets synchronous_commit,
    the listener LISTENs. Each pump marks its direction before forwarding, and the client only
    sends its next request after the reply reached it, so the count is exact."""

    def __init__(self):
        import socket
        self.upstream = ("localhost", int(os.environ.get("PGPORT", "5432")))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.conns = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        import socket
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            u = socket.create_connection(self.upstream)
            rec = {"sent": b"", "turns": 0, "last": "server"}
            with self.lock:
                self.conns.append(rec)
            threading.Thread(target=self._pump, args=(c, u, rec, "client"), daemon=True).start()
            threading.Thread(target=self._pump, args=(u, c, rec, "server"), daemon=True).start()

    def _pump(self, src, dst, rec, side):
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                for x in (src, dst):
                    try:
                        x.close()
                    except OSError:
                        pass
                return
            with self.lock:
                if side == "client":
                    if rec["last"] == "server":
                        rec["turns"] += 1
                    if len(rec["sent"]) < 1 << 20:
                        rec["sent"] += data
                rec["last"] = side
            dst.sendall(data)

    def turns(self, marker):
        """Round trips so far on the connections whose client sent `marker`."""
        with self.lock:
            return sum(r["turns"] for r in self.conns if marker in r["sent"])

    def statements(self, marker):
        """Statements run so far on the connections whose client sent `marker`: the frontend
        messages that run one (Bind of the extended protocol, Query of the simple one), read
        from the client's bytes after the startup message (the protocol's framing: a type byte
        and a length that counts itself)."""
        with self.lock:
            streams = [r["sent"] for r in self.conns if marker in r["sent"]]
        n = 0
        for b in streams:
            i = int.from_bytes(b[0:4], "big")  # the startup message: a length, no type
            while i + 5 <= len(b):
                n += b[i:i + 1] in (b"B", b"Q")
                i += 1 + int.from_bytes(b[i + 1:i + 5], "big")
        return n

    def close(self):
        self.sock.close()


def test_a_move_is_one_round_trip_once_the_token_is_known():
    """The engine must not make a move cost more round trips. Counted on the wire
    between the server (one worker thread) and PostgreSQL: a token's first write on a game
    whose state the process does not hold takes the locking path (BEGIN with the row lock, the
    seat claim for a seat token, the append, COMMIT); every later write of that token, and a
    seat token's first write once the state is held, is ONE statement (the optimistic write,
    claiming the seat in the same statement); the NOTIFY goes out afterwards, batched, on the
    notifier's own connection."""
    db = make_database("t_table_rtt")
    proxy = RoundTripProxy()
    try:
        url = f"host=127.0.0.1 port={proxy.port} {db} sslmode=disable"
        from harness import SERVER_BIN
        binary = os.path.join(os.path.dirname(SERVER_BIN), "tests", "server_tally")
        # the challenges' closer has a worker's connection too: it must not look meanwhile
        with Server(database=url, binary=binary,
                    env={"THREADS": "1", "CHALLENGE_CLOSE_PERIOD_MS": "3600000"}) as s:
            st, _, g = s.json("POST", TALLY, {"players": ["Ann", "Bob", "Cy"], "target": 100})
            assert st == 201, g
            gid, host, ann = g["id"], g["host_token"], g["seats"][0]["seat_token"]
            worker = b"events_append_if"

            def add(tok, seat, turn, statements=None):
                before, ran = proxy.turns(worker), proxy.statements(worker)
                st, _, obj = s.json("POST", f"{TALLY}/{gid}/seats/{seat}/adds",
                                    {"turn": turn, "points": 1}, token=tok)
                assert st == 200, (st, obj)
                if statements is not None:  # the short lock timeout stays on the session
                    assert proxy.statements(worker) - ran == statements, (proxy.statements(worker) - ran, proxy.turns(worker) - before)
                return proxy.turns(worker) - before

            # the game's first write in this process: BEGIN + lock, its seats (nothing cached
            # yet), the claim of Ann's seat, the append, COMMIT
            assert add(ann, 1, 1) == 5
            assert add(ann, 1, 2, statements=1) == 1  # known token, cached state: one statement
            assert add(ann, 1, 3, statements=1) == 1
            # the host's first write for a seat: first tried as the seat's own token (one
            # statement that writes nothing), then BEGIN + lock, append, COMMIT (no claim)
            assert add(host, 2, 1) == 4
            assert add(host, 2, 2, statements=1) == 1
            assert add(ann, 1, 4, statements=1) == 1
            # a refusal is decided on the locked row (the cached state may be stale)
            before = proxy.turns(worker)
            st, _, obj = s.json("POST", f"{TALLY}/{gid}/seats/1/adds",
                                {"turn": 9, "points": 1}, token=ann)
            assert st == 409 and obj["rule"] == "turn-stale", obj
            assert proxy.turns(worker) - before == 2  # BEGIN + lock, ROLLBACK
            _, _, cur = s.json("GET", f"{TALLY}/{gid}", token=host)
            assert cur["version"] == 6 and [x["points"] for x in cur["seats"]] == [4, 2, 0], cur
            # a phone's first write on a game whose state this process holds: one statement,
            # which claims the seat too (joining it is refused from then on)
            assert add(g["seats"][2]["seat_token"], 3, 1, statements=1) == 1
            st, _, obj = s.json("POST", "/api/v1/join", {"code": g["code"], "seat": 3})
            assert st == 409 and obj["rule"] == "seat-claimed", obj
            # the notifier sends on its own thread, after the writes: wait for it (bounded)
            end = time.time() + 10
            while proxy.turns(b"synchronous_commit") < 1 and time.time() < end:
                time.sleep(0.02)
            assert proxy.turns(b"synchronous_commit") >= 1, "the notifier sent nothing"
    finally:
        proxy.close()


def test_optimistic_write_on_a_stale_cache_takes_the_locking_path():
    """Two servers on one database: each caches the game. When one has moved it, the other's
    optimistic statement finds another version, writes nothing, and the locking path applies
    the event on the current state — every add lands once, in order, nothing lost."""
    db = make_database("t_table_stale")
    with tally_server(db) as a, tally_server(db) as b:
        st, _, g = a.json("POST", TALLY, {"players": ["Ann", "Bob"], "target": 100})
        gid, ann, bob = g["id"], g["seats"][0]["seat_token"], g["seats"][1]["seat_token"]
        for turn in range(1, 11):
            for srv, tok, seat in ((a, ann, 1), (b, bob, 2)):
                st, _, cur = srv.json("POST", f"{TALLY}/{gid}/seats/{seat}/adds",
                                      {"turn": turn, "points": seat}, token=tok)
                assert st == 200, (turn, seat, st, cur)
                assert cur["version"] == 2 * (turn - 1) + seat, cur
        for srv in (a, b):
            _, _, cur = srv.json("GET", f"{TALLY}/{gid}", token=ann)
            assert cur["version"] == 20 and [x["points"] for x in cur["seats"]] == [10, 20], cur
        _, _, lg = b.json("GET", f"{TALLY}/{gid}/log", token=bob)
        assert [(e["version"], e["seat"], e["turn"]) for e in lg["events"]] == \
            [(2 * (t - 1) + s, s, t) for t in range(1, 11) for s in (1, 2)], lg["events"]


def test_a_replaced_token_is_refused_even_when_the_server_knows_it():
    """A seat token this server has seen write (so it would write optimistically) is replaced
    by a join on ANOTHER server: its next write is refused 401 seat-replaced (the statement
    checks the token again), and the new token writes."""
    from harness import problem
    db = make_database("t_table_replaced")
    with tally_server(db) as a, tally_server(db) as b:
        st, _, g = a.json("POST", TALLY, {"players": ["Ann", "Bob"], "target": 100})
        gid, ann = g["id"], g["seats"][0]["seat_token"]
        for turn in (1, 2, 3):
            st, _, cur = a.json("POST", f"{TALLY}/{gid}/seats/1/adds",
                                {"turn": turn, "points": 1}, token=ann)
            assert st == 200, cur
        st, _, j = b.json("POST", "/api/v1/join", {"code": g["code"], "seat": 1, "replace": True})
        assert st == 200, j
        st, hd, obj = a.json("POST", f"{TALLY}/{gid}/seats/1/adds", {"turn": 4, "points": 1},
                             token=ann)
        problem(st, hd, obj, 401, rule="seat-replaced")
        for turn in (4, 5):
            st, _, cur = a.json("POST", f"{TALLY}/{gid}/seats/1/adds",
                                {"turn": turn, "points": 1}, token=j["seat_token"])
            assert st == 200 and cur["version"] == turn, cur
        st, hd, obj = a.json("POST", f"{TALLY}/{gid}/seats/1/adds", {"turn": 6, "points": 1},
                             token=ann)
        problem(st, hd, obj, 401, rule="seat-replaced")


def test_concurrent_writes_on_two_servers_all_land_once():
    """Four seats write their turns at once, two through each server: the stripes serialise a
    server's own writes, the version check the two servers'. Every add is acknowledged once,
    the log holds exactly the acknowledged adds, and each seat's turns are in order."""
    db = make_database("t_table_concurrent")
    with tally_server(db) as a, tally_server(db) as b:
        st, _, g = a.json("POST", TALLY, {"players": ["A", "B", "C", "D"], "target": 100})
        gid = g["id"]
        errors = []

        def seat_writer(srv, seat, tok):
            c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
            for turn in range(1, 21):
                c.request("POST", f"{TALLY}/{gid}/seats/{seat}/adds",
                          json.dumps({"turn": turn, "points": 1}),
                          {"Authorization": "Bearer " + tok, "Content-Type": "application/json"})
                r = c.getresponse()
                body = r.read()
                if r.status != 200:
                    errors.append((seat, turn, r.status, body[:200]))
                    return
            c.close()

        threads = [threading.Thread(target=seat_writer,
                                    args=(a if x["seat"] % 2 else b, x["seat"], x["seat_token"]))
                   for x in g["seats"]]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not errors, errors
        _, _, lg = a.json("GET", f"{TALLY}/{gid}/log", token=g["host_token"])
        assert [e["version"] for e in lg["events"]] == list(range(1, 81)), lg["events"][-3:]
        for seat in (1, 2, 3, 4):
            assert [e["turn"] for e in lg["events"] if e["seat"] == seat] == list(range(1, 21))


def test_the_catch_all_notification_wakes_every_stream():
    """The notifier sends the catch-all "*" when it may have lost notifications (its queue
    overflowed, or a batch failed): every listener then refreshes all its streams. Here an
    event reaches the log without its own notification (written straight into the database)
    and only "*" is sent: the open stream delivers the event at once, not at its next
    keep-alive 15 s later."""
    import subprocess
    from test_er_live import Stream
    db = make_database("t_table_catch_all")
    dbname = db.split("=", 1)[1]
    with tally_server(db) as s:
        st, _, g = s.json("POST", TALLY, {"players": ["Ann", "Bob"], "target": 100})
        gid, host = g["id"], g["host_token"]
        stream = Stream(s, gid, host, games=TALLY)
        assert stream.events(lambda e: len(e) >= 1)[0]["event"] == "hello"

        def psql(sql):
            subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dbname, "-c", sql],
                           check=True, capture_output=True)

        psql("BEGIN; INSERT INTO events (game_id, version, kind, seat, turn, payload) "
             f"VALUES ('{gid}', 1, 'add', 1, 1, '{{\"points\": 3}}'); "
             f"UPDATE games SET version = 1 WHERE id = '{gid}'; COMMIT")
        psql("NOTIFY game_events, '*'")
        got = stream.events(lambda e: any(x["event"] == "add" for x in e), timeout=5)
        add = [x for x in got if x["event"] == "add"][0]
        assert add["data"] == {"version": 1, "kind": "add", "seat": 1, "turn": 1}, add
        stream.close()
