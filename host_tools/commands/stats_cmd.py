"""`bobing stats`: exact odds of one throw, and how whole games go for a table.

What a festival organiser plans with: how many throws a table takes, how many
of them win nothing because the tier is gone, how often everyone waits for a
状元, and whether the first seat has an edge.
"""

import json
import os
import sys

from bobing import events as ev
from bobing.game import MAX_SETS
from bobing.names import KIND_NAMES, KINDS, TIER_NAMES, TIERS
from host_tools.args import add_players_argument, add_rules_arguments, rules_from_args, seed_value
from host_tools.errors import UsageError
from host_tools.stats.fastdice import seeded_bytes
from host_tools.stats.simulate import ALL_THROWS, median, percentile, seat_means, simulate, throw_odds

DEFAULT_PLAYERS = 10
DEFAULT_GAMES = 10000
MAX_GAMES = 10_000_000


def register(sub):
    p = sub.add_parser("stats", help="odds of every throw, and simulated games for a table")
    add_rules_arguments(p)
    add_players_argument(p, required=False)
    p.add_argument("--sets", type=sets_count, default=1, metavar="K", help="sets of 63 prizes (default 1)")
    p.add_argument(
        "--games",
        type=games_count,
        default=DEFAULT_GAMES,
        metavar="G",
        help="games to simulate (default %d)" % DEFAULT_GAMES,
    )
    p.add_argument("--seed", type=seed_value, metavar="S", help="reproducible dice (default: truly random)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--plot", metavar="FILE", help="also draw throws per game and prizes per seat as a PNG")
    p.add_argument(
        "--progress", action="store_true", help="show progress on stderr even when it is no terminal"
    )
    p.set_defaults(run=run)


def _whole_number(option, text, low, high):
    if not text.isascii() or not text.isdigit() or not low <= int(text) <= high:
        raise UsageError("%s %r: expected a whole number %d-%d" % (option, text, low, high))
    return int(text)


def sets_count(text):
    return _whole_number("--sets", text, 1, MAX_SETS)


def games_count(text):
    return _whole_number("--games", text, 1, MAX_GAMES)


# --- the figures ------------------------------------------------------------


def odds_report(rules):
    """The JSON contract of the exact odds: counts out of all 6^6 ordered throws."""
    kind_counts, tier_counts = throw_odds(rules)

    def entry(count):
        return {"count": count, "probability": count / ALL_THROWS}

    return {
        "throws": ALL_THROWS,
        "kinds": {KINDS[k]: entry(n) for k, n in enumerate(kind_counts)},
        "tiers": {TIERS[t]: entry(n) for t, n in enumerate(tier_counts)},
    }


def games_report(tally, seed):
    """The JSON contract of the simulated games; shares are fractions 0..1."""
    games = tally.games
    throws = sorted(tally.throws)
    total_throws = sum(throws)
    return {
        "games": games,
        "seed": seed,
        "throws_per_game": {
            "median": median(throws),
            "p90": percentile(throws, 90),
            "mean": total_throws / games,
            "min": throws[0],
            "max": throws[-1],
        },
        "wasted_share": tally.wasted / total_throws,
        "zhuangyuan_missing_share": tally.zhuangyuan_missing / games,
        "zhuangyuan_wait_throws": (
            tally.waiting_throws / tally.zhuangyuan_missing if tally.zhuangyuan_missing else None
        ),
        "end_reasons": {
            name: tally.end_reasons[reason] / games for reason, name in enumerate(ev.END_REASONS) if name
        },
        "seats": [
            {"seat": seat, "prizes": prizes, "value": value, "tiers": dict(zip(TIERS, tiers, strict=True))}
            for seat, (tiers, prizes, value) in enumerate(seat_means(tally), 1)
        ],
        "shared_per_game": sum(tally.shared) / games,
    }


# --- text -------------------------------------------------------------------


def odds_lines(odds):
    lines = ["Odds of one throw, exact (out of all %d ordered throws of six dice)" % ALL_THROWS]
    lines.append("  %-14s %-12s %8s %9s" % ("kind", "", "throws", "chance"))
    for k, kind in enumerate(KINDS):
        entry = odds["kinds"][kind]
        lines.append(
            "  %-14s %s %8d %8.4f%%"
            % (kind, _pad(KIND_NAMES[k][0], 12), entry["count"], 100 * entry["probability"])
        )
    lines.append("  %-27s %8s %9s" % ("a throw wins a prize of", "throws", "chance"))
    for t, tier in enumerate(TIERS):
        entry = odds["tiers"][tier]
        lines.append(
            "  %-14s %s %8d %8.4f%%"
            % (tier, _pad(TIER_NAMES[t][0], 12), entry["count"], 100 * entry["probability"])
        )
    return lines


def games_lines(report, players, sets):
    throws = report["throws_per_game"]
    seed = "" if report["seed"] is None else ", seed %d" % report["seed"]
    lines = ["%d simulated games: %d players, %d x 63 prizes%s" % (report["games"], players, sets, seed)]
    lines.append(
        "  throws per game      median %s, 90%% of games within %d (mean %.1f, %d-%d)"
        % (_number(throws["median"]), throws["p90"], throws["mean"], throws["min"], throws["max"])
    )
    lines.append(
        "  wasted throws        %.1f%% won a tier that was gone, and got nothing"
        % (100 * report["wasted_share"])
    )
    wait = report["zhuangyuan_wait_throws"]
    lines.append(
        "  状元 still missing   %.1f%% of games when the other prizes ran out%s"
        % (100 * report["zhuangyuan_missing_share"], "" if wait is None else ", then %.1f throws more" % wait)
    )
    ends = ", ".join(
        "%s %.2f%%" % (name, 100 * share) for name, share in report["end_reasons"].items() if share
    )
    lines.append("  games ended by       " + ends)
    if report["shared_per_game"]:
        lines.append("  shared by everyone   %.2f prizes per game" % report["shared_per_game"])
    lines.append("  prizes per seat (mean; value in 一秀: 一秀 1, 二举 2, 四进 4, 三红 8, 对堂 16, 状元 32)")
    lines.append(
        "  seat  prizes   value " + " ".join(_pad(TIER_NAMES[t][0], 6, right=True) for t in range(5, -1, -1))
    )
    for seat in report["seats"]:
        per_tier = " ".join("%6.3f" % seat["tiers"][TIERS[t]] for t in range(5, -1, -1))
        lines.append("  %4d %7.2f %7.2f %s" % (seat["seat"], seat["prizes"], seat["value"], per_tier))
    return lines


def _pad(text, width, right=False):
    """Pad to a terminal width: a Chinese character takes two columns."""
    fill = " " * max(0, width - sum(2 if ord(c) > 0x2E7F else 1 for c in text))
    return fill + text if right else text + fill


def _number(x):
    return "%d" % x if x == int(x) else "%.1f" % x


# --- progress and plot ------------------------------------------------------


def progress_bar(stream, width=30):
    """A progress(done, total) that redraws one line, and clears it when done."""

    def show(done, total):
        filled = width * done // total
        line = "simulating [%s%s] %d/%d games" % ("#" * filled, "." * (width - filled), done, total)
        stream.write("\r" + line)
        if done == total:
            stream.write("\r" + " " * len(line) + "\r")
        stream.flush()

    return show


def load_matplotlib():
    """(Figure, FigureCanvasAgg), imported only for --plot so stats works without matplotlib."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError("--plot needs matplotlib (pip install matplotlib)") from None
    return Figure, FigureCanvasAgg


def check_writable(path):
    """UsageError now, before a long simulation, if the plot could not be written later."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError("--plot %s: no such folder %s" % (path, folder))
    existed = os.path.exists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as e:
        raise UsageError("--plot %s: cannot write: %s" % (path, e.strerror or e)) from None
    if not existed:
        os.remove(path)  # made only to try: nothing is left if the run stops


def write_plot(path, matplotlib, tally, report, title):
    """Histogram of throws per game, and the mean prizes per seat stacked by tier."""
    Figure, FigureCanvasAgg = matplotlib
    figure = Figure(figsize=(12, 4.5), layout="constrained")
    FigureCanvasAgg(figure)  # renders off-screen: no display needed
    figure.suptitle(title)
    throws_axes, seats_axes = figure.subplots(1, 2)
    throws_axes.hist(tally.throws, bins=min(60, max(10, tally.games // 50)), color="#c0392b")
    for label, x in (
        ("median", report["throws_per_game"]["median"]),
        ("90%", report["throws_per_game"]["p90"]),
    ):
        throws_axes.axvline(x, color="black", linestyle="--", linewidth=1)
        throws_axes.annotate(
            label, (x, 1), xycoords=("data", "axes fraction"), rotation=90, va="top", ha="right"
        )
    throws_axes.set(title="Throws per game", xlabel="throws", ylabel="games")
    seat_numbers = [seat["seat"] for seat in report["seats"]]
    bottom = [0.0] * len(seat_numbers)
    for t, tier in enumerate(TIERS):
        heights = [seat["tiers"][tier] for seat in report["seats"]]
        seats_axes.bar(
            seat_numbers, heights, bottom=bottom, label="%s (%s)" % (TIER_NAMES[t][1], TIER_NAMES[t][2])
        )
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    seats_axes.set(title="Mean prizes per seat (seat 1 throws first)", xlabel="seat", ylabel="prizes")
    seats_axes.set_xticks(seat_numbers)
    handles, labels = seats_axes.get_legend_handles_labels()  # listed top tier first, as stacked
    seats_axes.legend(
        handles[::-1], labels[::-1], fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1)
    )
    try:
        figure.savefig(path, format="png", dpi=100)
    except OSError as e:
        raise UsageError("--plot %s: cannot write: %s" % (path, e.strerror or e)) from None


# --- the command ----------------------------------------------------------------


def run(args):
    rules = rules_from_args(args)
    players = DEFAULT_PLAYERS if args.players is None else args.players
    matplotlib = None
    if args.plot:  # fail before a long run, not after it
        matplotlib = load_matplotlib()
        check_writable(args.plot)
    source = os.urandom if args.seed is None else seeded_bytes(args.seed)
    progress = progress_bar(sys.stderr) if args.progress or sys.stderr.isatty() else None
    odds = odds_report(rules)
    tally = simulate(rules, players, args.sets, args.games, source, progress)
    report = games_report(tally, args.seed)
    if matplotlib:
        title = "Bobing, rules %s: %d players, %d games" % (rules.preset, players, tally.games)
        write_plot(args.plot, matplotlib, tally, report, title)
    if args.json:
        out = {
            "rules": {"preset": rules.preset, "overrides": rules.overrides()},
            "players": players,
            "sets": args.sets,
            "odds": odds,
            "simulation": report,
        }
        print(json.dumps(out, ensure_ascii=False))
        return
    overrides = "".join(" %s=%s" % item for item in rules.overrides().items())
    print("Rules: %s%s" % (rules.preset, overrides))
    print()
    print("\n".join(odds_lines(odds)))
    print()
    print("\n".join(games_lines(report, players, args.sets)))
