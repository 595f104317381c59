"""Sliders for chapter 10: the Laplace mechanism at work."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import plots
from ..applications import synthetic_hospital, synthetic_purchases
from ._base import _SLIDER_LAYOUT, _STYLE, Interactive, epsilon_slider

__all__ = ["hospital_count", "purchase_histogram"]


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


