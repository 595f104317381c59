"""A course's homework numbers in the student's notebook (dpteach.exercises.variants): each student's own
variant drawn by an HMAC under the course's key, and checkers that judge at the registered numbers, so that
the ✅ a student sees is the grade's."""

from __future__ import annotations

import collections

import pytest

import dpteach as dp
from dpteach.exercises import EXERCISES
from dpteach.exercises import variants as v

SCALE = "check_scale_for_overlapping_counts"


@pytest.fixture(autouse=True)
def _no_homework_left():
    v.forget()
    yield
    v.forget()


def test_a_variant_is_the_same_for_the_same_key_and_student_and_differs_otherwise():
    spec = EXERCISES[SCALE]
    first = v.variant("key", "ada", "03_laplace_mechanism", SCALE)
    assert first == v.variant("key", "ada", "03_laplace_mechanism", SCALE) and first in spec.variants()
    draws = [tuple(v.variant("key", f"s{i}", "03_laplace_mechanism", SCALE).items()) for i in range(200)]
    other_key = [tuple(v.variant("other", f"s{i}", "03_laplace_mechanism", SCALE).items()) for i in range(200)]
    assert len(set(draws)) >= min(20, len(spec.variants())) and draws != other_key
    assert v.tag("key", "ada") == v.tag("key", "ada") != v.tag("key", "bob") != v.tag("other", "bob")
    assert len(v.tag("key", "ada")) == 16


def test_variants_are_uniform_over_the_combinations():
    """Chi-squared over 3,000 students' draws of the 119 shuffles of chapter 03's proof question: with 118
    degrees of freedom the statistic exceeds 220 with probability below 1e-7 for a uniform draw."""
    counts = collections.Counter(v.variant("uniform", f"student-{i}", "03", "check_gaussian_proof_step")["order"]
                                 for i in range(3000))
    expected = 3000 / 119
    assert len(counts) == 119
    assert sum((c - expected) ** 2 / expected for c in counts.values()) < 220


def test_registered_numbers_are_what_a_plain_check_judges_at():
    spec = EXERCISES[SCALE]
    numbers = {"k": 4, "epsilon": 0.8}
    assert spec.expected(**numbers) != spec.expected()
    assert dp.exercises.check_scale_for_overlapping_counts(spec.expected(**numbers)).correct is False   # the chapter's
    dp.exercises.homework("03_laplace_mechanism", {SCALE: numbers})
    assert dp.exercises.check_scale_for_overlapping_counts(spec.expected(**numbers)).correct is True
    worked = dp.exercises.check_scale_for_overlapping_counts(spec.expected())
    assert worked.correct is False      # the chapter's own answer is not the homework's
    same = dp.exercises.check_scale_for_overlapping_counts(spec.expected(**numbers), **numbers)
    assert same.correct is True and not same.message.startswith("(practice")


def test_a_check_at_other_numbers_says_it_is_practice_not_the_grade():
    dp.exercises.homework("03_laplace_mechanism", {SCALE: {"k": 4, "epsilon": 0.8}})
    verdict = dp.exercises.check_scale_for_overlapping_counts(6.0, k=3, epsilon=0.5)
    assert verdict.correct is True
    assert verdict.message.startswith("(practice at other numbers than your homework's, which are k = 4, epsilon = 0.8")
    assert "not your grade" in verdict.message


def test_a_shared_notebook_draws_a_students_numbers_from_their_email():
    shown = dp.exercises.homework("03_laplace_mechanism", email=" Ada@Uni.EDU", salt="public-salt",
                                  exercises=[SCALE, "check_gaussian_proof_step"])
    drawn = v.variant("public-salt", "ada@uni.edu", "03_laplace_mechanism", SCALE)
    assert shown.numbers[SCALE] == drawn and "ada@uni.edu" in repr(shown) and "<table>" in shown._repr_html_()
    assert dp.exercises.check_scale_for_overlapping_counts(EXERCISES[SCALE].expected(**drawn)).correct is True


@pytest.mark.parametrize("kwargs, words", [
    ({}, "give either numbers"), ({"numbers": {}, "email": "a@b.c", "salt": "s"}, "not both"),
    ({"email": "a@b.c", "salt": "s", "exercises": ["check_nothing"]}, "exercises must be registered"),
    ({"email": "a@b.c", "salt": ""}, "salt must be"),
    ({"numbers": {"check_nothing": {}}}, "numbers must map registered checkers"),
    ({"numbers": {SCALE: {"delta": 1}}}, "numbers must map registered checkers")])
def test_bad_homework_calls_are_refused_naming_the_parameter(kwargs, words):
    with pytest.raises(ValueError, match=words):
        dp.exercises.homework("03_laplace_mechanism", **kwargs)


def test_a_variant_needs_a_key_and_a_registered_exercise():
    with pytest.raises(ValueError, match="key must be a non-empty"):
        v.variant("", "ada", "03", SCALE)
    with pytest.raises(ValueError, match="name must be a registered exercise"):
        v.variant("k", "ada", "03", "check_nothing")


@pytest.mark.parametrize("email", ["", "   ", "not an email", "a@b@c"])
def test_a_shared_notebook_without_a_usable_email_says_what_to_do_and_never_raises(email):
    shown = dp.exercises.homework("03_laplace_mechanism", email=email, salt="public-salt", exercises=[SCALE])
    assert "Write your course email between the quotes" in repr(shown) and "<b>" in shown._repr_html_()
    verdict = dp.exercises.check_scale_for_overlapping_counts(6.0)
    assert verdict.correct is None and "first code cell" in verdict.message
    assert "Write your course email" in repr(dp.exercises.question(SCALE))
    dp.exercises.homework("03_laplace_mechanism", email="ada@uni.edu", salt="public-salt", exercises=[SCALE])
    drawn = v.variant("public-salt", "ada@uni.edu", "03_laplace_mechanism", SCALE)
    assert dp.exercises.question(SCALE)._repr_markdown_() == EXERCISES[SCALE].render(**drawn)


def test_combinations_to_avoid_are_never_drawn():
    spec = EXERCISES[SCALE]
    combinations = spec.variants()
    keep = 7
    avoid = [i for i in range(len(combinations)) if i != keep]
    assert all(v.variant("k", f"s{i}", "03", SCALE, avoid) == combinations[keep] for i in range(50))
    drawn = {tuple(v.variant("k", f"s{i}", "03", SCALE, [0, 1, 2]).items()) for i in range(400)}
    assert not drawn & {tuple(c.items()) for c in combinations[:3]}
    with pytest.raises(ValueError, match="avoid must leave some"):
        v.variant("k", "ada", "03", SCALE, range(len(combinations)))
    shown = dp.exercises.homework("03_laplace_mechanism", email="ada@uni.edu", salt="s", exercises=[SCALE],
                                  avoid={SCALE: avoid})
    assert shown.numbers[SCALE] == combinations[keep]
