# dpteach: `make lab` opens the workbook, `make check` runs every test (`make test`: the fast suite).
# Both need only Python >= 3.10 and make; everything else goes into ./.venv. Each target is an alias of the
# package's own command (`.venv/bin/dpteach VERB`, `dpteach --help`) after the bootstrap that installs it from the
# locks; the test targets run pytest.

PYTHON    ?= python3
VENV      ?= .venv
BIN       := $(VENV)/bin
NOTEBOOKS  = $(sort $(wildcard notebooks/[0-9][0-9]_*.ipynb))
SETTINGS  := $(VENV)/share/jupyter/lab/settings/overrides.json $(VENV)/etc/jupyter/jupyter_server_config.json
# The presenting venv (make present): RISE with the ipywidgets front end its slideshow renders.
PRESENT          := .venv-present
PRESENT_BIN      := $(PRESENT)/bin
PRESENT_SETTINGS := $(PRESENT)/share/jupyter/lab/settings/overrides.json \
	$(PRESENT)/etc/jupyter/jupyter_server_config.json
CHAPTER          ?= 03
# The hub's proxy, from the npm registry (make hub). Defined up here: a rule's prerequisites are expanded when
# make reads the rule, so a variable defined below test-slow would be empty there.
HUB_PROXY := build/hub/node_modules/.bin/configurable-http-proxy
PIP       := $(BIN)/python -m pip --quiet --disable-pip-version-check
# matplotlib's font cache lives in the venv: a shared ~/.cache/matplotlib can point at the
# fonts of another, deleted venv, and then every figure prints "findfont" warnings.
export MPLCONFIGDIR := $(abspath $(VENV))/matplotlib
# Bytecode caches on: where the environment sets PYTHONDONTWRITEBYTECODE, every process (each test worker,
# kernel and build step) compiled every module afresh and pytest rewrote every test's asserts again
# (collection 18 s instead of 10 s).
unexport PYTHONDONTWRITEBYTECODE

.DEFAULT_GOAL := help
.PHONY: help lab check test test-slow test-seeds lock present execute sync html slides course grade gradebook bench hub bench-hub binder-url nbgitpuller-url clean

help:
	@echo "make lab          open the workbook in JupyterLab (creates .venv on first run)"
	@echo "make check        run every test: make test, make test-slow, make test-seeds (what CI runs)"
	@echo "make test         the fast suite, ~3 min: unit, statistical, notebooks (nbval), editions, grading, packaging"
	@echo "make test-slow    browser tests (JupyterLab, slides, offline book), full slider sweeps, full builds"
	@echo "make test-seeds   execute every chapter with 5 other seeds: nothing may raise (~5 min)"
	@echo "make lock         re-resolve requirements/*.lock.txt from pyproject.toml (UPGRADE=1: newest allowed)"
	@echo "make execute      re-execute every notebook top to bottom and store its outputs"
	@echo "make html         the reader's book in build/html/, needing no network (ONLINE=1: MathJax and widgets from CDNs; INSTRUCTOR=1: solutions open, notes in;"
	@echo "                  REPO=owner/name: Binder links; HUB=https://...: JupyterHub links)"
	@echo "make present CHAPTER=03   present a chapter live: RISE slides in JupyterLab (Alt+R), sliders that answer"
	@echo "make slides       reveal.js slides per chapter in build/slides/, figures drawn for a projector (ONLINE=1 as above)"
	@echo "make test-python  the suite (no browser tests, no peer suite) on the oldest and newest Python, in fresh clones (CI runs it)"
	@echo "make course       a course's homework: students' notebooks and book without solutions (build/course/;"
	@echo "                  ROSTER=roster.csv: each student's own numbers; CHAPTERS=\"03 05\"; CORE=1: each chapter's core alone; ONLINE=1, REPO=, HUB= as for html)"
	@echo "make grade        grade collected notebooks: SUBMISSIONS=folder/ (gradebook, LMS imports, pages in build/graded/;"
	@echo "                  in .venv-grading, from requirements/grading.lock.txt: no JupyterLab, browser or Sphinx)"
	@echo "make gradebook    write build/graded/ again from the graded records, with your overrides (OVERRIDES=file.csv)"
	@echo "make bench        measure sliders, notebooks, samplers, start-up; write benchmarks/RESULTS.md"
	@echo "                  (BENCH_ARGS=--sliders-only: import, sliders, browser; the other sections kept)"
	@echo "make hub          a local demo JupyterHub with USERS=5 accounts serving the workbook (hub/: the real set-ups)"
	@echo "make bench-hub    students dragging sliders at once through a hub (STUDENTS=\"1 5 10 20\"): RESULTS.md's sizing"
	@echo "make binder-url REPO=owner/name   print the Binder link that opens chapter 00"
	@echo "make nbgitpuller-url HUB=... REPO=...   the link that puts the workbook on a course's JupyterHub"
	@echo "make docs         the documentation (docs/) as a site in build/docs/, built like the book (ONLINE=1 as above)"
	@echo "The tools' targets are aliases of .venv/bin/dpteach VERB (dpteach --help: every verb, its options, an example)."

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

# Every package at the version the test suite passed with: requirements/*.lock.txt, written by
# `make lock` from pyproject.toml's ranges. Stamps make a second run fast: pip runs again only
# when a lock (or pyproject.toml) changes. A lock names every package, so pip installs it as it is
# (--no-deps): what pyproject.toml's [tool.uv] overrides leave out stays out.
$(VENV)/.lab-installed: requirements/lab.lock.txt pyproject.toml | $(BIN)/python
	$(PIP) install --no-deps -r requirements/lab.lock.txt
	$(PIP) install --no-deps -e .
	@touch $@

$(VENV)/.test-installed: requirements/test.lock.txt pyproject.toml $(VENV)/.lab-installed
	$(PIP) install --no-deps -r requirements/test.lock.txt
	@touch $@

# Versions change on purpose only: `make lock` keeps every pin that still satisfies pyproject.toml
# and adds what is new; `make lock UPGRADE=1` moves everything to the newest allowed release (then
# run the whole suite). uv resolves once for every Python ≥ 3.10 (markers split where needed); the
# lab lock and the grading lock (Gradescope's autograder: only what grading needs) are the test lock's
# subsets; environment.yml and binder/environment.yml are written from the lab lock.
lock: | $(BIN)/python
	$(PIP) install 'uv>=0.5'
	$(BIN)/uv pip compile pyproject.toml --extra lab --extra test --universal --python-version 3.10 \
		--no-header --quiet $(if $(UPGRADE),--upgrade) -o requirements/test.lock.txt
	$(BIN)/uv pip compile pyproject.toml --extra lab --universal --python-version 3.10 \
		--no-header --quiet -c requirements/test.lock.txt -o requirements/lab.lock.txt
	$(BIN)/uv pip compile pyproject.toml --extra lab requirements/present.in --universal --python-version 3.10 \
		--no-header --quiet $(if $(UPGRADE),--upgrade) -o requirements/present.lock.txt
	$(BIN)/uv pip compile requirements/grading.in --universal --python-version 3.10 \
		--no-header --quiet -c requirements/test.lock.txt -o requirements/grading.lock.txt
	$(BIN)/uv pip compile requirements/hub.in --universal --python-version 3.10 \
		--no-header --quiet -c requirements/test.lock.txt -o requirements/hub.lock.txt
	$(BIN)/python requirements/sync_environment.py

# Paired .md files open as notebooks, and JupyterLab asks nothing of the network.
$(VENV)/share/jupyter/lab/settings/overrides.json: binder/overrides.json | $(BIN)/python
	@mkdir -p $(dir $@)
	cp $< $@

# The server sends a slider's new image at once (TCP_NODELAY on the browser's WebSocket: dpteach.publish.websocket).
$(VENV)/etc/jupyter/jupyter_server_config.json $(PRESENT)/etc/jupyter/jupyter_server_config.json: \
		binder/jupyter_server_config.json
	@mkdir -p $(dir $@)
	cp $< $@

lab: $(VENV)/.lab-installed $(SETTINGS)
	$(BIN)/dpteach lab

# Every test: the fast suite, the slow tier and the re-seeded chapters (CI runs this, then test-python).
check: test test-slow test-seeds

# The fast suite (about 3 minutes): every test not marked slow (pyproject.toml's addopts already leave out
# the re-seeded chapters), on both cores; a file's tests stay together on one worker (nbval runs a
# notebook's cells in one kernel).
test: $(VENV)/.test-installed $(SETTINGS) $(VENV)/.hub-installed
	$(BIN)/python -m pytest -n 2 --dist loadfile -m "not reseed and not slow"

# The slow tier (marked slow): the browser tests in Debian's Chromium (the students' edition in JupyterLab,
# the live slides in the presenting venv, installed here too, the static decks, the offline book), every
# slider swept through its range in both styles, and the full builds (the book, the course, Binder's plan).
test-slow: $(VENV)/.test-installed $(SETTINGS) $(PRESENT)/.installed $(PRESENT_SETTINGS) $(VENV)/.hub-installed $(HUB_PROXY)
	$(BIN)/python -m pytest -n 2 --dist loadfile -m slow

# Presenting live (instructors): RISE slides inside JupyterLab, in a venv of their own
# (.venv-present, from requirements/present.lock.txt: RISE's slideshow renders widgets only with
# an older ipywidgets front end), so students' .venv and Binder keep the current one. The chapter
# is presented from a scratch copy in build/present/ (presenting saves the notebook), its instructor
# edition (dpteach instructor: solutions open, speaker notes in), with every
# figure projector-sized (DPTEACH_PRESENTATION=1). In the lab: Alt+R starts the slideshow.

$(PRESENT_BIN)/python:
	$(PYTHON) -m venv $(PRESENT)
	$(PRESENT_BIN)/python -m pip --quiet --disable-pip-version-check install --upgrade pip

$(PRESENT)/.installed: requirements/present.lock.txt pyproject.toml | $(PRESENT_BIN)/python
	$(PRESENT_BIN)/python -m pip --quiet --disable-pip-version-check install --no-deps -r requirements/present.lock.txt
	$(PRESENT_BIN)/python -m pip --quiet --disable-pip-version-check install --no-deps -e .
	@touch $@

# The students' settings, plus RISE's: slides that never scroll (the slide edition makes them fit), top-aligned,
# no transition (the live copy's notebook metadata "rise" also sets them, with the margin the settings lack);
# and → / ← left to the slideshow: JupyterLab 4 binds them to "collapse / expand the heading" on a focused
# heading cell, which swallowed → on a slide whose heading cell had the focus.
$(PRESENT)/share/jupyter/lab/settings/overrides.json: binder/overrides.json \
		dpteach/publish/templates/present/settings.py | $(PRESENT_BIN)/python
	@mkdir -p $(dir $@)
	$(PRESENT_BIN)/python dpteach/publish/templates/present/settings.py $< $@

# The copy (dpteach present, dpteach.publish.present) is the chapter's slide edition (made for a room,
# dpteach.publish.slides), with the slideshow's styles and the speaker view, a page the lab serves (build/present/.static/,
# the same origin as the slideshow, which it opens, follows and drives): RISE's own (T) does not work in JupyterLab
# (jupyterlab-contrib/rise#47, #74). The lab loads dpteach.publish.present as a server extension: it puts the show's
# script into RISE's slideshow page. dpteach present runs the lab of the venv it is run from, with DPTEACH_PRESENTATION=1.
PRESENT_PORT ?= 8888
present: $(PRESENT)/.installed $(PRESENT_SETTINGS)
	$(PRESENT_BIN)/dpteach present --chapter "$(CHAPTER)" --out build/present --port $(PRESENT_PORT)

# Every chapter, top to bottom, with five other seeds for every generator it seeds (on both cores).
test-seeds: $(VENV)/.test-installed
	$(BIN)/python -m pytest -m reseed -n 2 tests/test_reseeded_chapters.py

# Text twins → notebooks (outputs kept), run every notebook top to bottom (dpteach execute: nbclient, widget state
# stored, the executor the book uses too), then back (dpteach sync: jupytext --sync).
sync: $(VENV)/.lab-installed
	$(BIN)/dpteach sync $(NOTEBOOKS)

execute: sync $(VENV)/.test-installed
	$(BIN)/dpteach execute --inplace --timeout 300 $(NOTEBOOKS)
	$(BIN)/dpteach sync $(NOTEBOOKS)

# The reader's book (Sphinx + myst-nb + sphinx-book-theme): every chapter executed headless
# (widget state saved), a sidebar of chapters, offline search, launch and download links. It needs no network:
# MathJax, require.js, the widget renderer and their fonts are bundled (ONLINE=1 loads them from CDNs instead, and
# a page opened with no network then says so); INSTRUCTOR=1
# writes build/html-instructor with every solution open and the speaker notes in; REPO=owner/name adds "Open in
# Binder" to every page, and HUB=https://hub... (with REPO, BRANCH) "Open on a JupyterHub".
EXPORT_FLAGS = $(if $(ONLINE),--online) $(if $(INSTRUCTOR),--instructor) \
	$(if $(REPO),--repo $(REPO)) $(if $(HUB),--hub $(HUB)) --branch $(BRANCH)

build/executed: $(VENV)/.test-installed $(NOTEBOOKS)
	rm -rf build/executed
	$(BIN)/dpteach execute
	@touch $@

html: build/executed
	$(BIN)/dpteach html $(EXPORT_FLAGS)

# The static decks: every chapter executed with its figures drawn for a projector (build/executed-slides, again
# when a chapter is newer than its copy), reveal.js, MathJax and the widget renderer bundled (ONLINE=1: from CDNs).
slides: $(VENV)/.test-installed
	$(BIN)/dpteach slides $(if $(ONLINE),--online)

# Homework for a course (instructors): `make course` writes build/course/ — students/ (hand out: the
# chapters with no solution, every homework exercise asked at numbers of the course's own, their book, and
# requirements.txt with a dpteach wheel) and instructor/ (keep, yours only: course.json, the answers).
# ROSTER=roster.csv (an LMS's export): numbers of their own for each student, in students/by-student/<id>/.
# SEED=text rebuilds a course's homework; CHAPTERS="03 05" for some chapters only; CORE=1 hands out each
# chapter's core path alone (its "Going further" parts left out); ONLINE=1, REPO=, HUB=,
# BRANCH= as for make html. `make grade SUBMISSIONS=collected/` grades the collected notebooks in parallel,
# each in a bubblewrap sandbox with time and memory limits, verdicts computed outside the students' code,
# into build/graded/ (gradebook.csv, the Canvas and Moodle imports, a page per student, the class report);
# `make gradebook` writes them again after you edit build/course/instructor/overrides.csv.
COURSE_FILE = $(or $(COURSE),build/course/instructor/course.json)
course: $(VENV)/.test-installed
	$(BIN)/dpteach course --book $(if $(SEED),--seed "$(SEED)") $(if $(CHAPTERS),--chapters $(CHAPTERS)) \
		$(if $(ROSTER),--roster "$(ROSTER)") $(if $(PUBLIC),--public) $(if $(CORE),--core-only) $(if $(ONLINE),--online) $(if $(REPO),--repo $(REPO)) $(if $(HUB),--hub $(HUB)) \
		--branch $(BRANCH)

# Grading runs in a venv of its own, .venv-grading, from requirements/grading.lock.txt (pyproject's `grading` extra:
# what a submission's run needs, and OpenDP for chapter 12): no JupyterLab, browser, Sphinx or peer library, as on
# Gradescope, whose autograder installs the same lock.
GRADING     := .venv-grading
GRADING_BIN := $(GRADING)/bin
$(GRADING_BIN)/python:
	$(PYTHON) -m venv $(GRADING)
	$(GRADING_BIN)/python -m pip --quiet --disable-pip-version-check install --upgrade pip

$(GRADING)/.installed: requirements/grading.lock.txt pyproject.toml | $(GRADING_BIN)/python
	$(GRADING_BIN)/python -m pip --quiet --disable-pip-version-check install --no-deps -r requirements/grading.lock.txt
	$(GRADING_BIN)/python -m pip --quiet --disable-pip-version-check install --no-deps -e .
	@touch $@

grade: $(GRADING)/.installed
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=folder-or-notebooks [COURSE=build/course/instructor/course.json]"; exit 2; }
	$(GRADING_BIN)/dpteach grade --course $(COURSE_FILE) $(if $(OVERRIDES),--overrides "$(OVERRIDES)") $(if $(filter command line,$(origin CHAPTER)),--chapter "$(CHAPTER)") $(SUBMISSIONS)

gradebook: $(GRADING)/.installed
	$(GRADING_BIN)/dpteach gradebook --course $(COURSE_FILE) $(if $(OVERRIDES),--overrides "$(OVERRIDES)")

# A class on a hub (hub/): the hub's packages in the workbook's venv (the students' servers run jupyterhub-singleuser
# from it) and configurable-http-proxy from the npm registry. `make hub` is a local demo hub with USERS accounts
# (student01 …, password dpteach; every account is your own Unix user: a demo only); `make bench-hub` measures how
# many students dragging sliders at once it carries (STUDENTS="1 5 10 20") and writes RESULTS.md's sizing table.
USERS    ?= 5
$(VENV)/.hub-installed: requirements/hub.lock.txt $(VENV)/.test-installed
	$(PIP) install --no-deps -r requirements/hub.lock.txt
	@touch $@

$(HUB_PROXY):
	npm install --prefix build/hub --cache build/npm-cache --no-audit --no-fund --loglevel=error configurable-http-proxy@5.3.0

hub: $(VENV)/.hub-installed $(HUB_PROXY) $(SETTINGS)
	$(BIN)/dpteach hub --users $(USERS)

bench-hub: $(VENV)/.hub-installed $(HUB_PROXY) $(SETTINGS)
	$(BIN)/dpteach bench -- --hub-only $(if $(STUDENTS),--students "$(STUDENTS)")

# The links are written by dpteach/publish/links.py (standard library only: the system Python runs it
# before any venv exists, so these two are not dpteach's; `dpteach links` and the book's launch buttons use the
# same functions).
binder-url:
	@test -n "$(REPO)" || { echo "usage: make binder-url REPO=owner/name  (a GitHub repository, or a full clone URL)"; exit 2; }
	@$(PYTHON) dpteach/publish/links.py binder "$(REPO)"

# Speed, measured: tables printed and written to benchmarks/RESULTS.md (never timed asserts); the sliders' first
# drag is timed in fresh kernels. BENCH_ARGS=--sliders-only: import, sliders and browser only (the rest kept).
bench: $(VENV)/.test-installed $(SETTINGS)
	$(BIN)/dpteach bench -- $(BENCH_ARGS)

# A course's own JupyterHub: nbgitpuller clones (then updates) the workbook into each
# student's home and opens chapter 00. REPO=owner/name means GitHub's https URL; a full clone URL
# (GitLab, a self-hosted server) is used as given: nbgitpuller hands it to git clone. The hub's
# image needs environment.yml's packages and `pip install --no-deps -e .` run in the pulled folder
# (see README).
BRANCH ?= main
nbgitpuller-url:
	@test -n "$(HUB)" -a -n "$(REPO)" || { echo "usage: make nbgitpuller-url HUB=https://hub.example.edu REPO=owner/name|https://host/clone/url.git [BRANCH=main]"; exit 2; }
	@$(PYTHON) dpteach/publish/links.py nbgitpuller "$(HUB)" "$(REPO)" --branch "$(BRANCH)"

# The documentation: the MyST pages of docs/ as a site in build/docs/, built like the book (its Sphinx configuration,
# theme and bundled assets: no network needed; ONLINE=1 loads MathJax and the widget renderer from CDNs).
.PHONY: docs
docs: $(VENV)/.test-installed
	$(BIN)/dpteach docs $(if $(ONLINE),--online)

clean:
	rm -rf build .pytest_cache

# The oldest and the newest Python the README claims (requires-python >= 3.10; 3.13 the newest tested), each in a
# fresh clone of the last commit ($(PYTHON_CLONES)/X.Y, with its own .venv from the locks, installed by this
# Makefile's bootstrap): the suite without its browser tests (the fast suite and the slow tier's sweeps and builds;
# the browser tests and the peer suite, tests/peers/, run once, in `make test-slow`). CI runs it after `make check`.
# tools/test_python.py (standard library only) does it; the interpreter comes from pyenv ($(PYENV_ROOT)/versions/X.Y.*)
# or PATH (pythonX.Y).
PYTHONS       ?= 3.10 3.13
PYTHON_CLONES ?= $(or $(TMPDIR),/tmp)/dpteach-python
PYENV_ROOT    ?= $(HOME)/.pyenv
.PHONY: test-python
test-python:
	$(PYTHON) tools/test_python.py --pythons "$(PYTHONS)" --clones "$(PYTHON_CLONES)" --pyenv-root "$(PYENV_ROOT)" \
	  --make "$(VENV)/.test-installed $(SETTINGS)" -- -n 2 --dist loadfile -m "not reseed and not once" \
	    --ignore-glob='tests/*test_browser_*.py' --ignore=tests/hub --ignore=tests/peers
