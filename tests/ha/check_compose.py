#!/usr/bin/env python3
"""Static checks of the "ha" profile of docker/compose.yaml, where no Docker engine runs.

    python3 tests/ha/check_compose.py [-q]      (-q: one line unless something fails)

The YAML loads (anchors and merge keys resolved) and holds together: the default services
(db, app, proxy) have no profile and never reach an "ha" service, nor "proxy-ha" a default one;
every Patroni node sets exactly the variables tests/ha/patroni_failover.py sets (NODE_ENV), its
own name and addresses; the app's DATABASE_URL names every node with target_session_attrs=
read-write; docker/patroni/patroni.yml keeps synchronous_mode on and Patroni's timing rule; the
build targets, files and volumes exist. Then `docker compose config`, if this machine has it,
or Debian's docker-compose 1.x (without the top-level `name`, which 1.x does not know).
Prints what it checked; exit status 1 on the first failure."""
import os, re, shutil, subprocess, sys, tempfile

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCKER = os.path.join(ROOT, "docker")
COMPOSE = os.path.join(DOCKER, "compose.yaml")
PATRONI_YML = os.path.join(DOCKER, "patroni", "patroni.yml")

# What differs from node to node, or is secret: given to Patroni (and post_bootstrap.sh) through
# the environment, by compose.yaml and by the test alike.
NODE_ENV = {"PATRONI_NAME", "PATRONI_ETCD3_HOSTS", "PATRONI_RESTAPI_LISTEN",
            "PATRONI_RESTAPI_CONNECT_ADDRESS", "PATRONI_POSTGRESQL_LISTEN",
            "PATRONI_POSTGRESQL_CONNECT_ADDRESS", "PATRONI_POSTGRESQL_DATA_DIR",
            "PATRONI_POSTGRESQL_BIN_DIR", "PATRONI_POSTGRESQL_PGPASS",
            "PATRONI_SUPERUSER_PASSWORD", "PATRONI_REPLICATION_PASSWORD", "APP_DB_PASSWORD"}


QUIET = "-q" in sys.argv[1:]
CHECKED = []


def check(cond, what):
    if not cond:
        print("FAIL: " + what)
        sys.exit(1)
    CHECKED.append(what)
    if not QUIET:
        print("ok   " + what)


def conninfo(s):
    return dict(kv.split("=", 1) for kv in s.split())


def depends(services, name):
    d = services[name].get("depends_on") or []
    return list(d) if isinstance(d, (dict, list)) else []


def closure(services, name):
    seen, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(depends(services, n))
    return seen


def dockerfile_stages(path):
    with open(path) as f:
        return re.findall(r"^FROM\s+\S+\s+AS\s+(\S+)", f.read(), re.M | re.I)


def static_checks():
    with open(COMPOSE) as f:
        c = yaml.safe_load(f)
    sv = c["services"]
    default = {n for n, s in sv.items() if not s.get("profiles")}
    ha = {n for n, s in sv.items() if "ha" in (s.get("profiles") or [])}
    check(default == {"db", "app", "proxy"}, f"default services are db, app, proxy ({default})")
    check(conninfo(sv["app"]["environment"]["DATABASE_URL"])["host"] == "db",
          "the default app uses the single database")
    for n in sorted(default):
        check(closure(sv, n) <= default, f"default service {n} depends on default services only")
    check(ha == {"etcd", "pg1", "pg2", "app-ha", "proxy-ha"}, f"profile ha: {sorted(ha)}")
    check(closure(sv, "proxy-ha") == ha, "`up proxy-ha` starts every ha service and no other")
    nodes = [n for n in sorted(ha) if sv[n].get("build", {}).get("target") == "patroni"]
    check(nodes == ["pg1", "pg2"], f"Patroni nodes {nodes}")
    url = conninfo(sv["app-ha"]["environment"]["DATABASE_URL"])
    check(url["host"].split(",") == nodes, "app-ha's DATABASE_URL names every node")
    check(len(url["port"].split(",")) == len(nodes), "one port per host")
    check(url.get("target_session_attrs") == "read-write", "target_session_attrs=read-write")
    check("app" in sv["app-ha"]["networks"]["default"]["aliases"],
          "app-ha answers to nginx.conf's upstream name \"app\"")
    check(sv["proxy-ha"]["networks"] == sv["proxy"]["networks"] and
          sv["proxy-ha"]["volumes"] == sv["proxy"]["volumes"],
          "proxy-ha: the same nginx.conf at the same address as proxy (the app's TRUST_PROXY)")
    check(sv["app-ha"]["environment"]["TRUST_PROXY"] == sv["app"]["environment"]["TRUST_PROXY"],
          "app-ha trusts the same proxy addresses")
    etcd_port = None
    for n in nodes:
        env = sv[n]["environment"]
        check(set(env) == NODE_ENV, f"{n} sets exactly the variables the test sets")
        check(env["PATRONI_NAME"] == n, f"{n}: PATRONI_NAME")
        for k in ("PATRONI_RESTAPI_CONNECT_ADDRESS", "PATRONI_POSTGRESQL_CONNECT_ADDRESS"):
            check(env[k].split(":")[0] == n, f"{n}: {k} is its own name")
        check(env["PATRONI_POSTGRESQL_CONNECT_ADDRESS"].split(":")[1] in url["port"].split(","),
              f"{n}: its PostgreSQL port is in DATABASE_URL")
        check(env["APP_DB_PASSWORD"] == url["password"], f"{n}: APP_DB_PASSWORD = the app's")
        host, etcd_port = env["PATRONI_ETCD3_HOSTS"].split(":")
        check(host == "etcd", f"{n}: etcd by its service name")
        vol = sv[n]["volumes"][0].split(":")
        check(env["PATRONI_POSTGRESQL_DATA_DIR"].startswith(vol[1] + "/"),
              f"{n}: the data directory is on its volume {vol[0]}")
        check(vol[0] in c["volumes"], f"{n}: volume {vol[0]} declared")
        check(closure(sv, n) == {n, "etcd"}, f"{n} waits for etcd")
    check(f"http://0.0.0.0:{etcd_port}" in sv["etcd"]["command"], "etcd listens on that port")
    vols = [v.split(":")[0] for s in sv.values() for v in s.get("volumes", [])]
    for v in vols:
        if not v.startswith("."):
            check(v in c["volumes"], f"volume {v} declared")
    for n in sorted(ha | default):
        b = sv[n].get("build")
        if b:
            ctx = os.path.normpath(os.path.join(DOCKER, b["context"]))
            df = os.path.join(ctx, b["dockerfile"])
            check(os.path.isfile(df), f"{n}: {os.path.relpath(df, ROOT)} exists")
            if "target" in b:
                check(b["target"] in dockerfile_stages(df), f"{n}: stage {b['target']}")
    with open(PATRONI_YML) as f:
        p = yaml.safe_load(f)
    dcs = p["bootstrap"]["dcs"]
    check(dcs.get("synchronous_mode") is True, "patroni.yml: synchronous_mode: true")
    check(dcs["loop_wait"] + 2 * dcs["retry_timeout"] <= dcs["ttl"],
          "patroni.yml: loop_wait + 2 × retry_timeout ≤ ttl")
    hook = os.path.join(DOCKER, "patroni", p["bootstrap"]["post_bootstrap"])
    check(os.access(hook, os.X_OK), "patroni.yml: post_bootstrap is an executable beside it")
    check(not ({"name", "restapi", "etcd3"} & {k for k, v in p.items() if v}),
          "patroni.yml: no node's name or address in the shared file")


def compose_config():
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"],
                                 capture_output=True).returncode == 0:
        for prof in ([], ["--profile", "ha"]):
            r = subprocess.run([docker, "compose", "-f", COMPOSE] + prof + ["config", "-q"],
                               capture_output=True, text=True)
            check(r.returncode == 0, "docker compose %sconfig: %s" % (
                " ".join(prof) + " " if prof else "", r.stderr.strip() or "valid"))
        return
    v1 = shutil.which("docker-compose")
    if not v1:
        print("compose: `docker compose config` not run: neither `docker compose` nor "
              "docker-compose here")
        return
    with open(COMPOSE) as f:
        text = "".join(line for line in f if not line.startswith("name:"))
    fd, tmp = tempfile.mkstemp(prefix=".compose-v1-", suffix=".yaml", dir=DOCKER)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        for prof in ([], ["--profile", "ha"]):
            r = subprocess.run([v1, "-f", tmp] + prof + ["config", "-q"], capture_output=True,
                               text=True)
            check(r.returncode == 0, "docker-compose 1.x %sconfig (without `name:`): %s" % (
                " ".join(prof) + " " if prof else "", r.stderr.strip() or "valid"))
    finally:
        os.unlink(tmp)


if __name__ == "__main__":
    static_checks()
    compose_config()
    if QUIET:
        print(f"compose: {len(CHECKED)} checks of docker/compose.yaml and patroni.yml passed")
