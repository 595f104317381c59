"""Slider for chapter 03: what ε allows an attacker (the differencing attack)."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, epsilon_slider

__all__ = ["attack_success"]


def attack_success(epsilon: float = 1.0) -> Interactive:
    """Slider ε: the attacker's success against ε (limit, exact, simulated) and how far a belief can move."""
    eps = epsilon_slider(epsilon, low=0.01, high=10.0)
    fig = plots.AttackSuccessFigure(eps_min=0.01, eps_max=10.0)
    return Interactive(fig, {"epsilon": eps},
                       "the differencing attack's success against ε")
