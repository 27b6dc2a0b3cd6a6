# The bowl's board for an ESP32 without PSRAM (WROOM DevKitC, CYD, the OLED
# build): MicroPython's ESP32_GENERIC with a ROMFS partition, so the firmware's
# bytecode and fonts run in place from flash (docs/install.md says how to build
# and flash it, tools/firmware_check.py what `make check` proves about it).
include(boards/mpconfigboard_esp32_common.cmake)

# The IDF reads the partition table's name from an sdkconfig file and resolves a
# relative one against ports/esp32, which this folder is not under: name it by
# its absolute path, in a fragment written into the build folder.
set(BOBING_PARTITIONS_SDKCONFIG ${CMAKE_BINARY_DIR}/sdkconfig.partitions)
file(WRITE ${BOBING_PARTITIONS_SDKCONFIG}
    "CONFIG_PARTITION_TABLE_CUSTOM_FILENAME=\"${MICROPY_BOARD_DIR}/partitions.csv\"\n")

list(APPEND SDKCONFIG_DEFAULTS
    ${MICROPY_BOARD_DIR}/sdkconfig.board
    ${BOBING_PARTITIONS_SDKCONFIG}
)

set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)
