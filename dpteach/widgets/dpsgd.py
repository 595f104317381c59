"""Sliders for chapter 10's DP-SGD in miniature."""

from __future__ import annotations

import numpy as np

from .. import plots
from ..applications import synthetic_hospital
from ._base import Interactive, _choice_slider, _people, _seed

__all__ = ["dpsgd_accuracy"]


def dpsgd_accuracy(epsilon: float = 1.0, clip: float = 1.0, patients: int = 2_000, seed: int = 2014) -> Interactive:
    """Sliders ε and C: DP-SGD's test accuracy and boundaries, all models trained once in advance.

    The patients are :func:`~dpteach.synthetic_hospital` drawn with ``seed``; the first half
    trains, the second half tests.
    """
    patients, seed = _people("patients", patients, low=20), _seed(seed)
    data = synthetic_hospital(patients, rng=np.random.default_rng(seed))
    half = patients // 2
    x, y = data["features"], data["condition"]
    fig = plots.DPSGDFigure(x[:half], y[:half], x[half:], y[half:], rng=np.random.default_rng(seed + 1))
    return Interactive(fig,
                       {"epsilon": _choice_slider("epsilon", fig.EPSILONS, epsilon, "ε (epsilon)", fmt="g"),
                        "clip": _choice_slider("clip", fig.CLIPS, clip, "C (ℓ1 clip)", fmt="g")},
                       "DP-SGD on the hospital's patients: accuracy against ε")
