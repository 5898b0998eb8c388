"""Live updates across server processes (api.md "Live updates"; engineering.md "Live updates
across servers"): two servers on one database; a stream opened on server B sees a move made on
server A (PostgreSQL LISTEN/NOTIFY), and a reconnect with Last-Event-ID gets what it missed."""
import http.client, json, socket, subprocess, time

from harness import Server, make_database, problem
import random
from games import (GAMES, create, first_option_move, play_turn, random_policy, reveal, seat_of,
                   state, submit, tokens, turn_for)


class Stream:
    """A server-sent-events reader over http.client with a deadline per wait."""

    def __init__(self, server, gid, token=None, last_id=None, query_token=False, games=GAMES):
        self.server = server
        self.c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        h = {"Accept": "text/event-stream"}
        path = f"{games}/{gid}/events"
        if query_token:
            path += "?token=" + token
        elif token:
            h["Authorization"] = "Bearer " + token
        if last_id is not None:
            h["Last-Event-ID"] = str(last_id)
        self.c.request("GET", path, headers=h)
        self.r = self.c.getresponse()
        self.status = self.r.status
        self.headers = {k.lower(): v for k, v in self.r.getheaders()}
        self.buf = ""

    def events(self, until, timeout=5.0):
        """Reads events until until(events) is true; returns the list of events (dicts with
        id, event, data)."""
        out = []
        end = time.time() + timeout
        while True:
            while "\n\n" in self.buf:
                raw, self.buf = self.buf.split("\n\n", 1)
                ev = {}
                for line in raw.split("\n"):
                    if line.startswith(":") or ":" not in line:
                        continue
                    k, v = line.split(":", 1)
                    ev[k] = v[1:] if v.startswith(" ") else v
                if "event" in ev or "data" in ev:
                    if "data" in ev:
                        ev["data"] = json.loads(ev["data"])
                    out.append(ev)
            if until(out):
                return out
            left = end - time.time()
            assert left > 0, f"timed out; events so far: {out}"
            self.c.sock.settimeout(left)
            try:
                chunk = self.r.read1(4096)
            except (socket.timeout, TimeoutError):
                raise AssertionError(f"timed out; events so far: {out}")
            except (http.client.HTTPException, OSError) as e:
                chunk = b""
            if not chunk:
                try:  # a server that dies takes a moment to be reaped: say so if it does
                    died = self.server.proc.wait(2)
                except subprocess.TimeoutExpired:
                    died = None
                raise AssertionError(
                    f"the stream ended; events so far: {out}" +
                    (f"; the server died ({died}):\n{self.server.output()[-1500:]}"
                     if died is not None else ""))
            self.buf += chunk.decode()

    def close(self):
        self.c.close()


def _versions(evs):
    return [int(e["id"]) for e in evs if e.get("event") != "hello"]


def test_sse_across_servers():
    db = make_database("h_er_live")
    with Server(database=db) as a, Server(database=db) as b:
        g = create(a, 3, deck="table")
        gid, host, toks = g["id"], g["host_token"], tokens(g)
        # reading the stream needs a token of the game
        st, hd, obj = b.json("GET", f"{GAMES}/{gid}/events")
        problem(st, hd, obj, 401)
        s1 = Stream(b, gid, toks[2])
        assert s1.status == 200 and s1.headers["content-type"].startswith("text/event-stream")
        hello = s1.events(lambda e: len(e) >= 1)
        assert hello[0]["event"] == "hello" and hello[0]["data"]["version"] == 0, hello
        # a reveal and a move on server A arrive on server B, one event per version
        t0 = time.time()
        reveal(a, gid, host, 10, (3, 4, 5))
        evs = s1.events(lambda e: 1 in _versions(e))
        assert time.time() - t0 < 3, "the event took too long to cross servers"
        rev = [e for e in evs if e.get("id") == "1"][0]
        assert rev["event"] == "reveal" and rev["data"] == {"version": 1, "kind": "reveal",
                                                            "seat": 1, "turn": 1}, rev
        cur = state(a, gid, host)
        t0 = time.time()
        a.json("POST", f"{GAMES}/{gid}/seats/1/moves",
               {"turn": 1, "move": first_option_move(a, cur, 1)}, token=toks[1])
        evs = s1.events(lambda e: 2 in _versions(e))
        assert time.time() - t0 < 3, "the event took too long to cross servers"
        mv = [e for e in evs if e.get("id") == "2"][0]
        assert mv["event"] == "move" and mv["data"]["seat"] == 1, mv
        s1.close()
        # while nobody listens, the game goes on (turn 1 closes, turn 2 is played)
        rng = random.Random(3)
        pol = random_policy(rng)
        cur = state(a, gid, host)
        for seat in (2, 3):
            m = pol(a, seat_of(cur, seat)["sheet"], turn_for(cur, seat))
            _, _, cur = submit(a, gid, seat, toks[seat], 1, m)
        cur, _ = play_turn(a, g, pol, 11, (1, 2, 6))
        last = cur["version"]
        assert last == 8, last
        # reconnect (query token this time) with Last-Event-ID: 2 → exactly 3..8, in order
        s2 = Stream(b, gid, toks[3], last_id=2, query_token=True)
        assert s2.status == 200
        evs = s2.events(lambda e: last in _versions(e))
        assert _versions(evs) == list(range(3, last + 1)), evs
        assert [e["event"] for e in evs if e.get("event") != "hello"] == \
            ["move", "move", "reveal", "move", "move", "move"], evs
        # and stays live: the next reveal arrives too
        reveal(a, gid, host, 12, (2, 2, 2))
        evs = s2.events(lambda e: last + 1 in _versions(e))
        assert _versions(evs) == [last + 1], evs
        s2.close()


def test_sigterm_with_open_streams_exits_cleanly():
    """Graceful stop with live streams open: SIGTERM ends every stream (suspended
    connections are resumed first, as libmicrohttpd requires) and the server exits 0."""
    import signal
    s = Server(database=make_database("er_live_stop")).start()
    try:
        g = create(s, 2, deck="app")
        streams = [Stream(s, g["id"], token=g["host_token"]) for _ in range(3)]
        for st in streams:
            assert st.status == 200
            st.events(lambda evs: any(e.get("event") == "hello" for e in evs))
        t0 = time.time()
        rc = s.stop(signal.SIGTERM, timeout=10)
        assert rc == 0, (rc, s.output()[-2000:])
        # A suspended stream that was not resumed would hold the drain for its full 10 s
        # (or abort libmicrohttpd): a prompt exit 0 means every stream was ended.
        assert time.time() - t0 < 8, "stop waited for the streams to time out"
    finally:
        s.__exit__(None, None, None)


def _ends(stream, timeout=5.0):
    """Reads stream until the server ends it (True), failing after timeout seconds."""
    end = time.time() + timeout
    while True:
        left = end - time.time()
        assert left > 0, "the stream is still open"
        stream.c.sock.settimeout(left)
        try:
            chunk = stream.r.read1(4096)
        except (socket.timeout, TimeoutError):
            raise AssertionError("the stream is still open")
        except (http.client.HTTPException, OSError):
            chunk = b""
        if not chunk:
            return True


def test_replaced_tokens_streams_end_on_every_server():
    """A seat taken over by another phone (join with "replace") and a display link made anew
    end the replaced token's open streams on both servers; its reconnect is told why (401
    seat-replaced / display-replaced), the new tokens stream, and the streams of the other
    tokens of the game stay open."""
    db = make_database("h_er_live_replaced")
    with Server(database=db) as a, Server(database=db) as b:
        g = create(a, 3, deck="table")
        gid, host, toks, code = g["id"], g["host_token"], tokens(g), g["code"]
        st, _, d = a.json("POST", f"{GAMES}/{gid}/display", token=host)
        assert st == 200, d
        old_display = d["display_token"]
        old = [Stream(a, gid, toks[2]), Stream(b, gid, toks[2], query_token=True)]
        old_screen = Stream(b, gid, old_display, query_token=True)
        others = [Stream(a, gid, host), Stream(b, gid, toks[3])]
        for x in old + [old_screen] + others:
            assert x.status == 200, x.status
            x.events(lambda e: len(e) >= 1)
        # seat 2 is claimed (its token streamed): another phone takes it over on server B
        st, hd, obj = b.json("POST", "/api/v1/join", {"code": code, "seat": 2})
        problem(st, hd, obj, 409, rule="seat-claimed")
        st, _, j = b.json("POST", "/api/v1/join", {"code": code, "seat": 2, "replace": True})
        assert st == 200 and j["seat"] == 2, j
        for x in old:
            assert _ends(x)
            x.close()
        for srv in (a, b):
            st, hd, obj = srv.json("GET", f"{GAMES}/{gid}/events?token={toks[2]}")
            problem(st, hd, obj, 401, rule="seat-replaced")
        # the new phone's stream works, and so do the streams of the other tokens
        fresh = Stream(a, gid, j["seat_token"])
        assert fresh.status == 200
        fresh.events(lambda e: len(e) >= 1)
        reveal(b, gid, host, 10, (3, 4, 5))
        for x in [fresh, old_screen] + others:
            x.events(lambda e: 1 in _versions(e))
        # a new display link ends the old screen's stream (opened on the other server)
        st, _, d = a.json("POST", f"{GAMES}/{gid}/display", token=host)
        assert st == 200, d
        assert _ends(old_screen)
        old_screen.close()
        st, hd, obj = b.json("GET", f"{GAMES}/{gid}/events?token={old_display}")
        problem(st, hd, obj, 401, rule="display-replaced")
        screen = Stream(b, gid, d["display_token"], query_token=True)
        assert screen.status == 200
        cur = state(a, gid, host)
        a.json("POST", f"{GAMES}/{gid}/seats/1/moves",
               {"turn": 1, "move": first_option_move(a, cur, 1)}, token=toks[1])
        for x in [fresh, screen] + others:
            x.events(lambda e: 2 in _versions(e))
            x.close()
