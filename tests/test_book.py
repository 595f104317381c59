"""The reader's HTML book and the instructor's slides, built offline and checked without a browser."""

import re

import pytest
from conftest import ROOT

from dpteach import export
from dpteach.book import chapters


@pytest.fixture(scope="session")
def book(tmp_path_factory):
    """The offline HTML book, built from the committed (executed, nbval-checked) notebooks."""
    out = tmp_path_factory.mktemp("book") / "html"
    export.build_html(out, offline=True, executed=ROOT / "notebooks")
    return out


def test_every_chapter_has_a_page_and_the_index_lists_them(book):
    items = chapters(ROOT / "notebooks")
    index = (book / "index.html").read_text()
    for c in items:
        assert (book / f"{c.path.stem}.html").exists()
        assert re.search(rf"href=[\"']{c.path.stem}\.html[\"']", index) and c.title in index


def test_pages_link_to_previous_next_and_contents(book):
    items = chapters(ROOT / "notebooks")
    for i, c in enumerate(items):
        page = (book / f"{c.path.stem}.html").read_text()
        links = set(re.findall(r"href=[\"']([^\"'#]+\.html)[\"']", page))
        assert "index.html" in links
        if i > 0:
            assert f"{items[i - 1].path.stem}.html" in links
        if i + 1 < len(items):
            assert f"{items[i + 1].path.stem}.html" in links
        assert not re.search(r"href=[\"']\d\d_[a-z0-9_]+\.ipynb", page), "links must point at pages"


def test_offline_pages_load_nothing_from_the_network(book):
    """Scripts and styles come from assets/ beside the pages, not from a CDN."""
    for page in book.glob("*.html"):
        text = page.read_text()
        for url in re.findall(r"<script[^>]+src=[\"']([^\"']+)", text):
            assert not url.startswith(("http:", "https:", "//")), (page.name, url)
        assert "assets/mathjax/MathJax.js" in text or page.name == "index.html"
    for asset in ("mathjax/MathJax.js", "require.js", "html-manager/embed-amd.js"):
        assert (book / "assets" / asset).exists()


def test_solutions_are_folded_for_students_and_open_for_instructors(book, tmp_path):
    page = (book / "03_laplace_mechanism.html").read_text()
    assert page.count("<details class=\"dpteach-solution\">") >= 2
    instructor = export.build_html(tmp_path / "html", instructor=True, executed=ROOT / "notebooks")
    text = (tmp_path / "html" / "03_laplace_mechanism.html").read_text()
    assert len(re.findall(r"<details class=\"dpteach-solution\" open[=\"]*>", text)) >= 2
    assert "Instructor edition" in text
    assert all(p.exists() for p in instructor)


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
