"""Backups people can restore (README "Backups"): src/scripts/backup.sh, as shipped, dumps a
running server's database; src/scripts/restore.sh reads it into a new database, and a server
on that database answers every export of a league byte for byte as the first one did.

The league has what a group accumulates: plays by hand, a real BG Stats export imported
(tests/api/data/bgstats-real/), members (guests and an account), a season and a co-owner."""
import json, os, re, subprocess, tempfile

from harness import ROOT, make_database
from league_util import Server, invite, join, user

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "data", "bgstats-real", "michaelgao8-2021.json")
SCRIPTS = os.path.join(ROOT, "src", "scripts")


def _league(ann, bob):
    st, hd, lg = ann.post("/api/v1/leagues", {"name": "Backed up"})
    assert st == 201, (st, lg)
    lid = lg["id"]
    with open(FIXTURE, "rb") as f:
        st, hd, o = ann.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats", f.read(),
                             raw=True, headers={"Content-Type": "application/json"})
    assert st == 200 and o["imported"] > 0, (st, o)
    m = join(ann, lid, bob, "Bob")
    st, hd, g = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Guest Gail"})
    assert st == 201, (st, g)
    st, hd, o = ann.post(f"/api/v1/leagues/{lid}/seasons",
                         {"name": "Spring", "starts": "2026-03-01", "ends": "2026-05-31"})
    assert st == 201, (st, o)
    invite(ann, lid, bob)
    for i, score in enumerate((71, 64, 80)):
        st, hd, o = bob.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Dice Hospital", "date": f"2026-03-0{i + 1}T20:15:00+01:00",
            "notes": "ça compte", "results": [{"player": m["id"], "score": score},
                                             {"player": g["id"], "score": 70}]})
        assert st == 201, (st, o)
    return lid, season_of(ann, lid)


def season_of(client, lid):
    st, hd, lg = client.get(f"/api/v1/leagues/{lid}")
    assert st == 200, (st, lg)
    return lg["seasons"][0]["id"]


def _exports(client, lid, season):
    """The raw bytes of every export and read that a restore must give back."""
    out = {}
    for what in ("export.csv", "export.json", "backup.json", "standings",
                 f"standings?season={season}", "plays?limit=500", "head-to-head"):
        st, hd, body = client.s.request("GET", f"/api/v1/leagues/{lid}/{what}",
                                        headers={"Cookie": "dh_session=" + client.cookie})
        assert st == 200, (what, st, body[:300])
        out[what] = body
    return out


def _run(args, env):
    r = subprocess.run(["sh"] + args, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (args, r.returncode, r.stderr[-2000:])
    return r.stdout


def test_backup_and_restore_give_back_every_export():
    db = make_database("h_backup")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DATABASE_URL=db, BACKUP_DIR=tmp)
        with Server(database=db) as s:
            ann = user(s, "ann@example.org", "Ann")
            bob = user(s, "bob@example.org", "Bob")
            lid, season = _league(ann, bob)
            before = _exports(ann, lid, season)
            assert b"Dice Hospital" in before["export.csv"] and b"Spring" in before["backup.json"]
            # the shipped script, while the server runs
            path = _run([os.path.join(SCRIPTS, "backup.sh")], env).strip()
        assert re.fullmatch(re.escape(tmp) + r"/\d{8}T\d{6}Z(-\d+)?\.dump", path), path
        assert os.listdir(tmp) == [os.path.basename(path)], os.listdir(tmp)

        # into a new database next to the first (what `make restore FILE=…` does)
        out = _run([os.path.join(SCRIPTS, "restore.sh"), path], env)
        target = out.strip().rsplit("restored into: ", 1)[1]
        assert re.search(r"dbname=h_backup_restored_\d{8}T\d{6}Z$", target), out
        # into an empty database named by the caller
        empty = make_database("h_backup_empty")
        _run([os.path.join(SCRIPTS, "restore.sh"), path, empty], env)
        # a database in use is refused, untouched
        r = subprocess.run(["sh", os.path.join(SCRIPTS, "restore.sh"), path, db], env=env,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode != 0 and "not empty" in r.stderr, (r.returncode, r.stderr)
        try:
            for restored in (target, empty):
                with Server(database=restored) as s2:
                    # the sessions came back with the rest: the same cookie reads
                    ann.s = s2
                    after = _exports(ann, lid, season)
                for what in before:
                    assert after[what] == before[what], (restored, what, before[what][:300],
                                                         after[what][:300])
        finally:
            name = target.rsplit("dbname=", 1)[1]
            subprocess.run(["psql", "-X", "-q", "-d", "postgres", "-c",
                            f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'],
                           capture_output=True)


def test_restore_refuses_what_is_no_dump():
    with tempfile.NamedTemporaryFile(suffix=".dump") as f:
        f.write(json.dumps({"not": "a dump"}).encode())
        f.flush()
        r = subprocess.run(["sh", os.path.join(SCRIPTS, "restore.sh"), f.name,
                            make_database("h_backup_none")],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode != 0 and "no pg_dump -Fc archive" in r.stderr, r.stderr
