"""One name, one member (README "Leagues": names match without regard to capitals or the spaces
around them; src/base/names.h): every kind of Unicode white space is trimmed and collapsed, an
accent typed as a letter and a combining mark is the accented letter (NFC), capitals fold as
Unicode folds them, and invisible characters (zero-width space …) are left out — when a member
is added or renamed, and when an import or a table game brings a name. The key the server
stores is checked against Python's own Unicode functions, and migration 0020 keys a league made
before it, marking names that became one for a merge without merging or losing anything."""
import glob, json, os, shutil, subprocess, tempfile, unicodedata

from harness import ROOT, SERVER_BIN, Server, make_database, problem
from league_util import imported, user

# Unicode's White_Space property (PropList.txt), and the invisible characters these tests use
# (Default_Ignorable_Code_Point)
WHITE = {*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
         0x202F, 0x205F, 0x3000}
INVISIBLE = {0x00AD, 0x034F, 0x200B, 0x200C, 0x200D, 0x2060, 0xFE0F, 0xFEFF}


def py_display(s):
    words, cur = [], ""
    for ch in s:
        if ord(ch) in WHITE:
            if cur:
                words.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        words.append(cur)
    return unicodedata.normalize("NFC", " ".join(words))


def py_key(s):
    s = py_display("".join(ch for ch in s if ord(ch) not in INVISIBLE))
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", s).casefold())


def _sql(db, query):
    p = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\x1f", "-v", "ON_ERROR_STOP=1",
                        "-d", db, "-c", query], capture_output=True, text=True, check=True)
    return [line.split("\x1f") for line in p.stdout.split("\n") if line]


def _members(c, lid):
    st, hd, lg = c.get(f"/api/v1/leagues/{lid}")
    assert st == 200, lg
    return {m["name"]: m for m in lg["members"]}


def _league(owner, name="Tuesday club", guests=()):
    st, hd, lg = owner.post("/api/v1/leagues", {"name": name})
    assert st == 201, (st, lg)
    for g in guests:
        st, hd, m = owner.post(f"/api/v1/leagues/{lg['id']}/members", {"name": g})
        assert st == 201, (st, m)
    return lg["id"]


def _bgstats(players, plays):
    """A BG Stats export of Azul plays: players by name; plays as lists of (player index,
    score)."""
    return json.dumps({
        "players": [{"id": i + 1, "uuid": f"10000000-0000-4000-8000-{i + 1:012d}", "name": n,
                     "isAnonymous": False} for i, n in enumerate(players)],
        "games": [{"id": 1, "uuid": "20000000-0000-4000-8000-000000000001", "name": "Azul",
                   "bggId": 230802, "cooperative": False, "highestWins": True,
                   "noPoints": False, "usesTeams": False}],
        "locations": [],
        "plays": [{"uuid": f"30000000-0000-4000-8000-{k + 1:012d}",
                   "playDate": f"2026-02-{k + 1:02d} 20:00:00", "gameRefId": 1,
                   "durationMin": 30, "ignored": False, "manualWinner": False, "bggId": 0,
                   "playerScores": [{"playerRefId": p + 1, "score": str(sc), "winner": False,
                                     "newPlayer": False, "startPlayer": False, "rank": 0,
                                     "seatOrder": 0} for p, sc in seats]}
                  for k, seats in enumerate(plays)]}).encode()


def _respell(o, spelt):
    """o with every string equal to a key of spelt replaced by its value."""
    if isinstance(o, dict):
        return {k: _respell(v, spelt) for k, v in o.items()}
    if isinstance(o, list):
        return [_respell(v, spelt) for v in o]
    return spelt.get(o, o) if isinstance(o, str) else o


BOBS = ["bOb\t", "Bob\u00a0", "\u2003Bob", "BOB\u3000", "\u202fbob\u205f", "\nBob\r",
        "Bob\u0085", "B\u200bob", "\ufeffBob", "Bo\u00adb"]


def test_one_name_one_member_however_typed():
    with Server(database=make_database("h_mn_api")) as s:
        db = "h_mn_api"
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, guests=("Bob",))
        members = f"/api/v1/leagues/{lid}/members"
        for name in BOBS:
            st, hd, o = ann.post(members, {"name": name})
            problem(st, hd, o, 409, rule="member-exists", field="/name")
        # NFC: "Zoe" and a combining acute is "Zoé", shown so
        st, hd, zoe = ann.post(members, {"name": " Zoe\u0301\u2003"})
        assert st == 201 and zoe["name"] == "Zo\u00e9", zoe
        for name in ("ZO\u00c9", "zo\u00e9", "ZOE\u0301"):
            st, hd, o = ann.post(members, {"name": name})
            problem(st, hd, o, 409, rule="member-exists", field="/name")
        # a letter without a precomposed accented form keeps its mark: another name
        st, hd, o = ann.post(members, {"name": "B\u0301ob"})
        assert st == 201 and o["name"] == "B\u0301ob", o
        # full case folding: ß is ss
        st, hd, o = ann.post(members, {"name": "Stra\u00dfe"})
        assert st == 201, o
        st, hd, o = ann.post(members, {"name": "STRASSE"})
        problem(st, hd, o, 409, rule="member-exists", field="/name")
        # Turkish dotted capital I folds to i with a dot above (no language's special rules):
        # "İpek" and "ipek" are two names, "İPEK" is the first
        st, hd, o = ann.post(members, {"name": "\u0130pek"})
        assert st == 201, o
        st, hd, o = ann.post(members, {"name": "ipek"})
        assert st == 201, o
        st, hd, o = ann.post(members, {"name": "\u0130PEK"})
        problem(st, hd, o, 409, rule="member-exists", field="/name")
        # inner runs of white space are one space; spaces inside a name count
        st, hd, o = ann.post(members, {"name": "  Anna \u00a0\t Maria  "})
        assert st == 201 and o["name"] == "Anna Maria", o
        st, hd, o = ann.post(members, {"name": "anna maria"})
        problem(st, hd, o, 409, rule="member-exists", field="/name")
        st, hd, o = ann.post(members, {"name": "AnnaMaria"})
        assert st == 201, o
        # a zero-width space is no space: kept in the name, left out of the comparison
        st, hd, o = ann.post(members, {"name": "Ma\u200bx"})
        assert st == 201 and o["name"] == "Ma\u200bx", o
        st, hd, o = ann.post(members, {"name": "MAX"})
        problem(st, hd, o, 409, rule="member-exists", field="/name")
        st, hd, o = ann.post(members, {"name": "Ma x"})
        assert st == 201, o
        # nothing visible: 400
        for name in ("\u00a0\u2003\t", "\u200b", "\u3164", " \ufeff "):
            st, hd, o = ann.post(members, {"name": name})
            problem(st, hd, o, 400, field="/name")
        # NFC may lengthen a name (a composition exclusion: one character typed, two stored)
        st, hd, o = ann.post(members, {"name": "\u0958" * 21})
        assert st == 201 and o["name"] == "\u0915\u093c" * 21, o
        # renaming: to another member's name however typed is refused; one's own is fine
        st, hd, zed = ann.post(members, {"name": "Zed"})
        st, hd, o = ann.call("PATCH", f"{members}/{zed['id']}", {"name": "bob\u2003"})
        problem(st, hd, o, 409, rule="member-exists", field="/name")
        st, hd, o = ann.call("PATCH", f"{members}/{zed['id']}", {"name": "\u00a0ZED\u00a0"})
        assert st == 200 and o["name"] == "ZED", o
        st, hd, o = ann.call("PATCH", f"{members}/{zed['id']}", {"name": "\u200b"})
        problem(st, hd, o, 400, field="/name")
        # the stored keys are what Python's Unicode functions say
        rows = _sql(db, f"SELECT name, name_key FROM league_members WHERE league_id = '{lid}'")
        assert len(rows) == 13, rows
        for name, key in rows:
            assert key == py_key(name) and name == py_display(name), (name, key, py_key(name))


def test_imports_and_table_games_match_names_however_typed():
    with Server(database=make_database("h_mn_imports")) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann, guests=("Bob", "Zo\u00e9"))
        # BG Stats: "bOb\t", "Bob\u00a0" are Bob, "\u2003ZOE\u0301" Zoé; "New\u00a0 Guest " a
        # new guest, stored as "New Guest"
        doc = _bgstats(["bOb\t", "Ann", "\u2003ZOE\u0301", "New\u00a0 Guest ", "Bob\u00a0"],
                       [[(0, 10), (1, 20)], [(2, 5), (1, 7), (3, 9)], [(4, 3), (1, 1)]])
        o = imported(ann, lid, "bgstats", doc)
        assert o["imported"] == 3 and o["players_created"] == 1, o
        m = _members(ann, lid)
        assert set(m) == {"Ann", "Bob", "Zo\u00e9", "New Guest"}, m
        assert (m["Bob"]["plays"], m["Zo\u00e9"]["plays"], m["New Guest"]["plays"]) == (2, 1, 1), m
        # BoardGameGeek: an em space and capitals
        xml = ('<plays username="x" userid="1" total="1" page="1"><play id="5" date="2026-02-10" '
               'quantity="1" length="0" incomplete="0" nowinstats="0" location=""><item name="Azul" '
               'objecttype="thing" objectid="230802"/><players><player username="" userid="0" '
               'name="&#x2003;BOB" score="3" win="1"/><player username="" userid="0" '
               'name="new guest&#xa0;" score="1" win="0"/></players></play></plays>').encode()
        o = imported(ann, lid, "bggxml", xml, "application/xml")
        assert o["imported"] == 1 and o["players_created"] == 0, o
        assert _members(ann, lid)["Bob"]["plays"] == 3
        # a backup: another league whose members are spelt otherwise takes it without a new
        # member
        st, hd, backup = ann.get(f"/api/v1/leagues/{lid}/backup.json")
        spelt = {"Bob": "BOB\u00a0", "Zo\u00e9": "zoe\u0301", "New Guest": "new\u2003guest",
                 "Ann": "\u3000ann"}
        backup = _respell(backup, spelt)
        assert "BOB\u00a0" in json.dumps(backup, ensure_ascii=False)
        lid2 = _league(ann, name="From a backup", guests=("bob", "ZO\u00c9", "New Guest"))
        o = imported(ann, lid2, "backup", json.dumps(backup).encode())
        assert o["imported"] == 4 and o["players_created"] == 0, o
        m2 = _members(ann, lid2)
        assert set(m2) == {"Ann", "bob", "ZO\u00c9", "New Guest"}, m2
        assert m2["bob"]["plays"] == 3, m2
        # a table game recorded into the league: its seats' names match members
        body = {"players": [{"name": "\u2003bob"}, {"name": "ZOE\u0301\u00a0"}], "league": lid}
        st, hd, g = ann.post("/api/v1/clinic/games", body)
        assert st == 201, (st, g)
        for n in range(1, 7):
            st, hd, r = s.json("PUT", f"/api/v1/clinic/games/{g['id']}/rounds/{n}",
                               {"entries": [{"seat": 1}, {"seat": 2}]}, token=g["host_token"])
            assert st == 200, (n, st, r)
        st, hd, fin = s.json("POST", f"/api/v1/clinic/games/{g['id']}/finish",
                             {"entries": [{"seat": 1}, {"seat": 2}]}, token=g["host_token"])
        assert st == 200, fin
        m = _members(ann, lid)
        assert set(m) == {"Ann", "Bob", "Zo\u00e9", "New Guest"}, m
        assert (m["Bob"]["plays"], m["Zo\u00e9"]["plays"]) == (4, 2), m


def _migrate(db, migrations):
    env = dict(os.environ, DATABASE_URL=db, MIGRATIONS_DIR=migrations, DB_WAIT="0",
               STATIC_DIR=os.path.join(ROOT, "static"), TEMPLATES_DIR=os.path.join(ROOT, "templates"))
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout + p.stderr


def test_migration_marks_names_that_became_one():
    """A league from before 0020 holds "Bob", "Bob\u00a0" and "\u2003bob" (three members to
    the old rule, one to the new), "Zoé" and "Zoe\u0301", "Straße" and "STRASSE": every member
    and play is kept, names are not rewritten, one of each group keeps the name for matching
    (the one with an account, else most results, else the oldest), the others are marked
    name_clash for the owner to merge or rename; a second start changes nothing."""
    name = "h_mn_migrate"
    db = make_database(name)
    old = tempfile.mkdtemp(prefix="migrations-")
    try:
        for f in glob.glob(os.path.join(ROOT, "migrations", "[0-9]*.sql")):
            if int(os.path.basename(f)[:4]) < 20:
                shutil.copy(f, old)
        _migrate(db, old)
        _sql(db, """
            INSERT INTO accounts (id, email, display_name, password_hash)
                VALUES ('a5', 'zoe@example.org', 'Zoé', 'x');
            INSERT INTO leagues (id, name) VALUES ('L1', 'Old club');
            INSERT INTO league_members (id, league_id, name, account_id, created_at) VALUES
                ('m1', 'L1', 'Bob', NULL, now() - interval '2 days'),
                ('m2', 'L1', E'Bob\\u00a0', NULL, now() - interval '3 days'),
                ('m3', 'L1', E'\\u2003bob', NULL, now() - interval '1 day'),
                ('m4', 'L1', E'Zo\\u00e9', NULL, now() - interval '5 days'),
                ('m5', 'L1', E'Zoe\\u0301', 'a5', now() - interval '1 day'),
                ('m6', 'L1', E'Stra\\u00dfe', NULL, now() - interval '5 days'),
                ('m7', 'L1', 'STRASSE', NULL, now() - interval '1 day'),
                ('m8', 'L1', 'Ann', NULL, now() - interval '6 days');
            INSERT INTO plays (id, league_id, game, played_at, uuid) VALUES
                ('p1', 'L1', 'Azul', '2026-01-01', 'u1'),
                ('p2', 'L1', 'Azul', '2026-01-02', 'u2');
            INSERT INTO play_results (play_id, member_id, seat, score, rank, winner) VALUES
                ('p1', 'm8', 1, 5, 1, true), ('p1', 'm1', 2, 3, 2, false),
                ('p2', 'm8', 1, 5, 1, true), ('p2', 'm1', 2, 3, 2, false),
                ('p2', 'm3', 3, 1, 3, false), ('p1', 'm4', 3, 1, 3, false);
        """)
        out = _migrate(db, os.path.join(ROOT, "migrations"))
        assert "keyed the names of 8 members; 4 share a name" in out, out
        rows = _sql(db, "SELECT id, name, name_key, name_clash FROM league_members ORDER BY id")
        assert [(r[0], r[3]) for r in rows] == [
            ("m1", "f"), ("m2", "t"), ("m3", "t"), ("m4", "t"), ("m5", "f"), ("m6", "f"),
            ("m7", "t"), ("m8", "f")], rows
        assert [r[1] for r in rows] == ["Bob", "Bob\u00a0", "\u2003bob", "Zo\u00e9", "Zoe\u0301",
                                        "Stra\u00dfe", "STRASSE", "Ann"], "names kept as they were"
        for _, n, key, _ in rows:
            assert key == py_key(n), (n, key)
        assert _sql(db, "SELECT count(*) FROM play_results") == [["6"]]
        out = _migrate(db, os.path.join(ROOT, "migrations"))
        assert "keyed the names" not in out, out
        with Server(database=f"dbname={name}") as s:
            ann = user(s, "ann@example.org", "Ann")
            _sql(db, f"INSERT INTO league_owners VALUES ('L1', '{ann.account['id']}')")
            for n in ("BOB", "zo\u00e9", "strasse"):
                st, hd, o = ann.post("/api/v1/leagues/L1/members", {"name": n})
                problem(st, hd, o, 409, rule="member-exists")
            # an import's "bob\u00a0" is the member that keeps the name
            doc = _bgstats(["bob\u00a0", "Ann"], [[(0, 1), (1, 2)]])
            o = imported(ann, "L1", "bgstats", doc)
            assert o["imported"] == 1 and o["players_created"] == 0, o
            assert _sql(db, "SELECT count(*) FROM play_results WHERE member_id = 'm1'") == [["3"]]
            # the owner merges one look-alike and renames the other: the marks go
            st, hd, o = ann.post("/api/v1/leagues/L1/members/m2/merge", {"into": "m1"})
            assert st == 200, o
            st, hd, o = ann.call("PATCH", "/api/v1/leagues/L1/members/m3", {"name": "Bobby"})
            assert st == 200 and o["name"] == "Bobby", o
            assert _sql(db, "SELECT id, name_clash FROM league_members WHERE id IN ('m1', 'm3') "
                            "ORDER BY id") == [["m1", "f"], ["m3", "f"]]
    finally:
        shutil.rmtree(old)
