"""Figures on a projector: in the presentation style (``make present``) every widget's figure keeps its
text inside the figure, at its defaults and at each control's ends.

The live slides draw an interactive figure beside its controls about 1200 px wide (the frames are
rendered at 100 dpi, 12 inches wide), with fonts 1.45× the laptop style's; a title, a figure title or an
axis label that the bigger fonts push past the figure's edge would be cut off in front of the class.
"""

import inspect

import numpy as np
import pytest

import dpteach as dp
from dpteach import plots

# the slow tier (make test-slow, make check): sweeps every projector figure
pytestmark = pytest.mark.slow

FACTORIES = [getattr(dp.widgets, n) for n in sorted(dp.widgets.__all__)
             if inspect.isfunction(getattr(dp.widgets, n))
             and inspect.signature(getattr(dp.widgets, n)).return_annotation in ("Interactive", dp.widgets.Interactive)]


def _ends(control) -> list:
    if isinstance(control.value, bool):
        return [not control.value]
    if hasattr(control, "options") and not hasattr(control, "min"):
        opts = [o[1] if isinstance(o, tuple) else o for o in control.options]
        return [opts[0], opts[-1]]
    if hasattr(control, "base"):
        ends = [control.base ** control.min, control.base ** control.max]
    else:
        ends = [control.min, control.max]
    return [type(control.value)(round(v) if isinstance(control.value, int) else v) for v in ends]


def _texts(fig):
    out = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        out += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    return [t for t in out if t.get_visible() and t.get_text().strip()]


def _outside(fig) -> list[str]:
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    bad = []
    for text in _texts(fig):
        box = text.get_window_extent(renderer)
        if box.x0 < -1 or box.x1 > width + 1 or box.y0 < -1 or box.y1 > height + 1:
            bad.append(f"{text.get_text()!r} at x {box.x0:.0f}–{box.x1:.0f} of {width:.0f}, "
                       f"y {box.y0:.0f}–{box.y1:.0f} of {height:.0f}")
    return bad


def test_there_are_widgets_to_check():
    assert len(FACTORIES) >= 25


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_text_stays_inside_the_projector_figure(factory):
    try:
        plots.presentation(True)
        widget = factory()
        frame = widget.figure.frame()
        assert frame.shape[1] == 1200, "a projector frame is 1200 px wide (12 in at 100 dpi)"
        bad = [f"defaults: {b}" for b in _outside(widget.figure.fig)]
        for name, control in widget.controls.items():
            for value in _ends(control):
                widget.set(**{name: value})
                widget.figure.frame()
                bad += [f"{name} = {value!r}: {b}" for b in _outside(widget.figure.fig)]
            widget.reset()
        assert not bad, f"{factory.__name__}: text cut off on a projector:\n" + "\n".join(bad[:8])
        assert np.asarray(frame).dtype == np.uint8
    finally:
        plots.presentation(False)
