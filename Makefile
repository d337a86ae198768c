# Two commands set everything up on a fresh machine:
#   make play   the game on this computer
#   make test   the whole test suite, CPython and MicroPython
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)

.PHONY: play test bench clean

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/python -m tools sim --or-play $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto
	$(BIN)/python -m tools device-tests
	$(BIN)/python -m tools device-tests --bundle
	$(BIN)/python -m tools device-tests --bundle --py

bench: $(STAMP)
	$(BIN)/python -m tools bench

clean:
	rm -rf $(VENV) .pytest_cache
