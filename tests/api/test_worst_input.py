"""Every route of static/openapi.json against its worst input: each documented query parameter,
and each path parameter, set to bytes that are not UTF-8, a NUL, an over-long value, numbers
beyond any column and dates with UTC offsets PostgreSQL refuses (+16:00, -16:00, +24:59); the
play routes' bodies with such dates; the imports' files with them. No reply is a 5xx, and a
value that is not text is a 400 naming the parameter (rule not-utf8 or nul-byte, field
/name) before any handler runs."""
import copy, json, os, re, socket

from harness import Server, make_database, problem
from league_util import Client, user

HERE = os.path.dirname(os.path.abspath(__file__))

# (percent-encoded value, the rule its 400 names)
NOT_TEXT = [
    ("%ff%fe", "not-utf8"),       # bytes that never start a character
    ("%c0%af", "not-utf8"),       # an overlong "/"
    ("%ed%a0%80", "not-utf8"),    # a surrogate (U+D800)
    ("%f4%90%80%80", "not-utf8"), # above U+10FFFF
    ("abc%e2%82", "not-utf8"),    # a character cut short
    ("%00", "nul-byte"),
    ("a%00b", "nul-byte"),
]
# values that are text: whatever the route makes of them, never a 5xx
TEXT = [
    "2026-01-01T12:00:00%2B16:00", "2026-01-01T12:00:00-16:00", "2026-01-01T12:00:00%2B24:59",
    "2026-01-01%2012:00:00+16:00", "-1", "99999999999999999999999999", "1e400", "%e2%82%ac",
    "'%20OR%201=1%20--", "%5C", "{LONG}", "",
]
BAD_DATES = ["2026-01-01T12:00:00+16:00", "2026-01-01T12:00:00-16:00",
             "2026-01-01T12:00:00+24:59", "2026-01-01T12:00:00+99:00"]
URL_ROOM = 2000  # a target of at most this many bytes (2048 is the server's limit: 414)


def _db():
    return make_database("h_worst_input")


def _operations(doc):
    """[(METHOD, template, [query names], [path names])] of every routed operation."""
    comp = doc["components"]["parameters"]
    ops = []
    for path, item in doc["paths"].items():
        if not path.startswith("/api/"):
            continue
        for method, op in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            params = [comp[p["$ref"].rsplit("/", 1)[1]] if "$ref" in p else p
                      for p in item.get("parameters", []) + op.get("parameters", [])]
            ops.append((method.upper(), path, [p["name"] for p in params if p["in"] == "query"],
                        [p["name"] for p in params if p["in"] == "path"]))
    return ops


class World:
    """A league with a member, a play and a season, and one game of each kind: the real ids a
    path takes, so that a bad value in one place meets handlers that go as deep as they can."""

    def __init__(self, s):
        self.s = s
        self.owner = user(s, "owner@example.org", "Owner")
        st, hd, lg = self.owner.post("/api/v1/leagues", {"name": "Worst input"})
        assert st == 201, (st, lg)
        self.league = lg["id"]
        st, hd, m = self.owner.post(f"/api/v1/leagues/{self.league}/members", {"name": "Bea"})
        assert st == 201, (st, m)
        st, hd, lg = self.owner.get(f"/api/v1/leagues/{self.league}")
        self.members = [x["id"] for x in lg["members"]]
        st, hd, p = self.owner.post(f"/api/v1/leagues/{self.league}/plays", self.play("2026-01-02"))
        assert st == 201, (st, p)
        self.play_id = p["id"]
        st, hd, se = self.owner.post(f"/api/v1/leagues/{self.league}/seasons",
                                     {"name": "2026", "starts": "2026-01-01", "ends": "2026-12-31"})
        assert st == 201, (st, se)
        self.season = se["id"]
        self.games = {}
        for kind in ("er", "dh", "clinic"):
            st, hd, g = s.json("POST", f"/api/v1/{kind}/games",
                               {"players": [{"name": "Ann"}, {"name": "Bea"}]})
            assert st == 201, (kind, st, g)
            self.games[kind] = g
        self.code = self.games["er"]["code"]
        st, hd, ch = self.owner.post(f"/api/v1/leagues/{self.league}/challenges",
                                     {"name": "Draw", "closes": "2099-01-01T00:00:00Z"})
        assert st == 201, (st, ch)
        self.challenge = ch["id"]

    def play(self, date):
        return {"game": "Azul", "date": date,
                "results": [{"player": m, "score": 10 - i} for i, m in enumerate(self.members)]}

    def value(self, template, name):
        """The real value of a path parameter of template."""
        kind = template.split("/")[3]
        if name == "id":
            if kind in self.games:
                return self.games[kind]["id"]
            return self.members[0] if template.startswith("/api/v1/players/") else self.league
        return {"member": self.members[1], "player": self.members[0], "play": self.play_id,
                "season": self.season, "code": self.code, "seat": "0", "n": "1",
                "challenge": self.challenge,
                "turn": "1",
                # no such invitation, claim or merge: a well-formed id the routes answer 404
                "inv": "0" * 24, "claim": "0" * 24, "merge": "0" * 24}[name]

    def headers(self, template):
        kind = template.split("/")[3]
        if kind in self.games and "/games/{id}" in template:
            return {"Authorization": "Bearer " + self.games[kind]["host_token"]}
        return {}


def _send(w, method, template, path_values, query):
    """One request; "{LONG}" in the target becomes as many x as fit in URL_ROOM bytes."""
    path = template
    for name, v in path_values.items():
        path = path.replace("{" + name + "}", v)
    target = path + ("?" + query if query else "")
    if "{LONG}" in target:
        target = target.replace("{LONG}", "x" * max(1, URL_ROOM - len(target) + 6))
    body = {} if method in ("POST", "PUT", "PATCH") else None
    st, hd, o = w.owner.call(method, target, body, headers=w.headers(template))
    assert st < 500, f"{method} {target[:200]} → {st}: {o}"
    return st, hd, o


def test_every_query_parameter_worst_values():
    """Each documented query parameter of every operation with each worst value; and a name
    no route documents, which the layer checks all the same."""
    with open(os.path.join(HERE, "..", "..", "static", "openapi.json")) as f:
        doc = json.load(f)
    with Server(database=_db()) as s:
        w = World(s)
        probed = 0
        for method, template, qnames, pnames in _operations(doc):
            real = {n: w.value(template, n) for n in pnames}
            for name in qnames + ["zz"]:
                for bad, rule in NOT_TEXT:
                    st, hd, o = _send(w, method, template, real, f"{name}={bad}")
                    problem(st, hd, o, 400, rule=rule, field="/" + name)
                    # the name itself, and a bad value after a good parameter
                    st, hd, o = _send(w, method, template, real, f"ok=1&{bad}=1")
                    problem(st, hd, o, 400, rule=rule)
                    probed += 2
                if name == "zz":
                    continue
                for v in TEXT:
                    if method == "DELETE" and v == "":
                        continue  # an empty filter: the delete itself would run
                    _send(w, method, template, real, f"{name}={v}")
                    probed += 1
        assert probed > 500, probed
        assert "SERVER-ERROR" not in s.output(), s.output()[-3000:]


def test_every_path_parameter_worst_values():
    with open(os.path.join(HERE, "..", "..", "static", "openapi.json")) as f:
        doc = json.load(f)
    with Server(database=_db()) as s:
        w = World(s)
        for method, template, qnames, pnames in _operations(doc):
            for name in pnames:
                real = {n: w.value(template, n) for n in pnames}
                for bad, rule in NOT_TEXT:
                    st, hd, o = _send(w, method, template, dict(real, **{name: bad}), "")
                    if "%00" in bad:
                        # a NUL in a path segment matches no route (http/router.c)
                        problem(st, hd, o, 404)
                    else:
                        problem(st, hd, o, 400, rule=rule, field="/" + name)
                for v in TEXT[:-1]:
                    _send(w, method, template, dict(real, **{name: v}), "")
        # the play and the games are still there: no probe deleted or changed them
        st, hd, p = w.owner.get(f"/api/v1/leagues/{w.league}/plays/{w.play_id}")
        assert st == 200 and p["date"].startswith("2026-01-02"), (st, p)
        assert "SERVER-ERROR" not in s.output(), s.output()[-3000:]


def test_raw_bytes_in_the_target():
    """Bytes ≥ 0x80 written into the request line as they are, not percent-encoded."""
    with Server(database=_db()) as s:
        for target in (b"/api/v1/profiles?game=\xff\xfe", b"/api/v1/profiles?\xc0\xaf=1",
                       b"/api/v1/join/\xff"):
            with socket.create_connection(("127.0.0.1", s.port), timeout=10) as c:
                c.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                reply = b""
                while True:
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    reply += chunk
            status = int(reply.split(b" ", 2)[1])
            assert status == 400, (target, reply[:400])
            body = json.loads(reply.split(b"\r\n\r\n", 1)[1])
            assert body["rule"] == "not-utf8" and body["field"] in ("/game", "/??", "/code"), body


def test_play_dates_beyond_postgres_offsets():
    """POST and PUT …/plays: an offset beyond ±15:59 is a 400 naming /date; ±15:59 itself is
    stored and read back with its offset."""
    with Server(database=_db()) as s:
        w = World(s)
        plays = f"/api/v1/leagues/{w.league}/plays"
        for date in BAD_DATES:
            st, hd, o = w.owner.post(plays, w.play(date))
            problem(st, hd, o, 400, field="/date")
            assert "15:59" in o["detail"], o
            st, hd, o = w.owner.put(f"{plays}/{w.play_id}", w.play(date))
            problem(st, hd, o, 400, field="/date")
        for date in ("2026-03-01T12:00:00+15:59", "2026-03-01T12:00:00-15:59"):
            st, hd, p = w.owner.post(plays, w.play(date))
            assert st == 201, (date, st, p)
            st, hd, p = w.owner.get(f"{plays}/{p['id']}")
            assert st == 200 and p["date"] == date, (date, p)
        st, hd, p = w.owner.put(f"{plays}/{w.play_id}", w.play("2026-01-02T08:00:00-15:59"))
        assert st == 200, (st, p)
        st, hd, lst = w.owner.get(plays)
        assert lst["total"] == 3, lst
        assert "SERVER-ERROR" not in s.output(), s.output()[-3000:]


def test_import_dates_beyond_postgres_offsets():
    """BG Stats skips such a play with a reason (its policy for a bad date); a backup is refused
    whole with the play's date named (its policy for any bad field)."""
    with Server(database=_db()) as s:
        w = World(s)
        imp = f"/api/v1/leagues/{w.league}/import?format="
        with open(os.path.join(HERE, "data", "bgstats-sample.json")) as f:
            sample = json.load(f)
        for i, date in enumerate(BAD_DATES):
            bg = copy.deepcopy(sample)
            for k, pl in enumerate(bg["plays"]):
                pl["uuid"] = f"{pl['uuid']}-{i}"
            bg["plays"][0]["playDate"] = date.replace("T", " ")
            st, hd, o = w.owner.call("POST", imp + "bgstats", json.dumps(bg), raw=True,
                                     headers={"Content-Type": "application/json"})
            assert st == 200, (st, o)
            assert [(k["index"], k["reason"]) for k in o["skipped_plays"]] == [(0, "no-date")], o
            assert o["imported"] == len(sample["plays"]) - 1, o
        backup = {"format": "dicehospital-league-backup", "version": 1, "name": "x",
                  "members": [], "seasons": [], "plays": [{
                      "uuid": "b0", "game": "Azul", "bgg_id": None, "date": "2025-01-01",
                      "duration_min": None, "notes": "", "location": "", "cooperative": False,
                      "source": "hand", "results": [{"name": "Ann", "score": 1, "rank": 1,
                                               "winner": True}]}]}
        backup["plays"].append(dict(backup["plays"][0], uuid="b1"))
        for date in BAD_DATES:
            backup["plays"][1]["date"] = date
            st, hd, o = w.owner.call("POST", imp + "backup", json.dumps(backup), raw=True,
                                     headers={"Content-Type": "application/json"})
            problem(st, hd, o, 400, rule="malformed-file", field="/plays/1/date")
            assert "15:59" in o["detail"], o
        backup["plays"][1]["date"] = "2025-01-01T23:00:00-15:59"
        st, hd, o = w.owner.call("POST", imp + "backup", json.dumps(backup), raw=True,
                                 headers={"Content-Type": "application/json"})
        assert st == 200 and o["imported"] == 2, (st, o)
        assert "SERVER-ERROR" not in s.output(), s.output()[-3000:]


def test_every_body_route_with_bytes_that_are_not_text():
    """A JSON body whose strings are not UTF-8 or hold \\u0000, to every route that takes one:
    refused by the strict parser (json/spec.c) or the route's own checks, never a 5xx."""
    with open(os.path.join(HERE, "..", "..", "static", "openapi.json")) as f:
        doc = json.load(f)
    bodies = [b'{"name": "\xff\xfe"}', b'{"name": "a\\u0000b"}', b'{"game": "\xed\xa0\x80"}',
              b'{"date": "2026-01-01T12:00:00+16:00"}', b'{"name": "\\ud800"}']
    with Server(database=_db()) as s:
        w = World(s)
        for method, template, qnames, pnames in _operations(doc):
            if method not in ("POST", "PUT", "PATCH"):
                continue
            path = template
            for n in pnames:
                path = path.replace("{" + n + "}", w.value(template, n))
            for body in bodies:
                h = dict(w.headers(template), **{"Content-Type": "application/json"})
                st, hd, o = w.owner.call(method, path, body, headers=h, raw=True)
                assert st < 500, f"{method} {path} {body!r} → {st}: {o}"
        assert "SERVER-ERROR" not in s.output(), s.output()[-3000:]
