"""Seeds the leagues benchmark: an account, a league of 20 players, 10,000 plays of 2 to 6 of
them (a BG Stats file, imported in one request), then times: the import, a cold standings and
history (cache empty), and recomputing every rating (an edit of the first play: from the rows
the server kept since the league's last change, and reading the whole league).
usage: python3 tests/bench/leagues_seed.py PORT
(last line printed: cookie league player cold-standings-ms recompute-ms)"""
import http.client, json, random, sys, time

PORT = int(sys.argv[1])
ORIGIN = f"http://127.0.0.1:{PORT}"
cookie = None


def call(method, path, body=None, ctype="application/json", raw=False):
    global cookie
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=600)
    h = {"Origin": ORIGIN}
    if cookie:
        h["Cookie"] = "dh_session=" + cookie
    if body is not None:
        h["Content-Type"] = ctype
        if not raw:
            body = json.dumps(body)
    t0 = time.monotonic()
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    dt = time.monotonic() - t0
    sc = r.getheader("Set-Cookie")
    if sc:
        cookie = sc.split(";")[0].split("=", 1)[1]
    assert 200 <= r.status < 300, (method, path, r.status, data[:300])
    return (json.loads(data) if data else None), dt


call("POST", "/api/v1/accounts", {"email": "bench@example.org", "password": "bench password",
                                  "display_name": "Bench"})
call("POST", "/api/v1/sessions", {"email": "bench@example.org", "password": "bench password"})
lg, _ = call("POST", "/api/v1/leagues", {"name": "Bench league"})
lid = lg["id"]
rng = random.Random(10)
NP, NPLAYS = 20, 10000
players = [{"id": i + 1, "name": f"Player {i + 1:02d}"} for i in range(NP)]
skill = [rng.gauss(0, 10) for _ in range(NP)]
plays = []
t = time.mktime((2020, 1, 1, 19, 0, 0, 0, 0, 0))
for k in range(NPLAYS):
    who = rng.sample(range(NP), rng.randint(2, 6))
    scores = [round(50 + skill[i] + rng.gauss(0, 8)) for i in who]
    best = max(scores)
    t += 3 * 3600
    plays.append({"uuid": f"bench-{k:05d}", "playDate": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)),
                  "durationMin": 30 + k % 60, "gameRefId": 1 + k % 3, "locationRefId": 0,
                  "playerScores": [{"playerRefId": i + 1, "score": str(s), "winner": s == best}
                                   for i, s in zip(who, scores)]})
doc = {"games": [{"id": 1, "name": "Dice Hospital"}, {"id": 2, "name": "Azul"},
                 {"id": 3, "name": "Clinic"}], "players": players, "locations": [], "plays": plays}
body = json.dumps(doc)
res, dt = call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats", body, raw=True)
nres = sum(len(p["playerScores"]) for p in plays)
print(f"import: {res['imported']} plays ({nres} results, {len(body) / 1e6:.1f} MB BG Stats file) in {dt:.2f} s")
st, dt1 = call("GET", f"/api/v1/leagues/{lid}/standings")
member = st["standings"][0]["player"]
_, dt2 = call("GET", f"/api/v1/players/{member}/history?limit=500")
_, dt3 = call("GET", f"/api/v1/leagues/{lid}/standings?game=Azul")
print(f"cold (computed, not cached): standings {dt1 * 1000:.0f} ms, standings?game=Azul {dt3 * 1000:.0f} ms, "
      f"history of {st['standings'][0]['name']} ({st['standings'][0]['games']} plays, a page of 500) "
      f"{dt2 * 1000:.0f} ms")
pl, _ = call("GET", f"/api/v1/leagues/{lid}/plays?limit=1&offset={NPLAYS - 1}")  # the oldest
first = pl["plays"][0]
full, _ = call("GET", f"/api/v1/leagues/{lid}/plays/{first['id']}")
n = len(full["results"])


def edit_first(k):
    """Gives the first play another winner (k: which): every rating after it moves."""
    edit = {"game": full["game"], "date": full["date"], "duration_min": full["duration_min"],
            "results": [{"player": r["player"], "score": 10 + (20 if i == (k + 1) % n else i)}
                        for i, r in enumerate(full["results"])]}
    return call("PUT", f"/api/v1/leagues/{lid}/plays/{first['id']}", edit)[1]


# the server keeps the league's rows between its changes (src/leagues/kept.c): edits in a row
# read only the edited play; a change of something else (a new guest) moves the version past the
# kept rows, and the edit after it reads the whole league
times = sorted(edit_first(k) for k in range(3))
whole = []
for k in range(3):
    call("POST", f"/api/v1/leagues/{lid}/members", {"name": f"Guest {k}"})
    whole.append(edit_first(k + 3))
whole.sort()
print(f"recompute all ratings ({NPLAYS} plays, an edit of the first play that changes its winner, "
      f"whole request): from the kept rows, median {times[1] * 1000:.0f} ms of 3 "
      f"({', '.join(f'{t * 1000:.0f}' for t in times)}); reading the whole league (a new guest "
      f"before each edit), median {whole[1] * 1000:.0f} ms of 3 "
      f"({', '.join(f'{t * 1000:.0f}' for t in whole)})")

ta = []
for k in range(3):  # the usual write: the game just played, after every other play
    who = [players[i]["id"] for i in (k, k + 1, k + 2)]
    st_, _ = call("GET", f"/api/v1/leagues/{lid}")
    ids = {m["name"]: m["id"] for m in st_["members"]}
    res = [{"player": ids[f"Player {i:02d}"], "score": 40 + 5 * j} for j, i in enumerate(who)]
    ta.append(call("POST", f"/api/v1/leagues/{lid}/plays",
                   {"game": "Azul", "date": f"2099-01-0{k + 1}", "results": res})[1])
ta.sort()
print(f"a play recorded after every other (rated from the kept standings), whole request: "
      f"median {ta[1] * 1000:.0f} ms of 3")


def cold(path, n=5):
    """Median time of path with nothing cached: before each, a new guest moves the league's
    version (no play changes, so nothing is recomputed)."""
    ts = []
    for k in range(n):
        call("POST", f"/api/v1/leagues/{lid}/members", {"name": f"Cold {path[-12:]} {k}"})
        ts.append(call("GET", path)[1])
    return sorted(ts)[n // 2]


c_all = cold(f"/api/v1/leagues/{lid}/standings")
c_game = cold(f"/api/v1/leagues/{lid}/standings?game=Azul")
print(f"cold standings (nothing cached, median of 5): {c_all * 1000:.1f} ms; "
      f"standings?game=Azul {c_game * 1000:.1f} ms")
print(cookie, lid, member, f"{max(c_all, c_game) * 1000:.1f}", f"{times[1] * 1000:.0f}")
