"""Figure for chapter 11: privacy as hypothesis testing (the trade-off region, Laplace's curve, measured tests,
a membership attack)."""

from __future__ import annotations

import numpy as np
from matplotlib.collections import PolyCollection

from .. import _validate
from ..hypothesis import (
    TradeoffSampler,
    dp_tradeoff_limit,
    group_best_success,
    group_privacy,
    group_tradeoff_limit,
    laplace_tradeoff,
)
from ..tracing import tracing_attack
from ._base import PALETTE, _rng, _Updatable, new_figure, styled

__all__ = ["TradeoffFigure"]

#: Points of a measured ROC curve drawn (the tracing attack's thresholds: quantiles of its scores).
_ROC_POINTS = 120


def _roc(attack, epsilon):
    """The attack's (α, β) at ``_ROC_POINTS`` thresholds: quantiles of the pooled scores, plus both ends."""
    out, inn = attack.scores(epsilon)
    thresholds = np.r_[-np.inf, np.quantile(np.r_[out, inn], np.linspace(0, 1, _ROC_POINTS)), np.inf]
    return attack.rates(epsilon, thresholds)


class TradeoffFigure(_Updatable):
    """Type-I error α against type-II error β of every test of "x" against "y", for neighbours or a group of k.

    Shaded: the region no test of any (ε, δ)-DP mechanism can enter, for x and y k add/remove
    steps apart (a group of k people): for k = 1, α + e^ε·β < 1 − δ or e^ε·α + β < 1 − δ
    (Kairouz, Oh & Viswanath 2015); for k ≥ 2 the exact group region, the k-fold composition of
    the one-step trade-off (Dong, Roth & Su 2019; :func:`~dpteach.group_tradeoff_limit`), and
    dashed the region of (kε, δ_k) (:func:`~dpteach.group_privacy`), which bounds the odds but
    no mechanism reaches. Blue: the Laplace mechanism's exact trade-off curve for a count that
    moves by k (:func:`~dpteach.laplace_tradeoff`, pure ε: it does not move with δ). Dots with
    boxes: seven threshold tests measured on ``n`` samples per database, with Clopper–Pearson
    boxes that hold every true (α, β) at once with probability ``confidence`` (the chapter 09
    auditor's bounds). For one person (k = 1), the tracing attack on ``attributes`` released
    counts of ``others`` people (:func:`~dpteach.tracing_attack`), its measured (α, β) on exact
    counts and on counts with Lap(d/ε) noise. Axes fixed at [0, 1]².

    The measurements at every (ε, k) of the sliders are made once, when the figure is built.
    """

    def __init__(self, epsilons=(0.1, 0.25, 0.5, 1.0, 2.0, 3.0), ks=(1, 2, 3, 4),
                 deltas=(0.0, 0.01, 0.05, 0.1, 0.2), n: int = 4_000, confidence: float = 0.95,
                 others: int = 30, attributes: int = 300, trials: int = 1_000,
                 rng: np.random.Generator | None = None) -> None:
        self.epsilons = tuple(_validate.epsilon(e) for e in epsilons)
        self.ks = tuple(_validate.integer("k", k, low=1, high=20) for k in ks)
        self.deltas = tuple(_validate.real("delta", d, low=0.0, high=1.0, low_open=False, high_open=True)
                            for d in deltas)
        gen = _rng(rng)
        self.sampler = TradeoffSampler(n, confidence=confidence, rng=gen)
        self.measured = {(e, k): self.sampler.measure(e, k) for e in self.epsilons for k in self.ks}
        self.attack = tracing_attack(others, attributes, trials, rng=gen)
        self.attack_exact = _roc(self.attack, None)
        self.attack_noisy = {e: _roc(self.attack, e) for e in self.epsilons}
        self.alpha = np.linspace(0.0, 1.0, 301)
        self.fig, self.ax = new_figure(height=5.6)
        with styled():
            ax = self.ax
            ax.plot([0, 1], [1, 0], color="grey", lw=1.2, ls=":", label="coin toss (ε = 0)")
            self.region = ax.fill_between(self.alpha, 0 * self.alpha, 0 * self.alpha, color=PALETTE["vermillion"],
                                          alpha=0.25, lw=0, label="impossible under (ε, δ)-DP (a group of k: exact)")
            (self.outer,) = ax.plot(self.alpha, 0 * self.alpha, color=PALETTE["vermillion"], ls="--", lw=1.5,
                                    label="the odds bound kε for a group: not attained")
            (self.curve,) = ax.plot(self.alpha, 0 * self.alpha, color=PALETTE["blue"],
                                    label="Laplace on a count, exact")
            self.boxes = PolyCollection([], facecolor=PALETTE["sky"], edgecolor=PALETTE["black"], alpha=0.5, lw=0.8)
            ax.add_collection(self.boxes)
            (self.dots,) = ax.plot([], [], "o", color=PALETTE["black"], ms=4,
                                   label=f"threshold tests, {n:,} samples, {confidence:.0%} boxes")
            (self.traced,) = ax.plot([], [], color=PALETTE["purple"], lw=1.8,
                                     label=f"tracing attack, {attributes} exact counts of {others} people")
            (self.traced_noisy,) = ax.plot([], [], color=PALETTE["green"], lw=1.8,
                                           label="tracing attack, the counts with Lap(d/ε) (ε-DP)")
            self.note = ax.text(0.98, 0.98, "", transform=ax.transAxes, ha="right", va="top", fontsize="small",
                                bbox={"facecolor": "white", "alpha": 0.9, "edgecolor": "none"})
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1)
            ax.set_xlabel("α: type-I error (say y when it is x)")
            ax.set_ylabel("β: type-II error")
            ax.set_title(" ")
            # below the axes: seven entries would cover the data inside them
            self.fig.legend(loc="outside lower center", ncols=3, fontsize="x-small")
        self.dynamic = [self.region, self.outer, self.curve, self.boxes, self.dots, self.traced, self.traced_noisy,
                        self.note, self.ax.title]

    def update(self, epsilon: float, k: int = 1, delta: float = 0.0) -> dict:
        if (epsilon, k) not in self.measured or delta not in self.deltas:
            raise ValueError(f"epsilon must be one of {list(self.epsilons)}, k one of {list(self.ks)} and delta one "
                             f"of {list(self.deltas)}, got epsilon = {epsilon!r}, k = {k!r}, delta = {delta!r}")
        eps, group, d = float(epsilon), int(k), float(delta)
        limit = group_tradeoff_limit(self.alpha, eps, group, d)
        verts = np.concatenate([np.column_stack([self.alpha, limit]), [[1.0, 0.0], [0.0, 0.0]]])
        self.region.set_verts([verts])
        outer_eps, outer_delta = group_privacy(eps, group, d)
        hidden = np.full_like(self.alpha, -1.0)
        self.outer.set_data(self.alpha, dp_tradeoff_limit(self.alpha, outer_eps, min(outer_delta, 1.0))
                            if group > 1 else hidden)
        self.curve.set_ydata(laplace_tradeoff(self.alpha, eps, shift=group))
        m = self.measured[(epsilon, k)]
        self.boxes.set_verts([[(a0, b0), (a1, b0), (a1, b1), (a0, b1)]
                              for (a0, a1), (b0, b1) in zip(m.alpha_box, m.beta_box)])
        self.dots.set_data(m.alpha, m.beta)
        if group == 1:
            self.traced.set_data(*self.attack_exact)
            self.traced_noisy.set_data(*self.attack_noisy[epsilon])
        else:                                 # the attack traces one person: its pair is one step apart
            self.traced.set_data([], [])
            self.traced_noisy.set_data([], [])
        laplace = 1 - 0.5 * np.exp(-group * eps / 2)
        bound = group_best_success(eps, group, d)
        self.note.set_text(f"best guess, 50/50 prior:\nLaplace {laplace:.1%}, limit {bound:.1%}"
                           + ("" if group == 1 else "\n(tracing attack: one person, k = 1)"))
        who = "one person" if group == 1 else f"a group of {group}"
        slack = f", δ = {d:g}" if d else ""
        self.ax.title.set_text(f"ε = {eps:g}{slack}, {who}: every test stays out of the shaded region")
        allowed = group_tradeoff_limit(m.alpha_box[:, 1], eps, group, d)
        inside = bool(np.all(m.beta_box[:, 1] >= allowed - 1e-12))
        return {"epsilon": eps, "k": group, "delta": d, "alpha": m.alpha, "beta": m.beta, "boxes_allowed": inside,
                "laplace_success": float(laplace), "limit_success": bound,
                "outer_epsilon": outer_eps, "outer_delta": outer_delta}
