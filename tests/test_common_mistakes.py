"""Common mistakes, from the checkers (issue 44): every mistake a checker names is in the registry, with a name, a
one-line why and a section that exists, and the registry lists nothing no checker names.

A page of common mistakes (the self-study book's) is generated from ``dp.exercises.common_mistakes()`` and
``dp.exercises.wrong_claims()``, which read the registry alone. These tests hold the registry to the checkers: the
mistakes each numeric checker records (at its defaults and at a sample of its homework), every ``Mistake(...)`` in
the checkers' source (the function exercises' too, which judge outside ``compare``), and the sections in the
chapters' text twins.
"""

from __future__ import annotations

import ast
import re

import numpy as np
import pytest
from helpers import ROOT

import dpteach as dp
from dpteach.course.leaks import gives_away
from dpteach.exercises import CLAIMS, EXERCISES, MISTAKES
from dpteach.exercises._feedback import recording

CHECKERS = sorted((ROOT / "dpteach" / "exercises").rglob("*.py"))
NUMERIC = [spec for spec in EXERCISES.values() if spec.kind == "value"]


def _recorded(spec, params):
    with recording() as calls:
        spec.checker(None, **params)
    return [m for call in calls for m in call["mistakes"]]


def _sample(spec, n: int = 6) -> list[dict]:
    variants = spec.variants()
    if len(variants) <= n:
        return [{}] + variants
    picks = np.random.default_rng(44).choice(len(variants), n - 2, replace=False)
    return [{}, variants[0], variants[-1]] + [variants[i] for i in sorted(picks)]


@pytest.mark.parametrize("spec", NUMERIC, ids=[spec.name for spec in NUMERIC])
def test_every_mistake_a_checker_records_is_named_in_the_registry(spec):
    for params in _sample(spec):
        for mistake in _recorded(spec, params):
            assert mistake.name in MISTAKES, f"{spec.name} {params}: {mistake.message[:70]!r} is named {mistake.name!r}"


def _mistake_calls():
    for path in CHECKERS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Mistake":
                yield path, node


def test_every_mistake_in_the_checkers_source_carries_a_name():
    """A ``Mistake`` is given its name as ``name=`` or, where it is built from a list of (value, message, name)
    tuples (the function exercises), as a third positional argument or a starred tuple of three."""
    unnamed = []
    for path, node in _mistake_calls():
        named = any(k.arg == "name" for k in node.keywords) or len(node.args) == 3 or \
            any(isinstance(a, ast.Starred) for a in node.args)
        if not named:
            unnamed.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not unnamed, unnamed


@pytest.mark.parametrize("module, cases, describe", [
    ("laplace", "_cdf_cases", "_known_cdf_mistakes"),
    ("sensitivity", "_sensitivity_cases", "_known_sensitivity_mistakes"),
    ("counting", "_counting_cases", "_describe_counting"),
])
def test_the_function_exercises_name_their_mistakes_too(module, cases, describe, monkeypatch):
    """A function exercise names the mistake a wrong function's output matches (``matching_mistake``, outside
    ``compare``): every mistake it compares with, on every hidden case, is named in the registry."""
    import importlib

    mod = importlib.import_module(f"dpteach.exercises.{module}")
    seen = []

    def record(value, expected, mistakes, figures=None):
        seen.extend(mistakes)
        return None

    monkeypatch.setattr(mod, "matching_mistake", record)
    for case in getattr(mod, cases)():
        getattr(mod, describe)(case, 0.123)
    assert seen and all(m.name in MISTAKES for m in seen), [m.message[:50] for m in seen if m.name not in MISTAKES]


def _names_in_source() -> set[str]:
    """Every string constant of the checkers' source that is a registered name: the names the checkers use."""
    used = set()
    for path in CHECKERS:
        if path.name == "_mistakes.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in MISTAKES:
                used.add(node.value)
    return used


def test_every_named_mistake_is_one_a_checker_names():
    unused = sorted(set(MISTAKES) - _names_in_source())
    assert not unused, f"registered but named by no checker: {unused}"


def _headings(chapter: str) -> set[str]:
    text = (ROOT / "sources" / f"{chapter}.md").read_text(encoding="utf-8")
    return {m.group(2).strip() for m in re.finditer(r"(?m)^(#{1,3}) (.+?)\s*$", text)}


@pytest.mark.parametrize("entry", list(MISTAKES.values()) + list(CLAIMS), ids=lambda e: getattr(e, "name", None)
                         or e.claim[:40])
def test_every_entry_has_a_name_a_one_line_why_and_a_section_that_exists(entry):
    title = getattr(entry, "name", None) or entry.claim
    assert title.strip() and entry.why.strip() and "\n" not in entry.why and entry.why.endswith(".")
    assert len(entry.why) <= 240, f"{title}: the why is a line, not a paragraph ({len(entry.why)} characters)"
    assert (ROOT / "sources" / f"{entry.chapter}.md").exists(), entry.chapter
    assert entry.section in _headings(entry.chapter), f"{title}: no heading {entry.section!r} in {entry.chapter}"


def test_the_page_lists_read_the_registry_in_its_order():
    mistakes = dp.exercises.common_mistakes()
    assert [m["name"] for m in mistakes] == list(MISTAKES)
    assert all(set(m) == {"name", "why", "chapter", "section"} for m in mistakes)
    claims = dp.exercises.wrong_claims()
    assert [c["claim"] for c in claims] == [c.claim for c in CLAIMS]


def test_the_issue_s_examples_are_named():
    for name in ("log10 for ln", "÷ε forgotten", "b² for 2b²", "replace-one for add/remove"):
        assert name in MISTAKES
    said = " ".join(c.claim for c in CLAIMS)
    for claim in ("Lap(ε/Δf)", "√(2 ln(1.25/δ))", "probability that something goes wrong", "ε is a probability",
                  "taken from the data"):
        assert claim in said, claim


def test_no_why_gives_a_chapter_exercise_answer_away():
    """The page links to the section that teaches the step, never to a number a homework or a chapter asks for."""
    texts = [m.why for m in MISTAKES.values()] + [c.why for c in CLAIMS] + [c.claim for c in CLAIMS]
    for spec in NUMERIC:
        expected = spec.expected()
        for text in texts:
            assert not gives_away(text, expected, spec.figures), (spec.name, expected, text)


# -- the self-study book's "Common mistakes" page (dpteach/publish/mistakes_page.py)

def _book_page(present=None) -> str:
    from dpteach.book import chapters
    from dpteach.publish.book_site import short_title
    from dpteach.publish.mistakes_page import page
    titles = {c.path.stem: short_title(c) for c in chapters(ROOT / "notebooks")}
    return page(titles if present is None else {k: v for k, v in titles.items() if k in present})


def github_slugify(title: str) -> str:
    """GitHub's heading anchors, which MyST gives headings (myst_heading_anchors), written here from GitHub's rule
    (lower case, spaces to hyphens, every other character but a word character or a hyphen dropped); the slow
    tier's book test checks that each link reaches a heading's id in the built pages."""
    return re.sub(r"[^\w\u4e00-\u9fff\- ]", "", title.lower().replace(" ", "-"))


def test_the_book_s_page_lists_every_named_mistake_and_every_claim_with_a_link_to_its_section():
    text = _book_page()
    rows = [line for line in text.splitlines() if line.startswith("- **")]
    assert len(rows) == len(MISTAKES) + len(CLAIMS)
    named = [re.match(r"- \*\*(.+?)\.\*\* ", row).group(1) for row in rows[:len(MISTAKES)]]
    assert sorted(named) == sorted(MISTAKES), "the page lists the registry's mistakes, each once"
    for row, name in zip(rows, named):
        m = MISTAKES[name]
        assert m.why in row and f"]({m.chapter}.ipynb#{github_slugify(m.section)})" in row, row
    for row, claim in zip(rows[len(MISTAKES):], CLAIMS):
        assert claim.claim.rstrip(".") in row and claim.why in row
        assert f"]({claim.chapter}.ipynb#{github_slugify(claim.section)})" in row, row
    assert f"{len(MISTAKES)} mistakes" in text and f"{len(CLAIMS)} claims" in text


def test_a_new_named_mistake_appears_on_the_page_without_editing_it(monkeypatch):
    from dpteach.exercises import _mistakes
    new = _mistakes.NamedMistake("a test's own mistake", "Made up by this test.", "02_laplace_distribution",
                                 "Fact 3.7: the tail")
    monkeypatch.setitem(_mistakes.MISTAKES, new.name, new)
    assert "- **a test's own mistake.** Made up by this test." in _book_page()


def test_a_book_of_some_chapters_names_the_sections_it_leaves_out_without_linking_them():
    text = _book_page({"02_laplace_distribution"})
    assert "(02_laplace_distribution.ipynb#" in text
    assert "03_laplace_mechanism.ipynb" not in text and "(chapter 03, not in this book)" in text
