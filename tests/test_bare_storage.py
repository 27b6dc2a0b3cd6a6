"""A bowl whose filesystem no longer mounts, on the virtual bare board.

What an operator would notice if it broke: a played bowl whose flash is
damaged goes dark for ever, or formats itself and loses records nobody
salvaged; the screen does not say why; the host cannot get the records
out; or the operator's format leaves a bowl that does not play.  On the
repository's image (bobing-esp32) the bowl's own frozen _boot.py
(firmware/device/BOBING_ESP32/_boot.py) runs; on stock MicroPython (s3)
the port's, which loops in fs_corrupted() as stock does.
"""

import hashlib
import os
import shutil
import sqlite3

import test_bare_board as bare
from mp import run_micropython
from test_bare_board import PLAY_S, deploy, read_until, serial_until, start_game
from test_salvage import unmountable

from host_tools.cli import main

# test_bare_board's fixtures, here too: its boards, and a folder of its own
# for each test (autouse: deploy keeps the key it gives a bowl there)
bare_boards = bare.boards
in_a_folder_of_its_own = bare.in_a_folder_of_its_own

THROWS = 12


def played_then_damaged(bare_boards, tmp_path, target, profile):
    """A bowl deployed on `target`, THROWS throws played, then its flash
    image damaged until LittleFS no longer mounts (whole.img: as it was);
    (image path, sha256 of the damaged bytes)."""
    board = bare_boards(target)
    done = deploy(board.port, "--board", profile)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "bowl running", done
    start_game(board)
    board.press(*["throw"] * THROWS)
    board.wait_throws(THROWS, PLAY_S)
    board.kill()  # the power goes, the flash is damaged while it is off
    image = tmp_path / "bowl.img"
    (tmp_path / "whole.img").write_bytes(image.read_bytes())
    damaged = bytes(unmountable(image.read_bytes()))
    image.write_bytes(damaged)
    return image, hashlib.sha256(damaged).hexdigest()


def formats(events):
    return [e["detail"] for e in events if e["event"] == "format"]


def records(folder, image, *salvage):
    """The records `bobing import` takes from the image, under the key deploy gave the bowl
    (kept beside bobing.db in the test's folder): exit 1 for the key's note alone."""
    database = folder / (image + ".db")
    shutil.copy(folder / "bobing.db.keys", str(database) + ".keys")
    assert main(["import", *salvage, str(folder / image), "--db", str(database)]) == 1
    conn = sqlite3.connect(database)
    try:
        return conn.execute("SELECT seq, payload FROM records ORDER BY seq").fetchall()
    finally:
        conn.close()


def safe_mode_glass(path):
    """The panel's memory as the safe mode draws it (app/safemode.py) on the
    devkit's ST7789, drawn by the firmware on a fresh emulated panel."""
    run_micropython(
        "from sim.panels import color_panel\n"
        "from display.color import ColorScreen\n"
        "from app import safemode\n"
        "class Board: pass\n"
        "board = Board()\n"
        "board.screen = ColorScreen(color_panel('st7789', %r)[0])\n"
        "safemode._damaged_screen(board)\n" % str(path),
        port="unix64",
    )
    return path.read_bytes()


def test_a_damaged_flash_shows_storage_damaged_keeps_the_records_and_formats_only_when_confirmed(
    bare_boards, tmp_path
):
    image, sha = played_then_damaged(bare_boards, tmp_path, "bobing-esp32", "devkit")
    board = bare_boards("bobing-esp32")
    board.wait_events(lambda ev: formats(ev) == ["offered"], PLAY_S)  # the menu waits for the operator
    lines = [e for e in board.events() if e["event"] in ("out_of_service", "safe_mode")]
    assert lines == [
        {"event": "out_of_service", "detail": "E-FS the filesystem does not mount"},
        {"event": "safe_mode", "detail": "E-FS storage damaged: sync or import"},
    ], board.events()
    # the screen says it, in Chinese and pinyin, with the code and SAFE MODE under it
    glass = (tmp_path / "bowl.img.glass").read_bytes()
    assert glass == safe_mode_glass(tmp_path / "expected.glass")
    # the boot wrote nothing: the records are where the host can salvage them
    assert hashlib.sha256(image.read_bytes()).hexdigest() == sha
    whole, salvaged = records(tmp_path, "whole.img"), records(tmp_path, "bowl.img", "--salvage")
    assert salvaged == whole and len(whole) == 2 + THROWS  # the key's note, the game, a record a throw
    # the REPL is the host's (mpremote's Ctrl-C, then its soft reset: safe mode
    # again, straight to the REPL); a reset gives the operator's menu back
    probe = "import os\nprint(sorted(os.listdir('/rom'))[:2])"
    assert bare.mpremote(board.port, "exec", probe).stdout.strip() == "['app', 'board']"
    assert formats(board.events()) == ["offered"]  # not after mpremote's soft reset: the REPL at once
    bare.mpremote(board.port, "exec", "--no-follow", "import machine\nmachine.reset()")
    board.wait_events(lambda ev: formats(ev) == ["offered"] * 2, PLAY_S)
    # presses that are not the operator's way in change nothing; the operator's
    # way: a long REFEREE press, "format storage" taken with THROW, then asked
    # again; REFEREE there cancels
    board.press("throw", "referee", "referee-long", "throw", "referee")
    board.wait_events(lambda ev: formats(ev)[2:] == ["asked", "cancelled"], PLAY_S)
    board.press("referee-long", "throw")
    board.wait_events(lambda ev: formats(ev)[2:] == ["asked", "cancelled", "asked"], PLAY_S)
    assert hashlib.sha256(image.read_bytes()).hexdigest() == sha  # asked, not yet confirmed
    board.press("throw")  # confirmed: formatted, and the bowl boots with an empty store
    events = board.wait_events(lambda ev: any(e["event"] == "waiting" for e in ev), PLAY_S)
    assert formats(events)[-1] == "confirmed"
    assert not [e for e in events if e["event"] == "game"]  # no game to resume
    # NVS still holds its id and tip: the same bowl, the salvaged numbers never used again
    said = [e["detail"] for e in events if e["event"] == "recovered"]
    assert said[0].startswith("bowl id missing: ") and said[0].endswith(" kept in NVS"), said
    assert said[1] == "store lost: records 1-%d lost (the tip kept in NVS)" % (2 + THROWS), said
    start_game(board)
    board.press(*["throw"] * 3)
    board.wait_throws(3, PLAY_S)


def test_stock_micropython_loops_in_its_own_message_and_ctrl_c_gives_the_repl(bare_boards, tmp_path):
    image, sha = played_then_damaged(bare_boards, tmp_path, "s3", "s3")
    board = bare_boards("s3")
    said, fd = serial_until(board.port, b"The filesystem appears to be corrupted")
    try:
        assert b"perform\r\nfactory reprogramming" in said or b"perform\nfactory reprogramming" in said
        os.write(fd, b"\r\x03")  # stock turns Ctrl-C on for this loop
        said = read_until(fd, b">>> ")  # on the same descriptor: none of the answer flushed
    finally:
        os.close(fd)
    assert b"KeyboardInterrupt" in said
    assert not board.events()  # main.py never ran: no bowl
    assert hashlib.sha256(image.read_bytes()).hexdigest() == sha
