"""BG Stats exports as users' apps wrote them (tests/api/data/bgstats-real/, see its README):
every play is imported or skipped with a stable reason, a second import skips them all as
duplicates, co-operative winner flags stand, ignored plays stay out of the standings, and the
export writes back what the file said, field by field. The shapes the real files were seen to
carry that the stored file lacks (sums as scores, the anonymous player twice in a play, ranks
for some players only…) are in _shapes(), one play each, written here and named as such."""
import json, os, re

from harness import Server, make_database
from league_util import user

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "bgstats-real")
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
REASONS = {"duplicate", "malformed", "no-uuid", "no-date", "no-game", "no-players",
           "too-many-players", "unranked"}


def _db():
    return make_database("h_bgstats_real")


def _real_files():
    names = sorted(n for n in os.listdir(REAL) if n.endswith(".json"))
    assert names, "no real export stored"
    return [(n, json.load(open(os.path.join(REAL, n), encoding="utf-8"))) for n in names]


def _import(c, lid, doc):
    body = doc if isinstance(doc, (bytes, str)) else json.dumps(doc)
    return c.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats", body, raw=True,
                  headers={"Content-Type": "application/json"})


def _new_league(c, name="Club"):
    st, hd, lg = c.post("/api/v1/leagues", {"name": name})
    assert st == 201, (st, lg)
    return lg["id"]


def _play_list(c, lid):
    """Every play of the league, following the list's Link rel="next" pages."""
    url, items = f"/api/v1/leagues/{lid}/plays?limit=500", []
    for _ in range(100):
        st, hd, o = c.get(url)
        assert st == 200, (url, st, o)
        items += o["plays"]
        m = re.fullmatch(r'<([^>]*)>; rel="next"', hd.get("link", ""))
        if m is None:
            assert len(items) == o["total"], (len(items), o["total"])
            return items
        url = m.group(1)
    raise AssertionError("more than 100 pages of plays")


def _plays(c, lid):
    out = {}
    for p in _play_list(c, lid):
        st, hd, full = c.get(f"/api/v1/leagues/{lid}/plays/{p['id']}")
        assert st == 200, full
        out[full["uuid"]] = full
    return out


def _accounts_for_every_play(o, n):
    assert o["imported"] + o["skipped"] == n, o
    assert len(o["skipped_plays"]) == o["skipped"], o
    assert [k["index"] for k in o["skipped_plays"]] == sorted(k["index"] for k in o["skipped_plays"])
    assert all(k["reason"] in REASONS and k["detail"] for k in o["skipped_plays"]), o


def test_real_exports_import_whole_then_as_duplicates():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for name, doc in _real_files():
            lid = _new_league(ann, name[:60])
            st, hd, o = _import(ann, lid, doc)
            assert st == 200, (name, st, o)
            _accounts_for_every_play(o, len(doc["plays"]))
            assert o["imported"] == len(doc["plays"]), (name, o)
            st, hd, o = _import(ann, lid, doc)
            assert st == 200 and o["imported"] == 0, (name, o)
            _accounts_for_every_play(o, len(doc["plays"]))
            assert {k["reason"] for k in o["skipped_plays"]} == {"duplicate"}, o
            plays = _plays(ann, lid)
            assert len(plays) == len(doc["plays"])
            for p in doc["plays"]:
                got = plays[p["uuid"]]
                assert got["ignored"] == p.get("ignored", False), got
                assert got["bgg_play_id"] == (p.get("bggId") or None), got


def test_real_cooperative_winner_flags_stand():
    """Every play's winner flags stand; Betrayal at House on the Hill (cooperative: true, a
    traitor's team): three of six win."""
    doc = dict(_real_files())["michaelgao8-2021.json"]
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _new_league(ann)
        st, hd, o = _import(ann, lid, doc)
        assert st == 200, o
        # as the league shows them: without the spaces around a name ("Jay ")
        names = {p["id"]: " ".join(p["name"].split()) for p in doc["players"]}
        plays = _plays(ann, lid)
        for src in doc["plays"]:
            got = plays[src["uuid"]]
            want = [(names[x["playerRefId"]], x["winner"]) for x in src["playerScores"]]
            assert [(r["name"], r["winner"]) for r in got["results"]] == want, (src["uuid"], got)
            # winners share rank 1 (ties, whole co-operative tables), no one else has it
            assert all((r["rank"] == 1) == r["winner"] for r in got["results"]), got
        betrayal = plays["fbe90b89-e419-4a54-8448-941e462ead37"]
        assert betrayal["cooperative"] and sum(r["winner"] for r in betrayal["results"]) == 3
        assert sorted(r["rank"] for r in betrayal["results"]) == [1, 1, 1, 2, 2, 2], betrayal


def _same(src, exp, src_doc, exp_doc, at):
    """Every member of the source object src is in exp with the same value; references to games,
    locations and players (ids local to each file) compare by the uuid they name."""
    refs = {"gameRefId": "games", "locationRefId": "locations", "playerRefId": "players"}
    for k, v in src.items():
        assert k in exp, f"{at}/{k} is not written back"
        if k in refs:
            uid = lambda doc, i: next(x["uuid"] for x in doc[refs[k]] if x["id"] == i)
            assert uid(src_doc, v) == uid(exp_doc, exp[k]), f"{at}/{k}"
        elif k == "playerScores":
            assert len(v) == len(exp[k]), at
            for i, (a, b) in enumerate(zip(v, exp[k])):
                _same(a, b, src_doc, exp_doc, f"{at}/{k}/{i}")
        elif k != "id":
            assert exp[k] == v, f"{at}/{k}: {exp[k]!r} != {v!r}"


def _compare_export(src_doc, exp_doc):
    byuuid = {p["uuid"]: p for p in exp_doc["plays"]}
    for i, p in enumerate(src_doc["plays"]):
        _same(p, byuuid[p["uuid"]], src_doc, exp_doc, f"/plays/{i}")
    for kind in ("games", "players", "locations"):
        exp = {x["uuid"]: x for x in exp_doc[kind]}
        for x in src_doc[kind]:
            if x["uuid"] in exp:
                _same(x, exp[x["uuid"]], src_doc, exp_doc, f"/{kind}/{x['id']}")


def test_real_export_round_trip_field_by_field():
    """A real export imported, then exported: every member of every play, seat, game, player and
    location is written back as it came, with its id: the export is the file."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for name, doc in _real_files():
            lid = _new_league(ann)
            st, hd, o = _import(ann, lid, doc)
            assert st == 200 and o["imported"] == len(doc["plays"]), o
            st, hd, e = ann.get(f"/api/v1/leagues/{lid}/export.json")
            assert st == 200, e
            _compare_export(doc, e)
            assert e == doc, f"{name}: the export is the file"


# One play per shape seen in real BG Stats exports (tests/api/data/bgstats-real/README.md),
# written here: the stored file does not carry them all.
def _shapes():
    g = lambda i, name, **kw: dict({"id": i, "uuid": f"00000000-0000-4000-8000-00000000000{i}",
                                    "name": name, "cooperative": False, "highestWins": True,
                                    "noPoints": False, "usesTeams": False, "bggId": 0}, **kw)
    players = [{"id": i, "uuid": f"10000000-0000-4000-8000-00000000000{i}", "name": n,
                "isAnonymous": n == "Anonymous player"}
               for i, n in enumerate(["Ann", "Bea", "Cid", "Anonymous player"], 1)]
    sc = lambda ref, score, winner, **kw: dict({"playerRefId": ref, "score": score,
                                                 "winner": winner, "newPlayer": False,
                                                 "startPlayer": False, "rank": 0,
                                                 "seatOrder": 0}, **kw)
    play = lambda n, game, scores, **kw: dict({
        "uuid": f"20000000-0000-4000-8000-0000000000{n:02d}", "playDate": f"2024-03-{n:02d} 20:00:00",
        "gameRefId": game, "durationMin": 30, "ignored": False, "manualWinner": False,
        "bggId": 0, "playerScores": scores}, **kw)
    games = [g(1, "Wingspan", bggId=266192), g(2, "Mysterium", cooperative=True),
             g(3, "Golf", highestWins=False)]
    plays = [
        play(1, 1, [sc(1, "20+16+16", False), sc(2, "-10+7+22", False), sc(3, "86+84+", True)]),
        play(2, 1, [sc(1, "40", True), sc(4, "31", False), sc(4, "35", False)]),
        play(3, 1, [sc(1, "12", False, rank=2), sc(2, "30", True), sc(3, "20", False)]),
        play(4, 2, [sc(1, "", True), sc(2, "", True), sc(3, "", False)]),
        play(5, 1, [sc(1, "50", True), sc(2, "10", False)], ignored=True),
        play(6, 1, [sc(1, "44", True), sc(2, "33", False)], bggId=81234567),
        play(7, 3, [sc(1, "lots", False), sc(2, "3", True)]),
        play(8, 9, [sc(1, "1", True)]),
        play(9, 1, [sc(1, "1", True), sc(7, "2", False)]),
        play(10, 1, [sc(1, "1", True)], playDate=""),
        play(11, 1, []),
        {k: v for k, v in play(12, 1, [sc(1, "1", True)]).items() if k != "uuid"},
        play(13, 1, [sc(1, "0.1", True), sc(2, "0.10", False)]),
    ]
    return {"games": games, "players": players, "locations": [], "plays": plays}


def test_shapes_of_real_files():
    doc = _shapes()
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _new_league(ann)
        st, hd, o = _import(ann, lid, doc)
        assert st == 200, o
        _accounts_for_every_play(o, len(doc["plays"]))
        assert [(k["index"], k["reason"]) for k in o["skipped_plays"]] == [
            (7, "no-game"), (8, "no-players"), (9, "no-date"), (10, "no-players"),
            (11, "no-uuid")], o
        plays = _plays(ann, lid)
        u = lambda n: f"20000000-0000-4000-8000-0000000000{n:02d}"
        res = lambda n: [(r["name"], r["score"], r["score_text"], r["rank"], r["winner"])
                         for r in plays[u(n)]["results"]]
        # sums typed as scores: their totals, what was typed kept
        assert res(1) == [("Ann", 52, "20+16+16", 1, False), ("Bea", 19, "-10+7+22", 3, False),
                          ("Cid", 170, "86+84+", 2, True)] or \
            res(1) == [("Ann", 52, "20+16+16", 2, False), ("Bea", 19, "-10+7+22", 3, False),
                       ("Cid", 170, "86+84+", 1, True)], res(1)
        # the anonymous player twice in one play: two seats, two members, neither rated
        assert [(n, sc) for n, sc, *_ in res(2)] == [("Ann", 40), ("Anonymous player", 31),
                                                     ("Anonymous player 2", 35)], res(2)
        assert all("rating_after" not in r for r in plays[u(2)]["results"][1:])
        # a rank for one player only: ignored, the scores rank
        assert [(n, rk, w) for n, _, _, rk, w in res(3)] == [("Ann", 3, False), ("Bea", 1, True),
                                                            ("Cid", 2, False)], res(3)
        # Mysterium: two of three win, as flagged; no scores at all ("")
        assert [(n, sc, w) for n, sc, _, _, w in res(4)] == [("Ann", None, True),
                                                            ("Bea", None, True),
                                                            ("Cid", None, False)], res(4)
        assert plays[u(4)]["cooperative"]
        assert plays[u(5)]["ignored"] and not plays[u(1)]["ignored"]
        assert plays[u(6)]["bgg_play_id"] == 81234567 and plays[u(6)]["bgg_id"] == 266192
        # words as a score: no score, the winner flag stands (Golf: lowest wins)
        assert [(n, sc, w) for n, sc, _, _, w in res(7)] == [("Ann", None, False),
                                                            ("Bea", 3, True)], res(7)
        assert res(13)[1][1:3] == (0.1, "0.10") and res(13)[0][1:3] == (0.1, None)
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        anon = [m for m in lg["members"] if m["name"].startswith("Anonymous")]
        assert len(anon) == 2, lg["members"]
        st, hd, stand = ann.get(f"/api/v1/leagues/{lid}/standings")
        assert not any(r["name"].startswith("Anonymous") for r in stand["standings"]), stand
        # the export writes the sums back as typed, the play id of BGG in plays[].bggId
        st, hd, e = ann.get(f"/api/v1/leagues/{lid}/export.json")
        ep = {p.get("uuid"): p for p in e["plays"]}
        assert [x["score"] for x in ep[u(1)]["playerScores"]] == ["20+16+16", "-10+7+22", "86+84+"]
        assert ep[u(6)]["bggId"] == 81234567 and ep[u(5)]["ignored"] is True
        assert [x["score"] for x in ep[u(7)]["playerScores"]] == ["lots", "3"]
        assert [x["score"] for x in ep[u(13)]["playerScores"]] == ["0.1", "0.10"]
        anon_ids = {x["playerRefId"] for x in ep[u(2)]["playerScores"][1:]}
        assert len(anon_ids) == 1, "both seats name BG Stats' one anonymous player"
        assert [p for p in e["players"] if p["id"] in anon_ids][0]["isAnonymous"] is True
        wing = [x for x in e["games"] if x["name"] == "Wingspan"][0]
        assert wing["bggId"] == 266192 and wing["uuid"] == doc["games"][0]["uuid"]
        golf = [x for x in e["games"] if x["name"] == "Golf"][0]
        assert golf["highestWins"] is False
        # the plays the league did not take are written back as the file had them
        assert e == doc


def test_standings_count_only_plays_not_ignored():
    doc = _shapes()
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _new_league(ann)
        st, hd, o = _import(ann, lid, doc)
        assert st == 200, o
        plays = _plays(ann, lid)
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        names = {m["id"]: m["name"] for m in lg["members"]}
        want = {}
        for p in plays.values():
            if not p["ignored"]:
                for r in p["results"]:
                    want[r["name"]] = want.get(r["name"], 0) + 1
        st, hd, stand = ann.get(f"/api/v1/leagues/{lid}/standings")
        got = {r["name"]: r["games"] for r in stand["standings"]}
        assert got == {n: k for n, k in want.items() if not n.startswith("Anonymous")}, (got, want)
        assert got["Ann"] == sum(1 for p in plays.values() if not p["ignored"])
        assert names


def test_our_export_imports_into_a_new_league_as_the_same_league():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _new_league(ann)
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        me = lg["members"][0]["id"]
        st, hd, bea = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Bea"})
        for day, (a, b) in enumerate([(12.5, 10), (0.1, 0.3), (7, 7)], 1):
            st, hd, o = ann.post(f"/api/v1/leagues/{lid}/plays", {
                "game": "Azul", "date": f"2025-12-0{day}T20:00:00Z", "location": "Home",
                "results": [{"player": me, "score": a}, {"player": bea["id"], "score": b}]})
            assert st == 201, o
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Hanabi", "cooperative": True, "date": "2025-12-05",
            "results": [{"player": me, "winner": True}, {"player": bea["id"], "winner": False}]})
        assert st == 201, o
        st, hd, o = _import(ann, lid, _shapes())
        assert st == 200, o
        st, hd, e1 = ann.get(f"/api/v1/leagues/{lid}/export.json")
        assert all(UUID.match(x["uuid"]) for k in ("plays", "players", "games", "locations")
                   for x in e1[k] if "uuid" in x), e1
        assert all("startPlayer" not in x for p in e1["plays"] for x in p["playerScores"]
                   if not p.get("uuid", "20000000").startswith("20000000")), "no invented start player"
        scores = [x["score"] for p in e1["plays"] if p["playDate"].startswith("2025-12-02")
                  for x in p["playerScores"]]
        assert scores == ["0.1", "0.3"], scores
        hanabi = [p for p in e1["plays"] if p["playDate"].startswith("2025-12-05")][0]
        assert [x["winner"] for x in hanabi["playerScores"]] == [True, False], hanabi
        # into a new league: the same league, field by field
        lid2 = _new_league(ann)
        st, hd, o = _import(ann, lid2, e1)
        # the file's plays the league did not take (_shapes: no game, no players, no date, no
        # uuid) are in the export as they came, and skipped again
        skipped = [("no-game"), ("no-players"), ("no-date"), ("no-players"), ("no-uuid")]
        assert st == 200 and o["imported"] == len(e1["plays"]) - 5, o
        assert [k["reason"] for k in o["skipped_plays"]] == skipped, o
        st, hd, e2 = ann.get(f"/api/v1/leagues/{lid2}/export.json")
        assert e2 == e1, "a league fed by one file exports that file"
        st, hd, s1 = ann.get(f"/api/v1/leagues/{lid}/standings")
        st, hd, s2 = ann.get(f"/api/v1/leagues/{lid2}/standings")
        strip = lambda x: [{k: v for k, v in r.items() if k != "player"} for r in x["standings"]]
        assert strip(s1) == strip(s2), (strip(s1), strip(s2))
        # and into its own league: every play is already there
        st, hd, o = _import(ann, lid, e1)
        assert st == 200 and o["imported"] == 0, o
        assert {k["reason"] for k in o["skipped_plays"]} == {"duplicate"} | set(skipped), o


def test_real_export_with_two_objects_of_one_game():
    """deniedpluto-2025.json describes 7 Wonders Duel twice (the same name and BGG id, two
    uuids, one in upper case: objects 4 and 107), and its plays name one or the other. The
    league counts one game (its list, its standings by game); the export writes each play back
    with the object it named; a play edited to another game and back names the game's first
    object (by uuid) from then on."""
    doc = dict(_real_files())["deniedpluto-2025.json"]
    objs = [g for g in doc["games"] if g["name"] == "7 Wonders Duel"]
    assert len(objs) == 2 and objs[0]["uuid"] != objs[1]["uuid"], objs
    by_obj = {g["id"]: [p for p in doc["plays"] if p["gameRefId"] == g["id"]] for g in objs}
    assert all(by_obj.values()), "each object has plays"
    with Server(database=_db()) as s:
        ann = user(s, "duel@example.org", "Ann")
        lid = _new_league(ann)
        st, hd, o = _import(ann, lid, doc)
        assert st == 200 and o["imported"] == len(doc["plays"]), o
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        assert lg["games"].count("7 Wonders Duel") == 1, lg["games"]
        st, hd, duel = ann.get(f"/api/v1/leagues/{lid}/standings?game=7%20Wonders%20Duel")
        seats = sum(len(p["playerScores"]) for ps in by_obj.values() for p in ps)
        assert st == 200 and sum(r["games"] for r in duel["standings"]) <= seats, duel
        assert sum(r["games"] for r in duel["standings"]) > len(by_obj[objs[0]["id"]]), duel

        def exported_game_uuid(play_uuid):
            st, hd, e = ann.get(f"/api/v1/leagues/{lid}/export.json")
            assert st == 200, e
            p = next(x for x in e["plays"] if x["uuid"] == play_uuid)
            games = [g for g in e["games"] if g["name"] == "7 Wonders Duel"]
            assert len({g["uuid"] for g in games}) == len(games), games
            return next(g["uuid"] for g in e["games"] if g["id"] == p["gameRefId"])

        for g in objs:
            assert exported_game_uuid(by_obj[g["id"]][0]["uuid"]) == g["uuid"], g["uuid"]
        # an edit of the game drops the object the file named
        second = max(objs, key=lambda g: g["uuid"])
        play_uuid = by_obj[second["id"]][0]["uuid"]
        full = _plays(ann, lid)[play_uuid]
        body = lambda game: {"game": game, "date": full["date"],
                             "results": [{"player": r["player"], "score": r["score"],
                                          "winner": r["winner"]} for r in full["results"]]}
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{full['id']}", body("7 Wonders Duel"))
        assert st == 200, o
        assert exported_game_uuid(play_uuid) == second["uuid"], "the same game keeps its object"
        for game in ("Patchwork", "7 Wonders Duel"):
            st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{full['id']}", body(game))
            assert st == 200, o
        assert exported_game_uuid(play_uuid) == min(objs, key=lambda g: g["uuid"])["uuid"]


def _export_bytes(c, lid):
    st, hd, body = c.s.request("GET", f"/api/v1/leagues/{lid}/export.json",
                               headers={"Cookie": "dh_session=" + c.cookie})
    assert st == 200, body[:300]
    return body


def test_a_database_from_before_the_game_objects_exports_as_it_did():
    """migrations/0019: a league imported before a play kept the game object it named (one
    object per name then) gets that object's uuid on each of its BG Stats plays, and exports
    byte for byte as before the migration."""
    import subprocess
    from harness import ROOT, SERVER_BIN
    db = make_database("h_bgstats_objects")
    name = db.split("=", 1)[1]
    doc = dict(_real_files())["michaelgao8-2021.json"]
    with Server(database=db) as s:
        ann = user(s, "objects@example.org", "Ann")
        lid = _new_league(ann)
        st, hd, o = _import(ann, lid, doc)
        assert st == 200 and o["imported"] == len(doc["plays"]), o
        before = _export_bytes(ann, lid)

    def sql(q):
        return subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-d", name, "-c", q],
                              check=True, capture_output=True, text=True).stdout.strip()

    # the schema as it was: one object per name, plays without the uuid of theirs
    sql("DROP INDEX league_games_object; ALTER TABLE league_games ADD PRIMARY KEY (league_id, name);"
        " ALTER TABLE plays DROP COLUMN game_uuid; DELETE FROM schema_migrations WHERE version = 19")
    env = dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=os.path.join(ROOT, "migrations"))
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    n = len(doc["plays"])
    assert sql("SELECT count(game_uuid) FROM plays WHERE source = 'bgstats'") == str(n)
    assert sql("SELECT count(*) FROM plays p JOIN league_games g ON g.league_id = p.league_id"
               " AND g.name = p.game AND g.uuid = p.game_uuid") == str(n)
    with Server(database=db) as s:
        ann.s = s
        after = _export_bytes(ann, lid)
    assert after == before
