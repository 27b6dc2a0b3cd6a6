"""The live event lines as a host reads them (app/live.py, docs/events.md).

The bowl writes each line through one small buffer, never as one string
(docs/memory.md); a host (bobing watch, deploy, the tests, anyone's script)
parses the lines as JSON with the keys in the documented order.  What a
user would notice if it broke: a line a host cannot parse, a key moved, a
piece of the line longer than the serial takes at once, or a quote in a
detail that ends the string early.  Whole games under MicroPython, with
voids, skipped turns (void=skip), prizes taken (追) and every end, through
the shipped Live and Outcome on the engine's own batches.
"""

import json

from mp import run_micropython

CODE = """
import sys
from app.live import Live
from app.outcome import Outcome
from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.rules import Rules


class Wire:
    longest = 0

    def write(self, buf):
        self.longest = max(self.longest, len(buf))
        sys.stdout.write(buf)


wire = Wire()
live = Live(wire)
out = Outcome()
for preset, options, players, seed in (
    ("xiamen", None, 4, 1),
    ("folk", {"chase": "previous", "chase_from": "all"}, 6, 2),
    ("competition", None, 20, 3),
):
    game = Game(Rules(preset, options), players)
    live.game(game, False, None)
    dice = Dice(SeededBytes(seed))
    n = 0
    while not game.ended:
        n += 1
        batch = game.void() if n % 9 == 0 else game.throw(dice.roll())
        live.turn(game, out.read(batch))
    live.game(game, True, out)  # a resume shows the last turn again
    live.end(game, "1f0c93aa")
live.status("settings", 'a "quoted" detail')
live.sync()
print(wire.longest)
"""

KEYS = {
    "game": ["event", "players", "rules", "sets", "first", "resumed", "throws", "last"],
    "throw": [
        "event",
        *("n", "seat", "dice", "kind", "won", "taken", "missed", "shared", "skipped"),
        *("zhuangyuan", "remaining"),
    ],
    "void": ["event", "n", "seat", "missed", "shared", "skipped", "zhuangyuan", "remaining"],
    "end": ["event", "reason", "throws", "zhuangyuan", "holdings", "shared", "audit"],
    "settings": ["event", "detail"],
    "sync": ["event"],
}


def test_every_line_is_json_in_the_documented_form_and_order():
    out = run_micropython(CODE, heapsize=400_000).split("\n")
    assert int(out[-2]) <= 64  # each write: at most one buffer
    lines = [line for line in out[:-2] if line]
    events = []
    for line in lines:
        event = json.loads(line)
        # the exact text a host has always seen: ", " and ": " separators, no escapes
        assert json.dumps(event, ensure_ascii=False) == line
        assert list(event) == KEYS[event["event"]], line
        events.append(event)
    kinds = [e["event"] for e in events]
    assert kinds.count("end") == 3 and kinds.count("game") == 6 and kinds.count("void") > 10
    throws = [e for e in events if e["event"] == "throw"]
    assert any(e["taken"] for e in throws)  # 追
    assert any(e["skipped"] for e in throws)  # the turn after a void
    assert all(len(e["dice"]) == 6 and e["n"] >= 1 for e in throws)
    ends = [e for e in events if e["event"] == "end"]
    assert [len(e["holdings"]) for e in ends] == [4, 6, 20]
    assert all(e["zhuangyuan"] is None or len(e["zhuangyuan"]["dice"]) == 6 for e in ends)
    resumed = [e for e in events if e["event"] == "game" and e["resumed"]]
    assert all(e["last"]["seat"] >= 1 for e in resumed)
    assert events[-2]["detail"] == "a 'quoted' detail"
