"""Homework spaces wide enough that a class does not share a handful of answers.

A course gives every student their own numbers, one of ``spec.variants()`` drawn uniformly (every
combination of the exercise's ``homework`` values). Over every combination of every numeric exercise:

- the answers are many: at least 40 distinct at the exercise's graded precision, or the spec says why
  not (``few_answers``, for an answer that is a small whole number) and states how many there are;
- none is the chapter's worked answer (the answer at the defaults), nor within one figure less of it,
  so a student who copies the chapter is told neither ✅ nor "close";
- every prompt writes its numbers as the prose does (no e-notation);
- 200 students drawn at random see at least 20 distinct answers.

"Distinct at the graded precision" is counted conservatively: two answers are the same when the checker
would accept one for the other (|a − b| within the tolerance of either, :func:`tolerance`; exactly equal
for whole-number answers), and the sorted answers are cut into runs wherever no such pair spans the cut.
The runs are the *answer classes*; any two answers of different classes are told apart by the checker,
so picking one answer per class gives that many pairwise-distinct answers.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import pytest

from dpteach.exercises import EXERCISES
from dpteach.exercises._base import tolerance

NUMERIC = [spec for spec in EXERCISES.values() if spec.kind == "value"]

#: The distinct answers a homework must have; the students drawn at random, and the distinct answers they must see.
ANSWERS, STUDENTS, SEEN = 40, 200, 20


def _param(spec, counting: bool = False):
    return pytest.param(spec, id=spec.name)


@functools.cache
def answers(name: str) -> tuple[float, tuple[float, ...]]:
    """The worked answer and the answer at every homework combination, in the order of ``variants()``."""
    spec = EXERCISES[name]
    return spec.expected(), tuple(spec.expected(**params) for params in spec.variants())


def accepts(answer: float, expected: float, figures: int | None) -> bool:
    """The checker's rule: ``answer`` is right for ``expected`` to ``figures`` significant figures."""
    if figures is None:
        return math.isclose(answer, expected, rel_tol=1e-9, abs_tol=1e-12)
    return abs(answer - expected) <= tolerance(expected, figures)


def classes(values, figures: int | None) -> list[int]:
    """The sizes of the answer classes of ``values`` (see the module's docstring), in increasing order of value."""
    v = np.sort(np.asarray(values, dtype=float))
    if figures is None:
        tol = np.maximum(1e-9 * np.abs(v), 1e-12)
    else:
        tol = np.array([tolerance(x, figures) for x in v])
    same = np.abs(v[:, None] - v[None, :]) <= np.maximum(tol[:, None], tol[None, :])
    reach = np.max(np.where(same, np.arange(v.size)[None, :], -1), axis=1)    # the last answer each one is close to
    cuts = np.flatnonzero(np.maximum.accumulate(reach) == np.arange(v.size))  # no pair spans the gap after these
    return list(np.diff(np.concatenate(([-1], cuts))))


def test_classes_cut_only_where_the_checker_tells_answers_apart():
    assert classes([1.0, 1.0, 2.0], None) == [2, 1]
    assert classes([0.1234, 0.1236, 0.1238, 0.2], 3) == [3, 1]      # 0.1234 ~ 0.1236 ~ 0.1238: one class
    assert classes([9.96, 9.999, 10.0], 3) == [3]                     # 10.0's tolerance reaches back to 9.96
    assert classes([5.0, 3.0, 4.0], 3) == [1, 1, 1]


def log10_false_failure(sizes: list[int], students: int = STUDENTS, seen: int = SEEN) -> float:
    """log10 of a bound on Pr[fewer than ``seen`` classes among ``students`` uniform draws of combinations]:
    the draws miss all but some seen − 1 classes, so (union bound over those sets of classes) at most
    C(M, seen − 1) · q^students, q the share of combinations in the seen − 1 largest classes."""
    total, m = sum(sizes), len(sizes)
    if m < seen:
        return 0.0
    q = sum(sorted(sizes, reverse=True)[:seen - 1]) / total
    log_choose = math.lgamma(m + 1) - math.lgamma(seen) - math.lgamma(m - seen + 2)
    return (log_choose + students * math.log(q)) / math.log(10)


@pytest.mark.parametrize("spec", [_param(spec, counting=True) for spec in NUMERIC])
def test_every_homework_has_40_answers_or_says_why_it_cannot(spec):
    """≥ 40 answer classes over all of ``variants()``; or ``few_answers`` says why not, and states the true
    number of answers ("… 6 answers."), which is then below 40 (a spec that has 40 drops its excuse). That
    none of them is the worked answer, wherever the range allows it too, is the next test's."""
    worked, values = answers(spec.name)
    count = len(classes(values, spec.figures))
    if spec.few_answers is None:
        assert count >= ANSWERS, f"{spec.name}: {count} distinct answers over {len(values)} combinations"
    else:
        assert count < ANSWERS, f"{spec.name} has {count} distinct answers: drop few_answers"
        assert re.search(rf"\b{count} answers\b", spec.few_answers), (spec.name, count, spec.few_answers)


@pytest.mark.parametrize("spec", [_param(spec) for spec in NUMERIC])
def test_no_homework_answer_is_the_worked_answer(spec):
    """At every combination the chapter's worked answer is refused, and not even "close" (right to one
    figure less): copying the chapter gets no hint. For a whole-number answer: a different number."""
    worked, values = answers(spec.name)
    n = spec.figures
    for params, value in zip(spec.variants(), values):
        assert not accepts(worked, value, n) and not accepts(value, worked, n), (spec.name, params, value, worked)
        if n is not None:
            assert not accepts(worked, value, n - 1), f"{spec.name} {params}: the worked answer {worked} is 'close'"


@pytest.mark.parametrize("spec", [_param(spec) for spec in NUMERIC])
def test_every_combination_writes_its_numbers_as_the_prose_does(spec):
    for params in spec.variants():
        prompt = spec.render(**params)
        assert not re.search(r"\de[-+]?\d", prompt), (spec.name, params, prompt)
        assert "{" not in prompt and "}" not in prompt, (spec.name, params, prompt)


@pytest.mark.parametrize("spec", [_param(spec, counting=True) for spec in NUMERIC if spec.few_answers is None])
def test_200_students_drawn_at_random_see_at_least_20_answers(spec):
    """200 draws uniform over ``variants()`` (numpy.random.default_rng(2027)) fall in ≥ 20 answer classes.

    The draw is random; the fixed seed makes the test deterministic, and a fresh draw would fail with
    probability at most C(M, 19)·q^200 (M answer classes, q the share of combinations in the 19 largest;
    :func:`log10_false_failure`), which the test also asserts is below 10⁻⁹. Over the current spaces the
    largest of these bounds is about 10⁻²⁵ (check_dominance_threshold: 50 classes over 90 combinations);
    with 40 equally likely classes it would be C(40, 19)·(19/40)^200 ≈ 10⁻⁵³.
    """
    worked, values = answers(spec.name)
    sizes = classes(values, spec.figures)
    bound = log10_false_failure(sizes)
    assert bound < -9, f"{spec.name}: a random draw could miss 20 answers with probability up to 10^{bound:.1f}"
    rng = np.random.default_rng(2027)
    drawn = [values[i] for i in rng.integers(len(values), size=STUDENTS)]
    # a class boundary of the whole space is one of the drawn answers' too: the drawn classes are at least
    # the number of the space's classes the draws fall in
    assert len(classes(drawn, spec.figures)) >= SEEN, spec.name
