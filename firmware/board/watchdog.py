"""The chip's one watchdog (machine.WDT), and what tells a boot about the resets before it.

A started WDT cannot be stopped and outlives a soft reset, while a
machine.Timer dies at one; MicroPython runs boot.py at every reset and
main.py only when the friendly REPL comes next.  So:
- feed(): the game loop's feed (bowl.feed): starts the WDT at the first
  call and stops the keeper timer, so a hung game resets the bowl;
- release(ms): the keeper, a timer that feeds a started WDT for `ms` more
  ms (-1: until the next feed()): the REPL's turn (the host's sync, Ctrl-C,
  safe mode) forever, the app's boot for at most bowl's _BOOT_LIMIT_MS;
- after_reset(): boot.py's; after a soft reset of a bowl whose WDT runs
  (RTC memory says it was started, and only a hard reset stops it), the
  keeper feeds it until main.py's app takes over, or forever at a raw REPL
  (mpremote's soft reset runs boot.py, not main.py).

RTC memory (machine.RTC().memory(): kept over a soft reset and
machine.reset(), lost with the power) holds _MARK, the WDT's state and the
failed boots in a row (bowl.start), which the flash may be unable to keep.
Module state, not an object's: the chip has one WDT, whatever Board is current.
"""

import time

import machine
from micropython import const

from board import pins

_MARK = const(0xB0)  # RTC memory byte 0: the rest is ours (WDT started, failed boots)

_wdt = None  # type: machine.WDT | None
_timer = None  # type: machine.Timer | None  # referenced here: a collected Timer stops
_until = -1  # ticks_ms the keeper stops feeding at, -1: never


def _remembered():
    data = machine.RTC().memory()
    if len(data) == 3 and data[0] == _MARK:
        return data[1], data[2]
    return 0, 0


def _remember(started, failed):
    machine.RTC().memory(bytes((_MARK, started, min(failed, 255))))


def failed_boots():
    """Boots that did not complete, in a row, as RTC memory counts them (0 after a power cut)."""
    return _remembered()[1]


def set_failed_boots(n):
    _remember(_remembered()[0], n)


def _start():
    global _wdt
    _wdt = machine.WDT(timeout=pins.WDT_MS)
    _remember(1, _remembered()[1])
    return _wdt


def feed():
    """Feed the WDT (started at the first call); the keeper stops: from now on
    only these calls keep the bowl from resetting."""
    global _timer
    if _timer is not None:
        _timer.deinit()
        _timer = None
    (_wdt or _start()).feed()


def _keep(timer):
    # a soft interrupt, run between bytecodes: allocates nothing
    wdt = _wdt
    if wdt is not None and (_until < 0 or time.ticks_diff(_until, time.ticks_ms()) > 0):
        wdt.feed()


def release(ms=-1):
    """Keep a started WDT fed from the timer pins.WDT_TIMER_ID for `ms` more
    ms (-1: until the next feed()); nothing if it was never started."""
    global _timer, _until
    if _wdt is None:
        return
    _until = -1 if ms < 0 else time.ticks_add(time.ticks_ms(), ms)  # type: ignore[assignment]
    if _timer is None:
        _timer = machine.Timer(pins.WDT_TIMER_ID)
        _timer.init(period=pins.WDT_MS // 4, mode=machine.Timer.PERIODIC, callback=_keep)
    _wdt.feed()


def time_boot(ms):
    """Start the WDT now and keep it fed for at most `ms`: a boot that hangs resets."""
    if _wdt is None:
        _start()
    release(ms)


def after_reset():
    """boot.py's: after a soft reset the WDT may still run (the app had
    started it): keep it fed until the next feed(); after any other reset
    it is off, and RTC memory says so."""
    started, failed = _remembered()
    if machine.reset_cause() != machine.SOFT_RESET:
        if started:
            _remember(0, failed)
        return
    if started:
        global _wdt
        _wdt = machine.WDT(timeout=pins.WDT_MS)  # the running one: the chip has one
        release()


def hung():
    """True if the WDT reset the chip: the last boot, or play, hung."""
    return machine.reset_cause() == machine.WDT_RESET


def reset():
    """A hard reset (machine.reset()): the WDT stops with it; never returns."""
    machine.reset()
