"""Six-sided dice drawn as pips on any FrameBuffer, for both display classes.

The 1 and the 4 carry red pips, as on Chinese dice.  Colour never carries
meaning alone: the red pips are drawn as rings (hollow), the black ones
solid, so a mono panel, or a player who cannot tell red, still sees which
dice count.  The 1's single pip is larger, as on real dice.
"""

# Pips of each face on a 3 x 3 grid: (column, row) pairs, 0..2 each, face
# after face from the 1; face f's f pairs start at byte f * (f - 1).  Bytes:
# indexing them makes no object, so a roll frame allocates nothing; one
# constant, not a tuple of seven: each tuple would be one more heap object
# kept for good (docs/memory.md).
_PIPS = (
    b"\x01\x01"
    b"\x00\x00\x02\x02"
    b"\x00\x00\x01\x01\x02\x02"
    b"\x00\x00\x02\x00\x00\x02\x02\x02"
    b"\x00\x00\x02\x00\x01\x01\x00\x02\x02\x02"
    b"\x00\x00\x00\x01\x00\x02\x02\x00\x02\x01\x02\x02"
)


def draw_die(fb, x, y, size, face, paper, ink, red, edge):
    """A die of `size` px at (x, y) showing `face` (1..6; 0: a blank die).

    paper: the face's colour; ink: solid (black) pips; red: the ringed pips
    of the 1 and 4; edge: outline colour, or -1 for none.  Colours are
    values of fb's format.  fb clips, so a die may be drawn partly.
    """
    rr = size // 8  # corner radius
    fb.fill_rect(x + rr, y, size - 2 * rr, size, paper)
    fb.fill_rect(x, y + rr, size, size - 2 * rr, paper)
    x1 = x + size - 1 - rr
    y1 = y + size - 1 - rr
    fb.ellipse(x + rr, y + rr, rr, rr, paper, True)
    fb.ellipse(x1, y + rr, rr, rr, paper, True)
    fb.ellipse(x + rr, y1, rr, rr, paper, True)
    fb.ellipse(x1, y1, rr, rr, paper, True)
    if edge >= 0:
        fb.hline(x + rr, y, size - 2 * rr, edge)
        fb.hline(x + rr, y + size - 1, size - 2 * rr, edge)
        fb.vline(x, y + rr, size - 2 * rr, edge)
        fb.vline(x + size - 1, y + rr, size - 2 * rr, edge)
        fb.ellipse(x + rr, y + rr, rr, rr, edge, False, 2)
        fb.ellipse(x1, y + rr, rr, rr, edge, False, 1)
        fb.ellipse(x + rr, y1, rr, rr, edge, False, 4)
        fb.ellipse(x1, y1, rr, rr, edge, False, 8)
    if face < 1 or face > 6:
        return
    r = max(2, size // 10)
    ring = face == 1 or face == 4
    if face == 1:
        outer = size // 5
        thick = max(1, size // 16)
    else:
        outer = r + max(1, size // 30)
        thick = max(1, size // 24)
    for i in range(face * (face - 1), face * (face + 1), 2):
        cx = x + size * (1 + _PIPS[i]) // 4
        cy = y + size * (1 + _PIPS[i + 1]) // 4
        if ring:
            fb.ellipse(cx, cy, outer, outer, red, True)
            fb.ellipse(cx, cy, outer - thick, outer - thick, paper, True)
        else:
            fb.ellipse(cx, cy, r, r, ink, True)
