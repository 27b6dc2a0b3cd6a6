"""Sync one bowl's log into the database: what to fetch, verify, commit, acknowledge.

Transport-independent: a *source* is the bowl's store folder seen through
four calls (host_tools/sync/transport.py over serial, DirSource over a folder):

    source.bowl_id()            16 lowercase hex digits (the store's `id` file)
    source.listing()            {path: (size, file_sum)} of every file under the
                                store root, paths relative ("seg/00000081", "s3/5");
                                folders as "seg/" with (-1, 0)
    source.fetch(paths)         {path: bytes}, each checked against its listed sum
    source.acknowledge(data)    write the store's `ack` (atomically)

sync() fetches only files whose size or CRC differ from the copy the
database keeps (segments never change once sealed; slot files are the
pending records), lays the store out in a temporary folder, verifies it
with the firmware's own reader (host_tools/sync/logread.py: CRCs, the hash
chain, the counters), checks that records the database already holds are
unchanged, commits the new records in one transaction, and only then
writes the acknowledgement that lets the bowl delete synced segments.
Interrupted anywhere, the database holds either none of this sync's
records or all of them (the files fetched so far are kept, as a cache, so
the next sync fetches only the rest); run again, it ends with exactly the
bowl's records.
"""

import hashlib
import os
import tempfile

from bobing.store import record as rec
from bobing.store.counters import MAGIC as COUNTERS_MAGIC
from bobing.store.counters import NAMES as COUNTER_NAMES
from bobing.store.counters import SIZES as COUNTER_SIZES
from bobing.store.counters import Counters
from host_tools.sync import db
from host_tools.sync.logread import ack_bytes, read_log

# Files a sync does not take: the bowl id, a pending ack, temp files.
_SKIPPED = ("id", "ack", "ack.tmp", "seg/new", "snap.tmp")
# The store's folders: a file in one's place is no store file (the bowl removes it at boot).
_FOLDERS = ["seg"] + ["s%d" % d for d in range(16)]


class SyncError(Exception):
    """Bad input or a broken link: one line for the user; nothing was committed."""


class UnsupportedFormat(SyncError):
    """The bowl's log is of a format this host does not read."""


class Result:
    """What one sync did: records added (first..last), the bowl's tip,
    new issue lines, the acknowledged point (0: none written), and why not."""

    def __init__(self, bowl):
        self.bowl = bowl
        self.added = 0
        self.first = None
        self.last = None
        self.tip = 0
        self.issues = []
        self.acked = 0
        self.not_acked = None
        self.contradicted = False  # the bowl's log contradicts the database: no ack, ever, until resolved
        self.fetched_files = 0
        self.fetched_bytes = 0


def file_sum(data):
    """The checksum the listing gives for a file's bytes: the first 4 bytes
    of its SHA-256, little-endian.  Not a CRC-32: a file that ends with the
    CRC of its own bytes (counters, snapshots) always has CRC-32's fixed
    residue, whatever it holds, and every change to it would go unseen."""
    return int.from_bytes(hashlib.sha256(data).digest()[:4], "little")


def printable(text):
    """text with every control character (a terminal's escape codes) as '?':
    what came from a bowl never reaches the user's terminal as it came."""
    return "".join(c if c.isprintable() else "?" for c in text)


def valid_id(text):
    return len(text) == 16 and all(c in "0123456789abcdef" for c in text)


class DirSource:
    """A store folder on this machine: a copy of the bowl's /data, the
    folder the festival simulation's bowls write, or an image's extract."""

    def __init__(self, root, name=None):
        self.root = root
        self.name = name or root

    def bowl_id(self):
        try:
            with open(os.path.join(self.root, "id")) as f:
                return f.read().strip()
        except (OSError, UnicodeDecodeError):
            return None

    def listing(self):
        out = {}
        for folder, dirs, names in os.walk(self.root):
            rel = os.path.relpath(folder, self.root)
            prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
            for d in dirs:
                out[prefix + d + "/"] = (-1, 0)
            for n in names:
                with open(os.path.join(folder, n), "rb") as f:
                    data = f.read()
                out[prefix + n] = (len(data), file_sum(data))
        return out

    def fetch(self, paths):
        out = {}
        for p in paths:
            with open(os.path.join(self.root, p), "rb") as f:
                out[p] = f.read()
        return out

    def acknowledge(self, data):
        temp = os.path.join(self.root, "ack.tmp")
        with open(temp, "wb") as f:
            f.write(data)
        os.replace(temp, os.path.join(self.root, "ack"))


FETCH_BYTES = 4096  # file bytes per fetch: progress is kept between batches, so a link that drops every few KB still gets through


def _batches(paths, listing):
    """paths in groups of about FETCH_BYTES bytes (by the listing's sizes)."""
    batch = []
    size = 0
    for path in paths:
        batch.append(path)
        size += listing[path][0]
        if size >= FETCH_BYTES:
            yield batch
            batch = []
            size = 0
    if batch:
        yield batch


def _store_files(listing):
    """The listed files that make up the log (not folders, not temp files)."""
    return {
        p: v for p, v in listing.items() if not p.endswith("/") and p not in _SKIPPED and p not in _FOLDERS
    }


def _check_format(files):
    """UnsupportedFormat if a segment or counter copy is of another version."""
    for path, data in files.items():
        if (
            path.startswith("seg/")
            and data[:3] == rec.SEGMENT_MAGIC[:3]
            and data[:4] not in (rec.SEGMENT_MAGIC, rec.KEYED_MAGIC)
        ):
            raise UnsupportedFormat(
                "the bowl's log is format %s, this host reads %s and %s: update bobing (or the bowl)"
                % (data[:4].decode("ascii", "replace"), rec.SEGMENT_MAGIC.decode(), rec.KEYED_MAGIC.decode())
            )
        if path in COUNTER_NAMES and data[:3] == COUNTERS_MAGIC[:3] and data[:4] not in COUNTER_SIZES:
            raise UnsupportedFormat(
                "the bowl's counters are format %s, this host reads %s: update bobing (or the bowl)"
                % (data[:4].decode("ascii", "replace"), " and ".join(m.decode() for m in COUNTER_SIZES))
            )


def _lay_out(folder, files):
    """Write the store files {path: bytes} under folder as the bowl has them."""
    for sub in _FOLDERS:
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    for path, data in files.items():
        target = os.path.join(folder, *path.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)


def _chain_through(chain, tip, records, final):
    """(new tip, chain there or None): the records after `tip` continue from
    chain(tip) (None: unknown) without a gap, and `final` is the verified
    chain after the last of them (the reader's: keyed or not)."""
    new = [seq for seq, _, _ in records if seq > tip]
    if not new:
        return tip, chain
    continuous = chain is not None and new == list(range(tip + 1, new[-1] + 1))
    return new[-1], final if continuous else None


def _continuity(conn, bowl, state, report, files):
    """Issues where what the bowl holds now contradicts what was synced before."""
    issues = []
    records = report.records
    if not records or state.tip == 0:
        return issues
    first = records[0][0]
    held = db.held_payloads(conn, bowl, first, state.tip)
    for seq, payload, game_start in records:
        if seq > state.tip:
            break
        if seq in held and held[seq] != (payload, 1 if game_start else 0):
            issues.append("record %d differs from the copy synced before: the bowl's log was rewritten" % seq)
    if first > state.tip + 1:
        issues.append(
            "records %d-%d are not on the bowl any more and were never synced here"
            " (acknowledged to another database?)" % (state.tip + 1, first - 1)
        )
    header = files.get("seg/%08x" % (state.tip + 1))
    parsed = rec.parse_segment_header(header) if header else None
    if parsed and state.chain is not None and parsed[2] != state.chain:
        issues.append(
            "segment %08x does not continue the chain synced before: the bowl's log was rewritten"
            % (state.tip + 1)
        )
    return issues


def sync(conn, source, day, at, accept_damage=False, acknowledge=True, keys=None):
    """Bring the database up to date with the bowl behind `source`.

    day: the local date (YYYY-MM-DD) new records are filed under; at: the
    time stamp of this sync.  Writes the ack (when `acknowledge`) only after
    the commit.  keys: the host's keystore.KeyStore (None: none), whose keys
    of this bowl the chain is verified with; a bowl it holds keys for must
    have its newest records chained under one (docs/security.md).  Returns
    a Result; SyncError on bad input (nothing changed)."""
    bowl = source.bowl_id()
    if bowl is None:
        raise SyncError(
            "%s: no bowl id (%s/id): not a bowl's store, or firmware too old" % (source.name, "store")
        )
    if not valid_id(bowl):
        raise SyncError("%s: bowl id %r is not 16 lowercase hex digits" % (source.name, bowl[:40]))
    result = Result(bowl)
    listing = source.listing()
    if "seg/" not in listing:
        raise SyncError("%s: not a bowl's store (no seg/ folder)" % source.name)
    state = db.bowl_state(conn, bowl)
    wanted = _store_files(listing)
    fetch = sorted(p for p, v in wanted.items() if state.files.get(p) != v)
    fetched = {}
    for batch in _batches(fetch, wanted):
        got = source.fetch(batch)
        # kept at once: a cut link costs the next sync only what is left
        with db.transaction(conn):
            db.cache_files(conn, bowl, wanted, got)
        fetched.update(got)
    result.fetched_files = len(fetched)
    result.fetched_bytes = sum(len(d) for d in fetched.values())
    files = {}
    for path in wanted:
        data = fetched.get(path)
        files[path] = data if data is not None else db.cached_file(conn, bowl, path)
    _check_format(files)
    with tempfile.TemporaryDirectory(prefix="bobing-sync-") as folder:
        _lay_out(folder, files)
        bowl_keys = keys.all(bowl) if keys is not None else []
        report = read_log(folder, bowl_keys)
        counters = Counters(folder)
        counters.load([])
    issues = [("host", line) for line in report.issues]
    if bowl_keys and report.records and not report.last_keyed:
        issues.append(
            ("host", "record %d: not authentic: not chained with the bowl's key" % report.records[-1][0])
        )
    rewritten = _continuity(conn, bowl, state, report, files)
    issues += [("host", line) for line in rewritten]
    with db.transaction(conn):
        added, game, found = db.add_records(conn, bowl, day, state.game, report.records)
        issues += found
        result.issues = db.add_issues(conn, bowl, day, issues)
        tip, chain = _chain_through(
            state.chain if state.tip else rec.GENESIS, state.tip, report.records, report.chain
        )
        db.forget_files(conn, bowl, wanted)
        db.save_bowl(conn, bowl, at, tip, chain, game, report.counters)
        new = [seq for seq, _, _ in report.records if seq > state.tip]
        conn.execute(
            "INSERT INTO syncs VALUES (?,?,?,?,?,?,?)",
            (bowl, at, source.name, new[0] if new else None, new[-1] if new else None, added, counters.acked),
        )
    result.added = added
    result.first = new[0] if new else None
    result.last = new[-1] if new else None
    result.tip = tip
    data = ack_bytes(report, accept_damage)
    if not acknowledge:
        result.not_acked = "not asked to"
    elif rewritten:
        result.not_acked = "the bowl's log contradicts what was synced before"
        result.contradicted = True
    elif data is None:
        result.not_acked = (
            "damage before the newest segment end: see the issues, or --accept-damage"
            if report.ackable_if_damaged is not None
            else "no complete segment yet"
        )
    else:
        last = rec.parse_ack(data)[0]
        if last > counters.acked:
            source.acknowledge(data)
        result.acked = last
    return result
