#!/bin/sh
# No file names or development words where the screens show text: every string of
# static/i18n/*.json, and every shown string of templates/*/*.json (a profile's name, the en/fr
# texts, goals, titles; not the "source" notes nor "_"-keys, which cite the rulebooks and
# game-data.md for the developers) is free of ".md", "placeholder", "TODO", "FIXME",
# "game-data" (any case) and raw plurals ("(s)", "(es)": a count is worded by its plural forms,
# key.one and key.other, static/i18n.js).
#   sh tests/lint/ui_words.sh [DIR]   (default: the repository)
set -u
cd "$(dirname "$0")/../.."
exec python3 - "${1:-.}" <<'EOF'
import glob, json, re, sys

WORDS = re.compile(r"\.md\b|placeholder|\btodo\b|\bfixme\b|game-data|\((?:s|es|e|x)\)", re.I)

# The pattern must catch what it is meant to catch, and leave ordinary copy alone.
for bad in ("Default: the placeholders of game-data.md", "see README.md", "TODO: word this", "Placeholder", "{n} blood bag(s)", "{n} coup(s) envoyé(s)"):
    if not WORDS.search(bad):
        sys.exit(f"ui_words.sh: the pattern misses: {bad}")
for good in ("Medical Reports completed", "Tap your name:", "todos los jugadores", "Ward {n}", "Fatalities", "your stethoscopes ({n})", "Screen (before or after)"):
    if WORDS.search(good):
        sys.exit(f"ui_words.sh: the pattern matches too much: {good}")

root = sys.argv[1]
problems = []

def walk(value, where, shown):
    if isinstance(value, dict):
        for k, v in value.items():
            walk(v, f"{where}/{k}", shown and k != "source" and not k.startswith("_"))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            walk(v, f"{where}/{i}", shown)
    elif isinstance(value, str) and shown and WORDS.search(value):
        problems.append(f"{where}: {value}")

files = sorted(glob.glob(f"{root}/static/i18n/*.json")) + sorted(glob.glob(f"{root}/templates/*/*.json"))
if not files:
    sys.exit(f"ui_words.sh: no strings found under {root}")
for path in files:
    with open(path, encoding="utf-8") as f:
        walk(json.load(f), path.removeprefix(f"{root}/"), True)
if problems:
    print("file names, development words or raw plurals in the text the screens show:")
    print("\n".join(problems))
    sys.exit(1)
print(f"no file names, development words or raw plurals in {len(files)} files")
EOF
