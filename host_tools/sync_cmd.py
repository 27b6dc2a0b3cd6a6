"""`bobing sync`: pull a bowl's new log records over its serial port into the database."""

import datetime
import os

from host_tools import db, syncer
from host_tools.cli import UsageError

DEFAULT_DB = "bobing.db"


def add_db_argument(parser):
    parser.add_argument(
        "--db", default=DEFAULT_DB, metavar="FILE", help="the database (default %s)" % DEFAULT_DB
    )


def register(sub):
    p = sub.add_parser("sync", help="copy a bowl's new log records over serial into the database, then ack")
    p.add_argument("--port", required=True, metavar="PORT", help="the bowl's serial port (e.g. /dev/ttyUSB0)")
    add_db_argument(p)
    p.add_argument(
        "--root", default="/data", metavar="DIR", help="the store folder on the bowl (default /data)"
    )
    p.add_argument(
        "--wait",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds the bowl has to finish a press and answer the sync line (default 10)",
    )
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
        print("  " + line)
    if result.acked:
        print("acknowledged up to record %d: the bowl frees those segments at its next start" % result.acked)
    elif result.not_acked:
        print("not acknowledged: %s" % result.not_acked)


def run(args):
    from host_tools.transport import SerialBowl  # mpremote: the `sync` extra

    if os.path.exists(args.db):
        open_db(args.db).close()  # a bad database is refused before the bowl is stopped
    bowl = SerialBowl(args.port, root=args.root, wait=args.wait)
    try:
        bowl.open()
        conn = open_db(args.db)
        day, at = now()
        result = syncer.sync(conn, bowl, day, at, accept_damage=args.accept_damage)
    except (syncer.SyncError, UsageError) as e:
        if bowl.transport is not None:
            bowl.resume()
        raise UsageError(str(e)) from None
    bowl.resume()
    print_result(result, "bowl")
    return 1 if result.issues else 0
