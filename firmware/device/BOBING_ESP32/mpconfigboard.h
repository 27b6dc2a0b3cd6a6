// sys.implementation._machine reads "Bobing bowl (ROMFS) with ESP32".
#define MICROPY_HW_BOARD_NAME "Bobing bowl (ROMFS)"
#define MICROPY_HW_MCU_NAME "ESP32"

// Mount the partition labelled "romfs" at /rom at power-up and put /rom and
// /rom/lib on sys.path (ports/esp32/esp32_partition.c, extmod/vfs.c): the
// bowl's modules then run in place from flash instead of being copied into
// the ~112 KB heap. `mpremote romfs deploy` and `bobing deploy` write it.
#define MICROPY_VFS_ROM (1)
