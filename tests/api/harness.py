"""API test harness: starts the real server against the throwaway PostgreSQL that
pg_virtualenv provides (libpq PG* variables), and talks HTTP to it.

    with Server() as s:
        st, hd, body = s.request("GET", "/api/v1/health")
        st, hd, obj = s.json("POST", "/api/v1/er/score", {...})

Every response that Server.request receives is checked against static/openapi.json (contract.py):
an undocumented status or a body that does not validate fails the test that made the request.
"""
import gzip, http.client, json, os, socket, subprocess, sys, tempfile, time, signal, weakref

import contract

SERVER_BIN = os.environ.get("SERVER_BIN", "build/server")
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
# free_port(): a port free on [::] dual stack, as the server binds, below the ephemeral range
from ports import free_port  # noqa: E402  (tests/lib/ports.py)


def make_database(name):
    """Creates (or recreates) a database and returns a conninfo for it."""
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-d", "postgres", "-c",
                    f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', "-c",
                    f'CREATE DATABASE "{name}"'], check=True, capture_output=True)
    return f"dbname={name}"


def unique_members(pairs):
    """json object_pairs_hook: an object that repeats a member name is an error (RFC 8259
    says names SHOULD be unique; ours are)."""
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise ValueError(f"an object repeats the member name {k!r}")
        seen.add(k)
    return dict(pairs)


def strict_json(data):
    """data (bytes or str) parsed as JSON, refusing a repeated member name."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    return json.loads(data, object_pairs_hook=unique_members)


def _drop_log(log):
    log.close()
    try:
        os.unlink(log.name)
    except FileNotFoundError:
        pass


class Server:
    def __init__(self, env=None, args=(), port=None, database=None, wait=True, binary=None):
        self.fixed_port = port is not None
        self.port = port or free_port()
        self.env = dict(os.environ)
        self.env.update({"PORT": str(self.port), "STATIC_DIR": os.path.join(ROOT, "static"),
                         "TEMPLATES_DIR": os.path.join(ROOT, "templates"),
                         "MIGRATIONS_DIR": os.path.join(ROOT, "migrations")})
        if database:
            self.env["DATABASE_URL"] = database
        self.env.update(env or {})
        self.args = list(args)
        self.binary = binary or SERVER_BIN
        # A server built with kinds only the tests register (tests/engine/) serves routes the
        # document does not describe: those go unchecked; the documented ones are still checked.
        self.extra_routes = self.binary != SERVER_BIN
        self.wait = wait
        self.proc = None
        self.log = tempfile.NamedTemporaryFile(prefix="server-", suffix=".log", delete=False)
        # gone with the Server, whether or not a with-block ended it (a server started with
        # start() and only stopped leaves no file in the temporary folder either)
        self.drop_log = weakref.finalize(self, _drop_log, self.log)

    def start(self):
        # free_port() only finds a port that was free a moment ago: another run's server may
        # draw and take it before this one binds. Then the server exits at once saying so, and
        # it starts again on another port.
        for attempt in range(5):
            self.proc = subprocess.Popen([os.path.join(ROOT, self.binary)] + self.args,
                                         env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
            if not self.wait:
                return self
            try:
                self.wait_ready()
                return self
            except RuntimeError:
                if self.fixed_port or attempt == 4 or "address in use" not in self.output():
                    raise
                self.log.seek(0)
                self.log.truncate(0)
                self.port = free_port()
                self.env["PORT"] = str(self.port)
        return self

    def wait_ready(self, timeout=20):
        """Until the server says it listens and a connection to its port succeeds (a
        connection alone could reach another process that took the port)."""
        end = time.time() + timeout
        while time.time() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited {self.proc.returncode}: {self.output()}")
            if "server: listening on" in self.output():
                try:
                    c = socket.create_connection(("127.0.0.1", self.port), timeout=0.2)
                    c.close()
                    return
                except OSError:
                    pass
            time.sleep(0.05)
        raise RuntimeError("server did not start: " + self.output())

    def output(self):
        with open(self.log.name, errors="replace") as f:
            return f.read()

    def stop(self, sig=signal.SIGTERM, timeout=15):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode if self.proc else None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        rc = self.stop()
        # A sanitizer report or a crash is a failure of whatever test ran the server.
        out = self.output()
        self.drop_log()
        if exc[0] is not None:  # what the server said as the test failed
            tail = out.splitlines()[-30:]
            print("  server output, last lines:\n" + "".join(f"  | {l}\n" for l in tail), end="")
        if ("ERROR: AddressSanitizer" in out or "runtime error:" in out or "LeakSanitizer" in out
                or "WARNING: ThreadSanitizer" in out):
            raise AssertionError("sanitizer report:\n" + out[-4000:])
        if exc[0] is None and rc not in (0, None, -signal.SIGKILL):
            raise AssertionError(f"server exited {rc}:\n" + out[-2000:])

    def conn(self, timeout=10):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method, path, body=None, headers=None, timeout=10):
        c = self.conn(timeout)
        h = dict(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
            h.setdefault("Content-Type", "application/json")
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        data = r.read()
        hd = {k.lower(): v for k, v in r.getheaders()}
        c.close()
        contract.check_response(method, path, r.status, hd, data,
                                undocumented_ok=self.extra_routes)
        if data and "json" in hd.get("content-type", ""):
            # every JSON reply of the suite: no repeated member name
            strict_json(gzip.decompress(data) if hd.get("content-encoding") == "gzip" else data)
        contract.check_request(method, path, r.status, body)
        return r.status, hd, data

    def json(self, method, path, body=None, headers=None, token=None):
        h = dict(headers or {})
        if token:
            h["Authorization"] = "Bearer " + token
        st, hd, data = self.request(method, path, body, h)
        try:
            obj = json.loads(data) if data else None
        except ValueError:
            obj = data
        return st, hd, obj


def problem(testcase_status, hd, obj, status, rule=None, field=None):
    """Asserts a problem+json reply."""
    assert testcase_status == status, f"status {testcase_status} != {status}: {obj}"
    assert hd.get("content-type", "").startswith("application/problem+json"), hd
    for k in ("type", "title", "status", "detail"):
        assert k in obj, f"problem without {k}: {obj}"
    assert obj["status"] == status
    if rule is not None:
        assert obj.get("rule") == rule, f"rule {obj.get('rule')} != {rule}: {obj}"
    if field is not None:
        assert obj.get("field") == field, f"field {obj.get('field')} != {field}: {obj}"
