"""The arguments several `bobing` commands share, and how they are read.

Each command module (host_tools/commands/) adds these to its own parser; they live
here, not in the command line's module, so that the commands need nothing from
host_tools/cli.py, which imports them all.
"""

from bobing.game import MAX_PLAYERS, MIN_PLAYERS
from bobing.rules import Rules, presets
from host_tools.errors import UsageError
from host_tools.play import gamefile

MAX_SEED = 2**32 - 1  # SeededBytes keeps 32 bits: larger seeds would repeat smaller ones
DEFAULT_DB = "bobing.db"


def seed_value(text):
    """--seed of every command: a whole number 0 to 2**32 - 1, nothing wraps around."""
    if not text.isascii() or not text.isdigit() or not int(text) <= MAX_SEED:
        raise UsageError("--seed %r: expected a whole number 0-%d" % (text, MAX_SEED))
    return int(text)


def add_rules_arguments(parser, default="xiamen"):
    parser.add_argument(
        "--rules",
        default=default,
        metavar="PRESET",
        help="rule preset: %s (default xiamen)" % ", ".join([name for name, _ in presets()]),
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule option of the preset (see `bobing rules`)",
    )


def rules_from_args(args):
    overrides = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise UsageError("--option %r: expected NAME=VALUE" % item)
        overrides[name] = value
    try:
        return Rules(args.rules, overrides)
    except ValueError as e:
        raise UsageError(str(e)) from None


def add_players_argument(parser, required=True):
    parser.add_argument(
        "--players",
        type=players_count,
        required=required,
        metavar="N",
        help="players at the table, %d-%d, throwing in seat order 1, 2, ... N" % (MIN_PLAYERS, MAX_PLAYERS),
    )


def players_count(text):
    return gamefile.whole_number("--players", text, MIN_PLAYERS, MAX_PLAYERS)


def add_db_argument(parser):
    parser.add_argument(
        "--db", default=DEFAULT_DB, metavar="FILE", help="the database (default %s)" % DEFAULT_DB
    )


def add_bowl_arguments(parser, wait_help):
    """--port, --db, --root and --wait: of every command that reaches a bowl as the sync does."""
    parser.add_argument(
        "--port", required=True, metavar="PORT", help="the bowl's serial port (e.g. /dev/ttyUSB0)"
    )
    add_db_argument(parser)
    parser.add_argument(
        "--root", default="/data", metavar="DIR", help="the store folder on the bowl (default /data)"
    )
    parser.add_argument("--wait", type=float, default=10.0, metavar="S", help=wait_help)
