"""static/openapi.json against the server: every route that `server routes` prints is described
(same path once {param} names are ignored, same method), every /api operation described is a
route, paths outside /api are static files the server serves, and GET /api/v1/openapi.json
returns the document."""
import json, os, re, subprocess

from harness import ROOT, SERVER_BIN, Server, make_database

METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def doc():
    with open(os.path.join(ROOT, "static", "openapi.json")) as f:
        return json.load(f)


def norm(path):
    return re.sub(r"\{[^}/]+\}", "{}", path)


def served_routes():
    out = subprocess.run([os.path.join(ROOT, SERVER_BIN), "routes"], check=True,
                         capture_output=True, text=True).stdout
    routes = set()
    for line in out.splitlines():
        method, path = line.split(" ", 1)
        routes.add((method.lower(), norm(path)))
    return routes


def described(d):
    ops = set()
    for path, item in d["paths"].items():
        for method in item:
            if method in METHODS:
                ops.add((method, norm(path)))
    return ops


def test_document_shape():
    d = doc()
    assert d["openapi"].startswith("3.1."), d["openapi"]
    assert d["info"]["title"] and d["info"]["version"]
    problem = d["components"]["schemas"]["Problem"]
    assert set(problem["required"]) == {"type", "title", "status", "detail"}
    assert {"rule", "field", "errors"} <= set(problem["properties"])
    for path, item in d["paths"].items():
        assert path.startswith("/"), path
        params = re.findall(r"\{([^}/]+)\}", path)
        for method, op in item.items():
            if method not in METHODS:
                continue
            assert op.get("responses"), (path, method)
            assert op.get("summary"), (path, method)
            # every path parameter is declared (on the operation or the path item)
            declared = {p["name"] for p in op.get("parameters", []) + item.get("parameters", [])
                        if "$ref" not in p and p.get("in") == "path"}
            refs = [p["$ref"] for p in op.get("parameters", []) + item.get("parameters", [])
                    if "$ref" in p]
            for r in refs:
                p = d
                for k in r.lstrip("#/").split("/"):
                    p = p[k]
                if p.get("in") == "path":
                    declared.add(p["name"])
            assert set(params) <= declared, (path, method, params, declared)
    # every $ref resolves
    text = json.dumps(d)
    for r in set(re.findall(r'"\$ref": "#/([^"]+)"', text)):
        p = d
        for k in r.split("/"):
            assert k in p, f"dangling $ref #/{r}"
            p = p[k]


def test_every_route_is_described():
    routes = served_routes()
    ops = {(m, p) for m, p in described(doc()) if p.startswith("/api/")}
    missing = sorted(routes - ops)
    assert not missing, f"routes missing from static/openapi.json: {missing}"


def test_every_described_api_operation_is_a_route():
    routes = served_routes()
    ops = {(m, p) for m, p in described(doc()) if p.startswith("/api/")}
    extra = sorted(ops - routes)
    assert not extra, f"static/openapi.json describes operations the server lacks: {extra}"


def test_static_paths_are_served_and_served_document_matches():
    d = doc()
    with Server(database=make_database("h_openapi")) as s:
        for path, item in d["paths"].items():
            if path.startswith("/api/"):
                continue
            assert set(m for m in item if m in METHODS) <= {"get", "head"}, path
            st, _, _ = s.request("GET", path)
            assert st == 200, (path, st)
        st, hd, body = s.request("GET", "/api/v1/openapi.json")
        assert st == 200 and hd["content-type"] == "application/json"
        assert json.loads(body) == d


def _schemas(d):
    """Every schema of the document, with where it sits: components, media types, parameters,
    headers, and every subschema (properties, items, additionalProperties, allOf/oneOf/anyOf)."""
    out = []

    def schema(s, at):
        out.append((at, s))
        if not isinstance(s, dict):
            return
        for k, v in s.get("properties", {}).items():
            schema(v, f"{at}/properties/{k}")
        for k in ("items", "additionalProperties", "not"):
            if isinstance(s.get(k), dict):
                schema(s[k], f"{at}/{k}")
        for k in ("allOf", "oneOf", "anyOf", "prefixItems"):
            for i, v in enumerate(s.get(k, [])):
                schema(v, f"{at}/{k}/{i}")

    def walk(n, at):
        if isinstance(n, dict):
            for k, v in n.items():
                if k == "schema" and isinstance(v, dict):
                    schema(v, f"{at}/schema")
                elif k != "schemas":
                    walk(v, f"{at}/{k}")
        elif isinstance(n, list):
            for i, v in enumerate(n):
                walk(v, f"{at}/{i}")

    walk(d["paths"], "#/paths")
    walk({k: v for k, v in d["components"].items() if k != "schemas"}, "#/components")
    for name, s in d["components"]["schemas"].items():
        schema(s, f"#/components/schemas/{name}")
    return out


def _deref(d, s):
    while isinstance(s, dict) and "$ref" in s:
        p = d
        for k in s["$ref"].lstrip("#/").split("/"):
            p = p[k]
        s = p
    return s


def test_no_empty_schemas():
    """every body described completely — no {} (e.g. a move's steps), no schema that
    says nothing about its value."""
    d = doc()
    says = {"type", "enum", "const", "$ref", "allOf", "oneOf", "anyOf", "required"}
    vague = [at for at, s in _schemas(d) if not isinstance(s, dict) or not (says & set(s))]
    assert not vague, f"schemas that constrain nothing: {vague}"
    # an object is described by its members (or what each member is)
    bare = [at for at, s in _schemas(d) if s.get("type") == "object" and
            not ({"properties", "additionalProperties"} & set(s))]
    assert not bare, f"objects without properties: {bare}"


def test_request_bodies_are_closed():
    """The server rejects unknown fields (400): every object a request body holds, at any depth,
    says additionalProperties: false."""
    d = doc()
    open_objects = []

    def check(s, at, seen):
        s = _deref(d, s)
        if not isinstance(s, dict) or id(s) in seen:
            return
        seen.add(id(s))
        # x-read-leniently: a foreign file format read by its known members (a BG Stats export
        # on the league import), not a body of this API
        if "properties" in s and s.get("additionalProperties") is not False and \
                not s.get("x-read-leniently"):
            open_objects.append(at)
        for k, v in s.get("properties", {}).items():
            check(v, f"{at}/{k}", seen)
        if isinstance(s.get("items"), dict):
            check(s["items"], f"{at}/items", seen)
        for k in ("allOf", "oneOf", "anyOf"):
            for i, v in enumerate(s.get(k, [])):
                check(v, f"{at}/{k}/{i}", seen)

    n = 0
    for path, item in d["paths"].items():
        for method, op in item.items():
            if method in METHODS and "requestBody" in op:
                content = _deref(d, op["requestBody"])["content"]
                if "application/json" not in content:  # a file of its own type (a CSV)
                    continue
                n += 1
                body = content["application/json"]["schema"]
                check(body, f"{method.upper()} {path}", set())
    assert n >= 8, n
    assert not open_objects, f"request objects that take unknown fields: {open_objects}"
