# The two commands a newcomer needs: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test lint format docs bench serve clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check .

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# The command table in docs/commands.md, from the registry of commands.
docs: $(STAMP)
	$(PY) -c 'from pathlib import Path; from pbem.server.registry import write_listing; write_listing(Path("docs/commands.md"))'

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) -m bench.playouts vasco --seconds 20
	$(PY) -m bench.playouts trugo --seconds 20
	$(PY) -m bench.playouts vacu --size 9 --seconds 20
	$(PY) -m bench.playouts convacu --size 9 --seconds 20
	$(PY) -m bench.server
	$(PY) -m bench.load --db both

# The whole server in one process: SMTP listener, mail delivery, the periodic
# tick; it upgrades the database first. Settings: PBEM_* or pbem.toml.
serve: $(STAMP)
	$(VENV)/bin/pbem serve

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
