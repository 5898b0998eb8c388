"""The slow-header attacker of tests/bench/slowheader.sh, and its /health prober.

    python3 slowloris.py PORT N [ADDRS]
        N sockets, each sending a request head one byte a second and never finishing it; a
        socket the server closes is opened again at the next second. From 127.0.0.1, or with
        ADDRS > 0 spread over 127.0.0.2 … 127.0.0.(ADDRS + 1) (each socket bound to its address
        before it connects; Linux answers the whole of 127.0.0.0/8). Runs until killed; prints
        its counters on SIGTERM.
    python3 slowloris.py probe PORT SECONDS
        GET /api/v1/health from ::1 on a fresh connection every 0.1 s for SECONDS; prints
        "TRIES P50_MS P99_MS NON_200" (a refused, reset or 5 s silent try counts as non-200,
        its time as 5 s)."""
import selectors, signal, socket, sys, time

HEAD = b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100000


def probe(port, seconds):
    times, bad = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        ok = False
        try:
            with socket.create_connection(("::1", port), timeout=5) as k:
                k.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                buf = b""
                while True:
                    chunk = k.recv(4096)
                    if not chunk:
                        break
                    buf += chunk
                ok = buf.startswith(b"HTTP/1.1 200 ")
        except OSError:
            pass
        dt = time.monotonic() - t0
        times.append(dt if ok else 5.0)
        bad += not ok
        time.sleep(max(0.0, 0.1 - dt))
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(len(times) * q))] * 1000
    print(f"{len(times)} {pick(0.5):.2f} {pick(0.99):.2f} {bad}", flush=True)


def attack(port, n, naddrs):
    sel = selectors.DefaultSelector()
    socks = {}
    stats = {"opened": 0, "cut": 0, "bytes": 0}
    addrs = [f"127.0.0.{2 + i}" for i in range(naddrs)] or ["127.0.0.1"]
    free = [addrs[i % len(addrs)] for i in range(n)]  # addresses of the sockets to open

    def open_one(addr):
        k = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        k.setblocking(False)
        try:
            k.bind((addr, 0))
            k.connect_ex(("127.0.0.1", port))
        except OSError:
            k.close()
            return False
        socks[k] = [addr, 0]
        sel.register(k, selectors.EVENT_READ)
        stats["opened"] += 1
        return True

    def drop(k):
        sel.unregister(k)
        free.append(socks.pop(k)[0])
        k.close()
        stats["cut"] += 1

    def done(*_):
        print(f"attacker: {n} sockets from {len(addrs)} address(es), {stats['opened']} opened, "
              f"{stats['cut']} cut by the server, {stats['bytes']} bytes sent", flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, done)
    next_tick = time.time()
    while True:
        for key, _ in sel.select(timeout=max(0, next_tick - time.time())):
            k = key.fileobj
            try:
                if not k.recv(4096):  # closed, or a 429 then closed
                    drop(k)
            except OSError:
                drop(k)
        if time.time() >= next_tick:
            next_tick += 1.0
            while free and open_one(free[-1]):
                free.pop()
            for k, st in list(socks.items()):
                try:
                    k.send(HEAD[st[1]:st[1] + 1])
                    st[1] += 1
                    stats["bytes"] += 1
                except BlockingIOError:
                    pass
                except OSError:
                    drop(k)


if sys.argv[1] == "probe":
    probe(int(sys.argv[2]), float(sys.argv[3]))
else:
    attack(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
