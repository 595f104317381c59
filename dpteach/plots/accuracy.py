"""Figures for chapter 05: Theorem 3.8's accuracy bound and the census first names (Example 3.3)."""

from __future__ import annotations

import numpy as np

from .. import _validate
from ..accuracy import binomial_ci, laplace_accuracy_bound, linf_error_tail
from ..census import CensusFirstNames
from ..counting import histogram_noise
from ..laplace import laplace_scale
from ._base import (
    PALETTE,
    _number,
    _plain_log_axes,
    _rng,
    _Updatable,
    new_figure,
    styled,
)


class AccuracyBoundFigure(_Updatable):
    """Theorem 3.8 against the observed distribution of the largest error ‖f(x) − y‖_∞.

    The histogram shows the largest error of each of ``runs`` releases of k cells (Δf = 1);
    the red line is the bound ln(k/β)/ε and the shaded tail beyond it should hold about a
    fraction β of the releases, or less (β is the failure probability the book writes δ).
    The curve is the exact density of the largest of k independent |Lap(1/ε)|. Noise is drawn once (running maxima of |Lap(1)| at each k) and
    rescaled with ε.
    """

    K_OPTIONS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)

    def __init__(self, runs: int = 500, bins: int = 40, rng: np.random.Generator | None = None) -> None:
        self.runs = _validate.integer("runs", runs, low=10)
        self.n_bins = _validate.integer("bins", bins, low=5)
        gen = _rng(rng)
        columns = np.array(self.K_OPTIONS) - 1
        self.max_unit = np.empty((self.runs, len(columns)))
        for start in range(0, self.runs, 50):        # chunks keep memory small
            stop = min(self.runs, start + 50)
            unit = np.abs(gen.laplace(0.0, 1.0, size=(stop - start, self.K_OPTIONS[-1])))
            self.max_unit[start:stop] = np.maximum.accumulate(unit, axis=1)[:, columns]
        self.fig, self.ax = new_figure(height=4.6)
        with styled():
            ax = self.ax
            self.hist = ax.stairs(np.zeros(self.n_bins), np.linspace(0, 1, self.n_bins + 1), fill=True,
                                  color=PALETTE["sky"], alpha=0.6, label=f"largest error, {self.runs} releases")
            (self.pdf,) = ax.plot([], [], color=PALETTE["blue"], label="exact law (expected per bin)")
            self.tail = ax.axvspan(1, 2, color=PALETTE["vermillion"], alpha=0.12)
            self.bound = ax.axvline(1, color=PALETTE["vermillion"], lw=2.4, label="Thm 3.8: ln(k/β)·Δf/ε")
            ax.set_xlabel("‖f(x) − y‖∞, the largest error over the k cells")
            ax.set_ylabel("releases")
            ax.set_title(" ")
            ax.legend(loc="upper left")
            self.note = ax.text(0.98, 0.95, "", transform=ax.transAxes, ha="right", va="top", fontsize="small",
                                bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": "none"})

    def update(self, epsilon: float, delta: float, k: int) -> dict:
        """Redraw at ε, failure probability β = ``delta`` (named after the book's δ) and k cells."""
        n = _validate.integer("k", k, low=1)
        if n not in self.K_OPTIONS:
            raise ValueError(f"k must be one of {self.K_OPTIONS}, got {k!r}")
        b = laplace_scale(1.0, epsilon)
        bound = laplace_accuracy_bound(n, delta, 1.0, epsilon)
        errors = b * self.max_unit[:, self.K_OPTIONS.index(n)]
        beyond = int((errors >= bound).sum())
        ci = binomial_ci(beyond, self.runs)
        exact = linf_error_tail(bound, n, 1.0, epsilon)
        right = 1.15 * max(bound, float(errors.max()), b)
        edges = np.linspace(0, right, self.n_bins + 1)
        heights, _ = np.histogram(errors, edges)
        x = np.linspace(0, right, 400)
        # the density of the largest of k i.i.d. |Lap(b)|, times runs × bin width: expected releases per bin
        density = n / b * np.exp(-x / b) * (-np.expm1(-x / b)) ** (n - 1) * self.runs * (edges[1] - edges[0])
        self.hist.set_data(heights, edges)
        self.pdf.set_data(x, density)
        self.bound.set_xdata([bound, bound])
        self.tail.set_x(bound)
        self.tail.set_width(right - bound)
        self.ax.set_xlim(0, right)
        self.ax.set_ylim(0, 1.2 * max(heights.max(), density.max()))
        # a short title (it must fit in the presentation style at every slider value); the counts go in the note
        self.ax.title.set_text(f"k = {n:,}, ε = {epsilon:.3g}, β = {delta:.3g}: bound {_number(bound)}")
        self.note.set_text(f"beyond the bound: {beyond} of {self.runs} ({beyond / self.runs:.1%})\n"
                           f"95% interval [{ci[0]:.3f}, {ci[1]:.3f}]\n"
                           f"exact Pr[beyond] = {exact:.3g} ≤ β\n"
                           f"mean largest error {errors.mean():.3g}")
        return {"k": n, "epsilon": epsilon, "delta": delta, "bound": bound, "errors": errors, "beyond": beyond,
                "fraction": beyond / self.runs, "ci": ci, "exact": exact}


class NameReliabilityFigure(_Updatable):
    """Which names Example 3.3 releases reliably: relative error by true count, and the empty cells.

    Left: each listed name's |noisy − true| / true against its true count, on log axes,
    under the line Theorem 3.8 draws (bound / count: every name is below it with
    probability ≥ 1 − β); the true counts are real 1990 frequencies scaled to the 2010
    population. Right: the released counts of the potential names no one has, pure noise
    inside ±bound. One unit Laplace draw per cell, rescaled with ε.
    """

    def __init__(self, data: CensusFirstNames, delta: float = 0.05, rng: np.random.Generator | None = None) -> None:
        if not isinstance(data, CensusFirstNames):
            raise TypeError(f"data must come from dp.census_first_names(), got {type(data).__name__}")
        self.data = data
        self.delta = _validate.real("delta", delta, low=0.0, high=1.0)
        gen = _rng(rng)
        self.unit = gen.laplace(0.0, 1.0, size=data.k)
        self.true = data.counts[data.listed].astype(float)
        self.x = np.logspace(np.log10(self.true.min()) - 0.2, np.log10(self.true.max()) + 0.2, 50)
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6, width_ratios=(3, 2))
        with styled():
            left, right = self.left, self.right
            self.points = left.scatter(self.true, np.ones_like(self.true), s=6, color=PALETTE["blue"], alpha=0.35,
                                       linewidths=0, label=f"{data.n_listed:,} listed names")
            (self.bound_line,) = left.loglog(self.x, self.x, color=PALETTE["vermillion"],
                                             label=f"Thm 3.8 bound / count ({1 - self.delta:.0%})")
            left.axhline(0.01, color="grey", lw=1.2, ls=":", label="1% relative error")
            left.set_xlim(self.x[0], self.x[-1])
            left.set_xlabel("true count (1990 frequency × 2010 population)")
            left.set_ylabel("|noisy − true| / true")
            left.set_title(" ")
            left.legend(loc="upper right")
            self.hist = right.stairs(np.zeros(30), np.linspace(-1, 1, 31), fill=True, color=PALETTE["orange"],
                                     alpha=0.6)
            self.lo = right.axvline(-1, color=PALETTE["vermillion"], lw=2)
            self.hi = right.axvline(1, color=PALETTE["vermillion"], lw=2)
            right.set_xlabel("released count (true count 0)")
            right.set_ylabel("unused names")
            right.set_title(" ")
            _plain_log_axes(left)

    def update(self, epsilon: float) -> dict:
        b = laplace_scale(1.0, epsilon)
        bound = laplace_accuracy_bound(self.data.k, self.delta, 1.0, epsilon)
        noise = b * self.unit
        relative = np.abs(noise[self.data.listed]) / self.true
        unused = noise[~self.data.listed]
        self.points.set_offsets(np.column_stack([self.true, relative]))
        self.bound_line.set_ydata(bound / self.x)
        low = 10 ** np.floor(np.log10(max(np.quantile(relative, 0.01), 1e-12)))
        self.left.set_ylim(low, 10 ** np.ceil(np.log10(max(bound / self.x[0], relative.max(), 0.02))))
        reach = 1.2 * max(bound, float(np.abs(unused).max()))
        counts, edges = np.histogram(unused, np.linspace(-reach, reach, 31))
        self.hist.set_data(counts, edges)
        self.lo.set_xdata([-bound, -bound])
        self.hi.set_xdata([bound, bound])
        self.right.set_xlim(-reach, reach)
        self.right.set_ylim(0, 1.15 * counts.max())
        worst = float(relative.max())
        self.left.title.set_text(f"ε = {epsilon:.3g}: every listed name within {worst:.2%}")
        self.right.title.set_text(f"unused: up to ±{_number(np.abs(unused).max())}")
        return {"epsilon": epsilon, "scale": b, "bound": bound, "relative": relative,
                "max_relative_error": worst, "largest_name_relative_error": float(relative[0]),
                "unused": unused, "max_unused": float(np.abs(unused).max()),
                "negative_unused": int((unused < 0).sum())}


class MarketingNoiseFigure(_Updatable):
    """A conversion report by campaign-day: DP noise against sampling noise, by cell size.

    With each user's conversions capped at c, the report is a histogram with Δf = c, so each
    cell gets Lap(c/ε): standard deviation √2·c/ε, the same for every cell. A cell of n
    conversions also carries sampling noise of standard deviation about √n (Poisson). DP
    noise dominates below the crossover n = 2(c/ε)²; the dashed line is the largest DP error
    over all N cells with probability 1 − β (Theorem 3.8).
    """

    def __init__(self, cells: int = 600, delta: float = 0.05, n_max: float = 1e5) -> None:
        self.cells = _validate.integer("cells", cells, low=1)
        self.delta = _validate.real("delta", delta, low=0.0, high=1.0)
        self.n = np.logspace(0, np.log10(_validate.real("n_max", n_max, low=10.0)), 300)
        self.fig, self.ax = new_figure(height=4.6)
        with styled():
            ax = self.ax
            self.shade = ax.axvspan(1, 2, color=PALETTE["vermillion"], alpha=0.1, label="DP noise dominates")
            (self.sampling,) = ax.loglog(self.n, np.sqrt(self.n), color=PALETTE["blue"],
                                         label="sampling noise √n")
            (self.dp_line,) = ax.loglog(self.n, np.ones_like(self.n), color=PALETTE["vermillion"],
                                        label="DP noise std √2·c/ε")
            (self.linf,) = ax.loglog(self.n, np.ones_like(self.n), color=PALETTE["vermillion"], ls="--",
                                     label=f"largest DP error over N = {self.cells:,} cells ({1 - self.delta:.0%})")
            self.cross = ax.axvline(1, color=PALETTE["black"], ls=":", lw=1.5)
            ax.set_xlim(self.n[0], self.n[-1])
            ax.set_xlabel("conversions in the cell (campaign-day)")
            ax.set_ylabel("size of the noise (conversions)")
            ax.set_title(" ")
            ax.legend(loc="lower right")
            _plain_log_axes(ax)

    def update(self, cap: int, epsilon: float) -> dict:
        c = _validate.integer("cap", cap, low=1)
        h = histogram_noise(c, epsilon, self.cells, self.delta)
        self.dp_line.set_ydata(np.full(self.n.shape, h.std))
        self.linf.set_ydata(np.full(self.n.shape, h.linf_bound))
        self.shade.set_x(self.n[0])
        self.shade.set_width(min(h.crossover, self.n[-1]) - self.n[0])
        self.cross.set_xdata([h.crossover, h.crossover])
        self.ax.set_ylim(0.5, 2 * max(h.linf_bound, np.sqrt(self.n[-1])))
        self.ax.title.set_text(f"cap c = {c}, ε = {epsilon:.3g}: DP noise dominates cells under "
                               f"{h.crossover:,.0f} conversions")
        return {"cap": c, "epsilon": epsilon, "noise": h, "std": h.std, "variance": h.variance,
                "linf_bound": h.linf_bound, "crossover": h.crossover}
