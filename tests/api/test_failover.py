"""Losing the database machine (README "Database failover"): two PostgreSQL clusters of this
test's own, a primary with a synchronous standby, and two servers whose DATABASE_URL names both
(libpq multi-host, target_session_attrs=read-write). Clients play ER games and record league
plays on both servers while event streams are open on both; the primary is killed (kill -9 of
its postmaster) and the standby promoted, five times, the roles alternating (the old primary
comes back as the new standby from a fresh base backup). The servers carry on without a
restart; every write acknowledged with a 2xx is on the new primary, every game's log has no
gap, every stream saw each version once, and each failover's unavailability window (first 503
to the first 2xx after it) is under 5 s.

Also here: the Idempotency-Key of POST /api/v1/leagues/{id}/plays, and a session left on a host
that turned read-only (SQLSTATE 25006) being replaced by one on the writable host.

What is killed is a process, not a machine: the page cache survives, so the clusters run with
fsync off (it only makes base backups and checkpoints quicker here); synchronous_commit on with a
synchronous standby is what the acknowledged writes rely on.

The clusters run the newest /usr/lib/postgresql/*/bin; as root, as the postgres user (runuser),
as src/scripts/devdb.sh does. They listen on 127.0.0.1 (free ports) and on Unix sockets in the
test's own temporary directory."""
import glob, json, os, pwd, random, shutil, signal, socket, subprocess, tempfile
import threading, time, uuid

from harness import Server, free_port, problem
from games import COLOURS, GAMES, bay, create, deck, free_dice, tokens
from league_util import Client

FAILOVERS = 5
WINDOW_MAX_S = 5.0
RETRY_AFTER_CAP_S = 0.2

BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
             key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0)[-1]
AS = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
CONF = """
listen_addresses = '127.0.0.1'
wal_level = replica
max_wal_senders = 8
max_replication_slots = 8
wal_log_hints = on
hot_standby = on
synchronous_commit = on
fsync = off
max_connections = 120
shared_buffers = 16MB
wal_keep_size = 128MB
log_min_messages = warning
"""


def _run(cmd, timeout=60):
    r = subprocess.run(AS + cmd, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{' '.join(cmd)}: {r.stdout}{r.stderr}"
    return r.stdout


class Node:
    """One PostgreSQL cluster of this test: data directory, port, socket directory."""

    def __init__(self, base, name):
        self.name, self.base = name, base
        self.data = os.path.join(base, name)
        self.log = os.path.join(base, name + ".log")
        self.port = free_port()

    def initdb(self):
        _run([f"{BIN}/initdb", "-D", self.data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
              "--locale=C", "--no-sync"])
        with open(os.path.join(self.data, "postgresql.conf"), "a") as f:
            f.write(CONF)

    def base_backup(self, primary):
        """A fresh standby of primary (the old data directory, if any, is dropped)."""
        shutil.rmtree(self.data, ignore_errors=True)
        # the killed postmaster's socket and its lock file (which names a process that may
        # linger as a zombie where nothing reaps it): a lost machine leaves neither behind
        for f in (f".s.PGSQL.{self.port}", f".s.PGSQL.{self.port}.lock"):
            if os.path.exists(os.path.join(self.base, f)):
                os.unlink(os.path.join(self.base, f))
        _run([f"{BIN}/pg_basebackup", "-D", self.data, "-h", "127.0.0.1", "-p",
              str(primary.port), "-U", "postgres", "-R", "-X", "stream", "-c", "fast",
              "--no-sync"])

    def start(self):
        try:
            _run([f"{BIN}/pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "30", "-o",
                  f"-p {self.port} -k {self.base}", "start"])
        except AssertionError as e:
            with open(self.log) as f:
                raise AssertionError(f"{e}\n{self.name}.log:\n{f.read()[-1500:]}") from None

    def stop(self):
        subprocess.run(AS + [f"{BIN}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=30)

    def promote(self):
        _run([f"{BIN}/pg_ctl", "-D", self.data, "-w", "-t", "30", "promote"])

    def pid(self):
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            return int(f.readline())

    def kill9(self):
        """kill -9 of the postmaster; returns once it is gone (its backends see it die and
        end their sessions by themselves)."""
        pid = self.pid()
        os.kill(pid, signal.SIGKILL)
        _until(lambda: not _alive(pid), 10, "the killed postmaster to go")

    def sql(self, query, db="failover"):
        r = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h",
                            "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", db, "-c",
                            query], capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, f"{query}: {r.stderr}"
        return r.stdout.strip()


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def _until(cond, timeout, what, step=0.02):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return
        time.sleep(step)
    raise AssertionError(f"timed out waiting for {what}")


def _wait_sync(primary):
    _until(lambda: primary.sql("SELECT count(*) FROM pg_stat_replication "
                               "WHERE sync_state = 'sync'", "postgres") == "1",
           20, f"a synchronous standby of {primary.name}", 0.05)


class Pair:
    """A primary and its synchronous standby, in a temporary directory of their own."""

    def __init__(self):
        self.base = tempfile.mkdtemp(prefix="fo-", dir="/tmp")
        os.chmod(self.base, 0o755)
        if AS:
            pw = pwd.getpwnam("postgres")
            os.chown(self.base, pw.pw_uid, pw.pw_gid)
        self.nodes = [Node(self.base, "a"), Node(self.base, "b")]
        self.primary, self.standby = self.nodes

    def __enter__(self):
        try:
            self.primary.initdb()
            self.primary.start()
            self.primary.sql("CREATE DATABASE failover", "postgres")
            self.rebuild_standby()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        for n in self.nodes:
            if os.path.exists(os.path.join(n.data, "postmaster.pid")):
                n.stop()
        shutil.rmtree(self.base, ignore_errors=True)

    def url(self):
        hosts = ",".join("127.0.0.1" for _ in self.nodes)
        ports = ",".join(str(n.port) for n in self.nodes)
        return (f"host={hosts} port={ports} dbname=failover user=postgres "
                "target_session_attrs=read-write")

    def fail_over(self):
        """kill -9 of the primary, then the standby promoted. The promoted node commits without
        waiting for a standby until one is attached again (a failover manager's "synchronous
        mode, not strict"): with a single standby there is none to wait for."""
        old = self.primary
        old.kill9()
        self.standby.sql("ALTER SYSTEM SET synchronous_standby_names = ''", "postgres")
        self.standby.promote()
        self.standby.sql("SELECT pg_reload_conf()", "postgres")
        self.primary, self.standby = self.standby, old

    def rebuild_standby(self):
        """A fresh standby (at first, or the old primary after a failover) attached as the
        primary's synchronous standby (synchronous_standby_names '*', synchronous_commit on:
        from then on a commit returns once the standby has flushed it)."""
        t0 = time.time()
        self.standby.base_backup(self.primary)
        t1 = time.time()
        self.standby.start()
        t2 = time.time()
        self.primary.sql("ALTER SYSTEM SET synchronous_standby_names = '*'", "postgres")
        self.primary.sql("SELECT pg_reload_conf()", "postgres")
        _wait_sync(self.primary)
        self.timing = f"base backup {t1 - t0:.1f} s, start {t2 - t1:.1f} s, sync {time.time() - t2:.1f} s"


# ---- clients that retry on 503 ----

class Outcomes:
    """Every reply's time and status, for the unavailability window."""

    def __init__(self):
        self.mu = threading.Lock()
        self.seen = []
        self.errors = []

    def add(self, status, sent):
        with self.mu:
            self.seen.append((time.time(), status, sent))

    def window(self, since):
        """Seconds from since (the kill) to the first 2xx of a request sent after the first 503
        that followed it (a reply that was on its way at the 503 does not count), or None."""
        with self.mu:
            seen = list(self.seen)
        first = next((t for t, st, _ in seen if t >= since and st == 503), None)
        if first is None:
            return None
        ok = next((t for t, st, sent in seen if sent > first and 200 <= st < 300), None)
        return None if ok is None else ok - since


def _call(out, stop_hard, s, method, path, body=None, headers=None):
    """The request, sent again while the answer is 503 (after its Retry-After, capped); the
    final (status, headers, body). The replies to writes (every POST but the move options,
    which need no database) count for the unavailability window."""
    write = method == "POST" and not path.endswith("/moves/options")
    while True:
        sent = time.time()
        st, hd, data = s.request(method, path, body, headers, timeout=20)
        if write:
            out.add(st, sent)
        if st != 503:
            return st, hd, data
        if stop_hard.is_set():
            raise AssertionError("still 503 at the end")
        wait = float(hd.get("retry-after", "1"))
        time.sleep(min(wait, RETRY_AFTER_CAP_S))


def _jcall(out, stop_hard, s, method, path, body=None, token=None, headers=None, hist=None):
    h = dict(headers or {})
    if token:
        h["Authorization"] = "Bearer " + token
    st, hd, data = _call(out, stop_hard, s, method, path, body, h)
    obj = json.loads(data) if data else None
    if hist is not None:
        hist.append((round(time.time() % 1000, 3), s.port, method, path, body, st,
                     obj.get("version") if isinstance(obj, dict) else None))
        del hist[:-8]
    return st, obj


class ErPlayer(threading.Thread):
    """Plays ER games one after the other (a table deck of distinct cards), each request on
    one of the servers at random; records every acknowledged reveal and move."""

    def __init__(self, servers, seed, out, stop, stop_hard, games, finals):
        super().__init__(daemon=True)
        self.finals = finals  # game id → version of a finished game
        self.servers, self.rng, self.out = servers, random.Random(seed), out
        self.stop, self.stop_hard, self.games = stop, stop_hard, games
        self.acked = []  # (gid, version, kind, seat, turn, payload-as-sent)
        self.hist = []  # the last requests, for a failure's message

    def srv(self):
        return self.rng.choice(self.servers)

    def run(self):
        try:
            while not self.stop.is_set():
                self.play_one()
        except Exception as e:
            self.out.errors.append(f"ER player: {e!r} after {self.hist}")

    def play_one(self):
        st, g = _jcall(self.out, self.stop_hard, self.srv(), "POST", GAMES,
                       {"players": [{"name": "P1"}, {"name": "P2"}], "deck": "table"})
        assert st == 201, (st, g)
        gid, host, toks = g["id"], g["host_token"], tokens(g)
        self.games.append((gid, host, toks))
        self.finals.pop(gid, None)
        plan = deck(self.rng, g["turns"])
        st, cur = _jcall(self.out, self.stop_hard, self.srv(), "GET", f"{GAMES}/{gid}", token=host)
        assert st == 200, (st, cur)
        while not self.stop.is_set() and cur["status"] == "playing":
            n = cur["next"]
            if n["action"] == "reveal":
                card, dice = plan[n["turn"] - 1]
                body = {"turn": n["turn"], "card": card, "dice": dict(zip(COLOURS, dice))}
                st, cur = self.reveal(gid, host, body)
                self.acked.append((gid, cur["version"], "reveal", None, n["turn"], body))
                continue
            seat = n["seats"][0]
            move = self.choose(cur, seat)
            st, cur = _jcall(self.out, self.stop_hard, self.srv(), "POST",
                             f"{GAMES}/{gid}/seats/{seat}/moves",
                             {"turn": n["turn"], "move": move}, token=toks[seat],
                             hist=self.hist)
            assert st == 200, (st, cur)
            self.acked.append((gid, cur["version"], "move", seat, n["turn"], move))
        if cur["status"] != "playing":
            self.finals[gid] = cur["version"]

    def reveal(self, gid, host, body):
        """Reveals the turn: a repeat of a reveal that was applied though its reply was lost
        (503) is answered as the first time (api.md Conventions)."""
        st, cur = _jcall(self.out, self.stop_hard, self.srv(), "POST", f"{GAMES}/{gid}/turns",
                         body, token=host, hist=self.hist)
        assert st == 200, (st, cur)
        return st, cur

    def choose(self, cur, seat):
        t = cur["turn"]
        chief = t["chief_seat"] == seat
        turn = {"card": t["card"], "dice": t["dice"], "chief": chief,
                "chief_die": None if chief else t["chief_die"]}
        sheet = cur["seats"][seat - 1]["sheet"]
        st, o = _jcall(self.out, self.stop_hard, self.srv(), "POST", "/api/v1/er/moves/options",
                       {"sheet": sheet, "turn": turn})
        assert st == 200, (st, o)
        dice = free_dice(turn)
        opts = [x for x in o["options"] if x["die"] in dice and x["blood_bags"] == 0]
        if not opts:
            die = self.rng.choice(dice)
            steps = [{"morgue": "die"}]
            if bay(turn["card"], die)["bonus"] == "extra":
                steps.append({"morgue": "extra"})
            return {"die": die, "steps": steps}
        x = self.rng.choice(opts)
        steps = [{"screen": x["ward"]}] if x["screen_first"] else []
        steps.append({"admit": x["patient"], "ward": x["ward"], "value": x["value"],
                      "recolour": x["recolour"]})
        if bay(turn["card"], x["die"])["bonus"] == "extra":
            steps.append({"morgue": "extra" if x["patient"] == "die" else "die"})
        return {"die": x["die"], "steps": steps}


class LeaguePlayer(threading.Thread):
    """Records plays in a league of its own, each with a new Idempotency-Key, sent again with
    the same key and body after a 503; records every acknowledged play."""

    def __init__(self, servers, seed, out, stop, stop_hard, league, members, cookie):
        super().__init__(daemon=True)
        self.servers, self.rng, self.out = servers, random.Random(seed), out
        self.stop, self.stop_hard = stop, stop_hard
        self.league, self.members, self.cookie = league, members, cookie
        self.acked = []  # (key, play id)

    def run(self):
        try:
            while not self.stop.is_set():
                key = uuid.uuid4().hex
                body = {"game": "Failover", "results": [
                    {"player": m, "score": self.rng.randint(0, 99)} for m in self.members]}
                s = self.rng.choice(self.servers)
                h = {"Origin": f"http://127.0.0.1:{s.port}", "Cookie": "dh_session=" + self.cookie,
                     "Idempotency-Key": key}
                st, p = _jcall(self.out, self.stop_hard, s, "POST",
                               f"/api/v1/leagues/{self.league}/plays", body, headers=h)
                assert st == 201, (st, p)
                self.acked.append((key, p["id"]))
        except Exception as e:
            self.out.errors.append(f"league player: {e!r}")


class Watcher(threading.Thread):
    """One event stream of a game on one server, reconnecting with Last-Event-ID whenever it
    ends; keeps the ids of every event it saw, in order."""

    def __init__(self, server, gid, token, stop, finals):
        super().__init__(daemon=True)
        self.server, self.gid, self.token, self.stop = server, gid, token, stop
        self.finals = finals  # it ends once it saw the last version of a finished game
        # the first hello's id is the version the game was at; a reconnection sends Last-Event-ID
        self.ids, self.first, self.last, self.reconnects, self.error = [], None, None, 0, None

    def run(self):
        try:
            while not self.stop.is_set() and not self.done():
                self.once()
                self.reconnects += 1
        except Exception as e:
            self.error = repr(e)

    def done(self):
        return self.last is not None and self.finals.get(self.gid) == self.last

    def once(self):
        """One connection, read until it ends (or the watch stops). HTTP/1.0 over a plain
        socket: the stream then comes unchunked until the server closes it, and a read that
        times out (to look at the stop flag) loses nothing."""
        sk = socket.create_connection(("127.0.0.1", self.server.port), timeout=20)
        try:
            resume = "" if self.last is None else f"Last-Event-ID: {self.last}\r\n"
            sk.sendall((f"GET {GAMES}/{self.gid}/events HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                        f"Accept: text/event-stream\r\nAuthorization: Bearer {self.token}\r\n"
                        f"{resume}\r\n").encode())
            sk.settimeout(0.5)
            buf, head = b"", None
            while not self.stop.is_set() and not self.done():
                try:
                    chunk = sk.recv(4096)
                except (socket.timeout, TimeoutError):
                    continue
                except OSError:
                    return
                if not chunk:
                    return
                buf += chunk
                if head is None:
                    if b"\r\n\r\n" not in buf:
                        continue
                    head, buf = buf.split(b"\r\n\r\n", 1)
                    status = int(head.split(b" ", 2)[1])
                    if status != 200:
                        assert status == 503, (status, head, buf)
                        time.sleep(RETRY_AFTER_CAP_S)
                        return
                while b"\n\n" in buf:
                    raw, buf = buf.split(b"\n\n", 1)
                    ev = {}
                    for line in raw.decode().split("\n"):
                        if ":" in line and not line.startswith(":"):
                            k, v = line.split(":", 1)
                            ev[k] = v[1:] if v.startswith(" ") else v
                    if "id" in ev and ev.get("event") == "hello" and self.last is None:
                        self.first = self.last = int(ev["id"])
                    elif "id" in ev and ev.get("event") != "hello":
                        self.ids.append(int(ev["id"]))
                        self.last = int(ev["id"])
        finally:
            sk.close()


# ---- what the new primary holds ----

def _stored_events(node, gids):
    rows = node.sql("SELECT coalesce(json_agg(json_build_array(game_id, version, kind, seat, turn,"
                    " payload) ORDER BY game_id, version), '[]') FROM events WHERE game_id = ANY"
                    f" (string_to_array('{','.join(gids)}', ','))")
    out = {}
    for gid, v, kind, seat, turn, payload in json.loads(rows):
        out.setdefault(gid, {})[v] = (kind, seat, turn, payload)
    return out


def _stored_plays(node, leagues):
    rows = node.sql("SELECT coalesce(json_agg(json_build_array(p.league_id, p.id, k.key)), '[]') "
                    "FROM plays p LEFT JOIN play_keys k ON k.league_id = p.league_id AND "
                    "k.reply::json->>'id' = p.id WHERE p.league_id = ANY "
                    f"(string_to_array('{','.join(leagues)}', ','))")
    return json.loads(rows)


def _missing(node, ers, leaguers):
    """The acknowledged writes the node does not hold: (missing list, number checked)."""
    acked = [a for p in ers for a in list(p.acked)]
    plays = [(p.league, k, pid) for p in leaguers for k, pid in list(p.acked)]
    events = _stored_events(node, sorted({a[0] for a in acked}))
    index = {}  # (game, kind, seat, turn) → payloads stored
    for gid, evs in events.items():
        for kind, seat, turn, payload in evs.values():
            index.setdefault((gid, kind, seat if kind == "move" else None, turn), []).append(payload)
    missing = []
    for gid, v, kind, seat, turn, body in acked:
        got = index.get((gid, kind, seat, turn), [])
        if kind == "move" and [g["move"]["die"] for g in got] != [body["die"]]:
            missing.append((gid, v, kind, seat, turn, got))
        elif kind == "reveal" and [g["card"] for g in got] != [body["card"]]:
            missing.append((gid, v, kind, turn, got))
    stored = {(lg, pid) for lg, pid, _ in _stored_plays(node, [p.league for p in leaguers])}
    missing += [x for x in plays if (x[0], x[2]) not in stored]
    return missing, len(acked) + len(plays)


def _league(server, n):
    c = Client(server)
    email = f"fo{n}-{uuid.uuid4().hex[:8]}@example.org"
    c.signup(email)
    c.login(email)
    st, _, lg = c.post("/api/v1/leagues", {"name": f"Failover {n}"})
    assert st == 201, (st, lg)
    members = []
    for name in ("Ann", "Bob"):
        st, _, m = c.post(f"/api/v1/leagues/{lg['id']}/members", {"name": name})
        assert st == 201, (st, m)
        members.append(m["id"])
    return c, lg["id"], members


def test_failover_loses_no_acknowledged_write():
    if "/asan/" in os.environ.get("SERVER_BIN", "") or "/tsan/" in os.environ.get("SERVER_BIN", ""):
        print("  skipped under a sanitizer build (tests/api/test_failover.py runs with the gcc one)")
        return
    t_start = time.time()
    with Pair() as pair:
        url = pair.url()
        a = Server(database=url).start()
        b = Server(database=url).start()
        servers = [a, b]
        out, stop, stop_hard, stop_watch = Outcomes(), threading.Event(), threading.Event(), \
            threading.Event()
        ers, leaguers, watchers, games = [], [], [], []
        try:
            for i in range(2):
                c, lid, members = _league(servers[i], i)
                leaguers.append(LeaguePlayer(servers, 100 + i, out, stop, stop_hard, lid, members,
                                             c.cookie))
            finals = {}
            ers = [ErPlayer(servers, i, out, stop, stop_hard, games, finals) for i in range(3)]
            for p in ers + leaguers:
                p.start()
            watched = set()

            def watch_new_games():
                for gid, host, toks in list(games):
                    if gid not in watched:
                        watched.add(gid)
                        for s, tok in ((a, toks[1]), (b, toks[2])):
                            w = Watcher(s, gid, tok, stop_watch, finals)
                            w.start()
                            watchers.append(w)

            def progress():
                return [len(p.acked) for p in ers + leaguers]

            report = []
            for k in range(FAILOVERS):
                before = progress()
                _until(lambda: (watch_new_games() or True) and not out.errors and
                       all(n >= m + 3 for n, m in zip(progress(), before)), 30,
                       f"progress before failover {k + 1}: {progress()} {out.errors}")
                assert not out.errors, out.errors
                t_kill = time.time()
                pair.fail_over()
                _until(lambda: out.window(t_kill) is not None or out.errors, 15,
                       f"writes to resume after failover {k + 1}")
                assert not out.errors, out.errors
                window = out.window(t_kill)
                pair.rebuild_standby()
                missing, n = _missing(pair.primary, ers, leaguers)
                line = (f"failover {k + 1}: acked {n} stored {n - len(missing)}, unavailable "
                        f"{window:.2f} s from the kill; then a new standby: {pair.timing}")
                print("  " + line)
                report.append((missing, window))
                assert not missing, (line, missing[:5])
                assert window < WINDOW_MAX_S, line
            stop.set()
            for p in ers + leaguers:
                p.join(30)
                assert not p.is_alive(), "a client hangs"
            assert not out.errors, out.errors
            watch_new_games()
            # every acknowledged write, again, on the final primary
            missing, n = _missing(pair.primary, ers, leaguers)
            assert not missing, missing[:5]
            # one play per key, none doubled by a resubmission
            stored = _stored_plays(pair.primary, [p.league for p in leaguers])
            acked = {pid for p in leaguers for _, pid in p.acked}
            assert sorted(pid for _, pid, _ in stored) == sorted(acked), \
                (len(stored), len(acked))
            assert all(key for _, _, key in stored), "a play stored without its key"
            # every game's log has no gap, and every stream saw each version once, in order
            events = _stored_events(pair.primary, [g[0] for g in games])
            for gid, _, _ in games:
                vs = sorted(events.get(gid, {}))
                assert vs == list(range(1, len(vs) + 1)), (gid, vs)
            final = {gid: len(events.get(gid, {})) for gid, _, _ in games}
            _until(lambda: all(w.last == final[w.gid] for w in watchers), 15,
                   "the streams to catch up: " + str([(w.gid, w.last, final[w.gid], w.error,
                                                       w.reconnects)
                                                      for w in watchers if w.last != final[w.gid]]))
            stop_watch.set()
            for w in watchers:
                w.join(5)
                assert w.error is None, w.error
                assert w.ids == list(range(w.first + 1, final[w.gid] + 1)), (w.gid, w.first, w.ids)
            nacks = sum(len(p.acked) for p in ers + leaguers)
            print(f"  {nacks} acknowledged writes ({len(games)} games, "
                  f"{sum(len(p.acked) for p in leaguers)} plays), {len(watchers)} streams "
                  f"({sum(w.reconnects - 1 for w in watchers)} reconnections), {FAILOVERS} failovers "
                  f"in {time.time() - t_start:.1f} s")
        except BaseException:
            for s in servers:
                died = s.proc.poll()
                lines = [l for l in s.output().splitlines() if "access " not in l]
                print(f"  server on {s.port} ({'exited ' + str(died) if died is not None else 'up'}):")
                for l in lines[-25:]:
                    print("    " + l)
            raise
        finally:
            stop.set()
            stop_hard.set()
            stop_watch.set()
            for s in servers:
                s.__exit__(None, None, None)


def test_play_idempotency_key():
    """POST …/plays with an Idempotency-Key: a repeat is answered with the first reply and
    stores nothing; the key with another body is 409 idempotency-key-reused; a malformed key
    is 400; a play without a key is stored each time it is sent (as before)."""
    from harness import make_database
    with Server(database=make_database("h_failover_keys")) as s:
        c = Client(s)
        c.signup("keys@example.org")
        c.login("keys@example.org")
        st, _, lg = c.post("/api/v1/leagues", {"name": "Keys"})
        assert st == 201, (st, lg)
        lid = lg["id"]
        st, _, m = c.post(f"/api/v1/leagues/{lid}/members", {"name": "Bea"})
        assert st == 201, (st, m)
        body = {"game": "Azul", "date": "2026-03-01",
                "results": [{"player": lg["members"][0]["id"], "score": 50},
                            {"player": m["id"], "score": 40}]}
        key = {"Idempotency-Key": uuid.uuid4().hex}
        st, _, first = c.post(f"/api/v1/leagues/{lid}/plays", body, headers=key)
        assert st == 201, (st, first)
        st, hd, again = c.post(f"/api/v1/leagues/{lid}/plays", body, headers=key)
        assert st == 201 and again == first, (st, again, first)
        st, _, page = c.get(f"/api/v1/leagues/{lid}/plays")
        assert st == 200 and page["total"] == 1, page
        other = dict(body, game="Kingdomino")
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", other, headers=key)
        problem(st, hd, o, 409, rule="idempotency-key-reused")
        st, hd, o = c.post(f"/api/v1/leagues/{lid}/plays", body,
                           headers={"Idempotency-Key": "x" * 129})
        problem(st, hd, o, 400, rule="idempotency-key-invalid")
        # a new key is a new play; no key at all, too
        st, _, p2 = c.post(f"/api/v1/leagues/{lid}/plays", body,
                           headers={"Idempotency-Key": uuid.uuid4().hex})
        assert st == 201 and p2["id"] != first["id"], (st, p2)
        st, _, p3 = c.post(f"/api/v1/leagues/{lid}/plays", body)
        assert st == 201 and p3["id"] not in (first["id"], p2["id"]), (st, p3)
        st, _, page = c.get(f"/api/v1/leagues/{lid}/plays")
        assert page["total"] == 3, page


def test_read_only_session_is_replaced():
    """A primary fenced read-only while its standby is promoted (default_transaction_read_only
    on, reloaded: every open session turns read-only). A write on a session to it fails with
    SQLSTATE 25006; the server takes that for a connection that cannot write, not for a bug
    (500): the transaction runs again on a fresh connection, which target_session_attrs=
    read-write takes to the promoted node, and the write succeeds."""
    with Pair() as pair:
        # one connection thread: it holds the one session to the old primary that the first
        # write after the fence must meet (with several, the writes could all land on threads
        # whose first connection goes straight to the promoted node, proving nothing)
        s = Server(database=pair.url(), env={"THREADS": "1"}).start()
        try:
            c = Client(s)
            c.signup("fence@example.org")
            c.login("fence@example.org")
            st, _, lg = c.post("/api/v1/leagues", {"name": "Fence"})
            assert st == 201, (st, lg)
            old = pair.primary
            old.sql("ALTER SYSTEM SET default_transaction_read_only = on", "postgres")
            old.sql("SELECT pg_reload_conf()", "postgres")
            _until(lambda: old.sql("SHOW default_transaction_read_only") == "on", 10,
                   "the fence")
            pair.standby.sql("ALTER SYSTEM SET synchronous_standby_names = ''", "postgres")
            pair.standby.promote()
            pair.standby.sql("SELECT pg_reload_conf()", "postgres")
            # every worker thread's session to the fenced node meets the read-only error once:
            # the write is then retried on a fresh session (db_tx) or answered 503 (a single
            # statement), never 500
            unavailable = 0
            for i in range(8):
                for attempt in range(20):
                    st, hd, m = c.post(f"/api/v1/leagues/{lg['id']}/members",
                                       {"name": f"M{i}"})
                    if st != 503:
                        break
                    assert hd.get("retry-after"), hd
                    unavailable += 1
                    time.sleep(0.1)
                assert st == 201, (i, st, m)
            assert "read-only" in s.output(), "no session met the fence: the test proved nothing"
            names = pair.standby.sql("SELECT string_agg(name, ',' ORDER BY name) FROM "
                                     f"league_members WHERE league_id = '{lg['id']}'")
            assert all(f"M{i}" in names.split(",") for i in range(8)), names
        finally:
            s.__exit__(None, None, None)


def _keepalive_ticks(pid, port):
    """The keepalive timers (clock ticks until the next probe) of process pid's TCP
    connections to 127.0.0.1:port, from /proc/net/tcp (timer kind 2 is keepalive)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            t = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if t.startswith("socket:["):
            inodes.add(t[8:-1])
    out = []
    with open(f"/proc/{pid}/net/tcp") as f:
        for line in f.readlines()[1:]:
            x = line.split()
            if x[2].upper() == f"0100007F:{port:04X}" and x[9] in inodes:
                kind, when = x[5].split(":")
                out.append((int(kind, 16), int(when, 16)))
    return out


def test_tcp_keepalives_on_database_connections():
    """A database machine that vanishes sends no reset: the server's connections to it
    (workers, LISTEN, notifier, health probe) carry TCP keepalives of a few seconds, not the
    kernel's two hours, so an idle one notices the loss and libpq moves to the new primary."""
    with Pair() as pair:
        s = Server(database=pair.url()).start()
        try:
            st, _, _ = s.request("GET", "/api/v1/health")
            assert st == 200
            port = pair.primary.port
            _until(lambda: len(_keepalive_ticks(s.proc.pid, port)) >= 3, 10,
                   "the server's connections")
            timers = _keepalive_ticks(s.proc.pid, port)
            hz = os.sysconf("SC_CLK_TCK")
            assert all(kind == 2 and when <= 5 * hz for kind, when in timers), (timers, hz)
        finally:
            s.__exit__(None, None, None)
