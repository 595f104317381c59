"""Composition, exactly: basic, advanced (Theorem 3.20), optimal and the privacy loss distribution, side by side.

k releases of Lap(1/ε) on a count (each ε-DP) compose to

* kε, pure (Theorem 3.16, basic composition): the truth for pure ε-DP;
* ε′ = √(2k ln(1/δ′))·ε + kε(e^ε − 1) with δ′ (Theorem 3.20, advanced composition), for any
  mechanisms that are ε-DP, however chosen;
* the optimal ε′ at δ′ for any ε-DP mechanisms (Kairouz, Oh & Viswanath 2015, Theorem 3.3,
  :func:`dpteach.optimal_composition`): the truth for the worst of them, k randomized responses;
* the exact ε(δ) of these k Laplace releases, from their privacy loss distribution
  (:func:`dpteach.privacy_loss_distribution`, chapter 08): the smallest ε with δ(ε) ≤ δ.

Most of the gain over Theorem 3.20 comes from composing exactly (the optimal theorem), and only
the rest from the Laplace mechanism's own shape: at 100 releases of ε = 0.1 and δ = 10⁻⁶,
6.31 → 4.77 → 4.69.

The Gaussian mechanism composes additively in zero-concentrated DP (Bun & Steinke, TCC 2016):
N(0, σ²) on a query of ℓ2-sensitivity Δ is ρ-zCDP with ρ = Δ²/(2σ²), k of them are
(kρ)-zCDP, and ρ-zCDP implies (ε, δ)-DP for

.. math:: ε = \\min_{a > 1}\\; ρa + \\frac{\\ln(1/δ) + (a - 1)\\ln(1 - 1/a) - \\ln a}{a - 1}

(Canonne, Kamath & Steinke 2020, Proposition 12), a little better than Bun & Steinke's
ρ + 2√(ρ ln(1/δ)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validate
from ._roots import bisect, integer
from .composition import (
    advanced_composition,
    advanced_composition_max_k,
    optimal_composition,
    optimal_composition_max_k,
)
from .generalized_gaussian.accountant import exact_laplace_epsilon

_WHY_K = "k releases, k ≥ 1"
_WHY_DELTA = "δ in (0, 1): the exact and advanced totals are (ε, δ) guarantees"


@dataclass(frozen=True)
class CompositionTotals:
    """The total ε of k releases of Lap(1/ε) by each method (at δ for all but the first)."""

    k: int
    epsilon: float
    delta: float
    basic: float          # kε (pure)
    advanced: float       # Theorem 3.20 with δ′ = δ: any ε-DP mechanisms
    optimal: float        # Kairouz, Oh & Viswanath's Theorem 3.3 at δ: any ε-DP mechanisms, tight
    exact: float          # the privacy loss distribution's ε(δ): these Laplace releases

    def __repr__(self) -> str:
        return (f"{self.k} releases at ε = {self.epsilon:g}: basic {self.basic:.3g} (pure), "
                f"advanced {self.advanced:.3g}, optimal {self.optimal:.3g} (any ε-DP), "
                f"exact {self.exact:.3g} (Laplace; the last three at δ = {self.delta:g})")


def laplace_composition(k: int, epsilon: float, delta: float = 1e-6) -> CompositionTotals:
    """Basic, advanced, optimal and exact totals for k releases of Lap(1/ε) on a count.

    Examples
    --------
    >>> laplace_composition(100, 0.1, 1e-6)
    100 releases at ε = 0.1: basic 10 (pure), advanced 6.31, optimal 4.77 (any ε-DP), exact 4.69 (Laplace; the last three at δ = 1e-06)
    """
    kk = _validate.integer("k", k, low=1, high=100_000, why=_WHY_K)
    eps = _validate.epsilon(epsilon)
    d = _validate.real("delta", delta, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA)
    return CompositionTotals(kk, eps, d, kk * eps, advanced_composition(kk, eps, d)[0],
                             optimal_composition(kk, eps, d)[0], exact_laplace_epsilon(kk, eps, d))


def releases_within(total: float, epsilon: float, delta: float = 1e-6) -> dict[str, int]:
    """How many releases of Lap(1/ε) fit in a total budget: by basic, advanced, optimal and exact composition.

    The exact count is the largest k whose privacy loss distribution gives ε(δ) ≤ ``total``,
    found by bisection (ε(δ) grows with k); the optimal count is
    :func:`~dpteach.optimal_composition_max_k` (any ε-DP mechanisms).

    Examples
    --------
    >>> releases_within(1.0, 0.01, 1e-6)
    {'basic': 100, 'advanced': 337, 'optimal': 562, 'exact': 564}
    """
    tot = _validate.epsilon(total, name="total")
    eps = _validate.epsilon(epsilon)
    d = _validate.real("delta", delta, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA)
    basic = math.floor(tot / eps * (1 + 1e-12))
    advanced = advanced_composition_max_k(tot, eps, d)
    optimal = optimal_composition_max_k(tot, eps, d)
    low = max(basic, 1)                                 # the exact total never exceeds kε
    if exact_laplace_epsilon(low, eps, d) > tot:
        return {"basic": basic, "advanced": advanced, "optimal": optimal, "exact": 0}
    high = 2 * low
    while exact_laplace_epsilon(high, eps, d) <= tot:
        low, high = high, 2 * high
        if high > 100_000:
            raise ValueError(f"more than 100,000 releases fit in total = {tot:g} at epsilon = {eps:g}")
    low, _ = bisect(lambda k: exact_laplace_epsilon(k, eps, d) <= tot, low, high, split=integer)
    return {"basic": basic, "advanced": advanced, "optimal": optimal, "exact": low}


def gaussian_zcdp_rho(std: float, sensitivity: float = 1.0) -> float:
    """ρ = Δ²/(2σ²): N(0, σ²) noise on a query of ℓ2-sensitivity Δ is ρ-zCDP (Bun & Steinke 2016)."""
    s = _validate.positive("std", std, why="σ, the noise's standard deviation")
    d = _validate.positive("sensitivity", sensitivity)
    return d * d / (2 * s * s)


def zcdp_to_dp(rho, delta: float) -> np.ndarray | float:
    """The ε of (ε, δ)-DP implied by ρ-zCDP (Canonne, Kamath & Steinke 2020, Proposition 12).

    .. math:: ε = \\min_{a > 1}\\; ρa + \\frac{\\ln(1/δ) + (a - 1)\\ln(1 - 1/a) - \\ln a}{a - 1}

    minimised over the Rényi order a on a fine logarithmic grid, then refined by golden-section
    search around the best grid point (the objective is unimodal in a).
    """
    r = _validate.array("rho", rho, nonnegative=True)
    d = _validate.real("delta", delta, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA)
    log_inv = math.log(1 / d)

    def objective(a, rho_):
        return rho_ * a + (log_inv + (a - 1) * np.log1p(-1 / a) - np.log(a)) / (a - 1)

    grid = 1 + np.geomspace(1e-4, 1e6, 400)
    out = np.empty(r.size)
    for i, rho_ in enumerate(r.ravel()):
        values = objective(grid, rho_)
        j = int(np.argmin(values))
        lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, grid.size - 1)]
        g = (math.sqrt(5) - 1) / 2
        for _ in range(80):
            c, e = hi - g * (hi - lo), lo + g * (hi - lo)
            if objective(c, rho_) <= objective(e, rho_):
                hi = e
            else:
                lo = c
        out[i] = max(min(float(objective(0.5 * (lo + hi), rho_)), float(values[j])), 0.0)
    out = out.reshape(r.shape)
    return out if out.ndim else float(out)
