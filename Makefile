# Every target sets up .venv first, so on a fresh machine `make test` alone works.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: setup test check mpy bench bench-check play sim clean

setup: $(STAMP)

$(STAMP): requirements-dev.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(BIN)/pip install --quiet --disable-pip-version-check -e .
	touch $@

test: $(STAMP)
	$(BIN)/pytest

# mpy: every firmware file must also compile with mpy-cross
check: mpy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python tools/typecheck_firmware.py

# build/mpy: the deployable firmware, firmware/ compiled to .mpy (only what changed)
mpy: $(STAMP)
	$(BIN)/python tools/mpy_build.py

PLAYERS ?= 4
RULES   ?= xiamen
play: $(STAMP)
	$(BIN)/bobing play --players $(PLAYERS) --rules $(RULES)

# The bowl's firmware on the virtual board, in a terminal: space/Enter THROW,
# r REFEREE, l a long REFEREE press, q quits (killing it is a power cut; the
# next `make sim` resumes from build/sim/$(BOARD).img).  BOARD=devkit|cyd|oled
BOARD   ?= devkit
sim: $(STAMP)
	$(BIN)/bobing sim --board $(BOARD) --players $(PLAYERS) --rules $(RULES)

# ARGS=--port=unix64 runs the MicroPython benchmarks on the pinned 64-bit port
bench: $(STAMP)
	$(BIN)/python bench/run.py $(ARGS)

# fails if a deterministic figure (bytes, reads, erases...) is over its target
bench-check: $(STAMP)
	$(BIN)/python bench/run.py --check $(ARGS)

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .mypy_cache

# Mutation testing with cosmic-ray (tools/mutate.py says how): the kill rate per
# module and every surviving mutant.  One module: `make mutate MODULE=classify`.
.PHONY: mutate
MODULE ?=
mutate: $(STAMP)
	$(BIN)/python tools/mutate.py $(MODULE)
