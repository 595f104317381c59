"""Chapter 06's exercise checkers: the right answer passes, and each common mistake gets its own message."""

import math
from statistics import NormalDist

import numpy as np
import pytest
from helpers import ROOT, assert_checker_contract

import dpteach as dp
from dpteach.course.leaks import gives_away
from dpteach.exact_composition import releases_within
from dpteach.exercises import EXERCISES, planning
from dpteach.exercises import composition as ex

LN = math.log(1e6)


def test_session_spend_contract():
    assert_checker_contract(ex.check_session_spend, 0.5 + 0.2, 0.9)


@pytest.mark.parametrize("wrong, says", [
    (0.3 + 0.5 + 0.2, "sequential composition of all three"),     # sum where max belongs
    (0.5, "only the largest"),                                     # max where the sum belongs
    (0.3 + 0.5, "whole-town count forgotten"),
])
def test_session_spend_names_each_mistake(wrong, says):
    verdict = ex.check_session_spend(wrong)
    assert verdict.correct is False and says in verdict.message
    assert "0.7" not in verdict.message                            # never gives the answer away


def test_queries_bought_contract():
    assert_checker_contract(ex.check_queries_bought, dp.advanced_composition_max_k(1.0, 0.02, 1e-6), 1)


def _largest_k(fits):
    k = 0
    while fits(k + 1):
        k += 1
    return k


#: The exercise's own numbers: a total of 1, δ′ = 10⁻⁶, counts at ε = 0.02 (the chapter works ε = 0.01).
EPS = 0.02


@pytest.mark.parametrize("wrong, says", [
    (50, "basic composition"),
    (_largest_k(lambda k: math.sqrt(2 * k * LN) * EPS <= 1), "second term"),
    (_largest_k(lambda k: math.sqrt(2 * k * math.log10(1e6)) * EPS + k * EPS * math.expm1(EPS) <= 1), "log10"),
])
def test_queries_bought_names_each_mistake(wrong, says):
    verdict = ex.check_queries_bought(wrong)
    assert verdict.correct is False and says in verdict.message
    assert str(dp.advanced_composition_max_k(1.0, EPS, 1e-6)) not in verdict.message


def test_split_variance_contract():
    assert_checker_contract(ex.check_split_variance, 2 * 2.0**2 / 2, 3.0)


@pytest.mark.parametrize("wrong, says", [
    (2 * 2.0**2, "one answer at ε/2"),            # the averaging forgotten
    (2 * 2 * 2.0**2, "sum of the two"),           # the variance of the sum
    (2 * 1.0**2, "full ε"),                       # one answer at ε; also std of the average, or b² for 2b²
    (2 * 1.0**2 / 2, "scale Δf/ε for each answer"),
])
def test_split_variance_names_each_mistake(wrong, says):
    verdict = ex.check_split_variance(wrong)
    assert verdict.correct is False and says in verdict.message


def test_split_variance_names_a_standard_deviation_where_it_is_no_other_mistake_s_number():
    """At ε = 1 the average's standard deviation is 2, the variance of one answer at the full ε: a message for 2 that
    said "standard deviation" there would hand over the answer (its square); at ε = 3 the two differ."""
    verdict = ex.check_split_variance(2 / 3, epsilon=3.0)
    assert verdict.correct is False and "standard deviation" in verdict.message
    assert "standard deviation" not in ex.check_split_variance(2.0).message


# -- a learner's answers (the gaps of chapter 06's checkers): each named, at the chapter's numbers and a homework's

def _no_answer_in(verdict, name: str, **params) -> None:
    spec = EXERCISES[name]
    assert not gives_away(verdict.message, spec.expected(**params), spec.figures), verdict.message


@pytest.mark.parametrize("params", [{}, {"total": 0.5, "epsilon": 0.005, "delta_prime": 1e-5},
                                    {"total": 0.5, "epsilon": 0.002, "delta_prime": 1e-9}], ids=str)
def test_queries_bought_names_the_optimal_and_the_exact_counts(params):
    """The optimal composition theorem's count and the exact count of Laplace counts are right-minded answers to
    another question (a tighter rule than Theorem 3.20): named, not "not it"; one more than either is not."""
    values = {**EXERCISES["check_queries_bought"].defaults, **params}
    counts = releases_within(values["total"], values["epsilon"], values["delta_prime"])
    assert counts["advanced"] < counts["optimal"] < counts["exact"]
    for key, says in (("optimal", "optimal composition theorem"), ("exact", "exact accounting")):
        verdict = ex.check_queries_bought(counts[key], **params)
        assert verdict.correct is False and says in verdict.message and "Theorem 3.20 allows" in verdict.message
        _no_answer_in(verdict, "check_queries_bought", **params)
    assert "tighter" not in ex.check_queries_bought(counts["exact"] + 1, **params).message


def _simulated_variance(epsilon: float, n: int = 200_000) -> float:
    """The sample variance of n averages of two Lap(2/ε) answers (seeded)."""
    rng = np.random.default_rng(6)
    answers = rng.laplace(0.0, 2 / epsilon, size=(n, 2))
    return float(answers.mean(axis=1).var())


@pytest.mark.parametrize("epsilon", [1.0, 0.3, 2.5])
def test_split_variance_names_a_simulated_value_without_the_exact_one(epsilon):
    """A variance read off simulated averages is close to the exact one but not it at 3 figures: named as a
    simulation's, and the message shows no number the checker would take for the answer."""
    expected = EXERCISES["check_split_variance"].expected(epsilon=epsilon)
    for simulated in (_simulated_variance(epsilon), expected * 0.995, expected * 1.004, expected * 1.04):
        verdict = ex.check_split_variance(simulated, epsilon=epsilon)
        assert verdict.correct is False and "simulation" in verdict.message and "exact variance" in verdict.message
        _no_answer_in(verdict, "check_split_variance", epsilon=epsilon)
    assert "simulation" not in ex.check_split_variance(expected * 1.2, epsilon=epsilon).message
    early = ex.check_split_variance(float(f"{expected:.2g}"), epsilon=epsilon)     # rounded too early: told so only
    assert early.correct or (early.message.startswith("close:") and "simulation" not in early.message)


@pytest.mark.parametrize("params", [{}, {"k": 10, "total": 1.0, "delta_prime": 1e-5},
                                    {"k": 300, "total": 3.0, "delta_prime": 1e-9}], ids=str)
def test_promised_accuracy_s_right_message_compares_the_rule_with_the_other_one(params):
    values = {**EXERCISES["check_promised_accuracy"].defaults, **params}
    k, total, delta_prime = values["k"], values["total"], values["delta_prime"]
    basic, advanced = total / k, dp.advanced_composition_max_epsilon(total, k, delta_prime)
    verdict = ex.check_promised_accuracy(EXERCISES["check_promised_accuracy"].expected(**params), **params)
    assert verdict.correct is True
    compared = verdict.message.split("(against ", 1)[1].split(")", 1)[0]
    assert ("ε′/k" in compared) == (advanced > basic) and ("Theorem 3.20" in compared) == (advanced <= basic)
    assert verdict.message.count(f"{max(basic, advanced):.4g}") == 1


@pytest.mark.parametrize("params", [{}, {"k": 10, "total": 1.0, "delta_prime": 1e-5},
                                    {"k": 300, "total": 3.0, "delta_prime": 1e-9}], ids=str)
def test_promised_accuracy_names_the_normal_quantile(params):
    values = {**EXERCISES["check_promised_accuracy"].defaults, **params}
    k, total, delta_prime = values["k"], values["total"], values["delta_prime"]
    per_count = max(total / k, dp.advanced_composition_max_epsilon(total, k, delta_prime))
    z = NormalDist().inv_cdf(0.975)
    for wrong in (z / per_count, 1.96 / per_count, z * math.sqrt(2) / per_count):
        verdict = ex.check_promised_accuracy(float(f"{wrong:.4g}"), **params)
        assert verdict.correct is False and "normal" in verdict.message and "Fact 3.7" in verdict.message
        _no_answer_in(verdict, "check_promised_accuracy", **params)


PLAN_HOMEWORK = [{}, {"releases": 26, "people": 10_000, "accuracy": 50, "cap": 3},
                 {"releases": 260, "people": 1_000_000, "accuracy": 150, "cap": 1}]


@pytest.mark.parametrize("params", PLAN_HOMEWORK, ids=str)
def test_release_plan_names_sidak_one_count_s_epsilon_and_delta_one_over_n(params):
    values = {**EXERCISES["check_release_plan"].defaults, **params}
    k, n, alpha, cap = values["releases"], values["people"], values["accuracy"], values["cap"]
    plan = dp.plan_budget(n, k, alpha, sensitivity=cap, simultaneous=True)
    sidak = dp.plan_budget(n, k, alpha, confidence=0.95 ** (1 / k), sensitivity=cap).exact
    assert abs(sidak - plan.exact) > dp.exercises.tolerance(plan.exact, 3)       # a wrong answer at 3 figures
    wrong = {f"{sidak:.3g}": ("Šidák", "union bound"), f"{plan.per_release:.3g}": ("ε of one count",),
             f"{dp.exact_laplace_epsilon(k, plan.per_release, 1 / n):.3g}": ("δ = 1/n",)}
    for answer, says in wrong.items():
        verdict = planning.check_release_plan(float(answer), **params)
        assert verdict.correct is False and all(s in verdict.message for s in says), (answer, verdict.message)
        _no_answer_in(verdict, "check_release_plan", **params)


def test_chapter_06_s_checkers_never_say_beta():
    """β is chapter 05's symbol, not defined in chapter 06: its checkers say "failure probability"."""
    answers = [..., 0.123, 7.0, 1e6, 4.94, 0.139, 36.96, 142, 3.98, 70]
    for name in ("check_session_spend", "check_queries_bought", "check_split_variance", "check_promised_accuracy",
                 "check_release_plan"):
        spec = EXERCISES[name]
        for answer in answers + [spec.expected()] + [m.value for m in spec.mistakes()]:
            assert "β" not in spec.checker(answer).message, (name, answer)


def test_release_plan_s_prompt_asks_for_the_union_bound_and_the_chapter_shows_it():
    spec = EXERCISES["check_release_plan"]
    assert "union bound (Theorem 3.8)" in spec.prompt
    text = (ROOT / "sources" / "06_composition_and_budget.md").read_text(encoding="utf-8")
    assert f"**Exercise 5.** {spec.render()}" in text.splitlines()


@pytest.mark.parametrize("params", [{}, {"north": 0.1, "south": 0.15, "whole": 0.02},
                                    {"north": 0.7, "south": 0.55, "whole": 0.28}], ids=str)
def test_session_spend_names_a_percentage(params):
    expected = EXERCISES["check_session_spend"].expected(**params)
    verdict = ex.check_session_spend(100 * expected, **params)
    assert verdict.correct is False and "a percentage? give it as a number" in verdict.message
    _no_answer_in(verdict, "check_session_spend", **params)
