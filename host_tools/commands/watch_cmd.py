"""`bobing watch`: the bowl's live JSON event lines as a live terminal view (rich).

    bobing watch --port PORT          the bowl's USB serial (115200 baud)
    bobing watch --file FILE          a file of event lines (`-`: stdin), e.g. the
                                      virtual bowl's: bobing sim --headless | bobing watch --file -

One JSON object a line (docs/device.md, the application's schema): `game`
when a game starts or resumes, `throw` once a throw is durable, `end` when
a game ends.  Lines that are not JSON objects (REPL text) are skipped and
counted.  The view: the game, whose throw it was, the last throw and its
award, the current 状元 (the best 状元-class throw so far under the game's
rule preset, as bobing.classify ranks it; the event's own `zhuangyuan`
field wins when the bowl sends one), prizes left per tier when the events
carry `remaining`, and at the end every seat's prizes.
"""

import json
import sys

from bobing.classify import classify, rank_of
from bobing.names import KIND_NAMES, KINDS, TIER_NAMES, TIERS
from bobing.rules import Rules
from host_tools.errors import UsageError
from host_tools.sync.syncer import SyncError, printable


def register(sub):
    p = sub.add_parser("watch", help="the bowl's live events as a live terminal view")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", metavar="PORT", help="the bowl's serial port")
    where.add_argument("--file", metavar="FILE", help="a file of JSON event lines; - for stdin")
    p.add_argument("--baud", type=int, default=115200, help="serial speed (default 115200)")
    p.set_defaults(run=run)


class WatchState:
    """What the view shows, from the events seen so far."""

    def __init__(self):
        self.game = None  # the last `game` event
        self.last = None  # the last `throw` event
        self.throws = 0
        self.zy = None  # (rank, seat, dice, kind)
        self.remaining = None
        self.ended = None  # the `end` event
        self.skipped = 0
        self.flags = Rules("xiamen").flags

    def line(self, text):
        """Take one line; False if it is no event (skipped)."""
        try:
            event = json.loads(text)
        except ValueError:
            event = None
        if not isinstance(event, dict) or not isinstance(event.get("event"), str) or not _well_formed(event):
            if text.strip():
                self.skipped += 1
            return False
        kind = event["event"]
        if kind == "game":
            self.game = event
            self.ended = None
            self.zy = None
            self.throws = event.get("throws", 0) if isinstance(event.get("throws"), int) else 0
            try:
                self.flags = Rules(event.get("rules", "xiamen")).flags
            except (ValueError, TypeError):
                self.flags = Rules("xiamen").flags
        elif kind == "throw":
            self.last = event
            self.throws += 1
            self.remaining = event.get("remaining", self.remaining)
            dice = event.get("dice")
            if (
                isinstance(dice, list)
                and len(dice) == 6
                and all(isinstance(d, int) and 1 <= d <= 6 for d in dice)
            ):
                rank = rank_of(classify(dice, self.flags))
                if rank and (self.zy is None or rank > self.zy[0]):
                    self.zy = (rank, event.get("seat"), "".join(map(str, dice)), event.get("kind"))
            if isinstance(event.get("zhuangyuan"), dict):
                z = event["zhuangyuan"]
                self.zy = (0, z.get("seat"), "".join(map(str, z.get("dice", []))), z.get("kind"))
        elif kind == "end":
            self.ended = event
        return True

    def rows(self):
        """[(label, value)] of the view, in order."""
        rows = []
        if self.game:
            rows.append(
                (
                    "game",
                    "%s players, rules %s%s"
                    % (
                        self.game.get("players", "?"),
                        self.game.get("rules", "?"),
                        ", resumed" if self.game.get("resumed") else "",
                    ),
                )
            )
        rows.append(("throws", str(self.throws)))
        if self.last:
            dice = "".join(map(str, self.last.get("dice", [])))
            kind = self.last.get("kind")
            name = KIND_NAMES[KINDS.index(kind)] if kind in KINDS else (str(kind), "", "")
            rows.append(
                ("last throw", "seat %s: %s  %s %s" % (self.last.get("seat", "?"), dice, name[0], name[2]))
            )
        if self.zy:
            rows.append(("状元", "seat %s with %s (%s)" % (self.zy[1], self.zy[2], self.zy[3])))
        if isinstance(self.remaining, dict):
            rows.append(
                (
                    "prizes left",
                    "  ".join(
                        "%s %s" % (TIER_NAMES[i][0], self.remaining.get(t, "?")) for i, t in enumerate(TIERS)
                    ),
                )
            )
        if self.ended:
            rows.append(("game over", str(self.ended.get("reason"))))
            for seat, held in sorted((self.ended.get("holdings") or {}).items(), key=lambda kv: int(kv[0])):
                won = ", ".join(
                    "%s %d" % (TIER_NAMES[TIERS.index(t)][0], n) for t, n in held.items() if n and t in TIERS
                )
                rows.append(("seat %s" % seat, won or "-"))
        if self.skipped:
            rows.append(("other lines", str(self.skipped)))
        return rows


def _dice(value):
    return isinstance(value, list) and len(value) == 6 and all(type(d) is int and 1 <= d <= 6 for d in value)


def _holdings(value):
    return isinstance(value, dict) and all(
        isinstance(seat, str)
        and seat.isdigit()
        and isinstance(held, dict)
        and all(isinstance(t, str) and type(n) is int for t, n in held.items())
        for seat, held in value.items()
    )


def _well_formed(event):
    """Whether the fields the view reads have the types docs/events.md gives
    them: a line such as {"event": "end", "holdings": 5} is skipped, not shown."""
    kind = event["event"]
    if kind == "throw":
        z = event.get("zhuangyuan")
        return ("dice" not in event or _dice(event["dice"])) and (
            not isinstance(z, dict) or _dice(z.get("dice"))
        )
    if kind == "end":
        return event.get("holdings") is None or _holdings(event["holdings"])
    return True


def render(state):
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Bobing (博饼) bowl", show_header=False, expand=False)
    table.add_column(style="bold cyan")
    table.add_column()
    for label, value in state.rows():
        table.add_row(Text(printable(label)), Text(printable(value)))  # as sent: no markup, no escapes
    return table


def _lines(args):
    if args.file is not None:
        try:
            stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8", errors="replace")
        except OSError as e:
            raise UsageError("%s: cannot read: %s" % (args.file, e.strerror)) from None
        yield from stream
        return
    import serial  # the `sync` extra

    from host_tools.sync.transport import open_serial

    try:
        port = open_serial(args.port, args.baud, 0.5)
    except SyncError as e:
        raise UsageError(str(e)) from None
    pending = b""
    while True:
        try:
            data = port.read(256)
        except (serial.SerialException, OSError):
            raise UsageError("%s: the port went away" % args.port) from None
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            yield line.decode("utf-8", "replace")


def run(args):
    try:
        from rich.console import Console
        from rich.live import Live
    except ImportError:
        raise UsageError("watch needs rich: pip install 'bobing[report]'") from None
    state = WatchState()
    lines = _lines(args)
    console = Console()
    if not console.is_terminal:
        for line in lines:
            state.line(line)
        console.print(render(state))
        return 0
    with Live(render(state), console=console, auto_refresh=False) as live:
        for line in lines:
            if state.line(line):
                live.update(render(state), refresh=True)
    return 0
