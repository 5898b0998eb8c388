"""Managing a league's members and games (src/leagues/README.md "Members" and "Games"): names
compare without case and surrounding spaces (adding, renaming, imports, an existing league's
duplicates kept by migration 0012), renaming, inviting an account to take a guest over, merging two
entries of one person, and one game however its plays spell it (BGG ids, the product's own
names; migration 0013)."""
import glob, json, os, shutil, subprocess, tempfile
from urllib.parse import quote

from harness import ROOT, SERVER_BIN, Server, make_database, problem
from league_util import imported, invite, join, new_league, user


def _league(owner, guests=("Bea", "Cid")):
    lg, ids = new_league(owner, "Tuesday club", guests)
    return lg["id"], ids


def _play(c, lid, game, results, date="2026-03-01", **kw):
    st, hd, p = c.post(f"/api/v1/leagues/{lid}/plays", dict(game=game, date=date, results=results, **kw))
    assert st == 201, (st, p)
    return p


def _bgstats(players, plays, games):
    """A BG Stats export: players by name, games as (name, bggId), plays as (uuid, game index,
    [(player index, score)])."""
    return json.dumps({
        "players": [{"id": i + 1, "uuid": f"10000000-0000-4000-8000-{i + 1:012d}", "name": n,
                     "isAnonymous": False} for i, n in enumerate(players)],
        "games": [{"id": i + 1, "uuid": f"20000000-0000-4000-8000-{i + 1:012d}", "name": n,
                   "bggId": b, "cooperative": False, "highestWins": True, "noPoints": False,
                   "usesTeams": False} for i, (n, b) in enumerate(games)],
        "locations": [],
        "plays": [{"uuid": u, "playDate": f"2026-02-{k + 1:02d} 20:00:00", "gameRefId": g + 1,
                   "durationMin": 30, "ignored": False, "manualWinner": False, "bggId": 0,
                   "playerScores": [{"playerRefId": p + 1, "score": str(sc), "winner": False,
                                     "newPlayer": False, "startPlayer": False, "rank": 0,
                                     "seatOrder": 0} for p, sc in seats]}
                  for k, (u, g, seats) in enumerate(plays)]}).encode()


def _members(c, lid):
    st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
    assert st == 200, lg
    return {m["name"]: m for m in lg["members"]}


def test_member_names_compare_without_case_or_spaces():
    with Server(database=make_database("h_lm_names")) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann, guests=("Bob",))
        for name in ("bob", " BOB ", "Bob"):
            st, hd, o = ann.post(f"/api/v1/leagues/{lid}/members", {"name": name})
            problem(st, hd, o, 409, rule="member-exists", field="/name")
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "   "})
        problem(st, hd, o, 400, field="/name")
        st, hd, zed = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "  Zed  "})
        assert st == 201 and zed["name"] == "Zed", zed
        assert set(_members(ann, lid)) == {"Ann", "Bob", "Zed"}
        # an import's "bob " is Bob; a file with "Bob" and "BOB" at one table keeps both seats:
        # the second one is its own unrated entry, as a second seat of one name is
        doc = _bgstats(["bob ", "ann", "BOB"], [
            ("30000000-0000-4000-8000-000000000001", 0, [(0, 10), (1, 20)]),
            ("30000000-0000-4000-8000-000000000002", 0, [(0, 30), (1, 20), (2, 5)]),
        ], [("Azul", 230802)])
        o = imported(ann, lid, "bgstats", doc)
        assert o["imported"] == 2 and o["players_created"] == 1, o
        m = _members(ann, lid)
        assert set(m) == {"Ann", "Bob", "Zed", "BOB (seat 3)"}, m
        assert m["Bob"]["plays"] == 2 and m["Ann"]["plays"] == 2, m
        st, hd, stand = ann.get(f"/api/v1/leagues/{lid}/standings")
        assert {r["name"]: r["games"] for r in stand["standings"]} == {"Ann": 2, "Bob": 2}, stand
        # BoardGameGeek's "ANN" is Ann too
        xml = (b'<plays username="x" userid="1" total="1" page="1"><play id="5" date="2026-02-10" '
               b'quantity="1" length="0" incomplete="0" nowinstats="0" location=""><item name="Azul" '
               b'objecttype="thing" objectid="230802"/><players><player username="" userid="0" '
               b'name="ANN" score="3" win="1"/><player username="" userid="0" name=" zed" '
               b'score="1" win="0"/></players></play></plays>')
        o = imported(ann, lid, "bggxml", xml, "application/xml")
        assert o["imported"] == 1 and o["players_created"] == 0, o
        assert _members(ann, lid)["Zed"]["plays"] == 1


def test_rename_a_member():
    with Server(database=make_database("h_lm_rename")) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann)
        path = f"/api/v1/leagues/{lid}/members/{ids['Bea']}"
        st, hd, lg0 = ann.get(f"/api/v1/leagues/{lid}")
        etag = hd["etag"]
        st, hd, o = ann.call("PATCH", path, {"name": " Beatrice "})
        assert st == 200 and o["name"] == "Beatrice" and o["id"] == ids["Bea"] and o["guest"], o
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}", headers={"If-None-Match": etag})
        assert st == 200 and "Beatrice" in [m["name"] for m in lg["members"]], "a new version"
        st, hd, o = ann.call("PATCH", path, {"name": "beatrice"})
        assert st == 200 and o["name"] == "beatrice", "the same name in another case is hers"
        st, hd, o = ann.call("PATCH", path, {"name": "CID"})
        problem(st, hd, o, 409, rule="member-exists", field="/name")
        st, hd, o = ann.call("PATCH", path, {})
        problem(st, hd, o, 400)
        st, hd, o = ann.call("PATCH", path, {"name": "x", "colour": "red"})
        problem(st, hd, o, 400, field="/colour")
        st, hd, o = ann.call("PATCH", f"/api/v1/leagues/{lid}/members/nope", {"name": "Q"})
        problem(st, hd, o, 404)
        # a member with an account may not rename others
        bob = user(s, "bob@example.org", "Bob")
        join(ann, lid, bob, "Bob")
        st, hd, o = bob.call("PATCH", path, {"name": "Q"})
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, o = ann.call("PATCH", path, {"name": "Q"}, origin=False)
        problem(st, hd, o, 403, rule="origin-mismatch")


def test_owner_links_a_guest_to_an_account():
    with Server(database=make_database("h_lm_link")) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann)
        _play(ann, lid, "Azul", [{"player": ids["Ann"], "score": 3}, {"player": ids["Cid"], "score": 5}])
        cid = user(s, "cid@example.org", "Cid S.")
        st, hd, o = cid.get(f"/api/v1/leagues/{lid}")
        problem(st, hd, o, 403, rule="not-member")
        path = f"/api/v1/leagues/{lid}/members/{ids['Cid']}"
        st, hd, o = ann.call("PATCH", path, {"account": "CID@example.org"})
        assert st == 200 and o["guest"] and o["invitation"] and o["plays"] == 1, o
        st, hd, o = cid.post(f"/api/v1/invitations/{o['invitation']}/accept")  # Cid agrees
        assert st == 200 and o["member"] == ids["Cid"], o
        st, hd, o = cid.get(f"/api/v1/leagues/{lid}")
        assert st == 200 and o["you"]["member"] == ids["Cid"], "Cid reads the league as himself"
        st, hd, o = ann.call("PATCH", path, {"account": "ann@example.org"})
        problem(st, hd, o, 409, rule="not-a-guest", field="/account")
        st, hd, o = ann.call("PATCH", f"/api/v1/leagues/{lid}/members/{ids['Bea']}", {"account": "cid@example.org"})
        problem(st, hd, o, 409, rule="member-exists", field="/account")
        st, hd, o = ann.call("PATCH", f"/api/v1/leagues/{lid}/members/{ids['Bea']}", {"account": "nobody@example.org"})
        problem(st, hd, o, 422, rule="unknown-account", field="/account")


def test_merge_two_entries_of_one_person():
    with Server(database=make_database("h_lm_merge")) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann, guests=("Bea", "Beatrice", "Cid"))
        p1 = _play(ann, lid, "Azul", [{"player": ids["Ann"], "score": 3}, {"player": ids["Bea"], "score": 5}], date="2026-03-01")
        p2 = _play(ann, lid, "Azul", [{"player": ids["Ann"], "score": 9}, {"player": ids["Beatrice"], "score": 7}], date="2026-03-02")
        _play(ann, lid, "Azul", [{"player": ids["Cid"], "score": 1}, {"player": ids["Bea"], "score": 2}], date="2026-03-03")
        base = f"/api/v1/leagues/{lid}/members"
        st, hd, o = ann.post(f"{base}/{ids['Beatrice']}/merge", {"into": ids["Bea"]})
        assert st == 200 and o["id"] == ids["Bea"] and o["merged"] == ids["Beatrice"] and o["merge"], o
        m = _members(ann, lid)
        assert "Beatrice" not in m and m["Bea"]["plays"] == 3, m
        st, hd, h = ann.get(f"/api/v1/players/{ids['Bea']}/history")
        assert [x["play"] for x in h["history"]][:2] == [p1["id"], p2["id"]], h
        st, hd, o = ann.get(f"/api/v1/players/{ids['Beatrice']}/history")
        problem(st, hd, o, 404)
        st, hd, stand = ann.get(f"/api/v1/leagues/{lid}/standings")
        rows = {r["name"]: r for r in stand["standings"]}
        assert rows["Bea"]["games"] == 3 and rows["Bea"]["wins"] == 2 and "Beatrice" not in rows, rows
        # refused: one play together, into itself, into no member
        st, hd, o = ann.post(f"{base}/{ids['Cid']}/merge", {"into": ids["Bea"]})
        problem(st, hd, o, 409, rule="same-play", field="/into")
        st, hd, o = ann.post(f"{base}/{ids['Cid']}/merge", {"into": ids["Cid"]})
        problem(st, hd, o, 400, field="/into")
        st, hd, o = ann.post(f"{base}/{ids['Cid']}/merge", {"into": "nope"})
        problem(st, hd, o, 422, rule="unknown-player", field="/into")
        st, hd, o = ann.post(f"{base}/nope/merge", {"into": ids["Cid"]})
        problem(st, hd, o, 404)
        # a guest's account goes with its results; two accounts are two people
        cid = user(s, "cid@example.org", "Cid")
        st, hd, o = ann.call("PATCH", f"{base}/{ids['Cid']}", {"account": "cid@example.org"})
        assert st == 200
        st, hd, o = cid.post(f"/api/v1/invitations/{o['invitation']}/accept")
        assert st == 200
        st, hd, dot = ann.post(base, {"name": "Dot"})
        st, hd, o = ann.post(f"{base}/{ids['Cid']}/merge", {"into": dot["id"]})
        assert st == 200
        m = _members(ann, lid)
        assert m["Dot"]["account"] == cid.account["id"] and "Cid" not in m, m
        st, hd, o = cid.get(f"/api/v1/leagues/{lid}")
        assert o["you"]["member"] == dot["id"]
        st, hd, o = ann.post(f"{base}/{dot['id']}/merge", {"into": ids["Ann"]})
        problem(st, hd, o, 409, rule="two-accounts", field="/into")
        st, hd, o = cid.post(f"{base}/{dot['id']}/merge", {"into": ids["Ann"]})
        problem(st, hd, o, 403, rule="not-owner")


def test_one_game_however_its_plays_spell_it():
    with Server(database=make_database("h_lm_games")) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann, guests=("Bea",))
        two = [{"player": ids["Ann"], "score": 5}, {"player": ids["Bea"], "score": 3}]
        _play(ann, lid, "Dice Hospital: ER", two)
        _play(ann, lid, "dice hospital : er - emergency roll", two)
        _play(ann, lid, "Azul", two)                       # no BGG id: joins Azul's
        _play(ann, lid, "Clinic", two)
        _play(ann, lid, "Catan", two, bgg_id=13)
        _play(ann, lid, "Catan", two, bgg_id=999999)        # another game of that name
        doc = _bgstats(["Ann", "Bea"], [
            ("30000000-0000-4000-8000-000000000001", 0, [(0, 50), (1, 40)]),
            ("30000000-0000-4000-8000-000000000002", 1, [(0, 50), (1, 40)]),
            ("30000000-0000-4000-8000-000000000003", 2, [(0, 50), (1, 60)]),
            ("30000000-0000-4000-8000-000000000004", 3, [(0, 50), (1, 60)]),
        ], [("Dice Hospital: ER – Emergency Roll", 0), ("Azul", 230802),
            ("Azul: Neuauflage", 230802), ("Clinic: Deluxe Edition", 272739)])
        imported(ann, lid, "bgstats", doc)
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        assert lg["games"] == ["Azul", "Catan", "Catan", "Clinic", "Dice Hospital: ER – Emergency Roll"], lg["games"]

        def games_of(game, what="standings", more=""):
            st, hd, o = ann.get(f"/api/v1/leagues/{lid}/{what}?game={quote(game)}{more}")
            assert st == 200, o
            return o

        for name in ("Dice Hospital: ER", "Dice Hospital: ER – Emergency Roll", "DICE HOSPITAL ER"):
            rows = {r["name"]: r["games"] for r in games_of(name)["standings"]}
            assert rows == {"Ann": 3, "Bea": 3}, (name, rows)
        assert {r["name"]: r["games"] for r in games_of("Azul")["standings"]} == {"Ann": 3, "Bea": 3}
        assert {r["name"]: r["games"] for r in games_of("Clinic: Deluxe Edition")["standings"]} == {"Ann": 2, "Bea": 2}
        plays = games_of("Azul", "plays", "&limit=2")
        assert plays["total"] == 3 and len(plays["plays"]) == 2, plays
        assert sorted(p["game"] for p in games_of("azul", "plays")["plays"]) == ["Azul", "Azul", "Azul: Neuauflage"]
        h2h = games_of("Dice Hospital: ER", "head-to-head")["head_to_head"]
        assert {(x["name"], x["games"]) for x in h2h} == {("Ann", 3), ("Bea", 3)}, h2h
        # each play keeps its name: the export writes them as they came
        st, hd, e = ann.get(f"/api/v1/leagues/{lid}/export.json")
        assert {"Dice Hospital: ER", "Dice Hospital: ER – Emergency Roll", "Azul: Neuauflage"} <= {g["name"] for g in e["games"]}
        # an edit that renames a play's game moves it to that game
        st, hd, pl = ann.get(f"/api/v1/leagues/{lid}/plays?game=Clinic")
        pid = pl["plays"][0]["id"]
        st, hd, p = ann.get(f"/api/v1/leagues/{lid}/plays/{pid}")
        assert p["created_by"] == ann.account["id"], p
        body = {"game": "Dice Hospital ER", "date": p["date"],
                "results": [{"player": r["player"], "score": r["score"]} for r in p["results"]]}
        st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{pid}", body)
        assert st == 200, o
        assert {r["name"]: r["games"] for r in games_of("Dice Hospital: ER")["standings"]} == {"Ann": 4, "Bea": 4}
        assert {r["name"]: r["games"] for r in games_of("Clinic")["standings"]} == {"Ann": 1, "Bea": 1}


def _sql(db, query):
    p = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", query],
                       capture_output=True, text=True, check=True)
    return [line.split("|") for line in p.stdout.splitlines() if line]


def _migrate(db, migrations):
    env = dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=migrations, DB_WAIT="0",
               STATIC_DIR=os.path.join(ROOT, "static"), TEMPLATES_DIR=os.path.join(ROOT, "templates"))
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr


def test_migration_keeps_a_league_with_names_that_differ_in_case():
    """A league from before names compared without case, holding "Bob", "bob" and " BOB"
    with their plays: the migrations keep every member and play, one of the three keeps the
    name for matching (the one with most results), and every old play gets its game."""
    name = "h_lm_migrate"
    db = make_database(name)
    old = tempfile.mkdtemp(prefix="migrations-")
    try:
        for f in glob.glob(os.path.join(ROOT, "migrations", "[0-9]*.sql")):
            if int(os.path.basename(f)[:4]) < 12:
                shutil.copy(f, old)
        _migrate(db, old)
        _sql(db, """
            INSERT INTO leagues (id, name) VALUES ('L1', 'Old club');
            INSERT INTO league_members (id, league_id, name, created_at) VALUES
                ('m1', 'L1', 'Bob', now() - interval '3 days'),
                ('m2', 'L1', 'bob', now() - interval '2 days'),
                ('m3', 'L1', ' BOB', now() - interval '1 day'),
                ('m4', 'L1', 'Ann', now() - interval '4 days');
            INSERT INTO plays (id, league_id, game, played_at, uuid) VALUES
                ('p1', 'L1', 'Dice Hospital: ER', '2026-01-01', 'u1'),
                ('p2', 'L1', 'Dice Hospital: ER – Emergency Roll', '2026-01-02', 'u2'),
                ('p3', 'L1', 'Azul', '2026-01-03', 'u3');
            INSERT INTO play_results (play_id, member_id, seat, score, rank, winner) VALUES
                ('p1', 'm4', 1, 5, 1, true), ('p1', 'm1', 2, 3, 2, false),
                ('p2', 'm4', 1, 5, 1, true), ('p2', 'm2', 2, 3, 2, false),
                ('p3', 'm4', 1, 5, 1, true), ('p3', 'm2', 2, 3, 2, false);
        """)
        _migrate(db, os.path.join(ROOT, "migrations"))
        assert sorted(_sql(db, "SELECT id, name_clash FROM league_members ORDER BY id")) == \
            [["m1", "t"], ["m2", "f"], ["m3", "t"], ["m4", "f"]]
        assert _sql(db, "SELECT count(*) FROM play_results") == [["6"]]
        keys = dict(_sql(db, "SELECT game, key FROM league_game_names"))
        assert keys == {"Dice Hospital: ER": "product:er", "Dice Hospital: ER – Emergency Roll": "product:er",
                        "Azul": "name:azul"}, keys
        with Server(database=f"dbname={name}") as s:
            ann = user(s, "ann@example.org", "Ann")
            _sql(db, f"INSERT INTO league_owners VALUES ('L1', '{ann.account['id']}')")
            st, hd, o = ann.post("/api/v1/leagues/L1/members", {"name": "BOB"})
            problem(st, hd, o, 409, rule="member-exists")
            st, hd, lg = ann.get("/api/v1/leagues/L1")
            assert lg["games"] == ["Azul", "Dice Hospital: ER – Emergency Roll"], lg["games"]
            # the owner merges the entries; then the name is one player's again
            st, hd, o = ann.post("/api/v1/leagues/L1/members/m3/merge", {"into": "m2"})
            assert st == 200, o
            st, hd, o = ann.post("/api/v1/leagues/L1/members/m1/merge", {"into": "m2"})
            assert st == 200, o
            assert _sql(db, "SELECT id, name_clash FROM league_members WHERE league_id = 'L1' ORDER BY id") == \
                [["m2", "f"], ["m4", "f"]]
            st, hd, o = ann.post("/api/v1/leagues/L1/members", {"name": "Bob"})
            problem(st, hd, o, 409, rule="member-exists")
    finally:
        shutil.rmtree(old)


def test_a_right_lost_while_the_write_waits_for_the_league_lock():
    """A write checks the caller's rights before its transaction and again once it holds the
    league row's lock: a member removed, or a co-owner demoted, while the write waited for that
    lock (held here by a psql session, which takes the right away before it lets go) is refused
    403 and writes nothing."""
    import threading
    from test_db_timeouts import RowLock, _sql, _wait_lock_waiter
    name = "h_lm_relock"
    with Server(database=make_database(name), env={"DB_LOCK_TIMEOUT_MS": "20000"}) as s:
        ann, bob, cy = (user(s, f"{n}@example.org", n.title()) for n in ("ann", "bob", "cy"))
        lid, ids = _league(ann, guests=("Cid",))
        m = join(ann, lid, bob, "Bob")
        invite(ann, lid, cy)  # a co-owner, by an accepted invitation
        ann_id = ids["Ann"]

        def waiting_write(client, method, path, body, revoke):
            """client's write, sent while the league row is locked; revoke (SQL) runs in the
            lock's transaction once the write waits for it, then the lock is released."""
            lock = RowLock(name, lid, table="leagues")
            out = {}
            t = threading.Thread(target=lambda: out.update(
                r=client.call(method, path, body, timeout=30)))
            try:
                t.start()
                _wait_lock_waiter(name)
                lock.p.stdin.write(revoke + "\nCOMMIT;\n")
                lock.p.stdin.close()
                lock.p.wait(10)
            finally:
                lock.release()
                t.join(30)
            return out["r"]

        # the control: a write that waited for the lock, its rights intact, goes through
        res = [{"player": ann_id, "score": 10}, {"player": ids["Cid"], "score": 5}]
        play = {"game": "Azul", "date": "2026-03-01", "results": res}
        st, hd, o = waiting_write(bob, "POST", f"/api/v1/leagues/{lid}/plays", play, "")
        assert st == 201, (st, o)
        # Bob removed while his play waited: refused, nothing stored
        st, hd, o = waiting_write(bob, "POST", f"/api/v1/leagues/{lid}/plays", play,
                                  f"DELETE FROM league_members WHERE id = '{m['id']}';")
        problem(st, hd, o, 403, rule="not-member")
        assert _sql(name, f"SELECT count(*) FROM plays WHERE league_id = '{lid}'") == "1"
        # Cy demoted from co-owner while her rename waited: refused, the name stands
        st, hd, o = waiting_write(cy, "PATCH", f"/api/v1/leagues/{lid}/members/{ids['Cid']}",
                                  {"name": "Cyd"},
                                  f"DELETE FROM league_owners WHERE league_id = '{lid}' AND "
                                  f"account_id = '{cy.account['id']}';")
        problem(st, hd, o, 403, rule="not-owner")
        assert "Cid" in _members(ann, lid)
        # the owner's one-statement writes too: Cy, a co-owner again, demoted while each waited
        st, hd, eve = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Eve"})
        assert st == 201, (st, eve)
        demote = (f"DELETE FROM league_owners WHERE league_id = '{lid}' AND "
                  f"account_id = '{cy.account['id']}';")
        for method, path, body in (
                ("POST", f"/api/v1/leagues/{lid}/members", {"name": "Dee"}),
                ("DELETE", f"/api/v1/leagues/{lid}/members/{eve['id']}", None),
                ("POST", f"/api/v1/leagues/{lid}/seasons",
                 {"name": "2026", "starts": "2026-01-01", "ends": "2026-12-31"})):
            invite(ann, lid, cy)
            st, hd, o = waiting_write(cy, method, path, body, demote)
            problem(st, hd, o, 403, rule="not-owner")
        assert "Eve" in _members(ann, lid) and "Dee" not in _members(ann, lid)
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        assert lg.get("seasons", []) == [], lg.get("seasons")
