"""`bobing` command line: one subcommand per module, shared argument handling.

Bad input never shows a traceback: every error is one line on stderr and
exit status 2, before anything is printed on stdout.
"""

import argparse
import sys

from bobing.rules import Rules, presets

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the user: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def add_rules_arguments(parser):
    parser.add_argument(
        "--rules",
        default="xiamen",
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


def build_parser():
    from host_tools import classify_cmd, log_cmd, play_cmd, replay_cmd, rules_cmd, sim_cmd, stats_cmd

    parser = _Parser(prog="bobing", description="Bobing (博饼) dice bowl: desktop tools")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module in (classify_cmd, rules_cmd, replay_cmd, play_cmd, stats_cmd, log_cmd, sim_cmd):
        module.register(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.run(args) or 0
    except UsageError as e:
        print("bobing: error: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
