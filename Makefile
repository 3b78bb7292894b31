# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: install
	$(BIN)/baccara serve

lint: install
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/mypy --strict src/baccara
	$(BIN)/lint-imports

# The kernels compile once (tests/support/warm.py) while the lint runs, not once per worker.
test: install
	@$(BIN)/python -m tests.support.warm >$(VENV)/warm.log 2>&1 & warm=$$!; \
	trap 'kill $$warm 2>/dev/null || true' EXIT; \
	$(MAKE) --no-print-directory lint && node --test tests/js/ \
	&& { wait $$warm || { cat $(VENV)/warm.log; exit 1; }; } && cat $(VENV)/warm.log \
	&& $(BIN)/python -m pytest -n 4 --dist worksteal

bench: install
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
