"""Sliders for chapter 11: privacy as hypothesis testing, group privacy, δ, and a membership attack."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, _choice_slider

__all__ = ["tradeoff_region"]


def tradeoff_region(epsilon: float = 1.0, k: int = 1, delta: float = 0.0) -> Interactive:
    """Sliders ε, k (group size) and δ: the region (ε, δ)-DP forbids, the Laplace curve, measured tests and a
    tracing attack in it."""
    fig = plots.TradeoffFigure()
    return Interactive(fig,
                       {"epsilon": _choice_slider("epsilon", fig.epsilons, epsilon, "ε (epsilon)", fmt="g"),
                        "k": _choice_slider("k", fig.ks, k, "k (group size)", fmt="d"),
                        "delta": _choice_slider("delta", fig.deltas, delta, "δ (delta)", fmt="g")},
                       "privacy as hypothesis testing: what (ε, δ)-DP allows a test of x against y")
