"""`bobing import`: the log of a bowl that no longer boots, from a raw image of its flash filesystem.

Dump the filesystem partition with esptool (docs/sync.md), e.g. for
MicroPython's ESP32 layout with a 4 MB flash:

    esptool.py --port /dev/ttyUSB0 read_flash 0x200000 0x200000 flash.bin

The image is read with littlefs-python using the block parameters
MicroPython's ESP32 port mounts it with (block 4096 bytes, read and
program size 32), from memory: the file itself is never written.  The
records go through the very sync a serial link uses (host_tools/sync/syncer.py),
without the acknowledgement (there is no bowl to write it to).

With --salvage the filesystem is not mounted at all: the records are found
in the raw blocks (host_tools/sync/salvage.py), for an image LittleFS no longer
mounts.  A failed import leaves no database behind that was not there before.
"""

import os
import sqlite3
import tempfile

from host_tools.args import add_db_argument
from host_tools.commands.sync_cmd import new_database, now, print_result
from host_tools.errors import UsageError
from host_tools.sync import db, salvage, syncer
from host_tools.sync.keystore import KeyStore

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
    p.add_argument(
        "--salvage",
        action="store_true",
        help="do not mount: find the records in the raw blocks (a filesystem that no longer mounts)",
    )
    p.add_argument("--bowl", metavar="ID", help="with --salvage: the bowl id, if the image does not show one")
    p.set_defaults(run=run)


def read_image(image_path, block_size):
    """The image's bytes; UsageError if unreadable or not a whole number of blocks."""
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
    return image


def littlefs_of(image, block_size=BLOCK_SIZE):
    """An unmounted littlefs-python filesystem over the bytes `image`, with
    the parameters MicroPython's ESP32 port mounts the bowl's flash with."""
    from littlefs import LittleFS, UserContext  # the `sync` extra

    return LittleFS(
        context=UserContext(buffer=image),
        block_size=block_size,
        block_count=len(image) // block_size,
        read_size=IO_SIZE,
        prog_size=IO_SIZE,
        lookahead_size=IO_SIZE,
        mount=False,
    )


def extract(image_path, root, folder, block_size=BLOCK_SIZE):
    """Copy the folder `root` of the LittleFS image into `folder`; UsageError if unreadable."""
    from littlefs import LittleFSError  # the `sync` extra

    fs = littlefs_of(read_image(image_path, block_size), block_size)
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


def _salvage(args, folder, conn_of, keys):
    """Lay the records found in the raw image out in folder, a keyed bowl's
    under the keys the host holds for it; the salvage's own findings."""
    if args.bowl is not None and not syncer.valid_id(args.bowl):
        raise UsageError("--bowl %r: expected 16 lowercase hex digits" % args.bowl)
    found = salvage.scan(read_image(args.image, args.block_size), args.bowl, keys.all)
    if found.bowl is None:
        raise UsageError(
            "%s: %s" % (args.image, found.issues[0] if found.issues else "no bowl id found: give --bowl ID")
        )
    if not found.frames:
        raise UsageError("%s: no intact record in the image: not a bowl's flash" % args.image)
    state = db.bowl_state(conn_of(), found.bowl)
    known = {state.tip: state.chain} if state.tip and state.chain is not None else None
    count = salvage.lay_out(found, folder, known)
    return ["salvaged from the raw blocks: %d records" % count] + found.issues


def run(args):
    if args.block_size <= 0 or args.block_size % IO_SIZE:
        raise UsageError("--block-size %d: expected a positive multiple of %d" % (args.block_size, IO_SIZE))
    if args.bowl is not None and not args.salvage:
        raise UsageError("--bowl is for --salvage only")
    with new_database(args.db) as conn_of, tempfile.TemporaryDirectory(prefix="bobing-import-") as folder:
        try:
            keys = KeyStore(args.db)
            findings = _salvage(args, folder, conn_of, keys) if args.salvage else []
            if not args.salvage:
                extract(args.image, args.root, folder, args.block_size)
            day, at = now()
            source = syncer.DirSource(folder, name=args.image)
            result = syncer.sync(conn_of(), source, day, at, acknowledge=False, keys=keys)
        except syncer.SyncError as e:
            raise UsageError(str(e)) from None
        except sqlite3.Error as e:  # locked by another program, a full disk
            raise UsageError(db.describe(e, args.db)) from None
        except OSError as e:  # the temporary folder the image is laid out in
            raise UsageError("cannot write the import's temporary files: %s" % (e.strerror or e)) from None
    for line in findings:
        print(line)
    result.not_acked = None
    print_result(result, "image of bowl")
    return 1 if result.issues else 0
