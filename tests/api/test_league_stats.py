"""The pictures of a league (GET …/players/{player}/stats, …/stats, …/seasons/{season}/recap):
each number is checked against an independent computation in Python from what the API
already gives — the plays list, the standings, the head-to-head table and the players'
histories — on a league imported from a real BG Stats export, and on a small league of plays
by hand whose answers are worked out below."""
import json, math, os, re, time

from harness import Server, make_database, problem
from league_util import user

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "bgstats-real", "michaelgao8-2021.json")
START = (25.0, 25.0 / 3)


def _db():
    return make_database("h_league_stats")


def _close(a, b, eps=1e-9):
    return abs(a - b) <= eps * max(1.0, abs(a), abs(b))


def _ordinal(mu, sigma):
    return mu - 3 * sigma


def _quantile(v, p):
    """numpy.quantile's default (linear): the value at (n − 1)·p between its neighbours."""
    pos = (len(v) - 1) * p
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def _plays(c, lid, query=""):
    """Every play of the league (oldest first), following the list's pages."""
    url, items = f"/api/v1/leagues/{lid}/plays?limit=500{query}", []
    for _ in range(100):
        st, hd, o = c.get(url)
        assert st == 200, (url, st, o)
        items += o["plays"]
        m = re.fullmatch(r'<([^>]*)>; rel="next"', hd.get("link", ""))
        if m is None:
            return items[::-1]
        url = m.group(1)
    raise AssertionError("more than 100 pages of plays")


def _history(c, member):
    url, items = f"/api/v1/players/{member}/history?limit=500", []
    for _ in range(100):
        st, hd, o = c.get(url)
        assert st == 200, (url, st, o)
        items += o["history"]
        m = re.fullmatch(r'<([^>]*)>; rel="next"', hd.get("link", ""))
        if m is None:
            return items
        url = m.group(1)
    raise AssertionError("more than 100 pages of history")


def _counted(plays, players):
    """The plays the standings count, each with only the seats they count (members of the
    standings: anonymous and unrated seats are out)."""
    out = []
    for p in plays:
        if p["ignored"] or p["incomplete"]:
            continue
        seats = [r for r in p["players"] if r["player"] in players]
        if seats:
            out.append(dict(p, players=seats))
    return out


def _league(c, name="Club"):
    st, hd, lg = c.post("/api/v1/leagues", {"name": name})
    assert st == 201, (st, lg)
    return lg["id"]


def _import_real(c, path=REAL):
    lid = _league(c, "Real")
    doc = json.load(open(path, encoding="utf-8"))
    st, hd, o = c.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats", json.dumps(doc),
                       raw=True, headers={"Content-Type": "application/json"})
    assert st == 200 and o["imported"] == len(doc["plays"]), (st, o)
    return lid, doc


def _check_league_stats(c, lid, o, query=""):
    """o (GET …/stats with query) against standings, head-to-head and the plays list."""
    st, hd, sd = c.get(f"/api/v1/leagues/{lid}/standings?{query}")
    assert st == 200, sd
    standings = sd["standings"]
    # players: standings order, their rating, the last point equals it, at most 200 points
    assert [p["player"] for p in o["players"]] == [s["player"] for s in standings]
    for k, (p, s) in enumerate(zip(o["players"], standings)):
        assert p["name"] == s["name"] and p["top"] == (k < 5), (p["name"], k)
        assert p["rating"] == s["rating"], (p["name"], p["rating"], s["rating"])
        assert len(p["points"]) <= 200
        if p["points"]:
            last = p["points"][-1]
            assert (last["mu"], last["sigma"]) == (s["rating"]["mu"], s["rating"]["sigma"])
    # head-to-head: the same counts as GET …/head-to-head, share = above / games
    st, hd, h = c.get(f"/api/v1/leagues/{lid}/head-to-head?{query}")
    assert st == 200, h
    ref = {(x["player"], x["opponent"]): x for x in h["head_to_head"]}
    got = {(x["player"], x["opponent"]): x for x in o["head_to_head"]}
    assert set(got) == set(ref) and got, (len(got), len(ref))
    for key, x in got.items():
        r = ref[key]
        assert (x["games"], x["above"], x["below"], x["ties"]) == (
            r["games"], r["wins"], r["losses"], r["ties"]), (x, r)
        assert _close(x["share"], r["wins"] / r["games"])
    # scores and months from the plays list
    members = {s["player"] for s in standings}
    plays = _counted(_plays(c, lid, "&" + query if query else ""), members)
    scores = {}
    for p in plays:
        for r in p["players"]:
            if r["score"] is not None:
                scores.setdefault(p["game"], []).append(r["score"])
    assert sorted(x["game"] for x in o["scores"]) == sorted(scores)
    for x in o["scores"]:
        v = sorted(scores[x["game"]])
        assert x["n"] == len(v) and x["min"] == v[0] and x["max"] == v[-1], x["game"]
        for key, q in (("q1", 0.25), ("median", 0.5), ("q3", 0.75)):
            assert _close(x[key], _quantile(v, q)), (x["game"], key, x[key], _quantile(v, q))
        assert x["values"] == (v if len(v) <= 200 else
                               [v[i * (len(v) - 1) // 199] for i in range(200)])
    months = {}
    for p in plays:
        months[p["date"][:7]] = months.get(p["date"][:7], 0) + 1
    assert o["months"][0]["month"] == min(months) and o["months"][-1]["month"] == max(months)
    for a, b in zip(o["months"], o["months"][1:]):  # every month, none skipped
        y, m = map(int, a["month"].split("-"))
        assert b["month"] == (f"{y + 1}-01" if m == 12 else f"{y}-{m + 1:02d}"), (a, b)
    assert all(x["plays"] == months.get(x["month"], 0) for x in o["months"]), o["months"]
    return standings, ref, plays


def _rival(ref, me, nemesis):
    """The nemesis (or victim) of me from the head-to-head table, by the spec's rules."""
    best = None
    for (a, b), r in ref.items():
        if a != me or r["games"] < 3:
            continue
        above = r["losses"] if nemesis else r["wins"]
        key = (-above / r["games"], -r["games"], r["opponent_name"])
        if best is None or key < best[0]:
            best = (key, {"player": b, "name": r["opponent_name"], "games": r["games"],
                          "above": above})
    return best and best[1]


def _streaks(wins):
    cur = longest = 0
    for w in wins:
        cur = cur + 1 if w else 0
        longest = max(longest, cur)
    return cur, longest


def _check_player(c, lid, member, standings, ref, plays, query="", history=None):
    st, hd, o = c.get(f"/api/v1/leagues/{lid}/players/{member}/stats?{query}")
    assert st == 200, o
    s = next((x for x in standings if x["player"] == member), None)
    if s is None:
        assert o["points"] == [] and o["games"] == [] and o["nemesis"] is None
        return o
    assert o["rating"] == s["rating"], (o["rating"], s["rating"])
    if o["points"]:
        assert (o["points"][-1]["mu"], o["points"][-1]["sigma"]) == (s["rating"]["mu"],
                                                                    s["rating"]["sigma"])
    mine = [(p, next(r for r in p["players"] if r["player"] == member)) for p in plays
            if any(r["player"] == member for r in p["players"])]
    if history is not None:  # unfiltered: the points are the history's rated rows
        rated = [h for h in history if h["rated"]]
        assert [p["play"] for p in o["points"]] == [h["play"] for h in rated]
        for p, h in zip(o["points"], rated):
            assert (p["mu"], p["sigma"]) == (h["rating"]["mu"], h["rating"]["sigma"]), p
            assert p["rank"] == h["rank"] and p["date"] == h["date"]
    games = {}
    for p, r in mine:
        g = games.setdefault(p["game"], {"plays": 0, "wins": 0, "scores": []})
        g["plays"] += 1
        g["wins"] += r["winner"]
        if r["score"] is not None:
            g["scores"].append(r["score"])
    assert {g["game"] for g in o["games"]} == set(games)
    for g in o["games"]:
        e = games[g["game"]]
        assert (g["plays"], g["wins"]) == (e["plays"], e["wins"]), g
        want = (min if g["lowest_wins"] else max)(e["scores"]) if e["scores"] else None
        assert g["best_score"] == want, (g, e)
    assert sum(g["plays"] for g in o["games"]) == s["games"]
    cur, longest = _streaks([r["winner"] for p, r in mine])
    assert o["streaks"] == {"current": cur, "longest": longest}, (o["streaks"], cur, longest)
    for kind in ("nemesis", "victim"):
        want = _rival(ref, member, kind == "nemesis")
        if want is None:
            assert o[kind] is None, o[kind]
        else:
            got = dict(o[kind])
            share = got.pop("share")
            assert got == want and _close(share, want["above"] / want["games"]), (got, want)
    return o


def test_largest_real_league_against_the_api():
    """deniedpluto-2025.json (792 plays over ten years, 152 players, 7 Wonders Duel and Catan
    each described by two game objects): the pictures' numbers are the standings', the
    head-to-head's and the plays' (a game of two objects counted once), and the top players'
    pages are their histories'."""
    with Server(database=_db()) as s:
        ann = user(s, "big@example.org", "Ann")
        lid, doc = _import_real(ann, os.path.join(HERE, "data", "bgstats-real",
                                                  "deniedpluto-2025.json"))
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/stats")
        assert st == 200, o
        standings, ref, plays = _check_league_stats(ann, lid, o)
        assert len(plays) == sum(not p["ignored"] for p in doc["plays"]), len(plays)
        assert len(o["months"]) > 100, len(o["months"])
        for x in standings[:3]:
            _check_player(ann, lid, x["player"], standings, ref, plays,
                          history=_history(ann, x["player"]))
        # the report's score spreads: each game on its own scale, its lowest and highest
        # printed at the ends (Smirkle's thousands beside games of tens), long names cut
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "2020", "starts": "2020-01-01", "ends": "2020-12-31"})
        assert st == 201, season
        st, hd, r = ann.get(f"/api/v1/leagues/{lid}/seasons/{season['id']}/recap")
        st, hd, pdf = ann.get(f"/api/v1/leagues/{lid}/seasons/{season['id']}/recap.pdf")
        assert st == 200, pdf
        pages, text = _pdf_text(pdf, "recap-large")
        assert pages == 2, pages
        smirkle = next(x for x in r["stats"]["scores"] if x["game"].startswith("Smirkle"))
        lines = [line for line in text.splitlines() if "Smirkle" in line]
        assert lines and "…" in lines[0] and "dice game" not in lines[0], lines
        for v in (smirkle["min"], smirkle["max"]):
            assert f"{v:g}" in text, (v, lines)


def test_real_league_against_the_api():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, doc = _import_real(ann)
        # a few plays by hand on top
        st, hd, sd = ann.get(f"/api/v1/leagues/{lid}/standings")
        top = [x["player"] for x in sd["standings"][:3]]
        for day, scores in (("2021-12-28", (40, 39, 12)), ("2022-02-02", (10, 30, 20)),
                            ("2022-02-03", (7, 7, 1))):
            st, hd, p = ann.post(f"/api/v1/leagues/{lid}/plays", {
                "game": "Azul", "date": day,
                "results": [{"player": m, "score": v} for m, v in zip(top, scores)]})
            assert st == 201, p
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/stats")
        assert st == 200, o
        standings, ref, plays = _check_league_stats(ann, lid, o)
        assert len(o["players"]) > 5 and len(o["scores"]) > 5 and len(o["months"]) >= 12
        # lowest wins as the file's game said
        low = {g["name"] for g in doc["games"] if g.get("highestWins") is False}
        assert {x["game"] for x in o["scores"] if x["lowest_wins"]} <= low
        for x in standings:
            _check_player(ann, lid, x["player"], standings, ref, plays,
                          history=_history(ann, x["player"]))
        # filtered by game and by season: the filtered standings' ratings
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/stats?game=Root")
        assert st == 200, o
        standings_g, ref_g, plays_g = _check_league_stats(ann, lid, o, "game=Root")
        for x in standings_g[:4]:
            _check_player(ann, lid, x["player"], standings_g, ref_g, plays_g, "game=Root")
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "2021", "starts": "2021-01-01", "ends": "2021-12-31"})
        assert st == 201, season
        q = f"season={season['id']}"
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/stats?{q}")
        standings_s, ref_s, plays_s = _check_league_stats(ann, lid, o, q)
        # the recap: its stats are the season's, its highlights computed here
        st, hd, r = ann.get(f"/api/v1/leagues/{lid}/seasons/{season['id']}/recap")
        assert st == 200, r
        assert r["stats"] == o
        assert r["league"] == {"id": lid, "name": "Real"}
        assert r["season"] == {"id": season["id"], "name": "2021", "from": "2021-01-01",
                               "to": "2021-12-31"}
        assert r["plays"] == len(plays_s)
        first = standings_s[0]
        assert r["champion"] == {"player": first["player"], "name": first["name"],
                                 "rating": first["rating"]}
        counts = {}
        for p in plays_s:
            counts[p["game"]] = counts.get(p["game"], 0) + 1
        most = min(counts, key=lambda g: (-counts[g], g))
        assert r["most_played"] == {"game": most, "plays": counts[most]}
        best = None
        for p in plays_s:
            if p["cooperative"]:
                continue
            seats = sorted((x for x in p["players"] if x["score"] is not None),
                           key=lambda x: x["rank"])
            if len(seats) >= 2 and (best is None or abs(seats[0]["score"] - seats[1]["score"])
                                    < best[0]):
                best = (abs(seats[0]["score"] - seats[1]["score"]), p, seats)
        assert r["closest"]["play"] == best[1]["id"] and r["closest"]["margin"] == best[0]
        assert r["closest"]["first"]["player"] == best[2][0]["player"]
        assert r["closest"]["second"]["score"] == best[2][1]["score"]
        longest = {}
        for x in standings_s:
            wins = [next(y for y in p["players"] if y["player"] == x["player"])["winner"]
                    for p in plays_s if any(y["player"] == x["player"] for y in p["players"])]
            longest[x["name"]] = _streaks(wins)[1]
        name = min(longest, key=lambda n: (-longest[n], n))
        assert (r["streak"]["name"], r["streak"]["wins"]) == (name, longest[name]), r["streak"]
        # climb: from each history (the whole league's ratings), before → after the season
        climbs = {}
        for x in standings_s:
            before, after = START, None
            for h in _history(ann, x["player"]):
                if not h["rated"]:
                    continue
                if h["date"][:10] < "2021-01-01":
                    before = (h["rating"]["mu"], h["rating"]["sigma"])
                elif h["date"][:10] <= "2021-12-31":
                    after = (h["rating"]["mu"], h["rating"]["sigma"])
            if after:
                climbs[x["name"]] = _ordinal(*after) - _ordinal(*before)
        name = min(climbs, key=lambda n: (-climbs[n], n))
        assert r["climb"]["name"] == name and _close(r["climb"]["delta"], climbs[name]), (
            r["climb"], name, climbs[name])
        assert _close(r["climb"]["to"] - r["climb"]["from"], r["climb"]["delta"])


def _hand_league(ann):
    """Ann, Bea, Cid, Dot and plays whose answers are known: see test_hand_plays."""
    lid = _league(ann, "Hand")
    ids = {}
    st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
    for name in ("Bea", "Cid", "Dot"):
        st, hd, m = ann.post(f"/api/v1/leagues/{lid}/members", {"name": name})
        assert st == 201, m
        ids[name] = m["id"]
    ids["Ann"] = lg["you"]["member"]
    plays = [  # (date, game, [(player, score)]) — ranks from the scores
        ("2026-01-05", "Azul", [("Ann", 50), ("Bea", 40), ("Cid", 30)]),
        ("2026-01-12", "Azul", [("Bea", 61), ("Ann", 60)]),
        ("2026-01-19", "Azul", [("Bea", 70), ("Ann", 20), ("Cid", 20)]),
        ("2026-03-02", "Azul", [("Bea", 55), ("Ann", 45), ("Dot", 50)]),
        ("2026-03-09", "Splendor", [("Ann", 15), ("Cid", 12)]),
        ("2026-03-16", "Splendor", [("Ann", 16), ("Cid", 11)]),
        ("2026-03-23", "Splendor", [("Ann", 18), ("Cid", 14)]),
    ]
    out = []
    for day, game, res in plays:
        st, hd, p = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": game, "date": day,
            "results": [{"player": ids[n], "score": v} for n, v in res]})
        assert st == 201, p
        out.append(p["id"])
    return lid, ids, out


def test_hand_plays():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids, plays = _hand_league(ann)
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/players/{ids['Ann']}/stats")
        assert st == 200, o
        # Ann: W L L L W W W by date — current 3, longest 3
        assert o["streaks"] == {"current": 3, "longest": 3}, o["streaks"]
        assert [p["play"] for p in o["points"]] == plays
        assert [p["rank"] for p in o["points"]] == [1, 2, 2, 3, 1, 1, 1]
        assert o["games"] == [
            {"game": "Azul", "plays": 4, "wins": 1, "best_score": 60, "lowest_wins": False},
            {"game": "Splendor", "plays": 3, "wins": 3, "best_score": 18, "lowest_wins": False}]
        # Bea above Ann in 3 of 4 (nemesis); Ann above Cid in 5 of 5 (victim: Cid's 20 tied
        # Ann's 20 in the third play — ranks shared, so not above); Dot: one play, not counted
        assert o["nemesis"] == {"player": ids["Bea"], "name": "Bea", "games": 4, "above": 3,
                                "share": 0.75}, o["nemesis"]
        assert o["victim"] == {"player": ids["Cid"], "name": "Cid", "games": 5, "above": 4,
                               "share": 0.8}, o["victim"]
        # Dot has one play with two others: neither a nemesis nor a victim
        st, hd, d = ann.get(f"/api/v1/leagues/{lid}/players/{ids['Dot']}/stats")
        assert d["nemesis"] is None and d["victim"] is None and len(d["points"]) == 1
        st, hd, lo = ann.get(f"/api/v1/leagues/{lid}/stats")
        assert [m["month"] for m in lo["months"]] == ["2026-01", "2026-02", "2026-03"]
        assert [m["plays"] for m in lo["months"]] == [3, 0, 4]
        azul = next(x for x in lo["scores"] if x["game"] == "Azul")
        v = sorted([50, 40, 30, 61, 60, 70, 20, 20, 55, 45, 50])
        assert azul["values"] == v and azul["median"] == 50 and azul["q1"] == 35
        # the recap of a season from February: Ann's Splendor run, the 45/50/55 play closest
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "Spring", "starts": "2026-02-01", "ends": "2026-05-31"})
        st, hd, r = ann.get(f"/api/v1/leagues/{lid}/seasons/{season['id']}/recap")
        assert st == 200, r
        assert r["plays"] == 4 and r["most_played"] == {"game": "Splendor", "plays": 3}
        assert r["streak"] == {"player": ids["Ann"], "name": "Ann", "wins": 3}, r["streak"]
        assert r["closest"]["play"] == plays[4] and r["closest"]["margin"] == 3, r["closest"]
        assert r["closest"]["first"] == {"player": ids["Ann"], "name": "Ann", "score": 15}
        assert r["closest"]["second"] == {"player": ids["Cid"], "name": "Cid", "score": 12}
        st, hd, sd = ann.get(f"/api/v1/leagues/{lid}/standings?season={season['id']}")
        first = sd["standings"][0]
        assert r["champion"] == {"player": first["player"], "name": first["name"],
                                 "rating": first["rating"]}, (r["champion"], first)
        # an empty season: every highlight null
        st, hd, empty = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                 {"name": "Autumn", "starts": "2026-09-01", "ends": "2026-11-30"})
        st, hd, r = ann.get(f"/api/v1/leagues/{lid}/seasons/{empty['id']}/recap")
        assert st == 200 and r["plays"] == 0, r
        assert [r[k] for k in ("champion", "climb", "most_played", "closest", "streak")] == [
            None] * 5
        assert r["stats"] == {"players": [], "scores": [], "head_to_head": [], "months": []}


def test_errors_and_conditional_reads():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids, plays = _hand_league(ann)
        other = _league(ann, "Other")
        st, hd, lg = ann.get(f"/api/v1/leagues/{other}")
        stranger = lg["you"]["member"]
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/players/nope/stats")
        problem(st, hd, o, 404)
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/players/{stranger}/stats")
        problem(st, hd, o, 404)
        for url in (f"/api/v1/leagues/{lid}/stats?season=nope",
                    f"/api/v1/leagues/{lid}/players/{ids['Ann']}/stats?season=nope",
                    f"/api/v1/leagues/{lid}/seasons/nope/recap",
                    "/api/v1/leagues/nope/stats"):
            st, hd, o = ann.get(url)
            problem(st, hd, o, 404)
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "S", "starts": "2026-01-01", "ends": "2026-12-31"})
        urls = (f"/api/v1/leagues/{lid}/stats",
                f"/api/v1/leagues/{lid}/players/{ids['Ann']}/stats",
                f"/api/v1/leagues/{lid}/seasons/{season['id']}/recap")
        eve = user(s, "eve@example.org", "Eve")
        tags = {}
        for url in urls:
            st, hd, o = eve.get(url)
            problem(st, hd, o, 403, rule="not-member")
            st, hd, o = s.request("GET", url)
            assert st == 401, (url, st)
            # ETag: 304 while nothing changed, 200 with a new tag after a play
            st, hd, o = ann.get(url)
            assert st == 200 and hd.get("etag"), (url, st)
            tags[url] = hd["etag"]
            st, hd2, o2 = ann.get(url, headers={"If-None-Match": hd["etag"]})
            assert st == 304 and not o2, (url, st)
            st, hd3, o3 = eve.get(url, headers={"If-None-Match": hd["etag"]})
            problem(st, hd3, o3, 403, rule="not-member")
        st, hd, p = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-04-01",
            "results": [{"player": ids["Dot"], "score": 9}, {"player": ids["Cid"], "score": 8}]})
        assert st == 201
        for url in urls:
            st, hd, o = ann.get(url, headers={"If-None-Match": tags[url]})
            assert st == 200 and hd["etag"] != tags[url], (url, st)


def _pdf_text(data, name):
    """The PDF's text (pdftotext), after a render of every page to PNG (build/pdf-api/)."""
    import subprocess
    out = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "pdf-api")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, name + ".pdf")
    with open(path, "wb") as f:
        f.write(data)
    subprocess.run(["pdftoppm", "-r", "50", "-png", path, os.path.join(out, name)], check=True,
                   capture_output=True)
    info = subprocess.run(["pdfinfo", path], check=True, capture_output=True, text=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    text = subprocess.run(["pdftotext", "-layout", path, "-"], check=True, capture_output=True,
                          text=True).stdout
    return pages, " ".join(text.split())


def test_pdfs_draw_the_pictures():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, doc = _import_real(ann)
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "Year 2021", "starts": "2021-01-01",
                                   "ends": "2021-12-31"})
        st, hd, r = ann.get(f"/api/v1/leagues/{lid}/seasons/{season['id']}/recap")
        champion = r["champion"]["name"].strip()
        games = [x["game"] for x in r["stats"]["scores"]][:3]
        url = f"/api/v1/leagues/{lid}/seasons/{season['id']}/recap.pdf"
        for lang, words in (("en", ("Season recap", "Champion", "Rating of the top five",
                                    "Plays per month", "Scores per game", "Head-to-head",
                                    "rating μ−3σ", "score", "month")),
                            ("fr", ("Bilan de la saison", "Champion", "Parties par mois",
                                    "Face-à-face", "mois"))):
            st, hd, pdf = ann.get(f"{url}?lang={lang}")
            assert st == 200 and hd["content-type"] == "application/pdf", (st, hd)
            pages, text = _pdf_text(pdf, f"recap-{lang}")
            assert pages in (1, 2), pages
            for w in words + (champion, "Year 2021") + tuple(games):
                assert w in text, (lang, w)
        st, hd, pdf = ann.get(f"/api/v1/leagues/{lid}/standings.pdf")
        assert st == 200
        pages, text = _pdf_text(pdf, "report-pictures")
        first = r["stats"]["players"][0]["name"].strip()
        for w in ("Standings", "Rating of the top five", "Scores per game", "Head-to-head",
                  "Plays per month", "2021-04", first) + tuple(games):
            assert w in text, w
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/seasons/nope/recap.pdf")
        problem(st, hd, o, 404)
        eve = user(s, "eve@example.org", "Eve")
        st, hd, o = eve.get(url)
        problem(st, hd, o, 403, rule="not-member")


def test_a_large_import_refreshes_the_planner_statistics():
    """Years of history arrive in one import: the league tables' planner statistics are
    refreshed at once (migrations/0015), so the pages opened next are planned for the league as
    it is now, not as it was before (a plan for a few rows took seconds at 10,000 plays), right
    after the reply rather than before it. The real export's plays, repeated with new uuids,
    past the threshold of 500."""
    import subprocess
    db = make_database("h_stats_analyze")
    name = db.split("=", 1)[1]

    def last_analyze():
        return subprocess.run(["psql", "-X", "-At", "-d", name, "-c",
                               "SELECT coalesce(last_analyze::text, '') FROM pg_stat_user_tables "
                               "WHERE relname = 'plays'"],
                              capture_output=True, text=True, check=True).stdout.strip()

    with Server(database=db) as s:
        c = user(s, "big@example.org", "Big")
        lid = _league(c, "Big")
        doc = json.load(open(REAL, encoding="utf-8"))
        small = dict(doc, plays=doc["plays"][:20])
        st, _, o = c.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats",
                          json.dumps(small), raw=True, headers={"Content-Type": "application/json"})
        assert st == 200 and o["imported"] == 20, o
        assert last_analyze() == "", "a small import left it to autovacuum"
        plays = []
        for k in range(8):
            for p in doc["plays"]:
                plays.append(dict(p, uuid=f"{k:08x}{p['uuid'][8:]}"))
        st, _, o = c.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats",
                          json.dumps(dict(doc, plays=plays)), raw=True,
                          headers={"Content-Type": "application/json"})
        assert st == 200 and o["imported"] >= 500, o
        # the refresh runs after the reply (the importer does not wait for it): wait for it
        deadline = time.monotonic() + 60
        while last_analyze() == "" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert last_analyze() != "", "the large import did not refresh the statistics"
