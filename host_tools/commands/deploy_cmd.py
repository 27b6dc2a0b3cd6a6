"""`bobing deploy`: put the firmware this package carries on a bowl running MicroPython.

    bobing deploy --port PORT [--board PROFILE] [--wait S] [--db FILE]

1. Reach the REPL as `bobing sync` does (the `sync` line stops a running
   application; docs/sync.md) and ask the board what it is: MicroPython
   version, .mpy version, heap, filesystem, ROMFS partition.
2. Pick the way: a ROMFS image where the board has a ROMFS partition (the
   repository's own firmware build, firmware/device/), otherwise .mpy files
   and fonts on its filesystem (an official MicroPython download on a board
   with PSRAM).  Refuse, in one line and before writing anything, a board
   that cannot hold the bowl: another .mpy version, too little heap for the
   way it would run, too little flash.
3. Copy only what differs (size and SHA-256 of each file, asked of the
   board), check each copy's hash on the board, write /profile, and never
   touch /data (the tally and the log).  A pulled cable must never leave a
   bowl that crashes at every boot: main.py is removed before the first
   write and written back last, so a deploy cut short leaves a board that
   boots to its REPL, where the next deploy completes.
4. A bowl without a secret key gets one (host_tools/commands/key_cmd.py, kept beside
   the database `--db`; a bare board its store's id first).
5. Reset (machine.reset() typed at the REPL), wait for the bowl's first
   live event line, and say "bowl running".

The firmware is the installed package's (host_tools.deploy.firmware_tree): no
checkout is needed.
"""

import hashlib
import time

from host_tools.args import add_db_argument
from host_tools.commands.key_cmd import give
from host_tools.deploy import firmware_tree
from host_tools.errors import UsageError
from host_tools.sync.keystore import KeyStore

BOARD_FILE = "profile"
PROFILES = ("s3", "devkit", "cyd", "cyd2usb", "oled", "sh1106")
KB = 1024
# Heap the bowl needs (gc.mem_free() + gc.mem_alloc() at the REPL), by the way
# it runs: from ROMFS its code stays in flash; from .mpy files on the
# filesystem every module's bytecode lands in the heap (docs/memory.md).
HEAP_ROMFS = 96 * KB
HEAP_FILES = 320 * KB
STORE_MIN = 256 * KB  # filesystem room the log needs beyond the firmware
FIRMWARE_DIRS = ("app", "board", "bobing", "display")
_CHUNK = 1536  # bytes of a file per raw-REPL program: 2 KB of base64

# What the board is, one "key value" a line.
_PROBE = """import sys,gc,os
gc.collect()
print('version',sys.version.split('MicroPython ')[-1].split(' ')[0])
print('mpy',getattr(sys.implementation,'_mpy',0)&0xff)
print('heap',gc.mem_free()+gc.mem_alloc())
s=os.statvfs('/')
print('fs',s[0]*s[2],s[0]*s[3])
try:
 import vfs
 n=vfs.rom_ioctl(1) if hasattr(vfs,'rom_ioctl') else 0
 print('rom',len(vfs.rom_ioctl(2,0)) if n>0 else 0)
except Exception:
 print('rom',0)
"""

# For each path: "<size> <first 4 bytes of SHA-256, LE>" or "-" if missing.
_SUMS = """import os,hashlib
b=bytearray(512)
for p in %r:
 try:
  h=hashlib.sha256();n=0
  with open(p,'rb') as f:
   while 1:
    k=f.readinto(b)
    if not k:break
    h.update(memoryview(b)[:k]);n+=k
  d=h.digest();print(n,d[0]|d[1]<<8|d[2]<<16|d[3]<<24)
 except OSError:
  print('-')
"""

# The firmware's files on the board's filesystem, one path a line.
_LIST = """import os
def L(d):
 for e in os.ilistdir(d):
  p=d+'/'+e[0]
  if e[1]&0x4000:L(p)
  else:print(p[1:],os.stat(p)[6])
for d in %r:
 try:L('/'+d)
 except OSError:pass
"""

# The ROMFS partition's first bytes' SHA-256 (the image's length of them).
_ROM_SUM = """import vfs,hashlib
m=vfs.rom_ioctl(2,0)
h=hashlib.sha256()
for i in range(0,%d,4096):h.update(m[i:min(i+4096,%d)])
d=h.digest();print(d[0]|d[1]<<8|d[2]<<16|d[3]<<24)
"""


def register(sub):
    p = sub.add_parser("deploy", help="put the bowl's firmware on a board running MicroPython")
    p.add_argument("--port", required=True, metavar="PORT", help="the board's serial port")
    p.add_argument(
        "--board", metavar="PROFILE", help="board profile to set in /profile: %s" % ", ".join(PROFILES)
    )
    p.add_argument(
        "--wait", type=float, default=30.0, metavar="S", help="seconds to wait for the bowl (default 30)"
    )
    add_db_argument(p)
    p.set_defaults(run=run)


def _sum(data):
    return "%d %d" % (len(data), int.from_bytes(hashlib.sha256(data).digest()[:4], "little"))


class Board:
    """What the board said of itself (probe())."""

    def __init__(self, answer):
        facts = {}
        for line in answer.decode("utf-8", "replace").splitlines():
            key, _, value = line.strip().partition(" ")
            facts[key] = value
        try:
            self.version = facts["version"]
            self.mpy = int(facts["mpy"])
            self.heap = int(facts["heap"])
            self.fs_total, self.fs_free = (int(n) for n in facts["fs"].split())
            self.rom = int(facts["rom"])
        except (KeyError, ValueError):
            raise UsageError("the board's answer is not MicroPython's: %r" % answer[:80]) from None


def refusal(board, files, image, on_board):
    """Why the board cannot hold the bowl (one line), or None.  on_board:
    bytes of firmware files it already holds (a deploy replaces them)."""
    version, _ = firmware_tree.mpy_version(files)
    if board.mpy != version:
        return (
            "the board runs MicroPython %s, whose .mpy version is %d; this firmware is .mpy version %d: "
            "flash MicroPython 1.23 to 1.29 (docs/install.md)" % (board.version, board.mpy, version)
        )
    if image is not None:
        if len(image) > board.rom:
            return "the firmware's ROMFS image is %d KB, the board's ROMFS partition %d KB" % (
                len(image) // KB,
                board.rom // KB,
            )
        need_heap, need_fs = HEAP_ROMFS, STORE_MIN
    else:
        need_heap, need_fs = HEAP_FILES, STORE_MIN + sum(len(d) for d in files.values())
    if board.heap < need_heap:
        return (
            "the board has %d KB of heap; the bowl needs %d KB %s: use a board with PSRAM, or the "
            "repository's firmware image with ROMFS (docs/install.md)"
            % (board.heap // KB, need_heap // KB, "from ROMFS" if image is not None else "from .mpy files")
        )
    if board.fs_free + on_board < need_fs:
        return "the board's filesystem has %d KB free; the bowl needs %d KB" % (
            (board.fs_free + on_board) // KB,
            need_fs // KB,
        )
    return None


def run(args):
    from mpremote.transport import TransportError  # the `sync` extra

    from host_tools.sync.syncer import SyncError
    from host_tools.sync.transport import SerialBowl

    if args.board is not None and args.board not in PROFILES:
        raise UsageError("--board %r: choose from %s" % (args.board, ", ".join(PROFILES)))
    try:
        files = firmware_tree.bowl_files()
    except (OSError, FileNotFoundError) as e:
        raise UsageError("cannot build the firmware: %s" % e) from None
    keys = KeyStore(args.db)
    bowl = SerialBowl(args.port, wait=10.0, keys=keys)
    started = time.monotonic()
    try:
        bowl.open()
        t = bowl.transport
        board = Board(t.exec(_PROBE))
        image = firmware_tree.romfs_image(files) if board.rom else None
        present = _firmware_on_board(t)
        why = refusal(board, files, image, sum(present.values()))
        if why is not None:
            raise UsageError("%s: %s; nothing was written" % (args.port, why))
        if image is not None:
            wanted = {name: data for name, data in files.items() if name in firmware_tree.SOURCE_ONLY}
        else:
            wanted = dict(files)
        if args.board is not None:
            wanted[BOARD_FILE] = (args.board + "\n").encode()
        todo = changed(t, wanted)
        rom_todo = image is not None and _rom_sum(t, image) != _sum(image).split()[1]
        stale = sorted(set(present) - set(wanted))
        if todo or rom_todo or stale:
            _remove(t, ["main.py"])  # from here until main.py is back, a cut leaves a board at its REPL
            _remove(t, stale)
            if rom_todo:
                write_romfs(t, image)
            copy(t, wanted, [p for p in todo if p != "main.py"])
            copy(t, wanted, ["main.py"])
            bad = changed(t, {p: wanted[p] for p in todo})
            if bad:
                raise UsageError("%s: %s did not arrive intact: deploy again" % (args.port, bad[0]))
        copied = len(todo) + (1 if rom_todo else 0)
        keyed = give(bowl, keys)
        t.exit_raw_repl()
        t.serial.write(b"import machine\r\nmachine.reset()\r\n")
        t.serial.flush()
        took = time.monotonic() - started
        failed = _first_event(t.serial, args.wait)
    except SyncError as e:
        raise UsageError(str(e)) from None
    except (TransportError, OSError) as e:
        raise UsageError(
            "%s: deploy failed: %s" % (args.port, (str(e).strip().splitlines() or ["?"])[-1])
        ) from None
    finally:
        bowl.close()
    way = "ROMFS image" if image is not None else ".mpy files"
    print(
        "%d of %d files copied to %s (%s, MicroPython %s%s) in %.1f s; reset"
        % (
            copied,
            len(wanted) + (1 if image is not None else 0),
            args.port,
            way,
            board.version,
            ", board %s" % args.board if args.board else "",
            took,
        )
    )
    if failed:
        raise UsageError("%s: the bowl failed to boot: %s" % (args.port, failed))
    if failed is not None:
        raise UsageError(
            "%s: the bowl did not start within %g s: see its screen, or `mpremote repl`"
            % (args.port, args.wait)
        )
    if keyed:
        print(keyed)
    print("bowl running")
    return 0


def changed(transport, files):
    """The paths of `files` whose copy on the board differs."""
    paths = sorted(files)
    answer = transport.exec(_SUMS % ["/" + p for p in paths]).decode().split("\n")
    return [p for p, line in zip(paths, answer, strict=False) if line.strip() != _sum(files[p])]


def _firmware_on_board(transport):
    """{path: size} of the firmware files the board's filesystem holds now."""
    lines = transport.exec(_LIST % (FIRMWARE_DIRS,)).decode().splitlines()
    return {p: int(n) for p, _, n in (line.strip().rpartition(" ") for line in lines) if p}


def _remove(transport, paths):
    for path in paths:
        transport.exec("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass" % ("/" + path))


def copy(transport, files, paths):
    """Write each file under a temporary name and rename it into place: a
    file on the board is always whole, the old one or the new one.  The
    bytes go in base64 (a third more on the wire, where the repr() of
    mpremote's fs_writefile makes a .mpy three times longer)."""
    import binascii

    made = set()
    transport.exec("from binascii import a2b_base64")
    for rel in paths:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/" + "/".join(parts[:i])
            if folder not in made:
                if not transport.fs_isdir(folder):
                    transport.fs_mkdir(folder)
                made.add(folder)
        data = files[rel]
        transport.exec("f=open(%r,'wb')\nw=f.write" % ("/" + rel + ".new"))
        for at in range(0, len(data), _CHUNK):
            transport.exec("w(a2b_base64(%r))" % binascii.b2a_base64(data[at : at + _CHUNK], newline=False))
        transport.exec("f.close()\nimport os\nos.rename(%r,%r)" % ("/" + rel + ".new", "/" + rel))


def _rom_sum(transport, image):
    return transport.exec(_ROM_SUM % (len(image), len(image))).decode().strip()


def write_romfs(transport, image):
    """Write `image` to ROMFS partition 0 through vfs.rom_ioctl, as `mpremote
    romfs deploy` does (prepare, then 4 KB chunks in base64, then end)."""
    import binascii

    transport.exec("import vfs\ntry:\n vfs.umount('/rom')\nexcept OSError:\n pass")
    transport.exec("from binascii import a2b_base64\nvfs.rom_ioctl(3,0,%d)" % len(image))
    for offset in range(0, len(image), 4096):
        chunk = image[offset : offset + 4096]
        chunk += bytes(-len(chunk) % 4)
        transport.exec(
            "vfs.rom_ioctl(4,0,%d,a2b_base64(%r))" % (offset, binascii.b2a_base64(chunk, newline=False))
        )
    transport.exec("vfs.rom_ioctl(5,0)")


def _first_event(serial, wait):
    """How the bowl came up within `wait` seconds: None once it runs (its
    first `game` or `waiting` line), the line of a boot that failed
    (`out_of_service`, `safe_mode`), or "" if it said nothing."""
    seen = b""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        data = serial.read(256)
        if not data:
            continue
        seen = (seen + data)[-2048:]
        for line in seen.split(b"\n")[:-1]:
            if line.startswith((b'{"event": "game"', b'{"event": "waiting"')):
                return None
            if line.startswith((b'{"event": "out_of_service"', b'{"event": "safe_mode"')):
                return line.decode("utf-8", "replace").strip()
    return ""
