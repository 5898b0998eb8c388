"""kill -9 while moves are in flight (api.md "Conventions": a mutation is acknowledged only once
it is stored; engineering.md "Event log": state is the replay of the log): every move that got
a 200 survives a crash, and the restarted server replays every game to the same state."""
import json, os, random, signal, threading, time

from harness import Server, make_database
from games import (GAMES, create, deck, log, move_events, normal_move, random_policy, seat_of,
                   state, tokens, turn_for)

TABLES, SEATS = 6, 4


def _player(s, game, rng, acked, stop, errors):
    """Plays the game as fast as it can; records every acknowledged (200) move."""
    gid, toks, host = game["id"], tokens(game), game["host_token"]
    policy = random_policy(rng)
    plan = deck(rng, game["turns"])
    try:
        cur = state(s, gid, host)
        while not stop.is_set() and cur["status"] == "playing":
            n = cur["next"]
            if n["action"] == "reveal":
                card, dice = plan[n["turn"] - 1]
                st, _, obj = s.json("POST", f"{GAMES}/{gid}/turns",
                                    {"card": card, "dice": dict(zip(("red", "yellow", "green"),
                                                                    dice))}, token=host)
                assert st == 200, (st, obj)
                cur = obj
                continue
            for seat in n["seats"]:
                m = policy(s, seat_of(cur, seat)["sheet"], turn_for(cur, seat))
                st, _, obj = s.json("POST", f"{GAMES}/{gid}/seats/{seat}/moves",
                                    {"turn": n["turn"], "move": m}, token=toks[seat])
                assert st == 200, (st, obj)
                acked.append((gid, seat, n["turn"], m))
                cur = obj
    except (OSError, ConnectionError, json.JSONDecodeError, AssertionError) as e:
        if not stop.is_set():
            errors.append(repr(e))
    except Exception as e:  # http.client.RemoteDisconnected etc. once the server is gone
        if not stop.is_set():
            errors.append(repr(e))


def test_kill9_keeps_acknowledged_moves():
    db = make_database("h_er_durability")
    srv = Server(database=db).start()
    try:
        games = [create(srv, SEATS, deck="table") for _ in range(TABLES)]
        acked, errors, stop = [], [], threading.Event()
        threads = [threading.Thread(target=_player,
                                    args=(srv, g, random.Random(i), acked, stop, errors))
                   for i, g in enumerate(games)]
        for t in threads:
            t.start()
        # killed once the players have had moves acknowledged, with more in flight
        deadline = time.monotonic() + 30
        while len(acked) < 30 and not errors and time.monotonic() < deadline:
            time.sleep(0.02)
        n_before = len(acked)
        stop.set()  # the players stop sending new requests; those in flight stay in flight
        srv.proc.send_signal(signal.SIGKILL)
        srv.proc.wait()
        for t in threads:
            t.join(15)
        assert not errors, errors
        assert n_before >= 30, f"only {n_before} moves acknowledged in 30 s"
    finally:
        srv.stop()
        srv.log.close()
        srv.drop_log()
    with Server(database=db) as s2:
        by_game = {}
        for gid, seat, turn, m in acked:
            by_game.setdefault(gid, []).append((seat, turn, m))
        for g in games:
            gid, host = g["id"], g["host_token"]
            a = state(s2, gid, host)
            b = state(s2, gid, host)
            assert a == b, f"{gid}: two reads of the replayed state differ"
            lg = log(s2, gid, host)
            assert a["version"] == lg["version"] == len(lg["events"]), \
                (gid, a["version"], len(lg["events"]))
            assert [e["version"] for e in lg["events"]] == list(range(1, a["version"] + 1))
            stored = {(e["seat"], e["turn"]): e["payload"]["move"] for e in move_events(lg)}
            assert len(stored) == len(move_events(lg)), "one move per seat and turn (no undo)"
            for seat, turn, m in by_game.get(gid, []):
                assert stored.get((seat, turn)) == normal_move(m), \
                    f"{gid}: acknowledged move of seat {seat} turn {turn} is lost"
                t = a["turn"]
                assert t["number"] > turn or seat in t["moved"] or t["closed"], \
                    (gid, seat, turn, t)
            # the game goes on after the crash: the next action is accepted
            assert a["status"] in ("playing", "finished")
        print(f"  {len(acked)} acknowledged moves in {TABLES} games survived kill -9")
