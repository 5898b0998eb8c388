"""Leagues (api.md "Leagues and history"): leagues, owners, members (accounts and
guests), seasons, plays by hand with edit/delete logged and recomputed, standings with the
Weng-Lin Plackett-Luce rating (checked against values computed by hand, see
tests/unit/test_rating.c), head-to-head, player history, every 401/403, a finished ER game
recorded exactly once. Files in and out: test_league_files.py."""
import json, os, re, subprocess

from harness import Server, make_database, problem
from league_util import Client, claim, import_file, invite, join, new_league, user


def _db():
    return make_database("h_leagues")


def test_league_life_cycle_and_permissions():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann)
        lid = lg["id"]
        assert lg["you"]["owner"] and lg["you"]["member"] == ids["Ann"], lg
        assert [o["display_name"] for o in lg["owners"]] == ["Ann"]
        st, hd, o = ann.get("/api/v1/leagues")
        assert st == 200 and [x["id"] for x in o["leagues"]] == [lid], o
        # without a session: 401 everywhere
        anon = Client(s)
        for method, path, body in [("GET", f"/api/v1/leagues/{lid}", None),
                                   ("GET", "/api/v1/leagues", None),
                                   ("POST", "/api/v1/leagues", {"name": "x"}),
                                   ("POST", f"/api/v1/leagues/{lid}/members", {"name": "x"}),
                                   ("POST", f"/api/v1/leagues/{lid}/plays", {"game": "x", "results": []}),
                                   ("GET", f"/api/v1/leagues/{lid}/standings", None),
                                   ("GET", f"/api/v1/players/{ids['Bea']}/history", None),
                                   ("DELETE", f"/api/v1/leagues/{lid}/members/{ids['Bea']}", None)]:
            st, hd, o = anon.call(method, path, body)
            problem(st, hd, o, 401, rule="no-session")
        # a stranger: 403 for reading and writing
        eve = user(s, "eve@example.org", "Eve")
        st, hd, o = eve.get(f"/api/v1/leagues/{lid}")
        problem(st, hd, o, 403, rule="not-member")
        st, hd, o = eve.get(f"/api/v1/leagues/{lid}/standings")
        problem(st, hd, o, 403, rule="not-member")
        st, hd, o = eve.get(f"/api/v1/players/{ids['Bea']}/history")
        problem(st, hd, o, 403, rule="not-member")
        st, hd, o = eve.post(f"/api/v1/leagues/{lid}/members", {"name": "Mallory"})
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, o = eve.get("/api/v1/leagues")
        assert o["leagues"] == []
        st, hd, o = eve.get("/api/v1/leagues/nope")
        problem(st, hd, o, 404)
        # a member with an account (added by e-mail): reads, records plays, cannot manage
        bob = user(s, "bob@example.org", "Bob")
        m = join(ann, lid, bob, "Bob")
        assert m["account"] == bob.account["id"] and not m["guest"], m
        st, hd, o = bob.get(f"/api/v1/leagues/{lid}")
        assert st == 200 and not o["you"]["owner"] and o["you"]["member"] == m["id"], o
        st, hd, o = bob.post(f"/api/v1/leagues/{lid}/members", {"name": "Zed"})
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, o = bob.post(f"/api/v1/leagues/{lid}/seasons",
                             {"name": "S", "starts": "2026-01-01", "ends": "2026-12-31"})
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, o = bob.post(f"/api/v1/leagues/{lid}/owners", {"account": bob.account["id"]})
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, o = bob.delete(f"/api/v1/leagues/{lid}/members/{ids['Bea']}")
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, play = bob.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-03-01",
            "results": [{"player": m["id"], "score": 50}, {"player": ids["Bea"], "score": 40}]})
        assert st == 201, (st, play)
        # members edit their own plays; only owners delete results
        st, hd, o = bob.call("PUT", f"/api/v1/leagues/{lid}/plays/{play['id']}", {
            "game": "Azul", "date": "2026-03-01", "notes": "typo fixed",
            "results": [{"player": m["id"], "score": 52}, {"player": ids["Bea"], "score": 40}]})
        assert st == 200 and o["notes"] == "typo fixed", (st, o)
        st, hd, o = bob.delete(f"/api/v1/leagues/{lid}/plays/{play['id']}")
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, other = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "results": [{"player": ids["Ann"], "rank": 1},
                                        {"player": ids["Bea"], "rank": 2}]})
        assert st == 201
        st, hd, o = bob.call("PUT", f"/api/v1/leagues/{lid}/plays/{other['id']}", {
            "game": "Azul", "results": [{"player": ids["Ann"], "rank": 2},
                                        {"player": ids["Bea"], "rank": 1}]})
        problem(st, hd, o, 403, rule="not-owner")
        # co-owner
        invite(ann, lid, bob)
        st, hd, o = bob.delete(f"/api/v1/leagues/{lid}/plays/{play['id']}")
        assert st == 204, (st, o)
        # CSRF applies to league writes too
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Q"}, origin=False)
        problem(st, hd, o, 403, rule="origin-mismatch")
        # membership: duplicates, deletion of a member with plays
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Bea"})
        problem(st, hd, o, 409, rule="member-exists")
        st, hd, o = ann.delete(f"/api/v1/leagues/{lid}/members/{ids['Bea']}")
        problem(st, hd, o, 409, rule="member-has-plays")
        st, hd, o = ann.delete(f"/api/v1/leagues/{lid}/members/{ids['Dot']}")
        assert st == 204
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Q", "account": "nobody@x.y"})
        problem(st, hd, o, 422, rule="unknown-account", field="/account")


def test_guest_linked_to_account():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Cid",))
        lid = lg["id"]
        st, hd, p1 = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-01-05",
            "results": [{"player": ids["Ann"], "score": 10}, {"player": ids["Cid"], "score": 20}]})
        assert st == 201
        # Cid signs up and joins; he claims the guest entry, an owner approves
        cid = user(s, "cid@example.org", "Cid S.")
        m = join(ann, lid, cid, "Cid S.")
        o = claim(cid, ann, lid, ids["Cid"])
        assert o["id"] == m["id"] and o["merged"] == ids["Cid"], o
        st, hd, h = cid.get(f"/api/v1/players/{m['id']}/history")
        assert st == 200 and [x["play"] for x in h["history"]] == [p1["id"]], h
        assert h["history"][0]["winner"] and h["history"][0]["score"] == 20
        st, hd, o = cid.post(f"/api/v1/leagues/{lid}/members/{m['id']}/link")
        problem(st, hd, o, 409, rule="not-a-guest")
        st, hd, o = cid.post(f"/api/v1/leagues/{lid}/members/{m['id']}/link", {"force": True})
        problem(st, hd, o, 400, field="/force")
        eve = user(s, "eve@example.org")
        st, hd, o = eve.post(f"/api/v1/leagues/{lid}/members/{ids['Ann']}/link")
        problem(st, hd, o, 403, rule="not-member")


def _rating_close(got, mu, sigma):
    assert abs(got["mu"] - mu) < 1e-9 and abs(got["sigma"] - sigma) < 1e-9, (got, mu, sigma)
    assert abs(got["ordinal"] - (mu - 3 * sigma)) < 1e-9


def test_standings_ratings_and_recompute_after_edit():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann)
        lid = lg["id"]
        A, B, C, D = ids["Ann"], ids["Bea"], ids["Cid"], ids["Dot"]
        # play 1: two new players, Ann wins (tests/unit/test_rating.c two_new_players)
        st, hd, p1 = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-02-01", "duration_min": 40,
            "results": [{"player": A, "score": 60}, {"player": B, "score": 45}]})
        assert st == 201, p1
        assert [r["rank"] for r in p1["results"]] == [1, 2] and p1["results"][0]["winner"]
        _rating_close(p1["results"][0]["rating_after"], 27.635389493140497, 8.06590141354368)
        _rating_close(p1["results"][1]["rating_after"], 22.364610506859503, 8.06590141354368)
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings")
        assert st == 200, o
        rows = {r["name"]: r for r in o["standings"]}
        assert set(rows) == {"Ann", "Bea"}
        assert rows["Ann"]["games"] == 1 and rows["Ann"]["wins"] == 1 and rows["Ann"]["win_rate"] == 1
        assert rows["Bea"]["average_score"] == 45 and rows["Bea"]["best_score"] == 45
        assert rows["Bea"]["average_rank"] == 2 and rows["Ann"]["rating"]["provisional"]
        _rating_close(rows["Ann"]["rating"], 27.635389493140497, 8.06590141354368)
        assert o["standings"][0]["name"] == "Ann"
        # a 4-player play with a tie (scores 30, 20, 20, 10) and a cooperative and a solo play
        st, hd, p2 = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-02-08",
            "results": [{"player": A, "score": 30}, {"player": B, "score": 20},
                        {"player": C, "score": 20}, {"player": D, "score": 10}]})
        assert [r["rank"] for r in p2["results"]] == [1, 2, 2, 4], p2
        st, hd, coop = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Pandemic", "date": "2026-02-09", "cooperative": True,
            "results": [{"player": A, "winner": True}, {"player": C}]})
        assert st == 201 and all(r["winner"] and r["rank"] == 1 for r in coop["results"]), coop
        assert all("rating_after" not in r for r in coop["results"]), "cooperative: not rated"
        st, hd, solo = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Onirim", "date": "2026-02-10", "results": [{"player": D, "winner": True}]})
        assert st == 201 and "rating_after" not in solo["results"][0], solo
        # ratings equal a replay of the rated plays in order (the model: tests/unit/test_rating.c)
        import math
        def rate(rs, ranks):
            beta, tau = 25 / 6, 25 / 300
            s2 = [sg * sg + tau * tau for _, sg in rs]
            c = math.sqrt(sum(x + beta * beta for x in s2))
            e = [math.exp(mu / c) for mu, _ in rs]
            n = len(rs)
            sq = [sum(e[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
            a = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
            out = []
            for i in range(n):
                om = de = 0
                for q in range(n):
                    if ranks[q] <= ranks[i]:
                        p = e[i] / sq[q]
                        de += p * (1 - p) / a[q]
                        om += ((1 - p) if q == i else -p) / a[q]
                om *= s2[i] / c
                de *= s2[i] / c ** 2 * math.sqrt(s2[i]) / c
                out.append((rs[i][0] + om, math.sqrt(s2[i]) * math.sqrt(max(1 - de, 1e-4))))
            return out
        d = (25.0, 25 / 3)
        r1 = rate([d, d], [1, 2])
        r2 = rate([r1[0], r1[1], d, d], [1, 2, 2, 4])
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings")
        rows = {r["name"]: r for r in o["standings"]}
        for name, (mu, sg) in zip("Ann Bea Cid Dot".split(), r2):
            _rating_close(rows[name]["rating"], mu, sg)
        assert rows["Dot"]["games"] == 2 and rows["Dot"]["wins"] == 1, rows["Dot"]
        assert rows["Cid"]["games"] == 2 and rows["Cid"]["wins"] == 1
        # filters: game, season
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings?game=pandemic")
        assert sorted(r["name"] for r in o["standings"]) == ["Ann", "Cid"], o
        assert all(not r["rated"] and r["rating"]["mu"] == 25 for r in o["standings"])
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "Feb 8+", "starts": "2026-02-08", "ends": "2026-03-31"})
        assert st == 201, season
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings?season={season['id']}&game=Azul")
        rows = {r["name"]: r for r in o["standings"]}
        fresh = rate([d, d, d, d], [1, 2, 2, 4])
        for name, (mu, sg) in zip("Ann Bea Cid Dot".split(), fresh):
            _rating_close(rows[name]["rating"], mu, sg)
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings?season=nope")
        problem(st, hd, o, 404)
        # head-to-head
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/head-to-head")
        h = {(x["name"], x["opponent_name"]): x for x in o["head_to_head"]}
        assert h[("Ann", "Bea")]["games"] == 2 and h[("Ann", "Bea")]["wins"] == 2
        assert h[("Bea", "Cid")]["ties"] == 1 and h[("Bea", "Ann")]["losses"] == 2
        assert ("Ann", "Cid") in h and h[("Ann", "Cid")]["games"] == 1, "coop not counted"
        # edit the FIRST play: Bea won it after all → everything after is recomputed
        st, hd, o = ann.call("PUT", f"/api/v1/leagues/{lid}/plays/{p1['id']}", {
            "game": "Azul", "date": "2026-02-01", "duration_min": 40,
            "results": [{"player": A, "score": 40}, {"player": B, "score": 45}]})
        assert st == 200, o
        r1 = rate([d, d], [2, 1])
        r2 = rate([r1[0], r1[1], d, d], [1, 2, 2, 4])
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings")
        rows = {r["name"]: r for r in o["standings"]}
        for name, (mu, sg) in zip("Ann Bea Cid Dot".split(), r2):
            _rating_close(rows[name]["rating"], mu, sg)
        st, hd, hist = ann.get(f"/api/v1/players/{B}/history")
        assert [x["play"] for x in hist["history"]] == [p1["id"], p2["id"]]
        _rating_close(hist["history"][0]["rating"], *r1[1])
        _rating_close(hist["history"][1]["rating"], *r2[1])
        assert hist["history"][1]["players"] == 4 and hist["history"][1]["rank"] == 2
        st, hd, last = ann.get(f"/api/v1/players/{B}/history?limit=1&offset=1")
        assert [x["play"] for x in last["history"]] == [p2["id"]] and last["rating"] == hist["rating"]
        st, hd, o = ann.get(f"/api/v1/players/{B}/history?limit=0")
        problem(st, hd, o, 400)
        # delete the first play: the second is now everyone's first
        st, hd, o = ann.delete(f"/api/v1/leagues/{lid}/plays/{p1['id']}")
        assert st == 204
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings")
        rows = {r["name"]: r for r in o["standings"]}
        for name, (mu, sg) in zip("Ann Bea Cid Dot".split(), fresh):
            _rating_close(rows[name]["rating"], mu, sg)
        # the log has create, edit and delete with before/after
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/log")
        acts = [(x["play"], x["action"]) for x in o["log"]]
        assert acts[0] == (p1["id"], "create") and (p1["id"], "edit") in acts
        assert acts[-1] == (p1["id"], "delete"), acts
        edit = [x for x in o["log"] if x["action"] == "edit"][0]
        assert edit["before"]["results"][0]["score"] == 60 and edit["after"]["results"][0]["score"] == 40
        assert edit["account"] == ann.account["id"]


def test_play_validation():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Bea",))
        lid = lg["id"]
        A, B = ids["Ann"], ids["Bea"]
        url = f"/api/v1/leagues/{lid}/plays"
        st, hd, o = ann.post(url, {"game": "Azul", "results": [{"player": A}, {"player": "x" * 24}]})
        problem(st, hd, o, 400, field="/results")  # no rank, score or winner
        st, hd, o = ann.post(url, {"game": "Azul", "results": [{"player": A, "rank": 1},
                                                             {"player": "f" * 24, "rank": 2}]})
        problem(st, hd, o, 422, rule="unknown-player", field="/results/1/player")
        st, hd, o = ann.post(url, {"game": "Azul", "results": [{"player": A, "rank": 1},
                                                             {"player": A, "rank": 2}]})
        problem(st, hd, o, 400, field="/results/1/player")
        st, hd, o = ann.post(url, {"game": "Azul", "date": "2026-02-30",
                                   "results": [{"player": A, "rank": 1}]})
        problem(st, hd, o, 400, field="/date")
        st, hd, o = ann.post(url, {"game": "Azul", "results": [{"player": A, "rank": 1},
                                                             {"player": B}]})
        problem(st, hd, o, 400, field="/results")
        st, hd, o = ann.post(url, {"game": "Azul", "results": [{"player": A, "score": "45"}]})
        problem(st, hd, o, 400, field="/results/0/score")
        st, hd, o = ann.post(url, {"game": "", "results": [{"player": A, "rank": 1}]})
        problem(st, hd, o, 400, field="/game")
        st, hd, o = ann.post(url, {"game": "Azul", "results": [{"player": A, "rank": 1}], "x": 1})
        problem(st, hd, o, 400, field="/x")
        # winner flags alone rank the play; an RFC 3339 time keeps its offset
        st, hd, o = ann.post(url, {"game": "Hanabi", "bgg_id": 98778, "date": "2026-04-01T21:30:00+02:00",
                                   "results": [{"player": A, "winner": False}, {"player": B, "winner": True}]})
        assert st == 201 and [r["rank"] for r in o["results"]] == [2, 1], o
        assert o["date"] == "2026-04-01T21:30:00+02:00" and o["bgg_id"] == 98778, o
        st, hd, o2 = ann.get(f"{url}/{o['id']}")
        assert o2 == o
        st, hd, lst = ann.get(url)
        assert [p["id"] for p in lst["plays"]] == [o["id"]] and lst["plays"][0]["players"][1]["name"] == "Bea"
        st, hd, o3 = ann.post(url, {"game": "Azul", "date": "2026-05-01",
                                    "results": [{"player": A, "rank": 1}, {"player": B, "rank": 2}]})
        st, hd, page = ann.get(url + "?limit=1")
        assert [p["id"] for p in page["plays"]] == [o3["id"]], "newest first"
        st, hd, page = ann.get(url + "?limit=1&offset=1")
        assert [p["id"] for p in page["plays"]] == [o["id"]]
        st, hd, e = ann.get(url + "?limit=0")
        problem(st, hd, e, 400)
        st, hd, lg2 = ann.get(f"/api/v1/leagues/{lid}")
        assert lg2["games"] == ["Azul", "Hanabi"], lg2["games"]


def test_play_keeps_its_local_time_and_seasons_use_the_local_date():
    """api.md Conventions: a play keeps the local time and offset it was recorded with,
    seasons compare its local date, exports write it back as it came; RFC 3339 strictly, or a
    local time without an offset (kept so: test_seat_times)."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Bea",))
        lid = lg["id"]
        A, B = ids["Ann"], ids["Bea"]
        url = f"/api/v1/leagues/{lid}/plays"
        res = [{"player": A, "score": 10}, {"player": B, "score": 5}]
        for bad in ("2026-12-31T23:30-05:00", "2026-12-31T23:59:60Z", "2026-12-31 23:30:00-05:00",
                    "2026-12-31T23:30", "2026-12-31 23:30:00", "2026-12-31T23:30:00+0500",
                    "2026-12-31T23:30:00+24:00"):
            st, hd, o = ann.post(url, {"game": "Azul", "date": bad, "results": res})
            problem(st, hd, o, 400, field="/date")
        st, hd, nye = ann.post(url, {"game": "Azul", "date": "2026-12-31T23:30:00-05:00", "results": res})
        assert st == 201 and nye["date"] == "2026-12-31T23:30:00-05:00", nye
        st, hd, low = ann.post(url, {"game": "Azul", "date": "2027-01-01t00:15:00.25z", "results": res})
        assert st == 201 and low["date"] == "2027-01-01T00:15:00Z", low
        st, hd, s26 = ann.post(f"/api/v1/leagues/{lid}/seasons",
                               {"name": "2026", "starts": "2026-01-01", "ends": "2026-12-31"})
        assert st == 201, s26
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings?season={s26['id']}")
        assert st == 200 and {r["name"]: r["games"] for r in o["standings"]} == {"Ann": 1, "Bea": 1}, o
        # an edit moves the play to 1 January in Auckland: out of the 2026 season
        st, hd, e = ann.put(f"{url}/{nye['id']}", {"game": "Azul", "date": "2027-01-01T17:30:00+13:00",
                                                              "results": res})
        assert st == 200 and e["date"] == "2027-01-01T17:30:00+13:00", e
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings?season={s26['id']}")
        assert st == 200 and [r["games"] for r in o["standings"] if r["games"]] == [], o
        # BG Stats reads playDate as the phone's local time
        st, hd, ex = ann.get(f"/api/v1/leagues/{lid}/export.json")
        assert sorted(p["playDate"] for p in ex["plays"]) == ["2027-01-01 00:15:00", "2027-01-01 17:30:00"], ex
        # the spreadsheet's day and time are the play's own
        st, hd, csv_text = ann.get(f"/api/v1/leagues/{lid}/export.csv")
        import csv as _csv, io as _io
        text = csv_text.decode("utf-8-sig") if isinstance(csv_text, bytes) else csv_text.lstrip("\ufeff")
        rows = list(_csv.DictReader(_io.StringIO(text)))
        assert sorted({(r["day"], r["time"]) for r in rows}) == [("2027-01-01", "00:15:00"), ("2027-01-01", "17:30:00")], rows
        # the backup keeps the offset
        st, hd, bk = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        assert sorted(p["date"] for p in bk["plays"]) == ["2027-01-01T00:15:00Z", "2027-01-01T17:30:00+13:00"], bk


def test_finished_er_game_becomes_exactly_one_play():
    import random
    from games import create, deck, play_turn, random_policy, state
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Bea",))
        lid = lg["id"]
        rng = random.Random(7)
        body = {"players": [{"name": n} for n in ("Ann", "Bea", "Newcomer")], "deck": "table",
                "league": lid}
        # only an owner or a member records games in a league: no session 401, a stranger 403
        st, hd, obj = s.json("POST", "/api/v1/er/games", body,
                             headers={"Origin": f"http://127.0.0.1:{s.port}"})
        problem(st, hd, obj, 401)
        eve = user(s, "eve@example.org", "Eve")
        st, hd, obj = eve.post("/api/v1/er/games", body)
        problem(st, hd, obj, 403)
        st, hd, g = ann.post("/api/v1/er/games", body)
        assert st == 201, (st, g)
        for card, dice in deck(rng, g["turns"]):
            cur, _ = play_turn(s, g, random_policy(rng), card, dice)
        fin = state(s, g["id"], g["host_token"])
        assert fin["status"] == "finished", fin["status"]
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/plays")
        assert len(o["plays"]) == 1, o
        st, hd, play = ann.get(f"/api/v1/leagues/{lid}/plays/{o['plays'][0]['id']}")
        assert play["source"] == "table" and play["game_id"] == g["id"], play
        assert play["game"].startswith("Dice Hospital: ER"), play
        totals = {x["name"]: x["score"]["total"] for x in fin["seats"]}
        ranks = {x["name"]: x["rank"] for x in fin["seats"]}
        assert [r["name"] for r in play["results"]] == ["Ann", "Bea", "Newcomer"]
        for r in play["results"]:
            assert r["player"] == ids.get(r["name"], r["player"])
            assert r["score"] == totals[r["name"]] and r["rank"] == ranks[r["name"]], (r, totals)
            assert "rating_after" in r
        # the stored result says when the game was played (the engine adds it for every kind)
        out = subprocess.run(["psql", "-At", "-d", "h_leagues", "-c",
                              f"SELECT result->>'created_at', result->>'finished_at' FROM games "
                              f"WHERE id = '{g['id']}'"], check=True, capture_output=True,
                             text=True).stdout.strip()
        created, finished = out.split("|")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", created), out
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", finished) and finished >= created, out
        # the new name became a guest member
        st, hd, lg2 = ann.get(f"/api/v1/leagues/{lid}")
        assert any(m["name"] == "Newcomer" and m["guest"] for m in lg2["members"]), lg2
        # nothing more happens to a finished game: still exactly one play
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings")
        assert sorted(r["games"] for r in o["standings"]) == [1, 1, 1], o


def test_game_in_a_league_is_created_only_from_this_site():
    """The session cookie authorises a game in a league, so a foreign page must not be able to
    create one: every kind refuses a foreign or missing Origin with 403 origin-mismatch, and
    nothing is stored."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Bea",))
        players = [{"name": "Ann"}, {"name": "Bea"}]
        bodies = {"er": {"players": players, "deck": "table", "league": lg["id"]},
                  "dh": {"players": players, "league": lg["id"]},
                  "clinic": {"players": players, "league": lg["id"]}}
        for kind, body in bodies.items():
            for origin in ("http://evil.example", None):
                hdrs = {"Origin": origin} if origin else {}
                st, hd, o = ann.call("POST", f"/api/v1/{kind}/games", body, headers=hdrs,
                                     origin=False)
                problem(st, hd, o, 403, rule="origin-mismatch")
            st, hd, o = ann.post(f"/api/v1/{kind}/games", body)
            assert st == 201, (kind, st, o)
        out = subprocess.run(["psql", "-At", "-d", "h_leagues", "-c",
                              "SELECT count(*) FROM games WHERE league IS NOT NULL"],
                             check=True, capture_output=True, text=True).stdout.strip()
        assert out == "3", out


def test_head_to_head_is_bounded():
    """The head-to-head table is players² cells: above 1024 players in the selection it is a
    422 asking for a filter, not an unbounded allocation; standings still answer."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=())
        lid = lg["id"]
        players = [{"id": i + 1, "name": f"P{i:04d}"} for i in range(1025)]
        plays = []
        for k in range(17):
            who = range(k * 64, min(k * 64 + 64, 1025))
            if len(who) < 2:
                who = range(1023, 1025)
            plays.append({"uuid": f"big-{k}", "playDate": f"2025-01-{k + 1:02d} 20:00:00",
                          "gameRefId": 1, "playerScores": [{"playerRefId": i + 1, "score": str(i)}
                                                           for i in who]})
        doc = {"games": [{"id": 1, "name": "Crowd"}], "players": players, "plays": plays}
        st, hd, o = import_file(ann, lid, "bgstats", json.dumps(doc), "application/json")
        assert st == 200 and o["players_created"] == 1025, o
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/head-to-head")
        problem(st, hd, o, 422, rule="too-many-players")
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/standings")
        assert st == 200 and len(o["standings"]) == 1025
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/head-to-head?game=nothing")
        assert st == 200 and o["head_to_head"] == []


def test_every_league_route_401_and_403():
    """Every league route the server serves (read from `server routes`, so a new one cannot be
    forgotten): 401 no-session without a session; 403 for a logged-in stranger (not-member or
    not-owner); and the owner-only ones 403 not-owner for a member."""
    import subprocess
    from harness import ROOT, SERVER_BIN
    out = subprocess.run([os.path.join(ROOT, SERVER_BIN), "routes"], check=True,
                         capture_output=True, text=True).stdout
    routes = [tuple(l.split(" ", 1)) for l in out.splitlines()
              if l.split(" ", 1)[1].startswith(("/api/v1/leagues/", "/api/v1/players/"))]
    assert len(routes) >= 18, routes
    OWNER_ONLY = {("POST", "/api/v1/leagues/{id}/members"),
                  ("DELETE", "/api/v1/leagues/{id}/members/{member}"),
                  ("POST", "/api/v1/leagues/{id}/owners"), ("POST", "/api/v1/leagues/{id}/seasons"),
                  ("POST", "/api/v1/leagues/{id}/import"),
                  ("GET", "/api/v1/leagues/{id}/invitations"),
                  ("DELETE", "/api/v1/leagues/{id}/invitations/{inv}"),
                  ("POST", "/api/v1/leagues/{id}/claims/{claim}/approve"),
                  ("GET", "/api/v1/leagues/{id}/merges"),
                  ("POST", "/api/v1/leagues/{id}/merges/{merge}/undo")}
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Bea",))
        lid = lg["id"]
        st, hd, play = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "results": [{"player": ids["Ann"], "rank": 1}, {"player": ids["Bea"], "rank": 2}]})
        bob = user(s, "bob@example.org", "Bob")
        join(ann, lid, bob, "Bob")
        eve = user(s, "eve@example.org", "Eve")
        anon = Client(s)
        for method, pattern in routes:
            path = (pattern.replace("{id}", ids["Bea"] if pattern.startswith("/api/v1/players/") else lid)
                    .replace("{member}", ids["Bea"]).replace("{play}", play["id"])
                    .replace("{inv}", "nope").replace("{claim}", "nope").replace("{merge}", "nope"))
            if pattern.endswith("/import"):
                path += "?format=bgstats"
            body = None if method in ("GET", "DELETE") else {}
            st, hd, o = anon.call(method, path, body)
            problem(st, hd, o, 401, rule="no-session")
            st, hd, o = eve.call(method, path, body)
            problem(st, hd, o, 403)
            assert o["rule"] in ("not-member", "not-owner"), (method, pattern, o)
            if (method, pattern) in OWNER_ONLY:
                st, hd, o = bob.call(method, path, body)
                problem(st, hd, o, 403, rule="not-owner")


def test_edit_keeps_unchanged_breakdowns():
    """A finished game's per-player score breakdown survives an edit that leaves that player's
    score alone (fixing the date, say), and goes when the score changes."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lg, ids = new_league(ann, guests=("Bea",))
        lid = lg["id"]
        backup = {"format": "dicehospital-league-backup", "version": 1, "members": [], "seasons": [],
                  "plays": [{"uuid": "g-1", "game": "Dice Hospital: ER", "date": "2026-01-01T20:00:00Z",
                             "source": "table", "results": [
                                 {"name": "Ann", "score": 50, "rank": 1, "winner": True,
                                  "breakdown": {"wards": 30, "specialists": 20}},
                                 {"name": "Bea", "score": 40, "rank": 2, "winner": False,
                                  "breakdown": {"wards": 40, "specialists": 0}}]}]}
        st, hd, o = import_file(ann, lid, "backup", json.dumps(backup), "application/json")
        assert st == 200 and o["imported"] == 1, o
        pid = ann.get(f"/api/v1/leagues/{lid}/plays")[2]["plays"][0]["id"]
        edit = {"game": "Dice Hospital: ER", "date": "2026-01-02", "notes": "date fixed",
                "results": [{"player": ids["Ann"], "score": 50}, {"player": ids["Bea"], "score": 41}]}
        st, hd, p = ann.put(f"/api/v1/leagues/{lid}/plays/{pid}", edit)
        assert st == 200, p
        assert p["results"][0]["breakdown"] == {"wards": 30, "specialists": 20}, p["results"][0]
        assert "breakdown" not in p["results"][1], "Bea's score changed: her breakdown no longer adds up"
