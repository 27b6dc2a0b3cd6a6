"""Build the firmware's ROMFS image: build/romfs.img.

Usage: python tools/romfs_build.py [OUT]            (default build/romfs.img)
       python tools/romfs_build.py --device [OUT]   (default build/romfs-device.img)

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

build/romfs.img is what the heap tests and benches measure (tests/mp.py,
bench/py_app.py): the whole tree, the virtual board's modules included.
--device writes the image a bowl gets (device_tree()): the same tree
without them, which a bowl never imports and docs/install.md flashes.
"""

import os
import sys

from host_tools.deploy import firmware_tree
from host_tools.deploy.heap import heap_holding, rom_heap, rom_kept  # the harness asks them here

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTS = os.path.join(ROOT, "firmware", "display", "fonts")
IMAGE = os.path.join(ROOT, "build", "romfs.img")
__all__ = ["heap_holding", "rom_heap", "rom_kept"]
DEVICE_IMAGE = os.path.join(ROOT, "build", "romfs-device.img")
# the virtual board: firmware/sim/ and its board profile, unix port only
SIM_ONLY = tuple(p[:-3] + ".mpy" if p.endswith(".py") else p for p in firmware_tree.NOT_ON_A_BOWL)


def image_path(mpy_dir):
    """Where the image of a .mpy tree goes: build/mpy -> build/romfs.img,
    build/mpy-test -> build/romfs-test.img."""
    folder, name = os.path.split(os.path.abspath(mpy_dir))
    return os.path.join(folder, "romfs" + name[3:] + ".img")


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


def device_tree():
    """{path in the image: bytes} of the bowl's image: host_tools.deploy.firmware_tree's
    bowl_files(), what `bobing deploy` writes to a ROMFS partition (no
    virtual board; boot.py and main.py as source, which deploy also writes
    to the filesystem)."""
    return firmware_tree.bowl_files()


def image(files):
    """The ROMFS image (bytes) of `files` ({path in the image: host file})."""
    data = {}
    for rel, path in files.items():
        with open(path, "rb") as f:
            data[rel] = f.read()
    return firmware_tree.romfs_image(data)


def build(out=IMAGE, mpy_dir=None, extra=None, device=False):
    """Bring the .mpy tree up to date, write the image to `out`; returns its size in bytes.
    extra: more files for the image, {path in the image: host file};
    device: the bowl's image, device_tree() rather than tree()."""
    mpy_build = _mpy_build()
    mpy_dir = mpy_dir or mpy_build.DEPLOY
    mpy_build.build(mpy_dir)
    if device:
        data = firmware_tree.romfs_image(device_tree())
    else:
        data = image({**tree(mpy_dir), **(extra or {})})
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = "%s.%d.tmp" % (out, os.getpid())
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    return len(data)


def main(args):
    device = args[:1] == ["--device"]
    args = args[1:] if device else args
    if len(args) > 1 or any(arg.startswith("-") for arg in args):
        print("usage: python tools/romfs_build.py [--device] [OUT]", file=sys.stderr)
        return 2
    out = os.path.abspath(args[0]) if args else DEVICE_IMAGE if device else IMAGE
    size = build(out, device=device)
    what = "the bowl's .mpy tree and fonts, no virtual board" if device else "firmware .mpy tree and fonts"
    print("romfs: %d bytes (%s) in %s" % (size, what, os.path.relpath(out)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
