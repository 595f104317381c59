"""Sliders for chapters 00, 02 and 03: the Laplace density and Theorem 3.6's privacy loss."""

from __future__ import annotations

import ipywidgets as widgets

from .. import plots
from ._base import _SLIDER_LAYOUT, _STYLE, Interactive, epsilon_slider, sensitivity_slider


def laplace_density(epsilon: float = 1.0, sensitivity: float = 1.0) -> Interactive:
    """Sliders ε and Δf driving the density of Lap(Δf/ε) and a histogram of its samples (Def 3.2)."""
    fig = plots.LaplaceDensityFigure()
    return Interactive(fig, fig.update,
                       {"epsilon": epsilon_slider(epsilon), "sensitivity": sensitivity_slider(sensitivity)},
                       "the Laplace density Lap(Δf/ε) and its samples")


def privacy_loss(epsilon: float = 1.0, sensitivity: float = 1.0, understate: bool = False,
                 k: int = 1) -> Interactive:
    """Theorem 3.6's picture: neighbours' output densities and the privacy loss inside [−ε, ε].

    The toggle calibrates the noise to Δf/2 while the answers still differ by Δf, and the
    loss leaves the band. The k slider releases k counts that each move by Δf/k: the loss is
    the sum of k shares, each inside [−ε/k, ε/k]. The axes are fixed over every control's range
    (the loss is drawn in units of ε).
    """
    fig = plots.PrivacyLossFigure()
    toggle = widgets.ToggleButton(value=understate, description="understate Δf (calibrate to Δf/2)",
                                  layout=widgets.Layout(width="300px"))
    counts = widgets.IntSlider(value=k, min=1, max=10, description="k (counts)", continuous_update=True,
                               layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, fig.update,
                       {"epsilon": epsilon_slider(epsilon), "sensitivity": sensitivity_slider(sensitivity),
                        "understate": toggle, "k": counts},
                       "output densities on neighbours and the privacy loss (Theorem 3.6)")
