"""Sliders for chapter 11: privacy as hypothesis testing, group privacy, δ, a membership attack, and Gaussian DP."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, _choice_slider

__all__ = ["gdp_composition", "tradeoff_region"]


def tradeoff_region(epsilon: float = 1.0, k: int = 1, delta: float = 0.0) -> Interactive:
    """Sliders ε, k (group size) and δ: the region (ε, δ)-DP forbids, the Laplace and Gaussian curves, measured
    tests and a tracing attack in it."""
    fig = plots.TradeoffFigure()
    return Interactive(fig,
                       {"epsilon": _choice_slider("epsilon", fig.epsilons, epsilon, "ε (epsilon)", fmt="g"),
                        "k": _choice_slider("k", fig.ks, k, "k (group size)", fmt="d"),
                        "delta": _choice_slider("delta", fig.deltas, delta, "δ (delta)", fmt="g")},
                       "privacy as hypothesis testing: what (ε, δ)-DP allows a test of x against y")


def gdp_composition(k: int = 100) -> Interactive:
    """Slider k: k Gaussian releases (σ = √2/0.1) are exactly μ√k-GDP; their trade-off curve, and their total ε at
    δ = 10⁻⁶ by GDP, zCDP and the (ε, δ) accounting of chapter 06."""
    fig = plots.GaussianCompositionFigure()
    return Interactive(fig, {"k": _choice_slider("k", fig.ks, k, "k (releases)")},
                       "k Gaussian releases: Gaussian DP's exact μ√k against (ε, δ) accounting")
