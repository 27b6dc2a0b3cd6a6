"""The whole firmware on an ESP32-sized heap: micropython32, .mpy files.

tests/mplib/appflow.py boots the shipped App on the virtual board, plays a
10-player table (600 throws: whole games, new ones as they end), cuts the
power in the middle of a throw's flash write, boots a new App on the same
flash and plays on.  A bowl whose heap cannot hold that freezes mid-game.
HEAP is what the .mpy build needs today with margin (bench/mp_app.py prints
the smallest heap); frozen into the firmware image the bytecode leaves the
heap, which is how the ESP32's ~100 KB holds it.
"""

from mp import run_micropython
from test_heap_flow import MPLIB

FLOW = MPLIB + "/appflow.py"
HEAP = 136 * 1024


def test_a_ten_player_game_with_a_power_cut_and_resume_fits_the_heap(tmp_path):
    image = str(tmp_path / "flash.img")
    out = run_micropython(FLOW, HEAP, (MPLIB,), script_args=[image, "600", "10"], port="esp32word")
    figures = {line.split()[0]: int(line.split()[1]) for line in out.splitlines()}
    assert figures["app.throws"] >= 590  # new games take a press each
    assert figures["app.largest_free_block_bytes"] >= 4 * 1024, figures
