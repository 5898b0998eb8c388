"""League challenges (api.md "Coach and challenges"; src/leagues/README.md "Challenges"): an
owner opens one ER draw; every member plays it once on their own phone and is dealt the same
cards and dice (seed 003, "GETTING READY" step 2: the app deck is shuffled once from the seed,
each turn's dice rolled from the seed and the turn); no reply a client can get carries the seed
or a turn not yet dealt before the challenge closes; a second attempt, one before opening and
one after closing are refused (409); the closed challenge is one league play among those who
finished, ranked by score and rated, recorded once even when two closes race; a guest plays by
the challenge's link."""
import http.client, json, random, subprocess, threading, time

from harness import Server, make_database, problem
from league_util import Client, join, user
from games import (GAMES, auth, lowest_die_policy, random_policy, searched_json, seat_of,
                   turn_for)

SEED = 987654321012345  # given here so that every reply can be searched for it


def _db():
    return make_database("h_er_challenges")


def _sql(db, query):
    p = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c",
                        query], capture_output=True, text=True, check=True)
    return [line.split("|") for line in p.stdout.splitlines() if line]


def _league(s):
    ann = user(s, "ann@example.org", "Ann")
    st, hd, lg = ann.post("/api/v1/leagues", {"name": "Challengers"})
    assert st == 201, lg
    lid = lg["id"]
    bea, cid = user(s, "bea@example.org", "Bea"), user(s, "cid@example.org", "Cid")
    join(ann, lid, bea, "Bea")
    join(ann, lid, cid, "Cid")
    return lid, ann, bea, cid


def _challenge(owner, lid, expect=201, **kw):
    body = {"name": "Friday draw", "closes": "2099-01-01T00:00:00Z", "solo": True,
            "alicat_modifiers": ["preparation"], "seed": SEED}
    body.update(kw)
    st, hd, ch = owner.post(f"/api/v1/leagues/{lid}/challenges", body)
    assert st == expect, (st, ch)
    return ch


def _raw(s, path, token):
    st, hd, data = s.request("GET", path, None, auth(token))
    assert st == 200, (path, st, data[:300])
    return data


def _events(s, gid, token, upto):
    """The event stream after version 1 (Last-Event-ID 1: every event but the first, the reveal
    of turn 1) up to version upto, as text."""
    c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=5)
    c.request("GET", f"{GAMES}/{gid}/events?token={token}", headers={"Last-Event-ID": "1"})
    r = c.getresponse()
    assert r.status == 200, r.status
    buf, end = "", time.time() + 5
    while f"id: {upto}\n" not in buf and upto > 1:
        assert time.time() < end, buf
        c.sock.settimeout(max(0.1, end - time.time()))
        chunk = r.read1(4096)
        assert chunk, buf
        buf += chunk.decode()
    c.close()
    return buf


def _no_secret(s, g, token, dealt):
    """Every reply of the game a phone can get: no seed, nothing of a turn not dealt."""
    gid = g["id"]
    texts = {}
    texts["state"] = _raw(s, f"{GAMES}/{gid}", token).decode()
    if dealt:  # a game at version 0 has a log without "turns" (not in the contract yet)
        texts["log"] = _raw(s, f"{GAMES}/{gid}/log", token).decode()
    st, hd, seats = s.json("GET", f"/api/v1/join/{g['code']}")
    assert st == 200, seats
    texts["join"] = json.dumps(seats)
    texts["events"] = _events(s, gid, token, json.loads(texts["state"])["version"])
    for name, path in (("pdf", "seats/1/sheet.pdf"), ("pdf-all", "sheets.pdf")):
        pdf = _raw(s, f"{GAMES}/{gid}/{path}", token)
        texts[name] = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                                     check=True).stdout.decode()
    for name, text in texts.items():
        assert str(SEED) not in text, (name, "the seed")
    state = json.loads(texts["state"])
    assert (state["turn"] or {"number": 0})["number"] == dealt, state["turn"]
    log = json.loads(texts.get("log", '{"events": []}'))
    reveals = [e for e in log["events"] if e["kind"] == "reveal"]
    assert [e["turn"] for e in reveals] == list(range(1, dealt + 1)), reveals
    assert texts["events"].count("event: reveal") == max(dealt - 1, 0), texts["events"]
    assert f'"kind":"reveal","seat":1,"turn":{dealt + 1}' not in texts["events"]
    return state


def _play(s, g, check_every=6, policy=lowest_die_policy):
    """Plays game g to the end (its human seat with the lowest die, ALICAT by itself); returns
    the (card, dice) of every turn as dealt. Every check_every turns (and before the first
    reveal) checks every reply for secrets."""
    gid, tok = g["id"], g["seats"][0]["seat_token"]
    draws = []
    _no_secret(s, g, tok, 0)
    while True:
        st, hd, cur = s.json("GET", f"{GAMES}/{gid}", token=tok)
        if cur["status"] == "finished":
            return draws, cur
        if cur["next"]["action"] == "reveal":
            st, hd, cur = s.json("POST", f"{GAMES}/{gid}/turns", {}, token=tok)
            assert st == 200, cur
        t = cur["turn"]
        if not draws or draws[-1][0] != t["number"]:
            draws.append((t["number"], t["card"], t["dice"]))
            if t["number"] % check_every == 0:
                _no_secret(s, g, tok, t["number"])
        if 1 in cur["next"].get("seats", []):
            m = policy(s, seat_of(cur, 1)["sheet"], turn_for(cur, 1))
            st, hd, cur = s.json("POST", f"{GAMES}/{gid}/seats/1/moves",
                                 {"turn": t["number"], "move": m}, token=tok)
            assert st == 200, cur


def test_challenge_same_draw_secret_once_closed_once():
    db = _db()
    with Server(database=db) as s:
        lid, ann, bea, cid = _league(s)
        ch = _challenge(ann, lid)
        cid_ = ch["id"]
        assert ch["status"] == "open" and ch["standings"] == [] and ch["best"] is None, ch
        assert "seed" not in ch and ch["specialists"]["radiologist"], ch
        base = f"/api/v1/leagues/{lid}/challenges/{cid_}"
        # a member, not an owner, cannot create or close one
        st, hd, o = bea.post(f"/api/v1/leagues/{lid}/challenges", {"name": "x", "closes": "2099-01-01T00:00:00Z"})
        problem(st, hd, o, 403, "not-owner")
        st, hd, o = bea.post(base + "/close")
        problem(st, hd, o, 403, "not-owner")
        st, hd, o = Client(s).get(base)
        problem(st, hd, o, 401)
        games, results = {}, {}
        for name, c in (("Ann", ann), ("Bea", bea), ("Cid", cid)):
            st, hd, g = c.post(base + "/games")
            assert st == 201, (st, g)
            assert "seed" not in g and str(SEED) not in json.dumps(g), g
            assert g["specialists"] == ch["specialists"] and g["deck"] == "app", g
            assert [x["name"] for x in g["seats"]] == [name, "ALICAT"], g
            games[name] = g
            # the board: who plays, no game of anyone, no sheet, no seed
            st, hd, b = c.get(base)
            assert st == 200 and str(SEED) not in json.dumps(b), b
            assert b["you"]["game"] == g["id"] and b["you"]["status"] == "playing", b
            assert all("game" not in e and "sheet" not in e for e in b["standings"]), b
            # one game each
            st, hd, o = c.post(base + "/games")
            problem(st, hd, o, 409, "challenge-already-played")
        # three ways of playing (seeded: deterministic), so that the scores differ
        policies = {"Ann": lowest_die_policy, "Bea": random_policy(random.Random(1)),
                    "Cid": random_policy(random.Random(7))}
        for name in ("Ann", "Bea", "Cid"):
            draws, final = _play(s, games[name], check_every=6 if name == "Ann" else 100,
                                 policy=policies[name])
            results[name] = (draws, final)
            st, hd, b = cid.get(base)
            done = [e for e in b["standings"] if e["status"] == "finished"]
            assert name in [e["name"] for e in done], b
            scores = [e["score"] for e in done]
            assert scores == sorted(scores, reverse=True), b
            assert all("sheet" not in e and "game" not in e for e in b["standings"]), b
            assert b["best"] is None and "seed" not in b, b
        # the same cards and dice, turn by turn, for everyone
        assert results["Ann"][0] == results["Bea"][0] == results["Cid"][0], results
        assert len(results["Ann"][0]) == 24
        # two closes at once: both answered, one play
        out = []
        def close():
            out.append(ann.post(base + "/close"))
        th = [threading.Thread(target=close) for _ in range(2)]
        [t.start() for t in th]
        [t.join() for t in th]
        assert [o[0] for o in out] == [200, 200], out
        st, hd, b = ann.post(base + "/close")  # and a third, later
        assert st == 200 and b["status"] == "closed", b
        plays = [p for p in _sql(db, f"SELECT id FROM plays WHERE league_id = '{lid}'")]
        assert len(plays) == 1, plays
        assert b["play"] == plays[0][0], b
        st, hd, p = ann.get(f"/api/v1/leagues/{lid}/plays/{b['play']}")
        assert st == 200, p
        want = sorted(((seat_of(results[n][1], 1)["score"]["total"], n) for n in results), reverse=True)
        got = sorted(((r["score"], r["name"]) for r in p["results"]), reverse=True)
        assert got == [(float(sc), n) for sc, n in want] or got == want, (got, want)
        best_score = want[0][0]
        for r in p["results"]:
            assert (r["rank"] == 1) == (r["score"] == best_score), p
        # rated as any free-for-all: everyone has a rating from that one play
        st, hd, sd = ann.get(f"/api/v1/leagues/{lid}/standings")
        rows = {r["name"]: r for r in sd["standings"]}
        assert all(rows[n]["games"] == 1 for n in results), sd
        assert len({round(rows[n]["rating"]["mu"], 6) for n in results}) > 1, sd
        # the play goes out with the league's files like any other
        for f in ("export.json", "export.csv", "backup.json"):
            st, hd, o = ann.get(f"/api/v1/leagues/{lid}/{f}")
            text = o.decode() if isinstance(o, bytes) else o if isinstance(o, str) else json.dumps(o)
            assert st == 200 and "Friday draw" in text, (f, st)
        # once closed: every sheet, the seed, the best game with a read token of it
        assert b["seed"] == str(SEED), b
        assert all("sheet" in e and "game" in e for e in b["standings"]), b
        top = b["standings"][0]
        assert b["best"]["game"] == top["game"] and b["best"]["seat"] == 1, b
        st, hd, g = s.json("GET", b["best"]["game_url"], token=b["best"]["token"])
        assert st == 200 and g["seats"][0]["score"]["total"] == top["score"], g
        st, hd, o = s.json("POST", f"{GAMES}/{top['game']}/turns", {}, token=b["best"]["token"])
        problem(st, hd, o, 403, "display-read-only")
        # the coach's best sheet for the draw, read with that token (the board's analysis_url)
        st, hd, a = searched_json(s, b["best"]["analysis_url"], b["best"]["token"])
        assert st == 200, (st, a)
        assert a["player"]["total"] == top["score"] and a["best"]["total"] >= top["score"], a
        # closed: no more attempts; the league page's list says so
        st, hd, o = Client(s).post(f"/api/v1/challenges/{b['code']}/games", {"name": "Late"})
        problem(st, hd, o, 409, "challenge-closed")
        st, hd, lst = bea.get(f"/api/v1/leagues/{lid}/challenges")
        assert st == 200 and lst["challenges"][0]["status"] == "closed", lst
        assert lst["challenges"][0]["finished"] == 3, lst


def test_challenge_windows_guests_and_close_by_time():
    db = _db()
    with Server(database=db) as s:
        lid, ann, bea, cid = _league(s)
        # not open yet
        later = _challenge(ann, lid, name="Later", opens="2098-01-01T00:00:00Z")
        assert later["status"] == "upcoming", later
        st, hd, o = bea.post(f"/api/v1/leagues/{lid}/challenges/{later['id']}/games")
        problem(st, hd, o, 409, "challenge-not-open")
        # bad windows and bodies
        _challenge(ann, lid, expect=400, closes="2001-01-01T00:00:00Z")
        _challenge(ann, lid, expect=400, closes="tomorrow")
        _challenge(ann, lid, expect=400, colour="red")
        _challenge(ann, lid, expect=400, name=" ")
        _challenge(ann, lid, expect=400, seed=2 ** 60)
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/challenges",
                             {"name": "x", "closes": "2099-01-01T00:00:00Z", "alicat_modifiers": ["capacity"]})
        problem(st, hd, o, 422, "modifiers-solo-only")
        # plain solo, specialists drawn from a server-drawn seed
        ch = _challenge(ann, lid, name="Plain", solo=False, alicat_modifiers=[], seed=None)
        code = ch["code"]
        # a guest by the link: the board without the code, a game as a guest member
        anon = Client(s)
        st, hd, b = anon.get(f"/api/v1/challenges/{code}")
        assert st == 200 and "code" not in b and b["you"] is None and b["league_name"] == "Challengers", b
        st, hd, g = anon.post(f"/api/v1/challenges/{code}/games", {"name": "Dot"})
        assert st == 201 and [x["name"] for x in g["seats"]] == ["Dot"] and "seed" not in g, g
        st, hd, o = anon.post(f"/api/v1/challenges/{code}/games", {"name": "dot"})
        problem(st, hd, o, 409, "challenge-already-played")
        st, hd, o = anon.post(f"/api/v1/challenges/{code}/games", {"name": "Bea"})
        problem(st, hd, o, 409, "member-exists")
        for bad in ({}, {"name": "  \u200b "}, {"name": "Dot", "seat": 1}):
            st, hd, o = anon.post(f"/api/v1/challenges/{code}/games", bad)
            problem(st, hd, o, 400, field="/name" if "seat" not in bad else None)
        st, hd, o = anon.get("/api/v1/challenges/nosuchcode")
        problem(st, hd, o, 404)
        st, hd, lg = ann.get(f"/api/v1/leagues/{lid}")
        assert "Dot" in [m["name"] for m in lg["members"]], lg
        draws, final = _play(s, g, check_every=8)
        st, hd, bg = bea.post(f"/api/v1/leagues/{lid}/challenges/{ch['id']}/games")
        assert st == 201, bg
        # the coach does not analyse a game under way: that would tell the draw to come
        st, hd, o = s.json("GET", f"{GAMES}/{bg['id']}/seats/1/analysis", token=bg["seats"][0]["seat_token"])
        problem(st, hd, o, 409, "game-not-finished")
        # Bea does not finish; the challenge closes by its time, on the next read
        _sql(db, f"UPDATE er_challenges SET opens = now() - interval '2 hours', "
                 f"closes = now() WHERE id = '{ch['id']}'")
        st, hd, b = anon.get(f"/api/v1/challenges/{code}")
        assert st == 200 and b["status"] == "closed" and b["play"], b
        assert [(e["name"], e["status"]) for e in b["standings"]] == [("Dot", "finished"), ("Bea", "unfinished")], b
        st, hd, p = ann.get(f"/api/v1/leagues/{lid}/plays/{b['play']}")
        assert [r["name"] for r in p["results"]] == ["Dot"], p
        assert len(_sql(db, f"SELECT id FROM plays WHERE league_id = '{lid}'")) == 1
        # no game once closed; Bea's unfinished one may go on, and counts for nothing
        st, hd, o = bea.post(f"/api/v1/leagues/{lid}/challenges/{ch['id']}/games")
        problem(st, hd, o, 409, "challenge-closed")
        _play(s, bg, check_every=100)
        st, hd, b2 = bea.get(f"/api/v1/leagues/{lid}/challenges/{ch['id']}")
        assert [(e["name"], e["status"]) for e in b2["standings"]] == [("Dot", "finished"), ("Bea", "unfinished")], b2
        st, hd, p2 = ann.get(f"/api/v1/leagues/{lid}/plays/{b['play']}")
        assert p2["results"] == p["results"], p2
        # the league's list closes what is due too; a challenge nobody finished records no play
        _sql(db, f"UPDATE er_challenges SET opens = now() - interval '3 hours', "
                 f"closes = now() - interval '1 hour' WHERE id = '{later['id']}'")
        st, hd, lst = cid.get(f"/api/v1/leagues/{lid}/challenges")
        assert {c["name"]: c["status"] for c in lst["challenges"]} == {"Plain": "closed", "Later": "closed"}, lst
        st, hd, bl = cid.get(f"/api/v1/leagues/{lid}/challenges/{later['id']}")
        assert bl["play"] is None and bl["best"] is None and bl["standings"] == [], bl
        assert len(_sql(db, f"SELECT id FROM plays WHERE league_id = '{lid}'")) == 1


def test_challenge_closes_by_itself_when_due():
    """A challenge past its closing time becomes its league play even when nobody reads its
    board: the server's closer looks every CHALLENGE_CLOSE_PERIOD_MS (src/leagues/challclose.c)."""
    db = _db()
    with Server(database=db, env={"CHALLENGE_CLOSE_PERIOD_MS": "100"}) as s:
        lid, ann, bea, cid = _league(s)
        ch = _challenge(ann, lid, name="Unread")
        st, hd, g = bea.post(f"/api/v1/leagues/{lid}/challenges/{ch['id']}/games")
        assert st == 201, g
        _play(s, g, check_every=100)
        assert _sql(db, f"SELECT count(*) FROM plays WHERE league_id = '{lid}'") == [["0"]]
        _sql(db, f"UPDATE er_challenges SET opens = now() - interval '2 hours', "
                 f"closes = now() WHERE id = '{ch['id']}'")
        # read the database only: no request of ours closes it on the way
        for _ in range(300):
            rows = _sql(db, f"SELECT coalesce(play_id, '') FROM er_challenges WHERE id = '{ch['id']}' "
                            f"AND closed_at IS NOT NULL")
            if rows:
                break
            time.sleep(0.05)
        assert rows and rows[0][0], rows
        play = rows[0][0]
        assert _sql(db, f"SELECT id FROM plays WHERE league_id = '{lid}'") == [[play]]
        assert _sql(db, f"SELECT counted FROM er_challenge_games WHERE challenge_id = '{ch['id']}'") == [["t"]]
        st, hd, p = ann.get(f"/api/v1/leagues/{lid}/plays/{play}")
        assert st == 200 and [r["name"] for r in p["results"]] == ["Bea"], p


def test_challenge_guests_rate_limited_429():
    """A challenge's link makes guests: each client address gets 20, then one every 3 s (429
    with Retry-After), so a leaked link cannot fill the league with guests; the board by the
    link stays readable."""
    with Server(database=_db()) as s:
        lid, ann, bea, cid = _league(s)
        code = _challenge(ann, lid, name="Open door")["code"]
        anon = Client(s)
        made, t0 = 0, time.monotonic()
        for i in range(40):
            st, hd, o = anon.post(f"/api/v1/challenges/{code}/games", {"name": f"Guest {i}"})
            if st == 429:
                problem(st, hd, o, 429)
                assert int(hd["retry-after"]) >= 1, hd
                break
            assert st == 201, (st, o)
            made += 1
        extra = int((time.monotonic() - t0) / 3)
        assert 20 <= made <= 20 + extra, made
        st, hd, b = anon.get(f"/api/v1/challenges/{code}")
        assert st == 200 and len(b["standings"]) == made, b
