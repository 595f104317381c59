"""Checkers for chapter 04: counting and histogram queries (Examples 3.1 and 3.2).

Each numeric checker lists the common wrong answers, each computed the wrong way (Δf = m for
overlapping counts that no one is in all of, dividing by n instead of the count, the variance
b² for 2b², standard deviations added instead of variances, …), so the feedback names the
mistake. :func:`check_counting_sensitivity_function` runs a function the student writes on
hidden query matrices.
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..counting import counting_queries_scale, counting_queries_sensitivity, histogram_noise
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
from ._cells import placeholder_feedback

__all__ = ["check_overlapping_bands_sensitivity", "check_count_relative_error", "check_derived_count_std",
           "check_counting_sensitivity_function"]

#: The four overlapping age bands of exercise 1 (inclusive), over ages 0–99.
BANDS = ((0, 29), (20, 49), (40, 69), (60, 99))


def _bands_matrix(ages: np.ndarray, bands=BANDS) -> np.ndarray:
    return np.array([(ages >= lo) & (ages <= hi) for lo, hi in bands]).astype(int)


def _parse_bands(text: str) -> tuple[tuple[int, int], ...]:
    bands = tuple((int(lo), int(hi)) for lo, hi in re.findall(r"(\d+)\s*[–-]\s*(\d+)", text))
    if not bands or any(not 0 <= lo <= hi <= 99 for lo, hi in bands):
        raise ValueError(f"bands must list age ranges lo–hi within 0–99, like '0–29, 20–49' (got {text!r})")
    return bands


#: Exercise 1's homework bands: four bands over ages 0–99 in which the most bands one age is in is 3 (ten layouts),
#: 4 (five) or 1 (four, disjoint); never 2, the chapter's answer, and, where it is 3, never as many overlapping pairs.
_HOMEWORK_BANDS = (
    "0–39, 20–59, 30–79 and 60–99", "0–49, 10–39, 20–69 and 60–99", "0–34, 15–54, 30–74 and 70–99",
    "0–44, 25–64, 40–79 and 75–99", "0–29, 10–59, 25–84 and 55–99", "0–64, 15–34, 30–49 and 45–99",
    "0–74, 25–49, 35–59 and 70–99", "0–39, 35–69, 50–89 and 60–99", "0–24, 20–64, 45–79 and 60–99",
    "0–79, 10–39, 30–59 and 50–99",
    "0–59, 20–79, 40–99 and 50–69", "0–54, 10–74, 35–99 and 50–89", "0–69, 20–49, 30–99 and 40–59",
    "0–59, 30–89, 40–99 and 55–64", "0–64, 30–79, 50–99 and 55–69",
    "0–24, 25–49, 50–74 and 75–99", "0–19, 20–39, 40–59 and 60–99", "0–17, 18–34, 35–64 and 65–99",
    "0–14, 15–44, 45–69 and 70–99",
)


@exercise(prompt="A survey reports four age bands over ages 0–99, which may overlap: {bands}. What is the "
                 "ℓ1-sensitivity Δf of the four counts released together? Give a whole number.",
          homework={"bands": _HOMEWORK_BANDS},
          few_answers="Δf is the most bands one age is in, a whole number from 1 to 4 for four bands, and 2 is the "
                      "chapter's answer: 3 answers (1, 3 and 4), over 19 layouts of the bands.")
def check_overlapping_bands_sensitivity(answer, bands: str = "0–29, 20–49, 40–69 and 60–99") -> Feedback:
    """Ch. 04, exercise 1: Δf of four overlapping age bands, 0–29, 20–49, 40–69 and 60–99,
    counted over a universe of ages 0–99 (Definition 3.1: the largest column sum)."""
    queries = _bands_matrix(np.arange(100), _parse_bands(bands))
    expected = counting_queries_sensitivity(queries)
    m = queries.shape[0]
    overlapping_pairs = sum(bool((queries[i] & queries[j]).any()) for i in range(m) for j in range(i + 1, m))
    # one record swapped for another moves the counts by the ℓ1 distance of their two columns: 2Δf at most
    columns = np.unique(queries.T, axis=0)
    swapped = int(np.abs(columns[:, None, :] - columns[None, :, :]).sum(axis=2).max())
    if swapped == 2 * expected:
        doubled = Mistake(2 * expected, "that is the change when one person is removed and another added (a "
                                        "replacement). Definition 3.1's neighbours differ by ONE record.",
                          name="replace-one for add/remove")
    else:
        doubled = Mistake(2 * expected, "that counts one person's change twice. Definition 3.1's neighbours differ "
                                        "by ONE record; and with these bands even swapping one person for another "
                                        "cannot move the counts that far.", name="a change counted twice")
    mistakes = [
        Mistake(m, f"{m} is the number of bands. Δf = m holds only when one person can be counted by all m "
                   "queries; is any age in all of them?", name="Δf counted over the queries, not one person"),
        Mistake(1, "Δf = 1 is a histogram's sensitivity, and these bands are not disjoint: an age in an overlap "
                   "is counted by more than one band.", name="Δf = 1 where one person moves more"),
        Mistake(overlapping_pairs, f"{overlapping_pairs} is how many pairs of bands overlap. Δf counts the bands "
                                   "one person is in, not the overlaps.",
                name="Δf counted over the queries, not one person"),
        Mistake(float(queries.sum(axis=1).max()), "that is the number of ages in the widest band (a row sum of "
                                                  "the query matrix). Δf is a column sum: how many bands one "
                                                  "age is in.", name="Δf counted over the queries, not one person"),
        Mistake(float(queries.sum()), "that adds up every band's ages. One person changes only the bands their "
                                      "own age is in.", name="Δf counted over the queries, not one person"),
        doubled,
    ]
    return compare(answer, expected,
                   f"the most bands any one age is in is {expected:g}, so one person changes at most {expected:g} "
                   f"counts by 1: Δf = {expected:g}, and each band needs Lap({expected:g}/ε).",
                   "Δf is the largest number of queries one person can be counted in. Find the ages that several "
                   "bands share, and count the bands at each.", figures=None, mistakes=mistakes)


@exercise(prompt="A count of {count:,} people, out of a database of n = {n:,}, is released at ε = {epsilon:g}. What is "
                 "its expected relative error E|Y| / count? Give 3 significant figures.",
          homework={"count": (300, 400, 700, 1_100, 1_300, 1_800, 2_200), "n": (500_000, 2_000_000, 10_000_000),
                    "epsilon": (0.02, 0.03, 0.04, 0.05, 0.15, 0.2, 0.25, 0.4)},
          figures=3)
def check_count_relative_error(answer, count: int = 5_000, n: int = 1_000_000, epsilon: float = 0.1) -> Feedback:
    """Ch. 04, exercise 2: the expected relative error E|Y| / count of a count of 5,000 among
    n = 1,000,000 people, released at ε = 0.1 (Example 3.1: E|Y| = b = 1/ε)."""
    b = counting_queries_scale(1, epsilon, disjoint=True)
    expected = b / count
    mistakes = [
        Mistake(b / n, "you divided by n, the size of the database. The error is relative to the count itself; "
                       "n plays no part.", name="relative to n, not to the count"),
        Mistake(epsilon / count, "you multiplied by ε: the noise scale of a count is b = Δf/ε, Δf divided by ε.",
                name="×ε for ÷ε"),
        Mistake(b, "that is the absolute error E|Y| = b. The question asks for it relative to the count.",
                name="the absolute error for the relative one"),
        Mistake(100 * expected, "that looks like a percentage. Give the relative error as a fraction, "
                                "not in percent.", name="a percentage for a fraction"),
        Mistake(2 * b**2 / count, "you used the variance 2b². The expected absolute error of Lap(b) is "
                                  "E|Y| = b.", name="the wrong measure of spread"),
        Mistake(math.sqrt(2) * b / count, "you used the standard deviation √2·b. The expected absolute error "
                                          "of Lap(b) is E|Y| = b itself.", name="the wrong measure of spread"),
        Mistake(count / b, "you divided the count by the error; the relative error is error ÷ count.",
                name="the absolute error for the relative one"),
        Mistake(b / (count + n), "the error is relative to the count alone; n plays no part.",
                name="relative to n, not to the count"),
    ]
    return compare(answer, expected,
                   f"E|Y| = b = 1/ε = {b:g} people whatever n is, so the relative error is "
                   f"{b:g}/{count:,} = {expected:g} ({expected:.1%}). n = {n:,} plays no part.",
                   "A count has Δf = 1: what is the expected absolute error E|Y| of its Laplace noise? Then make it "
                   "relative to the count. Does n enter?", figures=3, mistakes=mistakes)


@exercise(prompt="The decade histogram (cells 0–9, 10–19, …, 90–99) is released at ε = {epsilon:g}, and \"age ≥ "
                 "{threshold}\" is computed by adding its cells from {threshold} up to 99. What is the standard "
                 "deviation of its noise? Give 3 significant figures.",
          homework={"threshold": (10, 20, 30, 40, 50, 70), "epsilon": (0.1, 0.25, 0.3, 0.4, 0.5, 0.75, 2.0, 3.0)},
          figures=3)
def check_derived_count_std(answer, threshold: int = 60, epsilon: float = 1.0) -> Feedback:
    """Ch. 04, exercise 3: the standard deviation of "age ≥ 60" computed by adding the 4 decade
    cells 60–69, …, 90–99 of a histogram released at ε = 1 (Definition 3.2: Var = 2b²)."""
    if threshold % 10 or not 0 < threshold < 100:
        raise ValueError(f"threshold must be a multiple of 10 in [10, 90] (got {threshold})")
    cells = (100 - threshold) // 10
    per_cell = histogram_noise(1, epsilon, cells)
    expected = math.sqrt(cells * per_cell.variance)
    b = per_cell.scale
    direct = histogram_noise(9, epsilon, 9)          # "age ≥ t" asked among the nine cumulative counts
    mistakes = [
        Mistake(cells * per_cell.variance, "that is the variance of the sum. The question asks for the standard "
                                           "deviation, its square root.", name="the wrong measure of spread"),
        Mistake(math.sqrt(cells * b**2), "the variance of Lap(b) is 2b², not b².", name="b² for 2b²"),
        Mistake(cells * per_cell.std, f"you added the {cells} standard deviations. Independent noises add their "
                                      "variances, not their standard deviations.", name="standard deviations added"),
        Mistake(per_cell.std, f"that is one cell's standard deviation; the derived count adds {cells} cells' "
                              "independent noises.", name="a derived count's noises miscounted"),
        Mistake(cells * b, f"that adds the {cells} scales b (each cell's E|Y|). The standard deviation of Lap(b) is "
                           "√2·b, and independent variances add.", name="standard deviations added"),
        Mistake(direct.std, "that is the standard deviation of the count asked directly among the nine "
                            "cumulative counts, with Lap(9/ε). Here it is computed from the histogram.",
                name="a derived count's noises miscounted"),
        Mistake(math.sqrt((cells + 1) * per_cell.variance), f"that adds {cells + 1} cells; from {threshold} up to "
                                                            f"99 there are {cells}.",
                name="a derived count's noises miscounted"),
    ]
    return compare(answer, expected,
                   f"each cell's noise has variance 2(1/ε)² = {per_cell.variance:g}; independent variances add, "
                   f"so the sum of {cells} cells has std √({cells}·{per_cell.variance:g}) = {expected:.4f}.",
                   "The cells' noises are independent, so their variances add. What is the variance of Lap(b)?",
                   figures=3, mistakes=mistakes)


# -- exercise 4: the student writes Δf of a 0/1 query matrix ------------------------------------

def _counting_cases(fresh=None) -> list[Case]:
    """The hidden matrices, with Δf from dpteach; with ``fresh`` (a grader's ``random.SystemRandom``, see
    :func:`grading_draws`), :data:`FRESH_CASES` more drawn by :func:`_drawn_matrix`."""
    ages = np.arange(100)
    cumulative = (ages[None, :] >= np.arange(10, 100, 10)[:, None]).astype(int)
    uneven = np.array([[1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 0]])
    small_ages = np.arange(4)
    matrices = [
        ("two queries over 3 record types, the second inside the first", np.array([[1, 1, 1], [0, 0, 1]])),
        ("a histogram: 5 disjoint cells", np.eye(5, dtype=int)),
        ("9 cumulative counts 'age ≥ 10j' over ages 0–99", cumulative),
        ("the 4 overlapping age bands of exercise 1", _bands_matrix(ages)),
        ("3 queries of different widths over 6 record types", uneven),
        ("a boolean matrix (True/False), 3 cumulative counts over ages 0–3",
         small_ages[None, :] >= np.array([1, 2, 3])[:, None]),
        ("a query that counts no one, and a record type no query counts", np.array([[0, 0, 0], [1, 1, 0], [0, 1, 0]])),
        ("a matrix given as nested Python lists", [[1, 0], [1, 1], [1, 0]]),
    ]
    for number in range(FRESH_CASES if fresh is not None else 0):
        matrix, form = _drawn_matrix(fresh, ("numpy array of 0/1", "boolean array", "list of lists")[number])
        rows, columns = np.shape(matrix)
        rows_text = " ".join("".join(str(int(v)) for v in row) for row in np.asarray(matrix))
        matrices.append((f"{DRAWN}: {rows} queries over {columns} record types, as a {form}, rows {rows_text}",
                         matrix))
    return [Case(label, (matrix,), expected=counting_queries_sensitivity(matrix)) for label, matrix in matrices]


def _drawn_matrix(fresh, form: str):
    """A 0/1 query matrix drawn with ``fresh``, given as ``form`` (a numpy array of 0/1, a boolean array or a list of
    lists), and ``form`` itself.

    Its Δf, the largest column sum d, is drawn uniformly from 2–12, with d + 1 to d + 4 queries over 3–9 record
    types (so Δf = m never holds) and each column's sum drawn from 0–d, one of them d; a draw whose largest row
    sum or whole sum equals d is drawn again, so that no wrong formula the feedback names gives the answer.
    """
    while True:
        d = fresh.randrange(2, 13)
        rows, columns = d + fresh.randrange(1, 5), fresh.randrange(3, 10)
        sums = [fresh.randrange(0, d + 1) for _ in range(columns)]
        sums[fresh.randrange(columns)] = d
        matrix = np.zeros((rows, columns), dtype=int)
        for column, total in enumerate(sums):
            matrix[fresh.sample(range(rows), total), column] = 1
        if matrix.sum(axis=1).max() != d and matrix.sum() != d:
            break
    if form == "boolean array":
        return matrix.astype(bool), form
    if form == "list of lists":
        return matrix.tolist(), form
    return matrix, form


def _describe_counting(case: Case, got) -> str:
    """Name the known mistake the student's answer matches on this case, if any."""
    a = np.asarray(case.args[0], dtype=float)
    try:
        value = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return "Return one number, Δf."
    if value.shape == (a.shape[1],) and np.allclose(value, a.sum(axis=0)):
        return "You returned one number per record type; Δf is a single number, the worst case over them."
    if value.shape == (a.shape[0],) and np.allclose(value, a.sum(axis=1)):
        return ("You returned one number per query (how many record types each counts); Δf asks how many queries "
                "one record type is counted in.")
    if value.shape != ():
        return f"Return one number (Δf), not an array of shape {value.shape}."
    wrong = [
        (a.sum(axis=1).max(), "Your output equals the largest ROW sum, how many record types one query counts. Δf asks "
                              "how many queries one record type (one person) is counted in.", "Δf counted over the queries, not one person"),
        (a.shape[0], "Your output equals the number of queries m. Δf = m only when one person can be counted by every "
                     "query; read the columns.", "Δf counted over the queries, not one person"),
        (a.sum(), "Your output equals the sum of the whole matrix. One person changes only the answers of the queries "
                  "that count their own type: one column.", "Δf counted over the queries, not one person"),
        (1.0, "Your output is 1, and Δf = 1 holds only when the queries are disjoint (a histogram).",
         "Δf = 1 where one person moves more"),
    ]
    named = matching_mistake(float(value), case.expected, [Mistake(float(v), m, n) for v, m, n in wrong])
    return "" if named is None else named


@exercise(prompt="Write `my_counting_sensitivity(queries)`: given m counting queries as a 0/1 matrix (a numpy array or "
                 "a list of lists, one row per query, one column per record type), return their ℓ1-sensitivity Δf. "
                 "The checker runs your function on hidden matrices (a histogram, the cumulative counts, the bands "
                 "of exercise 1, …) and tells you which one fails. Write it with numpy: "
                 "`dp.counting_queries_sensitivity` and `dp.l1_sensitivity` are switched off while it runs.",
          title="write code", kind="function")
def check_counting_sensitivity_function(my_counting_sensitivity) -> Feedback:
    """Ch. 04, exercise 4: the student's ``my_counting_sensitivity(queries)``, Δf of a 0/1 query matrix
    (Definition 3.1; Examples 3.1 and 3.2), run on eight hidden matrices and, graded, three more drawn afresh (no
    table of the eight passes). It may not call
    ``dp.counting_queries_sensitivity`` or ``dp.l1_sensitivity``."""
    overwritten = placeholder_feedback(my_counting_sensitivity, "my_counting_sensitivity")
    if overwritten is not None:
        return overwritten
    return check_function(my_counting_sensitivity, _counting_cases(grading_draws(my_counting_sensitivity)),
                          task="my_counting_sensitivity(queries)",
                          success="Δf is the largest column sum: the number of queries one person can be "
                                  "counted in.",
                          forbidden=("counting_queries_sensitivity", "l1_sensitivity"),
                          describe=_describe_counting)
