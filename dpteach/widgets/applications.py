"""Sliders for chapter 10: the Laplace mechanism at work."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import plots
from ..applications import synthetic_city, synthetic_hospital, synthetic_purchases
from ._base import _SLIDER_LAYOUT, _STYLE, Interactive, _choice_slider, epsilon_slider

__all__ = ["dpsgd_accuracy", "hospital_count", "local_vs_central", "location_density", "purchase_histogram"]


def hospital_count(epsilon: float = 1.0, patients: int = 2_000, seed: int = 2014) -> Interactive:
    """Slider ε: a hospital's count of patients with the condition, released with Lap(1/ε).

    The hospital is :func:`~dpteach.synthetic_hospital` drawn with ``seed``.
    """
    count = int(synthetic_hospital(patients, rng=np.random.default_rng(seed))["condition"].sum())
    fig = plots.HospitalCountFigure(count)
    return Interactive(fig, fig.update, {"epsilon": epsilon_slider(epsilon)},
                       f"the count of {count:,} patients with the condition, released at ε")


def purchase_histogram(cap: int = 1, epsilon: float = 1.0, customers: int = 3_000, seed: int = 2014) -> Interactive:
    """Sliders c and ε: purchases by category with each customer capped at c purchases (Δf = c)."""
    log = synthetic_purchases(customers, rng=np.random.default_rng(seed))
    fig = plots.CappedReportFigure(log["users"], log["cells"], log["labels"], subject="purchases")
    slider = widgets.IntSlider(value=cap, min=1, max=fig.cap_max, description="c (cap per customer)",
                               layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, fig.update, {"cap": slider, "epsilon": epsilon_slider(epsilon)},
                       f"purchases of {customers:,} customers by category, capped at c each")


_CELLS = (5, 10, 20, 40)


def location_density(epsilon: float = 1.0, cells: int = 20, residents: int = 20_000,
                     seed: int = 2014) -> Interactive:
    """Sliders ε and grid size: a city's density map released centrally (grid counts) and locally (coordinates)."""
    fig = plots.LocationDensityFigure(synthetic_city(residents, rng=np.random.default_rng(seed)),
                                      cells_max=_CELLS[-1])
    widget = Interactive(fig, fig.update,
                         {"epsilon": epsilon_slider(epsilon, low=0.1, high=100.0),
                          "cells": _choice_slider("cells", _CELLS, cells, "grid (cells per side)")},
                         f"the density of {residents:,} residents: central against local noise")
    # The true map and the colour scale change with the grid only: render each grid's
    # background now, so that moving the grid slider is a restore, not a redraw.
    for k in _CELLS:
        fig.update(epsilon=widget.controls["epsilon"].value, cells=k)
        fig.png()
    widget.redraw()
    return widget


_NS = plots.LocalCentralFigure.N_GRID


def local_vs_central(n: int = 1_000, epsilon: float = 1.0) -> Interactive:
    """Sliders n and ε: randomized response (local) against a Laplace count (central), same ε, same n."""
    fig = plots.LocalCentralFigure()
    return Interactive(fig, fig.update,
                       {"n": _choice_slider("n", _NS, n, "n (people)"), "epsilon": epsilon_slider(epsilon)},
                       "the error of a proportion: randomized response against a central count")


def dpsgd_accuracy(epsilon: float = 1.0, clip: float = 1.0, patients: int = 2_000, seed: int = 2014) -> Interactive:
    """Sliders ε and C: DP-SGD's test accuracy and boundaries, all models trained once in advance.

    The patients are :func:`~dpteach.synthetic_hospital` drawn with ``seed``; the first half
    trains, the second half tests.
    """
    data = synthetic_hospital(patients, rng=np.random.default_rng(seed))
    half = patients // 2
    x, y = data["features"], data["condition"]
    fig = plots.DPSGDFigure(x[:half], y[:half], x[half:], y[half:], rng=np.random.default_rng(seed + 1))
    return Interactive(fig, fig.update,
                       {"epsilon": _choice_slider("epsilon", fig.EPSILONS, epsilon, "ε (epsilon)", fmt="g"),
                        "clip": _choice_slider("clip", fig.CLIPS, clip, "C (ℓ1 clip)", fmt="g")},
                       "DP-SGD on the hospital's patients: accuracy against ε")
