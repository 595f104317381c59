"""Chapter 10's synthetic datasets and exercise checkers."""

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import exercises


@pytest.mark.parametrize("make", [dp.synthetic_hospital, dp.synthetic_city, dp.synthetic_purchases,
                                  dp.synthetic_conversions], ids=lambda f: f.__name__)
def test_datasets_are_reproducible_from_the_seed(make):
    a, b = make(300, rng=np.random.default_rng(4)), make(300, rng=np.random.default_rng(4))
    if isinstance(a, dict):
        assert all(np.array_equal(a[k], b[k]) for k in a)
    else:
        assert np.array_equal(a, b)


def test_hospital_has_a_learnable_condition():
    h = dp.synthetic_hospital(5_000, rng=np.random.default_rng(0))
    assert h["features"].shape == (5_000, 2) and set(np.unique(h["condition"])) == {0, 1}
    assert 0.25 < h["condition"].mean() < 0.5
    assert np.allclose(h["features"].mean(axis=0), 0, atol=0.1) and np.allclose(h["features"].std(axis=0), 1, atol=0.1)


def test_city_points_lie_in_the_city_and_cluster():
    pts = dp.synthetic_city(20_000, rng=np.random.default_rng(0))
    assert pts.shape == (20_000, 2) and pts.min() >= 0 and pts.max() <= dp.local.CITY_KM
    grid = dp.grid_counts(pts, 10)
    assert grid.sum() == 20_000
    assert grid.max() > 4 * grid.mean()           # dense neighbourhoods, not a uniform city


def test_purchases_have_customers_in_many_categories():
    """Why capping is needed: some customers buy many times, in many categories."""
    log = dp.synthetic_purchases(3_000, rng=np.random.default_rng(0))
    per_user = np.bincount(log["users"])
    assert per_user.min() >= 1 and per_user.max() >= 20
    assert log["cells"].min() >= 0 and log["cells"].max() < len(log["labels"])
    assert dp.capped_histogram(log["users"], log["cells"], len(log["labels"]), 1).sum() == 3_000


def test_conversions_have_six_campaigns():
    log = dp.synthetic_conversions(500, rng=np.random.default_rng(0))
    assert len(log["labels"]) == 6 and log["cells"].max() < 6


@pytest.mark.parametrize("checker, right, wrong", [
    (exercises.check_randomized_response_estimate, 0.7, 0.6),
    (exercises.check_purchase_sensitivity, 4, 1),
    (exercises.check_dpsgd_noise_scale, 2.5, 0.25),
])
def test_checkers(checker, right, wrong):
    assert checker(...).correct is None
    assert checker(right).correct is True
    assert checker(wrong).correct is False
    assert checker("two").correct is False
    assert checker(math.nan).correct is False


def test_capping_error_adds_squared_bias_and_laplace_variance():
    from dpteach.applications import capping_error
    truth = np.array([10.0, 4.0, 0.0])
    kept = np.array([[3.0, 2.0, 0.0], [6.0, 4.0, 0.0], [10.0, 4.0, 0.0]])
    r = capping_error(truth, kept, [1, 2, 5], epsilon=2.0)
    assert r["bias"] == pytest.approx(np.sqrt([(49 + 4) / 3, 16 / 3, 0.0]))
    assert r["noise"] == pytest.approx(np.sqrt(2) * np.array([1, 2, 5]) / 2.0)   # Var Lap(c/ε) = 2(c/ε)²
    assert r["total"] ** 2 == pytest.approx(r["bias"] ** 2 + r["noise"] ** 2)
    assert r["best"] == 2
    with pytest.raises(ValueError, match="kept"):
        capping_error(truth, kept[:2], [1, 2, 5], 1.0)
    with pytest.raises(ValueError, match="caps"):
        capping_error(truth, kept, [0, 2, 5], 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        capping_error(truth, kept, [1, 2, 5], -1.0)
