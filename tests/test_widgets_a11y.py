"""What a screen reader gets from every live figure (the fast tier; the browser side is test_browser_lab_a11y.py).

Every widget factory in dpteach.widgets (found by introspection, as the slider sweep finds them) carries a
FigureAccess widget in its box whose text alternative is the figure's own (``alt_text()``), is never empty, and
follows the figure when a control moves; a data table, where a figure gives one, has the shape the front end
reads. The front end (dpteach/widgets/a11y.js) ships in the wheel and asks the network for nothing.
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile

import ipywidgets as widgets
import pytest
from helpers import ROOT, control_values, widget_factories

from dpteach.widgets import Interactive, precomputed
from dpteach.widgets._a11y import DETAILS_SECONDS, ESM, FigureAccess, check_points, check_table
from dpteach.widgets._base import HANDLE_COLOR

FACTORIES = widget_factories()


def _descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _descendants(child)


def _assert_table(table: dict) -> None:
    if not table:
        return
    assert set(table) == {"caption", "columns", "rows"} and table["caption"].strip()
    assert table["columns"] and all(isinstance(c, str) and c for c in table["columns"])
    assert 0 < len(table["rows"]) <= 25
    assert all(len(row) == len(table["columns"]) and all(isinstance(cell, str) for cell in row)
               for row in table["rows"])


@pytest.mark.parametrize("factory", list(FACTORIES.values()), ids=list(FACTORIES))
def test_every_figure_has_a_text_alternative_that_follows_its_controls(factory):
    w = factory()
    assert isinstance(w, Interactive) and isinstance(w.access, FigureAccess)
    assert w.access in list(_descendants(w.widget)), "the access widget is not displayed with the figure"
    assert w.access.alt.strip() and w.access.alt == w.figure.alt_text()
    _assert_table(w.access.table)
    for name, control in w.controls.items():
        other = next(v for v in control_values(control, 3) if v != control.value)
        w.set(**{name: other})
        # the alternative, the table and the points are the figure's at the values drawn, after every move
        assert w.access.alt == w.figure.alt_text(), f"{name} = {other!r}: the alt is not the figure's now"
        assert w.access.alt.strip()
        _assert_table(w.access.table)
        assert w.access.points == check_points(getattr(w.figure, "explore_points", list)(), w.figure)
        w.reset()
        assert w.access.alt == w.figure.alt_text()


@pytest.mark.parametrize("factory", list(FACTORIES.values()), ids=list(FACTORIES))
def test_the_text_alternative_changes_when_a_control_changes_the_picture(factory):
    w = factory()
    changed = False
    for name, control in w.controls.items():
        before_png, before_alt = bytes(w.image.value), w.access.alt
        w.set(**{name: next(v for v in control_values(control, 3) if v != control.value)})
        changed |= bytes(w.image.value) != before_png and w.access.alt != before_alt
        w.reset()
    assert changed, "no control changed the figure's text alternative"


def test_a_trait_is_sent_only_when_it_changed():
    w = FACTORIES["dpteach.widgets.laplace.laplace_density"]()
    sent = []
    w.access.observe(lambda change: sent.append(change["name"]), names=["alt", "table", "points"])
    w.redraw()                       # the same values: nothing new to say
    assert sent == []
    w.set(epsilon=2.0)
    assert sent[0] == "alt" and set(sent) <= {"alt", "table", "points"} and len(sent) == len(set(sent))


class _Loop:
    """A stand-in for the kernel's event loop, on a clock the test moves."""

    def __init__(self):
        self.now, self.due = 0.0, {}

    def call_later(self, seconds, callback):
        handle = object()
        self.due[handle] = (self.now + seconds, callback)
        return handle

    def remove_timeout(self, handle):
        del self.due[handle]

    def advance(self, seconds):
        """Move the clock on, running what falls due on the way (and what that schedules within the time)."""
        end = self.now + seconds
        while self.due and min(t for t, _ in self.due.values()) <= end:
            handle, (when, callback) = min(self.due.items(), key=lambda item: item[1][0])
            del self.due[handle]
            self.now = when
            callback()
        self.now = end


def test_in_a_kernel_the_table_and_points_follow_once_the_controls_rest(monkeypatch):
    """A drag sends the text alternative with every frame, the table and the walkable points (milliseconds to build)
    once the controls rest: only the newest is scheduled, and it describes the frame shown last. A value set by code
    (a cell, or a notebook executed headless, whose saved state the book shows) sends them at once."""
    from dpteach.widgets import _base
    loop = _Loop()
    monkeypatch.setattr(_base, "_kernel_loop", lambda: loop)
    w = FACTORIES["dpteach.widgets.laplace.laplace_density"]()
    loop.advance(1)
    sent = []
    w.access.observe(lambda change: sent.append(change["name"]), names=["alt", "table", "points"])
    control = w.controls["epsilon"]
    for epsilon in (2.0, 3.0, 4.0):        # a drag: values as the browser sends them (under the property lock)
        with control._lock_property(value=epsilon):
            control.value = epsilon
        loop.advance(0.05)                  # a frame every 50 ms
    assert set(sent) == {"alt"} and len(loop.due) == 1 and w.access.alt == w.figure.alt_text()
    loop.advance(DETAILS_SECONDS)           # the controls rest
    assert sorted(sent[-2:]) == ["points", "table"] and not loop.due
    assert w.access.table == check_table(w.figure.data_table(), w.figure)
    assert w.access.points == check_points(w.figure.explore_points(), w.figure)
    w.set(epsilon=0.5)
    assert not loop.due and w.access.table == check_table(w.figure.data_table(), w.figure)


def test_the_reset_button_is_marked_and_the_handles_have_contrast():
    w = FACTORIES["dpteach.widgets.laplace.laplace_density"]()
    resets = [b for b in _descendants(w.widget) if isinstance(b, widgets.Button) and b.description == "Reset"]
    assert len(resets) == 1 and "dpteach-reset" in resets[0]._dom_classes
    for control in w.controls.values():
        assert control.style.handle_color == HANDLE_COLOR

    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    def contrast(a: str, b: str) -> float:
        high, low = sorted((luminance(a), luminance(b)), reverse=True)
        return (high + 0.05) / (low + 0.05)
    # against the page and against JupyterLab's light track (--jp-layout-color3): WCAG 1.4.11's 3:1
    assert contrast(HANDLE_COLOR, "#ffffff") >= 3 and contrast(HANDLE_COLOR, "#bdbdbd") >= 3


def test_a_precomputed_view_keeps_each_frames_alternative_linked_to_its_slider():
    from dpteach.widgets import laplace_density
    view = precomputed(laplace_density, "epsilon", [0.5, 1, 2])
    assert len(view.alts) == len(view.frames) == 3 and len(set(view.alts)) == 3
    source = laplace_density()
    for value, alt in zip([0.5, 1, 2], view.alts):
        source.set(epsilon=value)
        assert alt == source.figure.alt_text()
    assert view.access.alts == view.alts and view.access.index == view.slider.index
    link = view.access_link      # a jslink: the browser moves the index, with no kernel
    assert isinstance(link, widgets.widgets.widget_link.Link) and link.source == (view.slider, "index") and link.target == (view.access, "index")
    assert view.access in view.widget.children and "dpteach-precomputed" in view.widget._dom_classes


def test_malformed_tables_and_points_are_refused_naming_the_figure():
    class Fig:
        pass
    with pytest.raises(ValueError, match="Fig.data_table"):
        check_table({"caption": "c", "columns": ["a", "b"], "rows": [["1"]]}, Fig())
    with pytest.raises(ValueError, match="Fig.data_table"):
        check_table({"columns": ["a"], "rows": []}, Fig())
    with pytest.raises(ValueError, match="Fig.explore_points"):
        check_points([{"name": "n", "points": [[0, 1]]}], Fig())
    assert check_table(None) == {}
    good = check_points([{"name": "f", "x": "x", "y": "y", "points": [[0, 1], [1, float("nan")]]}])
    assert good == [{"name": "f", "x": "x", "y": "y", "points": [[0.0, 1.0]]}]    # JSON has no NaN


def test_the_front_end_is_self_contained():
    """No URL, no import, no global: it runs offline in the lab, the slides and the book."""
    assert not re.search(r"https?://", ESM)
    assert not re.search(r"^\s*import\b|\bimport\s*\(|\brequire\s*\(", ESM, re.M)
    assert not re.search(r"\bwindow\.\w+\s*=|\bglobalThis\.\w+\s*=", ESM)
    assert re.search(r"export function render\(\{ model, el \}\)", ESM)
    for needed in ('role", "status"', 'aria-live", "polite"', "aria-expanded", 'th.scope = "col"', "aria-valuetext",
                   "aria-pressed", "MutationObserver"):
        assert needed in ESM, needed


@pytest.mark.slow
def test_the_front_end_ships_in_the_wheel(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("dpteach-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        assert z.read("dpteach/widgets/a11y.js").decode() == (ROOT / "dpteach" / "widgets" / "a11y.js").read_text()
