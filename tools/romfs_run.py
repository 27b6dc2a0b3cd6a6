"""Run a script (or code) in MicroPython with the firmware in a ROMFS image, as an ESP32 runs it.

    micropython32 -X heapsize=N tools/romfs_run.py IMAGE SCRIPT [ARG...]
    micropython32 -X heapsize=N tools/romfs_run.py IMAGE -c CODE

First thing, before anything else is allocated, the image (tools/romfs_build.py)
is read whole into one bytearray at the start of the heap and mounted with
vfs.VfsRom at /rom, first on sys.path: the firmware's modules then import
from it and run in place, bytecode and constant strings referenced from the
image rather than copied into the heap, exactly as from the ESP32's ROMFS
partition (mounted at /rom by the firmware) or, in the same way, frozen.
The image stands for the flash: give -X heapsize the working heap wanted
plus tools/romfs_build.py rom_heap(image size) bytes (tests/mp.py does), so what the script
measures is that working heap.  The script then runs with sys.argv =
[SCRIPT, ARG...]: if the image's harness/ folder (tests/mp.py HARNESS) holds
it compiled, it is imported from there and runs in place like the firmware;
otherwise its source is compiled with its own globals (__name__ "__main__",
__file__ SCRIPT).  harness/ is on sys.path after /rom.

This file is compiled from source into the heap it measures, so it is kept
to top-level statements: no functions, and what it no longer needs dropped
(a version with three functions kept 288 bytes more).
"""

import sys

import vfs

f = open(sys.argv[1], "rb")
_IMAGE = bytearray(f.seek(0, 2))  # held for the whole run: VfsRom reads from it
f.seek(0)
f.readinto(_IMAGE)
f.close()
vfs.mount(vfs.VfsRom(_IMAGE), "/rom")
sys.path[:0] = ["/rom", "/rom/harness"]
name = sys.argv[2]
module = name.rsplit("/", 1)[-1][:-3]
try:
    open("/rom/harness/%s.mpy" % module).close()
except OSError:
    module = None  # not in the image: its source is compiled
del f
if module:
    del name
    sys.argv[:] = sys.argv[2:]
    __import__(module)
else:
    if name == "-c":
        source, name = sys.argv[3], "<string>"
        sys.argv[:] = ["-c"] + sys.argv[4:]
    else:
        with open(name) as f:
            source = f.read()
        sys.argv[:] = sys.argv[2:]
    code = compile(source, name, "exec")
    source = None  # the text is not kept while the script runs
    exec(code, {"__name__": "__main__", "__file__": name})
