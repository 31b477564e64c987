# The two commands of the README: `make lab` and `make test`. Both set everything up first.
VENV := .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: lab test notebooks

$(INSTALLED): pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[test]'
	touch $@

# Jupyter refuses to run as root unless told; containers often run as root.
lab: $(INSTALLED)
	$(VENV)/bin/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

test: $(INSTALLED)
	$(PYTHON) -m pytest

# Re-execute every notebook in place, so that its stored outputs are current.
notebooks: $(INSTALLED)
	$(VENV)/bin/jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.store_widget_state=False notebooks/*.ipynb
