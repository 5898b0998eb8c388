"""Scoring profiles checked against a group's own box (api.md "GET/POST /api/v1/profiles";
game-data.md "Unverified values"): the values named in "checked" become verified with the time
of the check, the profile records checked_at, and every score a game computes with it says
verified; a value out of its range or a bad "checked" is 400 naming the field, and nothing is
stored; a league's profile is filed only by its owners or members."""
import copy
import re
import time

from harness import Server, make_database, problem
from league_util import Client, user

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def _db():
    return make_database("h_profiles_checked")


def _shipped(s, game):
    st, _, obj = s.json("GET", f"/api/v1/profiles?game={game}")
    assert st == 200, obj
    return next(p for p in obj["profiles"] if p["id"] == "default")


def _checked_body(p, pid):
    """The shipped profile p with every value it does not confirm named in "checked"."""
    body = {"game": p["game"], "id": pid, "name": "Our box, checked",
            "values": copy.deepcopy(p["values"])}
    body["checked"] = sorted(k for k, v in p["values"].items() if not v["verified"])
    return body


def _utc(stamp):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


def _all_reasons(state):
    for seat in state["seats"]:
        for r in seat["rounds"]:
            yield from r["reasons"]
        yield from seat["score"].get("end_reasons") or []


def test_clinic_checked_profile_scores_verified():
    """Every unverified Clinic value checked (one corrected): the profile is all verified with
    the time of the check, and a game with it (every expansion, so that every value is used)
    reports every reason, score and standing verified; the Business helper too."""
    with Server(database=_db()) as s:
        p = _shipped(s, "clinic")
        assert p["all_verified"] is False and "checked_at" not in p
        assert p["values"]["doctor"]["where"]["fr"], "where it is printed, in French too"
        body = _checked_body(p, "our-clinic")
        assert "doctor" in body["checked"] and "time_spent" in body["checked"], body["checked"]
        body["values"]["doctor"]["red"] = 5  # corrected against the box
        before = _utc(time.time() - 1)
        st, _, made = s.json("POST", "/api/v1/profiles", body)
        after = _utc(time.time() + 1)
        assert st == 201 and made["all_verified"] is True, made
        assert STAMP.match(made["checked_at"]) and before <= made["checked_at"] <= after, made
        for k in body["checked"]:
            v = made["values"][k]
            assert v["verified"] is True and v["checked_at"] == made["checked_at"], (k, v)
        assert "checked_at" not in made["values"]["building"], "a rulebook value is not checked"
        assert made["values"]["doctor"]["red"] == 5
        st, _, obj = s.json("GET", "/api/v1/profiles?game=clinic")
        listed = next(x for x in obj["profiles"] if x["id"] == "our-clinic")
        assert listed["checked_at"] == made["checked_at"] and listed["all_verified"] is True

        st, _, g = s.json("POST", "/api/v1/clinic/games", {
            "players": [{"name": "Eve"}, {"name": "Flo"}], "profile": "our-clinic",
            "expansions": ["blood_transfusion", "extinguishers", "workaholic_doctors",
                           "zombies", "floor_4"]})
        assert st == 201, g
        host = g["host_token"]
        path = f"/api/v1/clinic/games/{g['id']}"
        for n in range(1, 7):
            st, _, cur = s.json("PUT", f"{path}/rounds/{n}", {"entries": [
                {"seat": 1, "popularity_bought": 2, "lab_doctors": 1, "time_spent": 4},
                {"seat": 2, "popularity_bought": 0, "deaths": 1, "unpaid_expenses": 1,
                 "time_spent": 7}]}, token=host)
            assert st == 200, cur
        assert cur["profile"]["checked_at"] == made["checked_at"], cur["profile"]
        assert cur["profile"]["all_verified"] is True
        st, _, fin = s.json("POST", f"{path}/finish", {"entries": [
            {"seat": 1, "doctors": {"white": 1, "yellow": 1, "orange": 1, "red": 1, "purple": 1},
             "nurses": 2, "treatment_rooms": [1, 1, 1, 1, 1], "additional_buildings": 1,
             "patients_left": {"white": 1, "yellow": 1, "orange": 1, "red": 1}, "zombies": 1},
            {"seat": 2, "doctors": {"red": 2}, "patients_left": {"red": 1}}]}, token=host)
        assert st == 200, fin
        reasons = list(_all_reasons(fin))
        rules = {r["rule"] for r in reasons}
        assert {"doctor-red", "doctor-purple", "nurse", "treatment-room-floor-4", "patient-left-red",
                "time-spent", "zombie", "patient-death"} <= rules, rules
        assert all(r["verified"] for r in reasons), [r for r in reasons if not r["verified"]]
        assert all(x["score"]["verified"] for x in fin["seats"]), fin["seats"]
        assert all(x["verified"] for x in fin["standings"]), fin["standings"]
        red = next(r for r in fin["seats"][1]["score"]["end_reasons"] if r["rule"] == "doctor-red")
        assert red["points"] == 10, red  # 2 red doctors at the corrected 5
        st, _, b = s.json("POST", "/api/v1/clinic/business", {
            "profile": "our-clinic", "modules": 4, "outpatients": 1,
            "doctors": {"white": 1, "purple": 1}, "nurses": 1, "orderlies": 1, "janitors": 1,
            "treated": {"white": 1, "yellow": 1, "orange": 1, "red": 1},
            "expansions": ["workaholic_doctors"]})
        assert st == 200 and b["verified"] is True and all(b["verified_parts"].values()), b


def test_dh_checked_profile_scores_verified():
    """The Dice Hospital discharge table checked and corrected: the rounds score with it, and
    every reason and score is verified."""
    with Server(database=_db()) as s:
        p = _shipped(s, "dh")
        body = _checked_body(p, "our-dh")
        assert body["checked"] == ["discharge"], body["checked"]
        body["values"]["discharge"]["points"][9] = 55
        st, _, made = s.json("POST", "/api/v1/profiles", body)
        assert st == 201 and made["all_verified"] is True and STAMP.match(made["checked_at"])
        st, _, g = s.json("POST", "/api/v1/dh/games", {
            "players": [{"name": "a"}, {"name": "b"}], "profile": "our-dh"})
        assert st == 201, g
        st, _, cur = s.json("PUT", f"/api/v1/dh/games/{g['id']}/rounds/1", {"entries": [
            {"seat": 1, "discharged": {"red": 4, "yellow": 4, "green": 2}, "wards_empty": True},
            {"seat": 2, "discharged": {"red": 1, "yellow": 0, "green": 0}}]},
            token=g["host_token"])
        assert st == 200, cur
        assert cur["profile"]["checked_at"] == made["checked_at"]
        first = cur["seats"][0]["rounds"][0]["reasons"]
        assert next(r for r in first if r["rule"] == "discharge-table")["points"] == 55, first
        assert all(r["verified"] for r in _all_reasons(cur))
        assert all(x["score"]["verified"] for x in cur["seats"])
        # a game with the shipped profile still says unverified (the control)
        st, _, h = s.json("POST", "/api/v1/dh/games", {"players": [{"name": "a"}, {"name": "b"}]})
        st, _, cur = s.json("PUT", f"/api/v1/dh/games/{h['id']}/rounds/1", {"entries": [
            {"seat": 1, "discharged": {"red": 1, "yellow": 0, "green": 0}}]},
            token=h["host_token"])
        assert cur["seats"][0]["score"]["verified"] is False and "checked_at" not in cur["profile"]


def test_checked_profile_bad_values_400_with_field():
    """Out of range, of the wrong type, a "checked" that names no value, a forged check: 400
    profile-invalid (or the field spec's 400) at the field; nothing is stored."""
    with Server(database=_db()) as s:
        p = _shipped(s, "clinic")
        good = _checked_body(p, "bad")

        def refused(change, field, rule="profile-invalid"):
            body = copy.deepcopy(good)
            change(body)
            st, hd, obj = s.json("POST", "/api/v1/profiles", body)
            problem(st, hd, obj, 400, rule, field)

        refused(lambda b: b["values"]["doctor"].update(white=101), "/values/doctor/white")
        refused(lambda b: b["values"]["patient_left"].update(red=4), "/values/patient_left/red")
        refused(lambda b: b["values"]["nurse"].update(value="1"), "/values/nurse/value")
        refused(lambda b: b["values"]["treatment_room"]["floors"].__setitem__(2, -1),
                "/values/treatment_room/floors/2")
        refused(lambda b: b["values"]["time_spent"].update(per=0), "/values/time_spent/per")
        refused(lambda b: b.update(checked=["doctor", "no-such-value"]), "/checked/1")
        refused(lambda b: b.update(checked=[3]), "/checked/0")
        # a check is the server's to record: not a field of the request, and a value's own
        # checked_at must be a time and go with verified
        refused(lambda b: b.update(checked_at="2025-01-01T00:00:00Z"), "/checked_at", None)
        refused(lambda b: (b.update(checked=[]),
                           b["values"]["nurse"].update(checked_at="yesterday")),
                "/values/nurse/checked_at")
        refused(lambda b: (b.update(checked=[]),
                           b["values"]["nurse"].update(checked_at="2025-01-01T00:00:00Z")),
                "/values/nurse/verified")
        st, _, obj = s.json("GET", "/api/v1/profiles?game=clinic")
        assert [x["id"] for x in obj["profiles"]] == ["default"], obj["profiles"]


def test_league_profile_filed_by_members_only():
    """"league": the profile is the league's, filed with the session of one of its owners or
    members (the same check as a game created in a league)."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org")
        st, _, lg = ann.post("/api/v1/leagues", {"name": "Box club"})
        assert st == 201, lg
        body = _checked_body(_shipped(s, "dh"), "club-box")
        body["league"] = lg["id"]
        st, hd, obj = Client(s).post("/api/v1/profiles", body)
        problem(st, hd, obj, 401)
        eve = user(s, "eve@example.org")
        st, hd, obj = eve.post("/api/v1/profiles", body)
        problem(st, hd, obj, 403)
        st, hd, obj = ann.post("/api/v1/profiles", dict(body, league="nope"))
        problem(st, hd, obj, 404)
        st, _, made = ann.post("/api/v1/profiles", body)
        assert st == 201 and made["league"] == lg["id"] and made["all_verified"], made
        st, _, obj = s.json("GET", "/api/v1/profiles?game=dh")
        assert next(x for x in obj["profiles"] if x["id"] == "club-box")["league"] == lg["id"]
