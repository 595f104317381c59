"""Figures for chapter 05: Theorem 3.8's accuracy bound and the census first names (Example 3.3)."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgb

from .. import _validate
from ..accuracy import cached_binomial_ci, laplace_accuracy_bound, linf_error_density, linf_error_tail
from ..census import CensusFirstNames
from ..counting import histogram_noise
from ..laplace import laplace_scale
from ._base import PALETTE, _number, _plain_log_axes, _rng, _Updatable, curve_points, new_figure, styled


class AccuracyBoundFigure(_Updatable):
    """Theorem 3.8 against the observed distribution of the largest error ‖f(x) − y‖_∞.

    The histogram shows the largest error of each of ``runs`` releases of k cells (Δf = 1);
    the red line is the bound ln(k/β)·b and the shaded tail beyond it should hold about a
    fraction β of the releases, or less (β is the failure probability the book writes δ).
    The curve is the exact law of the largest of k independent |Lap(b)|
    (:func:`dpteach.linf_error_density`), as expected releases per bin.

    The error axis counts noise scales b = Δf/ε and stays put: the errors and the bound both
    scale with b, so ε changes only the numbers in the title and note, k moves the errors and
    the bound right by about ln k, and β moves the bound alone, by ln(1/β). Noise is drawn once
    (running maxima of |Lap(1)| at each k), so the histogram of each k is counted once.
    """

    K_OPTIONS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)
    #: the error axis, in units of b: past the bound ln(k/β) = 16.1 at k = 10,000 and β = 0.001
    T_MAX = 18.0

    def __init__(self, runs: int = 500, bins: int = 72, rng: np.random.Generator | None = None) -> None:
        self.runs = _validate.integer("runs", runs, low=10)
        self.n_bins = _validate.integer("bins", bins, low=5)
        gen = _rng(rng)
        columns = np.array(self.K_OPTIONS) - 1
        self.max_unit = np.empty((self.runs, len(columns)))
        for start in range(0, self.runs, 50):        # chunks keep memory small
            stop = min(self.runs, start + 50)
            unit = np.abs(gen.laplace(0.0, 1.0, size=(stop - start, self.K_OPTIONS[-1])))
            self.max_unit[start:stop] = np.maximum.accumulate(unit, axis=1)[:, columns]
        self.edges = np.linspace(0.0, self.T_MAX, self.n_bins + 1)
        width = self.edges[1]
        self.heights = np.stack([np.histogram(self.max_unit[:, j], self.edges)[0] for j in range(len(columns))])
        self.t = np.linspace(0.0, self.T_MAX, 600)
        # expected releases per bin: runs × bin width × the density of the largest of k |Lap(1)|
        self.expected = np.stack([self.runs * width * linf_error_density(self.t, k, 1.0, 1.0)
                                  for k in self.K_OPTIONS])
        top = 1.55 * max(self.heights.max(), self.expected.max())
        # the legend and the note get a panel of their own: inside the axes, the bound line and the shaded tail
        # move over the whole width as k and β move, and a box there would cover them at some setting
        self.fig, (self.ax, self.side) = new_figure(1, 2, height=4.6, width_ratios=(2.3, 1))
        with styled():
            ax = self.ax
            # light fills with an edge at 3:1 (WCAG 1.4.11); the bound dashed, the exact law solid
            self.hist = ax.stairs(self.heights[-1], self.edges, fill=True, facecolor=(*to_rgb(PALETTE["sky"]), 0.45),
                                  edgecolor=PALETTE["sky"], lw=1, label=f"largest error, {self.runs} releases")
            (self.pdf,) = ax.plot(self.t, self.expected[-1], color=PALETTE["blue"],
                                  label="exact law (expected per bin)")
            self.tail = ax.axvspan(1, self.T_MAX, facecolor=(*to_rgb(PALETTE["vermillion"]), 0.12), hatch="//",
                                   edgecolor=PALETTE["vermillion"], lw=0)
            self.bound = ax.axvline(1, color=PALETTE["vermillion"], lw=2.4, ls="--", label="Thm 3.8: ln(k/β)·b")
            ax.set_xlim(0, self.T_MAX)
            ax.set_ylim(0, top)
            ax.set_xlabel("largest error ‖f(x) − y‖∞ over the k cells, in noise scales b = Δf/ε")
            ax.set_ylabel("releases")
            ax.set_title(" ")
            self.side.axis("off")
            self.side.legend(handles=[self.hist, self.pdf, self.bound], loc="lower left", borderaxespad=0,
                             fontsize="small")
            self.note = self.side.text(0.0, 1.0, "", transform=self.side.transAxes, ha="left", va="top",
                                       fontsize="small")
        self.dynamic = [self.hist, self.pdf, self.tail, self.bound, ax.title, self.note]

    def update(self, epsilon: float, beta: float, k: int) -> dict:
        """Redraw at ε, failure probability β (the book's δ) and k cells."""
        n = _validate.integer("k", k, low=1)
        if n not in self.K_OPTIONS:
            raise ValueError(f"k must be one of {self.K_OPTIONS}, got {k!r}")
        j = self.K_OPTIONS.index(n)
        b = laplace_scale(1.0, epsilon)
        bound = laplace_accuracy_bound(n, beta, 1.0, epsilon)
        t_bound = bound / b                                   # ln(k/β)
        errors = b * self.max_unit[:, j]
        beyond = int((errors >= bound).sum())
        ci = cached_binomial_ci(beyond, self.runs)
        exact = linf_error_tail(bound, n, 1.0, epsilon)
        self.hist.set_data(self.heights[j])
        self.pdf.set_ydata(self.expected[j])
        self.bound.set_xdata([t_bound, t_bound])
        self.tail.set_x(min(t_bound, self.T_MAX))
        self.tail.set_width(max(0.0, self.T_MAX - t_bound))
        off = int((self.max_unit[:, j] > self.T_MAX).sum())
        # a short title (it must fit in the presentation style at every slider value); the counts go in the note
        self.ax.title.set_text(f"k = {n:,}, ε = {epsilon:.3g}, β = {beta:.3g}: bound {_number(bound)}")
        self.note.set_text(f"b = Δf/ε = {_number(b)}; bound = {t_bound:.3g}·b\n"
                           f"beyond the bound: {beyond} of {self.runs} ({beyond / self.runs:.1%})\n"
                           f"95% interval [{ci[0]:.3f}, {ci[1]:.3f}]\n"
                           f"exact Pr[beyond] = {exact:.3g} ≤ β\n"
                           f"mean largest error {errors.mean():.3g}"
                           + (f"\n{off} releases beyond this axis" if off else "")
                           + ("\nthe bound is beyond this axis" if t_bound > self.T_MAX else ""))
        self._now = (n, j, epsilon, beta, b, bound, t_bound, beyond, ci, exact, float(errors.mean()))
        return {"k": n, "epsilon": epsilon, "beta": beta, "bound": bound, "errors": errors, "beyond": beyond,
                "fraction": beyond / self.runs, "ci": ci, "exact": exact}


    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        n, _, eps, beta, b, bound, t_bound, beyond, _, exact, mean = self._now
        return (f"Histogram of the largest error over k = {n:,} cells in {self.runs} simulated releases, in noise "
                f"scales b = Δf/ε, with its exact law as a curve and Theorem 3.8's bound ln(k/β)·b as a dashed line. "
                f"At k = {n:,}, ε = {eps:.3g}, β = {beta:.3g} the bound is {_number(bound)} ({t_bound:.3g}·b, with "
                f"b = {_number(b)}); {beyond} of {self.runs} releases ({beyond / self.runs:.1%}) go beyond it, and "
                f"the exact probability of going beyond is {exact:.3g} ≤ β. The mean largest error is {mean:.3g}.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        n, j, eps, beta, b, bound, t_bound, *_ = self._now
        starts = np.arange(0.0, self.T_MAX, 1.0)                 # units of b: 18 rows
        counts = np.add.reduceat(self.heights[j], np.searchsorted(self.edges[:-1], starts))
        tail = linf_error_tail(np.r_[starts, self.T_MAX], n, 1.0, 1.0)
        expected = self.runs * (tail[:-1] - tail[1:])
        rows = [[f"{t:g} to {t + 1:g}", f"{_number(t * b)} to {_number((t + 1) * b)}", f"{c}", f"{e:.3g}",
                 "yes" if t + 1 > t_bound else "no"] for t, c, e in zip(starts, counts, expected)]
        return {"caption": f"Largest error of {self.runs} releases at k = {n:,}, ε = {eps:.3g}, β = {beta:.3g} "
                           f"(bound {_number(bound)} = {t_bound:.3g}·b)",
                "columns": ["largest error (units of b)", "largest error", "releases", "expected (exact law)",
                            "reaches past the bound"], "rows": rows}

    def explore_points(self) -> list[dict]:
        if not hasattr(self, "_now"):
            return []
        j = self._now[1]
        centres = (self.edges[:-1] + self.edges[1:]) / 2
        return [{"name": "exact law of the largest error (expected releases per bin)",
                 "x": "largest error, in noise scales b", "y": "releases", "points": curve_points(self.t, self.expected[j])},
                {"name": f"largest error, {self.runs} releases (histogram)", "x": "largest error, in noise scales b",
                 "y": "releases", "points": curve_points(centres, self.heights[j])}]


class NameReliabilityFigure(_Updatable):
    """Which names Example 3.3 releases reliably: relative error by true count, and the empty cells.

    Left: each listed name's |noisy − true| / true against its true count, on log axes,
    under the line Theorem 3.8 draws (bound / count: every name is below it with
    probability ≥ 1 − β); the true counts are real 1990 frequencies scaled to the 2010
    population. The axes hold every ε in ``epsilon_range``: the cloud and the line rise a
    decade for each tenfold drop in ε. Right: the released counts of the potential names no
    one has, pure noise inside ±bound, in noise scales b = 1/ε (its shape does not depend on ε,
    so only its title moves). One unit Laplace draw per cell, rescaled with ε.
    """

    def __init__(self, data: CensusFirstNames, beta: float = 0.05, rng: np.random.Generator | None = None,
                 epsilon_range: tuple[float, float] = (0.01, 10.0)) -> None:
        if not isinstance(data, CensusFirstNames):
            raise TypeError(f"data must come from dp.census_first_names(), got {type(data).__name__}")
        self.data = data
        self.beta = _validate.real("beta", beta, low=0.0, high=1.0)
        low_eps, high_eps = (_validate.epsilon(e) for e in epsilon_range)
        gen = _rng(rng)
        self.unit = gen.laplace(0.0, 1.0, size=data.k)
        self.true = data.counts[data.listed].astype(float)
        self.unit_relative = np.abs(self.unit[data.listed]) / self.true      # relative error at b = 1
        self.x = np.logspace(np.log10(self.true.min()) - 0.2, np.log10(self.true.max()) + 0.2, 50)
        # fixed axes: from the 1% quantile of relative errors at the largest ε to the bound at the smallest,
        # and a decade above it for the legend
        t_bound = laplace_accuracy_bound(data.k, self.beta, 1.0, 1.0)      # ln(k/β), in units of b
        bottom = 10 ** np.floor(np.log10(np.quantile(self.unit_relative, 0.01) / high_eps))
        top = 10 ** np.ceil(np.log10(10 * max(t_bound / self.x[0], self.unit_relative.max()) / low_eps))  # + legend
        unused = self.unit[~data.listed]
        reach = 1.2 * max(t_bound, float(np.abs(unused).max()))
        heights, edges = np.histogram(unused, np.linspace(-reach, reach, 31))
        self.fig, (self.left, self.right) = new_figure(1, 2, height=4.6, width_ratios=(3, 2))
        with styled():
            left, right = self.left, self.right
            # one Line2D of markers: Agg stamps one marker image, 2–3× faster to redraw than a scatter
            (self.points,) = left.plot(self.true, self.unit_relative, "o", ms=np.sqrt(6), mew=0, ls="none",
                                       color=PALETTE["blue"], alpha=0.75, label=f"{data.n_listed:,} listed names")
            (self.bound_line,) = left.loglog(self.x, t_bound / self.x, color=PALETTE["vermillion"],
                                             label=f"Thm 3.8 bound / count ({1 - self.beta:.0%})")
            left.axhline(0.01, color="grey", lw=1.2, ls=":", label="1% relative error")
            left.set_xlim(self.x[0], self.x[-1])
            left.set_ylim(bottom, top)
            left.set_xlabel("true count (1990 frequency × 2010 population)")
            left.set_ylabel("|noisy − true| / true")
            left.set_title(" \n ")     # the blank 2nd line is the note's place
            left.legend(loc="upper right")
            # above the axes, under the title: inside, the cloud of names reaches the bottom corners
            self.note = left.text(0.5, 1.01, "", transform=left.transAxes, ha="center", va="bottom")
            right.stairs(heights, edges, fill=True, color=PALETTE["orange"], alpha=0.6)
            right.axvline(-t_bound, color=PALETTE["vermillion"], lw=2)
            right.axvline(t_bound, color=PALETTE["vermillion"], lw=2)
            right.set_xlim(-reach, reach)
            right.set_ylim(0, 1.15 * heights.max())
            right.set_xlabel("released count (true 0),\nin noise scales b = 1/ε")
            right.set_ylabel("unused names")
            right.set_title(" \n ")
            _plain_log_axes(left)
        self.dynamic = [self.points, self.bound_line, self.note, left.title, right.title]

    def update(self, epsilon: float) -> dict:
        b = laplace_scale(1.0, epsilon)
        bound = laplace_accuracy_bound(self.data.k, self.beta, 1.0, epsilon)
        noise = b * self.unit
        relative = b * self.unit_relative
        unused = noise[~self.data.listed]
        self.points.set_ydata(relative)
        self.bound_line.set_ydata(bound / self.x)
        low, high = self.left.get_ylim()
        below, above = int((relative < low).sum()), int((relative > high).sum())
        self.note.set_text("; ".join(f"{m:,} names {where} the axis" for m, where in ((below, "below"),
                                                                                      (above, "above")) if m))
        self.note.set_visible(bool(below or above))
        worst = float(relative.max())
        self.left.title.set_text(f"ε = {epsilon:.3g}: every listed name within {worst:.2%}\n ")   # note's line
        self.right.title.set_text(f"unused: up to ±{_number(np.abs(unused).max())}\n ")   # level with the left
        self._now = (epsilon, b, bound, worst, float(np.abs(unused).max()), below, above)
        return {"epsilon": epsilon, "scale": b, "bound": bound, "relative": relative,
                "max_relative_error": worst, "largest_name_relative_error": float(relative[0]),
                "unused": unused, "max_unused": float(np.abs(unused).max()),
                "negative_unused": int((unused < 0).sum())}


    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        eps, b, bound, worst, unused, below, above = self._now
        off = "; ".join(f"{m:,} names {where} the axis" for m, where in ((below, "below"), (above, "above")) if m)
        return (f"Left: each of the {self.data.n_listed:,} listed first names' relative error |noisy − true| / true "
                f"against its true count, on log axes, under Theorem 3.8's bound divided by the count "
                f"({1 - self.beta:.0%}). At ε = {eps:.3g} (b = {_number(b)}, bound {_number(bound)}) every listed "
                f"name is within {worst:.2%}{f' ({off})' if off else ''}. Right: a histogram of the released counts "
                f"of the {self.data.k - self.data.n_listed:,} unused names (true count 0), pure noise, up to "
                f"±{_number(unused)}.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        eps, b, bound = self._now[:3]
        names = self.data.names[self.data.listed]
        picks = np.unique(np.round(np.geomspace(1, self.true.size, 20)).astype(int) - 1)   # most common to rarest
        rows = [[str(names[i]).title(), f"{self.true[i]:,.0f}", f"{b * self.unit_relative[i]:.3%}",
                 f"{bound / self.true[i]:.3%}"] for i in picks]
        return {"caption": f"Listed names from most common to rarest at ε = {eps:.3g}",
                "columns": ["name", "true count", "|noisy − true| / true", "bound / count"], "rows": rows}


class MarketingNoiseFigure(_Updatable):
    """A conversion report by campaign-day: DP noise against sampling noise, by cell size.

    With each user's conversions capped at c, the report is a histogram with Δf = c, so each
    cell gets Lap(c/ε): standard deviation √2·c/ε, the same for every cell. A cell of n
    conversions also carries sampling noise of standard deviation about √n (Poisson). DP
    noise dominates below the crossover n = 2(c/ε)²; the dashed line is the largest DP error
    over all N cells with probability 1 − β (Theorem 3.8).

    The axes hold every cap up to ``cap_max`` and every ε in ``epsilon_range``: the red lines
    rise as c/ε grows, and the crossover slides right, past the edge of the axes at the extremes
    (a note under the title says so).
    """

    def __init__(self, cells: int = 600, beta: float = 0.05, n_max: float = 1e5, cap_max: int = 20,
                 epsilon_range: tuple[float, float] = (0.01, 10.0)) -> None:
        self.cells = _validate.integer("cells", cells, low=1)
        self.beta = _validate.real("beta", beta, low=0.0, high=1.0)
        self.n = np.logspace(0, np.log10(_validate.real("n_max", n_max, low=10.0)), 300)
        c_max = _validate.integer("cap_max", cap_max, low=1)
        low_eps, high_eps = (_validate.epsilon(e) for e in epsilon_range)
        lowest = histogram_noise(1, high_eps, self.cells, self.beta)
        highest = histogram_noise(c_max, low_eps, self.cells, self.beta)
        bottom = 10 ** np.floor(np.log10(min(lowest.std, 1.0)))
        top = 10 ** np.ceil(np.log10(2 * max(highest.linf_bound, np.sqrt(self.n[-1]))))
        self.fig, self.ax = new_figure(height=4.6)
        with styled():
            ax = self.ax
            self.shade = ax.axvspan(1, 2, facecolor=(*to_rgb(PALETTE["vermillion"]), 0.1), hatch="//", lw=0,
                                    edgecolor=PALETTE["vermillion"], label="DP noise dominates")
            (self.sampling,) = ax.loglog(self.n, np.sqrt(self.n), color=PALETTE["blue"], ls="-.",
                                         label="sampling noise √n")
            (self.dp_line,) = ax.loglog(self.n, np.ones_like(self.n), color=PALETTE["vermillion"],
                                        label="DP noise std √2·c/ε")
            (self.linf,) = ax.loglog(self.n, np.ones_like(self.n), color=PALETTE["vermillion"], ls="--",
                                     label=f"largest DP error over N = {self.cells:,} cells ({1 - self.beta:.0%})")
            self.cross = ax.axvline(1, color=PALETTE["black"], ls=":", lw=1.5)
            ax.set_xlim(self.n[0], self.n[-1])
            ax.set_ylim(bottom, top)
            ax.set_xlabel("conversions in the cell (campaign-day)")
            ax.set_ylabel("size of the noise (conversions)")
            ax.set_title(" \n ")     # the blank 2nd line is the note's place
            self.fig.legend(loc="outside lower center", ncols=2)
            # above the axes, under the title: inside, the shade covers the whole panel when the crossover is
            # right of the axes, and the red lines cross it
            self.note = ax.text(0.5, 1.01, "", transform=ax.transAxes, ha="center", va="bottom")
            _plain_log_axes(ax)
        self.dynamic = [self.shade, self.dp_line, self.linf, self.cross, ax.title, self.note]

    def update(self, cap: int, epsilon: float) -> dict:
        c = _validate.integer("cap", cap, low=1)
        h = histogram_noise(c, epsilon, self.cells, self.beta)
        left, right = self.n[0], self.n[-1]
        self.dp_line.set_ydata(np.full(self.n.shape, h.std))
        self.linf.set_ydata(np.full(self.n.shape, h.linf_bound))
        self.shade.set_x(left)
        self.shade.set_width(min(max(h.crossover, left), right) - left)
        self.cross.set_xdata([h.crossover, h.crossover])
        where = "left of" if h.crossover < left else "right of" if h.crossover > right else ""
        self.note.set_text(f"crossover {_number(h.crossover)}, {where} the axes" if where else "")
        self.note.set_visible(bool(where))
        self.ax.title.set_text(f"cap c = {c}, ε = {epsilon:.3g}: DP noise dominates cells under "
                               f"{_number(h.crossover)}\n ")                     # the note's line
        self._now = (c, epsilon, h)
        return {"cap": c, "epsilon": epsilon, "noise": h, "std": h.std, "variance": h.variance,
                "linf_bound": h.linf_bound, "crossover": h.crossover}

    def alt_text(self) -> str:
        if not hasattr(self, "_now"):
            return super().alt_text()
        c, eps, h = self._now
        return (f"Line chart on log axes of the size of the noise against the conversions n in a cell, from "
                f"{self.n[0]:g} to {_number(self.n[-1])}: sampling noise √n rises, the DP noise is flat. At cap "
                f"c = {c} and ε = {eps:.3g} the DP noise has standard deviation √2·c/ε = {_number(h.std)}, and the "
                f"largest DP error over N = {self.cells:,} cells ({1 - self.beta:.0%}) is {_number(h.linf_bound)}: "
                f"DP noise dominates cells under {_number(h.crossover)} conversions.")

    def data_table(self) -> dict | None:
        if not hasattr(self, "_now"):
            return None
        c, eps, h = self._now
        ns = 10.0 ** np.arange(0, np.log10(self.n[-1]) + 1)
        rows = [[_number(n), _number(np.sqrt(n)), _number(h.std), _number(h.linf_bound),
                 "DP noise" if n < h.crossover else "sampling noise"] for n in ns]
        return {"caption": f"Noise by cell size at cap c = {c}, ε = {eps:.3g} (crossover {_number(h.crossover)})",
                "columns": ["conversions in the cell", "sampling noise √n", "DP noise std",
                            f"largest DP error over {self.cells:,} cells", "dominates"], "rows": rows}
