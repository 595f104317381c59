"""Figure for chapter 11: the reconstruction attack (Dinur & Nissim 2003) against the noise per answer."""

from __future__ import annotations

import numpy as np

from .. import _validate
from ..reconstruction import ReconstructionSweep
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled

__all__ = ["ReconstructionFigure"]

#: the other m's curves: the darkest grey that still sets them back (4.5:1 on white)
_GREY = "#767676"


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
                ax.semilogx(self.grid, self.curves[m], color=_GREY, lw=1, label="other m" if i == 0 else None)
            ax.axhline(0.5, color=PALETTE["black"], lw=1.2, ls=":", label="coin toss")
            ax.axvline(np.sqrt(self.n), color=PALETTE["green"], lw=1.5, ls="-.", label=f"b = √n = {np.sqrt(self.n):.3g}")
            # marked: the other m's curves are solid too, in a grey as dark as this blue
            (self.curve,) = ax.semilogx(self.grid, self.curves[self.ms[0]], color=PALETTE["blue"], marker="o", ms=4,
                                        markevery=6, label="least squares, this m")
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
        self._drawn: dict | None = None

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
        self._drawn = {"noise_scale": b, "m": m, "rate": rate, "total_epsilon": m / b}
        return self._drawn

    def alt_text(self) -> str:
        """The curves, and at the slider's b and m: the share of bits recovered and the total ε."""
        what = (f"Line chart: the fraction of {self.n} secret bits that least squares recovers from m noisy subset sums, "
                f"against the Laplace scale b of each answer's noise (log axis, {self.B_RANGE[0]:g} to "
                f"{self.B_RANGE[1]:,.0f}), one curve per m ({', '.join(str(m) for m in self.ms)}), with a coin toss at "
                f"50% and the lines b = √n = {np.sqrt(self.n):.3g} and b = m (ε = 1 in total)")
        r = self._drawn
        if r is None:
            return what + "."
        return (f"{what}. At m = {r['m']}, b = {r['noise_scale']:.3g}: {r['rate']:.0%} of {self.n} bits recovered, "
                f"total ε = {_number(r['total_epsilon'])}.")

    def data_table(self) -> dict | None:
        """The fraction recovered at every sixth b of the grid, one column per m."""
        rows = [[f"{self.grid[i]:.3g}", *(f"{self.curves[m][i]:.0%}" for m in self.ms)]
                for i in range(0, self.grid.size, 6)]
        return {"caption": f"Fraction of {self.n} bits recovered, by noise scale b and number of answers m",
                "columns": ["b", *(f"m = {m}" for m in self.ms)], "rows": rows}

    def explore_points(self) -> list[dict]:
        """The slider's m's curve: the fraction recovered at 45 noise scales."""
        m = self.ms[0] if self._drawn is None else self._drawn["m"]
        return [{"name": f"least squares, m = {m}", "x": "noise per answer, Laplace scale b",
                 "y": "fraction of bits recovered",
                 "points": [[round(float(b), 6), float(y)] for b, y in zip(self.grid[::2], self.curves[m][::2])]}]
