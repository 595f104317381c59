"""The optimal composition theorem (Kairouz, Oh & Viswanath, ICML 2015, Theorem 3.3), checked against the paper's
own formula (evaluated here with mpmath at 50 digits), against a brute-force hockey-stick divergence of k
randomized responses (every one of the 2^k outputs enumerated), and the check values of chapters 06 and 11:
4.77 for 100 answers at ε = 0.1 and 562 answers at ε = 0.01 within a total of 1 (δ = 10⁻⁶), between the
exact Laplace accountant (4.69, 564) and Theorem 3.20 (6.31, 337)."""

import itertools
import math

import mpmath
import numpy as np
import pytest

import dpteach as dp

mpmath.mp.dps = 50


def papers_delta(k: int, eps: float, i: int, delta: float = 0.0) -> float:
    """KOV 2015, Theorem 3.3: at ε′ = (k − 2i)ε the composition is (ε′, 1 − (1 − δ)^k (1 − δ_i))-DP with
    δ_i = Σ_{j=0}^{i−1} C(k, j)(e^{(k−j)ε} − e^{(k−2i+j)ε}) / (1 + e^ε)^k."""
    e = mpmath.mpf(eps)
    delta_i = sum(mpmath.binomial(k, j) * (mpmath.e ** ((k - j) * e) - mpmath.e ** ((k - 2 * i + j) * e))
                  for j in range(i)) / (1 + mpmath.e ** e) ** k
    return float(1 - (1 - mpmath.mpf(delta)) ** k * (1 - delta_i))


@pytest.mark.parametrize("k, eps, i, delta", [(100, 0.1, 26, 0.0), (100, 0.1, 30, 0.0), (7, 0.5, 2, 0.0),
                                              (50, 0.2, 10, 1e-5), (1_000, 0.05, 400, 0.0), (3, 1.0, 1, 0.01)])
def test_delta_at_the_papers_points_is_the_papers_formula(k, eps, i, delta):
    ours = dp.optimal_composition_delta(k, eps, (k - 2 * i) * eps, delta=delta)
    assert ours == pytest.approx(papers_delta(k, eps, i, delta), rel=1e-10)


def _rr_hockey_stick(k: int, eps: float, eps_prime: float) -> float:
    """Σ over the 2^k outputs of k randomized responses of max(P − e^{ε′}Q, 0), P and Q the two sides' laws."""
    p = math.exp(eps) / (1 + math.exp(eps))
    total = 0.0
    for bits in itertools.product((0, 1), repeat=k):
        agree = sum(bits)
        on_x = p ** agree * (1 - p) ** (k - agree)
        on_y = (1 - p) ** agree * p ** (k - agree)
        total += max(on_x - math.exp(eps_prime) * on_y, 0.0)
    return total


@pytest.mark.parametrize("k, eps", [(5, 0.7), (8, 0.3), (9, 1.2)])
def test_between_the_points_it_is_the_divergence_of_k_randomized_responses(k, eps):
    for eps_prime in np.linspace(0, k * eps, 23):
        assert dp.optimal_composition_delta(k, eps, eps_prime) == pytest.approx(
            _rr_hockey_stick(k, eps, eps_prime), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("k, eps, delta_prime", [(100, 0.1, 1e-6), (20, 0.5, 1e-3), (1, 1.0, 0.1), (563, 0.01, 1e-6),
                                                  (10_000, 0.01, 1e-9)])
def test_epsilon_is_the_smallest_with_that_delta(k, eps, delta_prime):
    eps_prime, total_delta = dp.optimal_composition(k, eps, delta_prime)
    assert total_delta == delta_prime
    assert dp.optimal_composition_delta(k, eps, eps_prime) == pytest.approx(delta_prime, rel=1e-9)
    assert dp.optimal_composition_delta(k, eps, eps_prime * (1 - 1e-7)) > delta_prime


def test_the_check_values_of_chapters_06_and_11():
    eps_prime, _ = dp.optimal_composition(100, 0.1, 1e-6)
    assert f"{eps_prime:.3g}" == "4.77" and round(eps_prime, 3) == 4.775
    assert dp.optimal_composition_max_k(1.0, 0.01, 1e-6) == 562
    assert dp.optimal_composition(562, 0.01, 1e-6)[0] <= 1.0 < dp.optimal_composition(563, 0.01, 1e-6)[0]
    totals = dp.laplace_composition(100, 0.1, 1e-6)
    assert totals.optimal == pytest.approx(eps_prime)
    assert dp.releases_within(1.0, 0.01, 1e-6) == {"basic": 100, "advanced": 337, "optimal": 562, "exact": 564}
    # most of the gain over Theorem 3.20 comes from composing exactly, not from Laplace
    assert (totals.advanced - totals.optimal) > 10 * (totals.optimal - totals.exact)


@pytest.mark.parametrize("k", [1, 2, 5, 10, 50, 200, 1_000])
def test_optimal_lies_between_the_laplace_truth_and_theorem_3_20(k):
    """Laplace is one ε-DP mechanism, so its exact total is at most the optimal one; Theorem 3.20 and kε are bounds
    for the same class as the optimal theorem, so they are at least it."""
    optimal = dp.optimal_composition(k, 0.1, 1e-6)[0]
    assert dp.exact_laplace_epsilon(k, 0.1, 1e-6) <= optimal + 1e-9
    assert optimal <= min(dp.advanced_composition(k, 0.1, 1e-6)[0], k * 0.1)


def test_per_mechanism_delta_enters_as_the_paper_says():
    eps_prime, total = dp.optimal_composition(50, 0.2, 1e-4, delta=1e-5)
    assert total == pytest.approx(1 - (1 - 1e-5) ** 50 * (1 - 1e-4), rel=1e-12)
    assert dp.optimal_composition_delta(50, 0.2, eps_prime, delta=1e-5) == pytest.approx(total, rel=1e-9)


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="delta_prime"):
        dp.optimal_composition(10, 0.1, 0.0)
    with pytest.raises(ValueError, match="epsilon_prime"):
        dp.optimal_composition_delta(10, 0.1, -1.0)
    with pytest.raises(ValueError, match="k must be"):
        dp.optimal_composition(0, 0.1, 1e-6)
    with pytest.raises(ValueError, match="total_epsilon"):
        dp.optimal_composition_max_k(0.0, 0.1, 1e-6)


@pytest.mark.parametrize("k, epsilon, delta_prime", [(10_000, 3.0, 1e-5), (2_000, 1.0, 1e-10), (500, 5.0, 1e-6)])
def test_a_total_in_the_thousands_is_computed_without_overflow(k, epsilon, delta_prime):
    """kε in the hundreds or thousands (the budget planner's corner): e^{v} would overflow and P·e^{−v} underflow,
    so the sums are kept as logarithms. The total stays just below kε (randomized response's loss is kε with
    probability (e^ε/(1 + e^ε))^k, far above δ′ only for small k), and it is the smallest ε′ whose δ is ≤ δ′."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        eps_prime = dp.optimal_composition(k, epsilon, delta_prime)[0]
        assert 0 < eps_prime <= k * epsilon
        assert dp.optimal_composition_delta(k, epsilon, eps_prime) <= delta_prime * (1 + 1e-6)
        assert dp.optimal_composition_delta(k, epsilon, eps_prime * (1 - 1e-6)) > delta_prime
