"""Figures for chapter 08's Generalized Gaussian mechanism (Ganesh & Zhao 2020): the family's densities, the
ℓ∞ error of k counting queries against p, and the sparse vector refinement."""

from __future__ import annotations

import math

import matplotlib.ticker
import numpy as np
from matplotlib.colors import to_rgba

from .. import _validate
from .._text import power_text
from ..generalized_gaussian.distribution import (
    generalized_gaussian_moment,
    generalized_gaussian_pdf,
    generalized_gaussian_sample,
    generalized_gaussian_tail,
    generalized_gaussian_variance,
)
from ..generalized_gaussian.errors import GROWTH_K, error_tradeoff
from ..generalized_gaussian.sparse import SparseVectorRefinement
from ..generalized_gaussian.table import TABLE_K, TABLE_P
from ._base import PALETTE, _number, _plain_log_axes, _Updatable, new_figure, styled
from ._describe import plain_number

__all__ = ["ErrorTradeoffFigure", "GeneralizedGaussianDensityFigure", "SparseVectorFigure"]


class GeneralizedGaussianDensityFigure(_Updatable):
    """The Generalized Gaussian at unit variance, against Laplace (p = 1) and Gaussian (p = 2).

    Left: densities and a histogram of 20,000 draws of :func:`dpteach.generalized_gaussian_sample`
    (a fixed seed). Right: the same densities on a log axis, where the tails show. The axes
    stay put for every p from 1 to 8 (the Laplace peak, 0.71, is the highest).
    """

    def __init__(self, n_samples: int = 20_000, seed: int = 8) -> None:
        self.n = _validate.integer("n_samples", n_samples, low=100)
        self.seed = _validate.integer("seed", seed, low=0)
        self.x = np.linspace(-4.5, 4.5, 721)
        self.edges = np.linspace(-4.5, 4.5, 73)
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.2)
        lap = generalized_gaussian_pdf(self.x, 1, 1 / math.sqrt(2))        # unit variance: b = 1/√2
        gau = generalized_gaussian_pdf(self.x, 2, math.sqrt(2))             # unit variance: σ = √2
        with styled():
            for ax in (self.left, self.right):
                ax.plot(self.x, lap, color=PALETTE["vermillion"], ls="--", lw=1.6, label="Laplace (p = 1)")
                ax.plot(self.x, gau, color=PALETTE["sky"], ls=":", lw=1.8, label="Gaussian")
            # a light fill with a full-colour outline: the histogram's edge reads at 3:1 on white, the fill does not
            self.hist = self.left.stairs(np.zeros(72), self.edges, fill=True, facecolor=to_rgba(PALETTE["green"], 0.25),
                                         edgecolor=PALETTE["green"], lw=0.8, label=f"{self.n:,} samples")
            (self.line_left,) = self.left.plot(self.x, gau, color=PALETTE["green"], label="Gen. Gaussian")
            (self.line_right,) = self.right.semilogy(self.x, gau, color=PALETTE["green"])
            self.left.set_ylim(0, 0.75)
            self.right.set_ylim(1e-9, 2)
            for ax in (self.left, self.right):
                ax.set_xlim(self.x[0], self.x[-1])
                ax.set_xlabel("noise, in standard deviations")
            self.left.set_ylabel("density")
            self.right.set_ylabel("density (log scale)")
            self.left.set_title(" ", fontsize="medium")
            self.right.set_title("the tails", fontsize="medium")
            self.left.legend(loc="upper left", fontsize="x-small")
            _plain_log_axes(self.right)
        self.dynamic = [self.hist, self.line_left, self.line_right, self.left.title]
        #: the data table's rows and the walk's points: x = −4, −3.5, …, 4 and every tenth point of the curve
        self._rows = [int(i) for i in np.flatnonzero(np.isclose(self.x * 2, np.round(self.x * 2)) & (np.abs(self.x) <= 4))]
        self._laplace, self._gaussian = lap, gau
        self._drawn: dict | None = None

    def update(self, p: float) -> dict:
        pp = _validate.real("p", p, low=1.0, low_open=False, high=1000.0)
        sigma = 1 / math.sqrt(generalized_gaussian_variance(pp, 1.0))      # unit variance
        pdf = generalized_gaussian_pdf(self.x, pp, sigma)
        samples = generalized_gaussian_sample(pp, sigma, self.n, np.random.default_rng(self.seed))
        counts, _ = np.histogram(samples, self.edges)
        self.hist.set_data(counts / (self.n * np.diff(self.edges)), self.edges)
        self.line_left.set_ydata(pdf)
        self.line_right.set_ydata(np.maximum(pdf, 1e-300))
        tail = generalized_gaussian_tail(3.0, pp, sigma)
        gauss_tail = generalized_gaussian_tail(3.0, 2, math.sqrt(2))
        kurtosis = generalized_gaussian_moment(4, pp, sigma)               # variance 1: kurtosis = E X⁴
        self.left.title.set_text(f"p = {pp:.3g}: Pr[|X| > 3] = {tail:.2g}\n(Gaussian {gauss_tail:.2g})")
        result = {"p": pp, "sigma": sigma, "x": self.x, "pdf": pdf, "samples": samples, "tail_beyond_3": tail,
                  "kurtosis": kurtosis}
        self._drawn = {**result, "gaussian_tail": gauss_tail}
        return result

    def alt_text(self) -> str:
        """Density curves at unit variance, the histogram of samples, and the tail beyond 3 std against the Gaussian's."""
        what = ("Two panels of density curves at unit variance, noise in standard deviations from −4.5 to 4.5: the "
                "Generalized Gaussian against Laplace (p = 1) and the Gaussian (p = 2), with a histogram of "
                f"{self.n:,} samples; right, the same densities on a log scale, where the tails show")
        r = self._drawn
        if r is None:
            return what + "."
        return (f"{what}. At p = {r['p']:.3g}: Pr[|X| > 3] = {plain_number(r['tail_beyond_3'], 2)} (Gaussian "
                f"{plain_number(r['gaussian_tail'], 2)}), peak density {r['pdf'][self.x.size // 2]:.3g}, kurtosis "
                f"{r['kurtosis']:.3g} (Gaussian 3, Laplace 6).")

    def data_table(self) -> dict | None:
        """The three densities at x = −4, −3.5, …, 4."""
        r = self._drawn
        if r is None:
            return None
        return {"caption": f"Densities at unit variance, p = {r['p']:.3g}",
                "columns": ["noise (std)", f"Gen. Gaussian p = {r['p']:.3g}", "Laplace", "Gaussian"],
                "rows": [[f"{self.x[i]:g}", *(plain_number(v[i]) for v in (r["pdf"], self._laplace, self._gaussian))]
                         for i in self._rows]}

    def explore_points(self) -> list[dict]:
        """The Generalized Gaussian density at the slider's p, 73 points from −4.5 to 4.5."""
        r = self._drawn
        if r is None:
            return []
        return [{"name": f"Generalized Gaussian density, p = {r['p']:.3g}", "x": "noise, in standard deviations",
                 "y": "density", "points": [[float(x), float(y)] for x, y in zip(self.x[::10], r["pdf"][::10])]}]


class ErrorTradeoffFigure(_Updatable):
    """The ℓ∞ error of k counting queries under each mechanism, and the ℓ1/ℓ∞ trade-off of p.

    Left: E‖noise‖∞ divided by √(k ln(1/δ))/ε, the shape of the lower bound (so the lower
    bound is a horizontal line, at a height set by its unknown constant), against k: Laplace
    with Δ₁ = k (pure ε), the analytic Gaussian, and the Generalized Gaussian with the
    slider's p. The growth of Ganesh & Zhao's two bounds, √(ln ln k) and √(ln ln ln k) in
    these units, is drawn scaled to meet the Gaussian at k = 100: their constants are not
    at hand, only their shapes. Right, at the slider's k: each p's mean absolute error per
    answer (ℓ1/k) and E‖noise‖∞, relative to the Gaussian, on log axes.

    Every number comes from :func:`dpteach.error_tradeoff` (σ from the shipped table of
    accountant results, E‖noise‖∞ at σ = 1 from the shipped quadratures), so a slider move
    is table look-ups. The axes stay put over the whole grid of p, k, ε and δ: the left
    from 0.8 to 500, the right from 0.5 to 5 (mean error) and 0.65 to 4 (largest error).
    """

    P_OPTIONS = TABLE_P
    K_OPTIONS = TABLE_K
    #: the right panel's ratios to the Gaussian: every (p, k, ε, δ) of the table falls inside
    RATIO_LIMITS = ((0.5, 5.0), (0.65, 4.0))

    def __init__(self) -> None:
        self.ks = np.array(self.K_OPTIONS, dtype=float)
        self.ps = np.array(self.P_OPTIONS)
        self.dense = GROWTH_K
        self.fig, (self.left, self.right) = new_figure(1, 2, height=5.0, width_ratios=(5, 4))
        with styled():
            left, right = self.left, self.right
            self.headline = self.fig.suptitle(" ", fontweight="bold", fontsize="large")
            left.axhline(1.0, color=PALETTE["black"], lw=1.5, label="lower bound (flat)")
            (self.gz2,) = left.semilogx(self.dense, self.dense, color=PALETTE["purple"], ls=":", lw=2,
                                        label="√(ln ln k) growth")
            (self.gz3,) = left.semilogx(self.dense, self.dense, color=PALETTE["purple"], ls="-.", lw=2,
                                        label="√(ln ln ln k) growth")
            (self.lap,) = left.loglog(self.ks, self.ks, "v-", color=PALETTE["vermillion"], label="Laplace, Δ₁ = k")
            (self.gau,) = left.loglog(self.ks, self.ks, "s-", color=PALETTE["blue"], label="Gaussian")
            (self.gg,) = left.loglog(self.ks, self.ks, "o-", color=PALETTE["green"], label="Gen. Gaussian")
            self.k_marker = left.axvline(1, color=PALETTE["orange"], ls="--", lw=1.5)
            left.set_xlim(8, 12_500)
            left.set_ylim(0.8, 500)
            left.set_xlabel("k, counting queries")
            left.set_ylabel("E‖noise‖∞ ÷ √(k ln(1/δ))/ε")
            left.set_title("largest error against k", fontsize="medium")
            (self.curve,) = right.plot(self.ps, self.ps, "-", color=PALETTE["green"], lw=1.5)
            (self.points,) = right.plot(self.ps, self.ps, "o", color=PALETTE["green"], ms=5,
                                        label=f"p = {self.P_OPTIONS[0]:g}…{self.P_OPTIONS[-1]:g}")
            # a hollow diamond around the slider's p: a marker of its own, not only a larger ring in the same hue
            (self.here,) = right.plot([1], [1], "D", color=PALETTE["green"], ms=13, mfc="none", mew=2.5,
                                      label="the slider's p")
            (self.gauss_point,) = right.plot([1], [1], "s", color=PALETTE["blue"], ms=10, label="Gaussian")
            (self.lap_point,) = right.plot([1], [1], "v", color=PALETTE["vermillion"], ms=10,
                                          label="Laplace (ε, δ)")
            right.axhline(1.0, color="grey", lw=0.8)
            right.axvline(1.0, color="grey", lw=0.8)
            right.set_xscale("log")
            right.set_yscale("log")
            (x_lo, x_hi), (y_lo, y_hi) = self.RATIO_LIMITS
            right.set_xlim(x_lo, x_hi)
            right.set_ylim(y_lo, y_hi)
            ticks = [0.5, 0.7, 1, 1.5, 2, 3, 4]
            for axis, lo, hi in ((right.xaxis, x_lo, x_hi), (right.yaxis, y_lo, y_hi)):
                axis.set_major_locator(matplotlib.ticker.FixedLocator([t for t in ticks if lo <= t <= hi]))
                axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _pos: f"{v:g}"))
                axis.set_minor_locator(matplotlib.ticker.NullLocator())
            right.set_xlabel("mean |error| ÷ Gaussian's")
            right.set_ylabel("E‖noise‖∞ ÷ Gaussian's")
            right.set_title(" ", fontsize="medium")
            # one legend below the panels: inside, the k marker crosses the whole height of the left one and the
            # right one's points wander over its whole area
            self.fig.legend(handles=left.get_lines()[:6] + [self.points, self.here, self.gauss_point, self.lap_point],
                            loc="outside lower center", ncols=4, fontsize="x-small")
            _plain_log_axes(left)
        # the Gaussian's point is (1, 1) on every frame (the ratios are to the Gaussian): static
        self.dynamic = [self.gz2, self.gz3, self.lap, self.gau, self.gg, self.k_marker, self.curve, self.points,
                        self.here, self.lap_point, right.title, self.headline]
        self._drawn = None

    def update(self, p: float, k: int, epsilon: float, delta: float) -> dict:
        r = error_tradeoff(p, k, epsilon, delta)
        self.lap.set_ydata(r.laplace / r.lower_bound_shape)
        self.gau.set_ydata(r.gaussian / r.lower_bound_shape)
        self.gg.set_ydata(r.generalized / r.lower_bound_shape)
        self.gz2.set_ydata(r.growth["log log k"])
        self.gz3.set_ydata(r.growth["log log log k"])
        self.k_marker.set_xdata([r.k, r.k])
        j = self.P_OPTIONS.index(r.p)
        l1, linf = r.l1_ratio, r.linf_ratio
        self.curve.set_data(l1, linf)
        self.points.set_data(l1, linf)
        self.here.set_data([l1[j]], [linf[j]])
        self.lap_point.set_data([l1[0]], [linf[0]])
        best = int(np.argmin(linf))
        self.headline.set_text(f"k = {r.k:,}, ε = {r.epsilon:.3g}, δ = {power_text(r.delta)}; p = {r.p:g} against the "
                               f"Gaussian:\nlargest error {linf[j] - 1:+.1%}, mean error {l1[j] - 1:+.1%} "
                               f"(best: p = {self.P_OPTIONS[best]:g}, {linf[best] - 1:+.1%})")
        self.right.title.set_text(f"each p at k = {r.k:,}")
        self._drawn = (r, j, best)
        return {"p": r.p, "k": r.k, "epsilon": r.epsilon, "delta": r.delta, "ks": r.ks, "laplace": r.laplace,
                "gaussian": r.gaussian, "generalized": r.generalized, "lower_bound_shape": r.lower_bound_shape,
                "sigmas": r.sigmas, "l1_ratio": l1, "linf_ratio": linf, "best_p": r.best_p,
                "linf_gain": r.linf_gain}


    def alt_text(self) -> str:
        """The two panels, and the headline: the slider's p against the Gaussian, and the best p."""
        what = ("Two panels: left, a line chart (log–log) of the expected largest error of k counting queries, in units "
                "of the lower bound's shape √(k ln(1/δ))/ε, against k from 10 to 10,000, for Laplace (Δ₁ = k), the "
                "Gaussian and the Generalized Gaussian, with the growth shapes of Ganesh and Zhao's bounds; right, "
                "each p's mean error against its largest error, both relative to the Gaussian's")
        if self._drawn is None:
            return what + "."
        r, j, best = self._drawn
        i = self.K_OPTIONS.index(r.k)
        unit = r.lower_bound_shape[i]
        return (f"{what}. At k = {r.k:,}, ε = {r.epsilon:.3g}, δ = {power_text(r.delta)}, p = {r.p:g} against the "
                f"Gaussian: largest error {r.linf_ratio[j] - 1:+.1%}, mean error {r.l1_ratio[j] - 1:+.1%} (best: p = "
                f"{self.P_OPTIONS[best]:g}, {r.linf_ratio[best] - 1:+.1%}); in the left panel's units Laplace is at "
                f"{r.laplace[i] / unit:.3g}, the Gaussian at {r.gaussian[i] / unit:.3g}, p = {r.p:g} at "
                f"{r.generalized[i] / unit:.3g}.")

    def data_table(self) -> dict | None:
        """One row per p: its mean and largest error relative to the Gaussian's, at the slider's k, ε, δ."""
        if self._drawn is None:
            return None
        r, j, _ = self._drawn
        rows = [[f"{p:g}" + (" (the slider's)" if i == j else ""), f"{r.l1_ratio[i]:.3f}", f"{r.linf_ratio[i]:.3f}"]
                for i, p in enumerate(self.P_OPTIONS)]
        return {"caption": f"Each p against the Gaussian at k = {r.k:,}, ε = {r.epsilon:.3g}, δ = {power_text(r.delta)}"
                           " (p = 1 is Laplace at (ε, δ))",
                "columns": ["p", "mean |error| ÷ Gaussian's", "E‖noise‖∞ ÷ Gaussian's"], "rows": rows}


class SparseVectorFigure(_Updatable):
    """Sparse finds the coordinates with the largest errors; they are answered again.

    Each dot is one answer's |error| after the first release; the line is Sparse's threshold;
    flagged answers are ringed, and joined to their error after the second answer.
    """

    def __init__(self, result: SparseVectorRefinement, true_answer) -> None:
        if not isinstance(result, SparseVectorRefinement):
            raise TypeError(f"result must come from dp.sparse_vector_refinement, got {type(result).__name__}")
        d = _validate.array("true_answer", true_answer, ndim=(1,))
        before = np.abs(result.first_release - d)
        after = np.abs(result.final_release - d)
        idx = np.arange(d.size)
        self.fig, ax = new_figure(height=4.4)
        with styled():
            ax.plot(idx, before, ".", color=PALETTE["blue"], ms=2, label="|error| of each answer")
            ax.axhline(result.threshold, color=PALETTE["vermillion"], lw=2, label="Sparse's threshold T")
            flagged = np.array(result.flagged, dtype=int)
            if flagged.size:
                ax.plot(flagged, before[flagged], "o", mfc="none", mec=PALETTE["orange"], ms=11, mew=2,
                        label=f"flagged by Sparse ({flagged.size})")
                ax.plot(flagged, after[flagged], "o", color=PALETTE["green"], ms=7, label="answered again")
                ax.vlines(flagged, after[flagged], before[flagged], color=PALETTE["green"], lw=1)
            ax.set_xlim(0, d.size)
            ax.set_xlabel("answer (coordinate)")
            ax.set_ylabel("|released − true|")
            ax.set_title(f"Largest error {_number(result.error_before)} before, {_number(result.error_after)} after")
            ax.legend(loc="upper right", fontsize="small", ncols=2)
        self.data = {"before": before, "after": after}
        self.threshold, self.flagged = float(result.threshold), [int(i) for i in result.flagged]
        self.error_before, self.error_after = float(result.error_before), float(result.error_after)

    def alt_text(self) -> str:
        """The scatter of errors, Sparse's threshold, how many it flagged, and the largest error before and after."""
        n, flagged = self.data["before"].size, len(self.flagged)
        return (f"Scatter chart: the |error| of each of {n:,} answers after the first release, against the answer's "
                f"index, with Sparse's threshold T = {_number(self.threshold)}; Sparse flagged {flagged} answer"
                f"{'' if flagged == 1 else 's'}, answered again. The largest error is {_number(self.error_before)} "
                f"before and {_number(self.error_after)} after.")

    def data_table(self) -> dict | None:
        """The flagged answers' errors before and after, or the five largest errors if Sparse flagged none."""
        before, after = self.data["before"], self.data["after"]
        rows_of = self.flagged[:25] or [int(i) for i in np.argsort(before)[::-1][:5]]
        return {"caption": (f"The answers Sparse flagged (threshold T = {_number(self.threshold)})" if self.flagged
                            else f"Sparse flagged no answer (threshold T = {_number(self.threshold)}): the five "
                                 "largest errors"),
                "columns": ["answer", "|error| before", "|error| after"],
                "rows": [[f"{i:,}", _number(before[i]), _number(after[i])] for i in rows_of]}
