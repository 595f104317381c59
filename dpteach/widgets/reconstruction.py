"""Sliders for chapter 11: the reconstruction attack (Dinur & Nissim 2003)."""

from __future__ import annotations

from .. import plots
from ._base import Interactive, _choice_slider, log_slider

__all__ = ["reconstruction_attack"]


def reconstruction_attack(noise_scale: float = 1.0, m: int = 400) -> Interactive:
    """Sliders b and m: the fraction of 100 secret bits least squares recovers from m subset sums with Lap(b) noise."""
    fig = plots.ReconstructionFigure()
    return Interactive(fig,
                       {"noise_scale": log_slider(noise_scale, *fig.B_RANGE, "b (noise)", name="noise_scale"),
                        "m": _choice_slider("m", fig.ms, m, "m (queries)")},
                       "reconstructing secret bits from noisy subset sums (Dinur & Nissim 2003)")
