"""Checkers for chapter 08: the Gaussian and Generalized Gaussian mechanisms."""

from __future__ import annotations

import math

import numpy as np

from ..gaussian import classical_gaussian_constant, gaussian_sigma
from ..generalized_gaussian import generalized_gaussian_variance, laplace_noise, one_coordinate_delta
from ..laplace import laplace_cdf
from ..sensitivity import l2_sensitivity
from ._base import Feedback, Mistake, compare, exercise, named_anyway

__all__ = ["check_gaussian_sigma_for_counts", "check_generalized_gaussian_variance", "check_laplace_delta"]


@exercise(prompt="The survey's questions are asked of a new panel, k = {k} questions at (ε, δ) = ({epsilon:g}, "
                 "{delta:pow10}). What σ does the analytic Gaussian mechanism add to each count? Give 3 significant figures.",
          homework={"k": (20, 25, 30, 36, 49, 50, 64, 80, 120, 150, 200, 300, 400, 500),
                    "epsilon": (0.25, 0.5, 1.5, 2.0, 3.0)}, figures=3)
def check_gaussian_sigma_for_counts(answer, k: int = 100, epsilon: float = 1.0, delta: float = 1e-5) -> Feedback:
    """Ch. 08, exercise 1: the analytic Gaussian σ for k = 100 counting queries that one person can all
    change, at (ε, δ) = (1, 10⁻⁵)."""
    universe = np.arange(2)
    l2 = l2_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    expected = gaussian_sigma(l2, epsilon, delta)
    unit = gaussian_sigma(1.0, epsilon, delta)
    theorem_3_22 = Mistake(classical_gaussian_constant(delta) * l2 / epsilon,
                           "that is Theorem 3.22's σ = c·Δ₂f/ε with c = √(2 ln(1.25/δ)). The exercise asks for the "
                           "analytic (exact) σ of Balle & Wang, which is smaller.",
                           name="Theorem 3.22's σ for the analytic σ")
    mistakes = [
        Mistake(gaussian_sigma(float(k), epsilon, delta),
                "that calibrates to Δ₁f = k, the ℓ1-sensitivity. The Gaussian mechanism uses the ℓ2-sensitivity: "
                "the Euclidean length of the change (1, …, 1).", name="ℓ1 for ℓ2"),
        Mistake(unit, "that is σ for Δ₂f = 1, one count. Here one person changes all k counts at once.",
                name="Δf = 1 where one person moves more"),
        theorem_3_22,
        Mistake(expected**2, "that is a variance, σ². The question asks for σ.", name="the wrong measure of spread"),
        Mistake(k / epsilon, "that is the Laplace mechanism's scale Δ₁f/ε. The question asks for the Gaussian σ.",
                name="the Laplace scale for the Gaussian σ"),
        Mistake(l2 / epsilon, "that is Δ₂f/ε, without the factor that δ brings: the analytic Gaussian's σ for a "
                              "given δ is larger.", name="σ without δ"),
    ]
    hint = ("Find the ℓ2-sensitivity of the k counts (each moves by 1 at once); the analytic Gaussian's σ is "
            "proportional to it.")
    verdict = compare(answer, expected,
                      f"Δ₂f = √{k} = {l2:g}, and σ is proportional to Δ₂f: {l2:g} × {unit:.4f} = {expected:.3f} "
                      f"(the Laplace mechanism would need b = Δ₁f/ε = {k / epsilon:g}).",
                      hint, figures=3, mistakes=mistakes)
    # Theorem 3.22's σ with c rounded before the product (4.845 → 4.85 gives 48.5 for 48.45): named at 2 figures
    return named_anyway(verdict, answer, theorem_3_22, 2, hint)


@exercise(prompt="One count is released with Lap({scale:g}) noise, which is pure ε-DP for ε = 1/b. What is the "
                 "smallest δ for which it is ({epsilon:g}, δ)-DP? (Use the accountant, or the closed form: the "
                 "chapter checks it at b = 1, and the loss of Lap(b) is capped at 1/b.) Give 3 significant figures.",
          homework={"scale": (0.75, 0.8, 1.0, 1.2, 1.25, 1.5, 2.5, 4.0, 4.5),
                    "epsilon": (0.02, 0.04, 0.05, 0.08, 0.1, 0.12, 0.2)}, figures=3)
def check_laplace_delta(answer, scale: float = 2.0, epsilon: float = 0.25) -> Feedback:
    """Ch. 08, exercise 2: δ(ε) for one count released with Lap(2) noise, at ε = 0.25."""
    if not 0 <= epsilon < 1 / scale:
        raise ValueError(f"epsilon must be in [0, 1/scale) = [0, {1 / scale:g}) for a positive δ (got {epsilon})")
    expected = one_coordinate_delta(laplace_noise(scale), epsilon)
    gap = epsilon - 1 / scale
    z_star = (1 - epsilon * scale) / 2            # the privacy loss exceeds ε exactly for outputs below z*
    mistakes = [
        Mistake(0.0, f"δ = 0 holds from ε = 1/b = {1 / scale:g} on. At the smaller ε = {epsilon:g} the privacy "
                     "loss exceeds ε on some outputs, so δ > 0.", name="Laplace's δ(ε) miscomputed"),
        Mistake(math.exp(gap / 2), "that is a ratio e^(…), not the gap between the two probabilities: δ is what is "
                                   "left of the worst event's probability after the e^ε factor.",
                name="Laplace's δ(ε) miscomputed"),
        Mistake(1 - math.exp(gap), "the /2 in the exponent is missing: the worst event ends half-way where the loss "
                                   "crosses ε, between the two answers.", name="Laplace's δ(ε) miscomputed"),
        Mistake(1 - math.exp(epsilon - scale), "that uses b where the loss cap is 1/b: Lap(b) is (1/b)-DP.",
                name="Laplace's δ(ε) miscomputed"),
        Mistake(1 - math.exp((epsilon - 1) / 2), "that is the chapter's closed form at b = 1, where the loss is "
                                                 "capped at 1: with Lap(b) the cap is 1/b, and the closed form "
                                                 "changes with it.", name="Laplace's δ(ε) miscomputed"),
        Mistake(float(laplace_cdf(z_star, scale)),
                "that is Pr[L > ε], the probability that the privacy loss exceeds ε. δ(ε) is smaller: it is "
                "E[(1 − e^(ε − L))₊], which weighs each output by how far its loss exceeds ε.",
                name="Pr[L > ε] for δ"),
    ]
    return compare(answer, expected,
                   f"the loss is capped at 1/b = {1 / scale:g}; below it δ(ε) = 1 − e^((ε − 1/b)/2) = "
                   f"1 − e^({gap / 2:g}) = {expected:.4f}. Lap({scale:g}) is pure "
                   f"{1 / scale:g}-DP, and only (ε, δ)-DP with this δ at the smaller ε = {epsilon:g}.",
                   "δ(ε) is the largest Pr[M(x) ∈ S] − e^ε·Pr[M(y) ∈ S] over events S: take the event of the "
                   "outputs whose privacy loss exceeds ε.", figures=3, mistakes=mistakes)


@exercise(prompt="What is the variance of the Generalized Gaussian with p = {p:g} and σ = {sigma:g}? (The checker's "
                 "answer then compares its standard deviation with σ.) Give 3 significant figures.",
          homework={"p": (1.5, 2.5, 3.0, 5.0, 6.0, 8.0), "sigma": (0.5, 1.5, 2.5, 3.0, 4.0, 5.0, 6.0, 10.0)},
          figures=3)
def check_generalized_gaussian_variance(answer, p: float = 4.0, sigma: float = 2.0) -> Feedback:
    """Ch. 08, exercise 3: the variance of the Generalized Gaussian with p = 4 and σ = 2."""
    expected = generalized_gaussian_variance(p, sigma)
    ratio = math.gamma(3 / p) / math.gamma(1 / p)
    mistakes = [
        Mistake(math.sqrt(expected), "that is the standard deviation. The question asks for the variance.",
                name="the wrong measure of spread"),
        Mistake(sigma**2, "that is σ², but σ is a scale, not a standard deviation: the variance is σ² times "
                          "a ratio of Γ values that depends on p.", name="the wrong Generalized Gaussian moment"),
        Mistake(sigma**2 / 2, "σ²/2 is the variance at p = 2 (the Gaussian). Here p is different.",
                name="the wrong Generalized Gaussian moment"),
        Mistake(ratio, "σ² is missing: the variance scales with σ².", name="the wrong Generalized Gaussian moment"),
        Mistake(sigma * ratio, "that uses σ where σ² belongs: the variance is a second moment and scales with σ².",
                name="the wrong Generalized Gaussian moment"),
        Mistake(sigma * math.gamma(2 / p) / math.gamma(1 / p), "that is E|X|, the moment with r = 1. The "
                                                               "variance is E|X|² (r = 2).",
                name="the wrong Generalized Gaussian moment"),
        Mistake(2 * sigma**2, "2σ² is the Laplace variance (p = 1, scale σ). Here p is different.",
                name="the wrong Generalized Gaussian moment"),
        Mistake(sigma**2 * math.gamma(1 / p) / math.gamma(3 / p), "the Γ ratio is upside down: Γ((r + 1)/p) is on "
                                                                  "top, Γ(1/p) below.",
                name="the wrong Generalized Gaussian moment"),
    ]
    return compare(answer, expected,
                   f"σ² Γ(3/p)/Γ(1/p) = {sigma**2:g} × Γ({3 / p:g})/Γ({1 / p:g}) = {expected:.4f}: "
                   f"the standard deviation is {math.sqrt(expected):.3f}, "
                   f"{'less' if expected < sigma**2 else 'more'} than σ = {sigma:g}.",
                   "The variance is the second absolute moment E|X|² (the mean is 0): use the chapter's formula for "
                   "E|X|^r (math.gamma computes Γ).", figures=3, mistakes=mistakes)
