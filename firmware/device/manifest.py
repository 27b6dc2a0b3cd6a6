# The bowl's modules frozen into the ESP32 image, for a build that trades
# updates without reflashing for heap (docs/memory.md): frozen bytecode,
# constant strings and qstrs stay in flash, about 9 KB less heap than ROMFS.
#   make -C ports/esp32 BOARD_DIR=/path/to/firmware/device/BOBING_ESP32 \
#        FROZEN_MANIFEST=/path/to/firmware/device/manifest.py
# The board's own manifest (BOBING_ESP32/manifest.py, what `make firmware`
# builds) freezes none of them: frozen modules come before /rom on sys.path,
# so a bowl built from this one ignores the modules of a ROMFS deploy.  Here
# main.py and boot.py are not frozen: copy them to the board's filesystem (a
# few lines each: they import bowl and board.watchdog, which are frozen), the
# fonts to /display/fonts/, and write the profile's name into /profile.
include("BOBING_ESP32/manifest.py")  # the port's modules with the bowl's _boot.py
include("../manifest.py")
module("bowl.py", base_path="..")
package("app", base_path="..")
package("display", base_path="..")
# the board layer, a file each (tests/test_mp_harness.py checks the profiles'
# imports against this list); the virtual board is sim/'s, never frozen
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
        "watchdog.py",
        "devkit.py",
        "s3.py",
        "cyd.py",
        "cyd2usb.py",
        "oled.py",
        "sh1106.py",
    ],
    base_path="..",
)
