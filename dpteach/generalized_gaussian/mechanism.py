"""The Generalized Gaussian mechanism (Ganesh & Zhao 2020): f(x) + X, and the smallest σ that is (ε, δ)-DP.

No closed form for σ is at hand for p ∉ {1, 2} (Ganesh & Zhao 2020 give asymptotic bounds
with unstated constants), so σ is found numerically: the privacy accountant
(:func:`dpteach.privacy_loss_distribution`) gives an upper bound on δ(ε) for each σ, and a
root-finder on ln σ finds where it crosses the target δ.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate
from ..gaussian import gaussian_sigma
from .accountant import privacy_loss_distribution
from .distribution import GeneralizedGaussianNoise, check_shape, generalized_gaussian_sample

_WHY_K = "k counting queries, k ≥ 1"
_WHY_DELTA = "δ is the additive slack of (ε, δ)-DP, below 1; δ = 0 (pure DP) is out of reach for p > 1"


def check_delta(delta) -> float:
    """δ, checked: 0 < δ < 1."""
    return _validate.real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True, why=_WHY_DELTA)


def _accountant_delta(k: int, p: float, sigma: float, epsilon: float, resolution: float) -> float:
    return privacy_loss_distribution(GeneralizedGaussianNoise(p, sigma), k, resolution=resolution).delta(epsilon)


def generalized_gaussian_sigma(k: int, p: float, epsilon: float, delta: float, *, resolution: float = 100,
                               rtol: float = 1e-6) -> float:
    """The smallest σ for which the Generalized Gaussian mechanism on k counting queries is (ε, δ)-DP.

    Neighbours differ by 1 in every one of the k answers; the privacy accountant
    (:func:`dpteach.privacy_loss_distribution`) gives an upper bound on δ(ε) for each σ,
    and a root-finder on ln σ (regula falsi, Illinois variant, on ln δ(ε)) finds where it
    crosses δ. The σ returned is the upper end of the final bracket: the accountant's
    δ(ε) ≤ δ holds there, so the mechanism is (ε, δ)-DP. The accountant is pessimistic,
    so σ is a little larger than the true smallest one. How much larger was measured
    (relative, ε from 0.1 to 2, δ from 10⁻⁹ to 10⁻³): at the default resolution, within
    about 1e-5 (at most 1.3e-5 at p = 2, against the analytic Gaussian, for k from 1 to
    10⁴; at most 1.5e-5 for p ≥ 1.5 from k = 10 on and for p ≥ 3, against resolution
    1600). A single query with p near 1 is harder, its loss piling up near its largest
    value: 5e-5 at p = 1.5, 2e-4 at p = 1.2, 1.1e-3 at p = 1.05 (and 3e-6 at p = 1).
    ``resolution=25``, 2 to 4 times faster, is up to 2e-4 high at p = 2.

    At p = 1 this is the Laplace mechanism calibrated for (ε, δ): for large k its scale
    grows like √k, not like the k/ε of pure ε-DP.

    Parameters
    ----------
    k : int
        Number of counting queries, k ≥ 1.
    p : float
        Shape, p ≥ 1.
    epsilon, delta : float
        ε > 0 and 0 < δ < 1.
    resolution : float, optional
        The accountant's grid points per standard deviation of one coordinate's loss; the
        excess of σ above falls like 1/resolution².
    rtol : float, optional
        Relative precision of σ.
    """
    kk = _validate.integer("k", k, low=1, high=10**7, why=_WHY_K)
    pp = check_shape(p)
    eps = _validate.epsilon(epsilon)
    target = check_delta(delta)
    tol = _validate.real("rtol", rtol, low=0.0, high=0.1)
    res = _validate.real("resolution", resolution, low=1.0, low_open=False, high=1e5)
    log_target = math.log(target)

    def f(log_sigma: float) -> float:     # > 0: too little noise
        d = _accountant_delta(kk, pp, math.exp(log_sigma), eps, res)
        return math.log(d) - log_target if d > 0 else -math.inf

    # Start from the Gaussian with the same variance, then bracket the root.
    std = gaussian_sigma(math.sqrt(kk), eps, target)
    x0 = math.log(std * math.sqrt(math.exp(math.lgamma(1 / pp) - math.lgamma(3 / pp))))
    f0 = f(x0)
    step = 0.2 if f0 > 0 else -0.2
    x1, f1 = x0 + step, f(x0 + step)
    while (f1 > 0) == (f0 > 0):
        x0, f0 = x1, f1
        step *= 1.6
        x1, f1 = x1 + step, f(x1 + step)
    (lo, flo), (hi, fhi) = ((x0, f0), (x1, f1)) if x0 < x1 else ((x1, f1), (x0, f0))
    side = 0
    while hi - lo > tol:
        if math.isfinite(fhi):
            mid = hi - fhi * (hi - lo) / (fhi - flo)
            mid = min(max(mid, lo + 0.01 * (hi - lo)), hi - 0.01 * (hi - lo))
        else:
            mid = 0.5 * (lo + hi)
        fm = f(mid)
        if fm > 0:
            lo, flo = mid, fm
            if side == -1 and math.isfinite(fhi):
                fhi /= 2           # Illinois: stop the same end from lingering
            side = -1
        else:
            hi, fhi = mid, fm
            if side == 1:
                flo /= 2
            side = 1
    return math.exp(hi)


def generalized_gaussian_mechanism(true_answer, p: float, sigma: float,
                                   rng: np.random.Generator | None = None) -> np.ndarray | float:
    """f(x) + X, X with density ∝ exp(−(‖X‖_p/σ)^p): i.i.d. coordinates, each p/(2σΓ(1/p))·exp(−(|x_i|/σ)^p).

    For k counting queries :func:`generalized_gaussian_sigma` gives the smallest σ that is
    (ε, δ)-DP; this function adds the noise for a σ you choose.

    >>> generalized_gaussian_mechanism([120, 45, 3], p=2.2, sigma=4.0, rng=np.random.default_rng(0)).shape
    (3,)
    """
    answer = _validate.array("true_answer", true_answer)
    out = answer + generalized_gaussian_sample(p, sigma, answer.shape, rng)
    return out if out.ndim else float(out)
