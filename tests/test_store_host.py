"""The host reader (CPython) on logs written by the firmware's own store code.

Store runs unchanged on CPython over an ordinary directory, which makes the
bowl's /data tree cheaply; the MicroPython/LittleFS behaviour is covered by
test_store_powercut.py and test_store_mp.py.
"""

import os
import shutil
import struct
from binascii import crc32

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bobing.store import record as rec
from bobing.store.store import Store
from host_tools.cli import _Parser
from host_tools.commands import log_cmd
from host_tools.errors import UsageError
from host_tools.sync.logread import ack_bytes, read_log

RECORDS = 400  # three full segments of 128 and 16 records pending in slots


def payload(seq):
    return bytes([seq % 121]) * (5 + seq % 13)  # never a note's first byte (0x7e): they are no throws


def boot_store(root):
    """A Store booted as the bowl boots it: (store, Recovery, [(seq, payload, game_start)])."""
    store = Store(str(root))
    boot = store.recover()
    tail = []
    store.replay(boot, lambda seq, payload, game_start: tail.append((seq, payload, game_start)))
    return store, boot, tail


def make_store(root, records=RECORDS, snapshot_every=32):
    store = boot_store(root)[0]
    for seq in range(1, records + 1):
        assert store.append(payload(seq), game_start=seq % 100 == 1) == seq
        if seq % snapshot_every == 0:
            store.save_snapshot(b"state %d" % seq)
    return store


def segment_files(root):
    return sorted(os.path.join(root, "seg", n) for n in os.listdir(os.path.join(root, "seg")))


def intact(report):
    return {seq: data for seq, data, _ in report.records}


def test_clean_log_reads_back_exactly(tmp_path):
    make_store(tmp_path)
    report = read_log(str(tmp_path))
    assert report.issues == []
    assert [(s, p) for s, p, _ in report.records] == [(s, payload(s)) for s in range(1, RECORDS + 1)]
    assert [g for s, _, g in report.records if g] == [1, 1, 1, 1]
    assert report.segments == [(1, 128), (129, 256), (257, 384)]
    assert report.pending == 16
    assert report.counters == {"games": 4, "throws": RECORDS - 4, "recoveries": 0}


def test_a_flipped_bit_names_exactly_the_damaged_record(tmp_path):
    make_store(tmp_path)
    path = segment_files(tmp_path)[1]  # records 129-256
    data = bytearray(open(path, "rb").read())
    pos = rec.SEGMENT_HEADER_SIZE
    for _ in range(10):  # to the payload of record 139
        pos = rec.decode(data, pos, 129)[1]
    data[pos + 8] ^= 0x10
    open(path, "wb").write(data)
    report = read_log(str(tmp_path))
    assert report.damaged == 1
    assert any(line.startswith("record 139 damaged") for line in report.issues)
    assert sorted(intact(report)) == [s for s in range(1, RECORDS + 1) if s != 139]
    assert all(intact(report)[s] == payload(s) for s in intact(report))
    # records after the damage in its segment cannot be chain-checked; the next segment re-anchors
    assert report.unverified == 256 - 139


def test_an_edited_record_with_a_fixed_crc_breaks_the_chain(tmp_path):
    make_store(tmp_path)
    path = segment_files(tmp_path)[0]
    data = bytearray(open(path, "rb").read())
    start = rec.SEGMENT_HEADER_SIZE
    for _ in range(49):  # record 50
        start = rec.decode(data, start, 1)[1]
    _, end, payload_start, _ = rec.decode(data, start, 50)
    data[payload_start] ^= 1  # someone edits the prize events ...
    struct.pack_into("<I", data, end - 4, crc32(data[start : end - 4], crc32(struct.pack("<I", 50))))
    open(path, "wb").write(data)  # ... and fixes the CRC
    report = read_log(str(tmp_path))
    assert report.damaged == 0
    assert any(line.startswith("record 51 (segment 00000001): chain link broken") for line in report.issues)
    assert any("segment 00000081: does not continue the chain" in line for line in report.issues) is False


def test_an_edited_last_record_shows_where_the_next_segment_starts(tmp_path):
    """The last record of a segment has no later record in it to catch an edit:
    the next segment's header, which holds the chain value, must."""
    make_store(tmp_path)
    path = segment_files(tmp_path)[0]
    data = bytearray(open(path, "rb").read())
    start = rec.SEGMENT_HEADER_SIZE
    for _ in range(127):  # record 128, the segment's last
        start = rec.decode(data, start, 1)[1]
    _, end, payload_start, _ = rec.decode(data, start, 128)
    data[payload_start] ^= 1
    struct.pack_into("<I", data, end - 4, crc32(data[start : end - 4], crc32(struct.pack("<I", 128))))
    open(path, "wb").write(data)
    report = read_log(str(tmp_path))
    assert report.damaged == 0 and report.ackable is None
    assert any("segment 00000081: does not continue the chain" in line for line in report.issues)


def test_a_removed_segment_is_reported(tmp_path):
    make_store(tmp_path)
    os.remove(segment_files(tmp_path)[1])
    report = read_log(str(tmp_path))
    assert any(line.startswith("records 129-256 damaged or missing") for line in report.issues)
    assert sorted(intact(report)) == list(range(1, 129)) + list(range(257, RECORDS + 1))


def all_files(root):
    files = segment_files(root)
    for d in range(16):
        folder = os.path.join(root, "s%d" % d)
        files += sorted(os.path.join(folder, n) for n in os.listdir(folder))
    return files


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_flips_and_truncations_are_found_and_the_rest_kept(tmp_path_factory, data):
    root = str(tmp_path_factory.mktemp("store"))
    make_store(root, records=300)
    path = data.draw(st.sampled_from(all_files(root)))
    content = bytearray(open(path, "rb").read())
    if data.draw(st.booleans()):
        bit = data.draw(st.integers(0, len(content) * 8 - 1))
        content[bit // 8] ^= 1 << bit % 8
    else:
        content = content[: data.draw(st.integers(1, len(content) - 1))]
    open(path, "wb").write(content)
    report = read_log(root)
    # every byte is under a CRC: damage to a live record or header is reported;
    # slots 0 and 45-127 hold copies of records 173-256 already sealed: harmless
    slots = Store(root).log
    live = path in segment_files(root) or any(
        os.path.samefile(path, slots.slot_path(seq)) for seq in range(1, 300 % 128 + 1)
    )
    # (a copy whose sequence bytes were hit no longer says which record it was: reported)
    assert bool(report.issues) or not live, path
    got = intact(report)
    assert all(got[s] == payload(s) for s in got)  # what is kept is exact
    assert len(got) >= 300 - 128  # damage stays inside the file it hit


def test_ack_lets_the_bowl_delete_exactly_the_synced_segments(tmp_path):
    store = make_store(tmp_path)
    report = read_log(str(tmp_path))
    assert report.ackable[0] == 384
    data = ack_bytes(report)
    bowl, boot, _ = boot_store(tmp_path)
    assert boot.tip == RECORDS and boot.state_seq == 384
    # the snapshot tails (records after 352, the older snapshot) stay: segments 1 and 129 go
    assert bowl.acknowledge(data) == 2
    assert [os.path.basename(p) for p in segment_files(tmp_path)] == ["00000101"]
    report = read_log(str(tmp_path))
    assert report.issues == []  # acknowledged history is gone, not missing
    assert report.records[0][0] == 257
    assert store.seq == RECORDS


def test_an_ack_that_does_not_match_deletes_nothing(tmp_path):
    make_store(tmp_path)
    bowl = boot_store(tmp_path)[0]
    with pytest.raises(ValueError, match="does not match"):
        bowl.acknowledge(rec.ack(256, bytes(32)))
    with pytest.raises(ValueError, match="damaged"):
        bowl.acknowledge(rec.ack(256, bytes(32))[:-1] + b"x")
    assert len(segment_files(tmp_path)) == 3


def cli(*argv):
    parser = _Parser(prog="bobing")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    log_cmd.register(sub)
    args = parser.parse_args(argv)
    return args.run(args)


def test_cli_verify_and_ack(tmp_path, capsys):
    make_store(tmp_path)
    assert cli("log", "verify", str(tmp_path)) == 0
    out = capsys.readouterr().out
    assert out.startswith("records 1-400: 400 intact (384 in 3 segments, 16 pending), 0 damaged")
    assert out.rstrip().endswith("verified")
    assert cli("log", "ack", str(tmp_path)) == 0
    assert rec.parse_ack(open(os.path.join(tmp_path, "ack"), "rb").read())[0] == 384
    boot = boot_store(tmp_path)[1]  # the bowl applies a dropped-in ack at boot
    assert boot.issues == [] and len(segment_files(tmp_path)) == 1
    assert not os.path.exists(os.path.join(tmp_path, "ack"))


def test_cli_reports_damage_with_exit_1(tmp_path, capsys):
    make_store(tmp_path)
    os.remove(segment_files(tmp_path)[0])
    assert cli("log", "verify", str(tmp_path)) == 1
    assert "records 1-128 missing: deleted without an acknowledgement" in capsys.readouterr().out
    with pytest.raises(UsageError, match="damage"):
        cli("log", "ack", str(tmp_path))
    assert cli("log", "ack", "--accept-damage", str(tmp_path)) == 0


@pytest.mark.parametrize("argv", [("log", "verify", "/nonexistent"), ("log", "ack"), ("log", "frob", ".")])
def test_cli_bad_input_is_a_usage_error(argv, tmp_path):
    with pytest.raises(UsageError):
        cli(*argv)


def test_cli_not_a_store(tmp_path):
    with pytest.raises(UsageError, match="not a copy"):
        cli("log", "verify", str(tmp_path))


def test_verify_never_says_verified_when_every_segment_was_deleted(tmp_path, capsys):
    make_store(tmp_path)
    for path in segment_files(tmp_path):
        os.remove(path)
    assert cli("log", "verify", str(tmp_path)) == 1
    out = capsys.readouterr().out
    assert "records 1-272 damaged or missing" in out  # the slots still hold 273-400
    assert "(128 in 0 segments" not in out and "128 intact (0 in 0 segments, 128 pending), 272 damaged" in out
    assert "lifetime: 4 games, 396 throws" in out  # never a negative count


def test_after_every_segment_was_lost_the_next_segment_holds_only_what_is_there(tmp_path):
    # not a segment 00000001 that claims records 1-400 and reads as damaged for ever
    make_store(tmp_path)
    for path in segment_files(tmp_path):
        os.remove(path)
    store, boot, _ = boot_store(tmp_path)
    assert any("records 1-272 damaged or missing" in line for line in boot.issues), boot.issues
    for seq in range(401, 531):
        assert store.append(payload(seq)) == seq
        store.maintain()
    assert [os.path.basename(p) for p in segment_files(tmp_path)][0] == "00000111"  # 273 on
    report = read_log(str(tmp_path))
    # the loss, and the first record's link to what was lost: nothing else
    assert len(report.issues) == 2 and "records 1-272 missing" in report.issues[0], report.issues
    assert report.issues[1].startswith("record 273 (segment 00000111): chain link broken"), report.issues
    assert [seq for seq, _, _ in report.records] == list(range(273, 531))


def test_a_boot_without_counters_reads_what_a_normal_boot_reads(tmp_path, monkeypatch):
    # with both counter copies lost, boot starts from the last seal noted
    # beside the store, not from the bowl's first record: its reads do not
    # grow with the history, and the lifetime games are kept
    from bobing.store import log as logmod

    store = make_store(tmp_path / "data", records=3000)
    games = store.counters.games
    reads = []
    read_into = logmod.read_into
    monkeypatch.setattr(logmod, "read_into", lambda path, view: reads.append(path) or read_into(path, view))
    boot_store(tmp_path / "data")
    normal = len(reads)
    for name in ("count.a", "count.b"):
        os.remove(tmp_path / "data" / name)
    reads.clear()
    store, boot, _ = boot_store(tmp_path / "data")
    assert len(reads) <= 2 * normal, (len(reads), normal)
    assert any("counter copies lost" in line for line in boot.issues), boot.issues
    assert store.counters.games == games and boot.tip == 3000


def test_verify_reports_newest_records_gone_behind_a_snapshot(tmp_path, capsys):
    make_store(tmp_path, records=416)  # the newest snapshot is of record 416, the last segment ends at 384
    store = Store(str(tmp_path))
    for seq in range(385, 417):
        os.remove(store.log.slot_path(seq))
    assert cli("log", "verify", str(tmp_path)) == 1
    assert "records 1-384: 384 intact (384 in 3 segments, 0 pending), 32 damaged" in capsys.readouterr().out


def test_a_stray_segment_name_is_reported_not_a_traceback(tmp_path, capsys):
    make_store(tmp_path)
    open(os.path.join(tmp_path, "seg", "ffffffff"), "wb").write(b"junk")
    assert cli("log", "verify", str(tmp_path)) == 1
    assert "seg/ffffffff: not a segment: ignored" in capsys.readouterr().out
    assert cli("log", "ack", "--accept-damage", str(tmp_path)) == 0


def test_a_store_from_before_the_slots_alternated_loses_nothing(tmp_path, monkeypatch):
    # an update over a bowl with records pending in the old layout (8 in a row a folder)
    from bobing.store.log import Log

    new_path = Log.slot_path
    monkeypatch.setattr(Log, "slot_path", lambda self, seq, old=False: new_path(self, seq, True))
    make_store(tmp_path / "data", records=300)
    monkeypatch.setattr(Log, "slot_path", new_path)
    store, boot, _ = boot_store(tmp_path / "data")
    assert boot.tip == 300 and not boot.issues, boot.issues
    assert store.log.last_end == 300  # sealed at once, before a new record overwrites an old slot
    for seq in range(301, 320):
        assert store.append(payload(seq)) == seq
    report = read_log(str(tmp_path / "data"))
    assert not report.issues and sorted(intact(report)) == list(range(1, 320))


def test_a_stray_file_named_like_a_far_segment_moves_nothing(tmp_path):
    # seg/7ffffff0: neither the bowl nor the host takes 2 billion records as lost
    store = make_store(tmp_path / "data", records=300)
    open(tmp_path / "data" / "seg" / "7ffffff0", "wb").write(b"junk")
    for name in ("count.a", "count.b"):  # the boot lists seg/ (no segment hint)
        os.remove(tmp_path / "data" / name)
    store, boot, _ = boot_store(tmp_path / "data")
    assert boot.tip == 300 and store.append(payload(301)) == 301
    assert "segment 7ffffff0: header damaged" in boot.issues, boot.issues
    report = read_log(str(tmp_path / "data"))
    assert report.damaged == 0 and sorted(intact(report)) == list(range(1, 302))


def test_a_header_claiming_a_huge_last_record_is_damage(tmp_path, capsys):
    make_store(tmp_path)
    path = segment_files(tmp_path)[1]
    data = bytearray(open(path, "rb").read())
    struct.pack_into("<I", data, 8, 0xFFFFFFF0)  # the last record's number
    struct.pack_into("<I", data, 44, crc32(bytes(data[:44])))
    open(path, "wb").write(data)
    assert cli("log", "verify", str(tmp_path)) == 1
    assert "segment 00000081: header damaged" in capsys.readouterr().out
    assert cli("log", "ack", str(tmp_path)) == 0  # up to the damage, no further
    assert rec.parse_ack(open(os.path.join(tmp_path, "ack"), "rb").read())[0] == 128


def test_ack_into_a_missing_folder_is_a_usage_error(tmp_path):
    make_store(tmp_path)
    with pytest.raises(UsageError, match="cannot write"):
        cli("log", "ack", "-o", str(tmp_path / "no" / "such" / "ack"), str(tmp_path))


def test_a_bowl_keeps_one_id_for_life_so_its_records_never_merge_with_another(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    store, boot, _ = boot_store(first)
    assert boot.issues == []  # a fresh bowl makes its id without a word
    bowl_id = store.bowl_id
    assert len(bowl_id) == 16 and int(bowl_id, 16) >= 0
    store.append(b"x", game_start=True)
    assert boot_store(first)[0].bowl_id == bowl_id
    assert boot_store(second)[0].bowl_id != bowl_id


@pytest.mark.parametrize("damage", [None, b"", b"0123456789ABCDEF", b"12345", b"\xff" * 16])
def test_a_lost_or_damaged_bowl_id_keeps_the_id_and_is_reported(tmp_path, damage):
    # the host files the bowl's records under its id: a new one would count them twice
    store = make_store(tmp_path / "data", records=5)
    old = store.bowl_id
    path = tmp_path / "data" / "id"
    if damage is None:
        path.unlink()
    else:
        path.write_bytes(damage)
    store, boot, _ = boot_store(tmp_path / "data")
    assert store.bowl_id == old
    assert any(("kept from beside the store") in line for line in boot.issues), boot.issues
    store, boot, _ = boot_store(tmp_path / "data")
    assert store.bowl_id == old and not boot.issues


def test_both_copies_of_the_bowl_id_lost_make_a_new_one_reported(tmp_path):
    store = make_store(tmp_path / "data", records=5)
    old = store.bowl_id
    (tmp_path / "data" / "id").unlink()
    (tmp_path / "data.keep" / "id").unlink()
    store, boot, _ = boot_store(tmp_path / "data")
    assert store.bowl_id != old and len(store.bowl_id) == 16
    assert any(("new id %s" % store.bowl_id) in line for line in boot.issues)
    assert boot_store(tmp_path / "data")[0].bowl_id == store.bowl_id


def test_a_lost_store_is_not_a_new_bowl(tmp_path):
    store = make_store(tmp_path / "data", records=300)
    old, sealed = store.bowl_id, store.log.last_end
    shutil.rmtree(tmp_path / "data")
    store, boot, tail = boot_store(tmp_path / "data")
    assert store.bowl_id == old and not tail
    assert boot.tip == sealed + 256  # every number the lost store may have used, skipped
    assert "store lost: records 1-%d may be lost" % boot.tip in boot.issues, boot.issues


def test_a_stray_file_named_as_a_far_segment_is_not_two_billion_lost_records(tmp_path, capsys):
    make_store(tmp_path)
    open(os.path.join(tmp_path, "seg", "7ffffff0"), "wb").write(b"junk that is not a segment")
    report = read_log(str(tmp_path))
    assert report.damaged == 0 and sorted(intact(report)) == list(range(1, RECORDS + 1))
    assert report.issues == ["seg/7ffffff0: neither a segment header nor a record in it: ignored"]


def test_lifetime_games_are_whole_when_one_counter_copy_is_gone(tmp_path):
    store = make_store(tmp_path)
    store.append(payload(RECORDS + 1), game_start=True)  # a game start: the newest counter save
    whole = read_log(str(tmp_path)).counters
    assert whole["games"] == 5
    newest = "count.a" if store.counters.generation & 1 == 0 else "count.b"
    os.remove(os.path.join(tmp_path, newest))  # the other copy is one save behind
    assert read_log(str(tmp_path)).counters == whole
