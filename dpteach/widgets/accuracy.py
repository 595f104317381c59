"""Sliders for chapter 05: Theorem 3.8's bound, the census names, a conversion report."""

from __future__ import annotations

from .. import plots
from ..accuracy import _MISSING, _beta
from ..census import census_first_names
from ._base import Interactive, _check_number, _choice_slider, _int_slider, delta_slider, epsilon_slider
from .counting import _span


def accuracy_bound(epsilon: float = 1.0, beta: float = _MISSING, k: int = 10_000, *,
                   delta: float = _MISSING) -> Interactive:
    """Sliders ε, β (the failure probability, the book's δ), k: Theorem 3.8's bound ln(k/β)·Δf/ε against the
    largest errors of 500 releases. ``beta`` defaults to 0.05; ``delta=`` is its deprecated keyword name."""
    if delta is not _MISSING:                     # the deprecated name: warn, then check it as the slider does
        beta = _beta("accuracy_bound", beta, delta) if beta is not _MISSING else _deprecated_delta(delta)
    beta_control = delta_slider(0.05 if beta is _MISSING else beta)
    fig = plots.AccuracyBoundFigure()

    def update(epsilon: float, beta: float, k: int) -> dict:
        return fig.update(epsilon=epsilon, delta=beta, k=k)

    return Interactive(fig,
                       {"epsilon": epsilon_slider(epsilon), "beta": beta_control,
                        "k": _choice_slider("k", plots.AccuracyBoundFigure.K_OPTIONS, k, "k (cells)")},
                       "Theorem 3.8's bound against the observed largest error", update=update)


def _deprecated_delta(delta):
    """``delta=`` as the old keyword for β: the DeprecationWarning, and the value left for the slider to check."""
    import warnings

    warnings.warn("accuracy_bound(delta=...) is deprecated: the failure probability is now called beta (the "
                  f"workbook writes β, so that δ keeps its meaning from (ε, δ)-DP); pass beta={delta!r}",
                  DeprecationWarning, stacklevel=3)
    return delta


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
