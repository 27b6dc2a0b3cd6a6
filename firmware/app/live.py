"""Live events: one JSON object a line on the USB serial, for the host.

docs/events.md is the schema.  Lines are written with % formatting, keys in
a fixed order, seats 1-based, tiers and kinds by the ids of bobing.names
(as `bobing replay --json` names them).

A line goes out in pieces of at most about 100 bytes (board.serial.write),
never built whole: the end of a 20-player game is a 2 KB line, and one
string that long wants a free run of heap that a long game may no longer
have (docs/memory.md).  Each line's first piece starts '{"event": "NAME"'.
"""

from bobing import events as ev
from bobing.names import KINDS, TIERS
from bobing.rules import PRESETS


class Live:
    def __init__(self, serial):
        self.write = serial.write

    def _tiers(self, counts, every=True):
        # {"yixiu": n, ...}: every tier, or (every False) the non-zero counts only
        write = self.write
        sep = "{"
        for t in range(6):
            if every or counts[t]:
                write('%s"%s": %d' % (sep, TIERS[t], counts[t]))
                sep = ", "
        write("{}" if sep == "{" else "}")

    def _faces(self, faces):
        self.write("[%d, %d, %d, %d, %d, %d]" % tuple(faces))

    def game(self, game, resumed, last):
        """A game started, or resumed after a power cut (`last`: the Outcome
        shown again, or None)."""
        write = self.write
        write(
            '{"event": "game", "players": %d, "rules": "%s", "sets": %d, "first": %d, "resumed": %s, "throws": %d, "last": '
            % (
                game.players,
                PRESETS[game.rules.preset_id],
                game.sets,
                game.first_seat + 1,
                "true" if resumed else "false",
                game.batches,
            )
        )
        if last is None:
            write("null}\n")
        elif last.void:
            write('{"seat": %d, "dice": null, "void": true}}\n' % (last.seat + 1))
        else:
            write('{"seat": %d, "dice": ' % (last.seat + 1))
            self._faces(last.faces)
            write("}}\n")

    def turn(self, game, out):
        """A throw or a void, once it is durable."""
        write = self.write
        if out.void:
            write('{"event": "void", "n": %d, "seat": %d' % (game.batches, out.seat + 1))
        else:
            write('{"event": "throw", "n": %d, "seat": %d, "dice": ' % (game.batches, out.seat + 1))
            self._faces(out.faces)
            write(', "kind": "%s", "won": ' % KINDS[out.award & 15])
            self._tiers(out.won, False)
            write(', "taken": ')
            self._tiers(out.taken, False)
        write(', "missed": [')
        sep = ""
        for t in range(6):
            if out.missed & (1 << t):
                write('%s"%s"' % (sep, TIERS[t]))
                sep = ", "
        write('], "shared": ')
        self._tiers(out.shared, False)
        write(', "skipped": [')
        sep = ""
        for s in range(game.players):
            if out.skipped & (1 << s):
                write("%s%d" % (sep, s + 1))
                sep = ", "
        zy = game.zhuangyuan()
        write('], "zhuangyuan": %s, "remaining": ' % ("null" if zy is None else zy[0] + 1))
        self._tiers(game.remaining)
        write("}\n")

    def end(self, game, audit):
        write = self.write
        write(
            '{"event": "end", "reason": "%s", "throws": %d, "zhuangyuan": '
            % (game.end_reason_name(), game.batches)
        )
        zy = game.zhuangyuan()
        if zy is None:
            write("null")
        else:
            write('{"player": %d, "dice": ' % (zy[0] + 1))
            self._faces(ev.dice_of(zy[1]))
            write(', "kind": "%s"}' % KINDS[zy[2]])
        write(', "holdings": {')
        for s in range(game.players):
            write('%s"%d": ' % (", " if s else "", s + 1))
            self._tiers(game.holdings[s * 6 : s * 6 + 6])
        write('}, "shared": ')
        self._tiers(game.shared)
        write(', "audit": "%s"}\n' % audit)

    def sync(self):
        """The app has left its loop for the host's sync (docs/sync.md)."""
        self.write('{"event": "sync"}\n')

    def status(self, what, detail):
        """Anything else the host should know: what in out_of_service,
        flash_full, flash_warning, settings, resumed_issue, stuck, idle."""
        self.write('{"event": "%s", "detail": "%s"}\n' % (what, detail.replace('"', "'")))
