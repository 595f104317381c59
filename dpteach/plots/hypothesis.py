"""Figure for chapter 11: privacy as hypothesis testing (the trade-off region, Laplace's curve, measured tests)."""

from __future__ import annotations

import numpy as np
from matplotlib.collections import PolyCollection

from .. import _validate
from ..hypothesis import TradeoffSampler, best_success, dp_tradeoff_limit, laplace_tradeoff
from ._base import PALETTE, _rng, _Updatable, new_figure, styled

__all__ = ["TradeoffFigure"]


class TradeoffFigure(_Updatable):
    """Type-I error α against type-II error β of every test of "x" against "y", for a count released with Lap(1/ε).

    Shaded: the region no test of any ε-DP mechanism can enter, α + e^{kε}β < 1 or
    e^{kε}α + β < 1 (Kairouz, Oh & Viswanath 2015), for neighbours that differ in a group of
    k people (protected at kε). Blue: the Laplace mechanism's exact trade-off curve for a count
    that moves by k (:func:`~dpteach.laplace_tradeoff`). Dots with boxes: seven threshold tests
    measured on ``n`` samples per database, with Clopper–Pearson boxes that hold every true
    (α, β) at once with probability ``confidence`` (the chapter 09 auditor's bounds). When
    k > 1 the dashed line is one person's limit, at ε. Axes fixed at [0, 1]².

    The measurements at every (ε, k) of the sliders are made once, when the figure is built.
    """

    def __init__(self, epsilons=(0.1, 0.25, 0.5, 1.0, 2.0, 3.0), ks=(1, 2, 3, 4), n: int = 4_000,
                 confidence: float = 0.95, rng: np.random.Generator | None = None) -> None:
        self.epsilons = tuple(_validate.epsilon(e) for e in epsilons)
        self.ks = tuple(_validate.integer("k", k, low=1, high=20) for k in ks)
        self.sampler = TradeoffSampler(n, confidence=confidence, rng=_rng(rng))
        self.measured = {(e, k): self.sampler.measure(e, k) for e in self.epsilons for k in self.ks}
        self.alpha = np.linspace(0.0, 1.0, 401)
        self.fig, self.ax = new_figure(height=5.0)
        with styled():
            ax = self.ax
            ax.plot([0, 1], [1, 0], color="grey", lw=1.2, ls=":", label="coin toss (ε = 0)")
            self.region = ax.fill_between(self.alpha, 0 * self.alpha, 0 * self.alpha, color=PALETTE["vermillion"],
                                          alpha=0.25, lw=0, label="impossible for any kε-DP mechanism")
            (self.one,) = ax.plot(self.alpha, 0 * self.alpha, color=PALETTE["vermillion"], ls="--", lw=1.5,
                                  label="one person's limit (ε)")
            (self.curve,) = ax.plot(self.alpha, 0 * self.alpha, color=PALETTE["blue"],
                                    label="Laplace on a count, exact")
            self.boxes = PolyCollection([], facecolor=PALETTE["sky"], edgecolor=PALETTE["black"], alpha=0.5, lw=0.8)
            ax.add_collection(self.boxes)
            (self.dots,) = ax.plot([], [], "o", color=PALETTE["black"], ms=4,
                                   label=f"threshold tests, {n:,} samples, {confidence:.0%} boxes")
            self.note = ax.text(0.98, 0.6, "", transform=ax.transAxes, ha="right", va="top", fontsize="small",
                                bbox={"facecolor": "white", "alpha": 0.9, "edgecolor": "none"})
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1)
            ax.set_xlabel("α: type-I error (say y when it is x)")
            ax.set_ylabel("β: type-II error")
            ax.set_title(" ")
            ax.legend(loc="upper right", fontsize="x-small")
        self.dynamic = [self.region, self.one, self.curve, self.boxes, self.dots, self.note, self.ax.title]

    def update(self, epsilon: float, k: int = 1) -> dict:
        if (epsilon, k) not in self.measured:
            raise ValueError(f"epsilon must be one of {list(self.epsilons)} and k one of {list(self.ks)}, "
                             f"got epsilon = {epsilon!r}, k = {k!r}")
        eps, group = float(epsilon), int(k)
        limit = dp_tradeoff_limit(self.alpha, group * eps)
        curve = laplace_tradeoff(self.alpha, eps, shift=group)
        verts = np.concatenate([np.column_stack([self.alpha, limit]), [[1.0, 0.0], [0.0, 0.0]]])
        self.region.set_verts([verts])
        self.one.set_data(self.alpha, dp_tradeoff_limit(self.alpha, eps) if group > 1 else np.full_like(self.alpha, -1))
        self.curve.set_ydata(curve)
        m = self.measured[(epsilon, k)]
        self.boxes.set_verts([[(a0, b0), (a1, b0), (a1, b1), (a0, b1)]
                              for (a0, a1), (b0, b1) in zip(m.alpha_box, m.beta_box)])
        self.dots.set_data(m.alpha, m.beta)
        laplace, bound = 1 - 0.5 * np.exp(-group * eps / 2), best_success(group * eps)
        self.note.set_text(f"best guess, 50/50 prior:\nLaplace {laplace:.1%}, limit {bound:.1%}")
        who = "one person" if group == 1 else f"a group of {group}"
        level = "ε" if group == 1 else f"{group}ε"
        self.ax.title.set_text(f"ε = {eps:g}, {who}: tests stay out of the region of {level} = {group * eps:g}")
        inside = bool(np.all(m.beta_box[:, 1] >= dp_tradeoff_limit(m.alpha_box[:, 1], group * eps) - 1e-12))
        return {"epsilon": eps, "k": group, "alpha": m.alpha, "beta": m.beta, "boxes_allowed": inside,
                "laplace_success": float(laplace), "limit_success": bound}
