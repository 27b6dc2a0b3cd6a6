"""Every store fault of issue 7, on the real LittleFS in the MicroPython unix port.

tests/mplib/storefaults.py plays a game through the firmware's session,
damages the flash the way each fault would and boots again; each of its
test_* functions is one fault, reported here as its own test.
"""

import os
import re

import pytest
from mp import run_micropython

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")
SOURCE = os.path.join(MPLIB, "storefaults.py")
NAMES = re.findall(r"^def (test_\w+)\(", open(SOURCE, encoding="utf-8").read(), re.M)


@pytest.fixture(scope="module")
def results(made_once):
    """{test name: "PASS" or the failure} from one MicroPython run of the module."""
    return made_once("storefaults", run_module)[0]


def run_module(folder):
    try:
        out = run_micropython(
            os.path.join(MPLIB, "mptest.py"), 16_000_000, (MPLIB,), script_args=["storefaults"]
        )
    except AssertionError as e:  # some failed: mptest exits 1, its lines are in the message
        out = str(e)
    found = {}
    for line in out.splitlines():
        m = re.match(r"(PASS|FAIL) (test_\w+)(.*)", line)
        if m:
            found[m.group(2)] = "PASS" if m.group(1) == "PASS" else line
    return [found, out]


@pytest.mark.parametrize("name", NAMES)
def test_fault(results, name):
    found, out = results
    assert found.get(name) == "PASS", found.get(name) or out[-3000:]
