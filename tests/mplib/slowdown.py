"""How long a test may wait for something, on this machine.

Every time limit a test gives (a subprocess's timeout, a deadline for the
bowl's next event line, a host tool's --wait) is a bound that only a hung
program should reach, never a pace.  It is written for a quiet 2-core
machine and multiplied here by BOBING_TEST_SLOWDOWN (default 1): on a
runner 3-6x slower (a busy CI machine, a Raspberry Pi) set it to 6 and
nothing times out early.  A test never waits a fixed time for something to
happen: it waits for the event the code emits, within such a bound.
"""

import os

_RAW = os.environ.get("BOBING_TEST_SLOWDOWN", "") or "1"
try:
    FACTOR = float(_RAW)
except ValueError:
    FACTOR = 0.0
if not FACTOR > 0:  # also NaN
    raise SystemExit(
        "BOBING_TEST_SLOWDOWN must be a number above 0 (how much slower this machine is), not %r" % _RAW
    )


def seconds(limit):
    """`limit` (seconds on a quiet machine) scaled for this one."""
    return limit * FACTOR


def arg(limit):
    """seconds(limit) as a command-line argument (`bobing sync --wait`)."""
    return "%g" % seconds(limit)
