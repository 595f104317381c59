"""Theorem 3.8's failure probability is called ``beta`` in the code as in the chapters (β; the book's δ).

The old keyword ``delta=`` still works, with a DeprecationWarning that names ``beta``; positional calls
are unchanged; passing both, or neither, is a TypeError; a bad value is refused naming ``beta``.
"""

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import widgets

DEPRECATED = [
    (dp.laplace_accuracy_bound, (10_000,), dict(sensitivity=1, epsilon=1)),
    (dp.linf_error_quantile, (10_000,), dict(sensitivity=1, epsilon=1)),
]


@pytest.mark.parametrize("func, args, kwargs", DEPRECATED, ids=lambda v: getattr(v, "__name__", ""))
def test_positional_beta_and_delta_give_the_same_number(func, args, kwargs):
    positional = func(*args, 0.05, *kwargs.values())
    assert func(*args, beta=0.05, **kwargs) == positional
    with pytest.warns(DeprecationWarning, match="beta") as record:
        assert func(*args, delta=0.05, **kwargs) == positional
    assert record[0].filename == __file__            # the warning points at the caller's line


@pytest.mark.parametrize("func, args, kwargs", DEPRECATED, ids=lambda v: getattr(v, "__name__", ""))
def test_both_names_or_none_is_a_type_error(func, args, kwargs):
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="both beta and its deprecated name"):
        func(*args, beta=0.05, delta=0.05, **kwargs)
    with pytest.raises(TypeError, match="missing required argument: 'beta'"):
        func(*args, **kwargs)
    with pytest.raises(TypeError, match="'epsilon'"):
        func(*args, 0.05, sensitivity=1)


@pytest.mark.parametrize("bad", [0.0, 1.5, float("nan")])
def test_a_bad_beta_is_refused_naming_beta(bad):
    with pytest.raises(ValueError, match=r"beta must be a finite number in \(0, 1\]"):
        dp.laplace_accuracy_bound(10, bad, 1, 1)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="beta must be"):
        dp.laplace_accuracy_bound(10, delta=bad, sensitivity=1, epsilon=1)


def test_accuracy_monte_carlo_takes_beta_and_reports_it():
    kwargs = dict(sensitivity=1, epsilon=1, runs=20)
    mc = dp.accuracy_monte_carlo(np.zeros(100), beta=0.1, rng=np.random.default_rng(3), **kwargs)
    assert mc.beta == 0.1 and mc.bound == pytest.approx(math.log(100 / 0.1))
    with pytest.warns(DeprecationWarning, match="beta"):
        old = dp.accuracy_monte_carlo(np.zeros(100), delta=0.1, rng=np.random.default_rng(3), **kwargs)
    assert np.array_equal(old.errors, mc.errors) and old.bound == mc.bound
    with pytest.warns(DeprecationWarning, match="beta"):
        assert mc.delta == mc.beta


def test_the_widget_control_is_beta():
    w = widgets.accuracy_bound()
    assert "beta" in w.controls and "delta" not in w.controls
    r = w.set(beta=0.01)
    assert r["bound"] == pytest.approx(dp.laplace_accuracy_bound(10_000, 0.01, 1, 1))
    with pytest.warns(DeprecationWarning, match="beta"):
        old = widgets.accuracy_bound(delta=0.01)
    assert old.values()["beta"] == w.values()["beta"]
    view = widgets.precomputed(widgets.accuracy_bound, "beta", [0.01, 0.05])
    assert view.results[0]["bound"] == pytest.approx(dp.laplace_accuracy_bound(10_000, 0.01, 1, 1))
    with pytest.raises(ValueError, match="control must be one of"):
        widgets.precomputed(widgets.accuracy_bound, "delta", [0.01, 0.05])
