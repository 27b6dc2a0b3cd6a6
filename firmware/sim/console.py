"""The interactive virtual board's terminal: the emulated panel, redrawn in place.

    console = Console(keys_in, out, "devkit", columns, rows)
    console.start()           # clear the terminal, draw the key help line
    console.show(glass)       # draw the panel again if the bowl sent it anything
    console.write(text)       # sound, lamp, speech and event lines (a stream)

Line 1 is the key help and the ready lamp; the panel (sim.term: true-colour
half blocks, scaled down by a whole step) is drawn under it, and beside it
(or under it, whichever lets the panel be bigger) the last few buzzer,
speech and event lines.  Everything is written at fixed places with cursor
positioning, so nothing scrolls the panel away.
"""

from sim import term

_LOG_LINES = 5  # under the panel; beside it the log takes the panel's height
_BESIDE_MIN = 32  # columns the log needs to stand beside the panel
_HELP = "space/Enter THROW   r REFEREE   l long REFEREE (menu)   q off"


def _ceil(a, b):
    return -(-a // b)


def panel_lines(height, step):
    """Terminal lines sim.term uses for a glass `height` px tall at `step`."""
    return len(range(0, height - step, 2 * step))


def layout(width, height, columns, rows):
    """(step, log_row, log_col, log_lines, log_width) for a `width` x `height`
    px glass on a `columns` x `rows` terminal: the smallest whole step that
    fits, with the log beside the panel or under it."""
    best = None
    for beside in (True, False):
        room = columns - _BESIDE_MIN if beside else columns
        lines = rows - 1 if beside else rows - 2 - _LOG_LINES
        if room < 8 or lines < 4:
            continue
        step = max(_ceil(width, room), _ceil(height, 2 * lines), 1)
        while panel_lines(height, step) > lines:
            step += 1
        used = panel_lines(height, step)
        cols = _ceil(width, step)
        if beside:
            place = (step, 2, cols + 3, rows - 1, columns - cols - 3)
        else:
            place = (step, used + 3, 1, rows - used - 2, columns)
        if best is None or step < best[0]:
            best = place
    return best or (max(_ceil(width, columns), 1), rows, 1, 1, columns)


class Console:
    def __init__(self, keys_in, out, profile, columns, rows):
        self.keys_in = keys_in  # read one key at a time
        self.out = _Screen(out)
        self.profile = profile
        self.columns = columns
        self.rows = rows
        self.lamp = "off"
        self.log = []  # the last lines, oldest first
        self.part = ""  # a line still being written
        self.place = None  # layout() for the glass being shown
        self.sent = -1  # the glass's byte count when last drawn

    def tee(self, other):
        """A stream writing to `other` (if any) and to the console."""
        return _Tee(other, self) if other is not None else self

    def start(self):
        """A power-up: clear the terminal and draw the panel afresh."""
        term._shown.clear()  # a new glass may reuse an old one's id
        self.sent = -1
        self.out.write("\x1b[0m\x1b[2J\x1b[?25l")
        self.header()

    def header(self):
        self.out.write(
            "\x1b[1;1H\x1b[0m\x1b[7m %s  ready lamp %-3s \x1b[0m  %s\x1b[K"
            % (self.profile, self.lamp, _HELP[: max(0, self.columns - 28)])
        )

    def show(self, glass):
        """Draw the glass again if the bowl sent the panel anything since."""
        if glass.sent == self.sent:
            return
        if self.place is None:
            self.place = layout(glass.width, glass.height, self.columns, self.rows)
            self.draw_log()
        self.sent = glass.sent
        step = self.place[0]
        term.draw(glass, columns=_ceil(glass.width, step), row=2, out=self.out)

    def write(self, text):
        text = self.part + text
        while "\n" in text:
            line, text = text.split("\n", 1)
            self.line(line)
        self.part = text

    def line(self, line):
        if line.startswith("lamp "):
            self.lamp = line[5:]
            self.header()
            return
        self.log.append(line)
        del self.log[: -self.rows]
        if self.place is not None:
            self.draw_log()

    def draw_log(self):
        assert self.place is not None
        _, row, col, count, width = self.place
        shown = self.log[-count:] if count > 0 else []
        for i in range(count):
            text = shown[i] if i < len(shown) else ""
            self.out.write("\x1b[%d;%dH\x1b[0m%s\x1b[K" % (row + i, col, text[: max(0, width)]))

    def flush(self):
        pass

    def close(self):
        """Leave the cursor under everything, visible again."""
        self.out.write("\x1b[0m\x1b[?25h\x1b[%d;1H\r\n" % self.rows)


class _Screen:
    """The terminal's stream, without flush(): the unix port's flush is an
    fsync, which a terminal refuses, and its files are unbuffered anyway."""

    def __init__(self, out):
        self.write = out.write


class _Tee:
    def __init__(self, first, second):
        self.first = first
        self.second = second

    def write(self, text):
        self.first.write(text)
        self.second.write(text)
