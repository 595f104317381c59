"""How accurate the Laplace mechanism is (Dwork & Roth, Fact 3.7 and Theorem 3.8, pp. 33–34)."""

from __future__ import annotations

import math

from . import _validate
from .laplace import laplace_scale


def laplace_accuracy_bound(k: int, delta: float, sensitivity: float, epsilon: float) -> float:
    """Theorem 3.8: with probability ≥ 1 − δ no coordinate is off by more than ln(k/δ)·Δf/ε.

    .. math:: \\Pr\\left[‖f(x) - y‖_∞ \\ge \\ln\\left(\\frac{k}{δ}\\right) \\cdot \\frac{Δf}{ε}\\right] \\le δ

    Proof: a union bound over the k coordinates, each with Fact 3.7 at t = ln(k/δ).

    Parameters
    ----------
    k : int
        Number of coordinates the query returns (k ≥ 1).
    delta : float
        Failure probability, 0 < δ ≤ 1.
    sensitivity, epsilon : float
        Δf > 0 and ε > 0, as given to the Laplace mechanism.

    Examples
    --------
    Example 3.3, first names: 10,000 names, ε = 1, Δf = 1, 95% confidence.

    >>> round(laplace_accuracy_bound(10_000, 0.05, sensitivity=1, epsilon=1), 3)
    12.206
    """
    n = _validate.integer("k", k, low=1, why="a query returns at least one number")
    d = _validate.real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=False,
                       why="delta is a probability of failure")
    return math.log(n / d) * laplace_scale(sensitivity, epsilon)
