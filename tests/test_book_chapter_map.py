"""The workbook's table of contents (dpteach/book.py), read from the chapter notebooks themselves."""

import json

import pytest
from helpers import ROOT

import dpteach as dp


def test_chapter_map_lists_the_chapters_with_titles():
    cm = dp.chapter_map(ROOT / "notebooks")
    numbers = [c.number for c in cm.items]
    assert numbers == [f"{i:02d}" for i in range(13)]
    assert all(c.title and c.summary for c in cm.items)
    assert "<a href='01_sensitivity.ipynb'>" in cm._repr_html_()
    with pytest.raises(ValueError, match="folder"):
        dp.chapter_map(ROOT / "no-such-folder")


def test_chapter_map_lists_each_chapters_sections_with_links_choosing_epsilon_among_them():
    cm = dp.chapter_map(ROOT / "notebooks")
    six = next(c for c in cm.items if c.number == "06")
    assert "Choosing ε and δ" in six.sections
    assert "<a href='06_composition_and_budget.ipynb#Choosing-ε-and-δ'>Choosing ε and δ</a>" in cm._repr_html_()
    assert "· Choosing ε and δ" in repr(cm)
    for chapter in cm.items:               # every "## " heading but the frame, in order, read from the notebook
        nb = json.loads(chapter.path.read_text(encoding="utf-8"))
        headings = [ln[3:].strip() for c in nb["cells"] if c["cell_type"] == "markdown"
                    for ln in "".join(c["source"]).splitlines() if ln.startswith("## ")]
        assert list(chapter.sections) == [h for h in headings if h not in dp.book.FRAME]
        assert not set(chapter.sections) & {"Overview", "Summary", "Exercises"}


def test_the_readme_chapter_table_lists_00_to_12_and_the_section():
    rows = [ln for ln in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if ln.startswith("| ")]
    numbers = [ln.split("|")[1].strip() for ln in rows]
    assert [f"{i:02d}" for i in range(13)] == [n for n in numbers if n.isdigit() and len(n) == 2]
    six = next(ln for ln in rows if ln.startswith("| 06 "))
    assert "[Choosing ε and δ](notebooks/06_composition_and_budget.ipynb#Choosing-ε-and-δ)" in six
