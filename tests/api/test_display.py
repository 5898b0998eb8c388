"""The display token (src/engine/README.md "Tokens"; api.md "Auth at the table"): the host asks
for a read-only token for a screen in the middle of the table (POST …/games/{id}/display) for
every kind of game. With it a screen reads the game and its log and follows the event stream;
every request that is not a read — each route `server routes` lists with another method than
GET, so a route added later is covered without touching this file — answers 403
display-read-only and changes nothing. The display is no player: no seat is claimed, the join
list is as it was, the state has no "you" and no join code. Only the token's hash is stored; a
new display token replaces the previous one, which then gets 401 display-replaced."""
import hashlib, os, re, subprocess

from harness import ROOT, SERVER_BIN, Server, make_database, problem
from games import first_option_move
from test_er_live import Stream

KINDS = ("er", "dh", "clinic")
PLAYERS = {"players": [{"name": "Ann"}, {"name": "Bob"}]}  # a create body every kind takes


def _db(name="h_display"):
    return make_database(name)


def _create(s, kind):
    st, _, g = s.json("POST", f"/api/v1/{kind}/games", PLAYERS)
    assert st == 201, (kind, st, g)
    return g


def _display(s, kind, gid, token, expect=200):
    st, hd, obj = s.json("POST", f"/api/v1/{kind}/games/{gid}/display", token=token)
    assert st == expect, (kind, st, obj)
    return st, hd, obj


def _get(s, kind, gid, token):
    return s.json("GET", f"/api/v1/{kind}/games/{gid}", token=token)


def _round1(kind):
    """A first round every seat enters (Dice Hospital, Clinic)."""
    if kind == "dh":
        return {"entries": [{"seat": n, "discharged": {"red": 1, "yellow": 0, "green": 0},
                             "wards_empty": False} for n in (1, 2)]}
    return {"entries": [{"seat": n, "popularity_bought": 0, "lab_doctors": 0, "deaths": 0,
                         "unpaid_expenses": 0, "time_spent": 0} for n in (1, 2)]}


def _write(s, kind, g):
    """One accepted write by the host: ER reveals turn 1, the others save round 1."""
    gid, host = g["id"], g["host_token"]
    if kind == "er":
        st, _, obj = s.json("POST", f"/api/v1/er/games/{gid}/turns", {"turn": 1}, token=host)
    else:
        st, _, obj = s.json("PUT", f"/api/v1/{kind}/games/{gid}/rounds/1", _round1(kind),
                            token=host)
    assert st == 200, (kind, st, obj)
    return obj


def test_display_token_reads_and_streams_every_kind():
    with Server(database=_db()) as s:
        for kind in KINDS:
            g = _create(s, kind)
            gid = g["id"]
            _, _, d = _display(s, kind, gid, g["host_token"])
            tok = d["display_token"]
            assert tok.startswith("display.") and len(tok) == len("display.") + 43, d
            assert d["url"] == f"/display.html#kind={kind}&game={gid}&token={tok}", d
            st, _, cur = _get(s, kind, gid, tok)
            assert st == 200 and cur["id"] == gid and cur["kind"] == kind, (st, cur)
            # no seat, and not the join code (a phone with the code could take a seat)
            assert "you" not in cur and "code" not in cur, cur
            st, _, host_view = _get(s, kind, gid, g["host_token"])
            assert host_view["code"] == g["code"], host_view
            # the event stream, with the token in the URL as EventSource sends it
            stream = Stream(s, gid, tok, query_token=True, games=f"/api/v1/{kind}/games")
            assert stream.status == 200, stream.status
            assert stream.headers["content-type"].startswith("text/event-stream")
            hello = stream.events(lambda e: len(e) >= 1)
            assert hello[0]["event"] == "hello" and hello[0]["data"]["version"] == 0, hello
            _write(s, kind, g)
            evs = stream.events(lambda e: any(x.get("id") == "1" for x in e))
            assert [e for e in evs if e.get("id") == "1"][0]["data"]["version"] == 1, evs
            stream.close()
            st, _, lg = s.json("GET", f"/api/v1/{kind}/games/{gid}/log", token=tok)
            assert st == 200 and lg["version"] == 1, (st, lg)
            # and a reconnection resumes after the last event it saw (Last-Event-ID)
            again = Stream(s, gid, tok, last_id=0, games=f"/api/v1/{kind}/games")
            evs = again.events(lambda e: any(x.get("id") == "1" for x in e))
            assert evs[0]["id"] == "1", evs
            again.close()


def _routes():
    out = subprocess.run([os.path.join(ROOT, SERVER_BIN), "routes"], check=True,
                         capture_output=True, text=True).stdout
    return [tuple(line.split(" ", 1)) for line in out.splitlines()]


def _path(pattern, games):
    """A concrete path for a route pattern: a game of the route's kind, seat/turn/round 1, the
    join code of that game, and a made-up id for everything else."""
    m = re.match(r"^/api/v1/([a-z]+)/games/\{", pattern)
    g = games[m.group(1)] if m and m.group(1) in games else games["er"]

    def value(name):
        if name == "id" and m:
            return g["id"]
        if name in ("seat", "turn", "n"):
            return "1"
        if name == "code":
            return g["code"]
        return "x" * 24

    return re.sub(r"\{([^}/]+)\}", lambda x: value(x.group(1)), pattern)


def test_every_mutation_route_refuses_the_display_token():
    with Server(database=_db()) as s:
        games = {k: _create(s, k) for k in KINDS}
        displays = {k: _display(s, k, g["id"], g["host_token"])[2]["display_token"]
                    for k, g in games.items()}
        # ER's turn 1 is flipped, so a move is a write the host could make now
        _write(s, "er", games["er"])
        writes = [(m, p) for m, p in _routes() if m not in ("GET", "HEAD")]
        # every kind's moves, rounds, finish, display; joining; the rest of the API
        for want in ("POST /api/v1/er/games/{id}/seats/{seat}/moves",
                     "DELETE /api/v1/er/games/{id}/seats/{seat}/moves/{turn}",
                     "POST /api/v1/er/games/{id}/turns", "PUT /api/v1/dh/games/{id}/rounds/{n}",
                     "POST /api/v1/clinic/games/{id}/finish", "POST /api/v1/join",
                     "POST /api/v1/dh/games/{id}/display", "POST /api/v1/clinic/games"):
            assert tuple(want.split(" ", 1)) in writes, (want, writes)
        before = {k: _get(s, k, g["id"], g["host_token"])[2] for k, g in games.items()}
        er = games["er"]
        move = {"turn": 1, "move": first_option_move(s, before["er"], 1)}
        for method, pattern in writes:
            m = re.match(r"^/api/v1/([a-z]+)/", pattern)
            kind = m.group(1) if m and m.group(1) in games else "er"
            path = _path(pattern, games)
            body = {}  # what each route takes, where it matters to the host
            if method == "DELETE":
                body = None
            elif pattern.endswith("/moves"):
                body = move
            elif "/rounds/" in pattern:
                body = _round1(kind)
            elif pattern == "/api/v1/join":
                body = {"code": er["code"], "seat": 1, "replace": True}
            # the display token as the bearer token, and in the URL
            st, hd, obj = s.json(method, path, body, token=displays[kind])
            problem(st, hd, obj, 403, rule="display-read-only")
            st, hd, obj = s.json(method, f"{path}?token={displays[kind]}", body)
            problem(st, hd, obj, 403, rule="display-read-only")
        # nothing changed: versions, the seats' claims, the display still reads
        for k, g in games.items():
            st, _, now = _get(s, k, g["id"], displays[k])
            assert st == 200 and now["version"] == before[k]["version"], (k, now["version"])
            st, _, seats = s.json("GET", f"/api/v1/join/{g['code']}")
            assert not any(x["claimed"] for x in seats["seats"]), seats
        # the same requests with the host token are not refused as a display's: the 403 above
        # is the display token's, not the request's
        st, _, obj = s.json("POST", f"/api/v1/er/games/{er['id']}/seats/1/moves", move,
                            token=er["host_token"])
        assert st == 200 and obj["version"] == before["er"]["version"] + 1, (st, obj)
        for k in ("dh", "clinic"):
            st, _, obj = s.json("PUT", f"/api/v1/{k}/games/{games[k]['id']}/rounds/1",
                                _round1(k), token=games[k]["host_token"])
            assert st == 200, (k, st, obj)


def test_display_is_no_player():
    with Server(database=_db()) as s:
        g = _create(s, "er")
        gid, code = g["id"], g["code"]
        tok = _display(s, "er", gid, g["host_token"])[2]["display_token"]
        st, _, before = s.json("GET", f"/api/v1/join/{code}")
        assert [x["claimed"] for x in before["seats"]] == [False, False], before
        # the display reads, reads the log, follows the stream
        for _ in range(3):
            st, _, cur = _get(s, "er", gid, tok)
            assert st == 200 and "you" not in cur, cur
        stream = Stream(s, gid, tok, query_token=True)
        stream.events(lambda e: len(e) >= 1)
        st, _, after = s.json("GET", f"/api/v1/join/{code}")
        assert after == before, (before, after)
        stream.close()
        # a seat's phone, by contrast, is a player once it reads: its seat is claimed
        st, _, cur = _get(s, "er", gid, g["seats"][1]["seat_token"])
        assert cur["you"] == 2, cur
        st, _, claimed = s.json("GET", f"/api/v1/join/{code}")
        assert [x["claimed"] for x in claimed["seats"]] == [False, True], claimed
        # and joining seat 1 now needs no "replace": the display holds no seat
        st, _, j = s.json("POST", "/api/v1/join", {"code": code, "seat": 1})
        assert st == 200 and j["seat"] == 1, (st, j)


def test_display_token_only_the_host_and_replacing():
    with Server(database=_db()) as s:
        g = _create(s, "clinic")
        gid, host = g["id"], g["host_token"]
        path = f"/api/v1/clinic/games/{gid}/display"
        st, hd, obj = s.json("POST", path)
        problem(st, hd, obj, 401)
        assert hd.get("www-authenticate", "").startswith("Bearer"), hd
        st, hd, obj = s.json("POST", path, token=g["seats"][0]["seat_token"])
        problem(st, hd, obj, 403, rule="host-only")
        st, hd, obj = s.json("POST", f"/api/v1/clinic/games/{'0' * 24}/display", token=host)
        problem(st, hd, obj, 404)
        # another kind's path does not find this game
        st, hd, obj = s.json("POST", f"/api/v1/dh/games/{gid}/display", token=host)
        problem(st, hd, obj, 404)
        first = _display(s, "clinic", gid, host)[2]["display_token"]
        assert _get(s, "clinic", gid, first)[0] == 200
        second = _display(s, "clinic", gid, host)[2]["display_token"]
        assert second != first
        # the first screen is told why it stopped, the second reads
        st, hd, obj = _get(s, "clinic", gid, first)
        problem(st, hd, obj, 401, rule="display-replaced")
        st, hd, obj = s.json("GET", f"/api/v1/clinic/games/{gid}/events?token={first}")
        problem(st, hd, obj, 401, rule="display-replaced")
        assert _get(s, "clinic", gid, second)[0] == 200
        # a display token of another game reads nothing here
        other = _create(s, "clinic")
        theirs = _display(s, "clinic", other["id"], other["host_token"])[2]["display_token"]
        st, hd, obj = _get(s, "clinic", gid, theirs)
        problem(st, hd, obj, 401)


def test_display_token_stored_as_its_hash_only():
    db = _db("h_display_hash")
    with Server(database=db) as s:
        g = _create(s, "dh")
        old = _display(s, "dh", g["id"], g["host_token"])[2]["display_token"]
        tok = _display(s, "dh", g["id"], g["host_token"])[2]["display_token"]
        assert _get(s, "dh", g["id"], tok)[0] == 200
    dbname = db.split("=", 1)[1]
    stored = subprocess.run(["psql", "-At", "-X", "-d", dbname, "-c",
                             f"SELECT encode(display_token_hash, 'hex') FROM games "
                             f"WHERE id = '{g['id']}'"],
                            check=True, capture_output=True, text=True).stdout.strip()
    assert stored == hashlib.blake2b(tok.encode(), digest_size=32).hexdigest(), stored
    replaced = subprocess.run(["psql", "-At", "-X", "-d", dbname, "-c",
                               "SELECT encode(token_hash, 'hex'), seat FROM replaced_tokens"],
                              check=True, capture_output=True, text=True).stdout.split()
    assert f"{hashlib.blake2b(old.encode(), digest_size=32).hexdigest()}|0" in replaced
    # neither token, nor its random part, is anywhere in the database
    dump = subprocess.run(["pg_dump", "--data-only", "-d", dbname], check=True,
                          capture_output=True, text=True).stdout
    for t in (tok, old):
        assert t[len("display."):] not in dump, "a display token is stored in clear"
