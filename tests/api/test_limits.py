"""The limits README.md promises ("Accounts: what the limits promise"), each crossed:

- failed log-ins count per client address and e-mail together: the 5th makes that pair wait
  1 s, the next 2 s (429 with a Retry-After that grows), and the owner logging in from another
  address is not slowed by it;
- that wait is kept where no other traffic pushes it out: 2,000 requests from 2,000 other
  addresses and e-mails later, the pair still waits;
- IPv6 clients count by their /64 (IPV6_PREFIX): two addresses of one /64 share the log-in and
  sign-up limits, two /64s do not;
- a log-in answers a known and an unknown e-mail alike: status, body and (medians of several
  tries) time, and the waits after failures alike too;
- sign-ups are throttled per address, a taken e-mail's 409 included.

Addresses are varied as the hostile tests do: the attacker 127.0.0.1, the owner ::1, or, behind
TRUST_PROXY=127.0.0.1, the client claimed in X-Forwarded-For (IPv6 loopback is only ::1)."""
import os, re, time

import clients
from harness import ROOT, Server, make_database, problem

PW = "correct horse battery"
PROXY = {"TRUST_PROXY": "127.0.0.1"}
LOGIN_PER_ADDRESS = 10  # attempts, then one every 6 s
FREE_FAILURES = 4  # the 5th failure of a pair makes it wait
SIGNUPS_PER_ADDRESS = 20  # then one every 3 s

# What README.md says, word for word (its section on accounts and limits): each is tested below.
README_CLAIMS = [
    "| log-in attempts, any e-mail | client address | 10, then one every 6 s |",
    "| failed log-ins of one e-mail | client address and e-mail together | 4; the 5th makes "
    "that pair wait 1 s, each further one twice as long, up to 15 min |",
    "| sign-ups | client address | 20, then one every 3 s |",
    "A wait is kept in the database: no amount of other traffic makes the server forget it",
    "the owner, logging in from another address, is not slowed",
    "An IPv6 client counts as its /64",
    "A log-in answers the same for an e-mail with an account and one without",
    "whether an e-mail address has an account: a sign-up with it is refused (409 `email-taken`)",
]


def _db():
    return make_database("h_limits")


def _wait_out(attempt, ra, deadline_s=20):
    """Tries attempt() every ra seconds until it answers something else than 429 (a poll with a
    deadline); returns that answer."""
    deadline = time.monotonic() + deadline_s
    while True:
        time.sleep(ra)
        st, hd, o = attempt()
        if st != 429 or time.monotonic() > deadline:
            return st, hd, o


def test_readme_states_these_limits():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = " ".join(f.read().split())
    for claim in README_CLAIMS:
        assert " ".join(claim.split()) in text, f"README.md does not say: {claim}"


def test_failures_make_the_pair_wait_longer_and_spare_the_owner():
    with Server(database=_db()) as s:
        assert clients.signup(s, "ivy@example.org", host="::1")[0] == 201
        guess = lambda pw: clients.login(s, "ivy@example.org", pw)  # noqa: E731 (from 127.0.0.1)
        for i in range(FREE_FAILURES + 1):
            st, hd, o = guess(f"guess {i}")
            problem(st, hd, o, 401, rule="bad-credentials")
        # the right password waits too: the pair waits, whatever it sends
        st, hd, o = guess(PW)
        problem(st, hd, o, 429)
        assert "for this e-mail address from this address" in o["detail"], o
        first = int(hd["retry-after"])
        assert first == 1, hd
        # the owner on another address is not slowed
        st, _, o = clients.login(s, "ivy@example.org", PW, host="::1")
        assert st == 200 and o["account"]["email"] == "ivy@example.org", o
        # after the wait, one more failure makes the next wait longer
        st, hd, o = _wait_out(lambda: guess("guess 6"), first)
        problem(st, hd, o, 401, rule="bad-credentials")
        st, hd, o = guess("guess 7")
        problem(st, hd, o, 429)
        second = int(hd["retry-after"])
        assert second > first, (first, second)
        st, _, o = clients.login(s, "ivy@example.org", PW, host="::1")
        assert st == 200, o
        # the owner on the attacker's address gets in once the wait is over, and that success
        # forgets the pair's failures
        st, hd, o = _wait_out(lambda: guess(PW), second)
        assert st == 200, (st, o)
        problem(*guess("one more typo"), 401, rule="bad-credentials")


def test_a_wait_survives_2000_requests_from_other_addresses():
    with Server(database=_db(), env=PROXY) as s:
        assert clients.signup(s, "jo@example.org")[0] == 201
        attacker = "198.51.100.1"
        for i in range(FREE_FAILURES + 1):
            st, hd, o = clients.login(s, "jo@example.org", f"guess {i}", xff=attacker)
            problem(st, hd, o, 401, rule="bad-credentials")
        st, hd, o = clients.login(s, "jo@example.org", "guess", xff=attacker)
        problem(st, hd, o, 429)
        # fill the log-in limits' table with other clients: 2,000 addresses (IPv4 and IPv6),
        # each trying another e-mail (no password: refused after its address's token is taken)
        for i in range(2000):
            xff = f"203.0.{i // 250}.{i % 250 + 1}" if i % 2 else f"2001:db8:{i:x}::1"
            st, hd, o = clients.request(s, "POST", "/api/v1/sessions",
                                        {"email": f"other{i}@example.org"}, xff=xff)
            problem(st, hd, o, 400, field="/password")
        # and a few real failures of other pairs, into the same table of the database
        for i in range(8):
            st, hd, o = clients.login(s, f"else{i}@example.org", "x", xff=f"192.0.2.{i + 1}")
            problem(st, hd, o, 401)
        # the pair's count is where it was: once its 1 s wait is over (the requests above may
        # take less), one more failure (the 6th) makes it wait 2 s (a forgotten pair would
        # start again with 4 free failures)
        st, hd, o = _wait_out(lambda: clients.login(s, "jo@example.org", "guess 6", xff=attacker),
                              0.1)
        problem(st, hd, o, 401, rule="bad-credentials")
        st, hd, o = clients.login(s, "jo@example.org", PW, xff=attacker)
        problem(st, hd, o, 429)
        assert "for this e-mail address from this address" in o["detail"], o
        assert int(hd["retry-after"]) == 2, hd
        # the owner, elsewhere, logs in
        st, _, o = clients.login(s, "jo@example.org", PW, xff="192.0.2.200")
        assert st == 200, o


def test_an_address_out_of_log_in_attempts_stays_out_after_2000_other_addresses():
    with Server(database=_db(), env=PROXY) as s:
        me = "198.51.100.7"
        for i in range(LOGIN_PER_ADDRESS):
            st, _, o = clients.request(s, "POST", "/api/v1/sessions", {}, xff=me)
            assert st == 400, o
        st, hd, o = clients.request(s, "POST", "/api/v1/sessions", {}, xff=me)
        problem(st, hd, o, 429)
        assert "from this address" in o["detail"]
        t0 = time.monotonic()
        for i in range(2000):
            st, _, _ = clients.request(s, "POST", "/api/v1/sessions", {},
                                       xff=f"2001:db8:{i:x}:1::1")
            assert st == 400
        # the address got back one attempt every 6 s meanwhile, not its ten: it was not
        # forgotten (a forgotten address would start again with ten)
        refilled = int((time.monotonic() - t0) / 6) + 1
        through = 0
        while clients.request(s, "POST", "/api/v1/sessions", {}, xff=me)[0] == 400:
            through += 1
            assert through < LOGIN_PER_ADDRESS, "the address was forgotten"
        assert through <= refilled, (through, refilled)


def test_an_ipv6_64_is_one_client():
    with Server(database=_db(), env=PROXY) as s:
        # log-in attempts: ten from two addresses of one /64 use it up
        for i in range(LOGIN_PER_ADDRESS):
            xff = "2001:db8:1:2::a" if i % 2 else "2001:db8:1:2:ffff:ffff:ffff:ffff"
            assert clients.request(s, "POST", "/api/v1/sessions", {}, xff=xff)[0] == 400
        st, hd, o = clients.request(s, "POST", "/api/v1/sessions", {}, xff="2001:db8:1:2::b")
        problem(st, hd, o, 429)
        assert clients.request(s, "POST", "/api/v1/sessions", {}, xff="2001:db8:1:3::a")[0] == 400
        # failed log-ins of one e-mail: the /64 is one address
        assert clients.signup(s, "kim@example.org", xff="192.0.2.1")[0] == 201
        for i in range(FREE_FAILURES + 1):
            st, hd, o = clients.login(s, "kim@example.org", "nope", xff=f"2001:db8:9:9::{i + 1}")
            problem(st, hd, o, 401)
        st, hd, o = clients.login(s, "kim@example.org", PW, xff="2001:db8:9:9:1:2:3:4")
        problem(st, hd, o, 429)
        st, _, o = clients.login(s, "kim@example.org", PW, xff="2001:db8:9:a::1")
        assert st == 200, o
    # IPV6_PREFIX=128: each address its own client
    with Server(database=_db(), env={**PROXY, "IPV6_PREFIX": "128"}) as s:
        for i in range(LOGIN_PER_ADDRESS):
            assert clients.request(s, "POST", "/api/v1/sessions", {},
                                   xff="2001:db8:1:2::a")[0] == 400
        assert clients.request(s, "POST", "/api/v1/sessions", {}, xff="2001:db8:1:2::b")[0] == 400


def test_a_bad_ipv6_prefix_is_refused_with_a_warning():
    with Server(database=_db(), env={**PROXY, "IPV6_PREFIX": "200"}) as s:
        assert "IPV6_PREFIX=200 is not a prefix length" in s.output()
        for i in range(LOGIN_PER_ADDRESS):
            assert clients.request(s, "POST", "/api/v1/sessions", {},
                                   xff="2001:db8:1:2::a")[0] == 400
        # the default /64 holds
        assert clients.request(s, "POST", "/api/v1/sessions", {}, xff="2001:db8:1:2::b")[0] == 429


def test_the_waits_double_up_to_15_minutes_and_a_day_forgets():
    """The waits themselves, from the database's functions the server's statements use (a
    test cannot wait 15 minutes or a day): none for 4 failures, then 1 s doubling, at most
    15 min however many failures; the count starts again after a day without one."""
    import subprocess
    db = _db()
    with Server(database=db):  # the server applies the migrations
        pass
    q = ("SELECT string_agg(extract(epoch FROM login_delay(n, 5, 1, 900))::int::text, ',' "
         "ORDER BY n) FROM unnest(ARRAY[1, 4, 5, 6, 7, 14, 15, 16, 100000]) n; "
         "SELECT login_failures_next(7, now() - interval '23 hours', 86400), "
         "login_failures_next(7, now() - interval '25 hours', 86400);")
    out = subprocess.run(["psql", "-XAtq", "-d", db, "-c", q], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["0,0,1,2,4,512,900,900,900", "8|1"], out


def _median(xs):
    return sorted(xs)[len(xs) // 2]


def test_known_and_unknown_emails_answer_alike():
    with Server(database=_db(), env=PROXY) as s:
        assert clients.signup(s, "lou@example.org", xff="192.0.2.1")[0] == 201
        answers, times = {"known": set(), "unknown": set()}, {"known": [], "unknown": []}
        for i in range(9):  # interleaved, each from its own address: no limit in the way
            for kind, email in (("known", "lou@example.org"), ("unknown", f"nobody{i}@example.org")):
                t0 = time.monotonic()
                st, hd, o = clients.login(s, email, "wrong password",
                                          xff=f"198.51.100.{i + 1}" if kind == "known"
                                          else f"198.51.101.{i + 1}")
                times[kind].append(time.monotonic() - t0)
                answers[kind].add((st, o["detail"], o["rule"], hd["content-type"]))
        assert answers["known"] == answers["unknown"] and len(answers["known"]) == 1, answers
        # both pay for one Argon2id verification (tens of ms; skipping it answers in ~1 ms):
        # the medians of nine are within 3x of each other however loaded the machine
        med = {k: _median(v) for k, v in times.items()}
        assert min(med.values()) > 0.008, med
        assert max(med.values()) < 3 * min(med.values()), med
        # the waits after failures: the same for both
        waits = {}
        for kind, email, xff in (("known", "lou@example.org", "203.0.113.50"),
                                 ("unknown", "nobody@example.org", "203.0.113.51")):
            for i in range(FREE_FAILURES + 1):
                assert clients.login(s, email, "nope", xff=xff)[0] == 401
            st, hd, o = clients.login(s, email, "nope", xff=xff)
            waits[kind] = (st, hd["retry-after"], o["detail"])
        assert waits["known"] == waits["unknown"], waits


def test_signups_are_throttled_per_address():
    with Server(database=_db(), env=PROXY) as s:
        assert clients.signup(s, "max@example.org", xff="192.0.2.1")[0] == 201
        # probing for taken e-mails: each answer (409 for a taken one) costs the address a sign-up
        st, hd, o = clients.signup(s, "max@example.org", xff="2001:db8:5:6::1")
        problem(st, hd, o, 409, rule="email-taken")
        for i in range(SIGNUPS_PER_ADDRESS - 1):
            st, _, o = clients.request(s, "POST", "/api/v1/accounts", {},
                                       xff=f"2001:db8:5:6::{i + 2:x}")
            assert st == 400, o
        st, hd, o = clients.signup(s, "max@example.org", xff="2001:db8:5:6:abcd::1")
        problem(st, hd, o, 429)
        assert int(hd["retry-after"]) >= 1
        # another /64 and an IPv4 address are other clients
        assert clients.signup(s, "max@example.org", xff="2001:db8:5:7::1")[0] == 409
        assert clients.signup(s, "new@example.org", xff="198.51.100.9")[0] == 201
