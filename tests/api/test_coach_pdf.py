"""The coach's page as a PDF, GET /api/v1/er/games/{id}/seats/{seat}/analysis.pdf, against the
real server: a seeded two-player game (app deck) played to its end through the API, its seat's
page read back with pdfinfo, qpdf and pdftotext in English and French and checked against the
analysis document GET …/analysis replies (the totals, the three costliest turns); its refusals
are the analysis's (409 mid-game, 404, 400, 422 for ALICAT's seat). PDFs and a PNG of each land
in build/pdf-api/coach-*."""
import json, os, re, subprocess

from harness import ROOT, Server, make_database, problem
from games import (GAMES, auth, create, lowest_die_policy, play_turn, reveal, searched, state,
                   submit, turn_for)

OUT = os.path.join(ROOT, "build", "pdf-api")


def _tool(*args):
    r = subprocess.run(list(args), capture_output=True)
    assert r.returncode == 0, (args, r.stderr[-2000:])
    return r.stdout


def _pdf(s, path, token, name):
    """The PDF at path, asked for again while its analysis is searched (202)."""
    st, hd, body = searched(s, path, token)
    assert st == 200, (st, body[:300])
    assert hd["content-type"] == "application/pdf", hd
    assert body.startswith(b"%PDF-"), body[:20]
    os.makedirs(OUT, exist_ok=True)
    f = os.path.join(OUT, name + ".pdf")
    with open(f, "wb") as fh:
        fh.write(body)
    _tool("pdftoppm", "-png", "-r", "70", "-singlefile", f, os.path.join(OUT, name))
    info = _tool("pdfinfo", f).decode()
    assert re.search(r"^Pages:\s+1$", info, re.M), info
    assert "No syntax or stream encoding errors" in _tool("qpdf", "--check", f).decode()
    # pdftotext writes the no-break space before French punctuation as a space
    return _tool("pdftotext", "-layout", "-enc", "UTF-8", f, "-").decode().replace("\u00a0", " ")


def _costliest(a):
    steps = [x for x in a["steps"] if isinstance(x.get("cost"), int) and x["cost"] > 0]
    return sorted(steps, key=lambda x: (-x["cost"], x["turn"]))[:3]


def test_coach_pdf_of_a_finished_game():
    with Server(database=make_database("h_coach_pdf")) as s:
        g = create(s, names=["Ann Ærø", "Bob"], deck="app", seed=4242)
        tok = g["seats"][0]["seat_token"]
        path = f"{GAMES}/{g['id']}/seats/1/analysis.pdf"
        for _ in range(3):
            play_turn(s, g, lowest_die_policy)
        # mid-game: the analysis would show the draw to come
        problem(*s.json("GET", path, headers=auth(tok)), 409, "game-not-finished")
        final = state(s, g["id"], tok)
        while final["status"] != "finished":
            final, _ = play_turn(s, g, lowest_die_policy)
        st, _, body = searched(s, f"{GAMES}/{g['id']}/seats/1/analysis", tok)
        assert st == 200, (st, body[:300])
        a = json.loads(body)

        en = _pdf(s, path, tok, "coach-en-a4")
        for words in ("How good could it have been?", "Ann Ærø (Seat 1)", "Best sheet found",
                      "not a proven optimum", "The three turns that cost the most",
                      f"Game {g['id']}"):
            assert words in en, (words, en[:1500])
        gap = a["best"]["total"] - a["player"]["total"]
        assert f"Ann Ærø {a['player']['total']}" in en and \
            f"Best sheet found {a['best']['total']} ({gap:+d})" in en, en[:1500]
        assert ("time limit" in en) == (not a["complete"]), (a["complete"], en[:1500])
        # the three costliest turns as the analysis gives them: turn, cost, die and value
        top = _costliest(a)
        rows = re.findall(r"^\s*(\d+)\s+(\d+)\s+(red|yellow|green) (\d) → ", en, re.M)
        want = [(str(x["turn"]), str(x["cost"]), x["best_move"]["die"],
                 str(x["turn_info"]["dice"][x["best_move"]["die"]])) for x in top]
        assert rows == want, (rows, want, en[-1500:])
        if not top:
            assert "No choice cost any points" in en, en[-800:]

        fr = _pdf(s, path + "?lang=fr&paper=letter", tok, "coach-fr-letter")
        for words in ("Jusqu’où pouvait-on aller ?", "Meilleure feuille trouvée",
                      "pas un optimum démontré", "Les trois tours qui ont coûté le plus"):
            assert words in fr, (words, fr[:1500])
        # any token of the game reads it: the other seat's token, for seat 1's page
        _pdf(s, path, g["seats"][1]["seat_token"], "coach-by-other-seat")

        # refusals: a seat the game does not have, bad parameters, no token
        problem(*s.json("GET", f"{GAMES}/{g['id']}/seats/3/analysis.pdf", headers=auth(tok)),
                404, "no-such-seat")
        problem(*s.json("GET", path + "?paper=a5", headers=auth(tok)), 400, field="/paper")
        problem(*s.json("GET", path + "?width=0", headers=auth(tok)), 400,
                "width-out-of-range", "/width")
        st, _, _ = s.json("GET", path)
        assert st == 401, st


def test_coach_pdf_refuses_alicat():
    """Solo: ALICAT's seat has no coach (422 bot-seat), the player's has; asked for before its
    analysis, the PDF answers as the analysis does (202 while it is searched)."""
    with Server(database=make_database("h_coach_pdf_solo")) as s:
        g = create(s, names=["Solo"], solo=True, deck="app", seed=77)
        tok = g["seats"][0]["seat_token"]
        for turn in range(1, g["turns"] + 1):
            _, _, cur = reveal(s, g["id"], tok)
            submit(s, g["id"], 1, tok, turn,
                   lowest_die_policy(s, cur["seats"][0]["sheet"], turn_for(cur, 1)))
        bot = [x["seat"] for x in g["seats"] if x["bot"]][0]
        problem(*s.json("GET", f"{GAMES}/{g['id']}/seats/{bot}/analysis.pdf",
                        headers=auth(tok)), 422, "bot-seat")
        st, hd, wait = s.json("GET", f"{GAMES}/{g['id']}/seats/1/analysis.pdf", headers=auth(tok))
        assert st == 202 and hd["retry-after"] == "1" and wait["searching"], (st, wait)
        assert "Solo (Seat 1)" in _pdf(s, f"{GAMES}/{g['id']}/seats/1/analysis.pdf", tok,
                                       "coach-solo")


def test_coach_pdf_of_a_search_cut_short():
    """A search stopped at its deadline (ER_COACH_DEADLINE_MS=1, the widest search) says how far
    it got, in both languages."""
    with Server(database=make_database("h_coach_pdf_cut"), env={"ER_COACH_DEADLINE_MS": "1"}) as s:
        g = create(s, names=["Cy", "Di"], deck="app", seed=99)
        final = state(s, g["id"], g["host_token"])
        while final["status"] != "finished":
            final, _ = play_turn(s, g, lowest_die_policy)
        tok = g["seats"][1]["seat_token"]
        path = f"{GAMES}/{g['id']}/seats/2/analysis"
        st, _, body = searched(s, path + "?width=256", tok)
        assert st == 200, (st, body[:300])
        a = json.loads(body)
        assert not a["complete"] and a["searched_turns"] < a["turns"], (a["complete"],
                                                                        a["searched_turns"])
        en = _pdf(s, path + ".pdf?width=256", tok, "coach-cut-en")
        assert "The search stopped at its time limit" in en, en[:1500]
        n = a["searched_turns"]
        assert (f"turns 1 to {n} of {a['turns']}" in en) if n else \
            ("before it could weigh any turn" in en and "1 to 0" not in en and
             "No choice cost any points" not in en), (n, en[:1500])
        fr = _pdf(s, path + ".pdf?width=256&lang=fr", tok, "coach-cut-fr")
        assert "La recherche s’est arrêtée à sa limite de temps" in fr, fr[:1500]
