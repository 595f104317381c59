"""Sliders for chapter 01: sensitivity by enumeration of neighbouring databases (Definition 3.1)."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import plots
from ..sensitivity import neighbour_differences
from ._base import _SLIDER_LAYOUT, _STYLE, Interactive


def clipped_sum_sensitivity(clip: int = 3, max_value: int = 10, max_size: int = 3) -> Interactive:
    """Slider R: the sum of ages clipped to [0, R] has Δf = R, found by enumerating neighbours."""
    values = np.arange(max_value + 1)
    fig = plots.NeighbourChangesFigure(labels=("sum clipped to [0, R]",))

    def update(clip: int) -> dict:
        diffs = neighbour_differences(lambda xs: xs @ np.clip(values, 0, clip), values, max_size, vectorized=True)
        out = fig.update(diffs)
        fig.axes[0].title.set_text(f"sum of values 0–{max_value} clipped to [0, {clip}]: Δf = {diffs.sensitivity:g}")
        return {"clip": clip, "sensitivity": diffs.sensitivity, **out}

    slider = widgets.IntSlider(value=clip, min=1, max=max_value, description="R (clip bound)",
                               layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, update, {"clip": slider}, "the clipped sum's sensitivity, by enumeration")


def counting_queries_sensitivity(k: int = 4, max_size: int = 2) -> Interactive:
    """Slider k: k overlapping counts ("age ≥ j") have Δf = k; k disjoint cells ("age = j") have Δf = 1."""
    universe = np.arange(11)
    fig = plots.NeighbourChangesFigure(labels=("k overlapping counts", "k-cell histogram"))

    def update(k: int) -> dict:
        thresholds = np.arange(1, k + 1)
        at_least = (universe[None, :] >= thresholds[:, None]).astype(float)   # query j: how many aged ≥ j
        exactly = (universe[None, :] == thresholds[:, None]).astype(float)    # cell j: how many aged j
        overlapping = neighbour_differences(lambda xs: xs @ at_least.T, universe, max_size, vectorized=True)
        disjoint = neighbour_differences(lambda xs: xs @ exactly.T, universe, max_size, vectorized=True)
        out = fig.update(overlapping, disjoint)
        fig.axes[0].title.set_text(f"{k} counts 'age ≥ j': Δf = {overlapping.sensitivity:g}")
        fig.axes[1].title.set_text(f"{k} cells 'age = j': Δf = {disjoint.sensitivity:g}")
        return {"k": k, "overlapping": overlapping.sensitivity, "histogram": disjoint.sensitivity, **out}

    slider = widgets.IntSlider(value=k, min=1, max=10, description="k (queries)",
                               layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, update, {"k": slider}, "k overlapping counts against a k-cell histogram")
