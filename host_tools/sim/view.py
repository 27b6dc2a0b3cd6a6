"""The interactive `bobing sim`'s terminal: the bowl's panel and what it means, drawn here.

    view = View("devkit", "build/sim/devkit.img.glass", "en")
    code = view.run(bowl)   # bowl(): runs sim.run with `--term view.term`, returns its status

The bowl (MicroPython, firmware/sim/run.py) gets a pseudo-terminal as its
--term: it reads its keys there, and writes its lines there (sim.console:
events, the screen's words, speech, the lamp, and `glass ...` when the
panel changed).  This process, not the bowl's 512 KB heap, draws: the panel
read back from its glass file (sim.panels, sim.term: half blocks, two pixel
rows a cell, as large as the terminal allows), and beside or under it what
the screen means in words (host_tools/sim/story.py).  The terminal's keys
go to the bowl as they come; a resize (SIGWINCH) draws everything again.
A failure here is the sim's: the bowl is switched off (a `q`, as the
user's) and run() raises Failure, one line, never a bowl reset.
"""

import io
import os
import select
import signal
import sys
import termios
import threading
import tty

from host_tools.errors import Failure
from host_tools.play.texts import width
from host_tools.sim.process import FIRMWARE
from host_tools.sim.story import Story, Words

HELP = "space/Enter THROW   r REFEREE   l long REFEREE (menu)   q off"
BESIDE_COLUMNS = 30  # the words need this many columns to stand beside the panel
UNDER_ROWS = 6  # ... or this many lines under it
BOLD, DIM, PLAIN = "\x1b[1m", "\x1b[2m", "\x1b[0m"


def _sim():
    """sim.panels and sim.term, the firmware's own (they run in CPython too)."""
    if FIRMWARE not in sys.path:
        sys.path.append(FIRMWARE)
    from sim import panels, term

    return panels, term


def layout(picture, columns, rows):
    """Where things go on a `columns` x `rows` terminal for a `picture` (w, h) px
    glass: ((panel columns, lines), (text row, column, columns, lines)), 1-based.
    The words beside the panel or under it, whichever lets the panel be bigger."""
    _, term = _sim()
    room = rows - 1  # under the key help
    best = None
    for beside in (True, False):
        across = columns - BESIDE_COLUMNS - 1 if beside else columns
        down = room if beside else room - UNDER_ROWS
        if across < 4 or down < 2:
            continue
        size = term.fit_size(picture[0], picture[1], across, down)
        if beside:
            text = (2, size[0] + 2, columns - size[0] - 1, room)
        else:
            text = (size[1] + 2, 1, columns, room - size[1])
        if best is None or size[0] > best[0][0]:
            best = (size, text)
    return best or ((0, 0), (2, 1, columns, max(0, room)))


def wrap(text, columns):
    """text in lines of at most `columns` terminal columns (Chinese takes two),
    broken after a " · " where the line has one (so dice stay together), else a space."""
    lines = []
    while width(text) > columns:
        used, fits, space, part = 0, 0, 0, 0
        for i, ch in enumerate(text):
            used += width(ch)
            if used > columns:
                break
            fits = i + 1
            if ch == " ":
                space = i + 1
                if i and text[i - 1] == "·":
                    part = i + 1
        cut = part or space or max(fits, 1)
        lines.append(text[:cut].rstrip(" "))
        text = text[cut:]
    return lines + [text] if text else lines


class View:
    def __init__(self, profile, glass_path, lang, keys=0, screen=1):
        self.profile = profile
        self.glass_path = glass_path
        self.story = Story(Words(lang))
        self.keys, self.screen = keys, screen
        self.bowl, self.slave = os.openpty()  # the bowl's end: its --term, and its stderr
        tty.setraw(self.slave)
        self.term = os.ttyname(self.slave)
        self.wake, self.waker = os.pipe()
        self.state = None  # the last `glass` line's hex: the panel to draw
        self.glass = None  # the panel as last read back
        self.size = None  # the terminal's, when last drawn
        self.shown = {}  # row: what was last written there (only changes are written again)
        self.saved = None  # the terminal's mode before the view's raw one
        self.error = None
        self.stopped = False
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def note(self, text):
        """A line of the sim's own beside the bowl's (where its serial is)."""
        self.story.feed(text)

    def run(self, bowl):
        """Run `bowl()` under the view; its exit status.  Failure if the view failed."""
        if os.isatty(self.keys):
            self.saved = termios.tcgetattr(self.keys)
            tty.setraw(self.keys)
        previous = signal.signal(signal.SIGWINCH, self.resized)
        self.thread.start()
        try:
            code = bowl()
        finally:
            self.stopped = True
            os.write(self.waker, b".")
            self.thread.join()
            signal.signal(signal.SIGWINCH, previous)
            self.leave()
        if self.error is not None:
            raise Failure("the terminal view failed: %s" % self.error)
        return code

    def resized(self, signum, frame):
        self.size = None
        os.write(self.waker, b".")

    def leave(self):
        """The terminal as it was: attributes, cursor, mode; the prompt under the view."""
        rows = self.size[1] if self.size else 24
        self.write("%s\x1b[?25h\x1b[%d;1H\r\n" % (PLAIN, rows))
        if self.saved is not None:
            termios.tcsetattr(self.keys, termios.TCSADRAIN, self.saved)

    def loop(self):
        part = b""
        reading = [self.keys, self.bowl, self.wake]
        while not self.stopped:
            try:
                part = self.turn(reading, part)
            except Exception as e:  # any failure of the view: one line, and the bowl switched off
                if self.error is not None:
                    return  # reading on failed too: the q is sent, the bowl ends as it can
                self.fail(e)

    def turn(self, reading, part):
        """Wait for keys, the bowl's lines or a resize; pass keys on, draw.  Returns
        the part of a line the bowl has not finished."""
        ready = select.select(reading, [], [])[0]
        if self.wake in ready:
            os.read(self.wake, 64)
        if self.keys in ready:
            data = os.read(self.keys, 64)
            if data:
                os.write(self.bowl, data)
            else:
                reading.remove(self.keys)  # no more keys (stdin closed): the bowl plays on
        lines = []
        if self.bowl in ready:
            part += os.read(self.bowl, 1 << 16)
            *lines, part = part.split(b"\n")
        if self.error is None:  # else only read on: a bowl blocked on a full terminal never sees the q
            for line in lines:
                self.take(line.decode("utf-8", "replace").rstrip("\r"))
            self.draw()
        return part

    def take(self, line):
        if line.startswith("glass "):
            self.state = line[6:]
        elif line == "power":
            self.state = self.glass = None
            self.shown.clear()
            self.story.feed(line)
        else:
            self.story.feed(line)

    def fail(self, error):
        """Switch the bowl off as the q key does."""
        if isinstance(error, OSError) and error.filename:
            self.error = "%s: %s" % (error.filename, error.strerror)
        else:
            self.error = str(error) or type(error).__name__
        os.write(self.bowl, b"q")

    def write(self, text):
        data = text.encode()
        while data:
            data = data[os.write(self.screen, data) :]

    def draw(self):
        try:
            size = tuple(os.get_terminal_size(self.screen))
        except OSError:
            size = (80, 24)
        out = []
        if size != self.size:
            self.size = size
            self.shown.clear()
            out.append("%s\x1b[2J\x1b[?25l" % PLAIN)
        columns, rows = size
        panels, term = _sim()
        glass = self.read_glass(panels) if self.state is not None else self.glass
        self.glass, self.state = glass, None
        picture = (self.glass.width, self.glass.height) if self.glass else (240, 320)
        (wide, high), (top, left, across, down) = layout(picture, columns, rows)
        label = " %s  ready lamp %-3s " % (self.profile, self.story.lamp)
        keys = HELP[: max(0, columns - len(label) - 2)]
        self.put(out, ("head", 1), "\x1b[1;1H%s\x1b[7m%s%s  %s\x1b[K" % (PLAIN, label, PLAIN, keys))
        if self.glass is not None and wide:
            for i, text in enumerate(term.fit(self.glass, wide, high)):
                self.put(out, ("panel", 2 + i), "\x1b[%d;1H%s" % (2 + i, text))
        for i, text in enumerate(self.words(across, down)):
            self.put(out, ("text", top + i), "\x1b[%d;%dH%s%s\x1b[K" % (top + i, left, text, PLAIN))
        if out:
            self.write("".join(out))

    def put(self, out, key, text):
        if self.shown.get(key) != text:
            self.shown[key] = text
            out.append(text)

    def read_glass(self, panels):
        """The panel the last `glass` line describes: a colour one's memory from its file."""
        kind = panels.PROFILES[self.profile]
        state = bytes.fromhex(self.state)
        if kind in ("st7789", "ili9341"):
            glass = panels.MipiGlass(kind)
            with open(self.glass_path, "rb") as f:
                memory = f.read()
            glass._restore(state[:4], io.BytesIO(memory))
        else:
            glass = panels.MonoGlass(kind)
            glass._restore(state[:5], io.BytesIO(state[5:]))
        return glass

    def words(self, columns, rows):
        """The text's lines: what the screen means now (bold), what the bowl says,
        and the game so far, newest at the bottom, `rows` lines in all."""
        if columns < 1 or rows < 1:
            return []
        story = self.story
        lines = [BOLD + line for line in wrap(story.now, columns)]
        lines += [DIM + line for line in wrap(story.speech, columns)]
        lines = lines[:rows]
        past = story.history[:-1] if story.history and story.history[-1] == story.now else story.history
        room = rows - len(lines) - 1
        before = []
        for text in reversed(past):
            if len(before) >= room:
                break
            before[:0] = wrap(text, columns)
        if room > 0:
            lines += [""] + before[-room:]
        return lines + [""] * (rows - len(lines))
