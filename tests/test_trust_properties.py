"""Property-based tests (hypothesis) of the mechanisms' shapes and dtypes.

Whatever valid input hypothesis invents, a mechanism returns the shape it promises, with the
dtype it promises, and finite values. No statistics here, so no false-positive rate: every
property must hold for every example.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import dpteach as dp

SETTINGS = settings(max_examples=60, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=6)
finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
epsilons = st.floats(0.01, 20.0)
sensitivities = st.floats(0.1, 10.0)
seeds = st.integers(0, 2**32 - 1)


@SETTINGS
@given(hnp.arrays(np.float64, shapes, elements=finite), sensitivities, epsilons, seeds)
def test_laplace_mechanism_keeps_shape_and_is_float(answer, sensitivity, epsilon, seed):
    out = dp.laplace_mechanism(answer, sensitivity, epsilon, rng=np.random.default_rng(seed))
    if answer.ndim == 0:
        assert isinstance(out, float)
    else:
        assert out.shape == answer.shape and out.dtype == np.float64 and np.isfinite(out).all()


@SETTINGS
@given(hnp.arrays(np.int64, shapes, elements=st.integers(-10**6, 10**6)), st.integers(1, 5),
       st.one_of(st.floats(0.01, 20.0), st.fractions(Fraction(1, 100), Fraction(20)).map(lambda f: f.limit_denominator(1000))),
       seeds)
def test_discrete_laplace_keeps_shape_and_is_int64(counts, sensitivity, epsilon, seed):
    out = dp.discrete_laplace_mechanism(counts, sensitivity, epsilon, rng=np.random.default_rng(seed))
    if counts.ndim == 0:
        assert isinstance(out, int)
    else:
        assert out.shape == counts.shape and out.dtype == np.int64


@SETTINGS
@given(st.fractions(Fraction(0), Fraction(6)).map(lambda f: f.limit_denominator(500)),
       st.integers(0, 50), seeds)
def test_bernoulli_exp_returns_booleans(gamma, n, seed):
    out = dp.bernoulli_exp(gamma, size=n, rng=np.random.default_rng(seed))
    assert out.shape == (n,) and out.dtype == bool
    if gamma == 0:
        assert out.all()


@SETTINGS
@given(hnp.arrays(np.float64, shapes, elements=st.floats(-1e3, 1e3)), epsilons, seeds)
def test_textbook_mechanism_keeps_shape(answer, epsilon, seed):
    out = dp.textbook_laplace_mechanism(answer, 1.0, epsilon, rng=np.random.default_rng(seed))
    assert np.shape(out) == answer.shape and np.isfinite(out).all()


@SETTINGS
@given(hnp.arrays(np.float64, st.integers(1, 12), elements=st.floats(-100, 100)), epsilons, seeds)
def test_report_noisy_max_returns_an_index(counts, epsilon, seed):
    out = dp.report_noisy_max(counts, epsilon, np.random.default_rng(seed))
    assert isinstance(out, (int, np.integer)) and 0 <= out < counts.size


@SETTINGS
@given(hnp.arrays(np.float64, st.integers(1, 12), elements=st.floats(-100, 100)), sensitivities, epsilons, seeds)
def test_exponential_mechanism_returns_an_index(utilities, sensitivity, epsilon, seed):
    out = dp.exponential_mechanism(utilities, sensitivity, epsilon, np.random.default_rng(seed))
    assert 0 <= int(out) < utilities.size


@SETTINGS
@given(hnp.arrays(np.float64, st.integers(1, 20), elements=st.floats(-50, 50)), st.floats(-50, 50), epsilons,
       st.integers(1, 4), seeds)
def test_above_threshold_and_sparse_vector_return_indices(answers, threshold, epsilon, c, seed):
    rng = np.random.default_rng(seed)
    hit = dp.above_threshold(answers, threshold, epsilon, rng=rng)
    assert hit is None or (isinstance(hit, int) and 0 <= hit < answers.size)
    found = dp.sparse_vector(answers, threshold, epsilon, c, rng=rng)
    assert len(found) <= c and all(0 <= i < answers.size for i in found) and found == sorted(set(found))


@SETTINGS
@given(hnp.arrays(np.float64, shapes, elements=finite), epsilons, seeds)
def test_gaussian_mechanism_keeps_shape(answer, epsilon, seed):
    out = dp.gaussian_mechanism(answer, 1.0, epsilon, 1e-5, rng=np.random.default_rng(seed))
    assert np.shape(out) == answer.shape and np.isfinite(out).all()


@SETTINGS
@given(hnp.arrays(np.float64, shapes, elements=finite), st.floats(1.0, 8.0), st.floats(0.1, 10.0), seeds)
def test_generalized_gaussian_mechanism_keeps_shape(answer, p, sigma, seed):
    out = dp.generalized_gaussian_mechanism(answer, p, sigma, rng=np.random.default_rng(seed))
    assert np.shape(out) == answer.shape and np.isfinite(out).all()


@SETTINGS
@given(st.lists(st.integers(-40, 40), min_size=1, max_size=30), st.floats(0.2, 30.0))
def test_discrete_pmf_is_a_probability_and_symmetric(z, scale):
    pmf = dp.discrete_laplace_pmf(z, scale)
    assert ((pmf > 0) & (pmf <= 1)).all()
    assert np.allclose(pmf, dp.discrete_laplace_pmf([-v for v in z], scale))
