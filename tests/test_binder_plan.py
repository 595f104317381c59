"""Binder's build plan, read by repo2docker itself, is what the README promises.

mybinder.org builds the repository with repo2docker. `jupyter-repo2docker --no-build --debug PATH`
(from the test lock) prints the Dockerfile it would build, with no Docker engine. These tests ask
it about a clean clone of the commit under test (what Binder fetches: no untracked or ignored
file), and check the plan: the Python it installs, the environment file it reads (binder/'s, which
makes it ignore the root one), that pip installs exactly the lab lock's pins, and that postBuild
runs after the environment exists and the repository is in place. Then the parts that need no
Docker are run for real: postBuild in a fresh venv.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT / "requirements"))
import sync_environment  # requirements/ is not a package

# the slow tier (make test-slow, make check): asks repo2docker for the plan of a fresh clone
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A clean clone of the commit under test: what Binder fetches."""
    path = tmp_path_factory.mktemp("binder") / "dpteach"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(path)], check=True)
    return path


@pytest.fixture(scope="module")
def plan(clone) -> tuple[str, str]:
    """(Dockerfile, log) of repo2docker's plan for the clone."""
    r2d = Path(sys.executable).with_name("jupyter-repo2docker")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "IPYTHONDIR")}
    out = subprocess.run([str(r2d), "--no-build", "--debug", str(clone)], capture_output=True, text=True, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    dockerfile = out.stdout.strip()
    assert dockerfile.startswith("FROM "), dockerfile[:500]
    return dockerfile, out.stderr


def _environment(path: Path) -> tuple[str, list[str]]:
    """(python version, pip pins) of a conda environment file written by requirements/sync_environment.py."""
    text = path.read_text()
    (python,) = re.findall(r"^\s+-\s+python=(\S+)\s*$", text, flags=re.M)
    pins = re.findall(r"^\s{6}-\s+(\S+==\S+)\s*$", text, flags=re.M)
    return python, pins


def test_binder_builds_a_conda_environment_for_the_environment_files_python(plan, clone):
    dockerfile, log = plan
    python, _ = _environment(clone / "binder" / "environment.yml")
    assert python == sync_environment.PYTHON
    assert f"Building conda environment for python={python}" in log
    # repo2docker's own base environment for that Python: the lock file of that name, which the COPY line
    # names escaped ("-2d" for "-", "-2e" for ".")
    escaped = f"environment.py-{python}-linux-64.lock".replace("-", "-2d").replace(".", "-2e")
    assert re.search(rf"^COPY .*{re.escape(escaped)}", dockerfile, re.M), "no base environment for python"
    # and the README's claim covers it: requires-python is >= 3.10
    assert tuple(map(int, python.split("."))) >= (3, 10)


def test_binder_reads_binder_environment_yml_and_not_the_root_one(plan):
    dockerfile, _ = plan
    assert re.search(r"^COPY .*src/binder/environment\.yml \$\{REPO_DIR\}/binder/environment\.yml$", dockerfile, re.M)
    update = re.search(r'mamba_exe\}? env update -p \$\{NB_PYTHON_PREFIX\} --file "([^"]+)"', dockerfile, re.I)
    assert update and update.group(1) == "binder/environment.yml", dockerfile
    assert "src/environment.yml" not in dockerfile and "requirements.txt" not in dockerfile


def test_binder_runs_postbuild_after_the_environment_and_the_repository_copy(plan):
    dockerfile, _ = plan
    lines = dockerfile.splitlines()

    def index(pattern: str) -> int:
        hits = [i for i, line in enumerate(lines) if re.search(pattern, line)]
        assert len(hits) == 1, (pattern, hits)
        return hits[0]

    env_update, copy_repo = index(r"env update -p \$\{NB_PYTHON_PREFIX\}"), index(r"^COPY --chown=\S+ src/ \$\{REPO_DIR\}/$")
    postbuild = index(r"^RUN \./binder/postBuild$")
    assert env_update < copy_repo < postbuild
    assert lines[postbuild - 1] == "RUN chmod +x binder/postBuild"
    # the notebook server runs as the unprivileged user postBuild ran as
    assert [line for line in lines[:postbuild] if line.startswith("USER ")][-1] == "USER ${NB_USER}"


def test_binder_installs_exactly_the_lab_locks_pins(clone):
    """The environment file Binder reads pins what the lab lock pins on its Python (and nothing else)."""
    python, pins = _environment(clone / "binder" / "environment.yml")
    assert pins == sync_environment.pins(clone / "requirements" / "lab.lock.txt", sync_environment.PYTHON_FULL)
    assert python == ".".join(sync_environment.PYTHON_FULL.split(".")[:2])
    assert (clone / "environment.yml").read_bytes() == (clone / "binder" / "environment.yml").read_bytes()


def test_postbuild_installs_the_workbook_and_the_lab_settings(clone, tmp_path):
    """binder/postBuild, run as repo2docker runs it (from the repository root, NB_PYTHON_PREFIX's python
    first on PATH), in a fresh venv standing in for Binder's environment: the package is installed from
    the clone, and the settings that open the Markdown twins as notebooks land in the prefix."""
    prefix = tmp_path / "notebook-env"
    subprocess.run([sys.executable, "-m", "venv", str(prefix)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "IPYTHONDIR", "VIRTUAL_ENV")}
    env.update(NB_PYTHON_PREFIX=str(prefix), PATH=f"{prefix / 'bin'}{os.pathsep}{env.get('PATH', '')}",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run(["./binder/postBuild"], cwd=clone, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    where = subprocess.run([str(prefix / "bin" / "python"), "-c",
                            "import importlib.util as u; print(u.find_spec('dpteach').origin)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()) == clone / "dpteach" / "__init__.py"
    settings = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert json.loads(settings.read_text()) == json.loads((clone / "binder" / "overrides.json").read_text())
    server = prefix / "etc" / "jupyter" / "jupyter_server_config.json"     # TCP_NODELAY: dpteach.publish.websocket
    assert json.loads(server.read_text()) == json.loads((clone / "binder" / "jupyter_server_config.json").read_text())
