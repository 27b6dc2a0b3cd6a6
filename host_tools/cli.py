"""`bobing` command line: the parser of every subcommand (host_tools/commands/), and main.

Bad input never shows a traceback: every error is one line on stderr and
exit status 2, before anything is printed on stdout.  A failure of the system
(a full disk, an output that closed) is one line and exit status 1.
"""

import argparse
import os
import sys

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
from host_tools.errors import EXIT_FAILURE, EXIT_USAGE, Failure, UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def build_parser():
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
