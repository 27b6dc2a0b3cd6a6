"""The sync core over store folders (syncer.DirSource): what a festival
database must never get wrong whatever the bowls send it."""

import os
import sqlite3
import sys

import pytest

from host_tools import db
from host_tools.cli import main
from host_tools.logread import read_log
from host_tools.syncer import DirSource, SyncError, sync

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
