"""Checkers for chapter 07: private selection."""

from __future__ import annotations

import math

from ..selection import exponential_mechanism_probabilities, report_noisy_max_probabilities
from ..threshold import above_threshold_accuracy
from ._base import Feedback, Mistake, compare

__all__ = ["check_above_threshold_alpha", "check_exponential_probability", "check_noisy_max_upset"]


def check_noisy_max_upset(answer, counts=(10, 8), epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 1: Report Noisy Max on two counts, 10 and 8, at ε = 0.5: the probability that it
    returns the smaller one."""
    expected = float(report_noisy_max_probabilities(list(counts), epsilon)[1])
    b, d = 1 / epsilon, counts[0] - counts[1]
    mistakes = [
        Mistake(1 - expected, "that is the probability that the larger count wins. The question asks for the "
                              "smaller one."),
        Mistake(0.25 * math.exp(-d / epsilon) * (2 + d / epsilon),
                "that uses b = ε. Report Noisy Max adds Lap(1/ε): the scale is b = 1/ε."),
        Mistake(0.5 * math.exp(-d / b), "that is Pr[one Lap(b) noise exceeds d]: only one count's noise. Both "
                                        "counts get independent noise, and it is their difference that must "
                                        "exceed d."),
        Mistake(0.5 * math.exp(-d / (2 * b)), "that treats the difference of the two noises as Lap(2b). The "
                                              "difference of two independent Lap(b) is not Laplace: integrate."),
    ]
    return compare(answer, expected,
                   f"with b = 1/ε = {b:g} and d = {d}: ¼·e^(−d/b)·(2 + d/b) = {expected:.4f}.",
                   "The smaller count wins when its noise beats the other's by more than d = 2. Integrate, or use "
                   "dp.report_noisy_max_probabilities.", rel=1e-3, mistakes=mistakes)


def check_exponential_probability(answer, utilities=(47, 43, 31, 22, 12), sensitivity: float = 2.0,
                                  epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 2: the venue scores 47, 43, 31, 22, 12 (Δu = 2) at ε = 0.5: the probability that the
    exponential mechanism chooses the second venue (score 43)."""
    u = list(utilities)
    expected = float(exponential_mechanism_probabilities(u, sensitivity, epsilon)[1])
    mistakes = [
        Mistake(float(exponential_mechanism_probabilities(u, sensitivity / 2, epsilon)[1]),
                "that uses exp(ε·u/Δu) (or exp(ε·u/2)): ε where ε/2 belongs. Definition 3.4 divides by 2Δu: "
                "exp(ε·u/(2Δu)) with Δu = 2."),
        Mistake(float(exponential_mechanism_probabilities(u, 0.5, epsilon)[1]),
                "that uses exp(ε·u): Δu is missing. Definition 3.4 has exp(ε·u/(2Δu)) with Δu = 2."),
        Mistake(u[1] / sum(u), "that is the score's share of the total. The exponential mechanism weights each "
                               "venue by exp(ε·u/(2Δu)), not by u."),
        Mistake(float(exponential_mechanism_probabilities(u, sensitivity, epsilon)[0]),
                "that is the probability of the first venue (score 47). The question asks for the second."),
        Mistake(1 / len(u), "that is the uniform choice, the limit ε → 0. At ε = 0.5 the scores matter."),
    ]
    return compare(answer, expected,
                   f"exp(ε·43/(2Δu)) divided by the sum of exp(ε·u/(2Δu)) over the five venues = {expected:.4f}.",
                   "Pr[r] = exp(ε·u(r)/(2Δu)) / Σ exp(ε·u(r′)/(2Δu)).", rel=1e-3, mistakes=mistakes)


def check_above_threshold_alpha(answer, k: int = 1_000, beta: float = 0.05, epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 3: Theorem 3.24's α for AboveThreshold on k = 1,000 queries, β = 0.05, ε = 0.5."""
    expected = above_threshold_accuracy(k, beta, epsilon)
    mistakes = [
        Mistake(8 * (math.log10(k) + math.log10(2 / beta)) / epsilon,
                "that uses log10. Theorem 3.24 has natural logarithms."),
        Mistake((math.log(k) + math.log(2 / beta)) / epsilon, "the factor 8 of Theorem 3.24 is missing."),
        Mistake(8 * (math.log(k) + math.log(1 / beta)) / epsilon, "that uses ln(1/β). Theorem 3.24 has ln(2/β)."),
        Mistake(8 * (math.log(k) + math.log(2 / beta)) * epsilon, "that multiplies by ε. α is a distance in "
                                                                   "counts: it divides by ε."),
        Mistake(8 * (k + math.log(2 / beta)) / epsilon, "that uses k where Theorem 3.24 has ln k."),
    ]
    return compare(answer, expected,
                   f"α = 8(ln k + ln(2/β))/ε = 8(ln {k:,} + ln {2 / beta:g})/{epsilon:g} = {expected:.3f}: it grows "
                   "with ln k, not with k.",
                   "Theorem 3.24: α = 8(ln k + ln(2/β))/ε.", rel=1e-3, mistakes=mistakes)
