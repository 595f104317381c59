"""DP-SGD in miniature: clipping bounds the gradient and the sensitivity; the noise has the stated scale.

Statistical tests use fixed seeds; each states the false-positive rate of its check.
"""

import numpy as np
import pytest
from scipy import stats

import dpteach as dp


def test_clipping_bounds_every_norm_and_keeps_directions():
    g = np.random.default_rng(0).normal(0, 3, size=(500, 4))
    for ord_ in (1, 2):
        clipped = dp.clip_gradients(g, 1.5, ord=ord_)
        norms = np.linalg.norm(clipped, ord=ord_, axis=1)
        assert norms.max() <= 1.5 * (1 + 1e-12)
        long = np.linalg.norm(g, ord=ord_, axis=1) > 1.5
        assert np.allclose(norms[long], 1.5)
        assert np.array_equal(clipped[~long], g[~long])                      # short ones untouched
        assert np.allclose(clipped / np.linalg.norm(clipped, axis=1, keepdims=True),
                           g / np.linalg.norm(g, axis=1, keepdims=True))     # same direction
    assert np.array_equal(dp.clip_gradients([[0.0, 0.0]], 1.0), [[0.0, 0.0]])


def test_l2_clipping_does_not_bound_the_l1_norm():
    """ℓ2 clipping at C leaves an ℓ1 norm up to √d·C: not enough for Laplace noise calibrated to C."""
    clipped = dp.clip_gradients([[5.0, 5.0, 5.0, 5.0]], 1.0, ord=2)
    assert np.abs(clipped).sum() == pytest.approx(2.0)


def _sum_of_clipped(w, examples, labels, clip):
    grads = dp.logistic_gradients(w, examples, labels)
    clipped = dp.clip_gradients(grads, clip)
    return lambda x: x @ clipped        # the sum over a database holding x[j] copies of example j


@pytest.mark.parametrize("clip", [0.1, 0.5, 2.0])
def test_clipped_sum_has_sensitivity_c_by_enumeration(clip):
    """Definition 3.1 by enumerating neighbouring databases of four example types: Δf = C exactly when
    some gradient is longer than C; without clipping it would be the longest gradient's ℓ1 norm."""
    examples = np.array([[3.0, -1.0], [0.1, 0.2], [-2.0, 4.0], [0.0, 0.0]])
    labels = np.array([1, 0, 0, 1])
    w = np.array([0.3, -0.2, 0.1])
    grads = dp.logistic_gradients(w, examples, labels)
    longest = np.abs(grads).sum(axis=1).max()
    assert dp.l1_sensitivity(_sum_of_clipped(w, examples, labels, clip), np.arange(4), max_size=2) == \
        pytest.approx(min(clip, longest))
    assert dp.l1_sensitivity(lambda x: x @ grads, np.arange(4), max_size=2) == pytest.approx(longest)


def test_logistic_gradients_match_the_numerical_derivative():
    x = np.array([[0.5, -1.0], [2.0, 0.3]])
    y = np.array([1, 0])
    w = np.array([0.2, -0.4, 0.1])

    def loss(v):
        z = np.column_stack([x, np.ones(2)]) @ v
        return np.sum(np.log1p(np.exp(z)) - y * z)

    numeric = np.array([(loss(w + h) - loss(w - h)) / 2e-6 for h in np.eye(3) * 1e-6])
    assert dp.logistic_gradients(w, x, y).sum(axis=0) == pytest.approx(numeric, rel=1e-6)


def test_noise_scale_is_clip_times_steps_over_epsilon():
    assert dp.dpsgd_noise_scale(clip=0.5, epsilon=2.0, steps=10) == pytest.approx(2.5)
    assert dp.dpsgd_noise_scale(clip=1.0, epsilon=1.0, steps=1) == dp.laplace_scale(1.0, 1.0)


def test_noisy_step_adds_laplace_with_scale_c_over_epsilon():
    """With all gradients zero the step's output is pure noise: a KS test against Lap(C/ε) at α = 1e-4
    (false-positive rate 1e-4) passes, and against Lap(C/(2ε)) (noise for half the sensitivity) fails."""
    rng = np.random.default_rng(5)
    out = np.concatenate([dp.noisy_gradient_sum(np.zeros((3, 50)), clip=0.8, epsilon=0.4, rng=rng)
                          for _ in range(100)])
    assert stats.kstest(out, stats.laplace(scale=2.0).cdf).pvalue > 1e-4
    assert stats.kstest(out, stats.laplace(scale=1.0).cdf).pvalue < 1e-4


def test_training_loop_noise_matches_its_stated_sensitivity():
    """The noise the loop added (recorded per step and coordinate) is Lap(C·T/ε): KS at α = 1e-4
    (false-positive rate 1e-4), and the stated total ε is T steps of ε/T (Theorem 3.16)."""
    data = dp.synthetic_hospital(200, rng=np.random.default_rng(0))
    model = dp.dpsgd_logistic_regression(data["features"], data["condition"], epsilon=2.0, steps=400, clip=0.5,
                                         rng=np.random.default_rng(1))
    assert model.noise.shape == (400, 3)
    assert model.noise_scale == pytest.approx(0.5 * 400 / 2.0)
    assert dp.basic_composition(model.steps, model.epsilon_per_step)[0] == pytest.approx(2.0)
    assert stats.kstest(model.noise.ravel(), stats.laplace(scale=model.noise_scale).cdf).pvalue > 1e-4
    assert stats.kstest(model.noise.ravel(), stats.laplace(scale=model.noise_scale / 2).cdf).pvalue < 1e-4


def test_more_privacy_budget_more_accuracy():
    """Median test accuracy of 7 runs: near the non-private model at ε = 10, worse at ε = 0.01 (fixed seeds)."""
    data = dp.synthetic_hospital(2_000, rng=np.random.default_rng(2014))
    x, y = data["features"], data["condition"]
    baseline = dp.logistic_regression(x[:1000], y[:1000]).accuracy(x[1000:], y[1000:])
    rng = np.random.default_rng(3)

    def median(eps):
        return np.median([dp.dpsgd_logistic_regression(x[:1000], y[:1000], eps, rng=rng).accuracy(x[1000:], y[1000:])
                          for _ in range(7)])

    assert baseline > 0.8
    assert median(10.0) > baseline - 0.02
    assert median(0.01) < baseline - 0.05


@pytest.mark.parametrize("call, name", [
    (lambda: dp.clip_gradients([[1.0, 2.0]], 0), "clip"),
    (lambda: dp.clip_gradients([[1.0, 2.0]], 1.0, ord=3), "ord"),
    (lambda: dp.dpsgd_logistic_regression([[1.0]], [2], 1.0), "y"),
    (lambda: dp.dpsgd_logistic_regression([[1.0]], [1, 0], 1.0), "y"),
    (lambda: dp.logistic_gradients([0.0], [[1.0]], [1]), "w"),
    (lambda: dp.dpsgd_noise_scale(1.0, 1.0, 0), "steps"),
])
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_update_divides_by_the_public_size_not_the_number_of_examples():
    """One step from w = 0: w = −η(Σ clip(g_i) + Y)/n₀ with n₀ = public_size, whatever len(x) is."""
    data = dp.synthetic_hospital(50, rng=np.random.default_rng(4))
    x, y = data["features"], data["condition"]
    for n0 in (40, 50, 1_000):
        model = dp.dpsgd_logistic_regression(x, y, epsilon=1.0, steps=1, clip=0.5, learning_rate=0.7,
                                             rng=np.random.default_rng(6), public_size=n0)
        exact = dp.clip_gradients(dp.logistic_gradients(np.zeros(3), x, y), 0.5).sum(axis=0)
        assert model.public_size == n0
        np.testing.assert_allclose(model.weights, -0.7 * (exact + model.noise[0]) / n0, rtol=1e-12, atol=1e-15)
    assert dp.dpsgd_logistic_regression(x, y, 1.0, steps=1, rng=np.random.default_rng(6)).public_size == len(x)


def test_one_step_is_epsilon_dp_for_an_added_example_with_n0_fixed():
    """Neighbours D and D + one example, n₀ fixed: the noise that would give the same weights on the
    neighbour differs from the realised noise by Δs·(−1), so the privacy loss of every output is at most
    ‖Δs‖₁/b ≤ C/b = ε (Theorem 3.6). With the divisor n = len(x) instead, the same output needs noise
    that grows with the output, and the loss has no bound: at a large output it passes ε."""
    data = dp.synthetic_hospital(31, rng=np.random.default_rng(8))
    x, y = data["features"], data["condition"]
    eps, clip, n0 = 0.5, 1.0, 30
    s_small = dp.clip_gradients(dp.logistic_gradients(np.zeros(3), x[:30], y[:30]), clip).sum(axis=0)
    s_big = dp.clip_gradients(dp.logistic_gradients(np.zeros(3), x, y), clip).sum(axis=0)
    b = dp.dpsgd_noise_scale(clip, eps, 1)
    rng = np.random.default_rng(9)
    worst = 0.0
    for _ in range(300):
        model = dp.dpsgd_logistic_regression(x[:30], y[:30], eps, steps=1, clip=clip, rng=rng, public_size=n0)
        y_here = model.noise[0]
        y_there = -n0 * model.weights - s_big            # the noise that gives the same weights on D + one
        worst = max(worst, abs(np.abs(y_there).sum() - np.abs(y_here).sum()) / b)
    assert worst <= eps + 1e-9
    out = np.full(3, 50.0)                               # one output w; noise implied with divisors 30 and 31
    y_30, y_31 = -30 * out - s_small, -31 * out - s_big
    assert (np.abs(y_31).sum() - np.abs(y_30).sum()) / b > eps


def test_public_size_is_refused_by_name():
    with pytest.raises(ValueError, match="public_size"):
        dp.dpsgd_logistic_regression([[1.0], [-1.0]], [1, 0], 1.0, public_size=0)
