"""The virtual bare board's ESP32: the built-in modules stock MicroPython has
in C (machine, network, esp32) over the board's wiring, for sim.bare.

sim.bare builds one Chip at power-up and puts its modules in sys.modules
before anything from the flash runs, so the firmware's board layer
(board/esp32.py and a profile) drives them as it drives the silicon:

- Pin: the two switches read the keys the bare board's commands press
  (active low), the panel's DC, CS and RST are the panel emulator's
  (sim.panels), every other output is remembered (the ready lamp is how the
  bare board knows the bowl waits for a throw).
- SPI and I2C: the panel emulator's bus (sim.panels).  UART 2: the DFPlayer
  emulator (sim.dfplayer), its BUSY pin the module's.  PWM: the piezo.
- WDT: as the ESP32's, started by its constructor and never stopped; it
  outlives a soft reset (the supervisor, host_tools/sim/bare.py, keeps it
  across processes) and resets the board when not fed in time.
- Timer: callbacks on a thread, in real time, like the ESP32's timer
  interrupts they run while the REPL waits for a line; they die at a soft
  reset with the process.
- esp32.NVS: the NVS partition in a host file beside the flash image
  (sim.nvs), kept over resets and power cuts as the chip's flash is.
- RTC().memory(): kept by the supervisor across soft resets and resets,
  lost at a power cut.
- reset() (machine.reset_cause() HARD_RESET after it, as the ESP32 port
  reads esp_restart()), soft_reset(), reset_cause(), unique_id(), freq(),
  idle().

Everything the supervisor must keep goes to it as one line on the channel
(`wdt MS`, `feed`, `rtc HEX`, `reset CAUSE`, `soft`, `exit`, `heap FREE` as each
headless command is taken, `end`, `bad LINE`); a reset
waits there for the supervisor to kill the process, so nothing more runs,
as nothing runs on a chip after its reset line.
"""

import gc
import time

from board import pins

from sim import panels

# machine.reset_cause() values of the ESP32 port
PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5

_ROLES = ("THROW", "REFEREE", "LAMP", "DF_BUSY", "LED_GREEN")


def wiring(table):
    """{role: gpio} of a pins.py table, for the roles the chip must know."""
    out = {}
    for role in _ROLES + ("DC", "CS", "RST"):
        try:
            out[role] = pins.get(table, role)
        except ValueError:
            pass
    return out


class Channel:
    """Lines to the supervisor (a pipe); a reset never returns."""

    def __init__(self, stream):
        self.stream = stream

    def say(self, line):
        self.stream.write(line + "\n")

    def exiting(self):
        """sys.atexit's: the process ends as it means to, before the unix
        port cancels the chip's timer threads, which in micropython32 now
        and then aborts it (docs/micropython-crashes.md)."""
        self.say("exit")

    def reset(self, cause):
        self.say("reset %d" % cause)
        while True:  # the supervisor kills this process: nothing more runs
            time.sleep(1)


class Chip:
    """The emulated ESP32 and what is wired to it: panel, switches, lamp, DFPlayer.

    panel: "st7789", "ili9341", "ssd1306" or "sh1106"; glass: the file of a
    colour panel's memory; table: the profile's pins.py table; clock: the
    chip's ms clock (sim.vclock.VirtualClock in headless, else real time)."""

    def __init__(self, channel, panel, glass, table, clock, cause, rtc, wdt_ms):
        self.channel = channel
        self.clock = clock
        self.cause = cause
        self.rtc = bytearray(rtc)
        self.gpio = wiring(table)
        self.keys = [False, False]  # THROW, REFEREE closed
        self.outputs = {}  # gpio: level last written
        self.busy_out = 0  # when the bowl last did something a person sees (clock ms)
        self.wdt_ms = wdt_ms  # a WDT left running by the last soft reset, or 0
        self.fed = clock.ticks_ms()
        if panel in ("ssd1306", "sh1106"):
            self.glass = panels.MonoGlass(panel)
            self.bus = self.glass
            self.panel_pins = {}
        else:
            spi, dc, cs, rst, self.glass = panels.color_bus(panel, glass)
            self.bus = spi
            self.panel_pins = {"DC": dc, "CS": cs, "RST": rst}
        self.dfplayer = None
        self.presses = None  # Presses, in headless

    # --- what the bowl shows -------------------------------------------

    def touched(self):
        self.busy_out = self.clock.ticks_ms()

    def panel_time(self):
        """The panel's clock is the chip's: the driver's waits are time.sleep_ms here."""
        self.glass.now = self.clock.ticks_ms()

    def lamp(self):
        gpio = self.gpio.get("LAMP", self.gpio.get("LED_GREEN", -1))
        level = self.outputs.get(gpio, 0)
        return level == (0 if "LAMP" not in self.gpio else 1)  # the CYD's LED is active low

    # --- the watchdog ----------------------------------------------------

    def wdt_start(self, timeout_ms):
        if not self.wdt_ms:
            self.channel.say("wdt %d" % timeout_ms)
        self.wdt_ms = timeout_ms
        self.wdt_feed()

    def wdt_feed(self):
        self.fed = self.clock.ticks_ms()
        self.channel.say("feed")

    def check(self, ran):
        """The WDT on the chip's clock, the next command: called after each of
        the loop's waits (`ran`, the clock's count for a watchdog, is the
        sim's own: the chip times its WDT on the board's ms)."""
        now = self.clock.ticks_ms()
        if self.wdt_ms and time.ticks_diff(now, self.fed) > self.wdt_ms:
            self.channel.reset(WDT_RESET)
        if self.presses is not None:
            self.presses.step(now)


class _Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 2
    IRQ_RISING = 1

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        chip = CHIP
        self.gpio = gpio
        role = None
        for name, number in chip.gpio.items():
            if number == gpio:
                role = name
        self.key = 0 if role == "THROW" else 1 if role == "REFEREE" else -1
        self.panel = chip.panel_pins.get(role) if role else None
        self.busy = role == "DF_BUSY"
        if value is not None:
            self.value(value)

    def init(self, *args, **kwargs):
        pass

    def value(self, level=None):
        chip = CHIP
        if level is None:
            if self.key >= 0:
                return 0 if chip.keys[self.key] else 1  # active low, pulled up
            if self.busy:
                return chip.dfplayer.busy.value() if chip.dfplayer else 1
            if self.panel is not None:
                return self.panel.value()
            return chip.outputs.get(self.gpio, 0)
        level = 1 if level else 0
        if self.panel is not None:
            chip.panel_time()
            self.panel.value(level)
        elif chip.outputs.get(self.gpio) != level:
            chip.outputs[self.gpio] = level
            chip.touched()
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, *args, **kwargs):
        return None


class _SPI:
    def __init__(self, ident, *args, **kwargs):
        pass

    def init(self, *args, **kwargs):
        pass

    def write(self, buf):
        CHIP.panel_time()
        CHIP.bus.write(buf)  # type: ignore[attr-defined]  # a colour build's SPI bus
        CHIP.touched()

    def deinit(self):
        pass


class _I2C:
    def __init__(self, ident, *args, **kwargs):
        pass

    def writeto(self, addr, buf, stop=True):
        CHIP.panel_time()
        CHIP.bus.writeto(addr, buf)
        CHIP.touched()
        return len(buf)

    def writevto(self, addr, bufs, stop=True):
        CHIP.panel_time()
        CHIP.bus.writevto(addr, bufs)
        CHIP.touched()

    def scan(self):
        return [0x3C]


class _UART:
    """UART 2 is the DFPlayer's (hardware/README.md 4.5); others drop what they get."""

    def __init__(self, ident, *args, **kwargs):
        self.module = None
        if ident == pins.DF_UART_ID:
            from sim.dfplayer import SimDFPlayer

            CHIP.dfplayer = self.module = SimDFPlayer(CHIP.clock.ticks_ms, keep=False)

    def write(self, buf):
        CHIP.touched()
        return self.module.uart.write(buf) if self.module else len(buf)

    def any(self):
        return self.module.uart.any() if self.module else 0

    def read(self, n=-1):
        return self.module.uart.read(n) if self.module else None

    def init(self, *args, **kwargs):
        pass


class _PWM:
    def __init__(self, pin, freq=0, duty_u16=0, **kwargs):
        self._freq = freq
        self._duty = duty_u16

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz
        return None

    def duty_u16(self, duty=None):
        if duty is None:
            return self._duty
        if duty != self._duty:
            CHIP.touched()
        self._duty = duty
        return None

    def deinit(self):
        self._duty = 0


class _WDT:
    """machine.WDT(id=0, timeout=5000): started here, never stopped."""

    def __init__(self, id=0, timeout=5000):
        CHIP.wdt_start(timeout)

    def feed(self):
        CHIP.wdt_feed()


class _Timer:
    """machine.Timer(id): init(period=ms, mode=PERIODIC|ONE_SHOT, callback=f)."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, ident, **kwargs):
        self.live = 0  # generation: a deinit() or a new init() stops the running thread
        if kwargs:
            self.init(**kwargs)

    def init(self, period=1000, mode=1, callback=None, freq=-1):
        import _thread

        if freq > 0:
            period = 1000 // freq
        self.live += 1
        _thread.start_new_thread(self._run, (self.live, period, mode, callback))

    def _run(self, generation, period, mode, callback):
        while generation == self.live:
            _REAL_SLEEP_MS(period)
            if generation != self.live:
                return
            if callback is not None:
                callback(self)
            if mode == self.ONE_SHOT:
                return

    def deinit(self):
        self.live += 1


class _RTC:
    def __init__(self, ident=0):
        pass

    def memory(self, data=None):
        if data is None:
            return bytes(CHIP.rtc)
        CHIP.rtc = bytearray(data)
        CHIP.channel.say("rtc " + "".join("%02x" % b for b in data))
        return None

    def datetime(self, *args):
        return time.localtime()[:7] + (0,)


CHIP = None  # type: Chip  # type: ignore[assignment]  # made by Modules before any part
_REAL_SLEEP_MS = time.sleep_ms


class Modules:
    """The chip's built-in modules, made once the Chip exists (sys.modules entries)."""

    def __init__(self, chip, nvs):
        global CHIP
        CHIP = chip
        self.machine = _Machine()
        self.network = _Network()
        self.esp32 = _Esp32()
        self.esp32.NVS = nvs.open  # type: ignore[attr-defined]  # esp32.NVS(namespace) on sim.nvs's partition
        self.micropython = _Micropython()
        self.sys = _Sys()


class _Sys:
    """`sys` as the ESP32's: the same objects (path, modules, stdio...), but
    sys.platform "esp32", which main.py asks when the host types `import main`."""

    def __init__(self):
        import sys

        for name in dir(sys):
            if not name.startswith("__"):
                setattr(self, name, getattr(sys, name))
        self.platform = "esp32"


_ISIG = 0o1  # termios c_lflag: the terminal turns Ctrl-C into SIGINT (Linux)


class _Micropython:
    """`micropython` with the ESP32's kbd_intr: off (-1), Ctrl-C is a byte
    like any other on the serial.  The unix port would die of the SIGINT
    instead, so the serial's terminal stops making the signal, and the
    port's own handler stays: its kbd_intr(-1) would make a SIGINT already
    on its way kill the process."""

    def __init__(self):
        import micropython

        for name in dir(micropython):
            if not name.startswith("__"):
                setattr(self, name, getattr(micropython, name))

    def kbd_intr(self, char):
        import termios  # type: ignore[import-not-found]  # the unix port's

        attrs = termios.tcgetattr(0)
        attrs[3] = attrs[3] | _ISIG if char >= 0 else attrs[3] & ~_ISIG
        termios.tcsetattr(0, termios.TCSANOW, attrs)


def _unique_id():
    return b"\x24\x0a\xc4\xba\xb1\x01"


def _reset():
    CHIP.channel.reset(HARD_RESET)


def _soft_reset():
    CHIP.channel.say("soft")
    raise SystemExit(0)


class _Machine:
    """The module object `machine` (a class instance standing for the module)."""

    Pin = _Pin
    Signal = _Pin
    SPI = _SPI
    SoftSPI = _SPI
    I2C = _I2C
    SoftI2C = _I2C
    UART = _UART
    PWM = _PWM
    WDT = _WDT
    Timer = _Timer
    RTC = _RTC
    PWRON_RESET = PWRON_RESET
    HARD_RESET = HARD_RESET
    WDT_RESET = WDT_RESET
    DEEPSLEEP_RESET = DEEPSLEEP_RESET
    SOFT_RESET = SOFT_RESET
    unique_id = staticmethod(_unique_id)
    reset = staticmethod(_reset)
    soft_reset = staticmethod(_soft_reset)

    @staticmethod
    def reset_cause():
        return CHIP.cause

    @staticmethod
    def freq(hz=None):
        return 240_000_000 if hz is None else None

    @staticmethod
    def idle():
        pass

    @staticmethod
    def disable_irq():
        return 0

    @staticmethod
    def enable_irq(state=0):
        pass

    @staticmethod
    def bootloader():
        _reset()


class _WLAN:
    def __init__(self, interface=0):
        self._active = False

    def active(self, on=None):
        if on is None:
            return self._active
        self._active = bool(on)
        return None


class _Network:
    STA_IF = 0
    AP_IF = 1
    WLAN = _WLAN


class _Esp32:
    """esp32: the few things a bowl may ask (no partitions API here); NVS,
    sim.nvs's partition beside the flash image (Modules)."""

    HEAP_DATA = 1
    HEAP_EXEC = 2

    @staticmethod
    def idf_heap_info(capabilities):
        return []


QUIET_MS = 400  # the bowl drew, sounded and lit nothing for this long: it waits for a press
LAMP_WAIT_MS = 3000  # a throw waits this long for the ready lamp, then is pressed anyway
SHORT_MS = 150  # a THROW or short REFEREE press (the inputs' acceptance is 30 ms by default)
LONG_MS = 2150  # a long REFEREE press (2,000 ms by default)


class Presses:
    """The headless commands (`throw`, `referee`, `referee-long`, `pause MS`),
    pressed on the chip's switches when the bowl waits for one: once it has
    shown nothing new for QUIET_MS, and for a throw once its ready lamp is lit.
    Reading the next line blocks in real time while the chip's clock stands
    still; bytes on the serial (the host's `sync`) wake it for the app."""

    def __init__(self, chip, stream, serial_in):
        import select

        self.chip = chip
        self.stream = stream
        self.poll = select.poll()
        self.poll.register(stream, select.POLLIN)
        if serial_in is not None:
            self.poll.register(serial_in, select.POLLIN)
        self.key = -1  # the switch held, or -1
        self.release_at = 0
        self.after = 0  # nothing before this (a pause)
        self.pending = None  # the command read, not yet pressed

    def step(self, now):
        chip = self.chip
        diff = time.ticks_diff
        if chip.dfplayer is not None and not chip.dfplayer.busy.value():
            chip.touched()  # an announcement plays: presses are locked out until it ends
            return
        if self.key >= 0:
            if diff(now, self.release_at) >= 0:
                chip.keys[self.key] = False
                self.key = -1
                chip.touched()  # the release re-arms from now
            return
        quiet = diff(now, chip.busy_out)
        if diff(now, self.after) < 0 or quiet < QUIET_MS:
            return
        line = self.pending = self.pending or self._line()
        if line is None or (line == "throw" and not chip.lamp() and quiet < LAMP_WAIT_MS):
            return
        self.pending = None
        # the heap the bowl keeps as it waits: collected first, for the app's
        # collection (App._wait) is long past by now, and the virtual board's
        # own garbage since (its clock's CPU time, a float each wait, the
        # emulated parts) would count as the bowl's (docs/memory.md)
        gc.collect()
        chip.channel.say("heap %d" % gc.mem_free())
        if line.startswith("pause "):
            self.after = time.ticks_add(now, int(line[6:]))
            return
        self.key = 1 if line.startswith("referee") else 0
        chip.keys[self.key] = True
        self.release_at = time.ticks_add(now, LONG_MS if line == "referee-long" else SHORT_MS)

    def _line(self):
        """The next command, or None when the serial has bytes for the app first."""
        while True:
            ready = self.poll.poll(-1)
            if not any(obj is self.stream for obj, _ in ready):
                _REAL_SLEEP_MS(10)  # the app reads the serial at its next poll
                return None
            line = self.stream.readline()
            if not line:
                self.chip.channel.say("end")
                raise SystemExit(0)
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line in ("throw", "referee", "referee-long") or (
                line.startswith("pause ") and line[6:].isdigit()
            ):
                return line
            self.chip.channel.say("bad %s" % line)
