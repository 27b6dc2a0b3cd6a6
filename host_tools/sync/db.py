"""The festival database: every synced record of every bowl, in one SQLite file.

Schema version SCHEMA (table `meta`); a file of a newer version is refused
(DatabaseError), an older one is upgraded in place.  Tables:

    bowls    one row per bowl id: the last record held (`tip`), chain(tip)
             when known, the bowl's lifetime counters as last seen
    records  every log record, (bowl, seq) unique: payload and game_start flag
             as the bowl logged them, `day` the local date of the sync that
             brought it (the bowl has no clock)
    games    one row per game header: rules, players, the 状元 holder and
             the record of the throw that made them so, how it ended
    throws   one row per THROW event: seat (1-based), dice code, kind, award,
             and n1..n6, how many dice show each face (the report sums them)
    prizes   one row per AWARD / TAKE / SHARE event: tier and count
    files    the bowl's store files as last fetched (path, size, checksum,
             bytes), kept as they arrive: a sync fetches only the files
             that changed since
    issues   what verification found, once per distinct line
    syncs    one row per completed sync or import

Everything a sync adds is written in one transaction (`commit_sync`), so
an interrupted sync leaves the database exactly as it was.
"""

import json
import os
import sqlite3
import urllib.parse

from bobing import events as ev
from bobing.classify import kind_of
from bobing.game import Game
from bobing.session import NOTE

SCHEMA = 1

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bowls (
    bowl TEXT PRIMARY KEY, tip INTEGER NOT NULL DEFAULT 0, chain BLOB, game INTEGER,
    games INTEGER NOT NULL DEFAULT 0, throws INTEGER NOT NULL DEFAULT 0,
    recoveries INTEGER NOT NULL DEFAULT 0, first_sync TEXT, last_sync TEXT);
CREATE TABLE IF NOT EXISTS records (
    bowl TEXT NOT NULL, seq INTEGER NOT NULL, game_start INTEGER NOT NULL,
    payload BLOB NOT NULL, day TEXT NOT NULL, PRIMARY KEY (bowl, seq));
CREATE TABLE IF NOT EXISTS games (
    bowl TEXT NOT NULL, seq INTEGER NOT NULL, day TEXT NOT NULL, preset TEXT NOT NULL,
    flags INTEGER NOT NULL, players INTEGER NOT NULL, sets INTEGER NOT NULL,
    entropy INTEGER NOT NULL, labels TEXT NOT NULL, zy_seat INTEGER, zy_seq INTEGER,
    end_reason TEXT, end_seq INTEGER, PRIMARY KEY (bowl, seq));
CREATE TABLE IF NOT EXISTS throws (
    bowl TEXT NOT NULL, seq INTEGER NOT NULL, n INTEGER NOT NULL, game INTEGER,
    day TEXT NOT NULL, seat INTEGER NOT NULL, dice INTEGER NOT NULL, kind INTEGER NOT NULL,
    award INTEGER NOT NULL, n1 INTEGER, n2 INTEGER, n3 INTEGER, n4 INTEGER, n5 INTEGER,
    n6 INTEGER, PRIMARY KEY (bowl, seq, n));
CREATE TABLE IF NOT EXISTS prizes (
    bowl TEXT NOT NULL, seq INTEGER NOT NULL, game INTEGER, day TEXT NOT NULL,
    tier INTEGER NOT NULL, seat INTEGER, count INTEGER NOT NULL, how TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    bowl TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL, sum INTEGER NOT NULL,
    data BLOB NOT NULL, PRIMARY KEY (bowl, path));
CREATE TABLE IF NOT EXISTS issues (
    bowl TEXT NOT NULL, day TEXT NOT NULL, source TEXT NOT NULL, text TEXT NOT NULL,
    UNIQUE (bowl, source, text));
CREATE TABLE IF NOT EXISTS syncs (
    bowl TEXT NOT NULL, at TEXT NOT NULL, source TEXT NOT NULL, first INTEGER,
    last INTEGER, records INTEGER NOT NULL, acked INTEGER);
"""


class DatabaseError(Exception):
    """The file is no database of ours, or of a newer schema: nothing was changed."""


_TABLE_NAMES = ("meta", "bowls", "records", "games", "throws", "prizes", "files", "issues", "syncs")


def describe(error, path):
    """One line for a sqlite3 error on the database at path."""
    text = str(error)
    if "locked" in text or "busy" in text:
        return "%s: the database is in use by another program (locked): try again when it is done" % path
    if "full" in text:
        return "%s: the disk is full: nothing was written" % path
    if "not a database" in text:
        return "%s: not a usable database: %s" % (path, text)
    if "malformed" in text or "corrupt" in text:
        return "%s: the database is damaged (%s)" % (path, text)
    if "no such table" in text or "no such column" in text:
        return "%s: a damaged or foreign database (%s)" % (path, text)
    if "readonly" in text or "read-only" in text:
        return "%s: the database cannot be written (read-only)" % path
    return "%s: database error: %s" % (path, text)


def connect(path):
    """Open (or make) the database at path; DatabaseError if unusable."""
    try:
        conn = sqlite3.connect(path, isolation_level=None)
        version = _schema(conn, path)  # before anything is written: a file not ours stays as it was
        conn.execute("PRAGMA journal_mode=WAL")
        if version < SCHEMA:
            with transaction(conn):
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
    except OSError as e:
        raise DatabaseError("%s: not a usable database: %s" % (path, e.strerror or e)) from None
    except sqlite3.Error as e:
        raise DatabaseError(describe(e, path)) from None
    return conn


def connect_readonly(path):
    """Open the database at path for reading only: nothing is created,
    upgraded or written (it may lie on read-only media); DatabaseError if
    it is missing or unusable."""
    if not os.path.isfile(path):
        raise DatabaseError("%s: no such database (run `bobing sync` first)" % path)
    uri = "file:%s?" % urllib.parse.quote(os.path.abspath(path))
    error = None
    for mode in ("mode=ro", "immutable=1"):  # immutable: read-only media, where WAL cannot be read shared
        try:
            conn = sqlite3.connect(uri + mode, uri=True, isolation_level=None)
            if _schema(conn, path) < SCHEMA:
                conn.close()
                raise DatabaseError("%s: no bobing tables in it (an empty or foreign database)" % path)
            return conn
        except sqlite3.Error as e:
            error = e
    raise DatabaseError(describe(error, path))


def _schema(conn, path):
    """The file's schema version (0: an empty file); DatabaseError if it is not ours or too new."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables:
        return 0
    if "meta" not in tables:
        conn.close()
        raise DatabaseError("%s: a database of another program (no bobing schema)" % path)
    row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    value = row[0] if row is not None else None
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        conn.close()
        raise DatabaseError("%s: a damaged bobing database: schema version %r" % (path, value))
    if int(value) > SCHEMA:
        conn.close()
        raise DatabaseError(
            "%s: schema version %s is newer than this bobing's (%d): update bobing" % (path, value, SCHEMA)
        )
    missing = [name for name in _TABLE_NAMES if name not in tables]
    if int(value) == SCHEMA and missing:
        conn.close()
        raise DatabaseError("%s: a damaged bobing database: no table %s" % (path, ", ".join(missing)))
    return int(value)


class transaction:
    """`with transaction(conn):` BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, kind, value, tb):
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


class BowlState:
    """What the database holds of one bowl: tip, chain(tip) (None: unknown),
    the current game's header record, and the store files as last fetched
    {path: (size, sum)}."""

    def __init__(self, tip=0, chain=None, game=None, files=None):
        self.tip = tip
        self.chain = chain
        self.game = game
        self.files = files or {}


def bowl_state(conn, bowl):
    row = conn.execute("SELECT tip, chain, game FROM bowls WHERE bowl=?", (bowl,)).fetchone()
    files = {p: (s, c) for p, s, c in conn.execute("SELECT path, size, sum FROM files WHERE bowl=?", (bowl,))}
    if row is None:
        return BowlState(files=files)
    return BowlState(row[0], row[1], row[2], files)


def cached_file(conn, bowl, path):
    row = conn.execute("SELECT data FROM files WHERE bowl=? AND path=?", (bowl, path)).fetchone()
    return None if row is None else bytes(row[0])


def held_payloads(conn, bowl, first, last):
    """{seq: (payload, game_start)} the database holds for first..last."""
    rows = conn.execute(
        "SELECT seq, payload, game_start FROM records WHERE bowl=? AND seq BETWEEN ? AND ?",
        (bowl, first, last),
    )
    return {seq: (bytes(p), g) for seq, p, g in rows}


class _Decoder:
    """Turns records into games, throws and prizes rows, following the
    bowl's current game across syncs.

    The 状元 holder's throw is the engine's own answer: each game is played
    again through bobing.game (Game.apply checks every batch), because after
    禄骨 the throw that moved the 状元 is the loser's, not the holder's."""

    def __init__(self, conn, bowl, day, game):
        self.conn = conn
        self.bowl = bowl
        self.day = day
        self.game = game
        self.issues = []
        self.throws = []
        self.prizes = []
        self.play = None  # the current game, played again; None: not (yet) followed
        self.standing = {}  # seat -> record of the seat's standing 状元-class throw
        self.rebuilt = False

    def _played(self, seq):
        """The current game as of the record before seq, from the records held; None if it cannot be."""
        if self.play is None and not self.rebuilt and self.game is not None:
            self.rebuilt = True
            rows = self.conn.execute(
                "SELECT seq, payload, game_start FROM records WHERE bowl=? AND seq>=? AND seq<? ORDER BY seq",
                (self.bowl, self.game, seq),
            )
            for held, payload, game_start in rows:
                if payload and payload[0] != NOTE:
                    self._follow(held, bytes(payload), game_start)
        return self.play

    def _follow(self, seq, payload, game_start):
        try:
            if game_start:
                self.play = Game.from_header(payload)
                self.standing = {}
            elif self.play is not None:
                seat = self.play.turn
                before = self.play.zy_turn[seat]
                self.play.apply(payload)
                if self.play.zy_turn[seat] != before:
                    self.standing[seat] = seq
        except ValueError:
            self.play = None  # a gap or damage: the holder's throw is no longer known

    def _set_holder(self, game, seq, thrower, moved_to):
        """The 状元 holder after record seq (moved_to: the ZY event's seat, or None
        at the game's end) and the record of the holder's own throw."""
        if self.play is not None:
            zy = self.play.zhuangyuan()
            seat, own = (None, None) if zy is None else (zy[0] + 1, self.standing.get(zy[0]))
        elif moved_to is None:
            return  # not followed: the end leaves the last ZY event's answer
        else:  # not followed: the moving throw is the holder's only if it is their own
            seat = None if moved_to == ev.NO_SEAT else moved_to + 1
            own = seq if seat is not None and moved_to == thrower else None
        self.conn.execute(
            "UPDATE games SET zy_seat=?, zy_seq=? WHERE bowl=? AND seq=?", (seat, own, self.bowl, game)
        )

    def record(self, seq, payload, game_start):
        if not payload:
            return
        if payload[0] == NOTE:
            text = bytes(payload[1:]).decode("utf-8", "replace")
            self.issues.append(("bowl", "record %d: the bowl noted: %s" % (seq, text)))
            return
        try:
            if game_start:
                self._header(seq, payload)
            else:
                self._batch(seq, payload)
        except ValueError as e:
            self.issues.append(("host", "record %d: cannot be decoded: %s" % (seq, e)))

    def _header(self, seq, payload):
        rules, players, sets, _, labels, entropy, _, _ = ev.decode_header(payload)
        self.conn.execute(
            "INSERT OR IGNORE INTO games (bowl, seq, day, preset, flags, players, sets, entropy, labels)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (self.bowl, seq, self.day, rules.preset, rules.flags, players, sets, entropy, json.dumps(labels)),
        )
        self.game = seq
        self.rebuilt = True
        self._follow(seq, payload, True)

    def _batch(self, seq, payload):
        _, _, events = ev.decode_batch(payload)
        game = self.game
        if self._played(seq) is not None:
            self._follow(seq, payload, False)
        thrower = events[0][1] if events and events[0][0] in (ev.THROW, ev.VOID) else None
        n = 0
        for e in events:
            kind = e[0]
            if kind == ev.THROW:
                dice = ev.dice_of(e[2])
                counts = [dice.count(face) for face in range(1, 7)]
                self.throws.append(
                    (self.bowl, seq, n, game, self.day, e[1] + 1, e[2], kind_of(e[3]), e[3], *counts)
                )
                n += 1
            elif kind == ev.AWARD:
                self.prizes.append((self.bowl, seq, game, self.day, e[2], e[1] + 1, e[3], "award"))
            elif kind == ev.TAKE:
                self.prizes.append((self.bowl, seq, game, self.day, e[2], e[1] + 1, e[4], "take"))
            elif kind == ev.SHARE:
                self.prizes.append((self.bowl, seq, game, self.day, e[1], None, e[2], "share"))
            elif kind == ev.ZY and game is not None:
                self._set_holder(game, seq, thrower, e[1])
            elif kind == ev.END and game is not None:
                self._set_holder(game, seq, thrower, None)
                self.conn.execute(
                    "UPDATE games SET end_reason=?, end_seq=? WHERE bowl=? AND seq=?",
                    (ev.END_REASONS[e[1]], seq, self.bowl, game),
                )

    def flush(self):
        self.conn.executemany("INSERT OR IGNORE INTO throws VALUES (%s)" % ",".join("?" * 15), self.throws)
        self.conn.executemany("INSERT INTO prizes VALUES (?,?,?,?,?,?,?,?)", self.prizes)
        self.throws = []
        self.prizes = []


def add_records(conn, bowl, day, game, records):
    """Insert records [(seq, payload, game_start)] not held yet, in order,
    decoding them; returns (records added, current game, [(source, issue)]).
    Call inside a transaction."""
    decoder = _Decoder(conn, bowl, day, game)
    added = 0
    for seq, payload, game_start in records:
        cur = conn.execute(
            "INSERT OR IGNORE INTO records VALUES (?,?,?,?,?)",
            (bowl, seq, 1 if game_start else 0, payload, day),
        )
        if cur.rowcount:
            added += 1
            decoder.record(seq, payload, game_start)
    decoder.flush()
    return added, decoder.game, decoder.issues


def add_issues(conn, bowl, day, issues):
    """Record [(source, text)] found, each distinct line once per bowl; returns the new ones."""
    new = []
    for source, text in issues:
        cur = conn.execute("INSERT OR IGNORE INTO issues VALUES (?,?,?,?)", (bowl, day, source, text))
        if cur.rowcount:
            new.append(text)
    return new


def cache_files(conn, bowl, listing, fetched):
    """Keep the files {path: bytes} just fetched; `listing` {path: (size, sum)}."""
    conn.executemany(
        "INSERT OR REPLACE INTO files VALUES (?,?,?,?,?)",
        [(bowl, p, listing[p][0], listing[p][1], data) for p, data in fetched.items()],
    )


def forget_files(conn, bowl, listing):
    """Drop the cached files the bowl no longer has (listing: its store now)."""
    conn.execute(
        "DELETE FROM files WHERE bowl=? AND path NOT IN (SELECT value FROM json_each(?))",
        (bowl, json.dumps(sorted(listing))),
    )


def save_bowl(conn, bowl, at, tip, chain, game, counters):
    conn.execute(
        "INSERT INTO bowls (bowl, tip, chain, game, games, throws, recoveries, first_sync, last_sync)"
        " VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (bowl) DO UPDATE SET tip=excluded.tip, chain=excluded.chain,"
        " game=excluded.game, games=excluded.games, throws=excluded.throws, recoveries=excluded.recoveries,"
        " last_sync=excluded.last_sync",
        (
            bowl,
            tip,
            chain,
            game,
            counters.get("games", 0),
            counters.get("throws", 0),
            counters.get("recoveries", 0),
            at,
            at,
        ),
    )
