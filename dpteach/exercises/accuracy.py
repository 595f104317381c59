"""Checkers for chapter 05: accuracy (Theorem 3.8) and the census first names (Example 3.3)."""

from __future__ import annotations

from ..accuracy import laplace_accuracy_bound
from ..counting import histogram_noise
from ..laplace import laplace_tail
from ._base import Feedback, compare

__all__ = ["check_accuracy_bound", "check_delta_for_bound", "check_dominance_threshold"]


def check_accuracy_bound(answer, k: int = 1_000, delta: float = 0.01, epsilon: float = 0.5) -> Feedback:
    """Ch. 05, exercise 1: Theorem 3.8's bound for a 1,000-cell histogram (Δf = 1) at ε = 0.5, δ = 0.01."""
    expected = laplace_accuracy_bound(k, delta, 1, epsilon)
    return compare(answer, expected,
                    f"ln(k/δ)·Δf/ε = ln({k:,}/{delta:g}) · 1/{epsilon:g} = {expected:.4f}.",
                    "Theorem 3.8: ln(k/δ)·Δf/ε, with Δf = 1 for a histogram.", rel=1e-3)


def check_delta_for_bound(answer, k: int = 10_000, error: float = 10.0, epsilon: float = 1.0) -> Feedback:
    """Ch. 05, exercise 2: for Example 3.3 (k = 10,000, Δf = 1, ε = 1), the δ at which Theorem 3.8's
    bound is 10."""
    expected = k * laplace_tail(error * epsilon)
    return compare(answer, expected,
                    f"ln(k/δ)/ε = {error:g} gives δ = k·e^(−{error:g}ε) = {expected:.4f}: the theorem then "
                    f"promises 'within ±{error:g}' only with probability {1 - expected:.1%}.",
                    "Solve ln(k/δ)·Δf/ε = 10 for δ: δ = k·exp(−10·ε/Δf).", rel=1e-3)


def check_dominance_threshold(answer, cap: int = 3, epsilon: float = 0.5) -> Feedback:
    """Ch. 05, exercise 3: the cell size below which DP noise dominates Poisson sampling noise in a
    conversion report capped at c = 3 per user, released at ε = 0.5."""
    expected = histogram_noise(cap, epsilon, 1).crossover
    return compare(answer, expected,
                    f"Δf = c = {cap}, so the DP variance is 2(c/ε)² = 2·{cap / epsilon:g}² = {expected:g}; "
                    f"sampling variance n is smaller than that for cells under {expected:g} conversions.",
                    "Set the sampling variance n equal to the Laplace variance 2(Δf/ε)², with Δf = c.", rel=1e-6)
