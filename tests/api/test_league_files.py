"""A league's files in and out (api.md "Leagues and history"): import of BG Stats JSON and BGG
XML samples, errors that store nothing, the export and import round trip, the CSV export for
spreadsheets, mangled files, and bodies refused from their headers alone."""
import json, os, re

from harness import Server, make_database, problem
from league_util import announce, import_file, join, new_league, user

HERE = os.path.dirname(os.path.abspath(__file__))


def _db():
    return make_database("h_league_files")


def _read(name):
    with open(os.path.join(HERE, "data", name), "rb") as f:
        return f.read()


def test_import_bgstats_sample():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Bea",))
        lid = lg["id"]
        st, hd, o = import_file(ann, lid, "bgstats", _read("bgstats-sample.json"), "application/json")
        assert st == 200, (st, o)
        assert {k: o[k] for k in ("imported", "skipped", "players_created")} == {"imported": 3, "skipped": 0, "players_created": 1}, o  # Gus is new
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        byname = {p["game"]: p for p in plays["plays"]}
        st, hd, azul = ann.get(f"/api/v1/leagues/{lid}/plays/{byname['Azul']['id']}")
        assert azul["uuid"] == "c0ffee00-0000-4000-8000-000000000001" and azul["source"] == "bgstats"
        assert azul["date"] == "2025-11-02T20:15:00" and azul["duration_min"] == 35  # local
        assert azul["location"] == "Café Meeple" and azul["notes"] == "first game of the night"
        assert azul["bgg_id"] == 230802
        assert [(r["name"], r["score"], r["rank"], r["winner"]) for r in azul["results"]] == \
            [("Ann", 61, 1, True), ("Bea", 48, 2, False), ("Gus", 48, 2, False)], azul
        assert azul["results"][1]["player"] == ids["Bea"], "matched to the member by name"
        # Golf: highestWins false, the lowest score wins
        st, hd, golf = ann.get(f"/api/v1/leagues/{lid}/plays/{byname['Golf']['id']}")
        assert [(r["name"], r["rank"], r["winner"]) for r in golf["results"]] == \
            [("Ann", 2, False), ("Bea", 1, True)], golf
        st, hd, hanabi = ann.get(f"/api/v1/leagues/{lid}/plays/{byname['Hanabi']['id']}")
        assert hanabi["cooperative"] and all(r["winner"] for r in hanabi["results"]), hanabi
        # the same file again: everything skipped, nothing duplicated
        st, hd, o = import_file(ann, lid, "bgstats", _read("bgstats-sample.json"), "application/json")
        assert {k: o[k] for k in ("imported", "skipped", "players_created")} == {"imported": 0, "skipped": 3, "players_created": 0}, o
        assert [k["reason"] for k in o["skipped_plays"]] == ["duplicate"] * 3, o
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        assert len(plays["plays"]) == 3
        # a play twice in one file: the first goes in, the second is listed as a duplicate
        doc = json.loads(_read("bgstats-sample.json"))
        first = dict(doc["plays"][0], uuid="c0ffee00-0000-4000-8000-0000000000aa")
        doc["plays"] = [first, dict(doc["plays"][1], uuid="c0ffee00-0000-4000-8000-0000000000bb"), first]
        st, hd, o = import_file(ann, lid, "bgstats", json.dumps(doc).encode(), "application/json")
        assert st == 200 and o["imported"] == 2, o
        assert [(k["index"], k["reason"]) for k in o["skipped_plays"]] == [(2, "duplicate")], o


def test_import_bgg_xml_sample():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Bea",))
        lid = lg["id"]
        for ctype in ("application/xml", "text/xml; charset=utf-8"):
            st, hd, o = import_file(ann, lid, "bggxml", _read("bgg-plays-sample.xml"), ctype)
            assert st == 200, (st, o)
        assert {k: o[k] for k in ("imported", "skipped", "players_created")} == {"imported": 0, "skipped": 3, "players_created": 0}, o
        assert [k["reason"] for k in o["skipped_plays"]] == ["duplicate"] * 3, o  # second time
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        assert len(plays["plays"]) == 3
        byname = {p["game"]: p for p in plays["plays"]}
        st, hd, dh = ann.get(f"/api/v1/leagues/{lid}/plays/{byname['Dice Hospital']['id']}")
        assert dh["uuid"] == "bgg-87654321" and dh["source"] == "bggxml" and dh["bgg_id"] == 242302
        assert dh["date"] == "2025-10-28T00:00:00" and dh["duration_min"] == 45  # local
        assert dh["notes"] == "Close game & a lot of dice" and dh["location"] == "Home"
        assert [(r["name"], r["score"], r["rank"], r["winner"]) for r in dh["results"]] == \
            [("Ann", 52, 1, True), ("Hal", 47, 2, False), ("Bea", 39, 3, False)], dh
        # lowest score won (the win flags say so)
        st, hd, golf = ann.get(f"/api/v1/leagues/{lid}/plays/{byname['Golf']['id']}")
        assert [(r["name"], r["rank"], r["winner"]) for r in golf["results"]] == \
            [("Ann", 1, True), ("Hal", 2, False)], golf
        st, hd, lg2 = ann.get(f"/api/v1/leagues/{lid}")
        assert sorted(m["name"] for m in lg2["members"]) == ["Ann", "Bea", "Hal"]


def test_import_errors_store_nothing():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=())
        lid = lg["id"]
        sample = json.loads(_read("bgstats-sample.json"))
        # a play BG Stats wrote that cannot be read is skipped with its reason, not refused
        st, hd, other = ann.post("/api/v1/leagues", {"name": "Other"})
        bad = json.loads(json.dumps(sample))
        bad["plays"][2]["playerScores"][1]["playerRefId"] = 99  # the LAST play is wrong
        bad["plays"][0]["playerScores"][0]["score"] = "lots"  # words: no score
        st, hd, o = import_file(ann, other["id"], "bgstats", json.dumps(bad), "application/json")
        assert st == 200 and o["imported"] == 2, o
        assert [(k["index"], k["reason"]) for k in o["skipped_plays"]] == [(2, "no-players")], o
        # a file that is no BG Stats export at all is refused whole, naming what is wrong
        st, hd, o = import_file(ann, lid, "bgstats", json.dumps({"games": [], "players": []}),
                            "application/json")
        problem(st, hd, o, 400, rule="malformed-file")
        st, hd, o = import_file(ann, lid, "bgstats", json.dumps(dict(sample, locations="x")),
                            "application/json")
        problem(st, hd, o, 400, rule="malformed-file", field="/locations")
        st, hd, o = import_file(ann, lid, "bgstats", b'{"games": [', "application/json")
        problem(st, hd, o, 400)
        st, hd, o = import_file(ann, lid, "bggxml", b"<plays><play id='1'>", "application/xml")
        problem(st, hd, o, 400, rule="malformed-file")
        assert "line" in o["detail"], o
        st, hd, o = import_file(ann, lid, "bggxml", b"<games/>", "application/xml")
        problem(st, hd, o, 400, rule="malformed-file")
        # an external entity is not fetched nor expanded (XXE)
        xxe = (b'<?xml version="1.0"?><!DOCTYPE plays [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
               b'<plays><play id="5" date="2025-01-01"><item name="&x;" objectid="1"/>'
               b'<players><player name="Ann" win="1"/></players></play></plays>')
        st, hd, o = import_file(ann, lid, "bggxml", xxe, "application/xml")
        if st == 200:
            st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
            assert "root:" not in json.dumps(plays), plays
            ann.delete(f"/api/v1/leagues/{lid}/plays/{plays['plays'][0]['id']}")
        st, hd, o = import_file(ann, lid, "bgstats", _read("bgstats-sample.json"), "application/xml")
        problem(st, hd, o, 415)
        st, hd, o = import_file(ann, lid, "xlsx", b"x", "text/csv")  # no such format
        problem(st, hd, o, 400)
        st, hd, o = import_file(ann, lid, "csv", b"date,game\n\"2024", "text/csv")
        problem(st, hd, o, 400, rule="malformed-file", field="/rows/2")
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        assert plays["plays"] == [], "nothing half-imported"
        st, hd, lg2 = ann.get(f"/api/v1/leagues/{lid}")
        assert [m["name"] for m in lg2["members"]] == ["Ann"], "no member created either"
        # 16 MiB cap: 413 above it, and this route only (others keep 64 KiB)
        assert announce(s, ann, f"/api/v1/leagues/{lid}/import?format=bgstats",
                         16 * 1024 * 1024 + 1).startswith("HTTP/1.1 413"), "over 16 MiB"
        assert announce(s, ann, f"/api/v1/leagues/{lid}/members",
                         64 * 1024 + 1).startswith("HTTP/1.1 413"), "other routes: 64 KiB"
        # just under the cap is read and parsed (a malformed 16 MiB file: 400, not 413)
        big = b'{"x": "' + b"a" * (16 * 1024 * 1024 - 10) + b'"}'
        st, hd, o = import_file(ann, lid, "bgstats", big, "application/json")
        problem(st, hd, o, 400, rule="malformed-file")
        # importing is the owners' business; CSRF is checked as for every mutation
        bob = user(s, "bob@example.org")
        join(ann, lid, bob, "Bob")
        st, hd, o = import_file(bob, lid, "bgstats", _read("bgstats-sample.json"), "application/json")
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, o = ann.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats",
                             _read("bgstats-sample.json"), raw=True, origin=False,
                             headers={"Content-Type": "application/json"})
        problem(st, hd, o, 403, rule="origin-mismatch")


def test_export_import_round_trips():
    import csv, io
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, name="Club", guests=("Bea", "Cid, \"the dice\"", "=cmd"))
        lid = lg["id"]
        st, hd, o = import_file(ann, lid, "bgstats", _read("bgstats-sample.json"), "application/json")
        st, hd, o = import_file(ann, lid, "bggxml", _read("bgg-plays-sample.xml"), "application/xml")
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2025-12-01T20:00:00Z", "notes": "line one\nline two",
            "results": [{"player": ids["Cid, \"the dice\""], "score": 12.5},
                        {"player": ids["=cmd"], "score": 10}]})
        assert st == 201, o
        ann.post(f"/api/v1/leagues/{lid}/seasons", {"name": "Autumn", "starts": "2025-09-01",
                                                    "ends": "2025-11-30"})
        # backup → a new league → backup: identical
        st, hd, b1 = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        assert st == 200 and "attachment" in hd["content-disposition"], hd
        assert len(b1["plays"]) == 7 and b1["format"] == "dicehospital-league-backup"
        # a score breakdown (what table games store) survives, quotes and backslashes included
        b1["plays"][0]["results"][0]["breakdown"] = {"a\\b": 2, 'wards "x"': 3}
        st, hd, lg2 = ann.post("/api/v1/leagues", {"name": "Club"})
        st, hd, o = import_file(ann, lg2["id"], "backup", json.dumps(b1), "application/json")
        assert st == 200 and o["imported"] == 7 and o["skipped"] == 0, o
        st, hd, b2 = ann.get(f"/api/v1/leagues/{lg2['id']}/backup.json")
        assert b2 == b1, "backup → import → backup is identical"
        st, hd, s1 = ann.get(f"/api/v1/leagues/{lid}/standings")
        st, hd, s2 = ann.get(f"/api/v1/leagues/{lg2['id']}/standings")
        strip = lambda st_: [{k: v for k, v in r.items() if k != "player"} for r in st_["standings"]]
        assert strip(s1) == strip(s2), "same ratings after the round trip"
        st, hd, o = import_file(ann, lg2["id"], "backup", json.dumps(b1), "application/json")
        assert {k: o[k] for k in ("imported", "skipped", "players_created")} == {"imported": 0, "skipped": 7, "players_created": 0}, o
        assert [k["reason"] for k in o["skipped_plays"]] == ["duplicate"] * 7, o
        # BG Stats export → import into a new league → export: the same plays
        st, hd, e1 = ann.get(f"/api/v1/leagues/{lid}/export.json")
        assert st == 200 and {"games", "players", "locations", "plays"} <= set(e1)
        assert all(x["score"] is None or isinstance(x["score"], str)
                   for p in e1["plays"] for x in p["playerScores"]), "strings as typed, or null"
        st, hd, lg3 = ann.post("/api/v1/leagues", {"name": "Club"})
        st, hd, o = import_file(ann, lg3["id"], "bgstats", json.dumps(e1), "application/json")
        assert st == 200 and o["imported"] == 7, o
        st, hd, e3 = ann.get(f"/api/v1/leagues/{lg3['id']}/export.json")
        names = lambda e: {p["id"]: p["name"] for p in e["players"]}
        norm = lambda e: [(p["uuid"], p["playDate"], p.get("durationMin"), p.get("comments"),
                           [(names(e)[x["playerRefId"]], x["score"], x["winner"], x["rank"])
                            for x in p["playerScores"]]) for p in e["plays"]]
        assert norm(e3) == norm(e1)
        assert e3 == e1, "a league fed by an export exports it again"
        assert [g["name"] for g in e3["games"]] == [g["name"] for g in e1["games"]]
        # CSV: one row per player per play, quoted where needed, formulas neutralised
        st, hd, text = ann.get(f"/api/v1/leagues/{lid}/export.csv")
        assert st == 200 and hd["content-type"].startswith("text/csv"), hd
        rows = list(csv.DictReader(io.StringIO(text.decode())))
        assert len(rows) == sum(len(p["results"]) for p in b1["plays"]), len(rows)
        azul = [r for r in rows if r["date"] == "2025-12-01T20:00:00Z"]
        assert [r["player"] for r in azul] == ['Cid, "the dice"', "'=cmd"], azul
        assert azul[0]["score"] == "12.5" and azul[0]["rank"] == "1" and azul[0]["winner"] == "true"
        assert azul[0]["notes"] == "line one\nline two" and azul[0]["rating_mu"]


def test_csv_export_for_spreadsheets():
    """The CSV opens right in a spreadsheet: a UTF-8 byte order mark, day and time columns that
    read as a date and a time, and text starting = + - @ TAB or CR neutralised."""
    import csv, datetime, io
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("\tTab", "\rCR", "Zoé Ærøskøbing", "-2+3"))
        lid = lg["id"]
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Château Ω", "date": "2026-02-03T19:45:07Z",
            "notes": "\t=cmd|' /C calc'!A0", "location": "@here",
            "results": [{"player": ids["\tTab"], "score": 4}, {"player": ids["\rCR"], "score": 3},
                        {"player": ids["Zoé Ærøskøbing"], "score": -2.5},
                        {"player": ids["-2+3"], "score": 1}]})
        assert st == 201, o
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-02-04",
            "results": [{"player": ids["Ann"], "score": 1}, {"player": ids["-2+3"], "score": 2}]})
        assert st == 201, o
        st, hd, data = ann.get(f"/api/v1/leagues/{lid}/export.csv")
        assert st == 200 and hd["content-type"] == "text/csv; charset=utf-8", hd
        assert data.startswith(b"\xef\xbb\xbf"), data[:10]
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))
        assert list(rows[0])[:5] == ["play", "date", "day", "time", "game"], list(rows[0])
        by = {r["player"]: r for r in rows}
        # a member's name never starts with TAB or CR (white space around it is not kept)
        assert set(by) == {"Tab", "CR", "Zoé Ærøskøbing", "'-2+3", "Ann"}, set(by)
        chateau = by["Zoé Ærøskøbing"]
        assert chateau["game"] == "Château Ω" and chateau["score"] == "-2.5"
        assert chateau["notes"] == "'\t=cmd|' /C calc'!A0" and chateau["location"] == "'@here"
        for r in rows:
            day = datetime.date.fromisoformat(r["day"])
            tod = datetime.time.fromisoformat(r["time"])
            assert re.fullmatch(r"\d{4}-\d\d-\d\d", r["day"]) and re.fullmatch(r"\d\d:\d\d:\d\d", r["time"])
            assert datetime.datetime.combine(day, tod, datetime.timezone.utc) == \
                datetime.datetime.fromisoformat(r["date"].replace("Z", "+00:00")), r
        assert (chateau["day"], chateau["time"]) == ("2026-02-03", "19:45:07")
        assert (by["Ann"]["day"], by["Ann"]["time"]) == ("2026-02-04", "00:00:00")


def test_import_survives_mangled_files():
    """Seeded mutations of the sample files (types swapped, members dropped, bytes cut): every
    answer is 200 or a 400 problem, never a crash, and a 400 stores nothing."""
    import random
    rng = random.Random(1010)
    sample = json.loads(_read("bgstats-sample.json"))
    odd = [None, True, -1, 0, 2 ** 40, 1.5, "", "x" * 300, [], {}, [1, 2], {"id": 1}]

    def mutate(node):
        if isinstance(node, dict) and node:
            k = rng.choice(list(node))
            if rng.random() < 0.3:
                del node[k]
            elif rng.random() < 0.5:
                node[k] = rng.choice(odd)
            else:
                mutate(node[k])
        elif isinstance(node, list) and node:
            i = rng.randrange(len(node))
            if rng.random() < 0.3:
                node.append(json.loads(json.dumps(node[i])))
            elif rng.random() < 0.5:
                node[i] = rng.choice(odd)
            else:
                mutate(node[i])

    xml = _read("bgg-plays-sample.xml")
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=())
        lid = lg["id"]
        seen = {200: 0, 400: 0}
        for n in range(60):
            doc = json.loads(json.dumps(sample))
            for _ in range(rng.randint(1, 3)):
                mutate(doc)
            before = len(ann.get(f"/api/v1/leagues/{lid}/plays")[2]["plays"])
            st, hd, o = import_file(ann, lid, "bgstats", json.dumps(doc), "application/json")
            assert st in (200, 400), (st, o, doc)
            seen[st] += 1
            if st == 400:
                problem(st, hd, o, 400)
                after = len(ann.get(f"/api/v1/leagues/{lid}/plays")[2]["plays"])
                assert after == before, "a refused file stored nothing"
            cut = xml[: rng.randrange(len(xml))] if n % 2 else xml.replace(b'"', b"'", rng.randint(1, 9))
            st, hd, o = import_file(ann, lid, "bggxml", cut, "application/xml")
            assert st in (200, 400), (st, o)
        assert seen[200] and seen[400], seen
