"""Checkers for chapter 07: private selection."""

from __future__ import annotations

import math

from ..selection import exponential_mechanism_probabilities, report_noisy_max_probabilities
from ..threshold import above_threshold_accuracy
from ._base import Feedback, Mistake, compare, exercise

__all__ = ["check_above_threshold_alpha", "check_exponential_probability", "check_noisy_max_upset"]


@exercise(prompt="Report Noisy Max is run on two counts, {counts[0]} and {counts[1]}, at ε = {epsilon:g}. What is the "
                 "probability that it returns the smaller one? (Section *Which first name is most common?* gives the "
                 "integral, its closed form for two counts, and `dp.report_noisy_max_probabilities`.) Give 3 "
                 "significant figures.",
          homework={"counts": ((10, 7), (20, 16), (15, 10), (30, 24), (25, 18)),
                    "epsilon": (0.15, 0.45, 0.55, 0.6, 0.75, 0.8, 0.85, 0.9, 1.1, 1.2, 1.25, 1.3, 1.4)}, figures=3)
def check_noisy_max_upset(answer, counts=(10, 8), epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 1: Report Noisy Max on two counts, 10 and 8, at ε = 0.5: the probability that it
    returns the smaller one."""
    expected = float(report_noisy_max_probabilities(list(counts), epsilon)[1])
    b, d = 1 / epsilon, counts[0] - counts[1]
    mistakes = [
        Mistake(1 - expected, "the question asks for the probability that the SMALLER count is returned.",
                name="the other count's chance"),
        Mistake(0.25 * math.exp(-d / epsilon) * (2 + d / epsilon),
                "that uses b = ε. Report Noisy Max adds Lap(1/ε): the scale is b = 1/ε.", name="Δf/ε upside down"),
        Mistake(0.5 * math.exp(-d / b), "that is Pr[one Lap(b) noise exceeds d]: only one count's noise. Both "
                                        "counts get independent noise, and it is their difference that must "
                                        "exceed d.", name="one noise for the difference of two"),
        Mistake(0.5 * math.exp(-d / (2 * b)), "that treats the difference of the two noises as Lap(2b). The "
                                              "difference of two independent Lap(b) is not Laplace: integrate.",
                name="one noise for the difference of two"),
        Mistake(math.exp(-epsilon * d), "e^(−εd) is a bound on a ratio of probabilities (ε-DP), not the probability "
                                        "itself: the smaller count wins when the difference of the two noises "
                                        "exceeds d, and that needs an integral over both noises.",
                name="a ratio bound for a probability"),
        Mistake(math.exp(-epsilon * d / 2), "e^(−εd/2) is a ratio bound, not this probability: the smaller count "
                                            "wins when the difference of the two independent noises exceeds d.",
                name="a ratio bound for a probability"),
        Mistake(0.25 * math.exp(-d / b) * (2 + d / b) * 2, "that counts the event twice: the smaller count wins "
                                                          "only when its noise beats the other's by more than d, "
                                                          "one direction.", name="the event counted twice"),
    ]
    return compare(answer, expected,
                   f"with b = 1/ε = {b:g} and d = {d}: ¼·e^(−d/b)·(2 + d/b) = {expected:.4f}.",
                   "The smaller count wins when its noise beats the other's by more than the gap d between the "
                   "counts: integrate over the two independent Lap(1/ε) noises.", figures=3, mistakes=mistakes)


@exercise(prompt="Five venues have scores {utilities[0]}, {utilities[1]}, {utilities[2]}, {utilities[3]} and "
                 "{utilities[4]}, with Δu = {sensitivity:g}. At ε = {epsilon:g}, what is the probability that the "
                 "exponential mechanism chooses the second venue (score {utilities[1]})? Give 3 significant figures.",
          homework={"utilities": ((50, 44, 30, 25, 10), (40, 36, 35, 20, 5), (28, 25, 20, 14, 6), (45, 42, 27, 18, 9)),
                    "sensitivity": (3.0, 4.0, 5.0), "epsilon": (0.1, 0.25, 0.75, 1.0, 2.0)}, figures=3)
def check_exponential_probability(answer, utilities=(47, 43, 31, 22, 12), sensitivity: float = 2.0,
                                  epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 2: the venue scores 47, 43, 31, 22, 12 (Δu = 2) at ε = 0.5: the probability that the
    exponential mechanism chooses the second venue (score 43)."""
    u = list(utilities)
    expected = float(exponential_mechanism_probabilities(u, sensitivity, epsilon)[1])
    weight = math.exp(epsilon * u[1] / (2 * sensitivity))
    mistakes = [
        Mistake(float(exponential_mechanism_probabilities(u, sensitivity / 2, epsilon)[1]),
                "that uses exp(ε·u/Δu) (or exp(ε·u/2)): ε where ε/2 belongs. Definition 3.4 divides by 2Δu.",
                name="the exponential mechanism's 2Δu left out"),
        Mistake(float(exponential_mechanism_probabilities(u, 0.5, epsilon)[1]),
                "that uses exp(ε·u): Δu is missing. Definition 3.4 divides ε·u by 2Δu.",
                name="the exponential mechanism's 2Δu left out"),
        Mistake(u[1] / sum(u), "that is the score's share of the total. The exponential mechanism weights each "
                               "venue by exp(ε·u/(2Δu)), not by u.", name="weights not normalised"),
        Mistake(float(exponential_mechanism_probabilities(u, sensitivity, epsilon)[0]),
                "that is the probability of the first venue. The question asks for the second.",
                name="another choice's probability"),
        Mistake(1 / len(u), "that is the uniform choice, the limit ε → 0. At this ε the scores matter.",
                name="the uniform choice"),
        Mistake(weight, "that is the venue's weight exp(ε·u/(2Δu)), not a probability: divide it by the sum of "
                        "all the venues' weights.", name="weights not normalised"),
        Mistake(math.exp(epsilon * (u[1] - max(u)) / (2 * sensitivity)),
                "that is the venue's weight relative to the best venue's. A probability divides by the sum of all "
                "five weights.", name="weights not normalised"),
    ]
    return compare(answer, expected,
                   f"exp(ε·{u[1]}/(2Δu)) divided by the sum of exp(ε·u/(2Δu)) over the five venues = {expected:.4f}.",
                   "Definition 3.4: each venue's weight grows exponentially with its score, with ε and Δu in the "
                   "exponent; a probability is a weight over the sum of the weights.", figures=3, mistakes=mistakes)


@exercise(prompt="AboveThreshold runs over k = {k:,} queries at ε = {epsilon:g}. What α does Theorem 3.24 give for "
                 "β = {beta:g}? Give 3 significant figures.",
          homework={"k": (100, 200, 500, 2_000, 5_000, 10_000), "beta": (0.01, 0.02, 0.1),
                    "epsilon": (0.25, 0.75, 1.5, 2.0)}, figures=3)
def check_above_threshold_alpha(answer, k: int = 1_000, beta: float = 0.05, epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 3: Theorem 3.24's α for AboveThreshold on k = 1,000 queries, β = 0.05, ε = 0.5."""
    expected = above_threshold_accuracy(k, beta, epsilon)
    mistakes = [
        Mistake(8 * (math.log10(k) + math.log10(2 / beta)) / epsilon,
                "that uses log10. Theorem 3.24 has natural logarithms.", name="log10 for ln"),
        Mistake((math.log(k) + math.log(2 / beta)) / epsilon, "the factor 8 of Theorem 3.24 is missing.",
                name="Theorem 3.24 miscopied"),
        Mistake(8 * (math.log(k) + math.log(1 / beta)) / epsilon, "that uses ln(1/β). Theorem 3.24 has ln(2/β).",
                name="Theorem 3.24 miscopied"),
        Mistake(8 * (math.log(k) + math.log(2 / beta)) * epsilon, "that multiplies by ε. α is a distance in "
                                                                   "counts: it divides by ε.",
                name="Theorem 3.24 miscopied"),
        Mistake(8 * (k + math.log(2 / beta)) / epsilon, "that uses k where Theorem 3.24 has ln k.",
                name="Theorem 3.24 miscopied"),
        Mistake(8 * math.log(k) * math.log(2 / beta) / epsilon, "that multiplies the two logarithms; Theorem 3.24 "
                                                                "adds them (one logarithm of a product).",
                name="Theorem 3.24 miscopied"),
        Mistake(8 * (math.log(k) + math.log(beta / 2)) / epsilon, "that uses ln(β/2), upside down: Theorem 3.24 has "
                                                                  "ln(2/β), which grows as β shrinks.",
                name="Theorem 3.24 miscopied"),
        Mistake(8 * (math.log(k) + math.log(2 / beta)) / (epsilon / 2), "that halves ε; Theorem 3.24's α is stated "
                                                                        "for the whole ε of AboveThreshold.",
                name="Theorem 3.24 miscopied"),
    ]
    return compare(answer, expected,
                   f"α = 8(ln k + ln(2/β))/ε = 8(ln {k:,} + ln {2 / beta:g})/{epsilon:g} = {expected:.3f}: it grows "
                   "with ln k, not with k.",
                   "Read α off Theorem 3.24: it grows with ln k and with ln(1/β), and shrinks as ε grows.",
                   figures=3, mistakes=mistakes)
