"""`bobing import --salvage FLASH.bin`: a bowl's records from a flash image whose
LittleFS no longer mounts.  The image is the virtual bowl's own flash after a
played session (the real firmware on the real LittleFS, stale copies and all),
damaged in its filesystem metadata until it does not mount.  A keyed bowl's
(docs/security.md) is the firmware's own store keyed as `bobing key` leaves it."""

import json
import os
import re
import shutil
import sqlite3
import subprocess

import pytest
import slowdown
from littlefs import LittleFSError
from test_import import image_of, sync_bowl
from test_security_log import BOWL, forged_copy, new_bowl, play
from test_sim import BOBING

from bobing import keyed
from bobing.store.verify import Verifier
from host_tools.cli import main
from host_tools.commands.import_cmd import BLOCK_SIZE, littlefs_of
from host_tools.sync import salvage
from host_tools.sync.keystore import KeyStore
from host_tools.sync.logread import read_log

THROWS = 260  # two sealed segments and pending slot records


def mounts(image):
    fs = littlefs_of(bytearray(image))
    try:
        fs.mount()
    except LittleFSError:
        return False
    return True


def records(database):
    conn = sqlite3.connect(database)
    try:
        return conn.execute("SELECT seq, payload, game_start FROM records ORDER BY seq").fetchall()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def played(made_once):
    """(image bytes, the records a normal import takes from it)."""
    _, folder = made_once("salvage", play_and_import)
    return (folder / "bowl.img").read_bytes(), records(str(folder / "whole.db"))


def play_and_import(folder):
    image = folder / "bowl.img"
    subprocess.run(
        [BOBING, "sim", "--headless", "--flash", str(image), "--seed", "5", "--players", "4"],
        input="throw\n" * THROWS,
        capture_output=True,
        text=True,
        check=True,
        timeout=slowdown.seconds(600),
    )
    assert main(["import", str(image), "--db", str(folder / "whole.db")]) == 0


def unmountable(image):
    """Flip bits in the superblock pair (blocks 0 and 1: the root folder's
    metadata) until the filesystem does not mount."""
    damaged = bytearray(image)
    for at in range(20, BLOCK_SIZE, 61):
        damaged[at] ^= 0x10
        damaged[BLOCK_SIZE + at] ^= 0x10
        if not mounts(damaged):
            return damaged
    raise AssertionError("still mounts")


def test_every_record_of_an_unmountable_image_is_salvaged(played, tmp_path, capsys):
    image, whole = played
    assert len(whole) == THROWS + 1  # the first game's header, then a record a press
    dead = tmp_path / "dead.bin"
    dead.write_bytes(unmountable(image))
    database = tmp_path / "s.db"
    assert main(["import", str(dead), "--db", str(database)]) == 2
    assert "not a readable LittleFS image" in capsys.readouterr().err
    assert not database.exists()  # a failed import leaves nothing behind
    assert main(["import", "--salvage", str(dead), "--db", str(database)]) == 0
    out = capsys.readouterr().out
    assert "salvaged from the raw blocks: %d records" % len(whole) in out
    assert records(str(database)) == whole
    assert main(["import", "--salvage", str(dead), "--db", str(database)]) == 0
    assert "nothing new, %d records held" % len(whole) in capsys.readouterr().out


def test_records_wiped_from_the_raw_blocks_are_named_as_a_gap(played, tmp_path, capsys):
    image, whole = played
    damaged = unmountable(image)
    found = salvage.scan(bytes(damaged))
    for seq in (50, 51, 52, 200):  # every copy: in its segment, stale ones in metadata blocks
        for frame in found.frames[seq]:
            while frame in damaged:
                at = damaged.find(frame)
                damaged[at : at + len(frame)] = b"\x00" * len(frame)
    dead = tmp_path / "dead.bin"
    dead.write_bytes(damaged)
    database = tmp_path / "s.db"
    assert main(["import", "--salvage", str(dead), "--db", str(database)]) == 1
    out = capsys.readouterr().out
    got = records(str(database))
    assert set(got) <= set(whole)  # nothing invented
    assert {r[0] for r in whole} - {r[0] for r in got} == {50, 51, 52, 200}
    named = set()
    for first, last in re.findall(r"records? (\d+)(?:-(\d+))? damaged or missing", out):
        named.update(range(int(first), int(last or first) + 1))
    assert {r[0] for r in whole} - {r[0] for r in got} <= named


def test_bad_salvage_input_is_one_line_and_no_database(tmp_path, capsys):
    erased = tmp_path / "erased.bin"
    erased.write_bytes(b"\xff" * BLOCK_SIZE * 4)
    database = tmp_path / "s.db"
    assert main(["import", "--salvage", str(erased), "--db", str(database)]) == 2
    assert main(["import", "--salvage", str(erased), "--bowl", "xyz", "--db", str(database)]) == 2
    assert main(["import", str(erased), "--bowl", "0123456789abcdef", "--db", str(database)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and "no bowl id found" in err[0] and "--bowl" in err[1] and "--salvage" in err[2]
    assert not database.exists()


def test_an_image_written_by_another_littlefs_is_salvaged_too(tmp_path, capsys):
    sync_bowl.make_store(str(tmp_path), 300, seed=24)
    image_of(str(tmp_path / "data"), str(tmp_path / "flash.bin"))
    assert main(["import", str(tmp_path / "flash.bin"), "--db", str(tmp_path / "whole.db")]) == 0
    assert main(["import", "--salvage", str(tmp_path / "flash.bin"), "--db", str(tmp_path / "s.db")]) == 0
    assert records(str(tmp_path / "s.db")) == records(str(tmp_path / "whole.db"))


@pytest.fixture(scope="module")
def keyed_bowl(tmp_path_factory):
    """(unmountable image, the bowl's records, its keys) of an old-format bowl
    keyed later and re-keyed: plain segments, then key 1's, then key 2's
    sealed and pending records."""
    folder = tmp_path_factory.mktemp("keyed")
    root = new_bowl(folder)
    keys = KeyStore(str(folder / "keys.db"))
    play(root, 150)
    first = keys.make(BOWL, 1)
    keyed.save(root, first, 1, False)
    play(root, 200, seed=2)
    keyed.save(root, keys.make(BOWL, 2), 2, False, first)
    play(root, 100, seed=3)
    log = read_log(root, keys.all(BOWL))
    assert log.issues == [] and log.pending and log.last_keyed
    image_of(root, str(folder / "flash.bin"))
    return unmountable((folder / "flash.bin").read_bytes()), log.records, keys


def salvaged(tmp_path, image, capsys, keys=None, newer=False):
    """(exit status, records in the database, the report's authenticity line)
    of `import --salvage` with a copy of `keys` beside the database (newer:
    and a key the host made since, which the bowl has not taken yet)."""
    dead = tmp_path / "dead.bin"
    dead.write_bytes(image)
    database = str(tmp_path / "s.db")
    if keys is not None:
        shutil.copyfile(keys.path, database + ".keys")
        os.chmod(database + ".keys", 0o600)
    if newer:
        KeyStore(database).make(BOWL, 3)
    status = main(["import", "--salvage", str(dead), "--db", database])
    capsys.readouterr()
    assert main(["report", "--db", database, "--json"]) == 0
    (bowl,) = json.loads(capsys.readouterr().out)["bowls"]
    return status, records(database), bowl["authenticity"]


@pytest.mark.parametrize("newer", [False, True], ids=["its-keys", "a-newer-key-too"])
def test_a_keyed_bowl_is_salvaged_whole_and_authentic(keyed_bowl, tmp_path, capsys, newer):
    image, whole, keys = keyed_bowl
    status, got, authenticity = salvaged(tmp_path, image, capsys, keys, newer)
    assert got == whole
    assert (status, authenticity) == (0, "log authentic")


def test_a_keyed_bowl_salvaged_without_its_key_gives_every_record_and_says_no_key(
    keyed_bowl, tmp_path, capsys
):
    image, whole, _ = keyed_bowl
    status, got, authenticity = salvaged(tmp_path, image, capsys)
    assert got == whole
    assert status == 1 and authenticity.startswith("no key: ")


def test_a_keyed_bowl_salvaged_with_another_key_is_not_authentic(keyed_bowl, tmp_path, capsys):
    image, whole, _ = keyed_bowl
    other = KeyStore(str(tmp_path / "other.db"))
    other.make(BOWL, 2)
    status, got, authenticity = salvaged(tmp_path, image, capsys, other)
    assert got == whole
    assert status == 1 and authenticity.startswith("log NOT authentic: ")


def test_a_keyed_bowls_flash_rewritten_without_its_key_is_salvaged_as_forged(tmp_path, capsys):
    """The salvage signs what it lays out with the host's key: never what the
    records do not prove (a copy of the flash rechained with plain SHA-256)."""
    root, keys = forged_copy(tmp_path, 300)
    forged = read_log(root).records
    image_of(root, str(tmp_path / "flash.bin"))
    image = unmountable((tmp_path / "flash.bin").read_bytes())
    status, got, authenticity = salvaged(tmp_path, image, capsys, keys)
    assert got == forged and status == 1
    assert authenticity.startswith("log NOT authentic: "), authenticity


def test_each_salvaged_record_is_laid_out_under_the_key_it_was_chained_with(keyed_bowl, tmp_path):
    """Even where the host holds a key the bowl has not taken yet: each laid-out
    segment is signed with the key its records were chained under, so they
    verify with no key tried in place of another (the reader's fallback)."""
    image, whole, keys = keyed_bowl
    held = keys.all(BOWL)
    found = salvage.scan(bytes(image), keys_of=lambda bowl: [os.urandom(32)] + held)
    salvage.lay_out(found, str(tmp_path))
    verifier = Verifier(keys=found.keys)
    for name in sorted(os.listdir(tmp_path / "seg")):
        verifier.segment((tmp_path / "seg" / name).read_bytes(), int(name, 16), name, lambda *_: None)
    assert verifier.issues == [] and verifier.records == len(whole) and verifier.key == held[0]
