"""Broken AboveThreshold variants against the claimed ε: the auditor refutes each on its counterexample,
the true privacy loss of the audited event (computed here exactly, independently of the sampler) exceeds
the claim, the auditor's bound never exceeds that truth, and the correct AboveThreshold stays within ε
(Theorem 3.23) and unrefuted, with one answer and with c answers. The audits are deterministic under a seed.
Four variants are Lyu, Su & Li's (PVLDB 2017); "no threshold noise" is the workbook's own, and says so."""

import math

import numpy as np
import pytest

import dpteach as dp

EPS = 1.0


def _laplace_cdf(x, b):
    x = np.asarray(x, dtype=float)
    return np.where(x < 0, 0.5 * np.exp(x / b), 1 - 0.5 * np.exp(-x / b))


def _no_threshold_noise_loss():
    """Exactly: Pr[Z ≥ j] = F(T − f)^j on each side (the first j answers below the bare threshold)."""
    case = dp.counterexample("no threshold noise")
    b, t = 4 / EPS, case.threshold
    j = np.arange(1, case.x.size + 1)
    on_x = _laplace_cdf(t - case.x[0], b) ** j
    on_y = _laplace_cdf(t - case.y[0], b) ** j
    return float(np.max(np.log(on_x / on_y)))


def _no_halting_loss():
    """Exactly, by quadrature over the threshold noise: the event 'every query of the second half ⊤ and
    none of the first' (the statistic at its maximum) on x and on y."""
    case = dp.counterexample("no halting")
    r = np.linspace(-60, 60, 240_001)
    density = 0.5 * EPS / 2 * np.exp(-np.abs(r) * EPS / 2)
    def prob(f):
        cut = case.threshold + r[:, None] - f[None, :]
        below = _laplace_cdf(cut, 4 / EPS)
        half = f.size // 2
        inner = np.prod(below[:, :half], axis=1) * np.prod(1 - below[:, half:], axis=1)
        return np.trapezoid(inner * density, r)
    return math.log(prob(case.x) / prob(case.y))


def _noisy_value_event_probabilities(answers, t):
    """Exactly, by quadrature over the threshold noise ρ: Pr[the ⊤ is the last query and its released value v ≤ t]
    = ∫ p(ρ) Π_{j<m} F(T + ρ − a_j) · Pr[T + ρ ≤ a_m + ν ≤ t] dρ, F the CDF of Lap(4/ε)."""
    case = dp.counterexample("noisy value")
    r = np.linspace(-80, 80, 320_001)
    density = EPS / 4 * np.exp(-np.abs(r) * EPS / 2)
    below = np.prod(_laplace_cdf(case.threshold + r[:, None] - answers[None, :-1], 4 / EPS), axis=1)
    last = np.clip(_laplace_cdf(t - answers[-1], 4 / EPS) - _laplace_cdf(case.threshold + r - answers[-1], 4 / EPS),
                   0, None)
    return float(np.trapezoid(density * below * last, r))


def _noisy_value_loss():
    """The largest true log-ratio over the events the auditor tries, {Z ≤ t} and {Z ≥ t}, both ways."""
    case = dp.counterexample("noisy value")
    worst = 0.0
    for t in dp.sparse_variants.VALUE_THRESHOLDS:
        px, py = (_noisy_value_event_probabilities(a, t) for a in (case.x, case.y))
        for a, b in ((px, py), (1 - px, 1 - py)):
            worst = max(worst, abs(math.log(a / b)))
    return worst


def test_broken_variants_lose_more_than_the_claim_exactly():
    assert _no_threshold_noise_loss() > 1.5 * EPS
    assert _no_halting_loss() > 2 * EPS
    assert _noisy_value_loss() > 1.8 * EPS


def test_the_noisy_value_loss_grows_with_the_queries_below():
    """As the released value falls, the threshold noise is capped and each ⊥ before it is likelier on x by e^(ε/4):
    the log-ratio of {v ≤ t} tends to (queries below)·ε/4, beyond any fixed ε as the queries grow."""
    case = dp.counterexample("noisy value")
    far = math.log(_noisy_value_event_probabilities(case.x, -30.0) / _noisy_value_event_probabilities(case.y, -30.0))
    below = case.x.size - 1
    assert far == pytest.approx(below * EPS / 4 + EPS / 4, abs=0.05)       # the ⊤ query's own shift adds ε/4


@pytest.fixture(scope="module")
def audits():
    gen = np.random.default_rng(11)           # the chapter's seed for its audit cell
    return {v: dp.audit_variant(v, EPS, rng=gen) for v in dp.sparse_variants.VARIANTS}


def test_broken_variants_are_refuted_and_the_correct_one_is_not(audits):
    """False alarm ≤ 10⁻³ per audit: the correct algorithm is refuted with at most that probability."""
    assert set(audits) == {"correct", *dp.sparse_variants.PUBLISHED, "no threshold noise"}
    for variant in (*dp.sparse_variants.PUBLISHED, "no threshold noise"):
        assert audits[variant].refuted and audits[variant].epsilon_lower_bound > EPS, variant
    assert not audits["correct"].refuted


def test_the_correct_algorithm_with_c_answers_is_not_refuted_where_the_unscaled_one_is():
    """Lyu, Su & Li's Algorithm 1 (query noise Lap(4c/ε)) on the unscaled variant's own counterexample: not refuted
    (false alarm ≤ 10⁻³, the auditor's rate)."""
    case = dp.counterexample("unscaled query noise")

    def scaled(answers, size, g):
        return case.summarise(dp.above_threshold_runs(answers, case.threshold, EPS, "correct", size, g, c=case.c))

    result = dp.privacy_audit(scaled, case.x, case.y, EPS, n=100_000, false_alarm=1e-3,
                              thresholds=np.arange(-case.x.size, case.x.size + 1), rng=np.random.default_rng(12))
    assert not result.refuted


def test_auditor_never_claims_more_than_the_truth(audits):
    assert audits["no threshold noise"].epsilon_lower_bound <= _no_threshold_noise_loss()
    assert audits["noisy value"].epsilon_lower_bound <= _noisy_value_loss()


def test_the_noisy_value_sampler_releases_the_value_that_cleared_the_threshold():
    pattern, value = dp.noisy_value_runs([0.0, 0.0, 5.0], 1.0, EPS, size=10_000, rng=np.random.default_rng(7))
    hit = pattern.any(axis=1)
    assert np.array_equal(pattern, dp.above_threshold_runs([0.0, 0.0, 5.0], 1.0, EPS, "noisy value", size=10_000,
                                                            rng=np.random.default_rng(7)))
    assert np.all(np.isneginf(value[~hit])) and np.all(np.isfinite(value[hit]))
    assert pattern.sum(axis=1).max() == 1


def test_no_threshold_noise_is_cited_as_the_workbooks_own():
    """Issue 37: "no threshold noise" is not among Lyu, Su & Li's variants; wherever they are cited, it is called
    this workbook's own."""
    from helpers import ROOT
    assert "no threshold noise" not in dp.sparse_variants.PUBLISHED
    doc = dp.sparse_variants.__doc__
    assert "one of this workbook's own" in doc
    for name in ("09_noise_on_a_computer.md", "11_what_epsilon_promises.md"):
        text = (ROOT / "sources" / name).read_text(encoding="utf-8")
        assert "workbook's own" in text and "three broken variants" not in text and "each once published" not in text


def test_correct_above_threshold_stays_within_epsilon():
    """Theorem 3.23 on the audit's neighbours: every event {Z ≥ t}, {Z ≤ t} of the first ⊤'s index,
    from the exact law (dp.above_threshold_probabilities), has log-ratio ≤ ε."""
    case = dp.counterexample("correct")
    px = dp.above_threshold_probabilities(case.x, case.threshold, EPS)
    py = dp.above_threshold_probabilities(case.y, case.threshold, EPS)
    for events in (np.cumsum(px), np.cumsum(py)), (np.cumsum(px[::-1]), np.cumsum(py[::-1])):
        ratio = np.abs(np.log(events[0] / events[1]))
        assert ratio.max() <= EPS + 1e-9


def test_sampler_matches_the_exact_law_of_above_threshold():
    case = dp.counterexample("correct")
    first = dp.first_above(dp.above_threshold_runs(case.x, case.threshold, EPS, size=100_000,
                                                   rng=np.random.default_rng(3)))
    counts = np.bincount(first, minlength=case.x.size + 1)
    exact = dp.above_threshold_probabilities(case.x, case.threshold, EPS) * 100_000
    # each cell within 5 standard deviations (binomial): false alarm ≤ 17 · 6e-7
    assert np.all(np.abs(counts - exact) <= 5 * np.sqrt(exact * (1 - exact / 100_000)) + 1)


def test_no_query_noise_event_is_impossible_on_y():
    case = dp.counterexample("no query noise")
    runs = dp.above_threshold_runs(case.y, case.threshold, EPS, "no query noise", size=50_000,
                                   rng=np.random.default_rng(4))
    assert not np.any(case.summarise(runs) >= 1)


def test_the_audit_says_what_a_test_can_say():
    """Issue 37: "with probability at least 1 − 10⁻³ each, they are not 1-DP" is a probability about the
    mechanism; the audit is a test (if the variant were 1-DP, a refutation would happen with probability ≤ 10⁻³)."""
    from helpers import ROOT
    for path in [ROOT / "sources" / "11_what_epsilon_promises.md", ROOT / "instructor" / "11_what_epsilon_promises.md"]:
        assert "with probability at least 1 − 10⁻³ each" not in path.read_text(encoding="utf-8")
    assert "with probability at least 1 − α the mechanism is not" not in dp.AuditResult.__doc__


def test_audit_is_deterministic_under_a_seed():
    one = dp.audit_variant("no halting", EPS, n=20_000, rng=np.random.default_rng(5))
    two = dp.audit_variant("no halting", EPS, n=20_000, rng=np.random.default_rng(5))
    assert one.epsilon_lower_bound == two.epsilon_lower_bound and one.event == two.event


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="variant"):
        dp.audit_variant("no noise at all")
    with pytest.raises(ValueError, match="epsilon"):
        dp.above_threshold_runs([0, 1], 0.5, 0.0)


def test_exercise_against_the_exact_probabilities():
    check = dp.exercises.check_unnoised_threshold_ratio
    below_x, below_y = _laplace_cdf(0.0, 4.0), _laplace_cdf(-1.0, 4.0)
    ratio = float((below_x / below_y) ** 8)
    assert check(round(ratio, 2)).correct
    claim = check(round(math.e, 3))
    assert claim.correct is False and "claimed" in claim.message and "7.39" not in claim.message
