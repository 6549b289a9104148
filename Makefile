# The two commands a newcomer needs: `make test` and (once the server lands) `make serve`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test lint format bench serve clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check .

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) -m bench.playouts vasco --seconds 20
	$(PY) -m bench.playouts trugo --seconds 20
	$(PY) -m bench.playouts vacu --size 9 --seconds 20
	$(PY) -m bench.playouts convacu --size 9 --seconds 20

serve:
	@echo "The mail and web doors are not built yet (issues 6 and 7), so there is no"
	@echo "server to start. The command layer works from the command line, e.g.:"
	@echo "  $(VENV)/bin/pbem send --from ann@example.org \"signup ann secret1\""
	@echo "  $(VENV)/bin/pbem vasco preview new 2 a0,0 b1,0"
	@exit 1

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
