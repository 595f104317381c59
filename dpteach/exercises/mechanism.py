"""Checkers for chapter 03: the Laplace mechanism (Definition 3.3) and its proof (Theorem 3.6)."""

from __future__ import annotations

import numpy as np

from ..laplace import laplace_scale, privacy_loss
from ..sensitivity import l1_sensitivity
from ._base import Feedback, compare

__all__ = ["check_scale_for_overlapping_counts", "check_understated_loss"]


def check_scale_for_overlapping_counts(answer, k: int = 3, epsilon: float = 0.5) -> Feedback:
    """Ch. 03, exercise 1: the Laplace scale for 3 counts that one person can all change, at ε = 0.5."""
    universe = np.arange(2)
    sensitivity = l1_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    expected = laplace_scale(sensitivity, epsilon)
    return compare(answer, expected,
                    f"Δf = {sensitivity:g} (one person changes all {k} counts), so b = Δf/ε = {expected:g}.",
                    "First find Δf over all three coordinates together (ℓ1), then b = Δf/ε.")


def check_understated_loss(answer, epsilon: float = 1.0) -> Feedback:
    """Ch. 03, exercise 2: the worst privacy loss when the noise is calibrated to Δf = 0.5 but the
    neighbours' counts differ by 1, at ε = 1."""
    z = np.linspace(-20, 21, 4101)
    expected = float(np.abs(privacy_loss(z, 0.0, 1.0, 0.5, epsilon)).max())
    return compare(answer, expected,
                    f"b = 0.5/ε, and far from both answers the loss is |f(x) − f(y)|/b = {expected:g} = 2ε: "
                    "the promised ε is broken by a factor 2.",
                    "Far to the left of both answers the loss is constant: (|f(y) − z| − |f(x) − z|)/b. "
                    "What is b here?", rel=1e-6)
