"""The report agrees with the bowl: a seeded session on the virtual bowl with a
禄骨 (the 状元 holder throws a lower 状元 and loses it to another seat, so the
throw that moved the 状元 is not the winner's), synced over its serial port,
and `bobing report --json` compared with the bowl's own end events."""

import json
import os
import subprocess
import sys

import pytest
from test_sim import BOBING

from host_tools.cli import main

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import simsync  # noqa: E402
import slowdown

pytestmark = pytest.mark.slow  # a virtual bowl's long day, synced: `make test` only

SEED = 11  # with 3 players: a 禄骨 at the first game's 79th throw, the game's end at record 170
PRESSES = 175


def lugu(events):
    """(game number, throw n) of every throw by which its own thrower lost the 状元."""
    found = []
    games = 0
    holder = None
    for e in events:
        if e["event"] == "game":
            games += 1
            holder = None
        elif e["event"] == "throw":
            if holder == e["seat"] and e["zhuangyuan"] not in (None, e["seat"]):
                found.append((games, e["n"]))
            holder = e["zhuangyuan"]
    return found


@pytest.fixture
def synced(tmp_path):
    """(the bowl's events, the report's one bowl) after PRESSES presses and a sync."""
    bowl = simsync.SimBowl(str(tmp_path), SEED, "--players", "3")
    try:
        bowl.press(*["throw"] * PRESSES)
        events = bowl.wait_events(
            lambda ev: sum(1 for e in ev if e["event"] in ("game", "throw")) == PRESSES + 1, timeout=600
        )
        database = str(tmp_path / "festival.db")
        sync = subprocess.run(
            [BOBING, "sync", "--port", bowl.port, "--db", database, "--wait", slowdown.arg(30)],
            capture_output=True,
            text=True,
            timeout=slowdown.seconds(300),
        )
        assert sync.returncode == 0, sync.stderr + "\nthe sim said:\n" + bowl.stderr()[-2000:]
    finally:
        bowl.kill()
    return events, database


def test_the_reports_zhuangyuan_winners_are_the_bowls_end_events(synced, capsys):
    events, database = synced
    assert lugu(events), "the seed no longer plays a 禄骨: pick another"
    capsys.readouterr()
    assert main(["report", "--db", database, "--json"]) == 0
    (bowl,) = json.loads(capsys.readouterr().out)["bowls"]
    ends = [e for e in events if e["event"] == "end"]
    ended = [z for z in bowl["zhuangyuan"] if z["ended"]]
    assert len(ends) == len(ended) == 1
    for end, z in zip(ends, ended, strict=True):
        holder = end["zhuangyuan"]
        assert (z["seat"], z["dice"], z["kind"], z["ended"]) == (
            holder["player"],
            "".join(map(str, holder["dice"])),
            holder["kind"],
            end["reason"],
        )
    # games are numbered in the bowl, with the records each spans
    assert [z["number"] for z in bowl["zhuangyuan"]] == list(range(1, len(bowl["zhuangyuan"]) + 1))
    assert bowl["zhuangyuan"][0]["records"][0] == 1
    for z, after in zip(bowl["zhuangyuan"], bowl["zhuangyuan"][1:], strict=False):
        assert z["records"][1] < after["records"][0]
