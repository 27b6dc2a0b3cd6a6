"""`bobing sync`: pull a bowl's new log records over its serial port into the database."""

import contextlib
import datetime
import os
import sqlite3

from host_tools.args import add_bowl_arguments
from host_tools.errors import UsageError
from host_tools.sync import db, syncer
from host_tools.sync.keystore import KeyStore


def register(sub):
    p = sub.add_parser("sync", help="copy a bowl's new log records over serial into the database, then ack")
    add_bowl_arguments(p, "seconds the bowl has to finish a press and answer the sync line (default 10)")
    p.add_argument(
        "--accept-damage",
        action="store_true",
        help="acknowledge past damaged records too (they cannot be recovered from the bowl either)",
    )
    p.set_defaults(run=run)


def open_db(path):
    try:
        return db.connect(path)
    except db.DatabaseError as e:
        raise UsageError(str(e)) from None


@contextlib.contextmanager
def new_database(path):
    """`with new_database(path) as conn_of:` conn_of() opens the database at
    its first call (a bad one is a UsageError); if the block fails, a database
    file it created is removed again: a failed command leaves nothing behind."""
    existed = os.path.exists(path)
    opened = []

    def conn_of():
        if not opened:
            opened.append(open_db(path))
        return opened[0]

    try:
        yield conn_of
    except BaseException:
        if opened:
            opened[0].close()
            opened.clear()
        if not existed:
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(OSError):
                    os.remove(path + suffix)
        raise
    finally:
        if opened:
            opened[0].close()


def now():
    """(day, time stamp) in local time, for the records this sync brings."""
    t = datetime.datetime.now().astimezone()
    return t.date().isoformat(), t.isoformat(timespec="seconds")


def print_result(result, what):
    if result.added:
        print(
            "%s %s: %d new records (%d-%d), %d held in all"
            % (what, result.bowl, result.added, result.first, result.last, result.tip)
        )
    else:
        print("%s %s: nothing new, %d records held" % (what, result.bowl, result.tip))
    for line in result.issues:
        print("  " + syncer.printable(line))
    if result.acked:
        print("acknowledged up to record %d: the bowl frees those segments at its next start" % result.acked)
    elif result.not_acked:
        print("not acknowledged: %s" % result.not_acked)


def run(args):
    from host_tools.sync.transport import SerialBowl  # mpremote: the `sync` extra

    if os.path.exists(args.db):
        open_db(args.db).close()  # a bad database is refused before the bowl is stopped
    keys = KeyStore(args.db)
    bowl = SerialBowl(args.port, root=args.root, wait=args.wait, keys=keys)
    try:
        bowl.open()
        bowl.prove_key()
        conn = open_db(args.db)
        day, at = now()
        result = syncer.sync(conn, bowl, day, at, accept_damage=args.accept_damage, keys=keys)
    except (syncer.SyncError, UsageError) as e:
        raise UsageError(str(e)) from None
    except sqlite3.Error as e:  # locked by another program, a full disk, damaged under us
        raise UsageError(db.describe(e, args.db)) from None
    except OSError as e:  # the sync's temporary folder
        raise UsageError("cannot write the sync's temporary files: %s" % (e.strerror or e)) from None
    finally:
        if bowl.transport is not None:
            bowl.resume()  # on every path: the bowl plays on
    print_result(result, "bowl")
    # 1 while the bowl cannot be acknowledged: its flash keeps filling until someone looks
    return 1 if result.issues or result.contradicted else 0
