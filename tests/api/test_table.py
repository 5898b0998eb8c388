"""The table engine (src/engine/): behaviour every kind of game shares, tested through ER games
and through the minimal kind that only the tests register (tests/engine/)."""
import http.client, json, os, random, threading

from games import GAMES, create, deck, play_turn, random_policy, state, tokens
from harness import ROOT, Server, make_database


def test_reads_while_moves_commit_never_5xx():
    """Issue 7's bug: a read took the game row, then the events outside one snapshot, so a move
    committed in between made the replay overshoot the row's version (500). Readers on a second
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
    """Issue 7: adding a kind is a descriptor and its handlers, not a copy. The tally kind has
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
