"""Sliders for chapter 07: private selection."""

from __future__ import annotations

import math
import numbers

import ipywidgets as widgets
import numpy as np

from .. import plots
from ..census import census_first_names
from ._base import _SLIDER_LAYOUT, _STYLE, Interactive, _choice_slider, _names, _positive, _values, epsilon_slider

__all__ = ["above_threshold_stream", "exponential_choice", "noisy_max"]

#: The default non-numeric choice: where a team of 40 holds its offsite, scored by 2 points for a
#: colleague's favourite venue and 1 for each venue they would accept (so Δu = 2).
VENUES = ("Lisbon", "Oslo", "Turin", "Kraków", "Ghent")
VENUE_SCORES = (47, 43, 31, 22, 12)


def noisy_max(people: int = 5_000, epsilon: float = 1.0) -> Interactive:
    """Sliders town size and ε: how often Report Noisy Max names a town's most common first name."""
    controls = {"people": _choice_slider("people", plots.NoisyMaxFigure.TOWNS, people, "town (people)"),
                "epsilon": epsilon_slider(epsilon)}
    fig = plots.NoisyMaxFigure(census_first_names())
    return Interactive(fig, controls,
                       "Report Noisy Max on a town's first names (Claim 3.9)")


def exponential_choice(candidates=VENUES, utilities=VENUE_SCORES, sensitivity: float = 2.0,
                       epsilon: float = 1.0) -> Interactive:
    """Slider ε: the exponential mechanism's probabilities over non-numeric candidates (Definition 3.4)."""
    eps = epsilon_slider(epsilon)
    utilities = _values("utilities", utilities)
    candidates = _names("candidates", candidates, utilities.size)
    sensitivity = _positive("sensitivity", sensitivity)
    fig = plots.ExponentialMechanismFigure(candidates, utilities, sensitivity)
    return Interactive(fig, {"epsilon": eps},
                       "the exponential mechanism on a non-numeric choice")


def _default_stream() -> tuple[list[str], np.ndarray]:
    data = census_first_names()
    counts = np.random.default_rng(2014).multinomial(20_000, data.counts / data.total)
    asked = ["LINDA", "PAUL", "SUSAN", "MARK", "KAREN", "DONALD", "HELEN", "JOHN", "BETTY", "MARY"]
    index = {str(name): i for i, name in enumerate(data.names)}
    return [name.title() for name in asked], counts[[index[name] for name in asked]].astype(float)


def above_threshold_stream(labels=None, answers=None, epsilon: float = 1.0,
                           threshold: float = 150.0) -> Interactive:
    """Sliders ε and T: which query AboveThreshold reports first, exactly and measured (§3.6)."""
    eps = epsilon_slider(epsilon)
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, numbers.Real) \
            or not math.isfinite(threshold) or not float(threshold).is_integer():
        raise ValueError(f"threshold must be a whole number (the slider moves in steps of 1), got {threshold!r}")
    threshold = float(threshold)
    if labels is None and answers is None:
        labels, answers = _default_stream()
    values = _values("answers", answers)
    labels = _names("labels", labels, values.size)
    fig = plots.AboveThresholdFigure(labels, values)
    low = min(float(np.floor(values.min())), float(threshold))
    high = max(float(np.ceil(values.max())), float(threshold))
    slider = widgets.FloatSlider(value=float(threshold), min=low, max=high, step=1.0, description="T (threshold)",
                                 readout_format=".0f", layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, {"epsilon": eps, "threshold": slider},
                       "AboveThreshold: the first query above a noisy threshold (Algorithm 1)")
