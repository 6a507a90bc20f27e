# Two commands for a new user: `make run` and `make test`. Everything else is set up on demand.
# Dependencies come from the lock files in requirements/ (every version pinned, every file hashed):
# `make run` installs the runtime ones, the other targets the development tools too; `make lock`
# makes both files again from pyproject.toml.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUNTIME := $(VENV)/.runtime-stamp
DEV := $(VENV)/.dev-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
LOCK := $(VENV)/bin/uv pip compile pyproject.toml --generate-hashes --universal --python-version 3.11 -q

.PHONY: run test lint typecheck pytest format lock clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# The project itself goes in editable, without dependencies: every one of them comes from the lock.
$(RUNTIME): requirements/runtime.txt pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements/runtime.txt
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $@

$(DEV): requirements/dev.txt pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $@ $(RUNTIME)

run: $(RUNTIME)
	HOST=$(HOST) PORT=$(PORT) $(PY) -m app

test: $(DEV) lint typecheck pytest

lint: $(DEV)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(DEV)
	$(VENV)/bin/mypy

pytest: $(DEV)
	$(PY) -m pytest -q $(PYTEST_ARGS)

format: $(DEV)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

lock: | $(PY)
	$(PY) -m pip install --quiet uv
	$(LOCK) -o requirements/runtime.txt
	$(LOCK) --extra dev -o requirements/dev.txt

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
