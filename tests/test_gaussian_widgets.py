"""The Gaussian and Generalized Gaussian sliders: they drive figures, and what they draw is the maths.

Like tests/test_laplace_widgets.py: no browser; setting a control fires the same callback a drag does,
and ``Interactive.result`` holds the numbers the figure was drawn with.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import plots, widgets

FACTORIES = [widgets.sensitivity_norms, widgets.gaussian_calibration, widgets.generalized_gaussian_density,
             widgets.error_tradeoff]


def _extremes(control):
    """The first, last and default of a selection; the minimum, maximum and default of a slider."""
    if hasattr(control, "options") and not hasattr(control, "min"):
        values = [v for _, v in control.options] if isinstance(control.options[0], tuple) else list(control.options)
        return [values[0], values[-1], control.value]
    if hasattr(control, "base"):   # log slider: min/max are exponents
        return [control.base ** control.min, control.base ** control.max, control.value]
    return [control.min, control.max, control.value]


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_every_control_at_its_extremes_redraws_without_error(factory):
    """The slider sweep: min, max and default of every control, alone and all together."""
    w = factory()
    assert bytes(w.image.value).startswith(b"\x89PNG")
    for name, control in w.controls.items():
        for value in _extremes(control):
            w.set(**{name: value})
            assert w.status.value == "", w.status.value
            assert bytes(w.image.value).startswith(b"\x89PNG")
            assert w.result
    for corner in (0, 1):
        w.set(**{name: _extremes(c)[corner] for name, c in w.controls.items()})
        assert w.status.value == "", w.status.value
    w.reset()
    assert w.values() == w.defaults


def test_every_p_and_k_of_the_tradeoff_redraws():
    w = widgets.error_tradeoff()
    for p in plots.ErrorTradeoffFigure.P_OPTIONS:
        for k in (10, 1_000, 10_000):
            r = w.set(p=p, k=k)
            assert w.status.value == ""
            assert np.all(np.isfinite(r["generalized"])) and np.all(r["sigmas"] > 0)


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_moving_a_slider_changes_the_image(factory):
    w = factory()
    first = bytes(w.image.value)
    name, control = next(iter(w.controls.items()))
    values = _extremes(control)
    w.set(**{name: values[1] if values[1] != control.value else values[0]})
    assert bytes(w.image.value) != first


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_figures_update_in_place_and_text_is_stable_for_nbval(factory):
    w = factory()
    fig, artists = w.figure.fig, [list(ax.get_children()) for ax in w.figure.fig.axes]
    name, control = list(w.controls.items())[-1]
    w.set(**{name: _extremes(control)[0]})
    assert w.figure.fig is fig
    assert [list(ax.get_children()) for ax in fig.axes] == artists
    assert w._repr_mimebundle_()["text/plain"].startswith("Interactive figure:")


def test_sensitivity_norms_draw_k_against_root_k():
    r = widgets.sensitivity_norms().set(epsilon=0.5, delta=1e-6)
    ks = r["k"]
    assert np.allclose(r["laplace_std"], math.sqrt(2) * ks / 0.5)
    assert np.allclose(r["gaussian_std"], np.sqrt(ks) * dp.gaussian_sigma(1.0, 0.5, 1e-6))
    crossing = r["crossover"]
    assert math.sqrt(2) * crossing / 0.5 == pytest.approx(math.sqrt(crossing) * r["sigma_per_unit_sensitivity"])


def test_gaussian_calibration_shows_the_check_values():
    w = widgets.gaussian_calibration()
    r = w.result
    assert round(r["sigma"], 3) == 3.731
    assert math.isnan(r["classical_sigma"])            # ε = 1: Theorem 3.22 does not apply
    r = w.set(epsilon=0.5)
    assert r["classical_sigma"] == pytest.approx(dp.classical_gaussian_sigma(1.0, 0.5, 1e-5))
    assert np.all(r["analytic"][r["grid"] < 1] < r["classical"][r["grid"] < 1])
    assert "Theorem 3.22" in w.figure.title()


def test_density_has_unit_variance_and_reduces_to_laplace_and_gaussian():
    w = widgets.generalized_gaussian_density()
    for p in (1.0, 2.0, 3.3, 8.0):
        r = w.set(p=p)
        x, pdf = r["x"], r["pdf"]
        assert dp.generalized_gaussian_variance(p, r["sigma"]) == pytest.approx(1.0)
        assert np.trapezoid(pdf, x) == pytest.approx(1.0, abs=2e-3)
        assert r["samples"].var() == pytest.approx(1.0, rel=0.05)
    assert w.set(p=1.0)["kurtosis"] == pytest.approx(6.0)    # Laplace
    assert w.set(p=2.0)["kurtosis"] == pytest.approx(3.0)    # Gaussian


def test_tradeoff_matches_the_accountant():
    """At k = 10,000, (1, 10⁻⁶) the table's σ is within 0.5% of a direct calibration, and the
    Gaussian point is the analytic Gaussian."""
    w = widgets.error_tradeoff()
    r = w.set(p=4.0, k=10_000, epsilon=1.0, delta=1e-6)
    direct = dp.generalized_gaussian_sigma(10_000, 4.0, 1.0, 1e-6)
    assert r["sigmas"][plots.ErrorTradeoffFigure.P_OPTIONS.index(4.0)] == pytest.approx(direct, rel=5e-3)
    i = plots.ErrorTradeoffFigure.K_OPTIONS.index(10_000)
    gauss = dp.expected_linf_noise(10_000, 2.0, math.sqrt(2) * dp.gaussian_sigma(100.0, 1.0, 1e-6))
    assert r["gaussian"][i] == pytest.approx(gauss, rel=1e-9)
    assert r["laplace"][i] == pytest.approx(dp.expected_linf_error(10_000, 10_000, 1.0))
    assert r["linf_ratio"][plots.ErrorTradeoffFigure.P_OPTIONS.index(2.0)] == pytest.approx(1.0, abs=5e-3)
    assert 0.1 < r["linf_gain"] < 0.3


def test_tradeoff_refuses_values_it_has_no_table_for():
    with pytest.raises(ValueError, match="p must be one of"):
        widgets.error_tradeoff(p=2.1)
    with pytest.raises(ValueError, match="p must be one of"):
        plots.ErrorTradeoffFigure().update(2.1, 100, 1.0, 1e-6)


def test_static_figures_report_their_numbers():
    curve = plots.PrivacyCurveFigure(k=100)
    assert curve.data["laplace_max_abs_error"] < 1e-5 and curve.data["gaussian_max_rel_error"] < 1e-3
    d = np.zeros(500)
    refined = dp.sparse_vector_refinement(d, 3.0, 1.0, 1e-6, c=3, rng=np.random.default_rng(0))
    fig = plots.SparseVectorFigure(refined, d)
    assert np.allclose(fig.data["before"], np.abs(refined.first_release))
    assert "before" in fig.title()
    with pytest.raises(TypeError, match="result must come from"):
        plots.SparseVectorFigure("not a result", d)


def test_delta_slider_spans_ten_to_the_minus_ten_to_a_hundredth():
    s = widgets.privacy_delta_slider()
    assert math.isclose(s.base ** s.min, 1e-10) and math.isclose(s.base ** s.max, 1e-2)


def test_calibration_curves_are_computed_once_per_delta(monkeypatch):
    """Both curves depend on δ alone: an ε drag reuses them (60 bisections each time, otherwise), and
    what is reused equals a fresh computation and cannot be changed through a result."""
    import dpteach.plots.gaussian as figures

    fig = figures.GaussianCalibrationFigure()
    calls = []
    real = figures.gaussian_sigma_curve
    monkeypatch.setattr(figures, "gaussian_sigma_curve", lambda *a, **k: calls.append(a) or real(*a, **k))
    for eps in (0.1, 0.5, 2.0):
        fig.update(eps, 1e-5)
    assert len(calls) == 1
    result = fig.update(0.3, 1e-6)
    assert len(calls) == 2
    np.testing.assert_array_equal(result["analytic"], real(fig.grid, 1e-6))
    assert not result["analytic"].flags.writeable and not result["classical"].flags.writeable
    with pytest.raises(ValueError, match="delta"):
        fig.update(0.3, 2.0)
