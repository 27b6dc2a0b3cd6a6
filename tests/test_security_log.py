"""The keyed log (docs/security.md, docs/storage.md "Hash chain"): the host
tells a bowl's authentic log from one rewritten without its key.

Each bowl is the firmware's own Session and Store over a folder (as the
festival simulation plays), keyed as `bobing key` leaves a bowl (the key
file beside the store, the chain moved to the key at the next boot), and
synced through the sync core and `bobing report` as a festival's host does.
What an organiser would notice if it broke: a forged log reported as
authentic, or an honest bowl reported as forged after a re-key or an update.
"""

import hashlib
import hmac
import json
import os

from bobing import keyed
from bobing.dice import SeededBytes
from bobing.hmacsha import hmac_sha256
from bobing.rules import Rules
from bobing.session import Session
from bobing.store import record as rec
from bobing.store.store import Store
from host_tools.cli import main
from host_tools.festival import play_day
from host_tools.sync import db
from host_tools.sync.keystore import KeyStore
from host_tools.sync.logread import read_log
from host_tools.sync.syncer import DirSource, sync

BOWL = "00000000b0b1ae55"


def new_bowl(tmp_path, name="bowl"):
    root = str(tmp_path / name / "data")
    os.makedirs(root)
    Store(root).recover()
    with open(os.path.join(root, "id"), "w") as f:
        f.write(BOWL)
    return root


def play(root, throws, seed=1):
    play_day(root, SeededBytes(seed), throws, 4, Rules("xiamen"))


def boot_issues(root):
    session = Session(Store(root), None)
    session.boot()
    return session.issues


def synced(tmp_path, root, keys):
    conn = db.connect(str(tmp_path / "f.db"))
    result = sync(conn, DirSource(root), "2026-09-25", "t", keys=keys)
    conn.close()
    return result


def authenticity(tmp_path, capsys):
    assert main(["report", "--db", str(tmp_path / "f.db"), "--json"]) == 0
    (bowl,) = json.loads(capsys.readouterr().out)["bowls"]
    return bowl["authentic"], bowl["authenticity"]


def test_hmac_is_rfc_2104_as_cpythons():
    for key in (b"", b"k", bytes(range(32)), bytes(range(64)), bytes(range(65)), bytes(200)):
        for parts in ((), (b"bobing sync ",), (b"a" * 63, bytearray(b"b" * 70), memoryview(b"c"))):
            want = hmac.new(key, b"".join(bytes(p) for p in parts), hashlib.sha256).digest()
            assert hmac_sha256(key, *parts) == want


def test_a_keyed_bowls_log_is_authentic_and_its_own_boots_find_nothing_wrong(tmp_path, capsys):
    root = new_bowl(tmp_path)
    keys = KeyStore(str(tmp_path / "f.db"))
    keyed.save(root, keys.make(BOWL, 1), 1, False)
    play(root, 300)
    assert boot_issues(root) == []
    segments = sorted(os.listdir(os.path.join(root, "seg")))
    with open(os.path.join(root, "seg", segments[-1]), "rb") as f:
        assert f.read(4) == rec.KEYED_MAGIC
    result = synced(tmp_path, root, keys)
    assert result.issues == [] and result.acked
    assert authenticity(tmp_path, capsys) == (True, "log authentic")


def test_bobing_log_verify_checks_a_keyed_copy_with_the_keys_beside_the_database(tmp_path, capsys):
    root = new_bowl(tmp_path)
    keys = KeyStore(str(tmp_path / "f.db"))
    keyed.save(root, keys.make(BOWL, 1), 1, False)
    play(root, 200)
    assert main(["log", "verify", root, "--db", str(tmp_path / "f.db")]) == 0
    assert main(["log", "verify", root, "--db", str(tmp_path / "none.db")]) == 1
    assert "not signed with the bowl's key" in capsys.readouterr().out


def forge_plain(root, keys):
    """Rewrite every record of the store in place with a plain SHA-256 chain
    and version 1 headers, as someone with a copy of the flash and no key can."""
    log = read_log(root, keys)
    chain = rec.GENESIS
    frames = {}
    for seq, payload, game_start in log.records:
        buf = bytearray(rec.frame_size(len(payload)))
        rec.frame_into(buf, 0, seq, chain, payload, game_start)
        frames[seq] = bytes(buf)
        chain = rec.chain_next(chain, buf, 0, len(buf))
    chains = {}
    chain = rec.GENESIS
    for seq, _, _ in log.records:
        chains[seq - 1] = chain
        chain = rec.chain_next(chain, frames[seq], 0, len(frames[seq]))
    for first, last in log.segments:
        body = b"".join(frames[s] for s in range(first, last + 1))
        header = bytearray(rec.SEGMENT_HEADER_SIZE)
        rec.segment_header_into(header, first, last, chains[first - 1])
        with open(os.path.join(root, "seg", "%08x" % first), "wb") as f:
            f.write(bytes(header) + body)
    newest = log.segments[-1][1]
    for seq, _, _ in log.records:
        if seq > newest:
            i = seq % 128
            with open(os.path.join(root, "s%d" % (i // 8), str(i % 8)), "wb") as f:
                f.write(frames[seq])


def forged_copy(tmp_path, throws):
    """(store, keys) of a keyed bowl after `throws` presses, its flash then
    rewritten with a plain chain (forge_plain)."""
    root = new_bowl(tmp_path)
    keys = KeyStore(str(tmp_path / "f.db"))
    keyed.save(root, keys.make(BOWL, 1), 1, False)
    play(root, throws)
    forge_plain(root, keys.all(BOWL))
    return root, keys


def test_a_copy_of_the_flash_rewritten_with_a_plain_chain_is_reported_forged(tmp_path, capsys):
    root, keys = forged_copy(tmp_path, 300)
    assert read_log(root).issues == []  # a consistent chain: without the key nothing looks wrong
    result = synced(tmp_path, root, keys)
    assert result.issues and all("not authentic" in line for line in result.issues), result.issues
    authentic, line = authenticity(tmp_path, capsys)
    assert authentic is False and line.startswith("log NOT authentic: "), line


def test_a_forged_copy_with_no_record_pending_is_reported_forged_too(tmp_path, capsys):
    """Every record sealed in segments (none in the slots): the newest segment's
    plain header, not the key pending records would be chained under, decides."""
    root, keys = forged_copy(tmp_path, 256)
    assert read_log(root, keys.all(BOWL)).pending == 0
    result = synced(tmp_path, root, keys)
    assert any("not chained with the bowl's key" in line for line in result.issues), result.issues
    assert authenticity(tmp_path, capsys)[0] is False


def test_a_log_chained_under_another_key_is_reported_forged(tmp_path, capsys):
    root = new_bowl(tmp_path)
    keys = KeyStore(str(tmp_path / "f.db"))
    keys.make(BOWL, 1)
    keyed.save(root, bytes(range(32)), 1, False)  # the right id, another key
    play(root, 200)
    result = synced(tmp_path, root, keys)
    assert any("header not signed with the bowl's key" in line for line in result.issues), result.issues
    assert not result.acked
    assert authenticity(tmp_path, capsys)[0] is False


def test_a_bowl_rekeyed_mid_festival_and_an_old_format_bowl_keyed_later_stay_authentic(tmp_path, capsys):
    root = new_bowl(tmp_path)
    keys = KeyStore(str(tmp_path / "f.db"))
    play(root, 150)  # the old format: plain chain, version 1 segments, records pending
    first = keys.make(BOWL, 1)
    keyed.save(root, first, 1, False)
    play(root, 200, seed=2)  # its boot seals the plain records, then chains under key 1
    assert boot_issues(root) == []
    assert synced(tmp_path, root, keys).issues == []
    keyed.save(root, keys.make(BOWL, 2), 2, False, first)  # `bobing key` again: key 2 waits
    play(root, 100, seed=3)  # the boot seals what key 1 chained, then key 2
    assert boot_issues(root) == []
    result = synced(tmp_path, root, keys)
    assert result.issues == [] and result.acked
    assert authenticity(tmp_path, capsys) == (True, "log authentic")


def test_a_key_file_others_can_read_or_not_a_key_file_is_refused_in_one_line(tmp_path, capsys):
    root = new_bowl(tmp_path)
    keys = KeyStore(str(tmp_path / "f.db"))
    keyed.save(root, keys.make(BOWL, 1), 1, False)
    play(root, 20)
    synced(tmp_path, root, keys)
    os.chmod(keys.path, 0o644)
    assert main(["report", "--db", str(tmp_path / "f.db")]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("readable by others: chmod 600 it (it holds the bowls' keys)")
    )
    with open(keys.path, "w") as f:
        f.write("[1, 2]")
    os.chmod(keys.path, 0o600)
    assert main(["report", "--db", str(tmp_path / "f.db")]) == 2
    assert capsys.readouterr().err.strip().endswith("not a bobing key file")
