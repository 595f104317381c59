"""Checkers for chapter 06: composition, post-processing and the privacy budget."""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

from .._roots import bisect, integer
from ..composition import (
    PrivacyBudget,
    advanced_composition_max_epsilon,
    advanced_composition_max_k,
    optimal_composition,
)
from ..exact_composition import exact_laplace_epsilon
from ..laplace import laplace_scale
from ._base import Feedback, Mistake, as_number, compare, exercise, live_mistakes, named_anyway
from ._feedback import percentages

__all__ = ["check_promised_accuracy", "check_queries_bought", "check_session_spend", "check_split_variance"]


@exercise(prompt="A curator answers the number of smokers in the north district at ε = {north:g} and the same count "
                 "for the south district at ε = {south:g} (nobody lives in both), then the number of smokers in the "
                 "whole town at ε = {whole:g}. How much ε has the session spent? Give 3 significant figures.",
          homework={"north": (0.1, 0.2, 0.4, 0.5, 0.6, 0.7), "south": (0.15, 0.25, 0.35, 0.45, 0.55),
                    "whole": (0.02, 0.04, 0.05, 0.06, 0.08, 0.12, 0.16, 0.18, 0.22, 0.24, 0.28)}, figures=3)
def check_session_spend(answer, north: float = 0.3, south: float = 0.5, whole: float = 0.2) -> Feedback:
    """Ch. 06, exercise 1: a count of smokers in the north district at ε = 0.3, the same count in the
    south district at ε = 0.5 (disjoint people), then the count of all smokers at ε = 0.2: what has the
    session spent?"""
    budget = PrivacyBudget(10.0)
    budget.spend_parallel([north, south], label="smokers by district")
    budget.spend(whole, label="all smokers")
    expected = budget.spent_epsilon
    only_largest = ("that charges only the largest ε. Parallel composition applies to the two disjoint districts; the "
                    "count of the whole town asks about the same people again, so its ε adds on top (sequential "
                    "composition).")
    # the smaller district plus the whole town can give the same number as the largest ε alone (0.3 + 0.2 = 0.5)
    coincide = math.isclose(min(north, south) + whole, max(north, south, whole), rel_tol=1e-9)
    both = ("two mistakes give that number here: charging only the largest ε of the three, or adding the SMALLER "
            "district's ε to the whole town's. Parallel composition costs the largest ε of the disjoint districts, and "
            "the count of the whole town asks about the same people again, so its ε adds on top.")
    mistakes = [
        Mistake(north + south + whole, "that is sequential composition of all three (Theorem 3.16). The two "
                                       "districts are disjoint: nobody is in both, so they compose in parallel and "
                                       "cost the larger ε, not the sum.", name="sequential for parallel"),
        Mistake(max(north, south, whole), both if coincide else only_largest, name="parallel for sequential"),
        Mistake(north + south, "that is the two districts added up and the whole-town count forgotten: the "
                               "districts are disjoint (parallel: the larger ε), and the third query adds its own ε.",
                name="sequential for parallel"),
        Mistake(min(north, south) + whole, "parallel composition costs the LARGEST ε of the disjoint parts, not the "
                                           "smallest: the people of the costlier district lose that much.",
                name="the smallest part of a parallel release"),
        Mistake(max(north, south), "that is the two districts in parallel, with the whole-town count forgotten: it "
                                   "asks about the same people again, and its ε adds on top.",
                name="a release left out of the total"),
    ]
    return compare(answer, expected,
                   f"the districts are disjoint, so together they cost max({north:g}, {south:g}) = {max(north, south):g} "
                   f"(parallel composition); the count of everyone adds {whole:g} (Theorem 3.16): {expected:g}.",
                   "Disjoint parts cost the largest of their ε; answers about the same people add up.",
                   figures=3, mistakes=percentages(expected, mistakes, 3, "ε is a plain number, not a share of "
                                                                          "anything."))


@exercise(prompt="A total budget of ε′ = {total:g} with δ′ = {delta_prime:pow10} is to be spent on counts at ε = "
                 "{epsilon:g} each. How many counts does advanced composition (Theorem 3.20) allow? "
                 "Give a whole number.",
          homework={"total": (0.5, 1.5, 2.0, 3.0), "epsilon": (0.001, 0.002, 0.003, 0.005),
                    "delta_prime": (1e-5, 1e-7, 1e-8, 1e-9)})
def check_queries_bought(answer, total: float = 1.0, epsilon: float = 0.02, delta_prime: float = 1e-6) -> Feedback:
    """Ch. 06, exercise 2: with a total ε′ = 1 and δ′ = 1e-6, how many queries at ε = 0.02 does advanced
    composition (Theorem 3.20) allow? (Not the chapter's worked ε = 0.01, whose 337 it prints.)"""
    expected = advanced_composition_max_k(total, epsilon, delta_prime)
    basic = math.floor(total / epsilon * (1 + 1e-12))          # kε ≤ ε′, Theorem 3.16
    # √(2k ln(1/δ′))·ε ≤ ε′ alone, without Theorem 3.20's second term kε(e^ε − 1)
    first_term_only = math.floor(total**2 / (2 * math.log(1 / delta_prime) * epsilon**2))

    def largest(log):
        """The largest whole k with √(2k·log(1/δ′))·ε + kε(e^ε − 1) ≤ ε′, by bisection."""
        def fits(k):
            return math.sqrt(2 * k * log(1 / delta_prime)) * epsilon + k * epsilon * math.expm1(epsilon) <= total
        return bisect(fits, 0, 10 * basic * basic, split=integer)[0]

    mistakes = [
        Mistake(basic, "that is basic composition (Theorem 3.16: kε ≤ ε′). The exercise asks what advanced "
                       "composition (Theorem 3.20) allows, at the price of δ′.",
                name="basic composition where a δ′ buys more"),
        Mistake(first_term_only, "that solves the √(2k ln(1/δ′))·ε term alone. Theorem 3.20's ε′ has a second "
                                 "term, kε(e^ε − 1), which grows linearly in k.",
                name="Theorem 3.20's second term left out"),
        Mistake(largest(math.log10), "that uses log10. Theorem 3.20 has the natural logarithm, ln(1/δ′).",
                name="log10 for ln"),
        Mistake(expected + 1, "that rounds k* up: at that k the composed ε exceeds ε′. The number of queries is the largest whole "
                "k that still fits, so round the solution down.", name="a whole number rounded up"),
        Mistake(largest(lambda x: math.log(x * x)), "that uses ln(1/δ′²) (or 2·ln(1/δ′) under the root twice): "
                                                   "Theorem 3.20 has √(2k ln(1/δ′)).", name="ln(1/δ′) doubled"),
    ]
    value = as_number(answer)
    if isinstance(value, float) and not value.is_integer() and expected < value < expected + 1:
        return Feedback(False, f"{value:g} is not a whole number: the number of queries is the largest whole k "
                               "whose composed ε stays within ε′, so round your solution down.")
    hint = ("Theorem 3.20 bounds the composed ε′ of k mechanisms: find the largest whole k for which that bound "
            "stays within the total budget.")
    verdict = compare(answer, expected,
                      f"k = {expected}: √(2k ln(1/δ′))·ε + kε(e^ε − 1) ≤ {total:g} holds up to k = {expected}, "
                      f"against {basic} by basic composition.", hint, figures=None, mistakes=mistakes)
    if verdict.correct is not False or not verdict.message.endswith(hint) or not isinstance(value, float) \
            or not value.is_integer() or not expected < value < 10_000_000:
        return verdict
    # the tighter rules allow more: each is tried at the answer (is it the largest k that fits?), only for an answer
    # no mistake matched. The exact count is a little above the optimal one (its optimal total is within 0.3% of ε′ on
    # the homework), and its accountant costs a second at tens of thousands of releases (100,000 at most): tried only
    # where the optimal total at the answer is within 5% of ε′
    k = int(value)
    optimal = [optimal_composition(n, epsilon, delta_prime)[0] for n in (k, k + 1)]
    if optimal[0] <= total < optimal[1]:
        which = "the optimal composition theorem (Kairouz, Oh & Viswanath), exact for any ε-DP mechanisms"
    elif not total < optimal[0] <= 1.05 * total or k >= 100_000 or not (
            exact_laplace_epsilon(k, epsilon, delta_prime) <= total < exact_laplace_epsilon(k + 1, epsilon, delta_prime)):
        return verdict
    else:
        which = "the exact accounting of Laplace counts (their privacy loss distribution), which the chapter recommends"
    return named_anyway(verdict, answer, Mistake(k, _COUNT_TIGHTER.format(which=which),
                                                 name="a tighter accounting than asked"), None, hint)


#: What exercise 2 says to a count from an accounting tighter than Theorem 3.20, which it names.
_COUNT_TIGHTER = ("that is the count by {which}: a tighter rule than Theorem 3.20, and right for these counts, but the "
                  "exercise asks what Theorem 3.20 allows.")


#: Exercise 3's homework ε: 0.05, 0.1, …, 3 but 1 (the chapter's), 2 (where the variance 4/ε² is 1, its own square
#: root) and 1.95 (where the standard deviation is within two figures of the variance).
_SPLIT_EPSILONS = tuple(round(0.05 * i, 2) for i in range(1, 61) if i not in (20, 39, 40))


@exercise(prompt="A count is answered twice, at ε/2 each with ε = {epsilon:g}, and the two answers are averaged. What "
                 "is the variance of the average? Give 3 significant figures.",
          homework={"epsilon": _SPLIT_EPSILONS}, figures=3)
def check_split_variance(answer, epsilon: float = 1.0) -> Feedback:
    """Ch. 06, exercise 3: a count is answered twice at ε/2 each (ε = 1) and the two answers are
    averaged. What is the variance of the average?"""
    b = laplace_scale(1.0, epsilon / 2)             # each answer's scale, Δf/(ε/2)
    expected = 2 * b**2 / 2
    full = laplace_scale(1.0, epsilon)             # the scale at the full ε, Δf/ε
    mistakes = [
        Mistake(2 * b**2, "that is the variance of one answer at ε/2. The average of two independent answers has "
                          "half the variance of one.", name="averaging left out"),
        Mistake(2 * (2 * b**2), "that is the variance of the sum of the two answers. The average divides the sum "
                                "by 2, so its variance by 4.", name="averaging left out"),
        Mistake(2 * full**2, "that is the variance of one answer at the full ε (the same number also comes from "
                             "a variance divided by 4 where an average of two divides it by 2, or from b² halved). "
                             "Each answer here spends only ε/2: what does that do to its noise, and what does "
                             "averaging two independent answers do to a variance?", name="the budget not shared"),
        Mistake(2 * full**2 / 2, "that uses the scale Δf/ε for each answer, the scale at the full ε. Each answer "
                                 "spends only ε/2, so its scale is Δf/(ε/2).", name="the budget not shared"),
        Mistake(math.sqrt(expected), "that is a standard deviation. The question asks for the variance.",
                name="the wrong measure of spread"),
        Mistake(b, "that is the scale b of one answer's noise, not a variance.", name="the wrong measure of spread"),
    ]
    hint = ("Each answer at ε/2 has Laplace noise of scale Δf/(ε/2); what is the variance of Lap(b), and what does "
            "averaging two independent answers do to it?")
    verdict = compare(answer, expected,
                      f"each answer has noise Lap(2/ε) = Lap({b:g}), variance 2·{b:g}² = {2 * b**2:g}; the average of "
                      f"two independent ones has half that, {expected:g}: twice the variance {2 * full**2:g} of one "
                      "answer at ε.", hint, figures=3, mistakes=mistakes)
    value = as_number(answer)
    if not verdict.message.endswith(hint) or not isinstance(value, float) or \
            abs(value - expected) > _SIMULATED * expected:
        return verdict          # right, a named mistake, the answer rounded too early, or far from it
    # within a few percent, as the variance of some thousands of simulated averages is: named, the value not shown
    return named_anyway(verdict, answer, Mistake(value, "close to it, as a simulation would give: the exercise asks "
                                                        "for the exact variance (work it out from the variance of "
                                                        "Lap(b), not from draws).",
                                                 name="a simulated value for the exact one"), 3, hint)


#: How near the exact variance an answer of exercise 3 is called a simulation's (relative): the variance of
#: n Laplace draws has a relative standard error of √(5/n) (kurtosis 6), 2.2% at n = 10,000.
_SIMULATED = 0.05


@exercise(prompt="A statistics office will publish {k} counts about the same people from a total budget of ε′ = "
                 "{total:g} with δ′ = {delta_prime:pow10}, giving each count the same ε. It may account by basic "
                 "composition (Theorem 3.16) or by advanced composition (Theorem 3.20), whichever lets each count have "
                 "the larger ε. With that ε, what is the smallest error it can promise for each count at 95%: the α "
                 "with each count within ±α of the truth with probability 0.95 (Fact 3.7, Δf = 1)? Give 3 significant "
                 "figures.",
          homework={"k": (10, 20, 30, 50, 60, 80, 100, 150, 200, 300, 500), "total": (0.5, 1.0, 3.0, 5.0),
                    "delta_prime": (1e-5, 1e-7, 1e-9)}, figures=3)
def check_promised_accuracy(answer, k: int = 45, total: float = 2.0, delta_prime: float = 1e-6) -> Feedback:
    """Ch. 06, exercise 4 (a decision): 45 counts from a total of ε′ = 2 at δ′ = 10⁻⁶, each at the larger ε that basic
    (Theorem 3.16) or advanced (Theorem 3.20) composition allows: what ±α can each count promise at 95%?

    Fact 3.7: |Lap(1/ε)| ≥ α with probability e^(−αε), which is 5% at α = ln(20)/ε. The α of the tighter
    accountings the chapter also teaches, the optimal composition theorem (Kairouz, Oh & Viswanath 2015) and the
    exact total of Laplace answers (:func:`~dpteach.exact_laplace_epsilon`), are named: right for these releases,
    but not what the exercise asks."""
    basic = total / k                                                    # Theorem 3.16: kε ≤ ε′
    advanced = advanced_composition_max_epsilon(total, k, delta_prime)  # Theorem 3.20: ε′(k, ε, δ′) ≤ ε′
    per_count = max(basic, advanced)
    expected = math.log(20) / per_count
    which = "advanced composition (Theorem 3.20)" if advanced > basic else "basic composition, ε′/k"
    other = f"basic composition's ε′/k = {basic:.4g}" if advanced > basic else f"Theorem 3.20's {advanced:.4g}"
    mistakes = [
        Mistake(math.log(20) / basic, "that gives each count ε′/k, basic composition's share. With δ′ allowed, "
                                      "Theorem 3.20 holds too, and for this many counts it allows each a larger ε: "
                                      "take whichever accounting allows more.", name="one accounting, not the better of two"),
        Mistake(math.log(20) / advanced, "that uses Theorem 3.20's ε, which for this few counts is smaller than ε′/k. "
                                         "Both theorems hold: take the larger ε.",
                name="one accounting, not the better of two"),
        Mistake(math.log10(20) / per_count, "that uses log10. Fact 3.7's e^(−t) is undone by the natural logarithm.",
                name="log10 for ln"),
        Mistake(math.log(10) / per_count, "that is one tail, ½e^(−t) = 5%. Fact 3.7's e^(−t) already counts both "
                                          "sides, Y ≥ α and Y ≤ −α.", name="the two sides miscounted"),
        Mistake(math.log(40) / per_count, "that splits the 5% between the two tails and then uses the two-sided tail "
                                          "for each: Fact 3.7's e^(−t) is already both sides together.",
                name="the two sides miscounted"),
        Mistake(math.log(20 * k) / per_count, "that holds all the counts at once (Theorem 3.8's union bound). The "
                                              "question asks for each count on its own.",
                name="all the counts at once for each one"),
        Mistake(_NORMAL_95 / per_count, f"that uses {_NORMAL_95:.3g}, the normal distribution's 95% quantile, times "
                                        "the scale: Laplace noise is not normal, and its tail is Fact 3.7's e^(−t).",
                name="a normal quantile for Laplace's tail"),
        Mistake(_NORMAL_95 * math.sqrt(2) / per_count, f"that is {_NORMAL_95:.3g} standard deviations, the normal "
                                                       "distribution's 95% interval: Laplace noise is not normal, and "
                                                       "its tail is Fact 3.7's e^(−t).",
                name="a normal quantile for Laplace's tail"),
        Mistake(1 / per_count, "that is the mean absolute error b = 1/ε, not a bound that holds with probability 95%.",
                name="the wrong measure of spread"),
        Mistake(math.sqrt(2) / per_count, "that is the standard deviation √2·b, not a bound that holds with "
                                          "probability 95%.", name="the wrong measure of spread"),
        Mistake(math.log(20), "that is t in Pr[|Y| ≥ t·b] = e^(−t), in units of the scale: multiply by b = Δf/ε.",
                name="÷ε forgotten"),
        Mistake(math.log(20) * per_count, "that multiplies by ε; the scale is b = Δf/ε, so the bound divides by ε.",
                name="×ε for ÷ε"),
        Mistake(math.log(1 / 0.95) / per_count, "that uses 95% where the failure probability 5% belongs: "
                                                "e^(−t) = 0.05.", name="the complementary event"),
        Mistake(per_count, "that is the ε each count gets; the question asks for the error it allows, in counts.",
                name="a scale for ε, or ε for a scale"),
    ]
    # the optimal theorem is basic composition's kε for a few releases: named only where it differs from the answer
    mistakes += live_mistakes(expected, [Mistake(math.log(20) / _optimal_share(k, total, delta_prime), _TIGHTER.format(
        which="the optimal composition theorem (Kairouz, Oh & Viswanath), exact for any ε-DP mechanisms"),
        name="a tighter accounting than asked")], 3)
    hint = ("Find the largest ε per count that each theorem allows within ε′, take the larger, and turn it into the "
            "error that Lap(1/ε) exceeds with probability 5% (Fact 3.7).")
    verdict = compare(answer, expected,
                      f"{which} allows each count ε = {per_count:.4g} (against {other}); then |Lap(1/ε)| ≥ α with "
                      f"probability e^(−αε) = 5% at α = ln(20)/ε = {expected:.3g}.", hint, figures=3, mistakes=mistakes)
    if verdict.correct is not False or not verdict.message.endswith(hint):
        return verdict
    # the exact accounting costs a second per bisection at k = 500: computed only for an answer no mistake matched
    exact = Mistake(math.log(20) / _exact_share(k, total, delta_prime), _TIGHTER.format(
        which="the exact accounting of Laplace answers (their privacy loss distribution), which the chapter "
              "recommends"), name="a tighter accounting than asked")
    return named_anyway(verdict, answer, exact, 3, hint)


#: The normal distribution's two-sided 95% quantile, 1.96: Gaussian noise's, not Laplace's.
_NORMAL_95 = NormalDist().inv_cdf(0.975)

#: What exercise 4 says to an α from an accounting tighter than the two theorems it names.
_TIGHTER = ("that uses {which}: it allows each count a larger ε, and for these releases it holds, but the exercise "
            "asks which of Theorems 3.16 and 3.20 allows more, and the error that theorem's ε promises.")


@functools.lru_cache(maxsize=256)
def _optimal_share(k: int, total: float, delta_prime: float) -> float:
    """The largest ε per release whose k-fold composition is within ``total`` at δ′ by the optimal composition
    theorem (Kairouz, Oh & Viswanath 2015, Theorem 3.3), by bisection to 10⁻⁷ relative."""
    return bisect(lambda e: optimal_composition(k, e, delta_prime)[0] <= total, total / k, 10 * total / k,
                  done=lambda lo, hi: hi - lo < 1e-7 * lo)[0]


@functools.lru_cache(maxsize=256)
def _exact_share(k: int, total: float, delta_prime: float) -> float:
    """The largest ε per Lap(1/ε) release whose k-fold privacy loss distribution has ε(δ′) ≤ ``total``
    (:func:`~dpteach.exact_laplace_epsilon`), by bisection to 10⁻⁷ relative."""
    return bisect(lambda e: exact_laplace_epsilon(k, e, delta_prime) <= total, total / k, 10 * total / k,
                  done=lambda lo, hi: hi - lo < 1e-7 * lo)[0]
