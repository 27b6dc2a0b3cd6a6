"""Every host command meets bad input with one line on stderr, a stable exit
status and nothing changed: a table of bad databases, images, ports, stores
and event lines, run in-process through the real command line (an
exception escaping main() fails the test, as a traceback would show)."""

import os
import sqlite3
import sys

import pytest
import serial

from host_tools.cli import main
from host_tools.sync import db

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import sync_bowl  # noqa: E402


def sqlite_file(path, *statements):
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def written(path, data):
    path.write_bytes(data)
    return path


def damaged_database(path):
    """A bobing database whose pages after the first are overwritten."""
    db.connect(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    data = bytearray(open(path, "rb").read())
    data[4096:] = b"\x5a" * (len(data) - 4096)
    open(path, "wb").write(data)


# (name, make(tmp) -> the database path): databases no command can use
BAD_DATABASES = [
    ("empty file", lambda t: written(t / "x.db", b"")),
    ("junk", lambda t: written(t / "x.db", b"not sqlite at all" * 300)),
    ("another program's", lambda t: sqlite_file(t / "x.db", "CREATE TABLE t (a)") or t / "x.db"),
    (
        "no tables but meta",
        lambda t: (
            sqlite_file(
                t / "x.db",
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
                "INSERT INTO meta VALUES ('schema','1')",
            )
            or t / "x.db"
        ),
    ),
    (
        "bad schema value",
        lambda t: (
            sqlite_file(
                t / "x.db",
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
                "INSERT INTO meta VALUES ('schema','x')",
            )
            or t / "x.db"
        ),
    ),
    (
        "newer schema",
        lambda t: (
            sqlite_file(
                t / "x.db",
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
                "INSERT INTO meta VALUES ('schema','9')",
            )
            or t / "x.db"
        ),
    ),
    ("damaged", lambda t: damaged_database(t / "x.db") or t / "x.db"),
    ("a folder", lambda t: (t / "x.db").mkdir() or t / "x.db"),
]


def one_line(capsys, status, expected=2):
    out, err = capsys.readouterr()
    assert status == expected, (out, err)
    assert len(err.splitlines()) == 1 and err.startswith("bobing: error: "), err
    assert "Traceback" not in err and out == ""
    return err


def snapshot(path):
    """What a command must leave as it was: the file's bytes (None: no file, '/': a folder)."""
    if os.path.isdir(path):
        return "/"
    return open(path, "rb").read() if os.path.exists(path) else None


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    from test_import import image_of

    folder = tmp_path_factory.mktemp("bad-inputs")
    sync_bowl.make_store(str(folder), 40, seed=31)
    image_of(str(folder / "data"), str(folder / "flash.bin"))
    return str(folder / "flash.bin")


@pytest.mark.parametrize("name,make", BAD_DATABASES, ids=[n for n, _ in BAD_DATABASES])
def test_report_and_import_refuse_a_bad_database_in_one_line_and_change_nothing(
    name, make, tmp_path, capsys, image
):
    path = str(make(tmp_path))
    before = snapshot(path)
    one_line(capsys, main(["report", "--db", path]))
    one_line(capsys, main(["report", "--db", path, "--json"]))
    if name != "empty file":  # where sync and import make their database; report makes none
        one_line(capsys, main(["import", image, "--db", path]))
        one_line(capsys, main(["sync", "--port", str(tmp_path / "ttyNONE"), "--db", path]))
    assert snapshot(path) == before


def test_a_locked_database_is_in_use_not_a_traceback(tmp_path, capsys, image):
    path = str(tmp_path / "f.db")
    assert main(["import", image, "--db", path]) == 0
    capsys.readouterr()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program writing
    try:
        assert "in use by another program" in one_line(capsys, main(["import", image, "--db", path]))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert main(["report", "--db", path, "--json"]) == 0


def test_report_creates_no_database(tmp_path, capsys):
    for path in (tmp_path / "none.db", tmp_path / "nofolder" / "x.db"):
        one_line(capsys, main(["report", "--db", str(path)]))
        assert not path.exists()


def test_bad_images_leave_no_database(tmp_path, capsys, image):
    erased = tmp_path / "erased.bin"
    erased.write_bytes(b"\xff" * 4096 * 8)
    odd = tmp_path / "odd.bin"
    odd.write_bytes(b"\x00" * 5000)
    database = tmp_path / "f.db"
    for argv in (
        ["import", str(tmp_path / "missing.bin")],
        ["import", str(tmp_path)],  # a folder
        ["import", str(erased)],
        ["import", str(odd)],
        ["import", "--salvage", str(erased)],
        ["import", "--salvage", str(odd)],
        ["import", "--salvage", image, "--bowl", "NOT-AN-ID"],
        ["import", image, "--block-size", "0"],
        ["import", image, "--root", "/elsewhere"],
    ):
        one_line(capsys, main(argv + ["--db", str(database)]))
        assert not database.exists(), argv


def test_a_store_copy_that_is_no_store_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_bytes(b"x")
    for argv in (
        ["log", "verify", str(tmp_path / "none")],
        ["log", "verify", str(tmp_path / "file")],
        ["log", "verify", str(tmp_path)],
        ["log", "ack", str(tmp_path)],
    ):
        one_line(capsys, main(argv))


def test_watch_shows_events_of_the_wrong_shape_as_other_lines(tmp_path, capsys):
    lines = [
        '{"event": "game", "players": 3, "rules": 5}',
        '{"event": "end", "holdings": 5}',
        '{"event": "end", "holdings": {"x": 1}}',
        '{"event": "end", "holdings": {"1": {"yixiu": "two"}}}',
        '{"event": "throw", "dice": "444411"}',
        '{"event": "throw", "dice": [4, 4, 4, 4, 1, 9]}',
        '{"event": "throw", "seat": [1], "kind": {"k": 1}, "remaining": [1, 2]}',
        '{"event": "throw", "zhuangyuan": {"dice": 5}}',
        '{"event": "throw", "seat": "\\u001b[2J", "kind": "\\u001b]0;title\\u0007", "dice": [1, 2, 3, 4, 5, 6]}',
        '{"event": 5}',
        "[1, 2, 3]",
        "\x1b[2J\x00\xff garbage",
    ]
    events = tmp_path / "events.txt"
    events.write_bytes("\n".join(lines).encode("utf-8", "surrogateescape") + b"\n\xff\xfe\n")
    assert main(["watch", "--file", str(events)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "other lines" in out and "\x1b[2J" not in out
    for argv in (["watch", "--file", str(tmp_path / "none")], ["watch", "--file", str(tmp_path)]):
        one_line(capsys, main(argv))


def test_a_port_another_program_holds_is_named_so(tmp_path, capsys):
    master, slave = os.openpty()
    holder = serial.Serial(os.ttyname(slave), exclusive=True)
    try:
        for argv in (
            ["watch", "--port", os.ttyname(slave)],
            ["sync", "--port", os.ttyname(slave), "--db", str(tmp_path / "f.db")],
        ):
            assert "port in use by another program" in one_line(capsys, main(argv))
        assert not (tmp_path / "f.db").exists()
    finally:
        holder.close()
        os.close(master)
        os.close(slave)
    for argv in (
        ["watch", "--port", str(tmp_path / "ttyNONE")],
        ["watch", "--port", str(tmp_path / "ttyNONE"), "--baud", "-5"],
        ["sync", "--port", str(tmp_path / "ttyNONE"), "--db", str(tmp_path / "f.db")],
        ["sync", "--port", str(tmp_path / "ttyNONE"), "--wait", "soon"],
    ):
        one_line(capsys, main(argv))


def test_the_other_commands_refuse_bad_arguments_in_one_line(tmp_path, capsys):
    for argv in (
        ["classify", "9999999"],
        ["classify", "--rules", "nowhere", "444411"],
        ["replay", str(tmp_path / "none.txt")],
        ["stats", "--games", "-1"],
        ["stats", "--seed", "x"],
        ["rules", "--nothing"],
        ["report", "--db"],
        ["nosuchcommand"],
    ):
        one_line(capsys, main(argv))
