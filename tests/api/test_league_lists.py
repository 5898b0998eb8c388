"""League lists that grow and conditional reads (api.md "Conventions" and "Leagues and
history"): GET …/plays and GET /players/{id}/history in pages (limit, offset, total, Link
rel="next" keeping the filters; 400 naming the parameter), and ETag and 304 on the league
reads, with every kind of write changing the tag."""
import os, re
from urllib.parse import parse_qs, urlsplit

from harness import Server, make_database, problem
from league_util import claim, invite, join, new_league, user

HERE = os.path.dirname(os.path.abspath(__file__))


def _db():
    return make_database("h_league_lists")


def _league(owner, guests=("Bea", "Cid")):
    lg, ids = new_league(owner, "Lists", guests)
    return lg["id"], ids


def _play(c, lid, game, date, results, **extra):
    body = {"game": game, "date": date, "results": results}
    body.update(extra)
    st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", body)
    assert st == 201, (st, o)
    return o["id"]


def _next(hd):
    """The target of the Link rel="next" header, or None."""
    link = hd.get("link")
    if link is None:
        return None
    m = re.fullmatch(r'<([^>]*)>; rel="next"', link)
    assert m, link
    return m.group(1)


def _pages(c, path, key, limit):
    """Every item of a list by following its Link headers from ?limit=limit; the replies."""
    sep = "&" if "?" in path else "?"
    url, items, replies = f"{path}{sep}limit={limit}", [], []
    for _ in range(100):
        st, hd, o = c.get(url)
        assert st == 200, (url, st, o)
        items += o[key]
        replies.append((hd, o))
        url = _next(hd)
        if url is None:
            return items, replies
    raise AssertionError("more than 100 pages")


def test_plays_in_pages():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann)
        A, B = ids["Ann"], ids["Bea"]
        # 51 plays: the default page (50) leaves one; equal dates keep the order of entry
        made = []
        for i in range(51):
            made.append(_play(ann, lid, "Azul" if i % 3 else "Ark Nova & co",
                              f"2026-01-{1 + i // 2:02d}",
                              [{"player": A, "score": i}, {"player": B, "score": 10}]))
        newest_first = made[::-1]
        base = f"/api/v1/leagues/{lid}/plays"
        st, hd, o = ann.get(base)
        assert st == 200 and o["total"] == 51 and len(o["plays"]) == 50, (o["total"], len(o["plays"]))
        assert [p["id"] for p in o["plays"]] == newest_first[:50]
        nxt = urlsplit(_next(hd))
        assert nxt.path == base and parse_qs(nxt.query) == {"limit": ["50"], "offset": ["50"]}, nxt
        st, hd, o = ann.get(_next(hd))
        assert [p["id"] for p in o["plays"]] == newest_first[50:] and o["total"] == 51
        assert "link" not in hd, hd
        # pages of 17: an exact multiple (51 = 3 × 17) has no Link on its last page
        items, replies = _pages(ann, base, "plays", 17)
        assert [p["id"] for p in items] == newest_first and len(replies) == 3
        assert "link" not in replies[-1][0] and all(o["total"] == 51 for _, o in replies)
        # the largest page takes everything; offset at or past the end: empty, total still
        st, hd, o = ann.get(f"{base}?limit=500")
        assert [p["id"] for p in o["plays"]] == newest_first and "link" not in hd
        for off in (51, 52, 100000):
            st, hd, o = ann.get(f"{base}?limit=10&offset={off}")
            assert st == 200 and o == {"plays": [], "total": 51} and "link" not in hd, (off, o)
        st, hd, o = ann.get(f"{base}?limit=10&offset=50")
        assert [p["id"] for p in o["plays"]] == newest_first[50:] and "link" not in hd
        st, hd, o = ann.get(f"{base}?limit=1&offset=49")
        assert [p["id"] for p in o["plays"]] == [newest_first[49]]
        assert parse_qs(urlsplit(_next(hd)).query) == {"limit": ["1"], "offset": ["50"]}


def test_plays_filters_kept_in_link():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann)
        A, B = ids["Ann"], ids["Bea"]
        odd = "Ark Nova & co/€"
        made = {}
        for i in range(9):
            game = odd if i % 2 else "Azul"
            made.setdefault(game, []).append(
                _play(ann, lid, game, f"2025-{10 + i // 4:02d}-{1 + i:02d}",
                      [{"player": A, "score": i}, {"player": B, "score": 3}]))
        st, hd, season = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                  {"name": "Autumn", "starts": "2025-10-01", "ends": "2025-11-30"})
        assert st == 201
        # game=: case-insensitive, encoded in the Link, followed to the end
        from urllib.parse import quote
        path = f"/api/v1/leagues/{lid}/plays?game={quote(odd.upper(), safe='')}"
        items, replies = _pages(ann, path, "plays", 2)
        assert [p["id"] for p in items] == made[odd][::-1], items
        assert all(p["game"] == odd for p in items) and len(replies) == 2
        link = urlsplit(_next(replies[0][0]))
        assert parse_qs(link.query) == {"limit": ["2"], "offset": ["2"], "game": [odd.upper()]}, link
        assert "&" not in link.query.split("game=", 1)[1], "the game's & is encoded"
        assert replies[0][1]["total"] == 4
        # season= and game= together
        path = f"/api/v1/leagues/{lid}/plays?season={season['id']}&game=azul"
        items, replies = _pages(ann, path, "plays", 1)
        azul_autumn = made["Azul"][:4][::-1]  # plays 0, 2, 4, 6 fall in October–November
        assert [p["id"] for p in items] == azul_autumn, (items, made)
        q = parse_qs(urlsplit(_next(replies[0][0])).query)
        assert q == {"limit": ["1"], "offset": ["1"], "season": [season["id"]], "game": ["azul"]}, q
        st, hd, o = ann.get(f"/api/v1/leagues/{lid}/plays?season=nope")
        problem(st, hd, o, 404)


def test_page_parameters_refused():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann)
        for path in (f"/api/v1/leagues/{lid}/plays", f"/api/v1/players/{ids['Bea']}/history"):
            for bad in ("0", "-1", "501", "1.5", "abc", "", "1e2", "%2B5", "%205", "5%20", "99999999999999"):
                st, hd, o = ann.get(f"{path}?limit={bad}")
                problem(st, hd, o, 400, field="/limit")
            for bad in ("-1", "x", "1.0", "", "1e3", "99999999999999"):
                st, hd, o = ann.get(f"{path}?offset={bad}")
                problem(st, hd, o, 400, field="/offset")
            for good in ("limit=1", "limit=500", "offset=0", "limit=050&offset=7"):
                st, hd, o = ann.get(f"{path}?{good}")
                assert st == 200 and o["total"] == 0, (path, good, o)


def test_history_in_pages_carries_the_rating():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann)
        A, B, C = ids["Ann"], ids["Bea"], ids["Cid"]
        # Bea: an unrated co-operative play first (the starting rating), then rated and
        # co-operative plays interleaved, so page boundaries fall on unrated plays
        plays = [_play(ann, lid, "Pandemic", "2026-01-01",
                       [{"player": A, "winner": True}, {"player": B, "winner": True}],
                       cooperative=True)]
        for i in range(1, 8):
            coop = i % 3 == 0
            res = ([{"player": B, "winner": True}, {"player": C, "winner": True}] if coop else
                   [{"player": A, "score": 10 + i}, {"player": B, "score": 12}, {"player": C, "score": 5}])
            plays.append(_play(ann, lid, "Pandemic" if coop else "Azul", f"2026-01-{1 + i:02d}",
                               res, cooperative=coop))
        path = f"/api/v1/players/{B}/history"
        st, hd, whole = ann.get(f"{path}?limit=500")
        assert st == 200 and whole["total"] == 8 and "link" not in hd
        assert [x["play"] for x in whole["history"]] == plays
        assert not whole["history"][0]["rated"] and whole["history"][0]["rating"]["mu"] == 25
        assert whole["rating"] == whole["history"][-1]["rating"]
        for limit in (1, 2, 3, 4, 8):
            items, replies = _pages(ann, path, "history", limit)
            assert items == whole["history"], limit
            assert all(o["rating"] == whole["rating"] and o["total"] == 8 for _, o in replies)
            assert len(replies) == -(-8 // limit) and "link" not in replies[-1][0]
        # the default page is 50; an offset past the end is empty with the total and rating
        st, hd, o = ann.get(path)
        assert o["history"] == whole["history"] and "link" not in hd
        st, hd, o = ann.get(f"{path}?offset=8")
        assert o["history"] == [] and o["total"] == 8 and o["rating"] == whole["rating"], o
        st, hd, o = ann.get(f"{path}?limit=3&offset=3")
        assert o["history"] == whole["history"][3:6]
        nxt = urlsplit(_next(hd))
        assert nxt.path == path and parse_qs(nxt.query) == {"limit": ["3"], "offset": ["6"]}
        # a member who has not played: empty, rated nothing yet
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Dot"})
        st, hd, o = ann.get(f"/api/v1/players/{o['id']}/history")
        assert o["history"] == [] and o["total"] == 0 and o["rating"]["mu"] == 25, o


def _tagged(c, path):
    st, hd, o = c.get(path)
    assert st == 200, (path, st, o)
    assert hd.get("cache-control") == "private, no-cache", hd
    tag = hd["etag"]
    assert re.fullmatch(r'"[^"]+"', tag), tag
    return tag, o


def _not_modified(c, path, tag, inm=None):
    """A 304 for If-None-Match inm (default: tag itself) with the current tag."""
    st, hd, body = c.get(path, headers={"If-None-Match": inm or tag})
    assert st == 304 and not body, (path, inm or tag, st, body)
    assert hd["etag"] == tag and hd.get("cache-control") == "private, no-cache", hd


def test_etag_and_not_modified():
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        lid, ids = _league(ann)
        A, B = ids["Ann"], ids["Bea"]
        p1 = _play(ann, lid, "Azul", "2026-01-01", [{"player": A, "score": 3}, {"player": B, "score": 5}])
        paths = [f"/api/v1/leagues/{lid}", f"/api/v1/leagues/{lid}/standings",
                 f"/api/v1/leagues/{lid}/standings?game=Azul", f"/api/v1/leagues/{lid}/plays",
                 f"/api/v1/leagues/{lid}/plays?limit=1", f"/api/v1/players/{B}/history",
                 f"/api/v1/players/{B}/history?offset=1"]
        tags = {}
        for path in paths:
            tag, o = _tagged(ann, path)
            tags[path] = tag
            _not_modified(ann, path, tag)
            _not_modified(ann, path, tag, "W/" + tag)               # weak comparison
            _not_modified(ann, path, tag, f'"nope", W/"x", {tag}')  # a list
            _not_modified(ann, path, tag, "*")
            for other in ('"nope"', tag[:-2] + '"', "W/" + tag[:-1] + 'x"'):
                st, hd, o2 = ann.get(path, headers={"If-None-Match": other})
                assert st == 200 and o2 == o and hd["etag"] == tag, (path, other, st)
        assert len(set(tags.values())) == len(paths), "each query has its own tag"
        # the tag of a league read is checked after access: a stranger gets 403, not 304
        eve = user(s, "eve@example.org", "Eve")
        st, hd, o = eve.get(paths[1], headers={"If-None-Match": "*"})
        problem(st, hd, o, 403, rule="not-member")
        # the league itself says who asks: another member's tag differs; the standings do not
        bob = user(s, "bob@example.org", "Bob")
        join(ann, lid, bob, "Bob")
        for path in paths:
            tags[path], _ = _tagged(ann, path)
        st, hd, o = bob.get(paths[0], headers={"If-None-Match": tags[paths[0]]})
        assert st == 200 and o["you"]["member"] and hd["etag"] != tags[paths[0]], (st, o)
        _not_modified(bob, paths[1], tags[paths[1]])
        # read, record a play, read with the old tag: 200 with the new data at once
        st, hd, o = ann.post(f"/api/v1/leagues/{lid}/plays", {
            "game": "Azul", "date": "2026-01-02",
            "results": [{"player": A, "score": 9}, {"player": B, "score": 5}]})
        assert st == 201
        p2 = o["id"]
        st, hd, o = ann.get(paths[3], headers={"If-None-Match": tags[paths[3]]})
        assert st == 200 and [p["id"] for p in o["plays"]] == [p2, p1] and o["total"] == 2, o
        st, hd, o = ann.get(paths[5], headers={"If-None-Match": tags[paths[5]]})
        assert st == 200 and [x["play"] for x in o["history"]] == [p1, p2], o


def test_every_write_changes_the_tags():
    """Each kind of write to a league: the tags read before it no longer match after it, and
    the reply has the change."""
    with Server(database=_db()) as s:
        ann = user(s, "ann@example.org", "Ann")
        bob = user(s, "bob@example.org", "Bob")
        lid, ids = _league(ann)
        A, B, C = ids["Ann"], ids["Bea"], ids["Cid"]
        p1 = _play(ann, lid, "Azul", "2026-01-01", [{"player": A, "score": 3}, {"player": B, "score": 5}])
        reads = {"league": f"/api/v1/leagues/{lid}", "standings": f"/api/v1/leagues/{lid}/standings",
                 "plays": f"/api/v1/leagues/{lid}/plays", "history": f"/api/v1/players/{B}/history"}
        state = {"p2": None, "dot": None}

        def add_play():
            state["p2"] = _play(ann, lid, "Azul", "2026-01-02",
                                [{"player": B, "score": 8}, {"player": C, "score": 1}])

        def edit_play():
            st, hd, o = ann.put(f"/api/v1/leagues/{lid}/plays/{p1}", {
                "game": "Azul", "date": "2026-01-01",
                "results": [{"player": A, "score": 30}, {"player": B, "score": 5}]})
            assert st == 200, o

        def delete_play():
            st, hd, o = ann.delete(f"/api/v1/leagues/{lid}/plays/{state['p2']}")
            assert st == 204, o

        def add_member():
            st, hd, o = ann.post(f"/api/v1/leagues/{lid}/members", {"name": "Dot"})
            assert st == 201, o
            state["dot"] = o["id"]

        def delete_member():
            st, hd, o = ann.delete(f"/api/v1/leagues/{lid}/members/{state['dot']}")
            assert st == 204, o

        def add_season():
            st, hd, o = ann.post(f"/api/v1/leagues/{lid}/seasons",
                                 {"name": "Winter", "starts": "2026-01-01", "ends": "2026-03-31"})
            assert st == 201, o

        def add_owner():
            invite(ann, lid, bob)  # invited, and accepted

        def link_guest():  # Bob, an owner with no member entry, takes over the guest Cid
            o = claim(bob, ann, lid, C)  # claimed, and approved
            assert o["account"] == bob.account["id"], o

        def import_file():
            with open(os.path.join(HERE, "data", "bgstats-sample.json"), "rb") as f:
                body = f.read()
            st, hd, o = ann.call("POST", f"/api/v1/leagues/{lid}/import?format=bgstats", body,
                                 raw=True, headers={"Content-Type": "application/json"})
            assert st == 200 and o["imported"] > 0, o

        def league(o):
            return (len(o["members"]), len(o["seasons"]), len(o["owners"]),
                    [m["account"] for m in o["members"]], o["plays"])

        checks = [  # (write, reads whose content it changes, what to compare)
            (add_play, ["league", "standings", "plays", "history"]),
            (edit_play, ["standings", "plays", "history"]),
            (delete_play, ["league", "standings", "plays", "history"]),
            (add_member, ["league"]),
            (delete_member, ["league"]),
            (add_season, ["league"]),
            (add_owner, ["league"]),
            (link_guest, ["league"]),
            (import_file, ["league", "standings", "plays"]),
        ]
        for write, changed in checks:
            before = {k: _tagged(ann, p) for k, p in reads.items()}
            write()
            for k, path in reads.items():
                tag, old = before[k]
                st, hd, o = ann.get(path, headers={"If-None-Match": tag})
                assert st == 200 and hd["etag"] != tag, (write.__name__, k, st)
                if k in changed:
                    same = league(o) == league(old) if k == "league" else o == old
                    assert not same, (write.__name__, k, "the reply did not change")
                _not_modified(ann, path, hd["etag"])
