"""The virtual board's background threads, all ended before its MicroPython exits.

The unix port cancels (pthread_cancel) every thread still running when the
interpreter exits, and in the static micropython32 a thread cancelled in
its sleep now and then aborts the whole process (SIGABRT, no message) in
libgcc's unwinder.  The supervisor can only take that for a crash: a soft
reset (Ctrl-D, mpremote's every connect) turned into a hard one that runs
main.py, under a host that waits at the raw REPL for ever
(docs/micropython-crashes.md).  A chip's timers simply stop at a reset.

So every thread of the sim starts here and sleeps through sleep_ms(): at
the process's exit (sys.atexit) the sleeps return False, each thread
returns, and the exit waits for the last one to leave.
"""

import _thread
import sys
import time

from micropython import const

_SLICE_MS = const(20)  # the longest a thread sleeps before it looks whether the process is ending
_LEAVE_MS = const(2000)  # the exit waits this long at most for the threads to return

_running = 0
_ending = False
_lock = _thread.allocate_lock()


def start(body, args=()):
    """Run body(*args) on a new thread; body must sleep with sleep_ms() and
    return when it gives False."""
    global _running
    with _lock:
        if not _running:
            sys.atexit(_end)
        _running += 1
    _thread.start_new_thread(_run, (body, args))


def _run(body, args):
    global _running
    try:
        body(*args)
    finally:
        with _lock:
            _running -= 1


def sleep_ms(ms):
    """Sleep `ms` of real time; False, at once, when the process is ending."""
    end = time.ticks_add(time.ticks_ms(), ms)
    while not _ending:
        left = time.ticks_diff(end, time.ticks_ms())
        if left <= 0:
            return True
        time.sleep_ms(min(left, _SLICE_MS))
    return False


def _end():
    global _ending
    _ending = True
    waited = 0
    while _running and waited < _LEAVE_MS:
        time.sleep_ms(_SLICE_MS)
        waited += _SLICE_MS
    time.sleep_ms(_SLICE_MS)  # the last one still has to leave _run and the port's list of threads
