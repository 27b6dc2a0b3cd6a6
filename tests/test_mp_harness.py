"""The test and benchmark harness itself: the two MicroPython ports, the .mpy
build, tools/mp_heap.py and the benchmark line protocol."""

import ast
import importlib.util
import os
import re

import mp
import pytest
from mp import run_micropython

_spec = importlib.util.spec_from_file_location("bench_run", os.path.join(mp.ROOT, "bench", "run.py"))
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.mark.mp_ports(*mp.PORTS)
def test_each_port_runs_what_it_stands_for(mp_port):
    out = run_micropython(
        "import sys, bobing.rules\nprint(sys.maxsize, bobing.rules.__file__.rsplit('.', 1)[1])",
        heapsize=40 * 1024,
    )
    # the ESP32's 31-bit small ints and the deployed .mpy, or the pinned 64-bit port on source
    assert out.split() == (["2147483647", "mpy"] if mp_port == "esp32word" else ["9223372036854775807", "py"])


HEAP = """
import micropython, mp_heap
print(mp_heap.garbage(lambda: None), mp_heap.kept(lambda: None))
print(mp_heap.garbage(lambda: [bytearray(1000) for _ in range(4)][0]), mp_heap.kept(lambda: bytearray(1000)))
holes = [bytearray(%d) for _ in range(40)]
for i in range(0, 40, 2):
    holes[i] = None
print(mp_heap.largest_free_block())
micropython.mem_info()
"""


@pytest.mark.parametrize(("port", "block"), [("esp32word", 16), ("unix64", 32)])
def test_mp_heap_figures(port, block):
    out = run_micropython(HEAP % 400, heapsize=40 * 1024, port=port).splitlines()
    assert out[0] == "0 0"
    garbage, kept = map(int, out[1].split())
    # four 1000-byte buffers and their list, all counted; one buffer kept
    assert 4000 < garbage < 4000 + 16 * block and 1000 <= kept < 1000 + 3 * block
    # the same figure micropython.mem_info() prints in blocks, to the one block
    # the bisection's bytearray header may take from that run
    max_free = int(re.search(r"max free sz: (\d+)", "\n".join(out)).group(1)) * block
    assert max_free - block <= int(out[2]) <= max_free


def test_the_romfs_image_takes_nothing_from_the_working_heap():
    # beside the image (and its share of the collector's tables), the heap a
    # script can allocate from is what a plain heap of the same size gives
    code = "import gc\nprint(gc.mem_free() + gc.mem_alloc())"
    plain = int(run_micropython(code, heapsize=64 * 1024, port="esp32word"))
    beside = int(run_micropython(code, heapsize=64 * 1024, port="esp32rom")) - mp.image_kept()
    assert plain <= beside <= plain + 64, (plain, beside)


def test_the_esp32_word_port_runs_a_small_heap():
    out = run_micropython(
        "import mp_heap\nfrom bobing.rules import Rules\nr = Rules('xiamen')\nprint(mp_heap.largest_free_block())",
        heapsize=40 * 1024,
        port="esp32word",
    )
    assert 0 < int(out) < 40 * 1024


def test_mpy_build_compiles_what_changed_and_drops_what_is_gone(tmp_path):
    build = mp.mpy_build()
    modules = build.sources()
    assert "bobing/game.py" in modules and not any(m.endswith("manifest.py") for m in modules)
    assert build.build(str(tmp_path)) == len(modules)
    assert build.build(str(tmp_path)) == 0
    game = tmp_path / "bobing" / "game.mpy"
    os.utime(game, (0, 0))  # older than its source
    stray = tmp_path / "bobing" / "gone.mpy"
    stray.write_bytes(b"")
    assert build.build(str(tmp_path)) == 1
    assert game.read_bytes()[:1] == b"M" and not stray.exists()


def test_the_manifest_freezes_the_package_from_beside_it():
    calls = []
    with open(os.path.join(mp.FIRMWARE, "manifest.py")) as f:
        source = f.read()
    exec(source, {"metadata": lambda **kw: None, "package": lambda *a, **kw: calls.append((a, kw))})
    # package("bobing") freezes every .py under bobing/, so no manifest may live there
    assert calls == [(("bobing",), {})]
    assert not os.path.exists(os.path.join(mp.FIRMWARE, "bobing", "manifest.py"))


def test_the_device_manifest_freezes_every_board_module_the_esp32_profiles_import():
    # a module left out of the frozen board package stops a frozen bowl at
    # its first import, and nothing else here would notice
    calls, modules = [], []
    with open(os.path.join(mp.FIRMWARE, "device", "manifest.py")) as f:
        source = f.read()
    exec(
        source,
        {
            "include": lambda path: None,
            "package": lambda name, **kw: calls.append((name, kw)),
            "module": lambda name, **kw: modules.append(name),
        },
    )
    assert modules == ["bowl.py"]  # what main.py, the one file copied as source, imports
    frozen = {f[:-3] for name, kw in calls if name == "board" for f in kw["files"]}
    wanted, seen = ["esp32", "devkit", "cyd", "oled"], set()
    while wanted:
        module = wanted.pop()
        seen.add(module)
        with open(os.path.join(mp.FIRMWARE, "board", module + ".py")) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "board":
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("board."):
                names = [node.module.split(".")[1]]
            else:
                continue
            wanted += [n for n in names if n not in seen]
    assert seen <= frozen, sorted(seen - frozen)


def test_the_smallest_heap_from_above_is_met_by_every_larger_heap_tried():
    # passes at 40 and 41, fails at 39 though 37 would pass: the walk stops at 40
    passing = {37, 40, 41, 42}

    def run(k):
        assert k in passing

    assert mp.smallest_heap_from_above(run, 42, 1) == 40
    with pytest.raises(AssertionError):
        mp.smallest_heap_from_above(run, 39, 1)


def test_smallest_heap_finds_what_a_flow_needs():
    # a 20 KB buffer, then a 12 KB one, both kept: needs at least 32 KB
    need = mp.smallest_heap("a = bytearray(20000)\nb = bytearray(12000)", low=16 * 1024, high=64 * 1024)
    assert 32_000 < need <= 40 * 1024


@pytest.mark.parametrize(
    ("line", "time", "missed"),
    [
        ("a.heap 100 B 128", False, False),
        ("a.heap 129 B 128", False, True),
        ("a.reads 0 reads 0", False, False),
        ("a.free 12288 B >=12288", False, False),
        ("a.free 12287 B >=12288", False, True),
        ("a.life 9 throws -", False, False),
        ("a.heap nan B 128", False, True),
        ("a.t 99 us 12", True, True),
        ("a.t 9 ms -", True, False),
        ("a.t 9 s 10", True, False),
        ("a.rate 9 games/s -", True, False),
    ],
)
def test_bench_protocol(line, time, missed):
    name, value, unit, target = bench.parse(line)
    assert (bench.is_time(unit), bench.missed(value, target)) == (time, missed)


@pytest.mark.parametrize(
    "line", ["a.heap 100 B", "a.heap 100 B 128 extra", "a.heap big B 1", "a.heap big B -", "a.heap 1 B <=3"]
)
def test_bench_protocol_rejects_other_lines(line):
    with pytest.raises(ValueError):
        bench.parse(line)


def test_bench_check_fails_only_on_deterministic_figures(tmp_path, capsys):
    script = tmp_path / "py_fake.py"
    script.write_text('print("x.time 50 ms 1")\nprint("x.heap 10 B 20")\n')
    assert bench.main(["--check", str(script)]) == 0
    script.write_text('print("x.time 50 ms 1")\nprint("x.heap 30 B 20")\n')
    assert bench.main([str(script)]) == 0
    assert bench.main(["--check", str(script)]) == 1
    assert "MISSED TARGET" in capsys.readouterr().out
