"""Scale-out, shown for real: two server processes behind Debian's nginx on one
PostgreSQL. A move made through the proxy reaches event streams on both servers (LISTEN/NOTIFY
between them), and stopping one server with SIGTERM loses no request: nginx sends on to the
other one what the stopping server refused (proxy_next_upstream; a POST only when it never
reached the stopping server), and an identical resubmitted move is answered as before without
a second event.

The proxy is the one we ship, docker/nginx.conf, run as this test's own process on a free
loopback port with its own logs and temporary directories (shipped_nginx.py)."""
import random, signal, threading, time

from harness import Server, make_database
from shipped_nginx import Nginx, Via
from games import GAMES, create, move_events, play_turn, random_policy, state, tokens
from test_er_live import Stream


def _versions(evs):
    return [int(e["id"]) for e in evs if e.get("event") not in (None, "hello")]


def test_two_servers_behind_nginx():
    db = make_database("h_scaleout")
    env = {"TRUST_PROXY": "127.0.0.1"}
    a = Server(database=db, env=env).start()
    b = Server(database=db, env=env).start()
    try:
        with Nginx([a.port, b.port]) as ng:
            via = Via(ng.port)
            g = create(via, 3, deck="app")
            gid, host, toks = g["id"], g["host_token"], tokens(g)
            # a phone on each server, and one through the proxy (unbuffered streaming)
            streams = [Stream(a, gid, toks[1]), Stream(b, gid, toks[2]),
                       Stream(via, gid, toks[3], query_token=True)]
            for x in streams:
                assert x.status == 200
                x.events(lambda e: len(e) >= 1)
            pol = random_policy(random.Random(12))
            cur, _ = play_turn(via, g, pol)
            v = cur["version"]
            # every move, whichever server took it, reached the streams of both servers
            for x in streams:
                evs = x.events(lambda e: v in _versions(e))
                assert _versions(evs) == list(range(1, v + 1)), evs
            for x in streams:
                x.close()

            # SIGTERM one server under load: nothing nginx retried is lost
            stop = threading.Event()
            failures, done = [], [0]

            def load():
                while not stop.is_set():
                    try:
                        st, _, obj = via.json("GET", f"{GAMES}/{gid}", token=host)
                        if st != 200:
                            failures.append((st, obj))
                        done[0] += 1
                    except Exception as e:  # a reset that nginx passed on to us
                        failures.append(repr(e))

            threads = [threading.Thread(target=load) for _ in range(3)]
            for t in threads:
                t.start()
            moved = {}
            try:
                cur, _ = play_turn(via, g, pol, moved=moved)
                a.proc.send_signal(signal.SIGTERM)
                # moves keep going through the proxy while A drains and exits
                while a.proc.poll() is None:
                    cur, _ = play_turn(via, g, pol, moved=moved)
                assert a.proc.returncode == 0, a.output()[-2000:]
                cur, _ = play_turn(via, g, pol, moved=moved)
                n_after = done[0]
                wait_end = time.time() + 10
                while done[0] < n_after + 20 and time.time() < wait_end:
                    time.sleep(0.05)
            finally:
                stop.set()
                for t in threads:
                    t.join(20)
            assert not failures, (failures[:3], ng.log())
            # nginx did meet the stopped server and retried on the other one
            retried = [l for l in ng.log().splitlines() if "upstream" in l and "[info]" not in l]
            assert retried, "no request went to the stopped server: the test proved nothing"
            assert done[0] > 20, done
            # one event per acknowledged move, none doubled by a retry
            lg = via.json("GET", f"{GAMES}/{gid}/log", token=host)[2]
            mv = [(e["seat"], e["turn"]) for e in move_events(lg)]
            assert len(mv) == len(set(mv)) and set(moved) <= set(mv), (mv, sorted(moved))
            assert "access GET" in a.output() and "access GET" in b.output()
            # the remaining server still serves the table, and a stream resumes on it
            x = Stream(via, gid, host, last_id=cur["version"] - 1)
            evs = x.events(lambda e: cur["version"] in _versions(e))
            assert _versions(evs) == [cur["version"]], evs
            x.close()
    finally:
        b.__exit__(None, None, None)
        a.__exit__(None, None, None)
