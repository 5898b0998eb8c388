"""Consent (api.md "Conventions", src/leagues/README.md "Invitations, claims and merges"):
an account joins a league or becomes a co-owner only by accepting an owner's invitation; a
guest's history becomes a member's only when an owner approves the member's claim; and every
merge of two members can be undone, the standings and ratings then exactly as before."""
from harness import Server, make_database, problem
from league_util import claim, invite, join, new_league, user


def _league(owner, guests=("Bea", "Cid")):
    lg, ids = new_league(owner, "Consent club", guests)
    return lg["id"], ids


def _play(c, lid, results, date, game="Azul"):
    st, hd, p = c.post(f"/api/v1/leagues/{lid}/plays", {"game": game, "date": date, "results": results})
    assert st == 201, (st, p)
    return p


def test_invitation_to_join_accept_and_decline():
    with Server(database=make_database("h_consent_inv")) as s:
        ann = user(s, "ann@example.org", "Ann")
        bob = user(s, "bob@example.org", "Bob")
        eve = user(s, "eve@example.org", "Eve")
        lid, ids = _league(ann)
        base = f"/api/v1/leagues/{lid}"
        st, hd, o = ann.post(f"{base}/members", {"name": "Bob", "account": "BOB@example.org"})
        assert st == 202 and o["account"] == bob.account["id"] and o["role"] == "member", o
        assert o["name"] == "Bob" and o["member"] is None, o
        inv = o["invitation"]
        # asked again: the same invitation stands
        st, hd, o = ann.post(f"{base}/members", {"name": "Bob", "account": "bob@example.org"})
        assert st == 202 and o["invitation"] == inv, o
        # pending: Bob is no member yet, and nobody has an entry named Bob
        st, hd, o = bob.get(base)
        problem(st, hd, o, 403, rule="not-member")
        st, hd, lg = ann.get(base)
        assert "Bob" not in [m["name"] for m in lg["members"]], lg
        st, hd, o = ann.get(f"{base}/invitations")
        assert st == 200 and [(x["id"], x["account"]["email"], x["role"]) for x in o["invitations"]] == [(inv, "bob@example.org", "member")], o
        st, hd, o = bob.get("/api/v1/invitations")
        assert st == 200 and len(o["invitations"]) == 1, o
        x = o["invitations"][0]
        assert x["id"] == inv and x["league"] == {"id": lid, "name": "Consent club"} and x["invited_by"] == "Ann", x
        st, hd, o = eve.get("/api/v1/invitations")
        assert st == 200 and o["invitations"] == [], o
        # only its account answers it
        st, hd, o = eve.post(f"/api/v1/invitations/{inv}/accept")
        problem(st, hd, o, 403, rule="not-your-invitation")
        st, hd, o = eve.post(f"/api/v1/invitations/{inv}/decline")
        problem(st, hd, o, 403, rule="not-your-invitation")
        st, hd, o = ann.post(f"/api/v1/invitations/{inv}/accept")
        problem(st, hd, o, 403, rule="not-your-invitation")
        st, hd, o = bob.post(f"/api/v1/invitations/{inv}/accept", origin=False)
        problem(st, hd, o, 403, rule="origin-mismatch")
        st, hd, o = bob.post(f"/api/v1/invitations/{inv}/accept", {"yes": True})
        problem(st, hd, o, 400, field="/yes")
        st, hd, o = bob.post("/api/v1/invitations/nope/accept")
        problem(st, hd, o, 404)
        # accepted: Bob is a member under the invited name
        st, hd, o = bob.post(f"/api/v1/invitations/{inv}/accept")
        assert st == 200 and o["league"] == lid and o["role"] == "member" and o["member"], o
        st, hd, lg = bob.get(base)
        assert st == 200 and lg["you"]["member"] == o["member"] and not lg["you"]["owner"], lg
        assert {"id": o["member"], "name": "Bob"}.items() <= next(m for m in lg["members"] if m["id"] == o["member"]).items()
        st, hd, o = bob.post(f"/api/v1/invitations/{inv}/accept")
        problem(st, hd, o, 404)
        st, hd, o = bob.get("/api/v1/invitations")
        assert o["invitations"] == [], o
        # a member already: no second invitation
        st, hd, o = ann.post(f"{base}/members", {"name": "Bobby", "account": "bob@example.org"})
        problem(st, hd, o, 409, rule="member-exists", field="/account")
        # declined: nothing changes; withdrawn by an owner: gone
        st, hd, o = ann.post(f"{base}/members", {"name": "Eve", "account": "eve@example.org"})
        assert st == 202, o
        st, hd, d = eve.post(f"/api/v1/invitations/{o['invitation']}/decline")
        assert st == 204, d
        st, hd, o2 = eve.get(base)
        problem(st, hd, o2, 403, rule="not-member")
        st, hd, o = ann.post(f"{base}/members", {"name": "Eve", "account": "eve@example.org"})
        assert st == 202, o
        st, hd, d = bob.delete(f"{base}/invitations/{o['invitation']}")
        problem(st, hd, d, 403, rule="not-owner")
        st, hd, d = ann.delete(f"{base}/invitations/{o['invitation']}")
        assert st == 204, d
        st, hd, o = eve.get("/api/v1/invitations")
        assert o["invitations"] == [], o
        # a member may not invite; nor may an owner invite a name that is taken
        st, hd, o = bob.post(f"{base}/members", {"name": "Eve", "account": "eve@example.org"})
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, o = ann.post(f"{base}/members", {"name": "bea", "account": "eve@example.org"})
        problem(st, hd, o, 409, rule="member-exists", field="/name")


def test_invitation_to_take_a_guest_over():
    with Server(database=make_database("h_consent_guest")) as s:
        ann = user(s, "ann@example.org", "Ann")
        cid = user(s, "cid@example.org", "Cid S.")
        lid, ids = _league(ann)
        _play(ann, lid, [{"player": ids["Ann"], "score": 3}, {"player": ids["Cid"], "score": 5}], "2026-03-01")
        path = f"/api/v1/leagues/{lid}/members/{ids['Cid']}"
        st, hd, o = ann.call("PATCH", path, {"account": "cid@example.org"})
        assert st == 200 and o["guest"] and o["account"] is None and o["invitation"], o
        st, hd, o2 = cid.get(f"/api/v1/leagues/{lid}")
        problem(st, hd, o2, 403, rule="not-member")
        st, hd, lst = cid.get("/api/v1/invitations")
        assert [(x["name"], x["member"]) for x in lst["invitations"]] == [("Cid", ids["Cid"])], lst
        st, hd, r = cid.post(f"/api/v1/invitations/{o['invitation']}/accept")
        assert st == 200 and r["member"] == ids["Cid"], r
        st, hd, lg = cid.get(f"/api/v1/leagues/{lid}")
        assert lg["you"]["member"] == ids["Cid"], lg
        st, hd, o = ann.call("PATCH", path, {"account": "ann@example.org"})
        problem(st, hd, o, 409, rule="not-a-guest", field="/account")


def test_invitation_to_co_own():
    with Server(database=make_database("h_consent_owner")) as s:
        ann = user(s, "ann@example.org", "Ann")
        bob = user(s, "bob@example.org", "Bob")
        eve = user(s, "eve@example.org", "Eve")
        lid, ids = _league(ann)
        base = f"/api/v1/leagues/{lid}"
        join(ann, lid, bob, "Bob")
        st, hd, o = ann.post(f"{base}/owners", {"account": "bob@example.org"})
        assert st == 202 and o["role"] == "owner" and o["name"] is None, o
        st, hd, lg = bob.get(base)
        assert not lg["you"]["owner"] and [x["account"] for x in lg["owners"]] == [ann.account["id"]], lg
        st, hd, d = bob.post(f"{base}/seasons", {"name": "S", "starts": "2026-01-01", "ends": "2026-02-01"})
        problem(st, hd, d, 403, rule="not-owner")
        st, hd, d = eve.post(f"/api/v1/invitations/{o['invitation']}/accept")
        problem(st, hd, d, 403, rule="not-your-invitation")
        st, hd, r = bob.post(f"/api/v1/invitations/{o['invitation']}/accept")
        assert st == 200 and r == {"league": lid, "role": "owner", "member": None}, r
        st, hd, lg = bob.get(base)
        assert lg["you"]["owner"], lg
        st, hd, o = ann.post(f"{base}/owners", {"account": "bob@example.org"})
        problem(st, hd, o, 409, rule="already-owner", field="/account")
        st, hd, o = ann.post(f"{base}/owners", {"account": "nobody@example.org"})
        problem(st, hd, o, 422, rule="unknown-account", field="/account")
        # an owner without a member entry: Eve co-owns, and reads the league
        invite(ann, lid, eve)
        st, hd, lg = eve.get(base)
        assert st == 200 and lg["you"]["owner"] and not lg["you"]["member"], lg


def test_claim_request_approve_and_refuse():
    with Server(database=make_database("h_consent_claim")) as s:
        ann = user(s, "ann@example.org", "Ann")
        bob = user(s, "bob@example.org", "Bob")
        cid = user(s, "cid@example.org", "Cid")
        lid, ids = _league(ann, guests=("Bea", "Old Bob", "Zed"))
        base = f"/api/v1/leagues/{lid}"
        bob_id = join(ann, lid, bob, "Bob")["id"]
        _play(ann, lid, [{"player": ids["Ann"], "score": 3}, {"player": ids["Old Bob"], "score": 5}], "2026-03-01")
        _play(ann, lid, [{"player": ids["Bea"], "score": 4}, {"player": bob_id, "score": 2}], "2026-03-02")
        st, hd, before = ann.get(f"{base}/standings")
        # Bob claims "Old Bob": pending, nothing moves
        st, hd, c = bob.post(f"{base}/members/{ids['Old Bob']}/link")
        assert st == 202 and c["guest"] == ids["Old Bob"] and c["account"] == bob.account["id"], c
        st, hd, again = bob.post(f"{base}/members/{ids['Old Bob']}/link")
        assert st == 202 and again["claim"] == c["claim"], again
        st, hd, now = ann.get(f"{base}/standings")
        assert now["standings"] == before["standings"], "a claim moves nothing"
        st, hd, o = ann.get(f"{base}/claims")
        assert st == 200 and len(o["claims"]) == 1, o
        x = o["claims"][0]
        assert x["guest"] == {"id": ids["Old Bob"], "name": "Old Bob", "plays": 1}, x
        assert x["account"]["id"] == bob.account["id"] and x["member"] == {"id": bob_id, "name": "Bob"}, x
        st, hd, o = bob.get(f"{base}/claims")
        assert [y["id"] for y in o["claims"]] == [c["claim"]], o
        # a member cannot approve, nor refuse another's claim
        st, hd, o = bob.post(f"{base}/claims/{c['claim']}/approve")
        problem(st, hd, o, 403, rule="not-owner")
        cid_id = join(ann, lid, cid, "Cid")["id"]
        st, hd, o = cid.delete(f"{base}/claims/{c['claim']}")
        problem(st, hd, o, 403, rule="not-owner")
        st, hd, o = cid.get(f"{base}/claims")
        assert o["claims"] == [], o
        # Bob and Bea sat in one play: Bob cannot claim her
        st, hd, o = bob.post(f"{base}/members/{ids['Bea']}/link")
        problem(st, hd, o, 409, rule="same-play")
        st, hd, o = bob.post(f"{base}/members/{cid_id}/link")
        problem(st, hd, o, 409, rule="not-a-guest")
        st, hd, o = bob.post(f"{base}/members/nope/link")
        problem(st, hd, o, 404)
        # approved: Old Bob's play is Bob's, the merge kept
        st, hd, o = ann.post(f"{base}/claims/{c['claim']}/approve")
        assert st == 200 and o["id"] == bob_id and o["merged"] == ids["Old Bob"] and o["merge"], o
        st, hd, lg = ann.get(base)
        m = {y["name"]: y for y in lg["members"]}
        assert "Old Bob" not in m and m["Bob"]["plays"] == 2, m
        st, hd, o = ann.get(f"{base}/claims")
        assert o["claims"] == [], o
        st, hd, o = ann.post(f"{base}/claims/{c['claim']}/approve")
        problem(st, hd, o, 404)
        # refused: Cid's claim of Zed goes, Zed stays a guest; withdrawn by its author too
        st, hd, c2 = cid.post(f"{base}/members/{ids['Zed']}/link")
        assert st == 202, c2
        st, hd, o = ann.delete(f"{base}/claims/{c2['claim']}")
        assert st == 204, o
        st, hd, lg = ann.get(base)
        assert next(y for y in lg["members"] if y["id"] == ids["Zed"])["guest"], lg
        st, hd, c3 = cid.post(f"{base}/members/{ids['Zed']}/link")
        st, hd, o = cid.delete(f"{base}/claims/{c3['claim']}")
        assert st == 204, o
        st, hd, o = cid.delete(f"{base}/claims/{c3['claim']}")
        problem(st, hd, o, 404)


def test_claim_without_an_entry_links_the_guest():
    with Server(database=make_database("h_consent_link")) as s:
        ann = user(s, "ann@example.org", "Ann")
        eve = user(s, "eve@example.org", "Eve")
        lid, ids = _league(ann)
        base = f"/api/v1/leagues/{lid}"
        invite(ann, lid, eve)  # a co-owner without a member entry
        o = claim(eve, ann, lid, ids["Cid"])
        assert o == {"id": ids["Cid"], "account": eve.account["id"], "merged": None, "merge": None}, o
        st, hd, lg = eve.get(base)
        assert lg["you"]["member"] == ids["Cid"], lg


def _snapshot(c, lid, members):
    """Everything a merge and its undo touch, as the API shows it."""
    base = f"/api/v1/leagues/{lid}"
    out = {}
    for path in ("standings", "head-to-head", "standings?game=Azul", "plays?limit=500"):
        st, hd, o = c.get(f"{base}/{path}")
        assert st == 200, (path, o)
        out[path] = o
    for m in members:
        st, hd, o = c.get(f"/api/v1/players/{m}/history?limit=500")
        assert st == 200, (m, o)
        out[m] = o
    st, hd, lg = c.get(base)
    out["members"] = sorted((m["id"], m["name"], m["account"], m["plays"]) for m in lg["members"])
    return out


def test_merge_undo_restores_the_league():
    with Server(database=make_database("h_consent_undo")) as s:
        ann = user(s, "ann@example.org", "Ann")
        cid = user(s, "cid@example.org", "Cid")
        lid, ids = _league(ann, guests=("Bea", "Beatrice", "Dot", "Cy"))
        base = f"/api/v1/leagues/{lid}"
        cid_id = join(ann, lid, cid, "Cid")["id"]
        dan = user(s, "dan@example.org", "Dan")
        dan_id = join(ann, lid, dan, "Dan")["id"]  # no plays yet
        A, B, T, D, C = ids["Ann"], ids["Bea"], ids["Beatrice"], ids["Dot"], cid_id
        for k, (x, y, z) in enumerate([(A, B, D), (T, A, C), (B, D, C), (T, C, D), (A, B, C), (D, T, A)]):
            _play(ann, lid, [{"player": x, "score": 10 + k}, {"player": y, "score": 7}, {"player": z, "score": 3 + k % 3}],
                  f"2026-03-{k + 1:02d}T20:00:00+01:00", game="Azul" if k % 2 else "Dice Hospital")
        everyone = [A, B, T, D, C, ids["Cy"], dan_id]
        before = _snapshot(ann, lid, everyone)
        # an owner merges Beatrice into Bea: Bea's standing changes …
        st, hd, o = ann.post(f"{base}/members/{T}/merge", {"into": B})
        assert st == 200 and o["merge"], o
        merged = _snapshot(ann, lid, [A, B, D, C])
        assert merged["standings"] != before["standings"]
        st, hd, lst = ann.get(f"{base}/merges")
        assert st == 200 and [(x["id"], x["member"], x["into"]["id"], x["plays"]) for x in lst["merges"]] == [
            (o["merge"], {"id": T, "name": "Beatrice"}, B, 3)], lst
        # … a member may neither list nor undo merges
        st, hd, x = cid.get(f"{base}/merges")
        problem(st, hd, x, 403, rule="not-owner")
        st, hd, x = cid.post(f"{base}/merges/{o['merge']}/undo")
        problem(st, hd, x, 403, rule="not-owner")
        # … and undone: everything as before, Beatrice under her own id
        st, hd, u = ann.post(f"{base}/merges/{o['merge']}/undo")
        assert st == 200 and u == {"id": T, "name": "Beatrice", "into": B}, u
        after = _snapshot(ann, lid, everyone)
        for k in before:
            assert after[k] == before[k], (k, before[k], after[k])
        st, hd, lst = ann.get(f"{base}/merges")
        assert lst["merges"] == [], lst
        st, hd, x = ann.post(f"{base}/merges/{o['merge']}/undo")
        problem(st, hd, x, 404)
        # an account goes with its results, and comes back with the undo
        st, hd, o = ann.post(f"{base}/members/{C}/merge", {"into": ids["Cy"]})
        assert st == 200, o
        st, hd, lg = cid.get(base)
        assert lg["you"]["member"] == ids["Cy"], lg
        st, hd, u = ann.post(f"{base}/merges/{o['merge']}/undo")
        assert st == 200 and u["id"] == C, u
        st, hd, lg = cid.get(base)
        assert lg["you"]["member"] == C, lg
        assert _snapshot(ann, lid, everyone) == before
        # an approved claim's merge is undone the same way; a name taken meanwhile refuses it
        o = claim(dan, ann, lid, D)
        assert o["id"] == dan_id and o["merged"] == D, o
        st, hd, r = ann.call("PATCH", f"{base}/members/{B}", {"name": "Dot"})
        assert st == 200, r
        st, hd, x = ann.post(f"{base}/merges/{o['merge']}/undo")
        problem(st, hd, x, 409, rule="member-exists")
        st, hd, r = ann.call("PATCH", f"{base}/members/{B}", {"name": "Bea"})
        st, hd, x = ann.post(f"{base}/merges/{o['merge']}/undo")
        assert st == 200 and x["id"] == D, x
        assert _snapshot(ann, lid, everyone) == before
