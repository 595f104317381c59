"""Checkers for chapter 11: why a broken sparse-vector variant is not ε-DP."""

from __future__ import annotations

import math

from ._base import Feedback, Mistake, compare, exercise

__all__ = ["check_unnoised_threshold_ratio"]


@exercise(prompt="AboveThreshold without threshold noise compares each answer plus Lap(4/ε) with the bare "
                 "threshold T = 0 and stops at the first answer above it; ε = {epsilon:g}. On x every query "
                 "answers 0; on the neighbour y every query answers 1. By what factor is the output \"the first "
                 "{j} answers are all below\" more likely on x than on y? Give 3 significant figures.",
          homework={"epsilon": (0.2, 0.25, 0.3, 0.4, 0.6, 0.75, 1.25, 1.5), "j": (5, 6, 7, 9, 10, 11, 12, 13, 15)},
          figures=3)
def check_unnoised_threshold_ratio(answer, epsilon: float = 1.0, j: int = 8) -> Feedback:
    """Ch. 11, exercise 5: without threshold noise each ⊥ leaks ε/4 on its own, so j of them leak jε/4."""
    expected = math.exp(j * epsilon / 4)          # (Pr[Lap(4/ε) < 0] / Pr[Lap(4/ε) < −1])^j = (e^{ε/4})^j
    mistakes = [
        Mistake(math.exp(epsilon), "that is the claimed e^ε. The claim is what the audit tests: compute the "
                                   "probability of the event on each side instead.",
                name="the claim for the measurement"),
        Mistake(math.exp(epsilon / 4), "that is one query's factor. With no common threshold noise the j "
                                       "comparisons are independent, and their factors multiply.",
                name="one query's factor for all of them"),
        Mistake(j * epsilon / 4, "that is the privacy loss, the logarithm of the factor: the question asks for the "
                                 "factor itself.", name="a logarithm for the ratio"),
        Mistake(math.exp(j * epsilon / 2), "each query's noise is Lap(4/ε), so one comparison moves the odds by "
                                           "e^(ε/4), not e^(ε/2).", name="the query noise misread"),
        Mistake(math.exp(j * epsilon), "each query's noise is Lap(4/ε), not Lap(1/ε): one comparison moves the "
                                       "odds by e^(ε/4).", name="the query noise misread"),
    ]
    return compare(answer, expected,
                   f"each answer is below 0 with probability ½ on x and ½·e^(−ε/4) on y (the noise must reach below −1); "
                   f"the {j} comparisons are independent, so the ratio is e^(jε/4) = {expected:.3g}, beyond the "
                   f"claimed e^ε = {math.exp(epsilon):.3g}.",
                   "Without threshold noise the comparisons are independent: compute Pr[Lap(4/ε) < 0] and "
                   "Pr[1 + Lap(4/ε) < 0] and multiply over the j queries.", figures=3, mistakes=mistakes)
