"""BoardGameGeek plays XML as BGG writes it: real /xmlapi2/plays answers saved in public
repositories (tests/api/data/bgg-real/, README.md there names each source and its shapes). Every
play imports or is listed in skipped_plays with a stable reason; only a document that is not a
BGG plays answer is refused whole."""
import csv, io, json, os, re

from harness import Server, make_database, problem
from league_util import import_file, user

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "bgg-real")

# file: (plays imported, plays skipped at the first import, skip reasons)
PLAYS_FILES = {
    "bram-auser-page3.xml": (4, 2, {"zero-quantity"}),
    "bram-novaeux.xml": (8, 0, set()),
    "bram-null-empty.xml": (0, 0, set()),
    "excali8ur-plays.xml": (9, 0, set()),
    "garycourt-plays.xml": (7, 0, set()),
    "jameskolts-jimmydm90.xml": (3, 0, set()),
    "seanacton-mrbiofan12.xml": (9, 0, set()),
    "sebki-plays.xml": (13, 0, set()),
    "sportomax-plays.xml": (8, 0, set()),
    "stephenhouser-game-list.xml": (0, 7, {"bad-id"}),
    "tnaskali-by-thing.xml": (14, 0, set()),
    "tnaskali-by-username.xml": (27, 0, set()),
    "tnehil-nehilism.xml": (10, 0, set()),
}
# documents that are not BGG plays answers: (file, what the refusal says)
NOT_PLAYS = {
    "tnaskali-error-429.xml": "Rate limit exceeded.",
    "bram-userdoesnotexist.xml": "Invalid object or user",
    "obruchez-theatre.xml": "not a BoardGameGeek plays file",
}


def _db():
    return make_database("h_bgg_real")


def _read(name):
    with open(os.path.join(REAL, name), "rb") as f:
        return f.read()


def _import(c, lid, fmt, body, ctype="application/xml"):
    return import_file(c, lid, fmt, body, ctype)


def _league(c, name):
    st, hd, lg = c.post("/api/v1/leagues", {"name": name})
    assert st == 201, (st, lg)
    return lg["id"]


def _counted_plays(xml):
    """The plays a file stands for: each <play> its quantity (1 to 1000) of plays, else one."""
    n = 0
    for q in re.findall(rb'<play\s[^>]*?quantity="([^"]*)"', xml):
        q = int(q) if q.isdigit() else 0
        n += q if 1 <= q <= 1000 else 1
    n += len(re.findall(rb"<play\s(?![^>]*quantity=)[^>]*>", xml))
    return n


def _plays(c, lid):
    st, hd, o = c.get(f"/api/v1/leagues/{lid}/plays")
    assert st == 200, (st, o)
    return o["plays"]


def _play(c, lid, uuid):
    """The play of the league with this uuid (through the backup, which lists uuids)."""
    for p in _plays(c, lid):
        st, hd, o = c.get(f"/api/v1/leagues/{lid}/plays/{p['id']}")
        if o["uuid"] == uuid:
            return o
    raise AssertionError(f"no play {uuid}")


def _standing(c, lid):
    st, hd, o = c.get(f"/api/v1/leagues/{lid}/standings")
    assert st == 200, (st, o)
    return {r["name"]: r for r in o["standings"]}


def _every_view_answers(c, lid):
    """Each read of a league answers 200 (and its body is checked against openapi.json)."""
    for path in ("", "/plays", "/standings", "/head-to-head", "/log", "/export.json",
                 "/export.csv", "/backup.json", "/standings.pdf"):
        st, hd, o = c.get(f"/api/v1/leagues/{lid}{path}")
        assert st == 200, (path, st, o)
    st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
    for m in lg["members"]:
        st, hd, o = c.get(f"/api/v1/players/{m['id']}/history")
        assert st == 200, (m, st, o)


def test_every_real_file_imports_whole_and_again_as_duplicates():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for name, (imported, skipped, reasons) in PLAYS_FILES.items():
            xml = _read(name)
            lid = _league(ann, name[:60])
            st, hd, o = _import(ann, lid, "bggxml", xml)
            assert st == 200, (name, st, o)
            assert (o["imported"], o["skipped"]) == (imported, skipped), (name, o)
            assert imported + skipped == _counted_plays(xml), (name, o)
            assert {k["reason"] for k in o["skipped_plays"]} == reasons, (name, o)
            assert all(k["detail"] for k in o["skipped_plays"]), o
            assert len(_plays(ann, lid)) == imported, name
            _every_view_answers(ann, lid)
            # the same file again: every play it imported is a duplicate, nothing is added
            st, hd, again = _import(ann, lid, "bggxml", xml)
            assert st == 200 and again["imported"] == 0, (name, again)
            assert again["skipped"] == imported + skipped, (name, again)
            dup = [k for k in again["skipped_plays"] if k["reason"] == "duplicate"]
            assert len(dup) == imported and again["players_created"] == 0, (name, again)
            assert len(_plays(ann, lid)) == imported, name


def test_documents_that_are_not_plays_are_refused_with_their_reason():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Refused")
        for name, says in NOT_PLAYS.items():
            st, hd, o = _import(ann, lid, "bggxml", _read(name))
            problem(st, hd, o, 400, rule="malformed-file")
            assert says in o["detail"], (name, o)
        assert _plays(ann, lid) == []
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        assert [m["name"] for m in lg["members"]] == ["Ann"], "nothing stored"


def test_plays_without_players_are_listed_and_every_view_survives_them():
    """garycourt's plays, like most plays logged on BGG, have no <players> at all."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "No players")
        st, hd, o = _import(ann, lid, "bggxml", _read("garycourt-plays.xml"))
        assert st == 200 and o["imported"] == 7 and o["players_created"] == 0, o
        plays = _plays(ann, lid)
        assert len(plays) == 7 and all(p["players"] == [] for p in plays), plays
        hitler = _play(ann, lid, "bgg-20999060")
        assert hitler["game"] == "Secret Hitler" and hitler["results"] == [], hitler
        # a BGG date is the players' local date: no offset, none made up
        assert hitler["bgg_id"] == 188834 and hitler["date"] == "2016-12-03T00:00:00"
        assert _standing(ann, lid) == {}
        _every_view_answers(ann, lid)
        st, hd, text = ann.get(f"/api/v1/leagues/{lid}/export.csv")
        rows = list(csv.DictReader(io.StringIO(text.decode())))
        assert len(rows) == 7 and {r["player"] + r["seat"] + r["winner"] for r in rows} == {""}
        assert sum(r["game"] == "Secret Hitler" for r in rows) == 2, rows
        # a backup keeps them, and restores them
        st, hd, b1 = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        assert len(b1["plays"]) == 7 and all(p["results"] == [] for p in b1["plays"]), b1
        lid2 = _league(ann, "Restored")
        st, hd, o = _import(ann, lid2, "backup", json.dumps(b1), "application/json")
        assert st == 200 and o["imported"] == 7, o
        st, hd, b2 = ann.get(f"/api/v1/leagues/{lid2}/backup.json")
        assert b2["plays"] == b1["plays"]
        # a play with players among them is rated as ever
        body = _read("garycourt-plays.xml").replace(
            b'<play id="21522048"', b'<play id="1"  date="2017-01-08" quantity="1"><item '
            b'name="Azul" objectid="230802"/><players><player name="Ann" score="50" win="1"/>'
            b'<player name="Bea" score="40" win="0"/></players></play><play id="21522048"')
        st, hd, o = _import(ann, lid, "bggxml", body)
        assert o["imported"] == 1, o
        table = _standing(ann, lid)
        assert sorted(table) == ["Ann", "Bea"] and table["Ann"]["rated"], table


def test_nowinstats_and_incomplete_plays_are_listed_but_out_of_standings():
    """nowinstats from tnaskali's file; no saved file has incomplete="1", so one of its plays
    is marked so here."""
    xml = _read("tnaskali-by-username.xml").replace(
        b'<play id="46021474" date="2020-10-04" quantity="1" length="30" incomplete="0"',
        b'<play id="46021474" date="2020-10-04" quantity="1" length="30" incomplete="1"')
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Flags")
        st, hd, o = _import(ann, lid, "bggxml", xml)
        assert st == 200 and o["imported"] == 27 and o["skipped"] == 0, o
        games = [p["game"] for p in _plays(ann, lid)]
        assert "Concordia" in games and "Othello" in games, "both are in the league's plays"
        flags = {p["game"]: (p["ignored"], p["incomplete"]) for p in _plays(ann, lid)}
        assert flags["Concordia"] == (True, False) and flags["Othello"] == (False, True), flags
        concordia = _play(ann, lid, "bgg-45750025")  # nowinstats="1"
        assert [(r["name"], r["score"], r["winner"]) for r in concordia["results"]] == \
            [("Thomas Naskali", 94, True), ("Valo Naskali", 85, False)], concordia
        assert all("rating_after" not in r for r in concordia["results"]), "not rated"
        othello = _play(ann, lid, "bgg-46021474")  # incomplete="1"
        assert all("rating_after" not in r for r in othello["results"]), "not rated"
        table = _standing(ann, lid)
        # Valo: Dominion twice, Just One, two escape rooms, Epic Adventures; not Concordia
        assert table["Valo Naskali"]["games"] == 6, table["Valo Naskali"]
        # Joel: eight plays, not Othello
        assert table["Joel Naskali"]["games"] == 8, table["Joel Naskali"]
        assert "me" not in table, "its only play is nowinstats"
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        me = next(m for m in lg["members"] if m["name"] == "me")
        st, hd, hist = ann.get(f"/api/v1/players/{me['id']}/history")
        assert st == 200 and len(hist["history"]) == 1, hist


def test_quantity_is_that_many_plays_and_all_are_duplicates_again():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Quantity")
        xml = _read("sebki-plays.xml")
        st, hd, o = _import(ann, lid, "bggxml", xml)
        assert o["imported"] == 13, o  # 1 + 2 + 4 + 3 + 2 + 1
        st, hd, b = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        carrom = sorted(p["uuid"] for p in b["plays"] if p["game"] == "Carrom")
        assert carrom == ["bgg-44067864", "bgg-44067864-2", "bgg-44067864-3",
                          "bgg-44067864-4"], carrom
        one = _play(ann, lid, "bgg-44067864-3")
        assert one["duration_min"] == 90 and one["location"] == "Wohnzimmer", one
        assert [r["name"] for r in one["results"]] == ["Sebastian Kiedaisch"]
        assert _standing(ann, lid)["Sebastian Kiedaisch"]["games"] == 13
        st, hd, o = _import(ann, lid, "bggxml", xml)
        assert o["imported"] == 0 and [k["reason"] for k in o["skipped_plays"]] == \
            ["duplicate"] * 13, o
        assert sorted(k["id"] for k in o["skipped_plays"] if "44067864" in k["id"]) == carrom
        # quantity 0 (an expansion played within another play) is skipped with its reason
        lid2 = _league(ann, "Expansions")
        st, hd, o = _import(ann, lid2, "bggxml", _read("bram-auser-page3.xml"))
        assert [(k["id"], k["reason"]) for k in o["skipped_plays"]] == \
            [("bgg-71257018", "zero-quantity"), ("bgg-71257019", "zero-quantity")], o


def test_seats_without_a_name_and_names_twice_are_kept_unrated():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Seats")
        for name in ("excali8ur-plays.xml", "bram-novaeux.xml", "tnaskali-by-username.xml",
                     "bram-auser-page3.xml"):
            st, hd, o = _import(ann, lid, "bggxml", _read(name))
            assert st == 200, (name, o)
        # four of BGG's "Anonymous player" in one play: four seats, none of them rated
        kluster = _play(ann, lid, "bgg-95581007")
        seats = [(r["name"], r["winner"], r["unrated"]) for r in kluster["results"]]
        assert seats == [("Anonymous player", True, True),
                         ("Anonymous player (seat 2)", True, True),
                         ("Anonymous player (seat 3)", False, True),
                         ("Anonymous player (seat 4)", False, True),
                         ("Margo", True, False), ("Rianne", False, False)], seats
        assert ["rating_after" in r for r in kluster["results"]] == [False] * 4 + [True] * 2
        # "Redacted" twice in one play: the second seat is another person, unrated
        civ = _play(ann, lid, "bgg-58563743")
        assert [(r["name"], r["unrated"]) for r in civ["results"]] == \
            [("Bram Wijnands", False), ("Redacted", False), ("Redacted (seat 3)", True)], civ
        # a player with a BGG username and no name is named by the username
        corona = _play(ann, lid, "bgg-75289989")
        assert [r["name"] for r in corona["results"]] == ["Non-BGG Friend", "tnaskali"]
        # neither name nor username: the file's own user by its id, others by theirs
        funko = _play(ann, lid, "bgg-71573663")
        assert [r["name"] for r in funko["results"]] == ["auser", "BGG user 7073"], funko
        stars = _play(ann, lid, "bgg-71576371")
        assert [(r["name"], r["unrated"]) for r in stars["results"]][:3] == \
            [("auser", False), ("Anonymous player", True), ("Anonymous player (seat 3)", True)]
        table = _standing(ann, lid)
        assert not [n for n in table if n.startswith("Anonymous") or "(seat" in n], table
        assert table["Margo"]["games"] == 1 and table["Redacted"]["games"] == 7, table
        # an edit of the play (its notes) keeps the anonymous seats unrated
        st, hd, edited = ann.put(f"/api/v1/leagues/{lid}/plays/{kluster['id']}", {
            "game": kluster["game"], "date": kluster["date"], "notes": "four guests",
            "results": [{"player": r["player"], "winner": r["winner"], "rank": r["rank"]}
                        for r in kluster["results"]]})
        assert st == 200, edited
        assert [r["unrated"] for r in edited["results"]] == [True] * 4 + [False] * 2, edited
        assert _standing(ann, lid) == table


def test_scores_as_typed_and_winner_flags_as_given():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Scores")
        for name in ("tnaskali-by-username.xml", "tnaskali-by-thing.xml",
                     "seanacton-mrbiofan12.xml"):
            st, hd, o = _import(ann, lid, "bggxml", _read(name))
            assert st == 200, (name, o)
        # words for scores: no number, the words kept; the win flags stand (all four won)
        epic = _play(ann, lid, "bgg-42832765")
        assert [(r["score"], r["score_text"], r["winner"]) for r in epic["results"]] == \
            [(None, "5 stars", True)] * 4, epic
        # negative scores are numbers
        corona = _play(ann, lid, "bgg-31397654")
        assert [(r["name"], r["score"], r["rank"], r["winner"]) for r in corona["results"]] == \
            [("John Games", 8, 1, True), ("Ed Gamer", -5, 4, False),
             ("Ian Rickards", 4, 2, False), ("Adam Gamer", -1, 3, False)], corona
        # decimals
        grid = _play(ann, lid, "bgg-117315587")
        assert [(r["name"], r["score"], r["rank"]) for r in grid["results"]] == \
            [("B.", 15, 2), ("M.", 14, 3), ("P.", 13, 5), ("R.", 14, 3), ("Sean", 15.1, 1)]
        # empty scores: none; teams (color) as BGG gives them, two winners of one side
        bsg = _play(ann, lid, "bgg-116740890")
        assert [(r["name"], r["score"], r["winner"]) for r in bsg["results"]] == \
            [("A.", None, False), ("A. (seat 2)", None, False), ("G.", None, False),
             ("K.", None, True), ("M.", None, True), ("Sean", None, False)], bsg
        assert not bsg["cooperative"], "BGG has no cooperative flag: the flags stand"
        assert all(r["score_text"] is None for r in bsg["results"])
        # a cooperative game everybody won, logged as such: every flag stands
        exit_ = _play(ann, lid, "bgg-45883989")
        assert [r["winner"] for r in exit_["results"]] == [True] * 4


def test_plays_without_a_date_are_kept_undated_and_bad_ones_skipped_with_their_reason():
    """No saved file has a play without a date (BGG writes 0000-00-00): a real play of
    Excali8ur's file is given one here (kept undated: test_seat_times), and others a date or
    game BGG would not write."""
    xml = _read("excali8ur-plays.xml")
    xml = xml.replace(b'id="95585043" date="2025-02-19" quantity="1"',
                      b'id="95585043" date="0000-00-00" quantity="2"')
    xml = xml.replace(b'id="95581007" date="2025-02-19"', b'id="95581007" date="2025-02-30"')
    xml = xml.replace(b'<item name="Munchkin Bites!"', b'<item name=""')
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Dates")
        st, hd, o = _import(ann, lid, "bggxml", xml)
        assert st == 200 and o["imported"] == 8, o
        assert [(k["index"], k["id"], k["reason"]) for k in o["skipped_plays"]] == [
            (1, "bgg-95581007", "bad-date"), (2, "bgg-95363077", "no-game")], o


def test_a_bgg_play_is_one_play_from_bgg_and_bg_stats_in_either_order():
    """A BG Stats export synced with BGG carries the BGG play id in plays[].bggId (written
    here: no saved BG Stats export carries the id of a play of the saved BGG files). The play
    is stored once, whichever file comes first."""
    doc = json.loads(open(os.path.join(HERE, "data", "bgstats-sample.json"), "rb").read())
    doc["plays"] = doc["plays"][:1]
    doc["plays"][0]["bggId"] = 46021985  # Azul at the club, tnaskali's file
    doc["plays"][0]["playDate"] = "2020-10-02 20:00:00"
    bgstats = json.dumps(doc)
    xml = _read("tnaskali-by-username.xml")
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for first in ("bggxml", "bgstats"):
            lid = _league(ann, "Both " + first)
            files = {"bggxml": (xml, "application/xml"), "bgstats": (bgstats, "application/json")}
            second = "bgstats" if first == "bggxml" else "bggxml"
            st, hd, o = _import(ann, lid, first, *files[first])
            assert st == 200 and o["skipped"] == 0, (first, o)
            n = o["imported"]
            st, hd, o = _import(ann, lid, second, *files[second])
            assert st == 200, (second, o)
            dup = [k for k in o["skipped_plays"] if k["reason"] == "duplicate"]
            assert len(dup) == 1, (first, o)
            assert dup[0]["id"] == ("bgg-46021985" if second == "bggxml"
                                    else doc["plays"][0]["uuid"]), o
            assert len(_plays(ann, lid)) == n + o["imported"] == 27, first
            azul = [p for p in _plays(ann, lid) if p["game"] == "Azul"]
            assert len(azul) == 1, (first, azul)


def test_a_backup_keeps_what_the_imports_recorded():
    """Our backup restores a league identically: every real BGG file and the real BG Stats
    export, imported into one league, backed up, restored into a fresh league, backed up again:
    the same plays (ignored, incomplete, the BGG play id, scores as typed, unrated seats) and the
    same standings."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Everything")
        for name in sorted(PLAYS_FILES):
            st, hd, o = _import(ann, lid, "bggxml", _read(name))
            assert st == 200, (name, o)
        with open(os.path.join(HERE, "data", "bgstats-real", "michaelgao8-2021.json"), "rb") as f:
            st, hd, o = _import(ann, lid, "bgstats", f.read(), "application/json")
        assert st == 200, o
        st, hd, b1 = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        kinds = {k for p in b1["plays"] for k in ("ignored", "incomplete", "bgg_play_id") if k in p}
        kinds |= {k for p in b1["plays"] for r in p["results"] for k in ("score_text", "unrated") if k in r}
        assert kinds == {"ignored", "bgg_play_id", "score_text", "unrated"}, kinds
        lid2 = _league(ann, "Restored")
        st, hd, o = _import(ann, lid2, "backup", json.dumps(b1), "application/json")
        assert st == 200 and o["imported"] == len(b1["plays"]) and o["skipped"] == 0, o
        st, hd, b2 = ann.get(f"/api/v1/leagues/{lid2}/backup.json")
        assert b2["plays"] == b1["plays"]
        strip = lambda t: {n: {k: v for k, v in r.items() if k != "player"} for n, r in t.items()}
        a, b = strip(_standing(ann, lid)), strip(_standing(ann, lid2))
        assert a == b, [(n, a.get(n), b.get(n)) for n in set(a) | set(b) if a.get(n) != b.get(n)][:3]
