"""Checkers for chapter 11: the reconstruction attack and the budget it forces."""

from __future__ import annotations

import math

from ._base import Feedback, Mistake, compare, exercise

__all__ = ["check_reconstruction_noise"]


@exercise(prompt="A database of n = {n:,} secret bits answers m = {multiple}·n random subset-sum queries (each of "
                 "sensitivity 1) with Laplace noise, so that all m answers together are ε-DP with ε = {total:g} "
                 "(basic composition, the budget split evenly). What Laplace scale b must each answer have? "
                 "Give 3 significant figures.",
          homework={"n": (100, 200, 300, 600, 700), "multiple": (3, 5, 7, 8, 10), "total": (0.75, 2.0, 2.5, 4.0, 5.0)},
          figures=3)
def check_reconstruction_noise(answer, n: int = 400, multiple: int = 4, total: float = 1.0) -> Feedback:
    """Ch. 11, exercise 1: the Laplace scale per answer that m subset sums need for a total ε (basic composition)."""
    m = multiple * n
    expected = m / total                               # each answer gets ε/m, so b = Δ/(ε/m) = m/ε
    mistakes = [
        Mistake(1 / total, "that is the noise for ONE answer at the whole ε. The m answers share the budget: "
                           "each gets ε/m (Theorem 3.16), and its Laplace scale is Δ divided by that share.",
                name="the budget not shared"),
        Mistake(math.sqrt(m) / total, "that splits the budget as if the answers composed like √m (advanced "
                                      "composition). The question asks for pure ε-DP by basic composition: the "
                                      "shares add up to ε exactly.",
                name="advanced composition where only basic holds"),
        Mistake(math.sqrt(n), "that is √n, the noise level below which the attack succeeds; it is not what the "
                              "budget requires. Split ε over the m answers and calibrate each.",
                name="the attack's threshold for the budget's noise"),
        Mistake(total / m, "that is the ε each answer gets, not its noise. The Laplace scale is Δ divided by "
                           "the answer's ε.", name="a scale for ε, or ε for a scale"),
        Mistake(n / total, "that splits the budget over the n bits instead of the m answers: every answer "
                           "spends its share, and there are m of them.",
                name="the budget shared over the wrong things"),
    ]
    return compare(answer, expected,
                   f"each of the m = {m:,} answers gets ε/m = {total / m:.3g}, so b = m/ε = {expected:,.4g}: "
                   f"{expected / math.sqrt(n):,.3g} times √n = {math.sqrt(n):.3g}, far beyond what the attack can "
                   "get through.",
                   "Basic composition: m answers at ε/m each cost ε in total; the Laplace mechanism with "
                   "sensitivity Δ at privacy ε' has scale Δ/ε'.", figures=3, mistakes=mistakes)
