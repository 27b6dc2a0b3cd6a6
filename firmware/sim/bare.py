"""The virtual bare board's power-up: an ESP32 as stock MicroPython leaves it.

host_tools/sim/bare.py (`bobing sim --bare`) runs it on micropython32 with
the board's heap, once per boot (a soft reset or a reset is a new process):

    micropython32 -X heapsize=H -i -m sim.bare OPTIONS

with firmware/ on MICROPYPATH only until the board's own hardware is in
place (this module, sim.chip, sim.panels, sim.flash, sim.vclock, asyncio).
Then, as the ESP32 port's start-up does:
- a ROMFS partition (--romfs FILE, the repository's firmware image) is
  mounted at /rom when it holds an image; vfs.rom_ioctl writes it, as
  `mpremote romfs deploy` does on a board;
- sys.path is the board's: '', '.frozen', '/lib' (with '/rom', '/rom/lib'
  after '.frozen' on a ROMFS build); every module of the firmware loaded to build
  the board is dropped, so nothing imports from the checkout;
- `machine`, `network` and `esp32` are the chip's (sim.chip), `flashbdev`
  and `inisetup` the port's (sim.port), over the filesystem partition (a
  LittleFS image in a host file, --flash; erased when new);
- the frozen _boot.py runs: the port's (sim.port.stock_boot), or with
  --boot FILE that file, the repository's image's own
  (firmware/device/BOBING_ESP32/_boot.py, read before the host's files go);
  it mounts the partition at / (the host's files are gone from view),
  formats a blank one, and on one that does not mount loops in stock's
  fs_corrupted() or goes to the bowl's safe mode (app/safemode.py);
- boot.py runs, then main.py unless the soft reset came from the raw REPL
  (--raw), as pyexec does; an exception in any of the three is printed and
  the board goes on to its REPL (`-i`), where the host finds it.
With --repl this is no boot but the same board again at its REPL (the unix
port died of a Ctrl-C between two of the REPL's programs, which an ESP32
takes as a byte): the partition is mounted at / as it was, and nothing runs.

Options: --target NAME, --flash FILE, --flash-blocks N (size of a new
image), --romfs FILE, --boot FILE, --panel KIND, --wiring TABLE (a board/pins.py table),
--glass FILE, --cause N (machine.reset_cause()), --rtc HEX, --wdt MS (a WDT
still running after a soft reset), --raw, --repl, --channel FD, --headless,
--presses FD, --seed S, and --probe: say on the channel `kept N`, the heap
the board's hardware keeps (this module and the chip, not the firmware),
and stop, for bare_cmd to give that heap on top of the board's.
"""

import sys

import vfs

ROM_BLOCK = 4096


def parse(argv):
    opts = {
        "flash-blocks": 2048,
        "cause": 1,
        "wdt": 0,
        "seed": -1,
        "raw": False,
        "repl": False,
        "headless": False,
        "probe": False,
    }
    i = 0
    while i < len(argv):
        key = argv[i][2:]
        if key in ("raw", "repl", "headless", "probe"):
            opts[key] = True
            i += 1
            continue
        value = argv[i + 1]
        opts[key] = (
            int(value) if key in ("flash-blocks", "cause", "wdt", "seed", "channel", "presses") else value
        )
        i += 2
    return opts


class RomPartition:
    """The ROMFS partition in a host file, for vfs.rom_ioctl: erased is 0xFF."""

    def __init__(self, path, size):
        self.size = size
        self.data = bytearray(size)  # one allocation: no copy of it is ever made
        self.erase(0, size)
        try:  # kept open: the host's files are out of reach once the flash is /
            self.file = open(path, "r+b")
            self.file.readinto(self.data)
        except OSError:
            self.file = open(path, "w+b")  # a new board: erased

    def erase(self, start, size):
        erased = b"\xff" * 256
        for at in range(start, start + size, 256):
            n = min(256, start + size - at)
            self.data[at : at + n] = erased if n == 256 else erased[:n]

    def ioctl(self, op, *args):
        """vfs.rom_ioctl: 1 segments, 2 the image, 3 prepare (erase), 4 write, 5 end, 6 block size."""
        if op == 1:
            return 1
        if op == 2:
            return memoryview(self.data)
        if op == 3:  # (id, size) or (id, offset, size): erase; the answer is the smallest write
            start, size = (0, args[1]) if len(args) == 2 else (args[1], args[2])
            if start + size > self.size:
                return -28  # ENOSPC
            self.erase(start, size)
            return 4
        if op == 4:
            offset, chunk = args[1], args[2]
            self.data[offset : offset + len(chunk)] = chunk
            return 0
        if op == 5:
            self.file.seek(0)
            self.file.write(self.data)
            self.file.flush()
            return 0
        if op == 6:
            return ROM_BLOCK
        return -22


def _vfs_with_rom(rom):
    """The vfs module with rom_ioctl (a module object standing for the built-in)."""

    class Vfs:
        VfsLfs2 = vfs.VfsLfs2
        VfsRom = vfs.VfsRom  # type: ignore[attr-defined]  # the unix port has it
        mount = staticmethod(vfs.mount)
        umount = staticmethod(vfs.umount)
        rom_ioctl = staticmethod(rom.ioctl)

    return Vfs()


class VirtualTime:
    """The module `time` on the chip's virtual clock (headless): ticks and
    blocking sleeps move it; the date is the host's."""

    def __init__(self, clock, real):
        self.ticks_ms = clock.ticks_ms
        self.ticks_diff = real.ticks_diff
        self.ticks_add = real.ticks_add
        self.time = real.time
        self.time_ns = real.time_ns
        self.localtime = real.localtime
        self.gmtime = real.gmtime
        self.mktime = real.mktime
        self._clock = clock

    def ticks_us(self):
        return self._clock.now * 1000

    ticks_cpu = ticks_us

    def sleep_ms(self, ms):
        self._clock.now = self.ticks_add(self._clock.now, ms)

    def sleep_us(self, us):
        self.sleep_ms(us // 1000)

    def sleep(self, s):
        self.sleep_ms(int(s * 1000))


def _source(name):
    """The text of the file `name`, or None if there is none."""
    try:
        f = open(name)
    except OSError:
        return None
    source = f.read()
    f.close()
    return source


def _run(name, source=None):
    """pyexec_file_if_exists(name) in __main__'s globals (or `source`, a frozen
    module's, as pyexec_frozen_module): an exception is printed."""
    source = source or _source(name)
    if source is not None:
        _pyexec(lambda: exec(compile(source, name, "exec"), sys.modules["__main__"].__dict__))


def _pyexec(run):
    try:
        run()
    except BaseException as e:  # noqa: B036 (as pyexec: a traceback, then the REPL)
        sys.print_exception(e)
        if isinstance(e, SystemExit):
            raise


def _mount(flash):
    """The filesystem partition at / if it mounts, as a boot before left it."""
    try:
        vfs.mount(vfs.VfsLfs2(flash), "/")  # type: ignore[abstract]  # a block device by protocol
    except OSError:
        pass


def power_up(argv):
    import gc

    opts = parse(argv)
    rom = None
    gc.collect()
    flash_kept = gc.mem_alloc()
    if opts.get("romfs"):  # first, at the heap's start: it stands for flash (bare_cmd gives its room)
        rom = RomPartition(opts["romfs"], int(opts["romfs-size"]))
    gc.collect()
    flash_kept = gc.mem_alloc() - flash_kept
    import asyncio
    import time

    from board import pins

    from sim import chip as silicon
    from sim import dfplayer  # noqa: F401 (the DFPlayer module on UART 2, imported while the path has it)
    from sim.flash import FileFlash
    from sim.vclock import VirtualClock

    channel = silicon.Channel(open("/dev/fd/%d" % opts["channel"], "w"))
    sys.atexit(channel.exiting)
    presses = open("/dev/fd/%d" % opts["presses"]) if opts["headless"] else None
    if opts["headless"]:
        clock = VirtualClock()
        clock.install()
    else:
        from board.base import Clock

        clock = Clock()  # type: ignore[assignment]  # the same three methods, real time
    rtc = bytes(int(opts.get("rtc", "")[i : i + 2], 16) for i in range(0, len(opts.get("rtc", "")), 2))
    table = getattr(pins, opts["wiring"].upper())
    chip = silicon.Chip(
        channel, opts["panel"], opts.get("glass"), table, clock, opts["cause"], rtc, opts["wdt"]
    )
    if presses is not None:
        chip.presses = silicon.Presses(chip, presses, sys.stdin)
    if opts["headless"]:
        clock.watchdog = chip  # checked, and the next press taken, whenever time moves
    try:
        new = False
        open(opts["flash"], "rb").close()
    except OSError:
        new = True
    from sim.nvs import Partition

    modules = silicon.Modules(chip, Partition.beside(opts["flash"], new))  # opened before the flash is /
    flash = FileFlash(opts["flash"], opts["flash-blocks"] if new else 0)
    from sim import port

    port.bdev = flash  # type: ignore[assignment]  # flashbdev's Partition
    frozen_boot = _source(opts["boot"]) if opts.get("boot") else None
    # the board's own modules from here on: the chip's, frozen asyncio, the flash
    for name in list(sys.modules):
        if name.split(".")[0] in ("bobing", "board", "display", "app", "bowl", "main"):
            del sys.modules[name]
    sys.modules["machine"] = modules.machine  # type: ignore[assignment]  # the chip's built-in
    sys.modules["network"] = modules.network  # type: ignore[assignment]  # the chip's built-in
    sys.modules["esp32"] = modules.esp32  # type: ignore[assignment]  # the chip's built-in
    sys.modules["micropython"] = modules.micropython  # type: ignore[assignment]  # the chip's built-in
    sys.modules["sys"] = modules.sys  # type: ignore[assignment]  # the chip's built-in
    if opts["headless"]:
        sys.modules["time"] = VirtualTime(clock, time)  # type: ignore[assignment]  # on the chip's clock
    sys.modules["flashbdev"] = port  # the port's frozen modules
    sys.modules["inisetup"] = port
    vfs.umount("/")
    path = ["", ".frozen", "/lib"]
    if rom is not None:
        sys.modules["vfs"] = _vfs_with_rom(rom)
        if bytes(rom.data[:2]) == b"\xd2\xcd":  # a ROMFS image's header
            vfs.mount(vfs.VfsRom(rom.data), "/rom")  # type: ignore[attr-defined]  # the unix port has it
            path = ["", ".frozen", "/rom", "/rom/lib", "/lib"]  # the ESP32 port's order
    sys.path[:] = path
    del asyncio  # imported (frozen) before the path changed, as on the ESP32
    if opts["probe"]:  # what the board's hardware keeps in the heap: bare_cmd gives it on top
        frozen_boot = None  # in the image's flash on a board
        _mount(flash)  # a normal boot's mount: what it keeps is the board's too
        gc.collect()
        channel.say("kept %d" % (gc.mem_alloc() - flash_kept))
        raise SystemExit(0)
    channel.say("up")  # the chip is built: the host's bytes may come (a Ctrl-C is a KeyboardInterrupt now)
    if opts["repl"]:  # the same board at its REPL: mounted as it was, nothing run
        _mount(flash)
    elif frozen_boot is None:
        _pyexec(port.stock_boot)
    else:
        _run("_boot.py", frozen_boot)
    del frozen_boot
    import os

    try:
        os.chdir("/")
    except OSError:  # nothing mounted there: the files below are not found, the REPL follows
        pass
    if not opts["repl"]:
        _run("boot.py")
        if not opts["raw"]:
            _run("main.py")


power_up(sys.argv[1:])
del power_up
