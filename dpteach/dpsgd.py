"""DP-SGD in miniature: logistic regression trained with clipped, Laplace-noised gradients.

The Laplace mechanism needs a bounded sensitivity, and a gradient has none: one example
far from the others can pull the gradient anywhere. Clipping each example's gradient to
ℓ1 norm at most C bounds it. Then the *sum* of the clipped gradients is a query with
ℓ1-sensitivity C (adding or removing one example adds or removes one clipped vector), and
the Laplace mechanism releases it with Lap(C/ε_step) on each coordinate (Definition 3.3).

The accounting used here, stated once and tested:

* neighbours: one training example added or removed (the workbook's neighbours);
* each step releases Σ_i clip(g_i) + (Y_1, …, Y_d), Y_j ~ Lap(C/ε_step): ε_step-DP (Theorem 3.6);
* T full-batch steps on the same data compose sequentially: ε = T·ε_step (Theorem 3.16),
  so each coordinate's noise is Lap(C·T/ε);
* the update w ← w − η·(noisy sum)/n₀ divides by a **fixed public number** n₀
  (``public_size``), chosen before the data are seen (the planned size of the training set,
  say) and the same for every neighbour, so everything after the noisy sums is
  post-processing (Proposition 2.1). Dividing by the actual number of examples would not be
  ε-DP for these neighbours: adding one example changes n, so the outputs would be
  Lap(ηb/n) and Lap(ηb/(n + 1)) around their centres, whose density ratio is unbounded.
  Leaving ``public_size`` out uses n₀ = len(x): that declares this n public, and the
  guarantee is then for the mechanism that divides by this same n₀ on every neighbour.
  (The other correct choice, not made here: replace-one neighbours, which keep n fixed, with
  the sum's ℓ1-sensitivity 2C.)

:class:`DPSGDResult` is a teaching object: besides the private weights it keeps the noise
actually added at each step. That noise is **not** private: with the weights it reveals the
exact total of the clipped gradient sums over all steps. Only the weights (and the public
accounting) are the release.

This is "DP gradient descent" (every example in every step, no subsampling, no privacy
amplification, no moments accountant): simpler and looser than Abadi et al. (2016), who use
Gaussian noise, ℓ2 clipping and sampled mini-batches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate
from .laplace import laplace_mechanism, laplace_scale


def _features(x) -> np.ndarray:
    a = _validate.array("x", x, ndim=(2,))
    return np.column_stack([a, np.ones(len(a))])          # a constant feature for the intercept


def _labels(y, n: int) -> np.ndarray:
    b = _validate.array("y", y, ndim=(1,))
    if b.shape[0] != n:
        raise ValueError(f"y must have one label per row of x ({n}), got length {b.shape[0]}")
    if not np.isin(b, (0.0, 1.0)).all():
        raise ValueError(f"y must hold only 0 and 1, got {_validate._short(b)}")
    return b


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))                  # 1/(1 + e^−z), without overflow


def logistic_gradients(w, x, y) -> np.ndarray:
    """Each example's gradient of the logistic loss, one row per example.

    .. math:: g_i = \\big(σ(w \\cdot \\tilde x_i) - y_i\\big)\\, \\tilde x_i, \\qquad \\tilde x_i = (x_i, 1),
              \\quad σ(z) = \\frac{1}{1 + e^{-z}}

    Parameters
    ----------
    w : array_like, shape (d + 1,)
        Weights, the last one the intercept.
    x : array_like, shape (n, d)
        Features.
    y : array_like of 0/1, shape (n,)
        Labels.

    Examples
    --------
    >>> logistic_gradients([0.0, 0.0], [[2.0], [-1.0]], [1, 0])
    array([[-1. , -0.5],
           [-0.5,  0.5]])
    """
    feats = _features(x)
    labels = _labels(y, len(feats))
    weights = _validate.array("w", w, ndim=(1,))
    if weights.shape[0] != feats.shape[1]:
        raise ValueError(f"w must have d + 1 = {feats.shape[1]} entries (one per feature and the intercept), "
                         f"got {weights.shape[0]}")
    return _gradients(weights, feats, labels)


def _gradients(w: np.ndarray, feats: np.ndarray, labels: np.ndarray) -> np.ndarray:
    return (_sigmoid(feats @ w) - labels)[:, None] * feats


def clip_gradients(gradients, clip: float, ord: int = 1) -> np.ndarray:
    """Scale each row down to norm at most C: g · min(1, C/‖g‖).

    .. math:: \\mathrm{clip}(g) = g \\cdot \\min\\left(1, \\frac{C}{\\|g\\|}\\right), \\qquad \\|\\mathrm{clip}(g)\\| \\le C

    With ``ord=1`` the ℓ1 norm is bounded, which is what the Laplace mechanism needs: the sum
    of clipped gradients then has ℓ1-sensitivity C (Definition 3.1). ``ord=2`` bounds the ℓ2
    norm (what the Gaussian mechanism needs); it bounds the ℓ1 norm only by √d·C. A gradient
    already short enough is left as it is.

    Parameters
    ----------
    gradients : array_like, shape (n, d)
        One gradient per row.
    clip : float
        C > 0, the largest norm a row may keep.
    ord : {1, 2}
        Which norm to bound.

    Examples
    --------
    >>> clip_gradients([[3.0, -1.0], [0.2, 0.1]], clip=1.0)
    array([[ 0.75, -0.25],
           [ 0.2 ,  0.1 ]])
    """
    g = _validate.array("gradients", gradients, ndim=(2,))
    c = _validate.positive("clip", clip, why="clip is the largest norm a gradient may keep")
    if ord not in (1, 2) or isinstance(ord, bool):
        raise ValueError(f"ord must be 1 (ℓ1, for Laplace noise) or 2 (ℓ2, for Gaussian noise), got {ord!r}")
    norms = np.linalg.norm(g, ord=ord, axis=1)
    factor = c / np.maximum(norms, c)                      # 1 when ‖g‖ ≤ C, C/‖g‖ otherwise
    return g * factor[:, None]


def noisy_gradient_sum(gradients, clip: float, epsilon: float,
                       rng: np.random.Generator | None = None) -> np.ndarray:
    """One private step: the sum of ℓ1-clipped gradients, released with the Laplace mechanism.

    .. math:: \\tilde s = \\sum_{i=1}^{n} \\mathrm{clip}_C(g_i) + (Y_1, …, Y_d), \\qquad Y_j \\sim \\mathrm{Lap}(C/ε)

    Adding or removing one example changes the sum by one clipped vector, of ℓ1 norm at
    most C: Δf = C, so the release is ε-DP (Theorem 3.6).

    Parameters
    ----------
    gradients : array_like, shape (n, d)
        Per-example gradients.
    clip : float
        C > 0, the ℓ1 clipping bound (= Δf of the sum).
    epsilon : float
        ε > 0 for this step.
    rng : numpy.random.Generator, optional
        Source of randomness.

    Examples
    --------
    >>> import numpy as np
    >>> noisy_gradient_sum([[3.0, -1.0], [0.2, 0.1]], clip=1.0, epsilon=1.0, rng=np.random.default_rng(0)).shape
    (2,)
    """
    clipped = clip_gradients(gradients, clip, ord=1)
    return laplace_mechanism(clipped.sum(axis=0), sensitivity=clip, epsilon=epsilon, rng=rng)


def dpsgd_noise_scale(clip: float, epsilon: float, steps: int) -> float:
    """The Laplace scale each coordinate of each step's gradient sum gets: b = C·T/ε.

    .. math:: ε_{\\text{step}} = ε / T, \\qquad b = \\frac{Δf}{ε_{\\text{step}}} = \\frac{C\\,T}{ε}

    T steps at ε/T each add up to ε by sequential composition (Theorem 3.16); each step's
    sum has ℓ1-sensitivity C.

    Parameters
    ----------
    clip : float
        C > 0.
    epsilon : float
        ε > 0, the total for the whole training.
    steps : int
        T ≥ 1.

    Examples
    --------
    >>> dpsgd_noise_scale(clip=0.5, epsilon=2.0, steps=10)
    2.5
    """
    t = _validate.integer("steps", steps, low=1, why="training takes at least one step")
    return laplace_scale(_validate.positive("clip", clip), _validate.epsilon(epsilon) / t)


@dataclass(frozen=True)
class DPSGDResult:
    """A trained logistic regression and the accounting of how it was trained.

    A teaching object: ``noise`` is the realised noise of every step, kept so that the
    chapter and the tests can look at it. Publishing it with the weights would reveal the
    exact total of the clipped gradient sums; the private release is ``weights`` alone.
    """

    weights: np.ndarray        # (d + 1,), the last one the intercept
    epsilon: float             # total ε (basic composition), inf when trained without privacy
    steps: int
    clip: float                # C (inf: no clipping)
    epsilon_per_step: float
    noise_scale: float         # Laplace scale per coordinate per step, C·T/ε (0: no noise)
    noise: np.ndarray          # (steps, d + 1), the noise actually added to each step's sum: NOT private
    public_size: int | None = None   # n₀, the fixed public number each step's sum is divided by

    def predict(self, x) -> np.ndarray:
        """Predicted labels, 1 where σ(w·x̃) ≥ 1/2."""
        return (_features(x) @ self.weights >= 0).astype(np.int64)

    def accuracy(self, x, y) -> float:
        """Fraction of the examples (x, y) classified correctly."""
        labels = _labels(y, len(_validate.array("x", x, ndim=(2,))))
        return float(np.mean(self.predict(x) == labels))

    def __repr__(self) -> str:
        if np.isinf(self.epsilon):
            return f"logistic regression, {self.steps} steps, no privacy"
        return (f"DP-SGD: {self.steps} steps at ε = {self.epsilon_per_step:.4g} each (total ε = {self.epsilon:g}), "
                f"ℓ1 clip C = {self.clip:g}, noise Lap({self.noise_scale:.4g}) per coordinate per step, "
                f"sums divided by the public n₀ = {self.public_size:,}")


def dpsgd_logistic_regression(x, y, epsilon: float, steps: int = 20, clip: float = 1.0,
                              learning_rate: float = 1.0,
                              rng: np.random.Generator | None = None, *,
                              public_size: int | None = None) -> DPSGDResult:
    """Logistic regression by full-batch DP gradient descent with ℓ1 clipping and Laplace noise.

    Starting from w = 0, for t = 1, …, T:

    .. math:: w \\leftarrow w - \\frac{η}{n_0} \\Big( \\sum_i \\mathrm{clip}_C(g_i(w)) + \\mathrm{Lap}(C T/ε)^{d+1} \\Big)

    Each step is ε/T-DP for neighbours that add or remove one example (sum of clipped
    gradients, Δf = C, Theorem 3.6); T steps compose to ε (Theorem 3.16). n₀ is a fixed
    public number, not the count of examples: see the module docstring for the full accounting.

    Parameters
    ----------
    x : array_like, shape (n, d)
        Training features.
    y : array_like of 0/1, shape (n,)
        Training labels.
    epsilon : float
        ε > 0 for the whole training.
    steps : int, optional
        T ≥ 1 gradient steps (default 20).
    clip : float, optional
        C > 0, the ℓ1 bound on each example's gradient (default 1).
    learning_rate : float, optional
        η > 0 (default 1).
    rng : numpy.random.Generator, optional
        Source of randomness.
    public_size : int, optional
        n₀ ≥ 1, the public number the gradient sums are divided by, fixed before the data
        are seen and kept for every neighbour. Default: len(x), which declares that size public.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[-2.0], [-1.0], [1.0], [2.0]]); y = np.array([0, 0, 1, 1])
    >>> model = dpsgd_logistic_regression(x, y, epsilon=1.0, steps=5, rng=np.random.default_rng(0))
    >>> model.noise_scale, model.noise.shape
    (5.0, (5, 2))
    """
    feats = _features(x)
    labels = _labels(y, len(feats))
    scale = dpsgd_noise_scale(clip, epsilon, steps)
    eta = _validate.positive("learning_rate", learning_rate)
    gen = _validate.rng(rng)
    n0 = len(feats) if public_size is None else _validate.integer(
        "public_size", public_size, low=1, why="n₀ is the public number the gradient sums are divided by")
    t = int(steps)
    w = np.zeros(feats.shape[1])
    noise = np.empty((t, w.size))
    for step in range(t):
        grads = _gradients(w, feats, labels)
        exact = clip_gradients(grads, clip, ord=1).sum(axis=0)
        noisy = noisy_gradient_sum(grads, clip, float(epsilon) / t, rng=gen)
        noise[step] = noisy - exact
        w = w - eta * noisy / n0
    return DPSGDResult(weights=w, epsilon=float(epsilon), steps=t, clip=float(clip),
                       epsilon_per_step=float(epsilon) / t, noise_scale=scale, noise=noise, public_size=n0)


def logistic_regression(x, y, steps: int = 20, learning_rate: float = 1.0) -> DPSGDResult:
    """The same full-batch gradient descent with no clipping and no noise: the non-private baseline.

    .. math:: w \\leftarrow w - \\frac{η}{n} \\sum_i g_i(w)

    Parameters
    ----------
    x : array_like, shape (n, d)
        Training features.
    y : array_like of 0/1, shape (n,)
        Training labels.
    steps : int, optional
        T ≥ 1 (default 20).
    learning_rate : float, optional
        η > 0 (default 1).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[-2.0], [-1.0], [1.0], [2.0]]); y = np.array([0, 0, 1, 1])
    >>> logistic_regression(x, y, steps=50).accuracy(x, y)
    1.0
    """
    feats = _features(x)
    labels = _labels(y, len(feats))
    t = _validate.integer("steps", steps, low=1, why="training takes at least one step")
    eta = _validate.positive("learning_rate", learning_rate)
    w = np.zeros(feats.shape[1])
    for _ in range(t):
        w = w - eta * _gradients(w, feats, labels).mean(axis=0)
    return DPSGDResult(weights=w, epsilon=float("inf"), steps=t, clip=float("inf"), epsilon_per_step=float("inf"),
                       noise_scale=0.0, noise=np.zeros((t, w.size)), public_size=len(feats))
