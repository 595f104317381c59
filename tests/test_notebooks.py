"""Every chapter is paired, executed in order, error-free, and built the same way.

nbval (run over notebooks/ by the same pytest command) re-executes each notebook and
compares outputs; these tests check what nbval cannot: that the stored outputs are real,
that the text twins are in sync, and that each chapter has the structure students rely on.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
JUPYTEXT = Path(sys.executable).with_name("jupytext")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _markdown(path: Path) -> str:
    return "\n".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")


def test_there_are_chapters():
    assert [p.name[:2] for p in NOTEBOOKS][:4] == ["00", "01", "02", "03"]


def test_pairs_are_in_sync(tmp_path):
    """`jupytext --sync` on a copy changes nothing: each notebooks/NN.ipynb and its sources/NN.md say the same."""
    shutil.copytree(ROOT / "notebooks", tmp_path / "notebooks")
    shutil.copytree(ROOT / "sources", tmp_path / "sources")
    shutil.copy(ROOT / "jupytext.toml", tmp_path)
    copies = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    subprocess.run([str(JUPYTEXT), "--sync", *copies], cwd=tmp_path, check=True, capture_output=True)
    for nb in NOTEBOOKS:
        for twin in (nb, ROOT / "sources" / f"{nb.stem}.md"):
            assert twin.exists(), f"{twin.name} is missing"
            synced = tmp_path / twin.relative_to(ROOT)
            assert synced.read_bytes() == twin.read_bytes(), f"{twin.name} is out of sync with its pair"


def test_the_students_folder_holds_one_file_per_chapter():
    """Students open notebooks/: one .ipynb per chapter, no text twin beside it to choose between."""
    stems = [p.stem for p in NOTEBOOKS]
    assert not list((ROOT / "notebooks").glob("*.md")), "text twins belong in sources/"
    assert sorted(p.stem for p in (ROOT / "sources").glob("[0-9][0-9]_*.md")) == stems


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_was_executed_top_to_bottom_without_errors(nb):
    code = [c for c in _cells(nb) if c["cell_type"] == "code"]
    counts = [c.get("execution_count") for c in code]
    assert None not in counts, "some code cells were never executed: nbval would check nothing there"
    assert counts == list(range(1, len(counts) + 1)), "run the notebook top to bottom in a fresh kernel"
    for c in code:
        for out in c.get("outputs", []):
            assert out["output_type"] != "error", "".join(c["source"])
            assert not (out["output_type"] == "stream" and out["name"] == "stderr"), \
                f"stderr (a warning?) stored for cell: {''.join(c['source'])[:80]}"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_has_the_workbook_structure(nb):
    """Overview, prerequisites, summary, exercises and what's next, as STYLE.md asks."""
    text = _markdown(nb)
    assert re.search(r"^# \S", text, re.M), "a chapter opens with a # title"
    for section in ("## Overview", "## Prerequisites", "## Summary", "## What's next"):
        assert section in text, f"missing section {section!r}"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_links_to_other_chapters_resolve(nb):
    for target in re.findall(r"\]\((\d\d_[a-z0-9_]+\.ipynb)\)", _markdown(nb)):
        if (ROOT / "notebooks" / target).exists():
            continue
        pytest.fail(f"{nb.name} links to {target}, which does not exist")
