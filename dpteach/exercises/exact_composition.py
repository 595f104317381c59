"""Checkers for chapter 11: composition, exactly."""

from __future__ import annotations

import functools

from ..exact_composition import releases_within
from ._base import Feedback, Mistake, as_number, compare, exercise

__all__ = ["check_exact_releases"]


@functools.lru_cache(maxsize=128)
def _counts(total: float, epsilon: float, delta: float) -> dict:
    return releases_within(total, epsilon, delta)


#: The chapter's numbers (a total of 2 at ε = 0.04 and δ = 10⁻⁶: 130 releases) and the homework's 72 combinations
#: (48 different answers) were chosen so that every answer k is at least 10⁻³ in ε from the line on both sides:
#: ε(k) ≤ total − 10⁻³ and ε(k + 1) ≥ total + 10⁻³, far beyond the error of :func:`~dpteach.exact_laplace_epsilon`
#: (at most 1.2·10⁻⁵ of these totals of at most 4, measured: below 5·10⁻⁵), so that any sound accountant
#: gives the same count (tests/test_exact_composition.py checks the margins at a finer resolution).
_TOTALS = (0.5, 1.0, 1.25, 2.5, 3.0, 4.0)
_EPSILONS = (0.06, 0.075, 0.08)
_DELTAS = (1e-9, 1e-8, 1e-7, 1e-4)


@exercise(prompt="A count is released again and again, each time with Lap(1/ε) noise at ε = {epsilon:g}. Within a "
                 "total of ε = {total:g} at δ = {delta:pow10}, how many releases does exact accounting allow (the "
                 "privacy loss distribution of chapter 08)? Give a whole number.",
          homework={"total": _TOTALS, "epsilon": _EPSILONS, "delta": _DELTAS})
def check_exact_releases(answer, total: float = 2.0, epsilon: float = 0.04, delta: float = 1e-6) -> Feedback:
    """Ch. 11, exercise 4: the largest k whose k-fold Laplace privacy loss distribution has ε(δ) ≤ total."""
    counts = _counts(float(total), float(epsilon), float(delta))
    expected = counts["exact"]
    mistakes = [
        Mistake(counts["basic"], "that is basic composition (kε ≤ total): right for pure ε-DP, but the question "
                                 "allows δ, and then the exact accounting of these Laplace releases buys more.",
                name="basic composition where a δ′ buys more"),
        Mistake(counts["advanced"], "that is advanced composition (Theorem 3.20): a bound for ANY ε-DP mechanisms. "
                                    "The exact privacy loss distribution of these Laplace releases is tighter.",
                name="a looser accounting than asked"),
        Mistake(counts["optimal"], "that is the optimal composition theorem (Kairouz, Oh & Viswanath), the exact "
                                   "count for the worst ε-DP mechanism, randomized response. The question asks "
                                   "about these Laplace releases: use their own privacy loss distribution.",
                name="a looser accounting than asked"),
    ]
    value = as_number(answer)
    if isinstance(value, float) and not value.is_integer():
        return Feedback(False, f"{value:g} is not a whole number: the answer is a count of releases.")
    return compare(answer, expected,
                   f"k = {expected:,}: the k-fold privacy loss distribution gives ε(δ) ≤ {total:g} up to there, "
                   f"against {counts['basic']:,} by basic, {counts['advanced']:,} by advanced composition and "
                   f"{counts['optimal']:,} by the optimal composition theorem for any ε-DP mechanisms.",
                   "Compute ε(δ) of the k-fold privacy loss distribution of Lap(1/ε) and find the largest k that "
                   "stays within the total (ε(δ) grows with k: bisect).", figures=None, mistakes=mistakes)
