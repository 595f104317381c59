"""Figures for chapter 04: counting and histogram queries (Examples 3.1 and 3.2)."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.colors import to_rgb

from .. import _validate
from ..laplace import laplace_scale
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, new_figure, styled


class CountErrorBySizeFigure(_Updatable):
    """Example 3.1: a count's absolute error does not grow with n; its relative error falls like 1/n.

    A database of n people, a fixed fraction of whom have the property counted. Top: the
    absolute error of the released count against n (flat at E|Y| = 1/ε, with the band that
    holds 95% of releases). Bottom: the same error relative to the count, which falls like
    1/n. Dots are measured on ``n_releases`` releases at each n; the noise is drawn once and
    rescaled with ε. Both error axes are logarithmic and hold every ε in ``epsilon_range``:
    a tenfold drop in ε lifts every line by a decade.
    """

    def __init__(self, fraction: float = 0.3, n_releases: int = 2_000,
                 rng: np.random.Generator | None = None,
                 epsilon_range: tuple[float, float] = (0.01, 10.0)) -> None:
        self.fraction = _validate.real("fraction", fraction, low=0.0, high=1.0)
        low_eps, high_eps = (_validate.epsilon(e) for e in epsilon_range)
        gen = _rng(rng)
        self.grid = 10 ** np.arange(1, 9)
        unit = gen.laplace(0.0, 1.0, size=(len(self.grid), _validate.integer("n_releases", n_releases, low=10)))
        self.mean_unit = np.abs(unit).mean(axis=1)
        self.counts = np.maximum(1, np.round(self.fraction * self.grid))
        self.n_line = np.logspace(1, 8, 200)
        self.count_line = np.maximum(1, np.round(self.fraction * self.n_line))
        b_low, b_high = 1 / high_eps, 1 / low_eps
        within = np.log(20)                       # Fact 3.7: Pr[|Y| ≥ ln(20)·b] = 0.05
        self.fig, (self.top, self.bottom) = new_figure(2, 1, height=6.2, sharex=True)
        with styled():
            top, bottom = self.top, self.bottom
            # a light fill with an edge at 3:1 (WCAG 1.4.11)
            self.band = top.fill_between(self.n_line, 0, 1, facecolor=(*to_rgb(PALETTE["sky"]), 0.25), lw=1,
                                         edgecolor=PALETTE["sky"], label="95% of releases")
            (self.abs_line,) = top.loglog(self.n_line, np.ones_like(self.n_line), color=PALETTE["blue"],
                                          label="expected |error| = 1/ε (below: ÷ the count)")
            (self.abs_dots,) = top.loglog(self.grid, self.mean_unit, "o", color=PALETTE["vermillion"],
                                          label=f"mean |error| of {n_releases:,} releases (below: ÷ the count)")
            self.abs_marker = top.axvline(1, color=PALETTE["orange"], ls="--", lw=2)
            top.set_ylim(_decade_below(0.3 * b_low), _decade_above(30 * within * b_high))
            top.set_ylabel("|error| (people)")
            top.set_title(" ")
            (self.rel_line,) = bottom.loglog(self.n_line, np.ones_like(self.n_line), color=PALETTE["blue"],
                                             label="expected |error| / count")
            (self.rel_dots,) = bottom.loglog(self.grid, self.mean_unit, "o", color=PALETTE["vermillion"],
                                             label="measured")
            self.rel_marker = bottom.axvline(1, color=PALETTE["orange"], ls="--", lw=2, label="this n")
            bottom.set_title(" ")
            bottom.set_xlabel("n, people in the database")
            bottom.set_ylabel("|error| / true count")
            # one legend below the panels (inside, the n marker crosses the whole height of both), each look once:
            # the lower panel draws the same line and dots divided by the count
            self.fig.legend(handles=[self.band, self.abs_line, self.abs_dots, self.rel_marker],
                            loc="outside lower center", ncols=2, fontsize="small")
            bottom.set_xlim(self.n_line[0], self.n_line[-1])
            bottom.set_ylim(_decade_below(0.3 * b_low / self.count_line[-1]),
                            _decade_above(30 * b_high / self.count_line[0]))
            _plain_log_axes(top, bottom)
        self.dynamic = [self.band, self.abs_line, self.abs_dots, self.abs_marker, top.title,
                        self.rel_line, self.rel_dots, self.rel_marker, bottom.title]

    def update(self, n: float, epsilon: float) -> dict:
        size = _validate.integer("n", n, low=1, why="a database of n people, n ≥ 1")
        b = laplace_scale(1.0, epsilon)
        count = max(1, round(self.fraction * size))
        within = float(np.log(20) * b)          # Fact 3.7: Pr[|Y| ≥ ln(20)·b] = 0.05
        measured = b * self.mean_unit
        floor = self.top.get_ylim()[0]
        self.band.set_data(self.n_line, floor, within)
        self.abs_line.set_ydata(np.full_like(self.n_line, b))
        self.abs_dots.set_ydata(measured)
        self.rel_line.set_ydata(b / self.count_line)
        self.rel_dots.set_ydata(measured / self.counts)
        for marker in (self.abs_marker, self.rel_marker):
            marker.set_xdata([size, size])
        self.top.title.set_text(f"ε = {epsilon:.3g}: error ≈ {_number(b)} at any n")
        self.bottom.title.set_text(f"n = {size:,}: the count {count:,}, off by about {_percent(b / count)}")
        self._now = (size, float(epsilon), b, count, within)
        return {"n": size, "count": count, "scale": b, "expected_abs_error": b, "relative_error": b / count,
                "band": within, "grid": self.grid, "measured_abs_error": measured,
                "measured_relative_error": measured / self.counts}


    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        size, eps, b, count, within = self._now
        return (f"Two panels against n, the people in the database, from 10 to 100,000,000 on log axes, for a count "
                f"of {self.fraction:.0%} of them: on top the absolute error of the released count, flat at 1/ε = "
                f"{_number(b)} at any n (95% of releases within {_number(within)}), with measured dots; below, the "
                f"error relative to the count, falling like 1/n. At ε = {eps:.3g} and n = {size:,} the count is "
                f"{count:,}, off by about {_percent(b / count)}.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        size, eps, b, _, within = self._now
        rows = [[f"{n:,}", f"{c:,.0f}", _number(b), _number(b * m), _percent(b / c), _percent(b * m / c)]
                for n, c, m in zip(self.grid, self.counts, self.mean_unit)]
        return {"caption": f"The error of a count by database size at ε = {eps:.3g} (95% of releases within "
                           f"{_number(within)})",
                "columns": ["n", "true count", "expected |error|", "measured mean |error|", "expected |error| / count",
                            "measured / count"], "rows": rows}


def _percent(fraction: float) -> str:
    """A relative error as a percentage with three significant figures, never in e-notation."""
    percent = 100 * fraction
    if percent >= 100:
        return f"{percent:,.0f}%"
    text = f"{percent:.3g}"
    if "e" in text:       # below 0.0001%: fixed decimals, three significant figures
        text = f"{percent:.{2 - math.floor(math.log10(percent))}f}"
    return text + "%"


def _decade_below(value: float) -> float:
    return float(10 ** np.floor(np.log10(value)))


def _decade_above(value: float) -> float:
    return float(10 ** np.ceil(np.log10(value)))


class CountingVsHistogramFigure(_Updatable):
    """Examples 3.1 and 3.2: k arbitrary counts need Lap(k/ε) each; a k-cell histogram Lap(1/ε).

    Error against the number k of queries, on log axes. Solid: the typical error of one
    answer (E|Y| = b). Dashed: the largest of the k errors that Theorem 3.8 allows at 95%.
    Dots at the slider's k are measured on ``runs`` simulated releases (noise drawn once and
    rescaled). The axes hold every ε in ``epsilon_range``: ε moves all four lines up or down
    together (a tenfold drop lifts them a decade), while k moves along them.
    """

    def __init__(self, k_max: int = 1_000, runs: int = 200, delta: float = 0.05,
                 rng: np.random.Generator | None = None,
                 epsilon_range: tuple[float, float] = (0.01, 10.0)) -> None:
        self.k_max = _validate.integer("k_max", k_max, low=2)
        self.delta = _validate.real("delta", delta, low=0.0, high=1.0)
        low_eps, high_eps = (_validate.epsilon(e) for e in epsilon_range)
        gen = _rng(rng)
        unit = np.abs(gen.laplace(0.0, 1.0, size=(_validate.integer("runs", runs, low=20), self.k_max)))
        ks = np.arange(1, self.k_max + 1)
        self.mean_unit = np.cumsum(unit, axis=1).mean(axis=0) / ks                 # mean |Y| over k answers
        self.max_unit = np.quantile(np.maximum.accumulate(unit, axis=1), 1 - self.delta, axis=0)
        self.ks = np.unique(np.round(np.logspace(0, np.log10(self.k_max), 200)).astype(int))
        self.t = np.log(self.ks / self.delta)             # Theorem 3.8 in units of b
        self.fig, self.ax = new_figure(height=4.8)
        with styled():
            ax = self.ax
            counts_colour, hist_colour = PALETTE["vermillion"], PALETTE["blue"]
            # not by colour alone: the counts' lines carry squares, the histogram's circles (WCAG 1.4.1)
            marks = {"markevery": 20, "ms": 5}
            (self.counts_line,) = ax.loglog(self.ks, self.ks, color=counts_colour, marker="s", **marks,
                                            label="k arbitrary counts: Lap(k/ε) each")
            (self.hist_line,) = ax.loglog(self.ks, self.ks, color=hist_colour, marker="o", **marks,
                                          label="k-cell histogram: Lap(1/ε) each")
            (self.counts_max,) = ax.loglog(self.ks, self.ks, color=counts_colour, ls="--", marker="s", **marks,
                                           label=f"largest of the k errors ({1 - self.delta:.0%}, Thm 3.8)")
            (self.hist_max,) = ax.loglog(self.ks, self.ks, color=hist_colour, ls="--", marker="o", **marks)
            (self.dots,) = ax.loglog([1, 1, 1, 1], [1, 1, 1, 1], "D", color=PALETTE["black"], ms=7,
                                     label=f"measured on {unit.shape[0]} releases")
            self.marker = ax.axvline(1, color=PALETTE["orange"], ls=":", lw=2)
            ax.set_xlim(1, self.k_max)
            ax.set_ylim(_decade_below(0.3 / high_eps),
                        _decade_above(30 * self.k_max * np.log(self.k_max / self.delta) / low_eps))
            ax.set_xlabel("k, number of counting queries (cells)")
            ax.set_ylabel("error per answer")
            ax.set_title(" ")
            # below the axes: the k marker crosses the whole height
            self.fig.legend(loc="outside lower center", ncols=2, fontsize="small")
            _plain_log_axes(ax)
        self.dynamic = [self.counts_line, self.hist_line, self.counts_max, self.hist_max, self.dots, self.marker,
                        ax.title]

    def update(self, k: int, epsilon: float) -> dict:
        n = _validate.integer("k", k, low=1, high=self.k_max)
        b1 = laplace_scale(1.0, epsilon)
        self.counts_line.set_ydata(self.ks * b1)
        self.hist_line.set_ydata(np.full(self.ks.shape, b1))
        self.counts_max.set_ydata(self.ks * self.t * b1)
        self.hist_max.set_ydata(self.t * b1)
        measured = {"counts_mean": n * b1 * self.mean_unit[n - 1], "histogram_mean": b1 * self.mean_unit[n - 1],
                    "counts_max": n * b1 * self.max_unit[n - 1], "histogram_max": b1 * self.max_unit[n - 1]}
        self.dots.set_data([n] * 4, list(measured.values()))
        self.marker.set_xdata([n, n])
        self.ax.title.set_text(f"k = {n:,}, ε = {epsilon:.3g}: Lap({_number(n * b1)}) per count, "
                               f"Lap({_number(b1)}) per cell")
        self._now = (n, float(epsilon), b1, measured)
        return {"k": n, "counts_scale": n * b1, "histogram_scale": b1, "ratio": float(n), **measured}

    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        n, eps, b1, m = self._now
        return (f"Line chart on log axes of the error per answer against k, the number of counting queries, from 1 "
                f"to {self.k_max:,}: k arbitrary counts need Lap(k/ε) each, so their error grows with k; a k-cell "
                f"histogram needs Lap(1/ε) per cell, flat in k. At k = {n:,} and ε = {eps:.3g} that is "
                f"Lap({_number(n * b1)}) per count against Lap({_number(b1)}) per cell, {n:,} times less noise; "
                f"measured largest errors ({1 - self.delta:.0%}): {_number(m['counts_max'])} for the counts, "
                f"{_number(m['histogram_max'])} for the histogram.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        n, eps, b1, _ = self._now
        ks = np.unique(np.r_[[k for k in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000) if k <= self.k_max],
                             self.k_max, n])
        t = np.log(ks / self.delta)
        rows = [[f"{k:,}" + (" (now)" if k == n else ""), _number(k * b1), _number(b1), _number(k * b1 * tk),
                 _number(b1 * tk)] for k, tk in zip(ks, t)]
        return {"caption": f"Error per answer at ε = {eps:.3g}: k counts against a k-cell histogram",
                "columns": ["k", "counts: typical error", "histogram: typical error",
                            f"counts: largest ({1 - self.delta:.0%}, Thm 3.8)", f"histogram: largest ({1 - self.delta:.0%}, Thm 3.8)"],
                "rows": rows}
