"""Figures for chapter 10's local model: a city map released centrally and locally, and randomized response against the central Laplace mechanism."""

from __future__ import annotations

import math

import matplotlib.ticker
import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.patches import Patch

from .. import _validate
from ..laplace import laplace_scale
from ..local import (
    CITY_KM,
    central_proportion_variance,
    grid_counts,
    randomized_response_probability,
    randomized_response_variance,
    survey_estimates,
)
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled
from ._describe import plain_number

__all__ = ["LocationDensityFigure", "LocalCentralFigure"]


class LocationDensityFigure(_Updatable):
    """A city's population density: the truth, the central release (Lap(1/ε) per grid cell) and
    the local one (each resident adds Lap(20 km/ε) to their own coordinates), side by side.

    The noise is drawn once and rescaled with ε, so the maps change smoothly as ε moves.
    All three share one colour scale: residents per cell, 0 to the busiest true cell. The true
    map and the colour scale depend on the grid size only: they are static pixels, one
    background per grid size (``static_key``), and each grid's true counts are counted once.
    Back at a grid seen before, the colour bar's axes take that grid's limits at once (the cached
    backgrounds are keyed on every axes' limits), and rebuilding the bar itself (about 5 ms) waits
    until something draws it or lays it out: a frame blitted on a cached background does not.
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
        self._drawn: dict | None = None
        self._colorbar_stale = False
        #: the colour bar axes' limits (x, y) at each grid size drawn
        self._bar_limits: dict[int, tuple] = {}
        bar = self.colorbar.ax
        for name in ("draw", "get_tightbbox"):          # whatever draws the bar or lays it out sees it current
            setattr(bar, name, self._current_colorbar_first(getattr(bar, name)))

    def _current_colorbar_first(self, method):
        def wrapped(*args, **kwargs):
            if self._colorbar_stale:
                self._colorbar_stale = False
                self.colorbar.update_normal(self.images[0])
            return method(*args, **kwargs)
        return wrapped

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
            with self.images[0].callbacks.blocked(signal="changed"):    # the colour bar: below
                for image in self.images:
                    image.set_clim(0, top)
            bar, limits = self.colorbar.ax, self._bar_limits.get(k)
            if limits is None:                          # a new grid: the bar now, and its limits remembered
                self.colorbar.update_normal(self.images[0])
                self._bar_limits[k] = (bar.get_xlim(), bar.get_ylim())
                self._colorbar_stale = False
            else:                                       # its limits now, the bar when drawn
                bar.set_xlim(limits[0])
                bar.set_ylim(limits[1])
                self._colorbar_stale = True
        self.images[1].set_data(central)
        self.images[2].set_data(local)
        err_central = float(np.abs(central - truth).mean())
        err_local = float(np.abs(local - truth).mean())
        self.axes[1].title.set_text(f"central, Lap({1 / epsilon:.3g})\n|error| {err_central:.3g}/cell")
        self.axes[2].title.set_text(f"local, Lap({b_local:.3g} km)\n|error| {err_local:.3g}/cell")
        self.suptitle.set_text(f"ε = {epsilon:.3g}, {k}×{k} grid: central keeps the city, "
                               f"local {'keeps' if err_local < 0.25 * truth.mean() else 'loses'} it")
        result = {"cells": k, "truth": truth, "central": central, "local": local, "central_error": err_central,
                  "local_error": err_local, "local_scale": b_local, "outside": float(outside)}
        self._drawn = {**result, "epsilon": epsilon, "keeps": err_local < 0.25 * truth.mean()}
        return result

    def alt_text(self) -> str:
        """The three maps, and at the slider's ε and grid: each release's noise and mean error a cell."""
        what = (f"Three heat maps of a city's {len(self.points):,} residents per grid cell, east against north in km: "
                "the true density, the central release (Laplace noise on each cell's count) and the local one (each "
                "resident adds Laplace noise to their own coordinates), on one colour scale")
        r = self._drawn
        if r is None:
            return what + "."
        k = r["cells"]
        return (f"{what}. At ε = {r['epsilon']:.3g} on a {k}×{k} grid: central noise Lap({1 / r['epsilon']:.3g}), mean "
                f"|error| {r['central_error']:.3g} a cell; local noise Lap({r['local_scale']:.3g} km), mean |error| "
                f"{r['local_error']:.3g} a cell, {r['outside']:.0%} of residents pushed off the map. Central keeps the "
                f"city, local {'keeps' if r['keeps'] else 'loses'} it.")

    def data_table(self) -> dict | None:
        """One row per map: its noise, mean error a cell, busiest cell and residents counted."""
        r = self._drawn
        if r is None:
            return None
        rows = [[name, noise, "—" if error is None else f"{error:.3g}", f"{counts.max():,.0f}", f"{counts.sum():,.0f}"]
                for name, noise, error, counts in (
                    ("true density", "none", None, r["truth"]),
                    ("central", f"Lap({1 / r['epsilon']:.3g}) a cell", r["central_error"], r["central"]),
                    ("local", f"Lap({r['local_scale']:.3g} km) a coordinate", r["local_error"], r["local"]))]
        return {"caption": f"The three maps at ε = {r['epsilon']:.3g}, {r['cells']}×{r['cells']} grid",
                "columns": ["map", "noise", "mean |error| a cell", "busiest cell", "residents counted"], "rows": rows}


class LocalCentralFigure(_Updatable):
    """Randomized response (local) against a Laplace count (central), estimating a proportion.

    Left: the standard deviation of the estimate against n, on log axes: √(e^ε/n)/(e^ε − 1)
    locally, √2/(nε) centrally, with simulated values (dots, each the standard deviation of
    ``dot_runs`` surveys). Right: the errors |p̂ − p| of ``runs`` simulated surveys at the
    slider's n, on the same log scale of error, so the two clouds sit as far apart as the two
    curves on the left.

    A dot's 500 surveys give its standard deviation to about ±3% (relative standard error
    1/√(2·500)), a fraction of a dot on axes eleven decades high; 2,000 at each of the nine n
    would make simulating most of what a new ε costs. Both error axes are fixed at 10⁻⁹ to 100,
    which holds every n and ε the sliders reach. The surveys are simulated once per (n, ε)
    (:func:`~dpteach.local.survey_estimates`, cached).
    """

    N_GRID = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
    ERROR_LIMITS = (1e-9, 1e2)
    #: the share axis: a bell-shaped cloud fills 5-10% of surveys a bin; randomized response at
    #: small n and large ε is a lattice, a spike the note reports
    SHARE_TOP = 0.2

    def __init__(self, proportion: float = 0.3, runs: int = 2_000, dot_runs: int = 500) -> None:
        self.p = _validate.real("proportion", proportion, low=0.0, high=1.0)
        self.runs = _validate.integer("runs", runs, low=10)
        self.dot_runs = _validate.integer("dot_runs", dot_runs, low=10)
        self.n_line = np.logspace(2, 6, 100)
        self.edges = np.logspace(-9, 2, 111)          # ten bins a decade
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.4)
        with styled():
            left, right = self.left, self.right
            (self.local_line,) = left.loglog(self.n_line, self.n_line, color=PALETTE["vermillion"],
                                             label="local: randomized response")
            (self.central_line,) = left.loglog(self.n_line, self.n_line, color=PALETTE["blue"], ls="--",
                                               label="central: count + Lap(1/ε)")
            (self.local_dots,) = left.loglog(self.N_GRID, self.N_GRID, "o", color=PALETTE["vermillion"], ms=5,
                                             label="simulated")
            (self.central_dots,) = left.loglog(self.N_GRID, self.N_GRID, "s", color=PALETTE["blue"], ms=5)
            self.marker = left.axvline(1, color=PALETTE["orange"], ls=":", lw=2)
            left.set_xlabel("n, people asked")
            left.set_ylabel("std of the estimated proportion")
            left.set_title(" ", fontsize="medium")
            left.set_xlim(self.n_line[0], self.n_line[-1])
            left.set_ylim(*self.ERROR_LIMITS)
            zero = np.zeros(len(self.edges) - 1)
            # local filled (light, with a full-colour edge), central outlined: not told apart by hue alone
            self.local_hist = right.stairs(zero, self.edges, fill=True, facecolor=to_rgba(PALETTE["vermillion"], 0.45),
                                           edgecolor=PALETTE["vermillion"], lw=0.8, label="local surveys")
            self.central_hist = right.stairs(zero, self.edges, fill=False, baseline=0, color=PALETTE["blue"], lw=1.6,
                                             label="central surveys")
            self.local_std = right.axvline(1, color=PALETTE["vermillion"], ls=":", lw=2, label="theory std")
            self.central_std = right.axvline(1, color=PALETTE["blue"], ls=":", lw=2)
            right.set_xscale("log")
            right.set_xlim(*self.ERROR_LIMITS)
            right.set_ylim(0, self.SHARE_TOP)
            right.set_xlabel("|estimated − true proportion|")
            right.set_ylabel("share of surveys (bins of 0.1 decade)")
            right.set_title(f"{self.runs:,} surveys at this n\n ", fontsize="medium")     # 2nd line: update
            # one legend below the panels: inside, the n marker crosses the whole height of the left one
            # the central histogram's entry an outlined box, as its bars are (a stairs' own entry is a line)
            outlined = Patch(facecolor="none", edgecolor=PALETTE["blue"], lw=1.6, label="central surveys")
            self.fig.legend(handles=[self.local_line, self.central_line, self.local_dots, self.local_hist,
                                     outlined, self.local_std], loc="outside lower center", ncols=3,
                            fontsize="small")
            _plain_log_axes(left, right)
            self.suptitle = self.fig.suptitle(" ", fontweight="bold")
        self.dynamic = [self.local_line, self.central_line, self.local_dots, self.central_dots, self.marker,
                        left.title, self.local_hist, self.central_hist, self.local_std, self.central_std,
                        right.title, self.suptitle]
        self._drawn: dict | None = None

    def update(self, n: int, epsilon: float) -> dict:
        size = _validate.integer("n", n, low=1)
        q = randomized_response_probability(epsilon)
        # both variances are (their value at n = 1)/n^power: one call each, not one per point
        local_std = np.sqrt(randomized_response_variance(1, epsilon) / self.n_line)
        central_std = np.sqrt(central_proportion_variance(1, epsilon)) / self.n_line
        sims = [survey_estimates(self.p, m, epsilon, self.dot_runs) for m in self.N_GRID]
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
        # in the title, not on the panel: a note inside would sit on the bins or the std lines at some ε
        self.right.title.set_text(f"{self.runs:,} surveys at this n\ntallest bin: {tallest:.0%}"
                                  + (", off the top" if tallest > self.SHARE_TOP else ""))
        self.local_std.set_xdata([sd_local, sd_local])
        self.central_std.set_xdata([sd_central, sd_central])
        ratio = sd_local / sd_central
        self.suptitle.set_text(f"ε = {epsilon:.3g}, n = {size:,}: the local error is {_number(ratio)}× the central")
        self.left.title.set_text(f"error against n (truth told w.p. {q:.2f})")
        result = {"n": size, "truth_probability": q, "local_std": sd_local, "central_std": sd_central,
                  "ratio": ratio, "local_estimates": local, "central_estimates": central}
        self._drawn = {**result, "epsilon": epsilon, "local_dots": self.local_dots.get_ydata(),
                       "central_dots": self.central_dots.get_ydata()}
        return result

    def alt_text(self) -> str:
        """Both panels, and at the slider's n and ε: the two standard deviations and their ratio."""
        what = ("Two panels: left, a line chart (log–log) of the standard deviation of an estimated proportion against "
                "n, the people asked, for randomized response (local) and a Laplace count (central), with simulated "
                f"dots; right, histograms of the error |estimated − true proportion| of {self.runs:,} simulated surveys at "
                "the slider's n, on the same log scale of error")
        r = self._drawn
        if r is None:
            return what + "."
        return (f"{what}. At ε = {r['epsilon']:.3g}, n = {r['n']:,}: the local error is {_number(r['ratio'])}× the "
                f"central, std {plain_number(r['local_std'], 2)} against {plain_number(r['central_std'], 2)}; randomized response tells the truth "
                f"with probability {r['truth_probability']:.2f}.")

    def data_table(self) -> dict | None:
        """One row per simulated n: both standard deviations, by formula and simulated."""
        r = self._drawn
        if r is None:
            return None
        rows = [[f"{n:,}", plain_number(r["local_dots"][i], 2), plain_number(r["central_dots"][i], 2)]
                for i, n in enumerate(self.N_GRID)]
        return {"caption": f"Standard deviation of the estimated proportion at ε = {r['epsilon']:.3g} "
                           f"({self.dot_runs:,} simulated surveys a row)",
                "columns": ["n", "local (randomized response)", "central (Laplace)"], "rows": rows}
