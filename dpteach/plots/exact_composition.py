"""Figure for chapter 11: k Laplace releases composed four ways (basic, Theorem 3.20, optimal for any ε-DP mechanism,
exact for Laplace), and the Gaussian in zCDP."""

from __future__ import annotations

import functools

import numpy as np

from .. import _validate
from .._text import power_text
from ..composition import advanced_composition, optimal_composition
from ..exact_composition import exact_laplace_epsilon, gaussian_zcdp_rho, zcdp_to_dp
from ._base import PALETTE, _number, _plain_log_axes, _Updatable, new_figure, styled

__all__ = ["ExactCompositionFigure"]

KS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000)


def _delta_text(delta: float) -> str:
    """δ as the figure writes it: 10⁻⁶, 2·10⁻⁷, or 0."""
    return power_text(delta) if delta > 0 else "0"


@functools.lru_cache(maxsize=512)
def _exact(k: int, epsilon: float, delta: float) -> float:
    return exact_laplace_epsilon(k, epsilon, delta)


class ExactCompositionFigure(_Updatable):
    """Total ε of k releases of Lap(1/ε) on a count, against k (log–log), at δ for the (ε, δ) totals.

    Basic composition kε (Theorem 3.16, pure ε), advanced composition (Theorem 3.20, δ′ = δ),
    the optimal composition theorem for any ε-DP mechanisms (Kairouz, Oh & Viswanath 2015,
    Theorem 3.3: :func:`~dpteach.optimal_composition`), the exact ε(δ) of these Laplace releases
    from their privacy loss distribution (:func:`~dpteach.exact_laplace_epsilon`),
    and, for comparison, Gaussian noise of the same variance (σ = √2/ε) composed in zCDP
    (ρ = kε²/4) and converted to (ε, δ) (:func:`~dpteach.zcdp_to_dp`). The horizontal line is a
    total budget of 1. The curves are computed once at the slider's k values; a frame moves
    the marker, the dots and the title. Axes fixed.
    """

    def __init__(self, epsilon: float = 0.1, delta: float = 1e-6, ks=KS) -> None:
        self.epsilon = _validate.epsilon(epsilon)
        self.delta = _validate.real("delta", delta, low=0.0, high=1.0, high_open=True)
        self.ks = tuple(sorted(_validate.integer("k", k, low=1, high=10_000) for k in ks))
        k = np.array(self.ks, dtype=float)
        self.basic = k * self.epsilon
        self.advanced = np.array([advanced_composition(int(n), self.epsilon, self.delta)[0] for n in self.ks])
        self.optimal = np.array([optimal_composition(int(n), self.epsilon, self.delta)[0] for n in self.ks])
        self.exact = np.array([_exact(int(n), self.epsilon, self.delta) for n in self.ks])
        rho = gaussian_zcdp_rho(np.sqrt(2) / self.epsilon)
        self.gaussian = np.asarray(zcdp_to_dp(k * rho, self.delta))
        self.fig, self.ax = new_figure(height=4.6)
        with styled():
            ax = self.ax
            ax.loglog(k, self.basic, "o-", color=PALETTE["black"], ms=4, label="basic: kε (pure)")
            ax.loglog(k, self.advanced, "s-", color=PALETTE["orange"], ms=4, label="advanced, Theorem 3.20")
            ax.loglog(k, self.exact, "D-", color=PALETTE["blue"], ms=4, label="exact for Laplace (loss distribution)")
            ax.loglog(k, self.optimal, "v--", color=PALETTE["purple"], ms=6, lw=1.6,     # on top: nearly the same
                      label="optimal for any ε-DP (KOV 2015, Thm 3.3)")
            ax.loglog(k, self.gaussian, "^--", color=PALETTE["green"], ms=4, lw=1.6,
                      label="Gaussian, same variance, zCDP → (ε, δ)")
            ax.axhline(1.0, color=PALETTE["vermillion"], lw=1.2, ls=":", label="a total of ε = 1")
            self.marker = ax.axvline(1, color=PALETTE["sky"], lw=2, ls="--")
            (self.dots,) = ax.plot([1, 1, 1, 1], [1, 1, 1, 1], "o", color=PALETTE["vermillion"], ms=9, zorder=5,
                                   mfc="none", mew=2)
            ax.set_xlim(k[0] / 1.3, k[-1] * 1.3)
            top = max(self.basic.max(), self.advanced.max())
            ax.set_ylim(min(self.basic.min(), self.exact.min(), self.gaussian.min()) / 1.5, top * 1.5)
            ax.set_xlabel("k: releases of one count")
            ax.set_ylabel(f"total ε (δ = {_delta_text(self.delta)})")
            ax.set_title(" \n ")           # two lines: the k and its four totals
            # below the axes: the k marker crosses the whole height
            self.fig.legend(loc="outside lower center", ncols=2, fontsize="x-small")    # (three ran off a projector's figure)
            _plain_log_axes(ax)
        self.dynamic = [self.marker, self.dots, ax.title]
        self.k = None

    def update(self, k: int) -> dict:
        if k not in self.ks:
            raise ValueError(f"k must be one of {list(self.ks)}, got {k!r}")
        i = self.ks.index(k)
        basic, advanced, exact = float(self.basic[i]), float(self.advanced[i]), float(self.exact[i])
        optimal = float(self.optimal[i])
        self.k = k
        self.marker.set_xdata([k, k])
        self.dots.set_data([k, k, k, k], [basic, advanced, optimal, exact])
        self.ax.title.set_text(f"{k:,} releases at ε = {self.epsilon:g}\nbasic {_number(basic)}, "
                               f"advanced {_number(advanced)}, optimal {_number(optimal)}, exact {_number(exact)}")
        return {"k": k, "basic": basic, "advanced": advanced, "optimal": optimal, "exact": exact,
                "gaussian": float(self.gaussian[i])}

    def alt_text(self) -> str:
        """The five totals against k, and their values at the slider's k."""
        what = (f"Line chart, log–log: the total ε of k releases of Lap(1/ε) with ε = {self.epsilon:g} on one count, "
                f"against k from {self.ks[0]:,} to {self.ks[-1]:,}, at δ = {_delta_text(self.delta)}: basic composition, advanced "
                "composition (Theorem 3.20), the optimal composition theorem for any ε-DP mechanism, the exact ε of "
                "these Laplace releases, and Gaussian noise of the same variance in zCDP; a line marks a total of 1")
        if self.k is None:
            return what + "."
        i = self.ks.index(self.k)
        return (f"{what}. At k = {self.k:,}: basic {_number(self.basic[i])}, advanced {_number(self.advanced[i])}, "
                f"optimal {_number(self.optimal[i])}, exact {_number(self.exact[i])}; the Gaussian's "
                f"{_number(self.gaussian[i])}.")

    def data_table(self) -> dict | None:
        """One row per k of the slider: the five totals."""
        rows = [[f"{k:,}", *(_number(series[i]) for series in (self.basic, self.advanced, self.optimal, self.exact,
                                                                self.gaussian))] for i, k in enumerate(self.ks[:25])]
        return {"caption": f"Total ε of k releases at ε = {self.epsilon:g}, δ = {_delta_text(self.delta)}",
                "columns": ["k", "basic", "advanced (Theorem 3.20)", "optimal (KOV 2015)", "exact for Laplace",
                            "Gaussian, zCDP"], "rows": rows}
