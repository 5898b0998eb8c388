"""Static files kept in memory (src/http/static.c): each version of a file is read once and its
replies (200 plain, 200 gzip, and the 304 of each) are built once; inotify tells the server of
an edit, so every request that starts after an edit, a removal or a rename is answered from the
file as it now is (new body and ETag, or 404), never from the kept one.

One server for the module, on a static directory of its own that the tests edit."""
import gzip, os, shutil, tempfile, threading, time

from harness import ROOT, Server, make_database

_server = None
_dir = None


def server():
    global _server, _dir
    if _server is None:
        _dir = tempfile.mkdtemp(prefix="dh-static-cache-")
        shutil.copy(os.path.join(ROOT, "static", "index.html"), _dir)
        _server = Server(database=make_database("h_static_cache"), env={"STATIC_DIR": _dir}).start()
        import atexit

        def stop():
            _server.__exit__(None, None, None)
            shutil.rmtree(_dir, ignore_errors=True)
        atexit.register(stop)
    return _server


def put(name, data, replace=False):
    """Writes the file name (relative to the server's static directory): in place, or as a new
    file renamed over the old one (how a deployment replaces a file)."""
    path = os.path.join(_dir, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    target = path + ".tmp" if replace else path
    with open(target, "wb") as f:
        f.write(data)
    if replace:
        os.replace(target, path)


def css(tag, size=4096):
    """A CSS file naming tag, padded to size bytes (compressible: it goes out gzipped)."""
    head = f"/* {tag} */\n".encode()
    return head + b"p { margin: 0; }\n" * ((size - len(head)) // 17)


def rchar(pid):
    """Bytes the process has read from files (sendfile counts; its sockets' recv does not)."""
    with open(f"/proc/{pid}/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("rchar:"))


GZ = {"Accept-Encoding": "gzip"}


def test_static_kept_file_is_not_read_again():
    """Once a file has been served, further requests (plain and compressed) are answered from
    memory: the server reads less than the file's size for 20 more of each."""
    s = server()
    body = css("kept", 200_000)
    put("kept.css", body)
    assert s.request("GET", "/kept.css")[2] == body
    assert gzip.decompress(s.request("GET", "/kept.css", headers=GZ)[2]) == body
    before = rchar(s.proc.pid)
    for _ in range(20):
        st, hd, got = s.request("GET", "/kept.css")
        assert st == 200 and got == body and "content-encoding" not in hd
        st, hd, got = s.request("GET", "/kept.css", headers=GZ)
        assert st == 200 and hd["content-encoding"] == "gzip" and gzip.decompress(got) == body
    read = rchar(s.proc.pid) - before
    assert read < len(body), f"the server read {read} bytes for 40 requests of a kept file"


def test_static_kept_replies_etag_304_and_encoding():
    """The kept replies: the same bytes and ETag for every request; 304 for the ETag of the
    variant the client takes (plain or gzip), 200 for the other one; gzip only when accepted;
    HEAD with the headers and no body."""
    s = server()
    body = css("variants")
    put("variants.css", body)
    plain = [s.request("GET", "/variants.css") for _ in range(3)]
    packed = [s.request("GET", "/variants.css", headers=GZ) for _ in range(3)]
    assert {p[1]["etag"] for p in plain} == {plain[0][1]["etag"]} and all(p[2] == body for p in plain)
    assert all("content-encoding" not in p[1] and p[1]["vary"] == "Accept-Encoding" for p in plain)
    assert {p[1]["etag"] for p in packed} == {packed[0][1]["etag"]} and len({p[2] for p in packed}) == 1
    assert all(p[1]["content-encoding"] == "gzip" for p in packed)
    etag, etag_gz = plain[0][1]["etag"], packed[0][1]["etag"]
    assert etag != etag_gz and gzip.decompress(packed[0][2]) == body
    for ae in ("identity", "gzip;q=0", None):  # not taken: plain, after gzip replies were kept
        st, hd, got = s.request("GET", "/variants.css", headers={"Accept-Encoding": ae} if ae else {})
        assert st == 200 and got == body and "content-encoding" not in hd and hd["etag"] == etag, ae
    st, hd, got = s.request("GET", "/variants.css", headers={"If-None-Match": etag})
    assert st == 304 and got == b"" and hd["etag"] == etag and "content-encoding" not in hd, hd
    st, hd, got = s.request("GET", "/variants.css", headers={**GZ, "If-None-Match": f'"x", W/{etag_gz}'})
    assert st == 304 and got == b"" and hd["etag"] == etag_gz and "content-encoding" not in hd, hd
    st, hd, got = s.request("GET", "/variants.css", headers={**GZ, "If-None-Match": etag})
    assert st == 200 and hd["content-encoding"] == "gzip" and got == packed[0][2]
    st, hd, got = s.request("GET", "/variants.css", headers={"If-None-Match": etag_gz})
    assert st == 200 and got == body
    st, hd, got = s.request("HEAD", "/variants.css", headers=GZ)
    assert st == 200 and got == b"" and hd["content-encoding"] == "gzip" and hd["etag"] == etag_gz
    assert int(hd["content-length"]) == len(packed[0][2])
    st, hd, got = s.request("HEAD", "/variants.css")
    assert st == 200 and got == b"" and int(hd["content-length"]) == len(body)


def test_static_removed_or_renamed_file_answers_404():
    """A kept file that is removed, or whose directory is renamed, answers 404 at once (plain and
    compressed); put back with other bytes, it is served as it now is."""
    s = server()
    put("gone.css", css("gone v1"))
    put("dir/inner.css", css("inner v1"))
    for path in ("/gone.css", "/dir/inner.css"):
        assert s.request("GET", path)[0] == 200 and s.request("GET", path, headers=GZ)[0] == 200
    os.unlink(os.path.join(_dir, "gone.css"))
    os.rename(os.path.join(_dir, "dir"), os.path.join(_dir, "dir-old"))
    for path in ("/gone.css", "/dir/inner.css"):
        assert s.request("GET", path)[0] == 404, path
        assert s.request("GET", path, headers=GZ)[0] == 404, path
    assert s.request("GET", "/dir-old/inner.css")[2] == css("inner v1")
    put("gone.css", css("gone v2", 5000))
    put("dir/inner.css", css("inner v2", 5000))
    for path, tag in (("/gone.css", "gone v2"), ("/dir/inner.css", "inner v2")):
        st, hd, got = s.request("GET", path)
        assert st == 200 and got == css(tag, 5000), path
        st, hd, got = s.request("GET", path, headers=GZ)
        assert st == 200 and gzip.decompress(got) == css(tag, 5000), path


def test_static_symlinked_file_edits_are_noticed():
    """A file reached through a symbolic link inside the directory: an edit of the file it
    points to, and the link pointed elsewhere, are both served at once."""
    s = server()
    put("real/a.css", css("target a"))
    put("real/b.css", css("target b"))
    link = os.path.join(_dir, "link.css")
    os.symlink("real/a.css", link)
    assert s.request("GET", "/link.css")[2] == css("target a")
    put("real/a.css", css("target a, edited"))
    st, hd, got = s.request("GET", "/link.css", headers=GZ)
    assert st == 200 and gzip.decompress(got) == css("target a, edited")
    os.symlink("real/b.css", link + ".new")
    os.replace(link + ".new", link)
    assert s.request("GET", "/link.css")[2] == css("target b")
    os.symlink("../../etc/hostname", link + ".new")  # out of the directory: never served
    os.replace(link + ".new", link)
    assert s.request("GET", "/link.css")[0] == 404


def test_static_edits_under_load_never_serve_the_old_body():
    """Four clients request a file without pause (plain and gzip, one connection each, kept
    alive) while it is edited 12 times, in place or by rename: every request that starts after
    an edit has returned gets that version or a newer one (a request that overlaps an edit in
    place may see the file half written, as it then is on disk), and the editor's own request
    right after each edit gets exactly it."""
    import http.client
    s = server()
    versions = [css(f"version {k:02d}", 3000 + 40 * k) for k in range(13)]
    put("live.css", versions[0])
    assert s.request("GET", "/live.css")[2] == versions[0]
    edits = [(0.0, 0.0, False)] * 13  # edit k: (began, returned, in place) on the monotonic clock
    stop = threading.Event()
    seen, errors = [], []

    def version_of(data):
        k = [j for j, v in enumerate(versions) if v == data]
        return k[0] if k else None

    def client(n):
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
        try:
            for i in range(3000):  # bounded: the editor ends the loop long before
                if stop.is_set():
                    break
                t0 = time.monotonic()
                c.request("GET", "/live.css", headers=GZ if (i + n) % 2 else {})
                r = c.getresponse()
                data = r.read()
                t1 = time.monotonic()
                if r.status != 200:
                    errors.append(r.status)
                    break
                if r.getheader("Content-Encoding") == "gzip":
                    data = gzip.decompress(data)
                seen.append((t0, t1, version_of(data)))
        except Exception as e:  # noqa: BLE001 — reported by the assertion below
            errors.append(repr(e))
        finally:
            c.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    try:
        for k in range(1, 13):
            # the clients have read the kept version: a request begun after the last edit ended
            deadline = time.monotonic() + 10
            while not any(t0 >= edits[k - 1][1] for t0, _, _ in seen[-8:]) and not errors:
                assert time.monotonic() < deadline, f"no client read version {k - 1}"
                time.sleep(0.005)
            in_place = k % 2 == 0
            began = time.monotonic()
            put("live.css", versions[k], replace=not in_place)
            edits[k] = (began, time.monotonic(), in_place)
            st, hd, got = s.request("GET", "/live.css", headers=GZ if k % 3 else {})
            got = gzip.decompress(got) if hd.get("content-encoding") == "gzip" else got
            assert st == 200 and got == versions[k], (k, got[:20])
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    assert not errors, errors[:5]
    assert len(seen) > 50, len(seen)
    for t0, t1, k in seen:
        newest = max(j for j in range(13) if edits[j][1] <= t0)
        if k is None:  # half written: only while an edit in place ran
            assert any(ip and b <= t1 and t0 <= e for b, e, ip in edits[newest + 1:]), (t0, newest)
        else:
            assert k >= newest, f"a request started after edit {newest} got version {k}"
