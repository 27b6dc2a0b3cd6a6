"""`bobing` command line: one subcommand per module, shared argument handling.

Bad input never shows a traceback: every error is one line on stderr and
exit status 2, before anything is printed on stdout.  A failure of the system
(a full disk, an output that closed) is one line and exit status 1.
"""

import argparse
import os
import sys

from bobing.rules import Rules, presets

EXIT_FAILURE = 1
EXIT_USAGE = 2
MAX_SEED = 2**32 - 1  # SeededBytes keeps 32 bits: larger seeds would repeat smaller ones


class UsageError(Exception):
    """Bad input from the user: reported as one line, exit status 2."""


class Failure(Exception):
    """The system let us down (disk full, file unwritable): one line, exit status 1."""


def seed_value(text):
    """--seed of every command: a whole number 0 to 2**32 - 1, nothing wraps around."""
    if not text.isascii() or not text.isdigit() or not int(text) <= MAX_SEED:
        raise UsageError("--seed %r: expected a whole number 0-%d" % (text, MAX_SEED))
    return int(text)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


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


def build_parser():
    from host_tools.commands import (
        classify_cmd,
        deploy_cmd,
        import_cmd,
        key_cmd,
        log_cmd,
        play_cmd,
        replay_cmd,
        report_cmd,
        rules_cmd,
        sim_cmd,
        stats_cmd,
        sync_cmd,
        voice_cmd,
        watch_cmd,
    )

    parser = _Parser(prog="bobing", description="Bobing (博饼) dice bowl: desktop tools")
    parser.add_argument("--version", action="version", version="bobing " + version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in (sim_cmd, play_cmd, replay_cmd, classify_cmd, rules_cmd, stats_cmd, log_cmd, voice_cmd):
        module.register(sub)
    for module in (sync_cmd, import_cmd, report_cmd, watch_cmd, deploy_cmd, key_cmd):
        module.register(sub)
    return parser


def version():
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("bobing")
    except PackageNotFoundError:
        return "(not installed)"


def _tolerant_streams():
    # A terminal that cannot show Chinese (PYTHONIOENCODING=ascii, a Latin-1 locale)
    # gets '?' for it rather than a traceback; input it cannot decode becomes U+FFFD.
    for stream in (sys.stdout, sys.stderr, sys.stdin):
        if stream is not None and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def main(argv=None):
    _tolerant_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
        status = args.run(args) or 0
        if sys.stdout is not None:
            sys.stdout.flush()  # here, where a full disk is caught, not at exit
        return status
    except UsageError as e:
        return _report(e, EXIT_USAGE)
    except Failure as e:
        return _report(e, EXIT_FAILURE)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as e:  # writing the output failed: a full disk, a closed terminal
        _silence_stdout()
        return _report("cannot write the output: %s" % (e.strerror or e), EXIT_FAILURE)


def _report(message, status):
    try:
        print("bobing: error: %s" % message, file=sys.stderr)
    except (OSError, AttributeError):
        pass
    return status


def _silence_stdout():
    # What could not be written would fail again when Python flushes at exit.
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass
