"""The bowl's whole storage flow behind one object.

    store = Store("/data", esp32.NVS)   # a directory on the LittleFS flash; the tip kept in NVS too
    boot = store.recover(on_record)     # once at power-up: on_record(seq, payload, game_start)
    seq = store.append(payload)         # durable on return: only then show the throw
    store.maintain()                    # after the result is shown: seal a segment when due
    store.save_snapshot(state)          # every SNAPSHOT_EVERY records and at game end
    store.acknowledge(ack_bytes)        # the host's ack after a verified sync
    store.free_space_warning()          # None, or one line for the screen
    store.bowl_id                       # 16 hex digits naming this bowl to the host

bobing.session drives it exactly so; docs/storage.md explains the formats
and why this order survives power cuts.
"""

import os
import sys

from micropython import const

from bobing.store import bowlid
from bobing.store import record as rec
from bobing.store.counters import Counters
from bobing.store.log import (
    RESERVE_BLOCKS,
    SLOTS,
    Log,
    StoreFull,
    exists,
    free_blocks,
    read_file,
    remove,
)
from bobing.store.snapshot import Snapshots
from bobing.store.tipkeep import KeptTip

SNAPSHOT_EVERY = 32  # records between snapshots: bounds what boot reads and replays
# A log record that is not an event batch: b"\x7e" + UTF-8 text, what a boot
# found damaged (bobing.session writes them, and the app).  Event batches start
# with their format byte (1) and game headers with 0x81, so a note is told
# apart by its first byte; the counters count notes apart, they are no throws.
NOTE = const(0x7E)


def _forget(name):
    """Drop the imported module `name`: its code objects are freed once
    nothing holds them (the chain verifier is needed only at boot, so a bowl
    in play does not keep it; docs/memory.md), and the next import makes
    them again."""
    package, _, leaf = name.rpartition(".")
    del sys.modules[name]
    delattr(sys.modules[package], leaf)


class Recovery:
    """What recover() found.

    state: the newest intact snapshot's bytes, or None (none, or none intact)
    state_seq: the record that snapshot includes (0: none)
    replay_from: the first record on_record was given (state_seq when there
      is a snapshot, so the last throw can be shown again even when it covers it)
    tip: the last durable record: the throw the bowl shows again after a power cut
    issues: one line per damaged or suspicious thing found (empty: all clean)
    power_cut: True if the bowl went down with work not covered by a snapshot
    counters: {"games", "throws", "recoveries"} over the bowl's whole life
    """

    def __init__(self):
        self.state = None
        self.state_seq = 0
        self.replay_from = 1
        self.tip = 0
        self.issues = []
        self.power_cut = False
        self.counters = {}


class Store:
    """root: the store's folder; nvs: esp32.NVS or an emulation's constructor,
    where the tip and id are kept a second time (tipkeep.py), None: nowhere."""

    def __init__(self, root, nvs=None):
        self.root = root
        self.kept = KeptTip(nvs)
        self.log = Log(root)
        self.snapshots = Snapshots(root)
        self.counters = Counters(root)
        self.free = (0, 0, 0)  # free_blocks() as of the last housekeeping
        self.full = False  # the last seal found no room
        self._remade = []  # slot folders recover() had to make again
        self._stale = False  # recover() found a temp file a power cut left
        self.bowl_id = ""  # set by recover(): names this bowl's records in the host's database
        self.key_switched = 0  # the generation of a new key replay() moved the log's chain to, 0: none
        self._key = None  # the key file as recover() read it (keyed.decode), until replay() ends
        self._sealed_beside = -1  # the last sealed record noted beside the store (-1: none for this id)
        self._store_lost = False  # recover() found no store, but the note beside it

    @property
    def seq(self):
        """Sequence number of the last durable record (0: empty log)."""
        return self.log.tip

    def recover(self):
        """Boot, first step: make the folders, drop stale temp files, load the
        snapshots and counters.  Returns the Recovery to rebuild the game
        from (its state) and to hand to replay()."""
        boot = Recovery()
        log = self.log
        counters = self.counters
        self._remade = log.create_dirs()
        self._load_keys()
        self._stale = log.remove_temp()
        self._stale = self.snapshots.remove_temp() or self._stale
        self.snapshots.load(boot.issues, memoryview(log.buf))
        counters.load(boot.issues)
        self.kept.load(boot.issues)
        self._load_bowl_id(boot.issues, log.new_store, counters.generation == 0)
        log.hint = (counters.prev_segment, counters.newest_segment)
        self._start(boot)
        if boot.state is None and counters.game and self.snapshots.damaged:
            boot.issues.append("no intact snapshot: the game is replayed from record %d" % counters.game)
        return boot

    def _load_keys(self):
        """The log's keys from the key file (none: plain SHA-256): the records
        are chained under the key once the file says so, else under the previous."""
        if not exists(self.root.rstrip("/") + ".key"):
            return  # keyed.key_path: a bowl without a key never makes the module's names (never freed)
        from bobing import keyed  # boot only: not kept imported in play

        k = self._key = keyed.load(self.root)
        _forget("bobing.keyed")
        if k is not None:
            key, _, chaining, previous = k
            self.log.key = key if chaining else previous
            self.log.keys = (key,) if previous is None else (key, previous)

    def _take_key(self):
        """A new key (the key file's BBK0): the pending records are sealed
        under the key they are chained with, then the log goes on under the
        new one, so every segment has one key.  A full flash leaves it for a
        later boot."""
        k = self._key
        self._key = None
        if k is None or k[2]:
            return
        from bobing import keyed

        try:
            if self.log.seal():
                self._sealed()
            keyed.save(self.root, k[0], k[1], True, k[3])
        except StoreFull:
            return
        finally:
            _forget("bobing.keyed")
        self.log.key = k[0]
        self.key_switched = k[1]

    def _load_bowl_id(self, issues, new_store, first_boot):
        """The bowl's id from `id`, else from the copy beside the store
        (bowlid.py), else from NVS (tipkeep.py), else a new one from
        os.urandom (a first power-up: a host tells many bowls' records apart
        in one database).  A store missing or rolled back as a whole, whose
        copy beside names a later segment or whose id NVS keeps, is a lost
        store, not a new one: replay() skips its numbers."""
        root = self.root
        own = bowlid.read_id(root)
        beside = bowlid.read_beside(root)
        kept = self.kept
        how = "damaged" if own == "" else "missing"
        if own:
            self.bowl_id = own
        elif beside is not None:
            self.bowl_id = beside[0]
            issues.append("bowl id %s: %s kept from beside the store" % (how, beside[0]))
            bowlid.save_id(root, self.bowl_id, issues)
        elif kept.id is not None:
            self.bowl_id = kept.id
            issues.append("bowl id %s: %s kept in NVS" % (how, kept.id))
            bowlid.save_id(root, self.bowl_id, issues)
        else:
            self.bowl_id = "".join("%02x" % b for b in os.urandom(8))
            if own is not None or not (new_store or first_boot):  # (a first boot cut short)
                issues.append("bowl id %s: new id %s" % ("damaged" if own == "" else "missing", self.bowl_id))
            bowlid.save_id(root, self.bowl_id, issues)
        same = beside is not None and beside[0] == self.bowl_id
        self._sealed_beside = beside[1] if same else -1
        if kept.id is not None and kept.id != self.bowl_id:
            issues.append("NVS kept bowl id %s: this store is %s" % (kept.id, self.bowl_id))
        elif kept.lost and not (new_store or first_boot):
            issues.append("tip kept in NVS missing: kept again from here")
        if kept.id != self.bowl_id:
            kept.tip = -1  # another bowl's, or none
        self._store_lost = (same or kept.tip >= 0) and new_store
        c = self.counters
        if same and not new_store and c.generation == 0 and (beside[1] or beside[2] or beside[3]):
            # both counter copies lost: start where the last seal left them,
            # not at the bowl's first record (a boot bounded at any history)
            c.counted, c.games, c.game = beside[1], beside[2], beside[3]
            issues.append("counter copies lost: counts from record %d, noted beside the store" % c.counted)

    def _start(self, boot):
        """Where replay starts: the newest intact snapshot, else the current
        game's header record, else the first record."""
        newest = self.snapshots.newest
        if newest is not None:
            boot.state_seq, _, boot.state = newest
            boot.replay_from = boot.state_seq
        elif self.counters.game:
            boot.replay_from = self.counters.game

    def replay(self, boot, on_record):
        """Boot, second step: feed on_record(seq, payload bytes, game_start)
        every intact record from boot.replay_from on, settle the tip (never
        below a number already used), count games and recoveries, apply a
        dropped-in `ack` file.  Reads the newest one or two segments and the
        slots through one kept buffer, whatever the history length."""
        issues = boot.issues
        log = self.log
        counters = self.counters
        self._scan(boot, on_record, counters.counted + 1)
        if log.migrated:
            self._seal_now()  # before a new record overwrites a slot read at its old path
        # (before the counters raise the tip: with the store, they may be lost too)
        sealed = self._sealed_beside
        behind = self._store_lost or sealed > log.tip
        kept = self.kept.tip
        if kept > log.tip and kept >= sealed:
            # the newest records' numbers, kept in NVS as each was written:
            # lost with a rollback the filesystem cannot show
            issues.append(
                "%s%s lost (the tip kept in NVS)" % (self._behind_what(behind), _numbers(log.tip + 1, kept))
            )
            self._skip_to(kept)
        elif behind:
            # the store was lost or rolled back as a whole: up to two segments'
            # worth after the last seal noted beside it may have been written
            last = sealed + 2 * SLOTS
            issues.append("%srecords %d-%d may be lost" % (self._behind_what(behind), log.tip + 1, last))
            self._skip_to(last)
        if behind or sealed < 0:
            self._note_beside()
        newest = self.snapshots.newest
        if newest is not None and newest[0] > log.tip:
            issues.append("log ends at record %d, before the snapshot of record %d" % (log.tip, newest[0]))
            self._skip_to(newest[0], newest[1])
        if counters.counted > log.tip:
            issues.append("records %d-%d missing" % (log.tip + 1, counters.counted))
            self._skip_to(counters.counted)
        if self._remade:
            names = " ".join("s%d" % d for d in self._remade)
            issues.append("folders missing, made again: %s" % names)
            if log.slot_folder(log.tip + 1) in self._remade:
                # the next record was due in one: it may have been written and
                # lost with it (the one after it is in another folder), so its
                # number is never used again
                issues.append("record %d may be lost" % (log.tip + 1))
                self._skip_to(log.tip + 1)
        self.kept.save(log.tip, self.bowl_id)
        boot.power_cut = self._stale or log.tip > boot.state_seq or bool(issues)
        if boot.power_cut:
            counters.recoveries += 1
        if boot.power_cut or counters.counted != log.tip:
            counters.counted = log.tip
            counters.save()
        self._apply_ack_file(issues)
        self._take_key()
        self.free = free_blocks(self.root)
        boot.tip = log.tip
        boot.counters = self.lifetime()

    def _behind_what(self, behind):
        if not behind:
            return ""
        return "store lost: " if self._store_lost else "store rolled back: "

    def _seal_now(self):
        """Seal the pending records at boot; False if the flash has no room."""
        try:
            if self.log.seal():
                self._sealed()
            return True
        except StoreFull:
            return False

    def _skip_to(self, seq, chain=None):
        """Go on after record seq (default chain: re-anchored there), its
        number and those before it never used again.  What is pending is
        sealed first, so the next segment starts after seq: no segment ever
        claims the records skipped."""
        log = self.log
        chain = chain or rec.reanchor(seq)
        if self._seal_now():
            log.last_end = seq
            log.pending_chain = chain
        log.tip, log.chain = seq, chain

    def reload(self):
        """A Recovery from the newest snapshot kept in RAM, for rescan()."""
        boot = Recovery()
        self._start(boot)
        boot.tip = self.log.tip
        return boot

    def rescan(self, boot, on_record):
        """Feed the records from boot.replay_from on again, as replay() does,
        writing nothing: undoes a change to the game whose record was refused."""
        self._scan(boot, on_record, None)

    def _scan(self, boot, on_record, count_from):
        """Read the log from min(replay_from, count_from); count the game
        starts from count_from on (None: count nothing)."""
        counters = self.counters
        found = [0, 0]  # game starts, notes

        def record(seq, data, start, end, game_start):
            if count_from is not None and seq >= count_from:
                if game_start:
                    found[0] += 1
                    counters.game = max(counters.game, seq)
                elif end > start and data[start] == NOTE:
                    found[1] += 1
            if seq >= boot.replay_from:
                on_record(seq, bytes(data[start:end]), game_start)

        from bobing.store import verify  # boot and a rare rescan: not kept imported in play

        verifier = verify.Verifier(keys=self.log.keys)
        self.log.scan(verifier, min(boot.replay_from, count_from or boot.replay_from), record)
        boot.issues.extend(verifier.issues)
        counters.games += found[0]
        counters.notes += found[1]
        _forget("bobing.store.verify")

    def _apply_ack_file(self, issues):
        path = self.root + "/ack"
        if not exists(path):
            return
        data = read_file(path)
        try:
            self.acknowledge(data or b"")
        except ValueError as e:
            issues.append(str(e))
        remove(path)
        if exists(path):
            issues.append("ack: cannot be removed (a folder?)")

    def append(self, payload, game_start=False):
        """Log one record (an event batch; game_start for a game's header) and
        return its sequence number once it is on flash.  StoreFull if there
        is no room: nothing is written, so the throw must not be shown."""
        log = self.log
        if log.needs_seal() and self.full:
            raise StoreFull()
        sealed_before = log.last_end
        seq = log.append(payload, game_start)
        self.kept.save(seq)
        if not game_start and payload and payload[0] == NOTE:
            self.counters.notes += 1  # saved with the next save; a boot counts it again after `counted`
        if log.last_end != sealed_before:
            self._sealed()
        if game_start:
            self.counters.games += 1
            self.counters.game = seq
            self.counters.counted = seq
            self.counters.save()
        return seq

    def room(self):
        """False when the next append would be refused (StoreFull): check
        before changing the game, so a refused throw changes nothing."""
        return not (self.log.needs_seal() and self.full)

    def maintain(self):
        """Housekeeping, after the result is shown: seal the pending records
        into a segment when due.  True if it did something."""
        self.log.hash_pending()
        try:
            if not self.log.needs_seal() or not self.log.seal():
                return False
        except StoreFull:
            self.full = True
            return False
        self._sealed()
        return True

    def _sealed(self):
        """After a seal: where boot finds the newest segments without listing seg/."""
        newest = self.log.segments[-2:]
        c = self.counters
        c.prev_segment = newest[0] if len(newest) == 2 else 0
        c.newest_segment = newest[-1]
        c.counted = self.log.last_end
        c.save()
        self._note_beside()
        self.free = free_blocks(self.root)

    def _note_beside(self):
        c = self.counters
        bowlid.save_beside(self.root, self.bowl_id, self.log.last_end, c.games, c.game)

    def save_snapshot(self, state):
        """Save the game state as of the last appended record (temp + rename)."""
        self.snapshots.save(self.log.tip, self.log.chain, state)

    def acknowledge(self, data):
        """Apply the host's ack (record.ack bytes): delete the segments it covers.
        Returns how many were deleted; ValueError if it is damaged or does not
        match this log's chain (then nothing is deleted).  The acknowledged
        point is saved before anything is deleted, so a power cut in between
        leaves deletions the counters explain."""
        parsed = rec.parse_ack(data)
        if parsed is None:
            raise ValueError("acknowledgement damaged: ignored")
        last, chain = parsed
        c = self.counters
        if last > c.acked:
            if self.log.acked_segment(last, chain) < 0:
                raise ValueError("acknowledgement of record %d does not match this log: ignored" % last)
            c.acked = last
            c.save()
        keep_after = min(self.snapshots.keep_after(), c.game - 1 if c.game else c.acked)
        deleted = self.log.release(min(last, keep_after))
        if deleted:
            self.free = free_blocks(self.root)
            self.full = False
        return deleted

    def lifetime(self):
        """{"games", "throws", "recoveries"} since the flash was erased:
        every record number is a throw but the game headers and the notes."""
        c = self.counters
        return {"games": c.games, "throws": self.log.tip - c.games - c.notes, "recoveries": c.recoveries}

    def audit_code(self):
        """8 hex digits of the chain value at the last record, for the screen: a
        witness who notes it can later prove the log was not rewritten."""
        return "".join("%02x" % b for b in self.log.chain[:4])

    def free_space_warning(self):
        """None, or one line for the screen when unsynced logs fill the flash.
        Costs nothing: the free space is measured after housekeeping."""
        free, total, size = self.free
        if free >= max(4 * RESERVE_BLOCKS, total // 8) and not self.full:
            return None
        unsynced = self.log.tip - self.counters.acked
        if self.full or free < RESERVE_BLOCKS + 1:
            return "Flash full (%d records unsynced): sync with the host to play on" % unsynced
        return "Flash nearly full: %d KB free, %d records unsynced: sync soon" % (
            free * size // 1024,
            unsynced,
        )


def _numbers(first, last):
    return "record %d" % last if first == last else "records %d-%d" % (first, last)
