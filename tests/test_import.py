"""`bobing import FLASH.bin`: a dead bowl's log from an image of its LittleFS
partition, built here with littlefs-python (the ESP32 port's block
parameters) from a store the firmware's own code wrote."""

import os
import sys

from littlefs import LittleFS

from host_tools.cli import main
from host_tools.commands.import_cmd import BLOCK_SIZE, IO_SIZE
from host_tools.sync import db
from host_tools.sync.logread import read_log

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import sync_bowl  # noqa: E402

BLOCKS = 128  # a 512 KB partition


def image_of(store, path):
    """A LittleFS image holding the folder `store` as /data."""
    fs = LittleFS(
        block_size=BLOCK_SIZE,
        block_count=BLOCKS,
        read_size=IO_SIZE,
        prog_size=IO_SIZE,
        lookahead_size=IO_SIZE,
    )
    for folder, _, names in os.walk(store):
        rel = os.path.relpath(folder, store)
        target = "/data" if rel == "." else "/data/" + rel
        fs.makedirs(target, exist_ok=True)
        for name in names:
            with open(os.path.join(folder, name), "rb") as src, fs.open(target + "/" + name, "wb") as out:
                out.write(src.read())
    with open(path, "wb") as f:
        f.write(fs.context.buffer)


def test_an_image_gives_exactly_the_bowls_records(tmp_path, capsys):
    sync_bowl.make_store(str(tmp_path), 900, seed=21)
    image_of(str(tmp_path / "data"), str(tmp_path / "flash.bin"))
    before = open(tmp_path / "flash.bin", "rb").read()
    database = str(tmp_path / "f.db")
    assert main(["import", str(tmp_path / "flash.bin"), "--db", database]) == 0
    assert "900 new records (1-900)" in capsys.readouterr().out
    conn = db.connect(database)
    rows = [
        (s, bytes(p), bool(g)) for s, p, g in conn.execute("SELECT seq, payload, game_start FROM records")
    ]
    assert rows == [(s, p, bool(g)) for s, p, g in read_log(str(tmp_path / "data")).records]
    assert open(tmp_path / "flash.bin", "rb").read() == before  # the image is only read
    assert main(["import", str(tmp_path / "flash.bin"), "--db", database]) == 0
    assert "nothing new, 900 records held" in capsys.readouterr().out


def test_a_damaged_or_foreign_image_is_one_error_and_no_database(tmp_path, capsys):
    sync_bowl.make_store(str(tmp_path), 100, seed=22)
    image_of(str(tmp_path / "data"), str(tmp_path / "flash.bin"))
    erased = tmp_path / "erased.bin"
    erased.write_bytes(b"\xff" * BLOCK_SIZE * BLOCKS)
    short = tmp_path / "short.bin"
    short.write_bytes(b"\x00" * 1000)
    database = tmp_path / "f.db"
    assert main(["import", str(erased), "--db", str(database)]) == 2
    assert main(["import", str(short), "--db", str(database)]) == 2
    assert main(["import", str(tmp_path / "missing.bin"), "--db", str(database)]) == 2
    assert main(["import", str(tmp_path / "flash.bin"), "--root", "/nothere", "--db", str(database)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4
    assert "not a readable LittleFS image" in err[0]
    assert "not a whole number" in err[1]
    assert "cannot read" in err[2]
    assert not database.exists()


def test_a_file_in_place_of_a_slot_folder_is_a_loss_reported_not_an_os_error(tmp_path, capsys):
    sync_bowl.make_store(str(tmp_path), 100, seed=23)
    store = tmp_path / "data"
    for name in os.listdir(store / "s3"):
        os.remove(store / "s3" / name)
    os.rmdir(store / "s3")
    (store / "s3").write_bytes(b"a file where the folder was")
    image_of(str(store), str(tmp_path / "flash.bin"))
    assert main(["import", str(tmp_path / "flash.bin"), "--db", str(tmp_path / "f.db")]) == 1
    out, err = capsys.readouterr()
    assert err == "" and "new records" in out and "damaged or missing" in out
