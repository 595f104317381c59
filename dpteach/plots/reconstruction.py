"""Figure for chapter 11: the reconstruction attack (Dinur & Nissim 2003) against the noise per answer."""

from __future__ import annotations

import numpy as np

from .. import _validate
from ..reconstruction import ReconstructionSweep
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled

__all__ = ["ReconstructionFigure"]


class ReconstructionFigure(_Updatable):
    """The fraction of n secret bits that least squares recovers from m noisy subset sums, against the noise.

    x: the Laplace scale b of each answer's noise (log axis, 0.1 to 1,000); y: the fraction of
    bits recovered, averaged over ``trials`` secrets (:class:`~dpteach.ReconstructionSweep`:
    fixed secrets, subsets and unit noise, so a slider only rescales the noise). Thin grey
    curves: every m of the slider; the bold curve is the slider's m, the dot its b. Static
    references: a coin toss (½) and b = √n; the dashed line marks b = m, the noise that ε = 1
    in total needs when split over the m answers (basic composition). Axes fixed.
    """

    B_RANGE = (0.1, 1000.0)

    def __init__(self, n: int = 100, ms=(50, 100, 200, 400, 800), trials: int = 20,
                 rng: np.random.Generator | None = None) -> None:
        self.sweep = ReconstructionSweep(n, ms, trials, rng=_rng(rng))
        self.n, self.ms = self.sweep.n, self.sweep.ms
        self.grid = np.geomspace(*self.B_RANGE, 90)
        self.curves = {m: self.sweep.rates(m, self.grid) for m in self.ms}
        self.fig, self.ax = new_figure(height=4.6)
        with styled():
            ax = self.ax
            for i, m in enumerate(self.ms):
                ax.semilogx(self.grid, self.curves[m], color="grey", lw=1, alpha=0.5,
                            label="other m" if i == 0 else None)
            ax.axhline(0.5, color=PALETTE["black"], lw=1.2, ls=":", label="coin toss")
            ax.axvline(np.sqrt(self.n), color=PALETTE["green"], lw=1.5, label=f"b = √n = {np.sqrt(self.n):.3g}")
            (self.curve,) = ax.semilogx(self.grid, self.curves[self.ms[0]], color=PALETTE["blue"],
                                        label="least squares, this m")
            self.budget = ax.axvline(self.ms[0], color=PALETTE["vermillion"], ls="--", lw=2,
                                     label="b = m: ε = 1 in total")
            (self.dot,) = ax.plot([1.0], [1.0], "o", color=PALETTE["black"], ms=8, zorder=5)
            ax.set_xlim(*self.B_RANGE)
            ax.set_ylim(0.4, 1.03)
            ax.set_xlabel("noise per answer: Laplace scale b")
            ax.set_ylabel("fraction of bits recovered")
            ax.set_title(" ")
            # below the axes: the curves and the coin-toss line run across the whole width
            self.fig.legend(loc="outside lower center", ncols=3, fontsize="small")
            _plain_log_axes(ax)
        self.dynamic = [self.curve, self.budget, self.dot, ax.title]

    def update(self, noise_scale: float, m: int) -> dict:
        b = _validate.real("noise_scale", noise_scale, low=self.B_RANGE[0], high=self.B_RANGE[1], low_open=False)
        if m not in self.curves:
            raise ValueError(f"m must be one of {list(self.ms)}, got {m!r}")
        rate = float(self.sweep.rates(m, b))
        self.curve.set_ydata(self.curves[m])
        self.budget.set_xdata([m, m])
        self.dot.set_data([b], [rate])
        self.ax.title.set_text(f"m = {m}, b = {b:.3g}: {rate:.0%} of {self.n} bits recovered, "
                               f"total ε = {_number(m / b)}")
        return {"noise_scale": b, "m": m, "rate": rate, "total_epsilon": m / b}
