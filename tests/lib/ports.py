"""Free TCP ports for the tests' servers and throwaway clusters.

A port is asked for the way the server binds it (src/http/server.c, open_listener): one socket
on [::] with IPV6_V6ONLY off, which the kernel refuses when any socket of either family holds
the port on any address (IPv4 alone when the machine has no IPv6). The probe sets no
SO_REUSEADDR, so a port some socket still holds, even in TIME_WAIT, is left alone too.

Ports are drawn at random below the kernel's ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range): outgoing connections never take their source port
there, and two runs at once (the plain and the sanitizer API passes) rarely draw the same one;
a port is never handed out twice by one process. The port is free when returned, not reserved:
a server that meets "address in use" anyway starts again on another (harness.Server).

    python3 tests/lib/ports.py N     prints N distinct free ports
"""
import errno, random, socket, sys

LOWEST = 10000  # below: well-known and registered services
_given = set()


def _ephemeral():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            lo, hi = (int(x) for x in f.read().split()[:2])
            return lo, hi
    except (OSError, ValueError):
        return 32768, 60999


def candidates():
    """The range ports are drawn from: below the ephemeral range, else above it."""
    lo, hi = _ephemeral()
    if lo - LOWEST >= 1000:
        return range(LOWEST, lo)
    if 65535 - hi >= 1000:
        return range(hi + 1, 65536)
    return range(LOWEST, 65536)


def bindable(port):
    """True when a dual-stack listener could bind port now."""
    try:
        s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        addr = ("::", port)
    except OSError:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        addr = ("0.0.0.0", port)
    try:
        s.bind(addr)
        return True
    except OSError as e:
        if e.errno in (errno.EADDRINUSE, errno.EACCES):
            return False
        raise
    finally:
        s.close()


def free_port(tries=200):
    """A port that is free now on every address of both families."""
    pool = candidates()
    for _ in range(tries):
        p = random.choice(pool)
        if p not in _given and bindable(p):
            _given.add(p)
            return p
    raise RuntimeError(f"no free port in {pool.start}-{pool.stop - 1} after {tries} tries")


if __name__ == "__main__":
    print(" ".join(str(free_port()) for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 1)))
