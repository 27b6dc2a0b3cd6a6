# Freezes the shared rule package, game engine and flash store into the
# ESP32 firmware image: `include()` this file from the board's manifest.
# It sits beside the package, not in it (micropython-lib's layout), because
# package() freezes every .py under bobing/ and would freeze a manifest
# kept there as a module.  Frozen bytecode runs from flash, so importing the
# package then costs almost no heap.
metadata(description="Bobing (博饼) rules, game engine and flash log", version="0.1.0")

package("bobing")
