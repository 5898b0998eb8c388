"""The BG Stats export read by the readers people use, as they use them, on every real BG Stats
file of the tests (tests/api/data/bgstats-real/, and the sample): Python's json with a hook
that refuses a repeated member name; R's jsonlite (fromJSON, ids joined with `$`, as published
R scripts read BGStatsExport.json: tests/api/export_readers.R); pandas (json_normalize of the
seats, merged with the games and players by id, as published notebooks do). Each reader reads
the original file and our export of it: the same games, locations, expansions and players for
every play. The readers are first held to Python's own join of the original file, so a reader
that read nothing, or joined wrongly, fails here rather than agreeing with itself."""
import json, os, subprocess, sys, tempfile

from harness import Server, make_database, strict_json
from league_util import user

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "bgstats-real")
FILES = [os.path.join(REAL, n) for n in sorted(os.listdir(REAL)) if n.endswith(".json")] + \
        [os.path.join(HERE, "data", "bgstats-sample.json")]


def _exported(c, path):
    """path imported into a new league: the text of its export.json."""
    st, hd, lg = c.post("/api/v1/leagues", {"name": os.path.basename(path)[:60]})
    assert st == 201, lg
    with open(path, "rb") as f:
        st, hd, o = c.call("POST", f"/api/v1/leagues/{lg['id']}/import?format=bgstats", f.read(),
                           raw=True, headers={"Content-Type": "application/json"})
    assert st == 200, o
    st, hd, body = c.s.request("GET", f"/api/v1/leagues/{lg['id']}/export.json", None,
                               {"Cookie": "dh_session=" + c.cookie})
    assert st == 200, body
    return body if isinstance(body, bytes) else body.encode("utf-8")


def _by_python(doc):
    """The plays of a parsed file joined by hand: the reference every reader is held to."""
    name = lambda objs: {o["id"]: o["name"] for o in objs}
    games, players = name(doc["games"]), name(doc["players"])
    places = name(doc.get("locations", []))
    out = []
    for p in doc["plays"]:
        seats = p.get("playerScores", [])
        out.append({"uuid": p["uuid"], "game": [games.get(p["gameRefId"])],
                    "location": [places.get(p["locationRefId"])] if "locationRefId" in p else [],
                    "expansions": [games.get(x["gameRefId"]) for x in p.get("expansionPlays", [])],
                    "players": [players.get(x["playerRefId"]) for x in seats]})
    return out


def _by_r(paths):
    """R's jsonlite reading of each file (one Rscript for all of them)."""
    r = subprocess.run(["Rscript", "--vanilla", os.path.join(HERE, "export_readers.R"), *paths],
                       capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    got = json.loads(r.stdout)
    return {p: [{k: v for k, v in play.items() if k not in ("scores", "winners")}
                for play in got[p]] for p in paths}, got


def _pandas_python():
    """An interpreter that has pandas: this one, else Debian's (python3-pandas)."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if subprocess.run([exe, "-c", "import pandas"], capture_output=True).returncode == 0:
            return exe
    raise AssertionError("no python3 with pandas (Debian: python3-pandas)")


def _by_pandas(paths):
    """pandas' reading of each file (tests/api/export_readers_pandas.py, one run for all)."""
    r = subprocess.run([_pandas_python(), os.path.join(HERE, "export_readers_pandas.py"), *paths],
                       capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    return json.loads(r.stdout)


def _planted(doc):
    """doc written as a writer that repeats member names would: each game object with a wrong
    `id` first, then its own (Python keeps the last, jsonlite's `$id` the first)."""
    games = ",".join('{"id":%d,' % (g["id"] + 100000) + json.dumps(g, ensure_ascii=False)[1:]
                     for g in doc["games"])
    rest = json.dumps({k: v for k, v in doc.items() if k != "games"}, ensure_ascii=False)
    return ('{"games":[' + games + "]," + rest[1:]).encode("utf-8")


def test_readers_read_the_export_as_the_file():
    with Server(database=make_database("h_export_readers")) as s, \
            tempfile.TemporaryDirectory() as tmp:
        ann = user(s, "ann@example.org", "Ann")
        pairs = []
        for path in FILES:
            text = _exported(ann, path)
            # (a) a strict parser: no object of the export repeats a member name
            exported = strict_json(text)
            original = strict_json(open(path, "rb").read())
            out = os.path.join(tmp, os.path.basename(path))
            with open(out, "wb") as f:
                f.write(text)
            pairs.append((path, out, original, exported))
        # the readers catch what they are here for: a file that repeats names
        planted = os.path.join(tmp, "planted.json")
        with open(planted, "wb") as f:
            f.write(_planted(pairs[-1][2]))
        try:
            strict_json(open(planted, "rb").read())
            assert False, "the strict parser let a repeated name through"
        except ValueError:
            pass
        # (b) R's jsonlite and (c) pandas, one run each for every file and every export
        paths = [p for pair in pairs for p in pair[:2]] + [planted]
        r, raw = _by_r(paths)
        pandas = _by_pandas(paths)
        assert r[planted] != _by_python(pairs[-1][2]), "R read repeated ids as the file"
        for path, out, original, exported in pairs:
            reference = _by_python(original)
            assert reference and all(p["game"][0] for p in reference), path
            assert r[path] == reference, f"{path}: R reads the file as Python does"
            assert r[out] == reference, f"{path}: R reads the export as the file"
            assert raw[out] == raw[path], f"{path}: R reads the same scores and winners"
            seats = sorted([p["uuid"], p["game"][0], name] for p in reference
                           for name in p["players"])
            assert [row[:3] for row in pandas[path]] == seats, f"{path}: pandas reads the file"
            assert pandas[out] == pandas[path], f"{path}: pandas reads the export as the file"
            assert _by_python(exported) == reference, path
