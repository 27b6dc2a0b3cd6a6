"""Build the firmware's ROMFS image: build/romfs.img.

Usage: python tools/romfs_build.py [OUT]   (default build/romfs.img)

The image holds the .mpy tree of tools/mpy_build.py (build/mpy, brought up
to date first: every firmware module but the freeze manifests) and the
screens' fonts (firmware/display/fonts/*.bin at display/fonts/, where
display/font.py looks beside itself).  It is written by mpremote's own
ROMFS writer (mpremote.romfs.VfsRomWriter, mpremote pinned at 1.29.0 in
requirements-dev.txt), so it is byte for byte the format `mpremote romfs
deploy build/romfs.img` puts on an ESP32's ROMFS partition, which the
firmware mounts at /rom: MicroPython >= 1.25 then runs the modules' bytecode
in place from flash (docs/memory.md).  Entries are sorted by name, so the
same tree gives the same image.
"""

import os
import sys

from mpremote.romfs import VfsRomWriter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTS = os.path.join(ROOT, "firmware", "display", "fonts")
IMAGE = os.path.join(ROOT, "build", "romfs.img")


def image_path(mpy_dir):
    """Where the image of a .mpy tree goes: build/mpy -> build/romfs.img,
    build/mpy-test -> build/romfs-test.img."""
    folder, name = os.path.split(os.path.abspath(mpy_dir))
    return os.path.join(folder, "romfs" + name[3:] + ".img")


def rom_kept(size):
    """gc.mem_alloc() bytes an image of `size` bytes takes when tools/romfs_run.py
    reads it into a bytearray: the data in whole 16-byte GC blocks (micropython32,
    as the ESP32) plus one block for the bytearray object."""
    return (size + 15) // 16 * 16 + 16


def heap_holding(n):
    """-X heapsize bytes that hold n more bytes of objects.  The heap holds
    the collector's tables too (py/gc.c gc_setup_area), a byte of
    allocation table per 4 blocks of 16 bytes and a byte of finaliser table
    per 8, so it grows its objects' room in steps of 64 bytes (one table
    byte), each taking 65.5 bytes of heap."""
    return ((n + 63) // 64 * 131 + 1) // 2


def rom_heap(size):
    """Heap bytes an image of `size` bytes takes: its rom_kept() and that
    share of the tables.  Without the tables' share a 240 KB image took
    5.6 KB of them out of the working heap."""
    return heap_holding(rom_kept(size))


def _mpy_build():
    import importlib.util

    spec = importlib.util.spec_from_file_location("mpy_build", os.path.join(ROOT, "tools", "mpy_build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tree(mpy_dir):
    """{path in the image: host file}: every .mpy of `mpy_dir` and the fonts."""
    files = {}
    for folder, dirs, names in os.walk(mpy_dir):
        dirs.sort()
        for name in names:
            if name.endswith(".mpy"):
                path = os.path.join(folder, name)
                files[os.path.relpath(path, mpy_dir).replace(os.sep, "/")] = path
    for name in os.listdir(FONTS):
        if name.endswith(".bin"):
            files["display/fonts/" + name] = os.path.join(FONTS, name)
    return files


def _write(writer, files, prefix):
    # files under `prefix` ("" or "a/b/"), this folder's files then its folders, by name
    here = sorted(rel for rel in files if rel.startswith(prefix) and "/" not in rel[len(prefix) :])
    names = {rel[len(prefix) :] for rel in here}
    folders = sorted({rel[len(prefix) :].split("/")[0] for rel in files if rel.startswith(prefix)} - names)
    for rel in here:
        with open(files[rel], "rb") as f:
            writer.mkfile(rel[len(prefix) :], f.read())
    for folder in folders:
        writer.opendir(folder)
        _write(writer, files, prefix + folder + "/")
        writer.closedir()


def image(files):
    """The ROMFS image (bytes) of `files` ({path in the image: host file})."""
    writer = VfsRomWriter()
    _write(writer, files, "")
    return writer.finalise()


def build(out=IMAGE, mpy_dir=None, extra=None):
    """Bring the .mpy tree up to date, write the image to `out`; returns its size in bytes.
    extra: more files for the image, {path in the image: host file}."""
    mpy_build = _mpy_build()
    mpy_dir = mpy_dir or mpy_build.DEPLOY
    mpy_build.build(mpy_dir)
    data = image({**tree(mpy_dir), **(extra or {})})
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = "%s.%d.tmp" % (out, os.getpid())
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    return len(data)


if __name__ == "__main__":
    out = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else IMAGE
    size = build(out)
    print("romfs: %d bytes (firmware .mpy tree and fonts) in %s" % (size, os.path.relpath(out)))
