"""Human-readable text for game events and standings, shared by `replay` and `play`."""

from bobing import events as ev
from bobing.names import KINDS, TIER_NAMES, TIERS, award_names
from host_tools.cli import UsageError


def tier_label(tier, labels=None):
    """A tier's name, with its prize (the game's label) when there is one."""
    hanzi, _, english = TIER_NAMES[tier]
    if labels and labels[tier]:
        return "%s (%s: %s)" % (hanzi, english, labels[tier])
    return "%s (%s)" % (hanzi, english)


def event_line(event, game):
    """One line for one event tuple of `game`; seats shown 1-based."""
    labels = game.labels
    kind = event[0]
    if kind == ev.THROW:
        dice = ev.dice_of(event[2])
        hanzi, pinyin, english = award_names(event[3])
        return "player %d throws %s: %s  %s, %s" % (
            event[1] + 1,
            "".join(map(str, dice)),
            hanzi,
            pinyin,
            english,
        )
    if kind == ev.VOID:
        return "player %d: throw void (跳猴), wins nothing" % (event[1] + 1)
    if kind == ev.SKIP:
        return "player %d sits this turn out" % (event[1] + 1)
    if kind == ev.AWARD:
        return "  player %d wins %d x %s" % (event[1] + 1, event[3], tier_label(event[2], labels))
    if kind == ev.TAKE:
        return "  player %d takes %d x %s from player %d" % (
            event[1] + 1,
            event[4],
            tier_label(event[2], labels),
            event[3] + 1,
        )
    if kind == ev.SHARE:
        return "  %d x %s shared by everyone" % (event[2], tier_label(event[1], labels))
    if kind == ev.ZY:
        if event[1] == ev.NO_SEAT:
            return "  nobody holds the 状元 now"
        return "  player %d now holds the 状元 (provisional)" % (event[1] + 1)
    if kind == ev.MISS:
        return "  %s all gone: nothing won" % tier_label(event[1], labels)
    if kind == ev.EXHAUSTED:
        return "  last %s taken" % tier_label(event[1], labels)
    return "game over: %s" % ev.END_REASONS[event[1]]


def seat_holdings(game, seat):
    """Prizes per tier (一秀 first) a 0-based seat holds."""
    return game.holdings[seat * 6 : seat * 6 + 6]


def summary(game):
    """The JSON-ready state of a game (the `bobing replay --json` contract)."""
    zy = game.zhuangyuan()
    return {
        "ended": game.ended,
        "end_reason": game.end_reason_name(),
        "zhuangyuan": None
        if zy is None
        else {
            "player": zy[0] + 1,
            "dice": ev.dice_of(zy[1]),
            "kind": KINDS[zy[2]],
        },
        "holdings": {
            str(seat + 1): dict(zip(TIERS, seat_holdings(game, seat), strict=True))
            for seat in range(game.players)
        },
        "remaining": dict(zip(TIERS, game.remaining, strict=True)),
        "shared": dict(zip(TIERS, game.shared, strict=True)),
    }


def add_label_argument(parser):
    parser.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="TIER=PRIZE",
        help="what a tier's prize is, e.g. duitang=红包 (tiers: %s)" % ", ".join(TIERS),
    )


def labels_from_args(args):
    """Six labels, 一秀 first, from --label TIER=PRIZE options."""
    labels = [""] * 6
    for item in args.label:
        tier, sep, text = item.partition("=")
        if not sep or tier not in TIERS or not text.strip():
            raise UsageError("--label %r: expected TIER=PRIZE with TIER one of %s" % (item, ", ".join(TIERS)))
        if len(text.encode("utf-8")) > ev.MAX_LABEL_BYTES:
            raise UsageError("--label %r: at most %d bytes of UTF-8" % (item, ev.MAX_LABEL_BYTES))
        labels[TIERS.index(tier)] = text.strip()
    return labels


def standings_table(game):
    """Lines of a plain table: each player's prizes per tier."""
    head = "player " + " ".join("%4s" % TIER_NAMES[t][0] for t in range(5, -1, -1))
    lines = [head]
    for seat in range(game.players):
        held = seat_holdings(game, seat)
        lines.append("%6d " % (seat + 1) + " ".join("%6d" % held[t] for t in range(5, -1, -1)))
    lines.append("  left " + " ".join("%6d" % n for n in reversed(game.remaining)))
    if any(game.shared):
        lines.append("shared " + " ".join("%6d" % n for n in reversed(game.shared)))
    return lines
