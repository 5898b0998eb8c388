"""Teams rated as teams, on real BG Stats exports (tests/api/data/bgstats-real/, see its README):
a play of a game with usesTeams keeps each seat's team, teammates are rated as one team as
OpenSkill's Plackett-Luce rates teams, the play lists its teams, head-to-head does not count
teammates as opponents, and an edit or a backup keeps the teams.

The ratings are checked, play after play through the whole league, against _rate below: a
transcription of openskill.py's PlackettLuce.rate and _compute
(openskill/models/weng_lin/plackett_luce.py, vivekjoshy/openskill.py at commit
061f71f61e20313435b02c14abce215bcfc054ae) with its defaults, written from that source and not
from our C. test_reference_is_openskill pins it to the numbers OpenSkill's own JavaScript
package gives (openskill.js 5.0.1, from npm: os.rate(teams, {rank})), which it equals to the
last digit."""
import csv, io, json, math, os, subprocess

from harness import make_database, Server
from league_util import user, league_plays_whole

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "bgstats-real")
TOL = 1e-9

MU, SIGMA, BETA, KAPPA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 0.0001, 25.0 / 300.0


def _rate(teams, ranks):
    """openskill.py PlackettLuce.rate(teams, ranks): teams are lists of [mu, sigma]; a lower
    rank is better, equal ranks tie. Returns the teams' new [mu, sigma] in the same shape."""
    teams = [[[mu, math.sqrt(s * s + TAU * TAU)] for mu, s in t] for t in teams]  # tau first
    # _calculate_team_ratings: a team's mu and sigma squared are its players' sums
    tr = [(sum(p[0] for p in t), sum(p[1] ** 2 for p in t), r) for t, r in zip(teams, ranks)]
    c = math.sqrt(sum(s2 + BETA ** 2 for _, s2, _ in tr))  # _c
    sum_q = [sum(math.exp(mu / c) for mu, _, r in tr if r >= rq) for _, _, rq in tr]  # _sum_q
    a = [sum(1 for _, _, r in tr if r == rq) for _, _, rq in tr]  # _a
    out = []
    for i, (mu_i, s2_i, r_i) in enumerate(tr):  # _compute
        omega = delta = 0.0
        e = math.exp(mu_i / c)
        for q, (_, _, r_q) in enumerate(tr):
            p = e / sum_q[q]
            if r_q <= r_i:
                delta += p * (1 - p) / a[q]
                omega += ((1 - p) if q == i else -p) / a[q]
        omega *= s2_i / c
        delta *= s2_i / c ** 2
        delta *= math.sqrt(s2_i) / c  # gamma
        out.append([[mu + (s ** 2 / s2_i) * omega,
                     s * math.sqrt(max(1 - (s ** 2 / s2_i) * delta, KAPPA))] for mu, s in teams[i]])
    return out


def test_reference_is_openskill():
    """openskill.js 5.0.1: os.rate([[r(30,6), r(22,7.5), r(27,4)], [r(35,3)],
    [r(20,8), r(24,5.5)]], {rank: [2, 1, 2]}) with r = (mu, sigma) => os.rating({mu, sigma})."""
    got = _rate([[[30, 6], [22, 7.5], [27, 4]], [[35, 3]], [[20, 8], [24, 5.5]]], [2, 1, 2])
    want = [[[27.24578465858657, 5.941598444326827], [17.696837322894847, 7.384955852578753],
             [25.77560918766481, 3.9834339482759114]], [[35.52351421470601, 3.0006538448526547]],
            [[21.175668589643923, 7.89438106405253], [24.55575437182148, 5.466284207356949]]]
    for gt, wt in zip(got, want):
        for g, w in zip(gt, wt):
            assert abs(g[0] - w[0]) < 1e-12 and abs(g[1] - w[1]) < 1e-12, (g, w)


DB = "h_league_teams"


def _db():
    return make_database(DB)


def _psql(query):
    """Runs query on the test's database; its rows as text."""
    out = subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-d", DB], input=query,
                         check=True, capture_output=True, text=True).stdout
    return out.split("\n")[:-1]


def _files():
    names = sorted(n for n in os.listdir(REAL) if n.endswith(".json"))
    return [(n, json.load(open(os.path.join(REAL, n), encoding="utf-8"))) for n in names]


def _league(c, doc, name="Club"):
    st, hd, lg = c.post("/api/v1/leagues", {"name": name})
    assert st == 201, lg
    st, hd, o = c.call("POST", f"/api/v1/leagues/{lg['id']}/import?format=bgstats",
                       json.dumps(doc), raw=True, headers={"Content-Type": "application/json"})
    assert st == 200 and o["imported"] == len(doc["plays"]), o
    return lg["id"]


def _plays(c, lid):
    """Every play of the league, whole, by uuid."""
    return {p["uuid"]: p for p in league_plays_whole(c, lid)}


def _csv(c, lid):
    st, hd, text = c.get(f"/api/v1/leagues/{lid}/export.csv")
    assert st == 200
    text = text.decode("utf-8-sig") if isinstance(text, bytes) else text.lstrip("\ufeff")
    return list(csv.DictReader(io.StringIO(text)))


def _team_plays_of_file(doc):
    """uuid → [team of each seat (None: none)] for the plays played in teams: the play's own
    usesTeams, else its game's."""
    teams = {g["id"] for g in doc["games"] if g.get("usesTeams")}
    out = {}
    for p in doc["plays"]:
        if p.get("usesTeams", p.get("gameRefId") in teams):
            out[p["uuid"]] = [s.get("team") if s.get("team") not in ("", None) else None
                              for s in p["playerScores"]]
    return out


def test_seats_keep_the_teams_of_team_games():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for name, doc in _files():
            lid = _league(ann, doc, name[:60])
            plays = _plays(ann, lid)
            file_teams = _team_plays_of_file(doc)
            assert file_teams, name
            for uuid, p in plays.items():
                got = [r["team"] for r in sorted(p["results"], key=lambda r: r["seat"])]
                want = file_teams.get(uuid, [None] * len(got))
                assert got == [None if t is None else str(t) for t in want], (name, uuid, got, want)
            # a play with team values whose game does not use teams has none (7 Wonders, and
            # Catan with one seat marked)
            loose = [p["uuid"] for p in doc["plays"] if p["uuid"] not in file_teams
                     and any(s.get("team") not in ("", None) for s in p["playerScores"])]
            assert loose, name
            assert all(r["team"] is None for u in loose for r in plays[u]["results"]), name


def _rated_chain(rows, plays):
    """Replays the league's rated plays (the CSV's order is play order; a rated row has its
    rating after) with _rate; returns how many team plays and plays were checked."""
    cur, team_plays, n, i = {}, 0, 0, 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j]["play"] == rows[i]["play"]:
            j += 1
        rated = [x for x in rows[i:j] if x["rating_mu"] != ""]
        i = j
        if not rated:
            continue
        full = plays[rated[0]["play"]]
        by_seat = {r["seat"]: r for r in full["results"]}
        seats = [by_seat[int(x["seat"])] for x in rated]
        groups = {}  # team (or a seat alone) → indexes of rated rows, in seat order
        for k, r in enumerate(seats):
            groups.setdefault(("team", r["team"]) if r["team"] is not None else ("seat", k), []).append(k)
        team_plays += any(len(g) > 1 for g in groups.values())
        teams = [[cur.get(seats[k]["player"], [MU, SIGMA]) for k in g] for g in groups.values()]
        ranks = [min(int(rated[k]["rank"]) for k in g) for g in groups.values()]
        out = _rate(teams, ranks)
        for g, new in zip(groups.values(), out):
            for k, (mu, sigma) in zip(g, new):
                got = (float(rated[k]["rating_mu"]), float(rated[k]["rating_sigma"]))
                assert abs(got[0] - mu) < TOL and abs(got[1] - sigma) < TOL, (full["uuid"], got, mu, sigma)
                # the play's page shows the same rating
                after = seats[k]["rating_after"]
                assert abs(after["mu"] - mu) < TOL and abs(after["sigma"] - sigma) < TOL
                cur[seats[k]["player"]] = [mu, sigma]
        n += 1
    return team_plays, n


def test_real_team_plays_rate_as_openskill():
    """Every rated play of each real file, the team plays among them, rates as _rate (OpenSkill)
    rates it from the ratings the league held before it; the standings end on the last."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        for name, doc in _files():
            lid = _league(ann, doc, name[:60])
            plays = _plays(ann, lid)
            team_plays, n = _rated_chain(_csv(ann, lid), plays)
            assert team_plays >= 10 and n > team_plays, (name, team_plays, n)


def _pairs(plays):
    """(player, other) → [plays as opponents, plays as teammates], as head-to-head counts them:
    plays neither co-operative, ignored nor incomplete, seats that are rated."""
    out = {}
    for p in plays.values():
        if p["cooperative"] or p["ignored"] or p["incomplete"]:
            continue
        rs = [r for r in p["results"] if not r["unrated"]]
        for x in rs:
            for y in rs:
                if x is y:
                    continue
                e = out.setdefault((x["player"], y["player"]), [0, 0])
                e[1 if x["team"] is not None and x["team"] == y["team"] else 0] += 1
    return out


def test_head_to_head_leaves_teammates_out():
    name, doc = next((n, d) for n, d in _files() if n.startswith("michaelgao8"))
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, doc)
        want = _pairs(_plays(ann, lid))
        assert any(g and t for g, t in want.values()), "the file has teammates who also met"
        # a pair that never met as opponents (only ever teammates) is no head-to-head
        want = {k: v for k, v in want.items() if v[0]}
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/head-to-head")
        assert st == 200, o
        got = {(x["player"], x["opponent"]): [x["games"], x["teammate"]] for x in o["head_to_head"]}
        assert got == want
        for x in o["head_to_head"]:
            assert x["wins"] + x["losses"] + x["ties"] == x["games"], x
        st, hd, pics = ann.get(f"/api/v1/leagues/{lid}/stats")
        assert st == 200, pics
        for x in pics["head_to_head"]:
            assert [x["games"], x["teammate"]] == want[(x["player"], x["opponent"])], x


def test_an_edit_and_a_backup_keep_the_teams():
    name, doc = next((n, d) for n, d in _files() if n.startswith("michaelgao8"))
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, doc)
        plays = _plays(ann, lid)
        full = next(p for p in plays.values()
                    if not p["cooperative"] and len({r["team"] for r in p["results"]} - {None}) == 2)
        before = {r["player"]: r["team"] for r in full["results"]}
        st, hd, std0 = ann.get(f"/api/v1/leagues/{lid}/standings")
        body = {"game": full["game"], "date": full["date"], "notes": "checked",
                "results": [{"player": r["player"], "rank": r["rank"], "winner": r["winner"]}
                            for r in full["results"]]}
        # twice: the second edit is rated from the rows the first one kept (src/leagues/kept.c)
        for notes in ("checked", "checked twice"):
            body["notes"] = notes
            st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{full['id']}", body)
            assert st == 200, o
            assert {r["player"]: r["team"] for r in o["results"]} == before, o
            st, hd, std1 = ann.get(f"/api/v1/leagues/{lid}/standings")
            rating = lambda std: {x["player"]: x["rating"] for x in std["standings"]}
            assert rating(std1) == rating(std0), "the same play, the same teams: the same ratings"
        # a backup restored into a new league has the same teams and ratings
        st, hd, backup = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        assert st == 200
        st, hd, lg2 = ann.post("/api/v1/leagues", {"name": "Restored"})
        st, hd, o = ann.call("POST", f"/api/v1/leagues/{lg2['id']}/import?format=backup",
                             json.dumps(backup), raw=True,
                             headers={"Content-Type": "application/json"})
        assert st == 200, o
        again = _plays(ann, lg2["id"])
        for uuid, p in plays.items():
            assert [r["team"] for r in again[uuid]["results"]] == [r["team"] for r in p["results"]]
        st, hd, std2 = ann.get(f"/api/v1/leagues/{lg2['id']}/standings")
        by_name = lambda std: {x["name"]: (x["rating"]["mu"], x["rating"]["sigma"]) for x in std["standings"]}
        assert by_name(std2) == by_name(std1)


def test_the_migration_finds_the_teams_of_plays_imported_before():
    """migrations/0027_seat_teams.sql gives the seats of plays imported before the column their
    team from the seat's kept JSON, only in plays played in teams; run again, it changes nothing."""
    name, doc = next((n, d) for n, d in _files() if n.startswith("michaelgao8"))
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, doc)
        q = ("SELECT r.play_id || ':' || r.seat || ':' || coalesce(r.team, '-') FROM play_results r "
             f"JOIN plays p ON p.id = r.play_id WHERE p.league_id = '{lid}' ORDER BY 1;")
        before = _psql(q)
        assert sum(not x.endswith(":-") for x in before) >= 40, before
        _psql(f"UPDATE play_results SET team = NULL WHERE play_id IN "
              f"(SELECT id FROM plays WHERE league_id = '{lid}');")
        assert all(x.endswith(":-") for x in _psql(q))
        sql = open(os.path.join(HERE, "..", "..", "migrations", "0027_seat_teams.sql")).read()
        for _ in range(2):
            _psql(sql)
            assert _psql(q) == before
