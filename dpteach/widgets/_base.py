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

import html
import math
import numbers
import re
import time
from collections.abc import Callable

import ipywidgets as widgets
import numpy as np
import traitlets

from .. import _validate, plots
from ._a11y import FigureAccess

_SLIDER_LAYOUT = widgets.Layout(width="420px")
#: the slider handles' colour (the style's blue, darkened), see _STYLE
HANDLE_COLOR = "#2a6099"
#: handle_color: the handle at 6.5:1 against white and 3.5:1 against the light theme's track (#bdbdbd; WCAG 1.4.11
#: asks 3:1 of a control's parts, and the default white handle had 1.9:1)
_STYLE = {"description_width": "110px", "handle_color": HANDLE_COLOR}


class RoundLogSlider(widgets.FloatLogSlider):
    """A log slider whose values are round numbers: what the readout shows is what the figure draws.

    ipywidgets' FloatLogSlider snaps its handle to a grid of *exponents* (min + n·step), which holds
    no round number but 1, 10, …: ε = 0.5 became 10^−0.30 = 0.501 the moment the page drew the slider,
    and a typed 0.5 came back as 0.501. Here the browser does not snap (``step=None``) and the kernel
    rounds every value it receives to the readout's significant figures (3 by default), so the grid is
    every number the readout can show: 0.5, 0.05, 1e-6 and 0.25 lie on it, a typed round value lands
    on itself, a dragged one on the number the readout shows, and the value the figure receives is
    that number exactly (not 0.5000000000000001 from the browser's 10^log10(0.5)).

    The rounded number is not sent back to the browser that sent the value: its readout already shows
    those figures. Sent back, it moved the handle to log10(2), say, and the browser answered with
    10 to that position, 2.0000000000000004: a second round trip for every key press, and a repaint
    of the slider while the kernel drew the figure.
    """

    @traitlets.validate("value")
    def _validate_value(self, proposal):
        if not math.isfinite(float(proposal["value"])):
            raise traitlets.TraitError(f"a log slider's value must be a finite number, got {proposal['value']!r}")
        return self._rounded(float(proposal["value"]))

    def _rounded(self, value: float) -> float:
        """``value`` to the readout's significant figures, within the slider's (rounded) ends."""
        digits = _significant_digits(self.readout_format)
        low = _round_significant(self.base ** self.min, digits)
        high = _round_significant(self.base ** self.max, digits)
        return min(max(_round_significant(value, digits), low), high)

    def _should_send_property(self, key, value):
        # ipywidgets' own check (Widget._should_send_property) skips a value only when it equals the
        # one the browser sent (its property lock); here also when it is that value, rounded.
        sent = self._property_lock.get(key) if key == "value" else None
        if isinstance(sent, (int, float)) and not isinstance(sent, bool) and math.isfinite(sent) \
                and value == self._rounded(float(sent)):
            if self._holding_sync:
                self._states_to_send.discard(key)
            return False
        return super()._should_send_property(key, value)


def _significant_digits(readout_format: str) -> int:
    """How many significant figures a readout format shows: '.3' and '.3g' → 3, '.0e' → 1."""
    match = re.fullmatch(r"\.(\d+)([eg]?)", readout_format)
    if match is None:
        raise ValueError(f"readout_format must be '.Ng', '.N' or '.Ne' for a log slider, got {readout_format!r}")
    precision = int(match.group(1))
    return precision + 1 if match.group(2) == "e" else max(precision, 1)


def _round_significant(value: float, digits: int) -> float:
    """``value`` rounded to ``digits`` significant figures, through its decimal text (so 0.5 stays 0.5)."""
    if not math.isfinite(value) or value == 0:
        return value
    return float(f"{value:.{digits - 1}e}")


def _check_number(name: str, value, low: float, high: float, *, integer: bool = False,
                  where: str = "the slider's range") -> float:
    """A widget factory's argument: a real number (an integer if ``integer``) in [low, high].

    The same message as the maths layer's checks (:mod:`dpteach._validate`): the parameter's name,
    the value received and the allowed range. Always a ValueError, a wrong type too, so that a
    factory refuses what its slider could not show instead of clamping it or letting traitlets fail.
    """
    kind = "an integer" if integer else "a finite number"
    allowed = f"{kind} in [{low:g}, {high:g}] ({where})"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be {allowed}, got {value!r} of type {type(value).__name__}")
    if integer and not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    x = float(value)
    if not (math.isfinite(x) and low <= x <= high):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return int(value) if integer else x


def log_slider(value: float, low: float, high: float, description: str, step: float | None = None,
               readout_format: str = ".3", name: str | None = None) -> RoundLogSlider:
    """A slider whose position is log10 of its value: for parameters that span decades (ε, δ, β).

    Its values are the numbers of ``readout_format``'s significant figures in [low, high] (see
    :class:`RoundLogSlider`); ``step`` (in powers of ten) would make the browser snap to a grid of
    exponents again, which holds no round value but the powers of ten: leave it None. With ``name``
    (the factory argument ``value`` came from), a value outside [low, high], or with more significant
    figures than the readout shows, is refused with a ValueError naming it.
    """
    digits = _significant_digits(readout_format)
    if name is not None:
        x = _check_number(name, value, low, high)
        if _round_significant(x, digits) != x:
            raise ValueError(f"{name} must have at most {digits} significant figures (the slider's steps), "
                             f"got {value!r}")
    return RoundLogSlider(value=value, base=10, min=np.log10(low), max=np.log10(high), step=step,
                          description=description, readout_format=readout_format, continuous_update=True,
                          layout=_SLIDER_LAYOUT, style=_STYLE)


#: Which end of a privacy slider is the more private, by the symbol its description starts with: a smaller ε or
#: δ promises more, a larger noise scale (σ, or b for Laplace noise) adds more noise, and so does a larger
#: error allowed (α, the budget planner's accuracy). The other end is the more accurate. A slider whose
#: description starts with another symbol (k, β, Δf, p, …) gets no such label; δ′ gets its own (:data:`TRADE_ENDS`).
PRIVATE_END = {"ε": "low", "δ": "low", "σ": "high", "b": "high", "α": "high"}

#: Sliders that are slack in the accounting, not a privacy–accuracy dial: what their two ends trade. Advanced
#: composition's δ′ (Theorem 3.20) changes neither the releases nor their noise; a smaller δ′ buys a larger ε′
#: for the same releases, a larger δ′ a smaller one.
TRADE_ENDS = {"δ′": ("smaller δ′, larger ε′", "larger δ′, smaller ε′")}

#: The words at the two ends of a privacy slider's label row.
MORE_PRIVATE, MORE_ACCURATE = "more private", "more accurate"


def private_end(control) -> str | None:
    """``"low"`` when a control's smaller values are the more private, ``"high"`` when its larger ones are, None
    when it is no privacy–accuracy dial (see :data:`PRIVATE_END`; read from the symbol its description starts with)."""
    description = str(getattr(control, "description", "") or "")
    return PRIVATE_END.get(description.split(" ", 1)[0])


def direction_ends(control) -> tuple[str, str] | None:
    """What a privacy slider's label row says at its left and right ends, or None for another control: for ε,
    ("← more private", "more accurate →"); for a noise scale, the other way round; for δ′, what it trades
    ("← smaller δ′, larger ε′", "larger δ′, smaller ε′ →", :data:`TRADE_ENDS`)."""
    description = str(getattr(control, "description", "") or "")
    trade = TRADE_ENDS.get(description.split(" ", 1)[0])
    if trade is not None:
        return f"← {trade[0]}", f"{trade[1]} →"
    end = private_end(control)
    if end is None:
        return None
    left, right = (MORE_PRIVATE, MORE_ACCURATE) if end == "low" else (MORE_ACCURATE, MORE_PRIVATE)
    return f"← {left}", f"{right} →"


def direction_label(control) -> widgets.HTML | None:
    """The small row under a privacy slider that says which way is more private and which more accurate (for δ′,
    what its ends trade: :func:`direction_ends`), its two ends under the two ends of the track (class
    ``dpteach-direction``); None for a control that is not one.

    Learners ask it more than anything about a slider: nothing in "ε (epsilon)" says that its left end is the more
    private. The row inherits the font size of the widgets (so that the slides scale it with them) and wraps
    rather than overflow where the track is narrow."""
    ends = direction_ends(control)
    if ends is None:
        return None
    left, right = (html.escape(e) for e in ends)
    label = widgets.HTML(
        f"<div class='dpteach-direction' style='display:flex;flex-wrap:wrap;justify-content:space-between;"
        f"column-gap:1em;color:#555;line-height:1.2'><span>{left}</span><span>{right}</span></div>",
        layout=widgets.Layout(width="300px", margin="-4px 0 2px 114px"))
    label.add_class("dpteach-direction")
    return label


def epsilon_slider(value: float = 1.0, low: float = 0.01, high: float = 10.0,
                   name: str = "epsilon") -> RoundLogSlider:
    """A log-scaled ε slider (ε from 0.01 to 10 by default); ``value`` is checked as the argument ``name``."""
    return log_slider(value, low, high, "ε (epsilon)", name=name)


def sensitivity_slider(value: float = 1.0, low: float = 0.5, high: float = 5.0,
                       name: str = "sensitivity") -> widgets.FloatSlider:
    """A Δf slider in steps of 0.5; ``value`` is checked as the argument ``name``."""
    x = _check_number(name, value, low, high)
    if not float(2 * x).is_integer():
        raise ValueError(f"{name} must be a multiple of 0.5 in [{low:g}, {high:g}] (the slider's steps), got {value!r}")
    return widgets.FloatSlider(value=x, min=low, max=high, step=0.5, description="Δf (sensitivity)",
                               readout_format=".2g", layout=_SLIDER_LAYOUT, style=_STYLE)


def _int_slider(name: str, value, low: int, high: int, description: str) -> widgets.IntSlider:
    """An integer slider over [low, high]; ``value`` is checked as the argument ``name`` (never clamped)."""
    return widgets.IntSlider(value=_check_number(name, value, low, high, integer=True), min=low, max=high,
                             description=description, continuous_update=True, layout=_SLIDER_LAYOUT, style=_STYLE)


def _toggle(name: str, value, description: str, width: str = "300px") -> widgets.ToggleButton:
    """A toggle; ``value`` must be a bool (True or False), checked as the argument ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return widgets.ToggleButton(value=bool(value), description=description, layout=widgets.Layout(width=width))


class Interactive:
    """A figure with its controls. Display it in a notebook; drive it from code with :meth:`set`.

    Each change of a control calls ``update`` with every control's value, by name: by default the
    figure's own ``update``; pass a function when the values need translating first (a slider named
    ``beta`` for a figure that says ``delta``) or the frame needs more than the figure draws.

    Attributes
    ----------
    controls : dict[str, ipywidgets.ValueWidget]
        The sliders and toggles, by the name of the argument they feed.
    directions : dict[str, ipywidgets.HTML]
        Under each privacy slider (ε, δ, a noise scale), the row that says which end is more private and which
        more accurate (:func:`direction_label`), by the control's name.
    result : dict
        What the last update drew (the figure's numbers), for tests and for curious students.
    widget : ipywidgets.VBox
        The layout that is displayed.
    access : FigureAccess
        What a screen reader gets (:mod:`dpteach.widgets._a11y`): the figure's text alternative, announced
        once the controls rest, its data table and explorable points, and the controls' names and values.
    """

    def __init__(self, figure: plots.UpdatableFigure, controls: dict[str, widgets.ValueWidget], caption: str,
                 update: Callable[..., dict] | None = None) -> None:
        self.figure = figure
        self._update = figure.update if update is None else update
        self.controls = controls
        self.caption = caption
        self.defaults = {name: c.value for name, c in controls.items()}
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
        self.status = widgets.HTML()
        reset = widgets.Button(description="Reset", tooltip="Put every control back to its default value",
                               icon="undo", layout=widgets.Layout(width="90px"))
        reset.on_click(lambda _: self.reset())
        reset.add_class("dpteach-reset")
        self._batch = False
        self._scheduled = False          # a draw of the newest values is due (see _on_change)
        self._finished = 0.0             # when the last draw ended (time.perf_counter)
        self.skipped = 0                 # changes never drawn: a newer one came first
        for control in controls.values():
            control.observe(self._on_change, names="value")
        #: the label row under each privacy slider (ε, δ, a noise scale), by control name: which way is private
        self.directions = {name: label for name, label in ((n, direction_label(c)) for n, c in controls.items())
                           if label is not None}
        rows = [w for name, c in controls.items() for w in (c, self.directions.get(name)) if w is not None]
        # the access widget sits under the controls: the box's children stay [controls, status, image], as the
        # slides lay them out (publish/slides/sizing.py)
        self.access = FigureAccess()
        self.widget = widgets.VBox([widgets.HBox([widgets.VBox([*rows, self.access]), reset]), self.status,
                                    self.image])
        # live slides (make present) lay an interactive figure out as controls beside a screen-high figure
        self.widget.add_class("dpteach-interactive")
        self.result: dict = {}
        self._drawn: dict | None = None     # the control values of the image shown
        self.redraw()

    # -- driving it ---------------------------------------------------------------------
    def values(self) -> dict:
        """The current control values, by name."""
        return {name: c.value for name, c in self.controls.items()}

    def set(self, **values) -> dict:
        """Set several controls at once (one redraw) and return the new figure data.

        A value the control cannot take (outside its range, not one of its options, of the wrong type)
        is refused with a ValueError naming the control, not clamped.
        """
        unknown = set(values) - set(self.controls)
        if unknown:
            raise ValueError(f"unknown control(s) {sorted(unknown)}; this figure has {sorted(self.controls)}")
        for name, value in values.items():
            _check_control(name, self.controls[name], value)
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
        """Update the figure from the current values and refresh the image and its text alternative (and, at once
        for a value set by code, or once the controls rest for a value the browser sent, its table and points)."""
        return self._redraw(rest=None)

    def _redraw(self, rest) -> dict:
        try:
            self.result = self._update(**self.values())
        except ValueError as exc:   # never a traceback in class: say what is wrong instead
            self.status.value = f"<span style='color:#D55E00'>Cannot draw this: {exc}</span>"
            self._drawn = None          # the message stands until a draw succeeds, at any values
            return self.result
        self.status.value = ""
        self.image.value = self.figure.png()
        self.access.show(self.figure, rest)
        self._drawn = self.values()
        self._finished = time.perf_counter()
        return self.result

    def _on_change(self, change) -> None:
        # A value from the browser is set under traitlets' hold_trait_notifications, where a log
        # slider's rounding (RoundLogSlider's validator) runs only as the hold ends: a value that rounds
        # to the one shown (2.0000000000000004 while 2.0 is drawn) is notified as a change although the
        # value stays 2.0. RoundLogSlider no longer provokes JupyterLab to send one, but another page
        # showing the same slider still can. Redraw only when a value differs from the image's.
        if self._batch or self.values() == self._drawn:
            return
        if self._scheduled:             # a draw is already due: it will show these values, the newest
            self.skipped += 1
            return
        loop = _kernel_loop()
        # (a value set by code, in a cell, is drawn at once: only what the browser sends is coalesced. ipywidgets
        # holds a value in the widget's _property_lock while it applies a state the front end sent)
        from_browser = change["name"] in getattr(change["owner"], "_property_lock", {})
        if loop is None or not from_browser or time.perf_counter() - self._finished > COALESCE_SECONDS:
            self._redraw(rest=loop if from_browser else None)
            return
        # Changes are arriving faster than the figure draws (a client that does not wait for each image, or
        # a backlog behind a busy kernel): let the kernel read what is queued, then draw the newest once.
        self._scheduled = True
        loop.call_later(COALESCE_SECONDS, self._draw_newest)

    def _draw_newest(self) -> None:
        self._scheduled = False
        if self.values() != self._drawn:
            self._redraw(rest=_kernel_loop())

    # -- display --------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.__repr__()
        return bundle

    def __repr__(self) -> str:
        return f"Interactive figure: {self.caption} (move the sliders in a live notebook)"


#: A change that comes within this many seconds of the end of the last draw waits as long for the ones queued
#: behind it, and only the newest is drawn (a browser sends the next only once the kernel is idle, so its
#: changes come later than this and are drawn at once).
COALESCE_SECONDS = 0.003


def _kernel_loop():
    """The event loop of the IPython kernel this runs in, or None (a plain Python process, a test)."""
    from IPython import get_ipython
    kernel = getattr(get_ipython(), "kernel", None)
    return getattr(kernel, "io_loop", None)


def beta_slider(value: float = 0.05, low: float = 0.001, high: float = 1.0, name: str = "beta") -> RoundLogSlider:
    """A log-scaled β slider (the failure probability of Theorem 3.8, which the book writes δ), 0.001 to 1;
    ``value`` is checked as the argument ``name``."""
    return log_slider(value, low, high, "β (failure)", name=name)


def _choice_slider(name: str, options, value, description: str, fmt: str = ",") -> widgets.SelectionSlider:
    """A slider over a fixed list of values, labelled with ``format(v, fmt)`` (thousands separated by default)."""
    if isinstance(value, (bool, np.bool_)) or not any(_same(value, o) for o in options):
        raise ValueError(f"{name} must be one of {list(options)} (the slider's steps), got {value!r}")
    value = next(o for o in options if _same(value, o))
    return widgets.SelectionSlider(options=[(format(v, fmt), v) for v in options], value=value,
                                   description=description, continuous_update=True,
                                   layout=_SLIDER_LAYOUT, style=_STYLE)


def _same(value, option) -> bool:
    """``value == option``, False where the comparison fails or means nothing (an array, a string against a number)."""
    if isinstance(value, str) != isinstance(option, str):
        return False
    try:
        return bool(value == option)
    except (TypeError, ValueError):
        return False


def _seed(value, name: str = "seed") -> int:
    """A factory's seed: a non-negative integer (what numpy.random.default_rng takes), checked as ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer (it seeds numpy.random.default_rng), got {value!r}")
    return int(value)


#: the largest synthetic population a factory draws (a few seconds and a few hundred MB at most)
_MAX_PEOPLE = 1_000_000


def _people(name: str, value, low: int = 10) -> int:
    """A factory's population size: an integer in [low, 1,000,000], checked as ``name``."""
    return _check_number(name, value, low, _MAX_PEOPLE, integer=True, where="what the widget draws in a few seconds")


def _check_control(name: str, control, value) -> None:
    """Refuse a value ``control`` would clamp or fail on, with a ValueError naming ``name``."""
    if isinstance(control, widgets.ToggleButton):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {value!r}")
    elif isinstance(control, widgets.SelectionSlider):
        options = [o[1] if isinstance(o, tuple) else o for o in control.options]
        if isinstance(value, (bool, np.bool_)) or not any(_same(value, o) for o in options):
            raise ValueError(f"{name} must be one of {options} (the slider's steps), got {value!r}")
    elif isinstance(control, widgets.FloatLogSlider):
        low, high = control.base ** control.min, control.base ** control.max
        _check_number(name, value, low * (1 - 1e-9), high * (1 + 1e-9))
    elif isinstance(control, (widgets.IntSlider, widgets.FloatSlider)):
        _check_number(name, value, control.min, control.max, integer=isinstance(control, widgets.IntSlider))


def _values(name: str, value) -> np.ndarray:
    """A factory's data: a non-empty 1-d array of finite reals (the maths layer's check), always a ValueError."""
    try:
        return _validate.array(name, value, ndim=(1,))
    except TypeError as exc:
        raise ValueError(str(exc)) from None


def _names(name: str, value, n: int) -> list[str]:
    """A factory's labels: a sequence of ``n`` strings, one per value."""
    if isinstance(value, str) or not isinstance(value, (list, tuple, np.ndarray)) \
            or not all(isinstance(v, (str, np.str_)) for v in value):
        raise ValueError(f"{name} must be a list of strings, got {value!r}")
    if len(value) != n:
        raise ValueError(f"{name} must have one entry per value ({n}), got {len(value)}")
    return [str(v) for v in value]


def _positive(name: str, value) -> float:
    """A factory's positive parameter (a sensitivity): the maths layer's check, always a ValueError."""
    try:
        return _validate.positive(name, value)
    except TypeError as exc:
        raise ValueError(str(exc)) from None


def _span(slider) -> tuple[float, float]:
    """The values at the two ends of a log slider: the figure's axes hold both."""
    return slider.base ** slider.min, slider.base ** slider.max
