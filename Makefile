# Two commands do all the set-up:  make demo  and  make test
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check

.PHONY: install install-test demo test test-fast system-deps bench bench-store bench-peak bench-incremental bench-store-full bench-serve bench-app bench-jsonld eval model taxonomy clean fuzz

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install -q -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) install -q -e '.[test,scale]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

## Build the seed author's graph into graphs/maojia-song/ (with examples/maojia-song.curation.toml),
## write the author's profile page beside it, and show one named query.
demo: install
	$(BIN)/scholarkg build examples/maojia-song.txt --out graphs/maojia-song
	$(BIN)/scholarkg profile graphs/maojia-song "Maojia Song" -o graphs/maojia-song/profile.html
	$(BIN)/scholarkg query graphs/maojia-song --named benchmarks-introduced

## Install test dependencies (and chromium, serdi, rapper when missing) and run the suite.
test: install-test system-deps
	$(BIN)/python -m pytest

test-fast: install-test
	$(BIN)/python -m pytest -m "not browser and not slow"

system-deps:
	@sh scripts/ensure-system-deps.sh

## Retrain the shipped term classifier (reads ../shared/data/tdmsci/train_1500_v2.conll).
model: install
	$(BIN)/python -m scholarkg.extract.train

## Extraction scores on the evaluation sets (read from ../shared/data, never trained on).
eval: install
	$(BIN)/scholarkg eval ../shared/data/scirex/abstracts.gold.jsonl
	$(BIN)/scholarkg eval ../shared/data/scierc/test.gold.jsonl
	$(BIN)/scholarkg eval ../shared/data/tdmsci/test_500_v2.conll

## Extraction speed against the bare spaCy tokenizer.
bench: install
	$(BIN)/python bench/bench_extract.py

## Fuzz benchmark: 100,000 malformed and adversarial records through every reader, the graph
## builder and four independent parsers; the report goes to bench/results/fuzz.md.
fuzz: install-test system-deps
	$(BIN)/python bench/fuzz.py --report bench/results/fuzz.md

## Speed targets (about 10 minutes here): extract alone, build --store and build --out in CPU-seconds,
## every named query on disk, in memory and on rdflib, exports and render, at a million statements
## built with the project's extractor; writes bench/results/targets.md
bench-store: install-test
	$(BIN)/python bench/bench_targets.py --records 2800 --rdflib-timeout 20

## Peak memory of both builds at 100,000 records (about 40 minutes here); writes bench/results/peak.md
bench-peak: install-test
	$(BIN)/python bench/bench_targets.py --peak-only --records 100000

## Builds that add, repeat or change a few records on a store of 20,000 records, against the
## revision before incremental index, linking and pairs (about 10 minutes here); writes bench/results/incremental.md
bench-incremental: install-test
	$(BIN)/python bench/bench_incremental.py --baseline 9998350 --report bench/results/incremental.md

## The longer store benchmark (about two hours here): builds up to 100,000 records, Dask; writes bench/results/store.md
bench-store-full: install-test
	$(BIN)/python bench/bench_store.py

## Serve benchmark (a few minutes): load rounds and a negative Content-Length flood, against the
## endpoint as it was before it answered in-process (8033d0b); writes bench/results/serve.md
bench-serve: install-test
	$(BIN)/python bench/bench_serve.py --baseline 8033d0b --report bench/results/serve.md

## Served app benchmark (about 10 minutes): a store of a million statements built with the project's
## extractor, served on disk and in memory, timed in Debian chromium; writes bench/results/app.md
bench-app: install-test
	$(BIN)/python bench/bench_app.py

## JSON-LD writer against the previous rdflib writer at about a million statements; writes bench/results/jsonld.md
bench-jsonld: install
	$(BIN)/python bench/bench_jsonld.py --records 4500

taxonomy: install
	$(BIN)/python scripts/make_taxonomy.py ../shared/data/arxiv-taxonomy/taxonomy.json ontology/arxiv-categories.ttl

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist
