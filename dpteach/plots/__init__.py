"""Figures for the workbook: one style, pure builders (data in, figure out), updated in place.

Every figure class draws its artists once in ``__init__`` and changes them in
``update(...)`` (line data, bar heights, limits, titles), so a slider never rebuilds a
figure. ``update`` returns the numbers it drew, which is what the tests check.

Figures are plain :class:`matplotlib.figure.Figure` objects (not pyplot-managed): a
notebook shows one by ending a cell with it, a slider turns it into PNG bytes with
:func:`png_bytes`.
"""

from __future__ import annotations

import io
from contextlib import contextmanager

import matplotlib
import matplotlib.pyplot
import matplotlib.ticker
import numpy as np
import PIL.Image
from cycler import cycler
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .. import _validate
from ..accuracy import binomial_ci, laplace_accuracy_bound, linf_error_tail
from ..census import CensusFirstNames
from ..counting import histogram_noise
from ..laplace import laplace_pdf, laplace_scale, laplace_tail, privacy_loss
from ..sensitivity import NeighbourDifferences

#: Okabe & Ito's colour-blind-safe palette.
PALETTE = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "black": "#000000",
}

_BASE_FONT = 13
#: Figure width in inches for the default (laptop) style and the projector style.
_WIDTH = {"default": 9.0, "presentation": 12.0}
_state = {"mode": "default"}


def style() -> dict:
    """The workbook's rcParams: projector-readable fonts, Okabe–Ito colours, light grid."""
    scale = 1.35 if _state["mode"] == "presentation" else 1.0
    f = _BASE_FONT * scale
    return {
        "font.size": f,
        "axes.titlesize": f * 1.1,
        "axes.titleweight": "bold",
        "axes.titley": 1.0,          # a fixed title position: no search of the tick labels on every redraw
        "axes.labelsize": f,
        "xtick.labelsize": f * 0.9,
        "ytick.labelsize": f * 0.9,
        "legend.fontsize": f * 0.9,
        "legend.frameon": False,
        "lines.linewidth": 2.4 * scale,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.prop_cycle": cycler(color=list(PALETTE.values())),
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "figure.constrained_layout.use": True,
    }


def presentation(on: bool = True) -> None:
    """Switch every figure made from now on to projector size (bigger fonts, wider) or back."""
    _state["mode"] = "presentation" if on else "default"
    matplotlib.rcParams.update(style())


def use_style() -> None:
    """Apply the workbook's style to every matplotlib figure in this kernel."""
    matplotlib.rcParams.update(style())


@contextmanager
def styled():
    with matplotlib.rc_context(style()):
        yield


def new_figure(nrows: int = 1, ncols: int = 1, height: float = 4.2, **kwargs) -> tuple[Figure, object]:
    """A styled Figure (not managed by pyplot) and its axes."""
    with styled():
        fig = Figure(figsize=(_WIDTH[_state["mode"]], height * (1.3 if _state["mode"] == "presentation" else 1)),
                     layout="constrained")
        axes = fig.subplots(nrows, ncols, **kwargs)
    return fig, axes


def png_bytes(fig: Figure, dpi: float = 80) -> bytes:
    """Render a figure to PNG bytes (what a slider sends to the browser).

    The figure keeps one Agg canvas and the PNG is written with light compression. The
    constrained layout is solved again only when something that moves the margins changed
    (the widest tick label, a label, the dpi): a slider redraw is then text rendering and
    encoding, not layout, and yet no tick label is ever clipped.
    """
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    if fig.get_dpi() != dpi:
        fig.set_dpi(dpi)
    key = _layout_key(fig)
    with styled():
        if key != getattr(fig, "_dpteach_layout_key", None):
            fig.set_layout_engine("constrained")
            canvas.draw()                       # solves the layout, then keeps it
            fig.set_layout_engine("none")
            fig._dpteach_layout_key = key
        else:
            canvas.draw()
    width, height = canvas.get_width_height()
    image = PIL.Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=1)
    return buf.getvalue()


def _layout_key(fig: Figure) -> tuple:
    """What the margins depend on: per axes, the longest tick label on each axis and the labels."""
    key = [fig.get_dpi(), fig.get_size_inches().tobytes()]
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = axis.major.formatter.format_ticks(axis.get_majorticklocs()) if axis.get_visible() else []
            key.append(max((len(t) for t in labels), default=0))
            key.append(axis.get_label_text())
        key.append(bool(ax.get_title()))
        key.append(ax.get_legend() is not None)
    return tuple(key)


class _Updatable:
    """Base for figures that draw once and update in place."""

    fig: Figure

    def _repr_png_(self) -> bytes:
        return png_bytes(self.fig, dpi=100)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.title()}>"

    def title(self) -> str:
        return self.fig.axes[0].get_title()


class LaplaceDensityFigure(_Updatable):
    """Lap(Δf/ε): its density and a histogram of samples, over a fixed window of answers.

    The window stays put while ε and Δf move, so a student sees the noise widen as ε
    shrinks. Samples are drawn once (standard Lap(1)) and rescaled, so the histogram moves
    smoothly with the sliders instead of jumping with fresh noise.
    """

    def __init__(self, window: float = 15.0, n_samples: int = 5_000, bins: int = 61,
                 rng: np.random.Generator | None = None) -> None:
        self.window = _validate.positive("window", window)
        gen = rng if rng is not None else np.random.default_rng(2014)
        self.unit = gen.laplace(0.0, 1.0, size=_validate.integer("n_samples", n_samples, low=10))
        self.n_bins = _validate.integer("bins", bins, low=2)
        self.x = np.linspace(-self.window, self.window, 801)
        self.fig, self.ax = new_figure()
        ax = self.ax
        with styled():
            self.hist = ax.stairs(np.zeros(bins), np.linspace(-1, 1, bins + 1), fill=True, color=PALETTE["sky"],
                                  alpha=0.55, label=f"{n_samples:,} samples")
            (self.line,) = ax.plot(self.x, np.zeros_like(self.x), color=PALETTE["blue"],
                                   label="density Lap(x | b)")
            self.band = ax.axvspan(-1, 1, color=PALETTE["orange"], alpha=0.15, label="±Δf")
            ax.set_xlim(-self.window, self.window)
            ax.set_title(" ")
            ax.set_xlabel("noise added to the true answer")
            ax.set_ylabel("density")
            ax.legend(loc="upper right")
            self.note = ax.text(0.02, 0.95, "", transform=ax.transAxes, va="top", fontsize="small")

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
        top = max(pdf.max(), heights.max())
        self.ax.set_ylim(0, 1.15 * top)
        outside = float(np.mean(np.abs(samples) > self.window))
        self.ax.title.set_text(f"ε = {epsilon:.3g}, Δf = {sensitivity:g}: noise Lap(b) with b = Δf/ε = {b:.3g}")
        self.note.set_text(f"std = √2·b = {np.sqrt(2) * b:.3g}\n"
                           f"95% of noise within ±{np.log(20) * b:.3g}"
                           + (f"\n{outside:.0%} of samples beyond this window" if outside > 0.005 else ""))
        return {"scale": b, "x": self.x, "pdf": pdf, "hist": heights, "outside": outside}


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
        self.t, self.empirical = t, empirical


class PrivacyLossFigure(_Updatable):
    """Theorem 3.6 in a picture: the output densities on neighbours and their log-ratio.

    Top: densities of M_L(x) and M_L(y), with f(x) = 0 and f(y) = Δf (neighbours as far
    apart as Δf allows). Bottom: the privacy loss ln p_x(z)/p_y(z) with the band [−ε, ε].
    With ``understate=True`` the noise is calibrated to Δf/2 while the answers still differ
    by Δf: the loss leaves the band and reaches ±2ε.

    With k > 1 counts released together, every count moves by Δf/k (so ‖f(x) − f(y)‖₁ = Δf,
    the worst case the calibration covers) and each gets Lap(Δf/ε). The top panel then shows
    one coordinate's two densities, centred Δf/k apart; the bottom panel shows the total loss
    along the diagonal z = (t, …, t) and one coordinate's share of it, which the triangle
    inequality keeps inside [−ε/k, ε/k] (Dwork & Roth 2014, proof of Theorem 3.6): k shares
    of at most ε/k add up to at most ε. The window depends on ε and Δf only, not on k.
    """

    def __init__(self, n_points: int = 601) -> None:
        self.n = _validate.integer("n_points", n_points, low=11)
        self.fig, (self.top, self.bottom) = new_figure(2, 1, height=6.0, sharex=True)
        with styled():
            (self.px,) = self.top.plot([], [], color=PALETTE["blue"], label="p_x: output density on x")
            (self.py,) = self.top.plot([], [], color=PALETTE["orange"], ls="--", label="p_y: on neighbour y")
            self.top.set_ylabel("density")
            self.top.set_title(" ")
            self.top.legend(loc="upper right")
            self.band = self.bottom.axhspan(-1, 1, color=PALETTE["green"], alpha=0.18, label="[−ε, ε]")
            self.share_band = self.bottom.axhspan(-1, 1, color=PALETTE["green"], alpha=0.25, label="[−ε/k, ε/k]")
            (self.loss,) = self.bottom.plot([], [], color=PALETTE["vermillion"], label="privacy loss ln p_x/p_y")
            (self.share,) = self.bottom.plot([], [], color=PALETTE["purple"], ls="--", lw=1.8,
                                             label="one count's share")
            self.bottom.axhline(0, color="grey", lw=0.8)
            self.bottom.set_xlabel("output z")
            self.bottom.set_ylabel("ln p_x(z)/p_y(z)")
            self.bottom.legend(loc="upper right")

    def update(self, epsilon: float, sensitivity: float = 1.0, understate: bool = False, k: int = 1) -> dict:
        eps = _validate.positive("epsilon", epsilon)
        true_sens = _validate.positive("sensitivity", sensitivity)
        n_counts = _validate.integer("k", k, low=1, high=1_000)
        claimed = true_sens / 2 if understate else true_sens
        b = laplace_scale(claimed, eps)
        step = true_sens / n_counts                 # how far each of the k counts moves
        fx, fy = np.zeros(n_counts), np.full(n_counts, step)
        half = true_sens / 2 + 5 * b
        z = np.linspace(true_sens / 2 - half, true_sens / 2 + half, self.n)
        px, py = laplace_pdf(z, b), laplace_pdf(z - step, b)
        diagonal = z if n_counts == 1 else np.repeat(z[:, None], n_counts, axis=1)    # z = (t, …, t)
        loss = privacy_loss(diagonal, fx, fy, claimed, eps)
        share = privacy_loss(z, 0.0, step, claimed, eps)
        worst = float(np.abs(loss).max())
        self.px.set_data(z, px)
        self.py.set_data(z, py)
        self.loss.set_data(z, loss)
        self.share.set_data(z, share)
        self.share.set_visible(n_counts > 1)
        self.band.set_y(-eps)
        self.band.set_height(2 * eps)
        self.share_band.set_y(-eps / n_counts)
        self.share_band.set_height(2 * eps / n_counts)
        self.share_band.set_visible(n_counts > 1)
        legend = self.bottom.get_legend()     # entries: band, share band, loss, share
        for i in (1, 3):
            legend.legend_handles[i].set_visible(n_counts > 1)
            legend.get_texts()[i].set_visible(n_counts > 1)
        self.top.set_xlim(z[0], z[-1])
        self.top.set_ylim(0, 1.1 * px.max())
        self.bottom.set_ylim(-2.6 * eps, 2.6 * eps)
        names = self.top.get_legend().get_texts()
        if n_counts > 1:
            names[0].set_text(f"p_x: one count's density on x (of k = {n_counts})")
            names[1].set_text(f"p_y: on y, moved by Δf/k = {step:.3g}")
            self.bottom.set_xlabel("output z = (t, …, t), along the diagonal")
        else:
            names[0].set_text("p_x: output density on x")
            names[1].set_text("p_y: on neighbour y")
            self.bottom.set_xlabel("output z")
        counts = "" if n_counts == 1 else f"k = {n_counts} counts, "
        if worst <= eps * (1 + 1e-9):
            self.top.title.set_text(f"{counts}ε = {eps:.3g}: the privacy loss never leaves [−ε, ε]  (Theorem 3.6)")
        else:
            self.top.title.set_text(f"{counts}Δf understated as {claimed:g}: the loss reaches ±{worst:.3g} = "
                                    f"±{worst / eps:.3g}ε")
        return {"z": z, "px": px, "py": py, "loss": loss, "max_abs_loss": worst, "epsilon": eps,
                "scale": b, "inside": worst <= eps * (1 + 1e-9), "k": n_counts, "share": share,
                "max_abs_share": float(np.abs(share).max())}


class NeighbourChangesFigure(_Updatable):
    """How far a query moves over every neighbouring pair; Δf is the largest bar's position.

    One panel per query, side by side, so that two queries (k overlapping counts and a
    k-cell histogram, say) can be compared at a glance.
    """

    def __init__(self, labels: tuple[str, ...] = ("query",)) -> None:
        self.labels = labels
        self.fig, axes = new_figure(1, len(labels), height=3.8, squeeze=False)
        self.axes = list(axes[0])
        with styled():
            for ax in self.axes:
                ax.set_xlabel("‖f(x) − f(y)‖₁ over neighbouring pairs")
            self.axes[0].set_ylabel("number of pairs")

    def update(self, *diffs: NeighbourDifferences) -> dict:
        if len(diffs) != len(self.axes):
            raise ValueError(f"expected {len(self.axes)} sets of differences, got {len(diffs)}")
        out = {}
        with styled():
            for ax, d, label in zip(self.axes, diffs, self.labels):
                values, counts = np.unique(np.round(d.norm, 9), return_counts=True)
                ax.clear()
                ax.bar(values, counts, width=0.6 * _min_gap(values), color=PALETTE["sky"])
                ax.axvline(d.sensitivity, color=PALETTE["vermillion"], ls="--", lw=2)
                gap = _min_gap(values)
                ax.set_xlim(min(0.0, values.min()) - 0.6 * gap, max(values.max(), d.sensitivity) + 0.6 * gap)
                ax.set_title(f"{label}: Δf = {d.sensitivity:g}")
                ax.set_xlabel("‖f(x) − f(y)‖₁ over neighbouring pairs")
                out[label] = {"values": values, "counts": counts, "sensitivity": d.sensitivity}
            self.axes[0].set_ylabel("number of pairs")
        return out


def _min_gap(values: np.ndarray) -> float:
    return float(np.diff(values).min()) if len(values) > 1 else 1.0


class ChangeBySizeFigure(_Updatable):
    """The largest change one record can cause, against the size n of the smaller database.

    For a count or a clipped sum the line is flat: one bound serves every n. For a mean it
    falls like R/(n + 1), so its worst case sits at the smallest database.
    """

    def __init__(self, diffs: dict[str, NeighbourDifferences]) -> None:
        self.fig, ax = new_figure(height=3.8)
        self.data = {}
        with styled():
            for (label, d), marker in zip(diffs.items(), "osd^v"):
                sizes, largest = d.by_size()
                ax.plot(sizes, largest, marker=marker, label=label)
                self.data[label] = (sizes, largest)
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
            ax.set_xlabel("n, records in the smaller database")
            ax.set_ylabel("largest ‖f(x) − f(y)‖₁")
            ax.set_title("Where the worst case lives: the largest change at each database size")
            ax.legend()


# -- chapter 04: counting and histogram queries ----------------------------------------------

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _power_of_ten(value: float, _pos=None) -> str:
    """Tick label for a power of ten: 0.01 … 10,000 written out, 10⁵ and 10⁻³ beyond (no mathtext)."""
    exponent = round(np.log10(value)) if value > 0 else 0
    if -2 <= exponent <= 4:
        return f"{10.0 ** exponent:,.{max(0, -exponent)}f}"
    return "10" + str(exponent).translate(_SUPERSCRIPT)


def _number(value: float) -> str:
    """A number for a title: three significant figures, thousands separated, never 1e+03."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def _plain_log_axes(*axes) -> None:
    """Log axes with labelled powers of ten only: cheap to redraw (no mathtext, no minor labels)."""
    for ax in axes:
        for axis, scale in ((ax.xaxis, ax.get_xscale()), (ax.yaxis, ax.get_yscale())):
            if scale == "log":
                axis.set_major_locator(matplotlib.ticker.LogLocator(base=10, numticks=9))
                axis.set_major_formatter(matplotlib.ticker.FuncFormatter(_power_of_ten))
                axis.set_minor_locator(matplotlib.ticker.NullLocator())


class CountErrorBySizeFigure(_Updatable):
    """Example 3.1: a count's absolute error does not grow with n; its relative error falls like 1/n.

    A database of n people, a fixed fraction of whom have the property counted. Top: the
    absolute error of the released count against n (flat at E|Y| = 1/ε, with the band that
    holds 95% of releases). Bottom: the same error relative to the count, which falls like
    1/n. Dots are measured on ``n_releases`` releases at each n; the noise is drawn once and
    rescaled with ε.
    """

    def __init__(self, fraction: float = 0.3, n_releases: int = 2_000,
                 rng: np.random.Generator | None = None) -> None:
        self.fraction = _validate.real("fraction", fraction, low=0.0, high=1.0)
        gen = rng if rng is not None else np.random.default_rng(2014)
        self.grid = 10 ** np.arange(1, 9)
        unit = gen.laplace(0.0, 1.0, size=(len(self.grid), _validate.integer("n_releases", n_releases, low=10)))
        self.mean_unit = np.abs(unit).mean(axis=1)
        self.counts = np.maximum(1, np.round(self.fraction * self.grid))
        self.n_line = np.logspace(1, 8, 200)
        self.count_line = np.maximum(1, np.round(self.fraction * self.n_line))
        self.fig, (self.top, self.bottom) = new_figure(2, 1, height=6.2, sharex=True)
        with styled():
            top, bottom = self.top, self.bottom
            self.band = top.axhspan(0, 1, color=PALETTE["sky"], alpha=0.25, label="95% of releases")
            (self.abs_line,) = top.plot(self.n_line, np.ones_like(self.n_line), color=PALETTE["blue"],
                                        label="expected |error| = 1/ε")
            (self.abs_dots,) = top.plot(self.grid, self.mean_unit, "o", color=PALETTE["vermillion"],
                                        label=f"mean |error| of {n_releases:,} releases")
            self.abs_marker = top.axvline(1, color=PALETTE["orange"], ls="--", lw=2)
            top.set_xscale("log")
            top.set_ylabel("|error| (people)")
            top.set_title(" ")
            top.legend(loc="upper right", ncols=3)
            (self.rel_line,) = bottom.loglog(self.n_line, np.ones_like(self.n_line), color=PALETTE["blue"],
                                             label="expected |error| / count")
            (self.rel_dots,) = bottom.loglog(self.grid, self.mean_unit, "o", color=PALETTE["vermillion"],
                                             label="measured")
            self.rel_marker = bottom.axvline(1, color=PALETTE["orange"], ls="--", lw=2, label="this n")
            bottom.set_xlabel("n, people in the database")
            bottom.set_ylabel("|error| / true count")
            bottom.legend(loc="upper right", ncols=3)
            bottom.set_xlim(self.n_line[0], self.n_line[-1])
            _plain_log_axes(top, bottom)

    def update(self, n: float, epsilon: float) -> dict:
        size = _validate.integer("n", n, low=1, why="a database of n people, n ≥ 1")
        b = laplace_scale(1.0, epsilon)
        count = max(1, round(self.fraction * size))
        within = float(np.log(20) * b)          # Fact 3.7: Pr[|Y| ≥ ln(20)·b] = 0.05
        measured = b * self.mean_unit
        self.band.set_y(0)
        self.band.set_height(within)
        self.abs_line.set_ydata(np.full_like(self.n_line, b))
        self.abs_dots.set_ydata(measured)
        self.top.set_ylim(0, 1.45 * within)
        self.rel_line.set_ydata(b / self.count_line)
        self.rel_dots.set_ydata(measured / self.counts)
        self.bottom.set_ylim(0.3 * b / self.count_line[-1], 3 * max(1.0, b / self.count_line[0]))
        for marker in (self.abs_marker, self.rel_marker):
            marker.set_xdata([size, size])
        self.top.title.set_text(f"n = {size:,}, ε = {epsilon:.3g}: error ≈ {_number(b)} at any n, "
                                f"{100 * b / count:.3g}% of the count {count:,}")
        return {"n": size, "count": count, "scale": b, "expected_abs_error": b, "relative_error": b / count,
                "band": within, "grid": self.grid, "measured_abs_error": measured,
                "measured_relative_error": measured / self.counts}


class CountingVsHistogramFigure(_Updatable):
    """Examples 3.1 and 3.2: k arbitrary counts need Lap(k/ε) each; a k-cell histogram Lap(1/ε).

    Error against the number k of queries, on log axes. Solid: the typical error of one
    answer (E|Y| = b). Dashed: the largest of the k errors that Theorem 3.8 allows at 95%.
    Dots at the slider's k are measured on ``runs`` simulated releases (noise drawn once and
    rescaled).
    """

    def __init__(self, k_max: int = 1_000, runs: int = 200, delta: float = 0.05,
                 rng: np.random.Generator | None = None) -> None:
        self.k_max = _validate.integer("k_max", k_max, low=2)
        self.delta = _validate.real("delta", delta, low=0.0, high=1.0)
        gen = rng if rng is not None else np.random.default_rng(2014)
        unit = np.abs(gen.laplace(0.0, 1.0, size=(_validate.integer("runs", runs, low=20), self.k_max)))
        ks = np.arange(1, self.k_max + 1)
        self.mean_unit = np.cumsum(unit, axis=1).mean(axis=0) / ks                 # mean |Y| over k answers
        self.max_unit = np.quantile(np.maximum.accumulate(unit, axis=1), 1 - self.delta, axis=0)
        self.ks = np.unique(np.round(np.logspace(0, np.log10(self.k_max), 200)).astype(int))
        self.fig, self.ax = new_figure(height=4.8)
        with styled():
            ax = self.ax
            counts_colour, hist_colour = PALETTE["vermillion"], PALETTE["blue"]
            (self.counts_line,) = ax.loglog(self.ks, self.ks, color=counts_colour,
                                            label="k arbitrary counts: Lap(k/ε) each")
            (self.hist_line,) = ax.loglog(self.ks, self.ks, color=hist_colour,
                                          label="k-cell histogram: Lap(1/ε) each")
            (self.counts_max,) = ax.loglog(self.ks, self.ks, color=counts_colour, ls="--",
                                           label=f"largest of the k errors ({1 - self.delta:.0%}, Thm 3.8)")
            (self.hist_max,) = ax.loglog(self.ks, self.ks, color=hist_colour, ls="--")
            (self.dots,) = ax.loglog([1, 1, 1, 1], [1, 1, 1, 1], "o", color=PALETTE["black"], ms=7,
                                     label=f"measured on {unit.shape[0]} releases")
            self.marker = ax.axvline(1, color=PALETTE["orange"], ls=":", lw=2)
            ax.set_xlim(1, self.k_max)
            ax.set_xlabel("k, number of counting queries (cells)")
            ax.set_ylabel("error per answer")
            ax.set_title(" ")
            ax.legend(loc="upper left")
            _plain_log_axes(ax)

    def update(self, k: int, epsilon: float) -> dict:
        n = _validate.integer("k", k, low=1, high=self.k_max)
        b1 = laplace_scale(1.0, epsilon)
        t = np.log(self.ks / self.delta)             # Theorem 3.8 in units of b
        self.counts_line.set_ydata(self.ks * b1)
        self.hist_line.set_ydata(np.full(self.ks.shape, b1))
        self.counts_max.set_ydata(self.ks * t * b1)
        self.hist_max.set_ydata(t * b1)
        measured = {"counts_mean": n * b1 * self.mean_unit[n - 1], "histogram_mean": b1 * self.mean_unit[n - 1],
                    "counts_max": n * b1 * self.max_unit[n - 1], "histogram_max": b1 * self.max_unit[n - 1]}
        self.dots.set_data([n] * 4, list(measured.values()))
        self.marker.set_xdata([n, n])
        self.ax.set_ylim(0.3 * b1, 3 * self.k_max * np.log(self.k_max / self.delta) * b1)
        self.ax.title.set_text(f"k = {n:,}, ε = {epsilon:.3g}: Lap({_number(n * b1)}) per count, "
                               f"Lap({_number(b1)}) per histogram cell")
        return {"k": n, "counts_scale": n * b1, "histogram_scale": b1, "ratio": float(n), **measured}


# -- chapter 05: accuracy and the census first names ----------------------------------------

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
        gen = rng if rng is not None else np.random.default_rng(2014)
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
        gen = rng if rng is not None else np.random.default_rng(2014)
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

from .applications import *  # noqa: E402, F403
from .attack import *  # noqa: E402, F403
from .composition import *  # noqa: E402, F403
from .gaussian import *  # noqa: E402, F403
from .noise import *  # noqa: E402, F403
from .selection import *  # noqa: E402, F403
