"""Sliders for chapter 05: Theorem 3.8's bound, the census names, a conversion report."""

from __future__ import annotations

from .. import plots
from ..census import census_first_names
from ._base import Interactive, _check_number, _choice_slider, _int_slider, _span, beta_slider, epsilon_slider


def accuracy_bound(epsilon: float = 1.0, beta: float = 0.05, k: int = 10_000) -> Interactive:
    """Sliders ε, β (the failure probability, the book's δ), k: Theorem 3.8's bound ln(k/β)·Δf/ε against the
    largest errors of 500 releases."""
    beta_control = beta_slider(beta)
    fig = plots.AccuracyBoundFigure()

    def update(epsilon: float, beta: float, k: int) -> dict:
        return fig.update(epsilon=epsilon, beta=beta, k=k)

    return Interactive(fig,
                       {"epsilon": epsilon_slider(epsilon), "beta": beta_control,
                        "k": _choice_slider("k", plots.AccuracyBoundFigure.K_OPTIONS, k, "k (cells)")},
                       "Theorem 3.8's bound against the observed largest error", update=update)


def name_reliability(epsilon: float = 1.0) -> Interactive:
    """Slider ε: Example 3.3's relative error by true count, and the noise on names no one has."""
    eps = epsilon_slider(epsilon)
    fig = plots.NameReliabilityFigure(census_first_names(), epsilon_range=_span(eps))
    return Interactive(fig, {"epsilon": eps},
                       "which first names the release gets right (Example 3.3)")


def marketing_noise(cap: int = 5, epsilon: float = 1.0, cells: int = 600) -> Interactive:
    """Sliders c and ε: a capped conversion report's DP noise against sampling noise, by cell size."""
    slider = _int_slider("cap", cap, 1, 20, "c (cap per user)")
    cells = _check_number("cells", cells, 1, 100_000, integer=True, where="a report's campaign-days")
    eps = epsilon_slider(epsilon)
    fig = plots.MarketingNoiseFigure(cells=cells, cap_max=slider.max, epsilon_range=_span(eps))
    return Interactive(fig, {"cap": slider, "epsilon": eps},
                       f"DP noise against sampling noise in a report of {cells:,} campaign-days")
