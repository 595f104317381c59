"""The Gaussian mechanism and its calibration (Dwork & Roth, Theorem 3.22 / A.1; Balle & Wang 2018).

Gaussian noise is calibrated to the ℓ2-sensitivity Δ₂f = max over neighbours ‖f(x) − f(y)‖₂,
not the ℓ1: for k counting queries that one person can all change, Δ₁f = k but Δ₂f = √k.
The price is a δ > 0: the Gaussian mechanism is (ε, δ)-DP, never (ε, 0)-DP.
"""

from __future__ import annotations

import math

import numpy as np

from . import _special, _validate
from ._roots import bisect, geometric

_WHY_DELTA = ("δ is the additive slack of (ε, δ)-DP, below 1; δ = 0 would ask the Gaussian mechanism for pure DP, "
              "which it never gives")
_WHY_SENS = "Δ₂f is the largest ℓ2 change one person can cause, a positive number"


def _delta_param(delta) -> float:
    return _validate.real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True, why=_WHY_DELTA)


def gaussian_delta(sigma: float, l2_sensitivity: float, epsilon: float) -> float:
    """The exact δ(ε) of the Gaussian mechanism N(0, σ²) with ℓ2-sensitivity Δ (Balle & Wang 2018, Thm 8).

    .. math:: δ(ε) = Φ\\left(\\frac{Δ}{2σ} - \\frac{εσ}{Δ}\\right) - e^{ε}\\, Φ\\left(-\\frac{Δ}{2σ} - \\frac{εσ}{Δ}\\right)

    The mechanism is (ε, δ)-DP if and only if δ ≥ this value, for every ε ≥ 0. The second
    term is computed as exp(ε + ln Φ(·)) so it stays finite where Φ underflows.

    Parameters
    ----------
    sigma : float
        Standard deviation σ > 0 of the noise on each coordinate.
    l2_sensitivity : float
        Δ = Δ₂f > 0.
    epsilon : float
        ε ≥ 0.

    Examples
    --------
    At the analytic σ for (ε, δ) = (1, 10⁻⁵) the formula gives back δ:

    >>> f"{gaussian_delta(gaussian_sigma(1.0, 1.0, 1e-5), 1.0, 1.0):.6e}"
    '1.000000e-05'
    """
    s = _validate.positive("sigma", sigma, why="the standard deviation of the noise")
    d = _validate.positive("l2_sensitivity", l2_sensitivity, why=_WHY_SENS)
    e = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0 for a privacy guarantee")
    a, b = d / (2 * s) - e * s / d, -d / (2 * s) - e * s / d
    value = _special.norm_cdf(a) - math.exp(e + _special.log_norm_cdf(b))
    return min(max(value, 0.0), 1.0)


def gaussian_sigma(l2_sensitivity: float, epsilon: float, delta: float) -> float:
    """The smallest σ for which N(0, σ²) noise is (ε, δ)-DP: the analytic Gaussian mechanism.

    Solves :func:`gaussian_delta` (σ) = δ by bisection on ln σ (δ(ε) falls as σ grows),
    to a relative precision of 1e-12, and returns the upper end of the final bracket, so
    the condition of Balle & Wang (2018, Theorem 8) holds at the σ returned. Valid for
    every ε > 0, unlike Theorem 3.22.

    Examples
    --------
    A check value (Balle & Wang 2018), (ε, δ) = (1, 10⁻⁵), Δ = 1:

    >>> round(gaussian_sigma(1.0, 1.0, 1e-5), 3)
    3.731
    """
    d = _validate.positive("l2_sensitivity", l2_sensitivity, why=_WHY_SENS)
    e = _validate.epsilon(epsilon)
    target = _delta_param(delta)
    # δ(σ) = Φ(Δ/2σ − εσ/Δ) − … ≤ Φ(Δ/2σ − εσ/Δ): a σ that makes the first term ≤ δ is enough.
    lo, hi = 1e-12 * d, d
    while gaussian_delta(hi, d, e) > target:
        lo, hi = hi, 2 * hi
    _, hi = bisect(lambda s: gaussian_delta(s, d, e) > target, lo, hi, split=geometric,
                   done=lambda lo, hi: math.log(hi / lo) <= 1e-12)
    return hi


def gaussian_epsilon(sigma: float, l2_sensitivity: float, delta: float) -> float:
    """The smallest ε for which N(0, σ²) noise with ℓ2-sensitivity Δ is (ε, δ)-DP: :func:`gaussian_delta` inverted.

    δ(ε) falls as ε grows; bisection on ε to a relative precision of 1e-12 returns the upper
    end of the final bracket, where Balle & Wang's condition (2018, Theorem 8) holds. Only
    Δ/σ matters: in the language of Dong, Roth & Su (2019) the mechanism is μ-GDP with
    μ = Δ/σ, and this is that μ's ε(δ).

    Examples
    --------
    >>> round(gaussian_epsilon(gaussian_sigma(1.0, 1.0, 1e-5), 1.0, 1e-5), 9)
    1.0
    """
    s = _validate.positive("sigma", sigma, why="the standard deviation of the noise")
    d = _validate.positive("l2_sensitivity", l2_sensitivity, why=_WHY_SENS)
    target = _delta_param(delta)
    if gaussian_delta(s, d, 0.0) <= target:
        return 0.0
    lo, hi = 0.0, 1.0
    while gaussian_delta(s, d, hi) > target:
        lo, hi = hi, 2 * hi
    _, hi = bisect(lambda e: gaussian_delta(s, d, e) > target, lo, hi,
                   done=lambda lo, hi: hi - lo <= 1e-12 * hi)
    return hi


_norm_cdf = np.frompyfunc(_special.norm_cdf, 1, 1)
_log_norm_cdf = np.frompyfunc(_special.log_norm_cdf, 1, 1)


def _delta_curve(sigma: np.ndarray, d: float, e: np.ndarray) -> np.ndarray:
    """:func:`gaussian_delta` at each (σ, ε) pair, by the same formula, element by element."""
    a, b = d / (2 * sigma) - e * sigma / d, -d / (2 * sigma) - e * sigma / d
    value = _norm_cdf(a).astype(float) - np.exp(e + _log_norm_cdf(b).astype(float))
    return np.clip(value, 0.0, 1.0)


def gaussian_sigma_curve(epsilons, delta: float, l2_sensitivity: float = 1.0) -> np.ndarray:
    """:func:`gaussian_sigma` at each ε of ``epsilons``, all bisections run side by side.

    The same bracket, the same bisection on ln σ and the same stopping rule as
    :func:`gaussian_sigma`, element by element, so every value equals the scalar one; the
    60 points of a curve take a few milliseconds instead of 17. Balle & Wang (2018),
    Theorem 8, holds at each σ returned.

    Examples
    --------
    >>> [round(float(s), 3) for s in gaussian_sigma_curve([1.0, 2.0], 1e-5)]
    [3.731, 1.994]
    """
    d = _validate.positive("l2_sensitivity", l2_sensitivity, why=_WHY_SENS)
    es = _validate.array("epsilons", epsilons, ndim=(1,))
    if (es <= 0).any():
        raise ValueError(f"epsilons must all be > 0 (ε = 0 would ask for no privacy loss at all), "
                         f"got {es[es <= 0][0]!r} among them")
    target = _delta_param(delta)
    lo, hi = np.full(es.shape, 1e-12 * d), np.full(es.shape, d)
    grow = _delta_curve(hi, d, es) > target
    while grow.any():
        lo, hi = np.where(grow, hi, lo), np.where(grow, 2 * hi, hi)
        grow = _delta_curve(hi, d, es) > target
    _, hi = bisect(lambda s: _delta_curve(s, d, es) > target, lo, hi, split=geometric,
                   done=lambda lo, hi: np.log(hi / lo) <= 1e-12)
    return hi


def laplace_gaussian_crossover(epsilon: float, delta: float) -> float:
    """The k beyond which, for k counting queries one person can all change, the analytic Gaussian
    adds less noise per answer than the Laplace mechanism.

    Laplace needs Lap(Δ₁f/ε) with Δ₁f = k (Dwork & Roth 2014, Theorem 3.6), standard deviation
    √2·k/ε; the Gaussian needs σ = √k·σ₁ with Δ₂f = √k and σ₁ = :func:`gaussian_sigma` (1, ε, δ).
    They are equal at √2·k/ε = √k·σ₁, that is at k = (σ₁·ε)²/2.

    Examples
    --------
    >>> round(laplace_gaussian_crossover(1.0, 1e-5), 2)
    6.96
    """
    e = _validate.epsilon(epsilon)
    return (gaussian_sigma(1.0, e, delta) * e) ** 2 / 2


def classical_gaussian_constant(delta: float) -> float:
    """Theorem 3.22's constant c = √(2 ln(1.25/δ)) (the theorem asks for c² > 2 ln(1.25/δ)).

    Examples
    --------
    >>> round(classical_gaussian_constant(1e-5), 3)
    4.845
    """
    d = _delta_param(delta)
    return math.sqrt(2 * math.log(1.25 / d))


def classical_gaussian_sigma(l2_sensitivity: float, epsilon: float, delta: float) -> float:
    """Theorem 3.22 (Dwork & Roth): σ = c·Δ₂f/ε with c = √(2 ln(1.25/δ)), stated for ε ∈ (0, 1).

    .. math:: σ ≥ c\\,\\frac{Δ_2 f}{ε}, \\qquad c^2 > 2\\ln(1.25/δ)

    gives (ε, δ)-DP when 0 < ε < 1. The value returned is the infimum (c² = 2 ln(1.25/δ));
    any σ above it qualifies. It is never smaller than the analytic :func:`gaussian_sigma`.
    """
    d = _validate.positive("l2_sensitivity", l2_sensitivity, why=_WHY_SENS)
    e = _validate.real("epsilon", epsilon, low=0.0, high=1.0, low_open=True, high_open=True,
                       why="Theorem 3.22 is stated and proved for 0 < ε < 1 only; use gaussian_sigma beyond")
    return classical_gaussian_constant(delta) * d / e


def gaussian_mechanism(true_answer, l2_sensitivity: float, epsilon: float, delta: float,
                       rng: np.random.Generator | None = None) -> np.ndarray | float:
    """The Gaussian mechanism: f(x) + N(0, σ²) on each coordinate, σ from the analytic condition.

    .. math:: \\mathcal{M}_G(x, f, ε, δ) = f(x) + (Z_1, \\dots, Z_k), \\qquad Z_i \\text{ i.i.d. } N(0, σ^2)

    with σ = :func:`gaussian_sigma` (Δ₂f, ε, δ), the smallest σ for which the mechanism is
    (ε, δ)-DP (Balle & Wang 2018). Theorem 3.22's classical σ = c·Δ₂f/ε is larger.

    Parameters
    ----------
    true_answer : float or array_like
        f(x), one number or k numbers (every entry gets its own noise).
    l2_sensitivity : float
        Δ₂f > 0, the ℓ2-sensitivity of f over all coordinates together (√k for k counts).
    epsilon, delta : float
        ε > 0 and 0 < δ < 1.
    rng : numpy.random.Generator, optional

    Examples
    --------
    >>> import numpy as np
    >>> gaussian_mechanism([120, 45, 3], l2_sensitivity=3 ** 0.5, epsilon=1.0, delta=1e-5,
    ...                    rng=np.random.default_rng(0)).shape
    (3,)
    """
    answer = _validate.array("true_answer", true_answer)
    sigma = gaussian_sigma(l2_sensitivity, epsilon, delta)
    gen = _validate.rng(rng)
    out = answer + gen.normal(0.0, sigma, size=answer.shape)
    return out if out.ndim else float(out)
