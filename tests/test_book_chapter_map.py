"""The workbook's table of contents (dpteach/book.py), read from the chapter notebooks themselves."""

import pytest
from helpers import ROOT

import dpteach as dp


def test_chapter_map_lists_the_chapters_with_titles():
    cm = dp.chapter_map(ROOT / "notebooks")
    numbers = [c.number for c in cm.items]
    assert numbers[:4] == ["00", "01", "02", "03"]
    assert all(c.title and c.summary for c in cm.items)
    assert "<a href='01_sensitivity.ipynb'>" in cm._repr_html_()
    with pytest.raises(ValueError, match="folder"):
        dp.chapter_map(ROOT / "no-such-folder")
