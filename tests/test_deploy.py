"""`bobing deploy` against the MicroPython unix port on a pty (tests/mplib/
sync_bowl.py), into a folder of the test: only what changed is copied, the
board profile lands in /profile, and the copied firmware imports."""

import os
import subprocess
import sys

from host_tools import deploy_cmd
from host_tools.cli import main

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import sync_bowl  # noqa: E402


def test_deploy_copies_what_changed_and_sets_the_board(tmp_path, capsys):
    bowl = sync_bowl.VirtualBowl(str(tmp_path))
    try:
        argv = ["deploy", "--port", bowl.path, "--dest", "dev", "--wait", "0.5"]
        assert main([*argv, "--board", "oled"]) == 0
        files = deploy_cmd.firmware_files()
        assert "%d of %d files copied" % (len(files) + 1, len(files) + 1) in capsys.readouterr().out
        assert open(tmp_path / "dev" / "profile").read() == "oled\n"
        for rel, data in files.items():
            assert open(tmp_path / "dev" / rel, "rb").read() == data
        assert main([*argv, "--board", "oled"]) == 0
        assert "0 of %d files copied" % (len(files) + 1) in capsys.readouterr().out
        os.remove(tmp_path / "dev" / "bobing" / "dice.mpy")
        assert main(argv) == 0
        assert "1 of %d files copied" % len(files) in capsys.readouterr().out
    finally:
        bowl.close()
    # the deployed .mpy files are the firmware: they import and classify in MicroPython
    out = subprocess.run(
        [sync_bowl.MICROPYTHON, "-c", "from bobing.classify import classify; print(classify([4]*6, 0) > 0)"],
        env=dict(os.environ, MICROPYPATH=str(tmp_path / "dev")),
        capture_output=True,
        text=True,
    )
    assert out.stdout.strip() == "True", out.stderr


def test_a_bad_board_name_or_port_changes_nothing(tmp_path, capsys):
    assert main(["deploy", "--port", str(tmp_path / "none"), "--board", "../x"]) == 2
    assert main(["deploy", "--port", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "expected a profile name" in err[0] and "cannot open the port" in err[1]
