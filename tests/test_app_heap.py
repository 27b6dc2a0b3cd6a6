"""The whole firmware on an ESP32's heap: micropython32, the firmware in ROMFS.

tests/mplib/appflow.py boots the shipped App on the bowl's own board
layer (board.devkit: the colour screens on the ST7789 driver, the fonts,
the piezo, the DFPlayer, the serial's live events) over faked pins and buses
on a flash that already holds a history, starts a 10-player table, plays
300 throws (whole games, new ones as they end) and cuts the power in the
middle of a throw's flash write; then, in a new process as RAM does not
survive a power cut, a new App boots on the same flash, resumes the game
with the last throw shown again, and plays 300 more.  A bowl whose heap
cannot hold that freezes mid-game.

It runs on the "esp32rom" setting of tests/mp.py: the modules and fonts
execute in place from a ROMFS image, as on the ESP32 (a ROMFS partition or
frozen bytecode), and the harness's own objects are given on top
(harness_heap), so HEAP is the working heap the firmware needs beside its
code.  HEAP is the smallest heap this flow passes from (every 1 KB step up
passing) plus a few KB, so a growth of the firmware's heap beyond that
margin fails here; bench/py_app.py walks down to the smallest heap of its
longer flow, and docs/memory.md says where the heap goes.
"""

import pytest
from mp import image_kept, qstr_count, qstr_pool_bytes, romfs_build, run_micropython, start_kept
from test_heap_flow import MPLIB

FLOW = MPLIB + "/appflow.py"
HEAP = 82 * 1024  # 4 KB above the smallest heap of this flow (docs/memory.md)
HISTORY = 1000  # throws already in the log when the bowl boots


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("appflow") / "flash.img")
    out = run_micropython(
        FLOW, 2_000_000, (MPLIB,), script_args=["build", path, str(HISTORY)], port="esp32rom"
    )
    assert out.split() == ["built", str(HISTORY)]
    return path


_harness = {}


def harness_heap(image, port, half):
    """Heap bytes the flow's harness keeps in its `half` ("run" or "resume")
    before the firmware's first object, which a bowl does not hold: what
    appflow.py harness_kept() prints, less the image (its own allowance),
    the qstr pools made by then (the firmware's names fill the same pools,
    so they are the firmware's to pay) and what an empty interpreter keeps
    (a bowl's own start keeps its like).  The same at any heap size: the
    objects alive then are the same; so it is measured once per process.
    The heap is given it with its share of the collector's tables
    (tools/romfs_build.py heap_holding), as the image is."""
    key = (image, port, half)
    if key not in _harness:
        args = (
            ["harness", "run", image, "0", "10"]
            if half == "run"
            else ["harness", "resume", image, "0", "0", ""]
        )
        out = run_micropython(FLOW, 1024 * 1024, (MPLIB,), script_args=args, port=port)
        kept = int(out.split("app.harness_kept")[1].split()[0])
        if port == "esp32rom":
            kept -= image_kept()
        _harness[key] = kept - qstr_pool_bytes(out) - start_kept(port), qstr_count(out)
    return _harness[key][0]


def harness_names(image, port, half):
    """The names (qstrs) the harness has made when the firmware's first is made."""
    harness_heap(image, port, half)
    return _harness[(image, port, half)][1]


def app_flow(image, heapsize, throws, port="esp32rom", players=10):
    """Figures of the whole flow at `heapsize`: `throws` throws before the
    power cut and as many after it, each half in its own process.  Raises
    AssertionError if either half fails (a MemoryError included).

    boot_kept_bytes: after the first boot; peak_kept_bytes, longest_gc_pause_us,
    press_to_result_us_max: the larger of the halves; largest_free_block_bytes:
    at the end; press_to_result_us_mean and throws over both; bowl_names: the
    names (qstrs) the bowl made by the end of its first boot, the harness's
    left out."""

    def half(*args):
        heap = heapsize + romfs_build().heap_holding(harness_heap(image, port, args[0]))
        out = run_micropython(FLOW, heap, (MPLIB,), script_args=list(args), port=port)
        lines = [line.split() for line in out.splitlines() if line.startswith("app.")]
        figures = {w[0]: w[1] if w[0] == "app.cut" else int(w[1]) for w in lines}
        figures["app.bowl_names"] = qstr_count(out) - harness_names(image, port, args[0])
        return figures, lines

    first, lines = half("run", image, str(throws), str(players))
    held, shown = lines[-1][1], lines[-1][2]
    second, _ = half("resume", image, str(throws), held, shown)
    out = {"app.boot_kept_bytes": first["app.boot_kept_bytes"], "app.bowl_names": first["app.bowl_names"]}
    for name in ("app.peak_kept_bytes", "app.longest_gc_pause_us", "app.press_to_result_us_max"):
        out[name] = max(first[name], second[name])
    out["app.largest_free_block_bytes"] = second["app.largest_free_block_bytes"]
    out["app.throws"] = first["app.throws"] + second["app.throws"]
    total = first["app.press_to_result_us_total"] + second["app.press_to_result_us_total"]
    out["app.press_to_result_us_mean"] = total // out["app.throws"]
    return out


def test_a_ten_player_game_with_a_power_cut_and_resume_fits_the_heap(history):
    figures = app_flow(history, HEAP, 300)
    assert figures["app.throws"] >= 590, figures  # new games take a press each
    assert figures["app.largest_free_block_bytes"] >= 4 * 1024, figures


def test_the_harness_is_given_on_top_of_the_heap_measured(history):
    # where the firmware's first object is made, the flow's heap has as much
    # free as a plain heap of the size measured once the interpreter has
    # started and the qstr pools of that moment are made: the harness's own
    # objects and the image come on top, nothing of the firmware's does (to
    # 128 B: where the harness's objects land moves with the paths' lengths,
    # docs/memory.md; an eighth of the step the smallest heap is walked in)
    heap = 64 * 1024
    args = ["harness", "run", history, "0", "10"]
    harness = romfs_build().heap_holding(harness_heap(history, "esp32rom", "run"))
    out = run_micropython(FLOW, heap + harness, (MPLIB,), script_args=args, port="esp32rom")
    free = int(out.split("app.harness_kept")[1].split(",")[1].split()[0])
    plain = int(run_micropython("import gc\nprint(gc.mem_free() + gc.mem_alloc())", heap, port="esp32word"))
    expected = plain - start_kept("esp32rom") - qstr_pool_bytes(out)
    assert expected - 128 <= free <= expected + 128, (free, expected)


def test_imports_from_romfs_run_in_place_rather_than_being_copied_into_the_heap():
    # the engine module as the two settings import it: from ROMFS its
    # bytecode and strings stay in the image, from a folder of .mpy files
    # they are loaded into the heap
    code = "from mp_heap import kept\nprint(kept(lambda: __import__('bobing.game')))"
    rom = int(run_micropython(code, 64 * 1024, port="esp32rom"))
    ram = int(run_micropython(code, 64 * 1024, port="esp32word"))
    print("import bobing.game kept: %d B from ROMFS, %d B from .mpy files" % (rom, ram))
    assert rom * 2 < ram, (rom, ram)
