"""The ER coach through the API (static/openapi.json "CoachAnalysis"; ER rulebook seed 003 "HOW TO PLAY",
"CARDIOLOGISTS", "END OF THE GAME", "SOLO MODE"): GET /api/v1/er/games/{id}/seats/{seat}/analysis
and POST /api/v1/er/analysis.

The 200-game test plays COACH_API_GAMES (default 200; 50 against a sanitizer build, whose
pass runs beside the plain one and is the suite's longest step) seeded games through the real API — solo
against ALICAT and 2–4 seats, table deck and app deck, a scripted player taking a random legal
option — and for each checks that the best line replays move by move through POST
/api/v1/er/moves/apply with the game's cards and dice and scores exactly best.total by POST
/api/v1/er/score (the sheet's cardiologists set from the coach's last step), that best ≥ player
and ≥ greedy, that the player's line is the real sheet, and that the costs are ≥ 0 and add up to
best − player. Most games use width 4, every tenth the server's default (64); the plays and
replays skip the harness's schema check of every reply (_Unchecked), the analyses keep it. The
time is printed: 64 s for the 200 games on the 2-CPU machine (39 s of it in the analyses and
their schema check), 2026-12-02.
"""
import json, random, threading, time

from harness import Server, make_database, problem
from games import (COLOURS, GAMES, create, deck, free_dice, morgue_move, move_from_option,
                   options, reveal, searched, searched_json, seat_of, submit, tokens, turn_for)
import os

BLANK = {"wards": [[] for _ in range(7)], "nurses_crossed": [], "nurse_track": 0,
         "stethoscopes": {"circled": 1, "used": 0}, "blood_bags": {"circled": 0, "used": 0},
         "morgue": 0, "cardiologists": [0, 0]}
from harness import SERVER_BIN

_SANITIZED = any(k in SERVER_BIN for k in ("/asan/", "/tsan/"))
NGAMES = int(os.environ.get("COACH_API_GAMES", "50" if _SANITIZED else "200"))


def _db():
    return make_database("h_er_coach")


def _analysis_path(gid, seat, width=None):
    p = f"{GAMES}/{gid}/seats/{seat}/analysis"
    return p + (f"?width={width}" if width is not None else "")


def _play(s, rng, nplayers, solo, app, stop_after=None):
    """A whole game (or stop_after turns of it) played by every human seat with its own token:
    a random legal option of a die the seat may take for free, else the morgue."""
    kw = {"deck": "app" if app else "table"}
    if app:
        kw["seed"] = rng.randrange(1, 2 ** 31)
    g = create(s, 1 if solo else nplayers, solo=solo, **kw)
    toks = tokens(g)
    cards = None if app else deck(rng, g["turns"])
    for i in range(g["turns"] if stop_after is None else stop_after):
        card, dice = (None, None) if app else cards[i]
        _, _, cur = reveal(s, g["id"], toks[1] if solo else g["host_token"], card, dice)
        number = cur["turn"]["number"]
        chief = cur["turn"]["chief_seat"]
        for seat in [chief] + [x for x in sorted(toks) if x != chief]:
            if seat not in toks or seat in cur["turn"]["moved"]:
                continue
            t = turn_for(cur, seat)
            dice_free = free_dice(t)
            opts = [o for o in options(s, seat_of(cur, seat)["sheet"], t)
                    if o["die"] in dice_free]
            m = (move_from_option(t["card"], rng.choice(opts)) if opts and rng.random() < 0.9
                 else morgue_move(t["card"], rng.choice(dice_free)))
            extra = {"alicat_discard": rng.choice([1, 2])} if solo else {}
            _, _, cur = submit(s, g["id"], seat, toks[seat], number, m, **extra)
    return g, cur


def _check_analysis(s, a, final, seat):
    """Every claim of an analysis against the rules endpoints."""
    sp = final["specialists"]
    assert a["seat"] == seat and a["game"] == final["id"], a
    assert a["complete"] and a["searched_turns"] == a["turns"] == len(a["steps"]), a["complete"]
    assert a["specialists"] == {"cardiologists": [c["id"] for c in sp["cardiologists"]],
                                "radiologist": sp["radiologist"],
                                "epidemiologist": sp["epidemiologist"]}, (a["specialists"], sp)
    real = seat_of(final, seat)
    assert a["player"]["total"] == real["score"]["total"], (a["player"], real["score"])
    assert a["player"]["sheet"] == real["sheet"], "the player's line is the real sheet"
    assert a["best"]["total"] >= a["player"]["total"], (a["best"]["total"], a["player"]["total"])
    assert a["best"]["total"] >= a["greedy"]["total"], (a["best"]["total"], a["greedy"]["total"])
    sheet = BLANK
    for st in a["steps"]:
        code, _, r = s.json("POST", "/api/v1/er/moves/apply",
                            {"sheet": sheet, "turn": st["turn_info"], "move": st["best_move"]})
        assert code == 200, (st["turn"], st["best_move"], r)
        sheet = r["sheet"]
        want = dict(st["best_sheet"], cardiologists=sheet["cardiologists"])
        assert sheet == want, (st["turn"], sheet, st["best_sheet"])
        sheet = dict(sheet, cardiologists=[0, 0])
        assert st["cost"] >= 0, st
        assert (st["missed"] is None) == (st["cost"] == 0), st
    assert dict(sheet, cardiologists=a["steps"][-1]["cardiologists"]) == a["best"]["sheet"]
    code, _, sc = s.json("POST", "/api/v1/er/score",
                         {"sheet": dict(sheet, cardiologists=a["steps"][-1]["cardiologists"]),
                          "radiologist": sp["radiologist"],
                          "epidemiologist": sp["epidemiologist"]})
    assert code == 200, sc
    assert sc["total"] == a["best"]["total"], (sc, a["best"]["total"])
    assert sc["breakdown"] == a["best"]["breakdown"] and sc["details"] == a["best"]["details"]
    assert sum(st["cost"] for st in a["steps"]) == a["best"]["total"] - a["player"]["total"]
    # the running scores: the last turn's are the final ones
    last = a["steps"][-1]
    for line in ("player", "best"):
        assert last[f"{line}_score"] == {"total": a[line]["total"], "breakdown": a[line]["breakdown"]}, (line, last)


class _Unchecked:
    """The harness's json() without its check of every reply against static/openapi.json
    (three quarters of this test's time): for the thousands of plays and replays of the
    done-when test. Every analysis reply is still checked through the harness."""

    def __init__(self, server):
        self.server = server

    def json(self, method, path, body=None, headers=None, token=None):
        c = self.server.conn()
        h = dict(headers or {})
        if token:
            h["Authorization"] = "Bearer " + token
        if body is not None:
            body = json.dumps(body)
            h["Content-Type"] = "application/json"
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, \
            (json.loads(data) if data else None)


def _one_game(s, i):
    """Game i of the done-when test: played, analysed, every claim checked. Returns what the
    summary counts and the seconds the analysis took."""
    rng = random.Random(2029 + i)
    fast = _Unchecked(s)
    solo = i % 3 == 0
    nplayers = 2 + i % 3 if not solo else 1
    app = i % 2 == 0
    g, final = _play(fast, rng, nplayers, solo, app)
    assert final["status"] == "finished", final["status"]
    seat = 1 if solo else rng.randint(1, nplayers)
    width = None if i % 10 == 0 else 4
    a0 = time.time()
    code, _, a = searched_json(s, _analysis_path(g["id"], seat, width), tokens(g)[seat])
    spent = time.time() - a0
    assert code == 200, (code, a)
    assert a["width"] == (64 if width is None else width), a["width"]
    _check_analysis(fast, a, final, seat)
    return solo, app, width is None, a["best"]["total"] > a["player"]["total"], spent


def test_200_games_best_replays_and_scores():
    t0 = time.time()
    with Server(database=_db()) as s:
        done = [_one_game(s, i) for i in range(NGAMES)]
    print(f"  {NGAMES} games ({sum(d[0] for d in done)} solo, {sum(d[1] for d in done)} app "
          f"deck, {sum(d[2] for d in done)} at the default width; best above the player in "
          f"{sum(d[3] for d in done)}): {time.time() - t0:.1f} s in all, "
          f"{sum(d[4] for d in done):.1f} s in the analyses")


def test_not_finished_bot_seat_errors_and_cache():
    rng = random.Random(7)
    with Server(database=_db()) as s:
        # 409 before the end: the analysis would show the draw to come
        g, cur = _play(s, rng, 2, False, True, stop_after=3)
        st, hd, obj = s.json("GET", _analysis_path(g["id"], 1), token=g["host_token"])
        problem(st, hd, obj, 409, "game-not-finished")
        # a finished solo game: ALICAT's seat is 422 bot-seat, seat 3 is 404
        g, final = _play(s, rng, 1, True, False)
        tok = tokens(g)[1]
        st, hd, obj = s.json("GET", _analysis_path(g["id"], 2), token=tok)
        problem(st, hd, obj, 422, "bot-seat")
        st, hd, obj = s.json("GET", _analysis_path(g["id"], 3), token=tok)
        problem(st, hd, obj, 404, "no-such-seat")
        for bad in ("0", "257", "x", "-1", ""):
            st, hd, obj = s.json("GET", f"{GAMES}/{g['id']}/seats/1/analysis?width={bad}",
                                 token=tok)
            problem(st, hd, obj, 400, "width-out-of-range")
        # no token: 401; another game's id: 404
        st, _, _ = s.json("GET", _analysis_path(g["id"], 1))
        assert st == 401, st
        st, _, _ = s.json("GET", _analysis_path("0" * 24, 1), token=tok)
        assert st in (401, 404), st
        # the first call searches, the second is served from the store: the same bytes
        st1, _, body1 = searched(s, _analysis_path(g["id"], 1, 8), tok)
        st2, _, body2 = s.request("GET", _analysis_path(g["id"], 1, 8),
                                  headers={"Authorization": "Bearer " + tok})
        assert st1 == st2 == 200 and body1 == body2
        a = json.loads(body1)
        _check_analysis(s, a, final, 1)
        # the host token reads it too; another width is another analysis, never worse
        st, _, a64 = searched_json(s, _analysis_path(g["id"], 1, 64), g["host_token"])
        assert st == 200 and a64["best"]["total"] >= a["best"]["total"], (a64, a)
        # the paper game: the same turns and moves, solo race left out (players 1)
        body = {"specialists": a["specialists"], "players": 1,
                "turns": [x["turn_info"] for x in a["steps"]],
                "moves": [x["player_move"] for x in a["steps"]], "width": 8}
        st, _, p = s.json("POST", "/api/v1/er/analysis", body)
        assert st == 200, p
        assert "game" not in p and "seat" not in p and p["width"] == 8 and p["complete"]
        assert p["best"]["total"] >= p["player"]["total"] and len(p["steps"]) == 24
        # malformed: 400 with the field; an illegal move: 422 with its rule and turn
        for bad, field in (({**body, "width": 0}, "/width"),
                           ({**body, "moves": body["moves"][:3]}, "/moves"),
                           ({**body, "turns": [{"card": 99, "dice": body["turns"][0]["dice"]}]
                             + body["turns"][1:]}, "/turns/0/card"),
                           ({**body, "specialists": {**body["specialists"],
                                                     "radiologist": "nope"}},
                            "/specialists/radiologist"),
                           ({**body, "specialists": {
                               **body["specialists"],
                               "cardiologists": [None, body["specialists"]["cardiologists"][1]]}},
                            "/specialists/cardiologists/0"),
                           ({**body, "extra": 1}, "/extra")):
            st, hd, obj = s.json("POST", "/api/v1/er/analysis", bad)
            problem(st, hd, obj, 400, field=field)
        moves = [dict(m) for m in body["moves"]]
        moves[5] = {"die": moves[5]["die"], "steps": [{"admit": "die", "ward": 1, "value": 7,
                                                       "recolour": None}]}
        st, hd, obj = s.json("POST", "/api/v1/er/analysis", {**body, "moves": moves})
        assert st == 422 and obj["turn"] == 6 and obj["rule"], obj


def test_deadline_stops_the_search_and_what_it_found_is_kept():
    """ER_COACH_DEADLINE_MS=1: the search stops at once; the reply says so (complete false,
    costs null where it did not get), its best is still a real line ≥ the player's, and it is
    kept: every later ask gets the same bytes at once, so the screen and its PDF agree."""
    rng = random.Random(11)
    with Server(database=_db(), env={"ER_COACH_DEADLINE_MS": "1"}) as s:
        g, final = _play(s, rng, 2, False, True)
        tok = tokens(g)[2]
        st, _, b0 = searched(s, _analysis_path(g["id"], 2, 256), tok)
        assert st == 200, b0
        a = json.loads(b0)
        assert a["complete"] is False and a["deadline_ms"] == 1, (a["complete"], a["deadline_ms"])
        assert a["searched_turns"] < a["turns"] == 24, a["searched_turns"]
        assert all(x["cost"] is None for x in a["steps"][:a["turns"] - a["searched_turns"]])
        assert a["best"]["total"] >= a["player"]["total"], (a["best"], a["player"])
        sheet = BLANK
        for x in a["steps"]:
            st, _, r = s.json("POST", "/api/v1/er/moves/apply",
                              {"sheet": sheet, "turn": x["turn_info"], "move": x["best_move"]})
            assert st == 200, r
            sheet = dict(r["sheet"], cardiologists=[0, 0])
        for _ in range(3):
            st1, _, b1 = s.request("GET", _analysis_path(g["id"], 2, 256),
                                   headers={"Authorization": "Bearer " + tok})
            assert st1 == 200 and b1 == b0, (st1, b1[:200])
        searches = [l for l in s.output().splitlines() if "coach: game " + g["id"] in l]
        assert len(searches) == 1 and "stopped at the deadline" in searches[0], searches


def test_the_first_ask_is_answered_at_once_and_the_search_runs_once():
    """api.md "Coach": 202 with Retry-After while the search runs. The first ask of a finished
    seat is answered 202 before any search (the search runs after that reply, on the job
    pool); asks from eight phones meanwhile get 202 or the analysis, never a second search; a
    width is its own search. A deadline of two minutes: the search completes however slow the
    build and the machine."""
    rng = random.Random(12)
    with Server(database=_db(), env={"ER_COACH_DEADLINE_MS": "120000"}) as s:
        g, final = _play(s, rng, 2, False, True)
        tok = tokens(g)[1]
        path = _analysis_path(g["id"], 1, 32)
        st, hd, wait = s.json("GET", path, token=tok)
        assert st == 202 and hd["retry-after"] == "1", (st, hd, wait)
        assert wait == {"searching": True, "width": 32, "deadline_ms": 120000}, wait
        got = [None] * 8

        def phone(i):
            got[i] = searched(s, path, tok)

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(130)
        assert all(x and x[0] == 200 for x in got), [x and x[0] for x in got]
        assert len({x[2] for x in got}) == 1, "every phone has the same analysis"
        _check_analysis(s, json.loads(got[0][2]), final, 1)
        searches = [l for l in s.output().splitlines() if "coach: game " + g["id"] in l]
        assert len(searches) == 1 and "width 32" in searches[0], searches
        # another width: another search, asked for the first time (202)
        st, _, _ = s.json("GET", _analysis_path(g["id"], 1, 2), token=tok)
        assert st == 202, st
        st, _, a2 = searched_json(s, _analysis_path(g["id"], 1, 2), tok)
        assert st == 200 and a2["width"] == 2, a2
