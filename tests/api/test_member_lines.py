"""Each member's ratings kept as one line (migrations/0017_member_lines.sql): a recompute writes
one row per member, a play added after every other appends to its players' lines, and every
read that shows a stored rating (a play, a player's history, the league's pictures, the CSV
export) takes it from the line. Checked on the real BG Stats export in tests/api/data/bgstats-real/
(michaelgao8-2021.json, a BG Stats user's own export, published in a public repository)."""
import csv, io, json, os, subprocess
from collections import Counter

from harness import ROOT, SERVER_BIN, Server, make_database
from league_util import user

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "bgstats-real", "michaelgao8-2021.json")
DB = "h_member_lines"


def _sql(db, query, *args):
    """Runs query on db (psql variables :'a0', :'a1'…): its rows."""
    cmd = ["psql", "-XAtq", "-F", "\x1f", "-v", "ON_ERROR_STOP=1", "-d", db]
    for i, a in enumerate(args):
        cmd += ["-v", f"a{i}={a}"]
    out = subprocess.run(cmd, input=query, check=True, capture_output=True, text=True).stdout
    return [line.split("\x1f") for line in out.split("\n")[:-1]]


def _league(c):
    st, hd, lg = c.post("/api/v1/leagues", {"name": "Real"})
    assert st == 201, lg
    doc = json.load(open(REAL, encoding="utf-8"))
    st, hd, o = c.call("POST", f"/api/v1/leagues/{lg['id']}/import?format=bgstats",
                       json.dumps(doc), raw=True, headers={"Content-Type": "application/json"})
    assert st == 200 and o["imported"] == len(doc["plays"]), (st, o)
    return lg["id"]


def _history(c, member):
    st, hd, h = c.get(f"/api/v1/players/{member}/history?limit=500")
    assert st == 200, h
    assert h["total"] <= 500, h["total"]
    return h


def _reads(c, lid):
    """Every read of the league that shows a stored rating, by what was asked."""
    st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
    out = {"standings": c.get(f"/api/v1/leagues/{lid}/standings")[2],
           "stats": c.get(f"/api/v1/leagues/{lid}/stats")[2],
           "csv": c.get(f"/api/v1/leagues/{lid}/export.csv")[2]}
    for m in lg["members"]:
        out["history " + m["id"]] = _history(c, m["id"])
        out["stats " + m["id"]] = c.get(f"/api/v1/leagues/{lid}/players/{m['id']}/stats")[2]
    st, hd, pl = c.get(f"/api/v1/leagues/{lid}/plays?limit=500")
    for p in pl["plays"]:
        out["play " + p["id"]] = c.get(f"/api/v1/leagues/{lid}/plays/{p['id']}")[2]
    return out


def test_every_read_shows_the_rating_of_the_members_line():
    db = make_database(DB)
    with Server(database=db) as s:
        c = user(s, "lines@example.org", "Lines")
        lid = _league(c)
        st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
        standings = {r["player"]: r
                     for r in c.get(f"/api/v1/leagues/{lid}/standings")[2]["standings"]}
        from_history = Counter()
        checked = 0
        for m in lg["members"]:
            h = _history(c, m["id"])
            line = _sql(db, "SELECT cardinality(seqs), mus[cardinality(mus)], "
                            "sigmas[cardinality(sigmas)] FROM member_lines WHERE member_id = :'a0'",
                        m["id"])
            rated = [x for x in h["history"] if x["rated"]]
            from_history.update((m["name"], x["rating"]["mu"]) for x in rated)
            if not rated:
                assert line == [] or line[0][0] == "0", (m, line)
                continue
            # one element per rated result, the last one the member's rating now
            assert int(line[0][0]) == len(rated), (m["name"], line, len(rated))
            assert float(line[0][1]) == standings[m["id"]]["rating"]["mu"]
            assert float(line[0][2]) == standings[m["id"]]["rating"]["sigma"]
            for x in rated[:15]:
                st, hd, play = c.get(f"/api/v1/leagues/{lid}/plays/{x['play']}")
                mine = [r for r in play["results"] if r["player"] == m["id"]]
                assert mine and mine[0]["rating_after"] == x["rating"], (x, mine)
                checked += 1
        assert checked >= 40, checked
        # the CSV export: one rating per rated result, the same as the histories'
        text = c.get(f"/api/v1/leagues/{lid}/export.csv")[2].decode("utf-8-sig")
        from_csv = Counter((r["player"], float(r["rating_mu"]))
                           for r in csv.DictReader(io.StringIO(text)) if r["rating_mu"])
        assert from_csv == from_history and len(from_csv) > 100


def test_the_move_to_lines_keeps_every_rating():
    """A database from before the lines: its ratings stored on each result. The migration
    moves them into the lines and every read answers as before."""
    db = make_database(DB + "_move")
    with Server(database=db) as s:
        c = user(s, "move@example.org", "Move")
        lid = _league(c)
        before = _reads(c, lid)
        assert any(x["rated"] for k, v in before.items() if k.startswith("history ")
                   for x in v["history"])
    # the schema as it was: ratings on the results, no lines, migration 17 not applied
    _sql(db, """
        ALTER TABLE play_results ADD COLUMN mu double precision, ADD COLUMN sigma double precision;
        UPDATE play_results r SET mu = t.mu, sigma = t.sigma
          FROM plays p, league_ratings(p.league_id) t
         WHERE p.id = r.play_id AND t.member_id = r.member_id AND t.seq = p.seq;
        DROP FUNCTION league_ratings(text);
        DROP TABLE member_lines;
        DROP INDEX plays_seq, plays_left_out, play_results_unrated;
        DELETE FROM schema_migrations WHERE version >= 17;""")
    assert int(_sql(db, "SELECT count(*) FROM play_results WHERE mu IS NOT NULL")[0][0]) > 100
    env = dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=os.path.join(ROOT, "migrations"))
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    assert _sql(db, "SELECT count(*) FROM member_lines")[0][0] != "0"
    with Server(database=db) as s:
        c = user(s, "move2@example.org", "Move 2")
        owner = _sql(db, "SELECT account_id FROM league_owners WHERE league_id = :'a0'", lid)[0][0]
        _sql(db, "INSERT INTO league_owners VALUES (:'a0', :'a1')", lid, c.account["id"])
        after = _reads(c, lid)
        assert owner
    assert after.keys() == before.keys()
    for k in before:
        assert after[k] == before[k], k


def test_histories_read_from_the_lines_as_before_the_move():
    """Migration 18 adds every result (rated or not) to its member's line, so a page of a
    history is a slice of it. A database from before it: the migration fills the lines, and
    every page of every history (the rating carried over unrated plays) reads as the server
    that wrote the lines itself reads them."""
    db = make_database(DB + "_histories")
    with Server(database=db) as s:
        c = user(s, "histories@example.org", "Histories")
        lid = _league(c)
        # a cooperative play first for one member: unrated before any rating
        st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
        a, b = lg["members"][0]["id"], lg["members"][1]["id"]
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Hanabi", "date": "2000-01-01", "cooperative": True,
            "results": [{"player": a, "winner": True}, {"player": b, "winner": True}]})
        assert st == 201, o

        def pages():
            out = {}
            for m in lg["members"]:
                for limit, offset in ((500, 0), (7, 0), (7, 7), (50, 100), (3, 10**6)):
                    path = f"/api/v1/players/{m['id']}/history?limit={limit}&offset={offset}"
                    st, hd, h = c.get(path)
                    assert st == 200, h
                    out[path] = h
            return out
        before = pages()
        first = before[f"/api/v1/players/{a}/history?limit=500&offset=0"]["history"][0]
        assert first["play"] == o["id"] and not first["rated"] and first["rating"]["mu"] == 25
        assert sum(len(h["history"]) for h in before.values()) > 500
    # the lines as they were: rated results only, no line for a member with none
    _sql(db, """
        ALTER TABLE member_lines DROP COLUMN all_seqs, DROP COLUMN rated_upto;
        DROP INDEX plays_left_out, play_results_unrated;
        DELETE FROM member_lines WHERE cardinality(seqs) = 0;
        DELETE FROM schema_migrations WHERE version = 18;""")
    env = dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=os.path.join(ROOT, "migrations"))
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    with Server(database=db) as s:
        c.s = s
        c.origin = f"http://127.0.0.1:{s.port}"
        assert pages() == before

# A player's history computed from the results themselves (every result of the member in play
# order, the rating carried over unrated ones by a window): the statement the server used
# before histories were read from the lines, kept here as the reference.
_HISTORY_FROM_RESULTS = """WITH l AS (SELECT u.seq, u.mu, u.sigma FROM member_lines ml, unnest(ml.seqs, ml.mus, ml.sigmas) AS u(seq, mu, sigma) WHERE ml.member_id = _M_), h AS (SELECT r.play_id, l.mu, l.sigma, p.played_at, p.seq, count(l.mu) OVER (ORDER BY p.played_at, p.seq) AS grp FROM play_results r JOIN plays p ON p.id = r.play_id LEFT JOIN l ON l.seq = p.seq WHERE r.member_id = _M_), c AS (SELECT h.play_id, h.played_at, h.seq, h.mu IS NOT NULL AS rated, first_value(h.mu) OVER g AS mu, first_value(h.sigma) OVER g AS sigma FROM h WINDOW g AS (PARTITION BY h.grp ORDER BY h.played_at, h.seq)), pg AS (SELECT c.* FROM c ORDER BY c.played_at, c.seq LIMIT 100000 OFFSET 0), t AS (SELECT count(*) AS total FROM h), cur AS (SELECT h.mu, h.sigma FROM h WHERE h.mu IS NOT NULL ORDER BY h.played_at DESC, h.seq DESC LIMIT 1) SELECT t.total, cur.mu, cur.sigma, p.id, p.game, play_local_text(p.played_at, p.utc_offset_min), p.cooperative, r.score, r.rank, r.winner, pg.rated, pg.mu, pg.sigma, (SELECT count(*) FROM play_results r2 WHERE r2.play_id = p.id) FROM t LEFT JOIN cur ON true LEFT JOIN pg ON true LEFT JOIN plays p ON p.id = pg.play_id LEFT JOIN play_results r ON r.play_id = pg.play_id AND r.member_id = _M_ ORDER BY pg.played_at, pg.seq"""


def _history_from_results(db, member):
    rows = _sql(db, _HISTORY_FROM_RESULTS.replace("_M_", ":'a0'"), member)
    total = int(rows[0][0]) if rows else 0
    items = [(r[3], r[10] == "t", float(r[11]) if r[11] else None, float(r[12]) if r[12] else None)
             for r in rows if r[3]]
    return total, items


def test_a_history_lists_every_result_with_the_rating_carried_over():
    """A history lists every result of its member — of ignored and incomplete plays, on an
    unrated seat, of the anonymous player — in play order with the rating after each (the one
    before carried over a result not rated). Read from the line, it equals what the results
    themselves give, after a whole recompute, an edit, a play added after every other, and a
    play added after every rated one but before an ignored one."""
    db = make_database(DB + "_every")
    with Server(database=db) as s:
        c = user(s, "every@example.org", "Every")
        lid = _league(c)
        st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
        members = [m["id"] for m in lg["members"]]

        def play_at(offset):
            st, hd, pl = c.get(f"/api/v1/leagues/{lid}/plays?limit=1&offset={offset}")
            return c.get(f"/api/v1/leagues/{lid}/plays/{pl['plays'][0]['id']}")[2]

        def check(step):
            for m in members:
                st, hd, h = c.get(f"/api/v1/players/{m}/history?limit=500")
                assert st == 200, h
                got = (h["total"], [(x["play"], x["rated"], x["rating"]["mu"] if x["rating"] else None,
                                     x["rating"]["sigma"] if x["rating"] else None)
                                    for x in h["history"]])
                total, items = _history_from_results(db, m)
                # no rating yet: a new player's (μ 25, σ 25/3)
                want = (total, [(p, r, 25.0 if mu is None else mu, 25 / 3 if sg is None else sg)
                                for p, r, mu, sg in items])
                assert got == want, (step, m)

        check("imported")
        # by hand: a play ignored, one incomplete, one seat unrated; then a whole recompute
        ign, inc, unr = play_at(12), play_at(25), play_at(40)
        _sql(db, "UPDATE plays SET ignored = true WHERE id = :'a0'", ign["id"])
        _sql(db, "UPDATE plays SET incomplete = true WHERE id = :'a0'", inc["id"])
        _sql(db, "UPDATE play_results SET unrated = true WHERE play_id = :'a0' AND seat = 1",
             unr["id"])
        _sql(db, "UPDATE leagues SET version = version + 1 WHERE id = :'a0'", lid)
        anchor = play_at(0)
        st, hd, o = c.put(f"/api/v1/leagues/{lid}/plays/{anchor['id']}", _body(anchor))
        assert st == 200, o
        check("left-out results")
        # an edit read from the kept rows: a play moved earlier
        moved = play_at(30)
        st, hd, o = c.put(f"/api/v1/leagues/{lid}/plays/{moved['id']}",
                          _body(moved, date="2021-01-02"))
        assert st == 200, o
        check("an edit")
        # a play added after every other
        a, b = ign["results"][0]["player"], ign["results"][1]["player"]
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2022-02-01",
            "results": [{"player": a, "score": 3}, {"player": b, "score": 5}]})
        assert st == 201, o
        check("a play added last")
        # an ignored play after it, then a play after every rated one but before the ignored
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2022-03-01",
            "results": [{"player": a, "score": 1}, {"player": b, "score": 2}]})
        assert st == 201, o
        _sql(db, "UPDATE plays SET ignored = true WHERE id = :'a0'", o["id"])
        _sql(db, "UPDATE leagues SET version = version + 1 WHERE id = :'a0'", lid)
        st, hd, o = c.put(f"/api/v1/leagues/{lid}/plays/{anchor['id']}", _body(anchor))
        assert st == 200, o
        check("an ignored play last")
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2022-02-15",
            "results": [{"player": a, "score": 9}, {"player": b, "score": 2}]})
        assert st == 201, o
        check("a play added before an ignored one")
        h = c.get(f"/api/v1/players/{a}/history?limit=3&offset=" +
                  str(c.get(f"/api/v1/players/{a}/history?limit=1")[2]["total"] - 3))[2]
        assert [x["date"][:10] for x in h["history"]] == ["2022-02-01", "2022-02-15",
                                                          "2022-03-01"], h


def _snapshot(db, lid):
    """What a recompute wrote for the league: the members' lines, every scope's standings and
    lines."""
    return _sql(db, """
        SELECT (SELECT string_agg(member_id || seqs::text || mus::text || sigmas::text
                                  || all_seqs::text || rated_upto::text, ';'
                                  ORDER BY member_id) FROM member_lines WHERE league_id = :'a0'),
               (SELECT string_agg(scope || member_id || games || wins || rank_sum || mu || sigma,
                                  ';' ORDER BY scope, member_id)
                  FROM league_scopes WHERE league_id = :'a0'),
               (SELECT string_agg(scope || mus::text || sigmas::text, ';' ORDER BY scope)
                  FROM league_scope_lines WHERE league_id = :'a0')""", lid)[0]


def _body(play, **change):
    b = {"game": play["game"], "bgg_id": play["bgg_id"], "date": play["date"],
         "cooperative": play["cooperative"],
         "results": [{"player": r["player"], "score": r["score"], "winner": r["winner"]}
                     for r in play["results"]]}
    b.update(change)
    return b


def test_a_change_of_one_play_rates_the_kept_rows_as_a_full_read_would():
    """After a change of the league's plays the server keeps the rows it rated (kept.c); a
    change of one play (an edit, a deletion, a play added last) reads only that play again and
    rates the league from the first row the change moved (the rows before it keep their
    ratings). After each change of a series, what it wrote is what the same server writes when
    it has to read and rate the whole league (its version moved by hand); at the end, what a
    second server, which keeps nothing, writes. A change made by hand, without the league's
    version, is not seen by the kept rows: that shows they were used."""
    db = make_database(DB + "_kept")
    with Server(database=db) as a:
        c = user(a, "kept@example.org", "Kept")
        lid = _league(c)

        def play_at(offset):
            st, hd, pl = c.get(f"/api/v1/leagues/{lid}/plays?limit=1&offset={offset}")
            return c.get(f"/api/v1/leagues/{lid}/plays/{pl['plays'][0]['id']}")[2]

        def put(play, **change):
            st, hd, o = c.put(f"/api/v1/leagues/{lid}/plays/{play['id']}", _body(play, **change))
            assert st == 200, o
            return o

        anchor = play_at(0)

        def as_whole_read(step):
            """What the kept rows gave equals a whole read's rating: the league's version
            moved by hand, the anchor play written again as it is."""
            kept = _snapshot(db, lid)
            _sql(db, "UPDATE leagues SET version = version + 1 WHERE id = :'a0'", lid)
            put(anchor)
            assert _snapshot(db, lid) == kept, step

        for name, starts, ends in (("Winter", "2020-12-01", "2021-02-28"),
                                   ("Spring", "2021-03-01", "2021-05-31")):
            st, hd, o = c.post(f"/api/v1/leagues/{lid}/seasons",
                               {"name": name, "starts": starts, "ends": ends})
            assert st == 201, o
        put(anchor)  # rated again with its seasons: the kept rows are the league's
        first = play_at(int(c.get(f"/api/v1/leagues/{lid}/plays?limit=1")[2]["total"]) - 1)
        # the first play's winner changes
        res = _body(first)["results"]
        res[0]["winner"], res[-1]["winner"] = res[-1]["winner"], res[0]["winner"]
        res[0]["score"], res[-1]["score"] = res[-1]["score"], res[0]["score"]
        put(first, results=res)
        as_whole_read("the first play's winner changed")
        # a play moves to the end of the year, another one to the start; one takes a newcomer
        put(play_at(20), date="2021-12-30")
        as_whole_read("a play moved later")
        put(play_at(25), date="2021-01-01")
        as_whole_read("a play moved earlier")
        # a play from one season to the other, one to another game of the league
        put(play_at(35), date="2021-01-20")
        as_whole_read("a play moved to another season")
        plays = [play_at(i) for i in range(30, 79)]
        other = next(p for p in plays if p["game"] == "Scythe")
        root = next(p for p in plays if p["game"] == "Root")
        # both spellings keep other plays: the games' keys stay, the kept rows are used
        put(other, game="Root", bgg_id=root["bgg_id"])
        as_whole_read("a play of another game")
        st, hd, g = c.post(f"/api/v1/leagues/{lid}/members", {"name": "Newcomer"})
        third = play_at(30)
        res = _body(third)["results"]
        res[0]["player"] = g["id"]
        put(third, results=res)
        as_whole_read("a newcomer")
        # one becomes cooperative, one is deleted, one is added after every other, one before
        put(play_at(40), cooperative=True)
        as_whole_read("cooperative")
        gone = play_at(50)
        st, hd, o = c.delete(f"/api/v1/leagues/{lid}/plays/{gone['id']}")
        assert st == 204, o
        as_whole_read("a deletion")
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": first["game"], "date": "2021-12-31",
            "results": [{"player": g["id"], "score": 9}, {"player": res[1]["player"], "score": 4}]})
        assert st == 201, o
        # two plays added last (their rows kept, not rated with the league's), the second
        # edited: rated from the first
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", {
            "game": first["game"], "date": "2021-12-31",
            "results": [{"player": g["id"], "score": 3}, {"player": res[1]["player"], "score": 5}]})
        assert st == 201, o
        put(play_at(0), results=[dict(r, score=(r["score"] or 0) * 2 + 1)
                                 for r in _body(play_at(0))["results"]])
        as_whole_read("an edit of the second of two plays added last")
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", {  # and one in the middle of the year
            "game": first["game"], "date": "2021-06-15",
            "results": [{"player": g["id"], "score": 2}, {"player": res[1]["player"], "score": 7}]})
        assert st == 201, o
        as_whole_read("a play added in the middle")
        last = put(play_at(10), results=[dict(r, score=(r["score"] or 0) + 1)
                                         for r in _body(play_at(10))["results"]])
        kept = _snapshot(db, lid)
        # by hand, without a new version: another play's order of finish turned round
        other = next(p for p in map(play_at, range(60, 120))
                     if not p["cooperative"] and len({r["rank"] for r in p["results"]}) > 1)
        _sql(db, "UPDATE play_results SET rank = 1 + (SELECT max(rank) FROM play_results "
                 "WHERE play_id = :'a0') - rank WHERE play_id = :'a0'", other["id"])
        put(last)  # the same play again: rated from the kept rows
        assert _snapshot(db, lid) == kept, "the kept rows do not see a change made by hand"
        _sql(db, "UPDATE play_results SET rank = 1 + (SELECT max(rank) FROM play_results "
                 "WHERE play_id = :'a0') - rank WHERE play_id = :'a0'", other["id"])
    with Server(database=db) as b:
        c.s = b
        c.origin = f"http://127.0.0.1:{b.port}"
        st, hd, o = c.put(f"/api/v1/leagues/{lid}/plays/{last['id']}", _body(last))
        assert st == 200, o
        assert _snapshot(db, lid) == kept, "a whole read rates the plays as the kept rows did"
