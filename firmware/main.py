"""The bowl's entry point: MicroPython runs this file at power-up, and again
when the host types `import main` after a sync (docs/sync.md).

It stays this short because MicroPython runs main.py only as source from
the filesystem, compiled at every power-up, its code kept in the heap while
the bowl runs; the wiring is bowl.py, which runs in place from flash.
"""

import sys

import bowl

if __name__ == "__main__" or sys.platform == "esp32":
    try:
        bowl.start()
    finally:
        sys.modules.pop("main", None)  # the host's next `import main` starts the bowl again
