"""Helpers for the ER game tests (test_er_games.py, test_er_live.py, test_er_durability.py).

A "policy" chooses a seat's move from the legal options that POST /api/v1/er/moves/options
returns for the seat's sheet and the turn as that seat sees it (chief flag, chief's die):
take one option (one patient admitted), send the other patient of an extra-patient bay to the
morgue, or send everything to the morgue when nothing can be admitted."""
import json, os, random, time

from harness import ROOT

GAMES = "/api/v1/er/games"
COLOURS = ("red", "yellow", "green")

with open(os.path.join(ROOT, "templates", "er", "cards.json")) as _f:
    CARDS = {c["id"]: c for c in json.load(_f)["cards"]}


def bay(card, die):
    """The bonus of the die's bay on the card: {"bonus": …, ["colour", "values"]}."""
    return CARDS[card]["bays"][die]


def auth(token):
    return {"Authorization": "Bearer " + token}


def create(s, nplayers=None, names=None, expect=201, **kw):
    body = {"players": [{"name": n} for n in (names or [f"P{i + 1}" for i in range(nplayers)])]}
    body.update(kw)
    st, hd, g = s.json("POST", GAMES, body)
    assert st == expect, (st, g)
    return g


def tokens(game):
    """seat number → seat token (bots have none)."""
    return {x["seat"]: x["seat_token"] for x in game["seats"] if x["seat_token"]}


def state(s, gid, token):
    st, _, obj = s.json("GET", f"{GAMES}/{gid}", token=token)
    assert st == 200, (st, obj)
    return obj


def log(s, gid, token):
    st, _, obj = s.json("GET", f"{GAMES}/{gid}/log", token=token)
    assert st == 200, (st, obj)
    return obj


def reveal(s, gid, token, card=None, dice=None, turn=None, expect=200):
    body = {}
    if card is not None:
        body = {"card": card, "dice": dict(zip(COLOURS, dice)) if isinstance(dice, (list, tuple))
                else dice}
    if turn is not None:
        body["turn"] = turn
    st, hd, obj = s.json("POST", f"{GAMES}/{gid}/turns", body, token=token)
    if expect is not None:
        assert st == expect, (st, obj)
    return st, hd, obj


def submit(s, gid, seat, token, turn, move, expect=200, **extra):
    body = {"turn": turn, "move": move}
    body.update(extra)
    st, hd, obj = s.json("POST", f"{GAMES}/{gid}/seats/{seat}/moves", body, token=token)
    if expect is not None:
        assert st == expect, (seat, turn, move, st, obj)
    return st, hd, obj


def undo(s, gid, seat, token, turn, expect=200):
    st, hd, obj = s.json("DELETE", f"{GAMES}/{gid}/seats/{seat}/moves/{turn}", token=token)
    if expect is not None:
        assert st == expect, (st, obj)
    return st, hd, obj


def seat_of(state_obj, seat):
    return state_obj["seats"][seat - 1]


def turn_for(state_obj, seat):
    """The turn as `seat` sees it, in the shape /moves/options and /moves/apply take."""
    t = state_obj["turn"]
    chief = t["chief_seat"] == seat
    return {"card": t["card"], "dice": t["dice"], "chief": chief,
            "chief_die": None if chief else t["chief_die"]}


def options(s, sheet, turn, alicat=False):
    body = {"sheet": sheet, "turn": turn}
    if alicat:
        body["alicat"] = True
    st, _, obj = s.json("POST", "/api/v1/er/moves/options", body)
    assert st == 200, (st, obj)
    return obj["options"]


def move_from_option(card, opt):
    """A whole move from one option: the option's patient admitted, the other to the morgue."""
    steps = []
    if opt["screen_first"]:
        steps.append({"screen": opt["ward"]})
    steps.append({"admit": opt["patient"], "ward": opt["ward"], "value": opt["value"],
                  "recolour": opt["recolour"]})
    if bay(card, opt["die"])["bonus"] == "extra":
        steps.append({"morgue": "extra" if opt["patient"] == "die" else "die"})
    return {"die": opt["die"], "steps": steps}


def morgue_move(card, die):
    steps = [{"morgue": "die"}]
    if bay(card, die)["bonus"] == "extra":
        steps.append({"morgue": "extra"})
    return {"die": die, "steps": steps}


def first_option_move(s, state_obj, seat):
    """The first free option of the seat now (or the morgue)."""
    t = turn_for(state_obj, seat)
    dice = free_dice(t)
    for o in options(s, seat_of(state_obj, seat)["sheet"], t):
        if o["die"] in dice and o["blood_bags"] == 0:
            return move_from_option(t["card"], o)
    return morgue_move(t["card"], dice[0])


def free_dice(turn):
    """The dice a seat may take without paying a blood bag for the chief's die."""
    return [c for c in COLOURS if turn["chief"] or c != turn["chief_die"]]


def random_policy(rng):
    """Any legal option for a die the seat may take for free, chosen by rng."""
    def choose(s, sheet, turn):
        dice = free_dice(turn)
        opts = [o for o in options(s, sheet, turn) if o["die"] in dice]
        if not opts:
            return morgue_move(turn["card"], rng.choice(dice))
        return move_from_option(turn["card"], rng.choice(opts))
    return choose


def lowest_die_policy(s, sheet, turn):
    """Deterministic: the lowest-valued die the seat may take (ties: red, yellow, green), the
    first option /moves/options lists for it, or the morgue if it has none."""
    dice = sorted(free_dice(turn), key=lambda c: (turn["dice"][c], COLOURS.index(c)))
    die = dice[0]
    for o in options(s, sheet, turn):
        if o["die"] == die:
            return move_from_option(turn["card"], o)
    return morgue_move(turn["card"], die)


def deck(rng, nturns):
    """Distinct cards and dice for a table-deck game: [(card, (red, yellow, green))]."""
    cards = list(range(1, 28))
    rng.shuffle(cards)
    return [(cards[i], tuple(rng.randint(1, 6) for _ in COLOURS)) for i in range(nturns)]


def normal_move(m):
    """A move as the server writes it back (recolour always present on admissions)."""
    out = {"die": m["die"], "steps": []}
    for st in m["steps"]:
        st = dict(st)
        if "admit" in st:
            st.setdefault("recolour", None)
        out["steps"].append(st)
    return out


def play_turn(s, game, policy, card=None, dice=None, revealer=None, moved=None):
    """Reveals the next turn (table deck: card and dice; app deck: None) and moves every human
    seat with its own seat token, the chief first. Returns the state after the turn and the
    moves made {seat: move}. `moved` (a dict) collects every acknowledged move too."""
    gid = game["id"]
    toks = tokens(game)
    st0 = state(s, gid, game["host_token"])
    chief = st0["next"]["chief_seat"]
    rtok = revealer or toks.get(chief) or toks[1]
    _, _, cur = reveal(s, gid, rtok, card, dice)
    turn_no = cur["turn"]["number"]
    made = {}
    order = [chief] + [x for x in sorted(toks) if x != chief]
    for seat in order:
        if seat not in toks:
            continue
        if seat in cur["turn"]["moved"] and cur["turn"]["number"] == turn_no and \
                not cur["turn"]["closed"]:
            continue
        t = turn_for(cur, seat)
        m = policy(s, seat_of(cur, seat)["sheet"], t)
        _, _, cur = submit(s, gid, seat, toks[seat], turn_no, m)
        made[seat] = m
        if moved is not None:
            moved[(seat, turn_no)] = m
    return cur, made


def move_events(log_obj):
    return [e for e in log_obj["events"] if e["kind"] == "move"]


def check_final(s, game, final):
    """Finished game: ranks follow totals (equal totals share a rank; solo ties go to ALICAT)
    and every seat's total equals POST /api/v1/er/score of its final sheet."""
    assert final["status"] == "finished", final["status"]
    assert final["next"]["action"] == "finished", final["next"]
    sp = final["specialists"]
    totals = {x["seat"]: x["score"]["total"] for x in final["seats"]}
    for x in final["seats"]:
        body = {"sheet": x["sheet"], "radiologist": sp["radiologist"],
                "epidemiologist": sp["epidemiologist"]}
        if x["bot"]:
            body["alicat"] = True
            body["alicat_modifiers"] = final["alicat_modifiers"]
        st, _, sc = s.json("POST", "/api/v1/er/score", body)
        assert st == 200, (x["seat"], st, sc)
        assert sc["total"] == x["score"]["total"], (x["seat"], sc, x["score"])
        assert sc["breakdown"] == x["score"]["breakdown"], (x["seat"], sc, x["score"])
        better = sum(1 for v in totals.values() if v > totals[x["seat"]])
        want = better + 1
        if final["solo"] and len(set(totals.values())) == 1:
            want = 1 if x["bot"] else 2
        assert x["rank"] == want, (x["seat"], x["rank"], want, totals)
    return totals


def searched(s, path, token, timeout=120):
    """GET path (an analysis, or its PDF) as a phone does: asked again while the coach's search
    runs (202 with Retry-After and {searching, width, deadline_ms}: api.md "Coach"), every
    20 ms rather than the second Retry-After asks of a phone. (status, headers, body bytes)
    of the first other reply."""
    end = time.monotonic() + timeout
    while True:
        st, hd, body = s.request("GET", path, headers=auth(token), timeout=60)
        if st != 202:
            return st, hd, body
        wait = json.loads(body)
        assert hd.get("retry-after") == "1" and wait["searching"] is True, (hd, wait)
        assert wait["width"] >= 1 and wait["deadline_ms"] >= 1, wait
        assert time.monotonic() < end, f"{path}: still searching after {timeout} s"
        time.sleep(0.02)


def searched_json(s, path, token, timeout=120):
    """searched, its body read as JSON: (status, headers, object)."""
    st, hd, body = searched(s, path, token, timeout)
    return st, hd, json.loads(body) if body else None
