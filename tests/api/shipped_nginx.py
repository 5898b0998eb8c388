"""docker/nginx.conf, the proxy configuration we ship, run for real by the tests in front of
servers of the harness (test_deploy.py, test_scaleout.py).

The file is used as it is, with only what ties it to Docker replaced: the listen address (a free
loopback port), the upstream line `server app:8080;` (one line per server), the log files and
the temporary directories (this test's own directory), plus `daemon off; master_process off;`
and the pid file through nginx's -g option. Each replacement must find exactly what it expects:
when the shipped file's structure changes, the test fails saying so, instead of testing
something else. nginx missing is a failure too (it is in the Makefile's DEB_PKGS)."""
import http.client, os, re, shutil, subprocess, tempfile, time

from harness import ROOT, Server, free_port

SHIPPED = os.path.join(ROOT, "docker", "nginx.conf")
TEMP_DIRS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def nginx_binary():
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if not found:
        raise AssertionError("nginx is not installed (apt-get install nginx): the shipped proxy "
                             "configuration cannot be tested without it")
    return found


def _sub(conf, pattern, repl, what, count=1):
    """conf with pattern replaced; exactly count matches (None: at least one), else fails."""
    new, n = re.subn(pattern, repl, conf, flags=re.M)
    if (count is None and n == 0) or (count is not None and n != count):
        raise AssertionError(f"docker/nginx.conf: expected {count or 'some'} {what} "
                             f"(/{pattern}/), found {n}: its structure changed, so update "
                             "tests/api/shipped_nginx.py with it")
    return new


def shipped_conf(dir_, port, upstreams):
    """The text of docker/nginx.conf for a run on 127.0.0.1:port in front of the servers on
    the loopback ports upstreams, logging and buffering into dir_."""
    with open(SHIPPED) as f:
        conf = f.read()
    conf = _sub(conf, r"^(\s*)listen\s+[^;]*;", rf"\g<1>listen 127.0.0.1:{port};",
                "listen directive")
    # the upstream block holds one server line, the replicas' name
    conf = _sub(conf, r"^(\s*)server\s+[^;{]*;", lambda m: "\n".join(
        f"{m.group(1)}server 127.0.0.1:{p};" for p in upstreams), "upstream server line")
    conf = _sub(conf, r"^(\s*)access_log\s+[^;]*;", rf"\g<1>access_log {dir_}/access.log;",
                "access_log", count=None)
    conf = _sub(conf, r"^(\s*)error_log\s+\S+(\s+\w+)?;", rf"\g<1>error_log {dir_}/error.log\2;",
                "error_log", count=None)
    temps = "".join(f"\n\t{d}_temp_path {dir_}/tmp/{d};" for d in TEMP_DIRS)
    conf = _sub(conf, r"^http\s*\{", lambda m: m.group(0) + temps, "http block")
    return conf


class Via(Server):
    """The harness's HTTP helpers (request, json) pointed at nginx: every answer is checked
    against static/openapi.json as the server's are."""

    def __init__(self, port):
        self.port = port
        self.extra_routes = False


class Nginx:
    """docker/nginx.conf (shipped_conf) running as this test's own process, in front of the
    servers on the given loopback ports."""

    def __init__(self, upstreams):
        self.binary = nginx_binary()
        self.dir = tempfile.mkdtemp(prefix="nginx-")
        for d in TEMP_DIRS:
            os.makedirs(os.path.join(self.dir, "tmp", d))
        self.port = free_port()
        self.conf = os.path.join(self.dir, "nginx.conf")
        with open(self.conf, "w") as f:
            f.write(shipped_conf(self.dir, self.port, upstreams))
        self.proc = None

    def command(self, *extra):
        return [self.binary, "-p", self.dir, "-e", os.path.join(self.dir, "error.log"),
                "-c", self.conf, "-g",
                f"daemon off; master_process off; pid {self.dir}/nginx.pid;", *extra]

    def __enter__(self):
        t = subprocess.run(self.command("-t"), capture_output=True, text=True)
        assert t.returncode == 0, "nginx -t refuses docker/nginx.conf:\n" + t.stderr
        self.proc = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.STDOUT)
        end = time.time() + 10
        while time.time() < end:
            assert self.proc.poll() is None, "nginx exited: " + self.log()
            try:
                if self._health() == 200:
                    return self
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.05)
        self.__exit__(None, None, None)
        raise AssertionError("nginx did not come up: " + self.log())

    def _health(self):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            c.request("GET", "/api/v1/health")
            r = c.getresponse()
            r.read()
            return r.status
        finally:
            c.close()

    def log(self):
        try:
            with open(os.path.join(self.dir, "error.log")) as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    def __exit__(self, *exc):
        if self.proc:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
