"""Every JSON body of static/openapi.json with each of its fields at its worst: a body that the
route takes (a real ER sheet, turn and move of a game under way, a finished game's turns and
moves for the coach, a league's play, a real BG Stats export, a box's profile, the finish of a
Dice Hospital or Clinic game whose rounds are all in, a log-in, a guest by a challenge's link, a
merge of two guests, …; for the rest, one built from the route's own schema), then each of its
first PLACES fields, breadth first, in turn replaced by a value of another type, a number beyond
any column, an over-long or empty string, or left out; a body of nothing ({}) with a field it
does not take; the whole body something other than an object (refused with a 4xx).
No reply is a 5xx and the server logs no SERVER-ERROR: whatever a hostile or broken phone sends
is refused with a 4xx (api.md "Errors") or taken, never passed on unchecked."""
import copy, json, os

import games
from harness import Server, make_database
from league_util import Client, user
from test_worst_input import World, _operations

HERE = os.path.dirname(os.path.abspath(__file__))

MISSING = object()  # the field left out
WORST = [None, True, "", "x" * 5000, "2026-13-45", -1, 0, 2**31, 2**63, -(2**63) - 1, 10**30,
         1.5, 1e308, -1e308, [], [None], {}, {"x": 1}, MISSING]


def _db():
    return make_database("h_worst_bodies")


def _resolve(doc, schema):
    """The schema a $ref points at (followed until it is not a reference)."""
    while "$ref" in schema:
        node = doc
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _example(doc, schema, name, w, depth=0):
    """A value the schema takes: the world's real id or date where the field's name asks for
    one, else its enum's first, its minimum, one item, its required properties."""
    schema = _resolve(doc, schema)
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return _example(doc, schema[key][0], name, w, depth)
    if "allOf" in schema:
        merged = {}
        for part in schema["allOf"]:
            merged.update(_resolve(doc, part))
        return _example(doc, merged, name, w, depth)
    if "example" in schema:
        return copy.deepcopy(schema["example"])
    if "enum" in schema:
        return schema["enum"][0]
    t = schema.get("type", "object")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object":
        if depth > 4:
            return {}
        props = schema.get("properties", {})
        return {k: _example(doc, v, k, w, depth + 1) for k, v in props.items()
                if k in schema.get("required", []) or depth == 0}
    if t == "array":
        if depth > 4:
            return []
        return [_example(doc, schema.get("items", {}), name, w, depth + 1)]
    if t == "integer":
        return schema.get("minimum", 1)
    if t == "number":
        return schema.get("minimum", 1.5)
    if t == "boolean":
        return False
    if t == "null":
        return None
    return _text(schema, name, w)


def _text(schema, name, w):
    """A string for a field called name: a real member, date or name."""
    fmt = schema.get("format", "")
    if name in ("player", "member", "into"):
        return w.members[0]
    if fmt == "date" or name in ("date", "starts", "ends", "day"):
        return "2026-02-03"
    if fmt == "date-time" or name in ("opens", "closes", "played_at"):
        return "2099-01-01T00:00:00Z"
    if fmt == "email" or name == "email":
        return "worst@example.org"
    if name == "code":
        return w.code
    return schema.get("default", "Azul") if isinstance(schema.get("default"), str) else "Azul"


PLACES = 60  # the fields of a body each set to every worst value: the shallowest first
# a whole body that is not an object: refused (4xx), never taken
NOT_OBJECTS = [v for v in WORST if v is not MISSING and not isinstance(v, dict)]


def _paths(value):
    """The places in a JSON value (tuples of keys and indexes), breadth first, at most PLACES."""
    out, level = [], [((), value)]
    while level and len(out) < PLACES:
        deeper = []
        for at, v in level:
            items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
            for k, child in items:
                out.append(at + (k,))
                deeper.append((at + (k,), child))
        level = deeper
    return out[:PLACES]


class Deep:
    """Bodies each route takes whole, from a game under way and the world's league: so that a
    bad field meets the checks behind the first, and the writes behind the checks."""

    def __init__(self, s, w):
        self.s = s
        g = games.create(s, 2, deck="table")
        self.game = g
        self.token = games.tokens(g)[1]
        games.reveal(s, g["id"], g["host_token"], card=1, dice=[3, 4, 5])
        st = games.state(s, g["id"], self.token)
        sheet = games.seat_of(st, 1)["sheet"]
        turn = games.turn_for(st, 1)
        move = games.first_option_move(s, st, 1)
        sp = st["specialists"]
        with open(os.path.join(HERE, "data", "bgstats-sample.json")) as f:
            export = json.load(f)
        st_, _, profiles = s.json("GET", "/api/v1/profiles")
        dh = next(p for p in profiles["profiles"] if p["game"] == "dh")
        profile = {"game": "dh", "values": dh["values"], "id": "our-box", "name": "Our box"}
        solo = games.create(s, 1, deck="table", solo=True)
        bot = next(x for x in games.state(s, solo["id"], solo["host_token"])["seats"] if x["bot"])
        self.unrevealed = games.create(s, 2, deck="table")
        # a finished game's turns and moves, as a paper game for the coach
        done = games.create(s, 2, deck="app", seed=5)
        for _ in range(24):
            games.play_turn(s, done, games.lowest_die_policy)
        st_, _, a = games.searched_json(
            s, f"/api/v1/er/games/{done['id']}/seats/1/analysis?width=8", done["host_token"])
        assert st_ == 200, a
        analysis = {"specialists": a["specialists"], "players": 1,
                    "turns": [x["turn_info"] for x in a["steps"]],
                    "moves": [x["player_move"] for x in a["steps"]], "width": 8}
        # an account to log in as, one to make owner; the challenge's link for a guest
        self.email = "deep@example.org"
        user(s, self.email)
        user(s, "deep-owner@example.org")
        st_, _, ch = w.owner.get(f"/api/v1/leagues/{w.league}/challenges/{w.challenge}")
        assert st_ == 200, ch
        self.challenge_code = ch["code"]
        self.guest = Client(s)
        self.visitor = Client(s)  # logs in: its own cookies, not the owner's
        # two guests who never played together: one merges into the other (undone after)
        self.league = w.league
        self.owner = w.owner
        self.guests = []
        for name in ("Mia", "Noa"):
            st_, _, m = w.owner.post(f"/api/v1/leagues/{w.league}/members", {"name": name})
            assert st_ == 201, (st_, m)
            self.guests.append(m["id"])
        # games whose every round is entered: their finish is taken whole (a new one after)
        self.ready = {kind: self._ready(kind) for kind in ("dh", "clinic")}
        self.bodies = {
            "/api/v1/er/score": {"sheet": sheet, "radiologist": sp["radiologist"],
                                 "epidemiologist": sp["epidemiologist"]},
            "/api/v1/er/moves/options": {"sheet": sheet, "turn": turn},
            "/api/v1/er/moves/apply": {"sheet": sheet, "turn": turn, "move": move},
            "/api/v1/er/alicat/move": {"sheet": bot["sheet"],
                                       "turn": {"card": 1, "dice": turn["dice"], "chief": True}},
            "/api/v1/er/games/{id}/turns": {"card": 2, "dice": {"red": 1, "yellow": 2, "green": 6}},
            "/api/v1/er/games": {"players": [{"name": "Ann"}, {"name": "Bea"}]},
            "/api/v1/er/games/{id}/seats/{seat}/moves": {"turn": 1, "move": move},
            "/api/v1/leagues/{id}/plays": w.play("2026-01-03"),
            "/api/v1/leagues/{id}/plays/{play}": w.play("2026-01-04"),
            "/api/v1/leagues/{id}/import": export,
            "/api/v1/leagues/{id}/members": {"name": "Cid"},
            "/api/v1/leagues/{id}/members/{member}": {"name": "Bea Bee"},
            "/api/v1/leagues/{id}/challenges": {"name": "Draw", "closes": "2099-01-01T00:00:00Z"},
            "/api/v1/accounts": {"email": "worst@example.org", "password": "correct horse",
                                 "display_name": "Worst"},
            "/api/v1/profiles": profile,
            "/api/v1/dh/games": {"players": [{"name": "Ann"}, {"name": "Bea"}]},
            "/api/v1/clinic/games": {"players": [{"name": "Ann"}, {"name": "Bea"}]},
            "/api/v1/dh/games/{id}/rounds/{n}": {"entries": [{"seat": 1, "discharged": {"red": 1}}]},
            "/api/v1/clinic/games/{id}/rounds/{n}": {"entries": [{"seat": 1}]},
            "/api/v1/clinic/business": {"modules": 4, "outpatients": 2, "garden_bonus": 1,
                                        "doctors": {"white": 1}},
            "/api/v1/er/analysis": analysis,
            "/api/v1/sessions": {"email": self.email, "password": "correct horse battery"},
            "/api/v1/leagues/{id}/owners": {"account": "deep-owner@example.org"},
            "/api/v1/challenges/{code}/games": {"name": "Guest"},
            "/api/v1/leagues/{id}/members/{member}/merge": {"into": self.guests[1]},
            "/api/v1/dh/games/{id}/finish": {"entries": [
                {"seat": 1, "fatalities": 1, "blood_bags": 2, "patients_left": 2, "pips_left": 7},
                {"seat": 2, "blood_bags": 0, "patients_left": 2, "pips_left": 9}]},
            "/api/v1/clinic/games/{id}/finish": {"entries": [
                {"seat": 1, "doctors": {"red": 1}, "nurses": 1, "treatment_rooms": [1, 0, 0, 0],
                 "patients_left": {"white": 2}, "additional_buildings": 0},
                {"seat": 2, "patients_left": {"red": 1}}]},
        }

    def _ready(self, kind):
        """A two-seat Dice Hospital or Clinic game with every round entered."""
        st, _, g = self.s.json("POST", f"/api/v1/{kind}/games",
                               {"players": [{"name": "Ann"}, {"name": "Bea"}]})
        assert st == 201, (st, g)
        entry = {"dh": {"discharged": {"red": 1}}, "clinic": {"time_spent": 1}}[kind]
        for n in range(1, 13):
            st, _, cur = self.s.json("PUT", f"/api/v1/{kind}/games/{g['id']}/rounds/{n}",
                                     {"entries": [dict(entry, seat=1), dict(entry, seat=2)]},
                                     token=g["host_token"])
            assert st == 200, (kind, n, st, cur)
            if cur["next"] == {"action": "finish"}:
                return g
        raise AssertionError(f"{kind}: no finish after 12 rounds: {cur['next']}")

    def _finishing(self, template):
        """The kind of a Dice Hospital or Clinic finish route (its game is self.ready's), else
        None."""
        kind = template.split("/")[3]
        return kind if template.endswith("/finish") and kind in self.ready else None

    def path(self, template, path):
        """This game's move route, and a table-deck game's reveal, instead of the world's app-deck
        game (whose seat 0 takes no move); the import's format."""
        if template == "/api/v1/er/games/{id}/seats/{seat}/moves":
            return f"/api/v1/er/games/{self.game['id']}/seats/1/moves"
        if template == "/api/v1/er/games/{id}/turns":
            return f"/api/v1/er/games/{self.unrevealed['id']}/turns"
        if template == "/api/v1/leagues/{id}/import":
            return path + "?format=bgstats"
        if template == "/api/v1/challenges/{code}/games":
            return f"/api/v1/challenges/{self.challenge_code}/games"
        if template == "/api/v1/leagues/{id}/members/{member}/merge":
            return f"/api/v1/leagues/{self.league}/members/{self.guests[0]}/merge"
        kind = self._finishing(template)
        if kind:
            return f"/api/v1/{kind}/games/{self.ready[kind]['id']}/finish"
        return path

    def headers(self, template, headers):
        if template == "/api/v1/er/games/{id}/seats/{seat}/moves":
            return dict(headers, Authorization="Bearer " + self.token)
        if template == "/api/v1/er/games/{id}/turns":
            return dict(headers, Authorization="Bearer " + self.unrevealed["host_token"])
        kind = self._finishing(template)
        if kind:
            return dict(headers, Authorization="Bearer " + self.ready[kind]["host_token"])
        return headers

    def caller(self, template, owner):
        """Who sends the body: a guest by the challenge's link has no session; a log-in is
        another client's (the owner's session stays the owner's)."""
        return {"/api/v1/challenges/{code}/games": self.guest,
                "/api/v1/sessions": self.visitor}.get(template, owner)

    def taken(self, template, status, reply):
        """After a write that was taken, the state the next body expects: the move or the
        merge undone, a game ready to finish again."""
        if template.endswith("/merge") and status < 300:
            undo = f"/api/v1/leagues/{self.league}/merges/{reply['merge']}/undo"
            st, _, o = self.owner.post(undo)
            assert st == 200, (st, o)
        if template.endswith("/seats/{seat}/moves") and status < 300:
            games.undo(self.s, self.game["id"], 1, self.token, 1)
        kind = self._finishing(template)
        if kind and status < 300:
            self.ready[kind] = self._ready(kind)


def _with(body, place, worst):
    """A copy of body with the value at place replaced by worst (or left out: MISSING)."""
    out = copy.deepcopy(body)
    node = out
    for key in place[:-1]:
        node = node[key]
    if worst is MISSING:
        del node[place[-1]]
    else:
        node[place[-1]] = worst
    return out


def test_every_body_field_at_its_worst():
    with open(os.path.join(HERE, "..", "..", "static", "openapi.json")) as f:
        doc = json.load(f)
    failures = []
    with Server(database=_db()) as s:
        w = World(s)
        deep = Deep(s, w)
        for method, template, qnames, pnames in _operations(doc):
            if method not in ("POST", "PUT", "PATCH"):
                continue
            op = doc["paths"][template][method.lower()]
            schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if schema is None:
                continue
            given = template
            for n in pnames:
                given = given.replace("{" + n + "}", w.value(template, n))
            base = deep.bodies.get(template) or _example(doc, schema, "", w)
            places = _paths(base)
            bodies = [base] + [_with(base, place, v) for place in places for v in WORST]
            if not places:  # a body of nothing ({}): a field it does not take instead
                bodies += [dict(base, x=v) for v in WORST if v is not MISSING]
            bodies += NOT_OBJECTS
            for i, body in enumerate(bodies):
                # each body's own target: a write taken may have moved it on (deep.taken)
                path = deep.path(template, given)
                h = deep.headers(template, dict(w.headers(template),
                                                **{"Content-Type": "application/json"}))
                who = deep.caller(template, w.owner)
                st, hd, o = who.call(method, path, json.dumps(body), headers=h, raw=True)
                if i == 0 and template in deep.bodies and st >= 300:
                    failures.append(f"{method} {path}: the body it takes whole → {st}: {o}")
                if st >= 500 or (not isinstance(body, dict) and not 400 <= st < 500):
                    failures.append(f"{method} {path} {json.dumps(body)[:300]} → {st}: {o}")
                deep.taken(template, st, o)
        out = s.output()
    assert not failures, "\n".join(failures[:40]) + f"\n({len(failures)} in all)"
    assert "SERVER-ERROR" not in out, out[-3000:]
