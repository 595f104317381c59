"""Checkers for chapter 11: composition, exactly."""

from __future__ import annotations

import functools

from ..exact_composition import releases_within
from ._base import Feedback, Mistake, as_number, compare, exercise

__all__ = ["check_exact_releases"]


@functools.lru_cache(maxsize=64)
def _counts(total: float, epsilon: float, delta: float) -> dict:
    return releases_within(total, epsilon, delta)


@exercise(prompt="A count is released again and again, each time with Lap(1/ε) noise at ε = {epsilon:g}. Within a "
                 "total of ε = {total:g} at δ = {delta:pow10}, how many releases does exact accounting allow (the "
                 "privacy loss distribution of chapter 08)? Give a whole number.",
          homework={"total": (0.5, 2.0), "epsilon": (0.005, 0.02)})
def check_exact_releases(answer, total: float = 1.0, epsilon: float = 0.01, delta: float = 1e-6) -> Feedback:
    """Ch. 11, exercise 4: the largest k whose k-fold Laplace privacy loss distribution has ε(δ) ≤ total."""
    counts = _counts(float(total), float(epsilon), float(delta))
    expected = counts["exact"]
    mistakes = [
        Mistake(counts["basic"], "that is basic composition (kε ≤ total): right for pure ε-DP, but the question "
                                 "allows δ, and then the exact accounting of these Laplace releases buys more."),
        Mistake(counts["advanced"], "that is advanced composition (Theorem 3.20): a bound for ANY ε-DP mechanisms. "
                                    "The exact privacy loss distribution of these Laplace releases is tighter."),
        Mistake(expected + 1, "at that k the exact ε(δ) is just above the total: the number of releases is the "
                              "largest k that still fits."),
    ]
    value = as_number(answer)
    if isinstance(value, float) and not value.is_integer() and expected < value < expected + 1:
        return Feedback(False, f"{value:g} is not a whole number: count the releases, the largest whole k that "
                               "still fits.")
    return compare(answer, expected,
                   f"k = {expected:,}: the k-fold privacy loss distribution gives ε(δ) ≤ {total:g} up to there, "
                   f"against {counts['basic']:,} by basic and {counts['advanced']:,} by advanced composition.",
                   "Compute ε(δ) of the k-fold privacy loss distribution of Lap(1/ε) and find the largest k that "
                   "stays within the total (ε(δ) grows with k: bisect).", figures=None, mistakes=mistakes)
