"""Live events: one JSON object a line on the USB serial, for the host.

docs/events.md is the schema.  Lines are written with % formatting, keys in
a fixed order, seats 1-based, tiers and kinds by the ids of bobing.names
(as `bobing replay --json` names them).
"""

from bobing import events as ev
from bobing.names import KINDS, TIERS
from bobing.rules import PRESETS


def _tiers(counts):
    # {"yixiu": n, ...} of six counts, every tier
    return "{%s}" % ", ".join(['"%s": %d' % (TIERS[t], counts[t]) for t in range(6)])


def _some(counts):
    # {"tier": n} of the non-zero counts only
    return "{%s}" % ", ".join(['"%s": %d' % (TIERS[t], counts[t]) for t in range(6) if counts[t]])


def _faces(faces):
    return "[%d, %d, %d, %d, %d, %d]" % tuple(faces)


def _seat(seat):
    return "null" if seat < 0 or seat == ev.NO_SEAT else "%d" % (seat + 1)


def _seats(bits, players):
    return "[%s]" % ", ".join(["%d" % (s + 1) for s in range(players) if bits & (1 << s)])


class Live:
    def __init__(self, serial):
        self.serial = serial

    def game(self, game, resumed, last):
        """A game started, or resumed after a power cut (`last`: the Outcome
        shown again, or None)."""
        if last is None:
            shown = "null"
        elif last.void:
            shown = '{"seat": %d, "dice": null, "void": true}' % (last.seat + 1)
        else:
            shown = '{"seat": %d, "dice": %s}' % (last.seat + 1, _faces(last.faces))
        self.serial.write_line(
            '{"event": "game", "players": %d, "rules": "%s", "sets": %d, "first": %d, "resumed": %s, "throws": %d, "last": %s}'
            % (
                game.players,
                PRESETS[game.rules.preset_id],
                game.sets,
                game.first_seat + 1,
                "true" if resumed else "false",
                game.batches,
                shown,
            )
        )

    def turn(self, game, out):
        """A throw or a void, once it is durable."""
        if out.void:
            head = '{"event": "void", "n": %d, "seat": %d' % (game.batches, out.seat + 1)
        else:
            head = (
                '{"event": "throw", "n": %d, "seat": %d, "dice": %s, "kind": "%s", "won": %s, "taken": %s'
                % (
                    game.batches,
                    out.seat + 1,
                    _faces(out.faces),
                    KINDS[out.award & 15],
                    _some(out.won),
                    _some(out.taken),
                )
            )
        missed = ", ".join(['"%s"' % TIERS[t] for t in range(6) if out.missed & (1 << t)])
        zy = game.zhuangyuan()
        self.serial.write_line(
            '%s, "missed": [%s], "shared": %s, "skipped": %s, "zhuangyuan": %s, "remaining": %s}'
            % (
                head,
                missed,
                _some(out.shared),
                _seats(out.skipped, game.players),
                _seat(zy[0] if zy else -1),
                _tiers(game.remaining),
            )
        )

    def end(self, game, audit):
        holdings = ", ".join(
            ['"%d": %s' % (s + 1, _tiers(game.holdings[s * 6 : s * 6 + 6])) for s in range(game.players)]
        )
        zy = game.zhuangyuan()
        if zy is None:
            zhuangyuan = "null"
        else:
            zhuangyuan = '{"player": %d, "dice": %s, "kind": "%s"}' % (
                zy[0] + 1,
                _faces(ev.dice_of(zy[1])),
                KINDS[zy[2]],
            )
        self.serial.write_line(
            '{"event": "end", "reason": "%s", "throws": %d, "zhuangyuan": %s, "holdings": {%s}, "shared": %s, "audit": "%s"}'
            % (game.end_reason_name(), game.batches, zhuangyuan, holdings, _tiers(game.shared), audit)
        )

    def sync(self):
        """The app has left its loop for the host's sync (docs/sync.md)."""
        self.serial.write_line('{"event": "sync"}')

    def status(self, what, detail):
        """Anything else the host should know: what in out_of_service,
        flash_full, flash_warning, settings, resumed_issue, stuck."""
        self.serial.write_line('{"event": "%s", "detail": "%s"}' % (what, detail.replace('"', "'")))
