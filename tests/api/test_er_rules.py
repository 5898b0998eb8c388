"""The stateless ER rules endpoints (api.md "Stateless rules endpoints") against the real server.
Rules cite seed 003 (Dice Hospital: ER rulebook) by section."""
import random

from harness import Server, problem

EMPTY = {"wards": [[], [], [], [], [], [], []]}
_server = None


def server():
    """One server for this module's tests (started lazily, stopped at exit)."""
    global _server
    if _server is None:
        _server = Server().start()
        import atexit
        atexit.register(lambda: _server.__exit__(None, None, None))
    return _server


def sheet(*wards, **ledger):
    w = [[{"value": v} if isinstance(v, int) else v for v in ward] for ward in wards]
    w += [[]] * (7 - len(w))
    return dict({"wards": w}, **ledger)


def turn(card=1, red=3, yellow=4, green=2, chief=True, chief_die=None):
    return {"card": card, "dice": {"red": red, "yellow": yellow, "green": green},
            "chief": chief, "chief_die": chief_die}


def apply(body):
    return server().json("POST", "/api/v1/er/moves/apply", body)


def test_data_is_the_templates():
    st, hd, o = server().json("GET", "/api/v1/er/data")
    assert st == 200
    assert len(o["cards"]) == 27 and len(o["specialists"]) == 16
    assert sum(len(w["beds"]) for w in o["sheet"]["wards"]) == 32
    # game-data.md §1.2: 65 edges, 40 lines, 32 triangles
    assert (o["geometry"]["edges"], o["geometry"]["lines"], o["geometry"]["triangles"]) == (65, 40, 32)


def test_score_empty_and_breakdown_keys():
    st, hd, o = server().json("POST", "/api/v1/er/score", {"sheet": EMPTY})
    assert st == 200, o
    assert o["total"] == 0
    for k in ("filled_wards", "critical", "nurses", "cardiologists", "radiologist",
              "epidemiologist", "morgue"):
        assert k in o["breakdown"]


def test_score_filled_ward_critical_nurses_morgue():
    # seed003 END OF THE GAME: filled wards (ward 7 clipboard 4), critical values, nurse track,
    # morgue -1 each
    s = sheet([], [], [], [], [], [], [{"value": 1}, {"value": 2, "critical": True}, {"value": 5}],
              nurses_crossed=[7], nurse_track=1, morgue=2)
    st, hd, o = server().json("POST", "/api/v1/er/score", {"sheet": s})
    assert st == 200, o
    b = o["breakdown"]
    assert (b["filled_wards"], b["critical"], b["nurses"], b["morgue"]) == (4, 2, 2, -2)
    assert o["total"] == 4 + 2 + 2 - 2
    assert {"ward": 7, "bed": 2} in o["details"]["critical"]
    assert len(o["details"]["filled_wards"]) == 3


def test_score_specialists_and_alicat_fixed_points():
    s = sheet([1, 2], [3])
    st, hd, o = server().json("POST", "/api/v1/er/score", {
        "sheet": s, "radiologist": "xray-high-values", "epidemiologist": "largest-group"})
    assert st == 200, o
    # seed003 SOLO MODE: ALICAT scores the cards' fixed values (8 and 9 here)
    st, hd, o = server().json("POST", "/api/v1/er/score", {
        "sheet": dict(s, nurse_track=2), "radiologist": "xray-high-values",
        "epidemiologist": "largest-group", "alicat": True})
    assert st == 200, o
    assert (o["breakdown"]["radiologist"], o["breakdown"]["epidemiologist"]) == (8, 9)
    assert o["breakdown"]["nurses"] == 5  # ALICAT starts with 2 nurses circled


def test_score_alicat_modifiers():
    # seed003 ADJUSTING THE DIFFICULTY: equipment +1 per circled stethoscope and blood bag
    s = sheet([1, 2], nurse_track=2, stethoscopes={"circled": 3, "used": 0},
              blood_bags={"circled": 1, "used": 1})
    st, hd, o = server().json("POST", "/api/v1/er/score", {
        "sheet": s, "alicat": True, "alicat_modifiers": ["equipment"]})
    assert st == 200, o
    assert o["breakdown"]["modifiers"] == 4


def test_score_impossible_sheets_are_422():
    s = server()
    for bad, rule in [
        (sheet([7]), "sheet-value-out-of-range"),
        (sheet([1, 2, 3, 4, 5]), "sheet-too-many-patients"),          # ward 1 has 4 beds
        (sheet([3, 3]), "sheet-value-not-increasing"),
        (sheet([], [], [], [], [], [], [1, 2, 3, 4]), "sheet-too-many-patients"),
        (sheet([1], stethoscopes={"circled": 2, "used": 0}), "sheet-ledger-impossible"),
        (sheet([], nurses_crossed=[1], nurse_track=1), "sheet-nurses-impossible"),
        (sheet([1], morgue=5), "sheet-morgue-impossible"),
    ]:
        st, hd, o = s.json("POST", "/api/v1/er/score", {"sheet": bad})
        problem(st, hd, o, 422, rule=rule)
    # ALICAT may repeat a value (seed003 SOLO MODE / ADMIT PATIENT); a human may not
    st, hd, o = s.json("POST", "/api/v1/er/score", {"sheet": sheet([3, 3], nurse_track=2), "alicat": True})
    assert st == 200, o


def test_malformed_input_is_400_naming_the_field():
    s = server()
    for body, field in [
        ({"sheet": EMPTY, "extra": 1}, "/extra"),
        ({"sheet": {"wards": [[]] * 6}}, "/sheet/wards"),
        ({"sheet": sheet([{"value": "3"}])}, "/sheet/wards/0/0/value"),
        ({"sheet": EMPTY, "radiologist": "line-of-3"}, "/radiologist"),
        ({"sheet": sheet([{"value": 1, "sick": True}])}, "/sheet/wards/0/0/sick"),
        ({"sheet": EMPTY, "alicat_modifiers": ["equipment"]}, "/alicat_modifiers"),
    ]:
        st, hd, o = s.json("POST", "/api/v1/er/score", body)
        problem(st, hd, o, 400, field=field)
    st, hd, o = s.json("POST", "/api/v1/er/moves/apply", {"sheet": EMPTY, "turn": turn(card=28),
                                                           "move": {"die": "red", "steps": []}})
    problem(st, hd, o, 400, field="/turn/card")
    st, hd, o = s.json("POST", "/api/v1/er/moves/apply", {
        "sheet": EMPTY, "turn": turn(), "move": {"die": "red", "steps": [{"admit": "die", "ward": 8, "value": 3}]}})
    problem(st, hd, o, 400, field="/move/steps/0/ward")
    # a member of another kind of step is refused, not silently dropped
    for step, field in [({"morgue": "die", "ward": 3}, "/move/steps/0/ward"),
                        ({"screen": 2, "value": 9}, "/move/steps/0/value"),
                        ({"morgue": "extra", "recolour": "red"}, "/move/steps/0/recolour")]:
        st, hd, o = s.json("POST", "/api/v1/er/moves/apply", {
            "sheet": EMPTY, "turn": turn(), "move": {"die": "red", "steps": [step]}})
        problem(st, hd, o, 400, field=field)
    st, hd, o = s.request("POST", "/api/v1/er/score", body="{", headers={"Content-Type": "application/json"})
    assert st == 400
    st, hd, o = s.request("POST", "/api/v1/er/score", body="{}", headers={"Content-Type": "text/plain"})
    assert st == 415


def admit(die, ward, value, recolour=None, patient="die"):
    return {"admit": patient, "ward": ward, "value": value, "recolour": recolour}


# (name citing seed003, sheet, turn, move, expected rule or None)
MOVE_CASES = [
    ("ADMIT PATIENT/Colour: red die in a green bed is refused", EMPTY, turn(),
     {"die": "red", "steps": [admit("red", 2, 3)]}, "colour-mismatch"),
    ("ADMIT PATIENT/Colour: a grey bed takes any colour", EMPTY, turn(),
     {"die": "red", "steps": [admit("red", 1, 3)]}, None),
    ("ADMIT PATIENT/Value: a 3 after a 3 is not higher", sheet([], [], [3]), turn(card=3),
     {"die": "red", "steps": [admit("red", 3, 3)]}, "value-not-increasing"),
    ("ADMIT PATIENT/Value: a 4 after a 3 is higher", sheet([], [], [3]), turn(card=3, red=4),
     {"die": "red", "steps": [admit("red", 3, 4)]}, None),
    ("SCREEN: a screened patient lets the next be any value", sheet([], [], [{"value": 5, "screen": True}]),
     turn(card=3, red=2), {"die": "red", "steps": [admit("red", 3, 2)]}, None),
    ("HOSPITAL: a full ward takes no more", sheet([], [], [], [], [], [], [1, 2, 3]), turn(card=3, yellow=5),
     {"die": "yellow", "steps": [{"screen": 7}, admit("yellow", 7, 5)]}, "ward-full"),
    ("USING STETHOSCOPES: 1 stethoscope changes 3 into 4", EMPTY, turn(card=3),
     {"die": "red", "steps": [admit("red", 1, 4)]}, None),
    ("USING STETHOSCOPES: 2 changes need 2 stethoscopes", EMPTY, turn(card=3),
     {"die": "red", "steps": [admit("red", 1, 5)]}, "not-enough-stethoscopes"),
    ("USING STETHOSCOPES: no value above 6", EMPTY, turn(card=3, red=6),
     {"die": "red", "steps": [admit("red", 1, 7)]}, "value-out-of-range"),
    ("USING BLOOD BAGS: recolouring needs a blood bag (card 13: red bay stethoscopes)", EMPTY,
     turn(card=13), {"die": "red", "steps": [admit("red", 2, 3, recolour="green")]}, "not-enough-blood-bags"),
    ("BLOOD BAG: the bag gained this turn recolours now (card 3: red bay blood bag)", EMPTY,
     turn(card=3), {"die": "red", "steps": [admit("red", 2, 3, recolour="green")]}, None),
    ("BLOOD BAG: the bag of the chosen die is usable at once", EMPTY, turn(card=1, green=2),
     {"die": "green", "steps": [admit("green", 3, 2, recolour="red")]}, None),
    ("CHOOSE PATIENT: a non-chief takes the chief's die only with a blood bag", EMPTY,
     turn(card=1, chief=False, chief_die="red"), {"die": "red", "steps": [admit("red", 1, 3)]}, "chief-die"),
    ("CHOOSE PATIENT: with a blood bag held before the turn", sheet(blood_bags={"circled": 1, "used": 0}),
     turn(card=1, chief=False, chief_die="red"), {"die": "red", "steps": [admit("red", 1, 3)]}, None),
    ("EXTRA PATIENT: the extra must be admitted or sent to the morgue", EMPTY, turn(card=1),
     {"die": "yellow", "steps": [admit("yellow", 4, 4)]}, "unresolved-patient"),
    ("EXTRA PATIENT: either order, the extra takes the printed colour", EMPTY, turn(card=1),
     {"die": "yellow", "steps": [admit("red", 3, 2, patient="extra"), admit("yellow", 4, 4)]}, None),
    ("EXTRA PATIENT: one of the two printed values", EMPTY, turn(card=1),
     {"die": "yellow", "steps": [admit("red", 3, 5, patient="extra"), admit("yellow", 4, 4)]}, "extra-value"),
    ("SCREEN: only a screen bonus draws a screen", sheet([1]), turn(card=1),
     {"die": "red", "steps": [{"screen": 1}, admit("red", 1, 3)]}, "screen-not-offered"),
    ("SCREEN: a screen needs a patient in the ward", EMPTY, turn(card=3),
     {"die": "yellow", "steps": [{"screen": 2}, admit("yellow", 4, 4)]}, "screen-empty-ward"),
    ("EXTRA PATIENT: no extra without the bonus", EMPTY, turn(card=3),
     {"die": "red", "steps": [admit("red", 1, 3), admit("red", 3, 2, patient="extra")]}, "bonus-not-offered"),
    ("MORGUE: a patient may go to the morgue", EMPTY, turn(card=3),
     {"die": "red", "steps": [{"morgue": "die"}]}, None),
]


def test_move_rules_each_side():
    for name, sh, t, move, rule in MOVE_CASES:
        st, hd, o = apply({"sheet": sh, "turn": t, "move": move})
        if rule is None:
            assert st == 200, f"seed003 {name}: {o}"
        else:
            try:
                problem(st, hd, o, 422, rule=rule)
            except AssertionError as e:
                raise AssertionError(f"seed003 {name}: {e}")


def test_critical_and_nurse_bonuses():
    # card 1: red bay critical; card 3: green bay nurse (game-data.md §1.4)
    st, hd, o = apply({"sheet": EMPTY, "turn": turn(card=1), "move": {"die": "red", "steps": [admit("red", 1, 3)]}})
    assert st == 200 and o["sheet"]["wards"][0][0]["critical"] is True
    st, hd, o = apply({"sheet": EMPTY, "turn": turn(card=3), "move": {"die": "green", "steps": [admit("green", 2, 2)]}})
    assert st == 200 and o["sheet"]["nurses_crossed"] == [2] and o["sheet"]["nurse_track"] == 1
    # seed003 AMBULANCE BONUS: lost in the morgue
    st, hd, o = apply({"sheet": EMPTY, "turn": turn(card=3), "move": {"die": "green", "steps": [{"morgue": "die"}]}})
    assert st == 200 and o["sheet"]["nurse_track"] == 0 and o["sheet"]["morgue"] == 1


def test_options_agree_with_apply():
    """Every listed option applies, and a sample of unlisted admissions is refused."""
    rng = random.Random(7)
    s = server()
    sh = sheet([2], [1, 3], [], [{"value": 6, "screen": True}], [], [4], [],
               stethoscopes={"circled": 3, "used": 0}, blood_bags={"circled": 1, "used": 0})
    for _ in range(6):
        t = turn(card=rng.randint(1, 27), red=rng.randint(1, 6), yellow=rng.randint(1, 6),
                 green=rng.randint(1, 6))
        st, hd, o = s.json("POST", "/api/v1/er/moves/options", {"sheet": sh, "turn": t})
        assert st == 200, o
        listed = set()
        for op in o["options"]:
            if op["patient"] != "die":
                continue
            steps = ([{"screen": op["ward"]}] if op["screen_first"] else []) + \
                [admit(op["die"], op["ward"], op["value"], op["recolour"])]
            move = {"die": op["die"], "steps": steps}
            st2, hd2, o2 = apply({"sheet": sh, "turn": t, "move": move})
            if st2 == 422 and o2.get("rule") == "unresolved-patient":
                move["steps"].append({"morgue": "extra"})
                st2, hd2, o2 = apply({"sheet": sh, "turn": t, "move": move})
            assert st2 == 200, (op, o2)
            if op["recolour"] is None and not op["screen_first"]:
                listed.add((op["die"], op["ward"], op["value"]))
        for die in ("red", "yellow", "green"):
            for ward in range(1, 8):
                v = rng.randint(1, 6)
                if (die, ward, v) in listed:
                    continue
                move = {"die": die, "steps": [admit(die, ward, v), {"morgue": "extra"}]}
                st2, hd2, o2 = apply({"sheet": sh, "turn": t, "move": move})
                if st2 == 422 and o2["rule"] == "bonus-not-offered":
                    move["steps"].pop()
                    st2, hd2, o2 = apply({"sheet": sh, "turn": t, "move": move})
                assert st2 == 422, (die, ward, v, o2)


def test_alicat_move_is_accepted_by_apply():
    """seed003 SOLO MODE: ALICAT's move applies with its relaxed value rule."""
    rng = random.Random(11)
    s = server()
    sh = sheet(nurse_track=2)
    for i in range(24):
        chief = i % 2 == 1
        t = turn(card=rng.randint(1, 27), red=rng.randint(1, 6), yellow=rng.randint(1, 6),
                 green=rng.randint(1, 6), chief=chief,
                 chief_die=None if chief else rng.choice(["red", "yellow", "green"]))
        st, hd, o = s.json("POST", "/api/v1/er/alicat/move", {"sheet": sh, "turn": t, "final_turn": i == 23})
        assert st == 200, o
        st, hd, o2 = apply({"sheet": sh, "turn": t, "move": o["move"], "alicat": True})
        assert st == 200, (o["move"], o2)
        assert o2["sheet"] == o["sheet"]
        sh = o["sheet"]
    st, hd, o = s.json("POST", "/api/v1/er/score", {"sheet": sh, "alicat": True})
    assert st == 200, o


def test_alicat_lowest_die_first():
    """seed003 SOLO MODE / CHOOSE PATIENT: the lowest die, left-most on ties."""
    st, hd, o = server().json("POST", "/api/v1/er/alicat/move", {
        "sheet": sheet(nurse_track=2), "turn": turn(card=9, red=4, yellow=2, green=2)})
    assert st == 200, o
    assert o["move"]["die"] == "yellow"


def test_422_field_names_the_step_that_broke_the_rule():
    """A 422 names the broken rule and, as api.md promises, the input: /move/steps/N for the step
    of the move that broke it, /move for a rule of the whole move (seed003 cited per case)."""
    sh = sheet([], [], [2])
    cases = [
        # seed003 ADMIT PATIENT/Colour: ward 2's first bed is green, the die red (step 0)
        ({"die": "red", "steps": [admit("red", 2, 6)]}, "colour-mismatch", "/move/steps/0"),
        # seed003 SCREEN: one screen per screen bonus (card 9: red bay screen), step 2 is the second
        ({"die": "red", "steps": [admit("red", 3, 6), {"screen": 3}, {"screen": 3}]},
         "screen-not-offered", "/move/steps/2"),
        # seed003 CHOOSE PATIENT: the die's patient goes to one place (step 1 places it again)
        ({"die": "red", "steps": [{"morgue": "die"}, admit("red", 3, 3)]}, "patient-twice",
         "/move/steps/1"),
        # seed003 CHOOSE PATIENT: a patient never placed is the whole move's fault
        ({"die": "red", "steps": [{"screen": 3}]}, "unresolved-patient", "/move"),
    ]
    for move, rule, field in cases:
        st, hd, o = apply({"sheet": sh, "turn": turn(card=9, red=6), "move": move})
        problem(st, hd, o, 422, rule=rule, field=field)
