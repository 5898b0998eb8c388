"""Requests from a chosen client: over a connection to a chosen address of the server (::1, or
one of the machine's own addresses, bound as the source too), or through the server's trusted
proxy (TRUST_PROXY=127.0.0.1) claiming a client in X-Forwarded-For. Every response is checked
against static/openapi.json as harness.Server.request does."""
import http.client, json

import contract

ORIGIN_HOST = "127.0.0.1"  # Origin and Host sent: the site the page came from


def request(s, method, path, body=None, headers=None, host="127.0.0.1", xff=None, timeout=30):
    """(status, headers, parsed body) of one request to server s, from host (connected to host,
    bound to it), claiming the client xff when given."""
    c = http.client.HTTPConnection(host, s.port, timeout=timeout, source_address=(host, 0))
    h = {"Host": f"{ORIGIN_HOST}:{s.port}"}
    if method != "GET":
        h["Origin"] = f"http://{ORIGIN_HOST}:{s.port}"
    if xff:
        h["X-Forwarded-For"] = xff
    if isinstance(body, (dict, list)):
        body = json.dumps(body)
        h["Content-Type"] = "application/json"
    h.update(headers or {})
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    hd = {k.lower(): v for k, v in r.getheaders()}
    c.close()
    contract.check_response(method, path, r.status, hd, data)
    contract.check_request(method, path, r.status, body)
    obj = json.loads(data) if data and "json" in hd.get("content-type", "") else data
    return r.status, hd, obj


def login(s, email, password, **kw):
    return request(s, "POST", "/api/v1/sessions", {"email": email, "password": password}, **kw)


def signup(s, email, password="correct horse battery", **kw):
    return request(s, "POST", "/api/v1/accounts",
                   {"email": email, "password": password, "display_name": email.split("@")[0]},
                   **kw)
