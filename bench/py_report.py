# `bobing report --json` over a database of 1,000,000 throws (5 bowls, 10 days).
# The rows are made here directly in the database's layout (throws with their
# per-face counts, one game per 200 throws), which is what the report reads;
# making them through the sync would time the sync, not the report.
# Issue 10: under 10 s.
import io
import json
import os
import random
import sys
import tempfile
import time
from contextlib import redirect_stdout

from bobing.classify import classify, kind_of
from bobing.events import dice_of
from bobing.rules import Rules
from host_tools.cli import main
from host_tools.sync import db

THROWS = 1_000_000
BOWLS = 5
FLAGS = Rules("xiamen").flags

rng = random.Random(1)
kinds = [kind_of(classify(dice_of(code), FLAGS)) for code in range(6**6)]
counts = [[dice_of(code).count(f) for f in range(1, 7)] for code in range(6**6)]
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "big.db")
    conn = db.connect(path)
    with db.transaction(conn):
        for b in range(BOWLS):
            bowl = "%016x" % (0xBE7C4 + b)
            per = THROWS // BOWLS
            games = [
                (
                    bowl,
                    g * 200 + 1,
                    "2026-09-%02d" % (1 + g * 200 * 10 // per),
                    "xiamen",
                    FLAGS,
                    6,
                    1,
                    1,
                    "[]",
                )
                for g in range(per // 200)
            ]
            conn.executemany(
                "INSERT INTO games (bowl, seq, day, preset, flags, players, sets, entropy, labels)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                games,
            )
            rows = []
            for i in range(per):
                code = rng.randrange(6**6)
                rows.append(
                    (
                        bowl,
                        i + 2,
                        0,
                        i // 200 * 200 + 1,
                        "2026-09-%02d" % (1 + i * 10 // per),
                        i % 6 + 1,
                        code,
                        kinds[code],
                        kinds[code],
                        *counts[code],
                    )
                )
            conn.executemany("INSERT INTO throws VALUES (%s)" % ",".join("?" * 15), rows)
            conn.execute("INSERT INTO bowls (bowl, tip) VALUES (?, ?)", (bowl, per + 1))
    conn.close()
    out = io.StringIO()
    start = time.monotonic()
    with redirect_stdout(out):
        status = main(["report", "--db", path, "--json"])
    elapsed = time.monotonic() - start
report = json.loads(out.getvalue())
assert status == 0 and sum(b["throws"] for b in report["bowls"]) == THROWS
print("report.json_1M_throws_s %.2f s 10" % elapsed)
sys.exit(0)
