# Two commands do all set-up on a fresh machine:  `make play`  and  `make test`.
# Each bootstraps .venv/ in the repo and installs what it needs.
PYTHON   ?= python3
VENV     := .venv
PY       := $(VENV)/bin/python
HOST     := 127.0.0.1
PORT     ?= 8866
NOTEBOOK := examples/play.ipynb
CHROMIUM := /usr/bin/chromium

.PHONY: play lab test bench venv chromium clean

# $(VENV)/.installed-app  : the package + Voila/JupyterLab   (extra "app")
# $(VENV)/.installed-test : the package + test tools         (extra "test")
$(VENV)/.installed-%: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python >= 3.11 is required (set PYTHON=...)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[$*]'
	touch $@

venv: $(VENV)/.installed-app $(VENV)/.installed-test

## Play the game in a browser: Voila serves examples/play.ipynb as an app (no code shown).
play: $(VENV)/.installed-app
	@echo "Japan Conquest: open  http://$(HOST):$(PORT)/  in a browser  (Ctrl-C to stop)"
	$(PY) -m voila $(NOTEBOOK) --no-browser --Voila.ip=$(HOST) --port=$(PORT) --Voila.port_retries=0

## The same notebook in JupyterLab (code visible; run the cell to play).
lab: $(VENV)/.installed-app
	$(VENV)/bin/jupyter-lab $(NOTEBOOK) --no-browser --ServerApp.ip=$(HOST) $$([ "$$(id -u)" = 0 ] && echo --allow-root)

## Run the whole test suite (unit, notebooks, browser end-to-end tests).
test: $(VENV)/.installed-test chromium
	$(PY) -m pytest

## Debian's chromium for the browser tests (Playwright's own browser downloads are not used),
## with Japanese and emoji fonts so the test screenshots are readable.
BROWSER_PACKAGES := chromium fonts-ipafont-gothic fonts-noto-color-emoji
chromium:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; \
	  elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "The browser tests need $(CHROMIUM): run  sudo apt-get install -y $(BROWSER_PACKAGES)  and retry."; exit 1; fi; \
	  $$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y $(BROWSER_PACKAGES); }

## Speed benchmarks (on demand); figures go to docs/performance.md.
bench: $(VENV)/.installed-test chromium
	$(PY) -m pytest tests/benchmarks -p no:cacheprovider -o addopts="" -s

clean:
	rm -rf $(VENV) .pytest_cache build dist *.egg-info
