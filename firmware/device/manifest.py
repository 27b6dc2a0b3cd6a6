# The bowl's firmware image for the ESP32 (devkit, cyd and oled profiles):
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/firmware/device/manifest.py
# Frozen bytecode and constant strings run from flash, which is how the
# whole firmware fits the ~100 KB heap of an ESP32 without PSRAM (loaded as
# .mpy files the bytecode alone takes about 94 KB of heap: docs/memory.md).
# main.py is not frozen: copy it to the board's filesystem
# (`mpremote cp firmware/main.py :main.py`; a few lines: it imports bowl,
# which is frozen), and write the profile's name into /profile (`devkit`,
# `cyd` or `oled`; none means devkit).
include("$(PORT_DIR)/boards/manifest.py")
include("../manifest.py")
module("bowl.py", base_path="..")
package("app", base_path="..")
package("display", base_path="..")
# the board layer without the virtual board (board/sim.py needs firmware/sim/)
package(
    "board",
    files=[
        "__init__.py",
        "pins.py",
        "base.py",
        "inputs.py",
        "sound.py",
        "dfplayer.py",
        "esp32.py",
        "devkit.py",
        "cyd.py",
        "oled.py",
    ],
    base_path="..",
)
