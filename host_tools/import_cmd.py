"""`bobing import`: the log of a bowl that no longer boots, from a raw image of its flash filesystem.

Dump the filesystem partition with esptool (docs/sync.md), e.g. for
MicroPython's ESP32 layout with a 4 MB flash:

    esptool.py --port /dev/ttyUSB0 read_flash 0x200000 0x200000 flash.bin

The image is read with littlefs-python using the block parameters
MicroPython's ESP32 port mounts it with (block 4096 bytes, read and
program size 32), from memory: the file itself is never written.  The
records go through the very sync a serial link uses (host_tools/syncer.py),
without the acknowledgement (there is no bowl to write it to).
"""

import os
import tempfile

from host_tools import syncer
from host_tools.cli import UsageError
from host_tools.sync_cmd import add_db_argument, now, open_db, print_result

BLOCK_SIZE = 4096
IO_SIZE = 32  # read_size, prog_size, lookahead of MicroPython's VfsLfs2 on the ESP32
MAX_IMAGE = 64 * 1024 * 1024


def register(sub):
    p = sub.add_parser(
        "import", help="import a bowl's log from a raw flash image of its filesystem partition"
    )
    p.add_argument("image", metavar="FLASH.bin", help="the partition as `esptool.py read_flash` dumps it")
    add_db_argument(p)
    p.add_argument(
        "--root", default="/data", metavar="DIR", help="the store folder in the image (default /data)"
    )
    p.add_argument(
        "--block-size", type=int, default=BLOCK_SIZE, metavar="B", help="LittleFS block size (4096)"
    )
    p.set_defaults(run=run)


def extract(image_path, root, folder, block_size=BLOCK_SIZE):
    """Copy the folder `root` of the LittleFS image into `folder`; UsageError if unreadable."""
    from littlefs import LittleFS, LittleFSError, UserContext  # the `sync` extra

    try:
        with open(image_path, "rb") as f:
            image = bytearray(f.read(MAX_IMAGE + 1))
    except OSError as e:
        raise UsageError("%s: cannot read: %s" % (image_path, e.strerror)) from None
    if not image or len(image) % block_size or len(image) > MAX_IMAGE:
        raise UsageError(
            "%s: %d bytes is not a whole number of %d-byte blocks: not a filesystem dump"
            % (image_path, len(image), block_size)
        )
    fs = LittleFS(
        context=UserContext(buffer=image),
        block_size=block_size,
        block_count=len(image) // block_size,
        read_size=IO_SIZE,
        prog_size=IO_SIZE,
        lookahead_size=IO_SIZE,
        mount=False,
    )
    try:
        fs.mount()
        top = "/" + root.strip("/")
        if not fs.stat(top).type == 2:
            raise UsageError("%s: %s is not a folder in the image" % (image_path, top))
        for path, _, names in fs.walk(top):
            rel = os.path.relpath(path, top)
            target = os.path.join(folder, rel)
            os.makedirs(target, exist_ok=True)
            for name in names:
                with (
                    fs.open(path.rstrip("/") + "/" + name, "rb") as src,
                    open(os.path.join(target, name), "wb") as out,
                ):
                    out.write(src.read())
    except LittleFSError as e:
        raise UsageError(
            "%s: not a readable LittleFS image (%s): damaged, or another partition" % (image_path, e)
        ) from None


def run(args):
    if args.block_size <= 0 or args.block_size % IO_SIZE:
        raise UsageError("--block-size %d: expected a positive multiple of %d" % (args.block_size, IO_SIZE))
    with tempfile.TemporaryDirectory(prefix="bobing-import-") as folder:
        extract(args.image, args.root, folder, args.block_size)
        conn = open_db(args.db)
        source = syncer.DirSource(folder, name=args.image)
        day, at = now()
        try:
            result = syncer.sync(conn, source, day, at, acknowledge=False)
        except syncer.SyncError as e:
            raise UsageError(str(e)) from None
    result.not_acked = None
    print_result(result, "image of bowl")
    return 1 if result.issues else 0
