"""Kept standings (migrations/0016_league_scopes.sql): every change of a league's plays rewrites
the standings of the whole league, each season, each game and each season's game in the same
transaction, and a standings read takes them from there. Checked on the real BG Stats export
(tests/api/data/bgstats-real/) against the same standings computed from the plays, which the
server does for a scope it does not keep (the league's kept state removed by hand here)."""
import json, os, subprocess, urllib.parse

from harness import Server, make_database
from league_util import user

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "bgstats-real", "michaelgao8-2021.json")
DB = "h_league_scopes"


def _sql(query, *args):
    """Runs query on the test's database (psql variables :'a0', :'a1'…): its rows."""
    cmd = ["psql", "-XAtq", "-F", "\x1f", "-v", "ON_ERROR_STOP=1", "-d", DB]
    for i, a in enumerate(args):
        cmd += ["-v", f"a{i}={a}"]
    out = subprocess.run(cmd, input=query, check=True, capture_output=True, text=True).stdout
    return [line.split("\x1f") for line in out.split("\n")[:-1]]  # a row may be one empty text


def _league(c):
    st, hd, lg = c.post("/api/v1/leagues", {"name": "Real"})
    assert st == 201, lg
    lid = lg["id"]
    doc = json.load(open(REAL, encoding="utf-8"))
    st, hd, o = c.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats", json.dumps(doc),
                       raw=True, headers={"Content-Type": "application/json"})
    assert st == 200 and o["imported"] == len(doc["plays"]), (st, o)
    return lid


def _season(c, lid, name, starts, ends):
    st, hd, o = c.post(f"/api/v1/leagues/{lid}/seasons",
                       {"name": name, "starts": starts, "ends": ends})
    assert st == 201, o
    return o["id"]


def _queries(c, lid, seasons):
    st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
    assert st == 200, lg
    games = list(lg["games"])
    assert len(games) >= 10, games
    games = [urllib.parse.quote(g) for g in games]
    qs = [""] + [f"season={s}" for s in seasons] + [f"game={g}" for g in games]
    qs += [f"season={s}&game={g}" for s in seasons for g in games]
    return qs


def _standings(c, lid, qs):
    out = {}
    for q in qs:
        st, hd, o = c.get(f"/api/v1/leagues/{lid}/standings?{q}")
        assert st == 200, (q, o)
        out[q] = o
    return out


def _pictures(c, lid, qs, seasons, player):
    """The league's pictures, a player's page and the season recaps for the queries."""
    out = {}
    for q in qs:
        for path in (f"/api/v1/leagues/{lid}/stats?{q}",
                     f"/api/v1/leagues/{lid}/players/{player}/stats?{q}"):
            st, hd, o = c.get(path)
            assert st == 200, (path, o)
            out[path] = o
    for sid in seasons:
        path = f"/api/v1/leagues/{lid}/seasons/{sid}/recap"
        st, hd, o = c.get(path)
        assert st == 200, (path, o)
        out[path] = o
    return out


def _bump(c, lid, n):
    """A change that is not a play (a new guest): the league's version moves, so no reply is
    taken from the per-process cache, and the kept standings stay as they are."""
    st, hd, o = c.post(f"/api/v1/leagues/{lid}/members", {"name": f"Guest {n}"})
    assert st == 201, o


def test_kept_standings_equal_standings_computed_from_the_plays():
    with Server(database=make_database(DB)) as s:
        c = user(s, "scopes@example.org", "Scopes")
        lid = _league(c)
        s1 = _season(c, lid, "Winter", "2020-12-01", "2021-02-28")
        s2 = _season(c, lid, "Spring", "2021-03-01", "2021-05-31")
        s3 = _season(c, lid, "All of it", "2020-01-01", "2021-12-31")  # overlaps both
        # the seasons came after the import's recompute: not kept yet
        kept = _sql("SELECT seasons FROM league_scope_state WHERE league_id = :'a0'", lid)
        assert kept == [["{}"]], kept
        # a play by hand recomputes: now every scope is kept
        st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
        ids = [m["id"] for m in lg["members"][:3]]
        st, hd, p = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2021-04-01",
            "results": [{"player": ids[0], "score": 50}, {"player": ids[1], "score": 61},
                        {"player": ids[2], "score": 40}]})
        assert st == 201, p
        (state,) = _sql("SELECT seasons FROM league_scope_state WHERE league_id = :'a0'", lid)
        assert sorted(state[0].strip("{}").split(",")) == sorted([s1, s2, s3]), state
        scopes = {r[0] for r in _sql("SELECT DISTINCT scope FROM league_scopes "
                                     "WHERE league_id = :'a0'", lid)}
        assert "" in scopes and f"s:{s1}" in scopes and f"s:{s3}" in scopes, scopes
        assert any(x.startswith("g:") for x in scopes), scopes
        assert any(x.startswith(f"s:{s2}|g:") for x in scopes), scopes

        qs = _queries(c, lid, [s1, s2, s3])
        kept = _standings(c, lid, qs)
        player = kept[""]["standings"][0]["player"]
        pq = [q for q in qs if "season=" in q or "game=" in q][::3]
        pics = _pictures(c, lid, pq, [s1, s2, s3], player)
        lines = _sql("SELECT count(*) FROM league_scope_lines WHERE league_id = :'a0'", lid)
        assert int(lines[0][0]) == len(scopes) - 1, (lines, len(scopes))  # all but the league's
        # the same standings and pictures computed from the plays: the kept state removed
        _sql("DELETE FROM league_scope_state WHERE league_id = :'a0'", lid)
        _bump(c, lid, 1)
        computed = _standings(c, lid, qs)
        for q in qs:
            assert kept[q] == computed[q], (q, kept[q], computed[q])
        pics_computed = _pictures(c, lid, pq, [s1, s2, s3], player)
        for path in pics:
            assert pics[path] == pics_computed[path], path
        assert any(len(kept[q]["standings"]) >= 2 for q in qs if "season=" in q and "game=" in q)
        assert len(kept[""]["standings"]) >= 10

        # a season added after the last recompute is computed until the next change …
        s4 = _season(c, lid, "April", "2021-04-01", "2021-04-30")
        st, hd, p2 = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2021-04-02",
            "results": [{"player": ids[1], "score": 70}, {"player": ids[2], "score": 20}]})
        assert st == 201, p2
        rows = _sql("SELECT count(*) FROM league_scopes WHERE league_id = :'a0' AND scope = :'a1'",
                    lid, f"s:{s4}")
        assert rows == [["2"]] or int(rows[0][0]) >= 2, rows
        april = _standings(c, lid, [f"season={s4}", f"season={s4}&game=Azul"])
        _sql("DELETE FROM league_scope_state WHERE league_id = :'a0'", lid)
        _bump(c, lid, 2)
        assert _standings(c, lid, list(april)) == april

        # … and an edit of an old play rewrites every scope in its transaction
        first = kept[""]["standings"][0]
        st, hd, o = c.delete(f"/api/v1/leagues/{lid}/plays/{p['id']}")
        assert st == 204, o
        after = _standings(c, lid, qs)
        _sql("DELETE FROM league_scope_state WHERE league_id = :'a0'", lid)
        _bump(c, lid, 3)
        assert _standings(c, lid, qs) == after
        assert after[""]["standings"] != kept[""]["standings"] or first["games"] >= 1


def test_a_game_filter_naming_no_game_is_empty_and_a_league_without_plays_too():
    with Server(database=make_database(DB)) as s:
        c = user(s, "empty@example.org", "Empty")
        st, hd, lg = c.post("/api/v1/leagues", {"name": "Empty"})
        lid = lg["id"]
        st, hd, o = c.get(f"/api/v1/leagues/{lid}/standings")
        assert st == 200 and o["standings"] == [], o
        st, hd, m = c.post(f"/api/v1/leagues/{lid}/members", {"name": "Bea"})
        st, hd, p = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2021-04-01",
            "results": [{"player": lg["members"][0]["id"], "score": 50},
                        {"player": m["id"], "score": 61}]})
        assert st == 201, p
        st, hd, o = c.get(f"/api/v1/leagues/{lid}/standings?game=Chess")
        assert st == 200 and o["standings"] == [] and o["game"] == "Chess", o
        st, hd, o = c.get(f"/api/v1/leagues/{lid}/standings?game=azul")
        assert [r["name"] for r in o["standings"]] == ["Bea", "Empty"], o
        # deleting the only play leaves every scope empty
        st, hd, o = c.delete(f"/api/v1/leagues/{lid}/plays/{p['id']}")
        assert st == 204
        assert _sql("SELECT count(*) FROM league_scopes WHERE league_id = :'a0'", lid) == [["0"]]
        st, hd, o = c.get(f"/api/v1/leagues/{lid}/standings")
        assert o["standings"] == [], o


def test_phones_opening_the_league_at_once_after_a_play_get_one_answer():
    """Many requests for the same pictures right after a change: one computes, the others wait
    for its reply (standings.c, the single computation of a missed reply); all get the same."""
    import threading
    with Server(database=make_database(DB)) as s:
        c = user(s, "burst@example.org", "Burst")
        lid = _league(c)
        st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
        ids = [m["id"] for m in lg["members"][:2]]
        st, hd, p = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2021-04-01",
            "results": [{"player": ids[0], "score": 50}, {"player": ids[1], "score": 61}]})
        assert st == 201, p
        paths = [f"/api/v1/leagues/{lid}/stats", f"/api/v1/leagues/{lid}/standings",
                 f"/api/v1/leagues/{lid}/stats?game=Azul"]
        got, errors = {}, []

        def fetch(k):
            try:
                path = paths[k % len(paths)]
                st, hd, o = c.get(path)
                got.setdefault(path, []).append((st, json.dumps(o, sort_keys=True)))
            except Exception as e:  # noqa: BLE001 — reported below
                errors.append(repr(e))

        threads = [threading.Thread(target=fetch, args=(k,)) for k in range(24)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        for path, answers in got.items():
            assert len(answers) == 8 and {a[0] for a in answers} == {200}, (path, answers[:1])
            assert len({a[1] for a in answers}) == 1, path


def test_plays_added_after_the_last_are_rated_from_the_kept_state():
    """A play recorded after every other (the usual case: the game just played) is rated from
    its players' kept standings in its scopes only (scopes.c scopes_append); the other
    scopes' rows are left where they are. The result equals rating the whole league again."""
    with Server(database=make_database(DB)) as s:
        c = user(s, "append@example.org", "Append")
        lid = _league(c)
        s1 = _season(c, lid, "Spring", "2021-03-01", "2021-05-31")
        s2 = _season(c, lid, "Summer on", "2021-05-01", "2021-12-31")
        st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
        ids = [m["id"] for m in lg["members"]]
        st, hd, g = c.post(f"/api/v1/leagues/{lid}/members", {"name": "Newcomer"})
        new = g["id"]

        def add(date, game, results, **kw):
            st, hd, p = c.post(f"/api/v1/leagues/{lid}/plays",
                               {"game": game, "date": date, "results": results, **kw})
            assert st == 201, p
            return p

        # in the middle: the whole league is rated again, and the seasons are kept from now on
        add("2021-04-01", "Azul", [{"player": ids[0], "score": 50}, {"player": ids[1], "score": 61}])

        def ctids(scope):
            return _sql("SELECT member_id, ctid FROM league_scopes WHERE league_id = :'a0' "
                        "AND scope = :'a1' ORDER BY member_id", lid, scope)

        other = [r[0] for r in _sql("SELECT DISTINCT scope FROM league_scopes WHERE league_id = "
                                    ":'a0' AND scope LIKE 'g:bgg:%' ORDER BY 1", lid)][0]
        before = ctids(other)
        add("2021-06-01", "Azul", [{"player": ids[0], "score": 40}, {"player": ids[1], "score": 40},
                                   {"player": new, "score": 55}])
        assert ctids(other) == before, "a play of another game left this game's rows alone"
        add("2021-06-02", "Azul", [{"player": ids[2], "winner": True}, {"player": new}],
            cooperative=True)
        add("2021-06-03", "Azul", [{"player": new, "score": 70}])  # solo: not rated
        add("2021-06-04", "Azul", [{"player": ids[1], "score": 30}, {"player": ids[2], "score": 35},
                                   {"player": ids[0], "score": 35}, {"player": new, "score": 1}])
        assert ctids(other) == before

        qs = _queries(c, lid, [s1, s2])
        kept = _standings(c, lid, qs)
        pq = [q for q in qs if "Azul" in q or q == f"season={s2}"]
        pics = _pictures(c, lid, pq, [s1, s2], new)
        history = c.get(f"/api/v1/players/{new}/history")[2]
        state = _sql("SELECT seasons FROM league_scope_state WHERE league_id = :'a0'", lid)
        _sql("DELETE FROM league_scope_state WHERE league_id = :'a0'", lid)
        _bump(c, lid, 1)
        assert _standings(c, lid, qs) == kept
        assert _pictures(c, lid, pq, [s1, s2], new) == pics
        _sql("INSERT INTO league_scope_state VALUES (:'a0', :'a1')", lid, state[0][0])
        # a game the league never had: a new key, so every scope is rated again
        add("2021-06-05", "Brand new game", [{"player": ids[0], "score": 3},
                                             {"player": new, "score": 4}])
        assert ctids(other) != before
        kept = _standings(c, lid, qs)
        fast = history["history"]
        history = c.get(f"/api/v1/players/{new}/history")[2]
        assert history["history"][:len(fast)] == fast, "the ratings stored by the play added last"
        # the whole league rated again by a change of an old play: nothing moves
        st, hd, pl = c.get(f"/api/v1/leagues/{lid}/plays?limit=1&offset=2")
        st, hd, full = c.get(f"/api/v1/leagues/{lid}/plays/{pl['plays'][0]['id']}")
        st, hd, o = c.put(f"/api/v1/leagues/{lid}/plays/{full['id']}", {
            "game": full["game"], "date": full["date"],
            "results": [{"player": r["player"], "score": r["score"], "winner": r["winner"]}
                        for r in full["results"]]})
        assert st == 200, o
        assert c.get(f"/api/v1/players/{new}/history")[2]["history"] == history["history"]
        assert _standings(c, lid, qs) == kept


def test_league_reads_come_gzip_compressed_to_phones_that_take_it():
    """A league read kept in the cache goes compressed to a client whose Accept-Encoding takes
    gzip (every phone's browser): the same JSON, its own ETag, Vary: Accept-Encoding, and a 304
    for either tag."""
    import gzip
    with Server(database=make_database(DB)) as s:
        c = user(s, "gzip@example.org", "Gzip")
        lid = _league(c)
        for path in (f"/api/v1/leagues/{lid}/stats", f"/api/v1/leagues/{lid}/standings"):
            st, hd, plain = c.get(path)  # computes it (and keeps both forms)
            assert st == 200 and "content-encoding" not in hd, hd
            assert hd["vary"] == "Accept-Encoding", hd
            st, hz, body = s.request("GET", path, headers={
                "Cookie": f"dh_session={c.cookie}", "Accept-Encoding": "br, gzip;q=0.8"})
            assert st == 200 and hz["content-encoding"] == "gzip", hz
            assert hz["vary"] == "Accept-Encoding"
            assert json.loads(gzip.decompress(body)) == plain
            assert len(body) < len(json.dumps(plain)) / 3, (len(body), path)
            assert hz["etag"] == hd["etag"][:-1] + '-gz"', (hz["etag"], hd["etag"])
            for tag, enc in ((hd["etag"], None), (hz["etag"], "gzip")):
                st, h3, _ = s.request("GET", path, headers={
                    "Cookie": f"dh_session={c.cookie}", "If-None-Match": tag,
                    "Accept-Encoding": enc or "identity"})
                assert st == 304 and h3["etag"] == tag, (st, h3)
            # gzip refused (q=0): the plain form
            st, hp, body = s.request("GET", path, headers={
                "Cookie": f"dh_session={c.cookie}", "Accept-Encoding": "gzip;q=0"})
            assert st == 200 and "content-encoding" not in hp and json.loads(body) == plain
