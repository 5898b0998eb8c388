"""League imports against hostile files: XML entity expansion (a DTD is refused before libxml2
sees the file, so no entity is ever expanded), and numbers that JSON cannot carry (1e400 is
infinite as a double: refused at every input, never written in a reply)."""
import json, os, subprocess, time

from harness import SERVER_BIN, Server, make_database, problem
from league_util import import_file, user

# ASan's shadow memory and quarantine raise a sanitized server's resident set on their own.
_PEAK_MB = 400 if "asan" in SERVER_BIN else 100


def _db():
    return make_database("h_import_hardening")


def _league(owner):
    st, hd, lg = owner.post("/api/v1/leagues", {"name": "Hostile files"})
    assert st == 201, (st, lg)
    return lg["id"]


def _peak_mb(s):
    """The server process's peak resident set (VmHWM), in MB."""
    with open(f"/proc/{s.proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc/<pid>/status")


def _bgg(entity, refs_name, refs_comment):
    """A plays file whose DTD defines the entity e, referenced in a player's name and in the
    play's comments."""
    return (b'<?xml version="1.0"?>\n<!DOCTYPE plays [<!ENTITY e "' + entity + b'">]>\n'
            b'<plays username="x"><play id="1" date="2025-01-01">'
            b'<item name="Azul" objectid="230802"/><comments>' + b"&e;" * refs_comment +
            b'</comments><players><player name="' + b"&e;" * refs_name + b'" win="1"/>'
            b'</players></play></plays>')


def test_bgg_entity_expansion_is_refused_quickly_and_small():
    documents = {
        "1 MB entity x 1,000 in a name": _bgg(b"a" * (1 << 20), 1000, 0),
        "100,000 references in a comment": _bgg(b"a" * 1000, 0, 100000),
        "100,000 references in a name": _bgg(b"a" * 1000, 100000, 0),
        "an entity declaration alone": b'<!ENTITY e "x"><plays/>',
        # no byte of the text reads "<!DOCTYPE": the parser itself stops at the declaration
        "1 MB entity x 1,000 in UTF-16": _bgg(b"a" * (1 << 20), 1000, 0).decode().replace(
            '<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>').encode("utf-16"),
    }
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann)
        for what, body in documents.items():
            t0 = time.time()
            try:
                st, hd, o = import_file(ann, lid, "bggxml", body, "application/xml")
            except OSError as e:  # the server died or hung on it
                raise AssertionError(f"{what}: no answer ({e}); server exit {s.proc.poll()}")
            took = time.time() - t0
            problem(st, hd, o, 400, rule="malformed-file")
            assert "DOCTYPE" in o["detail"] or "ENTITY" in o["detail"], (what, o)
            assert took < 5, f"{what}: answered after {took:.1f} s"
            assert s.proc.poll() is None, f"{what}: the server died"
        st, hd, o = ann.get("/api/v1/health")
        assert st == 200, "the server still answers"
        peak = _peak_mb(s)
        assert peak < _PEAK_MB, f"peak resident memory {peak:.0f} MB"
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        assert plays["plays"] == [], plays


def test_bgg_without_dtd_still_imports():
    body = (b'<?xml version="1.0" encoding="utf-8"?><plays username="x">'
            b'<play id="7" date="2025-01-02"><item name="Azul &amp; friends" objectid="1"/>'
            b'<comments>&lt;fine&gt; &#233;</comments><players>'
            b'<player name="Ann" score="3" win="1"/><player name="Bea" score="2" win="0"/>'
            b'</players></play></plays>')
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann)
        st, hd, o = import_file(ann, lid, "bggxml", body, "application/xml")
        assert st == 200 and o["imported"] == 1, (st, o)
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        st, hd, p = ann.get(f"/api/v1/leagues/{lid}/plays/{plays['plays'][0]['id']}")
        assert p["game"] == "Azul & friends" and p["notes"] == "<fine> \u00e9", p


def _strict(data):
    """JSON as RFC 8259 has it: Python's json reads Infinity and NaN unless told not to."""
    def refuse(name):
        raise AssertionError(f"{name} is not JSON")
    return json.loads(data, parse_constant=refuse)


def _sample():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data", "bgstats-sample.json"), "rb") as f:
        return json.loads(f.read())


def test_non_finite_numbers_are_refused_at_every_input():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann)
        # BG Stats: a score typed as "1e400" is no number we read (no score, kept as typed);
        # a JSON number beyond a double refuses the file (it is no JSON we read)
        doc = _sample()
        doc["plays"][1]["playerScores"][0]["score"] = "1e400"
        other = _league(ann)
        st, hd, o = import_file(ann, other, "bgstats", json.dumps(doc), "application/json")
        assert st == 200 and o["imported"] == 3, o
        st, hd, e = ann.get(f"/api/v1/leagues/{other}/export.json")
        _strict(json.dumps(e))
        golf = [p for p in e["plays"] if p["uuid"] == doc["plays"][1]["uuid"]][0]
        assert golf["playerScores"][0]["score"] == "1e400", golf
        text = json.dumps(_sample()).replace('"score": "61"', '"score": 1e400', 1)
        assert "1e400" in text
        st, hd, o = import_file(ann, lid, "bgstats", text, "application/json")
        problem(st, hd, o, 400, field="/plays/0/playerScores/0/score")
        assert "finite" in o["detail"], o
        # BGG XML: a score attribute is text as typed; only a plain decimal is a number, so
        # "1e400" and 400 digits are kept as typed, with no number
        xml = (b'<plays><play id="9" date="2025-01-02"><item name="Azul" objectid="1"/>'
               b'<players><player name="Ann" score="1e400"/><player name="Bea" score="' +
               b"9" * 400 + b'"/><player name="Cid" score="2"/></players></play></plays>')
        st, hd, o = import_file(ann, lid, "bggxml", xml, "application/xml")
        assert st == 200 and o["imported"] == 1, o
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        st, hd, play = ann.get(f"/api/v1/leagues/{lid}/plays/{plays['plays'][0]['id']}")
        assert [(r["score"], r["score_text"]) for r in play["results"]] == \
            [(None, "1e400"), (None, "9" * 256), (2, None)], play
        ann.delete(f"/api/v1/leagues/{lid}/plays/{play['id']}")
        # our backup: a number anywhere in it, a score's breakdown included
        backup = {"format": "dicehospital-league-backup", "version": 1, "name": "x",
                  "members": [], "seasons": [], "plays": [{
                      "uuid": "u1", "game": "Azul", "bgg_id": None, "date": "2025-01-01",
                      "duration_min": None, "notes": "", "location": "", "cooperative": False,
                      "source": "hand", "results": [
                          {"name": "Ann", "score": 1, "rank": 1, "winner": True,
                           "breakdown": {"bonus": 7}}]}]}
        text = json.dumps(backup).replace('"bonus": 7', '"bonus": -1e400')
        st, hd, o = import_file(ann, lid, "backup", text, "application/json")
        problem(st, hd, o, 400, field="/plays/0/results/0/breakdown/bonus")
        # a request body of another route
        st, hd, me = ann.get("/api/v1/accounts/me")
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        player = lg["members"][0]["id"]
        body = json.dumps({"game": "Azul", "results": [{"player": player, "score": 1}]})
        st, hd, o = ann.call("POST", f"/api/v1/leagues/{lid}/plays",
                             body.replace('"score": 1', '"score": 1e400'), raw=True,
                             headers={"Content-Type": "application/json"})
        problem(st, hd, o, 400, field="/results/0/score")
        assert "finite" in o["detail"], o
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        assert plays["plays"] == [], "nothing stored"


def test_non_finite_numbers_are_never_written():
    """Numbers a database holds that JSON cannot carry (a double precision column takes
    'Infinity' and 'NaN') leave as null: every reply stays JSON."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid = _league(ann)
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "data", "bgstats-sample.json"), "rb") as f:
            st, hd, o = import_file(ann, lid, "bgstats", f.read(), "application/json")
        assert st == 200 and o["imported"] == 3, o
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-d", "h_import_hardening", "-c",
                        "UPDATE play_results SET score = 'Infinity' WHERE seat = 1; "
                        "UPDATE play_results SET score = 'NaN' WHERE seat = 2"],
                       check=True, capture_output=True)
        # (GET …/plays is left out: its list is JSON that PostgreSQL writes, where an infinite
        # score is the string "Infinity")
        ids = subprocess.run(["psql", "-At", "-d", "h_import_hardening", "-c",
                              "SELECT id FROM plays"], check=True, capture_output=True,
                             text=True).stdout.split()
        assert len(ids) == 3, ids
        paths = [f"/api/v1/leagues/{lid}/standings", f"/api/v1/leagues/{lid}/export.json",
                 f"/api/v1/leagues/{lid}/backup.json"]
        paths += [f"/api/v1/leagues/{lid}/plays/{i}" for i in ids]
        for path in paths:
            st, hd, data = s.request("GET", path, headers={"Cookie": "dh_session=" + ann.cookie})
            assert st == 200, (path, st, data)
            _strict(data)
            assert b"Infinity" not in data and b"NaN" not in data and b"inf" not in data, \
                (path, data[:400])
        st, hd, data = s.request("GET", f"/api/v1/leagues/{lid}/export.csv",
                                 headers={"Cookie": "dh_session=" + ann.cookie})
        assert st == 200 and b"Infinity" not in data and b"NaN" not in data, data[:400]
