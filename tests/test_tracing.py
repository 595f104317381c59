"""The tracing (membership) attack of chapter 11: its score against a direct computation, its power on exact counts
(deep inside the ε-DP region), and its rates on counts released with Lap(d/ε), which must stay out of the region
at ε: checked with Clopper–Pearson bounds, as the chapter 09 auditor does.

Statistical tests, with fixed seeds; the false-positive rate of each is stated where it is made."""

import math

import numpy as np
import pytest

import dpteach as dp


def test_score_is_the_inner_product_of_the_target_and_the_centred_counts():
    rng = np.random.default_rng(0)
    p = rng.uniform(0.1, 0.9, size=7)
    target = (rng.random(7) < p).astype(float)
    counts = rng.binomial(12, p).astype(float)
    by_hand = sum((target[j] - p[j]) * (counts[j] - 12 * p[j]) for j in range(7))
    assert dp.tracing_score(target, counts, p, 12) == pytest.approx(by_hand, rel=1e-12)
    stacked = dp.tracing_score(np.stack([target, target]), np.stack([counts, counts]), p, 12)
    assert np.allclose(stacked, by_hand)


@pytest.fixture(scope="module")
def attack():
    return dp.tracing_attack(others=50, attributes=500, trials=2_000, rng=np.random.default_rng(2014))


def test_the_target_adds_her_own_row_to_the_score(attack):
    """In expectation her row adds Σ_j p_j(1 − p_j) (about 0.197·d for p uniform on [0.1, 0.9]); the mean gap
    over 2,000 runs each way is within 5 standard errors of it (false alarm < 10⁻⁶)."""
    p = attack.frequencies
    gap = attack.in_exact.mean() - attack.out_exact.mean()
    se = math.sqrt(attack.in_exact.var() / attack.trials + attack.out_exact.var() / attack.trials)
    assert abs(gap - np.sum(p * (1 - p))) <= 5 * se


def _one_sided_bounds(count: int, n: int, level: float) -> tuple[float, float]:
    return dp.clopper_pearson_lower(count, n, level), dp.clopper_pearson_upper(count, n, level)


def test_on_exact_counts_the_attack_breaks_any_small_epsilon(attack):
    """At a threshold fixed in advance (0.1·d, about half the gap her row adds), the attack's true
    positive rate is above e^ε times its false positive rate for ε = 2, provably: with one-sided Clopper–Pearson
    bounds at level 10⁻⁴ each, a lower bound on 1 − β above e²·(upper bound on α). False alarm ≤ 2·10⁻⁴."""
    alpha, beta = attack.rates(thresholds=[attack.attributes * 0.1])
    n = attack.trials
    _, alpha_high = _one_sided_bounds(round(alpha[0] * n), n, 1e-4)
    power_low, _ = _one_sided_bounds(round((1 - beta[0]) * n), n, 1e-4)
    assert power_low > math.exp(2.0) * alpha_high


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 3.0])
def test_on_noisy_counts_every_threshold_stays_out_of_the_region(epsilon, attack):
    """The release with Lap(d/ε) on each count is ε-DP, so every threshold test obeys α + e^ε·β ≥ 1 and
    e^ε·α + β ≥ 1. At 9 thresholds fixed in advance (multiples of the noise's own scale), the one-sided
    Clopper–Pearson bounds (level 10⁻³/36 each, Bonferroni over the 4 bounds × 9 tests) that would refute it
    never do: a correct release fails this with probability at most 10⁻³."""
    spread = attack.attributes / epsilon * math.sqrt(2 * attack.attributes * 0.2)
    thresholds = np.linspace(-2, 2, 9) * spread
    alpha, beta = attack.rates(epsilon, thresholds)
    n, level = attack.trials, 1e-3 / 36
    for a, b in zip(alpha, beta):
        a_low, a_high = _one_sided_bounds(round(a * n), n, level)
        b_low, b_high = _one_sided_bounds(round(b * n), n, level)
        assert a_high + math.exp(epsilon) * b_high >= 1 and math.exp(epsilon) * a_high + b_high >= 1


def test_power_at_reads_the_rates_at_the_out_scores_quantiles(attack):
    levels = np.array([0.01, 0.05, 0.2])
    power = attack.power_at(levels)
    out, inn = attack.scores()
    for a, tp in zip(levels, power):
        tau = np.quantile(out, 1 - a, method="higher")
        assert tp == pytest.approx(np.mean(inn >= tau))
        assert np.mean(out >= tau) == pytest.approx(a, abs=2 / attack.trials)
    assert np.all(power > 0.7)                        # exact counts: most targets found at 1% false positives


def test_rates_run_from_every_one_to_no_one(attack):
    alpha, beta = attack.rates(1.0)
    assert alpha[0] == 1.0 and beta[0] == 0.0 and alpha[-1] == 0.0 and beta[-1] == 1.0
    assert np.all(np.diff(alpha) <= 0) and np.all(np.diff(beta) >= 0)


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="frequencies"):
        dp.tracing_score([1, 0], [3, 4], [0.5, 1.0], 5)
    with pytest.raises(ValueError, match="target and counts"):
        dp.tracing_score([1, 0, 1], [3, 4], [0.5, 0.5], 5)
    with pytest.raises(ValueError, match="attributes"):
        dp.tracing_attack(attributes=0)
    with pytest.raises(ValueError, match="levels"):
        dp.tracing_attack(trials=20, attributes=10, rng=np.random.default_rng(0)).power_at([0.0])
