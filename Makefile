# Companion: `make run` starts the site, `make test` runs every test (`make test-fast`: all but
# the browser, real-server and sweep ones).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Python keeps the compiled modules (and pytest its assertion-rewritten tests) in __pycache__
# (git ignores it): with PYTHONDONTWRITEBYTECODE set, every test worker compiled the site and
# rewrote every test module again, 2.6 s of CPU each before its first test.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-fast checks lint bench system-deps messages clean

# The site's own packages (all `make run` needs), then the test tools on top (`make test`).
$(VENV)/.site: requirements.txt constraints.txt .python-version
	@command -v pyenv >/dev/null && pyenv install --skip-existing "$$(cat .python-version)" >/dev/null 2>&1 || true
	@PYBIN=$$(PYENV_VERSION=$$(cat .python-version) pyenv which python 2>/dev/null || command -v python$$(cat .python-version) || command -v python3); \
	  echo "Using $$PYBIN ($$($$PYBIN --version))"; \
	  test -x $(PY) || $$PYBIN -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -c constraints.txt
	touch $@

$(VENV)/.installed: $(VENV)/.site requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt -c constraints.txt
	touch $@

run: $(VENV)/.site
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	PORT=$(PORT) $(PY) -m companion.serve

# Debian's Chromium for the browser journeys (its headless shell: tests/journeys.py says why),
# gettext to check every string is in the catalogues.
system-deps:
	@if [ ! -x /usr/bin/chromium-headless-shell ] || ! command -v xgettext >/dev/null; then \
	  echo "Installing Debian's chromium-headless-shell and gettext for the tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell gettext >/dev/null; \
	fi

# A worker that runs out of tests takes some of the other's (--dist worksteal): the long journeys
# no longer finish one after another on one worker (5:02 -> 4:38 on the idle 2-core machine).
test: $(VENV)/.installed system-deps
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(MAKE) --no-print-directory checks
	$(VENV)/bin/pytest -n 2 --dist worksteal $(PYTEST_ARGS)

# Everything but the browser journeys, the real-server tests and the sweeps over every command or
# page of every game (`make test` runs those): under a minute on two cores
# (tests/bench/bench_suite.py prints its time). No collectstatic: the tests it runs render pages
# with the plain static files storage (tests/conftest.py).
test-fast: $(VENV)/.installed
	$(MAKE) --no-print-directory checks
	$(VENV)/bin/pytest -n 2 --dist worksteal -m "not browser and not server and not sweep" $(PYTEST_ARGS)

checks:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(PY) manage.py makemigrations --check --dry-run >/dev/null

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

bench: $(VENV)/.installed
	for f in tests/bench/bench_*.py; do $(PY) $$f; done

messages: $(VENV)/.installed
	$(PY) manage.py makemessages --all --no-obsolete --no-location --ignore=.venv --ignore=tests
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles
