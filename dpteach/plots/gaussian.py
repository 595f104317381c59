"""Figures for chapter 08: the Gaussian and Generalized Gaussian mechanisms and the privacy accountant."""

from __future__ import annotations

import math

import matplotlib.ticker
import numpy as np

from .. import _validate
from ..accountant import gaussian_noise, laplace_noise, one_coordinate_delta, privacy_loss_distribution
from ..accuracy import expected_linf_error
from ..gaussian import classical_gaussian_sigma, gaussian_delta, gaussian_sigma
from ..generalized_gaussian import (
    TABLE_K,
    TABLE_P,
    SparseVectorRefinement,
    calibration_table,
    expected_linf_noise,
    ganesh_zhao_shapes,
    generalized_gaussian_moment,
    generalized_gaussian_pdf,
    generalized_gaussian_sample,
    generalized_gaussian_tail,
    generalized_gaussian_variance,
    linf_lower_bound_shape,
)
from ._base import _SUPERSCRIPT, PALETTE, _number, _plain_log_axes, _Updatable, new_figure, styled

__all__ = [
    "ErrorTradeoffFigure",
    "GaussianCalibrationFigure",
    "GeneralizedGaussianDensityFigure",
    "PrivacyCurveFigure",
    "SensitivityNormsFigure",
    "SparseVectorFigure",
]


def _power(value: float) -> str:
    """δ for a title: 10⁻⁶, or 3.2·10⁻⁷ between powers of ten (no mathtext)."""
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = value / 10.0**exponent
    head = "" if round(mantissa, 1) == 1.0 else f"{mantissa:.2g}·"
    return head + "10" + str(exponent).translate(_SUPERSCRIPT)


class SensitivityNormsFigure(_Updatable):
    """k counting queries that one person can all change: Δ₁f = k but Δ₂f = √k.

    The standard deviation of the noise on each answer, against k: the Laplace mechanism
    (pure ε-DP) needs Lap(k/ε), std √2·k/ε; the Gaussian mechanism (ε, δ) needs σ ∝ √k
    (the analytic σ, and Theorem 3.22's larger one when ε < 1). The lines cross at the
    k beyond which the Gaussian adds less noise.
    """

    def __init__(self, k_max: int = 10_000) -> None:
        top = _validate.integer("k_max", k_max, low=10)
        self.ks = np.unique(np.round(np.logspace(0, math.log10(top), 120)).astype(int)).astype(float)
        self.fig, self.ax = new_figure(height=4.4)
        with styled():
            ax = self.ax
            (self.laplace,) = ax.loglog(self.ks, self.ks, color=PALETTE["vermillion"],
                                        label="Laplace, Δ₁f = k: std √2·k/ε")
            (self.gauss,) = ax.loglog(self.ks, self.ks, color=PALETTE["blue"],
                                      label="Gaussian, Δ₂f = √k: analytic σ")
            (self.classical,) = ax.loglog(self.ks, self.ks, color=PALETTE["blue"], ls="--",
                                          label="Gaussian, Theorem 3.22's σ (ε < 1)")
            self.cross = ax.axvline(1, color=PALETTE["black"], ls=":", lw=1.5)
            ax.set_xlim(self.ks[0], self.ks[-1])
            ax.set_xlabel("k, counting queries one person can all change")
            ax.set_ylabel("noise std per answer")
            ax.set_title(" ")
            ax.legend(loc="lower right")
            _plain_log_axes(ax)

    def update(self, epsilon: float, delta: float) -> dict:
        eps = _validate.epsilon(epsilon)
        unit = gaussian_sigma(1.0, eps, delta)                 # σ is proportional to Δ₂f
        laplace = math.sqrt(2) * self.ks / eps
        gauss = np.sqrt(self.ks) * unit
        classical = (np.sqrt(self.ks) * classical_gaussian_sigma(1.0, eps, delta) if eps < 1
                     else np.full(self.ks.shape, np.nan))
        crossover = (unit * eps) ** 2 / 2                        # √2·k/ε = √k·σ₁
        self.laplace.set_ydata(laplace)
        self.gauss.set_ydata(gauss)
        self.classical.set_ydata(classical)
        self.cross.set_xdata([crossover, crossover])
        self.ax.set_ylim(0.5 * min(laplace[0], gauss[0]), 2 * max(laplace[-1], gauss[-1]))
        self.ax.title.set_text(f"ε = {eps:.3g}, δ = {_power(delta)}: Laplace noise grows like k, Gaussian like √k;\n"
                               f"the Gaussian adds less noise beyond k ≈ {_number(crossover)}")
        return {"epsilon": eps, "delta": delta, "k": self.ks, "laplace_std": laplace, "gaussian_std": gauss,
                "classical_std": classical, "crossover": crossover, "sigma_per_unit_sensitivity": unit}


class GaussianCalibrationFigure(_Updatable):
    """σ/Δ₂f against ε: the analytic Gaussian (Balle & Wang) and Theorem 3.22's c/ε (for ε < 1)."""

    def __init__(self) -> None:
        self.grid = np.logspace(math.log10(0.05), 1, 60)
        self.fig, self.ax = new_figure(height=4.4)
        with styled():
            ax = self.ax
            (self.analytic,) = ax.loglog(self.grid, self.grid, color=PALETTE["blue"],
                                         label="analytic: Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) = δ")
            (self.classical,) = ax.loglog(self.grid, self.grid, color=PALETTE["orange"], ls="--",
                                          label="Theorem 3.22: c/ε, c = √(2 ln(1.25/δ)), ε < 1")
            (self.dots,) = ax.loglog([1, 1], [1, 1], "o", color=PALETTE["black"], ms=8)
            self.marker = ax.axvline(1, color="grey", ls=":", lw=1.5)
            ax.set_xlim(self.grid[0], self.grid[-1])
            ax.set_xlabel("ε")
            ax.set_ylabel("σ / Δ₂f")
            ax.set_title(" ")
            ax.legend(loc="upper right")
            _plain_log_axes(ax)

    def update(self, epsilon: float, delta: float) -> dict:
        eps = _validate.epsilon(epsilon)
        analytic = np.array([gaussian_sigma(1.0, e, delta) for e in self.grid])
        classical = np.array([classical_gaussian_sigma(1.0, e, delta) if e < 1 else np.nan for e in self.grid])
        sigma = gaussian_sigma(1.0, eps, delta)
        c_sigma = classical_gaussian_sigma(1.0, eps, delta) if eps < 1 else math.nan
        self.analytic.set_ydata(analytic)
        self.classical.set_ydata(classical)
        self.dots.set_data([eps, eps], [sigma, c_sigma if eps < 1 else sigma])
        self.marker.set_xdata([eps, eps])
        self.ax.set_ylim(0.5 * analytic[-1], 2 * np.nanmax(classical))
        if eps < 1:
            text = (f"ε = {eps:.3g}, δ = {_power(delta)}: analytic σ = {sigma:.3g}·Δ₂f,\n"
                    f"Theorem 3.22 asks for {c_sigma:.3g}·Δ₂f ({c_sigma / sigma - 1:.0%} more noise)")
        else:
            text = f"ε = {eps:.3g}, δ = {_power(delta)}: analytic σ = {sigma:.3g}·Δ₂f,\n(Theorem 3.22 needs ε < 1)"
        self.ax.title.set_text(text)
        return {"epsilon": eps, "delta": delta, "grid": self.grid, "analytic": analytic, "classical": classical,
                "sigma": sigma, "classical_sigma": c_sigma}


class GeneralizedGaussianDensityFigure(_Updatable):
    """The Generalized Gaussian at unit variance, against Laplace (p = 1) and Gaussian (p = 2).

    Left: densities and a histogram of 20,000 draws of :func:`dpteach.generalized_gaussian_sample`
    (a fixed seed). Right: the same densities on a log axis, where the tails show.
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
                ax.plot(self.x, gau, color=PALETTE["sky"], ls="--", lw=1.6, label="Gaussian")
            self.hist = self.left.stairs(np.zeros(72), self.edges, fill=True, color=PALETTE["green"], alpha=0.25,
                                         label=f"{self.n:,} samples")
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
        self.left.title.set_text(f"p = {pp:.3g}: Pr[|X| > 3] = {tail:.2g} (Gaussian {gauss_tail:.2g})")
        return {"p": pp, "sigma": sigma, "x": self.x, "pdf": pdf, "samples": samples, "tail_beyond_3": tail,
                "kurtosis": kurtosis}


class PrivacyCurveFigure(_Updatable):
    """The accountant against the closed forms: δ(ε) for Laplace (one count) and the k-fold Gaussian.

    Lines: the exact formulas (Laplace: 1 − e^{(ε − 1/b)/2} below ε = 1/b, 0 above; k
    Gaussian coordinates: the analytic Gaussian with Δ₂ = √k). Dots: the privacy loss
    distribution computed by :func:`dpteach.privacy_loss_distribution`.
    """

    def __init__(self, laplace_scale: float = 1.0, k: int = 100, std: float | None = None) -> None:
        b = _validate.positive("laplace_scale", laplace_scale)
        kk = _validate.integer("k", k, low=1)
        s = gaussian_sigma(math.sqrt(kk), 1.0, 1e-5) if std is None else _validate.positive("std", std)
        self.grid = np.linspace(0.0, 3.0, 301)
        dots = self.grid[::15]
        lap_exact = one_coordinate_delta(laplace_noise(b), self.grid)
        lap_pld = privacy_loss_distribution(laplace_noise(b)).delta(dots)
        gau_exact = np.array([gaussian_delta(s, math.sqrt(kk), e) for e in self.grid])
        gau_pld = privacy_loss_distribution(gaussian_noise(s), kk).delta(dots)
        self.fig, self.ax = new_figure(height=4.4)
        with styled():
            ax = self.ax
            ax.semilogy(self.grid, np.maximum(lap_exact, 1e-300), color=PALETTE["vermillion"],
                        label=f"Laplace b = {b:g}, one count: 1 − e^((ε − 1/b)/2)")
            ax.semilogy(dots, np.maximum(lap_pld, 1e-300), "o", color=PALETTE["vermillion"], ms=6,
                        label="accountant")
            ax.semilogy(self.grid, gau_exact, color=PALETTE["blue"],
                        label=f"Gaussian std {s:.3g}, k = {kk:,}: analytic with Δ₂ = √k")
            ax.semilogy(dots, gau_pld, "s", color=PALETTE["blue"], ms=6, label=f"accountant, {kk:,}-fold convolution")
            ax.set_ylim(1e-12, 1.5)
            ax.set_xlim(0, self.grid[-1])
            ax.set_xlabel("ε")
            ax.set_ylabel("δ(ε)")
            ax.set_title("The accountant lands on the closed forms (dots on lines)")
            ax.legend(loc="upper right", fontsize="small")
            _plain_log_axes(ax)
        inside = gau_exact[::15] > 1e-12
        self.data = {"grid": self.grid, "dots": dots, "laplace_exact": lap_exact, "laplace_accountant": lap_pld,
                     "gaussian_exact": gau_exact, "gaussian_accountant": gau_pld,
                     "laplace_max_abs_error": float(np.abs(lap_pld - lap_exact[::15]).max()),
                     "gaussian_max_rel_error": float(np.abs(gau_pld[inside] / gau_exact[::15][inside] - 1).max())}


class ErrorTradeoffFigure(_Updatable):
    """The ℓ∞ error of k counting queries under each mechanism, and the ℓ1/ℓ∞ trade-off of p.

    Left: E‖noise‖∞ divided by √(k ln(1/δ))/ε, the shape of the lower bound (so the lower
    bound is a horizontal line, at a height set by its unknown constant), against k: Laplace
    with Δ₁ = k (pure ε), the analytic Gaussian, and the Generalized Gaussian with the
    slider's p. The growth of Ganesh & Zhao's two bounds, √(ln ln k) and √(ln ln ln k) in
    these units, is drawn scaled to meet the Gaussian at k = 100: their constants are not
    at hand, only their shapes. Right, at the slider's k: each p's mean absolute error per
    answer (ℓ1/k) and E‖noise‖∞, relative to the Gaussian.

    σ comes from the shipped table of accountant results (:func:`dpteach.calibration_table`,
    within 0.5% of a direct calibration) so the sliders answer at once; E‖noise‖∞ by
    quadrature, E|noise| by formula.
    """

    P_OPTIONS = TABLE_P
    K_OPTIONS = TABLE_K

    def __init__(self) -> None:
        self.table = calibration_table()
        self.ks = np.array(self.K_OPTIONS, dtype=float)
        self.ps = np.array(self.P_OPTIONS)
        self._unit_linf: dict[tuple[float, int], float] = {}
        self.unit_l1 = {p: generalized_gaussian_moment(1.0, p, 1.0) for p in self.P_OPTIONS}
        dense = np.logspace(math.log10(20), 4, 100)
        self.dense = dense
        self.fig, (self.left, self.right) = new_figure(1, 2, height=5.0, width_ratios=(5, 4))
        with styled():
            left, right = self.left, self.right
            self.headline = self.fig.suptitle(" ", fontweight="bold", fontsize="large")
            left.axhline(1.0, color=PALETTE["black"], lw=1.5, label="lower bound (flat)")
            (self.gz2,) = left.semilogx(dense, dense, color=PALETTE["purple"], ls=":", lw=2,
                                        label="√(ln ln k) growth")
            (self.gz3,) = left.semilogx(dense, dense, color=PALETTE["purple"], ls="-.", lw=2,
                                        label="√(ln ln ln k) growth")
            (self.lap,) = left.loglog(self.ks, self.ks, "v-", color=PALETTE["vermillion"], label="Laplace, Δ₁ = k")
            (self.gau,) = left.loglog(self.ks, self.ks, "s-", color=PALETTE["blue"], label="Gaussian")
            (self.gg,) = left.loglog(self.ks, self.ks, "o-", color=PALETTE["green"], label="Gen. Gaussian")
            self.k_marker = left.axvline(1, color=PALETTE["orange"], ls="--", lw=1.5)
            left.set_xlim(8, 12_500)
            left.set_ylim(0.8, 400)
            left.set_xlabel("k, counting queries")
            left.set_ylabel("E‖noise‖∞ ÷ √(k ln(1/δ))/ε")
            left.set_title(" ", fontsize="medium")
            left.legend(loc="upper left", fontsize="x-small")
            (self.curve,) = right.plot(self.ps, self.ps, "-", color=PALETTE["green"], lw=1.5)
            (self.points,) = right.plot(self.ps, self.ps, "o", color=PALETTE["green"], ms=5,
                                        label=f"p = {self.P_OPTIONS[0]:g}…{self.P_OPTIONS[-1]:g}")
            (self.here,) = right.plot([1], [1], "o", color=PALETTE["green"], ms=13, mfc="none", mew=2.5,
                                      label="the slider's p")
            (self.gauss_point,) = right.plot([1], [1], "s", color=PALETTE["blue"], ms=10, label="Gaussian")
            (self.lap_point,) = right.plot([1], [1], "v", color=PALETTE["vermillion"], ms=10,
                                          label="Laplace (ε, δ)")
            right.axhline(1.0, color="grey", lw=0.8)
            right.axvline(1.0, color="grey", lw=0.8)
            right.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(4))
            right.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(5))
            right.set_xlabel("mean |error| ÷ Gaussian's")
            right.set_ylabel("E‖noise‖∞ ÷ Gaussian's")
            right.set_title(" ", fontsize="medium")
            right.legend(loc="upper right", fontsize="x-small")
            _plain_log_axes(left)

    def unit_linf(self, p: float, k: int) -> float:
        """E‖X‖∞ for σ = 1 (it scales with σ), cached."""
        key = (p, k)
        if key not in self._unit_linf:
            self._unit_linf[key] = expected_linf_noise(k, p, 1.0)
        return self._unit_linf[key]

    def update(self, p: float, k: int, epsilon: float, delta: float) -> dict:
        pp = _validate.real("p", p, low=1.0, low_open=False)
        kk = _validate.integer("k", k, low=1)
        if pp not in self.P_OPTIONS or kk not in self.K_OPTIONS:
            raise ValueError(f"p must be one of {self.P_OPTIONS} and k one of {self.K_OPTIONS}, got {p!r}, {k!r}")
        eps = _validate.epsilon(epsilon)
        unit = gaussian_sigma(1.0, eps, delta)
        shape = linf_lower_bound_shape(self.ks, eps, delta)
        gauss = np.array([self.unit_linf(2.0, int(n)) * math.sqrt(2 * n) * unit for n in self.ks])
        lap = np.array([expected_linf_error(int(n), n, eps) for n in self.ks])
        gg = np.array([self.unit_linf(pp, int(n)) * self.table.sigma(int(n), pp, eps, delta) for n in self.ks])
        shapes = ganesh_zhao_shapes(self.dense, eps, delta)
        dense_shape = linf_lower_bound_shape(self.dense, eps, delta)
        anchor = gauss[self.K_OPTIONS.index(100)] / shape[self.K_OPTIONS.index(100)]
        at_100 = ganesh_zhao_shapes(100.0, eps, delta)
        at_100_shape = linf_lower_bound_shape(100.0, eps, delta)
        self.lap.set_ydata(lap / shape)
        self.gau.set_ydata(gauss / shape)
        self.gg.set_ydata(gg / shape)
        self.gz2.set_ydata(shapes["log log k"] / dense_shape * anchor / (at_100["log log k"] / at_100_shape))
        self.gz3.set_ydata(shapes["log log log k"] / dense_shape * anchor
                           / (at_100["log log log k"] / at_100_shape))
        self.k_marker.set_xdata([kk, kk])
        i = self.K_OPTIONS.index(kk)
        # right: every p at this k, relative to the analytic Gaussian
        g_std = math.sqrt(kk) * unit
        g_l1, g_linf = g_std * math.sqrt(2 / math.pi), gauss[i]
        sig = np.array([self.table.sigma(kk, q, eps, delta) for q in self.P_OPTIONS])
        l1 = np.array([s * self.unit_l1[q] for s, q in zip(sig, self.P_OPTIONS)]) / g_l1
        linf = np.array([s * self.unit_linf(q, kk) for s, q in zip(sig, self.P_OPTIONS)]) / g_linf
        j = self.P_OPTIONS.index(pp)
        self.curve.set_data(l1, linf)
        self.points.set_data(l1, linf)
        self.here.set_data([l1[j]], [linf[j]])
        self.gauss_point.set_data([1.0], [1.0])
        self.lap_point.set_data([l1[0]], [linf[0]])
        xs, ys = np.r_[l1, 1.0], np.r_[linf, 1.0]
        self.right.set_xlim(xs.min() - 0.08 * np.ptp(xs) - 0.02, xs.max() + 0.15 * np.ptp(xs) + 0.02)
        self.right.set_ylim(ys.min() - 0.08 * np.ptp(ys) - 0.02, ys.max() + 0.15 * np.ptp(ys) + 0.02)
        best = int(np.argmin(linf))
        self.headline.set_text(f"k = {kk:,}, ε = {eps:.3g}, δ = {_power(delta)}; p = {pp:g} against the Gaussian:\n"
                               f"largest error {linf[j] - 1:+.1%}, mean error {l1[j] - 1:+.1%} "
                               f"(best: p = {self.P_OPTIONS[best]:g}, {linf[best] - 1:+.1%})")
        self.left.title.set_text("largest error against k")
        self.right.title.set_text(f"each p at k = {kk:,}")
        return {"p": pp, "k": kk, "epsilon": eps, "delta": delta, "ks": self.ks, "laplace": lap, "gaussian": gauss,
                "generalized": gg, "lower_bound_shape": shape, "sigmas": sig, "l1_ratio": l1, "linf_ratio": linf,
                "best_p": self.P_OPTIONS[best], "linf_gain": float(1 - linf[j])}


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
            ax.plot(idx, before, ".", color=PALETTE["sky"], ms=2, alpha=0.6, label="|error| of each answer")
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
