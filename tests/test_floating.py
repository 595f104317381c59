"""Mironov's attack on the textbook floating-point Laplace mechanism (CCS 2012), made exact.

The reachability test must never call a sampled output "unreachable" from the true value it
was sampled from (that would be a false certainty for the attacker), and must agree with a
search over a window a thousand times wider.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import dpteach as dp


def test_textbook_sampler_follows_the_laplace_law():
    """Kolmogorov–Smirnov against Lap(2) at level 10⁻⁴ (false-positive rate 10⁻⁴)."""
    y = dp.textbook_laplace(2.0, size=100_000, rng=np.random.default_rng(1))
    assert y.dtype == np.float64
    assert stats.kstest(y, stats.laplace(scale=2.0).cdf).pvalue > 1e-4


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_every_sampled_output_is_reachable_from_its_own_true_value(epsilon):
    rng = np.random.default_rng(2)
    for fx in (0.0, 1.0, 37.0):
        z = dp.textbook_laplace_mechanism(np.full(20_000, fx), 1, epsilon, rng=rng)
        assert dp.textbook_reachable(z, fx, 1, epsilon).all()


def test_unreachable_verdicts_survive_a_much_wider_search():
    rng = np.random.default_rng(3)
    z = dp.textbook_laplace_mechanism(np.zeros(500), 1, 0.5, rng=rng)
    narrow = dp.textbook_reachable(z, 1.0, 1, 0.5)
    wide = dp.textbook_reachable(z, 1.0, 1, 0.5, window=3_000)
    assert (narrow == wide).all()
    assert (~narrow).sum() > 100          # and there are many outputs the other side cannot produce


def test_a_betraying_output_is_a_real_output_of_one_side_only():
    """Take one output from f(x) = 0 that the test calls unreachable from f(y) = 1; check by brute force
    that the doubles f(y) + noise around it skip over it."""
    attack = dp.floating_point_attack(0.0, 1.0, 1, 1.0, n=2_000, rng=np.random.default_rng(4))
    z = float(attack.examples[0])
    assert dp.textbook_reachable(z, 0.0, 1, 1.0) and not dp.textbook_reachable(z, 1.0, 1, 1.0)
    j = np.floor(2.0**52 * np.exp(-abs(z - 1.0)))
    js = j + np.arange(-2_000, 2_001)
    sign = np.sign(z - 1.0)
    from_y = 1.0 + (-1.0 * sign * np.log(js * 2.0**-52))
    assert (from_y < z).any() and (from_y > z).any() and not (from_y == z).any()


def test_the_attacker_beats_what_epsilon_dp_allows():
    attack = dp.floating_point_attack(0.0, 1.0, 1, 1.0, n=20_000, rng=np.random.default_rng(5))
    assert attack.only_x > 0.5 and attack.only_y > 0.5
    assert attack.success > attack.bound + 0.1
    assert "ε-DP allows" in repr(attack)


def test_discrete_laplace_outputs_do_not_depend_on_the_true_value():
    """The fix: every integer is a possible output from every integer count, with the pmf ratio ≤ e^ε."""
    z = dp.discrete_laplace_mechanism(np.zeros(10_000, dtype=int), 1, 1.0, rng=np.random.default_rng(6))
    t = dp.discrete_laplace_scale(1, 1.0)
    assert (dp.discrete_laplace_pmf(z - 1, t) > 0).all()
    assert (dp.discrete_laplace_pmf(z, t) / dp.discrete_laplace_pmf(z - 1, t) <= np.e * (1 + 1e-12)).all()


def test_gaps_figure_marks_the_betraying_doubles():
    attack = dp.floating_point_attack(0.0, 1.0, 1, 1.0, n=500, rng=np.random.default_rng(7))
    fig = dp.plots.FloatGapsFigure(float(attack.examples[0]), width=6)
    assert fig.doubles.size == 13 and fig.from_x[6] and not fig.from_y[6]
    assert np.all(np.diff(fig.doubles) > 0)
    assert "betray x" in fig.title()
