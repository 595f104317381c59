"""Slider for chapter 11: k Laplace releases composed four ways."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, _choice_slider

__all__ = ["composition_compared"]


def composition_compared(k: int = 100) -> Interactive:
    """Slider k: basic, advanced (Theorem 3.20), optimal (any ε-DP) and exact (Laplace) total ε of k releases at
    ε = 0.1 (δ = 10⁻⁶)."""
    fig = plots.ExactCompositionFigure()
    return Interactive(fig, {"k": _choice_slider("k", fig.ks, k, "k (releases)")},
                       "k releases at ε = 0.1: basic, advanced, optimal and exact composition")
