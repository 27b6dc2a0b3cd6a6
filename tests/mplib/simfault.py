"""The virtual board with one fault injected into the shipped app, then sim.run.

    micropython simfault.py MODE N SIM-ARGS...
MODE hang: the N-th announcement (after a durable, shown throw) never ends,
as a task stuck on a lost event would; MODE crash: it raises instead.  The
fault happens once; what follows (watchdog reset, crash file, resume) is
the shipped code's.
"""

import asyncio
import sys

from app import app as appmod
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
        raise RuntimeError("injected fault")
    await original(self, out)


appmod.App.announce = announce
run.main(sys.argv[3:])
