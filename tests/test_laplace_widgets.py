"""The Laplace sliders (the density, Theorem 3.6's privacy loss) and the Interactive machinery:
drive each widget from code and check what it drew.

No browser here: setting a control's value fires the same callback a drag does, and
``Interactive.result`` holds the numbers the figure was updated with.
"""

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import plots, widgets


def test_tail_figure_matches_fact_3_7():
    rng = np.random.default_rng(7)
    f = plots.TailFigure(rng.laplace(0, 2.0, 100_000), scale=2.0)
    t1 = np.argmin(np.abs(f.t - 1.0))
    assert f.empirical[t1] == pytest.approx(math.exp(-f.t[t1]), abs=0.01)


def test_laplace_density_follows_b_equals_sensitivity_over_epsilon():
    w = widgets.laplace_density()
    r = w.set(epsilon=0.5, sensitivity=2.0)
    assert r["scale"] == pytest.approx(4.0)
    assert r["pdf"].max() == pytest.approx(1 / (2 * 4.0), rel=1e-3)
    assert "b = Δf/ε = 4" in w.figure.title()


def test_privacy_loss_stays_in_the_band_and_leaves_it_when_understated():
    """Theorem 3.6 on screen: |loss| ≤ ε; calibrating to Δf/2 doubles the worst loss."""
    w = widgets.privacy_loss()
    for eps in (0.05, 0.7, 3.0):
        for sens in (0.5, 1.0, 4.0):
            r = w.set(epsilon=eps, sensitivity=sens, understate=False)
            assert r["inside"] and r["max_abs_loss"] == pytest.approx(eps)
            r = w.set(understate=True)
            assert not r["inside"] and r["max_abs_loss"] == pytest.approx(2 * eps)


def test_privacy_loss_with_k_counts_is_k_shares_of_at_most_eps_over_k():
    """Theorem 3.6 for k counts each moved by Δf/k: every share within ±ε/k, the total within ±ε;
    understated, the total reaches 2ε."""
    w = widgets.privacy_loss()
    for eps in (0.1, 1.0, 4.0):
        for sens in (1.0, 3.0):
            for k in (1, 2, 3, 10):
                r = w.set(epsilon=eps, sensitivity=sens, k=k, understate=False)
                assert r["k"] == k and r["inside"]
                assert r["max_abs_loss"] == pytest.approx(eps)
                assert r["max_abs_share"] == pytest.approx(eps / k)
                np.testing.assert_allclose(r["loss"], k * r["share"], atol=1e-12)
                assert w.set(understate=True)["max_abs_loss"] == pytest.approx(2 * eps)


def test_privacy_loss_share_label_agrees_with_the_dashed_line():
    """The line of text that names one count's share says what the dashed line does: inside the darker
    band [−ε/k, ε/k] when the noise is calibrated to Δf (Theorem 3.6), out to ±2ε/k (outside it) when Δf
    is understated as Δf/2. The band and the line are read from the drawn artists."""
    import re

    w = widgets.privacy_loss()
    fig = w.figure
    for eps in (0.1, 1.0):
        for k in (2, 4, 10):
            for understate in (False, True):
                r = w.set(epsilon=eps, sensitivity=2.0, k=k, understate=understate)
                line_top = np.abs(fig.share.get_ydata()).max()           # in units of ε
                band = fig.share_band.get_path().transformed(fig.share_band.get_patch_transform()).vertices[:, 1]
                band_top = band.max()
                assert band_top == pytest.approx(1 / k)
                assert line_top == pytest.approx((2 if understate else 1) / k)
                assert r["max_abs_share"] == pytest.approx(r["share_bound"])
                note = fig.share_note.get_text()
                assert fig.share_note.get_visible() and note == r["share_note"]
                printed = float(re.search(r"±?([0-9.]+)ε", note.split("=")[-1].replace("−", "")).group(1))
                assert printed == pytest.approx(line_top, rel=5e-3)
                if understate:
                    assert "outside" in note and "inside" not in note and line_top > band_top * 1.5
                else:
                    assert "inside" in note and line_top <= band_top * (1 + 1e-9)
    assert not w.set(k=1)["share_note"] and not fig.share_note.get_visible()


def test_unknown_control_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown control"):
        widgets.laplace_density().set(delta=0.1)


def test_a_failing_update_shows_a_message_not_a_traceback():
    w = widgets.laplace_density()
    w._update = lambda **kw: dp.laplace_scale(0, 1)   # what a bad value would do
    w.redraw()
    assert "sensitivity must be" in w.status.value


def test_widget_text_is_stable_for_nbval():
    """The text/plain nbval compares is one fixed line, not a repr full of PNG bytes."""
    w = widgets.laplace_density()
    bundle = w._repr_mimebundle_()
    assert bundle["text/plain"].startswith("Interactive figure:")
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_epsilon_slider_spans_a_hundredth_to_ten_on_a_log_scale():
    s = widgets.epsilon_slider()
    assert math.isclose(s.base ** s.min, 0.01) and math.isclose(s.base ** s.max, 10)


def test_figures_update_in_place_rather_than_rebuild():
    w = widgets.privacy_loss()
    fig, lines = w.figure.fig, list(w.figure.fig.axes[1].lines)
    w.set(epsilon=2.0)
    assert w.figure.fig is fig and list(fig.axes[1].lines) == lines
    assert np.isfinite(w.result["loss"]).all()


def test_privacy_loss_axes_stay_put_over_every_control_and_draw_the_loss_in_units_of_eps():
    """Fixed axes (the renderer's background is drawn once): moving ε, Δf, k or the toggle changes no
    limit; the bottom panel draws loss/ε, so the band [−ε, ε] is [−1, 1] on screen at every ε."""
    w = widgets.privacy_loss()
    fig = w.figure
    limits = (fig.top.get_xlim(), fig.top.get_ylim(), fig.bottom.get_ylim())
    for eps in (0.01, 0.3, 10.0):
        for sens in (0.5, 5.0):
            for k in (1, 10):
                for understate in (False, True):
                    r = w.set(epsilon=eps, sensitivity=sens, k=k, understate=understate)
                    assert (fig.top.get_xlim(), fig.top.get_ylim(), fig.bottom.get_ylim()) == limits
                    np.testing.assert_allclose(fig.loss.get_ydata(), r["loss"] / eps)
                    assert np.abs(fig.loss.get_ydata()).max() == pytest.approx(2.0 if understate else 1.0)
                    # every density peak 1/(2b) fits under the top of the density axis
                    assert 1 / (2 * r["scale"]) < limits[1][1]
    assert limits[0] == fig.Z_RANGE


def test_privacy_loss_grid_holds_the_kinks_of_the_loss():
    """The outputs f(x) = 0 and f(y) = Δf/k are on the grid, so the drawn peaks and corners are exact."""
    r = widgets.privacy_loss().set(epsilon=2.0, sensitivity=0.5, k=7)
    assert 0.0 in r["z"] and 0.5 / 7 in r["z"]
    assert r["px"].max() == pytest.approx(1 / (2 * r["scale"]))
