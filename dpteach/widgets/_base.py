"""The widget layer's shared machinery: :class:`Interactive` (a figure with its controls) and
the slider makers. Each topic's factories (``dpteach/widgets/T.py``) return an Interactive.

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

_SLIDER_LAYOUT = widgets.Layout(width="420px")
_STYLE = {"description_width": "110px"}


def log_slider(value: float, low: float, high: float, description: str, step: float = 0.01,
               readout_format: str = ".3g") -> widgets.FloatLogSlider:
    """A slider whose position is log10 of its value: for parameters that span decades (ε, δ, β)."""
    return widgets.FloatLogSlider(value=value, base=10, min=np.log10(low), max=np.log10(high), step=step,
                                  description=description, readout_format=readout_format, continuous_update=True,
                                  layout=_SLIDER_LAYOUT, style=_STYLE)


def epsilon_slider(value: float = 1.0, low: float = 0.01, high: float = 10.0) -> widgets.FloatLogSlider:
    """A log-scaled ε slider (ε from 0.01 to 10 by default)."""
    return log_slider(value, low, high, "ε (epsilon)")


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
        self.image.value = self.figure.png()
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


def delta_slider(value: float = 0.05, low: float = 0.001, high: float = 1.0) -> widgets.FloatLogSlider:
    """A log-scaled β slider (the failure probability of Theorem 3.8, which the book writes δ), 0.001 to 1."""
    return log_slider(value, low, high, "β (failure)")


def _choice_slider(name: str, options, value, description: str, fmt: str = ",") -> widgets.SelectionSlider:
    """A slider over a fixed list of values, labelled with ``format(v, fmt)`` (thousands separated by default)."""
    if value not in options:
        raise ValueError(f"{name} must be one of {list(options)}, got {value!r}")
    return widgets.SelectionSlider(options=[(format(v, fmt), v) for v in options], value=value,
                                   description=description, continuous_update=True,
                                   layout=_SLIDER_LAYOUT, style=_STYLE)
