"""Figures for chapter 10: the Laplace mechanism at work (a hospital, a shop, a city, a survey, a model).

Every figure a slider drives keeps its axes fixed over each control's whole range and lists in
``dynamic`` the artists ``update`` changes, so a frame redraws only those (see ``_base``).
"""

from __future__ import annotations

import math

import matplotlib.ticker
import numpy as np

from .. import _validate
from ..applications import capping_error
from ..counting import capped_histogram
from ..dpsgd import dpsgd_logistic_regression, logistic_regression
from ..laplace import laplace_pdf, laplace_scale
from ..local import (
    CITY_KM,
    central_proportion_variance,
    grid_counts,
    randomized_response_probability,
    randomized_response_variance,
    survey_estimates,
)
from ._base import (
    PALETTE,
    _number,
    _plain_log_axes,
    _rng,
    _Updatable,
    new_figure,
    styled,
)

__all__ = ["CappedReportFigure", "DPSGDFigure", "HospitalCountFigure", "LocalCentralFigure",
           "LocationDensityFigure"]


class HospitalCountFigure(_Updatable):
    """One count, Lap(1/ε): the released count's density with and without one patient.

    The two curves are the output densities on neighbouring databases (the count with the
    patient, and without); their ratio never exceeds e^ε (Theorem 3.6). The note turns ε into
    what it means for the patient: an attacker who thought "50–50: is this patient in the
    data?" can at most reach e^ε/(1 + e^ε) after seeing the release.

    The axes stay put while ε moves: counts within ±8 of the truth, densities on a log scale
    from 0.001 to 10 (the peak 1/(2b) = ε/2 runs from 0.005 to 5 over ε in [0.01, 10]). On a
    log axis the ratio of the two curves is the vertical gap between them.
    """

    #: half-width of the window of counts shown, around count − ½
    HALF = 8.0
    Y_LIMITS = (1e-3, 10.0)

    def __init__(self, count: int, rng: np.random.Generator | None = None) -> None:
        self.count = _validate.integer("count", count, low=1)
        gen = _rng(rng)
        self.unit = float(gen.laplace(0.0, 1.0))        # one release, rescaled with ε
        self.z = np.linspace(count - 0.5 - self.HALF, count - 0.5 + self.HALF, 801)
        self.fig, self.ax = new_figure(height=4.2)
        with styled():
            ax = self.ax
            (self.with_line,) = ax.plot(self.z, self.z, color=PALETTE["blue"], label=f"with the patient (count {count:,})")
            (self.without_line,) = ax.plot(self.z, self.z, color=PALETTE["orange"], ls="--",
                                           label=f"without (count {count - 1:,})")
            self.band = ax.axvspan(0, 1, color=PALETTE["sky"], alpha=0.2, label="95% of releases")
            self.release = ax.axvline(count, color=PALETTE["vermillion"], lw=2, label="one release")
            ax.set_yscale("log")
            ax.set_xlim(self.z[0], self.z[-1])
            ax.set_ylim(*self.Y_LIMITS)
            _plain_log_axes(ax)
            ax.set_xlabel("released count of patients with the condition")
            ax.set_ylabel("density (log scale)")
            ax.set_title(" ")
            ax.legend(loc="upper right")
            self.note = ax.text(0.02, 0.95, "", transform=ax.transAxes, va="top", fontsize="small")
        self.dynamic = [self.with_line, self.without_line, self.band, self.release, ax.title, self.note]

    def update(self, epsilon: float) -> dict:
        b = laplace_scale(1.0, epsilon)
        z = self.z
        p_with, p_without = laplace_pdf(z - self.count, b), laplace_pdf(z - (self.count - 1), b)
        within = math.log(20) * b                          # Fact 3.7: Pr[|Y| ≥ ln(20)·b] = 5%
        released = self.count + b * self.unit
        belief = randomized_response_probability(epsilon)  # e^ε/(1 + e^ε): prior 1/2, odds × e^ε at most
        self.with_line.set_ydata(p_with)
        self.without_line.set_ydata(p_without)
        self.band.set_x(self.count - within)
        self.band.set_width(2 * within)
        self.release.set_xdata([released, released])
        self.ax.title.set_text(f"ε = {epsilon:.3g}: ± {_number(within)} (95%); a 50% guess about a patient "
                               f"→ ≤ {belief:.0%}")
        beyond = " (beyond the axes)" if not z[0] <= released <= z[-1] else ""
        self.note.set_text(f"noise Lap(1/ε) = Lap({b:.3g})\nratio of the curves ≤ e^ε = {_number(math.exp(epsilon))}\n"
                           f"this release: {released:,.1f}{beyond}")
        return {"scale": b, "within_95": within, "released": released, "posterior_bound": belief,
                "ratio_bound": math.exp(epsilon), "z": z, "with": p_with, "without": p_without}


def _bar_edges(k: int, width: float = 0.8) -> np.ndarray:
    """Edges of k bars of ``width`` centred on 0, 1, …, k − 1, with the gaps between them as steps."""
    centres = np.arange(k)
    return np.column_stack([centres - width / 2, centres + width / 2]).ravel()


def _bar_values(heights: np.ndarray) -> np.ndarray:
    """Step values for :func:`_bar_edges`: each bar's height, 0 in each gap."""
    out = np.zeros(2 * len(heights) - 1)
    out[::2] = heights
    return out


class CappedReportFigure(_Updatable):
    """A histogram of events by cell with each user capped at c events: bias against noise.

    Left: per cell, every event (uncapped, outline), the events the cap keeps (bars) and the
    release Lap(c/ε) added to the kept counts (dots with their 95% interval). Right: the
    root-mean-square error of the release against the uncapped truth, by cap, on a log scale
    (error 0.1 to 3,000 per cell covers every c and ε): small caps drop many events (bias),
    large caps need much noise (Δf = c).
    """

    #: errors reach 3,000 (c = 20, ε = 0.01); the two decades above are the legend's
    ERROR_LIMITS = (0.1, 1e6)

    def __init__(self, users, cells, labels, cap_max: int = 20, subject: str = "purchases",
                 rng: np.random.Generator | None = None) -> None:
        self.labels = tuple(str(s) for s in labels)
        k = len(self.labels)
        self.cap_max = _validate.integer("cap_max", cap_max, low=1)
        self.subject = subject
        self.caps = np.arange(1, self.cap_max + 1)
        self.truth = capped_histogram(users, cells, k, max(1, len(users)))
        self.kept = np.array([capped_histogram(users, cells, k, int(c)) for c in self.caps])
        self.bias = capping_error(self.truth, self.kept, self.caps, 1.0)["bias"]
        gen = _rng(rng)
        self.unit = gen.laplace(0.0, 1.0, size=k)
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6, width_ratios=(1.6, 1))
        pos = np.arange(k)
        edges = _bar_edges(k)
        with styled():
            left, right = self.left, self.right
            left.stairs(_bar_values(self.truth), edges, baseline=0, fill=False, color=PALETTE["black"], lw=1.2,
                        label=f"all {subject}")
            self.kept_bars = left.stairs(_bar_values(self.truth), edges, fill=True, color=PALETTE["sky"],
                                         label="kept by the cap")
            self.released = left.errorbar(pos, self.truth, yerr=np.ones(k), fmt="o", color=PALETTE["vermillion"],
                                          elinewidth=2, label="released ± 95%")
            left.set_xticks(pos, self.labels, rotation=45, ha="right")
            left.set_xlim(-0.7, k - 0.3)
            left.set_ylabel(f"{subject} per cell")
            left.set_title(f"{subject} per cell")
            left.legend(loc="upper right", frameon=True, framealpha=0.9, edgecolor="none")
            left.set_ylim(0, 1.25 * self.truth.max())
            self.note = left.text(0.02, 0.97, "", transform=left.transAxes, va="top", fontsize="small",
                                  bbox={"facecolor": "white", "alpha": 0.9, "edgecolor": "none"})
            self.suptitle = self.fig.suptitle(" ", fontweight="bold")
            (self.rmse_line,) = right.plot(self.caps, self.caps.astype(float), color=PALETTE["blue"],
                                           label="total (RMS)")
            shown_bias = np.where(self.bias > 0, self.bias, np.nan)     # a cap that drops nothing: no bias to draw
            right.plot(self.caps, shown_bias, color=PALETTE["orange"], ls="--", label="bias (dropped)")
            (self.noise_line,) = right.plot(self.caps, self.caps.astype(float), color=PALETTE["green"], ls=":",
                                            label="noise std √2·c/ε")
            (self.marker,) = right.plot([1], [1], "o", color=PALETTE["vermillion"], ms=9)
            right.set_yscale("log")
            right.set_xlim(0.5, self.cap_max + 0.5)
            right.set_ylim(*self.ERROR_LIMITS)
            _plain_log_axes(right)
            right.set_xlabel("c, cap per user (Δf = c)")
            right.set_ylabel("error per cell (log scale)")
            right.set_title("Error against the cap")
            right.legend(loc="upper right", fontsize="small")
        line, _, (bars,) = self.released.lines
        self.dynamic = [self.kept_bars, line, bars, self.note, self.rmse_line, self.noise_line, self.marker,
                        right.title, self.suptitle]

    def update(self, cap: int, epsilon: float) -> dict:
        c = _validate.integer("cap", cap, low=1, high=self.cap_max)
        b = laplace_scale(float(c), epsilon)
        kept = self.kept[c - 1]
        released = kept + b * self.unit
        within = math.log(20) * b                          # Fact 3.7: 95% of Lap(b) within ±ln(20)·b
        self.kept_bars.set_data(_bar_values(kept))
        line, _, (bars,) = self.released.lines
        line.set_ydata(released)
        bars.set_segments([np.array([[i, r - within], [i, r + within]]) for i, r in enumerate(released)])
        error = capping_error(self.truth, self.kept, self.caps, epsilon)
        rmse = error["total"]
        self.rmse_line.set_ydata(rmse)
        self.noise_line.set_ydata(error["noise"])
        self.marker.set_data([c], [rmse[c - 1]])
        best = int(error["best"])
        dropped = 1 - kept.sum() / self.truth.sum()
        top = self.left.get_ylim()[1]
        self.note.set_text(f"noise: 95% within ±{_number(within)}"
                           + ("\n(beyond the axes)" if within > top else ""))
        self.suptitle.set_text(f"c = Δf = {c}, ε = {epsilon:.3g}: noise Lap({_number(b)}), "
                               f"{dropped:.0%} of {self.subject} dropped")
        self.right.title.set_text(f"least error at c = {best}")
        return {"cap": c, "sensitivity": c, "scale": b, "truth": self.truth, "kept": kept, "released": released,
                "dropped": float(dropped), "rmse": rmse, "best_cap": best}


class LocationDensityFigure(_Updatable):
    """A city's population density: the truth, the central release (Lap(1/ε) per grid cell) and
    the local one (each resident adds Lap(20 km/ε) to their own coordinates), side by side.

    The noise is drawn once and rescaled with ε, so the maps change smoothly as ε moves.
    All three share one colour scale: residents per cell, 0 to the busiest true cell. The true
    map and the colour scale depend on the grid size only: they are static pixels, one
    background per grid size (``static_key``), and each grid's true counts are counted once.
    """

    def __init__(self, points, cells_max: int = 40, rng: np.random.Generator | None = None) -> None:
        self.points = _validate.array("points", points, ndim=(2,))
        self.cells_max = _validate.integer("cells_max", cells_max, low=1)
        gen = _rng(rng)
        self.unit_points = gen.laplace(0.0, 1.0, size=self.points.shape)
        self.unit_cells = gen.laplace(0.0, 1.0, size=(self.cells_max, self.cells_max))
        self._truth: dict[int, np.ndarray] = {}
        self.cells = 0
        self.fig, axes = new_figure(1, 3, height=4.0)
        self.axes = list(axes)
        extent = (0, CITY_KM, 0, CITY_KM)
        with styled():
            self.images = [ax.imshow(np.zeros((2, 2)), origin="lower", extent=extent, cmap="viridis",
                                     vmin=0, vmax=1, interpolation="nearest") for ax in self.axes]
            for ax, title in zip(self.axes, ("true density\n ", "central\n ", "local\n ")):
                ax.set_title(title, fontsize="medium")
                ax.set_xlabel("east (km)")
                ax.grid(False)
            self.axes[0].set_ylabel("north (km)")
            self.colorbar = self.fig.colorbar(self.images[0], ax=self.axes, shrink=0.9, label="residents per cell")
            # every label as wide as the largest count possible (digits and U+2007 FIGURE SPACE are equally
            # wide), so that one layout fits every grid size
            width = len(str(len(self.points)))
            self.colorbar.formatter = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:.0f}".ljust(width, "\u2007"))
            self.suptitle = self.fig.suptitle(" ", fontweight="bold")
        # the true map (images[0]) and the colour bar change with the grid only: static, keyed on it
        self.dynamic = [self.images[1], self.images[2], self.axes[1].title, self.axes[2].title, self.suptitle]

    def static_key(self) -> int:
        return self.cells

    def truth(self, cells: int) -> np.ndarray:
        """The true counts on a cells × cells grid, counted once per grid size."""
        if cells not in self._truth:
            self._truth[cells] = grid_counts(self.points, cells)
        return self._truth[cells]

    def update(self, epsilon: float, cells: int) -> dict:
        k = _validate.integer("cells", cells, low=1, high=self.cells_max)
        truth = self.truth(k)
        central = truth + laplace_scale(1.0, epsilon) * self.unit_cells[:k, :k]
        b_local = laplace_scale(2 * CITY_KM, epsilon)
        local = grid_counts(self.points + b_local * self.unit_points, k)
        outside = 1 - local.sum() / len(self.points)
        if k != self.cells:
            self.cells = k
            self.images[0].set_data(truth)
            top = float(truth.max())
            for image in self.images:
                image.set_clim(0, top)
        self.images[1].set_data(central)
        self.images[2].set_data(local)
        err_central = float(np.abs(central - truth).mean())
        err_local = float(np.abs(local - truth).mean())
        self.axes[1].title.set_text(f"central, Lap({1 / epsilon:.3g})\n|error| {err_central:.3g}/cell")
        self.axes[2].title.set_text(f"local, Lap({b_local:.3g} km)\n|error| {err_local:.3g}/cell")
        self.suptitle.set_text(f"ε = {epsilon:.3g}, {k}×{k} grid: the central map keeps the city, "
                               f"the local one {'keeps' if err_local < 0.25 * truth.mean() else 'loses'} it")
        return {"cells": k, "truth": truth, "central": central, "local": local, "central_error": err_central,
                "local_error": err_local, "local_scale": b_local, "outside": float(outside)}


class LocalCentralFigure(_Updatable):
    """Randomized response (local) against a Laplace count (central), estimating a proportion.

    Left: the standard deviation of the estimate against n, on log axes: √(e^ε/n)/(e^ε − 1)
    locally, √2/(nε) centrally, with simulated values (dots). Right: the errors |p̂ − p| of
    2,000 simulated surveys at the slider's n, on the same log scale of error, so the two
    clouds sit as far apart as the two curves on the left.

    Both error axes are fixed at 10⁻⁹ to 100, which holds every n and ε the sliders reach.
    The surveys are simulated once per (n, ε) (:func:`~dpteach.local.survey_estimates`, cached).
    """

    N_GRID = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
    ERROR_LIMITS = (1e-9, 1e2)
    #: the share axis: a bell-shaped cloud fills 5-10% of surveys a bin; randomized response at
    #: small n and large ε is a lattice, a spike the note reports
    SHARE_TOP = 0.2

    def __init__(self, proportion: float = 0.3, runs: int = 2_000) -> None:
        self.p = _validate.real("proportion", proportion, low=0.0, high=1.0)
        self.runs = _validate.integer("runs", runs, low=10)
        self.n_line = np.logspace(2, 6, 100)
        self.edges = np.logspace(-9, 2, 111)          # ten bins a decade
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.4)
        with styled():
            left, right = self.left, self.right
            (self.local_line,) = left.loglog(self.n_line, self.n_line, color=PALETTE["vermillion"],
                                             label="local: randomized response")
            (self.central_line,) = left.loglog(self.n_line, self.n_line, color=PALETTE["blue"],
                                               label="central: count + Lap(1/ε)")
            (self.local_dots,) = left.loglog(self.N_GRID, self.N_GRID, "o", color=PALETTE["vermillion"], ms=5,
                                             label="simulated")
            (self.central_dots,) = left.loglog(self.N_GRID, self.N_GRID, "o", color=PALETTE["blue"], ms=5)
            self.marker = left.axvline(1, color=PALETTE["orange"], ls=":", lw=2)
            left.set_xlabel("n, people asked")
            left.set_ylabel("std of the estimated proportion")
            left.set_title(" ")
            left.legend(loc="lower left", fontsize="small")
            left.set_xlim(self.n_line[0], self.n_line[-1])
            left.set_ylim(*self.ERROR_LIMITS)
            zero = np.zeros(len(self.edges) - 1)
            self.local_hist = right.stairs(zero, self.edges, fill=True, color=PALETTE["vermillion"], alpha=0.45,
                                           label="local surveys")
            self.central_hist = right.stairs(zero, self.edges, fill=True, color=PALETTE["blue"], alpha=0.6,
                                             label="central surveys")
            self.local_std = right.axvline(1, color=PALETTE["vermillion"], ls="--", lw=1.5, label="theory std")
            self.central_std = right.axvline(1, color=PALETTE["blue"], ls="--", lw=1.5)
            right.set_xscale("log")
            right.set_xlim(*self.ERROR_LIMITS)
            right.set_ylim(0, self.SHARE_TOP)
            right.set_xlabel("|estimated − true proportion|")
            right.set_ylabel("share of surveys (bins of 0.1 decade)")
            right.set_title(f"{self.runs:,} surveys at this n")
            right.legend(loc="upper left", fontsize="small")
            self.note = right.text(0.02, 0.66, "", transform=right.transAxes, va="top", fontsize="small",
                                   bbox={"facecolor": "white", "alpha": 0.9, "edgecolor": "none"})
            _plain_log_axes(left, right)
            self.suptitle = self.fig.suptitle(" ", fontweight="bold")
        self.dynamic = [self.local_line, self.central_line, self.local_dots, self.central_dots, self.marker,
                        left.title, self.local_hist, self.central_hist, self.local_std, self.central_std,
                        self.note, self.suptitle]

    def update(self, n: int, epsilon: float) -> dict:
        size = _validate.integer("n", n, low=1)
        q = randomized_response_probability(epsilon)
        # both variances are (their value at n = 1)/n^power: one call each, not one per point
        local_std = np.sqrt(randomized_response_variance(1, epsilon) / self.n_line)
        central_std = np.sqrt(central_proportion_variance(1, epsilon)) / self.n_line
        sims = [survey_estimates(self.p, m, epsilon, self.runs) for m in self.N_GRID]
        self.local_line.set_ydata(local_std)
        self.central_line.set_ydata(central_std)
        self.local_dots.set_ydata([s[0].std() for s in sims])
        self.central_dots.set_ydata([s[1].std() for s in sims])
        self.marker.set_xdata([size, size])
        local, central = survey_estimates(self.p, size, epsilon, self.runs, seed=size)
        sd_local = math.sqrt(randomized_response_variance(size, epsilon))
        sd_central = math.sqrt(central_proportion_variance(size, epsilon))
        for stairs, values in ((self.local_hist, local), (self.central_hist, central)):
            counts, _ = np.histogram(np.abs(values - self.p), self.edges)
            stairs.set_data(counts / len(values))
        tallest = max(self.local_hist.get_data().values.max(), self.central_hist.get_data().values.max())
        self.note.set_text(f"tallest bin: {tallest:.0%} of surveys,\nabove the axes" if tallest > self.SHARE_TOP else "")
        self.local_std.set_xdata([sd_local, sd_local])
        self.central_std.set_xdata([sd_central, sd_central])
        ratio = sd_local / sd_central
        self.suptitle.set_text(f"ε = {epsilon:.3g}, n = {size:,}: the local error is {_number(ratio)}× the central")
        self.left.title.set_text(f"error against n (truth told w.p. {q:.2f})")
        return {"n": size, "truth_probability": q, "local_std": sd_local, "central_std": sd_central,
                "ratio": ratio, "local_estimates": local, "central_estimates": central}


class DPSGDFigure(_Updatable):
    """DP-SGD in miniature: test accuracy against ε, and the decision boundaries it learns.

    Every model is trained once, in ``__init__``, on a grid of ε and clipping bounds C
    (``repeats`` runs each); the sliders only choose among them. Left: accuracy against ε
    (median and range of the runs) for the chosen C, with the non-private model's accuracy.
    Right: the test patients and the boundaries of the runs at the chosen ε and C.
    """

    EPSILONS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
    CLIPS = (0.25, 1.0, 4.0)

    def __init__(self, train_x, train_y, test_x, test_y, steps: int = 20, repeats: int = 5,
                 rng: np.random.Generator | None = None) -> None:
        self.test_x = _validate.array("test_x", test_x, ndim=(2,))
        self.test_y = _validate.array("test_y", test_y, ndim=(1,))
        gen = _rng(rng)
        reps = _validate.integer("repeats", repeats, low=1)
        self.baseline = logistic_regression(train_x, train_y, steps=steps)
        self.baseline_accuracy = self.baseline.accuracy(test_x, test_y)
        self.models = {(e, c): [dpsgd_logistic_regression(train_x, train_y, e, steps=steps, clip=c, rng=gen)
                                for _ in range(reps)] for c in self.CLIPS for e in self.EPSILONS}
        self.accuracy = {key: np.array([m.accuracy(test_x, test_y) for m in runs])
                         for key, runs in self.models.items()}
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6)
        eps = np.array(self.EPSILONS)
        self.xs = np.linspace(-2.5, 2.5, 2)
        self.boundary = {key: [self._boundary(m.weights) for m in runs] for key, runs in self.models.items()}
        with styled():
            left, right = self.left, self.right
            self.band = left.fill_between(eps, eps, eps, color=PALETTE["sky"], alpha=0.35, label=f"range of {reps} runs")
            (self.median_line,) = left.semilogx(eps, eps, "o-", color=PALETTE["blue"], label="DP-SGD (median)")
            left.axhline(self.baseline_accuracy, color=PALETTE["black"], ls="--", lw=1.5,
                         label=f"no privacy: {self.baseline_accuracy:.1%}")
            left.axhline(max(self.test_y.mean(), 1 - self.test_y.mean()), color="grey", ls=":", lw=1.5,
                         label="always guess the majority")
            self.marker = left.axvline(1, color=PALETTE["orange"], ls=":", lw=2)
            left.set_xlabel("ε, total for the training")
            left.set_ylabel("test accuracy")
            left.set_xlim(eps[0] / 1.5, eps[-1] * 1.5)
            left.set_ylim(0.2, 1.0)
            left.set_title("accuracy against ε")
            left.legend(loc="lower right")
            _plain_log_axes(left)
            colours = np.where(self.test_y == 1, PALETTE["vermillion"], PALETTE["sky"])
            right.scatter(self.test_x[:, 0], self.test_x[:, 1], c=colours, s=8, alpha=0.6)
            self.boundaries = [right.plot([], [], color=PALETTE["green"], lw=1.5, alpha=0.8)[0] for _ in range(reps)]
            self.boundaries[0].set_label("DP-SGD boundaries")
            right.plot(self.xs, self._boundary(self.baseline.weights), color=PALETTE["black"], ls="--",
                       label="no privacy")
            right.set_xlim(-2.5, 2.5)
            right.set_ylim(-3, 3)
            right.set_xlabel("age (standardised)")
            right.set_ylabel("blood pressure (standardised)")
            right.set_title("red: has the condition")
            right.legend(loc="lower left", fontsize="small")
            self.suptitle = self.fig.suptitle(" ", fontweight="bold")
        self.eps = eps
        self.dynamic = [self.band, self.median_line, self.marker, *self.boundaries, self.suptitle]

    def _boundary(self, w: np.ndarray) -> np.ndarray:
        """y on the line w₀x + w₁y + w₂ = 0 at the two xs (NaN when the line is vertical or absent)."""
        if abs(w[1]) < 1e-12:
            return np.full(2, np.nan)
        return -(w[0] * self.xs + w[2]) / w[1]

    def update(self, epsilon: float, clip: float) -> dict:
        if (epsilon, clip) not in self.models:
            raise ValueError(f"epsilon must be one of {self.EPSILONS} and clip one of {self.CLIPS} "
                             f"(the models are trained in advance), got epsilon={epsilon!r}, clip={clip!r}")
        acc = np.array([self.accuracy[(e, clip)] for e in self.EPSILONS])
        median = np.median(acc, axis=1)
        self.median_line.set_ydata(median)
        low, high = acc.min(axis=1), acc.max(axis=1)
        verts = np.concatenate([np.column_stack([self.eps, low]), np.column_stack([self.eps[::-1], high[::-1]])])
        self.band.set_verts([verts])
        self.marker.set_xdata([epsilon, epsilon])
        for line, ys in zip(self.boundaries, self.boundary[(epsilon, clip)]):
            line.set_data(self.xs, ys)
        here = self.accuracy[(epsilon, clip)]
        scale = self.models[(epsilon, clip)][0].noise_scale
        self.suptitle.set_text(f"C = {clip:g}, ε = {epsilon:g}: noise Lap({_number(scale)}) a step, "
                               f"median accuracy {np.median(here):.1%}")
        return {"epsilon": epsilon, "clip": clip, "accuracy": here, "median_accuracy": float(np.median(here)),
                "baseline_accuracy": self.baseline_accuracy, "noise_scale": scale, "curve": median}
