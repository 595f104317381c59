"""Sliders for chapter 10's local model: a city map, randomized response against the central mechanism."""

from __future__ import annotations

import numpy as np

from .. import plots
from ..applications import synthetic_city
from ._base import Interactive, _choice_slider, _people, _seed, epsilon_slider

_CELLS = (5, 10, 20, 40)
_NS = plots.LocalCentralFigure.N_GRID

__all__ = ["location_density", "local_vs_central"]


def location_density(epsilon: float = 1.0, cells: int = 20, residents: int = 20_000,
                     seed: int = 2014) -> Interactive:
    """Sliders ε and grid size: a city's density map released centrally (grid counts) and locally (coordinates)."""
    controls = {"epsilon": epsilon_slider(epsilon, low=0.1, high=100.0),
                "cells": _choice_slider("cells", _CELLS, cells, "grid (cells per side)")}
    city = synthetic_city(_people("residents", residents), rng=np.random.default_rng(_seed(seed)))
    fig = plots.LocationDensityFigure(city, cells_max=_CELLS[-1])
    widget = Interactive(fig, controls,
                         f"the density of {residents:,} residents: central against local noise")
    # The true map and the colour scale change with the grid only: render each grid's
    # background now, so that moving the grid slider is a restore, not a redraw.
    for k in _CELLS:
        fig.update(epsilon=widget.controls["epsilon"].value, cells=k)
        fig.png()
    widget.redraw()
    return widget


def local_vs_central(n: int = 1_000, epsilon: float = 1.0) -> Interactive:
    """Sliders n and ε: randomized response (local) against a Laplace count (central), same ε, same n."""
    controls = {"n": _choice_slider("n", _NS, n, "n (people)"), "epsilon": epsilon_slider(epsilon)}
    fig = plots.LocalCentralFigure()
    return Interactive(fig, controls,
                       "the error of a proportion: randomized response against a central count")
