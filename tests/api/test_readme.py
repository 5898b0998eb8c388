"""README.md's "Quick start with curl", run as written: every ```sh block of that section, in
order and in one `sh` (so the shell variables one block sets, the next uses), against a real
server — only http://localhost:8080 is replaced by the test server's address. Each `# → TEXT`
line of a block is a fragment of what the block prints (a trailing "…" marks a cut): it must
appear in that block's output. So the quick start cannot rot."""
import os, re, subprocess, tempfile

import contract
from harness import ROOT, Server, make_database

SECTION = "## Quick start with curl"
URL = "http://localhost:8080"
# score, options, apply, the 422, create a game, reveal, move
EXPECTED_BLOCKS = 7


def quick_start_blocks():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    assert SECTION in text, f"README.md has no {SECTION!r} section"
    section = text.split(SECTION, 1)[1]
    section = re.split(r"^## ", section, maxsplit=1, flags=re.M)[0]
    return re.findall(r"^```sh\n(.*?)^```$", section, flags=re.M | re.S)


def fragments(block):
    out = []
    for line in block.splitlines():
        m = re.match(r"^# → (.*)$", line)
        if m:
            out.append(m.group(1).rstrip().removesuffix("…").rstrip())
    return out


def test_readme_quick_start_runs_as_written():
    blocks = quick_start_blocks()
    assert len(blocks) == EXPECTED_BLOCKS, f"{len(blocks)} sh blocks in {SECTION!r}"
    for i, b in enumerate(blocks):
        assert URL in b, f"block {i + 1} does not talk to {URL}"
        assert fragments(b), f"block {i + 1} shows nothing of its output (# → lines)"
    with Server(database=make_database("h_readme")) as s, tempfile.TemporaryDirectory() as tmp:
        script = "set -u\n"
        for i, b in enumerate(blocks):
            script += f"printf '\\n@@@ block {i + 1}\\n'\n" + b.replace(URL, f"http://127.0.0.1:{s.port}")
        r = subprocess.run(["sh", "-c", script], cwd=tmp, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, f"sh exited {r.returncode}: {r.stderr[-2000:]}"
        assert r.stderr == "", r.stderr[-2000:]
        outputs = re.split(r"^@@@ block \d+\n", r.stdout, flags=re.M)[1:]
        assert len(outputs) == len(blocks), r.stdout[-2000:]
        for i, (b, out) in enumerate(zip(blocks, outputs)):
            for frag in fragments(b):
                assert frag in out, (f"README quick start block {i + 1}: {frag!r} is not in what "
                                     f"it printed:\n{out[:3000]}")
            check_against_document(b, out)


def check_against_document(block, out):
    """The block's curl call as the API tests' requests are checked: its reply (the last line
    printed is the body) validates against static/openapi.json, and so does a body it sent that
    the server accepted."""
    m = re.search(re.escape(URL) + r"(/[^\s'\"]*)", block)
    path = m.group(1).replace("$GAME", "g")
    sent = re.search(r"-d '(.*?)'", block, flags=re.S)
    body = out.strip().splitlines()[-1]
    status = 201 if path == "/api/v1/er/games" else 200
    st = re.search(r"^HTTP/1.1 (\d+)", out, flags=re.M)
    if st:
        status = int(st.group(1))
    ct = "application/problem+json" if status >= 400 else "application/json"
    contract.check_response("POST", path, status, {"content-type": ct}, body.encode())
    if sent:
        contract.check_request("POST", path, status, sent.group(1))
