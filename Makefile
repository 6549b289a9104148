# The two commands a newcomer needs: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test test-fast warm-up lint format docs bench serve clean

# The tests run in parallel (pytest-xdist), one process more than the machine
# has cores (some tests wait on servers and sockets); TEST_WORKERS=0 runs
# them in one process. The tiers are markers the tests get from what they
# touch (tests/conftest.py; docs/development.md).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
FAST_TIER := not postgresql and not browser and not subprocess and not slow

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Every test, then the 25 slowest.
test: $(STAMP) warm-up
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n $(TEST_WORKERS) --durations=25

# The loop for development: no PostgreSQL, no browser, no program started, no
# slow test, and a quarter of each property test's random examples.
test-fast: $(STAMP) warm-up
	$(PY) -m ruff check .
	$(PY) -m pytest -n $(TEST_WORKERS) -m "$(FAST_TIER)" --hypothesis-profile=fast

# The compiled random-game loops into numba's cache (a first compile takes a
# minute of CPU; a load from the cache, a second), before the tests and the
# bots' search processes they start would each compile them.
warm-up: $(STAMP)
	$(PY) -c 'import pbem.games, pbem.ai.vacu_tree as t; pbem.games.warm_up(); t.warm_up()'

# Python may keep its compiled modules (a machine may forbid it by default):
# every test process, and every program the tests start, imports the same.
test test-fast warm-up: export PYTHONDONTWRITEBYTECODE :=

lint: $(STAMP)
	$(PY) -m ruff check .

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# The command table in docs/commands.md, from the registry of commands.
docs: $(STAMP)
	$(PY) -c 'from pathlib import Path; from pbem.server.language.registry import write_listing; write_listing(Path("docs/commands.md"))'

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) -m bench.playouts vasco --seconds 20
	$(PY) -m bench.playouts trugo --seconds 20
	$(PY) -m bench.playouts vacu --size 9 --seconds 20
	$(PY) -m bench.playouts convacu --size 9 --seconds 20
	$(PY) -m bench.server
	$(PY) -m bench.load --db both
	$(PY) -m bench.nginx --rounds 2

# The whole server in one process: SMTP listener, mail delivery, the periodic
# tick; it upgrades the database first. Settings: PBEM_* or pbem.toml.
serve: $(STAMP)
	$(VENV)/bin/pbem serve

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
