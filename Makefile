# dpteach: `make lab` opens the workbook, `make test` runs every test.
# Both need only Python >= 3.10 and make; everything else goes into ./.venv.

PYTHON    ?= python3
VENV      ?= .venv
BIN       := $(VENV)/bin
NOTEBOOKS  = $(sort $(wildcard notebooks/[0-9][0-9]_*.ipynb))
SETTINGS  := $(VENV)/share/jupyter/lab/settings/overrides.json
PIP       := $(BIN)/python -m pip --quiet --disable-pip-version-check

.DEFAULT_GOAL := help
.PHONY: help lab test execute sync html binder-url clean

help:
	@echo "make lab          open the workbook in JupyterLab (creates .venv on first run)"
	@echo "make test         run every test: unit, notebooks (nbval), pairing, packaging"
	@echo "make execute      re-execute every notebook top to bottom and store its outputs"
	@echo "make html         export the executed chapters to build/html/"
	@echo "make binder-url REPO=owner/name   print the Binder link that opens chapter 00"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

# Stamps make a second run fast: pip runs again only when pyproject.toml changes.
$(VENV)/.lab-installed: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[lab]'
	@touch $@

$(VENV)/.test-installed: pyproject.toml $(VENV)/.lab-installed
	$(PIP) install -e '.[lab,test]'
	@touch $@

# Paired .md files open as notebooks, and JupyterLab asks nothing of the network.
$(SETTINGS): binder/overrides.json | $(BIN)/python
	@mkdir -p $(dir $@)
	cp $< $@

lab: $(VENV)/.lab-installed $(SETTINGS)
	$(BIN)/jupyter lab notebooks/00_start_here.ipynb

test: $(VENV)/.test-installed $(SETTINGS)
	$(BIN)/python -m pytest

# Text twins → notebooks (outputs kept), run every notebook top to bottom, then back.
sync: $(VENV)/.lab-installed
	$(BIN)/jupytext --sync $(NOTEBOOKS)

execute: sync $(VENV)/.test-installed
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
		--ExecutePreprocessor.timeout=300 --ExecutePreprocessor.record_timing=False $(NOTEBOOKS)
	$(BIN)/jupytext --sync $(NOTEBOOKS)

html: $(VENV)/.test-installed
	$(BIN)/jupyter nbconvert --to html --output-dir build/html $(NOTEBOOKS)

binder-url:
	@test -n "$(REPO)" || { echo "usage: make binder-url REPO=owner/name  (the public GitHub repository)"; exit 2; }
	@echo "https://mybinder.org/v2/gh/$(REPO)/HEAD?urlpath=lab/tree/notebooks/00_start_here.ipynb"

clean:
	rm -rf build .pytest_cache
