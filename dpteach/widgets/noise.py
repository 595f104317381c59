"""Chapter 09's sliders: the discrete Laplace and the discrete Gaussian mechanisms on two neighbouring counts."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, epsilon_slider, log_slider

__all__ = ["discrete_gaussian", "discrete_laplace"]


def discrete_laplace(epsilon: float = 1.0) -> Interactive:
    """Slider ε: the discrete Laplace pmf on f(x) = 0 and f(y) = 1, over the continuous densities.

    The largest ratio of the two pmfs stays e^ε at every ε (the title prints it).
    """
    eps = epsilon_slider(epsilon, low=0.1, high=5.0)
    fig = plots.DiscreteLaplaceFigure()
    return Interactive(fig, {"epsilon": eps},
                       "the discrete Laplace mechanism on neighbouring counts")


def discrete_gaussian(sigma: float = 1.0) -> Interactive:
    """Slider σ: the discrete Gaussian pmf on f(x) = 0 and f(y) = 1, over the continuous N(0, σ²) densities.

    The title prints ρ = 1/(2σ²), the zCDP guarantee for a count, and the variance beside σ²; the
    note what that ρ gives at δ = 10⁻⁶ (CKS's conversion) beside this release's exact ε.
    """
    s = log_slider(sigma, 0.25, 5.0, "σ (sigma)", name="sigma")
    fig = plots.DiscreteGaussianFigure()
    return Interactive(fig, {"sigma": s}, "the discrete Gaussian mechanism on neighbouring counts")
