"""The disk's own pace for a commit while a benchmark runs (tests/bench/games.sh): writes 8 KiB
to a file beside the database's and flushes it (fdatasync, as PostgreSQL flushes its WAL) every
10 ms until SIGTERM, then writes the longest flush, in ms, to OUT ("nan": none made). A round
whose open loop missed while this probe saw a flush of tens of milliseconds had the disk stall
under it: every commit of that moment waited for it, whatever sent the commit.

usage: python3 flush_probe.py DIR OUT   (DIR: a directory on the database's disk)"""
import os, signal, sys, time

stop = False


def on_term(signum, frame):
    global stop
    stop = True


def main():
    directory, out = sys.argv[1], sys.argv[2]
    signal.signal(signal.SIGTERM, on_term)
    path = os.path.join(directory, f"flush_probe.{os.getpid()}")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    block = b"\0" * 8192
    took = []
    try:
        while not stop:
            os.pwrite(fd, block, 0)
            t0 = time.monotonic()
            os.fdatasync(fd)
            took.append((time.monotonic() - t0) * 1000)
            time.sleep(0.01)
    finally:
        os.close(fd)
        os.unlink(path)
    with open(out, "w") as f:
        f.write(f"{max(took, default=float('nan')):.3f}\n")


if __name__ == "__main__":
    main()
