"""League imports against hostile files: XML entity expansion (a DTD is refused before libxml2
sees the file, so no entity is ever expanded), and numbers that JSON cannot carry (1e400 is
infinite as a double: refused at every input, never written in a reply)."""
import json, os, subprocess, time

from harness import SERVER_BIN, Server, make_database, problem
from league_util import user

# ASan's shadow memory and quarantine raise a sanitized server's resident set on their own.
_PEAK_MB = 400 if "asan" in SERVER_BIN else 100


def _db():
    return make_database("h_import_hardening")


def _league(owner):
    st, hd, lg = owner.post("/api/v1/leagues", {"name": "Hostile files"})
    assert st == 201, (st, lg)
    return lg["id"]


def _import(c, lid, fmt, body, ctype):
    return c.call("POST", f"/api/v1/leagues/{lid}/import?format={fmt}", body, raw=True,
                  headers={"Content-Type": ctype})


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
                st, hd, o = _import(ann, lid, "bggxml", body, "application/xml")
            except OSError as e:  # the server died or hung on it
                raise AssertionError(f"{what}: no answer ({e}); server exit {s.proc.poll()}")
            took = time.time() - t0
            problem(st, hd, o, 400, rule="malformed-file")
            assert "DOCTYPE" in o["detail"] or "ENTITY" in o["detail"], (what, o)
            assert took < 2, f"{what}: answered after {took:.1f} s"
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
        st, hd, o = _import(ann, lid, "bggxml", body, "application/xml")
        assert st == 200 and o["imported"] == 1, (st, o)
        st, hd, plays = ann.get(f"/api/v1/leagues/{lid}/plays")
        st, hd, p = ann.get(f"/api/v1/leagues/{lid}/plays/{plays['plays'][0]['id']}")
        assert p["game"] == "Azul & friends" and p["notes"] == "<fine> \u00e9", p
