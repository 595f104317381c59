"""Figures for chapter 11: privacy as hypothesis testing (the trade-off region, Laplace's and the Gaussian's curves,
measured tests, a membership attack), and Gaussian DP's composition beside the (ε, δ) accounting of chapter 06."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba

from .. import _validate
from .._text import power_text
from ..gdp import gaussian_composition, gaussian_gdp_mu, gdp_best_success, gdp_delta, gdp_tradeoff
from ..hypothesis import (
    TradeoffSampler,
    dp_tradeoff_limit,
    group_best_success,
    group_privacy,
    group_tradeoff_limit,
    laplace_tradeoff,
)
from ..tracing import tracing_attack
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled

__all__ = ["GaussianCompositionFigure", "TradeoffFigure"]

#: Points of a measured ROC curve drawn (the tracing attack's thresholds: quantiles of its scores).
_ROC_POINTS = 120


def _roc(attack, epsilon):
    """The attack's (FPR, FNR) at ``_ROC_POINTS`` thresholds: quantiles of the pooled scores, plus both ends."""
    out, inn = attack.scores(epsilon)
    thresholds = np.r_[-np.inf, np.quantile(np.r_[out, inn], np.linspace(0, 1, _ROC_POINTS)), np.inf]
    return attack.rates(epsilon, thresholds)


class TradeoffFigure(_Updatable):
    """False positive rate FPR (type-I error) against false negative rate FNR (type-II error) of every test of "x"
    against "y", for neighbours or a group of k.

    Shaded: the region no test of any (ε, δ)-DP mechanism can enter, for x and y k add/remove
    steps apart (a group of k people): for k = 1, FPR + e^ε·FNR < 1 − δ or e^ε·FPR + FNR < 1 − δ
    (Kairouz, Oh & Viswanath 2015); for k ≥ 2 the exact group region, the k-fold composition of
    the one-step trade-off (Dong, Roth & Su 2019; :func:`~dpteach.group_tradeoff_limit`), and
    dashed the region of (kε, δ_k) (:func:`~dpteach.group_privacy`), which bounds the odds but
    no mechanism reaches. Blue: the Laplace mechanism's exact trade-off curve for a count that
    moves by k (:func:`~dpteach.laplace_tradeoff`, pure ε: it does not move with δ). Orange, dash-dotted:
    Gaussian noise of the same variance (σ = √2/ε) on that count, exactly μ-GDP with μ = kε/√2
    (:func:`~dpteach.gdp_tradeoff`, Dong, Roth & Su 2019): ε-DP for no ε (its curve enters the shaded
    region near both axes at δ = 0), (ε, δ)-DP from δ = :func:`~dpteach.gdp_delta` (ε, μ) on. Dots with
    boxes: seven threshold tests measured on ``n`` samples per database, with Clopper–Pearson
    boxes that hold every true (FPR, FNR) at once with probability ``confidence`` (the chapter 09
    auditor's bounds). For one person (k = 1), the tracing attack on ``attributes`` released
    counts of ``others`` people (:func:`~dpteach.tracing_attack`), its measured (FPR, FNR) on exact
    counts and on counts with Lap(d/ε) noise. Axes fixed at [0, 1]².

    The measurements and the Gaussian curves at every (ε, k) of the sliders are made once, when the figure is
    built.
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
        self.fpr = np.linspace(0.0, 1.0, 301)
        # Gaussian noise of the variance of Lap(1/ε) (σ = √2/ε) on a count that moves by k: μ = kε/√2
        self.gaussian_mu = {(e, k): gaussian_gdp_mu(math.sqrt(2) / e, sensitivity=k)
                            for e in self.epsilons for k in self.ks}
        self.gaussian = {key: gdp_tradeoff(self.fpr, mu) for key, mu in self.gaussian_mu.items()}
        self.fig, self.ax = new_figure(height=5.6)
        with styled():
            ax = self.ax
            ax.plot([0, 1], [1, 0], color="grey", lw=1.2, ls=":", label="coin toss (ε = 0)")
            # a light fill edged in full colour: the edge reads at 3:1 on white, the fill does not
            self.region = ax.fill_between(self.fpr, 0 * self.fpr, 0 * self.fpr,
                                          facecolor=to_rgba(PALETTE["vermillion"], 0.25),
                                          edgecolor=PALETTE["vermillion"], lw=1.0,
                                          label="impossible under (ε, δ)-DP (a group of k: exact)")
            (self.outer,) = ax.plot(self.fpr, 0 * self.fpr, color=PALETTE["vermillion"], ls="--", lw=1.5,
                                    label="the odds bound kε for a group: not attained")
            (self.curve,) = ax.plot(self.fpr, 0 * self.fpr, color=PALETTE["blue"],
                                    label="Laplace on a count, exact")
            (self.gauss,) = ax.plot(self.fpr, 0 * self.fpr, color=PALETTE["orange"], ls="-.", lw=1.8,
                                    label=r"Gaussian, same variance: $G_\mu$")
            # light boxes with full black edges: the edges read at 3:1 on white, the fill does not
            self.boxes = PolyCollection([], facecolor=to_rgba(PALETTE["sky"], 0.5), edgecolor=PALETTE["black"], lw=0.8)
            ax.add_collection(self.boxes)
            (self.dots,) = ax.plot([], [], "o", color=PALETTE["black"], ms=4,
                                   label=f"threshold tests, {n:,} samples, {confidence:.0%} boxes")
            # markers along the attack's curves: the Laplace curve is solid too, in a hue of like brightness
            (self.traced,) = ax.plot([], [], color=PALETTE["purple"], lw=1.8, marker="x", ms=6, markevery=12,
                                     label=f"tracing attack, {attributes} exact counts of {others} people")
            (self.traced_noisy,) = ax.plot([], [], color=PALETTE["green"], lw=1.8, marker="d", ms=5, markevery=12,
                                           label="tracing attack, the counts with Lap(d/ε) (ε-DP)")
            self.note = ax.text(0.98, 0.98, "", transform=ax.transAxes, ha="right", va="top", fontsize="small",
                                bbox={"facecolor": "white", "alpha": 0.9, "edgecolor": "none"})
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1)
            ax.set_xlabel("FPR: type-I error (say y when it is x)")
            ax.set_ylabel("FNR: type-II error")
            ax.set_title(" ")
            # below the axes: seven entries would cover the data inside them
            self.fig.legend(loc="outside lower center", ncols=2, fontsize="x-small")
        self.dynamic = [self.region, self.outer, self.curve, self.gauss, self.boxes, self.dots, self.traced,
                        self.traced_noisy, self.note, self.ax.title]
        self.confidence = confidence
        self._drawn: dict | None = None

    def update(self, epsilon: float, k: int = 1, delta: float = 0.0) -> dict:
        if (epsilon, k) not in self.measured or delta not in self.deltas:
            raise ValueError(f"epsilon must be one of {list(self.epsilons)}, k one of {list(self.ks)} and delta one "
                             f"of {list(self.deltas)}, got epsilon = {epsilon!r}, k = {k!r}, delta = {delta!r}")
        eps, group, d = float(epsilon), int(k), float(delta)
        limit = group_tradeoff_limit(self.fpr, eps, group, d)
        verts = np.concatenate([np.column_stack([self.fpr, limit]), [[1.0, 0.0], [0.0, 0.0]]])
        self.region.set_verts([verts])
        outer_eps, outer_delta = group_privacy(eps, group, d)
        hidden = np.full_like(self.fpr, -1.0)
        self.outer.set_data(self.fpr, dp_tradeoff_limit(self.fpr, outer_eps, min(outer_delta, 1.0))
                            if group > 1 else hidden)
        self.curve.set_ydata(laplace_tradeoff(self.fpr, eps, shift=group))
        mu = self.gaussian_mu[(epsilon, k)]
        self.gauss.set_ydata(self.gaussian[(epsilon, k)])
        gaussian, gaussian_delta = gdp_best_success(mu), float(gdp_delta(eps, mu))
        m = self.measured[(epsilon, k)]
        self.boxes.set_verts([[(a0, b0), (a1, b0), (a1, b1), (a0, b1)]
                              for (a0, a1), (b0, b1) in zip(m.fpr_box, m.fnr_box)])
        self.dots.set_data(m.fpr, m.fnr)
        if group == 1:
            self.traced.set_data(*self.attack_exact)
            self.traced_noisy.set_data(*self.attack_noisy[epsilon])
        else:                                 # the attack traces one person: its pair is one step apart
            self.traced.set_data([], [])
            self.traced_noisy.set_data([], [])
        laplace = 1 - 0.5 * np.exp(-group * eps / 2)
        bound = group_best_success(eps, group, d)
        self.note.set_text(f"best guess, 50/50 prior:\nLaplace {laplace:.1%}, Gaussian {gaussian:.1%},\n"
                           f"limit {bound:.1%}"
                           + (f"\nGaussian: (ε, δ)-DP from δ = {gaussian_delta:.3f}" if group == 1
                              else "\n(tracing attack: one person, k = 1)"))
        who = "one person" if group == 1 else f"a group of {group}"
        slack = f", δ = {d:g}" if d else ""
        self.ax.title.set_text(f"ε = {eps:g}{slack}, {who}: no test enters the shaded region")
        allowed = group_tradeoff_limit(m.fpr_box[:, 1], eps, group, d)
        inside = bool(np.all(m.fnr_box[:, 1] >= allowed - 1e-12))
        result = {"epsilon": eps, "k": group, "delta": d, "fpr": m.fpr, "fnr": m.fnr, "boxes_allowed": inside,
                  "laplace_success": float(laplace), "limit_success": bound,
                  "outer_epsilon": outer_eps, "outer_delta": outer_delta,
                  "gaussian_mu": mu, "gaussian_success": gaussian, "gaussian_delta": gaussian_delta}
        self._drawn = {**result, "limit": limit, "laplace_curve": self.curve.get_ydata(),
                       "gaussian_curve": self.gaussian[(epsilon, k)], "who": who}
        return result

    def alt_text(self) -> str:
        """The trade-off plane, and at the slider's ε, k, δ: the best guesses against the limit, the tests' verdict."""
        what = ("Trade-off plot on the unit square: false negative rate FNR against false positive rate FPR of tests of x against y; "
                "shaded, the region no test of an (ε, δ)-DP mechanism can enter; curves, the Laplace mechanism's exact "
                "trade-off and Gaussian noise of the same variance; dots with boxes, threshold tests measured on samples")
        r = self._drawn
        if r is None:
            return what + "."
        slack = f", δ = {r['delta']:g}" if r["delta"] else ""
        tests = (f"all {len(r['fpr'])} measured tests stay out of the shaded region" if r["boxes_allowed"]
                 else f"a measured test's {self.confidence:.0%} box reaches into the shaded region")
        tail = (f"; the Gaussian is (ε, δ)-DP from δ = {r['gaussian_delta']:.3f}; the tracing attack's curves, on exact "
                "and on noisy counts, are drawn too" if r["k"] == 1 else "; the tracing attack traces one person, k = 1")
        return (f"{what}. At ε = {r['epsilon']:g}{slack}, {r['who']}: {tests}. Best guess with a 50/50 prior: Laplace "
                f"{r['laplace_success']:.1%}, Gaussian {r['gaussian_success']:.1%}, limit {r['limit_success']:.1%}{tail}.")

    def data_table(self) -> dict | None:
        """FNR at FPR = 0, 0.05, …, 1: the least the region allows, Laplace's and the Gaussian's."""
        r = self._drawn
        if r is None:
            return None
        rows = [[f"{self.fpr[i]:.2f}", f"{r['limit'][i]:.3f}", f"{r['laplace_curve'][i]:.3f}",
                 f"{r['gaussian_curve'][i]:.3f}"] for i in range(0, self.fpr.size, 15)]
        slack = f", δ = {r['delta']:g}" if r["delta"] else ""
        return {"caption": f"False negative rate FNR at ε = {r['epsilon']:g}{slack}, {r['who']}",
                "columns": ["FPR", "least FNR allowed", "Laplace FNR", "Gaussian FNR"], "rows": rows}

    def explore_points(self) -> list[dict]:
        """The Laplace mechanism's trade-off curve and the edge of the region, 51 points each (FPR every 0.02)."""
        r = self._drawn
        if r is None:
            return []
        fpr = [round(a, 6) for a in self.fpr[::6].tolist()]
        return [{"name": name, "x": "FPR, type-I error", "y": "FNR, type-II error",
                 "points": [[a, float(b)] for a, b in zip(fpr, r[key][::6])]}
                for name, key in (("Laplace on a count, exact", "laplace_curve"), ("least FNR allowed", "limit"))]


#: The releases the composition slider offers.
RELEASES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000)


class GaussianCompositionFigure(_Updatable):
    """k releases of a count with Gaussian noise N(0, σ²): what an attacker can do, and what each accountant says.

    The noise has the variance of Lap(1/ε) (σ = √2/ε, ε = 0.1 by default: chapter 11's releases), so
    one release is μ-GDP with μ = 1/σ and k of them exactly μ√k-GDP (Dong, Roth & Su 2019,
    :func:`~dpteach.gdp_compose`). Left, the trade-off plane as in :class:`TradeoffFigure`: the curve
    G_{μ√k} of the k releases (exact: the region below it, shaded, is what no test reaches), one
    release's G_μ, and the edges of the (ε, δ) regions that two totals promise at δ: the GDP total
    (:func:`~dpteach.gdp_epsilon`), a tangent that touches G_{μ√k}, and the best of chapter 06's
    (ε, δ) accounting of each release's (ε₀, δ₀) (basic, advanced or optimal composition), far inside
    it. Right,
    the total ε at δ against k (log–log) by basic, advanced and optimal composition, zCDP and GDP
    (:func:`~dpteach.gaussian_composition`). Everything is computed once, at the slider's k; a frame
    moves lines, the marker and the titles. Axes fixed.
    """

    def __init__(self, epsilon: float = 0.1, delta: float = 1e-6, ks=RELEASES) -> None:
        self.epsilon = _validate.epsilon(epsilon)
        self.delta = _validate.real("delta", delta, low=0.0, high=1.0, high_open=True)
        self.ks = tuple(sorted(_validate.integer("k", k, low=1, high=10_000) for k in ks))
        self.std = math.sqrt(2) / self.epsilon
        self.totals = {k: gaussian_composition(k, self.std, self.delta) for k in self.ks}
        k = np.array(self.ks, dtype=float)
        series = {name: np.array([getattr(self.totals[n], name) for n in self.ks])
                  for name in ("basic", "advanced", "optimal", "zcdp", "exact")}
        self.fpr = np.linspace(0.0, 1.0, 301)
        self.curves = {n: gdp_tradeoff(self.fpr, self.totals[n].mu_total) for n in self.ks}
        self.edges = {n: (dp_tradeoff_limit(self.fpr, self.totals[n].exact, self.delta),
                          dp_tradeoff_limit(self.fpr, self.totals[n].pairs, self.delta)) for n in self.ks}
        mu = self.totals[self.ks[0]].mu
        self.fig, (self.ax, self.ax_eps) = new_figure(ncols=2, height=5.2)
        with styled():
            ax = self.ax
            ax.plot([0, 1], [1, 0], color="grey", lw=1.2, ls=":", label="coin toss")
            self.region = ax.fill_between(self.fpr, 0 * self.fpr, 0 * self.fpr,
                                          facecolor=to_rgba(PALETTE["vermillion"], 0.25),
                                          edgecolor=PALETTE["vermillion"], lw=1.0,
                                          label="no test reaches it (below the k releases' curve)")
            ax.plot(self.fpr, gdp_tradeoff(self.fpr, mu), color=PALETTE["sky"], lw=1.5, ls="-.",
                    label=rf"one release: $G_\mu$, $\mu = 1/\sigma$ = {mu:.3g}")
            (self.curve,) = ax.plot(self.fpr, 0 * self.fpr, color=PALETTE["blue"], lw=2.2,
                                    label=r"k releases: $G_{\mu\sqrt{k}}$, exact")
            (self.edge_exact,) = ax.plot(self.fpr, 0 * self.fpr, color=PALETTE["blue"], lw=1.2, ls="--")
            (self.edge_pairs,) = ax.plot(self.fpr, 0 * self.fpr, color=PALETTE["purple"], lw=1.4, ls="--")
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1)
            ax.set_xlabel("FPR: type-I error")
            ax.set_ylabel("FNR: type-II error")
            ax.set_title(" \n ")
            right = self.ax_eps
            right.loglog(k, series["basic"], "o-", color=PALETTE["black"], ms=4, label=r"basic: $k\varepsilon_0$")
            right.loglog(k, series["advanced"], "s-", color=PALETTE["orange"], ms=4, label="advanced, Theorem 3.20")
            right.loglog(k, series["optimal"], "v-", color=PALETTE["purple"], ms=5,
                         label="optimal composition (KOV 2015)")
            right.loglog(k, series["zcdp"], "^--", color=PALETTE["green"], ms=4, lw=1.6, label="zCDP → (ε, δ)")
            right.loglog(k, series["exact"], "D-", color=PALETTE["blue"], ms=4, label=r"GDP: $\mu\sqrt{k}$, exact")
            self.marker = right.axvline(1, color=PALETTE["sky"], lw=2, ls="--")
            (self.dots,) = right.plot([1, 1, 1], [1, 1, 1], "o", color=PALETTE["vermillion"], ms=9, zorder=5,
                                      mfc="none", mew=2)
            right.set_xlim(k[0] / 1.3, k[-1] * 1.3)
            right.set_ylim(series["exact"].min() / 1.5, max(series["basic"].max(), series["advanced"].max()) * 1.5)
            right.set_xlabel("k: releases of one count")
            right.set_ylabel(f"total ε at δ = {power_text(self.delta)}")
            right.set_title(" \n ")
            _plain_log_axes(right)
            # below the axes: a legend inside would sit on the curves of one panel or the other
            self.fig.legend(loc="outside lower center", ncols=2, fontsize="x-small")    # (three ran off a projector's figure)
        self.dynamic = [self.region, self.curve, self.edge_exact, self.edge_pairs, self.marker, self.dots,
                        self.ax.title, self.ax_eps.title]
        self.k = None

    def update(self, k: int) -> dict:
        if k not in self.ks:
            raise ValueError(f"k must be one of {list(self.ks)}, got {k!r}")
        t = self.totals[k]
        self.k = k
        curve = self.curves[k]
        self.region.set_verts([np.concatenate([np.column_stack([self.fpr, curve]), [[1.0, 0.0], [0.0, 0.0]]])])
        self.curve.set_ydata(curve)
        exact_edge, pairs_edge = self.edges[k]
        self.edge_exact.set_ydata(exact_edge)
        self.edge_pairs.set_ydata(pairs_edge)
        self.marker.set_xdata([k, k])
        self.dots.set_data([k, k, k], [t.pairs, t.zcdp, t.exact])
        self.ax.title.set_text(f"{k:,} releases at σ = {self.std:.3g}: μ√k = {t.mu_total:.3g}\n"
                               f"dashed: (ε, δ) at ε = {_number(t.exact)} and {_number(t.pairs)}")
        self.ax_eps.title.set_text(f"total ε: GDP {_number(t.exact)}, zCDP {_number(t.zcdp)},\n"
                                   f"chapter 06's best {_number(t.pairs)}")
        return {"k": k, "mu": t.mu, "mu_total": t.mu_total, "basic": t.basic, "advanced": t.advanced,
                "optimal": t.optimal, "pairs": t.pairs, "zcdp": t.zcdp, "exact": t.exact}

    def alt_text(self) -> str:
        """Both panels, and at the slider's k: μ√k and the total ε by GDP, zCDP and chapter 06's best accounting."""
        what = (f"Two panels: left, a trade-off plot of false negative rate FNR against false positive rate FPR for k releases of a count "
                f"with Gaussian noise of σ = {self.std:.3g}, exactly μ√k-GDP (below their curve, shaded, the region no "
                "test reaches; one release's curve; dashed, the edges of the (ε, δ) regions two totals promise); right, "
                f"a line chart (log–log) of the total ε at δ = {power_text(self.delta)} against k from {self.ks[0]:,} to "
                f"{self.ks[-1]:,}, by basic, advanced and optimal composition, zCDP and Gaussian DP")
        if self.k is None:
            return what + "."
        t = self.totals[self.k]
        return (f"{what}. At k = {self.k:,}: μ√k = {t.mu_total:.3g}; total ε: GDP {_number(t.exact)}, zCDP "
                f"{_number(t.zcdp)}, chapter 06's best {_number(t.pairs)} (basic {_number(t.basic)}, advanced "
                f"{_number(t.advanced)}, optimal {_number(t.optimal)}).")

    def data_table(self) -> dict | None:
        """One row per k of the slider: μ√k and the total ε by each accounting."""
        rows = [[f"{k:,}", f"{t.mu_total:.3g}", *(_number(v) for v in (t.basic, t.advanced, t.optimal, t.zcdp, t.exact))]
                for k, t in list(self.totals.items())[:25]]
        return {"caption": f"Total ε of k Gaussian releases (σ = {self.std:.3g}) at δ = {power_text(self.delta)}",
                "columns": ["k", "μ√k", "basic", "advanced", "optimal", "zCDP", "GDP (exact)"], "rows": rows}
