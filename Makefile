# The README's commands: `make lab`, `make test`, `make site`, `make app`. Each sets everything up
# first.
VENV := .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: lab test test-fast notebooks site app lint format

# Python writes each module's compiled form once (some machines forbid it in the environment):
# otherwise every kernel, server and test worker compiles wbk and the tests again when it starts.
unexport PYTHONDONTWRITEBYTECODE

# uv installs the packages (16 s here, against 50 s for pip with the same versions) and compiles
# them once, on every core (12 s more here): else the test workers, servers and kernels that
# start together each compile the same modules on their first import
$(INSTALLED): pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet uv
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PYTHON) -e '.[test,site,app]'
	touch $@

# Jupyter refuses to run as root unless told; containers often run as root. jupyter_config/ adds
# a pre-save hook: a chapter run and saved keeps its stored cells (no new execution counts or
# widget ids), so git shows only what a reader really changed.
lab: $(INSTALLED)
	JUPYTER_CONFIG_PATH="$(CURDIR)/jupyter_config$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
		$(VENV)/bin/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# make lint, and every test, the chapters' too (nbval: each chapter run in a fresh kernel and
# compared with its stored outputs, pictures by pixels; conftest.py), in one more worker than
# the machine has cores (pytest-xdist: a test module or a chapter in one worker, see
# tests/conftest.py; the browser tests wait on their pages much of their time: 331 s against
# 374-384 s with a worker a core here), and the 20 that took longest.
# CI runs this. mypy (10 s) checks beside the tests, failing the run if it fails.
test: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy & checking=$$!; \
		$(PYTHON) -m pytest -n $$(( $$(nproc) + 1 )) --durations=20; tested=$$?; \
		wait $$checking && exit $$tested

# While editing (< 1 minute): every test but those in the browser, those that run a notebook
# and the longest sweeps (marked slow: tests/conftest.py).
test-fast: $(INSTALLED)
	$(PYTHON) -m pytest -n auto -m "not browser and not notebook and not slow"

# ruff's lint and format check over the tree, mypy over wbk/ (settings in pyproject.toml).
lint: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Format the tree in place (ruff format) and apply ruff's safe fixes.
format: $(INSTALLED)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix-only .

# A static site of every notebook in notebooks/, in build/site/ (open build/site/index.html).
site: $(INSTALLED)
	$(PYTHON) -m wbk.publish site

# The notebooks as an app (their panels without the code) on http://127.0.0.1:8866/.
app: $(INSTALLED)
	$(PYTHON) -m wbk.publish app

# Run every notebook afresh, as a reader does, and store its outputs in it as the tests expect
# them (nbval, pictures by pixels): without widget state or timings, a print as one output, and
# a cell that only got new widget ids left as stored, so that a diff shows only real changes.
# One chapter: make notebooks NOTEBOOKS=notebooks/pz8.ipynb
NOTEBOOKS ?= notebooks/*.ipynb
notebooks: $(INSTALLED)
	$(PYTHON) -m wbk.publish notebooks $(NOTEBOOKS)

# wbk's speed against its peers as one table, kept in benchmarks/RESULTS.md (a few minutes); then
# the app for a class (chapters opened from their pools, culling, eight readers at once).
.PHONY: bench
bench: $(INSTALLED)
	$(PYTHON) benchmarks/bench.py
	$(PYTHON) -m pytest tests/bench_app.py -s -q
