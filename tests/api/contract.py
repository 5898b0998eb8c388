"""Checks an HTTP response against static/openapi.json, the API contract.

check_response(method, path, status, headers, body) finds the operation by method and path
template, then the response by status (or "default"), and
  - JSON bodies (application/json, application/problem+json) validate against the response's
    schema with a JSON Schema 2020-12 validator (Debian's python3-jsonschema), whose
    #/components/... references resolve inside the document;
  - other bodies (event streams, static files, PDFs) are checked for the documented content type.
A request the document has no operation for (an unknown path, a method the path lacks) must be
answered by a problem+json error that validates against Problem; outside /api/, paths the
document does not list are static files and only their errors are checked.
check_request(...) holds the document to the other side: a JSON request body the server accepted
(2xx) validates against the operation's request schema, so the document takes what the server
takes.
Raises AssertionError naming the operation, the status and what does not match."""
import gzip, json, os, re, sys

try:
    import jsonschema
except ImportError:  # a Python of its own (pyenv, venv): Debian's python3-jsonschema
    sys.path.append("/usr/lib/python3/dist-packages")
    import jsonschema

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
JSON_TYPES = ("application/json", "application/problem+json")

_doc = None
_ops = None
_validators = {}


def document():
    global _doc
    if _doc is None:
        with open(os.path.join(ROOT, "static", "openapi.json")) as f:
            _doc = json.load(f)
    return _doc


def _operations():
    """[(regex, path template, path item)], literal paths before templated ones."""
    global _ops
    if _ops is None:
        ops = []
        for path, item in document()["paths"].items():
            rx = re.compile("^" + re.sub(r"\\\{[^}/]+\\\}", "[^/]+", re.escape(path)) + "$")
            ops.append((path.count("{"), rx, path, item))
        _ops = [(rx, path, item) for _, rx, path, item in sorted(ops, key=lambda o: o[0])]
    return _ops


def find_operation(method, path):
    """(path template, operation) or (template, None) when the path lacks the method, or
    (None, None) for a path the document does not have."""
    path = path.split("?", 1)[0]
    m = method.lower()
    if m == "head":
        m = "get"
    for rx, template, item in _operations():
        if rx.match(path):
            return template, item.get(m)
    return None, None


def _resolve(obj):
    while isinstance(obj, dict) and "$ref" in obj:
        node = document()
        for k in obj["$ref"].lstrip("#/").split("/"):
            node = node[k.replace("~1", "/").replace("~0", "~")]
        obj = node
    return obj


def validator(key, schema):
    """A Draft 2020-12 validator for a schema of the document: the schema sits under allOf in a
    root that also holds the document's components, so #/components/... refs resolve there."""
    v = _validators.get(key)
    if v is None:
        root = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "components": document()["components"], "allOf": [schema]}
        jsonschema.Draft202012Validator.check_schema(root)
        v = _validators[key] = jsonschema.Draft202012Validator(root)
    return v


def validate(key, schema, value, what):
    errors = sorted(validator(key, schema).iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"{what}: the body does not match static/openapi.json:"]
        for e in errors[:5]:
            at = "/" + "/".join(str(p) for p in e.absolute_path)
            lines.append(f"  at {at}: {e.message[:300]}")
        lines.append("  body: " + json.dumps(value)[:600])
        raise AssertionError("\n".join(lines))


def _media_type(headers):
    return headers.get("content-type", "").split(";", 1)[0].strip().lower()


def _check_problem(what, status, headers, body):
    assert status >= 400, f"{what}: not in static/openapi.json, yet answered {status}"
    ct = _media_type(headers)
    assert ct == "application/problem+json", f"{what}: {status} with content type {ct!r}"
    validate("Problem", {"$ref": "#/components/schemas/Problem"}, json.loads(body), what)


def check_response(method, path, status, headers, body, undocumented_ok=False):
    """undocumented_ok: a path the document lacks goes unchecked (a server with test-only kinds)."""
    template, op = find_operation(method, path)
    what = f"{method} {path.split('?', 1)[0]} → {status}"
    has_body = method.upper() != "HEAD" and status not in (204, 304) and body
    if op is None:
        if template is None and undocumented_ok:
            return
        if template is None and not path.startswith("/api/") and status < 400:
            return  # a static file the document does not list
        if has_body:
            _check_problem(what + " (no such operation)", status, headers, body)
        return
    responses = op.get("responses", {})
    key = str(status) if str(status) in responses else "default"
    assert key in responses, (f"{what}: status {status} is not documented for "
                              f"{method.upper()} {template} in static/openapi.json "
                              f"(documented: {sorted(responses)})")
    resp = _resolve(responses[key])
    content = resp.get("content")
    if not has_body:
        return
    assert content, f"{what}: a body, but static/openapi.json documents none"
    ct = _media_type(headers)
    assert ct in content, f"{what}: content type {ct!r}, documented {sorted(content)}"
    if ct not in JSON_TYPES:
        return  # event streams, static files, PDFs: the content type only
    schema = content[ct].get("schema")
    assert schema, f"{what}: no schema for {ct} in static/openapi.json"
    if headers.get("content-encoding") == "gzip":  # a client that takes gzip
        body = gzip.decompress(body)
    try:
        value = json.loads(body)
    except ValueError as e:
        raise AssertionError(f"{what}: {ct} body is not JSON: {e}: {body[:200]!r}")
    validate((template, method.lower(), key, ct), schema, value, what)


def check_request(method, path, status, request_body):
    """A JSON body the server accepted (2xx) must validate against the documented request body."""
    if not 200 <= status < 300 or request_body is None:
        return
    template, op = find_operation(method, path)
    if op is None or "requestBody" not in op:
        return
    what = f"{method} {path.split('?', 1)[0]} → {status}"
    try:
        value = json.loads(request_body)
    except (TypeError, ValueError):
        return  # not JSON: the server would not have accepted it
    schema = _resolve(op["requestBody"])["content"]["application/json"]["schema"]
    validate((template, method.lower(), "request"), schema, value,
             what + " (request body accepted by the server)")
