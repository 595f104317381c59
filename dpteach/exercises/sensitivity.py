"""Checkers for chapter 01: ℓ1- and ℓ2-sensitivity (Dwork & Roth, Definition 3.1)."""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from ..sensitivity import all_databases, l1_sensitivity, l2_sensitivity, neighbour_differences
from ._base import (
    DRAWN,
    FRESH_CASES,
    Case,
    Feedback,
    Mistake,
    check_function,
    compare,
    exercise,
    grading_draws,
    matching_mistake,
)

__all__ = ["check_count_and_sum_sensitivity", "check_l2_sensitivity_of_counts", "check_my_l1_sensitivity"]


#: Exercise 1's homework clipping bounds: every whole age from 40 to 99 but the homework thresholds 60, 70 and 80 (where
#: the threshold plus one would be the answer 1 + clip).
_CLIPS = tuple(c for c in range(40, 100) if c not in (60, 70, 80))


@exercise(prompt="A statistics office releases two numbers together: the number of people aged {threshold} or over, "
                 "and the sum of all ages clipped to [0, {clip}], over a universe of ages 0, 1, …, 100. What is the "
                 "ℓ1-sensitivity of the pair? (Think of the one person who moves both numbers furthest.) "
                 "Give a whole number.",
          homework={"clip": _CLIPS, "threshold": (18, 60, 70, 80)})
def check_count_and_sum_sensitivity(answer, clip: int = 100, threshold: int = 65) -> Feedback:
    """Ch. 01, exercise 1: a count of people aged 65+ released together with the sum of all ages
    clipped to [0, 100]: what is the ℓ1-sensitivity of the pair?"""
    ages = np.arange(0, 101)
    clipped = np.clip(ages, 0, clip)
    expected = l1_sensitivity(lambda x: np.array([x[ages >= threshold].sum(), x @ clipped]), ages, max_size=1)
    count_change, sum_change = 1.0, float(clipped.max())
    mistakes = [
        Mistake(sum_change, "that is the change of the sum alone (the larger change of one number, ℓ∞). "
                            "Definition 3.1 measures the change of the whole pair, in the ℓ1 norm: does the person "
                            "who moves the sum furthest move the count too?",
                name="one change for all of them"),
        Mistake(math.hypot(count_change, sum_change), "that is the Euclidean (ℓ2) length of the change. Definition "
                                                      "3.1 measures it in the ℓ1 norm, not the Euclidean one.",
                name="ℓ2 for ℓ1"),
        Mistake(count_change, "that is the change of the count alone; the same person also moves the sum.",
                name="one change for all of them"),
        Mistake(2 * count_change, "a clipped sum is not a count: one record can move it by as much as the "
                                  "clipping bound.", name="a clipped sum taken for a count"),
        Mistake(2 * (count_change + sum_change),
                "that counts one person's change twice. Definition 3.1's neighbours differ by adding or removing ONE "
                "record; and here even swapping one record for another moves the pair no further than adding or "
                "removing one does.",
                name="a change counted twice"),
        Mistake(float(threshold) + count_change, "the threshold of the count is not what the sum can move by: "
                                                 "one record moves a clipped sum by up to the clipping bound.",
                name="a clipped sum taken for a count"),
        Mistake(float(ages.max()) + count_change, "an age above the clipping bound is clipped before it is "
                                                  "summed: one record moves the sum by at most the bound.",
                name="a clipped sum taken for a count"),
    ]
    return compare(answer, expected,
                   f"one person aged {max(threshold, clip)}+ can move the count by 1 and the sum by {clip} at once: "
                   f"Δf = 1 + {clip} = {expected:g}.",
                   "Think of the one person who moves both coordinates as far as possible, "
                   "and add the two changes (ℓ1 norm).", figures=None, mistakes=mistakes)


#: Exercise 2's homework k: 2 to 50 queries but 9 (the chapter's) and 4 (where √k = k/2, half the ℓ1-sensitivity).
_QUERY_COUNTS = tuple(k for k in range(2, 51) if k not in (4, 9))


@exercise(prompt="{k} counting queries that one person can change all at once: \"age ≥ t\" for {k} different "
                 "thresholds t (in the chapter, t = 10, 20, …, 90). Their ℓ1-sensitivity is {k}. What is their "
                 "ℓ2-sensitivity? Give 3 significant figures.",
          homework={"k": _QUERY_COUNTS}, figures=3)
def check_l2_sensitivity_of_counts(answer, k: int = 9) -> Feedback:
    """Ch. 01, exercise 2: ℓ2-sensitivity of k = 9 counting queries that one person can all change."""
    universe = np.arange(2)
    expected = l2_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    mistakes = [
        Mistake(float(k), "that is the ℓ1-sensitivity (the sum of the k changes), which here is also the "
                          "sum of their squares. The ℓ2 norm is the Euclidean length: the square root of the "
                          "sum of squares.", name="ℓ1 for ℓ2"),
        Mistake(float(k * k), "you squared the number of queries. Each change is 1, so the sum of squares "
                              "is k, and the ℓ2 norm takes its square root.", name="ℓ1 for ℓ2"),
        Mistake(1.0, f"that is the change of one count (or the largest single change, the ℓ∞ norm). "
                     f"All {k} counts move at once; take the Euclidean length of the whole change.",
                name="one change for all of them"),
        Mistake(k / 2, "that halves the ℓ1-sensitivity; the ℓ2 norm is a square root of the sum of squares.",
                name="ℓ1 for ℓ2"),
    ]
    return compare(answer, expected,
                   f"each of the {k} counts moves by 1, so ‖·‖₂ = √{k} = {expected:g} (ℓ1 would be {k}).",
                   "Each count can move by 1 at the same time; take the Euclidean length of that change.",
                   figures=3, mistakes=mistakes)


# -- a function the student writes: ℓ1-sensitivity by enumeration -------------------------------

def count_records(x: np.ndarray) -> float:
    """A count: the number of records."""
    return float(x.sum())


def weighted_sum(x: np.ndarray, weights: np.ndarray) -> float:
    """The sum of the records' values, ``weights`` being each record type's (clipped) value."""
    return float(x @ weights)


def histogram_query(x: np.ndarray) -> np.ndarray:
    """A histogram: the counts themselves."""
    return x.astype(float)


def linear_counts(x: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Counting queries given by a 0/1 (or signed) matrix: one row per query."""
    return (matrix @ x).astype(float)


def falling_query(x: np.ndarray) -> float:
    """A query that falls when a record of type 0 is added: x[1] − 2·x[0]."""
    return float(x[1] - 2 * x[0])


def levelled_opposite(x: np.ndarray) -> np.ndarray:
    """Two coordinates that move in opposite directions around a level of 5: (5 + x₀ − x₁, 5 − x₀ + x₁).

    Both stay positive on small databases, so ‖f(x)‖₁ = 10 whatever x is: the difference of the norms is 0 there,
    the signed sum of the change 0, its largest coordinate 1 and its Euclidean length √2, while ‖f(y) − f(x)‖₁ = 2."""
    return np.array([5.0 + x[0] - x[1], 5.0 - x[0] + x[1]])


def size_squared(x: np.ndarray) -> float:
    """The number of records, squared: its change grows with the size of the database."""
    return float(x.sum()) ** 2


def squared_sum(x: np.ndarray, weights: np.ndarray) -> float:
    """The square of a weighted sum, (x·w)²: its change grows with the database, and a record can make it fall."""
    return float(x @ weights) ** 2


def _drawn_queries(fresh) -> list[tuple]:
    """:data:`FRESH_CASES` queries drawn with ``fresh`` (a grader's ``random.SystemRandom``), each ``(label, f,
    universe, max_size)``: signed counts f(x) = A·x (A of 2–3 rows over 3–4 record types, entries −3…3), a sum of
    values drawn from [−5, 10], and the square of a weighted sum (weights from [−3, 3], databases of up to 3 records).
    Every Δf is positive, and the last two are real numbers drawn afresh: no guess a table could hold gives them."""
    types = fresh.randrange(3, 5)
    matrix = np.zeros((1, types), dtype=int)
    while not matrix.any():
        matrix = np.array([[fresh.randrange(-3, 4) for _ in range(types)] for _ in range(fresh.randrange(2, 4))])
    values = np.zeros(types)
    while not np.abs(values).max() > 0.5:
        values = np.array([round(fresh.uniform(-5.0, 10.0), 2) for _ in range(types)])
    weights = np.zeros(3)
    while not np.abs(weights).max() > 0.1:
        weights = np.array([round(fresh.uniform(-3.0, 3.0), 2) for _ in range(3)])
    shown = "; ".join(" ".join(str(v) for v in row) for row in matrix)
    queries = [
        (f"{DRAWN}: f(x) = A·x with A's rows {shown}, over {types} record types", partial(linear_counts, matrix=matrix),
         np.arange(types), 2),
        (f"{DRAWN}: a sum of the values {', '.join(f'{v:g}' for v in values)}", partial(weighted_sum, weights=values),
         values, fresh.randrange(2, 4)),
        (f"{DRAWN}: f(x) = (x·w)² with w = ({', '.join(f'{v:g}' for v in weights)})",
         partial(squared_sum, weights=weights), np.arange(3), 3),
    ]
    return queries[:FRESH_CASES]


def _sensitivity_cases(fresh=None) -> list[Case]:
    """The hidden cases: each query, universe and max_size, with Δf from dpteach's enumeration.

    The queries are module-level functions (or partials of them), so the cases can be sent to a
    grading process. Every near quantity fails at least one case: case 2 has coordinates that move
    in opposite directions around a level, where the summed change, its absolute value and the
    difference of the norms ‖f(y)‖₁ − ‖f(x)‖₁ are all 0 and ℓ∞, ℓ2 are below Δf; a count does not
    move at all when one record is swapped for another (the replace-one relation); the clipped sum
    tells the empty database from the others. With ``fresh`` (a grader's ``random.SystemRandom``, see
    :func:`grading_draws`), the queries of :func:`_drawn_queries` follow.
    """
    three = np.array([0, 1, 2])
    values = np.array([-2.0, 3.0, 9.0])
    overlapping = np.array([[1, 1, 1], [0, 1, 1], [0, 0, 1]])
    queries = [
        ("a count over 3 record types", count_records, three, 2),
        ("two coordinates that move in opposite directions around a level: f(x) = (5 + x₀ − x₁, 5 − x₀ + x₁)",
         levelled_opposite, three, 2),
        ("a sum of the values -2, 3, 9 clipped to [0, 5]", partial(weighted_sum, weights=np.clip(values, 0, 5)),
         values, 2),
        ("a histogram: f(x) = x over 4 record types", histogram_query, np.arange(4), 2),
        ("3 overlapping counts that one record can all change", partial(linear_counts, matrix=overlapping), three, 2),
        ("a query that falls when a record is added: f(x) = x[1] − 2·x[0]", falling_query, three, 2),
        ("a query whose change grows with the size: f(x) = (number of records)²", size_squared, three, 3),
    ]
    if fresh is not None:
        queries += _drawn_queries(fresh)
    return [Case(label, (f, universe, max_size), expected=l1_sensitivity(f, universe, max_size))
            for label, f, universe, max_size in queries]


def _swapped(f, universe, max_size: int) -> float:
    """The largest ‖f(x) − f(y)‖₁ over databases of at most ``max_size`` records that differ by one record swapped
    for another (the replace-one relation, which Definition 3.1 does not use)."""
    m = len(universe)
    largest = 0.0
    for x in all_databases(m, max_size - 1):
        answers = [np.atleast_1d(np.asarray(f(x + np.eye(m, dtype=x.dtype)[i]), dtype=float)) for i in range(m)]
        for i in range(m):
            for j in range(i + 1, m):
                largest = max(largest, float(np.abs(answers[i] - answers[j]).sum()))
    return largest


def _known_sensitivity_mistakes(case: Case, got) -> str:
    """Name the mistake whose answer on this case equals what the student's function returned."""
    f, universe, max_size = case.args
    pairs = neighbour_differences(f, universe, max_size)
    change = np.array([np.atleast_1d(np.asarray(f(y), dtype=float) - np.asarray(f(x), dtype=float))
                       for x, y in zip(pairs.smaller, pairs.larger)])
    from_empty = pairs.smaller.sum(axis=1) == 0
    norms = [(np.abs(np.atleast_1d(np.asarray(f(y), dtype=float))).sum()
              - np.abs(np.atleast_1d(np.asarray(f(x), dtype=float))).sum()) for x, y in zip(pairs.smaller, pairs.larger)]
    # on a case where the two give the same number, name both
    either = (", or the change of the norm |‖f(y)‖₁ − ‖f(x)‖₁|"
              if np.isclose(np.abs(norms).max(), np.abs(change.sum(axis=1)).max()) else "")
    wrong = [
        (np.linalg.norm(change, ord=2, axis=1).max(), "it looks like the ℓ2 norm; Definition 3.1 sums the "
                                                      "absolute changes of all k coordinates (ℓ1).", "ℓ2 for ℓ1"),
        (np.abs(change).max(), "it looks like the largest change of a single coordinate (ℓ∞); Definition 3.1 "
                               "adds the absolute changes of all coordinates.", "one change for all of them"),
        (np.abs(change.sum(axis=1)).max(), "it looks like the absolute value of the summed change |Σᵢ (f(y)ᵢ − "
                                           f"f(x)ᵢ)|{either}: coordinates that move in opposite directions cancel "
                                           "there. Definition 3.1's ℓ1 norm takes each coordinate's absolute change, "
                                           "then adds them.", "signed changes for absolute ones"),
        (change.sum(axis=1).max(), "it looks like the signed change f(y) − f(x); take absolute values, since "
                                   "a record can also make the answer fall.", "signed changes for absolute ones"),
        (np.abs(norms).max(), "it looks like the change of the norm |‖f(y)‖₁ − ‖f(x)‖₁|, in which coordinates that "
                              "move in opposite directions cancel. Definition 3.1 takes the norm of the change, "
                              "‖f(y) − f(x)‖₁.", "signed changes for absolute ones"),
        (l1_sensitivity(f, universe, max_size + 1), "it looks like pairs whose larger database has max_size + 1 "
                                                    "records: both databases of a pair have at most max_size, so "
                                                    "the smaller one has at most max_size − 1.",
         "the size limit on the wrong database"),
        (_swapped(f, universe, max_size), "it looks like databases of the same size with one record swapped for "
                                          "another; Definition 3.1's neighbours differ by adding or removing one "
                                          "record.", "replace-one for add/remove"),
        (np.abs(change[from_empty]).sum(axis=1).max(), "it looks like you only compared the empty database "
                                                      "with one-record databases; the maximum runs over all "
                                                      "neighbours up to max_size records.", "an example for the worst case"),
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
    return ("List every database x with at most max_size − 1 records (dp.all_databases), add one record of each "
            "type (so that y has at most max_size), and take the largest ‖f(y) − f(x)‖₁.")


@exercise(prompt="Write `my_l1_sensitivity(f, universe, max_size)`: the ℓ1-sensitivity of Definition 3.1 by listing "
                 "every pair of neighbouring databases over `universe` with at most `max_size` records each: a "
                 "database x with at most `max_size` − 1 records and x with one more record. `f` takes a histogram "
                 "(a numpy array of counts) and returns a number or an array of k numbers; `universe` is a numpy "
                 "array of the record types. You may use `dp.all_databases`; you may not call `dp.l1_sensitivity`, "
                 "`dp.l2_sensitivity`, `dp.neighbour_differences` or its reference version (the checker refuses "
                 "them). The checker runs your function on seven hidden queries and names the first one it gets "
                 "wrong.",
          title="write the enumeration", kind="function")
def check_my_l1_sensitivity(function) -> Feedback:
    """Ch. 01, exercise 3: the student writes ``my_l1_sensitivity(f, universe, max_size)``, the
    ℓ1-sensitivity of Definition 3.1 by enumeration, without calling dpteach's own.

    The hidden cases are seven queries (a count, two coordinates that move in opposite directions
    around a level, a clipped sum, a histogram, overlapping counts, a query that falls, a query whose
    change grows with the size), and graded three more drawn afresh (no table of the seven passes); a failure
    names the case and, when the returned value matches one,
    the known mistake (ℓ2 or ℓ∞ for ℓ1, the absolute value taken after the sum, the difference of the
    norms, a signed change, only the empty database as the smaller one, pairs up to max_size + 1
    records, one record swapped for another). A function that compares a vector query's change with
    a number (numpy's "truth value of an array is ambiguous") is told so. The queries are
    module-level functions, so the cases can be sent to a grading process.
    """
    verdict = check_function(
        function, _sensitivity_cases(grading_draws(function)), task="my_l1_sensitivity(f, universe, max_size)",
        success="Your enumeration is Definition 3.1: the largest ‖f(x) − f(y)‖₁ over neighbouring histograms.",
        forbidden=("l1_sensitivity", "l2_sensitivity", "neighbour_differences", "neighbour_differences_reference"),
        describe=_known_sensitivity_mistakes)
    if verdict.correct is False and "truth value of an array" in verdict.message:
        # numpy's own words for `if change > best` or max(...) with a vector query's change
        case = verdict.message.split(" raised ", 1)[0]
        return Feedback(False, f"{case}: your function compared an array with a number (numpy: \"the truth value of "
                               "an array with more than one element is ambiguous\"). This query's f returns k "
                               "numbers: turn each change f(y) − f(x) into one number, its ℓ1 norm, before "
                               "comparing it.")
    return verdict
