"""The migration runner (`server migrate`, and every server start): each migration exactly once,
even with several servers starting together; a failing migration leaves nothing behind."""
import glob, os, shutil, subprocess, tempfile

from harness import ROOT, SERVER_BIN, make_database

MIGRATIONS = os.path.join(ROOT, "migrations")


def _files(d=MIGRATIONS):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "[0-9]*.sql")))


def _env(db, migrations=MIGRATIONS):
    env = dict(os.environ)
    env.update({"DATABASE_URL": db, "MIGRATIONS_DIR": migrations,
                "STATIC_DIR": os.path.join(ROOT, "static"),
                "TEMPLATES_DIR": os.path.join(ROOT, "templates"),
                # fail at once instead of waiting for a database that is there
                "DB_WAIT": "0"})
    return env


def _migrate(db, migrations=MIGRATIONS):
    p = subprocess.run([os.path.join(ROOT, SERVER_BIN), "migrate"], env=_env(db, migrations),
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def _sql(db, query):
    p = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c",
                        query], capture_output=True, text=True, check=True)
    return [line.split("|") for line in p.stdout.splitlines() if line]


def _applied(db):
    return [(int(v), n) for v, n in _sql(db, "SELECT version, name FROM schema_migrations "
                                             "ORDER BY version")]


def _expected():
    return [(int(f[:4]), f) for f in _files()]


def _check_sanitizers(out):
    assert "AddressSanitizer" not in out and "runtime error:" not in out, out[-3000:]


def test_concurrent_migrate_applies_each_once():
    db = make_database("h_migrate_race")
    env = _env(db)
    procs = [subprocess.Popen([os.path.join(ROOT, SERVER_BIN), "migrate"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(4)]
    outs = []
    for p in procs:
        out, _ = p.communicate(timeout=60)
        outs.append(out)
        assert p.returncode == 0, out
        _check_sanitizers(out)
    assert _applied(db) == _expected()
    everything = "".join(outs)
    for f in _files():
        assert everything.count(f"applied {f}") == 1, everything
    # the schema they built is complete: 0001's row is there
    assert _sql(db, "SELECT id FROM instance") == [["1"]]


def test_rerun_applies_nothing():
    db = make_database("h_migrate_rerun")
    rc, out = _migrate(db)
    assert rc == 0, out
    before = _sql(db, "SELECT version, applied_at FROM schema_migrations ORDER BY version")
    rc, out = _migrate(db)
    assert rc == 0, out
    assert "applied 0" not in out and "0 applied" in out, out
    assert _sql(db, "SELECT version, applied_at FROM schema_migrations "
                    "ORDER BY version") == before


def test_broken_migration_rolls_back():
    db = make_database("h_migrate_broken")
    with tempfile.TemporaryDirectory() as d:
        for f in _files():
            shutil.copy(os.path.join(MIGRATIONS, f), d)
        with open(os.path.join(d, "9999_broken.sql"), "w") as fh:
            fh.write("-- creates a table, then fails on line 4\n"
                     "CREATE TABLE broken_half (x int);\n"
                     "INSERT INTO broken_half VALUES (1);\n"
                     "SELECT no_such_function();\n")
        rc, out = _migrate(db, d)
        assert rc != 0, out
        _check_sanitizers(out)
        assert "9999_broken.sql" in out and "line 4" in out, out
        # the good ones went in, the broken one left nothing behind
        assert _applied(db) == _expected()
        assert _sql(db, "SELECT to_regclass('broken_half') IS NULL") == [["t"]]
        # fixing the file lets the next run apply it
        with open(os.path.join(d, "9999_broken.sql"), "w") as fh:
            fh.write("CREATE TABLE broken_half (x int);\n")
        rc, out = _migrate(db, d)
        assert rc == 0, out
        assert _applied(db)[-1] == (9999, "9999_broken.sql")


def test_transaction_control_in_migration_refused():
    db = make_database("h_migrate_commit")
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "0001_commits.sql"), "w") as fh:
            fh.write("CREATE TABLE committed_early (x int);\nCOMMIT;\n")
        rc, out = _migrate(db, d)
        assert rc != 0, out
        assert _sql(db, "SELECT count(*) FROM schema_migrations") == [["0"]]


def test_bad_file_names_refused():
    for bad in ("0003-dash.sql", "3_short.sql", "0003_Upper.sql", "0003_.sql", "0000_zero.sql"):
        db = make_database("h_migrate_names")
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(MIGRATIONS, "0001_base.sql"), d)
            open(os.path.join(d, bad), "w").close()
            rc, out = _migrate(db, d)
            assert rc != 0, (bad, out)
            assert bad in out, out
            # refused before touching the database
            assert _sql(db, "SELECT to_regclass('schema_migrations') IS NULL") == [["t"]], bad
    # two files of one version
    db = make_database("h_migrate_names")
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(os.path.join(MIGRATIONS, "0001_base.sql"), d)
        shutil.copy(os.path.join(MIGRATIONS, "0001_base.sql"), os.path.join(d, "0001_again.sql"))
        rc, out = _migrate(db, d)
        assert rc != 0 and "same version" in out, out


def test_missing_directory():
    rc, out = _migrate(make_database("h_migrate_nodir"), "/nonexistent/migrations")
    assert rc != 0 and "/nonexistent/migrations" in out, out
