"""`bobing log`: verify a synced copy of the bowl's flash log and acknowledge it."""

import os

from bobing.store import record as rec
from host_tools.args import add_db_argument
from host_tools.errors import UsageError
from host_tools.sync.keystore import KeyStore
from host_tools.sync.logread import ack_bytes, is_store, read_log


def register(sub):
    p = sub.add_parser("log", help="verify the bowl's flash log copied to the host; write its ack")
    cmds = p.add_subparsers(dest="log_command", metavar="ACTION")
    cmds.required = True
    v = cmds.add_parser("verify", help="check every record's CRC and the hash chain; exit 1 on any fault")
    v.add_argument("directory", metavar="DIR", help="a copy of the bowl's /data (mpremote cp -r :/data DIR)")
    add_db_argument(v)  # the bowl's keys: beside the database
    v.set_defaults(run=run_verify)
    a = cmds.add_parser("ack", help="write the acknowledgement that lets the bowl delete synced segments")
    a.add_argument("directory", metavar="DIR", help="the verified copy of the bowl's /data")
    a.add_argument("-o", "--output", metavar="FILE", help="where to write it (default DIR/ack)")
    a.add_argument(
        "--accept-damage",
        action="store_true",
        help="acknowledge past damaged records too (they cannot be recovered from the bowl either)",
    )
    add_db_argument(a)
    a.set_defaults(run=run_ack)


def _report(directory, db_path):
    """The store copy verified with the keys the host holds for its bowl (docs/security.md)."""
    if not os.path.isdir(directory):
        raise UsageError("%s: no such directory" % directory)
    if not is_store(directory):
        raise UsageError("%s: not a copy of the bowl's store (no seg/ folder)" % directory)
    try:
        with open(os.path.join(directory, "id")) as f:
            bowl = f.read().strip()
    except OSError:
        bowl = ""
    return read_log(directory, KeyStore(db_path).all(bowl))


def _summary(report):
    first = report.records[0][0] if report.records else 0
    last = report.records[-1][0] if report.records else 0
    c = report.counters
    return (
        "records %d-%d: %d intact (%d in %d segments, %d pending), %d damaged, %d not chain-verified; lifetime: %d games, %d throws, %d power-cut recoveries"
        % (
            first,
            last,
            len(report.records),
            len(report.records) - report.pending,
            len(report.segments),
            report.pending,
            report.damaged,
            report.unverified,
            c["games"],
            c["throws"],
            c["recoveries"],
        )
    )


def run_verify(args):
    report = _report(args.directory, args.db)
    print(_summary(report))
    for line in report.issues:
        print("  " + line)
    print("verified" if not report.issues else "%d issues" % len(report.issues))
    return 1 if report.issues else 0


def run_ack(args):
    report = _report(args.directory, args.db)
    data = ack_bytes(report, args.accept_damage)
    if data is None:
        if report.ackable_if_damaged is not None:
            raise UsageError(
                "the log has damage before any segment end: see `bobing log verify`, or --accept-damage"
            )
        raise UsageError("nothing to acknowledge: no complete segment yet")
    output = args.output or os.path.join(args.directory, "ack")
    try:
        with open(output, "wb") as f:
            f.write(data)
    except OSError as e:
        raise UsageError("%s: cannot write: %s" % (output, e.strerror)) from None
    last, chain = rec.parse_ack(data)
    print("acknowledged records up to %d (chain %s) in %s" % (last, chain.hex()[:16], output))
    print("copy it to the bowl: mpremote cp %s :/data/ack  (applied at the next boot)" % output)
    return 0
