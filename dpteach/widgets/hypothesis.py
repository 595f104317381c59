"""Sliders for chapter 11: privacy as hypothesis testing, and group privacy."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, _choice_slider

__all__ = ["tradeoff_region"]


def tradeoff_region(epsilon: float = 1.0, k: int = 1) -> Interactive:
    """Sliders ε and k (group size): the region ε-DP forbids, the Laplace curve, and measured tests in it."""
    fig = plots.TradeoffFigure()
    return Interactive(fig,
                       {"epsilon": _choice_slider("epsilon", fig.epsilons, epsilon, "ε (epsilon)", fmt="g"),
                        "k": _choice_slider("k", fig.ks, k, "k (group size)", fmt="d")},
                       "privacy as hypothesis testing: what ε-DP allows a test of x against y")
