"""Private selection: Report Noisy Max (Claim 3.9), the exponential mechanism (Definition 3.4,
Theorems 3.10 and 3.11), AboveThreshold and Sparse (§3.6, Theorems 3.23 and 3.24).

Three kinds of test:

* exact laws: the numerical integrals against closed forms, and against each other;
* privacy, exactly: the output probabilities on neighbouring inputs differ by a factor ≤ e^ε,
  and a broken variant (too little noise) is shown to fail the same check;
* simulation against the exact law: a chi-square goodness-of-fit test with fixed seeds. Each
  rejects at p < 1e-4, so a correct sampler fails it for about 1 seed in 10,000 (the
  chi-square approximation is good here: every bin expects ≥ 5 runs). Each is shown to
  reject a broken sampler.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

import dpteach as dp
from dpteach import selection, threshold

NAN, INF = float("nan"), float("inf")
P_REJECT = 1e-4


def chi_square_p(observed: np.ndarray, probabilities: np.ndarray) -> float:
    """p-value of Pearson's chi-square test; bins expecting fewer than 5 runs are pooled."""
    observed = np.asarray(observed, dtype=float)
    expected = probabilities * observed.sum()
    small = expected < 5
    if small.any():
        observed = np.r_[observed[~small], observed[small].sum()]
        expected = np.r_[expected[~small], expected[small].sum()]
    statistic = ((observed - expected) ** 2 / expected).sum()
    return float(stats.chi2.sf(statistic, df=observed.size - 1))


# -- Report Noisy Max: the exact law ---------------------------------------------------------

@pytest.mark.parametrize("epsilon", [0.01, 0.3, 1.0, 5.0])
@pytest.mark.parametrize("gap", [0, 0.5, 1, 3, 20])
def test_two_counts_match_the_closed_form(epsilon, gap):
    """Pr[the smaller of two counts d apart wins] = ¼·e^(−d/b)·(2 + d/b), b = 1/ε."""
    b = 1 / epsilon
    p = dp.report_noisy_max_probabilities([10 + gap, 10], epsilon)
    exact = 0.25 * math.exp(-gap / b) * (2 + gap / b)
    assert p[1] == pytest.approx(exact, abs=1e-9)
    assert p.sum() == pytest.approx(1, abs=1e-9)


def test_the_integral_agrees_with_an_independent_quadrature():
    """scipy's adaptive quadrature of the same integral, on five counts with ties."""
    counts, epsilon = np.array([7.0, 5.0, 5.0, 2.0, -1.0]), 0.4
    b = 1 / epsilon
    ours = dp.report_noisy_max_probabilities(counts, epsilon)
    for i, c in enumerate(counts):
        others = np.delete(counts, i)

        def integrand(z, c=c, others=others):
            return stats.laplace.pdf(z, c, b) * np.prod(stats.laplace.cdf(z, others, b))
        theirs = sum(integrate.quad(integrand, lo, hi, limit=200)[0]
                     for lo, hi in [(-60, -1), (-1, 2), (2, 5), (5, 7), (7, 60)])
        assert ours[i] == pytest.approx(theirs, abs=1e-8)
    assert ours[1] == ours[2]


@pytest.mark.parametrize("seed", range(5))
def test_probabilities_sum_to_one_shift_and_order_as_they_should(seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 30, size=rng.integers(2, 60)).astype(float)
    eps = float(rng.uniform(0.05, 2))
    p = dp.report_noisy_max_probabilities(counts, eps)
    assert p.sum() == pytest.approx(1, abs=1e-8) and (p >= 0).all()
    assert np.allclose(dp.report_noisy_max_probabilities(counts + 1000, eps), p, atol=1e-9)
    order = np.argsort(counts, kind="stable")
    assert (np.diff(p[order]) >= -1e-12).all(), "a larger count is never less likely to win"


def test_far_behind_counts_get_probability_zero_and_census_is_decided():
    data = dp.census_first_names()
    p = dp.report_noisy_max_probabilities(data.counts, epsilon=1.0)
    assert p[0] == pytest.approx(1) and p[1:].max() == 0
    p = dp.report_noisy_max_probabilities(data.counts, epsilon=1e-5)
    assert p.sum() == pytest.approx(1, abs=1e-8)
    assert 0.5 < p[0] < 0.75 and p[1] > 0.25     # JAMES and JOHN are 68,197 apart: b = 100,000 blurs them


# -- Report Noisy Max: privacy, exactly -------------------------------------------------------

def _neighbour_pairs(rng, m):
    """Count vectors of neighbouring databases: a histogram gains one person (one cell +1), or a person
    joins several overlapping counting queries (each count +0 or +1)."""
    base = rng.integers(0, 6, size=m).astype(float)
    one_cell = base.copy()
    one_cell[rng.integers(m)] += 1
    several = base + rng.integers(0, 2, size=m)
    return [(base, one_cell), (base, several)]


def _max_ratio(p, q):
    with np.errstate(divide="ignore"):
        return float(max(np.max(p / q), np.max(q / p)))


@pytest.mark.parametrize("seed", range(10))
def test_report_noisy_max_is_epsilon_dp_on_neighbours(seed):
    """Claim 3.9: every index's probability changes by a factor ≤ e^ε between neighbours."""
    rng = np.random.default_rng(seed)
    eps = float(rng.uniform(0.1, 2))
    for x, y in _neighbour_pairs(rng, int(rng.integers(2, 7))):
        p, q = dp.report_noisy_max_probabilities(x, eps), dp.report_noisy_max_probabilities(y, eps)
        assert _max_ratio(p, q) <= math.exp(eps) * (1 + 1e-7)


def test_too_little_noise_breaks_the_check():
    """Noise Lap(1/(4ε)) instead of Lap(1/ε): the same check sees a ratio far above e^ε."""
    eps = 1.0
    p = dp.report_noisy_max_probabilities([0, 0], 4 * eps)
    q = dp.report_noisy_max_probabilities([1, 0], 4 * eps)
    assert _max_ratio(p, q) > math.exp(eps) * 3


# -- Report Noisy Max: the sampler -------------------------------------------------------------

SMALL = np.array([5.0, 4.0, 4.0, 2.0, 0.0])


@pytest.mark.parametrize("epsilon", [0.25, 1.0])
def test_selection_frequencies_match_the_exact_probabilities(epsilon):
    """200,000 runs on a small example against the integrals; false-positive rate 1e-4."""
    runs = dp.report_noisy_max(SMALL, epsilon, rng=np.random.default_rng(11), size=200_000)
    observed = np.bincount(runs, minlength=SMALL.size)
    assert chi_square_p(observed, dp.report_noisy_max_probabilities(SMALL, epsilon)) > P_REJECT


def test_the_frequency_test_catches_a_sampler_with_the_wrong_noise():
    """Lap(2/ε) noise, a plausible slip (the exponential mechanism's factor 2), is rejected."""
    wrong = dp.report_noisy_max(SMALL, 0.5, rng=np.random.default_rng(11), size=200_000)   # scale 2 = 2/ε at ε = 1
    assert chi_square_p(np.bincount(wrong, minlength=5), dp.report_noisy_max_probabilities(SMALL, 1.0)) < 1e-12


def test_one_run_many_runs_and_chunks_draw_the_same_noise(monkeypatch):
    one = dp.report_noisy_max(SMALL, 0.3, rng=np.random.default_rng(4))
    assert isinstance(one, int) and one == dp.report_noisy_max(SMALL, 0.3, rng=np.random.default_rng(4), size=1)[0]
    whole = dp.report_noisy_max(SMALL, 0.3, rng=np.random.default_rng(4), size=1000)
    monkeypatch.setattr(selection, "_CHUNK", 7)            # one row per chunk
    assert np.array_equal(dp.report_noisy_max(SMALL, 0.3, rng=np.random.default_rng(4), size=1000), whole)
    assert whole.dtype == np.int64 and whole.shape == (1000,)


def test_ties_without_noise_are_impossible_and_a_clear_winner_wins():
    assert dp.report_noisy_max([1000, 0, 0], 1.0, rng=np.random.default_rng(0)) == 0
    assert set(dp.report_noisy_max([0, 0], 1.0, rng=np.random.default_rng(0), size=200).tolist()) == {0, 1}


# -- the exponential mechanism -------------------------------------------------------------------

def test_exponential_probabilities_are_definition_3_4():
    u, du, eps = np.array([3.0, 1.0, 0.0, 3.0]), 2.0, 0.7
    w = np.exp(eps * u / (2 * du))
    assert np.allclose(dp.exponential_mechanism_probabilities(u, du, eps), w / w.sum(), rtol=1e-14)
    huge = dp.exponential_mechanism_probabilities([1e6, 0.0], 1.0, 10.0)     # no overflow
    assert huge.tolist() == [1.0, 0.0]


@pytest.mark.parametrize("seed", range(10))
def test_exponential_mechanism_is_epsilon_dp_on_neighbours(seed):
    """Theorem 3.10: utilities that each move by ≤ Δu change every probability by a factor ≤ e^ε; the
    worst case (the best candidate down, the others up) gets close to e^ε."""
    rng = np.random.default_rng(seed)
    du, eps = float(rng.uniform(0.5, 3)), float(rng.uniform(0.1, 3))
    u = rng.uniform(0, 10, size=6)
    v = u + du * rng.uniform(-1, 1, size=6)
    assert _max_ratio(dp.exponential_mechanism_probabilities(u, du, eps),
                      dp.exponential_mechanism_probabilities(v, du, eps)) <= math.exp(eps) * (1 + 1e-12)
    worst = u + du
    worst[0] = u[0] - du
    ratio = _max_ratio(dp.exponential_mechanism_probabilities(u, du, eps),
                       dp.exponential_mechanism_probabilities(worst, du, eps))
    assert math.exp(eps / 2) < ratio <= math.exp(eps) * (1 + 1e-12)


def test_dropping_the_factor_two_would_break_it():
    """With exp(ε·u/Δu), the same neighbours reach a ratio above e^ε: the 2 in 2Δu is needed."""
    u, v, eps = np.array([5.0, 0.0, 0.0]), np.array([4.0, 1.0, 1.0]), 1.0
    broken_p = dp.exponential_mechanism_probabilities(u, 0.5, eps)   # Δu halved = the factor 2 dropped
    broken_q = dp.exponential_mechanism_probabilities(v, 0.5, eps)
    assert _max_ratio(broken_p, broken_q) > math.exp(eps) * 1.5


@pytest.mark.parametrize("epsilon", [0.2, 1.5])
def test_exponential_sampler_matches_its_law(epsilon):
    """False-positive rate 1e-4 (chi-square, 100,000 runs)."""
    u = np.array([4.0, 3.0, 3.0, 1.0, 0.0, -2.0])
    runs = dp.exponential_mechanism(u, 1.0, epsilon, rng=np.random.default_rng(3), size=100_000)
    p = dp.exponential_mechanism_probabilities(u, 1.0, epsilon)
    assert chi_square_p(np.bincount(runs, minlength=u.size), p) > P_REJECT
    wrong = dp.exponential_mechanism(u, 1.0, 2 * epsilon, rng=np.random.default_rng(3), size=100_000)
    assert chi_square_p(np.bincount(wrong, minlength=u.size), p) < 1e-12


def test_exponential_mechanism_returns_candidates():
    venues = ["Lisbon", "Oslo", "Turin"]
    assert dp.exponential_mechanism([100, 0, 0], 1, 1.0, rng=np.random.default_rng(0), candidates=venues) == "Lisbon"
    picks = dp.exponential_mechanism([1, 1, 1], 1, 1.0, rng=np.random.default_rng(0), candidates=venues, size=300)
    assert set(picks) == set(venues) and len(picks) == 300
    index = dp.exponential_mechanism([1, 1, 1], 1, 1.0, rng=np.random.default_rng(0))
    assert isinstance(index, int)
    with pytest.raises(ValueError, match="one entry per utility"):
        dp.exponential_mechanism([1, 2], 1, 1.0, candidates=venues)
    with pytest.raises(TypeError, match="candidates"):
        dp.exponential_mechanism([1, 2], 1, 1.0, candidates="ab")


@pytest.mark.parametrize("seed", range(10))
def test_theorem_3_11_holds_exactly(seed):
    """Pr[u(M(x)) ≤ OPT − (2Δu/ε)(ln(|R|/|R_OPT|) + t)] ≤ e^(−t), computed from the exact law."""
    rng = np.random.default_rng(seed)
    u = np.round(rng.uniform(0, 20, size=int(rng.integers(2, 50))))
    du, eps = float(rng.uniform(0.5, 2)), float(rng.uniform(0.1, 2))
    p = dp.exponential_mechanism_probabilities(u, du, eps)
    for t in (0.0, 0.5, 1.0, 3.0, 6.0):
        bound = dp.exponential_mechanism_bound(u, du, eps, t)
        assert p[u <= bound].sum() <= math.exp(-t) + 1e-12


# -- AboveThreshold ------------------------------------------------------------------------------

def test_above_threshold_law_sums_to_one_and_matches_a_limit():
    """With a huge ε the noise vanishes: the first query ≥ T is reported with probability 1."""
    p = dp.above_threshold_probabilities([1.0, 3.0, 9.0, 2.0], threshold=5, epsilon=1e6)
    assert p.round(9).tolist() == [0, 0, 1, 0, 0]
    for eps in (0.05, 0.5, 5.0):
        p = dp.above_threshold_probabilities(np.linspace(0, 40, 25), threshold=30, epsilon=eps)
        assert p.sum() == pytest.approx(1, abs=1e-8) and (p >= -1e-15).all()


def test_above_threshold_law_agrees_with_independent_quadrature():
    answers, t, eps = np.array([2.0, 6.0, 4.0]), 5.0, 0.8
    rho, nu = 2 / eps, 4 / eps
    ours = dp.above_threshold_probabilities(answers, t, eps)
    for i in range(3):
        def integrand(r, i=i):
            below = np.prod(stats.laplace.cdf(t + r - answers[:i], scale=nu))
            return stats.laplace.pdf(r, scale=rho) * below * stats.laplace.sf(t + r - answers[i], scale=nu)
        theirs = sum(integrate.quad(integrand, lo, hi, limit=200)[0] for lo, hi in [(-150, -3), (-3, 0), (0, 1), (1, 150)])
        assert ours[i] == pytest.approx(theirs, abs=1e-8)


@pytest.mark.parametrize("epsilon", [0.3, 2.0])
def test_above_threshold_sampler_matches_its_law(epsilon):
    """False-positive rate 1e-4 (chi-square, 40,000 runs); the same test rejects query noise Lap(2Δ/ε)."""
    answers, t = np.array([1.0, 4.0, 2.0, 6.0, 3.0, 8.0]), 5.0
    rng = np.random.default_rng(21)
    runs = [dp.above_threshold(answers, t, epsilon, rng=rng) for _ in range(40_000)]
    observed = np.bincount([answers.size if r is None else r for r in runs], minlength=answers.size + 1)
    assert chi_square_p(observed, dp.above_threshold_probabilities(answers, t, epsilon)) > P_REJECT
    wrong = threshold._above_threshold_probabilities(answers, t, 2 / epsilon, 2 / epsilon)
    assert chi_square_p(observed, wrong) < 1e-12


@pytest.mark.parametrize("seed", range(8))
def test_above_threshold_is_epsilon_dp_on_neighbours(seed):
    """Theorem 3.23: each answer moves by ≤ Δ (either way); every output's probability changes by ≤ e^ε."""
    rng = np.random.default_rng(seed)
    eps, sens = float(rng.uniform(0.2, 2)), float(rng.choice([1.0, 3.0]))
    t = 10.0
    a = t + sens * rng.uniform(-6, 2, size=int(rng.integers(2, 8)))
    b = a + sens * rng.choice([-1.0, 1.0], size=a.size)
    p = dp.above_threshold_probabilities(a, t, eps, sensitivity=sens)
    q = dp.above_threshold_probabilities(b, t, eps, sensitivity=sens)
    keep = (p > 1e-250) | (q > 1e-250)
    assert _max_ratio(p[keep], q[keep]) <= math.exp(eps) * (1 + 1e-6)


def test_above_threshold_without_query_noise_is_not_private():
    """The classic broken variant (next to no noise on the queries) fails the same check badly."""
    eps, t = 1.0, 0.5
    p = threshold._above_threshold_probabilities(np.array([0.0, 1.0]), t, 2 / eps, 0.05)
    q = threshold._above_threshold_probabilities(np.array([1.0, 0.0]), t, 2 / eps, 0.05)
    assert _max_ratio(p, q) > math.exp(eps) * 10


@pytest.mark.parametrize("k, beta, epsilon", [(10, 0.05, 1.0), (100, 0.1, 0.5), (1000, 0.01, 2.0)])
def test_theorem_3_24_accuracy_holds_exactly(k, beta, epsilon):
    """All queries but the last at T − α, the last at T + α: AboveThreshold errs with probability ≤ β."""
    alpha = dp.above_threshold_accuracy(k, beta, epsilon)
    assert alpha == pytest.approx(8 * (math.log(k) + math.log(2 / beta)) / epsilon)
    t = 0.0
    answers = np.full(k, t - alpha)
    answers[-1] = t + alpha
    p = dp.above_threshold_probabilities(answers, t, epsilon)
    assert 1 - p[k - 1] <= beta


def test_above_threshold_reports_clear_cases():
    rng = np.random.default_rng(0)
    assert dp.above_threshold([0, 0, 1000, 0], 500, 1.0, rng=rng) == 2
    assert dp.above_threshold([0, 0, 0], 500, 1.0, rng=rng) is None
    assert isinstance(dp.above_threshold([1000], 0, 1.0, rng=rng), int)
    assert dp.above_threshold([0, 10, 10], 5, 1.0, sensitivity=1e-6, rng=rng) == 1


# -- Sparse ----------------------------------------------------------------------------------------

def test_sparse_with_c_1_is_above_threshold():
    answers = np.array([1.0, 4.0, 2.0, 6.0, 3.0])
    for seed in range(30):
        one = dp.above_threshold(answers, 4.0, 0.7, rng=np.random.default_rng(seed))
        sparse = dp.sparse_vector(answers, 4.0, 0.7, 1, rng=np.random.default_rng(seed))
        assert sparse == ([] if one is None else [one])


def test_sparse_reports_at_most_c_increasing_indices():
    rng = np.random.default_rng(1)
    for _ in range(200):
        answers = rng.uniform(0, 10, size=12)
        found = dp.sparse_vector(answers, 5.0, 1.0, 3, rng=rng)
        assert len(found) <= 3 and found == sorted(set(found)) and all(0 <= i < 12 for i in found)
    assert dp.sparse_vector([100] * 10, 0, 1.0, 4, rng=rng) == [0, 1, 2, 3]
    assert dp.sparse_vector([0] * 10, 100, 1.0, 4, rng=rng) == []


def test_sparse_is_c_restarts_of_above_threshold_at_epsilon_over_c():
    """The law of Sparse's output with c = 2 is the composition of two AboveThreshold laws at ε/2 (the
    second on the queries after the first hit); 20,000 runs, chi-square, false-positive rate 1e-4."""
    answers, t, eps = np.array([3.0, 7.0, 4.0, 9.0, 6.0]), 5.0, 1.0
    k = answers.size
    outcomes = {(): 0.0}
    first = dp.above_threshold_probabilities(answers, t, eps / 2)
    outcomes[()] = first[-1]
    for i in range(k):
        if i == k - 1:
            outcomes[(i,)] = first[i]
            continue
        second = dp.above_threshold_probabilities(answers[i + 1:], t, eps / 2)
        outcomes[(i,)] = first[i] * second[-1]
        for j in range(i + 1, k):
            outcomes[(i, j)] = first[i] * second[j - i - 1]
    keys = sorted(outcomes)
    probabilities = np.array([outcomes[key] for key in keys])
    assert probabilities.sum() == pytest.approx(1, abs=1e-8)
    rng = np.random.default_rng(8)
    seen = [tuple(dp.sparse_vector(answers, t, eps, 2, rng=rng)) for _ in range(20_000)]
    observed = np.array([seen.count(key) for key in keys])
    assert chi_square_p(observed, probabilities) > P_REJECT
    rng = np.random.default_rng(8)          # a Sparse that forgot to split ε (ε per restart) is rejected
    wrong = [tuple(dp.sparse_vector(answers, t, 2 * eps, 2, rng=rng)) for _ in range(20_000)]
    assert chi_square_p(np.array([wrong.count(key) for key in keys]), probabilities) < 1e-12


# -- validation --------------------------------------------------------------------------------------

CALLS = {
    "report_noisy_max": lambda **kw: dp.report_noisy_max(**({"counts": [1, 2], "epsilon": 1.0} | kw)),
    "report_noisy_max_probabilities":
        lambda **kw: dp.report_noisy_max_probabilities(**({"counts": [1, 2], "epsilon": 1.0} | kw)),
    "exponential_mechanism":
        lambda **kw: dp.exponential_mechanism(**({"utilities": [1, 2], "sensitivity": 1, "epsilon": 1.0} | kw)),
    "exponential_mechanism_probabilities":
        lambda **kw: dp.exponential_mechanism_probabilities(
            **({"utilities": [1, 2], "sensitivity": 1, "epsilon": 1.0} | kw)),
    "exponential_mechanism_bound":
        lambda **kw: dp.exponential_mechanism_bound(
            **({"utilities": [1, 2], "sensitivity": 1, "epsilon": 1.0, "t": 1.0} | kw)),
    "above_threshold":
        lambda **kw: dp.above_threshold(**({"answers": [1, 2], "threshold": 1.5, "epsilon": 1.0} | kw)),
    "above_threshold_probabilities":
        lambda **kw: dp.above_threshold_probabilities(**({"answers": [1, 2], "threshold": 1.5, "epsilon": 1.0} | kw)),
    "sparse_vector":
        lambda **kw: dp.sparse_vector(**({"answers": [1, 2], "threshold": 1.5, "epsilon": 1.0, "c": 1} | kw)),
    "above_threshold_accuracy":
        lambda **kw: dp.above_threshold_accuracy(**({"k": 10, "beta": 0.05, "epsilon": 1.0} | kw)),
}

BAD = [(name, {"epsilon": bad}, ValueError, "epsilon") for name in CALLS for bad in (0, -1, NAN, INF)]
BAD += [(name, {"epsilon": "1"}, TypeError, "epsilon") for name in CALLS]
for name, param in [("report_noisy_max", "counts"), ("report_noisy_max_probabilities", "counts"),
                    ("exponential_mechanism", "utilities"), ("exponential_mechanism_probabilities", "utilities"),
                    ("exponential_mechanism_bound", "utilities"), ("above_threshold", "answers"),
                    ("above_threshold_probabilities", "answers"), ("sparse_vector", "answers")]:
    BAD += [(name, {param: [1.0, NAN]}, ValueError, param), (name, {param: []}, ValueError, param),
            (name, {param: [[1.0, 2.0]]}, ValueError, param), (name, {param: "ab"}, TypeError, param)]
for name in ("exponential_mechanism", "exponential_mechanism_probabilities", "exponential_mechanism_bound",
             "above_threshold", "above_threshold_probabilities", "sparse_vector"):
    BAD += [(name, {"sensitivity": 0}, ValueError, "sensitivity"), (name, {"sensitivity": -2}, ValueError,
                                                                    "sensitivity")]
for name in ("report_noisy_max", "exponential_mechanism", "above_threshold", "sparse_vector"):
    BAD += [(name, {"rng": 42}, TypeError, "rng")]
for name in ("report_noisy_max", "exponential_mechanism"):
    BAD += [(name, {"size": 0}, ValueError, "size"), (name, {"size": 2.5}, TypeError, "size")]
for name in ("above_threshold", "above_threshold_probabilities", "sparse_vector"):
    BAD += [(name, {"threshold": NAN}, ValueError, "threshold"), (name, {"threshold": "5"}, TypeError, "threshold")]
BAD += [
    ("sparse_vector", {"c": 0}, ValueError, "c"), ("sparse_vector", {"c": 1.5}, TypeError, "c"),
    ("exponential_mechanism_bound", {"t": -1}, ValueError, "t"),
    ("above_threshold_accuracy", {"k": 0}, ValueError, "k"), ("above_threshold_accuracy", {"beta": 0}, ValueError,
                                                              "beta"),
    ("above_threshold_accuracy", {"beta": 1.5}, ValueError, "beta"),
    ("report_noisy_max_probabilities", {"points_per_scale": 2}, ValueError, "points_per_scale"),
    ("report_noisy_max_probabilities", {"reach": 1}, ValueError, "reach"),
]


@pytest.mark.parametrize("name, overrides, error, named", BAD,
                         ids=[f"{n}-{next(iter(o))}={o[next(iter(o))]!r}" for n, o, _, _ in BAD])
def test_bad_parameters_are_refused_by_name(name, overrides, error, named):
    with pytest.raises(error) as info:
        CALLS[name](**overrides)
    assert info.type is error
    assert named in str(info.value)


def test_every_public_function_of_selection_is_validated():
    public = {n for module in (selection, threshold) for n, obj in vars(module).items()
              if not n.startswith("_") and callable(obj) and getattr(obj, "__module__", "") == module.__name__}
    assert public == set(CALLS)
    assert public <= set(dp.prelude.__all__)
