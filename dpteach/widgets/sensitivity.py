"""Sliders for chapter 01: sensitivity by enumeration of neighbouring databases (Definition 3.1)."""

from __future__ import annotations

import numpy as np

from .. import plots
from ..sensitivity import neighbour_differences
from ._base import Interactive, _check_number, _int_slider

#: why max_value and max_size are bounded: every database of up to max_size records is listed
_ENUMERATION = "what the widget enumerates in a few seconds"


def clipped_sum_sensitivity(clip: int = 3, max_value: int = 10, max_size: int = 3) -> Interactive:
    """Slider R: the sum of ages clipped to [0, R] has Δf = R, found by enumerating neighbours.

    Every R's enumeration is done once, when the widget is built; the axes hold every R
    (changes 0 to ``max_value``, pairs 0 to the tallest bar of any R), so a frame moves bars only.
    """
    max_value = _check_number("max_value", max_value, 1, 20, integer=True, where=_ENUMERATION)
    max_size = _check_number("max_size", max_size, 1, 4, integer=True, where=_ENUMERATION)
    slider = _int_slider("clip", clip, 1, max_value, "R (clip bound)")
    values = np.arange(max_value + 1)
    diffs = {r: neighbour_differences(lambda xs, r=r: xs @ np.clip(values, 0, r), values, max_size, vectorized=True)
             for r in range(1, max_value + 1)}
    tallest = max(d.change_counts()[1].max() for d in diffs.values())
    fig = plots.NeighbourChangesFigure(labels=("sum clipped to [0, R]",), x_max=max_value, y_max=1.08 * tallest)

    def update(clip: int) -> dict:
        d = diffs[clip]
        out = fig.update(d, names=(f"sum of values 0–{max_value} clipped to [0, {clip}]",))
        return {"clip": clip, "sensitivity": d.sensitivity, **out}

    return Interactive(fig, {"clip": slider}, "the clipped sum's sensitivity, by enumeration", update=update)


def counting_queries_sensitivity(k: int = 4, max_size: int = 2) -> Interactive:
    """Slider k: k overlapping counts ("age ≥ j") have Δf = k; k disjoint cells ("age = j") have Δf = 1.

    Both enumerations are done for every k when the widget is built; both panels share fixed
    axes (changes 0 to 10, pairs 0 to the tallest bar of any k), so the histogram's bars stay
    at 0 and 1 while the overlapping counts' bars spread out to k.
    """
    slider = _int_slider("k", k, 1, 10, "k (queries)")
    max_size = _check_number("max_size", max_size, 1, 3, integer=True, where=_ENUMERATION)
    universe = np.arange(11)
    ks = range(1, 11)
    diffs = {}
    for n in ks:
        thresholds = np.arange(1, n + 1)
        at_least = (universe[None, :] >= thresholds[:, None]).astype(float)   # query j: how many aged ≥ j
        exactly = (universe[None, :] == thresholds[:, None]).astype(float)    # cell j: how many aged j
        diffs[n] = (neighbour_differences(lambda xs, a=at_least: xs @ a.T, universe, max_size, vectorized=True),
                    neighbour_differences(lambda xs, e=exactly: xs @ e.T, universe, max_size, vectorized=True))
    tallest = max(d.change_counts()[1].max() for pair in diffs.values() for d in pair)
    fig = plots.NeighbourChangesFigure(labels=("k overlapping counts", "k-cell histogram"),
                                       x_max=max(ks), y_max=1.08 * tallest)

    def update(k: int) -> dict:
        overlapping, disjoint = diffs[k]
        out = fig.update(overlapping, disjoint, names=(f"{k} counts 'age ≥ j'", f"{k} cells 'age = j'"))
        return {"k": k, "overlapping": overlapping.sensitivity, "histogram": disjoint.sensitivity, **out}

    return Interactive(fig, {"k": slider}, "k overlapping counts against a k-cell histogram", update=update)
