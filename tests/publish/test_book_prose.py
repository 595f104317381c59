"""The book's prose, checked without building the book: maths written in plain text set as maths, links to
chapters named by their titles, no exercise checker's "run the cell again", and an index that mentions a launch
menu only when the book has one (built with REPO=). The built book, in Chromium: test_browser_book.py."""

import nbformat
from helpers import ROOT

from dpteach.book import chapters
from dpteach.publish.book_site import _index, book_sources, short_title
from dpteach.publish.prose import name_chapter_links, typeset_plain_maths

CHAPTERS = chapters(ROOT / "notebooks")
TITLES = {c.path.stem: short_title(c) for c in CHAPTERS}


def test_plain_text_maths_is_set_as_superscripts_and_subscripts():
    assert typeset_plain_maths("at most e^ε, and e^(−t) or p_x(z)") == \
        "at most e{sup}`ε`, and e{sup}`−t` or p{sub}`x`(z)"
    # code, formulas, links' targets, HTML and names with an underscore stay as they are
    kept = "`e^x` $e^{x}$ [a](03_x_y.ipynb) <a href='p_x'>p</a> max_size dp.all_databases\n```python\nx = a_b ^ c\n```"
    assert typeset_plain_maths(kept) == kept


def test_chapter_links_carry_the_chapters_titles():
    text = "| necessary | [01_sensitivity.ipynb](01_sensitivity.ipynb) |, [`02_laplace_distribution.ipynb`](02_laplace_distribution.ipynb)"
    named = name_chapter_links(text, TITLES)
    assert "[01 · Sensitivity](01_sensitivity.ipynb)" in named
    assert f"[{TITLES['02_laplace_distribution']}](02_laplace_distribution.ipynb)" in named
    assert name_chapter_links("[99_none.ipynb](99_none.ipynb)", TITLES) == "[99_none.ipynb](99_none.ipynb)"


def test_book_sources_typeset_name_and_leave_no_checker_message():
    nb = nbformat.read(ROOT / "notebooks" / "03_laplace_mechanism.ipynb", as_version=4)
    pages = book_sources(nb, TITLES)
    prose = " ".join(c.source for c in pages.cells if c.cell_type == "markdown")
    assert "M_L(x" not in prose and "M{sub}`L`(x" in prose
    assert "[01_sensitivity.ipynb]" not in prose
    said = [o for c in pages.cells if c.cell_type == "code" and "# your answer here" in c.source for o in c.outputs]
    assert not said, "an answer cell keeps what its checker said when the chapter ran"
    assert any(o.get("outputs") for o in nb.cells if o.cell_type == "code" and "# your answer here" in o.source), \
        "(the stored chapter has that output: this test would see it)"


def test_the_index_mentions_a_launch_menu_only_when_there_is_one():
    assert "rocket" not in _index(CHAPTERS, instructor=False) and "make lab" in _index(CHAPTERS, instructor=False)
    assert "M_L" not in _index(CHAPTERS, instructor=False), "the chapters' summaries keep their plain-text maths"
    assert "rocket menu" in _index(CHAPTERS, instructor=False, launch=True)
