"""Runs every test_* function of tests/api/test_*.py; prints PASS/FAIL lines.
usage: python3 tests/api/run.py SERVER_BIN [name-filter]
A filter is one or more substrings of "module.test_name" separated by commas: a test runs when
its name contains any of them."""
import importlib.util, os, sys, traceback, glob, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
if len(sys.argv) > 1:
    os.environ["SERVER_BIN"] = sys.argv[1]
flt = [f for f in (sys.argv[2] if len(sys.argv) > 2 else "").split(",") if f]
passed = failed = 0
for path in sorted(glob.glob(os.path.join(here, "test_*.py"))):
    modname = os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception:
        print(f"FAIL {modname}: import\n" + "".join("  " + l for l in traceback.format_exc().splitlines(True)))
        failed += 1
        continue
    for name in sorted(n for n in dir(mod) if n.startswith("test_")):
        full = f"{modname}.{name}"
        if flt and not any(f in full for f in flt):
            continue
        t0 = time.time()
        try:
            getattr(mod, name)()
            print(f"PASS {full} ({time.time() - t0:.2f}s)")
            passed += 1
        except Exception:
            print(f"FAIL {full}")
            # the test's own lines first (which call failed), then where it failed
            lines = traceback.format_exc().splitlines()
            if len(lines) > 23:
                lines = lines[:6] + ["  …"] + lines[-16:]
            for l in lines:
                print("  " + l)
            failed += 1
        sys.stdout.flush()
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
