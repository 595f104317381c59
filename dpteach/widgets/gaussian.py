"""Sliders for chapter 08: the Gaussian and Generalized Gaussian mechanisms."""

from __future__ import annotations

import ipywidgets as widgets

from .. import plots
from ..generalized_gaussian.table import TABLE_DELTA, TABLE_EPSILON_RANGE, TABLE_K, TABLE_P
from ._base import _SLIDER_LAYOUT, _STYLE, Interactive, _check_number, _choice_slider, epsilon_slider, log_slider

__all__ = [
    "error_tradeoff",
    "gaussian_calibration",
    "generalized_gaussian_density",
    "privacy_delta_slider",
    "sensitivity_norms",
]


def privacy_delta_slider(value: float = 1e-6, low: float = 1e-10, high: float = 1e-2,
                         name: str = "delta") -> widgets.FloatLogSlider:
    """A log-scaled δ slider for (ε, δ)-DP, 10⁻¹⁰ to 10⁻² by default, two significant figures;
    ``value`` is checked as the argument ``name``."""
    return log_slider(value, low, high, "δ (delta)", readout_format=".2", name=name)


def sensitivity_norms(epsilon: float = 1.0, delta: float = 1e-6) -> Interactive:
    """Sliders ε and δ: the noise per answer of k counting queries, Laplace (Δ₁ = k) against Gaussian (Δ₂ = √k)."""
    controls = {"epsilon": epsilon_slider(epsilon, low=0.05, high=10.0), "delta": privacy_delta_slider(delta)}
    fig = plots.SensitivityNormsFigure()
    return Interactive(fig, controls,
                       "noise per answer for k counting queries: Laplace against Gaussian")


def gaussian_calibration(epsilon: float = 1.0, delta: float = 1e-5) -> Interactive:
    """Sliders ε and δ: the analytic Gaussian σ against Theorem 3.22's σ = c·Δ₂f/ε."""
    controls = {"epsilon": epsilon_slider(epsilon, low=0.05, high=10.0), "delta": privacy_delta_slider(delta)}
    fig = plots.GaussianCalibrationFigure()
    return Interactive(fig, controls,
                       "the Gaussian mechanism's σ: analytic against Theorem 3.22")


def generalized_gaussian_density(p: float = 2.0) -> Interactive:
    """Slider p: the Generalized Gaussian density at unit variance, from Laplace (p = 1) to nearly flat (p = 8)."""
    p = _check_number("p", p, 1.0, 8.0)
    if abs(p * 20 - round(p * 20)) > 1e-9:
        raise ValueError(f"p must be a multiple of 0.05 in [1, 8] (the slider's steps), got {p!r}")
    fig = plots.GeneralizedGaussianDensityFigure()
    slider = widgets.FloatSlider(value=p, min=1.0, max=8.0, step=0.05, description="p (shape)",
                                 readout_format=".2f", continuous_update=True, layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, {"p": slider}, "the Generalized Gaussian family, one slider p")


def error_tradeoff(p: float = 4.0, k: int = 10_000, epsilon: float = 1.0, delta: float = 1e-6) -> Interactive:
    """Sliders p, k, ε, δ: the largest error of Laplace, Gaussian and Generalized Gaussian noise for k
    counting queries, and the ℓ1/ℓ∞ trade-off of p (σ from the shipped table of accountant results)."""
    low, high = TABLE_EPSILON_RANGE
    controls = {"p": _choice_slider("p", TABLE_P, p, "p (shape)"),
                "k": _choice_slider("k", TABLE_K, k, "k (queries)"),
                "epsilon": epsilon_slider(epsilon, low=low, high=high),
                "delta": privacy_delta_slider(delta, low=min(TABLE_DELTA), high=max(TABLE_DELTA))}
    fig = plots.ErrorTradeoffFigure()
    return Interactive(fig, controls,
                       "the ℓ∞ error of k counting queries and the ℓ1/ℓ∞ trade-off of p")
