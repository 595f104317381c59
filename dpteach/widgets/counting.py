"""Sliders for chapter 04: counting and histogram queries (Examples 3.1 and 3.2)."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, _choice_slider, _span, epsilon_slider

_SIZES = tuple(int(m * 10**e) for e in range(1, 8) for m in (1, 3)) + (100_000_000,)


def count_error_by_size(n: int = 1_000, epsilon: float = 1.0) -> Interactive:
    """Example 3.1, slider n: a count's absolute error stays at 1/ε while its relative error falls."""
    eps = epsilon_slider(epsilon)
    fig = plots.CountErrorBySizeFigure(epsilon_range=_span(eps))
    return Interactive(fig,
                       {"n": _choice_slider("n", _SIZES, n, "n (people)"), "epsilon": eps},
                       "one count's error against the size of the database (Example 3.1)")


_KS = (1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1_000)


def counting_vs_histogram(k: int = 10, epsilon: float = 1.0) -> Interactive:
    """Slider k: k arbitrary counts need Lap(k/ε) each, a k-cell histogram Lap(1/ε) (Examples 3.1, 3.2)."""
    eps = epsilon_slider(epsilon)
    fig = plots.CountingVsHistogramFigure(k_max=_KS[-1], epsilon_range=_span(eps))
    return Interactive(fig,
                       {"k": _choice_slider("k", _KS, k, "k (queries)"), "epsilon": eps},
                       "k arbitrary counting queries against a k-cell histogram")
