"""What one logged batch means for the screen, the speaker and the live events."""

from micropython import const

from bobing import events as ev

_NONE = const(-1)


class Outcome:
    """One batch (a throw or a void) decoded once, in place.

    seat (0-based), void, faces (six ints), award (the classify() bits),
    won[tier] / taken[tier] (prizes from the pool / from another seat),
    missed (bit set of empty tiers), shared[tier], new_zy (the ZY event's
    seat or _NONE), zy_changed, skipped (bit set of seats), end_reason (0: on),
    best_tier / best_count (the highest tier this throw won or took and how
    many, or _NONE and 0), batch (the bytes read: the speaker reads them too).
    """

    def __init__(self):
        self._event = [0] * ev.EVENT_SIZE  # the event being read: a batch is read in place
        self.batch = b""
        self.faces = [1] * 6
        self.won = [0] * 6
        self.taken = [0] * 6
        self.shared = [0] * 6
        self.clear()

    def clear(self):
        self.seat = 0
        self.void = False
        self.award = 0
        self.missed = 0
        self.zy_changed = False
        self.new_zy = _NONE
        self.skipped = 0
        self.end_reason = 0
        self.best_tier = _NONE
        self.best_count = 0
        for i in range(6):
            self.won[i] = self.taken[i] = self.shared[i] = 0

    def read(self, batch):
        """Fill from an event batch's bytes; returns self."""
        self.clear()
        self.batch = batch
        e = self._event
        pos = ev.read_head(batch, e)
        while pos < len(batch):
            pos = ev.read_event(batch, pos, e)
            kind = e[0]
            if kind == ev.THROW:
                self.seat = e[1]
                code = e[2]
                for i in range(5, -1, -1):
                    self.faces[i] = code % 6 + 1
                    code //= 6
                self.award = e[3]
            elif kind == ev.VOID:
                self.seat = e[1]
                self.void = True
            elif kind == ev.SKIP:
                self.skipped |= 1 << e[1]
            elif kind == ev.AWARD:
                if e[1] == self.seat:
                    self.won[e[2]] += e[3]
            elif kind == ev.TAKE:
                if e[1] == self.seat:
                    self.taken[e[2]] += e[4]
            elif kind == ev.SHARE:
                self.shared[e[1]] += e[2]
            elif kind == ev.ZY:
                self.zy_changed = True
                self.new_zy = _NONE if e[1] == ev.NO_SEAT else e[1]
            elif kind == ev.MISS:
                self.missed |= 1 << e[1]
            elif kind == ev.END:
                self.end_reason = e[1]
        for tier in range(5, -1, -1):
            n = self.won[tier] + self.taken[tier]
            if n:
                self.best_tier = tier
                self.best_count = n
                break
        return self

    def empty_tier(self):
        """The highest tier the throw won but found empty, or _NONE."""
        for tier in range(5, -1, -1):
            if self.missed & (1 << tier):
                return tier
        return _NONE
