"""A Screen (docs/device.md) that writes one compact line per call.

What the bowl shows, in words: the virtual board's screen until the panel
emulators draw pixels, and beside them a record for tests, which check
what is shown (golden pixel tests are the screens').  Line format:
`screen <method> key=value ...`; seats 1-based ("-": none), faces as six
digits, tiers and kinds by the ids of bobing.names, a text as its number
and English words: T21:"Resumed after a power cut".  `inner`, if given, is
a real Screen every call is passed on to.
"""

from display.texts import TEXTS

from bobing.names import KINDS, TIERS


def _text(n):
    return "-" if n < 0 else 'T%d:"%s"' % (n, TEXTS[n][2])


def _seat(seat):
    return "-" if seat < 0 else "%d" % (seat + 1)


def _faces(faces):
    return "".join(["%d" % f for f in faces])


def _counts(counts):
    return ",".join(["%d" % n for n in counts])


def _tier(tier):
    return "-" if tier < 0 else TIERS[tier]


class TraceScreen:
    def __init__(self, out, inner=None):
        self.out = out  # anything with write(str)
        self.inner = inner

    def _line(self, text):
        self.out.write("screen ")
        self.out.write(text)
        self.out.write("\n")

    def set_language(self, visitor):
        self._line("set_language visitor=%s" % ("english" if visitor else "pinyin"))
        if self.inner:
            self.inner.set_language(visitor)

    def set_contrast(self, on):
        self._line("set_contrast high=%s" % ("on" if on else "off"))
        if self.inner:
            self.inner.set_contrast(on)

    def attract(self, players, preset):
        self._line("attract players=%d preset=%d" % (players, preset))
        if self.inner:
            self.inner.attract(players, preset)

    def turn(self, seat, players, remaining, zy_seat, zy_faces):
        self._line(
            "turn seat=%s players=%d remaining=%s zy=%s%s"
            % (
                _seat(seat),
                players,
                _counts(remaining),
                _seat(zy_seat),
                ":" + _faces(zy_faces) if zy_seat >= 0 else "",
            )
        )
        if self.inner:
            self.inner.turn(seat, players, remaining, zy_seat, zy_faces)

    def roll(self, faces):
        self._line("roll faces=%s" % _faces(faces))
        if self.inner:
            self.inner.roll(faces)

    def result(
        self, seat, faces, award, won_tier, won_count, empty_tier, new_zy, remaining, zy_seat, zy_faces
    ):
        self._line(
            "result seat=%s faces=%s kind=%s won=%s:%d empty=%s new_zy=%d remaining=%s zy=%s%s"
            % (
                _seat(seat),
                _faces(faces),
                KINDS[award & 15],
                _tier(won_tier),
                won_count,
                _tier(empty_tier),
                1 if new_zy else 0,
                _counts(remaining),
                _seat(zy_seat),
                ":" + _faces(zy_faces) if zy_seat >= 0 else "",
            )
        )
        if self.inner:
            self.inner.result(
                seat, faces, award, won_tier, won_count, empty_tier, new_zy, remaining, zy_seat, zy_faces
            )

    def end(self, reason, zy_seat, zy_faces, holdings, players, audit):
        self._line(
            "end reason=%d zy=%s%s players=%d holdings=%s audit=%s"
            % (
                reason,
                _seat(zy_seat),
                ":" + _faces(zy_faces) if zy_seat >= 0 else "",
                players,
                _counts(holdings),
                audit,
            )
        )
        if self.inner:
            self.inner.end(reason, zy_seat, zy_faces, holdings, players, audit)

    def next_page(self):
        # traced only when a page turned: the app asks every few seconds of any wait
        first = self.inner.next_page() if self.inner else 0
        if first:
            self._line("page first=%d" % first)
        return first

    def menu(self, title, items, values, selected):
        self._line(
            "menu title=%s selected=%s value=%s"
            % (_text(title), _text(items[selected]), values[selected] or "-")
        )
        if self.inner:
            self.inner.menu(title, items, values, selected)

    def pin(self, entered, digit):
        self._line("pin entered=%d digit=%d" % (entered, digit))
        if self.inner:
            self.inner.pin(entered, digit)

    def lifetime(self, games, throws, recoveries, boots):
        self._line("lifetime games=%d throws=%d recoveries=%d boots=%d" % (games, throws, recoveries, boots))
        if self.inner:
            self.inner.lifetime(games, throws, recoveries, boots)

    def about(self, entropy, version, board):
        self._line("about entropy=%d version=%s board=%s" % (entropy, version, board))
        if self.inner:
            self.inner.about(entropy, version, board)

    def message(self, text, detail):
        self._line("message %s detail=%s" % (_text(text), _text(detail)))
        if self.inner:
            self.inner.message(text, detail)

    def notice(self, text):
        self._line("notice %s" % _text(text))
        if self.inner:
            self.inner.notice(text)
