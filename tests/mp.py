"""Run code in a real MicroPython unix port from pytest.

Two ports, named by what they stand for:
- "unix64": the pinned PyPI build (.venv/bin/micropython) on firmware/'s .py
  source, as the tests always ran;
- "esp32word": ../shared/tools/micropython32, the unix port at the ESP32's
  word size (4-byte words, 31-bit small ints), on firmware/ compiled by
  mpy-cross into build/mpy-test, as deployed.  Heap figures mean something
  only here: the 64-bit port makes every object 1.6-2x larger;
- "esp32rom": micropython32 with the firmware as an ESP32 runs it, from
  flash: build/romfs-test.img (tools/romfs_build.py: the .mpy tree and the
  fonts) is read whole into one bytearray first thing and mounted with
  vfs.VfsRom at /rom (tools/romfs_run.py), so modules import from it and
  their bytecode and constant strings are run in place, not copied into the
  heap.  The image stands for the flash: `heapsize` is the working heap,
  and the process gets -X heapsize = heapsize + the image's size rounded
  up to 16-byte GC blocks + one block (the bytearray object) + their share
  of the collector's tables (tools/romfs_build.py rom_heap), so a figure
  measured there is what the firmware needs of an ESP32's heap.

tests/conftest.py runs each test that calls run_micropython without a port
on ONE_PORT, or on the ports its mp_ports mark names (see there); `port=`
pins a call to one, and is the only way to reach "esp32rom".  tools/ is on every port's path, for
tools/mp_heap.py.
"""

import importlib.util
import os
import subprocess
import sys
import tempfile

# tests/mplib's host-side helpers (slowdown here), after everything else: it
# also holds a pytest.py for MicroPython
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib"))
import slowdown  # noqa: E402

from host_tools.sim.process import fixed_addresses, load_libc  # noqa: E402

load_libc()  # for fixed_addresses, between fork and exec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")
MPY_TEST = os.path.join(ROOT, "build", "mpy-test")
# CI clones the repo with shared/ beside it, never inside it.
MICROPYTHON32 = os.path.join(os.path.dirname(ROOT), "shared", "tools", "micropython32")

ROMFS_RUN = os.path.join(TOOLS, "romfs_run.py")
# The scripts and helpers the "esp32rom" runs use, compiled into the image's
# harness/ folder: a script there runs from flash like the firmware, so the
# heap measured holds the firmware's objects and not the harness's bytecode
# (about 7 KB of appflow's 11.5 KB base when compiled from source).
HARNESS = tuple(
    os.path.join(ROOT, *rel)
    for rel in (
        ("tests", "mplib", "appflow.py"),
        ("tests", "mplib", "flow.py"),
        ("tests", "mplib", "fakemachine.py"),
        ("tools", "mp_heap.py"),
    )
)

# the two ports of the source and the deployed .mpy; ALL_PORTS adds the ROMFS setting
PORTS = ("unix64", "esp32word")
ALL_PORTS = (*PORTS, "esp32rom")
# A MicroPython test runs on one port (tests/conftest.py): the same Python
# gives the same answer on both, and the ESP32's word size and its deployed
# .mpy are what matter, so micropython32 when it is there.  A test of what
# differs between the ports (heap figures aside, which mean something only
# on micropython32) says so with pytest.mark.mp_ports(*PORTS).
ONE_PORT = "esp32word" if os.path.exists(MICROPYTHON32) else "unix64"
# the port of a call that names none; tests/conftest.py sets it per test
default_port = "unix64"

# An ESP32 without PSRAM leaves about 100 KB of heap to the application.
ESP32_HEAP = 100_000
UNIX64_HEAP = 160_000

_built = set()


def _tool(name):
    """tools/NAME.py, loaded by path: tools/ is no package."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(TOOLS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mpy_build():
    """tools/mpy_build.py."""
    return _tool("mpy_build")


def romfs_build():
    """tools/romfs_build.py."""
    return _tool("romfs_build")


def harness():
    """{path in the image: file} of HARNESS, compiled into build/mpy-harness,
    and firmware/main.py as source at harness/main.py: a bowl compiles its
    main.py at power-up (tests/mplib/appflow.py does as it)."""
    files = {"harness/main.py": os.path.join(FIRMWARE, "main.py")}
    for source in HARNESS:
        name = os.path.basename(source)[:-3] + ".mpy"
        target = os.path.join(ROOT, "build", "mpy-harness", name)
        mpy_build().compile_file(os.path.relpath(source, ROOT), target, ROOT)
        files["harness/" + name] = target
    return files


def rom_image(mpy_dir=MPY_TEST):
    """The ROMFS image of the .mpy tree `mpy_dir`, the fonts and the harness,
    brought up to date once per process: build/romfs.img for build/mpy,
    build/romfs-test.img for build/mpy-test."""
    image = romfs_build().image_path(mpy_dir)
    if image not in _built:
        romfs_build().build(image, mpy_dir, harness())
        _built.add(image)
    return image


def port_setup(port, mpy_dir=MPY_TEST):
    """(binary, folder holding the bobing package) for a port name.

    For "esp32word" the .mpy tree `mpy_dir` is brought up to date first, once
    per process: each xdist worker checks it before its first run.
    """
    if port == "unix64":
        return os.path.join(os.path.dirname(sys.executable), "micropython"), FIRMWARE
    if port not in ("esp32word", "esp32rom"):
        raise ValueError("unknown MicroPython port %r (choose from %s)" % (port, ", ".join(ALL_PORTS)))
    if not os.path.exists(MICROPYTHON32):
        raise AssertionError("%s is missing: the shared/ folder must sit beside the repo" % MICROPYTHON32)
    if mpy_dir not in _built:
        mpy_build().build(mpy_dir)
        _built.add(mpy_dir)
    return MICROPYTHON32, mpy_dir


def run_micropython(code, heapsize=None, path=(), timeout=600, script_args=None, port=None):
    """Run `code` under MicroPython with the bobing package importable; return its stdout.

    With script_args, `code` is a script's path and script_args its arguments.
    `port` is one of ALL_PORTS; None takes the port the test runs for.  On
    "esp32rom" `heapsize` is the working heap, the image comes on top.
    `timeout` is seconds on a quiet machine (tests/mplib/slowdown.py scales it).
    Fails the test with MicroPython's own traceback if the code raises.
    """
    port = port or default_port
    if heapsize is None:  # the 64-bit port's objects are 1.6-2x larger: the same code, more bytes
        heapsize = UNIX64_HEAP if port == "unix64" else ESP32_HEAP
    binary, package_dir = port_setup(port)
    if port == "esp32rom" and script_args is None and len(code.encode()) > 255:
        # the unix port makes every argument after the script a qstr, at most
        # 255 bytes (a longer one stops it with "FATAL: uncaught NLR"): longer
        # code goes to tools/romfs_run.py in a file
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(code)
        try:
            return run_micropython(f.name, heapsize, path, timeout, [], port)
        finally:
            os.remove(f.name)
    program = ["-c", code] if script_args is None else [code, *script_args]
    if port == "esp32rom":
        image = rom_image()
        heapsize += romfs_build().rom_heap(os.path.getsize(image))
        program = [ROMFS_RUN, image, *program]
        package_dir = ()
    else:
        package_dir = (package_dir,)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((*package_dir, *path, TOOLS, ".frozen")))
    proc = subprocess.run(
        [binary, "-X", "heapsize=%d" % heapsize, *program],
        env=env,
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(timeout),
        preexec_fn=None if port == "unix64" else fixed_addresses,
    )
    if proc.returncode != 0:
        raise AssertionError(
            "micropython (%s) failed (%d):\n%s%s" % (port, proc.returncode, proc.stdout, proc.stderr)
        )
    return proc.stdout


def image_kept(mpy_dir=MPY_TEST):
    """gc.mem_alloc() bytes the image takes on "esp32rom": its bytearray's data
    in whole 16-byte blocks and the bytearray object."""
    return romfs_build().rom_kept(os.path.getsize(rom_image(mpy_dir)))


def _qstr_figures(out):
    """The figures of the last micropython.qstr_info() line of `out`."""
    line = [w for w in out.splitlines() if w.startswith("qstr pool:")][-1]
    return {k: int(v) for k, v in (w.strip().split("=") for w in line.split(":", 1)[1].split(","))}


def qstr_pool_bytes(out):
    """Heap bytes of the qstr pools in the last micropython.qstr_info() line of
    `out`: its total less the string data it counts beside the pools."""
    figures = _qstr_figures(out)
    return figures["n_total_bytes"] - figures["n_str_data_bytes"]


def qstr_count(out):
    """The names (qstrs made at run time) in the last micropython.qstr_info() line of `out`."""
    return _qstr_figures(out)["n_qstr"]


_started = {}


def start_kept(port):
    """Heap bytes an empty script keeps on the port's binary, its qstr pools
    left out: what the interpreter itself holds once started."""
    binary = port_setup("esp32word" if port == "esp32rom" else port)[0]
    if binary not in _started:
        code = "import gc, micropython\ngc.collect()\nprint(gc.mem_alloc())\nmicropython.qstr_info()"
        out = subprocess.run([binary, "-c", code], capture_output=True, text=True, check=True).stdout
        _started[binary] = int(out.split()[0]) - qstr_pool_bytes(out)
    return _started[binary]


def smallest_heap(code, low=8 * 1024, high=256 * 1024, step=1024, port="esp32word", **kwargs):
    """The smallest -X heapsize, to `step` bytes, at which `code` runs without failing.

    Bisects between `low` (assumed to fail) and `high` (which must pass);
    `kwargs` go to run_micropython.  The peak heap of a whole flow, measured
    as the bowl would meet it: a MemoryError, or fragmentation, at any point.
    """
    run_micropython(code, heapsize=high, port=port, **kwargs)
    while high - low > step:
        mid = (low + high) // 2
        try:
            run_micropython(code, heapsize=mid, port=port, **kwargs)
            high = mid
        except AssertionError:
            low = mid
    return high


def smallest_heap_from_above(run, start, step):
    """The smallest heap, to `step` bytes, from which `run(heap)` passes at
    every step up to `start` (which must pass): walked down from `start` to
    the first failure, an AssertionError from run (run_micropython's, a
    MemoryError included).  Near its limit a flow's pass or fail depends on
    where its objects happen to land (the collector never moves one), so it
    may pass below a size at which it fails; a bisection would report such a
    lucky size, this figure is one that every larger heap tried also meets."""
    run(start)
    while True:
        try:
            run(start - step)
        except AssertionError:
            return start
        start -= step
