"""The two commands, the environments and the package agree with each other.

Binder reads binder/ and ignores the root files, students use environment.yml, pip uses
pyproject.toml: if they drift apart, one audience gets a broken workbook.
"""

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers import ROOT, make

try:
    import tomllib
except ModuleNotFoundError:      # Python 3.10
    import tomli as tomllib


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement.strip(), maxsplit=1)[0].lower()


def _conda_packages(text: str) -> dict[str, str]:
    """{name: version pin or ''} for the dependencies of a conda environment file, pip's included."""
    deps = text.split("dependencies:", 1)[1]
    out = {}
    for line in deps.splitlines():
        m = re.match(r"\s*-\s*([A-Za-z0-9_.\-]+)\s*(?:=+\s*([^\s#]+))?", line)
        if m:
            out[m.group(1).lower()] = m.group(2) or ""
    return out


#: the Pythons the locks are resolved for (uv's --universal: markers split where needed): the oldest
#: pyproject.toml allows, and the one conda installs (where matplotlib 3.11 begins)
PYTHONS = ("3.10.16", "3.11.7")


def _lock(name: str, python: str = PYTHONS[-1]) -> dict[str, str]:
    """{package: version} of a lock file's entries that apply on ``python`` (by default 3.11: what conda installs)."""
    sys.path.insert(0, str(ROOT / "requirements"))
    from sync_environment import pins
    return {_name(p): p.split("==")[1] for p in pins(ROOT / "requirements" / f"{name}.lock.txt", python)}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.lower())


def test_binder_environment_is_identical_to_the_root_one():
    """repo2docker ignores the root environment.yml once binder/ exists, so the two must be one."""
    assert (ROOT / "binder" / "environment.yml").read_bytes() == (ROOT / "environment.yml").read_bytes()


def test_environment_files_are_written_from_the_lab_lock():
    """One source of truth: conda (students, Binder) installs exactly the lab lock's versions."""
    check = subprocess.run([sys.executable, str(ROOT / "requirements" / "sync_environment.py"), "--check"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout
    conda = {_normal(k): v for k, v in _conda_packages((ROOT / "environment.yml").read_text()).items()}
    lock = {_normal(k): v for k, v in _lock("lab").items()}
    assert {k: v for k, v in conda.items() if k not in ("python", "pip")} == lock


def test_locks_cover_pyproject_and_agree_with_each_other():
    """Every dependency pyproject.toml names is pinned; the lab lock is the test lock's subset, version for version."""
    project = _pyproject()["project"]
    lab, test = {_normal(k): v for k, v in _lock("lab").items()}, {_normal(k): v for k, v in _lock("test").items()}
    for requirement in project["dependencies"] + project["optional-dependencies"]["lab"]:
        assert _normal(_name(requirement)) in lab, requirement
    for requirement in _extra("test"):
        if "python_version < '3.11'" not in requirement:
            assert _normal(_name(requirement)) in test, requirement
    assert {k: test.get(k) for k in lab} == lab
    grading = {_normal(k): v for k, v in _lock("grading").items()}
    wanted = [_normal(line.strip()) for line in (ROOT / "requirements" / "grading.in").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert set(wanted) <= set(grading) and {k: test.get(k) for k in grading} == grading
    dpteach_needs = [_normal(_name(r)) for r in project["dependencies"]]
    assert set(dpteach_needs) <= set(grading), "the autograder installs dpteach's wheel with --no-deps"


def _extra(name: str) -> list[str]:
    """An extra's requirements, the extras it names of dpteach itself (``dpteach[lab,book]``) spelled out."""
    out = []
    for requirement in _pyproject()["project"]["optional-dependencies"][name]:
        own = re.fullmatch(r"dpteach\[([a-z,]+)\]", requirement)
        out += sum((_extra(e) for e in own.group(1).split(",")), []) if own else [requirement]
    return out


def test_locked_versions_satisfy_pyproject():
    """A lock that no longer satisfies pyproject.toml's ranges (a cap added, say) is stale: run `make lock`. Every
    extra is in the test lock but the hub's, whose lock is its own (on top of the test lock). On every Python the
    locks are resolved for: their markers split some pins by version (matplotlib 3.11 needs Python 3.11)."""
    from packaging.requirements import Requirement
    project = _pyproject()["project"]
    for python in PYTHONS:
        test = {_normal(k): v for k, v in _lock("test", python).items()}
        hub = {_normal(k): v for k, v in _lock("hub", python).items()}
        for line in project["dependencies"] + sum((_extra(e) for e in project["optional-dependencies"]), []):
            requirement = Requirement(line)
            env = {"python_version": ".".join(python.split(".")[:2]), "python_full_version": python}
            if requirement.marker is None or requirement.marker.evaluate(env):
                version = (test | hub)[_normal(requirement.name)]
                assert requirement.specifier.contains(version, prereleases=True), f"Python {python}: {line}: locked {version}"


def test_matplotlib_is_locked_per_python():
    """matplotlib 3.11 needs Python >= 3.11: the locks pin 3.10 below it and 3.11 from it, each satisfying its
    Requires-Python (the fast text path has one module per version: tests/test_render_glyph_runs.py)."""
    for name in ("lab", "test", "grading", "present"):
        old, new = _lock(name, PYTHONS[0])["matplotlib"], _lock(name, PYTHONS[1])["matplotlib"]
        assert old.startswith("3.10.") and new.startswith("3.11."), (name, old, new)


def test_the_extras_by_role_and_the_command():
    """pip install dpteach[ROLE]: a student's lab, an author's book, an instructor's grading and hub, the peers, the
    developer's test (every role but the hub's, so the test lock holds them all); and the one dpteach command."""
    project = _pyproject()["project"]
    assert set(project["optional-dependencies"]) == {"lab", "book", "grading", "hub", "peers", "test"}
    assert project["optional-dependencies"]["test"][0] == "dpteach[lab,book,grading,peers]"
    assert project["scripts"] == {"dpteach": "dpteach.cli:main"}
    hub = [_normal(line.strip()) for line in (ROOT / "requirements" / "hub.in").read_text().splitlines()
           if line.strip() and not line.startswith("#")]
    assert sorted(_normal(_name(r)) for r in _extra("hub")) == sorted(hub)


def test_the_grading_extra_is_what_grading_needs_and_no_more():
    """`pip install dpteach[grading]` and make grade's .venv-grading (requirements/grading.lock.txt) install
    requirements/grading.in's list: no browser (Playwright), no book (Sphinx, MyST), no JupyterLab, no peer library
    (dp-accounting, diffprivlib, scikit-learn); OpenDP is there for chapter 12's submissions."""
    wanted = {_normal(line.strip()) for line in (ROOT / "requirements" / "grading.in").read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    base = {_normal(_name(r)) for r in _pyproject()["project"]["dependencies"]}
    assert {_normal(_name(r)) for r in _extra("grading")} == wanted - base
    # the closure of the extra in the test lock: a package is there if something already there needs it ("# via")
    needs: dict[str, set[str]] = {}
    package = None
    for line in (ROOT / "requirements" / "test.lock.txt").read_text().splitlines():
        if line and not line.startswith((" ", "#")):
            package = _normal(re.split(r"[=<>; ]", line, maxsplit=1)[0])
        elif package and line.strip().lstrip("#").strip() not in ("", "via"):
            parent = line.strip().lstrip("#").strip().removeprefix("via ").split(" ")[0]
            needs.setdefault(_normal(parent), set()).add(package)
    closure, todo = set(), list(wanted)
    while todo:
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            todo += needs.get(name, ())
    grading_lock = {_normal(k) for k in _lock("grading")}
    assert closure >= wanted and grading_lock >= wanted
    for name in ("playwright", "sphinx", "myst-nb", "myst-parser", "sphinx-book-theme", "jupyterlab", "dp-accounting",
                 "diffprivlib", "scikit-learn", "pytest", "nbconvert"):
        assert name not in closure and name not in grading_lock, name


def test_make_and_ci_install_from_the_locks():
    makefile = (ROOT / "Makefile").read_text()
    assert "install --no-deps -r requirements/grading.lock.txt" in makefile
    assert "install --no-deps -r requirements/lab.lock.txt" in makefile
    assert "install --no-deps -r requirements/test.lock.txt" in makefile
    assert "install --no-deps -r requirements/present.lock.txt" in makefile
    assert "install --no-deps -e ." in makefile
    assert not re.search(r"install -e '\.\[", makefile), "an install from pyproject's ranges, not the lock"
    assert "--upgrade" in makefile and "UPGRADE" in makefile   # make lock UPGRADE=1: upgrades are deliberate


def test_jsonschema_builds_no_iri_parser_at_import():
    """rfc3987-syntax (jsonschema's optional "iri" check) built an Earley parser at import, 2.4 s in every
    process that imports nbformat or jupyter_server: the locks leave it out, and it is not installed."""
    for lock in ("lab", "test", "present"):
        line = next(p for p in (ROOT / "requirements" / f"{lock}.lock.txt").read_text().splitlines()
                    if p.startswith("rfc3987-syntax"))
        assert line.endswith("; sys_platform == 'never'"), (lock, line)
    loaded = subprocess.run([sys.executable, "-c", "import nbformat, sys; print('rfc3987_syntax' in sys.modules)"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "False"


def test_jupytext_is_pinned_to_one_exact_version_everywhere():
    """A different jupytext rewrites the paired files' header and the sync check fails on it alone."""
    lab = _pyproject()["project"]["optional-dependencies"]["lab"]
    pins = [r for r in lab if _name(r) == "jupytext"]
    assert len(pins) == 1 and re.fullmatch(r"jupytext==\d+\.\d+\.\d+", pins[0]), pins
    version = pins[0].split("==")[1]
    assert _conda_packages((ROOT / "environment.yml").read_text())["jupytext"] == version
    headers = [p for p in (ROOT / "notebooks").glob("*.md")]
    for md in headers:
        assert f"jupytext_version: {version}" in md.read_text(), md.name


def test_python_requirement_is_310_or_newer():
    assert _pyproject()["project"]["requires-python"] == ">=3.10"


def test_binder_postbuild_installs_the_package_and_the_viewer_override():
    """postBuild installs the package itself (its dependencies come from the lock) and fetches nothing else."""
    text = (ROOT / "binder" / "postBuild").read_text()
    assert not re.search(r"\b(curl|wget|git clone|npm|jupyter labextension install)\b", text)
    assert text.startswith("#!/bin/bash") and "set -e" in text
    assert "pip install --no-deps -e ." in text
    assert "binder/overrides.json" in text and "share/jupyter/lab/settings" in text
    assert (ROOT / "binder" / "postBuild").stat().st_mode & 0o111, "postBuild must be executable"


def test_viewer_override_opens_markdown_twins_as_notebooks():
    import json
    settings = json.loads((ROOT / "binder" / "overrides.json").read_text())
    viewers = settings["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers["markdown"] == "Jupytext Notebook"


def test_jupytext_pairs_notebooks_with_myst_markdown_in_a_folder_of_their_own():
    config = tomllib.loads((ROOT / "jupytext.toml").read_text())
    assert config["formats"] == "notebooks///ipynb,sources///md:myst"


def test_readme_starts_with_the_two_commands():
    """The README's first lines give the command that opens the workbook and the one that tests it."""
    head = "\n".join((ROOT / "README.md").read_text().splitlines()[:15])
    assert "make lab" in head and "make test" in head


def test_ci_runs_exactly_the_readme_test_commands():
    """CI ends with the README's test command, `make check` (every tier), then the oldest and newest Python;
    `make check` is the fast suite, the slow tier and the re-seeded chapters, each a target the README names."""
    script = [line.strip() for line in (ROOT / ".ci" / "run").read_text().strip().splitlines()
              if line.strip() and not line.lstrip().startswith("#")]
    assert script[-2:] == ["make check", "make test-python"]
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"^    (make \S+)", readme, re.M)
    assert commands[:2] == ["make lab", "make check"], "the README's first lines: open the workbook, run every test"
    for target in ("make test`", "make test-slow", "make test-seeds", "make test-python"):
        assert target in readme
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^check: test test-slow test-seeds$", makefile, re.M)


def test_the_fast_suite_leaves_out_exactly_the_slow_tier_and_the_reseeded_chapters():
    """`make test` runs every test not marked slow or reseed; conftest marks every browser test slow."""
    dry = subprocess.run(["make", "-n", "--no-print-directory", "test"], cwd=ROOT, capture_output=True, text=True).stdout
    assert '-m "not reseed and not slow"' in [line for line in dry.splitlines() if "pytest" in line][-1]
    import conftest

    class Item:
        def __init__(self, name):
            self.path, self.marks = ROOT / "tests" / name, []

        def add_marker(self, mark):
            self.marks.append(mark.name)

    items = [Item(p.name) for p in sorted((ROOT / "tests").rglob("test_*.py"))]
    conftest.pytest_collection_modifyitems(items)
    marked = {i.path.name for i in items if "slow" in i.marks}
    assert marked == {p.name for p in (ROOT / "tests").rglob("test_browser_*.py")} and len(marked) >= 5


def test_make_binder_url_needs_the_repository_and_prints_the_link():
    ok = make("binder-url", "REPO=someone/dpteach")
    assert ok.returncode == 0
    assert ok.stdout.strip() == ("https://mybinder.org/v2/gh/someone/dpteach/HEAD"
                                 "?urlpath=lab/tree/notebooks/00_start_here.ipynb")
    missing = make("binder-url")
    assert missing.returncode != 0 and "REPO=" in missing.stdout


def test_make_nbgitpuller_url_points_a_hub_at_chapter_00():
    out = make("nbgitpuller-url", "HUB=https://hub.example.edu/", "REPO=https://github.com/someone/dpteach")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == (
        "https://hub.example.edu/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fsomeone%2Fdpteach"
        "&branch=main&targetpath=dpteach&urlpath=lab%2Ftree%2Fdpteach%2Fnotebooks%2F00_start_here.ipynb")
    # owner/name means GitHub's clone URL: nbgitpuller hands `repo` to git (tests/test_hub_link.py runs it)
    short = make("nbgitpuller-url", "HUB=https://hub.example.edu/", "REPO=someone/dpteach")
    assert short.stdout == out.stdout
    missing = make("nbgitpuller-url", "HUB=https://hub.example.edu")
    assert missing.returncode != 0 and "REPO=" in missing.stdout


@pytest.mark.parametrize("heavy", ["matplotlib", "ipywidgets", "scipy"])
def test_import_dpteach_loads_only_numpy(heavy):
    """The maths layer is cheap: `import dpteach` must not pull in the figure or widget layers."""
    code = f"import sys, dpteach; sys.exit(1 if {heavy!r} in sys.modules else 0)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


@pytest.mark.slow   # builds the wheel
def test_the_wheel_holds_the_package_and_not_the_tests_tools(tmp_path):
    """The lab server of the browser tests and benchmark (tests/labserver.py, once dpteach/publish/labserver.py)
    and the rest of tests/ stay out of the wheel a student or an autograder installs. Built from a copy of the
    sources: setuptools reuses a build/ folder, where a moved module would linger."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    for folder in ("dpteach", "tests", "benchmarks"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(source)], check=True, capture_output=True)
    with zipfile.ZipFile(next(tmp_path.glob("dpteach-*.whl"))) as wheel:
        names = wheel.namelist()
    assert {"dpteach/__init__.py", "dpteach/publish/__init__.py", "dpteach/widgets/a11y.js"} <= set(names)
    assert not [n for n in names if "labserver" in n or n.startswith(("tests/", "benchmarks/"))]


def test_test_files_are_named_by_what_they_test_and_browser_tests_sit_with_their_wing():
    """No test file is named by its size (test_x_a.py, test_x_b.py: chapters or topics say which part is which), and
    the top of tests/, which mirrors the package's core, holds no browser test of the publishing wing: the lab, the
    editions, the book and the slides are tested in tests/publish/. The one browser test left at the top drives the
    widgets' own access widget (dpteach/widgets) in the lab."""
    tests = ROOT / "tests"
    by_size = sorted(str(p.relative_to(ROOT)) for p in tests.rglob("test_*.py") if re.search(r"_[a-z]\.py$", p.name))
    assert not by_size
    assert {p.name for p in tests.glob("test_browser_*.py")} <= {"test_browser_lab_a11y.py"}


def test_the_code_is_ruff_clean():
    """The whole repository passes the lint rules set in pyproject.toml, as ``ruff check .`` reads it: the package,
    the tests, the benchmarks, the tools and the notebooks' code cells (ruff lints .ipynb; a chapter's cell is fixed in
    its MyST twin in sources/ and synced)."""
    ruff = Path(sys.executable).with_name("ruff")
    out = subprocess.run([str(ruff), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_readme_lists_every_chapter():
    """The README's chapter table links every chapter notebook, and every link resolves."""
    text = (ROOT / "README.md").read_text()
    linked = set(re.findall(r"\]\((notebooks/\d\d_[a-z0-9_]+\.ipynb)\)", text))
    present = {f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    assert linked == present


def test_every_variable_a_rule_needs_is_defined_before_the_rule():
    """Make expands a rule's targets and prerequisites when it reads the rule: a variable assigned further down
    is empty there, and the prerequisite silently disappears (test-slow once lost the hub's proxy so: a clean
    clone never installed it, and the hub's test failed in CI only)."""
    defined, late = set(), []
    for number, line in enumerate((ROOT / "Makefile").read_text().splitlines(), 1):
        assignment = re.match(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?::=|\?=|\+=|=)", line)
        if assignment:
            defined.add(assignment.group(1))
            continue
        rule = re.match(r"^([^\s#:=][^:=]*?):(?!=)(.*)$", line)
        if rule and not line.startswith("\t"):
            head = rule.group(1) + " " + rule.group(2).split(";")[0]
            late += [(number, name) for name in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", head)
                     if name not in defined]
    assert not late, f"variables used in a rule before they are assigned (line, name): {late}"
    assert "build/hub/node_modules/.bin/configurable-http-proxy" in subprocess.run(
        ["make", "-qp"], cwd=ROOT, capture_output=True, text=True).stdout.split("\ntest-slow:", 1)[1].split("\n", 1)[0]


#: Each user-facing target with its variables, and what `dpteach` must then be given (the parsed options).
ALIASES = [
    ("lab", [], "lab", {}),
    ("sync", [], "sync", {}),
    ("execute", [], "execute", {"inplace": True, "timeout": 300}),
    ("html", ["ONLINE=1", "INSTRUCTOR=1", "REPO=o/n", "HUB=https://hub.example.edu", "BRANCH=dev"], "html",
     {"offline": False, "instructor": True, "repo": "o/n", "hub": "https://hub.example.edu", "branch": "dev"}),
    ("html", [], "html", {"offline": True, "instructor": False, "repo": "", "branch": "main"}),
    ("slides", ["ONLINE=1"], "slides", {"offline": False}),
    ("present", ["CHAPTER=05"], "present", {"chapter": "05", "out": "build/present", "port": 8888}),
    ("course", ["ROSTER=my roster.csv", "SEED=spring", "CHAPTERS=03 05", "PUBLIC=1", "ONLINE=1", "REPO=o/n",
                "HUB=https://hub.example.edu", "BRANCH=dev"], "course",
     {"roster": "my roster.csv", "seed": "spring", "chapters": ["03", "05"], "public": True, "offline": False,
      "book": True, "repo": "o/n", "hub": "https://hub.example.edu", "branch": "dev"}),
    ("grade", ["SUBMISSIONS=collected/", "CHAPTER=05", "OVERRIDES=my overrides.csv", "COURSE=c.json"], "grade",
     {"submissions": ["collected/"], "chapter": "05", "overrides": "my overrides.csv", "course": "c.json"}),
    ("grade", ["SUBMISSIONS=collected/"], "grade",
     {"chapter": None, "overrides": None, "course": "build/course/instructor/course.json"}),
    ("gradebook", ["OVERRIDES=o.csv", "COURSE=c.json"], "gradebook", {"overrides": "o.csv", "course": "c.json"}),
    ("hub", ["USERS=7"], "hub", {"users": 7}),
    ("bench-hub", ["STUDENTS=1 5"], "bench", {"options": ["--hub-only", "--students", "1 5"]}),
    ("bench", ["BENCH_ARGS=--sliders-only"], "bench", {"options": ["--sliders-only"]}),
    ("docs", ["ONLINE=1"], "docs", {"offline": False}),
    ("course", ["CORE=1"], "course", {"core_only": True}),
]


@pytest.mark.parametrize("target, variables, verb, expected", ALIASES)
def test_each_target_is_an_alias_of_a_dpteach_verb(target, variables, verb, expected):
    """`make -n TARGET VARIABLES` ends in the venv's `dpteach VERB ...`, which the command's own parser reads as the
    variables say (a variable lost or misspelt on the way fails here, without running anything)."""
    import shlex

    from dpteach.cli import build_parser

    dry = subprocess.run(["make", "-n", "--no-print-directory", target, *variables], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    runs = [shlex.split(line) for line in dry.replace("\\\n", " ").splitlines() if re.match(r"^\S*/bin/dpteach ", line)]
    runs = [run for run in runs if run[1] == verb]
    assert runs, dry
    args = build_parser().parse_args(runs[0][1:])
    assert {k: getattr(args, k) for k in expected} == expected


def test_every_target_is_an_alias_the_bootstrap_or_a_test_tier():
    """The Makefile's phony targets: each user-facing one is in ALIASES; the rest install (lock), test (pytest, or
    tools/test_python.py), print the links with the system Python (before any venv), help, or clean."""
    phony = set(" ".join(re.findall(r"^\.PHONY:(.*)$", (ROOT / "Makefile").read_text(), re.M)).split())
    others = {"help", "check", "test", "test-slow", "test-seeds", "test-python", "lock", "binder-url", "nbgitpuller-url",
              "clean"}
    assert phony - others == {target for target, *_ in ALIASES}
    assert "tools/test_python.py" in subprocess.run(["make", "-n", "test-python"], cwd=ROOT, capture_output=True,
                                                    text=True).stdout


def test_test_python_names_a_python_it_cannot_find_and_refuses_a_bad_version(tmp_path):
    """make test-python (tools/test_python.py, standard library only): a missing interpreter stops the run before
    anything is cloned, saying which; a version that is not X.Y is an argument error naming --pythons."""
    tool = [sys.executable, str(ROOT / "tools" / "test_python.py"), "--clones", str(tmp_path / "clones"),
            "--pyenv-root", str(tmp_path)]
    missing = subprocess.run([*tool, "--pythons", "3.99"], capture_output=True, text=True)
    assert missing.returncode == 1 and "no usable python3.99" in missing.stdout
    assert not (tmp_path / "clones").exists()
    bad = subprocess.run([*tool, "--pythons", "latest"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--pythons must be versions like '3.10 3.13' (got 'latest')" in bad.stderr
