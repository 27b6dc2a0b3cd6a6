"""The bowl's whole storage flow behind one object.

    store = Store("/data")              # a directory on the LittleFS flash
    boot = store.recover()              # once at power-up
    game = Game.from_snapshot(boot.state) ... then game.apply(p) for p in boot.tail
    seq = store.append(payload)         # durable on return: only then show the throw
    store.save_snapshot(game.snapshot())    # every SNAPSHOT_EVERY records and at game end
    store.acknowledge(ack_bytes)        # the host's ack after a verified sync
    store.free_space_warning()          # None, or one line for the screen

docs/storage.md explains the formats and why this order survives power cuts.
"""

from bobing.store import record as rec
from bobing.store.counters import Counters
from bobing.store.log import RESERVE_BLOCKS, Log, free_blocks, read_file, remove
from bobing.store.snapshot import Snapshots
from bobing.store.verify import Verifier

SNAPSHOT_EVERY = 32  # records between snapshots: bounds what boot reads and replays


class Recovery:
    """What recover() found.

    state: the newest intact snapshot's bytes, or None (none yet)
    state_seq: the sequence number that snapshot includes (0: none)
    tail: [(seq, payload, game_start)] of every intact record after it, in order
    seq: the last durable record: the throw the bowl shows again after a power cut
    issues: one line per damaged or suspicious thing found (empty: all clean)
    power_cut: True if the bowl went down with work not covered by a snapshot
    counters: {"games", "throws", "recoveries"} over the bowl's whole life
    """

    def __init__(self):
        self.state = None
        self.state_seq = 0
        self.tail = []
        self.seq = 0
        self.issues = []
        self.power_cut = False
        self.counters = {}


class Store:
    def __init__(self, root):
        self.root = root
        self.log = Log(root)
        self.snapshots = Snapshots(root)
        self.counters = Counters(root)

    @property
    def seq(self):
        """Sequence number of the last durable record (0: empty log)."""
        return self.log.tip

    def recover(self):
        """Boot: drop stale temp files, load the newest snapshot and the records
        after it, bump the counters, apply a dropped-in `ack` file.  Reads the
        newest one or two segments and the slots, whatever the history length."""
        boot = Recovery()
        issues = boot.issues
        self.log.create_dirs()
        stale = self.log.remove_temp()
        stale = self.snapshots.remove_temp() or stale
        self.snapshots.load(issues)
        self.counters.load(issues)
        self.log.hint = (self.counters.prev_segment, self.counters.newest_segment)
        newest = self.snapshots.newest
        if newest is not None:
            boot.state_seq, _, boot.state = newest
        tail = boot.tail

        def keep(seq, data, start, end, game_start):
            tail.append((seq, bytes(data[start:end]), game_start))

        verifier = Verifier()
        self.log.scan(verifier, boot.state_seq + 1, keep)
        issues.extend(verifier.issues)
        log = self.log
        if newest is not None and newest[0] > log.tip:
            issues.append("log ends at record %d, before the snapshot of record %d" % (log.tip, newest[0]))
            log.tip, log.chain = newest[0], newest[1]
        if self.counters.seq > log.tip:
            log.tip, log.chain = self.counters.seq, rec.reanchor(self.counters.seq)
        counters = self.counters
        for seq, _, game_start in tail:
            if game_start and seq > counters.seq:
                counters.games += 1
        boot.power_cut = stale or bool(tail) or bool(issues)
        if boot.power_cut:
            counters.recoveries += 1
        if boot.power_cut or counters.seq != log.tip:
            counters.seq = log.tip
            counters.save()
        ack = read_file(self.root + "/ack")
        if ack is not None:
            try:
                self.acknowledge(ack)
            except ValueError as e:
                issues.append(str(e))
            remove(self.root + "/ack")
        boot.seq = log.tip
        boot.counters = self.lifetime()
        return boot

    def append(self, payload, game_start=False):
        """Log one record (an event batch; game_start for a game's header) and
        return its sequence number once it is on flash.  StoreFull if there
        is no room: nothing is written, so the throw must not be shown."""
        sealed_before = self.log.last_end
        seq = self.log.append(payload, game_start)
        sealed = self.log.last_end != sealed_before
        if sealed:
            # where boot finds the newest segments without listing seg/
            newest = self.log.segments[-2:]
            self.counters.prev_segment = newest[0] if len(newest) == 2 else 0
            self.counters.newest_segment = newest[-1]
        if game_start:
            self.counters.games += 1
            self.counters.seq = seq
        if game_start or sealed:
            self.counters.save()
        return seq

    def save_snapshot(self, state):
        """Save the game state as of the last appended record (temp + rename)."""
        self.snapshots.save(self.log.tip, self.log.chain, state)

    def acknowledge(self, data):
        """Apply the host's ack (record.ack bytes): delete the segments it covers.
        Returns how many were deleted; ValueError if it is damaged or does not
        match this log's chain (then nothing is deleted)."""
        parsed = rec.parse_ack(data)
        if parsed is None:
            raise ValueError("acknowledgement damaged: ignored")
        deleted = self.log.release(parsed[0], parsed[1], self.snapshots.keep_after())
        if deleted < 0:
            raise ValueError("acknowledgement of record %d does not match this log: ignored" % parsed[0])
        if parsed[0] > self.counters.acked:
            self.counters.acked = parsed[0]
            self.counters.save()
        return deleted

    def lifetime(self):
        """{"games", "throws", "recoveries"} since the flash was erased."""
        c = self.counters
        return {"games": c.games, "throws": self.log.tip - c.games, "recoveries": c.recoveries}

    def audit_code(self):
        """8 hex digits of the chain value at the last record, for the screen: a
        witness who notes it can later prove the log was not rewritten."""
        return "".join("%02x" % b for b in self.log.chain[:4])

    def free_space_warning(self):
        """None, or one line for the screen when unsynced logs fill the flash."""
        free, total, size = free_blocks(self.root)
        if free >= max(4 * RESERVE_BLOCKS, total // 8):
            return None
        unsynced = len(self.log.all_segments())
        if free < RESERVE_BLOCKS + 1:
            return "Flash full (%d log files unsynced): sync with the host to play on" % unsynced
        return "Flash nearly full: %d KB free, %d log files unsynced: sync soon" % (
            free * size // 1024,
            unsynced,
        )
