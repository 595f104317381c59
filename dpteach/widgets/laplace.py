"""Sliders for chapters 00, 02 and 03: the Laplace density and Theorem 3.6's privacy loss."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, _int_slider, _toggle, epsilon_slider, sensitivity_slider


def laplace_density(epsilon: float = 1.0, sensitivity: float = 1.0) -> Interactive:
    """Sliders ε and Δf driving the density of Lap(Δf/ε) and a histogram of its samples (Def 3.2)."""
    controls = {"epsilon": epsilon_slider(epsilon), "sensitivity": sensitivity_slider(sensitivity)}
    fig = plots.LaplaceDensityFigure()
    return Interactive(fig, controls,
                       "the Laplace density Lap(Δf/ε) and its samples")


def privacy_loss(epsilon: float = 1.0, sensitivity: float = 1.0, understate: bool = False,
                 k: int = 1) -> Interactive:
    """Theorem 3.6's picture: neighbours' output densities and the privacy loss inside [−ε, ε].

    The toggle calibrates the noise to Δf/2 while the answers still differ by Δf, and the
    loss leaves the band. The k slider releases k counts that each move by Δf/k: the loss is
    the sum of k shares, each inside [−ε/k, ε/k]. The axes are fixed over every control's range
    (the loss is drawn in units of ε).
    """
    controls = {"epsilon": epsilon_slider(epsilon), "sensitivity": sensitivity_slider(sensitivity),
                "understate": _toggle("understate", understate, "understate Δf (calibrate to Δf/2)"),
                "k": _int_slider("k", k, 1, 10, "k (counts)")}
    fig = plots.PrivacyLossFigure()
    return Interactive(fig, controls,
                       "output densities on neighbours and the privacy loss (Theorem 3.6)")
