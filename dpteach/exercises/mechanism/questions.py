"""Chapter 03's numeric and proof questions: the scale for counts one person can all change, the loss when
Δf is understated (Theorem 3.6's premise broken), and which step of its proof fails for Gaussian noise."""

from __future__ import annotations

import math

import numpy as np

from ...laplace import laplace_scale, privacy_loss
from ...sensitivity import l1_sensitivity
from .._base import Feedback, Mistake, check_choice, compare, exercise, orders

__all__ = ["check_scale_for_overlapping_counts", "check_understated_loss", "check_gaussian_proof_step"]

@exercise(prompt="{k} counts that one person can all change (like this chapter's three, \"age ≥ 30\", \"age ≥ 50\" "
                 "and \"age ≥ 70\") are to be released at ε = {epsilon:g}. What scale b must the Laplace noise on "
                 "each count have? Give 3 significant figures.",
          homework={"k": (2, 4, 5, 6, 7, 8, 10, 12), "epsilon": (0.1, 0.2, 0.25, 0.3, 0.4, 0.75, 0.8, 1.25, 1.5)},
          figures=3)
def check_scale_for_overlapping_counts(answer, k: int = 3, epsilon: float = 0.5) -> Feedback:
    """Ch. 03, exercise 1: the Laplace scale for 3 counts that one person can all change, at ε = 0.5."""
    universe = np.arange(2)
    sensitivity = l1_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    expected = laplace_scale(sensitivity, epsilon)
    mistakes = [
        Mistake(laplace_scale(1.0, epsilon), f"you used Δf = 1, the sensitivity of ONE count. One person changes all "
                                             f"{k} counts, and Δf is the ℓ1 norm of the change over all of them.",
                name="Δf = 1 where one person moves more"),
        Mistake(sensitivity, "that is Δf itself, which is the scale at ε = 1 only (the chapter's worked example). "
                             f"Here ε = {epsilon:g}: the scale is Δf divided by ε.", name="÷ε forgotten"),
        Mistake(sensitivity * epsilon, "you multiplied Δf by ε; the scale is Δf divided by ε (smaller ε, more noise).",
                name="×ε for ÷ε"),
        Mistake(epsilon / sensitivity, "that is ε/Δf, upside down: the scale is Δf divided by ε.",
                name="Δf/ε upside down"),
        Mistake(laplace_scale(sensitivity / k, epsilon) * math.sqrt(k), "you used a √k (ℓ2) sensitivity; the "
                                                                        "Laplace mechanism needs the ℓ1 sensitivity.",
                name="ℓ2 for ℓ1"),
        Mistake(1.0 * epsilon, "you used Δf = 1 and multiplied by ε: one person changes all the counts, and the "
                               "scale is Δf divided by ε.", name="×ε for ÷ε"),
        Mistake(laplace_scale(sensitivity, epsilon / k), "that splits ε over the counts AND adds up their "
                                                         "sensitivities: either one accounts for the k counts, "
                                                         "not both.", name="the k releases counted twice"),
    ]
    return compare(answer, expected,
                   f"Δf = {sensitivity:g} (one person changes all {k} counts), so b = Δf/ε = {expected:g}.",
                   "First find Δf over all the counts together (ℓ1), then the scale for that Δf at this ε.",
                   figures=3, mistakes=mistakes)


@exercise(prompt="An analyst releases a count at ε = {epsilon:g}, but calibrates the noise to Δf = {calibrated:g} "
                 "although neighbouring databases' counts differ by at most 1. What is the largest privacy loss "
                 "|ln p_x(z)/p_y(z)| over all outputs z? Give 3 significant figures.",
          homework={"epsilon": (0.15, 0.3, 0.45, 0.6, 0.7, 0.85, 1.2, 1.25, 2.0), "calibrated": (0.1, 0.25, 0.4, 0.75, 0.9)},
          figures=3)
def check_understated_loss(answer, epsilon: float = 1.0, calibrated: float = 0.5) -> Feedback:
    """Ch. 03, exercise 2: the worst privacy loss when the noise is calibrated to Δf = 0.5 but the
    neighbours' counts differ by at most 1, at ε = 1."""
    b = calibrated / epsilon
    z = np.linspace(-20, 21, 4101)
    expected = float(np.abs(privacy_loss(z, 0.0, 1.0, calibrated, epsilon)).max())
    mistakes = [
        Mistake(epsilon, "that is the promised ε. Theorem 3.6 only holds when the noise is calibrated to the real "
                         "Δf; here it is calibrated to less. Compute the loss far from both answers.",
                name="the promised ε for the actual loss"),
        Mistake(math.exp(expected), "that is the ratio p_x/p_y of the densities; the privacy loss is its logarithm.",
                name="a ratio for its logarithm"),
        Mistake(b, "that is the noise scale b = (calibrated Δf)/ε, not a privacy loss: the loss at an output z is "
                   "the logarithm of p_x(z)/p_y(z). Where is it largest?", name="a scale for ε, or ε for a scale"),
        Mistake(calibrated * epsilon, "you multiplied the calibrated Δf by ε, which gives no privacy loss: the loss at "
                                      "an output z is the logarithm of p_x(z)/p_y(z), with noise of scale "
                                      "(calibrated Δf)/ε.", name="a scale for ε, or ε for a scale"),
        Mistake(math.exp(epsilon), "that is e^ε, the ratio Theorem 3.6 would promise; the loss is a logarithm, "
                                   "and here the promise does not hold.", name="the promised ε for the actual loss"),
        Mistake(1 / calibrated, "that is the true change over the calibrated Δf, the factor by which the noise is "
                                "too small; the loss is the true change divided by the scale b, which has ε in it.",
                name="a scale for ε, or ε for a scale"),
    ]
    return compare(answer, expected,
                   f"b = {calibrated:g}/ε, and far from both answers the loss is |f(x) − f(y)|/b = {expected:g}: "
                   f"the promised ε is broken by a factor {1 / calibrated:g}.",
                   "Far to the left of both answers the loss is constant: (|f(y) − z| − |f(x) − z|)/b. "
                   "What is b here?", figures=3, mistakes=mistakes)


# -- a proof question: why the same proof fails for Gaussian noise --------------------------------

_GAUSSIAN_STEP = {
    "a": (False, "Step 1 still holds: Gaussian noise is independent in each coordinate, so the density is a product "
                 "and the normalising constants cancel in the ratio, exactly as for Laplace."),
    "b": (True, "For Laplace, |f(y)ᵢ − zᵢ| − |f(x)ᵢ − zᵢ| ≤ |f(x)ᵢ − f(y)ᵢ| whatever z is (the triangle "
                "inequality), so each coordinate's exponent is bounded by a constant. For Gaussian noise the "
                "exponent is ((zᵢ − f(y)ᵢ)² − (zᵢ − f(x)ᵢ)²)/(2σ²) = (f(x)ᵢ − f(y)ᵢ)(2zᵢ − f(x)ᵢ − f(y)ᵢ)/(2σ²): "
                "it grows linearly in zᵢ, without bound. Squares have no triangle inequality |a|² − |b|² ≤ |a − b|², "
                "so no ε bounds the ratio at every z; the Gaussian mechanism only gets (ε, δ), δ paying for the "
                "rare far-out z (chapter 08)."),
    "c": (False, "Step 3 is algebra (a product of exponentials is the exponential of the sum) and holds for any "
                 "exponents, Gaussian or not."),
    "d": (False, "Step 4 would need the ℓ2 sensitivity for Gaussian noise, but that is a change of norm, not a "
                 "step of the proof that breaks."),
    "e": (False, "Integrating a pointwise bound over S is valid for any densities: whenever the bound holds at "
                 "every z, this step goes through."),
}


_GAUSSIAN_CHOICES = {
    "a": "Step 1: the ratio of the two densities is no longer one product over the coordinates.",
    "b": "Step 2: no inequality bounds each coordinate's exponent by a constant that does not depend on z.",
    "c": "Step 3: a product of exponentials is no longer the exponential of a sum.",
    "d": "Step 4: the definition of Δf no longer applies.",
    "e": "The last step: a bound on the densities can no longer be integrated over a set S.",
}


@exercise(prompt="Replace the Laplace noise by Gaussian noise N(0, σ²) in each coordinate and try to run the proof of "
                 "Theorem 3.6 again. Which step fails, and why? Answer with a letter.\n\n{options}",
          choices=_GAUSSIAN_CHOICES, homework={"order": orders("abcde")}, title="the proof", kind="choice")
def check_gaussian_proof_step(answer, order: str = "abcde") -> Feedback:
    """Ch. 03, exercise 3 (proof): which step of Theorem 3.6's proof fails for Gaussian noise, and why.

    Options (in the chapter's order; ``order`` shuffles them for a homework): (a) Step 1, the ratio is
    one product; (b) Step 2, the triangle inequality bounds each coordinate's exponent independently of
    z; (c) Step 3, product of exponentials is the exponential of the sum; (d) Step 4, the definition of
    Δf; (e) integrating the density bound over a set S.
    """
    return check_choice(answer, _GAUSSIAN_STEP, order=order,
                        question="Which step of Theorem 3.6's proof fails when the noise is Gaussian?")
