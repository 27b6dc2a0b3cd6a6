"""The ESP32's watchdog, timers, RTC memory, reset cause and radio faults, on
top of tests/mplib/fakemachine.py's pins and buses: for tests that boot the
firmware again and again on the same flash in one process
(tests/test_boot_safety.py).  Kept apart from fakemachine, whose objects
the heap tests count as the harness's (tests/test_app_heap.py).

    import fakechip
    fakechip.install()           # fakemachine.install(), with these in `machine`

They behave as on the ESP32 across resets: fakemachine.reset() raises
SystemExit; then hard_reset() (the WDT stops, timers die, RTC memory
stays), soft_reset() (timers die, a started WDT runs on) or power_cut()
(RTC memory lost too) set the chip up for the next boot.  WDT counts feeds
with a keeper timer running (`kept`) and without (`fed`: the game loop's);
a feed without a timer raises WDT.stop_at_feed if set (Stop: the app has
taken the watchdog over, which ends the boot; KeyboardInterrupt: Ctrl-C in
play).  tick() is one timer period.
WLAN.error: an exception class the radio raises when switched on.
"""

import fakemachine

PWRON_RESET = 1  # machine.reset_cause() values of the ESP32 port
HARD_RESET = 2
WDT_RESET = 3
SOFT_RESET = 5
CAUSE = PWRON_RESET


def reset_cause():
    return CAUSE


class Stop(BaseException):
    """The game loop fed the watchdog: the app has taken it over."""


class Timer:
    PERIODIC = 1
    live = []  # timers started and not stopped, as the chip runs them

    def __init__(self, ident):
        self.callback = None

    def init(self, period=0, mode=0, callback=None):
        self.callback = callback
        Timer.live.append(self)

    def deinit(self):
        if self in Timer.live:
            Timer.live.remove(self)


def tick():
    """One period of every running timer: their callbacks run."""
    for timer in list(Timer.live):
        timer.callback(timer)


class WDT:
    running = False  # started and not stopped by a hard reset
    made = 0  # machine.WDT() calls: the first starts it, the next reconfigure the running one
    fed = 0  # feeds with no timer running: the game loop's
    kept = 0  # feeds while a timer runs: the keeper's
    stop_at_feed = None  # an exception class the game loop's feed raises

    def __init__(self, ident=0, timeout=0):
        WDT.running = True
        WDT.made += 1

    def feed(self):
        if Timer.live:
            WDT.kept += 1
            return
        WDT.fed += 1
        if WDT.stop_at_feed is not None:
            raise WDT.stop_at_feed()


class RTC:
    mem = b""

    def memory(self, data=None):
        if data is None:
            return RTC.mem
        RTC.mem = bytes(data)


def hard_reset(cause=HARD_RESET):
    """The chip restarted (machine.reset(), the WDT's): WDT off, timers gone, RTC memory kept."""
    global CAUSE
    CAUSE = cause
    WDT.running = False
    Timer.live.clear()


def soft_reset():
    """A soft reset (Ctrl-D, mpremote): timers gone, a started WDT still running."""
    global CAUSE
    CAUSE = SOFT_RESET
    Timer.live.clear()


def power_cut():
    hard_reset(PWRON_RESET)
    RTC.mem = b""


BUSES = []


class WLAN:
    error = None  # an exception class: the radio raises it when switched on

    def __init__(self, interface):
        pass

    def active(self, on):
        if WLAN.error is not None:
            raise WLAN.error("radio failed")


def install():
    """fakemachine.install(), its machine and network given these."""
    for name in (
        "PWRON_RESET",
        "HARD_RESET",
        "WDT_RESET",
        "SOFT_RESET",
        "reset_cause",
        "Timer",
        "WDT",
        "RTC",
    ):
        setattr(fakemachine, name, globals()[name])
    fakemachine.network.WLAN = WLAN
    fakemachine.install()
