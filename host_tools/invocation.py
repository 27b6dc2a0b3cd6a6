"""How the user runs `bobing` here, so that every command a tool suggests works
where it is typed: `bobing` when that name on the PATH is this very program, else
the program's own path (`make play` runs build/play-venv/bin/bobing, which is on
no PATH; so is a .venv that was never activated).
"""

import os
import shlex
import shutil
import sys


def bobing_command():
    """The words that run this `bobing`: `bobing`, or a path to it."""
    program = os.path.abspath(sys.argv[0])
    if os.path.basename(program) == "__main__.py":  # python -m host_tools
        return "%s -m host_tools" % shlex.quote(sys.executable)
    found = shutil.which("bobing")
    try:
        if found and os.path.samefile(found, program):
            return "bobing"
    except OSError:  # the program's file is gone or unreadable: its path is still the best guess
        pass
    return shlex.quote(program)
