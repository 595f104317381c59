"""Figures for chapters 00, 02 and 03: the Laplace density (Definition 3.2), its tail (Fact 3.7)
and the privacy loss that Theorem 3.6 bounds."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgb

from .. import _validate
from ..laplace import laplace_pdf, laplace_scale, laplace_tail, privacy_loss
from ._base import PALETTE, _plain_log_axes, _rng, _Updatable, curve_points, new_figure, styled


def _g(value: float) -> str:
    """A number as the figures' titles write it: three significant figures."""
    return f"{value:.3g}"


class LaplaceDensityFigure(_Updatable):
    """Lap(Δf/ε): its density and a histogram of samples, over a fixed window of answers.

    The axes stay put while ε and Δf move (answers ±15, densities 0 to 1), so a student sees
    the noise widen and flatten as ε shrinks, and grow into a spike above the axes as ε grows.
    Samples are drawn once (standard Lap(1)) and rescaled, so the histogram moves smoothly with
    the sliders instead of jumping with fresh noise.
    """

    #: the density axis: the peak 1/(2b) of Lap(b) fits while b ≥ 0.5 (ε ≤ 2Δf)
    Y_TOP = 1.0

    def __init__(self, window: float = 15.0, n_samples: int = 5_000, bins: int = 61,
                 rng: np.random.Generator | None = None) -> None:
        self.window = _validate.positive("window", window)
        gen = _rng(rng)
        self.unit = gen.laplace(0.0, 1.0, size=_validate.integer("n_samples", n_samples, low=10))
        self.n_bins = _validate.integer("bins", bins, low=2)
        self.x = np.linspace(-self.window, self.window, 801)
        self.fig, self.ax = new_figure()
        ax = self.ax
        with styled():
            # light fills with an edge at 3:1 (WCAG 1.4.11); the band's edge dashed, the histogram's solid
            self.hist = ax.stairs(np.zeros(bins), np.linspace(-1, 1, bins + 1), fill=True, lw=1,
                                  facecolor=(*to_rgb(PALETTE["sky"]), 0.4), edgecolor=PALETTE["sky"],
                                  label=f"{n_samples:,} samples")
            (self.line,) = ax.plot(self.x, np.zeros_like(self.x), color=PALETTE["blue"],
                                   label="density Lap(x | b)")
            self.band = ax.axvspan(-1, 1, facecolor=(*to_rgb(PALETTE["orange"]), 0.15), edgecolor=PALETTE["orange"],
                                   ls="--", lw=1.5, label="±Δf")
            ax.set_xlim(-self.window, self.window)
            ax.set_ylim(0, self.Y_TOP)
            ax.set_title(" ")
            ax.set_xlabel("noise added to the true answer")
            ax.set_ylabel("density")
            ax.legend(loc="upper right")
            self.note = ax.text(0.02, 0.95, "", transform=ax.transAxes, va="top", fontsize="small")
        self.dynamic = [self.hist, self.line, self.band, ax.title, self.note]

    def update(self, epsilon: float, sensitivity: float = 1.0) -> dict:
        b = laplace_scale(sensitivity, epsilon)
        pdf = laplace_pdf(self.x, b)
        samples = b * self.unit
        # Bins follow the noise (down to a tenth of b) but never leave the window.
        reach = min(self.window, 8 * b)
        edges = np.linspace(-reach, reach, self.n_bins + 1)
        counts, _ = np.histogram(samples, edges)
        heights = counts / (len(samples) * np.diff(edges))
        self.line.set_ydata(pdf)
        self.hist.set_data(heights, edges)
        self.band.set_x(-sensitivity)
        self.band.set_width(2 * sensitivity)
        outside = float(np.mean(np.abs(samples) > self.window))
        self.ax.title.set_text(f"ε = {epsilon:.3g}, Δf = {sensitivity:g}: noise Lap(b) with b = Δf/ε = {b:.3g}")
        # short lines: the note must stay left of the ±Δf band (a third of the window at Δf = 5)
        self.note.set_text(f"std = √2·b = {np.sqrt(2) * b:.3g}\n"
                           f"95% of noise in ±{np.log(20) * b:.3g}"
                           + (f"\n{outside:.0%} beyond ±{self.window:g}" if outside > 0.005 else "")
                           + (f"\npeak 1/(2b) = {1 / (2 * b):.3g},\nabove the axis" if 1 / (2 * b) > self.Y_TOP else ""))
        self._now = (epsilon, sensitivity, b, outside, heights, edges)
        return {"scale": b, "x": self.x, "pdf": pdf, "hist": heights, "outside": outside}

    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        eps, sens, b, outside, _, _ = self._now
        beyond = f" {outside:.0%} of the samples fall beyond ±{self.window:g}." if outside > 0.005 else ""
        peak = (f" Its peak 1/(2b) = {_g(1 / (2 * b))} is above the axis, which ends at {self.Y_TOP:g}."
                if 1 / (2 * b) > self.Y_TOP else "")
        return (f"Density of the Laplace noise added to the true answer, from −{self.window:g} to {self.window:g}, "
                f"over a histogram of {self.unit.size:,} samples, with the band ±Δf shaded. At ε = {eps:.3g} and "
                f"Δf = {sens:g} the noise is Lap(b) with b = Δf/ε = {_g(b)}: standard deviation √2·b = "
                f"{_g(np.sqrt(2) * b)}, and 95% of the noise lies within ±{_g(np.log(20) * b)}.{beyond}{peak}")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        eps, sens, b, _, heights, edges = self._now
        reach = min(self.window, 4 * b)                 # out to 4b (98% of the noise), inside the window
        xs = np.linspace(-reach, reach, 17)
        bins = np.searchsorted(edges, xs, side="right") - 1
        inside = (bins >= 0) & (bins < heights.size)
        rows = [[f"{x:.3g}", f"{d:.3g}", f"{heights[i]:.3g}" if ok else "outside the bins"]
                for x, d, i, ok in zip(xs, laplace_pdf(xs, b), bins, inside)]
        return {"caption": f"Laplace density and samples at ε = {eps:.3g}, Δf = {sens:g} (b = {_g(b)})",
                "columns": ["noise x", "density Lap(x | b)", f"histogram of {self.unit.size:,} samples"],
                "rows": rows}

    def explore_points(self) -> list[dict]:
        return [{"name": "density Lap(x | b)", "x": "noise added to the true answer", "y": "density",
                 "points": curve_points(self.line.get_xdata(), self.line.get_ydata())}]


class TailFigure(_Updatable):
    """Fact 3.7: the empirical tail Pr[|Y| ≥ t·b] of samples against exp(−t), on a log axis."""

    def __init__(self, samples, scale: float, t_max: float = 8.0) -> None:
        y = np.abs(_validate.array("samples", samples)) / _validate.positive("scale", scale)
        t = np.linspace(0, _validate.positive("t_max", t_max), 200)
        empirical = (y[None, :] >= t[:, None]).mean(axis=1)
        self.fig, ax = new_figure()
        with styled():
            ax.semilogy(t, laplace_tail(t), color=PALETTE["blue"], label="Fact 3.7: exp(−t)")
            shown = empirical > 0
            ax.semilogy(t[shown], empirical[shown], "--", color=PALETTE["vermillion"],
                        label=f"fraction of {len(y):,} samples")
            ax.set_xlabel("t  (distance from 0 in units of b)")
            ax.set_ylabel("Pr[|Y| ≥ t·b]")
            ax.set_title("The Laplace tail falls by a factor e per unit of b")
            ax.legend()
        self.t, self.empirical, self.n_samples = t, empirical, y.size

    def alt_text(self) -> str:
        ax = self.fig.axes[0]
        t = min(2.0, float(self.t[-1]))     # not t = 3: Pr[|Y| ≥ 3b] is chapter 02's exercise 1
        return (f"{ax.get_title()}. Line chart on a log scale of {ax.get_ylabel()} against {ax.get_xlabel()}, "
                f"from 0 to {self.t[-1]:g}: Fact 3.7's exp(−t) as a solid straight line, the fraction of "
                f"{self.n_samples:,} samples dashed along it. At t = {t:g}, exp(−t) = {np.exp(-t):.3g} and the "
                f"samples give {np.interp(t, self.t, self.empirical):.3g}.")

    def data_table(self) -> dict | None:
        """exp(−t) and the samples' fraction at t = 0, 1, 2, then every 2 units (t = 3, Pr[|Y| ≥ 3b], is chapter
        02's exercise 1: the table does not give it)."""
        ts = np.array([t for t in (0.0, 1.0, 2.0, *np.arange(4.0, float(self.t[-1]) + 1, 2.0)) if t <= self.t[-1]])
        measured = np.interp(ts, self.t, self.empirical)
        return {"caption": f"The Laplace tail: Fact 3.7 against {self.n_samples:,} samples",
                "columns": ["t (units of b)", "exp(−t)", "fraction of samples"],
                "rows": [[f"{t:g}", f"{np.exp(-t):.3g}", f"{m:.3g}"] for t, m in zip(ts, measured)]}


class PrivacyLossFigure(_Updatable):
    """Theorem 3.6 in a picture: the output densities on neighbours and their log-ratio.

    Top: densities of M_L(x) and M_L(y), with f(x) = 0 and f(y) = Δf (neighbours as far
    apart as Δf allows), on a logarithmic density axis: there a Laplace density is a tent,
    and the vertical gap between the two curves at z is the privacy loss drawn below.
    Bottom: the privacy loss ln p_x(z)/p_y(z) in units of ε, with the band [−ε, ε].
    With ``understate=True`` the noise is calibrated to Δf/2 while the answers still differ
    by Δf: the loss leaves the band and reaches ±2ε.

    With k > 1 counts released together, every count moves by Δf/k (so ‖f(x) − f(y)‖₁ = Δf,
    the worst case the calibration covers) and each gets Lap(Δf/ε). The top panel then shows
    one coordinate's two densities, centred Δf/k apart; the bottom panel shows the total loss
    along the diagonal z = (t, …, t) and one coordinate's share of it, which the triangle
    inequality keeps inside [−ε/k, ε/k] (Dwork & Roth 2014, proof of Theorem 3.6): k shares
    of at most ε/k add up to at most ε. With ``understate=True`` each share reaches 2ε/k, outside
    that band, and the line of text under the loss says so.

    The axes are fixed over every control's range (ε from 0.01 to 10, Δf up to 5): outputs
    z from −5 to 9, densities from 5·10⁻⁴ to 30 on a log axis, the loss from −2.6ε to 2.6ε.
    The legends never change (a legend costs ~9 ms a frame to draw); with k > 1 a line of text
    names the share and its band.
    """

    #: the output window (f(x) = 0, f(y) = Δf ≤ 5) and the density axis
    Z_RANGE = (-5.0, 9.0)
    DENSITY_RANGE = (5e-4, 30.0)

    def __init__(self, n_points: int = 601) -> None:
        self.n = _validate.integer("n_points", n_points, low=11)
        self.z = np.linspace(*self.Z_RANGE, self.n)
        self.fig, (self.top, self.bottom) = new_figure(2, 1, height=6.0, sharex=True)
        with styled():
            (self.px,) = self.top.plot([], [], color=PALETTE["blue"], label="p_x: a count's output density on x")
            (self.py,) = self.top.plot([], [], color=PALETTE["orange"], ls="--",
                                       label="p_y: on neighbour y, moved by Δf/k")
            self.top.set_yscale("log")
            self.top.set_ylim(*self.DENSITY_RANGE)
            _plain_log_axes(self.top)
            self.top.set_ylabel("density (log scale)")
            self.top.set_title(" ")
            self.top.legend(loc="upper right")
            self.note = self.top.text(0.01, 0.96, "", transform=self.top.transAxes, va="top", fontsize="small")
            green = to_rgb(PALETTE["green"])
            self.band = self.bottom.axhspan(-1, 1, facecolor=(*green, 0.18), edgecolor=PALETTE["green"], lw=1.2,
                                            label="[−ε, ε]")
            self.share_band = self.bottom.axhspan(-1, 1, facecolor=(*green, 0.25), edgecolor=PALETTE["green"], lw=1.2,
                                                  ls="--", label="[−ε/k, ε/k]")
            (self.loss,) = self.bottom.plot([], [], color=PALETTE["vermillion"], label="privacy loss ln p_x/p_y")
            (self.share,) = self.bottom.plot([], [], color=PALETTE["purple"], ls="--", lw=1.8,
                                             label="one count's share")
            self.bottom.axhline(0, color="grey", lw=0.8)
            self.bottom.set_xlim(*self.Z_RANGE)
            self.bottom.set_ylim(-2.6, 2.6)
            self.bottom.set_yticks([-2, -1, 0, 1, 2], ["−2ε", "−ε", "0", "ε", "2ε"])
            self.bottom.set_xlabel("output z (with k > 1 counts: every count's output is z)")
            self.bottom.set_ylabel("ln p_x(z)/p_y(z)")
            self.bottom.legend(handles=[self.band, self.loss], loc="upper right")
            self.share_note = self.bottom.text(0.99, 0.03, "", transform=self.bottom.transAxes, ha="right",
                                               va="bottom", fontsize="small")
        self.dynamic = [self.px, self.py, self.note, self.top.title, self.share_band, self.loss, self.share,
                        self.share_note]

    def update(self, epsilon: float, sensitivity: float = 1.0, understate: bool = False, k: int = 1) -> dict:
        eps = _validate.epsilon(epsilon)
        true_sens = _validate.positive("sensitivity", sensitivity)
        n_counts = _validate.integer("k", k, low=1, high=1_000)
        claimed = true_sens / 2 if understate else true_sens
        b = laplace_scale(claimed, eps)
        step = true_sens / n_counts                 # how far each of the k counts moves
        z = np.union1d(self.z, [0.0, step])         # the kinks of the densities and of the loss, exactly
        px, py = laplace_pdf(z, b), laplace_pdf(z - step, b)
        diagonal = z if n_counts == 1 else np.repeat(z[:, None], n_counts, axis=1)    # z = (t, …, t)
        loss = privacy_loss(diagonal, np.zeros(n_counts), np.full(n_counts, step), claimed, eps)
        share = privacy_loss(z, 0.0, step, claimed, eps)
        worst = float(np.abs(loss).max())
        self.px.set_data(z, px)
        self.py.set_data(z, py)
        self.loss.set_data(z, loss / eps)           # the loss axis counts in units of ε
        self.share.set_data(z, share / eps)
        self.share.set_visible(n_counts > 1)
        self.share_band.set_y(-1 / n_counts)
        self.share_band.set_height(2 / n_counts)
        self.share_band.set_visible(n_counts > 1)
        self.share_note.set_visible(n_counts > 1)
        # Each share is at most step/b = (Δf/k)/(claimed/ε) = (Δf/claimed)·ε/k: ε/k when the noise is calibrated
        # to Δf (Theorem 3.6), 2ε/k when Δf is understated as Δf/2.
        share_bound = true_sens / claimed / n_counts
        if understate:
            self.share_note.set_text(f"dashed: one count's share reaches ±2ε/k = ±{share_bound:.3g}ε, outside the "
                                     "darker band [−ε/k, ε/k]")
        else:
            self.share_note.set_text(f"dashed: one count's share, inside the darker band [−ε/k, ε/k] = "
                                     f"[−{share_bound:.3g}ε, {share_bound:.3g}ε]")
        counts = "" if n_counts == 1 else f"k = {n_counts} counts, "
        if worst <= eps * (1 + 1e-9):
            self.top.title.set_text(f"{counts}ε = {eps:.3g}: the loss never leaves [−ε, ε]  (Theorem 3.6)")
        else:
            self.top.title.set_text(f"{counts}Δf understated as {claimed:g}: the loss reaches ±{worst:.3g} = "
                                    f"±{worst / eps:.3g}ε")
        moved = f"f(y) − f(x) = Δf = {true_sens:g}" if n_counts == 1 else f"each moves by Δf/k = {step:.3g}"
        self.note.set_text(f"{moved}\nnoise b = {'Δf/(2ε)' if understate else 'Δf/ε'} = {b:.3g}")
        self._now = (eps, true_sens, understate, n_counts, claimed, b, step, worst, share_bound)
        return {"z": z, "px": px, "py": py, "loss": loss, "max_abs_loss": worst, "epsilon": eps,
                "scale": b, "inside": worst <= eps * (1 + 1e-9), "k": n_counts, "share": share,
                "max_abs_share": float(np.abs(share).max()), "share_bound": share_bound * eps,
                "share_note": self.share_note.get_text() if n_counts > 1 else ""}

    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        eps, sens, understate, k, claimed, b, step, worst, share_bound = self._now
        what = ("Two panels against the output z from −5 to 9: on top, on a log scale, the output densities p_x and "
                f"p_y of a count on neighbouring databases, Laplace with b = {_g(b)}")
        what += (f", centred {sens:g} apart (Δf = {sens:g})" if k == 1
                 else f", one of k = {k} counts, each moved by Δf/k = {_g(step)}")
        what += "; below, the privacy loss ln p_x(z)/p_y(z), with the band [−ε, ε] shaded."
        if worst <= eps * (1 + 1e-9):
            result = f" At ε = {eps:.3g} the loss never leaves [−ε, ε] = [−{eps:.3g}, {eps:.3g}] (Theorem 3.6)."
        else:
            result = (f" Δf is understated as {claimed:g} (noise Δf/(2ε)), so at ε = {eps:.3g} the loss reaches "
                      f"±{_g(worst)} = ±{_g(worst / eps)}ε, outside [−ε, ε].")
        if k > 1:
            result = result[:-1] + (f"; one count's share reaches ±{_g(share_bound)}ε, "
                                    + ("outside [−ε/k, ε/k]." if understate else "inside [−ε/k, ε/k]."))
        return what + result

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        eps, sens, _, k, claimed, b, step, _, _ = self._now
        z = np.arange(self.Z_RANGE[0], self.Z_RANGE[1] + 1)            # every unit of output: 15 rows
        share = privacy_loss(z, 0.0, step, claimed, eps)
        rows = [[f"{t:g}", f"{p:.3g}", f"{q:.3g}", f"{k * s:.3g}", f"{k * s / eps:.3g}"]
                for t, p, q, s in zip(z, laplace_pdf(z, b), laplace_pdf(z - step, b), share)]
        return {"caption": f"Densities on neighbours and the privacy loss at ε = {eps:.3g}, Δf = {sens:g}"
                           + (f", k = {k} counts" if k > 1 else ""),
                "columns": ["output z", "p_x(z)", "p_y(z)", "privacy loss", "loss in units of ε"], "rows": rows}

    def explore_points(self) -> list[dict]:
        if not hasattr(self, "_now"):
            return []
        z = self.loss.get_xdata()
        return [{"name": "privacy loss ln p_x/p_y, in units of ε", "x": "output z", "y": "loss / ε",
                 "points": curve_points(z, self.loss.get_ydata())},
                {"name": "p_x: a count's output density on x", "x": "output z", "y": "density",
                 "points": curve_points(z, self.px.get_ydata())},
                {"name": "p_y: on neighbour y", "x": "output z", "y": "density",
                 "points": curve_points(z, self.py.get_ydata())}]
