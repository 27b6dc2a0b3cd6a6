"""The two ways a `bobing` command fails, and their exit statuses.

Raised anywhere under a command, caught once in host_tools/cli.py's main: bad input
is one line on stderr and exit status 2, before anything is printed on stdout; a
failure of the system (a full disk, an output that closed) is one line and status 1.
"""

EXIT_FAILURE = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the user: reported as one line, exit status 2."""


class Failure(Exception):
    """The system let us down (disk full, file unwritable): one line, exit status 1."""
