# Quick start: `make run` (install + a local simulation writing Parquet), `make test` (install + tests).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEALS ?= 100000
OUT ?= out

.PHONY: install install-dev browser run test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# what a run needs: the package and its required dependencies
install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

# what the tests need: the dev extra, and a browser for the page tests
install-dev: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'

browser:
	@scripts/install-browser

run: install
	$(BIN)/euchre-sim simulate --deals $(DEALS) --seed 1 --out $(OUT) --resume

test: install-dev browser
	$(BIN)/python -m pytest

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
