"""The reconstruction attack (Dinur & Nissim 2003): its decoder, its recovery rate measured with a
standard error against an independent implementation and against the normal approximation, the
slider's sweep, and the chapter 11 exercise.

Statistical comparisons allow 4 standard errors (of the difference): a correct implementation
fails one with probability about 6·10⁻⁵ (normal approximation), and the seeds are fixed.
"""

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach.exercises import EXERCISES


def _independent_attack(n, m, b, trials, seed):
    """The attack written again: SVD least squares (numpy's lstsq), its own draws."""
    gen = np.random.default_rng(seed)
    rates = []
    for _ in range(trials):
        secret = gen.integers(0, 2, size=n)
        a = gen.integers(0, 2, size=(m, n)).astype(float)
        answers = a @ secret + gen.laplace(0.0, b, size=m)
        estimate = np.linalg.lstsq(a, answers, rcond=None)[0]
        rates.append(np.mean((estimate >= 0.5) == secret))
    rates = np.array(rates)
    return rates.mean(), rates.std(ddof=1) / math.sqrt(trials)


@pytest.mark.parametrize("shape", [(60, 240), (60, 30)], ids=["tall", "wide"])
def test_decoder_is_the_pseudo_inverse(shape):
    m, n = shape[1], shape[0]
    a = dp.subset_queries(n, m, rng=np.random.default_rng(1))
    assert np.allclose(dp.least_squares_decoder(a), np.linalg.pinv(a), atol=1e-10)


def test_exact_answers_give_every_bit():
    result = dp.reconstruction_attack(50, 200, 0.0, trials=5, rng=np.random.default_rng(2))
    assert result.rate == 1.0


@pytest.mark.parametrize("b", [1.5, 6.0, 160.0])
def test_rate_agrees_with_an_independent_implementation(b):
    ours = dp.reconstruction_attack(40, 160, b, trials=30, rng=np.random.default_rng(3))
    rate, se = _independent_attack(40, 160, b, 30, seed=4)
    assert abs(ours.rate - rate) <= 4 * math.hypot(ours.standard_error, se)


@pytest.mark.parametrize("b", [3.0, 10.0, 400.0])
def test_rate_agrees_with_the_normal_approximation(b):
    ours = dp.reconstruction_attack(100, 400, b, trials=30, rng=np.random.default_rng(5))
    predicted = dp.predicted_reconstruction_rate(100, 400, b, rng=np.random.default_rng(6))
    # the prediction is for one random matrix; its spread over matrices is far below the SE
    assert abs(ours.rate - predicted) <= 4 * ours.standard_error + 0.005


def test_small_noise_recovers_nearly_all_and_the_budget_noise_about_half():
    """The chapter's claim: b well below √n recovers nearly every bit; b = m/ε with ε = 1, about half."""
    n, m = 100, 400
    sharp = dp.reconstruction_attack(n, m, 1.0, trials=20, rng=np.random.default_rng(7))
    assert sharp.rate >= 0.99
    private = dp.reconstruction_attack(n, m, m / 1.0, trials=40, rng=np.random.default_rng(8))
    assert abs(private.rate - 0.5) <= 4 * private.standard_error + 0.01
    assert private.total_epsilon == pytest.approx(1.0)


def test_sweep_equals_decoding_each_noise_level():
    sweep = dp.ReconstructionSweep(40, ms=(80, 160), trials=6, rng=np.random.default_rng(9))
    gen = np.random.default_rng(9)                      # the sweep's draws, in its order
    secrets = gen.integers(0, 2, size=(40, 6))
    queries = gen.integers(0, 2, size=(160, 40)).astype(float)
    unit = gen.laplace(0.0, 1.0, size=(160, 6))
    for m in (80, 160):
        for b in (0.5, 3.0, 50.0):
            decoded = np.linalg.pinv(queries[:m]) @ (queries[:m] @ secrets + b * unit[:m]) >= 0.5
            assert sweep.rates(m, b) == pytest.approx(np.mean(decoded == secrets), abs=1e-12)


@pytest.mark.parametrize("call, name", [
    (lambda: dp.reconstruction_attack(1, 10, 1.0), "n"),
    (lambda: dp.reconstruction_attack(10, 0, 1.0), "m"),
    (lambda: dp.reconstruction_attack(10, 10, -1.0), "noise_scale"),
    (lambda: dp.reconstruction_attack(10, 10, 1.0, trials=1), "trials"),
    (lambda: dp.reconstruct(np.ones((3, 2)), np.ones(4)), "answers"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_exercise_right_and_usual_mistakes():
    check = dp.exercises.check_reconstruction_noise
    m, total = 4 * 400, 1.0
    assert check(m / total).correct
    wrong = check(1 / total)
    assert wrong.correct is False and "share" in wrong.message
    assert check(math.sqrt(m) / total).correct is False
    assert "1600" not in check(20.0).message and "1,600" not in check(20.0).message
    spec = EXERCISES["check_reconstruction_noise"]
    for params in spec.variants():
        expected = params["multiple"] * params["n"] / params["total"]
        assert spec.expected(**params) == pytest.approx(expected)


# -- what the release costs: basic composition's m/b against one person's loss -------------------------------------

def test_a_persons_loss_is_her_number_of_queries_over_b():
    """Removing person i moves the n_i answers whose subset holds her by 1 each: the privacy loss of the Laplace
    release (dp.privacy_loss, Theorem 3.6's log-ratio) reaches n_i/b at an output beyond every such answer."""
    queries = dp.subset_queries(12, 30, rng=np.random.default_rng(3))
    b = 2.0
    secret = np.random.default_rng(4).integers(0, 2, size=12).astype(float)
    costs = dp.per_person_epsilon(queries, noise_scale=b)
    for i in range(12):
        without = secret.copy()
        without[i] = 0.0
        fx, fy = queries @ np.where(np.arange(12) == i, 1.0, secret), queries @ without
        z = fx + 100.0                                     # far above both: every held answer on the same side
        loss = dp.privacy_loss(z, fx, fy, sensitivity=b, epsilon=1.0)
        assert abs(loss) == pytest.approx(queries[:, i].sum() / b) == pytest.approx(costs[i])
    assert costs.max() <= queries.shape[0] / b


def test_the_worst_off_person_pays_about_225_not_400():
    """Chapter 11 once said the release at b = 1 "costs ε = 400" (m/b). With n = 100 and m = 400 random halves the
    largest loss is max_i Binomial(400, ½): its exact mean, Σ_k (1 − F(k)^100) with F the binomial CDF (scipy), is
    about 225. The mean over 200 query sets lies within 4 standard errors of it (false alarm ≈ 6·10⁻⁵)."""
    from scipy.stats import binom
    k = np.arange(0, 401)
    exact_mean = float(np.sum(1 - binom.cdf(k, 400, 0.5) ** 100))
    assert 224 < exact_mean < 226
    gen = np.random.default_rng(5)
    worst = np.array([dp.per_person_epsilon(dp.subset_queries(100, 400, gen), 1.0).max() for _ in range(200)])
    assert abs(worst.mean() - exact_mean) <= 4 * worst.std(ddof=1) / math.sqrt(200)


def test_the_chapter_says_which_cost_is_which():
    from helpers import ROOT
    text = (ROOT / "sources" / "11_what_epsilon_promises.md").read_text(encoding="utf-8")
    assert 'costs" ε = 400' not in text and "costs ε = 400" not in text
    assert "dp.per_person_epsilon" in text and "basic composition charges m/b" in text
