"""The emulated glass in a true-colour terminal (MicroPython unix port or CPython).

    from sim import term
    term.draw(glass)                 # from the top left of the terminal
    term.draw(glass, columns=60, row=3, out=stream)

Each character cell is an upper half block (U+2580) whose foreground is the
top pixel and whose background the bottom one, in 24-bit ANSI colour, so a
cell shows two pixel rows.  The glass is scaled down by a whole step (every
step-th pixel, sampled) to fit `columns` (default 80): the 240x320 colour
panel at step 3 is 80 columns by 54 lines, the 128x64 OLED at step 2 is
64 by 16.  Lines that did not change since the last draw of the same glass
are not written again.
"""

import sys

_HALF = "\u2580"


def step_for(glass, columns):
    """The smallest whole step that fits the glass's width into `columns`."""
    return max(1, (glass.width + columns - 1) // columns)


def lines(glass, step):
    """The picture as ANSI lines (a list of str), two sampled pixel rows a line."""
    out = []
    for y in range(0, glass.height - step, 2 * step):
        cells = []
        last = None
        for x in range(0, glass.width, step):
            top = glass.rgb(x, y)
            bottom = glass.rgb(x, y + step)
            pair = (top, bottom)
            if pair != last:
                cells.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % (top + bottom))
                last = pair
            cells.append(_HALF)
        cells.append("\x1b[0m")
        out.append("".join(cells))
    return out


_shown = {}  # type: dict


def draw(glass, columns=80, row=1, out=None):
    """Draw the glass from terminal line `row` (1-based), writing only lines that changed."""
    out = out or sys.stdout
    step = step_for(glass, columns)
    new = lines(glass, step)
    old = _shown.get(id(glass), [])
    for i, text in enumerate(new):
        if i < len(old) and old[i] == text:
            continue
        out.write("\x1b[%d;1H%s" % (row + i, text))
    _shown[id(glass)] = new
    if hasattr(out, "flush"):
        out.flush()
