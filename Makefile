# Quick start: `make run` (install + a local simulation writing Parquet), `make test` (install + tests).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEALS ?= 100000
OUT ?= out

.PHONY: install run test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'

run: install
	$(BIN)/euchre-sim simulate --deals $(DEALS) --seed 1 --out $(OUT) --resume

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_solver.py
	$(BIN)/python benchmarks/bench_simulate.py

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache
