"""Every public function of the maths layer refuses bad parameters with an error that teaches.

Every public function checks its parameters and raises ValueError naming the parameter, the
value and the allowed range; a value of the wrong kind (a string, a bool, a float where an
integer is needed, a RandomState where a Generator is needed) raises TypeError. The ranges
come from Dwork & Roth: ε > 0 and Δf > 0 (Definition 3.3, Theorem 3.6), b > 0
(Definition 3.2), 0 < δ ≤ 1 and k ≥ 1 (Theorem 3.8).
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import dpteach as dp
from dpteach import accuracy, laplace, sensitivity

NAN, INF = float("nan"), float("inf")


def count(x):
    """A counting query, used where a valid f is needed."""
    return float(x.sum())


def valid_arguments():
    """A valid call of every public function of the maths layer (fresh objects on each call)."""
    return {
        dp.laplace_pdf: dict(x=[0.5, -1.0], scale=1.0),
        dp.laplace_cdf: dict(x=[0.5, -1.0], scale=1.0),
        dp.laplace_logpdf: dict(x=[0.5, -1.0], scale=1.0),
        dp.laplace_tail: dict(t=[0.0, 1.0]),
        dp.laplace_scale: dict(sensitivity=1.0, epsilon=1.0),
        dp.laplace_mechanism: dict(true_answer=[3.0, 4.0], sensitivity=1.0, epsilon=1.0,
                                   rng=np.random.default_rng(0)),
        dp.privacy_loss: dict(z=[0.0, 0.5, 2.0], fx=0.0, fy=1.0, sensitivity=1.0, epsilon=1.0),
        dp.proof_steps: dict(z=[0.0, 0.5, 2.0], fx=0.0, fy=1.0, sensitivity=1.0, epsilon=1.0),
        dp.laplace_accuracy_bound: dict(k=10, beta=0.05, sensitivity=1.0, epsilon=1.0),
        dp.all_databases: dict(universe_size=3, max_size=2, min_size=0),
        dp.neighbour_differences: dict(f=count, universe=[0, 1, 2], max_size=2, min_size=0, ord=1),
        dp.l1_sensitivity: dict(f=count, universe=[0, 1, 2], max_size=2, min_size=0),
        dp.l2_sensitivity: dict(f=count, universe=[0, 1, 2], max_size=2, min_size=0),
        dp.neighbour_differences_reference: dict(f=count, universe=[0, 1, 2], max_size=2, min_size=0, ord=1),
        dp.replace_one_sensitivity: dict(f=count, universe=[0, 1, 2], size=2, ord=1),
        dp.linf_error_tail: dict(threshold=[0.0, 2.0], k=10, sensitivity=1.0, epsilon=1.0),
        dp.linf_error_density: dict(threshold=[0.0, 2.0], k=10, sensitivity=1.0, epsilon=1.0),
        dp.linf_error_quantile: dict(k=10, beta=0.05, sensitivity=1.0, epsilon=1.0),
        dp.expected_linf_error: dict(k=10, sensitivity=1.0, epsilon=1.0),
        dp.binomial_ci: dict(successes=3, trials=10, confidence=0.95, method="clopper-pearson"),
        dp.clopper_pearson_lower: dict(successes=3, trials=10, alpha=0.05),
        dp.clopper_pearson_upper: dict(successes=3, trials=10, alpha=0.05),
        dp.linf_errors: dict(true_answer=[3.0, 4.0], sensitivity=1.0, epsilon=1.0, runs=5,
                             rng=np.random.default_rng(0), chunk_size=100),
        dp.accuracy_monte_carlo: dict(true_answer=[3.0, 4.0], beta=0.05, sensitivity=1.0, epsilon=1.0, runs=5,
                                      rng=np.random.default_rng(0), confidence=0.95, method="clopper-pearson"),
    }


FUNCTIONS = list(valid_arguments())


def call(func, **overrides):
    """Call ``func`` with its valid arguments, some of them replaced by ``overrides``."""
    kwargs = valid_arguments()[func] | overrides
    return func(**kwargs)


def with_param(name):
    """The public functions that take a parameter called ``name``."""
    return [f for f in FUNCTIONS if name in inspect.signature(f).parameters]


# Each row: (function, overrides, exception, parameter the message must name, text it must show).
CASES = []


def _label(value) -> str:
    """A stable test-id fragment: the repr of plain values, the type name of other objects."""
    if value is None or isinstance(value, (bool, int, float, str, list)):
        return repr(value)
    return type(value).__name__


def case(func, overrides, exc, named, shows=None):
    """Add a row to the table (``named``: the parameter the message must name)."""
    label = ",".join(f"{k}={_label(v)}" for k, v in overrides.items())
    CASES.append(pytest.param(func, overrides, exc, named, shows, id=f"{func.__name__}-{label}"))


# ε > 0, Δf > 0, b > 0: zero, negative, NaN, infinite → ValueError naming the parameter and the value.
for param in ("epsilon", "sensitivity", "scale"):
    for func in with_param(param):
        for bad in (0, -1, NAN, INF, -INF):
            case(func, {param: bad}, ValueError, param, f"got {bad!r}")
        # A string or a bool is not a number at all → TypeError.
        for bad in ("1", True, None, [1.0]):
            case(func, {param: bad}, TypeError, param)

# 0 < β ≤ 1 (Theorem 3.8, where the book writes δ).
for bad in (0, 1.5, -0.1, NAN, INF):
    case(dp.laplace_accuracy_bound, {"beta": bad}, ValueError, "beta", f"got {bad!r}")
for bad in ("0.05", True):
    case(dp.laplace_accuracy_bound, {"beta": bad}, TypeError, "beta")

# k ≥ 1 coordinates, an integer (Theorem 3.8).
for bad in (0, -3):
    case(dp.laplace_accuracy_bound, {"k": bad}, ValueError, "k", f"got {bad!r}")
for bad in (2.5, True, 10.0, "10"):
    case(dp.laplace_accuracy_bound, {"k": bad}, TypeError, "k")

# f(x) for the mechanism: finite, not empty (Definition 3.3).
for bad, shows in ([1.0, NAN], "nan"), (NAN, "nan"), ([INF, 2.0], "inf"), (-INF, "inf"), ([], "empty"):
    case(dp.laplace_mechanism, {"true_answer": bad}, ValueError, "true_answer", shows)
for bad in ("42", ["a", "b"], None):
    case(dp.laplace_mechanism, {"true_answer": bad}, TypeError, "true_answer")

# rng: a numpy Generator or None.
for bad in (42, np.random.RandomState(0), "seed", np.random.PCG64(0)):
    case(dp.laplace_mechanism, {"rng": bad}, TypeError, "rng")

# fx, fy and z for the privacy loss and the proof (Theorem 3.6).
for func in (dp.privacy_loss, dp.proof_steps):
    case(func, {"fx": [0.0, 0.0], "fy": [1.0, 0.0, 0.0]}, ValueError, "fx")             # shapes differ
    case(func, {"fx": [0.0, 0.0], "fy": 1.0, "z": [[0.0, 0.0]]}, ValueError, "fx")       # vector vs scalar
    case(func, {"fx": NAN}, ValueError, "fx", "nan")
    case(func, {"fy": INF}, ValueError, "fy", "inf")
    case(func, {"fx": [[0.0, 1.0]], "fy": [[1.0, 1.0]]}, ValueError, "fx")               # a 2-d answer
    case(func, {"fx": [], "fy": []}, ValueError, "fx", "empty")
    case(func, {"z": [0.0, NAN]}, ValueError, "z", "nan")
    case(func, {"fx": [0.0, 0.0], "fy": [1.0, 0.0], "z": [0.0, 0.0, 0.0]}, ValueError, "z")  # last axis ≠ k

# Points at which the distribution is evaluated.
for func in (dp.laplace_pdf, dp.laplace_cdf, dp.laplace_logpdf):
    case(func, {"x": [0.0, NAN]}, ValueError, "x", "nan")
    case(func, {"x": "0.5"}, TypeError, "x")
case(dp.laplace_tail, {"t": -1.0}, ValueError, "t")                   # Fact 3.7 needs t ≥ 0
case(dp.laplace_tail, {"t": [1.0, NAN]}, ValueError, "t", "nan")

# The enumeration of Definition 3.1.
for func in (dp.all_databases, dp.neighbour_differences, dp.l1_sensitivity, dp.l2_sensitivity,
             dp.neighbour_differences_reference):
    case(func, {"max_size": 0}, ValueError, "max_size", "got 0")
    case(func, {"max_size": 2.5}, TypeError, "max_size")
    case(func, {"max_size": True}, TypeError, "max_size")
    case(func, {"min_size": -1}, ValueError, "min_size", "got -1")
    case(func, {"min_size": 2}, ValueError, "min_size", "got 2")       # = max_size: no room to grow
    case(func, {"min_size": 0.5}, TypeError, "min_size")
case(dp.all_databases, {"universe_size": 0}, ValueError, "universe_size", "got 0")
case(dp.all_databases, {"universe_size": 2.0}, TypeError, "universe_size")
for func in (dp.neighbour_differences, dp.l1_sensitivity, dp.l2_sensitivity, dp.neighbour_differences_reference,
             dp.replace_one_sensitivity):
    case(func, {"f": 42}, TypeError, "f")
    case(func, {"universe": []}, ValueError, "universe")
for func in (dp.neighbour_differences, dp.neighbour_differences_reference, dp.replace_one_sensitivity):
    case(func, {"ord": 3}, ValueError, "ord", "got 3")
    case(func, {"ord": np.inf}, ValueError, "ord")
case(dp.replace_one_sensitivity, {"size": 0}, ValueError, "size", "got 0")
case(dp.replace_one_sensitivity, {"size": 2.5}, TypeError, "size")
case(dp.replace_one_sensitivity, {"universe": [0]}, ValueError, "universe")

# Theorem 3.8 by simulation, and the exact law of the largest of k noises (chapter 05).
for func in (dp.linf_error_quantile, dp.accuracy_monte_carlo):
    for bad in (0, 1.5, -0.1, NAN, INF):
        case(func, {"beta": bad}, ValueError, "beta", f"got {bad!r}")
    for bad in ("0.05", True):
        case(func, {"beta": bad}, TypeError, "beta")
for func in (dp.linf_error_tail, dp.linf_error_density, dp.linf_error_quantile, dp.expected_linf_error):
    for bad in (0, -3):
        case(func, {"k": bad}, ValueError, "k", f"got {bad!r}")
    for bad in (2.5, True, "10"):
        case(func, {"k": bad}, TypeError, "k")
for func in (dp.linf_error_tail, dp.linf_error_density):
    case(func, {"threshold": -1.0}, ValueError, "threshold")
    case(func, {"threshold": [1.0, NAN]}, ValueError, "threshold", "nan")
for func in (dp.linf_errors, dp.accuracy_monte_carlo):
    case(func, {"true_answer": [1.0, NAN]}, ValueError, "true_answer", "nan")
    case(func, {"true_answer": []}, ValueError, "true_answer", "empty")
    case(func, {"runs": 0}, ValueError, "runs", "got 0")
    case(func, {"runs": 2.5}, TypeError, "runs")
    case(func, {"rng": 42}, TypeError, "rng")
case(dp.linf_errors, {"chunk_size": 0}, ValueError, "chunk_size", "got 0")
case(dp.binomial_ci, {"trials": 0}, ValueError, "trials", "got 0")
case(dp.binomial_ci, {"successes": 11}, ValueError, "successes", "got 11")
case(dp.binomial_ci, {"successes": 1.5}, TypeError, "successes")
for bad in (0, 1, NAN):
    case(dp.binomial_ci, {"confidence": bad}, ValueError, "confidence")
case(dp.binomial_ci, {"method": "wald"}, ValueError, "method", "wald")
for func in (dp.clopper_pearson_lower, dp.clopper_pearson_upper):
    case(func, {"successes": 11}, ValueError, "successes", "got 11")
    case(func, {"trials": 0}, ValueError, "trials", "got 0")
    for bad in (0, 1, NAN):
        case(func, {"alpha": bad}, ValueError, "alpha")


def test_every_valid_call_succeeds():
    """The table's baseline calls are valid, so each error below comes from the one argument changed."""
    for func, kwargs in valid_arguments().items():
        func(**kwargs)


def test_table_covers_every_public_function_of_the_maths_layer():
    """Every public function of dpteach.laplace, dpteach.sensitivity and dpteach.accuracy is in the table."""
    public = {obj for module in (accuracy, laplace, sensitivity) for name, obj in vars(module).items()
              if not name.startswith("_") and inspect.isfunction(obj) and obj.__module__ == module.__name__}
    assert {f.__name__ for f in public} <= set(dp.__all__)
    tested = {c.values[0] for c in CASES}
    assert public == set(FUNCTIONS)
    assert public <= tested, f"not validated: {sorted(f.__name__ for f in public - tested)}"


@pytest.mark.parametrize("func, overrides, exc, named, shows", CASES)
def test_bad_parameter_is_refused_with_a_message_naming_it(func, overrides, exc, named, shows):
    """DESIGN.md: a bad parameter raises ValueError/TypeError naming the parameter (and showing the value)."""
    with pytest.raises(exc) as info:
        call(func, **overrides)
    assert info.type is exc, f"expected {exc.__name__}, got {info.type.__name__}: {info.value}"
    message = str(info.value)
    assert re.search(rf"\b{re.escape(named)}\b", message), f"{message!r} does not name {named!r}"
    if shows is not None:
        assert shows in message, f"{message!r} does not show {shows!r}"


@pytest.mark.parametrize("param", ["epsilon", "sensitivity"])
def test_value_errors_state_the_allowed_range(param):
    """DESIGN.md: the message states the allowed range (ε > 0, Δf > 0) and why."""
    for func in with_param(param):
        with pytest.raises(ValueError, match=rf"{param} must be a finite number > 0, got -1"):
            call(func, **{param: -1})


def test_accepted_edge_values():
    """The ranges are the book's: δ = 1, k = 1 (Thm 3.8), numpy scalars and ±inf for a density are allowed."""
    assert dp.laplace_accuracy_bound(np.int64(1), 1, 1.0, 1.0) == 0.0
    assert dp.laplace_accuracy_bound(1, np.float64(0.5), np.float32(2.0), np.int32(1)) > 0
    assert dp.laplace_pdf([-INF, INF], 1.0).tolist() == [0.0, 0.0]
    assert dp.laplace_tail(INF) == 0.0
    counts = np.array([1, 2], dtype=np.int64)
    assert dp.laplace_mechanism(counts, 1, 1, rng=np.random.default_rng(0)).dtype == np.float64


def test_an_infinite_noise_scale_is_refused():
    """Δf/ε that overflows to inf is named, not silently turned into infinite noise."""
    with pytest.raises(ValueError, match="overflows"):
        dp.laplace_mechanism(1.0, sensitivity=1e300, epsilon=1e-300)
    with pytest.raises(ValueError, match="overflows"):
        dp.laplace_accuracy_bound(10, 0.05, sensitivity=1e300, epsilon=1e-300)
