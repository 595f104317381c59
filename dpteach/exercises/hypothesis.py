"""Checkers for chapter 11: privacy as hypothesis testing, membership against attribute, group privacy."""

from __future__ import annotations

import math

from ..hypothesis import best_success, dp_tradeoff_limit, laplace_tradeoff
from ._base import Feedback, Mistake, compare, exercise

__all__ = ["check_attribute_success", "check_laplace_best_beta"]


@exercise(prompt="A count is released with the Laplace mechanism, noise Lap(1/ε) with ε = {epsilon:g}. An attacker "
                 "tests \"the data is x\" against the neighbour \"the data is y\", whose count is one higher, and "
                 "accepts a type-I error α = {alpha:g} (saying y when it is x). What is the smallest type-II error β "
                 "any test can reach against this mechanism? Give 3 significant figures.",
          homework={"epsilon": (0.5, 2.0), "alpha": (0.35, 0.4)}, figures=3)
def check_laplace_best_beta(answer, epsilon: float = 1.0, alpha: float = 0.3) -> Feedback:
    """Ch. 11, exercise 2: the Laplace mechanism's exact trade-off curve at one α."""
    expected = laplace_tradeoff(alpha, epsilon)
    mistakes = [
        Mistake(dp_tradeoff_limit(alpha, epsilon),
                "that is the limit for EVERY ε-DP mechanism (the region α + e^ε·β ≥ 1, e^ε·α + β ≥ 1). The Laplace "
                "mechanism's own curve lies strictly above it between its two straight ends: find the best "
                "threshold test for this α."),
        Mistake(1 - math.exp(epsilon) * alpha,
                "that is the straight end β = 1 − e^ε·α, which holds only for α ≤ e^(−ε)/2, where the threshold is "
                "above the larger count. At this α the threshold lies between the two counts."),
        Mistake(1 - alpha, "that is a coin toss (β = 1 − α): what a test can do against ε = 0. The release does "
                           "tell the attacker something."),
        Mistake(math.exp(epsilon) / (4 * alpha), "the middle of the curve is e^(−ε)/(4α): the exponent's sign is "
                                                 "flipped."),
    ]
    if alpha <= math.exp(-epsilon) / 2:
        branch = "α ≤ e^(−ε)/2, so the threshold lies above the larger count and β = 1 − e^ε·α"
    elif alpha <= 0.5:
        branch = "e^(−ε)/2 ≤ α ≤ ½, so the threshold lies between the two counts and β = e^(−ε)/(4α)"
    else:
        branch = "α ≥ ½, so the threshold lies below the smaller count and β = e^(−ε)(1 − α)"
    return compare(answer, expected,
                   f"the best test says y when the output is at least t with Pr[Lap(1/ε) ≥ t] = α; here "
                   f"{branch} = {expected:.3g} (the ε-DP limit is {dp_tradeoff_limit(alpha, epsilon):.3g}).",
                   "Find the threshold t with Pr[Lap(1/ε) ≥ t] = α, then β = Pr[1 + Lap(1/ε) < t].",
                   figures=3, mistakes=mistakes)


@exercise(prompt="A mechanism is ε-DP with ε = {epsilon:g} for neighbours that add or remove one person. An "
                 "attacker knows Alice is in the data and that her record says a or b, each with prior probability "
                 "½. What is the highest probability of guessing her value right that the guarantee alone allows "
                 "(for a generic ε-DP mechanism)? Give 3 significant figures.",
          homework={"epsilon": (0.3, 0.75, 1.5)}, figures=3)
def check_attribute_success(answer, epsilon: float = 0.5) -> Feedback:
    """Ch. 11, exercise 3: an attribute is a replacement, two add/remove steps, so protected at 2ε."""
    expected = best_success(2 * epsilon)
    mistakes = [
        Mistake(best_success(epsilon), "that is the limit for membership (is Alice in?), at e^ε. Changing Alice's "
                                       "record from a to b removes one person and adds another: two neighbour "
                                       "steps."),
        Mistake(math.exp(2 * epsilon), "that is the factor by which the odds can move, not a probability. Turn "
                                       "the odds 1:1 times that factor into a probability."),
        Mistake(math.exp(epsilon), "that is e^ε, an odds factor (and at one step): the question asks for a "
                                   "probability, for a record that changes, not a person who leaves."),
        Mistake(1 - 0.5 * math.exp(-epsilon), "that is the best test against the Laplace mechanism on a count, a "
                                              "particular mechanism; the question asks what the guarantee alone "
                                              "allows, for any ε-DP mechanism."),
        Mistake(best_success(epsilon / 2), "a replacement is two add/remove steps, so the ε doubles, it does not "
                                           "halve."),
    ]
    return compare(answer, expected,
                   f"a change of attribute is one removal and one addition, so the guarantee gives 2ε = "
                   f"{2 * epsilon:g}: odds move by at most e^(2ε), and the best guess is right with probability "
                   f"e^(2ε)/(1 + e^(2ε)) = {expected:.3g}.",
                   "From a 1:1 prior, ε-DP lets the odds move by at most e^ε per add/remove step; count the steps "
                   "between 'Alice has a' and 'Alice has b'.", figures=3, mistakes=mistakes)
