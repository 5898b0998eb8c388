"""The blank ER sheet as an HTML page (inline SVG, one sheet per A4 page) for headless Chromium
to print, next to our libharu renderer (tests/bench/pdf.sh). Same data and layout numbers:
templates/er/sheet.json and print.json; same drawing: hex beds with colour and pattern, write
circles, ward walls, lobby, labs, clipboards with nurse icons, ledger and score row.
usage: python3 pdf_sheet_html.py PAGES OUT.html"""
import json, math, os, sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sheet = json.load(open(os.path.join(ROOT, "templates", "er", "sheet.json")))
prn = json.load(open(os.path.join(ROOT, "templates", "er", "print.json")))
L, C, T = prn["layout"], prn["colours"], prn["labels"]["en"]
PW, PH = 595.276, 841.89
R = L["hex_radius"]
W = math.sqrt(3) * R


def rgb(c):
    return "rgb(%d,%d,%d)" % tuple(round(255 * x) for x in c)


def xy(row, col):
    return col * W + (W / 2 if row % 2 == 0 else 0), row * 1.5 * R


def hexpts(x, y):
    return " ".join("%.2f,%.2f" % (x + R * math.cos(math.radians(-90 + 60 * k)),
                                   y + R * math.sin(math.radians(-90 + 60 * k))) for k in range(6))


beds = {}
for w in sheet["wards"]:
    for i, b in enumerate(w["beds"]):
        beds[b["hex"]] = (w["ward"], i, b["colour"])
labs = [l["hex"] for l in sheet["xray_labs"]]
lobby = L["lobby_hexes"]
clips = {c["ward"]: (c["row"], c["col"]) for c in L["clipboards"]}
pos = [divmod(h, 100) for h in list(beds) + labs + lobby] + list(clips.values())
xs = [xy(r, c)[0] for r, c in pos]
ys = [xy(r, c)[1] for r, c in pos]
X0 = PW / 2 - (min(xs) + max(xs)) / 2
Y0 = L["grid_top"] + R - min(ys)
BOTTOM = L["grid_top"] + max(ys) - min(ys) + 2 * R
off = sheet["grid"]["neighbour_offsets"]


def at(h):
    x, y = xy(*divmod(h, 100))
    return X0 + x, Y0 + y


def page():
    o = []
    o.append(f'<text x="{L["margin"]}" y="{L["margin"] + 14}" class="b" font-size="15">'
             f'{T["title"]}</text>')
    for h in lobby:
        o.append(f'<polygon points="{hexpts(*at(h))}" fill="{rgb(C["lobby"]["fill"])}"/>')
    for i, h in enumerate(labs):
        x, y = at(h)
        o.append(f'<polygon points="{hexpts(x, y)}" fill="{rgb(C["xray"]["fill"])}"/>'
                 f'<text x="{x}" y="{y - 4}" fill="#fff" font-size="7.5" text-anchor="middle">'
                 f'{T["xray"]}</text><text x="{x}" y="{y + 11}" fill="#fff" font-size="13" '
                 f'text-anchor="middle" class="b">{"AB"[i]}</text>')
    for h, (ward, i, colour) in beds.items():
        x, y = at(h)
        c = C[colour]
        pat = "" if c["pattern"] == "none" else \
            f'<polygon points="{hexpts(x, y)}" fill="url(#p-{colour})"/>'
        o.append(f'<polygon points="{hexpts(x, y)}" fill="{rgb(c["fill"])}"/>{pat}'
                 f'<circle cx="{x}" cy="{y}" r="{R * L["write_circle"]}" fill="#fff" '
                 f'stroke="{rgb(c["ink"])}" stroke-width="0.9"/>'
                 f'<polygon points="{hexpts(x, y)}" fill="none" stroke="#595959" '
                 f'stroke-width="0.5"/>')
    walls = []
    for h, (ward, i, colour) in beds.items():
        x, y = at(h)
        for k in range(6):
            n = h + off["even" if (h // 100) % 2 == 0 else "odd"][k]
            if n in beds and beds[n][0] == ward or (i == 0 and n in lobby):
                continue
            a, b = (k + 5) % 6, k
            p = [(x + R * math.cos(math.radians(-90 + 60 * j)),
                  y + R * math.sin(math.radians(-90 + 60 * j))) for j in (a, b)]
            walls.append("M%.2f %.2fL%.2f %.2f" % (p[0] + p[1]))
    o.append(f'<path d="{"".join(walls)}" stroke="#1f1f29" stroke-width="{L["wall_width"]}" '
             f'stroke-linecap="round"/>')
    for w in sheet["wards"]:
        x, y = xy(*clips[w["ward"]])
        x, y = X0 + x, Y0 + y
        o.append(f'<rect x="{x - 0.475 * R}" y="{y - 0.95 * R}" width="{0.95 * R}" '
                 f'height="{1.2 * R}" fill="#f5e8cc" stroke="#1f1f29"/>'
                 f'<text x="{x}" y="{y - 0.25 * R}" class="b" font-size="{0.55 * R}" '
                 f'text-anchor="middle">{w["clipboard"]}</text>'
                 f'<circle cx="{x}" cy="{y + 0.62 * R}" r="{0.2 * R}" fill="#fff" '
                 f'stroke="#1f1f29"/><path d="M{x - 3} {y + 0.62 * R}h6M{x} {y + 0.62 * R - 3}v6" '
                 f'stroke="#cc2924" stroke-width="2"/>')
    o.append(f'<text x="{PW / 2}" y="{BOTTOM + 14}" font-size="8" text-anchor="middle">'
             f'{T["legend"]}</text>')
    y = BOTTOM + 30
    b = L["box"]
    rows = [(T["stethoscopes"], sheet["stethoscopes"]["boxes"]),
            (T["blood_bags"], sheet["blood_bags"]["boxes"]), (T["nurses"], None),
            (T["morgue"], sheet["morgue"]["boxes"])]
    for label, n in rows:
        o.append(f'<text x="{L["margin"]}" y="{y + b * 0.72}" class="b" font-size="9.5">'
                 f'{label}</text>')
        x = L["margin"] + 108
        if n is None:
            for i, v in enumerate(sheet["nurse_track"]):
                o.append(f'<circle cx="{x + b / 2 + i * (b + 12)}" cy="{y + b / 2}" '
                         f'r="{b * 0.62}" fill="#fff" stroke="#1f1f29"/><text '
                         f'x="{x + b / 2 + i * (b + 12)}" y="{y + b * 0.7}" font-size="{b * 0.55}"'
                         f' text-anchor="middle" class="b">{v}</text>')
        else:
            for i in range(n):
                o.append(f'<rect x="{x + i * (b + 4)}" y="{y}" width="{b}" height="{b}" '
                         f'fill="#fff" stroke="#1f1f29" stroke-width="0.7"/>')
        y += L["ledger_row"]
    o.append(f'<text x="{L["margin"]}" y="{y + 10}" class="b" font-size="10">{T["score"]}</text>')
    keys = ["filled_wards", "critical", "nurses", "cardiologists", "radiologist",
            "epidemiologist", "morgue", "total"]
    x = PW / 2 - 230
    for k in keys:
        o.append(f'<text x="{x + 20}" y="{y + 23}" font-size="7" text-anchor="middle">{T[k]}'
                 f'</text><rect x="{x}" y="{y + 27}" width="{L["score_box"]}" '
                 f'height="{L["score_box"] * 0.72}" fill="#fff" stroke="#1f1f29"/>')
        x += L["score_box"] + 14
    return "\n".join(o)


def patterns():
    s = L["pattern_step"]
    return (f'<pattern id="p-red" width="{s}" height="{s}" patternUnits="userSpaceOnUse" '
            f'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="{s}" '
            f'stroke="{rgb(C["red"]["ink"])}" stroke-width="0.7"/></pattern>'
            f'<pattern id="p-yellow" width="{s}" height="{s}" patternUnits="userSpaceOnUse">'
            f'<rect width="1.6" height="1.6" fill="{rgb(C["yellow"]["ink"])}"/></pattern>'
            f'<pattern id="p-green" width="{s * 1.25}" height="{s * 1.25}" '
            f'patternUnits="userSpaceOnUse"><path d="M0 0H{s * 1.25}M0 0V{s * 1.25}" '
            f'stroke="{rgb(C["green"]["ink"])}" stroke-width="0.7"/></pattern>')


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    svg = page()
    with open(out, "w") as f:
        f.write('<!doctype html><html><head><meta charset="utf-8"><style>'
                '@page{size:A4;margin:0}body{margin:0}'
                'svg{display:block;width:210mm;height:297mm;break-after:page;'
                'font-family:"DejaVu Sans"}.b{font-weight:bold}</style></head><body>')
        f.write(f'<svg width="0" height="0" style="position:absolute"><defs>{patterns()}'
                '</defs></svg>')
        for _ in range(n):
            f.write(f'<svg viewBox="0 0 {PW} {PH}" xmlns="http://www.w3.org/2000/svg">{svg}'
                    '</svg>')
        f.write("</body></html>")


main()
