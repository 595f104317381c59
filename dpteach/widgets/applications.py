"""Sliders for chapter 10: the Laplace mechanism at work."""

from __future__ import annotations

import numpy as np

from .. import plots
from ..applications import synthetic_hospital, synthetic_purchases
from ._base import Interactive, _int_slider, _people, _seed, epsilon_slider

__all__ = ["hospital_count", "purchase_histogram"]


def hospital_count(epsilon: float = 1.0, patients: int = 2_000, seed: int = 2014) -> Interactive:
    """Slider ε: a hospital's count of patients with the condition, released with Lap(1/ε).

    The hospital is :func:`~dpteach.synthetic_hospital` drawn with ``seed``.
    """
    eps = epsilon_slider(epsilon)
    hospital = synthetic_hospital(_people("patients", patients), rng=np.random.default_rng(_seed(seed)))
    count = int(hospital["condition"].sum())
    fig = plots.HospitalCountFigure(count)
    return Interactive(fig, {"epsilon": eps},
                       f"the count of {count:,} patients with the condition, released at ε")


def purchase_histogram(cap: int = 1, epsilon: float = 1.0, customers: int = 3_000, seed: int = 2014) -> Interactive:
    """Sliders c and ε: purchases by category with each customer capped at c purchases (Δf = c)."""
    eps = epsilon_slider(epsilon)
    log = synthetic_purchases(_people("customers", customers), rng=np.random.default_rng(_seed(seed)))
    fig = plots.CappedReportFigure(log["users"], log["cells"], log["labels"], subject="purchases")
    slider = _int_slider("cap", cap, 1, fig.cap_max, "c (cap per customer)")
    return Interactive(fig, {"cap": slider, "epsilon": eps},
                       f"purchases of {customers:,} customers by category, capped at c each")


