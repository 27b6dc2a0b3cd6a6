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
"""

import sys

import vfs


def _mount(path):
    f = open(path, "rb")
    image = bytearray(f.seek(0, 2))
    f.seek(0)
    f.readinto(image)
    f.close()
    vfs.mount(vfs.VfsRom(image), "/rom")
    sys.path[:0] = ["/rom", "/rom/harness"]
    return image


def _in_image(module):
    try:
        open("/rom/harness/%s.mpy" % module).close()
        return True
    except OSError:
        return False


def _run(argv):
    if argv[0] == "-c":
        source, name = argv[1], "<string>"
        sys.argv[:] = ["-c"] + argv[2:]
    else:
        name = argv[0]
        module = name.rsplit("/", 1)[-1][:-3]
        if _in_image(module):
            sys.argv[:] = argv
            __import__(module)
            return
        with open(name) as f:
            source = f.read()
        sys.argv[:] = argv
    code = compile(source, name, "exec")
    source = None
    exec(code, {"__name__": "__main__", "__file__": name})


_IMAGE = _mount(sys.argv[1])  # held for the whole run: VfsRom reads from it
_run(sys.argv[2:])
