"""The instructor's slides: the marks stored in the chapters, speaker notes, and the reveal.js export
(nbconvert), built offline and checked without a browser.

The reader's book (Sphinx) is checked in test_book_site.py and, in Chromium, in test_browser_book.py.
"""

import nbformat
import pytest
from conftest import ROOT

from dpteach import slides
from dpteach.book import chapters

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_cell_carries_its_slide_mark(path):
    """The marks live in the chapters (the one source of truth for RISE and make slides), every cell has one,
    and the rules would not change any of them: the marks were written by the tool, then kept."""
    nb = nbformat.read(path, as_version=4)
    assert not slides.unmarked(nb), f"cells without a slide mark: {slides.unmarked(nb)[:3]}"
    assert len(slides.split_at_headings(nb).cells) == len(nb.cells), "a markdown cell holds two headings"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_chapter_has_speaker_notes_for_the_instructor(path):
    """A few notes cells per chapter: the point of the slide, a question for the room, the usual mistake."""
    nb = nbformat.read(path, as_version=4)
    notes = [c for c in nb.cells if slides.role(c) == "notes"]
    assert len(notes) >= 3, f"{path.name} has {len(notes)} speaker notes"
    for cell in notes:
        assert cell.cell_type == "markdown" and cell.source.startswith("**Speaker notes"), cell.source[:60]
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, "notes start collapsed in the lab"
        assert "instructor" in cell.metadata.get("tags", []), "the book hides cells tagged instructor from students"


def test_the_rules_mark_the_story():
    """Headings open slides, proof steps are fragments, exercises and solutions are skipped."""
    nb = slides.mark(nbformat.read(ROOT / "notebooks" / "03_laplace_mechanism.ipynb", as_version=4), force=True)
    roles = [(c.cell_type, c.source[:30], c.metadata["slideshow"]["slide_type"]) for c in nb.cells]
    assert roles[0][2] == "slide"
    assert any(src.startswith("**Step") and role == "fragment" for _, src, role in roles)
    assert all(role == "skip" for c, (_, _, role) in zip(nb.cells, roles) if "solution" in c.metadata.get("tags", []))
    exercises = next(i for i, (_, src, _) in enumerate(roles) if src.startswith("## Exercises"))
    following = next(i for i, (_, src, _) in enumerate(roles) if src.startswith("## What's next"))
    assert all(role == "skip" for _, _, role in roles[exercises:following])


def test_slides_build_offline(tmp_path):
    pages = slides.build_slides(tmp_path / "slides", offline=True, executed=ROOT / "notebooks")
    assert len(pages) == len(chapters(ROOT / "notebooks"))
    text = pages[3].read_text()
    assert "assets/reveal.js/dist/reveal.js" in text and text.count("<section") > 5
    assert (tmp_path / "slides" / "assets" / "reveal.js" / "dist" / "reveal.js").exists()


def test_chapter_map_renders_markdown_instead_of_showing_its_marks():
    """A summary written in Markdown (*Algorithmic Foundations…* in chapter 00) shows as <em> in
    HTML and as plain words in text: no literal asterisks or backquotes reach the student."""
    from dpteach.book import _html, _plain, chapter_map
    table = chapter_map(ROOT / "notebooks")
    page = table._repr_html_()
    assert "<em>Algorithmic Foundations of Differential Privacy</em>" in page
    assert "*" not in page and "*" not in repr(table)
    assert _plain("a **b** *c* `d` [e](f.ipynb)") == "a b c d e"
    assert _html("a **b** *c* `d` [e](f.ipynb) <x>") == \
        "a <strong>b</strong> <em>c</em> <code>d</code> <a href='f.ipynb'>e</a> &lt;x&gt;"
    assert _plain("2 * 3 * 4") == "2 * 3 * 4"
