"""MicroPython runs this file at every reset, soft ones included, before
main.py (which it runs only when the friendly REPL follows, not after
mpremote's raw-REPL soft reset).  A soft reset leaves a started watchdog
running and stops the timer that fed it: board/watchdog.py's after_reset()
feeds it again until the app's first feed takes over, or for as long as
the REPL has the bowl (docs/device.md, "Maintenance and the watchdog").
Source on the board's filesystem like main.py, so a few lines.
"""

try:
    from board.watchdog import after_reset

    after_reset()
except Exception as e:  # boot.py must not raise: MicroPython would then skip main.py
    print("boot.py:", repr(e))
