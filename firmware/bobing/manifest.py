# Freezes the shared rule package, game engine and flash store into the
# ESP32 firmware image (micropython-lib style: `include()` this file from
# the board's manifest).  Frozen bytecode runs from flash, so importing the
# package then costs almost no heap.
metadata(description="Bobing (博饼) rules, game engine and flash log", version="0.1.0")

package("bobing", base_path="..")
