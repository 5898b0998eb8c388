"""What real files say of a seat and of a play's time, kept: BGG's color, startposition and new
per seat (shown in a play, written back in export.json as BG Stats' role, seatOrder and
newPlayer, and in the CSV); BG Stats' and BGG's local times without an offset (returned without
"Z", seasons by their local date, exported as they came); BGG's plays logged without a date
(0000-00-00), kept undated: in all-time standings and ratings before every dated play, in no
season, exported undated. The files are the real ones of tests/api/data (README.md there names
each source): bram-auser-page3.xml has colors that are roles (Funkoverse's "Joker and Harley
Quinn", Star Trek: Ascendancy's factions, whose startposition is the faction too),
tnaskali-by-thing.xml a numeric startposition with a color ("1", "blue")."""
import csv, io, json, os

from harness import Server, make_database
from league_util import imported, league_plays, league_plays_whole, user

HERE = os.path.dirname(os.path.abspath(__file__))
BGG = os.path.join(HERE, "data", "bgg-real")
BGS = os.path.join(HERE, "data", "bgstats-real")


def _db():
    return make_database("h_seat_times")


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _league(c, name):
    st, hd, lg = c.post("/api/v1/leagues", {"name": name})
    assert st == 201, (st, lg)
    return lg["id"]


def _by_uuid(c, lid):
    return {p["uuid"]: p for p in league_plays_whole(c, lid)}


def _export(c, lid):
    st, hd, e = c.get(f"/api/v1/leagues/{lid}/export.json")
    assert st == 200, (st, e)
    return e


def _csv(c, lid):
    st, hd, text = c.get(f"/api/v1/leagues/{lid}/export.csv")
    assert st == 200, (st, text)
    return list(csv.DictReader(io.StringIO(text.decode("utf-8-sig"))))


DETAILS = ("role", "team", "start_player", "new_player", "start_position")


def _seats(play):
    return [tuple(r[k] for k in DETAILS) for r in play["results"]]


def _export_seats(e, bgg_play_id):
    """The playerScores of the export's play of that BGG play id, members of the seat only."""
    p = [p for p in e["plays"] if p.get("bggId") == bgg_play_id][0]  # quantity: the first
    keys = ("role", "seatOrder", "newPlayer", "startPosition")
    return [{k: s[k] for k in keys if k in s} for s in p["playerScores"]]


def test_bgg_seat_details_are_kept_shown_and_written_back():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Seats")
        imported(ann, lid, "bggxml", _read(os.path.join(BGG, "bram-auser-page3.xml")),
                "application/xml")
        imported(ann, lid, "bggxml", _read(os.path.join(BGG, "tnaskali-by-thing.xml")),
                "application/xml")
        plays = _by_uuid(ann, lid)
        funko, trek = plays["bgg-71573663"], plays["bgg-71257017"]
        assert _seats(funko) == [("Joker and Harley Quinn", None, None, False, None),
                                 ("Batman and Robin", None, None, False, None)], funko
        assert _seats(trek) == [("Andorian", None, None, False, "Andorian"),
                                ("Ferengi", None, None, True, "Ferengi"),
                                ("Cardassian", None, None, True, None),
                                ("Vulcan", None, None, False, None)], trek
        friend = plays["bgg-75289989"]  # quantity 4: each copy keeps the seats' details
        assert _seats(friend) == [("blue", None, None, False, "1"),
                                  (None, None, None, True, None)], friend
        assert _seats(plays["bgg-75289989-4"]) == _seats(friend)
        # export.json: color as role, a numeric startposition as seatOrder, new as newPlayer
        e = _export(ann, lid)
        assert _export_seats(e, 71573663) == [
            {"role": "Joker and Harley Quinn", "seatOrder": 1, "newPlayer": False},
            {"role": "Batman and Robin", "seatOrder": 2, "newPlayer": False}]
        assert _export_seats(e, 71257017)[:2] == [
            {"role": "Andorian", "seatOrder": 1, "newPlayer": False, "startPosition": "Andorian"},
            {"role": "Ferengi", "seatOrder": 2, "newPlayer": True, "startPosition": "Ferengi"}]
        assert _export_seats(e, 75289989)[0] == \
            {"role": "blue", "seatOrder": 1, "newPlayer": False, "startPosition": "1"}
        # the CSV: one column each
        rows = [r for r in _csv(ann, lid) if r["play"] == "bgg-71257017"]
        assert [(r["role"], r["new_player"], r["start_position"]) for r in rows] == [
            ("Andorian", "false", "Andorian"), ("Ferengi", "true", "Ferengi"),
            ("Cardassian", "true", ""), ("Vulcan", "false", "")], rows
        # an edit of the play keeps them
        body = {"game": trek["game"], "date": trek["date"], "notes": "edited",
                "results": [{"player": r["player"], "winner": r["winner"]}
                            for r in trek["results"]]}
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{trek['id']}", body)
        assert st == 200 and o["notes"] == "edited" and _seats(o) == _seats(trek), o
        assert o["date"] == "2023-04-22T00:00:00", o
        # and the export reads back as the same seats
        lid2 = _league(ann, "Read back")
        imported(ann, lid2, "bgstats", json.dumps(e), "application/json")
        again = _by_uuid(ann, lid2)
        got = sorted((p["bgg_play_id"], _seats(p)) for p in again.values())
        want = sorted((p["bgg_play_id"], _seats(p)) for p in plays.values()
                      if p["results"])  # a BG Stats import skips a play without players
        assert got == want, [(a, b) for a, b in zip(got, want) if a != b][:3]


def test_local_times_stay_local():
    """BG Stats' playDate is the phone's local time, with no offset: returned without "Z",
    counted in a season by that local date, written back as it came."""
    doc = json.loads(_read(os.path.join(BGS, "michaelgao8-2021.json")))
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Local")
        imported(ann, lid, "bgstats", json.dumps(doc), "application/json")
        plays = _by_uuid(ann, lid)
        src = {p["uuid"]: p for p in doc["plays"] if p["uuid"] in plays}
        assert len(src) == len(plays) > 50
        for u, p in plays.items():
            assert p["date"] == src[u]["playDate"].replace(" ", "T"), (p["date"], src[u])
        listed = league_plays(ann, lid)
        assert all(not x["date"].endswith("Z") and "+" not in x["date"] for x in listed)
        # a season of the day of the latest play counts that day's plays by their local date
        last = max(src.values(), key=lambda p: p["playDate"])
        d = last["playDate"][:10]
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "That day", "starts": d, "ends": d})
        assert st == 201, season
        inside = league_plays(ann, lid, f"&season={season['id']}")
        assert len(inside) == sum(p["playDate"][:10] == d for p in src.values()) >= 1
        # a local time sent back as it was shown stays local; the export writes it as it came
        p = plays[last["uuid"]]
        body = {"game": p["game"], "date": p["date"], "notes": "again",
                "results": [{"player": r["player"], "rank": r["rank"]} for r in p["results"]]}
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{p['id']}", body)
        assert st == 200 and o["date"] == p["date"], o
        st, hd, added = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2021-12-31T23:30:00",
            "results": [{"player": p["results"][0]["player"], "score": 40},
                        {"player": p["results"][1]["player"], "score": 30}]})
        assert st == 201 and added["date"] == "2021-12-31T23:30:00", added
        e = _export(ann, lid)
        dates = {x["uuid"]: x["playDate"] for x in e["plays"]}
        assert dates[last["uuid"]] == last["playDate"]
        assert "2021-12-31 23:30:00" in dates.values(), sorted(dates.values())[-3:]
        rows = [r for r in _csv(ann, lid) if r["date"] == "2021-12-31T23:30:00"]
        assert len(rows) == 2 and rows[0]["day"] == "2021-12-31" and rows[0]["time"] == "23:30:00"
        # BG Stats' roles are shown; a team only in a play of teams
        roles = [r["role"] for p in plays.values() for r in p["results"] if r["role"]]
        assert len(roles) == sum(1 for p in src.values() for x in p["playerScores"]
                                 if x.get("role")) > 0, roles
        teams = {u for u, p in plays.items() if any(r["team"] is not None for r in p["results"])}
        assert teams == {u for u, p in src.items() if p.get("usesTeams")} and teams, teams


def test_undated_bgg_plays_are_kept():
    """No saved file has a play without a date: a real play of Excali8ur's file is given BGG's
    0000-00-00 here (Golem, four players, with quantity 2: two plays)."""
    xml = _read(os.path.join(BGG, "excali8ur-plays.xml"))
    xml = xml.replace(b'id="95132182" date="2025-02-08" quantity="1"',
                      b'id="95132182" date="0000-00-00" quantity="2"')
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Undated")
        o = imported(ann, lid, "bggxml", xml, "application/xml")
        assert o["skipped"] == 0 and o["imported"] == 10, o  # 9 plays, one now twice
        plays = _by_uuid(ann, lid)
        undated = [plays["bgg-95132182"], plays["bgg-95132182-2"]]
        assert [p["date"] for p in undated] == [None, None]
        players = {r["player"] for p in undated for r in p["results"]}
        assert players and all(r["rating_after"] for p in undated for r in p["results"])
        # listed last (newest first), first in each player's history, counted all-time
        listed = league_plays(ann, lid)
        assert [x["date"] for x in listed[-2:]] == [None, None], listed[-3:]
        for m in players:
            st, hd, h = ann.get(f"/api/v1/players/{m}/history")
            assert st == 200 and h["history"][0]["date"] is None, h["history"][:2]
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings")
        counted = {r["player"]: r["games"] for r in o["standings"]}
        assert all(counted.get(m, 0) >= 2 for m in players), (counted, players)
        # in no season, even one of every date
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "Always", "starts": "1900-01-01", "ends": "2100-12-31"})
        assert st == 201, season
        assert len(league_plays(ann, lid, f"&season={season['id']}")) == len(plays) - 2
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/stats")
        assert st == 200 and all(x["month"] >= "2000" for x in o["months"]), o["months"][:2]
        st, hd, pdf = ann.get(f"/api/v1/leagues/{lid}/standings.pdf")
        assert st == 200 and pdf.startswith(b"%PDF"), st
        if os.environ.get("SEAT_TIMES_PDF"):  # to look at it
            with open(os.environ["SEAT_TIMES_PDF"], "wb") as f:
                f.write(pdf)
        # exported undated: BGG's 0000-00-00 in BG Stats' form, empty CSV dates, a null backup date
        e = _export(ann, lid)
        assert sorted(p["playDate"] for p in e["plays"] if p["bggId"] == 95132182) == \
            ["0000-00-00 00:00:00"] * 2
        rows = [r for r in _csv(ann, lid) if r["play"].startswith("bgg-95132182")]
        assert rows and all(r["date"] == r["day"] == r["time"] == "" for r in rows), rows
        st, hd, b = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        assert sorted(p["uuid"] for p in b["plays"] if p["date"] is None) == \
            ["bgg-95132182", "bgg-95132182-2"]
        for fmt, body in (("bgstats", e), ("backup", b)):
            lid2 = _league(ann, "Again " + fmt)
            imported(ann, lid2, fmt, json.dumps(body), "application/json")
            assert sum(x["date"] is None for x in league_plays(ann, lid2)) == 2, fmt
        # an edit keeps it undated, or dates it
        p = undated[0]
        body = {"game": p["game"], "undated": True, "notes": "still undated",
                "results": [{"player": r["player"], "winner": r["winner"]}
                            for r in p["results"]]}
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{p['id']}", body)
        assert st == 200 and o["date"] is None and o["notes"] == "still undated", o
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{p['id']}",
                            {**body, "date": "2025-02-19"})
        assert st == 400 and o["field"] == "/date", o
        del body["undated"]
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{p['id']}",
                            {**body, "date": "2025-02-19"})
        assert st == 200 and o["date"].startswith("2025-02-19"), o
        assert len(league_plays(ann, lid, f"&season={season['id']}")) == len(plays) - 1


def test_plays_imported_before_the_clocks_become_local():
    """migrations/0026: BG Stats and BGG plays stored before plays had a clock (as a time at
    offset 0, shown with "Z") are local times; a play edited since keeps the time it was given."""
    import subprocess
    from harness import ROOT, SERVER_BIN
    db = make_database("h_seat_times_clocks")
    name = db.split("=", 1)[1]
    with Server(database=db) as s:
        ann = user(s, "clocks@example.org", "Ann")
        lid = _league(ann, "Before")
        imported(ann, lid, "bggxml", _read(os.path.join(BGG, "sebki-plays.xml")), "application/xml")
        plays = _by_uuid(ann, lid)
        edited = sorted(plays.values(), key=lambda p: p["uuid"])[0]
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{edited['id']}", {
            "game": edited["game"], "date": "2024-03-01T20:00:00Z",
            "results": [{"player": r["player"], "winner": r["winner"]} for r in edited["results"]]})
        assert st == 200 and o["date"] == "2024-03-01T20:00:00Z", o

    def sql(q):
        return subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-d", name, "-c", q],
                              check=True, capture_output=True, text=True).stdout.strip()

    # as before the migration: every play a time at offset 0
    sql("UPDATE plays SET clock = 'offset'; DELETE FROM schema_migrations WHERE version = 26")
    assert sql("SELECT count(*) FROM plays WHERE play_date_text(played_at, utc_offset_min, clock)"
               " NOT LIKE '%Z'") == "0"
    env = dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=os.path.join(ROOT, "migrations"))
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    with Server(database=db) as s:
        ann.s = s
        dates = {p["id"]: p["date"] for p in league_plays(ann, lid)}
        assert dates.pop(edited["id"]) == "2024-03-01T20:00:00Z"
        want = {p["id"]: p["date"] for p in plays.values() if p["id"] != edited["id"]}
        assert dates == want and all(not d.endswith("Z") for d in dates.values()), dates
