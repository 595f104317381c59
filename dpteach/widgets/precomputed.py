"""Sliders that still move in a static page: frames rendered in advance, chosen in the browser.

A live slider needs a kernel to recompute its figure. :func:`precomputed` renders the figure
of an :class:`~dpteach.widgets.Interactive` at a grid of values of one control when the
notebook runs, stores the frames as images, and links a slider to them with ``jslink``, which
runs in the browser: in an exported HTML page (no kernel) the slider still switches frames.

Each frame keeps its text alternative (the figure's ``alt_text()`` at that value): a
:class:`~dpteach.widgets._a11y.FigureAccess`, its ``index`` linked to the slider's in the browser too,
sets the shown frame's ``alt`` and announces it once the slider rests, and names the slider after its
label with the label it shows as its value (not the option's index).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as widgets

from ._a11y import FigureAccess, describe
from ._base import _STYLE, Interactive, direction_label

__all__ = ["PrecomputedView", "precomputed"]

class PrecomputedView:
    """A slider over precomputed frames (display it; ``frames`` holds the PNG bytes)."""

    def __init__(self, source: Interactive, control: str, values: Sequence, labels: Sequence[str]) -> None:
        self.values = list(values)
        self.frames: list[bytes] = []
        self.results: list[dict] = []
        #: each frame's text alternative, what a screen reader reads when that frame shows
        self.alts: list[str] = []
        for value in self.values:
            self.results.append(source.set(**{control: value}))     # renders the frame once
            self.frames.append(bytes(source.image.value))
            self.alts.append(describe(source.figure)[0])
        start = min(range(len(self.values)), key=lambda i: abs(self.values[i] - source.defaults[control]))
        source.reset()
        description = source.controls[control].description
        self.slider = widgets.SelectionSlider(options=[(label, i) for i, label in enumerate(labels)], index=start,
                                              description=description, continuous_update=True,
                                              layout=widgets.Layout(width="420px"),
                                              style=_STYLE)
        self.stack = widgets.Stack([widgets.Image(value=f, format="png", layout=widgets.Layout(max_width="100%"))
                                    for f in self.frames], selected_index=start)
        widgets.jslink((self.slider, "index"), (self.stack, "selected_index"))
        self.access = FigureAccess(alts=self.alts, index=start)
        self.access_link = widgets.jslink((self.slider, "index"), (self.access, "index"))
        note = widgets.HTML(
            f"<i>Precomputed view: {len(self.frames)} frames of “{source.caption}”, rendered when the notebook "
            f"ran. The slider picks a frame in your browser, so it moves even in a web page with no kernel.</i>")
        self.caption = source.caption
        #: under a privacy slider (ε, δ, a noise scale), which end is more private and which more accurate
        self.direction = direction_label(source.controls[control])
        self.widget = widgets.VBox([w for w in (note, self.slider, self.direction, self.stack, self.access)
                                    if w is not None])
        self.widget.add_class("dpteach-precomputed")

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = repr(self)
        return bundle

    def __repr__(self) -> str:
        return f"Precomputed view: {len(self.frames)} frames of {self.caption}"


def precomputed(factory: Callable[..., Interactive], control: str, values: Sequence, *,
                fmt: str = "{:g}", **fixed) -> PrecomputedView:
    """Render ``factory(**fixed)`` at each of ``values`` of ``control`` and link a slider to the frames.

    Examples
    --------
    ``dp.widgets.precomputed(dp.widgets.privacy_loss, "epsilon", [0.1, 0.25, 0.5, 1, 2, 4])``
    """
    source = factory(**fixed)
    if control not in source.controls:
        raise ValueError(f"control must be one of {sorted(source.controls)}, got {control!r}")
    if len(values) < 2:
        raise ValueError(f"values must hold at least 2 settings to choose between, got {list(values)!r}")
    return PrecomputedView(source, control, values, [fmt.format(v) for v in values])
