"""Clinic games through the API (api.md "Dice Hospital (/api/v1/dh) and Clinic"; rulebook seed
001 = ../shared/seeds/001_0126e4d1d8383d3e.txt, sections by heading): a full game to a final
ranking with the turn order deciding a tie, the turn order of every round (Admin, "Reset turn
order"), the solitaire goal and Hall of Fame title, the Business helper with the rulebook's
upkeep examples, and bad input (problem+json naming the field, nothing stored changes)."""
from harness import Server, make_database, problem

GAMES = "/api/v1/clinic/games"


def _db():
    return make_database("h_clinic_games")


def _create(s, body, expect=201):
    st, hd, g = s.json("POST", GAMES, body)
    if expect == 201:
        assert st == 201, (st, g)
    return st, hd, g


def _round(s, gid, n, entries, token, expect=200, **extra):
    body = {"entries": entries}
    body.update(extra)
    st, hd, obj = s.json("PUT", f"{GAMES}/{gid}/rounds/{n}", body, token=token)
    if expect is not None:
        assert st == expect, (n, st, obj)
    return st, hd, obj


def _e(seat, bought=0, lab=0, deaths=0, unpaid=0, time=0):
    return {"seat": seat, "popularity_bought": bought, "lab_doctors": lab, "deaths": deaths,
            "unpaid_expenses": unpaid, "time_spent": time}


def test_clinic_full_game_tie_to_turn_order():
    """3 players, 6 rounds; equal totals: the tied player earlier in the final turn order wins
    (seed 001, End of the Game)."""
    with Server(database=_db()) as s:
        _, _, g = _create(s, {"players": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
                              "turn_order": [2, 3, 1], "expansions": ["zombies"]})
        assert g["turn_order"] == [2, 3, 1] and g["expansions"] == ["zombies"], g
        host = g["host_token"]
        for n in range(1, 7):
            _, _, cur = _round(s, g["id"], n, [_e(1, 2, 1, time=3), _e(2, 3, time=3),
                                               _e(3, 1, 1, time=2)], host)
        # round 1: A 3, B 3, C 2 → C lowest first; A and B tied at 3
        orders = [t["order"] for t in cur["turn_orders"]]
        assert orders[0] == [2, 3, 1] and orders[1][0] == 3, orders
        a = cur["seats"][0]
        assert a["rounds"][0]["popularity_after"] == 3
        assert [x["rule"] for x in a["rounds"][0]["reasons"]] == ["popularity-bought",
                                                                  "lab-doctor"]
        assert all(x["verified"] for x in a["rounds"][0]["reasons"])
        st, _, fin = s.json("POST", f"{GAMES}/{g['id']}/finish", {"entries": [
            {"seat": 1, "doctors": {"red": 1}, "nurses": 1, "treatment_rooms": [1, 0, 0, 0],
             "patients_left": {"white": 2}, "additional_buildings": 0},
            {"seat": 2, "zombies": 1, "patients_left": {"red": 1}},
            {"seat": 3, "additional_buildings": 1, "treatment_rooms": [0, 1]}]}, token=host)
        assert st == 200, fin
        # A: 18 + 4 + 1 + 1 − 2 − 6 = 16 ; B: 18 + 9 − 4 − 6 = 17 ; C: 12 + 8 + 2 − 4 = 18
        tot = {x["seat"]: x["total"] for x in fin["standings"]}
        assert tot == {1: 16, 2: 17, 3: 18}, fin["standings"]
        assert [x["seat"] for x in fin["standings"]] == [3, 2, 1]
        assert fin["standings"][0]["verified"] is False  # placeholder room values
        b = fin["seats"][1]["score"]["end_reasons"]
        assert {"rule": "zombie", "points": 9, "verified": True} == \
            {k: next(x for x in b if x["rule"] == "zombie")[k] for k in ("rule", "points",
                                                                           "verified")}
        # a tie: same totals → the earlier seat in the final turn order ranks first
        _, _, h = _create(s, {"players": [{"name": "X"}, {"name": "Y"}]})
        for n in range(1, 7):
            _, _, cur = _round(s, h["id"], n, [_e(1, 1), _e(2, 1)], h["host_token"])
        st, _, fin = s.json("POST", f"{GAMES}/{h['id']}/finish",
                            {"entries": [{"seat": 1}, {"seat": 2}]}, token=h["host_token"])
        final = fin["turn_orders"][-1]["order"]
        assert [x["seat"] for x in fin["standings"]] == final, (fin["standings"], final)
        assert all(x["tie_break"] == "turn-order" for x in fin["standings"])


def test_clinic_turn_order_entered_by_the_table():
    """The table may enter the next round's order as its board shows it (host token only)."""
    with Server(database=_db()) as s:
        _, _, g = _create(s, {"players": [{"name": "A"}, {"name": "B"}]})
        t2 = g["seats"][1]["seat_token"]
        st, hd, obj = _round(s, g["id"], 1, [_e(2)], t2, expect=None, turn_order=[2, 1])
        problem(st, hd, obj, 403, None, "/turn_order")
        _, _, cur = _round(s, g["id"], 1, [_e(1), _e(2)], g["host_token"], turn_order=[2, 1])
        assert cur["turn_orders"][1] == {"round": 2, "order": [2, 1], "entered": True}


def test_clinic_bad_input_changes_nothing():
    with Server(database=_db()) as s:
        st, hd, obj = _create(s, {"players": [{"name": str(i)} for i in range(5)]}, expect=None)
        problem(st, hd, obj, 422, "too-many-players", "/players")
        st, hd, obj = _create(s, {"players": [{"name": "a"}, {"name": "b"}],
                                  "expansions": ["dragons"]}, expect=None)
        problem(st, hd, obj, 400, "expansion-unknown", "/expansions/0")
        st, hd, obj = _create(s, {"players": [{"name": "a"}, {"name": "b"}],
                                  "turn_order": [1, 1]}, expect=None)
        problem(st, hd, obj, 422, "turn-order-invalid", "/turn_order/1")
        _, _, g = _create(s, {"players": [{"name": "a"}, {"name": "b"}]})
        host = g["host_token"]
        st, _, before = s.json("GET", f"{GAMES}/{g['id']}", token=host)
        cases = [
            (7, [_e(1)], 400, "round-out-of-range", "/round"),
            (1, [_e(1, deaths=-1)], 400, "negative-count", "/entries/0/deaths"),
            (1, [_e(1), _e(1)], 422, "seat-twice", "/entries/1/seat"),
            (1, [_e(1, bought=2, unpaid=3)], 422, "bought-with-unpaid-expenses",
             "/entries/0/popularity_bought"),
            (2, [_e(1)], 422, "round-not-reached", "/round"),
        ]
        for n, entries, status, rule, field in cases:
            st, hd, obj = _round(s, g["id"], n, entries, host, expect=None)
            problem(st, hd, obj, status, rule, field)
        st, hd, obj = s.json("POST", f"{GAMES}/{g['id']}/finish",
                             {"entries": [{"seat": 1}, {"seat": 2}]}, token=host)
        problem(st, hd, obj, 422, "finish-before-last-round")
        st, _, after = s.json("GET", f"{GAMES}/{g['id']}", token=host)
        assert after["version"] == before["version"] == 0


def test_clinic_solitaire_hall_of_fame():
    """seed 001, Solitaire Mode: the chosen goal; the Hall of Fame title once achieved."""
    with Server(database=_db()) as s:
        st, hd, obj = _create(s, {"players": [{"name": "Me"}], "solo": True, "goal": "zzz"},
                              expect=None)
        problem(st, hd, obj, 422, "goal-unknown", "/goal")
        _, _, g = _create(s, {"players": [{"name": "Me"}], "solo": True, "goal": "goal-1"})
        tok = g["seats"][0]["seat_token"]
        for n in range(1, 7):
            _round(s, g["id"], n, [_e(1, 8)], tok)
        st, _, fin = s.json("POST", f"{GAMES}/{g['id']}/finish",
                            {"entries": [{"seat": 1, "goal_achieved": True}]}, token=tok)
        assert st == 200, fin
        assert fin["standings"][0]["total"] == 48 and fin["standings"][0]["title"] == "intern"


def test_clinic_business_helper():
    """seed 001, Phase 2: Business — the rulebook's upkeep examples and the popularity the
    round's income can buy ($3 each)."""
    with Server(database=_db()) as s:
        for body, upkeep in [({"modules": 4, "gardens": 1}, 5),
                             ({"modules": 4, "gardens": 1, "orderlies": 1}, 2),
                             ({"modules": 4, "gardens": 1, "orderlies": 2}, 0),
                             ({"modules": 7}, 7),
                             ({"modules": 7, "operating_rooms_used": 1}, 9)]:
            st, _, b = s.json("POST", "/api/v1/clinic/business", body)
            assert st == 200 and b["upkeep"] == upkeep, (body, b)
            assert b["verified_parts"]["upkeep"] is True
        st, _, b = s.json("POST", "/api/v1/clinic/business",
                          {"modules": 4, "outpatients": 2, "garden_bonus": 1})
        assert (b["income"], b["expenses"], b["popularity_affordable"], b["verified"]) == \
            (14, 4, 3, True), b
        st, _, b = s.json("POST", "/api/v1/clinic/business",
                          {"modules": 4, "doctors": {"white": 1}, "savings": 1})
        assert b["verified"] is False and b["unpaid_expenses"] == 4 + b["wages"] - 1, b
        st, hd, obj = s.json("POST", "/api/v1/clinic/business", {"extinguisher_bonus": 1})
        problem(st, hd, obj, 422, "expansion-not-used", "/extinguisher_bonus")
        # seed 001, Expansions, Zombies in a Clinic, Labs: curing a zombie earns $32
        st, hd, obj = s.json("POST", "/api/v1/clinic/business", {"zombies_cured": 1})
        problem(st, hd, obj, 422, "expansion-not-used", "/zombies_cured")
        st, _, b = s.json("POST", "/api/v1/clinic/business",
                          {"modules": 4, "zombies_cured": 2, "expansions": ["zombies"]})
        assert st == 200 and (b["income"], b["expenses"], b["popularity_affordable"]) == (64, 4, 20), b
        st, hd, obj = s.json("POST", "/api/v1/clinic/business", {"modules": -1})
        problem(st, hd, obj, 400, "negative-count", "/modules")


def test_clinic_game_ended_early():
    """"After 6 rounds, the game ends" (seed 001, End of the Game) stays the complete game; a
    table that stops after round n finishes with "ended_after": n: the end of the game is
    scored the same way, ties go by the turn order after round n, and the game is incomplete."""
    with Server(database=_db()) as s:
        _, _, g = _create(s, {"players": [{"name": "X"}, {"name": "Y"}]})
        host = g["host_token"]
        for n in (1, 2):
            _round(s, g["id"], n, [_e(1, 1), _e(2, 1)], host)
        st, hd, obj = s.json("POST", f"{GAMES}/{g['id']}/finish",
                             {"entries": [{"seat": 1}, {"seat": 2}], "ended_after": 7},
                             token=host)
        problem(st, hd, obj, 400, None, "/ended_after")
        st, hd, obj = s.json("POST", f"{GAMES}/{g['id']}/finish",
                             {"entries": [{"seat": 1}, {"seat": 2}], "ended_after": 3},
                             token=host)
        problem(st, hd, obj, 422, "finish-before-last-round", "/entries")
        st, _, fin = s.json("POST", f"{GAMES}/{g['id']}/finish",
                            {"entries": [{"seat": 1, "nurses": 1}, {"seat": 2}],
                             "ended_after": 2}, token=host)
        assert st == 200, fin
        assert fin["rounds_played"] == 2 and fin["incomplete"] is True, fin
        assert fin["standings"][0]["seat"] == 1, fin["standings"]
        # a tie goes by the turn order after the last round played
        _, _, h = _create(s, {"players": [{"name": "X"}, {"name": "Y"}]})
        _round(s, h["id"], 1, [_e(1, 1), _e(2, 1)], h["host_token"])
        st, _, fin = s.json("POST", f"{GAMES}/{h['id']}/finish",
                            {"entries": [{"seat": 1}, {"seat": 2}], "ended_after": 1},
                            token=h["host_token"])
        assert st == 200, fin
        order = fin["turn_orders"][1]["order"]
        assert [x["seat"] for x in fin["standings"]] == order, (fin["standings"], order)
        assert all(x["tie_break"] == "turn-order" for x in fin["standings"]), fin["standings"]
