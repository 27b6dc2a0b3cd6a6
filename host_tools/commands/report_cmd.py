"""`bobing report`: per bowl and per day, games, throws, prizes, 状元 and a fairness audit.

    bobing report [--db FILE]              a terminal summary
    bobing report --db FILE --json         one JSON object (a contract: docs/sync.md)
    bobing report --db FILE --html DIR     DIR/index.html, self-contained (plots as data URIs),
                                           and each plot as DIR/*.png too

Bowls whose dice fail at the 99 % level, and bowls whose log is damaged,
broken or not authentic, are listed first, in red.  host_tools/report/audit.py
computes the figures; authenticity() adds whether each bowl's log is
authentic: verified under the key this host gave the bowl
(docs/security.md).
"""

import base64
import html
import io
import json
import os
import sqlite3
import sys

from bobing.names import KIND_NAMES, KINDS, TIER_NAMES, TIERS
from host_tools.args import add_db_argument
from host_tools.errors import UsageError
from host_tools.report import audit
from host_tools.sync import db
from host_tools.sync.keystore import KeyStore
from host_tools.sync.syncer import printable

RED = "\033[31;1m"
RESET = "\033[0m"


def register(sub):
    p = sub.add_parser(
        "report", help="per bowl and day: games, throws, prizes, 状元, and a dice fairness audit"
    )
    add_db_argument(p)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--html", metavar="DIR", help="also write DIR/index.html with plots (self-contained)")
    p.set_defaults(run=run)


def _p(p):
    return "-" if p is None else ("%.2g" % p if p < 0.001 else "%.3f" % p)


TOO_FEW = "expected fewer than %d times: too few for a ratio (pooled in the test)" % audit.MIN_EXPECTED


def too_few(entry):
    """A kind expected so rarely that observed / expected means nothing yet."""
    return entry["expected"] < audit.MIN_EXPECTED


def authenticity(report, keys):
    """Each bowl's "authentic" (True, False, or None: this host holds no key
    for it) and "authenticity", the line that says so or what failed."""
    for b in report["bowls"]:
        forged = [line for line in b["issues"] if "not authentic" in line]
        if not keys.all(b["bowl"]):
            b["authentic"] = None
            b["authenticity"] = "no key: %s holds none for this bowl" % keys.path
        elif forged or not b["chain_ok"]:
            b["authentic"] = False
            b["authenticity"] = "log NOT authentic: " + (forged or b["issues"])[0]
        else:
            b["authentic"] = True
            b["authenticity"] = "log authentic"


def alarms(report):
    """One line per bowl that fails the dice tests or whose chain is not intact."""
    lines = []
    for b in report["bowls"]:
        if b["flagged"]:
            lines.append(
                "bowl %s: dice FAIL at the 99%% level (%s; faces p=%s, kinds p=%s)"
                % (b["bowl"], " and ".join(b["failed"]), _p(b["faces_p"]), _p(b["kinds_p"]))
            )
        if b["authentic"] is False:
            lines.append("bowl %s: %s" % (b["bowl"], b["authenticity"]))
        elif not b["chain_ok"]:
            lines.append("bowl %s: log NOT intact: %s" % (b["bowl"], printable(b["issues"][0])))
    return lines


def text_lines(report, color=False):
    out = []
    for line in alarms(report):
        out.append(RED + line + RESET if color else line)
    if out:
        out.append("")
    for b in report["bowls"]:
        out.append(
            "bowl %s: %d games, %d throws, faces p=%s, kinds p=%s, chain %s, %d power-cut recoveries"
            % (
                b["bowl"],
                b["games"],
                b["throws"],
                _p(b["faces_p"]),
                _p(b["kinds_p"]),
                "ok" if b["chain_ok"] else "BROKEN",
                b["recoveries"],
            )
        )
        out.append("  " + b["authenticity"])
        out.append("  faces 1-6: " + " ".join(str(n) for n in b["faces"]))
        for d in b["days"]:
            out.append(
                "  %s: %d games, %d throws, faces p=%s, kinds p=%s"
                % (d["day"], d["games"], d["throws"], _p(d["faces_p"]), _p(d["kinds_p"]))
            )
        out.append("  %-12s %8s %10s" % ("kind", "count", "expected"))
        for k in KINDS:
            entry = b["kinds"][k]
            if entry["count"] or entry["expected"] >= 0.5:
                out.append(
                    "  %-12s %8d %10.1f%s"
                    % (k, entry["count"], entry["expected"], " *" if too_few(entry) else "")
                )
        out.append("  * " + TOO_FEW)
        out.append("  prizes given: " + ", ".join("%s %d" % (t, b["prizes"][t]) for t in TIERS))
        for z in b["zhuangyuan"]:
            out.append(
                "  状元 game %d (records %d-%d, %s): seat %s with %s (%s)%s"
                % (
                    z["number"],
                    *z["records"],
                    z["day"],
                    z["seat"],
                    z["dice"],
                    z["kind"],
                    "" if z["ended"] else ", game not ended",
                )
            )
        for line in b["notes"]:
            out.append("  note: " + printable(line))
        out.append("")
    if not report["bowls"]:
        out.append("no bowls synced yet")
    return out


# --- HTML -------------------------------------------------------------------


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def plots(bowl):
    """[(file name, caption, PNG bytes)] for one bowl."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = []
    fig, ax = plt.subplots(figsize=(5, 2.8))
    ax.bar(range(1, 7), bowl["faces"], color="#c33" if "faces" in bowl["failed"] else "#36c")
    ax.axhline(sum(bowl["faces"]) / 6, color="k", lw=1, ls="--", label="fair")
    ax.set_xlabel("face")
    ax.set_ylabel("dice")
    ax.set_title("faces, p = %s" % _p(bowl["faces_p"]))
    ax.legend()
    out.append(("faces-%s.png" % bowl["bowl"], "Faces of every die thrown", _png(fig)))
    kinds = [k for k in KINDS if bowl["kinds"][k]["expected"] >= 0.5]
    ratio = [bowl["kinds"][k]["count"] / bowl["kinds"][k]["expected"] for k in kinds]
    few = [too_few(bowl["kinds"][k]) for k in kinds]
    fig, ax = plt.subplots(figsize=(6, 2.8))
    bars = ax.bar(range(len(kinds)), ratio, color="#c33" if "kinds" in bowl["failed"] else "#3a3")
    for bar, k, small in zip(bars, kinds, few, strict=True):
        if small:  # pale and hatched, with the bare count: a ratio of so few means nothing
            bar.set_facecolor("#ddd")
            bar.set_edgecolor("#888")
            bar.set_hatch("//")
            ax.annotate(
                "n=%d" % bowl["kinds"][k]["count"],
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center",
                va="bottom",
                fontsize=6,
            )
    if any(few):
        from matplotlib.patches import Patch

        ax.legend(
            handles=[Patch(facecolor="#ddd", edgecolor="#888", hatch="//", label=TOO_FEW.split(":")[0])],
            fontsize=6,
        )
    ax.axhline(1.0, color="k", lw=1, ls="--")
    # stable ids, not 汉字: a plot must not depend on a CJK font being installed
    ax.set_xticks(range(len(kinds)), kinds, fontsize=7, rotation=40, ha="right")
    ax.set_ylabel("observed / exact")
    ax.set_title("award kinds, p = %s" % _p(bowl["kinds_p"]))
    out.append(("kinds-%s.png" % bowl["bowl"], "Award kinds against their exact probability", _png(fig)))
    return out


def html_page(report, images):
    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Bobing festival report</title><style>"
        "body{font-family:sans-serif;margin:2em;max-width:70em}.alarm{color:#fff;background:#c00;padding:.5em;"
        "font-weight:bold}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
        "text-align:right}.bad{color:#c00;font-weight:bold}</style></head><body>",
        "<h1>Bobing (博饼) festival report</h1>",
    ]
    for line in alarms(report):
        parts.append("<p class='alarm'>%s</p>" % e(line))
    parts.append(
        "<h2>Bowls</h2><table><tr><th>bowl</th><th>games</th><th>throws</th><th>faces p</th>"
        "<th>kinds p</th><th>chain</th><th>recoveries</th></tr>"
    )
    for b in report["bowls"]:
        bad = " class='bad'" if b["flagged"] else ""
        parts.append(
            "<tr%s><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td></tr>"
            % (
                bad,
                e(b["bowl"]),
                b["games"],
                b["throws"],
                _p(b["faces_p"]),
                _p(b["kinds_p"]),
                "ok" if b["chain_ok"] else "<span class='bad'>BROKEN</span>",
                b["recoveries"],
            )
        )
    parts.append(
        "</table><p>Flagged: a chi-square test of the faces (1/6 each) or of the award kinds "
        "(exact probabilities from all 46,656 throws under each game's rules) gives p &lt; %.2f."
        "</p>" % report["level"]
    )
    for b in report["bowls"]:
        parts.append("<h2>Bowl %s</h2>" % e(b["bowl"]))
        for name, caption, png in images.get(b["bowl"], []):
            uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
            parts.append(
                "<figure style='display:inline-block'><img src='%s' alt='%s'><figcaption>%s"
                "</figcaption></figure>" % (uri, e(name), e(caption))
            )
        parts.append(
            "<h3>Per day</h3><table><tr><th>day</th><th>games</th><th>throws</th><th>faces p</th>"
            "<th>kinds p</th></tr>"
        )
        for d in b["days"]:
            parts.append(
                "<tr><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>"
                % (e(d["day"]), d["games"], d["throws"], _p(d["faces_p"]), _p(d["kinds_p"]))
            )
        parts.append(
            "</table><h3>Award kinds</h3><table><tr><th>kind</th><th>count</th><th>expected</th></tr>"
        )
        for i, k in enumerate(KINDS):
            entry = b["kinds"][k]
            parts.append(
                "<tr><td>%s %s</td><td>%d</td><td>%.1f%s</td></tr>"
                % (
                    e(KIND_NAMES[i][0]),
                    e(k),
                    entry["count"],
                    entry["expected"],
                    " *" if too_few(entry) else "",
                )
            )
        parts.append(
            "</table><p>* %s</p><h3>Prizes given</h3><p>%s</p>"
            % (
                e(TOO_FEW),
                e(", ".join("%s %d" % (TIER_NAMES[i][0], b["prizes"][t]) for i, t in enumerate(TIERS))),
            )
        )
        parts.append(
            "<h3>状元 winners</h3><table><tr><th>game</th><th>records</th><th>day</th><th>seat</th>"
            "<th>throw</th><th>kind</th></tr>"
        )
        for z in b["zhuangyuan"]:
            parts.append(
                "<tr><td>%d</td><td>%d-%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>"
                % (z["number"], *z["records"], e(z["day"]), z["seat"], e(z["dice"] or ""), e(z["kind"] or ""))
            )
        parts.append("</table>")
        for line in b["issues"] + b["notes"]:
            parts.append("<p class='bad'>%s</p>" % e(line))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_html(report, folder):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--html needs matplotlib: pip install 'bobing[report]'") from None
    images = {b["bowl"]: plots(b) for b in report["bowls"] if b["throws"]}
    os.makedirs(folder, exist_ok=True)
    for items in images.values():
        for name, _, png in items:
            with open(os.path.join(folder, name), "wb") as f:
                f.write(png)
    with open(os.path.join(folder, "index.html"), "w", encoding="utf-8") as f:
        f.write(html_page(report, images))


def run(args):
    try:
        conn = db.connect_readonly(args.db)
    except db.DatabaseError as e:
        raise UsageError(str(e)) from None
    try:
        report = audit.figures(conn)
        authenticity(report, KeyStore(args.db))
    except sqlite3.Error as e:
        raise UsageError(db.describe(e, args.db)) from None
    except ImportError:
        raise UsageError("the report needs scipy: pip install 'bobing[report]'") from None
    finally:
        conn.close()
    if args.html:
        try:
            write_html(report, args.html)
        except OSError as e:
            raise UsageError("%s: cannot write: %s" % (args.html, e.strerror)) from None
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print("\n".join(text_lines(report, color=sys.stdout.isatty())))
    return 0
