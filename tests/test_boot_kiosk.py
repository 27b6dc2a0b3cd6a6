"""In kiosk mode Ctrl-C stays off through play and the operator menu: only the host's sync turns it on.

The shipped bowl.run() and App on the virtual board (tests/mplib/speechapp.py),
which records every kbd_intr() call: a Ctrl-C that worked during play would
drop a kiosk bowl to the REPL with the watchdog about to reset it.
"""

import json
import os

from mp import run_micropython
from test_heap_flow import MPLIB

HARNESS = os.path.join(MPLIB, "speechapp.py")


def phases(tmp_path, *commands, kiosk=1):
    args = [str(tmp_path / "flash.img"), "kiosk=%d" % kiosk, "module=none"]
    for phase in commands:
        args += ["--", *phase]
    out = run_micropython(HARNESS, heapsize=1_000_000, path=(MPLIB,), script_args=args)
    return [obj for obj in map(json.loads, out.splitlines()) if "phase" in obj]


def test_the_operator_menu_in_kiosk_mode_leaves_ctrl_c_off(tmp_path):
    # the PIN (0000 by default: four referee presses), the menu, a setting stepped (players), back by timeout
    menu = ["referee-long", "referee", "referee", "referee", "referee", "referee", "throw", "pause:61000"]
    (record,) = phases(tmp_path, ["throw", *menu, "throw"])
    assert record["outcome"] == "done"
    assert record["kbd"] and not any(record["kbd"]), record["kbd"]


def test_the_hosts_sync_turns_ctrl_c_on_after_the_menu(tmp_path):
    menu = ["referee-long", "referee", "referee", "referee", "referee", "pause:61000"]
    (record,) = phases(tmp_path, [*menu, "sync"])
    assert record["outcome"] == "sync" and record["released"]
    assert not any(record["kbd"][:-1]) and record["kbd"][-1] is True, record["kbd"]
