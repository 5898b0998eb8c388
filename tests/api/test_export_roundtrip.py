"""What a group puts in comes back out: a league fed by a BG Stats file exports that file (the
same objects, ids, top-level members and order, nothing added), with the league's changes
applied when it changed (an edited play in place, a deleted one left out, a new one appended
with ids after the file's largest, a merged member's seats naming the member kept); a league
fed by two files gets ids that never collide; every play a BGG file brought is in export.json.
Every JSON reply is parsed strictly by the harness (no object repeats a member name); the
exports here are parsed so once more, by name."""
import copy, hashlib, json, os, re

from harness import Server, make_database, strict_json
from league_util import user, league_plays_whole

HERE = os.path.dirname(os.path.abspath(__file__))
BGSTATS = [os.path.join(HERE, "data", "bgstats-real", n)
           for n in sorted(os.listdir(os.path.join(HERE, "data", "bgstats-real")))
           if n.endswith(".json")] + [os.path.join(HERE, "data", "bgstats-sample.json")]
BGG = os.path.join(HERE, "data", "bgg-real")


def _db():
    return make_database("h_export_roundtrip")


def _league(c, name="Club"):
    st, hd, lg = c.post("/api/v1/leagues", {"name": name})
    assert st == 201, (st, lg)
    return lg["id"]


def _import(c, lid, body, fmt="bgstats", ctype="application/json"):
    if isinstance(body, (dict, list)):
        body = json.dumps(body)
    st, hd, o = c.call("POST", f"/api/v1/leagues/{lid}/import?format={fmt}", body, raw=True,
                       headers={"Content-Type": ctype})
    assert st == 200, (st, o)
    return o


def _export(c, lid):
    st, hd, data = c.call("GET", f"/api/v1/leagues/{lid}/export.json")
    assert st == 200, data
    raw = data if isinstance(data, (bytes, str)) else json.dumps(data)
    return strict_json(raw) if not isinstance(data, dict) else data


UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def _export_uuid(stored):
    """The uuid the export writes for a play: its own when in RFC 4122 form, else derived from it
    (src/leagues/io.c io_derived_uuid: BLAKE2b-128 of "play", the uuid and "", each with its
    NUL, in version 4's form)."""
    if UUID.match(stored):
        return stored
    h = bytearray(hashlib.blake2b(b"play\0" + stored.encode() + b"\0\0", digest_size=16).digest())
    h[6] = (h[6] & 0x0F) | 0x40
    h[8] = (h[8] & 0x3F) | 0x80
    x = h.hex()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:]}"


def _plays(c, lid):
    """Every play of the league by the uuid its export writes, without what names the league
    (ids, members, ratings after the play: compared through the standings) or the source that
    brought it (a play entered here is a BG Stats play once imported from the export). A date
    is its local time: BG Stats' playDate has no offset, so a play entered here with one comes
    back as that local time without it."""
    return {
        _export_uuid(full["uuid"]): {
            **{k: v for k, v in full.items() if k not in ("id", "league", "created_by",
                                                          "results", "uuid", "source")},
            "date": full["date"] and full["date"][:19],
            "results": [{k: v for k, v in r.items() if k not in ("player", "rating_after")}
                        for r in full["results"]]}
        for full in league_plays_whole(c, lid)}


def _standings(c, lid):
    st, hd, o = c.get(f"/api/v1/leagues/{lid}/standings")
    assert st == 200, o
    return [{k: v for k, v in r.items() if k != "player"} for r in o["standings"]]


def test_every_real_bgstats_file_comes_back_out():
    """Imported, exported: the export is the file (as parsed JSON); imported into a new league,
    the export gives the same plays, standings and ratings, and exports the file again."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for path in BGSTATS:
            doc = json.load(open(path, encoding="utf-8"))
            lid = _league(ann, os.path.basename(path)[:60])
            _import(ann, lid, doc)
            e = _export(ann, lid)
            assert list(e) == list(doc), (path, list(e), list(doc))
            assert e == doc, f"{path}: the export is the file"
            lid2 = _league(ann, "again")
            _import(ann, lid2, e)
            assert _plays(ann, lid2) == _plays(ann, lid), path
            assert _standings(ann, lid2) == _standings(ann, lid), path
            assert _export(ann, lid2) == doc, path


def _member_ids(c, lid):
    st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
    assert st == 200, lg
    return {m["name"]: m["id"] for m in lg["members"]}


def test_a_changed_league_exports_what_a_reader_expects():
    """michaelgao8-2021.json imported, then one play edited, one deleted, one entered here and
    one member merged into another: the export is the file with exactly those changes."""
    path = BGSTATS[[os.path.basename(p) for p in BGSTATS].index("michaelgao8-2021.json")]
    doc = json.load(open(path, encoding="utf-8"))
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann)
        _import(ann, lid, doc)
        plays = _plays(ann, lid)
        ids = {}
        offset = 0
        while True:
            st, hd, o = ann.get(f"/api/v1/leagues/{lid}/plays?limit=500&offset={offset}")
            for p in o["plays"]:
                st, hd, full = ann.get(f"/api/v1/leagues/{lid}/plays/{p['id']}")
                ids[full["uuid"]] = full
            offset += len(o["plays"])
            if offset >= o["total"]:
                break
        names = {p["id"]: p["name"] for p in doc["players"]}
        # the edit: a scored play (the first with numbers for every seat): its notes, date and
        # the first seat's score
        edited = next(p for p in doc["plays"]
                      if all(x["score"] not in (None, "") for x in p["playerScores"])
                      and len(p["playerScores"]) >= 2)
        full = ids[edited["uuid"]]
        body = {"game": full["game"], "date": "2021-02-03T21:15:00Z", "notes": "edited here",
                "bgg_id": full["bgg_id"], "duration_min": full["duration_min"],
                "location": full["location"], "cooperative": full["cooperative"],
                "results": [{"player": r["player"],
                             "score": (r["score"] or 0) + (5 if i == 0 else 0)}
                            for i, r in enumerate(full["results"])]}
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{full['id']}", body)
        assert st == 200, o
        # the deletion: another play
        deleted = next(p for p in doc["plays"] if p["uuid"] != edited["uuid"])
        st, hd, o = ann.call("DELETE", f"/api/v1/leagues/{lid}/plays/{ids[deleted['uuid']]['id']}")
        assert st in (200, 204), o
        # the merge: the player of the fewest plays into the one of the most
        count = {}
        for p in doc["plays"]:
            if p["uuid"] == deleted["uuid"]:
                continue
            for x in p["playerScores"]:
                count[x["playerRefId"]] = count.get(x["playerRefId"], 0) + 1
        by_plays = sorted((n, pid) for pid, n in count.items()
                          if not next(q for q in doc["players"] if q["id"] == pid)["isAnonymous"]
                          and pid != doc["userInfo"]["meRefId"])
        together = {(x["playerRefId"], y["playerRefId"]) for p in doc["plays"]
                    for x in p["playerScores"] for y in p["playerScores"]}
        gone_pid, kept_pid = next((a, b) for _, a in by_plays for _, b in reversed(by_plays)
                                  if a != b and (a, b) not in together)
        members = _member_ids(ann, lid)
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/members/{members[names[gone_pid]]}/merge",
                             {"into": members[names[kept_pid]]})
        assert st == 200, o
        # the new play: a game no file described, the kept member and a newcomer
        st, hd, zed = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Zed"})
        assert st == 201, zed
        st, hd, new = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Patchwork Doodle", "date": "2021-06-01T20:00:00Z", "location": "The new café",
            "results": [{"player": members[names[kept_pid]], "score": 61},
                        {"player": zed["id"], "score": 48}]})
        assert st == 201, new

        e = _export(ann, lid)
        assert list(e) == list(doc)
        assert {k: v for k, v in e.items() if k not in ("plays", "players", "games",
                                                         "locations")} == \
            {k: v for k, v in doc.items() if k not in ("plays", "players", "games", "locations")}
        # games and locations: the file's, then the new ones with the next ids
        assert e["games"][:len(doc["games"])] == doc["games"]
        assert e["locations"][:len(doc["locations"])] == doc["locations"]
        azul = e["games"][len(doc["games"]):]
        assert [g["name"] for g in azul] == ["Patchwork Doodle"]
        assert azul[0]["id"] == max(g["id"] for g in doc["games"]) + 1
        cafe = e["locations"][len(doc["locations"]):]
        assert [(x["name"], x["id"]) for x in cafe] == \
            [("The new café", max(x["id"] for x in doc["locations"]) + 1)]
        # players: the merged one gone, the others as they came, Zed after the largest id
        want_players = [p for p in doc["players"] if p["id"] != gone_pid]
        assert e["players"][:len(want_players)] == want_players, (
            [(p["id"], p["name"]) for p in e["players"]], gone_pid, kept_pid)
        zeds = e["players"][len(want_players):]
        assert [(p["name"], p["id"], p["isAnonymous"]) for p in zeds] == \
            [("Zed", max(p["id"] for p in doc["players"]) + 1, False)]
        # plays: the file's in its order, the deleted one out, the new one last
        want_uuids = [p["uuid"] for p in doc["plays"] if p["uuid"] != deleted["uuid"]]
        assert [p["uuid"] for p in e["plays"]] == want_uuids + [e["plays"][-1]["uuid"]]
        for src, out in zip([p for p in doc["plays"] if p["uuid"] != deleted["uuid"]],
                            e["plays"]):
            want = copy.deepcopy(src)
            for x in want["playerScores"]:
                if x["playerRefId"] == gone_pid:
                    x["playerRefId"] = kept_pid
            if src["uuid"] != edited["uuid"]:
                assert out == want, src["uuid"]
                continue
            # the edited play, field by field: what the edit changed, the rest as it was
            assert out["playDate"] == "2021-02-03 21:15:00", out
            assert out["comments"] == "edited here", out
            for k in set(want) - {"playDate", "comments", "playerScores"}:
                assert out[k] == want[k], (k, out[k], want[k])
            assert len(out["playerScores"]) == len(want["playerScores"])
            for i, (a, b) in enumerate(zip(out["playerScores"], want["playerScores"])):
                assert a["playerRefId"] == b["playerRefId"], (i, a, b)
                n = float(eval(b["score"])) if isinstance(b["score"], str) else b["score"]
                assert float(a["score"]) == (n or 0) + (5 if i == 0 else 0), (i, a, b)
                for k in set(b) - {"score", "winner", "rank"}:
                    assert a[k] == b[k], (i, k, a, b)
        last = e["plays"][-1]
        assert last["gameRefId"] == azul[0]["id"] and last["locationRefId"] == cafe[0]["id"]
        assert last["playDate"] == "2021-06-01 20:00:00"
        assert [(x["playerRefId"], x["score"], x["winner"]) for x in last["playerScores"]] == \
            [(kept_pid, "61", True), (zeds[0]["id"], "48", False)]
        # what a reader of the export counts is what the league holds
        lid2 = _league(ann, "read back")
        _import(ann, lid2, e)
        p1, p2 = _plays(ann, lid), _plays(ann, lid2)
        assert p2 == p1, [(p1.get(u), p2.get(u)) for u in set(p1) | set(p2)
                          if p1.get(u) != p2.get(u)][:2]
        assert _standings(ann, lid2) == _standings(ann, lid)
        assert plays  # the league's plays before the changes were read


def test_two_files_never_collide():
    """A league fed by a real file and then by another whose ids overlap it: the second file's
    objects the first lacks get the next free ids, and every reference follows them."""
    path = BGSTATS[[os.path.basename(p) for p in BGSTATS].index("michaelgao8-2021.json")]
    first = json.load(open(path, encoding="utf-8"))
    g = lambda i, u, name: {"id": i, "uuid": u, "name": name, "bggId": 0, "cooperative": False,
                            "highestWins": True, "noPoints": False, "usesTeams": False}
    same_game = first["games"][0]  # described by both files: the first file's object
    second = {
        "games": [g(1, "90000000-0000-4000-8000-000000000001", "Lost Cities"),
                  g(2, "90000000-0000-4000-8000-000000000002", "Lost Cities: 6th expedition"),
                  dict(same_game, id=3)],
        "players": [{"id": 1, "uuid": "91000000-0000-4000-8000-000000000001", "name": "Uma",
                     "isAnonymous": False},
                    {"id": 2, "uuid": "91000000-0000-4000-8000-000000000002", "name": "Vic",
                     "isAnonymous": False}],
        "locations": [{"id": 1, "uuid": "92000000-0000-4000-8000-000000000001",
                       "name": "Uma's"}],
        "plays": [{"uuid": "93000000-0000-4000-8000-00000000000%d" % n,
                   "playDate": "2022-01-0%d 20:00:00" % n, "gameRefId": game,
                   "locationRefId": 1, "expansionPlays": [{"gameRefId": 2, "bggId": 0}],
                   "playerScores": [{"playerRefId": 1, "score": "10", "winner": n == 1},
                                    {"playerRefId": 2, "score": "8", "winner": n != 1}]}
                  for n, game in ((1, 1), (2, 3))],
        "userInfo": {"meRefId": 2},
        "tags": [],
    }
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann)
        _import(ann, lid, first)
        _import(ann, lid, second)
        e = _export(ann, lid)
        for kind in ("games", "players", "locations"):
            got = [x["id"] for x in e[kind]]
            assert len(got) == len(set(got)), (kind, got)
        assert e["games"][:len(first["games"])] == first["games"]
        assert e["players"] == first["players"] + e["players"][len(first["players"]):]
        assert e["userInfo"] == first["userInfo"] and e["tags"] == [], "first file's members, then what it lacked"
        by_id = lambda kind: {x["id"]: x for x in e[kind]}
        games, players, locs = by_id("games"), by_id("players"), by_id("locations")
        assert [g["name"] for g in e["games"][len(first["games"]):]] == \
            ["Lost Cities", "Lost Cities: 6th expedition"], "the game both files describe once"
        assert e["plays"][:len(first["plays"])] == first["plays"]
        out = e["plays"][len(first["plays"]):]
        assert [p["uuid"] for p in out] == [p["uuid"] for p in second["plays"]]
        for p in out:
            assert locs[p["locationRefId"]]["name"] == "Uma's"
            assert [games[x["gameRefId"]]["name"] for x in p["expansionPlays"]] == \
                ["Lost Cities: 6th expedition"]
            assert [players[x["playerRefId"]]["name"] for x in p["playerScores"]] == ["Uma", "Vic"]
        assert games[out[0]["gameRefId"]]["name"] == "Lost Cities"
        assert games[out[1]["gameRefId"]]["uuid"] == same_game["uuid"]
        assert games[out[1]["gameRefId"]]["id"] == same_game["id"]
        lid2 = _league(ann, "read back")
        _import(ann, lid2, e)
        assert _plays(ann, lid2) == _plays(ann, lid)
        assert _standings(ann, lid2) == _standings(ann, lid)
        assert _export(ann, lid2) == e


def test_every_bgg_play_is_in_the_export():
    """Every play a real BGG file brought (most without players) is in export.json: with its
    BGG play id, its date, playerScores [] when it has no players."""
    names = sorted(n for n in os.listdir(BGG) if n.endswith(".xml"))
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        seen = 0
        for name in names:
            lid = _league(ann, name[:60])
            st, hd, o = ann.call("POST", f"/api/v1/leagues/{lid}/import?format=bggxml",
                                 open(os.path.join(BGG, name), "rb").read(), raw=True,
                                 headers={"Content-Type": "application/xml"})
            if st != 200:
                continue  # not a plays answer (refused whole: test_bgg_real)
            plays = _plays(ann, lid)
            e = _export(ann, lid)
            assert len(e["plays"]) == len(plays), (name, len(e["plays"]), len(plays))
            got = sorted((p["bggId"], p["playDate"][:10], len(p["playerScores"]))
                         for p in e["plays"])
            want = sorted((p["bgg_play_id"], p["date"][:10], len(p["results"]))
                          for p in plays.values())
            assert got == want, name
            games = {g["id"]: g["name"] for g in e["games"]}
            assert sorted(games[p["gameRefId"]] for p in e["plays"]) == \
                sorted(p["game"] for p in plays.values()), name
            seen += len(plays)
        assert seen > 100, seen
