"""The emulated glass in a true-colour terminal (CPython or the MicroPython unix port).

    from sim import term
    term.draw(glass)                 # from the top left of the terminal
    term.draw(glass, columns=60, row=3, out=stream)
    term.fit(glass, 33, 22)          # ANSI lines at most 33 columns by 22 lines

Each character cell is an upper half block (U+2580) whose foreground is the
top pixel and whose background the bottom one, in 24-bit ANSI colour, so a
cell shows two pixel rows.  lines() scales the glass down by a whole step
(every step-th pixel, sampled): the 240x320 colour panel at step 3 is 80
columns by 53 lines, the 128x64 OLED at step 2 is 64 by 16.  fit() scales
by any ratio, as large as the room allows (the terminal view of `bobing
sim`, host_tools/sim/view.py).  draw() writes only lines that changed since
the last draw of the same glass.
"""

import sys

_HALF = "\u2580"


def step_for(glass, columns):
    """The smallest whole step that fits the glass's width into `columns`."""
    return max(1, (glass.width + columns - 1) // columns)


def picture(glass, xs, ys):
    """ANSI lines of the pixels at columns `xs` and rows `ys`, two rows a line."""
    out = []
    for i in range(0, len(ys) - 1, 2):
        cells = []
        last = None
        for x in xs:
            top = glass.rgb(x, ys[i])
            bottom = glass.rgb(x, ys[i + 1])
            pair = (top, bottom)
            if pair != last:
                cells.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % (top + bottom))
                last = pair
            cells.append(_HALF)
        cells.append("\x1b[0m")
        out.append("".join(cells))
    return out


def lines(glass, step):
    """The picture as ANSI lines (a list of str), every step-th pixel."""
    return picture(glass, range(0, glass.width, step), range(0, glass.height, step))


def fit_size(width, height, columns, rows):
    """(columns, lines) of a `width` x `height` px picture as large as fits
    `columns` x `rows` cells, keeping its shape."""
    scale = min(columns / width, 2 * rows / height)
    return max(1, int(width * scale)), max(1, int(height * scale / 2))


def fit(glass, columns, rows):
    """The picture as large as fits `columns` x `rows` cells, keeping its shape."""
    wide, high = fit_size(glass.width, glass.height, columns, rows)
    xs = [x * glass.width // wide for x in range(wide)]
    ys = [y * glass.height // (2 * high) for y in range(2 * high)]
    return picture(glass, xs, ys)


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
