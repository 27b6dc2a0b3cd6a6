"""What a newcomer sees in `make sim`: the bowl's real screen, drawn by the
shipped layouts on the emulated panel, in the terminal in true colour, with
the key help and what the screen means beside or under it (tests/test_sim_view.py
has the words and the sizes)."""

import json
import re

import pytest
from test_sim import bobing_sim, interactive, lines, throw_shown

CELL = re.compile(r"\x1b\[38;2;(\d+);(\d+);(\d+)m\x1b\[48;2;(\d+);(\d+);(\d+)m")


# devkit in `make test-quick`; its interactive test has the oled's panel in the terminal
@pytest.mark.parametrize(
    "board",
    ["devkit", pytest.param("cyd", marks=pytest.mark.slow), pytest.param("oled", marks=pytest.mark.slow)],
)
def test_make_sim_draws_the_panel_in_true_colour_and_a_throw_in_the_log(tmp_path, board):
    image = str(tmp_path / "bowl.img")
    shown, code = interactive(
        ["--board", board, "--players", "3", "--flash", image, "--lang", "en"],
        [(b" ", throw_shown(image, 1))],
    )
    assert code == 0, shown
    assert "ready lamp on" in shown and "space/Enter THROW" in shown
    colours = {m.groups() for m in CELL.finditer(shown)}
    # a panel, not a blank: many colours of glass (dice, red pips, text, background)
    assert len(colours) >= (8 if board != "oled" else 2), colours
    if board != "oled":
        cells = [tuple(map(int, c[:3])) for c in colours] + [tuple(map(int, c[3:])) for c in colours]
        assert any(r > 120 and g < 80 and b < 80 for r, g, b in cells)  # the red of the pips and bands
    throw = json.loads(lines(image + ".events")[1])
    assert throw["event"] == "throw"
    # the throw told in words beside the panel, in place
    assert "player %d \u00b7 " % throw["seat"] in shown
    # drawn in place: cursor positioning, never a scroll of the whole panel
    assert "\x1b[2;1H" in shown


def test_a_small_terminal_gets_a_smaller_panel_that_still_fits(tmp_path):
    image = str(tmp_path / "bowl.img")
    shown, code = interactive(["--players", "2", "--flash", image], [], size=(80, 24))
    assert code == 0
    rows = [int(r) for r in re.findall(r"\x1b\[(\d+);\d+H", shown)]
    assert rows and max(rows) <= 24


def test_the_headless_sim_draws_the_real_screen_on_its_glass(tmp_path):
    image = str(tmp_path / "bowl.img")
    code, events, err = bobing_sim(["--flash", image, "--players", "2", "--seed", "4"], ["throw"])
    assert code == 0, err
    with open(image + ".glass", "rb") as f:
        memory = f.read()
    assert len(memory) == 240 * 320 * 2
    assert len(set(memory[i : i + 2] for i in range(0, len(memory), 2))) >= 8  # pixels, not blank


@pytest.mark.slow  # a whole game: `make test-quick` has test_sim's
def test_the_oled_end_screen_turns_its_pages_of_seats_while_it_stays(tmp_path):
    # 128 x 64 holds three seats under the tiers' heads (display.mono): seven
    # players' prizes are three pages, each shown in turn, then the first again
    trace = str(tmp_path / "trace")
    args = ["--board", "oled", "--players", "7", "--rules", "folk", "--seed", "11"]
    args += ["--flash", str(tmp_path / "bowl.img"), "--trace", trace]
    code, events, err = bobing_sim(args, ["throw"] * 169 + ["pause 10000"])
    assert code == 0, err
    assert events[-1]["event"] == "end", "seed 11 no longer ends a 7-player folk game at throw 169"
    shown = lines(trace)
    end = max(i for i, s in enumerate(shown) if s.startswith("screen end "))
    pages = [s for s in shown[end:] if s.startswith("screen page ")]
    # 10 s on the end screen: a page every 3 s (app._END_PAGE_MS)
    assert pages == ["screen page first=4", "screen page first=7", "screen page first=1"], shown[end:]
