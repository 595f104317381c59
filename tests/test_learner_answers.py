"""Answers two learners really gave (issue 51), each through its checker with the message asserted: right-minded
answers to another question are named for what they are, a message for a wrong answer hands nothing over, and a
function checker's hidden cases tell the asked quantity from its neighbours (the difference of the norms, the signed
sum, ℓ∞, ℓ2, the other neighbour relation, one record too many).
"""

from __future__ import annotations

import itertools
import linecache
import math

import numpy as np
import pytest
from helpers import ROOT

import dpteach as dp
from dpteach.course.leaks import gives_away
from dpteach.exercises import EXERCISES
from dpteach.exercises._cells import overwritten_in

ex = dp.exercises


def _exercise_line(chapter: str, name: str) -> str:
    """The chapter's own prompt of exercise ``name`` (its text twin's bold-labelled line)."""
    text = (ROOT / "sources" / f"{chapter}.md").read_text(encoding="utf-8")
    rendered = EXERCISES[name].render()
    lines = [line for line in text.splitlines() if line.startswith("**Exercise") and rendered in line]
    assert len(lines) == 1, f"{chapter}: the prompt of {name} is not the registry's"
    return lines[0]


def _no_answer_in(verdict, name: str, **params) -> None:
    spec = EXERCISES[name]
    assert not gives_away(verdict.message, spec.expected(**params), spec.figures), verdict.message


# -- chapter 01 ---------------------------------------------------------------------------------------------------

def test_ch01_ex1_the_sum_alone_is_not_followed_by_the_arithmetic_of_the_answer():
    verdict = ex.check_count_and_sum_sensitivity(100)
    assert verdict.correct is False and "ℓ∞" in verdict.message
    assert "add the changes" not in verdict.message          # 100 plus "add the count's change" is the answer
    _no_answer_in(verdict, "check_count_and_sum_sensitivity")


def _replace_one(f, universe_size: int) -> float:
    """The largest ‖f(x) − f(y)‖₁ over single records x, y swapped for each other (databases of one record)."""
    eye = np.eye(universe_size, dtype=int)
    answers = [np.atleast_1d(np.asarray(f(eye[i]), dtype=float)) for i in range(universe_size)]
    return max(float(np.abs(a - b).sum()) for a, b in itertools.combinations(answers, 2))


def _named_replace_one(checker, answer, **params) -> bool:
    spec = EXERCISES[checker.__name__]
    return any(m.name == "replace-one for add/remove" and math.isclose(m.value, answer)
               for m in spec.mistakes(**params))


@pytest.mark.parametrize("clip, threshold", [(100, 65), (40, 18), (99, 80), (55, 60)])
def test_ch01_ex1_twice_the_answer_is_not_called_a_replacement_which_cannot_reach_it(clip, threshold):
    """False statement 2: replacing a record moves the pair by 1 + clip at most, as adding one does (every pair)."""
    ages = np.arange(0, 101)
    clipped = np.clip(ages, 0, clip)

    def f(x):
        return np.array([x[ages >= threshold].sum(), x @ clipped])

    delta = dp.l1_sensitivity(f, ages, max_size=1)
    assert _replace_one(f, ages.size) == delta < 2 * delta
    assert not _named_replace_one(ex.check_count_and_sum_sensitivity, 2 * delta, clip=clip, threshold=threshold)
    verdict = ex.check_count_and_sum_sensitivity(2 * delta, clip=clip, threshold=threshold)
    assert verdict.correct is False and "twice" in verdict.message and "replac" not in verdict.message.split(";")[0]


def test_ch01_ex3_the_prompt_says_both_databases_stay_within_max_size():
    line = _exercise_line("01_sensitivity", "check_my_l1_sensitivity")
    assert "at most `max_size` records each" in line and "`max_size` − 1" in line


def _pairs(f, universe, top):
    for x in dp.all_databases(len(universe), top - 1):
        for i in range(len(universe)):
            y = x.copy()
            y[i] += 1
            yield np.atleast_1d(np.asarray(f(x), dtype=float)), np.atleast_1d(np.asarray(f(y), dtype=float))


def _enumeration(measure, extra: int = 0):
    """A student's my_l1_sensitivity that takes the largest ``measure(f(x), f(y))`` over pairs whose larger
    database has at most max_size + ``extra`` records."""
    def my_l1_sensitivity(f, universe, max_size):
        return max(float(measure(a, b)) for a, b in _pairs(f, universe, max_size + extra))
    return my_l1_sensitivity


def _swapped(f, universe, max_size):
    """The replace-one relation: databases of the same size, one record swapped for another."""
    largest = 0.0
    for x in dp.all_databases(len(universe), max_size - 1):
        answers = []
        for i in range(len(universe)):
            y = x.copy()
            y[i] += 1
            answers.append(np.atleast_1d(np.asarray(f(y), dtype=float)))
        largest = max([largest] + [float(np.abs(a - b).sum()) for a, b in itertools.combinations(answers, 2)])
    return largest


def _from_empty(f, universe, max_size):
    empty = np.zeros(len(universe), dtype=int)
    return max(float(np.abs(np.atleast_1d(f(y)) - np.atleast_1d(f(empty))).sum()) for y in np.eye(len(universe), dtype=int))


NEAR_L1 = {
    "the difference of the norms": (_enumeration(lambda a, b: abs(np.abs(b).sum() - np.abs(a).sum())),
                                    "the change of the norm"),
    "the signed sum": (_enumeration(lambda a, b: (b - a).sum()), "summed change"),     # 0 on case 2, as |sum| is
    "the absolute summed change": (_enumeration(lambda a, b: abs((b - a).sum())), "summed change"),
    "ℓ∞": (_enumeration(lambda a, b: np.abs(b - a).max()), "ℓ∞"),
    "ℓ2": (_enumeration(lambda a, b: np.linalg.norm(b - a)), "ℓ2"),
    "the replace-one relation": (_swapped, "swapped"),
    "one record too many": (_enumeration(lambda a, b: np.abs(b - a).sum(), extra=1), "max_size + 1"),
    "the empty database only": (_from_empty, "empty database"),
}


@pytest.mark.parametrize("near", NEAR_L1)
def test_ch01_ex3_every_near_quantity_fails_a_hidden_case_and_is_named(near):
    function, says = NEAR_L1[near]
    verdict = ex.check_my_l1_sensitivity(function)
    assert verdict.correct is False and says in verdict.message, verdict.message


def test_ch01_ex3_the_right_enumeration_passes():
    assert ex.check_my_l1_sensitivity(_enumeration(lambda a, b: np.abs(b - a).sum())).correct is True


def test_ch01_ex3_an_array_compared_with_a_number_is_explained_not_numpy_s_words_alone():
    def my_l1_sensitivity(f, universe, max_size):
        largest = 0
        for x in dp.all_databases(len(universe), max_size - 1):
            for i in range(len(universe)):
                y = x.copy()
                y[i] += 1
                change = abs(f(y) - f(x))
                if change > largest:
                    largest = change
        return largest

    verdict = ex.check_my_l1_sensitivity(my_l1_sensitivity)
    assert verdict.correct is False and "compared an array with a number" in verdict.message
    assert "ℓ1 norm" in verdict.message and "raised ValueError" not in verdict.message


# -- chapter 02 ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("params", [{}, {"scale": 2.5, "threshold": 4.0}, {"scale": 1.25, "threshold": 11.0}])
def test_ch02_ex1_a_percentage_is_recognised(params):
    expected = EXERCISES["check_tail_probability"].expected(**params)
    verdict = ex.check_tail_probability(float(f"{100 * expected:.3g}"), **params)
    assert verdict.correct is False and "percentage" in verdict.message


def _cdf_with(library):
    def my_laplace_cdf(x, b):
        return library(x, scale=b)
    return my_laplace_cdf


def test_ch02_ex3_scipy_s_cdf_is_refused_as_the_prompt_asks_for_numpy_or_math():
    scipy_stats = pytest.importorskip("scipy.stats")
    verdict = ex.check_my_laplace_cdf(_cdf_with(scipy_stats.laplace.cdf))
    assert verdict.correct is False and "scipy" in verdict.message
    cell = ("from scipy.stats import laplace\n\ndef my_laplace_cdf(x, b):\n    return laplace.cdf(x, scale=b)\n\n"
            "verdict = dp.exercises.check_my_laplace_cdf(my_laplace_cdf)\n")
    verdict = _run_cell(cell)["verdict"]
    assert verdict.correct is False and "scipy" in verdict.message


def test_ch02_ex3_the_swapped_branches_are_not_called_one_formula_on_both_sides():
    def my_laplace_cdf(x, b):            # the branches' formulas swapped: Pr[Y > x]
        return 0.5 * math.exp(-x / b) if x >= 0 else 1 - 0.5 * math.exp(x / b)

    verdict = ex.check_my_laplace_cdf(my_laplace_cdf)
    assert verdict.correct is False and "upper tail" in verdict.message and "on both sides" not in verdict.message
    right = ex.check_my_laplace_cdf(lambda x, b: 0.5 * math.exp(x / b) if x < 0 else 1 - 0.5 * math.exp(-x / b))
    assert right.correct is True


NEAR_CDF = {
    "the upper tail Pr[Y > x]": lambda x, b: 1 - 0.5 * math.exp(x / b) if x < 0 else 0.5 * math.exp(-x / b),
    "the density": lambda x, b: math.exp(-abs(x) / b) / (2 * b),
    "the x < 0 formula on both sides": lambda x, b: 0.5 * math.exp(-abs(x) / b),
    "the x ≥ 0 formula on both sides": lambda x, b: 1 - 0.5 * math.exp(-abs(x) / b),
    "x not divided by b": lambda x, b: 0.5 * math.exp(x) if x < 0 else 1 - 0.5 * math.exp(-x),
    "no ½": lambda x, b: math.exp(x / b) if x < 0 else 1 - math.exp(-x / b),
}


@pytest.mark.parametrize("near", NEAR_CDF)
def test_ch02_ex3_every_near_quantity_fails_a_hidden_case_with_a_diagnosis(near):
    verdict = ex.check_my_laplace_cdf(NEAR_CDF[near])
    assert verdict.correct is False and "which is not right. " in verdict.message, verdict.message


# -- chapter 03 ---------------------------------------------------------------------------------------------------

def test_ch03_ex3_a_letter_typed_without_quotes_is_told_to_go_in_quotes():
    b = 1.0                              # the chapter's variable b, which an unquoted b reads
    verdict = ex.check_gaussian_proof_step(b)
    assert verdict.correct is False and "in quotes" in verdict.message
    assert ex.check_gaussian_proof_step("b").correct is True


# -- chapters 04 and 05, exercise 4: a def above the placeholder line ------------------------------------------------

def _run_cell(source: str, name: str = "<cell 7>") -> dict:
    """Run ``source`` as a notebook cell does: compiled under a name whose text linecache holds."""
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace = {"__name__": "__main__", "dp": dp, "np": np}
    try:
        exec(compile(source, name, "exec"), namespace)
    finally:
        linecache.cache.pop(name, None)
    return namespace


@pytest.mark.parametrize("answer, checker, body", [
    ("my_accuracy_bound", "check_accuracy_bound_function", "(k, beta, sensitivity, epsilon):\n    return 1.0"),
    ("my_counting_sensitivity", "check_counting_sensitivity_function", "(queries):\n    return 1"),
])
def test_ch04_ch05_ex4_a_def_overwritten_by_the_placeholder_below_it_is_said(answer, checker, body):
    cell = f"def {answer}{body}\n{answer} = ...\nverdict = dp.exercises.{checker}({answer})\n"
    verdict = _run_cell(cell)["verdict"]
    assert verdict.correct is None and f"`{answer} = ...`" in verdict.message and "delete that line" in verdict.message
    assert overwritten_in(cell, answer) and not overwritten_in(cell.replace(f"{answer} = ...\n", ""), answer)
    untouched = _run_cell(f"{answer} = ...\nverdict = dp.exercises.{checker}({answer})\n")["verdict"]
    assert untouched.correct is None and "Not answered yet" in untouched.message


def test_ch04_ex4_every_near_quantity_fails_a_hidden_case():
    near = {
        "the largest row sum": lambda q: np.asarray(q).sum(axis=1).max(),
        "the number of queries": lambda q: np.asarray(q).shape[0],
        "ℓ2": lambda q: math.sqrt(np.asarray(q, dtype=float).sum(axis=0).max()),
        "ℓ∞": lambda q: np.abs(np.asarray(q, dtype=float)).max(),
        "the replace-one relation": lambda q: max(np.abs(a - b).sum() for a, b in
                                                  itertools.combinations(np.asarray(q, dtype=int).T, 2)),
        "the whole matrix": lambda q: np.asarray(q).sum(),
    }
    for label, function in near.items():
        assert ex.check_counting_sensitivity_function(function).correct is False, label
    assert ex.check_counting_sensitivity_function(lambda q: np.asarray(q, dtype=int).sum(axis=0).max()).correct


# -- chapter 05 ---------------------------------------------------------------------------------------------------

def test_ch05_ex2_the_exact_probability_for_independent_noise_is_named():
    verdict = ex.check_delta_for_bound(0.365)            # 1 − (1 − e^−10)^10,000
    assert verdict.correct is False and "independent" in verdict.message and "1 − (1 − e^(−t))^k" in verdict.message
    _no_answer_in(verdict, "check_delta_for_bound")


def test_ch05_ex2_the_exact_probability_is_named_even_within_two_figures_of_the_bound():
    spec = EXERCISES["check_delta_for_bound"]
    named = 0
    for params in spec.variants():
        expected = spec.expected(**params)
        t = params.get("error", 10.0) * params.get("epsilon", 1.0)
        exact = float(f"{-math.expm1(params.get('k', 10_000) * math.log1p(-math.exp(-t))):.3g}")
        verdict = ex.check_delta_for_bound(exact, **params)
        if float(f"{expected:.3g}") == exact:
            assert verdict.correct is True
        else:
            assert verdict.correct is False and "independent" in verdict.message, (params, verdict.message)
            named += 1
    assert named > 0


def test_ch05_ex4_sidak_s_quantile_is_named():
    def my_accuracy_bound(k, beta, sensitivity, epsilon):
        return -math.log(1 - (1 - beta) ** (1 / k)) * sensitivity / epsilon

    verdict = ex.check_accuracy_bound_function(my_accuracy_bound)
    assert verdict.correct is False and "Šidák" in verdict.message and "independent" in verdict.message


NEAR_BOUND = {
    "Šidák's quantile": lambda k, beta, s, e: -math.log(1 - (1 - beta) ** (1 / k)) * s / e,
    "one noise's ln(1/β)": lambda k, beta, s, e: math.log(1 / beta) * s / e,
    "log10": lambda k, beta, s, e: math.log10(k / beta) * s / e,
    "÷ε forgotten": lambda k, beta, s, e: math.log(k / beta) * s,
    "Δf left out": lambda k, beta, s, e: math.log(k / beta) / e,
    "ln(k·β)": lambda k, beta, s, e: math.log(k * beta) * s / e,
    "k outside the logarithm": lambda k, beta, s, e: k * math.log(1 / beta) * s / e,
}


@pytest.mark.parametrize("near", NEAR_BOUND)
def test_ch05_ex4_every_near_quantity_fails_a_hidden_case_and_is_named(near):
    verdict = ex.check_accuracy_bound_function(NEAR_BOUND[near])
    assert verdict.correct is False and "known mistake" in verdict.message, verdict.message


# -- chapter 06 ---------------------------------------------------------------------------------------------------

def test_ch06_ex1_both_mistakes_that_give_one_half_are_named():
    verdict = ex.check_session_spend(0.5)
    assert verdict.correct is False and "largest ε of the three" in verdict.message and "SMALLER" in verdict.message
    _no_answer_in(verdict, "check_session_spend")
    assert "SMALLER" not in ex.check_session_spend(0.7, north=0.5, south=0.4, whole=0.2).message


def test_ch06_ex3_the_message_for_two_does_not_give_the_method():
    verdict = ex.check_split_variance(2)
    assert verdict.correct is False and "full ε" in verdict.message
    assert "Lap(Δf/(ε/2))" not in verdict.message and "halves it" not in verdict.message
    _no_answer_in(verdict, "check_split_variance")


@pytest.mark.parametrize("answer, says", [(42.7, "exact accounting"), (43.1, "optimal composition theorem")])
def test_ch06_ex4_the_tighter_accountings_are_named(answer, says):
    verdict = ex.check_promised_accuracy(answer)
    assert verdict.correct is False and says in verdict.message and "Theorems 3.16 and 3.20" in verdict.message
    _no_answer_in(verdict, "check_promised_accuracy")


# -- chapter 07 ---------------------------------------------------------------------------------------------------

def test_ch07_ex1_the_prompt_points_to_the_closed_form():
    assert "closed form" in _exercise_line("07_private_selection", "check_noisy_max_upset")


# -- chapter 08 ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer", [48.5, 48.4, 48.45])
def test_ch08_ex1_theorem_3_22_s_sigma_is_named_with_its_constant_rounded(answer):
    verdict = ex.check_gaussian_sigma_for_counts(answer)
    assert verdict.correct is False and "Theorem 3.22" in verdict.message and "sensitivity" not in verdict.message


def test_ch08_ex2_the_closed_form_at_b_1_is_named_and_the_prompt_says_the_cap_is_1_over_b():
    verdict = ex.check_laplace_delta(0.313)              # 1 − e^((0.25 − 1)/2)
    assert verdict.correct is False and "b = 1" in verdict.message
    _no_answer_in(verdict, "check_laplace_delta")
    assert "1/b" in _exercise_line("08_gaussian_and_generalized_gaussian", "check_laplace_delta")


def test_ch08_ex3_the_prompt_asks_only_what_its_checker_takes_and_the_checker_answers_the_rest():
    line = _exercise_line("08_gaussian_and_generalized_gaussian", "check_generalized_gaussian_variance")
    assert "larger or smaller" not in line and line.count("?") == 1
    for p in (1.0, 4.0):         # at p = 1 (Laplace, variance 2σ²) the standard deviation is more than σ
        expected = EXERCISES["check_generalized_gaussian_variance"].expected(p=p)
        verdict = ex.check_generalized_gaussian_variance(expected, p=p)
        says = "less than σ" if expected < 2.0**2 else "more than σ"
        assert verdict.correct is True and "standard deviation" in verdict.message and says in verdict.message


# -- chapter 10 ---------------------------------------------------------------------------------------------------

def test_ch10_ex2_the_message_for_one_does_not_say_how_many_categories():
    verdict = ex.check_purchase_sensitivity(1)
    assert verdict.correct is False and "every category" not in verdict.message
    _no_answer_in(verdict, "check_purchase_sensitivity")


@pytest.mark.parametrize("categories", [4, 5, 7])
def test_ch10_ex2_twice_the_answer_is_not_called_a_replacement_which_cannot_reach_it(categories):
    universe = np.arange(2 ** categories)
    member = (universe[:, None] >> np.arange(categories)) & 1

    def f(x):
        return x @ member

    delta = dp.l1_sensitivity(f, universe, max_size=1)
    assert _replace_one(f, universe.size) == delta < 2 * delta
    assert not _named_replace_one(ex.check_purchase_sensitivity, 2 * delta, categories=categories)
    verdict = ex.check_purchase_sensitivity(2 * delta, categories=categories)
    assert verdict.correct is False and "twice" in verdict.message


def test_ch04_ex1_twice_the_answer_is_called_a_replacement_only_where_one_reaches_it():
    spec = EXERCISES["check_overlapping_bands_sensitivity"]
    from dpteach.exercises.counting import _bands_matrix, _parse_bands
    for params in [{}] + spec.variants():
        columns = _bands_matrix(np.arange(100), _parse_bands(params.get("bands", spec.defaults["bands"]))).T
        swapped = max(np.abs(a - b).sum() for a, b in itertools.combinations(np.unique(columns, axis=0), 2))
        delta = spec.expected(**params)
        assert _named_replace_one(ex.check_overlapping_bands_sensitivity, 2 * delta, **params) == (swapped == 2 * delta)


def test_the_sources_still_hold_every_changed_prompt_as_the_registry_renders_it():
    for chapter, name in [("01_sensitivity", "check_my_l1_sensitivity"), ("07_private_selection", "check_noisy_max_upset"),
                          ("08_gaussian_and_generalized_gaussian", "check_laplace_delta"),
                          ("08_gaussian_and_generalized_gaussian", "check_generalized_gaussian_variance")]:
        assert _exercise_line(chapter, name)
