"""The interactive virtual board's side of its terminal view: keys in, lines out.

    console = Console(keys_in, out)
    console.start()           # a power-up: the line `power`
    console.show(glass)       # the line `glass STATE [MEMORY]` if the bowl sent the panel anything
    console.write(text)       # sound, lamp, speech, screen and event lines (a stream)

The view itself is drawn by `bobing sim` in CPython (host_tools/sim/view.py),
out of the bowl's heap: this process only writes lines.  A colour glass's
memory is already in its file (sim.panels.FileMemory), so its line carries
the panel's state alone, as hex: MADCTL, inverted, sleeping, on.  The mono
glass's 1 KB lives in the heap, so its line carries the state (on, powered,
inverted, segment remap, COM reversed) and then the memory.  The bytes
are the ones sim.panels' save() writes after its header, so the view reads
them back with the same code.  The line is built in a buffer made once per
glass: drawing allocates nothing.
"""

_HEX = b"0123456789abcdef"
_HEAD = b"glass "


class Console:
    def __init__(self, keys_in, out):
        self.keys_in = keys_in  # read one key at a time
        self.out = _Screen(out)
        self.glass = None  # the glass self.line describes
        self.line = bytearray()
        self.sent = -1  # the glass's byte count when last sent

    def tee(self, other):
        """A stream writing to `other` (if any) and to the console."""
        return _Tee(other, self) if other is not None else self

    def start(self):
        """A power-up: the view clears the panel until the new glass comes."""
        self.sent = -1
        self.out.write("power\n")

    def show(self, glass):
        """Send the glass's state again if the bowl sent the panel anything since."""
        if glass.sent == self.sent:
            return
        self.sent = glass.sent
        mono = not hasattr(glass, "madctl")
        if glass is not self.glass:
            size = len(_HEAD) + 2 * (5 + len(glass.memory) if mono else 4) + 1
            self.line = bytearray(size)
            self.line[: len(_HEAD)] = _HEAD
            self.line[-1] = 10  # \n
            self.glass = glass
        at = len(_HEAD)
        if mono:
            at = self.flags(at, glass.on, glass.powered, glass.inverted, glass.seg_remap, glass.com_reversed)
            for b in glass.memory:
                at = self.byte(at, b)
        else:
            self.flags(at, glass.madctl, glass.inverted, glass.sleeping, glass.on)
        self.out.write(self.line)

    def flags(self, at, a, b, c, d, e=None):
        at = self.byte(self.byte(self.byte(self.byte(at, a), b), c), d)
        return at if e is None else self.byte(at, e)

    def byte(self, at, value):
        value = int(value)
        self.line[at] = _HEX[value >> 4]
        self.line[at + 1] = _HEX[value & 15]
        return at + 2

    def write(self, text):
        self.out.write(text)

    def flush(self):
        pass

    def close(self):
        self.out.write("off\n")


class _Screen:
    """The view's stream, without flush(): the unix port's flush is an
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
