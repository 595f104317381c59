"""The instructor's slides: the marks stored in the chapters, speaker notes, and the reveal.js export
(nbconvert), built offline and checked without a browser.

The reader's book (Sphinx) is checked in test_book_site.py and, in Chromium, in test_browser_book.py.
"""

import nbformat
import pytest
from conftest import ROOT

from dpteach.book import chapters
from dpteach.build import slides
from dpteach.build.book import instructor_edition
from dpteach.build.paths import Project

PROJECT = Project(ROOT)
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
    """The slides' speaker view has a few notes per chapter (the point of the slide, a question for the room,
    the usual mistake): not in the students' chapter, but in the instructor edition the slides are built from."""
    nb = nbformat.read(path, as_version=4)
    assert not [c for c in nb.cells if slides.role(c) == "notes" or "Speaker notes" in c.source]
    edition = instructor_edition(nb, path.stem, PROJECT)
    notes = [c for c in edition.cells if slides.role(c) == "notes"]
    assert len(notes) >= 3, f"{path.name} has {len(notes)} speaker notes"
    for cell in notes:
        assert cell.cell_type == "markdown" and cell.source.startswith("**Speaker notes"), cell.source[:60]
    assert not slides.unmarked(edition), "every cell the edition adds carries a slide mark"


def test_the_rules_mark_the_story():
    """Headings open slides, proof steps are fragments, exercises and solutions are skipped."""
    nb = slides.mark(nbformat.read(ROOT / "notebooks" / "03_laplace_mechanism.ipynb", as_version=4), force=True)
    roles = [(c.cell_type, c.source[:30], c.metadata["slideshow"]["slide_type"]) for c in nb.cells]
    assert roles[0][2] == "slide"
    assert any(src.startswith("**Step") and role == "fragment" for _, src, role in roles)
    solutions = [role for c, (_, _, role) in zip(nb.cells, roles) if "solution" in c.metadata.get("tags", [])]
    assert solutions and all(role == "skip" for role in solutions)
    exercises = next(i for i, (_, src, _) in enumerate(roles) if src.startswith("## Exercises"))
    following = next(i for i, (_, src, _) in enumerate(roles) if src.startswith("## What's next"))
    assert all(role == "skip" for _, _, role in roles[exercises:following])


def test_slides_build_offline(tmp_path):
    pages = slides.build_slides(PROJECT, tmp_path / "slides", offline=True, executed=ROOT / "notebooks")
    assert len(pages) == len(chapters(ROOT / "notebooks"))
    text = pages[3].read_text()
    assert "assets/reveal.js/dist/reveal.js" in text and text.count("<section") > 5
    assert text.count('<aside class="notes">') >= 3, "the speaker notes reach reveal.js's speaker view"
    assert "Show the solution" not in text and "answer_scale = dp.laplace_scale" not in text, "solutions are skipped"
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
