"""The figure layer's shared machinery: one style, figures that update in place, PNG frames.

Every figure class draws its artists once in ``__init__`` and changes them in
``update(...)`` (line data, bar heights, limits, titles), so a slider never rebuilds a
figure. ``update`` returns the numbers it drew, which is what the tests check.

Figures are plain :class:`matplotlib.figure.Figure` objects (not pyplot-managed): a
notebook shows one by ending a cell with it; a slider asks the figure for PNG bytes with
``figure.png()``, which blits: axes that stay fixed over every control's range, a static
background drawn once, and only the artists ``update`` changes drawn per frame.

Every figure also speaks (WCAG 2.1 1.1.1): ``alt_text()`` describes what it shows and the numbers that
matter at the current setting, ``data_table()`` gives its data as a small table, and the key figures'
``explore_points()`` give the curves a reader can walk with the arrow keys. In a notebook a figure shows
as ``text/html`` (its PNG with that ``alt``, and a "Data" ``<details>`` table) beside ``image/png``.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Hashable, Sequence
from contextlib import contextmanager
from typing import Protocol

import matplotlib
import matplotlib.ticker
import numpy as np
from cycler import cycler
from matplotlib import font_manager
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from .._text import ten_to
from ._png import encode_png
from ._render import Renderer

#: Okabe & Ito's colour-blind-safe palette, with its orange and sky blue darkened (same hues) to 3.3:1 on white:
#: Okabe–Ito's own #E69F00 and #56B4E9 are 2.25:1 and 2.31:1, under the 3:1 that WCAG 2.1 (1.4.11) asks of a
#: line or mark that carries meaning. Yellow (1.3:1) is for fills with an edge only. Colour is never the only
#: cue: series of one axes differ in line style, marker or hatch as well (tests/test_figure_colours.py).
PALETTE = {
    "blue": "#0072B2",
    "orange": "#BD8300",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#1D96DB",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "black": "#000000",
}


_BASE_FONT = 13


#: Figure width in inches for the default (laptop) style and the projector style.
_WIDTH = {"default": 9.0, "presentation": 12.0}

#: The resolution of a slider's PNG frames: 720 px wide on a laptop; 1200 px on a projector, where the
#: live slides draw the figure beside its controls about 1200 px wide at 1920×1080 (tick labels ~24 px).
_FRAME_DPI = {"default": 80, "presentation": 100}


#: DPTEACH_PRESENTATION=1 (set by `make present`) starts every kernel in the projector style.
_state = {"mode": "presentation" if os.environ.get("DPTEACH_PRESENTATION", "") not in ("", "0") else "default"}


def style() -> dict:
    """The workbook's rcParams: projector-readable fonts, Okabe–Ito colours, light grid."""
    scale = 1.45 if _state["mode"] == "presentation" else 1.0
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
        "axes.axisbelow": True,      # grid and ticks under the data: static pixels stay in the background
        "grid.alpha": 0.3,
        "axes.prop_cycle": cycler(color=list(PALETTE.values())),
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "figure.constrained_layout.use": True,
    }


def presentation(on: bool = True) -> None:
    """Switch every figure made from now on to projector size (bigger fonts, wider; no text smaller than
    "small") or back."""
    _state["mode"] = "presentation" if on else "default"
    matplotlib.rcParams.update(style())


def use_style() -> None:
    """Apply the workbook's style to every matplotlib figure in this kernel."""
    matplotlib.rcParams.update(style())


@contextmanager
def styled():
    """The workbook's style for the block, and the rcParams as they were after it.

    Sets and restores only the style's keys, and only those that differ (``matplotlib.rc_context``
    copies all ~300 rcParams on the way in and out: about 3 ms, on every slider frame)."""
    params = matplotlib.rcParams
    wanted = _validated_style()
    changed = {key: value for key, value in wanted.items() if params[key] != value}
    if not changed:
        yield
        return
    before = {key: params[key] for key in changed}
    # validated once per style (the colour cycle's validation alone costs ~1 ms): set as rc_context restores
    dict.update(params, changed)
    try:
        yield
    finally:
        dict.update(params, before)


def _validated_style() -> dict:
    """:func:`style` as matplotlib validates it, computed once per mode."""
    mode = _state["mode"]
    if mode not in _VALIDATED:
        _VALIDATED[mode] = dict(matplotlib.RcParams(style()))
    return _VALIDATED[mode]


_VALIDATED: dict[str, dict] = {}


def new_figure(nrows: int = 1, ncols: int = 1, height: float = 4.2, **kwargs) -> tuple[Figure, object]:
    """A styled Figure (not managed by pyplot) and its axes."""
    with styled():
        fig = Figure(figsize=(_WIDTH[_state["mode"]], height * (1.3 if _state["mode"] == "presentation" else 1)),
                     layout="constrained")
        axes = fig.subplots(nrows, ncols, **kwargs)
    return fig, axes


def png_bytes(fig: Figure, dpi: float = 80) -> bytes:
    """Render the whole figure to PNG bytes (a still image, or a figure that declares no dynamic artists).

    The figure keeps one Agg canvas. The constrained layout is solved again only when
    something that moves the margins changed (the widest tick label, a label, the dpi), and
    the PNG is written by :func:`encode_png` (no row filter, deflate level 1), with the size of the
    figure's smallest text in pixels of the image (:func:`text_px`).
    """
    canvas = _canvas(fig)
    if fig.get_dpi() != dpi:
        fig.set_dpi(dpi)
    with styled():
        if _layout_key(fig) != getattr(fig, "_dpteach_layout_key", None):
            _solve_layout(fig)
        else:
            canvas.draw()
    return encode_png(np.asarray(canvas.buffer_rgba()), text_px=text_px(fig, dpi))


def smallest_text_pt(fig: Figure) -> float:
    """The size (pt) of the smallest text a figure draws: tick labels, legends, notes, titles; a note that is
    empty until a slider fills it counts too. Hidden texts do not."""
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible()]
    return float(min(sizes)) if sizes else 0.0


def text_px(fig: Figure, dpi: float) -> float:
    """The figure's smallest text in pixels of an image drawn at ``dpi`` (recorded when its layout is solved)."""
    points = getattr(fig, "_dpteach_text_pt", None)
    if points is None:
        points = fig._dpteach_text_pt = smallest_text_pt(fig)
    return points * dpi / 72


def _canvas(fig: Figure) -> FigureCanvasAgg:
    return fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)


def _ensure_layout(fig: Figure) -> None:
    """Solve the layout if what the margins depend on changed since it was last solved (or never was)."""
    if _layout_key(fig) != getattr(fig, "_dpteach_layout_key", None):
        _solve_layout(fig)


def _solve_layout(fig: Figure) -> None:
    """Draw once with the constrained layout, then freeze it (the next draws skip the solver). In the projector
    style, text asked smaller than "small" is raised to it first (:func:`_raise_small_text`)."""
    fig.set_layout_engine("constrained")
    _canvas(fig).draw()
    if _state["mode"] == "presentation" and _raise_small_text(fig):
        _canvas(fig).draw()              # the layout again, around the bigger text
    fig.set_layout_engine("none")
    fig._dpteach_layout_key = _layout_key(fig)
    fig._dpteach_text_pt = smallest_text_pt(fig)


def _raise_small_text(fig: Figure) -> bool:
    """Projector style: a note or a legend asked "x-small" is drawn "small", so that a figure drawn for a room
    (its text 24 px on a 1920×1080 slide) is not a third smaller in its legend; a legend that would then be
    wider than the figure keeps its size (it would be cut). True if any text grew."""
    floor = matplotlib.rcParams["font.size"] * font_manager.font_scalings["small"]
    renderer = _canvas(fig).get_renderer()
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]
    grew = False
    for legend in legends:
        small = [(text, text.get_fontsize()) for text in legend.texts if text.get_fontsize() < floor]
        for text, _ in small:
            text.set_fontsize(floor)
        if small and legend.get_window_extent(renderer).width > fig.bbox.width:
            for text, size in small:
                text.set_fontsize(size)
        else:
            grew = grew or bool(small)
    in_legends = {id(text) for legend in legends for text in legend.texts}
    for text in fig.findobj(Text):
        if id(text) not in in_legends and text.get_visible() and text.get_fontsize() < floor:
            text.set_fontsize(floor)
            grew = True
    return grew


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


class UpdatableFigure(Protocol):
    """What :class:`dpteach.widgets.Interactive` asks of a figure: the Matplotlib figure, ``png`` (the frame a
    slider sends) and ``alt_text`` (its text alternative, WCAG 1.1.1); and ``update`` (redraw at the controls'
    values, keywords by control name, returning the numbers drawn) unless Interactive is given its own. Every
    figure of :mod:`dpteach.plots` is one (through :class:`_Updatable`); a runtime class, so that
    ``typing.get_type_hints`` resolves the hints that name it."""

    fig: Figure

    def png(self, dpi: float | None = None) -> bytes: ...

    def alt_text(self) -> str: ...


class _Updatable:
    """Base for figures that draw once and update in place.

    A figure lists in ``dynamic`` the artists its ``update`` changes (lines, stairs, the texts
    and titles that carry numbers); everything else is static. :meth:`png` then blits: the
    static parts are drawn once and cached (see :class:`Renderer`), and a frame redraws only
    the dynamic artists. ``static_key`` returns whatever else the static pixels depend on
    (e.g. a grid size that changes the axes). A figure with no dynamic artists is drawn whole.
    """

    fig: Figure
    dynamic: Sequence[Artist] = ()

    def static_key(self) -> Hashable:
        return None

    def png(self, dpi: float | None = None) -> bytes:
        """The figure as it is now, as PNG bytes: what a slider sends to the browser.

        ``dpi`` defaults to the style's frame resolution (80, or 100 in the projector style). The PNG says
        how small its smallest text is drawn (:func:`text_px`), so that a slide can draw it large enough."""
        dpi = _FRAME_DPI[_state["mode"]] if dpi is None else dpi
        if not self.dynamic:
            return png_bytes(self.fig, dpi)
        return encode_png(self.frame(dpi), text_px=text_px(self.fig, dpi))

    def frame(self, dpi: float | None = None) -> np.ndarray:
        """The figure's pixels now, blitted, as an (height, width, 4) uint8 array."""
        dpi = _FRAME_DPI[_state["mode"]] if dpi is None else dpi
        renderer = self.__dict__.get("_renderer")
        if renderer is None or renderer.fig is not self.fig:
            renderer = self._renderer = Renderer(self.fig, self.dynamic, self.static_key)
        with styled():
            return renderer.frame(dpi, _state["mode"], lambda: _ensure_layout(self.fig))

    def _repr_png_(self) -> tuple[bytes, dict]:
        # the metadata's "alt" becomes the image's text alternative in the HTML book
        return png_bytes(self.fig, dpi=100), {"alt": self.alt_text()}

    def _repr_mimebundle_(self, include=None, exclude=None) -> tuple[dict, dict]:
        """The figure for a notebook: ``image/png`` with its ``alt`` metadata (the book reads it), and
        ``text/html``, the same PNG in an ``<img alt="…">`` followed by a ``<details>`` "Data" table from
        :meth:`data_table` (JupyterLab drops a PNG's ``alt`` metadata; a native ``<details>`` opens with
        the keyboard, no script). In the projector style (a slide) the table is left out: a slide shows the
        figure. nbval compares ``text/html``: the project's sanitize file (``tests/nbval_sanitize.cfg``)
        replaces the base64 image, which the text does not depend on."""
        png, alt = base64.b64encode(png_bytes(self.fig, dpi=100)).decode("ascii"), self.alt_text()
        table = "" if _state["mode"] == "presentation" else table_html(self.data_table())
        page = (f'<img alt="{html.escape(alt)}" style="max-width:100%;height:auto" '
                f'src="data:image/png;base64,{png}">' + table)
        return {"image/png": png, "text/html": page}, {"image/png": {"alt": alt}}

    def alt_text(self) -> str:
        """The figure's text alternative, for readers who cannot see it: 1–3 plain sentences (no mathtext:
        ε, Δf, ≤, ×) saying what kind of chart it is, what it plots against what, and the numbers that matter
        at the current setting, formatted as the figure shows them (its title's and notes' numbers and its
        takeaway). Figures override it from the numbers ``update`` (or ``__init__``) kept on ``self``: it
        runs on every slider frame, so it formats, never recomputes. This default names each panel's title
        and axes."""
        panels = []
        for ax in self.fig.axes:
            title, x, y = (s.strip() for s in (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()))
            axes = f"{y} against {x}" if x and y else (x or y)
            panels.append(": ".join(p for p in (title, axes) if p))
        panels = [p for p in panels if p]
        return "Figure: " + "; ".join(panels) if panels else f"Figure: {type(self).__name__}"

    def data_table(self) -> dict | None:
        """The figure's data as a small table, shown on request (a "Data" toggle): ``{"caption": str,
        "columns": [str, ...], "rows": [[str, ...], ...]}``, every cell a string formatted as the figure
        shows it, every row as long as ``columns``, at most 25 rows (a curve sampled at a few meaningful
        points, a bar chart a row per bar or its top 25). None where a table would say nothing (the default)."""
        return None

    def explore_points(self) -> list[dict]:
        """The series a reader can walk point by point with the arrow keys (the key figures: the Laplace
        density, the privacy loss, the accuracy bound, the attack curve): ``[{"name": str, "x": str, "y": str,
        "points": [[x, y], ...]}]``, the axes' names in ``x`` and ``y``, at most 81 points of plain floats per
        series. Empty (the default) where no curve is worth walking."""
        return []

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.title()}>"

    def title(self) -> str:
        return self.fig.axes[0].get_title()


def table_html(table: dict | None) -> str:
    """A :meth:`_Updatable.data_table` as a native ``<details><summary>Data</summary><table>`` (empty for None):
    a caption, a header row of ``<th scope="col">``, each row's first cell a ``<th scope="row">``."""
    if not table:
        return ""
    esc = html.escape
    head = "".join(f'<th scope="col">{esc(c)}</th>' for c in table["columns"])
    rows = "".join("<tr>" + "".join(f'<th scope="row">{esc(c)}</th>' if i == 0 else f"<td>{esc(c)}</td>"
                                    for i, c in enumerate(row)) + "</tr>" for row in table["rows"])
    return (f'<details><summary>Data</summary><table><caption>{esc(table["caption"])}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></details>")


def sample_rows(n: int, most: int = 25) -> np.ndarray:
    """Indices of at most ``most`` rows spread evenly over ``n`` (ends included), for a table of a long series."""
    return np.unique(np.round(np.linspace(0, n - 1, min(n, most))).astype(int)) if n else np.zeros(0, dtype=int)


def curve_points(x, y, most: int = 81) -> list[list[float]]:
    """A curve as at most ``most`` plain-float ``[x, y]`` pairs spread evenly along it (ends included), for
    :meth:`_Updatable.explore_points`; pairs with a non-finite value are left out."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = sample_rows(x.size, most)
    return [[float(a), float(b)] for a, b in zip(x[keep], y[keep]) if np.isfinite(a) and np.isfinite(b)]


def _rng(rng: np.random.Generator | None) -> np.random.Generator:
    """The generator a figure draws its illustrative samples from: the caller's, or a fixed one
    (seeded 2014), so that a figure built twice shows the same samples."""
    return rng if rng is not None else np.random.default_rng(2014)


def _power_of_ten(value: float, _pos=None) -> str:
    """Tick label for a power of ten: 0.01 … 10,000 written out, 10⁵ and 10⁻³ beyond (no mathtext)."""
    exponent = round(np.log10(value)) if value > 0 else 0
    if -2 <= exponent <= 4:
        return f"{10.0 ** exponent:,.{max(0, -exponent)}f}"
    return ten_to(exponent)


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
