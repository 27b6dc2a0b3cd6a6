# `bobing sync` over a serial link throttled to 115200 baud (10 bits a byte,
# as a UART): the MicroPython unix port on a pty holding a festival day of
# 5,000 throws written by the firmware's own code, behind a bridge that paces
# bytes (tests/mplib/sync_bowl.py), the real mpremote on the other side.
# Prints "name value unit target" lines (bench/run.py).
#
# Issue 10: at least 70 % of the line carrying record bytes, a day of 5,000
# throws in under a minute.  The share is counted in bytes (record bytes over
# every byte the bowl sent: deterministic); the times swing with the machine.
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "mplib"))
import sync_bowl  # noqa: E402

from bobing.store import record as rec  # noqa: E402
from host_tools.sync import db, syncer  # noqa: E402
from host_tools.sync.transport import BAUD, SerialBowl  # noqa: E402

THROWS = 5000


class CountingBowl(sync_bowl.VirtualBowl):
    """Counts the bytes the bowl sends (the line's busy direction)."""

    sent = 0

    def _write(self, fd, data):
        if fd == self.host_fd:
            CountingBowl.sent += len(data)
        super()._write(fd, data)


with tempfile.TemporaryDirectory() as folder:
    sync_bowl.make_store(folder, THROWS, seed=3)
    bowl = CountingBowl(folder, baud=BAUD)
    conn = db.connect(os.path.join(folder, "f.db"))
    start = time.monotonic()
    source = SerialBowl(bowl.path, root="data", wait=1.0)
    source.open()
    result = syncer.sync(conn, source, "day", "at")
    source.resume()
    elapsed = time.monotonic() - start
    sent = CountingBowl.sent
    bowl.close()
    record_bytes = sum(
        rec.frame_size(len(p)) for (p,) in conn.execute("SELECT payload FROM records").fetchall()
    )
assert result.added == THROWS, result.added
print("sync.day_5000_throws_s %.1f s 60" % elapsed)
print("sync.records_per_s %.0f rec/s -" % (THROWS / elapsed))
print("sync.wire_bytes_per_record %.1f B -" % (sent / THROWS))
print("sync.record_share_of_bowl_bytes %.3f x >=0.70" % (record_bytes / sent))
# the share of the line's time that carried record bytes (a time figure)
print("sync.record_share_of_line_time %.2f x/s >=0.70" % (record_bytes * 10 / BAUD / elapsed))
