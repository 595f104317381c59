"""The slider sweep: every widget factory in dpteach.widgets, found by introspection, driven to the
minimum, maximum and default of every control (every option of a selection, both states of a
toggle) with no exception, no warning, an empty status line and a PNG image.

Nothing here lists the widgets by hand: a factory added to dpteach.widgets (or to any of its
submodules) is swept without editing this file.
"""

from __future__ import annotations

import warnings

import pytest
from helpers import control_values, pixels_off_a_full_draw, widget_factories

from dpteach.widgets import Interactive

FACTORIES = widget_factories()


def settings(control) -> list:
    """Minimum and maximum of a slider, then its default; both states of a toggle; every option of a
    selection, then the default."""
    return control_values(control, 2, every_option=True) + [control.value]


def test_discovery_finds_the_known_widgets():
    names = {key.rsplit(".", 1)[-1] for key in FACTORIES}
    assert {"laplace_density", "privacy_loss", "accuracy_bound"} <= names


@pytest.mark.parametrize("factory", list(FACTORIES.values()), ids=list(FACTORIES))
def test_every_control_at_min_max_and_default(factory):
    """Every control at both ends and back at its default draws (no "Cannot draw this", no warning), and
    the figure is blitted: with its first control moved, the frame equals a full draw (every value of
    every control, in both styles: tests/test_render.py, the slow tier)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        w = factory()
        assert isinstance(w, Interactive)
        assert w.status.value == "" and bytes(w.image.value).startswith(b"\x89PNG")
        for name, control in w.controls.items():
            for value in settings(control):
                w.set(**{name: value})
                assert w.status.value == "", f"{name} = {value!r}: {w.status.value}"
                assert bytes(w.image.value).startswith(b"\x89PNG")
            w.reset()
        assert w.values() == w.defaults
        assert w.figure.dynamic, "figure drawn whole on every frame (no dynamic artists)"
        name, control = next(iter(w.controls.items()))
        w.set(**{name: next(v for v in reversed(settings(control)) if v != control.value)})
        off = pixels_off_a_full_draw(w.figure)
        assert off <= 3, f"{name} = {control.value!r}: {off} pixels differ from a full draw (a changing artist not in figure.dynamic?)"
    assert not caught, [str(c.message) for c in caught]


@pytest.mark.slow
@pytest.mark.parametrize("factory", list(FACTORIES.values()), ids=list(FACTORIES))
def test_all_controls_at_their_minimum_then_maximum_together(factory):
    """The corners of the control space: every control at its first setting at once, then its last."""
    w = factory()
    for corner in (0, -1):
        w.set(**{name: control_values(c, 2, every_option=True)[corner] for name, c in w.controls.items()})
        assert w.status.value == "", w.status.value
        assert bytes(w.image.value).startswith(b"\x89PNG")


@pytest.mark.slow
@pytest.mark.parametrize("factory", list(FACTORIES.values()), ids=list(FACTORIES))
def test_a_control_change_redraws_the_same_figure_and_changes_the_image(factory):
    """Moving a control updates the figure in place (never a new Figure) and sends a new image;
    the text nbval compares for a widget cell is one stable line."""
    w = factory()
    fig, axes, first = w.figure.fig, len(w.figure.fig.axes), bytes(w.image.value)
    name, control = next(iter(w.controls.items()))
    other = next(v for v in settings(control) if v != control.value)
    w.set(**{name: other})
    assert w.figure.fig is fig and len(fig.axes) == axes
    assert bytes(w.image.value) != first
    assert w._repr_mimebundle_()["text/plain"].startswith("Interactive figure:")
