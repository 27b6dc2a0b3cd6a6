"""What a newcomer sees in `make sim` at any terminal size: the panel as large
as it fits, drawn by `bobing sim` (never in the bowl's heap), and beside or
under it what the screen means, in Chinese or English, speech as words."""

import json
import os
import re
import struct
import unicodedata

import pytest
from test_sim import BOBING, lines, read_until

from bobing.names import KIND_NAMES, KINDS
from host_tools.play.texts import LANGS, T

# each an interactive sim on a pseudo-terminal: `make test-quick` keeps the 80x24 words
SLOW = pytest.mark.slow

CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


def screen(shown, columns, rows):
    """The terminal's rows as a user sees them at the end of `shown` (cursor
    positioning, erasing and text; colours dropped; a Chinese character takes
    two cells)."""
    cells = [[" "] * columns for _ in range(rows)]
    row = col = 0
    at = 0
    while at < len(shown):
        m = CSI.match(shown, at)
        if m:
            params, final = m.groups()
            if final == "H":
                r, _, c = params.partition(";")
                row, col = int(r or 1) - 1, int(c or 1) - 1
            elif final == "K" and row < rows:
                cells[row][col:] = [" "] * (columns - col)
            elif final == "J" and params == "2":
                cells = [[" "] * columns for _ in range(rows)]
            at = m.end()
            continue
        ch = shown[at]
        at += 1
        if ch == "\r":
            col = 0
        elif ch == "\n":
            row += 1
        elif ch >= " " and row < rows and col < columns:
            cells[row][col] = ch
            wide = unicodedata.east_asian_width(ch) in "WF"  # the half block is narrow
            if wide and col + 1 < columns:
                cells[row][col + 1] = ""
            col += 2 if wide else 1
    return ["".join(r) for r in cells]


def play(argv, steps, size, lang="en"):
    """(output, exit status) of `bobing sim ARGV --lang LANG` on a pseudo-terminal of
    `size`: after the ready lamp each step is bytes to type, a new (columns, rows)
    size, or a callable; then it waits for the line of the bytes the step names
    (if any); then q."""
    import fcntl
    import pty
    import termios

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(BOBING, [BOBING, "sim", "--lang", lang, *argv])

    def resize(columns, rows):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    resize(*size)
    out = read_until(fd, b"ready lamp on")
    for step, wait_for in steps:
        if isinstance(step, bytes):
            os.write(fd, step)
        elif isinstance(step, tuple):
            resize(*step)  # the kernel signals the view (SIGWINCH), as a terminal window does
        else:
            step()
        if wait_for is not None:
            out += read_until(fd, wait_for)
    os.write(fd, b"q")
    out += read_until(fd)  # to its end: the sim quits
    _, status = os.waitpid(pid, 0)
    return out.decode(errors="replace"), os.waitstatus_to_exitcode(status)


def words(rows):
    """The terminal's text as one line: the words wrap over rows, and the
    panel's half blocks beside them are not words."""
    return " ".join(" ".join(rows).replace("\u2580", " ").split())


@SLOW
def test_a_300x200_terminal_plays_with_the_panel_full_size_and_no_heap_error(tmp_path):
    image = str(tmp_path / "bowl.img")
    shown, code = play(["--players", "3", "--flash", image], [(b" ", b"ready lamp on")], (300, 200))
    assert code == 0, shown[-2000:]
    assert "MemoryError" not in shown and "reset" not in shown
    assert [e["event"] for e in map(json.loads, lines(image + ".events"))] == ["game", "throw"]
    # the 240x320 panel at least full size: 240 cells a line, 160 lines
    panel = [r for r in screen(shown, 300, 200) if r.count("\u2580") >= 240]
    assert len(panel) >= 160


@pytest.mark.parametrize(
    "lang, player, wins", [("en", "player %d", "wins %s"), pytest.param("zh", "玩家 %d", "得 %s", marks=SLOW)]
)
def test_at_80x24_the_words_tell_the_player_the_dice_and_the_award(tmp_path, lang, player, wins):
    image = str(tmp_path / "bowl.img")
    shown, code = play(["--players", "3", "--flash", image], [(b" ", b"ready lamp on")], (80, 24), lang)
    assert code == 0, shown[-2000:]
    throw = json.loads(lines(image + ".events")[1])
    rows = screen(shown, 80, 24)
    assert max(r.count("\u2580") for r in rows) >= 30  # a panel, as large as fits beside the words
    told = words(rows)
    index = LANGS.index(lang)
    names = KIND_NAMES[KINDS.index(throw["kind"])]
    award = T["no_award"][index] if throw["kind"] == "none" else names[0 if lang == "zh" else 2]
    dice = " ".join(map(str, throw["dice"]))
    assert "%s · %s" % (player % throw["seat"], award) in told, told
    assert dice in told, told
    if throw["won"]:
        assert wins % "" in told, told


@SLOW
def test_a_resize_draws_everything_again_at_the_new_size(tmp_path):
    image = str(tmp_path / "bowl.img")
    shown, code = play(["--players", "2", "--flash", image], [((120, 40), b"\x1b[40;")], (80, 24))
    assert code == 0, shown[-2000:]
    before, _, after = shown.rpartition("\x1b[2J")
    assert "ready lamp" in after  # the key help drawn again, and the panel taller
    tall = max(int(r) for r in re.findall(r"\x1b\[(\d+);1H", after))
    assert tall > 24


@SLOW
def test_speech_shows_as_the_words_the_clips_say(tmp_path):
    image = str(tmp_path / "bowl.img")
    shown, code = play(["--players", "2", "--flash", image], [(b" ", b"ready lamp on")], (120, 40))
    assert code == 0, shown[-2000:]
    told = words(screen(shown, 120, 40))
    assert "says: " in told and "Turn, Player" in told, told
    assert "speech 01/" not in shown


@SLOW
def test_a_view_that_fails_is_one_clear_line_and_no_bowl_reset(tmp_path):
    image = str(tmp_path / "bowl.img")

    def lose_the_glass():  # the panel's file goes: the view cannot read the panel
        os.remove(image + ".glass")

    shown, code = play(
        ["--players", "2", "--flash", image], [(lose_the_glass, None), (b" ", b"bobing: error")], (80, 24)
    )
    assert code == 1
    error = "bobing: error: the terminal view failed: %s.glass: No such file or directory" % image
    # on a line of its own (the terminal's reset codes before it show nothing)
    assert error in re.sub("\x1b\\[[0-9;?]*[A-Za-z]", "", shown).splitlines()
    assert shown.count("bobing: error") == 1
    assert "Traceback" not in shown and "reset" not in shown


@SLOW
def test_the_words_tell_a_whole_game_from_its_first_throw_to_the_winner(tmp_path):
    from test_sim import bobing_sim

    from host_tools.sim.story import Story, Words

    trace = str(tmp_path / "trace")
    code, events, err = bobing_sim(["--players", "3", "--seed", "11", "--trace", trace], ["throw"] * 400)
    assert code == 0, err
    end_at = next(i for i, e in enumerate(events) if e["event"] == "end")
    story = Story(Words("en"))
    for line in lines(trace)[:40]:  # the first turn as the screen shows it
        story.feed(line)
    for event in events[: end_at + 1]:
        story.feed(json.dumps(event))
    told = story.history
    assert told[0] == "player %d to throw · Champion (状元): nobody yet" % events[1]["seat"]
    throws = [e for e in events[:end_at] if e["event"] == "throw"]
    for event in throws:  # each throw a line: who, and the dice
        assert any(
            t.startswith("player %d · " % event["seat"]) and " ".join(map(str, event["dice"])) in t
            for t in told
        )
    end = events[end_at]
    zy = end["zhuangyuan"]
    assert told[-1].startswith("game over · Champion (状元): player %d with " % zy["player"]), told[-1]
    assert " ".join(map(str, zy["dice"])) in told[-1] and told[-1].endswith("audit %s" % end["audit"])


def test_the_bowls_side_of_the_view_sends_the_panel_as_saved_and_allocates_nothing_a_frame(tmp_path):
    from mp import run_micropython

    code = """
import binascii, gc
from sim import panels
from sim.console import Console
class Out:
    def write(self, data):
        self.last = data
def frames(console, glass, n):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(n):
        glass.sent += 1
        console.show(glass)
    used = gc.mem_alloc() - before
    gc.enable()
    return used
out = Out()
console = Console(None, out)
screens = (panels.color_screen("st7789", "%(dir)s/glass"), panels.mono_screen("ssd1306"))
for screen, glass in screens:
    screen.roll(b"\\x04\\x04\\x04\\x04\\x01\\x01")
    console.show(glass)
    glass.save("%(dir)s/saved")
    line = bytes(out.last)
    size = len(line) - 7  # the hex between `glass ` and the line's end
    with open("%(dir)s/saved", "rb") as f:
        f.readline()
        saved = f.read(size // 2)  # only what the line carries: not the colour glass's 150 KB
    print(line[6:-1] == binascii.hexlify(saved), line[-1] == 10)
    print(frames(console, glass, 1000) == frames(console, glass, 1))
""" % {"dir": tmp_path}
    # the colour panel: its state (the memory is in its file); the mono one: state and
    # memory; and as many bytes allocated for 1000 frames as for one
    assert run_micropython(code, heapsize=400_000).split() == ["True", "True", "True"] * 2
