"""A chapter's core path and its "Going further" parts (issue 52; the rule in :mod:`dpteach.publish.going_further`).

The chapters are read from their MyST twins in ``sources/`` (jupytext, in memory: the text a reviewer edits, which
the pair-sync check holds equal to ``notebooks/``). A core-only hand-out is the course edition with
``core_only=True``, asked at numbers drawn as ``make course`` draws them; executing it (nbclient) shows it runs top
to bottom without the Going-further cells, and its executed text is searched for a homework answer by the leak
check's own rule (:func:`dpteach.course.leaks.gives_away`): a core run draws different random numbers from the
full chapter's, so its printed outputs are not the stored ones and are checked on their own.
"""

from __future__ import annotations

import copy
import re

import jupytext
import pytest
from helpers import ROOT

from dpteach.course import edition, leaks
from dpteach.course.model import plain
from dpteach.exercises import EXERCISES
from dpteach.exercises.variants import variant
from dpteach.publish import editions, going_further
from dpteach.publish.book_site import book_sources

SOURCES = sorted((ROOT / "sources").glob("[0-9][0-9]_*.md"))
STEMS = [path.stem for path in SOURCES]
KEY = "core-only test"
#: The side material issue 52 names, chapter by chapter: each must sit in a Going-further part.
NAMED = {"02_laplace_distribution": ["n_for_99", "ess\\,sup", "staircase"],
         "03_laplace_mechanism": ["ρ = 2.56", "δ = 10⁻¹⁰", "invariants", "donation", "Canonne, Kamath & Steinke"],
         "06_composition_and_budget": ["C(k, l)·e^((k−l)ε)"],
         "08_gaussian_and_generalized_gaussian": ["Steinke & Ullman", "sparse_vector_refinement"]}
#: Chapters executed in the fast tier (short ones); the slow tier executes every chapter.
FAST = ("02_laplace_distribution", "04_counting_and_histograms")


def chapter(stem: str):
    import nbformat
    return nbformat.from_dict(jupytext.reads((ROOT / "sources" / f"{stem}.md").read_text(encoding="utf-8"),
                                             fmt="md:myst"))


def core_handout(nb, stem: str):
    """The course's core-only hand-out of a chapter, every homework asked at numbers drawn as ``make course`` does:
    avoiding the numbers whose answer the stored chapter (``notebooks/``, with its outputs) shows elsewhere."""
    import nbformat

    stored = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    avoided = {exercise.checker: leaks.avoided(stored, exercise, EXERCISES[exercise.checker])
               for exercise in (editions.exercises(stored, stem) if edition.has_exercises(stored) else [])}
    entries = []
    for exercise in editions.exercises(nb, stem) if edition.has_exercises(nb) else []:
        spec = EXERCISES[exercise.checker]
        parts = [dict(part) for part in edition.PARTS[spec.kind]]
        avoid = avoided[exercise.checker]
        entries.append({"name": exercise.name, "number": exercise.number, "checker": exercise.checker,
                        "kind": spec.kind, "parts": parts, "points": sum(p["points"] for p in parts),
                        "params": plain(variant(KEY, "", stem, exercise.checker, avoid))})
    numbers = {e["checker"]: e["params"] for e in entries}
    return edition.course_edition(nb, stem, numbers, {}, entries, core_only=True), entries


@pytest.mark.parametrize("stem", STEMS)
def test_every_tagged_cell_sits_in_a_part_that_opens_with_its_heading(stem):
    nb = chapter(stem)
    found = going_further.parts(nb)          # raises on a tagged cell outside a part, or an untagged heading
    for topic, indices in found:
        heading = nb.cells[indices[0]]
        assert heading.cell_type == "markdown" and topic
        # the slides show the part's heading on a slide of its own: its first cell opens a slide or a sub-slide
        assert heading.metadata.get("slideshow", {}).get("slide_type") in ("slide", "subslide"), (stem, topic)


@pytest.mark.parametrize("stem", STEMS)
def test_no_core_cell_uses_a_name_only_a_going_further_cell_defines(stem):
    assert going_further.core_uses_of_depth(chapter(stem)) == []


def test_the_static_check_sees_a_core_cell_that_leans_on_depth():
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "import numpy as np\nx = 1"},
                    {"cell_type": "markdown", "metadata": {"tags": [going_further.TAG]},
                     "source": "### Going further: y\n\ntext"},
                    {"cell_type": "code", "metadata": {"tags": [going_further.TAG]}, "source": "y = x + 1\ndef g(t): return t"},
                    {"cell_type": "code", "metadata": {}, "source": "print(np.sqrt(x), y, [t for t in range(g(2))])"}]}
    assert going_further.core_uses_of_depth(nb) == [(3, "g"), (3, "y")]
    nb["cells"][3]["source"] = "y = 2\nprint(y, x)"
    assert going_further.core_uses_of_depth(nb) == []


@pytest.mark.parametrize("cells, words", [
    ([{"cell_type": "markdown", "metadata": {"tags": ["going-further"]}, "source": "Some depth."}], "no Going-further"),
    ([{"cell_type": "markdown", "metadata": {}, "source": "## Going further: x"}], "not the tag"),
])
def test_a_part_that_breaks_the_rule_is_refused_naming_its_cell(cells, words):
    with pytest.raises(ValueError, match=words):
        going_further.parts({"cells": cells})


@pytest.mark.parametrize("stem", sorted(NAMED))
def test_the_side_material_the_issue_names_is_in_going_further_parts(stem):
    nb = chapter(stem)
    depth = " ".join(cell.source for cell in nb.cells if going_further.is_going_further(cell))
    core = " ".join(cell.source for cell in going_further.core_cells(nb))
    for text in NAMED[stem]:
        assert text in depth and text not in core, (stem, text)


@pytest.mark.parametrize("stem", STEMS)
def test_a_core_only_hand_out_leaves_out_exactly_the_going_further_cells_and_keeps_every_exercise(stem):
    nb = chapter(stem)
    made, entries = core_handout(nb, stem)
    assert not any(going_further.is_going_further(cell) for cell in made["cells"])
    full = edition.course_edition(nb, stem, {e["checker"]: e["params"] for e in entries}, {}, entries)
    tagged = sum(going_further.is_going_further(cell) for cell in full["cells"])
    assert len(full["cells"]) - len(made["cells"]) == tagged
    prompts = [m.group(1) for cell in made["cells"] if cell["cell_type"] == "markdown"
               for m in [editions.PROMPT.search(editions.source(cell))] if m]
    assert sorted(int(p) for p in prompts) == sorted(e.number for e in editions.exercises(nb, stem))


def test_the_book_and_the_slides_set_each_part_apart():
    nb = chapter("03_laplace_mechanism")
    pages = book_sources(nb)
    boxed = [cell for cell in pages.cells if going_further.BOOK_BOX in cell.source]
    assert len(boxed) == len(going_further.parts(nb)) > 0
    assert all(going_further.HEADING.search(cell.source) for cell in boxed)
    css = (ROOT / "dpteach" / "publish" / "templates" / "book" / "_static" / "dpteach.css").read_text(encoding="utf-8")
    assert ".admonition.dpteach-going-further" in css and ".cell.tag_going-further" in css
    slides = (ROOT / "dpteach" / "publish" / "templates" / "dpteach_slides" / "slides.css").read_text(encoding="utf-8")
    assert ".celltag_going-further" in slides          # nbconvert gives a cell its tags as celltag_ classes


def _run_and_check(stem: str) -> None:
    import nbformat
    from nbclient import NotebookClient

    nb = chapter(stem)
    made, entries = core_handout(nb, stem)
    ran = nbformat.from_dict(copy.deepcopy(made))
    # run where the chapters run (nbval, the lab): chapter 00's map reads the notebooks beside it
    NotebookClient(ran, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    errors = [out for cell in ran.cells if cell.cell_type == "code" for out in cell.get("outputs", [])
              if out.get("output_type") == "error"]
    assert errors == [], (stem, errors[:1])
    # the leak check on what the core run shows, outside each exercise's own prompt and answer cell
    own = set()
    for index, cell in enumerate(ran.cells):
        if cell.cell_type == "code" and editions.MARKER in cell.source:
            own |= {index, index - 1}
    texts = [text for index, cell in enumerate(ran.cells) if index not in own for text in leaks.cell_texts(cell)]
    for entry in entries:
        spec = EXERCISES[entry["checker"]]
        if spec.kind != "value" or not spec.homework:
            continue
        expected = spec.expected(**entry["params"])
        shown = [token for text in texts for token in leaks.gives_away(text, expected, spec.figures)]
        assert shown == [], (stem, entry["name"], expected, shown)


@pytest.mark.parametrize("stem", FAST)
def test_a_core_only_hand_out_runs_top_to_bottom_and_shows_no_answer(stem):
    _run_and_check(stem)


@pytest.mark.slow
@pytest.mark.once
@pytest.mark.parametrize("stem", [s for s in STEMS if s not in FAST])
def test_every_chapter_s_core_only_hand_out_runs_top_to_bottom_and_shows_no_answer(stem):
    _run_and_check(stem)


def test_the_going_further_heading_regex_takes_both_levels_only():
    assert going_further.HEADING.search("## Going further: the exact condition").group(2) == "the exact condition"
    assert going_further.HEADING.search("### Going further: x").group(1) == "###"
    assert going_further.HEADING.search("# Going further: x") is None
    assert re.search(going_further.HEADING, "#### Going further: x") is None


@pytest.mark.parametrize("argv, core_only", [(["--core-only"], True), ([], False)])
def test_the_course_command_and_make_course_core_pass_the_choice_on(monkeypatch, tmp_path, capsys, argv, core_only):
    from dpteach.course import assign

    seen = {}

    def build(project, out=None, **options):
        seen.update(options)
        folder = tmp_path / "course"
        (folder / "instructor").mkdir(parents=True, exist_ok=True)
        (folder / "instructor" / "course.json").write_text('{"chapters": {}}', encoding="utf-8")
        return folder

    from dpteach import cli

    monkeypatch.setattr(assign, "build_course", build)
    assert cli.main(["--root", str(ROOT), "course", *argv]) == 0
    assert seen["core_only"] is core_only


def test_a_withheld_source_inside_a_part_leaves_a_note_that_stays_in_the_part():
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "import dpteach as dp"},
                    {"cell_type": "markdown", "metadata": {"tags": [going_further.TAG]}, "source": "### Going further: x"},
                    {"cell_type": "code", "metadata": {"tags": [going_further.TAG]},
                     "source": "dp.show_source(dp.laplace_scale)"},
                    {"cell_type": "markdown", "metadata": {"tags": [going_further.TAG]}, "source": "More."}]}
    made = edition.course_edition(nb, "99_x", {}, {"laplace_scale": "chapter 03, Exercise 1"}, [])
    assert "left out of this edition" in made["cells"][2]["source"]
    assert going_further.parts(made) == [("x", [1, 2, 3])]
    assert len(edition.course_edition(nb, "99_x", {}, {}, [], core_only=True)["cells"]) == 1
