# Two commands do all the set-up:  make demo  and  make test
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check

.PHONY: install install-test demo test test-fast system-deps bench bench-store eval model taxonomy clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install -q -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) install -q -e '.[test,scale,profile]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

## Build the seed author's graph into graphs/maojia-song/ and show one named query.
demo: install
	$(BIN)/scholarkg build examples/maojia-song.txt --out graphs/maojia-song
	$(BIN)/scholarkg query graphs/maojia-song --named benchmarks-introduced

## Install test dependencies (and chromium, serdi, rapper when missing) and run the suite.
test: install-test system-deps
	$(BIN)/python -m pytest

test-fast: install-test
	$(BIN)/python -m pytest -m "not browser and not slow"

system-deps:
	@sh scripts/ensure-system-deps.sh

## Store benchmark (about two hours here): builds, named queries, exports; writes bench/results/store.md
bench-store: install-test
	$(BIN)/python bench/bench_store.py

taxonomy: install
	$(BIN)/python scripts/make_taxonomy.py ../shared/data/arxiv-taxonomy/taxonomy.json ontology/arxiv-categories.ttl

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist
