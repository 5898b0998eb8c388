"""Helpers of the league tests: a browser-like client that keeps its session cookie
and sends Origin on every mutation, and account set-up."""
import json
import socket

from harness import Server, make_database, problem  # noqa: F401 (re-exported)


class Client:
    """One user: a cookie jar of one cookie (dh_session) and the site's Origin."""

    def __init__(self, server):
        self.s = server
        self.cookie = None
        self.origin = f"http://127.0.0.1:{server.port}"
        self.last_set_cookie = None

    def call(self, method, path, body=None, headers=None, origin=True, raw=False, timeout=10):
        h = {}
        if origin and method != "GET":
            h["Origin"] = self.origin
        if self.cookie:
            h["Cookie"] = "dh_session=" + self.cookie
        if body is not None and not raw:
            body = json.dumps(body)
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        st, hd, data = self.s.request(method, path, body, h, timeout=timeout)
        sc = hd.get("set-cookie")
        if sc:
            self.last_set_cookie = sc
            value = sc.split(";", 1)[0].split("=", 1)[1]
            self.cookie = value or None
        ctype = hd.get("content-type", "")
        obj = json.loads(data) if data and "json" in ctype else data
        return st, hd, obj

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.call("POST", path, {} if body is None else body, **kw)

    def put(self, path, body=None, **kw):
        return self.call("PUT", path, {} if body is None else body, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)

    def signup(self, email, password="correct horse battery", name=None):
        st, hd, o = self.post("/api/v1/accounts", {"email": email, "password": password,
                                                   "display_name": name or email.split("@")[0]})
        assert st == 201, (st, o)
        return o

    def login(self, email, password="correct horse battery"):
        st, hd, o = self.post("/api/v1/sessions", {"email": email, "password": password})
        assert st == 200, (st, o)
        return o["account"]


def user(s, email, name=None):
    """A signed-up, logged-in client."""
    c = Client(s)
    acc = c.signup(email, name=name)
    c.login(email)
    c.account = acc
    return c


def invite(owner, lid, invitee, name=None):
    """The owner invites invitee's account (as a member named name, else as a co-owner) and
    invitee accepts: the reply of the acceptance."""
    email = invitee.account["email"]
    if name is None:
        st, hd, o = owner.post(f"/api/v1/leagues/{lid}/owners", {"account": email})
    else:
        st, hd, o = owner.post(f"/api/v1/leagues/{lid}/members", {"name": name, "account": email})
    assert st == 202, (st, o)
    st, hd, r = invitee.post(f"/api/v1/invitations/{o['invitation']}/accept")
    assert st == 200, (st, r)
    return r


def join(owner, lid, invitee, name):
    """invitee's account joins the league as member name (invited, accepted): its entry as the
    league lists it."""
    mid = invite(owner, lid, invitee, name)["member"]
    st, hd, lg = owner.get(f"/api/v1/leagues/{lid}")
    assert st == 200, lg
    return next(m for m in lg["members"] if m["id"] == mid)


def claim(member, owner, lid, guest):
    """member claims guest and owner approves: the approval's reply."""
    st, hd, c = member.post(f"/api/v1/leagues/{lid}/members/{guest}/link")
    assert st == 202, (st, c)
    st, hd, o = owner.post(f"/api/v1/leagues/{lid}/claims/{c['claim']}/approve")
    assert st == 200, (st, o)
    return o


def league_plays(c, lid, query=""):
    """Every entry of the league's list of plays (GET …/plays, page by page; query: more of
    its parameters, "&season=…")."""
    out, offset = [], 0
    while True:
        st, hd, o = c.get(f"/api/v1/leagues/{lid}/plays?limit=500&offset={offset}{query}")
        assert st == 200, (st, o)
        out += o["plays"]
        offset += len(o["plays"])
        if offset >= o["total"] or not o["plays"]:
            return out


def league_plays_whole(c, lid):
    """Every play of the league as GET …/plays/{id} gives it, in the list's order."""
    out = []
    for p in league_plays(c, lid):
        st, hd, full = c.get(f"/api/v1/leagues/{lid}/plays/{p['id']}")
        assert st == 200, full
        out.append(full)
    return out


def new_league(owner, name="Tuesday club", guests=("Bea", "Cid", "Dot")):
    """A league of OWNER named NAME with GUESTS as guest members: (league, {name: member id})."""
    st, hd, lg = owner.post("/api/v1/leagues", {"name": name})
    assert st == 201, (st, lg)
    ids = {lg["members"][0]["name"]: lg["members"][0]["id"]}
    for g in guests:
        st, hd, m = owner.post(f"/api/v1/leagues/{lg['id']}/members", {"name": g})
        assert st == 201 and m["guest"], (st, m)
        ids[g] = m["id"]
    return lg, ids


def announce(s, c, path, length):
    """Sends only the headers of a POST announcing length body bytes; returns the status line
    the server answers before reading the body."""
    sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
    sock.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\n"
                  f"Origin: {c.origin}\r\nCookie: dh_session={c.cookie}\r\n"
                  f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n").encode())
    data = sock.recv(4096).decode(errors="replace")
    sock.close()
    return data


def import_file(c, lid, fmt, body, ctype="application/json"):
    """POST …/import?format=FMT of BODY (bytes or text) as CTYPE by client C: (status, headers, body)."""
    return c.call("POST", f"/api/v1/leagues/{lid}/import?format={fmt}", body, raw=True,
                  headers={"Content-Type": ctype})


def imported(c, lid, fmt, body, ctype="application/json"):
    """import_file that must succeed: the import's report."""
    st, hd, o = import_file(c, lid, fmt, body, ctype)
    assert st == 200, (st, o)
    return o
