"""Slow-header clients from many addresses, each under the per-address cap, together over the
connection limit: the slowest heads make room for prompt requests, and their deadline
shortens while they crowd the slots; with no CONN_LIMIT the limit follows the descriptor
limit.

Loopback only: the attackers are 127.0.0.2 … 127.0.0.21 (each socket bound to one before it
connects), the prompt client ::1. Every loop is bounded in count and time."""
import http.client, resource, selectors, socket, threading, time

from harness import Server
from test_hostile import _output_until, _start_raw, db, health6, wait_until

ADDRS = [f"127.0.0.{i}" for i in range(2, 22)]
HEAD = b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 10000


def slow_socket(port, addr):
    """A socket from addr that has sent the first byte of a request head."""
    k = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    k.bind((addr, 0))
    k.settimeout(5)
    k.connect(("127.0.0.1", port))
    k.sendall(HEAD[:1])
    k.setblocking(False)
    return k


class SlowHeads:
    """per_addr sockets from each of ADDRS sending one head byte each 0.5 s; a socket the
    server closes is opened again, at most 4 every 50 ms (a steady attacker, not a burst)."""

    def __init__(self, port, per_addr):
        self.port, self.stop, self.cut = port, threading.Event(), 0
        self.sel = selectors.DefaultSelector()
        self.socks = {}
        for i in range(per_addr * len(ADDRS)):
            self._open(ADDRS[i % len(ADDRS)])
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _open(self, addr):
        k = slow_socket(self.port, addr)
        self.socks[k] = [addr, 1]
        self.sel.register(k, selectors.EVENT_READ)

    def _drop(self, k):
        self.sel.unregister(k)
        addr = self.socks.pop(k)[0]
        k.close()
        self.cut += 1
        return addr

    def _run(self):
        reopen, tick = [], time.monotonic()
        end, next_open = tick + 60, tick  # bounded even if the test forgets to stop it
        while not self.stop.is_set() and time.monotonic() < end:
            for key, _ in self.sel.select(timeout=0.05):
                try:
                    gone = not key.fileobj.recv(4096)
                except OSError:
                    gone = True
                if gone:
                    reopen.append(self._drop(key.fileobj))
            if reopen and time.monotonic() >= next_open:
                next_open = time.monotonic() + 0.05
                for addr in reopen[:4]:
                    try:
                        self._open(addr)
                    except OSError:
                        pass
                del reopen[:4]
            if time.monotonic() - tick >= 0.5:
                tick = time.monotonic()
                for k, st in list(self.socks.items()):
                    try:
                        k.send(HEAD[st[1]:st[1] + 1])
                        st[1] += 1
                    except BlockingIOError:
                        pass
                    except OSError:
                        reopen.append(self._drop(k))

    def close(self):
        self.stop.set()
        self.thread.join()
        for k in list(self.socks):
            self._drop(k)


def test_slow_heads_from_many_addresses_do_not_starve_health():
    """CONN_LIMIT=40 and 60 slow-header sockets from 20 addresses (3 each, the cap is 64):
    /health from ::1 on a fresh connection is answered 200 every time, promptly. (Held over
    the limit, the slots used to leave health 503 or unanswered until the 10 s deadline.)"""
    with Server(database=db(), env={"CONN_LIMIT": "40"}) as s:
        att = SlowHeads(s.port, 3)
        try:
            times, end = [], time.time() + 6
            while time.time() < end and len(times) < 200:
                st, dt = health6(s.port)
                assert st == 200, (st, len(times))
                times.append(dt)
                time.sleep(0.03)
            times.sort()
            p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
            print(f"  health under 60 slow heads at CONN_LIMIT 40: {len(times)} tries, "
                  f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, {att.cut} cut")
            # the < 50 ms target is measured by `make bench` (tests/bench/slowheader.sh); here
            # the bound only tells "answered" from "held", so a loaded machine cannot flake it
            assert len(times) >= 20 and times[-1] < 2.0, times[-5:]
            assert att.cut > 0
            assert "closing those that waited longest" in s.output()
        finally:
            att.close()


def test_crowded_heads_get_a_shorter_deadline():
    """When every slot waits for a head, the head deadline drops from REQUEST_DEADLINE (10 s)
    to 2 s: 40 slow sockets at CONN_LIMIT=40 are all closed within about 2 s."""
    with Server(database=db(), env={"CONN_LIMIT": "40"}) as s:
        wait_until(lambda: health6(s.port)[0] == 200, 5, "the server")
        socks = [slow_socket(s.port, ADDRS[i % len(ADDRS)]) for i in range(40)]
        t0 = time.time()
        try:
            for k in socks:
                k.setblocking(True)
                k.settimeout(max(0.01, t0 + 7 - time.time()))
                try:
                    while k.recv(4096):
                        pass
                except (ConnectionResetError, BrokenPipeError):
                    pass
                except (socket.timeout, TimeoutError):
                    raise AssertionError(f"a slow head lived {time.time() - t0:.1f} s")
            assert time.time() - t0 < 7
        finally:
            for k in socks:
                k.close()


def test_connection_limit_follows_the_descriptor_limit():
    """Without CONN_LIMIT the server raises RLIMIT_NOFILE to its hard limit and sizes the
    connection limit from it (a reserve for the database, files and threads kept)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    top = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
    p, _ = _start_raw({"CONN_LIMIT": ""}, (256, top))
    try:
        out = _output_until(p, "listening on")
        assert f"raised the file descriptor limit from 256 to {top}" in out, out
        lim = (top - 64 - 2 * 4) * 8 // 9
        assert f"up to {lim} connections (sized from the file descriptor limit;" in out, out
    finally:
        p.terminate()
        p.wait(15)
