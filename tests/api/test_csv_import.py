"""Spreadsheets in (POST …/import?format=csv, …/import/preview): our own export.csv reads
back as the same league; real play logs of other layouts saved in public repositories
(tests/api/data/csv-real/, README.md there names each source) import through a mapping that
the preview proposes; a file LibreOffice wrote; and bad files and rows answer with the rule
and the row."""
import csv, io, json, os, urllib.parse

from harness import Server, make_database, problem
from league_util import announce, league_plays, user

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "csv-real")
BGSTATS = os.path.join(HERE, "data", "bgstats-real", "michaelgao8-2021.json")


def _db():
    return make_database("h_csv_import")


def _read(name):
    with open(os.path.join(REAL, name), "rb") as f:
        return f.read()


def _q(**mapping):
    return "".join(f"&{k}={urllib.parse.quote(v)}" for k, v in mapping.items() if v is not None)


def _import(c, lid, body, ctype="text/csv", **mapping):
    return c.call("POST", f"/api/v1/leagues/{lid}/import?format=csv{_q(**mapping)}", body,
                  raw=True, headers={"Content-Type": ctype})


def _preview(c, lid, body, **mapping):
    return c.call("POST", f"/api/v1/leagues/{lid}/import/preview?format=csv{_q(**mapping)}",
                  body, raw=True, headers={"Content-Type": "text/csv"})


def _league(c, name):
    st, hd, lg = c.post("/api/v1/leagues", {"name": name})
    assert st == 201, (st, lg)
    return lg["id"]


def _play_key(p):
    """What a play is, as a reader compares it: game, date, and each seat's name, score,
    rank and winner flag."""
    seats = sorted((r["name"], r.get("score"), r.get("rank"), bool(r.get("winner")))
                   for r in p["players"])
    return (p["game"], p["date"][:19], tuple(seats))


def _standings(c, lid):
    st, hd, o = c.get(f"/api/v1/leagues/{lid}/standings")
    assert st == 200, (st, o)
    return sorted((r["name"], r["games"], r["wins"], r["average_score"],
                   round(r["rating"]["mu"], 9), round(r["rating"]["sigma"], 9))
                  for r in o["standings"])


def _bgstats_league(c):
    lid = _league(c, "From BG Stats")
    with open(BGSTATS, "rb") as f:
        st, hd, o = c.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats", f.read(),
                           raw=True, headers={"Content-Type": "application/json"})
    assert st == 200 and o["imported"] > 10, (st, o)
    return lid


def _same_league(c, a, b):
    pa, pb = league_plays(c, a), league_plays(c, b)
    assert len(pa) == len(pb)
    assert sorted(map(_play_key, pa)) == sorted(map(_play_key, pb))
    assert _standings(c, a) == _standings(c, b)


def test_own_export_reads_back_as_the_same_league():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        a = _bgstats_league(ann)
        st, hd, exported = ann.get(f"/api/v1/leagues/{a}/export.csv")
        assert st == 200
        body = exported if isinstance(exported, bytes) else exported.encode()
        b = _league(ann, "From its CSV")
        st, hd, pv = _preview(ann, b, body)
        assert st == 200 and pv["problem"] is None, pv
        assert pv["columns"][:2] == ["play", "date"] and "player" in pv["columns"], pv
        st, hd, o = _import(ann, b, body)
        assert st == 200 and o["skipped"] == 0, o
        _same_league(ann, a, b)
        # again, and into the league it came from: every play is a duplicate
        for lid in (a, b):
            st, hd, again = _import(ann, lid, body)
            assert st == 200 and again["imported"] == 0, again
            assert {k["reason"] for k in again["skipped_plays"]} == {"duplicate"}, again


def test_own_export_of_bgg_plays_keeps_what_stays_out_of_the_standings():
    """Real BGG files (../bgg-real/): plays not in stats, anonymous seats, a name twice in a
    play (unrated seats): the export says so (ignored, incomplete, unrated), and reads back."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for name in ("tnaskali-by-username.xml", "excali8ur-plays.xml", "seanacton-mrbiofan12.xml"):
            a = _league(ann, name[:40])
            with open(os.path.join(HERE, "data", "bgg-real", name), "rb") as f:
                st, hd, o = ann.call("POST", f"/api/v1/leagues/{a}/import?format=bggxml", f.read(),
                                     raw=True, headers={"Content-Type": "application/xml"})
            assert st == 200, o
            st, hd, body = ann.get(f"/api/v1/leagues/{a}/export.csv")
            b = _league(ann, "CSV of " + name[:40])
            st, hd, o = _import(ann, b, body)
            assert st == 200 and o["skipped"] == 0, (name, o)
            _same_league(ann, a, b)


def test_libreoffice_resave_of_our_export_reads_back_as_the_same_league():
    """libreoffice-export.csv: our export of the BG Stats league above, opened and saved by
    LibreOffice Calc (README.md there has the command): TRUE/FALSE for our true/false, times
    as 10:08:41 PM, no BOM, LF line ends."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        a = _bgstats_league(ann)
        b = _league(ann, "Through LibreOffice")
        body = _read("libreoffice-export.csv")
        st, hd, o = _import(ann, b, body)
        assert st == 200 and o["skipped"] == 0, o
        _same_league(ann, a, b)


def test_an_export_of_the_first_17_columns_reads_back_with_its_plays():
    """libreoffice-export-17.csv: the same league's export through LibreOffice as it was before
    the columns of what stays out of the standings and the seat's details: every play and seat
    reads back (its team plays, without their teams, rate as free-for-alls)."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        a = _bgstats_league(ann)
        b = _league(ann, "Seventeen columns")
        body = _read("libreoffice-export-17.csv")
        st, hd, pv = _preview(ann, b, body)
        assert st == 200 and pv["problem"] is None, pv
        assert len(pv["columns"]) == 17 and "team" not in pv["columns"], pv
        st, hd, o = _import(ann, b, body)
        assert st == 200 and o["skipped"] == 0, o
        pa, pb = league_plays(ann, a), league_plays(ann, b)
        assert sorted(map(_play_key, pa)) == sorted(map(_play_key, pb))


def test_ws_leaderboard_row_per_play_with_pairs():
    """team1,score1,score2,team2,players,date: a row per play, two seats, no game column."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "White Stars")
        body = _read("ws-leaderboard-archive.csv")
        st, hd, pv = _preview(ann, lid, body)
        assert st == 200, pv
        assert pv["columns"] == ["player:1", "score:1", "score:2", "player:2", "", "date"], pv
        assert pv["problem"]["field"] == "game" and pv["problem"]["rule"] == "csv-mapping", pv
        st, hd, o = _import(ann, lid, body)
        problem(st, hd, o, 400, rule="csv-mapping", field="game")
        st, hd, pv = _preview(ann, lid, body, game="Hades' Star")
        assert st == 200 and pv["problem"] is None and pv["plays"] == 40, pv
        first = pv["preview"][0]
        assert first["row"] == 2 and first["date"].startswith("2023-07-09"), first
        assert [(p["name"], p["score"], p["winner"]) for p in first["players"]] == [
            ("Hinterm Mond", 130, True), ("The Star League", 76, False)], first
        st, hd, o = _import(ann, lid, body, game="Hades' Star")
        assert st == 200 and (o["imported"], o["skipped"]) == (40, 0), o
        plays = league_plays(ann, lid)
        tie = [p for p in plays if {r["name"] for r in p["players"]} == {"Lexx", "Metal Nova"}]
        assert len(tie) == 1 and [r["rank"] for r in tie[0]["players"]] == [1, 1], tie
        names = {r["name"] for p in plays for r in p["players"]}
        assert {"星环星辰之海", "(_(_Vossk_)_)", "$TAR$", "Anla'Shok"} <= names
        st, hd, again = _import(ann, lid, body, game="Hades' Star")
        assert st == 200 and again["imported"] == 0 and again["skipped"] == 40, again


def test_pga99_row_per_play_with_the_winner_named():
    """A log derived from BG Stats: a row per play naming its winner, some without a game."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Advent")
        body = _read("pga99-adventskalendar-plays.csv")
        st, hd, pv = _preview(ann, lid, body)
        assert st == 200 and pv["problem"] is None, pv
        cols = dict(zip(pv["header"], pv["columns"]))
        assert (cols["playDate"], cols["durationMin"], cols["coop"], cols["winner"],
                cols["bggName"], cols["id"]) == ("date", "duration", "cooperative",
                                                  "winner_name", "game", ""), cols
        assert [k["row"] for k in pv["skipped_rows"]] == [9, 11, 27], pv
        st, hd, o = _import(ann, lid, body)
        assert st == 200 and (o["imported"], o["skipped"]) == (23, 3), o
        assert {k["reason"] for k in o["skipped_plays"]} == {"no-game"}, o
        assert all(k["detail"].startswith("row ") for k in o["skipped_plays"]), o
        plays = {(p["game"], p["date"][:19]): p for p in league_plays(ann, lid)}
        tm = plays[("Terraforming Mars", "2020-07-18T23:12:47")]
        assert [(r["name"], r["winner"]) for r in tm["players"]] == [("Julia", True)], tm
        st, hd, full = ann.get(f"/api/v1/leagues/{lid}/plays/{tm['id']}")
        assert st == 200 and full["duration_min"] == 150 and full["source"] == "csv", full
        assert plays[("Codenames", "2020-05-19T22:49:09")]["players"] == []
        assert plays[("Detective Stories: Demo \"Gattardo\"", "2020-10-29T13:33:03")]
        assert "Jonas" in {r["name"] for p in plays.values() for r in p["players"]}
        # a backup keeps where the plays came from, and restores
        st, hd, backup = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        assert st == 200 and {p["source"] for p in backup["plays"]} == {"csv"}, backup["plays"][0]
        other = _league(ann, "Advent again")
        st, hd, o = ann.call("POST", f"/api/v1/leagues/{other}/import?format=backup",
                             json.dumps(backup), raw=True,
                             headers={"Content-Type": "application/json"})
        assert st == 200 and o["imported"] == 23, o


def test_semicolons_decimal_commas_dotted_dates_and_windows_1252():
    """What a French or German spreadsheet writes: ';', 12,5, 31.03.2024, no UTF-8."""
    text = ("Datum;Spiel;Spieler;Punkte\r\n"
            "31.03.2024 20:15;Azul;Zoé;12,5\r\n31.03.2024 20:15;Azul;Jürgen;10\r\n"
            "01.04.2024;Café International;Zoé;7\r\n01.04.2024;Café International;Jürgen;9\r\n")
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for body in (text.encode("utf-8-sig"), text.encode("cp1252")):
            lid = _league(ann, "Semicolons")
            st, hd, pv = _preview(ann, lid, body)
            assert st == 200 and pv["separator"] == ";" and pv["plays"] == 2, pv
            assert pv["columns"] == ["date", "game", "player", "score"], pv
            st, hd, o = _import(ann, lid, body)
            assert st == 200 and o["imported"] == 2, o
            plays = {p["game"]: p for p in league_plays(ann, lid)}
            azul = plays["Azul"]
            assert azul["date"].startswith("2024-03-31T20:15:00"), azul
            assert [(r["name"], r["score"], r["rank"]) for r in azul["players"]] == [
                ("Zoé", 12.5, 1), ("Jürgen", 10, 2)], azul
            assert "Café International" in plays


def test_ambiguous_dates_need_the_mapping_to_say():
    text = "date,game,player,score\n03/04/2024,Azul,Ann,10\n03/04/2024,Azul,Bob,8\n"
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Dates")
        st, hd, pv = _preview(ann, lid, text.encode())
        assert st == 200 and pv["dates_ambiguous"] and pv["dates"] is None, pv
        assert pv["problem"]["field"] == "dates", pv
        st, hd, o = _import(ann, lid, text.encode())
        problem(st, hd, o, 400, rule="csv-mapping", field="dates")
        st, hd, o = _import(ann, lid, text.encode(), dates="mdy")
        assert st == 200 and o["imported"] == 1, o
        assert league_plays(ann, lid)[0]["date"].startswith("2024-03-04"), league_plays(ann, lid)
        # a day over 12 settles it without asking
        st, hd, pv = _preview(ann, lid, b"date,game,player\n25/12/2024,Azul,Ann\n03/04/2024,Azul,Bob\n")
        assert st == 200 and pv["dates"] == "dmy" and not pv["dates_ambiguous"], pv


def test_a_mapping_chosen_by_hand_and_bad_rows():
    text = ("when,what,who,pts,won\n"
            "2024-05-01,Azul,Ann,10,yes\n2024-05-01,Azul,Bob,12,no\n"
            "2024-05-02,Azul,Ann,x,\n"
            "not a date,Azul,Bob,3,\n"
            ",Azul,Bob,3,\n")
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "By hand")
        cols = "date,game,player,score,winner"
        st, hd, pv = _preview(ann, lid, text.encode(), columns=cols)
        assert st == 200 and pv["columns"] == cols.split(","), pv
        # row 4: one player, a score in words and no flag, so nothing ranks the play
        assert [(k["row"], k["reason"]) for k in pv["skipped_rows"]] == [
            (4, "bad-players"), (5, "bad-date"), (6, "no-date")], pv
        st, hd, o = _import(ann, lid, text.encode(), columns=cols)
        assert st == 200 and (o["imported"], o["skipped"]) == (1, 3), o
        first = [p for p in league_plays(ann, lid) if p["date"].startswith("2024-05-01")][0]
        # the winner flags stand against the scores (a winner chosen by hand)
        assert [(r["name"], r["winner"]) for r in first["players"]] == [("Ann", True), ("Bob", False)]
        for columns, field_detail in (("date,game,player,bogus", "bogus"),
                                      ("date,game,player,score,winner,notes", "more columns"),
                                      ("date,date,player", "both"),
                                      ("date,game,player,score:1", "not both")):
            st, hd, o = _import(ann, lid, text.encode(), columns=columns)
            problem(st, hd, o, 400, rule="csv-mapping", field="columns")
            assert field_detail in o["detail"], (columns, o)
        st, hd, o = _import(ann, lid, text.encode(), columns=cols, dates="ymd")
        problem(st, hd, o, 400, rule="csv-mapping", field="dates")


def test_files_that_are_no_csv_are_refused_with_the_row():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, "Refused")
        st, hd, o = _import(ann, lid, b'date,game,player\n2024-01-01,"Azul,Ann\n2024-01-02,Azul,Bob\n')
        problem(st, hd, o, 400, rule="malformed-file", field="/rows/2")
        st, hd, o = _import(ann, lid, b"date,game\x00,player\n")
        problem(st, hd, o, 400, rule="malformed-file")
        st, hd, o = _import(ann, lid, b"date,game,player\n", ctype="application/json")
        assert st == 415, (st, o)
        st, hd, o = _import(ann, lid, ",".join(f"c{i}" for i in range(200)).encode())
        problem(st, hd, o, 400, rule="malformed-file", field="/rows/1")
        st, hd, o = _import(ann, lid, b"\xef\xbb\xbf")
        problem(st, hd, o, 400, rule="malformed-file")
        assert league_plays(ann, lid) == []
        st, hd, o = ann.call("POST", f"/api/v1/leagues/{lid}/import/preview?format=bgstats",
                             b"{}", raw=True, headers={"Content-Type": "application/json"})
        problem(st, hd, o, 400)
        # the preview takes what the import takes: 16 MiB, refused from the headers beyond
        assert announce(s, ann, f"/api/v1/leagues/{lid}/import/preview?format=csv",
                         16 * 1024 * 1024 + 1).startswith("HTTP/1.1 413")
        # owners only, and Origin checked, as for the import
        bob = user(s, "bob@example.org", "Bob")
        st, hd, o = _preview(bob, lid, b"date,game,player\n")
        assert st == 403, (st, o)
        st, hd, o = ann.call("POST", f"/api/v1/leagues/{lid}/import/preview?format=csv",
                             b"date,game,player\n", raw=True, origin=False,
                             headers={"Content-Type": "text/csv"})
        problem(st, hd, o, 403, rule="origin-mismatch")
