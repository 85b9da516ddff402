# One command per verb. `make run` and `make test` work on a fresh machine.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint fmt types unit e2e bench bench-peer test-long mutate screenshots icons clean browser proxy

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(BIN)/python -m app --host $(HOST) --port $(PORT)

# Debian's Chromium for the browser tests; Playwright drives it, never downloads one.
browser:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# Debian's Caddy, for the test that plays through the compose stack's Caddyfile
proxy:
	@test -x /usr/bin/caddy || { \
	  echo "installing Debian's caddy for the reverse proxy test"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null; }

# npm's test tools (axe-core for the accessibility checks), as package-lock.json pins them
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

types: $(VENV)/.installed-dev
	$(BIN)/mypy

fmt: $(VENV)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

unit: $(VENV)/.installed-dev node_modules/.installed
	$(BIN)/pytest -q -m "not slow"

# without TEST_DATABASE_URL / TEST_REDIS_URL, throwaway PostgreSQL and Redis servers run
# the service tests when their programs are installed (tools/services.py); CI sets both
test: $(VENV)/.installed-dev node_modules/.installed browser proxy lint types
	$(BIN)/python tools/services.py -- $(BIN)/pytest -q -m "not slow"
	@if ls static/tests/*.test.js >/dev/null 2>&1; then node --test static/tests/; fi

# thousands of random games per engine: the slow property tests, the contract
# suite with 1000 hypothesis examples per engine, many rounds of the race suite, the
# server fuzzed with many more examples, and schemathesis against /openapi.json
test-long: $(VENV)/.installed-dev
	$(BIN)/pytest -q -m slow tests/engines
	$(BIN)/pytest -q -m slow tests/app
	HYPOTHESIS_PROFILE=long $(BIN)/pytest -q tests/engines/test_contract.py
	HYPOTHESIS_PROFILE=long $(BIN)/pytest -q tests/app/test_fuzz.py

# mutation testing: mutmut breaks the rule, view and seat-view modules one small
# change at a time and runs the fast tests (SQLite only) against each; the report
# gives the share killed per module (docs/testing.md). Long, never part of `make test`.
MUTATE_JOBS ?= 2
mutate: $(VENV)/.installed-dev
	rm -rf mutants
	env -u TEST_DATABASE_URL -u TEST_REDIS_URL $(BIN)/mutmut run --max-children $(MUTATE_JOBS)
	$(BIN)/python tools/mutation_report.py | tee mutants/report.json

bench: $(VENV)/.installed
	@for script in bench/bench_*.py; do $(BIN)/python $$script; done

# boardgame.io and this server side by side, then the bench scripts; PEER and COMPARE
# name the peer and the yardstick, kept outside this repository; raw output in
# bench/results/<time>/ (docs/benchmarks.md)
bench-peer: $(VENV)/.installed
	bash bench/side_by_side.sh

screenshots: $(VENV)/.installed-dev browser
	$(BIN)/python tools/screenshots.py

# the web app's PNG icons, drawn from static/favicon.svg (tools/icons.py)
icons: $(VENV)/.installed-dev browser
	$(BIN)/python tools/icons.py

clean:
	rm -rf $(VENV) node_modules .mypy_cache .ruff_cache .pytest_cache data mutants
