"""Sliders for chapter 06: composition, post-processing and the privacy budget."""

from __future__ import annotations

import numpy as np

from .. import plots
from ..curator import first_name_counts, synthetic_town
from ._base import Interactive, _choice_slider, _int_slider, _people, _seed, epsilon_slider, log_slider

__all__ = ["advanced_composition", "post_processing", "sequential_averaging"]


def sequential_averaging(k: int = 2, epsilon: float = 1.0) -> Interactive:
    """Sliders k and ε: k answers to one count, averaged, at ε/k each (split) or at ε each (the attack)."""
    eps = epsilon_slider(epsilon)
    fig = plots.AveragingFigure(epsilon_range=(0.01, 10.0))      # the ε slider's range: the axes never move
    slider = _int_slider("k", k, 1, fig.k_max, "k (answers)")
    return Interactive(fig, {"k": slider, "epsilon": eps},
                       "k answers averaged: the budget split, or spent k times (Theorem 3.16)")


_KS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)


def advanced_composition(k: int = 100, epsilon: float = 0.1, delta_prime: float = 1e-6) -> Interactive:
    """Sliders k, ε and δ′: the total ε of k queries by basic (Thm 3.16) and advanced (Thm 3.20) composition."""
    controls = {"k": _choice_slider("k", _KS, k, "k (queries)"),
                "epsilon": epsilon_slider(epsilon, low=0.001, high=1.0),
                "delta_prime": log_slider(delta_prime, 1e-9, 1e-2, "δ′ (delta′)", readout_format=".0e",
                                          name="delta_prime")}
    fig = plots.AdvancedCompositionFigure(epsilon_range=(0.001, 1.0), delta_prime_range=(1e-9, 1e-2))
    return Interactive(fig, controls,
                       "the total ε of k queries: basic against advanced composition")


def post_processing(epsilon: float = 1.0, people: int = 2_000, seed: int = 2014) -> Interactive:
    """Slider ε: a town's first-name histogram released, clamped, rounded, and fitted to its public total.

    The town is :func:`~dpteach.synthetic_town` drawn with ``seed``.
    """
    eps = epsilon_slider(epsilon)
    town = synthetic_town(_people("people", people),
                          rng=np.random.default_rng(_seed(seed)))
    fig = plots.PostProcessingFigure(first_name_counts(town["first_name"]))
    return Interactive(fig, {"epsilon": eps},
                       f"post-processing a {people:,}-person town's name histogram (Proposition 2.1)")
