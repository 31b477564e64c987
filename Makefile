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
# start together each compile the same modules on their first import. A clone installs the exact
# versions CI tested (requirements.lock), so that a new release of Voila, JupyterLab or ipywidgets
# cannot break it overnight; the wheel keeps pyproject's ranges for those who install it beside
# other tools.
UV_VERSION := 0.13.9
$(INSTALLED): pyproject.toml requirements.lock
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet uv==$(UV_VERSION)
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PYTHON) -r requirements.lock
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PYTHON) --no-deps -e .
	touch $@

# Refresh the lock after changing pyproject.toml's dependencies (or to take new releases): every
# extra, for every platform, for Python 3.11 and later.
.PHONY: lock
lock:
	test -x $(VENV)/bin/uv || { python3 -m venv $(VENV) && $(PYTHON) -m pip install --quiet uv==$(UV_VERSION); }
	$(VENV)/bin/uv pip compile pyproject.toml --all-extras --universal --python-version 3.11 \
		--custom-compile-command "make lock" -q -o requirements.lock

# The workbook: every chapter copied into notebooks/ (the reader's own copies, never overwritten
# once edited: wbk/lab.py), and JupyterLab opened there with wbk's Jupyter config
# (wbk/jupyter_config/: a chapter run and saved keeps its stored cells, no news prompt).
lab: $(INSTALLED)
	$(VENV)/bin/wbk lab notebooks

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

# A static site of every chapter, in build/site/ (open build/site/index.html).
site: $(INSTALLED)
	$(VENV)/bin/wbk site --out build/site

# The chapters as an app (their panels without the code) on http://127.0.0.1:8866/.
app: $(INSTALLED)
	$(VENV)/bin/wbk app

# Run every notebook afresh, as a reader does, and store its outputs in it as the tests expect
# them (nbval, pictures by pixels): without widget state or timings, a print as one output, and
# a cell that only got new widget ids left as stored, so that a diff shows only real changes.
# One chapter: make notebooks NOTEBOOKS=wbk/games/pz8/pz8.ipynb (by default every chapter)
NOTEBOOKS ?=
notebooks: $(INSTALLED)
	$(VENV)/bin/wbk notebooks $(NOTEBOOKS)

# wbk's speed against its peers as one table, kept in benchmarks/RESULTS.md (a few minutes); then
# the app for a class (chapters opened from their pools, culling, eight readers at once).
.PHONY: bench
bench: $(INSTALLED)
	$(PYTHON) benchmarks/bench.py
	$(PYTHON) -m pytest tests/bench_app.py -s -q
