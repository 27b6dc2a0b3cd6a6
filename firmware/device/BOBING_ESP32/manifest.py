# The modules frozen into the bowl's ESP32 image: MicroPython's own set for
# the ESP32 (asyncio, the networking bundle...) with the bowl's _boot.py in
# place of the port's, and nothing else of the bowl's.
# The bowl's modules come from the ROMFS partition instead (`bobing deploy`),
# because frozen modules come before /rom on sys.path: frozen, they would
# shadow every later ROMFS deploy.  ../manifest.py freezes them instead, for a
# build that trades updates without reflashing for the heap the qstr pools
# take (docs/memory.md).
# $(PORT_DIR)/boards/manifest.py, but for _boot.py: the port's modules one by
# one (freezing the folder whole would freeze the port's _boot.py beside
# ours, two frozen modules of one name, and the build's order would pick
# one), as the pinned release (build.sh) has them.
freeze("$(PORT_DIR)/modules", ("apa106.py", "espnow.py", "flashbdev.py", "inisetup.py", "machine.py"))
module("_boot.py")
include("$(MPY_DIR)/extmod/asyncio")
require("bundle-networking")
require("aioespnow")
require("dht")
require("ds18x20")
require("neopixel")
require("onewire")
require("umqtt.robust")
require("umqtt.simple")
require("upysh")
