# Quick start: `make run` (install + a local simulation writing Parquet), `make test` (install + tests).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEALS ?= 100000
OUT ?= out

.PHONY: install install-dev browser run test docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# what a run needs: the package and its required dependencies, installed again only when
# pyproject.toml changed (the install is editable: the code itself is read where it lies)
install: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

# what the tests need: the dev extra, and a browser for the page tests
install-dev: $(VENV)/.installed-dev
$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.installed

browser:
	@scripts/install-browser

run: install
	$(BIN)/euchre-sim simulate --deals $(DEALS) --seed 1 --out $(OUT) --resume

test: install-dev browser
	$(BIN)/python -m pytest

# every command example of the README and docs/ run and compared with what the page shows
# (tools/check_docs.py; the Python API page runs with the tests)
docs: install-dev
	$(BIN)/python tools/check_docs.py

# the benchmarks that matter, each printing JSON, a few minutes each on 2 cores (what each
# measures: docs/performance.md#benchmarks): random hands, the solver, simulate end to end,
# realistic (PIMC) play, the auction, a first run's compile, review and advice in the play
bench: install-dev
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_solver.py
	$(BIN)/python benchmarks/bench_simulate.py
	$(BIN)/python benchmarks/bench_realistic.py
	BENCH_DEALS=10000 $(BIN)/python benchmarks/bench_bidding.py
	$(BIN)/python benchmarks/bench_cold_start.py
	$(BIN)/python benchmarks/bench_review.py

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache
