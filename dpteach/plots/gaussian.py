"""Figures for chapter 08's Gaussian mechanism: ℓ1 against ℓ2 sensitivity, the calibration of σ, and the privacy
accountant against the closed forms (the Generalized Gaussian's figures are in ``generalized_gaussian``)."""

from __future__ import annotations

import math

import numpy as np

from .. import _validate
from .._text import power_text
from ..gaussian import (
    classical_gaussian_constant,
    classical_gaussian_sigma,
    gaussian_delta,
    gaussian_sigma,
    gaussian_sigma_curve,
    laplace_gaussian_crossover,
)
from ..generalized_gaussian.accountant import gaussian_noise, laplace_noise, one_coordinate_delta, privacy_loss_distribution
from ._base import PALETTE, _number, _plain_log_axes, _Updatable, new_figure, styled
from ._describe import plain_number

__all__ = ["GaussianCalibrationFigure", "PrivacyCurveFigure", "SensitivityNormsFigure"]


class SensitivityNormsFigure(_Updatable):
    """k counting queries that one person can all change: Δ₁f = k but Δ₂f = √k.

    The standard deviation of the noise on each answer, against k: the Laplace mechanism
    (pure ε-DP) needs Lap(k/ε), std √2·k/ε; the Gaussian mechanism (ε, δ) needs σ ∝ √k
    (the analytic σ, and Theorem 3.22's larger one when ε < 1). The lines cross at the
    k beyond which the Gaussian adds less noise (:func:`dpteach.laplace_gaussian_crossover`).

    The axes stay put over the sliders' whole range (ε from 0.05 to 10, δ from 10⁻¹⁰ to
    10⁻²): the noise axis runs from 0.1 to 400,000, so the lines slide up as ε shrinks.
    """

    #: the noise axis: holds every line for 0.05 ≤ ε ≤ 10, 10⁻¹⁰ ≤ δ ≤ 10⁻² and k ≤ 10,000
    Y_LIMITS = (0.1, 4e5)

    def __init__(self, k_max: int = 10_000) -> None:
        top = _validate.integer("k_max", k_max, low=10)
        self.ks = np.unique(np.round(np.logspace(0, math.log10(top), 120)).astype(int)).astype(float)
        self.fig, self.ax = new_figure(height=4.4)
        with styled():
            ax = self.ax
            (self.laplace,) = ax.loglog(self.ks, self.ks, color=PALETTE["vermillion"], ls="-.",
                                        label="Laplace, Δ₁f = k: std √2·k/ε")
            (self.gauss,) = ax.loglog(self.ks, self.ks, color=PALETTE["blue"],
                                      label="Gaussian, Δ₂f = √k: analytic σ")
            (self.classical,) = ax.loglog(self.ks, self.ks, color=PALETTE["blue"], ls="--",
                                          label="Gaussian, Theorem 3.22's σ (ε < 1)")
            self.cross = ax.axvline(1, color=PALETTE["black"], ls=":", lw=1.5)
            ax.set_xlim(self.ks[0], self.ks[-1])
            ax.set_ylim(*self.Y_LIMITS)
            ax.set_xlabel("k, counting queries one person can all change")
            ax.set_ylabel("noise std per answer")
            ax.set_title(" ")
            ax.legend(loc="lower right")
            _plain_log_axes(ax)
        self.dynamic = [self.laplace, self.gauss, self.classical, self.cross, ax.title]
        #: the rows of the data table: k = 1, 10, 100, … up to ``k_max``
        self._rows = [10 ** e for e in range(int(math.log10(top)) + 1)]
        self._drawn: dict | None = None

    def update(self, epsilon: float, delta: float) -> dict:
        eps = _validate.epsilon(epsilon)
        unit = gaussian_sigma(1.0, eps, delta)                 # σ is proportional to Δ₂f
        laplace = math.sqrt(2) * self.ks / eps
        gauss = np.sqrt(self.ks) * unit
        c_unit = classical_gaussian_sigma(1.0, eps, delta) if eps < 1 else math.nan
        classical = np.sqrt(self.ks) * c_unit
        crossover = laplace_gaussian_crossover(eps, delta)      # √2·k/ε = √k·σ₁
        self.laplace.set_ydata(laplace)
        self.gauss.set_ydata(gauss)
        self.classical.set_ydata(classical)
        self.cross.set_xdata([crossover, crossover])
        where = (f"beyond k ≈ {_number(crossover)}" if crossover >= 1
                 else f"at every k (the lines cross at k ≈ {crossover:.2g}, left of the axis)")
        self.ax.title.set_text(f"ε = {eps:.3g}, δ = {power_text(delta)}: Laplace noise grows like k, Gaussian like √k;\n"
                               f"the Gaussian adds less noise {where}")
        self._drawn = {"epsilon": eps, "delta": delta, "k": self.ks, "laplace_std": laplace, "gaussian_std": gauss,
                       "classical_std": classical, "crossover": crossover, "sigma_per_unit_sensitivity": unit}
        self._units = (math.sqrt(2) / eps, unit, c_unit)     # each line's std at k = 1: × k, × √k, × √k
        return self._drawn

    def _stds(self, k: int) -> tuple[float, float, float]:
        """The three lines' std at k (the figure's formulas: √2·k/ε, √k·σ₁, √k·c/ε)."""
        laplace, gauss, classical = self._units
        return laplace * k, gauss * math.sqrt(k), classical * math.sqrt(k)

    def alt_text(self) -> str:
        """A log–log line chart of the noise per answer against k, and where the Gaussian starts to add less."""
        what = ("Line chart, log–log: the noise standard deviation per answer against k, the number of counting "
                "queries one person can all change, for the Laplace mechanism (Δ₁f = k) and the Gaussian (Δ₂f = √k)")
        r = self._drawn
        if r is None:
            return what + "."
        k = self._rows[min(2, len(self._rows) - 1)]
        laplace, gauss, _ = self._stds(k)
        where = (f"beyond k ≈ {_number(r['crossover'])}" if r["crossover"] >= 1 else "at every k")
        return (f"{what}, at ε = {r['epsilon']:.3g}, δ = {power_text(r['delta'])}. Laplace noise grows like k, "
                f"Gaussian like √k: at k = {k:,} Laplace's std is {_number(laplace)} and the Gaussian's "
                f"{_number(gauss)}; the Gaussian adds less noise {where}.")

    def data_table(self) -> dict | None:
        """The three lines at k = 1, 10, 100, …; "—" where Theorem 3.22 does not apply (ε ≥ 1)."""
        r = self._drawn
        if r is None:
            return None
        return {"caption": f"Noise std per answer at ε = {r['epsilon']:.3g}, δ = {power_text(r['delta'])}",
                "columns": ["k", "Laplace std", "Gaussian std (analytic σ)", "Gaussian std (Theorem 3.22)"],
                "rows": [[f"{k:,}", *(_cell(v) for v in self._stds(k))] for k in self._rows]}


class GaussianCalibrationFigure(_Updatable):
    """σ/Δ₂f against ε: the analytic Gaussian (Balle & Wang) and Theorem 3.22's c/ε (for ε < 1).

    The axes stay put over the sliders' range (ε from 0.05 to 10, δ from 10⁻¹⁰ to 10⁻²):
    σ/Δ₂f from 0.2 to 300 on a log axis, so the curves rise as δ shrinks and the dot slides.
    The analytic curve is :func:`dpteach.gaussian_sigma_curve` (60 bisections side by side).
    """

    #: σ/Δ₂f: holds both curves for 0.05 ≤ ε ≤ 10 and 10⁻¹⁰ ≤ δ ≤ 10⁻²
    Y_LIMITS = (0.2, 300.0)

    def __init__(self) -> None:
        self.grid = np.logspace(math.log10(0.05), 1, 60)
        self.fig, self.ax = new_figure(height=4.4)
        with styled():
            ax = self.ax
            (self.analytic,) = ax.loglog(self.grid, self.grid, color=PALETTE["blue"],
                                         label=r"analytic: Φ(Δ/2σ − εσ/Δ) − $e^{\varepsilon}$Φ(−Δ/2σ − εσ/Δ) = δ")
            (self.classical,) = ax.loglog(self.grid, self.grid, color=PALETTE["orange"], ls="--",
                                          label="Theorem 3.22: c/ε, c = √(2 ln(1.25/δ)), ε < 1")
            (self.dots,) = ax.loglog([1, 1], [1, 1], "o", color=PALETTE["black"], ms=8)
            self.marker = ax.axvline(1, color="grey", ls=":", lw=1.5)
            ax.set_xlim(self.grid[0], self.grid[-1])
            ax.set_ylim(*self.Y_LIMITS)
            ax.set_xlabel("ε")
            ax.set_ylabel("σ / Δ₂f")
            ax.set_title(" ")
            # below the axes: the ε marker crosses the whole width, and the curves rise to the top as δ shrinks
            self.fig.legend(handles=[self.analytic, self.classical], loc="outside lower center", fontsize="small")
            _plain_log_axes(ax)
        self.dynamic = [self.analytic, self.classical, self.dots, self.marker, ax.title]
        self._curves: dict[float, tuple[np.ndarray, np.ndarray]] = {}
        self._drawn: dict | None = None

    #: curves kept, by δ (60 + 60 floats each)
    MAX_CURVES = 512

    def curves(self, delta: float) -> tuple[np.ndarray, np.ndarray]:
        """Both curves at δ, read-only: (analytic σ/Δ₂f, Theorem 3.22's c/ε or NaN where ε ≥ 1).

        They depend on δ alone, so a drag of the ε slider computes neither: the analytic one is 60
        bisections. Kept for each δ seen (a float, as the slider sends), up to :attr:`MAX_CURVES`.
        """
        found = self._curves.get(delta) if isinstance(delta, float) else None
        if found is not None:
            return found
        analytic = gaussian_sigma_curve(self.grid, delta)
        classical = np.where(self.grid < 1, classical_gaussian_constant(delta) / self.grid, np.nan)   # c·Δ₂f/ε
        analytic.flags.writeable = classical.flags.writeable = False
        if isinstance(delta, float):
            if len(self._curves) >= self.MAX_CURVES:
                del self._curves[next(iter(self._curves))]
            self._curves[delta] = (analytic, classical)
        return analytic, classical

    def update(self, epsilon: float, delta: float) -> dict:
        eps = _validate.epsilon(epsilon)
        analytic, classical = self.curves(delta)
        sigma = gaussian_sigma(1.0, eps, delta)
        c_sigma = classical_gaussian_sigma(1.0, eps, delta) if eps < 1 else math.nan
        self.analytic.set_ydata(analytic)
        self.classical.set_ydata(classical)
        self.dots.set_data([eps, eps], [sigma, c_sigma if eps < 1 else sigma])
        self.marker.set_xdata([eps, eps])
        if eps < 1:
            text = (f"ε = {eps:.3g}, δ = {power_text(delta)}: analytic σ = {sigma:.3g}·Δ₂f,\n"
                    f"Theorem 3.22 asks for {c_sigma:.3g}·Δ₂f ({c_sigma / sigma - 1:.0%} more noise)")
        else:
            text = f"ε = {eps:.3g}, δ = {power_text(delta)}: analytic σ = {sigma:.3g}·Δ₂f,\n(Theorem 3.22 needs ε < 1)"
        self.ax.title.set_text(text)
        self._drawn = {"epsilon": eps, "delta": delta, "grid": self.grid, "analytic": analytic, "classical": classical,
                       "sigma": sigma, "classical_sigma": c_sigma}
        return self._drawn

    def alt_text(self) -> str:
        """A log–log line chart of σ/Δ₂f against ε, and the two σ at the slider's ε and δ."""
        what = ("Line chart, log–log: the Gaussian mechanism's noise σ per unit of Δ₂f against ε from 0.05 to 10, "
                "the analytic calibration against Theorem 3.22's c/ε (defined for ε < 1)")
        r = self._drawn
        if r is None:
            return what + "."
        eps, sigma, c_sigma = r["epsilon"], r["sigma"], r["classical_sigma"]
        head = f"{what}, at δ = {power_text(r['delta'])}. At ε = {eps:.3g} the analytic σ is {sigma:.3g}·Δ₂f"
        if eps < 1:
            return f"{head}; Theorem 3.22 asks for {c_sigma:.3g}·Δ₂f ({c_sigma / sigma - 1:.0%} more noise)."
        return f"{head}; Theorem 3.22 needs ε < 1."

    def data_table(self) -> dict | None:
        """Both curves at every fifth ε of the grid, and the slider's ε."""
        r = self._drawn
        if r is None:
            return None
        rows = [[f"{self.grid[i]:.3g}", f"{r['analytic'][i]:.3g}", _cell(r["classical"][i])]
                for i in range(0, self.grid.size, 5)]
        rows.append([f"{r['epsilon']:.3g} (the slider's)", f"{r['sigma']:.3g}", _cell(r["classical_sigma"])])
        return {"caption": f"σ / Δ₂f against ε at δ = {power_text(r['delta'])}",
                "columns": ["ε", "analytic σ / Δ₂f", "Theorem 3.22's c/ε"], "rows": rows}


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
                        label=rf"Laplace b = {b:g}, one count: 1 − $e^{{(\varepsilon - 1/b)/2}}$")
            ax.semilogy(dots, np.maximum(lap_pld, 1e-300), "o", color=PALETTE["vermillion"], ms=6,
                        label="accountant")
            ax.semilogy(self.grid, gau_exact, color=PALETTE["blue"], ls="--",
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
        self.laplace_scale, self.k, self.std = b, kk, s

    def alt_text(self) -> str:
        """A log-scale chart of δ(ε): the closed forms as lines, the accountant's dots on them, and how close."""
        d = self.data
        return (f"Line chart, log scale: δ(ε) against ε from 0 to 3 for the Laplace mechanism with b = "
                f"{self.laplace_scale:g} on one count and for k = {self.k:,} Gaussian coordinates of std "
                f"{self.std:.3g}: the closed forms as lines, the privacy accountant's values as dots. The dots land "
                f"on the lines: the largest error is {_within(d['laplace_max_abs_error'], 1e-5)} for Laplace and "
                f"{_within(d['gaussian_max_rel_error'], 1e-3, relative=True)} (relative) for the Gaussian.")

    def data_table(self) -> dict | None:
        """δ(ε) at every other dot (ε = 0, 0.3, …, 3): the closed forms and the accountant's values."""
        d = self.data
        rows = [[f"{e:.2f}", *(plain_number(v) for v in (d["laplace_exact"][15 * i], d["laplace_accountant"][i],
                                                         d["gaussian_exact"][15 * i], d["gaussian_accountant"][i]))]
                for i, e in enumerate(d["dots"]) if i % 2 == 0]
        return {"caption": f"δ(ε): Laplace b = {self.laplace_scale:g}, Gaussian std {self.std:.3g} with k = {self.k:,}",
                "columns": ["ε", "Laplace, formula", "Laplace, accountant", "Gaussian, formula",
                            "Gaussian, accountant"], "rows": rows}


def _within(error: float, bound: float, relative: bool = False) -> str:
    """An error as a still figure's alt text states it: "under" the tolerance its tests hold it to when it is (a
    rounding error of 10⁻¹⁶ differs from one machine to the next, and nbval compares the stored text), else its
    value."""
    if error < bound:
        return f"under {bound:.1%}" if relative else f"under {power_text(bound)}"
    return f"{error:.1%}" if relative else plain_number(error, 2)


def _cell(value: float) -> str:
    """A table cell: three significant figures, or "—" where the curve has no value (NaN)."""
    return "—" if math.isnan(value) else _number(value)
