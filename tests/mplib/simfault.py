"""The virtual board with one fault injected into the shipped app, then sim.run.

    micropython simfault.py MODE N SIM-ARGS...
MODE hang: the N-th announcement (after a durable, shown throw) never ends,
as a task stuck on a lost event would; MODE spin: it loops without ever
yielding to the other tasks or the loop's wait; MODE crash: it raises instead (in the
app's own task); MODE task: the switch-polling task raises at its N-th poll
(a task nobody awaits).  The fault happens once; what follows (watchdog
reset, crash file, resume) is the shipped code's.
"""

import asyncio
import sys

from app import app as appmod
from board import inputs
from sim import run

MODE = sys.argv[1]
AT = int(sys.argv[2])
count = [0]
original = appmod.App.announce


async def announce(self, out):
    count[0] += 1
    if count[0] == AT:
        if MODE == "hang":
            await asyncio.Event().wait()
        while MODE == "spin":
            pass
        raise RuntimeError("injected fault")
    await original(self, out)


polls = [0]
original_poll = inputs.Inputs.poll


def poll(self):
    polls[0] += 1
    if polls[0] == AT:
        raise RuntimeError("injected fault in a task")
    original_poll(self)


if MODE == "task":
    inputs.Inputs.poll = poll
else:
    appmod.App.announce = announce
run.main(sys.argv[3:])
