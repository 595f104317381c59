"""Checkers for chapter 08: the Gaussian and Generalized Gaussian mechanisms."""

from __future__ import annotations

import math

import numpy as np

from ..accountant import laplace_noise, one_coordinate_delta
from ..gaussian import gaussian_sigma
from ..generalized_gaussian import generalized_gaussian_variance
from ..sensitivity import l2_sensitivity
from ._base import Feedback, compare

__all__ = ["check_gaussian_sigma_for_counts", "check_generalized_gaussian_variance", "check_laplace_delta"]


def check_gaussian_sigma_for_counts(answer, k: int = 100, epsilon: float = 1.0, delta: float = 1e-5) -> Feedback:
    """Ch. 08, exercise 1: the analytic Gaussian σ for k = 100 counting queries that one person can all
    change, at (ε, δ) = (1, 10⁻⁵)."""
    universe = np.arange(2)
    l2 = l2_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    expected = gaussian_sigma(l2, epsilon, delta)
    unit = gaussian_sigma(1.0, epsilon, delta)
    return compare(answer, expected,
                    f"Δ₂f = √{k} = {l2:g}, and σ is proportional to Δ₂f: {l2:g} × {unit:.4f} = {expected:.3f} "
                    f"(the Laplace mechanism would need b = Δ₁f/ε = {k / epsilon:g}).",
                    "Find the ℓ2-sensitivity of the k counts (each moves by 1 at once), then scale the σ for Δ = 1: "
                    "dp.gaussian_sigma(1, 1.0, 1e-5) is about 3.73.", rel=1e-3)


def check_laplace_delta(answer, scale: float = 2.0, epsilon: float = 0.25) -> Feedback:
    """Ch. 08, exercise 2: δ(ε) for one count released with Lap(2) noise, at ε = 0.25."""
    expected = one_coordinate_delta(laplace_noise(scale), epsilon)
    return compare(answer, expected,
                    f"the loss is capped at 1/b = {1 / scale:g}; below it δ(ε) = 1 − e^((ε − 1/b)/2) = "
                    f"1 − e^({(epsilon - 1 / scale) / 2:g}) = {expected:.4f}. Lap({scale:g}) is pure "
                    f"{1 / scale:g}-DP, and only (ε, δ)-DP with this δ at the smaller ε = {epsilon:g}.",
                    "With z* = (1 − εb)/2 the worst event is {Z < z*}: δ = F(z*) − e^ε F(z* − 1), or use "
                    "dp.one_coordinate_delta(dp.laplace_noise(2.0), 0.25).", rel=1e-4)


def check_generalized_gaussian_variance(answer, p: float = 4.0, sigma: float = 2.0) -> Feedback:
    """Ch. 08, exercise 3: the variance of the Generalized Gaussian with p = 4 and σ = 2."""
    expected = generalized_gaussian_variance(p, sigma)
    return compare(answer, expected,
                    f"σ² Γ(3/p)/Γ(1/p) = {sigma**2:g} × Γ({3 / p:g})/Γ({1 / p:g}) = {expected:.4f}: "
                    f"the standard deviation is {math.sqrt(expected):.3f}, less than σ = {sigma:g}.",
                    "Use E|X|^r = σ^r Γ((r + 1)/p)/Γ(1/p) with r = 2 (math.gamma computes Γ).", rel=1e-4)
