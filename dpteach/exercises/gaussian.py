"""Checkers for chapter 08: the Gaussian and Generalized Gaussian mechanisms."""

from __future__ import annotations

import math

import numpy as np

from ..accountant import laplace_noise, one_coordinate_delta
from ..gaussian import classical_gaussian_constant, gaussian_sigma
from ..generalized_gaussian import generalized_gaussian_variance
from ..sensitivity import l2_sensitivity
from ._base import Feedback, Mistake, compare

__all__ = ["check_gaussian_sigma_for_counts", "check_generalized_gaussian_variance", "check_laplace_delta"]


def check_gaussian_sigma_for_counts(answer, k: int = 100, epsilon: float = 1.0, delta: float = 1e-5) -> Feedback:
    """Ch. 08, exercise 1: the analytic Gaussian σ for k = 100 counting queries that one person can all
    change, at (ε, δ) = (1, 10⁻⁵)."""
    universe = np.arange(2)
    l2 = l2_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    expected = gaussian_sigma(l2, epsilon, delta)
    unit = gaussian_sigma(1.0, epsilon, delta)
    mistakes = [
        Mistake(gaussian_sigma(float(k), epsilon, delta),
                "that calibrates to Δ₁f = k, the ℓ1-sensitivity. The Gaussian mechanism uses the ℓ2-sensitivity: "
                "the change (1, …, 1) has ℓ2 norm √k."),
        Mistake(unit, "that is σ for Δ₂f = 1, one count. Here one person changes all k counts at once."),
        Mistake(classical_gaussian_constant(delta) * l2 / epsilon,
                "that is Theorem 3.22's σ = c·Δ₂f/ε with c = √(2 ln(1.25/δ)). The exercise asks for the analytic "
                "(exact) σ of Balle & Wang, which is smaller."),
        Mistake(expected**2, "that is a variance, σ². The question asks for σ."),
        Mistake(k / epsilon, "that is the Laplace mechanism's scale Δ₁f/ε. The question asks for the Gaussian σ."),
    ]
    return compare(answer, expected,
                   f"Δ₂f = √{k} = {l2:g}, and σ is proportional to Δ₂f: {l2:g} × {unit:.4f} = {expected:.3f} "
                   f"(the Laplace mechanism would need b = Δ₁f/ε = {k / epsilon:g}).",
                   "Find the ℓ2-sensitivity of the k counts (each moves by 1 at once), then scale the σ for Δ = 1: "
                   "dp.gaussian_sigma(1, 1.0, 1e-5) is about 3.73.", rel=1e-3, mistakes=mistakes)


def check_laplace_delta(answer, scale: float = 2.0, epsilon: float = 0.25) -> Feedback:
    """Ch. 08, exercise 2: δ(ε) for one count released with Lap(2) noise, at ε = 0.25."""
    expected = one_coordinate_delta(laplace_noise(scale), epsilon)
    gap = epsilon - 1 / scale
    mistakes = [
        Mistake(0.0, f"δ = 0 holds from ε = 1/b = {1 / scale:g} on. At the smaller ε = {epsilon:g} the privacy "
                     "loss exceeds ε on some outputs, so δ > 0."),
        Mistake(math.exp(gap / 2), "that is e^((ε − 1/b)/2), the ratio, not the gap: δ(ε) = 1 − e^((ε − 1/b)/2)."),
        Mistake(1 - math.exp(gap), "the /2 is missing: δ(ε) = 1 − e^((ε − 1/b)/2)."),
        Mistake(1 - math.exp(epsilon - scale), "that uses b where the loss cap is 1/b: Lap(b) is (1/b)-DP."),
    ]
    return compare(answer, expected,
                   f"the loss is capped at 1/b = {1 / scale:g}; below it δ(ε) = 1 − e^((ε − 1/b)/2) = "
                   f"1 − e^({gap / 2:g}) = {expected:.4f}. Lap({scale:g}) is pure "
                   f"{1 / scale:g}-DP, and only (ε, δ)-DP with this δ at the smaller ε = {epsilon:g}.",
                   "With z* = (1 − εb)/2 the worst event is {Z < z*}: δ = F(z*) − e^ε F(z* − 1), or use "
                   "dp.one_coordinate_delta(dp.laplace_noise(2.0), 0.25).", rel=1e-4, mistakes=mistakes)


def check_generalized_gaussian_variance(answer, p: float = 4.0, sigma: float = 2.0) -> Feedback:
    """Ch. 08, exercise 3: the variance of the Generalized Gaussian with p = 4 and σ = 2."""
    expected = generalized_gaussian_variance(p, sigma)
    mistakes = [
        Mistake(math.sqrt(expected), "that is the standard deviation. The question asks for the variance."),
        Mistake(sigma**2, "that is σ², but σ is a scale, not a standard deviation: the variance is σ² times "
                          "Γ(3/p)/Γ(1/p)."),
        Mistake(sigma**2 / 2, "σ²/2 is the variance at p = 2 (the Gaussian). Here p = 4."),
        Mistake(math.gamma(3 / p) / math.gamma(1 / p), "σ² is missing: the variance is σ²·Γ(3/p)/Γ(1/p)."),
        Mistake(sigma * math.gamma(2 / p) / math.gamma(1 / p), "that is E|X|, the moment with r = 1. The "
                                                               "variance is E|X|² (r = 2)."),
        Mistake(2 * sigma**2, "2σ² is the Laplace variance (p = 1, scale σ). Here p = 4."),
    ]
    return compare(answer, expected,
                   f"σ² Γ(3/p)/Γ(1/p) = {sigma**2:g} × Γ({3 / p:g})/Γ({1 / p:g}) = {expected:.4f}: "
                   f"the standard deviation is {math.sqrt(expected):.3f}, less than σ = {sigma:g}.",
                   "Use E|X|^r = σ^r Γ((r + 1)/p)/Γ(1/p) with r = 2 (math.gamma computes Γ).", rel=1e-4,
                   mistakes=mistakes)
