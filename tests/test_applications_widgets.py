"""The sliders of the applications chapter (a hospital, a shop, a city, a survey, DP-SGD): the numbers each figure draws."""

import math

import numpy as np
import pytest

from dpteach import plots, widgets


def test_hospital_count_turns_epsilon_into_a_belief_bound():
    w = widgets.hospital_count()
    for eps in (0.1, 1.0, 5.0):
        r = w.set(epsilon=eps)
        assert r["posterior_bound"] == pytest.approx(math.exp(eps) / (1 + math.exp(eps)))
        assert np.max(r["with"] / r["without"]) <= math.exp(eps) * (1 + 1e-9)
        assert r["within_95"] == pytest.approx(math.log(20) / eps)


def test_purchase_histogram_sensitivity_is_the_cap_and_the_cap_trades_bias_for_noise():
    w = widgets.purchase_histogram()
    r1, r20 = w.set(cap=1, epsilon=1.0), w.set(cap=20, epsilon=1.0)
    assert r1["sensitivity"] == 1 and r20["sensitivity"] == 20 and r20["scale"] == pytest.approx(20.0)
    assert r1["dropped"] > r20["dropped"] >= 0
    assert 1 < r1["best_cap"] < 20                    # neither extreme is best at ε = 1
    assert w.set(epsilon=0.01)["best_cap"] < r1["best_cap"]   # less budget, smaller cap


def test_location_central_beats_local_at_the_same_epsilon():
    w = widgets.location_density()
    for eps in (0.1, 1.0, 10.0, 100.0):
        r = w.set(epsilon=eps, cells=20)
        assert r["central_error"] < r["local_error"]
        assert r["local_scale"] == pytest.approx(20.0 / eps)
        assert r["truth"].shape == (20, 20)


def test_local_error_grows_relative_to_central_with_n():
    w = widgets.local_vs_central()
    small, large = w.set(n=100, epsilon=1.0)["ratio"], w.set(n=1_000_000)["ratio"]
    assert large == pytest.approx(small * 100)        # √n apart: ratio ∝ √n, n up 10⁴
    r = w.result
    assert np.std(r["local_estimates"]) == pytest.approx(r["local_std"], rel=0.1)


def test_dpsgd_accuracy_grows_with_epsilon_and_its_noise_scale_is_stated():
    w = widgets.dpsgd_accuracy()
    hi = w.set(epsilon=10.0, clip=1.0)
    lo = w.set(epsilon=0.01, clip=1.0)
    assert hi["median_accuracy"] > lo["median_accuracy"]
    assert hi["median_accuracy"] > hi["baseline_accuracy"] - 0.02
    assert lo["noise_scale"] == pytest.approx(1.0 * 20 / 0.01)


def test_location_density_counts_each_grid_once_and_keeps_a_background_per_grid():
    w = widgets.location_density()
    fig = w.figure
    assert sorted(fig._truth) == [5, 10, 20, 40]            # every grid counted when the widget was built
    built = fig._renderer.rebuilds
    for cells in (5, 40, 10, 20, 5):
        for eps in (0.1, 3.0, 100.0):
            w.set(epsilon=eps, cells=cells)
    assert fig._renderer.rebuilds == built                    # every grid's background was pre-rendered


def test_location_density_rebuilds_the_colour_bar_only_when_something_draws_it(monkeypatch):
    """Back at a grid seen before, the frame is blitted on its cached background: the colour bar (about 5 ms to
    rebuild) is left as it was until a full draw or a layout reads it, and then shows the grid's scale."""
    w = widgets.location_density()
    fig = w.figure
    rebuilt = []
    real = type(fig.colorbar)._draw_all                 # what update_normal does, however it is called
    monkeypatch.setattr(type(fig.colorbar), "_draw_all", lambda bar: rebuilt.append(1) or real(bar))
    for cells in (5, 40, 10):
        w.set(epsilon=1.0, cells=cells)
    assert rebuilt == []
    assert fig.colorbar.ax.get_ylim() == (0.0, float(fig.truth(10).max()))    # the axes' limits at once
    fig.colorbar.ax.get_tightbbox(fig.fig.canvas.get_renderer())              # a layout reads the bar
    assert len(rebuilt) == 1 and fig.colorbar.vmax == float(fig.truth(10).max())
    w.set(cells=40)
    with plots.styled():
        fig.fig.canvas.draw()                                                  # a full draw
    assert len(rebuilt) == 2 and fig.colorbar.vmax == float(fig.truth(40).max())


def test_local_vs_central_dots_simulate_fewer_surveys_and_still_sit_on_the_theory():
    """A dot is the std of dot_runs (500) simulated surveys: ±3% (relative standard error 1/√1000), so each of the
    18 dots is within 15% of its curve (4.7 standard errors: a chance below 1e-5 per figure; the draws are seeded)."""
    w = widgets.local_vs_central()
    fig = w.figure
    assert (fig.dot_runs, fig.runs) == (500, 2_000)
    for epsilon in (0.5, 2.0):
        w.set(epsilon=epsilon)
        n = np.array(fig.N_GRID, dtype=float)
        for dots, line in ((fig.local_dots, fig.local_line), (fig.central_dots, fig.central_line)):
            theory = np.interp(np.log(n), np.log(fig.n_line), np.log(line.get_ydata()))
            assert np.abs(np.log(np.asarray(dots.get_ydata())) - theory).max() < np.log(1.15)
