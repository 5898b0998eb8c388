"""GET /api/v1/addresses: the addresses other phones can open, for a page opened on localhost
(README.md, after "make run"): the machine's IPv4 addresses on its networks with
the server's port, as `make run` prints them; the LISTEN address alone; none on a loopback
LISTEN, nor behind PUBLIC_URL (given instead) or TRUST_PROXY. Only a client on loopback or a
private network is told them: one connecting from each of the machine's own addresses gets
them or not by that address's kind. Only read: no traffic goes to any address listed."""
import ipaddress, re, shutil, subprocess

import clients
from harness import Server, make_database

# the networks whose clients are told the machine's addresses (src/http/addresses.c)
LOCAL_NETS = [ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
    "::1/128", "fc00::/7", "fe80::/10")]

PATH = "/api/v1/addresses"
_db = None


def db():
    global _db
    if _db is None:
        _db = make_database("h_addresses")
    return _db


def _global_ipv4():
    """The IPv4 addresses `ip` lists with scope global (src/scripts/run.sh does the same)."""
    if not shutil.which("ip"):
        return None
    out = subprocess.run(["ip", "-o", "-4", "addr", "show", "scope", "global"],
                         capture_output=True, text=True).stdout
    return {line.split()[3].split("/")[0] for line in out.splitlines() if len(line.split()) > 3}


def test_lan_addresses_with_the_servers_port():
    with Server(database=db()) as s:
        st, hd, o = s.json("GET", PATH)
        assert st == 200 and hd.get("cache-control") == "no-store", (st, hd)
        assert o["public_url"] is None, o
        hosts = set()
        for url in o["lan"]:
            m = re.fullmatch(r"http://([0-9.]+):(\d+)/", url)
            assert m and int(m.group(2)) == s.port, url
            a = ipaddress.IPv4Address(m.group(1))
            assert not a.is_loopback and not a.is_link_local, url
            hosts.add(m.group(1))
        want = _global_ipv4()
        if want is not None:
            assert hosts == {h for h in want if not ipaddress.IPv4Address(h).is_link_local}, \
                (hosts, want)


def test_no_lan_address_on_loopback_or_behind_a_proxy():
    for env in ({"LISTEN": "127.0.0.1"}, {"TRUST_PROXY": "127.0.0.1"}):
        with Server(env=env, database=db()) as s:
            st, _, o = s.json("GET", PATH)
            assert st == 200 and o == {"public_url": None, "lan": []}, (env, o)


def test_public_url_given_instead():
    with Server(env={"PUBLIC_URL": "https://dice.example"}, database=db()) as s:
        st, _, o = s.json("GET", PATH)
        assert st == 200 and o == {"public_url": "https://dice.example", "lan": []}, o


def _seat_pdf_qr(s, host, client=None):
    """The link the QR code of a game's seat sheet carries, the PDF asked for with this Host
    (from 127.0.0.1, or connected from and to the address client)."""
    import os, tempfile
    from games import auth, create
    g = create(s, names=["Ana", "Ben"], deck="app")
    path = f"/api/v1/er/games/{g['id']}/seats/1/sheet.pdf"
    headers = {**auth(g["host_token"]), "Host": host}
    if client:
        st, hd, body = clients.request(s, "GET", path, headers=headers, host=client)
    else:
        st, hd, body = s.request("GET", path, headers=headers)
    assert st == 200 and hd["content-type"] == "application/pdf", (st, body[:200])
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "sheet.pdf")
        with open(f, "wb") as fh:
            fh.write(body)
        subprocess.run(["pdftoppm", "-png", "-r", "150", "-singlefile", f, f[:-4]], check=True)
        out = subprocess.run(["zbarimg", "-q", "--raw", f[:-4] + ".png"], capture_output=True,
                             text=True, check=True).stdout.rstrip("\n")
    return out, g


def test_pdf_qr_asked_from_localhost_carries_the_lan_address():
    # the host printed the game's sheets from http://localhost:PORT/: the QR code must open on
    # another phone, so it carries the address GET /addresses offers first, not localhost
    with Server(database=db()) as s:
        _, _, o = s.json("GET", PATH)
        for host in (f"localhost:{s.port}", f"127.0.0.1:{s.port}", f"[::1]:{s.port}"):
            link, g = _seat_pdf_qr(s, host)
            origin = o["lan"][0].rstrip("/") if o["lan"] else f"http://{host}"
            assert link == f"{origin}/#game={g['id']}&join={g['code']}", (host, link, o)
        # a page opened at an address of the network keeps it
        link, g = _seat_pdf_qr(s, f"printer.lan:{s.port}")
        assert link.startswith(f"http://printer.lan:{s.port}/#game="), link
    # no address but the loopback one (LISTEN=127.0.0.1): nothing better than what was asked
    with Server(env={"LISTEN": "127.0.0.1"}, database=db()) as s:
        link, g = _seat_pdf_qr(s, f"localhost:{s.port}")
        assert link.startswith(f"http://localhost:{s.port}/#game="), link


def _machine_addresses():
    """The machine's own addresses of scope global, IPv4 and IPv6 (a client can connect from
    and to each; the traffic stays on the machine)."""
    out = subprocess.run(["ip", "-o", "addr", "show", "scope", "global"], capture_output=True,
                         text=True, check=True).stdout
    return [line.split()[3].split("/")[0] for line in out.splitlines() if len(line.split()) > 3]


def _is_local(addr):
    a = ipaddress.ip_address(addr)
    return any(a in n for n in LOCAL_NETS if n.version == a.version)


def test_lan_addresses_only_for_clients_on_loopback_or_a_private_network():
    nothing = {"public_url": None, "lan": []}
    with Server(database=db()) as s:
        _, _, local = s.json("GET", PATH)  # from 127.0.0.1
        kinds = set()
        for host in ["::1"] + _machine_addresses():
            st, hd, o = clients.request(s, "GET", PATH, host=host)
            want = local if _is_local(host) else nothing
            assert st == 200 and o == want, (host, o, want)
            kinds.add(_is_local(host))
            if not _is_local(host):
                # a PDF asked for with Host localhost by a public client: its QR code does not
                # carry the machine's addresses either
                link, g = _seat_pdf_qr(s, f"localhost:{s.port}", client=host)
                assert link.startswith(f"http://localhost:{s.port}/#game="), (host, link)
        assert True in kinds, "::1 is local"
    # behind a trusted proxy: never (the machine's addresses are not what its clients reach),
    # whoever the forwarded client is
    with Server(env={"TRUST_PROXY": "127.0.0.1"}, database=db()) as s:
        for xff in ("203.0.113.7", "192.168.1.30", "2001:db8::1", "fd00::9"):
            st, _, o = clients.request(s, "GET", PATH, xff=xff)
            assert st == 200 and o == nothing, (xff, o)
    # PUBLIC_URL: given to every client, the public ones too
    with Server(env={"PUBLIC_URL": "https://dice.example"}, database=db()) as s:
        for host in ["127.0.0.1", "::1"] + _machine_addresses():
            st, _, o = clients.request(s, "GET", PATH, host=host)
            assert o == {"public_url": "https://dice.example", "lan": []}, (host, o)
