"""Load generator for ER games through the API: N tables x 4 seats play complete table-deck
games concurrently (reveal by the host, the chief's move first, then the three others).

Open loop (--rate R): moves are sent at scheduled instants t0 + k/R, whatever the server's
speed; a move's latency is measured from its scheduled instant (so queueing delay counts,
no coordinated omission). A move is prepared (its legal options fetched from
/api/v1/er/moves/options) as soon as its table may make it, then waits for the next free slot;
a slot that finds no prepared move is counted as "starved" (the client could not offer the
rate). Reveals are sent as soon as a turn closes and are timed separately.

Closed loop (--rate 0): every table sends its next request as soon as the previous answered:
the maximum sustained moves/s at this concurrency.

Prints one JSON object (the figures) on stdout.
usage: games_load.py --port P [--tables N] [--rate R] [--seed S] [--duration-cap SEC]"""
import argparse, asyncio, json, random, statistics, sys, time

COLOURS = ("red", "yellow", "green")
CARDS = None


class Conn:
    def __init__(self, r, w):
        self.r, self.w = r, w


class Client:
    """A minimal HTTP/1.1 keep-alive client over asyncio streams with a connection pool."""

    def __init__(self, port):
        self.port = port
        self.idle = []
        self.opened = 0

    async def request(self, method, path, body=None, token=None):
        c = self.idle.pop() if self.idle else None
        if c is None:
            r, w = await asyncio.open_connection("127.0.0.1", self.port)
            c = Conn(r, w)
            self.opened += 1
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        c.w.write(head.encode() + b"\r\n" + data)
        status_line = await c.r.readline()
        if not status_line:
            raise ConnectionError("connection closed")
        status = int(status_line.split()[1])
        length, close = 0, False
        while True:
            line = await c.r.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            k, _, v = line.decode().partition(":")
            k = k.strip().lower()
            if k == "content-length":
                length = int(v)
            elif k == "connection" and "close" in v.lower():
                close = True
            elif k == "transfer-encoding":
                raise RuntimeError("chunked replies are not expected here")
        payload = await c.r.readexactly(length) if length else b""
        if close:
            c.w.close()
        else:
            self.idle.append(c)
        return status, json.loads(payload) if payload else None


class Scheduler:
    """Open loop: hands out send instants t0 + k/rate to prepared moves, FIFO."""

    def __init__(self, rate):
        self.rate = rate
        self.waiting = asyncio.Queue()
        self.starved = 0
        self.slots = 0

    async def run(self, done):
        t0 = time.perf_counter()
        k = 0
        while not done.is_set():
            at = t0 + k / self.rate
            now = time.perf_counter()
            if at > now:
                await asyncio.sleep(at - now)
            k += 1
            self.slots += 1
            try:
                fut = self.waiting.get_nowait()
            except asyncio.QueueEmpty:
                self.starved += 1
                continue
            fut.set_result(at)

    async def slot(self):
        fut = asyncio.get_running_loop().create_future()
        await self.waiting.put(fut)
        return await fut


def move_from_option(card, o):
    steps = []
    if o["screen_first"]:
        steps.append({"screen": o["ward"]})
    steps.append({"admit": o["patient"], "ward": o["ward"], "value": o["value"],
                  "recolour": o["recolour"]})
    if CARDS[card]["bays"][o["die"]]["bonus"] == "extra":
        steps.append({"morgue": "extra" if o["patient"] == "die" else "die"})
    return {"die": o["die"], "steps": steps}


def morgue_move(card, die):
    steps = [{"morgue": "die"}]
    if CARDS[card]["bays"][die]["bonus"] == "extra":
        steps.append({"morgue": "extra"})
    return {"die": die, "steps": steps}


class Stats:
    def __init__(self):
        self.move_lat, self.reveal_lat, self.errors = [], [], []
        self.svc_lat = []  # from the moment the request was written (client lag excluded)
        self.moves = 0
        self.first = self.last = None


async def play_table(cl, game, rng, sched, stats):
    gid, host = game["id"], game["host_token"]
    toks = {x["seat"]: x["seat_token"] for x in game["seats"]}
    cards = list(range(1, 28))
    rng.shuffle(cards)
    turn_no = 0
    while True:
        turn_no += 1
        if turn_no > game["turns"]:
            return
        dice = {c: rng.randint(1, 6) for c in COLOURS}
        t0 = time.perf_counter()
        st, cur = await cl.request("POST", f"/api/v1/er/games/{gid}/turns",
                                   {"card": cards[turn_no - 1], "dice": dice}, host)
        stats.reveal_lat.append(time.perf_counter() - t0)
        if st != 200:
            stats.errors.append(("reveal", st, cur))
            return
        chief = cur["turn"]["chief_seat"]
        res = await move(cl, cur, gid, chief, toks[chief], turn_no, rng, sched, stats)
        if res is None:
            return
        others = [s for s in toks if s != chief]
        rs = await asyncio.gather(*(move(cl, res, gid, s, toks[s], turn_no, rng, sched, stats)
                                    for s in others))
        if any(r is None for r in rs):
            return


async def move(cl, cur, gid, seat, token, turn_no, rng, sched, stats):
    t = cur["turn"]
    chief = t["chief_seat"] == seat
    turn = {"card": t["card"], "dice": t["dice"], "chief": chief,
            "chief_die": None if chief else t["chief_die"]}
    free = [c for c in COLOURS if chief or c != t["chief_die"]]
    st, o = await cl.request("POST", "/api/v1/er/moves/options",
                             {"sheet": cur["seats"][seat - 1]["sheet"], "turn": turn})
    if st != 200:
        stats.errors.append(("options", st, o))
        return None
    opts = [x for x in o["options"] if x["die"] in free and x["blood_bags"] == 0]
    m = move_from_option(t["card"], rng.choice(opts)) if opts else \
        morgue_move(t["card"], rng.choice(free))
    scheduled = await sched.slot() if sched else time.perf_counter()
    sent = time.perf_counter()
    st, res = await cl.request("POST", f"/api/v1/er/games/{gid}/seats/{seat}/moves",
                               {"turn": turn_no, "move": m}, token)
    now = time.perf_counter()
    if st != 200:
        stats.errors.append(("move", st, res))
        return None
    stats.move_lat.append(now - scheduled)
    stats.svc_lat.append(now - sent)
    stats.moves += 1
    stats.first = stats.first or scheduled
    stats.last = now
    return res


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


async def main(a):
    global CARDS
    cl = Client(a.port)
    st, data = await cl.request("GET", "/api/v1/er/data")
    assert st == 200, st
    CARDS = {c["id"]: c for c in data["cards"]} if isinstance(data.get("cards"), list) else None
    if CARDS is None or "bays" not in next(iter(CARDS.values())):
        import os
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
        with open(os.path.join(root, "templates", "er", "cards.json")) as f:
            CARDS = {c["id"]: c for c in json.load(f)["cards"]}
    rng = random.Random(a.seed)
    games = []
    for i in range(a.tables):
        st, g = await cl.request("POST", "/api/v1/er/games",
                                 {"players": [{"name": f"T{i}S{s}"} for s in range(1, 5)],
                                  "deck": "table"})
        assert st == 201, (st, g)
        games.append(g)
    stats = Stats()
    sched = Scheduler(a.rate) if a.rate > 0 else None
    done = asyncio.Event()
    sched_task = asyncio.create_task(sched.run(done)) if sched else None
    t0 = time.perf_counter()
    tables = [asyncio.create_task(play_table(cl, g, random.Random(rng.random()), sched, stats))
              for g in games]
    finished, pending = await asyncio.wait(tables, timeout=a.duration_cap)
    for t in pending:
        t.cancel()
    done.set()
    if sched_task:
        await sched_task
    wall = time.perf_counter() - t0
    span = (stats.last - stats.first) if stats.moves > 1 else float("nan")
    ms = lambda x: round(x * 1000, 2)
    out = {
        "mode": "open" if a.rate > 0 else "closed",
        "offered_rate": a.rate, "tables": a.tables, "seats": 4,
        "games_completed": sum(1 for t in finished if not t.cancelled()) - 0,
        "moves": stats.moves, "wall_s": round(wall, 2),
        "moves_per_s": round(stats.moves / span, 1) if stats.moves > 1 else 0,
        "p50_ms": ms(pct(stats.move_lat, 50)), "p90_ms": ms(pct(stats.move_lat, 90)),
        "p99_ms": ms(pct(stats.move_lat, 99)), "max_ms": ms(max(stats.move_lat or [0])),
        "send_to_reply_p50_ms": ms(pct(stats.svc_lat, 50)),
        "send_to_reply_p99_ms": ms(pct(stats.svc_lat, 99)),
        "reveal_p50_ms": ms(pct(stats.reveal_lat, 50)),
        "reveal_p99_ms": ms(pct(stats.reveal_lat, 99)),
        "starved_slots": sched.starved if sched else 0,
        "slots": sched.slots if sched else 0,
        "connections": cl.opened, "errors": len(stats.errors),
        "first_errors": stats.errors[:3],
    }
    print(json.dumps(out))
    return 0 if not stats.errors else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--tables", type=int, default=48)
    ap.add_argument("--rate", type=float, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duration-cap", type=float, default=120)
    sys.exit(asyncio.run(main(ap.parse_args())))
