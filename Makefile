# Two commands do all set-up on a fresh machine:  `make play`  and  `make test`.
# Each bootstraps .venv/ in the repo and installs what it needs.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: play test bench venv clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python >= 3.11 is required (set PYTHON=...)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

## Launch the game in a browser.
play: $(STAMP)
	@echo "The playable app is not available yet (see the widget issue)."
	@echo "Meanwhile:  $(PY) -c 'from conquest_widget import board; print(board.prefecture(\"Tokyo\"))'"

## Run the whole test suite.
test: $(STAMP)
	$(PY) -m pytest

## Speed benchmarks (on demand); figures go to docs/performance.md.
bench: $(STAMP)
	$(PY) -m pytest tests/benchmarks -p no:cacheprovider -o addopts="" -s

clean:
	rm -rf $(VENV) .pytest_cache build dist *.egg-info
