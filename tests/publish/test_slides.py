"""The instructor's slides: the marks stored in the chapters, speaker notes, the slide edition (what a
room sees: hidden code, no book-only cells, short prose with the full text in the notes, slides that
fit) and the reveal.js export (nbconvert), built offline and checked without a browser.

The slides in Chromium: test_browser_slides.py (static deck), test_browser_present.py (live, RISE).

The reader's book (Sphinx) is checked in test_book_site.py and, in Chromium, in test_browser_book.py.
"""

import re

import nbformat
import pytest
from helpers import ROOT

from dpteach.publish import slides
from dpteach.publish.book_site import instructor_edition
from dpteach.publish.paths import Project
from dpteach.publish.slides.edition import _sentences

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
    # (every chapter's deck is built, and opened in Chromium, by test_browser_slides.py)
    pages = slides.build_slides(PROJECT, tmp_path / "slides", offline=True, executed=ROOT / "notebooks", only=["03"])
    assert [p.name for p in pages] == ["03_laplace_mechanism.slides.html"]
    text = pages[0].read_text()
    assert "assets/reveal.js/dist/reveal.js" in text and text.count("<section") > 5
    assert text.count('<aside class="notes">') >= 3, "the speaker notes reach reveal.js's speaker view"
    assert "Show the solution" not in text and "answer_scale = dp.laplace_scale" not in text, "solutions are skipped"
    assert (tmp_path / "slides" / "assets" / "reveal.js" / "dist" / "reveal.js").exists()
    assert "navigationMode: \"linear\"" in text and "text-transform: none" in text


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


# -- the slide edition: what a room sees ------------------------------------------------------------

def _edition(stem, live=True):
    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    return nb, slides.slide_edition(instructor_edition(nb, stem, PROJECT), live=live)


def _shown(nb):
    return [c for c in nb.cells if slides.role(c) not in ("skip", "notes")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_slide_edition_keeps_every_cell_and_fits_the_budget(path):
    """Live copy: the same code cells in the same order (Run All still runs the chapter); no sub-slide
    (→ and Space walk the same order); every slide within the height budget unless one cell alone is taller."""
    nb, edition = _edition(path.stem)
    assert [c.source for c in edition.cells if c.cell_type == "code"] == [c.source for c in nb.cells if c.cell_type == "code"]
    assert not [c for c in edition.cells if slides.role(c) == "subslide"]
    state = edition.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    slide, heights = [], []
    for cell in _shown(edition) + [None]:
        if cell is None or slides.role(cell) == "slide":
            if slide:
                heights.append((sum(slides.cell_height(c, state) for c in slide), len(slide), slide[0].source[:50]))
            slide = []
        if cell is not None:
            slide.append(cell)
    too_tall = [(h, title) for h, n, title in heights if h > slides.SLIDE_BUDGET and n > 2]
    assert not too_tall, too_tall
    notes = [c for c in edition.cells if slides.role(c) == "notes" and "instructor" in c.metadata.get("tags", [])]
    assert len(notes) == len([c for c in instructor_edition(nb, path.stem, PROJECT).cells if slides.role(c) == "notes"])


def test_slide_edition_hides_the_code_the_book_hides_and_leaves_off_book_only_cells():
    nb, live = _edition("03_laplace_mechanism")
    _, static = _edition("03_laplace_mechanism", live=False)
    for edition in (live, static):
        for cell in edition.cells:
            if "remove_input" in cell.metadata.get("tags", []) or len(cell.source.splitlines()) > slides.LONG_CODE:
                assert cell.cell_type != "code" or cell.metadata["jupyter"]["source_hidden"], cell.source[:60]
        shown = " ".join(c.source for c in _shown(edition))
        assert "Reading this chapter as a web page" not in shown, "the web reader's note is the book's"
    live_calls = [c.source for c in _shown(live) if c.cell_type == "code" and "privacy_loss" in c.source]
    assert "dp.widgets.privacy_loss()" in live_calls and not [s for s in live_calls if "precomputed" in s]
    # without a kernel the precomputed view takes the live figure's place, with its slider live in the browser
    static_calls = [c for c in _shown(static) if c.cell_type == "code" and "privacy_loss" in c.source]
    assert "dp.widgets.privacy_loss()" not in [c.source for c in static_calls]
    precomputed = [c for c in static_calls if "precomputed" in c.source]
    assert len(precomputed) == 1 and "remove_input" in precomputed[0].metadata["tags"]
    view = precomputed[0].outputs[0]["data"]["application/vnd.jupyter.widget-view+json"]
    assert view["dpteach_precomputed"] is True
    assert "Speaker notes" not in (ROOT / "notebooks" / "03_laplace_mechanism.ipynb").read_text(), "chapters untouched"


def test_long_prose_gets_a_short_slide_version_and_the_full_text_goes_to_the_notes():
    nb, edition = _edition("03_laplace_mechanism")
    picture = next(i for i, c in enumerate(edition.cells) if c.source.startswith("### The picture\n"))
    original = next(c.source for c in nb.cells if c.source.startswith("### The picture\n"))
    short = edition.cells[picture].source
    assert short.startswith("### The picture\n") and len(short) < len(original) / 2
    following = edition.cells[picture + 1:picture + 4]
    full = [c.source for c in following if slides.role(c) == "notes" and "instructor" not in c.metadata.get("tags", [])]
    assert full and full[0] == original.split("\n", 2)[2].strip(), "the whole paragraph is in the speaker notes"
    # statements and formulas stay whole on the slide
    theorem = next(c.source for c in edition.cells if c.source.startswith("## Theorem 3.6"))
    assert "**Theorem 3.6.** The Laplace mechanism preserves (ε, 0)-differential privacy." in theorem
    definition = next(c.source for c in edition.cells if c.source.startswith("## Definition 3.3"))
    assert "$$" in definition


@pytest.mark.parametrize(("text", "first"), [
    ("A first one. A second one.", "A first one."),
    ("Noise, e.g. Laplace noise, is added. Then more.", "Noise, e.g. Laplace noise, is added."),
    ("**Step 1.** The ratio is $p_x(z). Q$ here. Next.", "**Step 1.** The ratio is $p_x(z). Q$ here."),
    ("Δf = 1. Then ε falls.", "Δf = 1."),
])
def test_first_sentence(text, first):
    assert _sentences(text)[0] == first


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
@pytest.mark.parametrize("live", [True, False], ids=["live", "static"])
def test_every_slide_has_a_heading_and_keeps_the_text_after_its_figure(path, live):
    """The outline and the speaker view name every slide by its heading: a slide the chapter opens with a figure
    (no heading of its own) gets its section's. On the live slides the text right after an interactive figure
    ("What to watch") is on the figure's slide, the figure drawn smaller (LIVE_FIGURE_NOTED)."""
    nb, edition = _edition(path.stem, live=live)
    state = edition.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    shown = _shown(edition)
    untitled = [c.source[:50] for c in shown if slides.role(c) == "slide" and not slides.heading(c)]
    assert not untitled, untitled
    if live:
        from dpteach.publish.slides.sizing import live_figure
        for i, cell in enumerate(shown[:-1]):
            after = shown[i + 1]
            if live_figure(cell, state) and after.cell_type == "markdown" and after.source.startswith("What to watch"):
                assert slides.role(after) != "slide", f"{path.stem}: 'What to watch' split from its figure"


def test_a_static_figure_is_drawn_for_its_smallest_text_to_read_at_24_px():
    """figure_height: the height at which the PNG's smallest text (its dpteach:text-px chunk) is FIGURE_TEXT px,
    within the slide's width and FIGURE_MAX; the old 540 px for a PNG that does not say."""
    import math

    import numpy as np

    from dpteach.plots._png import encode_png
    from dpteach.publish.slides.sizing import CONTENT_WIDTH, FIGURE_MAX, png_size

    frame = np.zeros((546, 1200, 4), dtype=np.uint8)
    assert png_size(encode_png(frame)) == (1200, 546)
    assert slides.figure_height(encode_png(frame)) == slides.FIGURE_CAP
    assert slides.figure_height(encode_png(frame, text_px=21.8)) == pytest.approx(546 * slides.FIGURE_TEXT / 21.8, abs=1)
    assert slides.figure_height(encode_png(frame, text_px=5.0)) == math.ceil(CONTENT_WIDTH * 546 / 1200)   # as wide as it goes
    tall = np.zeros((900, 1000, 4), dtype=np.uint8)
    assert slides.figure_height(encode_png(tall, text_px=10.0)) == FIGURE_MAX
    with pytest.raises(ValueError, match="png must be"):
        png_size(b"GIF89a")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_static_deck_s_caption_says_what_its_hidden_sliders_were_set_to_and_which_way_is_private(path):
    """Issue 44: the static deck leaves a live figure's sliders out (no kernel moves them), so the line under the
    figure says each control's saved value and, for ε, δ and noise scales, which way is more private."""
    nb = nbformat.read(path, as_version=4)
    edition = slides.slide_edition(instructor_edition(nb, path.stem, PROJECT), live=False)
    if "widgets" not in edition.metadata:
        pytest.skip(f"{path.stem} has no live figure")
    state = edition.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]

    def tree(mid):
        yield state[mid]
        for child in state[mid]["state"].get("children", []):
            yield from tree(child.removeprefix("IPY_MODEL_"))

    figures = [(mid, m) for mid, m in state.items() if "dpteach-interactive" in m["state"].get("_dom_classes", ())]
    assert figures, path.stem
    for _, model in figures:
        children = [c.removeprefix("IPY_MODEL_") for c in model["state"]["children"]]
        caption = state[children[1]]["state"]["value"]
        sliders = [m["state"] for m in tree(children[0]) if m["model_name"].endswith("SliderModel")]
        assert caption.startswith("<span class='dpteach-fixed'>Drawn at "), caption
        for slider in sliders:
            description = slider["description"].replace("&", "&amp;")
            assert f"{description} = " in caption, (description, caption)
            symbol = slider["description"].split(" ")[0]
            if symbol == "δ′":        # slack in the accounting: what it trades, never "more private"
                assert "δ′: ← smaller δ′, larger ε′ · larger δ′, smaller ε′ →." in caption, caption
                assert not re.search(r"A \w+ [^.]*δ′[^.]* is more private", caption), caption
            if symbol in ("ε", "δ", "σ", "b"):
                more = "larger" if symbol in ("σ", "b") else "smaller"
                said = re.search(rf"A {more} ([^.]*?) is more private, a (\w+) one more accurate", caption)
                assert said and symbol in said.group(1).split(" or ") and said.group(2) != more, (symbol, caption)
    live = slides.slide_edition(instructor_edition(nb, path.stem, PROJECT), live=True)
    live_state = live.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert not any("dpteach-fixed" in str(m["state"].get("value", "")) for m in live_state.values()), \
        "the live slides' sliders move: no fixed caption"
