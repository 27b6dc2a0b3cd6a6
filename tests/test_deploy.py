"""`bobing deploy`'s judgement of a board, before it writes anything: what a
builder would notice if it broke is a board bricked by a firmware it cannot
run, or a refusal that does not say why.  The deploys themselves run on the
virtual bare boards (tests/test_bare_board.py)."""

import pytest

from host_tools.cli import main
from host_tools.commands import deploy_cmd
from host_tools.deploy import firmware_tree
from host_tools.errors import UsageError

KB = 1024


def board(mpy=6, heap=8000 * KB, fs=(6 * 1024 * KB, 6 * 1024 * KB), rom=0):
    answer = "version v1.28.0\nmpy %d\nheap %d\nfs %d %d\nrom %d\n" % (mpy, heap, fs[0], fs[1], rom)
    return deploy_cmd.Board(answer.encode())


@pytest.fixture(scope="module")
def files():
    return firmware_tree.bowl_files()


def test_a_board_with_psram_takes_mpy_files_and_one_with_romfs_takes_the_image(files):
    assert deploy_cmd.refusal(board(), files, None, 0) is None
    image = firmware_tree.romfs_image(files)
    assert deploy_cmd.refusal(board(heap=112 * KB, rom=384 * KB), files, image, 0) is None


def test_another_mpy_version_is_refused_with_the_releases_to_flash(files):
    why = deploy_cmd.refusal(board(mpy=5), files, None, 0)
    assert "whose .mpy version is 5; this firmware is .mpy version 6" in why and "1.23 to 1.29" in why


def test_too_little_heap_for_mpy_files_points_to_psram_or_the_romfs_image(files):
    why = deploy_cmd.refusal(board(heap=112 * KB), files, None, 0)
    assert why.startswith("the board has 112 KB of heap; the bowl needs 320 KB from .mpy files")
    assert "ROMFS" in why


def test_an_image_larger_than_the_romfs_partition_is_refused(files):
    image = firmware_tree.romfs_image(files)
    why = deploy_cmd.refusal(board(heap=112 * KB, rom=128 * KB), files, image, 0)
    assert why == "the firmware's ROMFS image is %d KB, the board's ROMFS partition 128 KB" % (
        len(image) // KB
    )


def test_a_filesystem_too_full_is_refused_but_the_firmware_it_replaces_counts_as_room(files):
    size = sum(len(d) for d in files.values())
    tight = (2048 * KB, size)  # room for the firmware, none for the log
    assert "filesystem has" in deploy_cmd.refusal(board(fs=tight), files, None, 0)
    assert deploy_cmd.refusal(board(fs=tight), files, None, deploy_cmd.STORE_MIN) is None


def test_an_answer_that_is_not_micropythons_is_one_line():
    with pytest.raises(UsageError, match="not MicroPython's"):
        deploy_cmd.Board(b"Traceback (most recent call last):\r\n")


def test_a_bad_board_name_or_port_changes_nothing(tmp_path, capsys):
    assert main(["deploy", "--port", str(tmp_path / "none"), "--board", "../x"]) == 2
    assert main(["deploy", "--port", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "--board '../x': choose from s3, devkit" in err[0] and "cannot open the port" in err[1]
