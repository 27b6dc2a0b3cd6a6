"""A simulated festival: several bowls, several days, synced every evening.

Each bowl is the firmware's own Session and Store over a folder (the store
code runs unchanged on CPython), played with reproducible dice; every
evening the day's log is synced into the database through the very sync
`bobing sync` runs (syncer.DirSource in place of the serial link), the ack
is dropped into the store, and the next morning's boot applies it.  One
bowl can be given loaded dice, to show what the report flags.

    python -m host_tools.festival DIR [--html DIR]   # the example in docs/report/
"""

import os
import sys

from bobing.dice import Dice, SeededBytes
from bobing.rules import Rules
from bobing.session import Session
from bobing.store.store import Store
from host_tools.sync import db, syncer


class LoadedBytes:
    """SeededBytes whose bytes show a 6 more often: a share `load` of the
    bytes is moved to the 6 of their group of six (a die with a weight
    inside it): P(6) = 1/6 + load * 5/6."""

    def __init__(self, seed, load):
        self.bytes = SeededBytes(seed)
        self.coin = SeededBytes(seed ^ 0x5A5A5A5A)
        self.cut = int(load * 256)

    def __call__(self, n):
        out = bytearray(self.bytes(n))
        coin = self.coin(n)
        for i in range(n):
            if coin[i] < self.cut and out[i] < 252:
                out[i] = out[i] - out[i] % 6 + 5
        return bytes(out)


def play_day(root, source, throws, players, rules):
    """One day at a kiosk: boot (applying last night's ack), `throws` presses."""
    session = Session(Store(root), Dice(source))
    session.boot()
    for _ in range(throws):
        if session.game is None or session.game.ended:
            session.new_game(rules, players)
        else:
            session.throw()
        session.maintain()


def simulate(folder, database, bowls=4, days=3, throws=1500, loaded=(1,), load=0.03, seed=2026):
    """Play the festival in `folder` and sync it into `database` (a path);
    returns the bowl ids, in order.  Bowls whose index is in `loaded` get
    LoadedBytes dice."""
    conn = db.connect(database)
    ids = []
    sources = []
    for b in range(bowls):
        root = os.path.join(folder, "bowl%d" % b, "data")
        os.makedirs(root)
        Store(root).recover()
        ids.append("%016x" % (0xB0B1A9000000 + seed * 16 + b))
        with open(os.path.join(root, "id"), "w") as f:
            f.write(ids[-1])
        sources.append(LoadedBytes(seed + b, load) if b in loaded else SeededBytes(seed + b))
    rules = (Rules("xiamen"), Rules("folk"))
    for day in range(days):
        date = "2026-09-%02d" % (25 + day)
        for b in range(bowls):
            root = os.path.join(folder, "bowl%d" % b, "data")
            play_day(root, sources[b], throws + 97 * b, 6 + 2 * b, rules[b % 2])
            syncer.sync(conn, syncer.DirSource(root), date, date + "T22:00:00+08:00")
    conn.close()
    return ids


def main(argv):
    import tempfile

    from host_tools.cli import main as bobing

    out = argv[0]
    os.makedirs(out, exist_ok=True)
    database = os.path.join(out, "festival.db")
    if os.path.exists(database):
        os.remove(database)
    with tempfile.TemporaryDirectory() as folder:
        simulate(folder, database)
    with open(os.path.join(out, "report.txt"), "w", encoding="utf-8") as f:
        stdout = sys.stdout
        sys.stdout = f
        try:
            bobing(["report", "--db", database, "--html", out])
        finally:
            sys.stdout = stdout
    for name in (database, database + "-wal", database + "-shm"):
        if os.path.exists(name):
            os.remove(name)


if __name__ == "__main__":
    main(sys.argv[1:])
