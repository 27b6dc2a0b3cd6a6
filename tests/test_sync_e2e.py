"""`bobing sync` end to end: the real mpremote talks to the real MicroPython
unix port on a pseudo-terminal, whose folder holds a store the firmware's
own code wrote (tests/mplib/sync_bowl.py).  What an organiser would notice:
throws missing or counted twice after a pulled cable, a sync that hangs or
corrupts the database on a wrong port."""

import os
import random
import sqlite3
import sys
import threading

import pytest

from bobing.store import record as rec
from host_tools.cli import main
from host_tools.sync import db
from host_tools.sync.logread import read_log

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import slowdown  # noqa: E402
import sync_bowl  # noqa: E402

THROWS = 2500


@pytest.fixture
def bowl(tmp_path):
    sync_bowl.make_store(str(tmp_path), THROWS, seed=11)
    expected = [(s, p, bool(g)) for s, p, g in read_log(str(tmp_path / "data")).records]
    virtual = sync_bowl.VirtualBowl(str(tmp_path))
    virtual.expected = expected
    yield virtual
    virtual.close()


def sync(bowl, database, *extra):
    return main(
        [
            "sync",
            "--port",
            bowl.path,
            "--root",
            "data",
            "--db",
            str(database),
            "--wait",
            slowdown.arg(1),
            *extra,
        ]
    )


def held(database):
    conn = db.connect(str(database))
    rows = conn.execute("SELECT seq, payload, game_start FROM records ORDER BY seq").fetchall()
    conn.close()
    return [(s, bytes(p), bool(g)) for s, p, g in rows]


def segments(bowl):
    return sorted(os.listdir(os.path.join(bowl.folder, "data", "seg")))


def test_sync_takes_every_record_once_and_the_ack_frees_the_bowl(bowl, tmp_path, capsys):
    database = tmp_path / "festival.db"
    assert len(segments(bowl)) == THROWS // 128
    assert sync(bowl, database) == 0
    assert held(database) == bowl.expected
    out = capsys.readouterr().out
    assert "2500 new records (1-2500)" in out and "acknowledged up to record 2432" in out
    # resume() typed `import main`: the bowl's boot applied the ack and
    # deleted every synced segment but the newest
    assert sync(bowl, database) == 0
    assert "nothing new, 2500 records held" in capsys.readouterr().out
    assert segments(bowl) == ["00000901"]
    assert held(database) == bowl.expected


def test_the_running_application_is_asked_to_leave_by_the_sync_line(bowl, tmp_path, capsys):
    bowl.type(b"import main\r\nthrow\r\nthrow\r\n")  # the stand-in app plays two presses
    database = tmp_path / "festival.db"
    assert sync(bowl, database, "--wait", slowdown.arg(60)) == 0  # answered once the app booted and took them
    rows = held(database)
    assert [s for s, _, _ in rows] == list(range(1, THROWS + 3))


def test_a_link_cut_anywhere_then_resync_ends_with_exactly_the_bowls_records(bowl, tmp_path, capsys):
    database = tmp_path / "festival.db"
    rng = random.Random(5)
    cuts = 0
    while True:
        bowl.connect(cut_after=rng.randrange(20, 40000))
        status = sync(bowl, database)
        if os.path.exists(database):  # after any outcome: a prefix, no gap, no duplicate
            seqs = [s for s, _, _ in held(database)]
            assert seqs == list(range(1, len(seqs) + 1))
        if status == 0 and bowl.cut_after is not None:
            break
        assert status == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        cuts += 1
        assert cuts < 40
    assert cuts >= 3
    assert held(database) == bowl.expected


def test_garbage_on_the_line_is_one_error_and_no_database(tmp_path, capsys):
    master, slave = os.openpty()
    os.set_blocking(master, False)
    stop = threading.Event()

    def spew():
        noise = random.Random(1)
        while not stop.is_set():
            try:
                os.write(master, bytes(noise.randrange(256) for _ in range(64)))
            except BlockingIOError:
                pass  # nobody reads: a UART drops it
            stop.wait(0.01)

    thread = threading.Thread(target=spew)
    thread.start()
    try:
        status = main(["sync", "--port", os.ttyname(slave), "--db", str(tmp_path / "f.db"), "--wait", "0.5"])
    finally:
        stop.set()
        thread.join()
    assert status == 2
    assert "no MicroPython bowl answers" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "f.db")


def test_a_stalled_peer_and_a_missing_port_are_one_error_each(tmp_path, capsys):
    master, slave = os.openpty()  # nobody ever answers
    assert main(["sync", "--port", os.ttyname(slave), "--db", str(tmp_path / "f.db"), "--wait", "0.5"]) == 2
    assert main(["sync", "--port", str(tmp_path / "ttyNONE"), "--db", str(tmp_path / "f.db")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "no MicroPython bowl answers" in err[0]
    assert "cannot open the port" in err[1]
    assert not os.path.exists(tmp_path / "f.db")


def test_a_newer_log_format_on_the_bowl_changes_nothing(bowl, tmp_path, capsys):
    path = os.path.join(bowl.folder, "data", "seg", segments(bowl)[0])
    data = bytearray(open(path, "rb").read())
    data[3:4] = b"3"
    open(path, "wb").write(data)
    database = tmp_path / "festival.db"
    assert sync(bowl, database) == 2
    assert "format BBL3" in capsys.readouterr().err
    assert held(database) == []
    assert not os.path.exists(os.path.join(bowl.folder, "data", "ack"))
    assert rec.SEGMENT_MAGIC == b"BBL1"


def test_a_database_another_program_holds_is_one_line_and_the_bowl_plays_on(bowl, tmp_path, capsys):
    database = tmp_path / "festival.db"
    db.connect(str(database)).close()
    holder = sqlite3.connect(str(database), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program writing
    try:
        assert sync(bowl, database) == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "in use by another program" in err and "Traceback" not in err
    # the sync typed `import main` on its way out: the stand-in app takes these presses
    bowl.type(b"throw\r\nthrow\r\n")
    # the app answers `sync` after the presses before it, once its boot replayed the log: however long that takes
    assert sync(bowl, database, "--wait", slowdown.arg(60)) == 0
    assert [s for s, _, _ in held(database)] == list(range(1, THROWS + 3))


class LateBanner(sync_bowl.VirtualBowl):
    """A bowl whose raw REPL banner reaches the host only once the host has
    given up on it and sent Ctrl-A again, so a second banner follows: what a
    loaded host sees when the first takes longer than its wait."""

    def __init__(self, folder):
        self.ctrl_a = 0
        self.late = b""
        super().__init__(folder)

    def _write(self, fd, data):
        if fd == self.bowl_fd and b"\x01" in data:
            self.ctrl_a += data.count(b"\x01")
            if self.ctrl_a == 2:  # after the host flushed its input for the retry
                sync_bowl.VirtualBowl._write(self.host_fd, self.late)
        elif fd == self.host_fd and self.ctrl_a == 1:
            self.late += data
            return
        sync_bowl.VirtualBowl._write(fd, data)


def test_a_raw_repl_banner_that_comes_late_is_no_failed_sync(tmp_path, capsys):
    """On a loaded host the bowl's raw REPL banner can come after the host's
    wait for it; the host sends Ctrl-A again and a second banner follows.
    The organiser saw `the bowl failed: could not exec command (response:
    b'R\\x01')` and no sync (a `bobing key` in a loaded `make test`)."""
    sync_bowl.make_store(str(tmp_path), 300, seed=5)
    late = LateBanner(str(tmp_path))
    try:
        assert sync(late, tmp_path / "f.db") == 0, capsys.readouterr()
        assert b"raw REPL" in late.late  # held until the host tried again
        assert "300 new records (1-300)" in capsys.readouterr().out
    finally:
        late.close()
