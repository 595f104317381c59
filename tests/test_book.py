"""The instructor's slides (nbconvert + reveal.js), built offline and checked without a browser.

The reader's book (Sphinx) is checked in test_book_site.py and, in Chromium, in test_browser_book.py.
"""

from conftest import ROOT

from dpteach import export
from dpteach.book import chapters


def test_slides_mark_up_the_story():
    """Headings open slides, proof steps are fragments, exercises and solutions are skipped."""
    import nbformat
    nb = export.slide_markup(nbformat.read(ROOT / "notebooks" / "03_laplace_mechanism.ipynb", as_version=4))
    roles = [(c.cell_type, c.source[:30], c.metadata["slideshow"]["slide_type"]) for c in nb.cells]
    assert roles[0][2] == "slide"
    assert any(src.startswith("**Step") and role == "fragment" for _, src, role in roles)
    assert all(role == "skip" for c, (_, _, role) in zip(nb.cells, roles) if "solution" in c.metadata.get("tags", []))
    exercises = next(i for i, (_, src, _) in enumerate(roles) if src.startswith("## Exercises"))
    following = next(i for i, (_, src, _) in enumerate(roles) if src.startswith("## What's next"))
    assert all(role == "skip" for _, _, role in roles[exercises:following])


def test_slides_build_offline(tmp_path):
    pages = export.build_slides(tmp_path / "slides", offline=True, executed=ROOT / "notebooks")
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
