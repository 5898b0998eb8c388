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
