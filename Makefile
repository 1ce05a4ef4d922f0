# Two commands do all set-up on a fresh machine:  `make play`  and  `make test`.
# Each bootstraps .venv/ in the repo and installs what it needs.
PYTHON   ?= python3
VENV     := .venv
PY       := $(VENV)/bin/python
HOST     := 127.0.0.1
NOTEBOOK := examples/play.ipynb
# PORT=NNNN picks the port of `make play` (default 8866) and of `make lab` (default 8888).
ifeq ($(origin PORT),undefined)
PLAY_PORT := 8866
LAB_PORT  := 8888
else
PLAY_PORT := $(PORT)
LAB_PORT  := $(PORT)
endif
CHROMIUM := /usr/bin/chromium

.PHONY: play lab test lint bench strength venv chromium postgresql nodejs clean

# $(VENV)/.installed-app  : the package + Voila/JupyterLab   (extra "app")
# $(VENV)/.installed-test : the package + test tools         (extra "test")
EXTRA_app  := Voila, JupyterLab and the game's own libraries
EXTRA_test := pytest, Playwright, Voila, JupyterLab and the game's own libraries
$(VENV)/.installed-%: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python >= 3.11 is required (set PYTHON=...)"; exit 1; }
	@test -x $(PY) || { echo "==> Creating the virtual environment $(VENV)/"; $(PYTHON) -m venv $(VENV); }
	@echo "==> Installing conquest_widget with its '$*' extra into $(VENV)/ ($(EXTRA_$*) and their"
	@echo "    dependencies, about 100 packages): 1-5 minutes the first time, depending on the network;"
	@echo "    seconds afterwards.  pip only reports errors."
	@start=$$(date +%s); \
	  $(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip && \
	  $(PY) -m pip install --quiet --disable-pip-version-check -e '.[$*]' && \
	  echo "==> Installed in $$(( $$(date +%s) - start )) s: $$($(PY) -m pip list --format=freeze 2>/dev/null | wc -l) packages in $(VENV)/"
	@touch $@

venv: $(VENV)/.installed-app $(VENV)/.installed-test

## Play the game in a browser: Voila serves examples/play.ipynb as an app (no code shown),
## on 127.0.0.1 only, with a token in the printed URL; saves go to examples/conquest_saves/.
## The same code path as `conquest-widget play` (conquest_widget/serve.py).
play: $(VENV)/.installed-app
	@$(VENV)/bin/conquest-widget play --dir examples --port $(PLAY_PORT)

## The same notebook in JupyterLab (code visible; run the cell to play).
lab: $(VENV)/.installed-app
	$(VENV)/bin/jupyter-lab $(NOTEBOOK) --no-browser --ServerApp.ip=$(HOST) --ServerApp.port=$(LAB_PORT) \
	  --ServerApp.port_retries=0 $$([ "$$(id -u)" = 0 ] && echo --allow-root)

## Run the whole test suite (unit, notebooks, browser end-to-end tests), after the gate.
test: $(VENV)/.installed-test chromium postgresql nodejs lint
	$(PY) -m pytest

## The quality gate (configured in pyproject.toml): ruff; mypy on core, the saves and every
## game's engine, rules and CPUs; the import contracts (import-linter: core imports no
## game, the shell, maps and saves import no game, no game imports another, engines import
## no widget library).  About 20 s.
lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check conquest_widget tests
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

## Debian's chromium for the browser tests (Playwright's own browser downloads are not used),
## with Japanese and emoji fonts so the test screenshots are readable.
BROWSER_PACKAGES := chromium fonts-ipafont-gothic fonts-noto-color-emoji
chromium:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; \
	  elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "The browser tests need $(CHROMIUM): run  sudo apt-get install -y --no-install-recommends $(BROWSER_PACKAGES)  and retry."; exit 1; fi; \
	  echo "==> Installing $(BROWSER_PACKAGES) with apt (about 100 MB, 1-3 minutes)"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $(BROWSER_PACKAGES); }

## The table tests run every store test on a real PostgreSQL server too: tests/tables/conftest.py
## starts a private one (a Unix socket in a temporary folder) from Debian's `postgresql`.
## Node.js checks the package's page modules (.js files) in the tests (node --check).
nodejs:
	@command -v node >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; \
	  elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "The tests check the page modules with Node.js: run  sudo apt-get install -y --no-install-recommends nodejs  and retry."; exit 1; fi; \
	  echo "==> Installing nodejs with apt (about 30 MB, 1 minute)"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends nodejs; }

postgresql:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; \
	  elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "The table tests need PostgreSQL: run  sudo apt-get install -y --no-install-recommends postgresql  and retry."; exit 1; fi; \
	  echo "==> Installing postgresql with apt (about 50 MB, 1-2 minutes)"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends postgresql; }

## Benchmarks (on demand, about 20 minutes): speed, what a page receives on the wire (issue 32:
## per game, to the first move and per move) and the widgets a game leaves alive; figures go to
## docs/performance.md.
bench: $(VENV)/.installed-test chromium
	$(PY) -m pytest tests/benchmarks -m "not strength" -p no:cacheprovider -o addopts="" -s

## CPU strength measurements (on demand, hours: thousands of games per pairing); figures go
## to docs/ai*.md with 95% Wilson intervals.
strength: $(VENV)/.installed-test
	$(PY) -m pytest tests/benchmarks -m strength -p no:cacheprovider -o addopts="" -s

clean:
	rm -rf $(VENV) .pytest_cache build dist *.egg-info
