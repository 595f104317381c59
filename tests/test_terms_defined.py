"""Every term of the core path is defined before the core uses it (issue 52).

The core is read as a learner reads it: every chapter's core Markdown cells (no ``going-further`` cell, no folded
solution), chapter 00 to 12, in order, from the MyST twins in ``sources/``. :data:`TERMS` says where each term is
defined (a chapter and a heading); a paragraph of the core that uses a term before that point fails, unless it
points to the chapter that defines it or a later one ("chapter 08", "chapters 08 and 11", a link to
``08_….ipynb``; once in a section is enough), or, in the defining chapter itself, says the definition is "below". The parts
of a chapter that announce or point rather than teach (its title, Overview, Prerequisites, What's next, chapter
00's table of chapters) are not read: they name what is to come on purpose. Code, inline code and link targets
are not prose, and are left out.
"""

from __future__ import annotations

import re

import jupytext
import pytest
from helpers import ROOT

from dpteach.publish.going_further import is_going_further

SOURCES = sorted((ROOT / "sources").glob("[0-9][0-9]_*.md"))
#: Sections that announce or point (chapter 00's notation table is a reference): not read.
ANNOUNCING = {"Overview", "Prerequisites", "What's next", "The chapters", "For instructors and readers", "Notation"}

#: term → (its pattern in prose, the chapter that defines it, the heading of the section that does).
TERMS: dict[str, tuple[str, str, str]] = {
    "neighbouring databases": (r"\bneighbou?r(?:s|ing)?\b", "01", "Databases are histograms"),
    "sensitivity Δf": (r"Δf|ℓ1-sensitivity", "01", "Definition 3.1: ℓ1-sensitivity"),
    "ℓ2-sensitivity": (r"ℓ2-sensitivity|Δ₂f", "01", "ℓ1 or ℓ2?"),
    "the Laplace distribution Lap(b)": (r"Lap\(|Laplace distribution", "02", "Definition 3.2: the Laplace distribution"),
    "ε-differential privacy": (r"ε-(?:DP\b|differential(?:ly)? privat)|differential(?:ly)? privat", "03",
                               "The setting: ε-differential privacy"),
    "the Laplace mechanism": (r"Laplace mechanism", "03", "Definition 3.3: the Laplace mechanism"),
    "privacy loss": (r"privacy loss(?! distribution)", "03", "Theorem 3.6: the Laplace mechanism is ε-differentially private"),
    "accuracy bound β (Theorem 3.8)": (r"Theorem 3\.8", "05", "Theorem 3.8: the largest error"),
    "composition": (r"\bcompos(?:ition|e|es|ed|ing)\b", "06", "A town and one answer"),
    "post-processing": (r"post-processing", "04", "Why disjointness is the whole trick"),
    "privacy budget": (r"privacy budget|\bbudget\b", "06", "Sequential composition: the same people, twice"),
    "δ and (ε, δ)-differential privacy": (r"\(ε′?, δ′?\)|δ′|δ\s?[=<>≤]", "06",
                                          "Advanced composition: k answers for about √(2k ln(1/δ′))·ε"),
    "Report Noisy Max": (r"Report Noisy Max|noisy max", "07", "Which first name is most common?"),
    "the exponential mechanism": (r"exponential mechanism", "07",
                                  "The exponential mechanism: choices that are not numbers"),
    "AboveThreshold (sparse vector)": (r"AboveThreshold|sparse vector", "07",
                                       "AboveThreshold: which queries clear a threshold"),
    "the Gaussian mechanism": (r"Gaussian mechanism", "08", "(ε, δ)-differential privacy and the Gaussian mechanism"),
    "the privacy loss distribution": (r"privacy loss distribution", "06",
                                      "Advanced composition: k answers for about √(2k ln(1/δ′))·ε"),
    "zCDP and ρ": (r"zCDP|zero-concentrated|ρ", "09", "The discrete Gaussian: the Census's noise"),
    "Rényi divergence": (r"Rényi", "09", "The discrete Gaussian: the Census's noise"),
    "local differential privacy": (r"local differential privacy|\blocal DP\b|randomi[sz]ed response", "10",
                                   "A city's density: central against local"),
    "Gaussian differential privacy and μ": (r"\bGDP\b|Gaussian differential privacy|μ-GDP", "11",
                                            "Gaussian differential privacy"),
}
_HEADING = re.compile(r"(?m)^(#{1,3}) (.+?)\s*$")
_NOT_PROSE = re.compile(r"```.*?```|`[^`\n]*`|\]\([^)]*\)|\$\$.*?\$\$", re.S)


def core_paragraphs():
    """(chapter number, heading, cell order, its prose, the paragraph as written) for every paragraph a learner
    reads on the core path."""
    order = 0
    for path in SOURCES:
        nb = jupytext.reads(path.read_text(encoding="utf-8"), fmt="md:myst")
        heading = ""
        for cell in nb.cells:
            if cell.cell_type != "markdown" or is_going_further(cell) or "solution" in cell.metadata.get("tags", []):
                continue
            order += 1
            for paragraph in cell.source.split("\n\n"):
                found = _HEADING.match(paragraph.strip())
                if found:
                    heading = found.group(2) if len(found.group(1)) > 1 else "(title)"
                    continue
                yield path.name[:2], heading, order, _NOT_PROSE.sub(" ", paragraph), paragraph


def _points_to(paragraph: str, chapter: str) -> bool:
    """Whether ``paragraph`` points to ``chapter`` or a later one ("chapter 08", "chapters 01, 02 and 03", a link)."""
    named = [n for group in re.findall(r"\b[Cc]hapters? ((?:\d\d(?:,| and| or)? )*\d\d)\b", paragraph)
             for n in re.findall(r"\d\d", group)] + re.findall(r"\]\((\d\d)_\w+\.ipynb", paragraph)
    return any(n >= chapter for n in named)


def violations(paragraphs) -> list[str]:
    paragraphs = list(paragraphs)
    found = []
    for term, (pattern, chapter, heading) in TERMS.items():
        defined = next((order for number, head, order, *_ in paragraphs if number == chapter and head == heading), None)
        if defined is None:
            found.append(f"{term}: no core section '{heading}' in chapter {chapter}")
            continue
        pointed = set()        # the sections where an earlier paragraph pointed to the definition
        for number, head, order, text, raw in paragraphs:
            if order >= defined:
                break
            if head in ANNOUNCING or head == "(title)" or not re.search(pattern, text):
                continue
            if _points_to(raw, chapter) or (number == chapter and re.search(r"\bbelow\b", text)):
                pointed.add((number, head))
            if (number, head) not in pointed:
                words = re.search(pattern, text).group(0)
                found.append(f"{term} ({words!r}) in chapter {number}, '{head}', before chapter {chapter} defines it: "
                             f"{text.strip()[:140]!r}")
    return found


def test_no_core_paragraph_uses_a_term_before_its_definition():
    assert violations(core_paragraphs()) == []


@pytest.mark.parametrize("text, clean", [
    ("We add Laplace mechanism noise.", False),
    ("We add the noise of the Laplace mechanism (chapter 03).", True),
    ("Chapters 02 and 03 teach the Laplace mechanism.", True),
    ("`dp.laplace_mechanism` draws it; see [the Laplace mechanism](03_laplace_mechanism.ipynb).", True),
    ("`dp.laplace_mechanism` draws it, as [chapter 01](01_sensitivity.ipynb) said.", True),
    ("Like the Laplace mechanism of [chapter 01](01_sensitivity.ipynb).", False),
])
def test_a_forward_mention_passes_only_with_a_pointer_to_its_chapter(text, clean):
    paragraphs = [("02", "Drawing samples", 1, _NOT_PROSE.sub(" ", text), text),
                  ("03", "Definition 3.3: the Laplace mechanism", 2, "the definition", "the definition")]
    caught = [v for v in violations(paragraphs) if v.startswith("the Laplace mechanism (")]
    assert (caught == []) is clean
