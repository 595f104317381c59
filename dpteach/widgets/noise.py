"""Chapter 09's slider: the discrete Laplace mechanism on two neighbouring counts."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, epsilon_slider

__all__ = ["discrete_laplace"]


def discrete_laplace(epsilon: float = 1.0) -> Interactive:
    """Slider ε: the discrete Laplace pmf on f(x) = 0 and f(y) = 1, over the continuous densities.

    The largest ratio of the two pmfs stays e^ε at every ε (the title prints it).
    """
    eps = epsilon_slider(epsilon, low=0.1, high=5.0)
    fig = plots.DiscreteLaplaceFigure()
    return Interactive(fig, {"epsilon": eps},
                       "the discrete Laplace mechanism on neighbouring counts")
