"""The auditor's false-alarm rate rests on its Bonferroni correction: recomputed by hand here.

`privacy_audit` makes 4 one-sided Clopper–Pearson bounds per event (a lower and an upper
bound, in both directions) and so runs each at level α/(4·events). If the correction were
lost (each bound at level α), every interval would be narrower and the reported ε lower
bound larger: the audit would claim more than its samples prove. These tests feed the
auditor a fixed sample (a deterministic "mechanism"), so nothing here is random, and
recompute the bound independently with scipy's beta quantiles (Clopper & Pearson 1934).
"""

import math

import numpy as np
import pytest
from scipy import stats

from dpteach.audit import privacy_audit

N = 10_000
#: counts of outputs ≥ each threshold on x and on y: a "mechanism" that leaks
ABOVE_X = {1: 6_000, 2: 3_000, 3: 900}
ABOVE_Y = {1: 4_000, 2: 1_100, 3: 150}


def _fixed_sample(above: dict[int, int]) -> np.ndarray:
    """N outputs in {0, 1, 2, 3} with exactly ``above[t]`` of them ≥ t."""
    out = np.zeros(N)
    for t in sorted(above):
        out[:above[t]] = t
    return out


SAMPLES = {"x": _fixed_sample(ABOVE_X), "y": _fixed_sample(ABOVE_Y)}


def mechanism(data, size, rng):
    return SAMPLES[data][:size].copy()


def _lower(successes: int, level: float) -> float:
    return 0.0 if successes == 0 else float(stats.beta.ppf(level, successes, N - successes + 1))


def _upper(successes: int, level: float) -> float:
    return 1.0 if successes == N else float(stats.beta.ppf(1 - level, successes + 1, N - successes))


def _expected_bound(thresholds, alpha: float, delta: float = 0.0) -> float:
    """max over events {Z ≥ t}, {Z ≤ t} and both directions of ln((L₁ − δ)/U₂), each bound at α/(4·events)."""
    level = alpha / (4 * 2 * len(thresholds))
    best = 0.0
    for t in thresholds:
        ge = {side: int((SAMPLES[side] >= t).sum()) for side in "xy"}
        le = {side: int((SAMPLES[side] <= t).sum()) for side in "xy"}
        for counts in (ge, le):
            for first, second in (("x", "y"), ("y", "x")):
                low, high = _lower(counts[first], level), _upper(counts[second], level)
                if low - delta > 0 and counts[first] / N - delta > counts[second] / N:
                    best = max(best, math.log((low - delta) / high))
    return best


@pytest.mark.parametrize("thresholds", [[2], [1, 2, 3], [0.5, 1, 1.5, 2, 2.5, 3]])
@pytest.mark.parametrize("alpha", [1e-6, 1e-3])
def test_bound_is_computed_at_the_corrected_level(thresholds, alpha):
    result = privacy_audit(mechanism, "x", "y", epsilon=0.1, n=N, false_alarm=alpha, thresholds=thresholds)
    assert result.n_events == 2 * len(thresholds)
    assert result.epsilon_lower_bound == pytest.approx(_expected_bound(thresholds, alpha), rel=1e-6)


def test_without_the_correction_the_bound_would_be_larger():
    """The check above can tell: at level α instead of α/(4·events) the bound differs by far more than 1e-6."""
    thresholds = [1, 2, 3]
    corrected = _expected_bound(thresholds, 1e-6)
    uncorrected = _expected_bound(thresholds, 1e-6 * 4 * 2 * len(thresholds))
    assert uncorrected > corrected * (1 + 1e-3)
    result = privacy_audit(mechanism, "x", "y", epsilon=0.1, n=N, false_alarm=1e-6, thresholds=thresholds)
    assert result.epsilon_lower_bound != pytest.approx(uncorrected, rel=1e-6)


def test_delta_is_subtracted_before_the_ratio():
    thresholds = [1, 2, 3]
    result = privacy_audit(mechanism, "x", "y", epsilon=0.1, delta=0.01, n=N, false_alarm=1e-6, thresholds=thresholds)
    assert result.epsilon_lower_bound == pytest.approx(_expected_bound(thresholds, 1e-6, delta=0.01), rel=1e-6)
