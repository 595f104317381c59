"""Checkers for chapter 01: ℓ1- and ℓ2-sensitivity (Dwork & Roth, Definition 3.1)."""

from __future__ import annotations

import numpy as np

from ..sensitivity import l1_sensitivity, l2_sensitivity, neighbour_differences
from ._base import Case, Feedback, Mistake, check_function, compare, matching_mistake

__all__ = ["check_count_and_sum_sensitivity", "check_l2_sensitivity_of_counts", "check_my_l1_sensitivity"]


def check_count_and_sum_sensitivity(answer) -> Feedback:
    """Ch. 01, exercise 1: a count of people aged 65+ released together with the sum of all ages
    clipped to [0, 100]: what is the ℓ1-sensitivity of the pair?"""
    ages = np.arange(0, 101)
    clipped = np.clip(ages, 0, 100)
    expected = l1_sensitivity(lambda x: np.array([x[ages >= 65].sum(), x @ clipped]), ages, max_size=1)
    count_change, sum_change = 1.0, float(clipped.max())
    mistakes = [
        Mistake(max(count_change, sum_change),
                "that is the change of the sum alone (the larger of the two changes, or close to the "
                "Euclidean length of both). Definition 3.1 uses the ℓ1 norm: add the changes of the two numbers."),
        Mistake(count_change, "that is the change of the count alone; the same person also moves the sum."),
        Mistake(2 * count_change, "a clipped sum is not a count: one record can move it by as much as the "
                                  "clipping bound."),
        Mistake(2 * (count_change + sum_change),
                "that doubles the change, as if one person were removed and another added. Definition 3.1's "
                "neighbours differ by adding or removing ONE record."),
    ]
    return compare(answer, expected,
                   f"one person aged 65+ can move the count by 1 and the sum by 100 at once: "
                   f"Δf = 1 + 100 = {expected:g}.",
                   "Think of the one person who moves both coordinates as far as possible, "
                   "and add the two changes (ℓ1 norm).", mistakes=mistakes)


def check_l2_sensitivity_of_counts(answer, k: int = 9) -> Feedback:
    """Ch. 01, exercise 2: ℓ2-sensitivity of k = 9 counting queries that one person can all change."""
    universe = np.arange(2)
    expected = l2_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    mistakes = [
        Mistake(float(k), "that is the ℓ1-sensitivity (the sum of the k changes), which here is also the "
                          "sum of their squares. The ℓ2 norm is the Euclidean length: the square root of the "
                          "sum of squares."),
        Mistake(float(k * k), "you squared the number of queries. Each change is 1, so the sum of squares "
                              "is k, and the ℓ2 norm takes its square root."),
        Mistake(1.0, "that is the change of one count (or the largest single change, the ℓ∞ norm). "
                     "All nine counts move at once; take the Euclidean length of the whole change."),
    ]
    return compare(answer, expected,
                   f"each of the {k} counts moves by 1, so ‖·‖₂ = √{k} = {expected:g} (ℓ1 would be {k}).",
                   "Each count can move by 1 at the same time; take the Euclidean length of that change.",
                   mistakes=mistakes)


# -- a function the student writes: ℓ1-sensitivity by enumeration -------------------------------

def _sensitivity_cases() -> list[Case]:
    """The hidden cases: each query, universe and max_size, with Δf from dpteach's enumeration."""
    three = np.array([0, 1, 2])
    values = np.array([-2.0, 3.0, 9.0])
    overlapping = np.array([[1, 1, 1], [0, 1, 1], [0, 0, 1]])
    queries = [
        ("a count over 3 record types", lambda x: x.sum(), three, 2),
        ("a sum of the values -2, 3, 9 clipped to [0, 5]", lambda x: x @ np.clip(values, 0, 5), values, 2),
        ("a histogram: f(x) = x over 4 record types", lambda x: x.astype(float), np.arange(4), 2),
        ("3 overlapping counts that one record can all change", lambda x: overlapping @ x, three, 2),
        ("a query that falls when a record is added: f(x) = x[1] − 2·x[0]",
         lambda x: float(x[1] - 2 * x[0]), three, 2),
        ("a query whose change grows with the size: f(x) = (number of records)²",
         lambda x: float(x.sum()) ** 2, three, 3),
    ]
    return [Case(label, (f, universe, max_size), expected=l1_sensitivity(f, universe, max_size))
            for label, f, universe, max_size in queries]


def _known_sensitivity_mistakes(case: Case, got) -> str:
    """Name the mistake whose answer on this case equals what the student's function returned."""
    f, universe, max_size = case.args
    pairs = neighbour_differences(f, universe, max_size)
    change = np.array([np.atleast_1d(np.asarray(f(y), dtype=float) - np.asarray(f(x), dtype=float))
                       for x, y in zip(pairs.smaller, pairs.larger)])
    from_empty = pairs.smaller.sum(axis=1) == 0
    wrong = [
        (np.linalg.norm(change, ord=2, axis=1).max(), "it looks like the ℓ2 norm; Definition 3.1 sums the "
                                                      "absolute changes of all k coordinates (ℓ1)."),
        (np.abs(change).max(), "it looks like the largest change of a single coordinate (ℓ∞); Definition 3.1 "
                               "adds the absolute changes of all coordinates."),
        (change.sum(axis=1).max(), "it looks like the signed change f(y) − f(x); take absolute values, since "
                                   "a record can also make the answer fall."),
        (np.abs(change[from_empty]).sum(axis=1).max(), "it looks like you only compared the empty database "
                                                      "with one-record databases; the maximum runs over all "
                                                      "neighbours up to max_size records."),
    ]
    if got is None:
        return "Your function returned None: did you forget `return`?"
    try:
        value = float(got)
    except (TypeError, ValueError):
        return "Return one number: the largest ‖f(y) − f(x)‖₁ over the neighbouring pairs."
    named = matching_mistake(value, case.expected, [Mistake(*w) for w in wrong])
    if named is not None:
        return named[0].upper() + named[1:]
    return "List every database up to max_size records (dp.all_databases), add one record of each type, " \
           "and take the largest ‖f(y) − f(x)‖₁."


def check_my_l1_sensitivity(function) -> Feedback:
    """Ch. 01, exercise 3: the student writes ``my_l1_sensitivity(f, universe, max_size)``, the
    ℓ1-sensitivity of Definition 3.1 by enumeration, without calling dpteach's own.

    The hidden cases are six queries (a count, a clipped sum, a histogram, overlapping counts, a
    query that falls, a query whose change grows with the size); a failure names the case and,
    when the returned value matches one, the known mistake (ℓ2 or ℓ∞ for ℓ1, a signed change,
    only the empty database as the smaller one).
    """
    return check_function(
        function, _sensitivity_cases(), task="my_l1_sensitivity(f, universe, max_size)",
        success="Your enumeration is Definition 3.1: the largest ‖f(x) − f(y)‖₁ over neighbouring histograms.",
        forbidden=("l1_sensitivity", "l2_sensitivity", "neighbour_differences", "neighbour_differences_reference"),
        describe=_known_sensitivity_mistakes)
