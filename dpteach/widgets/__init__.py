"""Sliders wired to figures: each factory returns an :class:`Interactive` ready to display.

A notebook cell is one line, e.g. ``dp.widgets.laplace_density()``. Moving a slider calls
the figure's ``update`` (which changes artists in place), renders the figure to PNG bytes
and puts them in an ``ipywidgets.Image``. There is no Output widget, so:

* the figure is part of the saved widget state: an exported HTML page shows it without a
  kernel;
* what nbval compares for the cell is a stable one-line text, not a figure repr;
* tests drive the sliders without a browser (``w.set(epsilon=2.0)``) and assert on the
  numbers ``update`` returns (``w.result``).
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets
import numpy as np

from .. import plots
from ..census import census_first_names
from ..sensitivity import neighbour_differences

_SLIDER_LAYOUT = widgets.Layout(width="420px")
_STYLE = {"description_width": "110px"}


def epsilon_slider(value: float = 1.0, low: float = 0.01, high: float = 10.0) -> widgets.FloatLogSlider:
    """A log-scaled ε slider (ε from 0.01 to 10 by default)."""
    return widgets.FloatLogSlider(value=value, base=10, min=np.log10(low), max=np.log10(high), step=0.01,
                                  description="ε (epsilon)", readout_format=".3g", continuous_update=True,
                                  layout=_SLIDER_LAYOUT, style=_STYLE)


def sensitivity_slider(value: float = 1.0, low: float = 0.5, high: float = 5.0) -> widgets.FloatSlider:
    """A Δf slider."""
    return widgets.FloatSlider(value=value, min=low, max=high, step=0.5, description="Δf (sensitivity)",
                               readout_format=".2g", layout=_SLIDER_LAYOUT, style=_STYLE)


class Interactive:
    """A figure with its controls. Display it in a notebook; drive it from code with :meth:`set`.

    Attributes
    ----------
    controls : dict[str, ipywidgets.ValueWidget]
        The sliders and toggles, by the name of the argument they feed.
    result : dict
        What the last update drew (the figure's numbers), for tests and for curious students.
    widget : ipywidgets.VBox
        The layout that is displayed.
    """

    def __init__(self, figure: plots._Updatable, update: Callable[..., dict],
                 controls: dict[str, widgets.ValueWidget], caption: str) -> None:
        self.figure = figure
        self._update = update
        self.controls = controls
        self.caption = caption
        self.defaults = {name: c.value for name, c in controls.items()}
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
        self.status = widgets.HTML()
        reset = widgets.Button(description="Reset", tooltip="Put every control back to its default value",
                               icon="undo", layout=widgets.Layout(width="90px"))
        reset.on_click(lambda _: self.reset())
        self._batch = False
        for control in controls.values():
            control.observe(self._on_change, names="value")
        self.widget = widgets.VBox([widgets.HBox([widgets.VBox(list(controls.values())), reset]),
                                    self.status, self.image])
        self.result: dict = {}
        self.redraw()

    # -- driving it ---------------------------------------------------------------------
    def values(self) -> dict:
        """The current control values, by name."""
        return {name: c.value for name, c in self.controls.items()}

    def set(self, **values) -> dict:
        """Set several controls at once (one redraw) and return the new figure data."""
        unknown = set(values) - set(self.controls)
        if unknown:
            raise ValueError(f"unknown control(s) {sorted(unknown)}; this figure has {sorted(self.controls)}")
        self._batch = True
        try:
            for name, value in values.items():
                self.controls[name].value = value
        finally:
            self._batch = False
        return self.redraw()

    def reset(self) -> dict:
        """Every control back to its default value."""
        return self.set(**self.defaults)

    def redraw(self) -> dict:
        """Update the figure from the current values and refresh the image."""
        try:
            self.result = self._update(**self.values())
        except ValueError as exc:   # never a traceback in class: say what is wrong instead
            self.status.value = f"<span style='color:#D55E00'>Cannot draw this: {exc}</span>"
            return self.result
        self.status.value = ""
        self.image.value = plots.png_bytes(self.figure.fig)
        return self.result

    def _on_change(self, _change) -> None:
        if not self._batch:
            self.redraw()

    # -- display --------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.__repr__()
        return bundle

    def __repr__(self) -> str:
        return f"Interactive figure: {self.caption} (move the sliders in a live notebook)"


def laplace_density(epsilon: float = 1.0, sensitivity: float = 1.0) -> Interactive:
    """Sliders ε and Δf driving the density of Lap(Δf/ε) and a histogram of its samples (Def 3.2)."""
    fig = plots.LaplaceDensityFigure()
    return Interactive(fig, fig.update,
                       {"epsilon": epsilon_slider(epsilon), "sensitivity": sensitivity_slider(sensitivity)},
                       "the Laplace density Lap(Δf/ε) and its samples")


def privacy_loss(epsilon: float = 1.0, sensitivity: float = 1.0, understate: bool = False,
                 k: int = 1) -> Interactive:
    """Theorem 3.6's picture: neighbours' output densities and the privacy loss inside [−ε, ε].

    The toggle calibrates the noise to Δf/2 while the answers still differ by Δf, and the
    loss leaves the band. The k slider releases k counts that each move by Δf/k: the loss is
    the sum of k shares, each inside [−ε/k, ε/k].
    """
    fig = plots.PrivacyLossFigure()
    toggle = widgets.ToggleButton(value=understate, description="understate Δf (calibrate to Δf/2)",
                                  layout=widgets.Layout(width="300px"))
    counts = widgets.IntSlider(value=k, min=1, max=10, description="k (counts)", continuous_update=True,
                               layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, fig.update,
                       {"epsilon": epsilon_slider(epsilon), "sensitivity": sensitivity_slider(sensitivity),
                        "understate": toggle, "k": counts},
                       "output densities on neighbours and the privacy loss (Theorem 3.6)")


def clipped_sum_sensitivity(clip: int = 3, max_value: int = 10, max_size: int = 3) -> Interactive:
    """Slider R: the sum of ages clipped to [0, R] has Δf = R, found by enumerating neighbours."""
    values = np.arange(max_value + 1)
    fig = plots.NeighbourChangesFigure(labels=("sum clipped to [0, R]",))

    def update(clip: int) -> dict:
        diffs = neighbour_differences(lambda xs: xs @ np.clip(values, 0, clip), values, max_size, vectorized=True)
        out = fig.update(diffs)
        fig.axes[0].title.set_text(f"sum of values 0–{max_value} clipped to [0, {clip}]: Δf = {diffs.sensitivity:g}")
        return {"clip": clip, "sensitivity": diffs.sensitivity, **out}

    slider = widgets.IntSlider(value=clip, min=1, max=max_value, description="R (clip bound)",
                               layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, update, {"clip": slider}, "the clipped sum's sensitivity, by enumeration")


def counting_queries_sensitivity(k: int = 4, max_size: int = 2) -> Interactive:
    """Slider k: k overlapping counts ("age ≥ j") have Δf = k; k disjoint cells ("age = j") have Δf = 1."""
    universe = np.arange(11)
    fig = plots.NeighbourChangesFigure(labels=("k overlapping counts", "k-cell histogram"))

    def update(k: int) -> dict:
        thresholds = np.arange(1, k + 1)
        at_least = (universe[None, :] >= thresholds[:, None]).astype(float)   # query j: how many aged ≥ j
        exactly = (universe[None, :] == thresholds[:, None]).astype(float)    # cell j: how many aged j
        overlapping = neighbour_differences(lambda xs: xs @ at_least.T, universe, max_size, vectorized=True)
        disjoint = neighbour_differences(lambda xs: xs @ exactly.T, universe, max_size, vectorized=True)
        out = fig.update(overlapping, disjoint)
        fig.axes[0].title.set_text(f"{k} counts 'age ≥ j': Δf = {overlapping.sensitivity:g}")
        fig.axes[1].title.set_text(f"{k} cells 'age = j': Δf = {disjoint.sensitivity:g}")
        return {"k": k, "overlapping": overlapping.sensitivity, "histogram": disjoint.sensitivity, **out}

    slider = widgets.IntSlider(value=k, min=1, max=10, description="k (queries)",
                               layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, update, {"k": slider}, "k overlapping counts against a k-cell histogram")


# -- chapters 04 and 05 -----------------------------------------------------------------------

def delta_slider(value: float = 0.05, low: float = 0.001, high: float = 1.0) -> widgets.FloatLogSlider:
    """A log-scaled β slider (the failure probability of Theorem 3.8, which the book writes δ), 0.001 to 1."""
    return widgets.FloatLogSlider(value=value, base=10, min=np.log10(low), max=np.log10(high), step=0.01,
                                  description="β (failure)", readout_format=".3g", continuous_update=True,
                                  layout=_SLIDER_LAYOUT, style=_STYLE)


def _choice_slider(name: str, options, value, description: str) -> widgets.SelectionSlider:
    """A slider over a fixed list of integers (shown with thousands separators)."""
    if value not in options:
        raise ValueError(f"{name} must be one of {list(options)}, got {value!r}")
    return widgets.SelectionSlider(options=[(f"{v:,}", v) for v in options], value=value,
                                   description=description, continuous_update=True,
                                   layout=_SLIDER_LAYOUT, style=_STYLE)


_SIZES = tuple(int(m * 10**e) for e in range(1, 8) for m in (1, 3)) + (100_000_000,)


def count_error_by_size(n: int = 1_000, epsilon: float = 1.0) -> Interactive:
    """Example 3.1, slider n: a count's absolute error stays at 1/ε while its relative error falls."""
    fig = plots.CountErrorBySizeFigure()
    return Interactive(fig, fig.update,
                       {"n": _choice_slider("n", _SIZES, n, "n (people)"), "epsilon": epsilon_slider(epsilon)},
                       "one count's error against the size of the database (Example 3.1)")


_KS = (1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1_000)


def counting_vs_histogram(k: int = 10, epsilon: float = 1.0) -> Interactive:
    """Slider k: k arbitrary counts need Lap(k/ε) each, a k-cell histogram Lap(1/ε) (Examples 3.1, 3.2)."""
    fig = plots.CountingVsHistogramFigure(k_max=_KS[-1])
    return Interactive(fig, fig.update,
                       {"k": _choice_slider("k", _KS, k, "k (queries)"), "epsilon": epsilon_slider(epsilon)},
                       "k arbitrary counting queries against a k-cell histogram")


def accuracy_bound(epsilon: float = 1.0, delta: float = 0.05, k: int = 10_000) -> Interactive:
    """Sliders ε, β (``delta``, the book's δ), k: Theorem 3.8's bound ln(k/β)·Δf/ε against the largest errors of 500 releases."""
    fig = plots.AccuracyBoundFigure()
    return Interactive(fig, fig.update,
                       {"epsilon": epsilon_slider(epsilon), "delta": delta_slider(delta),
                        "k": _choice_slider("k", plots.AccuracyBoundFigure.K_OPTIONS, k, "k (cells)")},
                       "Theorem 3.8's bound against the observed largest error")


def name_reliability(epsilon: float = 1.0) -> Interactive:
    """Slider ε: Example 3.3's relative error by true count, and the noise on names no one has."""
    fig = plots.NameReliabilityFigure(census_first_names())
    return Interactive(fig, fig.update, {"epsilon": epsilon_slider(epsilon)},
                       "which first names the release gets right (Example 3.3)")


def marketing_noise(cap: int = 5, epsilon: float = 1.0, cells: int = 600) -> Interactive:
    """Sliders c and ε: a capped conversion report's DP noise against sampling noise, by cell size."""
    fig = plots.MarketingNoiseFigure(cells=cells)
    slider = widgets.IntSlider(value=cap, min=1, max=20, description="c (cap per user)",
                               layout=_SLIDER_LAYOUT, style=_STYLE)
    return Interactive(fig, fig.update, {"cap": slider, "epsilon": epsilon_slider(epsilon)},
                       f"DP noise against sampling noise in a report of {cells:,} campaign-days")

from .applications import *  # noqa: E402, F403
from .attack import *  # noqa: E402, F403
from .composition import *  # noqa: E402, F403
from .gaussian import *  # noqa: E402, F403
from .noise import *  # noqa: E402, F403
from .precomputed import *  # noqa: E402, F403
from .selection import *  # noqa: E402, F403
