"""Counting and histogram queries (Examples 3.1, 3.2), post-processing, and the capped
conversion report of the marketing connection.

Statistical tests use fixed seeds; the false-positive rate stated with each is the
probability that a correct implementation fails it for a seed drawn at random.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpteach as dp

AGES = np.arange(8)


def _overlapping(k: int) -> np.ndarray:
    """k cumulative counts "age ≥ j", j = 1..k: one old person is in all of them."""
    return (AGES[None, :] >= np.arange(1, k + 1)[:, None]).astype(int)


def _disjoint(k: int) -> np.ndarray:
    """k histogram cells "age = j", j = 1..k."""
    return (AGES[None, :] == np.arange(1, k + 1)[:, None]).astype(int)


@pytest.mark.parametrize("k", [1, 3, 7])
def test_sensitivity_of_k_counts_is_k_and_of_a_histogram_is_1(k):
    """Example 3.1: Δf = k for counts that may all count one person; Example 3.2: Δf = 1 for disjoint cells."""
    assert dp.counting_queries_sensitivity(_overlapping(k)) == k
    assert dp.counting_queries_sensitivity(_disjoint(k)) == 1


@pytest.mark.parametrize("seed", range(5))
def test_sensitivity_read_off_the_matrix_agrees_with_enumeration(seed):
    """Definition 3.1 by brute force (dp.l1_sensitivity) gives the largest column sum, for any 0/1 matrix."""
    A = np.random.default_rng(seed).integers(0, 2, size=(4, 5))
    assert dp.counting_queries_sensitivity(A) == dp.l1_sensitivity(lambda x: A @ x, np.arange(5), max_size=2)


def test_sensitivity_accepts_booleans_and_refuses_other_weights():
    assert dp.counting_queries_sensitivity(np.eye(3, dtype=bool)) == 1
    with pytest.raises(ValueError, match="queries must hold only 0 and 1"):
        dp.counting_queries_sensitivity([[0, 2], [1, 0]])
    with pytest.raises(ValueError, match="queries must be a 2-d array"):
        dp.counting_queries_sensitivity([0, 1, 1])
    with pytest.raises(ValueError, match="NaN"):
        dp.counting_queries_sensitivity([[0, np.nan]])


@pytest.mark.parametrize("k, epsilon", [(1, 1.0), (10, 0.5), (1000, 2.0)])
def test_scale_is_k_over_epsilon_or_1_over_epsilon(k, epsilon):
    assert dp.counting_queries_scale(k, epsilon, disjoint=False) == pytest.approx(k / epsilon)
    assert dp.counting_queries_scale(k, epsilon, disjoint=True) == pytest.approx(1 / epsilon)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"k": 0, "epsilon": 1.0, "disjoint": True}, ValueError, "k must be an integer >= 1, got 0"),
    ({"k": -3, "epsilon": 1.0, "disjoint": False}, ValueError, "k must be an integer >= 1"),
    ({"k": 2.5, "epsilon": 1.0, "disjoint": False}, TypeError, "k must be an integer"),
    ({"k": 2, "epsilon": 0.0, "disjoint": False}, ValueError, "epsilon must be a finite number > 0"),
    ({"k": 2, "epsilon": float("nan"), "disjoint": False}, ValueError, "epsilon must be"),
    ({"k": 2, "epsilon": 1.0, "disjoint": "yes"}, TypeError, "disjoint must be True or False"),
])
def test_scale_refuses_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        dp.counting_queries_scale(**kwargs)


def test_release_calibrates_to_the_matrix():
    """Mean |error| of 20,000 releases is Δf/ε per answer within 5 standard errors
    (E|Y| = b, sd(|Y|) = b): false-positive rate < 1e-6 per comparison."""
    rng = np.random.default_rng(11)
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    for queries, sensitivity in ((_overlapping(5), 5.0), (_disjoint(5), 1.0)):
        releases = np.array([dp.release_counting_queries(queries, x, 0.5, rng) for _ in range(20_000)])
        errors = np.abs(releases - queries @ x)
        b = sensitivity / 0.5
        assert np.all(np.abs(errors.mean(axis=0) - b) < 5 * b / math.sqrt(20_000))


def test_a_counts_mean_error_is_one_over_epsilon_whatever_n():
    """Example 3.1 as chapter 04 runs it: 2,000 releases of a count at n = 100, 10⁴, 10⁶ and ε = 1; the mean
    |error| is within 5 standard errors of E|Y| = 1/ε (sd(|Y|) = b): false-positive rate < 1e-6 per n."""
    rng = np.random.default_rng(41)
    for n in (100, 10_000, 1_000_000):
        count = rng.binomial(n, 0.3)
        releases = dp.laplace_mechanism(np.full(2_000, count), sensitivity=1, epsilon=1.0, rng=rng)
        assert abs(np.abs(releases - count).mean() - 1.0) < 5 * 1.0 / math.sqrt(2_000)


def test_counts_derived_from_the_histogram_are_unbiased_and_as_noisy_as_theory_says():
    """Chapter 04's post-processing: "age ≥ 10j" as a sum of 10 − j released decade cells (Lap(1/ε) each) against
    the same count asked directly among the nine cumulative counts (Lap(9/ε)), 2,000 releases at ε = 1.

    Standard deviations: the sample std of n draws of a variable with kurtosis κ has standard error about
    σ·√((κ − 1)/(4n)); κ ≤ 6 (Laplace, and sums of Laplace have less), so each measured std is checked within
    6·σ·√(5/(4n)) of theory: false-positive rate < 1e-8 per query (normal approximation). Means: within
    5 standard errors of the truth, < 1e-6 per query. Every derived count is then less noisy than the direct one.
    """
    rng = np.random.default_rng(2024)
    ages = np.arange(100)
    x = np.bincount(rng.integers(0, 100, size=1_000), minlength=100)
    thresholds, decades = np.arange(10, 100, 10), np.arange(0, 100, 10)
    at_least = (ages[None, :] >= thresholds[:, None]).astype(int)
    in_decade = (ages[None, :] // 10 == decades[:, None] // 10).astype(int)
    sums_of_decades = (decades[None, :] >= thresholds[:, None]).astype(int)
    n = 2_000
    direct = np.array([dp.release_counting_queries(at_least, x, 1.0, rng) for _ in range(n)])
    derived = np.array([dp.release_counting_queries(in_decade, x, 1.0, rng) for _ in range(n)]) @ sums_of_decades.T
    truth = at_least @ x
    theory_derived = np.sqrt(2.0 * sums_of_decades.sum(axis=1))
    theory_direct = math.sqrt(2.0) * 9
    band = 6 * math.sqrt(5 / (4 * n))
    assert np.all(np.abs(derived.std(axis=0) / theory_derived - 1) < band)
    assert np.all(np.abs(direct.std(axis=0) / theory_direct - 1) < band)
    assert np.all(np.abs(derived.mean(axis=0) - truth) < 5 * theory_derived / math.sqrt(n))
    assert np.all(derived.std(axis=0) < direct.std(axis=0))


def test_release_refuses_a_histogram_of_the_wrong_length_or_sign():
    with pytest.raises(ValueError, match="x must have one count per record type, 8"):
        dp.release_counting_queries(_disjoint(3), [1, 2, 3], 1.0)
    with pytest.raises(ValueError, match="x must be >= 0 everywhere"):
        dp.release_counting_queries(_disjoint(3), -np.ones(8), 1.0)


# -- post-processing ---------------------------------------------------------------------

def test_clamping_never_increases_any_cells_error():
    """|max(y, 0) − x| ≤ |y − x| whenever x ≥ 0 (post-processing towards the allowed range)."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=10_000).astype(float)
    y = x + rng.laplace(0, 3.0, size=x.size)
    assert (np.abs(dp.clamp_nonnegative(y) - x) <= np.abs(y - x)).all()
    assert (dp.clamp_nonnegative(y) >= 0).all()


def test_rounding_moves_each_count_by_at_most_a_half():
    rng = np.random.default_rng(4)
    y = rng.laplace(0, 10.0, size=10_000)
    rounded = dp.round_counts(y)
    assert rounded.dtype == np.int64
    assert (np.abs(rounded - y) <= 0.5).all()


def test_post_processing_effect_on_a_small_example():
    effect = dp.post_processing_effect([0, 0, 5], [-2.0, 0.4, 5.7])
    assert effect.max_error["released"] == 2.0
    assert effect.max_error["clamped"] == pytest.approx(0.7)
    assert effect.max_error["clamped and rounded"] == 1.0          # 5.7 → 6
    assert effect.negative == {"released": 1, "clamped": 0, "rounded": 1, "clamped and rounded": 0}
    assert "counts < 0" in repr(effect)


def test_clamping_halves_the_mean_error_of_empty_cells():
    """On true zeros E|max(Y, 0)| = b/2: 100,000 cells, 6 standard errors (sd ≤ b): FPR < 1e-8."""
    rng = np.random.default_rng(5)
    effect = dp.post_processing_effect(np.zeros(100_000), rng.laplace(0, 1.0, size=100_000))
    assert abs(effect.mean_error["released"] - 1.0) < 6 / math.sqrt(100_000)
    assert abs(effect.mean_error["clamped"] - 0.5) < 6 / math.sqrt(100_000)


@pytest.mark.parametrize("func", [dp.clamp_nonnegative, dp.round_counts])
def test_post_processing_refuses_nan(func):
    with pytest.raises(ValueError, match="noisy must not contain NaN"):
        func([1.0, np.nan])


def test_post_processing_effect_refuses_negative_true_counts_and_mismatched_shapes():
    with pytest.raises(ValueError, match="true_counts must be >= 0 everywhere"):
        dp.post_processing_effect([-1, 2], [0.0, 2.0])
    with pytest.raises(ValueError, match="same shape"):
        dp.post_processing_effect([1, 2], [0.0, 2.0, 3.0])


# -- the capped conversion report ------------------------------------------------------------

def _capped_by_loop(users, cells, n_cells, cap):
    seen: dict[int, int] = {}
    out = np.zeros(n_cells, dtype=np.int64)
    for u, c in zip(users, cells):
        seen[u] = seen.get(u, 0) + 1
        if seen[u] <= cap:
            out[c] += 1
    return out


@pytest.mark.parametrize("cap", [1, 2, 5])
def test_capped_histogram_keeps_each_users_first_c_events(cap):
    rng = np.random.default_rng(cap)
    users, cells = rng.integers(0, 50, size=600), rng.integers(0, 12, size=600)
    expected = _capped_by_loop(users.tolist(), cells.tolist(), 12, cap)
    assert (dp.capped_histogram(users, cells, 12, cap) == expected).all()


@pytest.mark.parametrize("cap", [1, 3, 5])
def test_one_user_moves_the_capped_histogram_by_at_most_c(cap):
    """Δf = c: adding a user with any number of events changes the cells by ≤ c in ℓ1, = c when they have ≥ c."""
    rng = np.random.default_rng(10 + cap)
    users, cells = rng.integers(0, 30, size=200), rng.integers(0, 8, size=200)
    base = dp.capped_histogram(users, cells, 8, cap)
    for n_events in (1, cap, 3 * cap):
        new_cells = rng.integers(0, 8, size=n_events)
        more = dp.capped_histogram(np.r_[users, np.full(n_events, 999)], np.r_[cells, new_cells], 8, cap)
        assert np.abs(more - base).sum() == min(n_events, cap)


def test_capped_histogram_of_no_events_is_empty():
    assert (dp.capped_histogram([], [], 3, 2) == 0).all()


@pytest.mark.parametrize("args, error, match", [
    (([1, 2], [0], 3, 1), ValueError, "users and cells must have the same length"),
    (([1, 2], [0, 3], 3, 1), ValueError, r"cells must be integers in \[0, 2\]"),
    (([1, 2], [0, 0.5], 3, 1), ValueError, "cells must hold integers"),
    (([1, np.nan], [0, 1], 3, 1), ValueError, "users must not contain NaN"),
    (([1, 2], [0, 1], 3, 0), ValueError, "cap must be an integer >= 1, got 0"),
    (([1, 2], [0, 1], 0, 1), ValueError, "n_cells must be an integer >= 1"),
    (([1, 2], [0, 1], 3, 1.5), TypeError, "cap must be an integer"),
])
def test_capped_histogram_refuses_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        dp.capped_histogram(*args)


def test_histogram_noise_for_the_marketing_report():
    """The marketing connection of chapter 05: c = 5, ε = 1, N = 600 campaign-days: variance 2(c/ε)² = 50,
    ℓ∞ bound ln(600/0.05)·5 ≈ 47.0, DP noise dominates Poisson noise below 50 conversions."""
    h = dp.histogram_noise(5, 1.0, cells=600)
    assert h.scale == 5.0 and h.variance == 50.0 and h.std == pytest.approx(math.sqrt(50))
    assert h.linf_bound == pytest.approx(5 * math.log(600 / 0.05))
    assert round(h.linf_bound, 1) == 47.0
    assert h.crossover == 50.0
    assert "every cell within ±46.96" in repr(h)


@pytest.mark.parametrize("cap, epsilon", [(1, 0.1), (3, 0.5), (10, 2.0)])
def test_histogram_noise_variance_is_two_b_squared(cap, epsilon):
    h = dp.histogram_noise(cap, epsilon, cells=100, beta=0.01)
    assert h.variance == pytest.approx(2 * (cap / epsilon) ** 2)
    assert h.linf_bound == pytest.approx(dp.laplace_accuracy_bound(100, 0.01, cap, epsilon))


@pytest.mark.parametrize("kwargs, match", [
    ({"sensitivity": 5, "epsilon": 1.0, "cells": 0}, "cells must be an integer >= 1, got 0"),
    ({"sensitivity": 5, "epsilon": 1.0, "cells": 10, "beta": 0.0}, r"beta must be a finite number in \(0, 1\]"),
    ({"sensitivity": 5, "epsilon": 1.0, "cells": 10, "beta": 1.5}, r"beta must be a finite number in \(0, 1\]"),
    ({"sensitivity": -1, "epsilon": 1.0, "cells": 10}, "sensitivity must be a finite number > 0"),
])
def test_histogram_noise_refuses_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        dp.histogram_noise(**kwargs)
