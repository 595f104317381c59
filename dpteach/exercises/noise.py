"""Chapter 09's checkers: noise on a computer."""

from __future__ import annotations

import math

from ..discrete import discrete_laplace_scale, discrete_laplace_variance
from ._base import Feedback, Mistake, compare, exercise

__all__ = ["check_discrete_laplace_variance", "check_audit_epsilon"]


#: Exercise 1's homework ε: 0.45, 0.55, …, 3 but 0.5 (the chapter's), 1 (where q = e^(−ε/Δf) = e^(−Δf/ε)) and 1.3
#: (where the variance is near 1, its own square root). Below 0.45 the discrete and the continuous variances agree
#: to two figures.
_DISCRETE_EPSILONS = tuple(round(0.05 * i, 2) for i in range(9, 61) if i not in (10, 20, 26))


@exercise(prompt="A count (Δf = 1) is released with the discrete Laplace mechanism at ε = {epsilon:g}. What is the "
                 "variance of its noise? Give 3 significant figures.",
          homework={"epsilon": _DISCRETE_EPSILONS}, figures=3)
def check_discrete_laplace_variance(answer, epsilon: float = 0.5) -> Feedback:
    """Ch. 09, exercise 1: the variance of the discrete Laplace noise on a count (Δf = 1) at ε = 0.5."""
    scale = discrete_laplace_scale(1, epsilon)
    expected = discrete_laplace_variance(scale)
    q = math.exp(-1 / float(scale))
    wrong_q = math.exp(-1 / epsilon)                          # q = e^(−Δf/ε) instead of e^(−ε/Δf)
    mistakes = [
        Mistake(2 * float(scale) ** 2, "that is the continuous Laplace's variance 2(Δf/ε)². The discrete "
                                       "Laplace's variance is a little less.",
                name="the continuous Laplace for the discrete"),
        Mistake(math.sqrt(expected), "that is the standard deviation. The question asks for the variance.",
                name="the wrong measure of spread"),
        Mistake(q / (1 - q) ** 2, "the factor 2 is missing: the noise is two-sided.",
                name="the two sides miscounted"),
        Mistake(2 * wrong_q / (1 - wrong_q) ** 2, "that uses q = e^(−Δf/ε). The ratio is q = e^(−ε/Δf).",
                name="Δf/ε upside down"),
        Mistake(2 * q / (1 - q), "the square is missing: (1 − q) is squared in the "
                                           "denominator.", name="a square left out"),
    ]
    return compare(answer, expected,
                   f"q = e^(−ε/Δf) = {q:.4f}, so 2q/(1 − q)² = {expected:.4f}: a little below the continuous "
                   f"Laplace's 2(Δf/ε)² = {2 * float(scale) ** 2:g}.",
                   "The discrete Laplace is a two-sided geometric with ratio q = e^(−ε/Δf): sum k²·Pr[Y = k] over "
                   "the integers, or use the chapter's formula for its variance.", figures=3, mistakes=mistakes)


@exercise(prompt="An audit of a claim with δ = {delta:g} finds, for one event S, the lower bound L_x(S) = {lower:.2f} on "
                 "Pr[M(x) ∈ S] and the upper bound U_y(S) = {upper:.2f} on Pr[M(y) ∈ S]. What is the largest ε this "
                 "event proves violated? Give 4 significant figures.",
          homework={"lower": (0.2, 0.25, 0.35, 0.4, 0.45, 0.5), "upper": (0.04, 0.05, 0.06, 0.08, 0.1, 0.12),
                    "delta": (0.005, 0.02, 0.03)}, figures=4)
def check_audit_epsilon(answer, lower: float = 0.30, upper: float = 0.09, delta: float = 0.01) -> Feedback:
    """Ch. 09, exercise 2: the largest ε an audit proves violated from L_x(S) = 0.30, U_y(S) = 0.09, δ = 0.01."""
    expected = math.log((lower - delta) / upper)
    mistakes = [
        Mistake(math.log(lower / upper), "δ is forgotten. (ε, δ)-DP allows L_x ≤ e^ε·U_y + δ: subtract δ first.",
                name="δ left out of (ε, δ)"),
        Mistake(math.log((lower + delta) / upper), "δ is added. The violation is L_x > e^ε·U_y + δ: subtract δ "
                                                   "from L_x.", name="δ in the wrong place"),
        Mistake(math.log(lower / (upper + delta)), "δ is added to U_y. It sits outside the factor e^ε: "
                                                   "L_x > e^ε·U_y + δ.", name="δ in the wrong place"),
        Mistake((lower - delta) / upper, "that is the ratio bound e^ε, not ε itself.",
                name="a ratio for its logarithm"),
        Mistake(math.log(lower / upper) - delta, "δ is subtracted from ε. δ sits beside the probabilities, "
                                                 "L_x ≤ e^ε·U_y + δ, not in the exponent.",
                name="δ in the wrong place"),
        Mistake(math.log10((lower - delta) / upper), "that uses log10. ε is a natural logarithm.",
                name="log10 for ln"),
        Mistake(math.log(upper / (lower - delta)), "the ratio is upside down: (L_x − δ)/U_y, the lower bound on "
                                                   "x over the upper bound on y.",
                name="the audit's ratio upside down"),
    ]
    return compare(answer, expected,
                   f"L_x > e^ε′·U_y + δ holds for every ε′ < ln((L_x − δ)/U_y) = ln({lower - delta:.2f}/{upper:g}) "
                   f"= {expected:.4f}: a claim of ε = 1 is refuted, one of ε = 1.2 is not.",
                   "(ε, δ)-DP allows L_x ≤ e^ε·U_y + δ: find the ε at which this event breaks that.", figures=4,
                   mistakes=mistakes)
