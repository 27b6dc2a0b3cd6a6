"""main.py of the test bowl: a stand-in for the application's sync protocol.

Copied as main.py into the folder the MicroPython unix port runs in (tests/
mplib/sync_bowl.py).  `import main` boots the store in ./data (applying a
dropped-in ack, as at power-up), prints the game event line, then takes
commands from the serial, one a line: `throw` throws and prints the throw
event; `sync` prints {"event": "sync"} and returns to the REPL, as the
application does (docs/sync.md).  It forgets itself on the way out, so the
host's `import main` starts it again.
"""

import json
import sys

from bobing.dice import Dice, SeededBytes
from bobing.rules import Rules
from bobing.session import Session
from bobing.store.store import Store


def run():
    session = Session(Store("data"), Dice(SeededBytes(7)))
    session.boot()
    print(json.dumps({"event": "game", "resumed": True, "throws": session.store.seq}))
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if line == "sync":
            print(json.dumps({"event": "sync"}))
            return
        if line == "throw":
            if session.game is None or session.game.ended:
                session.new_game(Rules("xiamen"), 6)
            else:
                session.throw()
            session.maintain()
            print(json.dumps({"event": "throw", "seq": session.store.seq}))


try:
    run()
finally:
    del sys.modules["main"]
