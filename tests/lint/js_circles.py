"""No two modules of the front end import each other in a circle (engineering.md: no two files of
a folder call each other in a circle). Reads every static/**/*.js, takes its relative imports
(`import … from "./x.js"`, `import "./x.js"`, `export … from "./x.js"` and the lazy
`import("./x.js")`), and fails on every set of modules that import each other round a circle,
of any length and across folders.
    python3 tests/lint/js_circles.py [ROOT]   (default: the repository; ROOT/static is read)
"""
import glob
import os
import re
import sys
import tempfile

IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}/[^"']+)["']""")
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)


def graph(static):
    """{module: set of modules it imports}, paths relative to static/."""
    g = {}
    for path in sorted(glob.glob(os.path.join(static, "**", "*.js"), recursive=True)):
        mod = os.path.relpath(path, static)
        with open(path, encoding="utf-8") as f:
            text = LINE_COMMENT.sub("", BLOCK_COMMENT.sub("", f.read()))
        g[mod] = {os.path.normpath(os.path.join(os.path.dirname(mod), m.group(1)))
                  for m in IMPORT.finditer(text)}
    return g


def circles(g):
    """The strongly connected sets of more than one module (or a module importing itself),
    each sorted, by Tarjan's algorithm without recursion."""
    index, low, on, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next((x for x in it if x in g), None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in g[v]:
                    found.append(sorted(comp))
    return sorted(found)


def self_check():
    """A planted circle of three (one import lazy) beside a tree must give exactly that circle."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "sub"))
        files = {
            "a.js": 'import { b } from "./b.js";\n',
            "b.js": 'export { c } from "./sub/c.js";\n',
            "sub/c.js": 'const a = () => import("../a.js");\n',
            "d.js": 'import "./a.js";\nimport { x } from "./sub/e.js";\n',
            "sub/e.js": '// import { a } from "../a.js";\n/* import "../d.js"; */ export const x = 1;\n',
        }
        for name, text in files.items():
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        got = circles(graph(d))
    want = [["a.js", "b.js", os.path.join("sub", "c.js")]]
    if got != want:
        print(f"js_circles.py: the check finds {got} in a planted tree whose one circle is {want}")
        sys.exit(2)


def main():
    self_check()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    g = graph(os.path.join(root, "static"))
    if not g:
        print("js_circles.py: no module under static/")
        return 2
    found = circles(g)
    for comp in found:
        print("static/: " + ", ".join(comp) + " import each other in a circle")
    if found:
        return 1
    print(f"no circle among the {len(g)} modules of static/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
