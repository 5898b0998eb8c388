"""League reads keep the session and league check of a session for a moment
(src/accounts/passes.c): a write request of the same server drops what is kept at once, a change
made elsewhere (another process, by hand) reaches league reads within a second."""
import subprocess, time

from harness import Server, make_database
from league_util import join, user

DB = "h_league_passes"


def _sql(query):
    subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-d", DB], input=query, check=True,
                   capture_output=True, text=True)


def _league_with_bob(s):
    ann = user(s, "ann@example.org", "Ann")
    bob = user(s, "bob@example.org", "Bob")
    st, hd, lg = ann.post("/api/v1/leagues", {"name": "Tuesdays"})
    assert st == 201, lg
    lid = lg["id"]
    m = join(ann, lid, bob, "Bob")
    return ann, bob, lid, m["id"]


def test_log_out_ends_league_reads_at_once():
    with Server(database=make_database(DB)) as s:
        ann, bob, lid, _ = _league_with_bob(s)
        for _ in range(3):  # kept after the first
            st, hd, o = bob.get(f"/api/v1/leagues/{lid}/standings")
            assert st == 200, o
        token = bob.cookie
        st, hd, o = bob.delete("/api/v1/sessions/current")
        assert st in (200, 204), o
        bob.cookie = token  # the ended session's cookie, sent again at once
        st, hd, o = bob.get(f"/api/v1/leagues/{lid}/standings")
        assert st == 401 and o["rule"] == "no-session", (st, o)


def test_a_member_removed_loses_the_league_at_once():
    with Server(database=make_database(DB)) as s:
        ann, bob, lid, mid = _league_with_bob(s)
        for c in (ann, bob):
            for path in (f"/api/v1/leagues/{lid}/standings", f"/api/v1/players/{mid}/history"):
                st, hd, o = c.get(path)
                assert st == 200, (path, o)
        st, hd, o = ann.delete(f"/api/v1/leagues/{lid}/members/{mid}")
        assert st in (200, 204), o
        st, hd, o = bob.get(f"/api/v1/leagues/{lid}/standings")
        assert st == 403 and o["rule"] == "not-member", (st, o)
        st, hd, o = bob.get(f"/api/v1/players/{mid}/history")
        assert st == 403 and o["rule"] == "not-member", (st, o)
        st, hd, o = ann.get(f"/api/v1/players/{mid}/history")  # kept by the owner's reads too
        assert st == 404, (st, o)


def test_a_renamed_player_is_named_anew_in_the_history_at_once():
    with Server(database=make_database(DB)) as s:
        ann, bob, lid, mid = _league_with_bob(s)
        st, hd, o = ann.get(f"/api/v1/players/{mid}/history")
        assert st == 200 and o["name"] == "Bob", o
        st, hd, o = ann.call("PATCH", f"/api/v1/leagues/{lid}/members/{mid}", {"name": "Robert"})
        assert st == 200, o
        st, hd, o = ann.get(f"/api/v1/players/{mid}/history")
        assert st == 200 and o["name"] == "Robert", o


def test_access_taken_away_by_hand_reaches_reads_within_a_second():
    with Server(database=make_database(DB)) as s:
        ann, bob, lid, mid = _league_with_bob(s)
        st, hd, o = bob.get(f"/api/v1/leagues/{lid}/standings")
        assert st == 200, o
        _sql(f"UPDATE league_members SET account_id = NULL WHERE id = '{mid}'")
        t0 = time.monotonic()
        while True:
            st, hd, o = bob.get(f"/api/v1/leagues/{lid}/standings")
            if st != 200:
                break
            assert time.monotonic() - t0 < 1.5, "the change was not seen after 1.5 s"
            time.sleep(0.05)
        assert st == 403 and o["rule"] == "not-member", (st, o)
