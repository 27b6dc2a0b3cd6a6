"""Follow the hash chain through segments and slot records; describe every fault.

The same code checks the bowl's log at boot (the newest segment and the
pending slots only) and the host's copy of the whole log (host_tools/sync/logread.py).

Keyed logs (docs/storage.md, "Hash chain"): a version 2 segment's records
are chained under the key that signed its header, found among `keys`; the
pending slot records under `key`, which the caller sets (the bowl: its
chain key).  With `trial` (the host, which cannot know which key the bowl
chained its pending records with after a re-key) a link that fails is
tried under the other keys and plain SHA-256 before it counts as broken.
Records chained without a key after keyed ones are reported as forged.
"""

from bobing.store import record as rec


class Verifier:
    """Checks records fed in sequence order.

    `chain` is chain(last fed seq), or None while it cannot be known: after a
    damaged or missing record, until a segment header or a re-anchored
    record gives a full value again.  `issues` collects one line per fault.
    """

    def __init__(self, chain=rec.GENESIS, next_seq=1, keys=()):
        self.chain = chain
        self.next_seq = next_seq
        self.keys = keys  # every key a segment header may be signed with, newest first
        self.key = None  # the key chaining the records fed now, None: plain SHA-256
        self.trial = False
        self.keyed = 0  # records whose link was verified under a key
        self._before = None  # (chain before the last record fed, its data, pos, end), with trial
        self.issues = []
        self.damaged = 0  # records known to be lost or unreadable
        self.unverified = 0  # intact records whose chain link could not be checked
        self.records = 0  # intact records fed

    def lost(self, first, last, where):
        """Records first..last are damaged or missing."""
        if last < first:
            return
        what = "record %d" % first if first == last else "records %d-%d" % (first, last)
        self.issues.append("%s damaged or missing (%s)" % (what, where))
        self.damaged += last - first + 1
        self.chain = None
        self.next_seq = last + 1

    def anchor(self, first_seq, chain, where):
        """A full chain value for chain(first_seq - 1), from a segment header."""
        if first_seq > self.next_seq:
            self.lost(self.next_seq, first_seq - 1, where)
        if self.chain is not None and first_seq == self.next_seq and self.chain != chain:
            if chain == rec.reanchor(first_seq - 1):
                self.issues.append("%s: chain re-anchored; records before it are not linked to it" % where)
            else:
                self.issues.append(
                    "%s: does not continue the chain: records before it were edited or removed" % where
                )
        self.chain = chain
        self.next_seq = first_seq

    def feed(self, seq, data, pos, end, payload_start, where):
        """One intact record (CRC verified) data[pos:end]; False if out of order."""
        if seq < self.next_seq:
            self.issues.append(
                "record %d (%s) repeats or goes back before %d: skipped" % (seq, where, self.next_seq)
            )
            return False
        if seq > self.next_seq:
            self.lost(self.next_seq, seq - 1, where)
        link = rec.link_of(data, pos, payload_start)
        chain = self.chain
        if chain is not None and link != chain[: rec.LINK_SIZE] and self.trial:
            chain = self._try_keys(link, seq, where)
        if chain is not None and link != chain[: rec.LINK_SIZE]:
            chain = None
            if link != rec.reanchor(seq - 1)[: rec.LINK_SIZE]:
                self.issues.append(
                    "record %d (%s): chain link broken: a record before it was edited or removed"
                    % (seq, where)
                )
        if chain is None:
            if link == rec.reanchor(seq - 1)[: rec.LINK_SIZE]:
                self.issues.append(
                    "record %d (%s): chain re-anchored; records before it are not linked to it" % (seq, where)
                )
                chain = rec.reanchor(seq - 1)
            else:
                self.unverified += 1
        elif self.key is not None:
            self.keyed += 1
        if self.trial:
            self._before = (chain, data, pos, end)
        self.chain = None if chain is None else rec.chain_next(chain, data, pos, end, self.key)
        self.next_seq = seq + 1
        self.records += 1
        return True

    def _try_keys(self, link, seq, where):
        """chain(seq - 1) under the key (or none) that makes `link` hold, and
        that key taken for what follows; self.chain if none does."""
        before = self._before
        if before is None or before[0] is None:
            return self.chain
        for key in self.keys + (None,):
            if key is not self.key:
                chain = rec.chain_next(before[0], before[1], before[2], before[3], key)
                if link == chain[: rec.LINK_SIZE]:
                    self._unkeyed(key, "record %d (%s)" % (seq - 1, where))
                    self.key = key
                    return chain
        return self.chain

    def _unkeyed(self, key, what):
        if key is None and self.keyed:
            self.issues.append("%s: not authentic: chained without the key after keyed records" % what)

    def segment(self, data, name_seq, where, on_record):
        """Check one segment file's bytes; on_record(seq, data, payload_start, end,
        game_start) for each intact record in order.  Returns the segment's
        last sequence number (from its header, else the last intact record)."""
        header = rec.parse_segment_header(data, self.keys)
        if header is not None and not name_seq - 1 <= header[1] < name_seq + len(data) // rec.FRAMING:
            header = None  # a last record the segment's bytes cannot hold
        unsigned = header is None and rec.is_keyed(data)
        if unsigned:
            self.issues.append(
                "%s: not authentic: header not signed with the bowl's key (or damaged)" % where
            )
        near = self.next_seq  # where the records' full sequence numbers are looked for
        if header is None or header[0] != name_seq:
            # Only an intact record in it says which records are lost before
            # it: a stray file's name (seg/7ffffff0) must not move the log.
            if not unsigned:
                self.issues.append("%s: header damaged" % where)
            last = self.next_seq - 1
            near = max(near, name_seq)
            self.chain = None
        else:
            last = header[1]
            self._unkeyed(header[3], where)
            self.key = header[3]
            self.anchor(name_seq, header[2], where)
            near = self.next_seq
        pos = rec.SEGMENT_HEADER_SIZE
        size = len(data)
        while pos < size:
            found = rec.decode(data, pos, near)
            start = pos
            while found is None and pos < size:
                pos += 1  # resynchronise: the next intact record after damage
                found = rec.decode(data, pos, near)
            if found is None:
                self.lost(self.next_seq, last, "%s bytes %d-%d" % (where, start, size))
                self.issues.append("%s: %d unreadable bytes at the end" % (where, size - start))
                break
            seq, end, payload_start, game_start = found
            if pos > start:
                self.issues.append("%s: bytes %d-%d unreadable" % (where, start, pos))
            if self.feed(seq, data, pos, end, payload_start, where):
                on_record(seq, data, payload_start, end - 4, game_start)
                if seq > last:
                    last = seq
            near = self.next_seq
            pos = end
        if self.next_seq <= last:
            self.lost(self.next_seq, last, "%s ends early" % where)
        return last
