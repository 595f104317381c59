"""The publishing verbs of ``dpteach`` (``python -m dpteach``): they work on the project they are run in.

The package is installed (editable) from this repository; run from another folder holding a
notebooks/ folder, the build must read and write there, never in this repository's build/.
"""

import json
import subprocess
import sys

import nbformat
import pytest
from helpers import ROOT

from dpteach.publish.paths import Project

TINY = "00_tiny.ipynb"


def _tiny_project(tmp_path):
    """A project of one tiny chapter: its title, its working directory, and a widget."""
    (tmp_path / "notebooks").mkdir(parents=True)
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# A tiny chapter\n\nIt prints where it runs."),
        nbformat.v4.new_code_cell("import os\nprint(os.getcwd())"),
        nbformat.v4.new_code_cell("import ipywidgets\nipywidgets.IntSlider(value=3, description='k')"),
        nbformat.v4.new_code_cell("import time\nprint('a', flush=True)\ntime.sleep(0.3)\nprint('b')"),
    ])
    nbformat.write(nb, tmp_path / "notebooks" / TINY)
    return tmp_path


def _build(*args, cwd):
    return subprocess.run([sys.executable, "-m", "dpteach", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_execute_writes_into_the_project_it_runs_in(tmp_path):
    project = _tiny_project(tmp_path)
    ours = ROOT / "build" / "executed" / TINY
    before = ours.exists()
    done = _build("execute", cwd=project)
    assert done.returncode == 0, done.stderr[-3000:]
    executed = nbformat.read(project / "build" / "executed" / TINY, as_version=4)
    assert executed.cells[1].outputs[0]["text"].strip() == str((project / "notebooks").resolve())
    state = executed.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert any(m["model_name"] == "IntSliderModel" and m["state"]["value"] == 3 for m in state.values())
    assert "execution" not in executed.cells[1].metadata, "no timing metadata (it would change on every run)"
    assert [o.get("text") for o in executed.cells[3].outputs] == ["a\nb\n"], "a cell's printing in one piece"
    assert ours.exists() == before, "the build wrote into the repository it is installed from"
    stored = json.loads((project / "notebooks" / TINY).read_text())
    assert not stored["cells"][1]["outputs"], "without --inplace the chapter itself is left as it was"


def test_execute_inplace_and_root(tmp_path):
    project = _tiny_project(tmp_path / "course")
    done = _build("--root", str(project), "execute", "--inplace", f"notebooks/{TINY}", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    stored = nbformat.read(project / "notebooks" / TINY, as_version=4)
    assert [c.execution_count for c in stored.cells if c.cell_type == "code"] == [1, 2, 3]
    assert not (project / "build").exists() and not (tmp_path / "build").exists()


def test_a_folder_without_notebooks_is_refused(tmp_path):
    done = _build("execute", cwd=tmp_path)
    assert done.returncode == 2
    assert "root must be a folder holding notebooks/" in done.stderr and str(tmp_path) in done.stderr
    with pytest.raises(ValueError, match="root must be a folder holding notebooks/"):
        Project(tmp_path)
    assert Project(ROOT).executed == ROOT.resolve() / "build" / "executed"


def test_an_unknown_verb_is_refused(tmp_path):
    """`dpteach assign` (the course wing's old verb: now `dpteach course`) is refused by argparse."""
    done = _build("assign", cwd=_tiny_project(tmp_path))
    assert done.returncode == 2 and "invalid choice" in done.stderr
