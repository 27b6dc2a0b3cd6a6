"""The bowl's whole flow on an ESP32-sized heap (micropython32).

tests/mplib/flow.py boots on a history of 2,000 throws in a 1 MB LittleFS
image kept in a host file (so the image is not in the heap), plays 2,000
throws through the session with its housekeeping, cuts the power in the
middle of a throw and boots again.  A bowl whose heap cannot hold that
freezes mid-game: this is the regression guard for the heap the core needs,
with the code loaded into the heap from .mpy files, and as an ESP32 runs it,
in place from ROMFS.  Each runs at the smallest heap bench/py_flow.py finds
(docs/memory.md) plus a few KB: the flow passes or fails there by where its
objects land, and every 1 KB step above that smallest heap passes, so a
growth of the core's heap by more than the margin fails here.  The room left
for the application is the whole firmware's test (tests/test_app_heap.py).
"""

import os

import pytest
from mp import run_micropython

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")
FLOW = os.path.join(MPLIB, "flow.py")
HEAP = 68 * 1024  # 4 KB above the smallest heap of the flow with its code in the heap
ROM_HEAP = 38 * 1024  # 3 KB above the smallest heap with the code in ROMFS (issue 7 asked 40 KB)


def _history(tmp_path_factory, port):
    path = str(tmp_path_factory.mktemp("flow") / "flash.img")
    out = run_micropython(FLOW, 2_000_000, (MPLIB,), script_args=["build", path, "2000"], port=port)
    assert out.split() == ["built", "2000"]
    return path


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return _history(tmp_path_factory, "esp32word")


def test_the_whole_flow_runs_in_an_esp32_sized_heap(image):
    out = run_micropython(FLOW, HEAP, (MPLIB,), script_args=["run", image, "2000"], port="esp32word")
    figures = {line.split()[0]: int(line.split()[1]) for line in out.splitlines()}
    assert figures["flow.throws"] >= 2000


def test_the_whole_flow_runs_in_its_heap_as_an_esp32_runs_it(tmp_path_factory):
    image = _history(tmp_path_factory, "esp32rom")
    out = run_micropython(FLOW, ROM_HEAP, (MPLIB,), script_args=["run", image, "2000"], port="esp32rom")
    figures = {line.split()[0]: int(line.split()[1]) for line in out.splitlines()}
    assert figures["flow.throws"] >= 2000
    assert figures["flow.import_kept_bytes"] <= 24 * 1024, figures  # issue 7: imports keep <= 24 KB
