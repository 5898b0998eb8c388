"""Dice Hospital games through the API (api.md "Dice Hospital (/api/v1/dh) and Clinic"; rulebook
seed 000 = ../shared/seeds/000_f801c236a9bfa085.txt, sections by heading): full games entered
round by round to a final ranking with its tie-break, each seat entering its own round, the
solo Medical Reports, every bad input (problem+json naming the field, nothing stored changes),
idempotent resubmission, the verified flag on every score, and the scoring profiles."""
import copy

from harness import Server, make_database, problem

GAMES = "/api/v1/dh/games"


def _db():
    return make_database("h_dh_games")


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


def _e(seat, r=0, y=0, g=0, empty=False, registrar=None):
    e = {"seat": seat, "discharged": {"red": r, "yellow": y, "green": g}, "wards_empty": empty}
    if registrar is not None:
        e["registrar"] = registrar
    return e


def _state(s, gid, token):
    st, _, obj = s.json("GET", f"{GAMES}/{gid}", token=token)
    assert st == 200, (st, obj)
    return obj


def test_dh_full_game_to_ranking_with_tie_breaks():
    """3 players, 8 rounds (seed 000, GAME SEQUENCE), Administrators (HOSPITAL ADMINISTRATORS),
    Final Round Collections, END GAME SCORING with the tie-breaks deciding."""
    with Server(database=_db()) as s:
        _, _, g = _create(s, {"players": [{"name": "Ann", "administrator": "most-discharged"},
                                          {"name": "Bob", "administrator": "discharge-2-red"},
                                          {"name": "Cy"}],
                              "variants": {"final_round_collections": True}})
        assert g["profile"] == "default" and g["rounds"] == 8 and len(g["seats"]) == 3, g
        host = g["host_token"]
        for n in range(1, 9):
            st, _, cur = _round(s, g["id"], n, [_e(1, 1, 1, 1), _e(2, 2, 1, 0), _e(3, 0, 3, 0)],
                                host)
            assert cur["rounds_complete"] == n
        seats = {x["seat"]: x for x in cur["seats"]}
        # per round: 3 discharged = 6 (placeholder table) + Ann and Bob's +1
        assert [x["score"]["total"] for x in cur["seats"]] == [56, 56, 48], cur["seats"]
        r1 = seats[1]["rounds"][0]
        assert r1["points"] == 7
        rules = {x["rule"]: x for x in r1["reasons"]}
        assert rules["discharge-table"]["points"] == 6
        assert rules["discharge-table"]["verified"] is False  # placeholder, game-data.md
        assert rules["discharge-table"]["profile_value"] == "discharge"
        assert rules["administrator-most-discharged"]["verified"] is True
        assert cur["next"] == {"action": "finish"}
        st, _, fin = s.json("POST", f"{GAMES}/{g['id']}/finish", {"entries": [
            {"seat": 1, "fatalities": 1, "blood_bags": 2, "patients_left": 2, "pips_left": 7},
            {"seat": 2, "blood_bags": 0, "patients_left": 2, "pips_left": 9},
            {"seat": 3, "collected": 3, "blood_bags": 5}]}, token=host)
        assert st == 200, fin
        assert fin["status"] == "finished"
        # an identical resubmission is answered as the first time; a different one is 409
        body = {"entries": [
            {"seat": 1, "fatalities": 1, "blood_bags": 2, "patients_left": 2, "pips_left": 7},
            {"seat": 2, "blood_bags": 0, "patients_left": 2, "pips_left": 9},
            {"seat": 3, "collected": 3, "blood_bags": 5}]}
        st, _, again = s.json("POST", f"{GAMES}/{g['id']}/finish", body, token=host)
        assert st == 200 and again["version"] == fin["version"], again
        body["entries"][2]["blood_bags"] = 6
        st, hd, obj = s.json("POST", f"{GAMES}/{g['id']}/finish", body, token=host)
        problem(st, hd, obj, 409, "game-finished")
        # Ann 56 −2 +2 −2 left = 54; Bob 56 −2 left = 54; Cy 48 +5 +3 = 56
        st_ = fin["standings"]
        assert [(x["seat"], x["total"], x["rank"]) for x in st_] == \
            [(3, 56, 1), (2, 54, 2), (1, 54, 3)], st_
        assert st_[0]["tie_break"] is None
        assert st_[1]["tie_break"] == "highest-pips" and st_[2]["tie_break"] == "highest-pips"
        assert st_[0]["verified"] is False and set(st_[0]["breakdown"]) >= {
            "discharge", "administrator", "wards_empty", "fatalities", "blood_bags",
            "final_round_collections"}
        # the log holds the 9 events; the GET equals the finish reply
        st, _, lg = s.json("GET", f"{GAMES}/{g['id']}/log", token=host)
        assert st == 200 and lg["status"] == "finished", lg
        assert [x["totals"] for x in lg["totals"]][-1] == [54, 54, 56], lg["totals"]
        assert [x["round"] for x in lg["totals"]] == list(range(1, 9)) + [None]
        again = _state(s, g["id"], g["seats"][0]["seat_token"])
        again.pop("you", None), fin.pop("you", None)
        assert again["standings"] == fin["standings"]


def test_dh_each_seat_enters_its_own_round():
    """Each phone enters its own seat; a seat token cannot write another seat (403); the round
    scores 'most discharged' across the table once both are in (ties: every tied player)."""
    with Server(database=_db()) as s:
        _, _, g = _create(s, {"players": [{"name": "A", "administrator": "most-discharged"},
                                          {"name": "B"}]})
        t1, t2 = g["seats"][0]["seat_token"], g["seats"][1]["seat_token"]
        st, hd, obj = _round(s, g["id"], 1, [_e(2, 1)], t1, expect=None)
        problem(st, hd, obj, 403)
        _round(s, g["id"], 1, [_e(1, 2)], t1)
        st, _, cur = _round(s, g["id"], 1, [_e(2, 0, 2)], t2)
        a = cur["seats"][0]
        assert [x["rule"] for x in a["rounds"][0]["reasons"]] == [
            "discharge-table", "administrator-most-discharged"], a["rounds"][0]
        assert cur["next"]["round"] == 2 and cur["next"]["seats"] == [1, 2]
        # re-entering replaces and re-scores: B now discharged more, A loses the bonus
        st, _, cur = _round(s, g["id"], 1, [_e(2, 1, 2)], t2)
        assert cur["seats"][0]["score"]["total"] == 3 and cur["seats"][1]["score"]["total"] == 6


def test_dh_bad_input_changes_nothing():
    """Round outside 1–8, negative and impossible counts (13 > 12 spaces, seed 000 PHASE 1),
    a seat twice, an unknown seat, finish before round 8, more than 4 players: problem+json
    naming the field; the game's version does not move."""
    with Server(database=_db()) as s:
        st, hd, obj = _create(s, {"players": [{"name": str(i)} for i in range(5)]}, expect=None)
        problem(st, hd, obj, 422, "too-many-players", "/players")
        st, hd, obj = _create(s, {"players": [{"name": "a"}]}, expect=None)
        problem(st, hd, obj, 422, "too-few-players", "/players")
        st, hd, obj = _create(s, {"players": [{"name": "a", "administrator": "boss"},
                                              {"name": "b"}]}, expect=None)
        problem(st, hd, obj, 400, "administrator-unknown")
        st, hd, obj = _create(s, {"players": [{"name": "a"}, {"name": "b"}],
                                  "profile": "nope"}, expect=None)
        problem(st, hd, obj, 422, "profile-unknown", "/profile")
        st, hd, obj = _create(s, {"players": [{"name": "a"}, {"name": "b"}], "colour": 1},
                              expect=None)
        problem(st, hd, obj, 400, None, "/colour")
        _, _, g = _create(s, {"players": [{"name": "a"}, {"name": "b"}]})
        host = g["host_token"]
        _round(s, g["id"], 1, [_e(1, 1), _e(2, 1)], host)
        before = _state(s, g["id"], host)
        cases = [
            (9, [_e(1, 1)], 400, "round-out-of-range", "/round"),
            (0, [_e(1, 1)], 400, "round-out-of-range", "/round"),
            (2, [_e(1, -1)], 400, "negative-count", "/entries/0/discharged/red"),
            (2, [_e(1, 5, 5, 3)], 422, "too-many-discharged", "/entries/0/discharged"),
            (2, [_e(1, 1), _e(1, 2)], 422, "seat-twice", "/entries/1/seat"),
            (2, [_e(3, 1)], 422, "unknown-seat", "/entries/0/seat"),
            (3, [_e(1, 1)], 422, "round-not-reached", "/round"),
            (2, [_e(1, 1, registrar=1)], 422, "registrar-without-expansion",
             "/entries/0/registrar"),
        ]
        for n, entries, status, rule, field in cases:
            st, hd, obj = _round(s, g["id"], n, entries, host, expect=None)
            problem(st, hd, obj, status, rule, field)
        st, hd, obj = s.json("PUT", f"{GAMES}/{g['id']}/rounds/2",
                             {"entries": [{"seat": 1, "discharged": {"red": "2"}}]}, token=host)
        problem(st, hd, obj, 400, None, "/entries/0/discharged/red")
        st, hd, obj = s.json("POST", f"{GAMES}/{g['id']}/finish",
                             {"entries": [{"seat": 1}, {"seat": 2}]}, token=host)
        problem(st, hd, obj, 422, "finish-before-last-round")
        after = _state(s, g["id"], host)
        assert after["version"] == before["version"] and after["seats"] == before["seats"]


def test_dh_idempotent_round_and_versions():
    """An identical resubmission is answered as the first time and not stored twice."""
    with Server(database=_db()) as s:
        _, _, g = _create(s, {"players": [{"name": "a"}, {"name": "b"}]})
        host = g["host_token"]
        _, _, first = _round(s, g["id"], 1, [_e(1, 1), _e(2, 2)], host)
        _, _, second = _round(s, g["id"], 1, [_e(1, 1), _e(2, 2)], host)
        assert first["version"] == second["version"] == 1
        _, _, third = _round(s, g["id"], 1, [_e(1, 2), _e(2, 2)], host)
        assert third["version"] == 2


def test_dh_solo_medical_reports():
    """seed 000, SOLO PLAY RULES: the six dealt cards, completed with the discharged dice (each
    die once, bottom row first, the card above slides down); incomplete cards subtracted,
    doubled with MEDICAL REPORT PENALTY; fatalities doubled with FATALITY PENALTY."""
    with Server(database=_db()) as s:
        reports = [{"yellow": 2, "green": 1, "points": 4}, {"yellow": 1, "green": 2, "points": 4},
                   {"yellow": 2, "points": 2}, {"red": 1, "points": 1}, {"red": 3, "points": 5},
                   {"green": 2, "points": 3}]
        st, hd, obj = _create(s, {"players": [{"name": "Solo"}], "solo": True}, expect=None)
        problem(st, hd, obj, 422, "report-invalid", "/reports")
        st, hd, obj = _create(s, {"players": [{"name": "Solo", "administrator": "neglect-red"}],
                                  "solo": True, "reports": reports}, expect=None)
        problem(st, hd, obj, 422, "administrator-in-solo", "/players/0/administrator")
        _, _, g = _create(s, {"players": [{"name": "Solo"}], "solo": True, "reports": reports,
                              "variants": {"fatality_penalty": True,
                                           "medical_report_penalty": True}})
        tok = g["seats"][0]["seat_token"]
        st, hd, obj = _round(s, g["id"], 1, [_e(1, 0, 2, 2)], tok, expect=None,
                             reports_completed=[1, 2])
        problem(st, hd, obj, 422, "report-dice-insufficient", "/reports_completed/1")
        st, _, cur = _round(s, g["id"], 1, [_e(1, 0, 2, 2)], tok, reports_completed=[3, 6])
        assert [r["completed_round"] for r in cur["reports"]] == [None, None, 1, None, None, 1]
        st, hd, obj = _round(s, g["id"], 2, [_e(1, 3)], tok, expect=None, reports_completed=[5])
        problem(st, hd, obj, 422, "report-not-available", "/reports_completed/0")
        for n in range(2, 9):
            _round(s, g["id"], n, [_e(1)], tok)
        st, _, fin = s.json("POST", f"{GAMES}/{g['id']}/finish",
                            {"entries": [{"seat": 1, "fatalities": 1, "patients_left": 1,
                                          "pips_left": 2}]}, token=tok)
        assert st == 200, fin
        # 10 (4 discharged) + 5 (cards) − 4 (fatality ×2) − 28 (4+4+1+5 incomplete ×2)
        assert fin["standings"][0]["total"] == 10 + 5 - 4 - 28, fin["standings"]
        assert fin["standings"][0]["breakdown"]["medical_reports"] == 5 - 28


def test_profiles_list_and_create():
    """GET/POST /api/v1/profiles: the shipped defaults with their verified flags; a league's
    corrected profile is stored once, used by a new game, and marked as it says."""
    with Server(database=_db()) as s:
        st, _, obj = s.json("GET", "/api/v1/profiles")
        assert st == 200
        ids = {(p["game"], p["id"], p["source"]) for p in obj["profiles"]}
        assert {("dh", "default", "template"), ("clinic", "default", "template")} <= ids
        dh = next(p for p in obj["profiles"] if p["game"] == "dh")
        assert dh["values"]["discharge"]["verified"] is False
        assert dh["values"]["fatality"] == {"value": -2, "verified": True,
                                            "source": dh["values"]["fatality"]["source"]}
        assert dh["all_verified"] is False
        mine = {k: copy.deepcopy(dh[k]) for k in ("game", "values")}
        mine["id"], mine["name"] = "our-box", "Our box, checked"
        mine["values"]["discharge"] = {"points": [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78],
                                       "verified": True, "source": "read off our board"}
        st, _, made = s.json("POST", "/api/v1/profiles", mine)
        assert st == 201 and made["source"] == "stored" and made["all_verified"] is True, made
        st, hd, obj = s.json("POST", "/api/v1/profiles", mine)
        problem(st, hd, obj, 409, "profile-exists", "/id")
        clash = dict(mine, id="default")
        st, hd, obj = s.json("POST", "/api/v1/profiles", clash)
        problem(st, hd, obj, 409, "profile-exists", "/id")
        bad = copy.deepcopy(mine)
        bad["id"] = "bad"
        bad["values"]["fatality"]["value"] = "x"
        st, hd, obj = s.json("POST", "/api/v1/profiles", bad)
        problem(st, hd, obj, 400, "profile-invalid", "/values/fatality/value")
        st, _, obj = s.json("GET", "/api/v1/profiles?game=dh")
        assert {p["id"] for p in obj["profiles"]} == {"default", "our-box"}
        _, _, g = _create(s, {"players": [{"name": "a"}, {"name": "b"}], "profile": "our-box"})
        st, _, cur = _round(s, g["id"], 1, [_e(1, 4, 4, 2), _e(2)], g["host_token"])
        r = cur["seats"][0]["rounds"][0]["reasons"][0]
        assert r["points"] == 55 and r["verified"] is True, r
        assert cur["seats"][0]["score"]["verified"] is True


def test_dh_live_update_on_round():
    """Every accepted round reaches the other phones as one server-sent event (api.md "Live
    updates"): id = the new version, event = round."""
    import http.client, json as _json, time
    with Server(database=_db()) as s:
        _, _, g = _create(s, {"players": [{"name": "a"}, {"name": "b"}]})
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
        c.request("GET", f"{GAMES}/{g['id']}/events?token=" + g["seats"][1]["seat_token"],
                  headers={"Accept": "text/event-stream"})
        r = c.getresponse()
        assert r.status == 200
        buf, end = "", time.time() + 5
        while "hello" not in buf:
            assert time.time() < end, buf
            buf += r.read1(4096).decode()
        _round(s, g["id"], 1, [_e(1, 1)], g["seats"][0]["seat_token"])
        while "id: 1" not in buf or "\n\n" not in buf.split("id: 1", 1)[1]:
            assert time.time() < end, buf
            buf += r.read1(4096).decode()
        ev = buf.split("id: 1", 1)[1].split("\n\n", 1)[0]
        assert "event: round" in ev, ev
        data = _json.loads(ev.split("data: ", 1)[1])
        assert data["version"] == 1 and data["kind"] == "round" and data["turn"] == 1, data
        assert data["seat"] == 1, data
        c.close()


def test_dh_game_ended_early():
    """A table may stop after any round (the rulebook's game is 8 rounds: seed 000, GAME
    SEQUENCE "At the end of the 8th round, the game ends"; that stays the only complete game):
    POST …/finish with "ended_after": n once every seat entered rounds 1..n. The pips of the
    patients left are not asked and round 8's wards are not checked; patients are collected
    "after the last round of the game" (FINAL ROUND COLLECTIONS), so not after an early end. The
    game is finished, incomplete, and a league keeps it as an incomplete play: shown, not rated."""
    from league_util import user
    with Server(database=_db()) as s:
        ann = user(s, "early@example.org", "Ann")
        st, _, lg = ann.post("/api/v1/leagues", {"name": "Early club"})
        assert st == 201, lg
        st, _, g = ann.post(GAMES, {"players": [{"name": "Ann"}, {"name": "Bob"}],
                                    "variants": {"final_round_collections": True},
                                    "league": lg["id"]})
        assert st == 201, g
        host = g["host_token"]
        for n in range(1, 4):
            _round(s, g["id"], n, [_e(1, 2, 1), _e(2, 1, 1)], host)
        _round(s, g["id"], 4, [_e(1, 1)], host)  # round 4: only Ann so far
        fin = {"entries": [{"seat": 1, "patients_left": 3}, {"seat": 2, "blood_bags": 2}],
               "ended_after": 3}
        before = _state(s, g["id"], host)
        assert before["rounds_played"] is None and before["incomplete"] is False, before
        # refusals name the rule and the field, and change nothing
        cases = [({**fin, "ended_after": 9}, 400, None, "/ended_after"),
                 ({**fin, "ended_after": 0}, 400, None, "/ended_after"),
                 ({**fin, "ended_after": "3"}, 400, None, "/ended_after"),
                 (fin, 422, "rounds-after-end", "/ended_after"),
                 ({**fin, "ended_after": 4}, 422, "finish-before-last-round", "/entries")]
        for body, status, rule, field in cases:
            st, hd, obj = s.json("POST", f"{GAMES}/{g['id']}/finish", body, token=host)
            problem(st, hd, obj, status, rule, field)
        # a table that stopped after round 3 with nothing entered for round 4
        st, _, h = ann.post(GAMES, {"players": [{"name": "Ann"}, {"name": "Bob"}],
                                    "variants": {"final_round_collections": True},
                                    "league": lg["id"]})
        for n in range(1, 4):
            _round(s, h["id"], n, [_e(1, 2, 1), _e(2, 1, 1)], h["host_token"])
        bad = {"entries": [{"seat": 1, "collected": 1}, {"seat": 2}], "ended_after": 3}
        st, hd, obj = s.json("POST", f"{GAMES}/{h['id']}/finish", bad, token=h["host_token"])
        problem(st, hd, obj, 422, "collections-after-early-end", "/entries/0/collected")
        assert _state(s, h["id"], h["host_token"])["version"] == 3
        # patients left without pips and no wards-empty check: accepted
        st, _, done = s.json("POST", f"{GAMES}/{h['id']}/finish", fin, token=h["host_token"])
        assert st == 200, done
        assert done["status"] == "finished" and done["rounds_played"] == 3, done
        assert done["incomplete"] is True, done
        # the same finish again: answered as the first time
        st, _, again = s.json("POST", f"{GAMES}/{h['id']}/finish", fin, token=h["host_token"])
        assert st == 200 and again["version"] == done["version"], again
        # the league keeps it as an incomplete play: listed, out of the standings
        st, _, plays = ann.get(f"/api/v1/leagues/{lg['id']}/plays")
        assert st == 200 and len(plays["plays"]) == 1, plays
        assert plays["plays"][0]["incomplete"] is True, plays["plays"][0]
        st, _, table = ann.get(f"/api/v1/leagues/{lg['id']}/standings")
        assert st == 200 and all(r["games"] == 0 for r in table["standings"]), table
        # the state says when the game was created and finished (what the end screen's "Log in
        # BG Stats" link sends): the league play's date and duration, read again from the row
        from datetime import datetime
        when = lambda x: datetime.fromisoformat(x.replace("Z", "+00:00"))
        st, _, play = ann.get(f"/api/v1/leagues/{lg['id']}/plays/{plays['plays'][0]['id']}")
        assert when(done["finished_at"]) == when(play["date"]), (done, play)
        minutes = (when(done["finished_at"]) - when(done["created_at"])).total_seconds() / 60
        assert play["duration_min"] == int(minutes + 0.5), (done, play)
        reread = _state(s, h["id"], h["host_token"])
        assert (reread["created_at"], reread["finished_at"]) == (done["created_at"],
                                                                 done["finished_at"]), reread
        assert "finished_at" not in before and before["created_at"], before
        # the rulebook's game: 8 rounds, complete
        for n in range(4, 9):
            _round(s, g["id"], n, [_e(1, 1), _e(2, 1)], host)
        st, _, full = s.json("POST", f"{GAMES}/{g['id']}/finish", {"entries": [
            {"seat": 1, "patients_left": 1, "pips_left": 3}, {"seat": 2, "patients_left": 1,
                                                             "pips_left": 2}]}, token=host)
        assert st == 200 and full["rounds_played"] == 8 and full["incomplete"] is False, full
        st, _, plays = ann.get(f"/api/v1/leagues/{lg['id']}/plays")
        assert sorted(p["incomplete"] for p in plays["plays"]) == [False, True], plays
