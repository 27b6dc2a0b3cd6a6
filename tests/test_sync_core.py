"""The sync core over store folders (syncer.DirSource): what a festival
database must never get wrong whatever the bowls send it."""

import os
import sqlite3
import sys

import pytest

from bobing.dice import Dice, SeededBytes
from bobing.rules import Rules
from bobing.session import Session
from bobing.store.store import Store
from host_tools.cli import main
from host_tools.sync import db
from host_tools.sync.logread import read_log
from host_tools.sync.syncer import DirSource, SyncError, sync

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import sync_bowl  # noqa: E402


def bowl_store(folder, throws, seed):
    os.makedirs(folder, exist_ok=True)
    sync_bowl.make_store(folder, throws, seed)
    return os.path.join(folder, "data")


def records(conn, bowl):
    rows = conn.execute("SELECT seq, payload, game_start FROM records WHERE bowl=? ORDER BY seq", (bowl,))
    return [(s, bytes(p), bool(g)) for s, p, g in rows]


def expected(root):
    return [(s, p, bool(g)) for s, p, g in read_log(root).records]


def test_two_bowls_in_one_database_keep_their_own_records_and_games(tmp_path):
    a = bowl_store(str(tmp_path / "a"), 700, seed=1)
    b = bowl_store(str(tmp_path / "b"), 400, seed=2)
    conn = db.connect(str(tmp_path / "f.db"))
    ra = sync(conn, DirSource(a), "2026-09-01", "t")
    rb = sync(conn, DirSource(b), "2026-09-01", "t")
    assert ra.bowl != rb.bowl
    assert records(conn, ra.bowl) == expected(a)
    assert records(conn, rb.bowl) == expected(b)
    throws = dict(conn.execute("SELECT bowl, COUNT(*) FROM throws GROUP BY bowl"))
    games = dict(conn.execute("SELECT bowl, COUNT(*) FROM games GROUP BY bowl"))
    headers = dict(conn.execute("SELECT bowl, SUM(game_start) FROM records GROUP BY bowl"))
    assert games == headers
    assert throws[ra.bowl] == 700 - headers[ra.bowl]  # every press but a game start is one throw
    # every die of every throw counted once per face
    assert conn.execute("SELECT SUM(n1+n2+n3+n4+n5+n6) FROM throws").fetchone()[0] == 6 * sum(throws.values())


def test_a_corrupted_record_is_reported_and_not_acknowledged(tmp_path, capsys):
    root = bowl_store(str(tmp_path / "a"), 600, seed=3)
    path = os.path.join(root, "seg", "00000081")  # records 129-256
    data = bytearray(open(path, "rb").read())
    data[200] ^= 0x40
    open(path, "wb").write(data)
    damaged = read_log(root)
    assert damaged.damaged == 1
    conn = db.connect(str(tmp_path / "f.db"))
    result = sync(conn, DirSource(root), "2026-09-01", "t")
    assert any("damaged" in line for line in result.issues)
    assert records(conn, result.bowl) == expected(root)
    # acknowledged only up to the segment before the damage
    assert result.acked == 128
    os.remove(os.path.join(root, "ack"))
    # the organiser accepts the loss: the bowl may free its flash
    again = sync(conn, DirSource(root), "2026-09-01", "t", accept_damage=True)
    assert again.added == 0 and again.acked == 512
    assert os.path.exists(os.path.join(root, "ack"))


def test_a_store_without_an_id_or_seg_folder_is_refused_with_nothing_written(tmp_path):
    root = bowl_store(str(tmp_path / "a"), 50, seed=4)
    conn = db.connect(str(tmp_path / "f.db"))
    os.remove(os.path.join(root, "id"))
    with pytest.raises(SyncError, match="no bowl id"):
        sync(conn, DirSource(root), "d", "t")
    with open(os.path.join(root, "id"), "w") as f:
        f.write("NOT-HEX")
    with pytest.raises(SyncError, match="16 lowercase hex"):
        sync(conn, DirSource(root), "d", "t")
    assert conn.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 0


def test_a_database_of_a_newer_schema_or_another_program_is_refused(tmp_path, capsys):
    newer = tmp_path / "newer.db"
    conn = db.connect(str(newer))
    conn.execute("UPDATE meta SET value='99' WHERE key='schema'")
    conn.close()
    with pytest.raises(db.DatabaseError, match="newer"):
        db.connect(str(newer))
    other = tmp_path / "other.db"
    sqlite3.connect(str(other)).execute("CREATE TABLE t (x)")
    assert main(["import", str(tmp_path / "none.bin"), "--db", str(other)]) == 2
    assert main(["sync", "--port", "/dev/null/x", "--db", str(newer)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "newer than this bobing" in err[1]


def test_a_rewritten_history_is_flagged_and_not_acknowledged(tmp_path):
    root = bowl_store(str(tmp_path / "a"), 300, seed=5)
    conn = db.connect(str(tmp_path / "f.db"))
    first = sync(conn, DirSource(root), "d", "t", acknowledge=False)
    # someone replaces the bowl's log with another one under the same id
    other = bowl_store(str(tmp_path / "b"), 300, seed=6)
    os.replace(os.path.join(root, "id"), os.path.join(other, "id"))
    second = sync(conn, DirSource(other), "d", "t")
    assert second.bowl == first.bowl
    assert any("rewritten" in line for line in second.issues)
    assert second.acked == 0 and not os.path.exists(os.path.join(other, "ack"))
    # again: no new issue line, but still no ack: `bobing sync` exits 1 until someone looks
    third = sync(conn, DirSource(other), "d", "t")
    assert third.issues == [] and third.contradicted and third.acked == 0


def played(root, presses, seed, on_tip=lambda tip: None):
    """root, a bowl's store played by the firmware's Session on CPython as the
    bowl plays it (a new game whenever one ends, housekeeping after each
    press); on_tip(tip) after each record."""
    os.makedirs(root, exist_ok=True)
    session = Session(Store(root), Dice(SeededBytes(seed)))
    session.boot()
    with open(os.path.join(root, "id"), "w") as f:
        f.write("b0b1a9000000%04x" % seed)
    for _ in range(presses):
        if session.game is None or session.game.ended:
            session.new_game(Rules("xiamen"), 6)
        else:
            session.throw()
        session.maintain()
        on_tip(session.store.seq)
    return root


def freed_by_another_database(root):
    """The bowl synced into another database, which acknowledges; the bowl's
    next boot frees what was acknowledged.  The first record it still holds."""
    sync(db.connect(root + ".other.db"), DirSource(root), "d", "t")
    Session(Store(root), Dice(SeededBytes(0))).boot()
    return sync(db.connect(root + ".probe.db"), DirSource(root), "d", "t", acknowledge=False).first


def test_a_single_record_acknowledged_to_another_database_is_reported_missing(tmp_path):
    """The organiser's database lacks exactly one record (synced and freed
    elsewhere in between): the sync says so, as it does for a longer gap."""
    # where the freed records end, from the same play done once beforehand
    first = freed_by_another_database(played(str(tmp_path / "dry" / "data"), 600, 11))
    assert first > 2
    root = str(tmp_path / "bowl" / "data")
    conn = db.connect(str(tmp_path / "f.db"))
    played(
        root,
        600,
        11,
        lambda tip: tip == first - 2 and sync(conn, DirSource(root), "d", "t", acknowledge=False),
    )
    assert freed_by_another_database(root) == first
    result = sync(conn, DirSource(root), "d", "t")
    assert any(
        line.startswith("records %d-%d are not on the bowl" % (first - 1, first - 1))
        for line in result.issues
    )


def test_a_sync_whose_commit_fails_adds_nothing_and_acknowledges_nothing(tmp_path):
    """The database refuses the sync's last write (a full disk, a lock): not
    one record of it is kept, the bowl is not told to free anything, and the
    next sync brings every record in once."""
    root = str(tmp_path / "bowl" / "data")
    played(root, 300, 12)
    conn = db.connect(str(tmp_path / "f.db"))
    conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON syncs BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with pytest.raises(sqlite3.DatabaseError, match="disk full"):
        sync(conn, DirSource(root), "d", "t")
    assert conn.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    assert not os.path.exists(os.path.join(root, "ack"))
    conn.execute("DROP TRIGGER refuse")
    result = sync(conn, DirSource(root), "d", "t")
    assert records(conn, result.bowl) == expected(root) and result.acked
