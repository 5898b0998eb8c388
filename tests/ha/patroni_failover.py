#!/usr/bin/env python3
"""Automatic failover with Patroni, on this machine, from Debian's packages (`make test-patroni`).

    python3 tests/ha/patroni_failover.py [SERVER_BINARY]      (default build/server)

etcd and two PostgreSQL nodes run by Patroni with docker/patroni/patroni.yml (the file the "ha"
profile of docker/compose.yaml ships, synchronous_mode on), each node's addresses from the
environment, every port on 127.0.0.1, every file in one temporary directory. The server runs on
a libpq multi-host DATABASE_URL naming both nodes with target_session_attrs=read-write, the
way the "ha" profile runs it. A client plays ER games (one request at a time) and posts league
plays, recording every acknowledged write, while the leader fails twice:

  1. its postmaster is killed (kill -9), Patroni alive: Patroni promotes the synchronous
     standby (primary_start_timeout 0), and the old leader comes back as a standby;
  2. once that node is the synchronous standby again, the new leader's Patroni and postmaster
     are killed (kill -9), the node lost: its key in etcd expires, the standby is promoted.

Each time: the other node becomes the leader (Patroni's REST API), the server follows without
a restart (writes succeed again), every failure the client saw was a 503 with Retry-After, and
the unavailability window is measured. At the end every acknowledged move and play is read back
from the last leader's database. A report is printed; the exit status is 0 only if all held.

As root, etcd, Patroni and PostgreSQL run as the user `postgres`; otherwise as the caller.
Every process started here is killed on the way out, on failure and on SIGINT/SIGTERM too.
"""
import glob, http.client, json, os, pwd, random, shutil, signal, socket, subprocess, sys
import tempfile, threading, time, urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
os.environ["SERVER_BIN"] = sys.argv[1] if len(sys.argv) > 1 else "build/server"
sys.path[:0] = [os.path.join(ROOT, "tests", "api"), os.path.dirname(os.path.abspath(__file__))]
from harness import Server  # noqa: E402  (every response is checked against openapi.json)
from games import GAMES, free_dice, morgue_move, move_from_option, normal_move  # noqa: E402
from league_util import Client  # noqa: E402
from check_compose import NODE_ENV  # noqa: E402  (the variables compose.yaml gives each node)

CONFIG_DIR = os.path.join(ROOT, "docker", "patroni")
CONFIG = os.path.join(CONFIG_DIR, "patroni.yml")
NODES = ("pg1", "pg2")
POLL = 0.05


class Failed(Exception):
    pass


def wait_for(what, deadline_s, cond, interval=POLL):
    """Polls cond() until it returns something true, at most deadline_s seconds."""
    end = time.monotonic() + deadline_s
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > end:
            raise Failed(f"timed out after {deadline_s} s waiting for {what}")
        time.sleep(interval)


def free_port(taken):
    """A loopback TCP port nothing listens on, and no PostgreSQL socket of that number exists
    in the default socket directory (other clusters of this machine live there)."""
    for _ in range(100):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        p = s.getsockname()[1]
        s.close()
        if p not in taken and not os.path.exists(f"/var/run/postgresql/.s.PGSQL.{p}"):
            taken.add(p)
            return p
    raise Failed("no free port")


def pg_bin_dir():
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"),
                  key=lambda p: int(p.split("/")[4]))
    if not dirs:
        raise Failed("no PostgreSQL under /usr/lib/postgresql/*/bin")
    return os.path.dirname(dirs[-1])


def http_json(url, timeout=1.0):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:  # Patroni answers 503 with a JSON body on many checks
        try:
            return json.loads(e.read())
        except ValueError:
            return None
    except (OSError, ValueError):
        return None


class Cluster:
    """etcd and the Patroni nodes; owns every process it starts and the temporary directory."""

    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="patroni-failover-")
        os.chmod(self.tmp, 0o755)
        if os.getuid() == 0:
            pw = pwd.getpwnam("postgres")
            self.user = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
        else:
            pw = pwd.getpwuid(os.getuid())
            self.user = {}
        self.uid, self.gid = pw.pw_uid, pw.pw_gid
        self.procs = {}  # name → Popen, each the leader of its own process group
        taken = set()
        self.etcd_client, self.etcd_peer = free_port(taken), free_port(taken)
        self.pg_port = {n: free_port(taken) for n in NODES}
        self.rest_port = {n: free_port(taken) for n in NODES}
        self.bin_dir = pg_bin_dir()
        rng = random.SystemRandom()
        self.superuser_pw = "su-%016x" % rng.getrandbits(64)
        self.replication_pw = "repl-%016x" % rng.getrandbits(64)
        self.app_pw = "app-%016x" % rng.getrandbits(64)

    def path(self, *p):
        return os.path.join(self.tmp, *p)

    def mkdir(self, *p):
        d = self.path(*p)
        os.makedirs(d, mode=0o700, exist_ok=True)
        os.chown(d, self.uid, self.gid)
        return d

    def spawn(self, name, argv, env, cwd):
        log = open(self.path(name + ".log"), "ab")
        self.procs[name] = subprocess.Popen(argv, env=env, cwd=cwd, stdout=log,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            start_new_session=True, **self.user)
        log.close()

    def base_env(self, home):
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home}

    # ---- etcd ----
    def start_etcd(self):
        d = self.mkdir("etcd")
        c, p = f"http://127.0.0.1:{self.etcd_client}", f"http://127.0.0.1:{self.etcd_peer}"
        self.spawn("etcd", ["etcd", "--name", "etcd1", "--data-dir", os.path.join(d, "data"),
                            "--listen-client-urls", c, "--advertise-client-urls", c,
                            "--listen-peer-urls", p, "--initial-advertise-peer-urls", p,
                            "--initial-cluster", f"etcd1={p}", "--initial-cluster-state", "new",
                            "--logger", "zap", "--log-level", "warn"], self.base_env(d), d)
        wait_for("etcd", 30, lambda: (http_json(c + "/health") or {}).get("health") == "true"
                 or self.check_alive("etcd"))

    # ---- Patroni ----
    def node_env(self, n):
        d = self.mkdir(n)
        env = self.base_env(d)
        env.update({
            "PATRONI_NAME": n,
            "PATRONI_ETCD3_HOSTS": f"127.0.0.1:{self.etcd_client}",
            "PATRONI_RESTAPI_LISTEN": f"127.0.0.1:{self.rest_port[n]}",
            "PATRONI_RESTAPI_CONNECT_ADDRESS": f"127.0.0.1:{self.rest_port[n]}",
            "PATRONI_POSTGRESQL_LISTEN": f"127.0.0.1:{self.pg_port[n]}",
            "PATRONI_POSTGRESQL_CONNECT_ADDRESS": f"127.0.0.1:{self.pg_port[n]}",
            "PATRONI_POSTGRESQL_DATA_DIR": os.path.join(d, "data"),
            "PATRONI_POSTGRESQL_BIN_DIR": self.bin_dir,
            "PATRONI_POSTGRESQL_PGPASS": os.path.join(d, "pgpass"),
            "PATRONI_SUPERUSER_PASSWORD": self.superuser_pw,
            "PATRONI_REPLICATION_PASSWORD": self.replication_pw,
            "APP_DB_PASSWORD": self.app_pw,
        })
        assert set(env) - set(self.base_env(d)) == NODE_ENV, "compose.yaml sets other variables"
        return env

    def start_node(self, n):
        # the working directory is the configuration's: patroni.yml names ./post_bootstrap.sh
        self.spawn(n, ["patroni", CONFIG], self.node_env(n), CONFIG_DIR)

    def check_alive(self, name):
        p = self.procs[name]
        if p.poll() is not None:
            raise Failed(f"{name} exited with {p.returncode}:\n" + self.tail(name))
        return False

    def tail(self, name, lines=30):
        try:
            with open(self.path(name + ".log"), errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def members(self, via=None):
        """Patroni's view of the cluster ({name: member}) from the first node that answers."""
        for n in ([via] if via else NODES):
            c = http_json(f"http://127.0.0.1:{self.rest_port[n]}/cluster")
            if c and "members" in c:
                return {m["name"]: m for m in c["members"]}
        return {}

    def leader_and_sync(self):
        """(leader, sync standby) once both are running and the standby streams, else None."""
        ms = self.members()
        leader = [n for n, m in ms.items() if m.get("role") == "leader"
                  and m.get("state") == "running"]
        sync = [n for n, m in ms.items() if m.get("role") == "sync_standby"
                and m.get("state") in ("running", "streaming")]
        if leader and sync and self.writable(leader[0]):
            return leader[0], sync[0]
        return None

    def patronictl_list(self):
        env = dict(os.environ, PATRONI_ETCD3_HOSTS=f"127.0.0.1:{self.etcd_client}")
        r = subprocess.run(["patronictl", "-c", CONFIG, "list"], env=env, capture_output=True,
                           text=True, timeout=20)
        return (r.stdout + r.stderr).rstrip()

    # ---- PostgreSQL ----
    def psql(self, n, sql, timeout=10):
        env = dict(self.base_env(self.tmp), PGPASSWORD=self.app_pw, PGCONNECT_TIMEOUT="2")
        r = subprocess.run([os.path.join(self.bin_dir, "psql"), "-X", "-A", "-t", "-q",
                            "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                            str(self.pg_port[n]), "-U", "dicehospital", "-d", "dicehospital",
                            "-c", sql], env=env, capture_output=True, text=True, timeout=timeout)
        if r.returncode != 0:
            raise Failed(f"psql on {n}: {r.stderr.strip()}")
        return r.stdout.strip()

    def writable(self, n):
        try:
            return self.psql(n, "SELECT NOT pg_is_in_recovery()") == "t"
        except (Failed, subprocess.TimeoutExpired):
            return False

    def postmaster_pid(self, n):
        try:
            with open(self.path(n, "data", "postmaster.pid")) as f:
                return int(f.readline())
        except (OSError, ValueError):
            return None

    def kill_postmaster(self, n):
        pid = self.postmaster_pid(n)
        if pid is None:
            raise Failed(f"{n}: no postmaster.pid")
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:  # already gone with Patroni's process group
            pass
        return pid

    def kill_node(self, n):
        """The node lost: Patroni and PostgreSQL killed at once, nothing left to clean up."""
        p = self.procs[n]
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return self.kill_postmaster(n)

    # ---- the way out ----
    def processes_here(self):
        """Every process whose working directory is in the temporary directory (PostgreSQL's
        are in their data directories, whatever process group Patroni started them in)."""
        pids = []
        for d in glob.glob("/proc/[0-9]*"):
            try:
                cwd = os.readlink(d + "/cwd")
            except OSError:
                continue
            if cwd == self.tmp or cwd.startswith(self.tmp + "/"):
                pids.append(int(d[6:]))
        return pids

    def stop(self):
        for name, p in self.procs.items():
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        for _ in range(100):  # a postmaster's children end when it does; poll until none left
            pids = self.processes_here()
            if not pids:
                return []
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(POLL)
        return self.processes_here()


class Player:
    """One client, one request at a time: ER games (app deck, two seats) and, every tenth write,
    a league play. Every acknowledged write is recorded; every request too (start, end, status),
    which gives the unavailability window. A request that fails (503, or a connection error)
    leaves the outcome to be read again: the loop asks for the game's state before going on."""

    def __init__(self, srv, league_client, league_id, member_ids, max_requests=40000):
        self.s, self.lc, self.lid, self.members = srv, league_client, league_id, member_ids
        self.requests = []    # (t0, t1, method, path kind, status or None, retry-after)
        self.acked_moves = []  # (game id, seat, turn, move)
        self.acked_plays = []  # play id
        self.failed_moves = {}  # (game id, seat, turn) → (status, the 503's detail)
        self.games = {}        # game id → host token
        self.errors = []
        self.stop = threading.Event()
        self.max_requests = max_requests
        self.writes = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def call(self, kind, fn):
        if len(self.requests) >= self.max_requests:
            raise Failed(f"more than {self.max_requests} requests")
        t0 = time.monotonic()
        try:
            st, hd, obj = fn()
        except (OSError, http.client.HTTPException) as e:
            st, hd, obj = None, {}, repr(e)
        t1 = time.monotonic()
        self.requests.append((t0, t1, kind, st, hd.get("retry-after")))
        if st is None or st == 503:
            time.sleep(POLL)  # the server said: later (Retry-After); poll again shortly
        elif st >= 400:
            raise Failed(f"{kind}: unexpected {st}: {obj}")
        return st, obj

    def api(self, kind, method, path, body=None, token=None):
        return self.call(kind, lambda: self.s.json(method, path, body, token=token))

    def new_game(self):
        st, g = self.api("create", "POST", GAMES, {"players": [{"name": "Ann"}, {"name": "Bob"}],
                                                   "deck": "app"})
        if st != 201:
            return None
        self.games[g["id"]] = g["host_token"]
        return g

    def play(self):
        st, o = self.call("play", lambda: self.lc.post(f"/api/v1/leagues/{self.lid}/plays", {
            "game": "Azul", "results": [{"player": self.members[0], "rank": 1},
                                        {"player": self.members[1], "rank": 2}]}))
        if st == 201:
            self.acked_plays.append(o["id"])

    def run(self):
        try:
            self.loop()
        except Exception as e:  # noqa: BLE001  (reported, fails the test)
            self.errors.append(repr(e))

    def loop(self):
        game, cur = None, None
        while not self.stop.is_set():
            if game is None:
                game = self.new_game()
                cur = None
                continue
            gid, host = game["id"], game["host_token"]
            toks = {x["seat"]: x["seat_token"] for x in game["seats"] if x["seat_token"]}
            if cur is None:
                st, cur = self.api("state", "GET", f"{GAMES}/{gid}", token=host)
                if st != 200:
                    cur = None
                continue
            if cur["status"] == "finished":
                game = None
                continue
            if self.writes % 10 == 9:
                self.writes += 1
                self.play()
                continue
            n = cur["next"]
            if n["action"] == "reveal":
                st, obj = self.api("reveal", "POST", f"{GAMES}/{gid}/turns", {}, token=host)
                cur = obj if st == 200 else None
                self.writes += st == 200
                continue
            seat = n["seats"][0]
            t = cur["turn"]
            me = {"card": t["card"], "dice": t["dice"], "chief": t["chief_seat"] == seat,
                  "chief_die": None if t["chief_seat"] == seat else t["chief_die"]}
            move = self.first_move(cur["seats"][seat - 1]["sheet"], me)
            if move is None:
                cur = None
                continue
            st, obj = self.api("move", "POST", f"{GAMES}/{gid}/seats/{seat}/moves",
                               {"turn": n["turn"], "move": move}, token=toks[seat])
            if st == 200:
                self.acked_moves.append((gid, seat, n["turn"], move))
                self.writes += 1
                cur = obj
                time.sleep(0.005)  # about 100 writes a second at most: the machine is shared
            else:
                detail = obj.get("detail") if isinstance(obj, dict) else obj
                self.failed_moves[(gid, seat, n["turn"])] = (st, detail)
                cur = None

    def first_move(self, sheet, turn):
        dice = free_dice(turn)
        st, o = self.api("options", "POST", "/api/v1/er/moves/options",
                         {"sheet": sheet, "turn": turn})
        if st != 200:
            return None
        for opt in o["options"]:
            if opt["die"] in dice and opt["blood_bags"] == 0:
                return move_from_option(turn["card"], opt)
        return morgue_move(turn["card"], dice[0])

    # ---- what the requests show ----
    def window(self, t_kill):
        """About one failover at t_kill: the first failure after it, the first write
        acknowledged after the failures, and the failures in between."""
        writes = ("create", "reveal", "move", "play")
        after = [r for r in self.requests if r[1] >= t_kill]
        fails = [r for r in after if r[3] is None or r[3] == 503]
        if not fails:
            return None
        first_fail = fails[0]
        ok = [r for r in after if r[2] in writes and r[3] in (200, 201) and r[0] > first_fail[0]]
        if not ok:
            return None
        first_ok = ok[0]
        between = [r for r in fails if r[0] < first_ok[0]]
        return {"first_fail": first_fail[1] - t_kill, "first_ok": first_ok[1] - t_kill,
                "fails": len(between),
                "no_retry_after": sum(1 for r in between if r[3] == 503 and not r[4]),
                "conn_errors": sum(1 for r in between if r[3] is None),
                "statuses": sorted({r[3] for r in between}, key=str)}

    def acked_after(self, t):
        return sum(1 for r in self.requests if r[0] >= t and r[2] in ("reveal", "move", "play")
                   and r[3] in (200, 201))


def report_line(fmt, *a):
    print(fmt % a if a else fmt, flush=True)


def failover(cl, pl, number, how):
    """Kills the leader (how: "postmaster" or "node"), returns what was measured."""
    leader, sync = wait_for("a leader and a synchronous standby", 120, cl.leader_and_sync)
    base = pl.acked_after(0)
    wait_for("writes before the failure", 30,
             lambda: pl.acked_after(0) >= base + 30 or pl.errors)
    if pl.errors:
        raise Failed("client: " + "; ".join(pl.errors))
    report_line("failover %d: leader %s, synchronous standby %s; killing the %s of %s",
                number, leader, sync, "postmaster" if how == "postmaster" else
                "Patroni and the postmaster", leader)
    t_kill = time.monotonic()
    pid = cl.kill_postmaster(leader) if how == "postmaster" else cl.kill_node(leader)

    def promoted():
        m = cl.members(via=sync).get(sync, {})
        return m.get("role") == "leader" and m.get("state") == "running"
    wait_for(f"Patroni to promote {sync}", 60, promoted)
    t_promoted = time.monotonic() - t_kill
    wait_for("a failure, then a write acknowledged", 60, lambda: pl.window(t_kill) or pl.errors)
    if pl.errors:
        raise Failed("client: " + "; ".join(pl.errors))
    w = pl.window(t_kill)
    t_after = time.monotonic()
    wait_for("more writes after the failover", 30,
             lambda: pl.acked_after(t_after) >= 30 or pl.errors)
    report_line("  killed pid %d; Patroni: %s leader after %.2f s", pid, sync, t_promoted)
    report_line("  client: first failure %.2f s after the kill, first acknowledged write %.2f s "
                "after it; %d failed requests in between (statuses %s, %d without Retry-After, "
                "%d connection errors)", w["first_fail"], w["first_ok"], w["fails"],
                w["statuses"], w["no_retry_after"], w["conn_errors"])
    if w["no_retry_after"]:
        raise Failed("a 503 without Retry-After")
    if w["conn_errors"]:
        raise Failed("the server closed or refused connections during the failover")
    report_line(cl.patronictl_list())
    w.update(leader=leader, new_leader=sync, promoted=t_promoted)
    return w


def setup_league(srv):
    c = Client(srv)
    c.signup("ha@example.org")
    c.login("ha@example.org")
    st, _, lg = c.post("/api/v1/leagues", {"name": "HA club"})
    assert st == 201, (st, lg)
    st, _, bea = c.post(f"/api/v1/leagues/{lg['id']}/members", {"name": "Bea"})
    assert st == 201, (st, bea)
    return c, lg["id"], [lg["members"][0]["id"], bea["id"]]


def check_stored(cl, node, pl):
    """Every acknowledged move and play is in node's database; returns the counts."""
    rows = json.loads(cl.psql(node, "SELECT coalesce(json_agg(json_build_array(game_id, seat, "
                              "turn, payload->'move')), '[]') FROM events WHERE kind = 'move'"))
    stored = {(g, s, t): m for g, s, t, m in rows}
    lost = [(g, s, t) for g, s, t, m in pl.acked_moves if stored.get((g, s, t)) != normal_move(m)]
    acked = {(g, s, t) for g, s, t, m in pl.acked_moves}
    # stored though the client was not told so: the connection broke after COMMIT went out
    unacked = [(k, pl.failed_moves.get(k)) for k in stored if k not in acked]
    plays = set(json.loads(cl.psql(node, "SELECT coalesce(json_agg(id), '[]') FROM plays")))
    lost_plays = [p for p in pl.acked_plays if p not in plays]
    return len(rows), len(plays), lost, lost_plays, unacked


def main():
    date = time.strftime("%Y-%m-%d %H:%M")
    cl = Cluster()
    srv, pl, ok = None, None, False

    def on_signal(signum, frame):
        raise SystemExit(128 + signum)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    try:
        t0 = time.monotonic()
        cl.start_etcd()
        t_etcd = time.monotonic()
        cl.start_node("pg1")
        wait_for("pg1 to become the leader", 120,
                 lambda: cl.members().get("pg1", {}).get("role") == "leader"
                 and cl.writable("pg1") or cl.check_alive("pg1"))
        t_pg1 = time.monotonic()
        cl.start_node("pg2")
        wait_for("pg2 to become the synchronous standby", 120,
                 lambda: cl.leader_and_sync() or cl.check_alive("pg2"))
        t_pg2 = time.monotonic()
        report_line("cluster up in %.1f s (etcd %.1f s, pg1 leader %.1f s, pg2 synchronous "
                    "standby %.1f s; ports: etcd %d, pg1 %d, pg2 %d; %s)", t_pg2 - t0,
                    t_etcd - t0, t_pg1 - t_etcd, t_pg2 - t_pg1, cl.etcd_client, cl.pg_port["pg1"],
                    cl.pg_port["pg2"], subprocess.run(["patroni", "--version"],
                                                      capture_output=True,
                                                      text=True).stdout.strip())
        report_line(cl.patronictl_list())
        url = (f"host=127.0.0.1,127.0.0.1 port={cl.pg_port['pg1']},{cl.pg_port['pg2']} "
               f"dbname=dicehospital user=dicehospital password={cl.app_pw} "
               "target_session_attrs=read-write")
        srv = Server(database=url).start()
        lc, lid, members = setup_league(srv)
        pl = Player(srv, lc, lid, members)
        pl.thread.start()
        results = [failover(cl, pl, 1, "postmaster")]
        report_line("waiting for %s to rejoin as the synchronous standby", results[0]["leader"])
        t_rejoin = time.monotonic()
        wait_for("the old leader to rejoin as synchronous standby", 120,
                 lambda: (cl.leader_and_sync() or (None, None))[1] == results[0]["leader"])
        report_line("  %s is the synchronous standby again after %.1f s", results[0]["leader"],
                    time.monotonic() - t_rejoin)
        results.append(failover(cl, pl, 2, "node"))
        pl.stop.set()
        pl.thread.join(30)
        if pl.errors:
            raise Failed("client: " + "; ".join(pl.errors))
        last = results[-1]["new_leader"]
        nrows, nplays, lost, lost_plays, unacked = check_stored(cl, last, pl)
        conns = cl.psql(last, "SELECT coalesce(string_agg(application_name || ' ' || n, ', '), "
                              "'none') FROM (SELECT application_name, count(*) AS n FROM "
                              "pg_stat_activity WHERE usename = 'dicehospital' AND pid <> "
                              "pg_backend_pid() GROUP BY 1 ORDER BY 1) a")
        fails = sum(1 for r in pl.requests if r[3] != 200 and r[3] != 201)
        report_line("")
        report_line("REPORT (%s, %s, PostgreSQL %s)", date, socket.gethostname(),
                    os.path.basename(os.path.dirname(cl.bin_dir)))
        for i, w in enumerate(results, 1):
            report_line("  failover %d (%s): %s -> %s, promoted after %.2f s; writes failed "
                        "from %.2f s to %.2f s after the kill: %d requests answered 503 with "
                        "Retry-After", i, "postmaster killed" if i == 1 else "node killed",
                        w["leader"], w["new_leader"], w["promoted"], w["first_fail"],
                        w["first_ok"], w["fails"])
        report_line("  requests: %d, failed %d; acknowledged: %d moves, %d plays in %d games",
                    len(pl.requests), fails, len(pl.acked_moves), len(pl.acked_plays),
                    len(pl.games))
        report_line("  stored on the last leader %s: %d moves, %d plays; acknowledged but "
                    "missing: %d moves, %d plays", last, nrows, nplays, len(lost),
                    len(lost_plays))
        for k, why in unacked:
            report_line("  stored, but its request failed (%s): move of seat %d, turn %d; the "
                        "client read the game again and went on", why, k[1], k[2])
        report_line("  the server's connections to %s: %s", last, conns)
        if lost or lost_plays:
            raise Failed(f"acknowledged writes lost: moves {lost[:5]}, plays {lost_plays[:5]}")
        ok = True
        report_line("PASS")
    except Failed as e:
        report_line("FAIL: %s", e)
    finally:
        if pl is not None:
            pl.stop.set()
            pl.thread.join(15)
        if srv is not None:
            srv.stop()
            if not ok:
                report_line("--- server log (last lines) ---\n%s",
                            "".join(srv.output().splitlines(True)[-40:]))
            srv.drop_log()
        if not ok:
            for name in ("etcd",) + NODES:
                if name in cl.procs:
                    report_line("--- %s log (last lines) ---\n%s", name, cl.tail(name))
        left = cl.stop()
        if left:
            report_line("FAIL: processes left running: %s", left)
            ok = False
        if ok:
            shutil.rmtree(cl.tmp, ignore_errors=True)
        else:
            report_line("files kept in %s", cl.tmp)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
