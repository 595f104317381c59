"""The blitting renderer: every slider frame equals a full draw of the same state, with its titles in view.

A figure lists the artists its ``update`` changes (``dynamic``); the renderer caches the
rest. An artist that changes but is not listed would keep its old pixels: a silently wrong
frame. So for every slider of every widget, each frame is compared, pixel for pixel, with a
full ``canvas.draw()`` of the same state. And since the axes are fixed over each control's
whole range, moving a control never rebuilds the cached background (static_key aside).
"""

import inspect
import io

import numpy as np
import PIL.Image
import pytest

import dpteach as dp
from dpteach import plots
from dpteach.plots._render import encode_png


def _factories():
    out = []
    for name in sorted(dp.widgets.__all__):
        obj = getattr(dp.widgets, name)
        if inspect.isfunction(obj) and inspect.signature(obj).return_annotation in ("Interactive", dp.widgets.Interactive):
            out.append(obj)
    return out


FACTORIES = _factories()


def _walk(control, n: int = 5) -> list:
    """n values across the control's whole range (ends included), as a student drags it."""
    if isinstance(control.value, bool):
        return [not control.value, control.value]
    if hasattr(control, "options") and not hasattr(control, "min"):
        opts = [o[1] if isinstance(o, tuple) else o for o in control.options]
        picks = sorted({0, len(opts) // 3, len(opts) // 2, 2 * len(opts) // 3, len(opts) - 1})
        return [opts[i] for i in picks]
    if hasattr(control, "base"):
        grid = control.base ** np.linspace(control.min, control.max, n)
    else:
        grid = np.linspace(control.min, control.max, n)
    return [type(control.value)(round(v) if isinstance(control.value, int) else v) for v in grid]


def _assert_titles_fit(fig, where: str) -> None:
    """A title that changes with a slider is drawn where the layout put it (constrained layout does not
    widen the figure for it), so a long one would be clipped: each title lies inside the figure, and no
    two titles overlap."""
    renderer = fig.canvas.get_renderer()
    boxes = [(ax.title.get_text(), ax.title.get_window_extent(renderer)) for ax in fig.axes if ax.title.get_text().strip()]
    for text, box in boxes:
        assert box.x0 >= -1 and box.x1 <= fig.bbox.width + 1, f"{where}: title clipped: {text!r}"
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            assert not box_a.overlaps(box_b), f"{where}: titles overlap: {a!r} and {b!r}"


def _full_draw(figure) -> np.ndarray:
    figure.fig.canvas.draw()
    return np.asarray(figure.fig.canvas.buffer_rgba())[:, :, :3].astype(int)


def test_encode_png_round_trips():
    rgba = np.random.default_rng(0).integers(0, 256, size=(37, 53, 4), dtype=np.uint8)
    back = np.asarray(PIL.Image.open(io.BytesIO(encode_png(rgba))))
    assert back.shape == (37, 53, 3) and np.array_equal(back, rgba[:, :, :3])
    with_alpha = np.asarray(PIL.Image.open(io.BytesIO(encode_png(rgba, alpha=True))))
    assert np.array_equal(with_alpha, rgba)


def test_every_slider_figure_declares_its_dynamic_artists():
    """Every widget's figure is blitted: it says which artists its update changes."""
    missing = [f.__name__ for f in FACTORIES if not f().figure.dynamic]
    assert not missing, f"figures drawn whole on every frame: {missing}"


@pytest.mark.parametrize("presentation", [False, True], ids=["laptop", "projector"])
@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_blitted_frames_equal_full_draws(factory, presentation):
    try:
        plots.presentation(presentation)
        widget = factory()
        if not widget.figure.dynamic:
            pytest.skip("figure drawn whole on every frame")
        for name, control in widget.controls.items():
            for value in _walk(control):
                widget.set(**{name: value})
                blit = widget.figure.frame()[:, :, :3].astype(int)
                full = _full_draw(widget.figure)
                assert blit.shape == full.shape
                # Anti-aliased edges may differ by a level or two where an overlay is composited;
                # a stale artist (changed but not declared dynamic) differs by far more.
                off = np.abs(blit - full).max(axis=2) > 40
                assert off.sum() <= 3, (f"{factory.__name__}: {name} = {value!r}: {off.sum()} pixels differ from a "
                                        "full draw (an artist update() changes is missing from figure.dynamic?)")
                _assert_titles_fit(widget.figure.fig, f"{factory.__name__}: {name} = {value!r}")
            widget.reset()
    finally:
        plots.presentation(False)


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_moving_a_control_keeps_the_cached_background(factory):
    """Fixed axes: a sweep of every control rebuilds the cache at most once per static_key value."""
    widget = factory()
    if not widget.figure.dynamic:
        pytest.skip("figure drawn whole on every frame")
    widget.figure.png()
    renderer = widget.figure._renderer
    keys = {widget.figure.static_key()}
    for name, control in widget.controls.items():
        for value in _walk(control):
            widget.set(**{name: value})
            keys.add(widget.figure.static_key())
        widget.reset()
    assert renderer.rebuilds <= len(keys), (
        f"{factory.__name__}: {renderer.rebuilds} background rebuilds for {len(keys)} static states: "
        "the axes move with a control")

