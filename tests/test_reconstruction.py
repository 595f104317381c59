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
