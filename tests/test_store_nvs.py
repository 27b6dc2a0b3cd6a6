"""The bowl's tip and id kept in NVS (bobing/store/tipkeep.py), on CPython.

The store runs unchanged over an ordinary directory, with the virtual
boards' NVS partition (sim/nvs.py) in memory or in a file.  What a user
would notice if it broke: after the flash's filesystem falls back to an
older state, a throw that was shown is gone without a word and its record
number given to a new throw (the host then holds two different records
under one number), or the bowl comes back as a new bowl and the host
counts its records twice.
"""

import shutil

from sim.nvs import Partition

from bobing.store.store import Store


def boot(root, partition):
    store = Store(str(root), partition.open if partition is not None else None)
    recovery = store.recover()
    store.replay(recovery, lambda seq, payload, game_start: None)
    return store, recovery


def played(root, partition, records):
    store = boot(root, partition)[0]
    for seq in range(1, records + 1):
        store.append(b"throw %d" % seq, game_start=seq == 1)
    return store


def test_a_first_power_up_keeps_the_id_and_tip_in_nvs_without_a_word(tmp_path):
    partition = Partition()
    store, recovery = boot(tmp_path / "data", partition)
    assert recovery.issues == []
    store.append(b"x", game_start=True)
    assert partition.spaces["bobing"] == {"id": store.bowl_id.encode(), "tip": 1}


def test_the_newest_record_rolled_back_is_a_reported_loss_and_its_number_never_used_again(tmp_path):
    partition = Partition()
    root = tmp_path / "data"
    store = played(root, partition, 9)
    older = tmp_path / "older"
    shutil.copytree(root, older)
    shutil.copytree(str(root) + ".keep", str(older) + ".keep")
    store.append(b"throw 10")  # shown: NVS has 10, the filesystem falls back to 9
    shutil.rmtree(root)
    shutil.move(older, root)
    store, recovery = boot(root, partition)
    assert "record 10 lost (the tip kept in NVS)" in recovery.issues, recovery.issues
    assert recovery.tip == 10 and store.append(b"note") == 11


def test_a_store_gone_with_the_copy_beside_it_keeps_the_id_from_nvs(tmp_path):
    # the filesystem's root fell back to before the store existed
    partition = Partition()
    root = tmp_path / "data"
    old = played(root, partition, 300).bowl_id
    shutil.rmtree(root)
    shutil.rmtree(str(root) + ".keep")
    store, recovery = boot(root, partition)
    assert store.bowl_id == old
    assert "store lost: records 1-300 lost (the tip kept in NVS)" in recovery.issues, recovery.issues
    assert recovery.tip == 300


def test_nvs_lost_alone_loses_nothing_and_is_said_once(tmp_path):
    partition = Partition()
    root = tmp_path / "data"
    old = played(root, partition, 20).bowl_id
    partition.spaces.clear()
    store, recovery = boot(root, partition)
    assert store.bowl_id == old and recovery.tip == 20
    assert recovery.issues == ["tip kept in NVS missing: kept again from here"]
    assert partition.spaces["bobing"]["tip"] == 20
    assert boot(root, partition)[1].issues == []


def test_an_nvs_that_cannot_be_opened_leaves_the_store_as_it_was(tmp_path):
    def broken(namespace):
        raise OSError(5, "EIO")

    root = tmp_path / "data"
    played(root, None, 20)
    store = Store(str(root), broken)
    recovery = store.recover()
    store.replay(recovery, lambda *record: None)
    assert recovery.tip == 20 and store.append(b"x") == 21
    assert any(line.startswith("NVS cannot be opened") for line in recovery.issues), recovery.issues


def test_the_partition_file_keeps_whole_entries_and_drops_a_damaged_one(tmp_path):
    image = str(tmp_path / "flash.img")
    partition = Partition.beside(image)
    nvs = partition.open("bobing")
    nvs.set_blob("id", b"0123456789abcdef")
    nvs.set_i32("tip", 77)
    nvs.commit()
    partition.file.close()
    again = Partition.beside(image).open("bobing")
    assert again.get_i32("tip") == 77 and again.partition.spaces["bobing"]["id"] == b"0123456789abcdef"
    again.partition.file.close()
    data = bytearray(open(image + ".nvs", "rb").read())
    data[-8] ^= 1  # a bit of the tip's entry
    open(image + ".nvs", "wb").write(data)
    damaged = Partition.beside(image)
    assert damaged.spaces["bobing"] == {"id": b"0123456789abcdef"}
    damaged.file.close()
