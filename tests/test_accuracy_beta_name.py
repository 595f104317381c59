"""Theorem 3.8's failure probability is called ``beta`` in the code as in the chapters (β; the book's δ).

One name throughout: the maths, the slider, the figure and the result records take ``beta``. The
package was never released, so the old keyword ``delta=`` has no shim: it is refused as any unknown
keyword is (a TypeError naming ``delta``), and nothing in the maths, widgets or plots warns about it.
"""

import ast
import inspect
import math
from pathlib import Path

import numpy as np
import pytest

import dpteach as dp
from dpteach import plots, widgets

ROOT = Path(dp.__file__).parent
BETA_TAKERS = [
    (dp.laplace_accuracy_bound, (10_000,), dict(sensitivity=1, epsilon=1)),
    (dp.linf_error_quantile, (10_000,), dict(sensitivity=1, epsilon=1)),
    (dp.accuracy_monte_carlo, (np.zeros(10),), dict(sensitivity=1, epsilon=1, runs=5)),
    (dp.histogram_noise, (1, 1.0, 10), {}),
    (widgets.accuracy_bound, (), {}),
]
IDS = [f.__name__ for f, *_ in BETA_TAKERS]


@pytest.mark.parametrize("func, args, kwargs", BETA_TAKERS, ids=IDS)
def test_beta_is_the_only_name_and_delta_is_refused(func, args, kwargs):
    params = inspect.signature(func).parameters
    assert "beta" in params and "delta" not in params
    assert not any(p.kind is p.VAR_KEYWORD for p in params.values())
    with pytest.raises(TypeError, match="unexpected keyword argument 'delta'"):
        func(*args, delta=0.05, **kwargs)


def test_positional_and_keyword_beta_give_the_same_number():
    for func in (dp.laplace_accuracy_bound, dp.linf_error_quantile):
        assert func(10_000, beta=0.05, sensitivity=1, epsilon=1) == func(10_000, 0.05, 1, 1)
    with pytest.raises(TypeError, match="'epsilon'"):
        dp.laplace_accuracy_bound(10_000, 0.05, sensitivity=1)


@pytest.mark.parametrize("bad", [0.0, 1.5, float("nan")])
def test_a_bad_beta_is_refused_naming_beta(bad):
    for func in (dp.laplace_accuracy_bound, dp.linf_error_quantile):
        with pytest.raises(ValueError, match=r"beta must be a finite number in \(0, 1\]"):
            func(10, bad, 1, 1)
    with pytest.raises(ValueError, match="beta"):
        widgets.accuracy_bound(beta=bad)


def test_accuracy_monte_carlo_takes_beta_and_reports_it():
    mc = dp.accuracy_monte_carlo(np.zeros(100), beta=0.1, sensitivity=1, epsilon=1, runs=20,
                                 rng=np.random.default_rng(3))
    assert mc.beta == 0.1 and mc.bound == pytest.approx(math.log(100 / 0.1))
    assert not hasattr(mc, "delta")


def test_the_widget_control_the_figure_and_its_result_are_beta():
    w = widgets.accuracy_bound()
    assert "beta" in w.controls and "delta" not in w.controls
    r = w.set(beta=0.01)
    assert r["beta"] == 0.01 and "delta" not in r
    assert r["bound"] == pytest.approx(dp.laplace_accuracy_bound(10_000, 0.01, 1, 1))
    assert "delta" not in inspect.signature(plots.AccuracyBoundFigure.update).parameters
    for figure in (plots.NameReliabilityFigure, plots.MarketingNoiseFigure):
        assert "beta" in inspect.signature(figure).parameters
        assert "delta" not in inspect.signature(figure).parameters
    view = widgets.precomputed(widgets.accuracy_bound, "beta", [0.01, 0.05])
    assert view.results[0]["bound"] == pytest.approx(dp.laplace_accuracy_bound(10_000, 0.01, 1, 1))
    with pytest.raises(ValueError, match="control must be one of"):
        widgets.precomputed(widgets.accuracy_bound, "delta", [0.01, 0.05])
    assert widgets.beta_slider().description.startswith("β")
    assert not hasattr(widgets, "delta_slider")


def test_no_deprecation_shim_is_left():
    """The accuracy maths, its widgets and its plots neither warn of a deprecated name nor mention one."""
    files = [ROOT / "accuracy.py", ROOT / "counting.py", ROOT / "widgets" / "accuracy.py",
             ROOT / "plots" / "accuracy.py"]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "deprecat" not in text.lower(), path
        names = {node.id for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Name)}
        assert "DeprecationWarning" not in names and "_MISSING" not in names, path
