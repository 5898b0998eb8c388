"""A BG Stats export read the way published pandas notebooks read one: the file loaded with
json, the seats flattened with json_normalize, the games and players merged in by id. Prints,
by file, one row per seat: play uuid, game name, player name, score as typed, winner.
Usage: python3 export_readers_pandas.py FILE... (run by test_export_readers.py with an
interpreter that has pandas: Debian's python3-pandas)."""
import json, sys

import pandas as pd


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    seats = pd.json_normalize(doc["plays"], record_path="playerScores",
                              meta=["uuid", "gameRefId"], record_prefix="seat.")
    games = pd.DataFrame(doc["games"])[["id", "name"]].rename(
        columns={"id": "gameRefId", "name": "game"})
    players = pd.DataFrame(doc["players"])[["id", "name"]].rename(
        columns={"id": "seat.playerRefId", "name": "player"})
    rows = seats.merge(games, on="gameRefId", how="left").merge(
        players, on="seat.playerRefId", how="left")
    return sorted([str(u), g if isinstance(g, str) else None, p if isinstance(p, str) else None,
                   None if s is None or s != s else str(s), bool(w)]
                  for u, g, p, s, w in zip(rows["uuid"], rows["game"], rows["player"],
                                           rows["seat.score"], rows["seat.winner"]))


json.dump({p: read(p) for p in sys.argv[1:]}, sys.stdout, ensure_ascii=False)
