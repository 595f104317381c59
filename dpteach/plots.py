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
import matplotlib.pyplot  # noqa: F401  (registers the inline PNG formatter for Figure in Jupyter)
import matplotlib.ticker
import numpy as np
import PIL.Image
from cycler import cycler
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from . import _validate
from .laplace import laplace_pdf, laplace_scale, laplace_tail, privacy_loss
from .sensitivity import NeighbourDifferences

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

    The figure keeps one Agg canvas; its layout is solved on the first render and then
    frozen, and the PNG is written with light compression, which is where the time goes
    (a slider redraw is text rendering plus encoding, not the maths).
    """
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    if fig.get_dpi() != dpi:
        fig.set_dpi(dpi)
    with styled():
        canvas.draw()
    if fig.get_layout_engine() is not None:
        fig.set_layout_engine("none")
    width, height = canvas.get_width_height()
    image = PIL.Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=1)
    return buf.getvalue()


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
            (self.loss,) = self.bottom.plot([], [], color=PALETTE["vermillion"], label="privacy loss ln p_x/p_y")
            self.bottom.axhline(0, color="grey", lw=0.8)
            self.bottom.set_xlabel("output z")
            self.bottom.set_ylabel("ln p_x(z)/p_y(z)")
            self.bottom.legend(loc="upper right")

    def update(self, epsilon: float, sensitivity: float = 1.0, understate: bool = False) -> dict:
        eps = _validate.positive("epsilon", epsilon)
        true_sens = _validate.positive("sensitivity", sensitivity)
        claimed = true_sens / 2 if understate else true_sens
        b = laplace_scale(claimed, eps)
        fx, fy = 0.0, true_sens
        half = true_sens / 2 + 5 * b
        z = np.linspace(true_sens / 2 - half, true_sens / 2 + half, self.n)
        px, py = laplace_pdf(z - fx, b), laplace_pdf(z - fy, b)
        loss = privacy_loss(z, fx, fy, claimed, eps)
        worst = float(np.abs(loss).max())
        self.px.set_data(z, px)
        self.py.set_data(z, py)
        self.loss.set_data(z, loss)
        self.band.set_y(-eps)
        self.band.set_height(2 * eps)
        self.top.set_xlim(z[0], z[-1])
        self.top.set_ylim(0, 1.1 * px.max())
        self.bottom.set_ylim(-2.6 * eps, 2.6 * eps)
        if worst <= eps * (1 + 1e-9):
            self.top.title.set_text(f"ε = {eps:.3g}: the privacy loss never leaves [−ε, ε]  (Theorem 3.6)")
        else:
            self.top.title.set_text(f"Δf understated as {claimed:g}: the loss reaches ±{worst:.3g} = ±{worst / eps:.3g}ε")
        return {"z": z, "px": px, "py": py, "loss": loss, "max_abs_loss": worst, "epsilon": eps,
                "scale": b, "inside": worst <= eps * (1 + 1e-9)}


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
