"""The sparse vector technique (Dwork & Roth §3.6): which queries clear a threshold, for the price of one.

AboveThreshold (Algorithm 1) reports the first query whose noisy answer clears a noisy
threshold, and Sparse (Algorithm 2) repeats it c times; both are (ε, 0)-differentially
private however many queries fall below (Theorem 3.23), and AboveThreshold is (α, β)-accurate
(Theorem 3.24). Beside the samplers is the exact law of AboveThreshold's output, by numerical
integration, so chapter 07 can put simulation and theory side by side.
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate
from ._quadrature import CHUNK as _CHUNK  # the integration grid and chunking shared with Report Noisy Max
from ._quadrature import simpson_nodes as _simpson_nodes
from .laplace import laplace_pdf


def above_threshold(answers, threshold: float, epsilon: float, *, sensitivity: float = 1.0,
                    rng: np.random.Generator | None = None) -> int | None:
    """AboveThreshold (Dwork & Roth, Algorithm 1, §3.6): the first query whose noisy answer clears a noisy threshold.

    .. math:: \\hat T = T + \\mathrm{Lap}(2Δ/ε), \\qquad
              \\text{report the first } i \\text{ with } f_i(x) + \\mathrm{Lap}(4Δ/ε) \\ge \\hat T

    It is (ε, 0)-differentially private however many queries fall below the threshold
    before the first one above it (Theorem 3.23), when every query has sensitivity ≤ Δ.

    Parameters
    ----------
    answers : 1-d array_like
        The true answers f_1(x), f_2(x), … of the queries, in the order they are asked.
    threshold : float
        T, the public threshold.
    epsilon : float
        ε > 0 for the whole run.
    sensitivity : float, default 1
        Δ, a bound on the sensitivity of every single query.
    rng : numpy.random.Generator, optional

    Returns
    -------
    int or None
        The index of the first query reported above the threshold, or None if none is.
    """
    a = _validate.array("answers", answers, ndim=(1,))
    t = _validate.real("threshold", threshold)
    eps = _validate.epsilon(epsilon)
    delta_f = _validate.positive("sensitivity", sensitivity)
    gen = _validate.rng(rng)
    noisy_threshold = t + gen.laplace(0.0, 2 * delta_f / eps)
    above = np.flatnonzero(a + gen.laplace(0.0, 4 * delta_f / eps, size=a.shape) >= noisy_threshold)
    return int(above[0]) if above.size else None


def sparse_vector(answers, threshold: float, epsilon: float, c: int, *, sensitivity: float = 1.0,
                  rng: np.random.Generator | None = None) -> list[int]:
    """Sparse (Dwork & Roth, Algorithm 2): the indices of up to c queries above the threshold.

    Runs AboveThreshold c times with ε/c each, restarting after each query it reports, so
    the whole run is (ε, 0)-differentially private by sequential composition. The answers
    of the reported queries are not released; answering them costs extra privacy.

    Returns
    -------
    list of int
        The indices reported above the threshold, in order (at most c of them).
    """
    a = _validate.array("answers", answers, ndim=(1,))
    count = _validate.integer("c", c, low=1, why="c is how many queries may be reported")
    eps = _validate.epsilon(epsilon)
    gen = _validate.rng(rng)
    found: list[int] = []
    start = 0
    while len(found) < count and start < a.size:
        hit = above_threshold(a[start:], threshold, eps / count, sensitivity=sensitivity, rng=gen)
        if hit is None:
            break
        found.append(start + hit)
        start += hit + 1
    return found


def _laplace_log_cdf(x: np.ndarray, scale: float) -> np.ndarray:
    """ln F(x) for Lap(scale), finite far into the left tail (where F itself underflows)."""
    with np.errstate(over="ignore"):
        return np.where(x < 0, x / scale - math.log(2), np.log1p(-0.5 * np.exp(-np.abs(x) / scale)))


def _above_threshold_probabilities(a: np.ndarray, t: float, threshold_scale: float, query_scale: float,
                                   points_per_scale: int = 100, reach: float = 40.0) -> np.ndarray:
    """Pr[AboveThreshold reports i], i = 0..k−1, and Pr[it reports none], for any two noise scales.

    Queries more than reach·(both scales) below T are passed with probability > 1 − e^(−reach)
    and reported with probability < e^(−reach): they are given probability 0 and left out of
    the product. The first query as far above T is reported unless an earlier one was: the
    queries after it get probability 0, and so does "none".
    """
    margin = reach * (threshold_scale + query_scale)
    certain = np.flatnonzero(a > t + margin)
    stop = int(certain[0]) + 1 if certain.size else a.size
    relevant = np.flatnonzero(a[:stop] >= t - margin)
    kinks = a[relevant] - t                              # where a_i + ν_i's CDF has its kink, in ρ
    half = reach * threshold_scale
    r, w = _simpson_nodes(np.r_[-half, 0.0, half, kinks[np.abs(kinks) < half]],
                          min(threshold_scale, query_scale) / points_per_scale)
    weight = laplace_pdf(r, threshold_scale) * w         # density of the threshold noise ρ, times the rule
    out = np.zeros(a.size + 1)
    prefix = np.zeros_like(r)                            # Σ_{j < i} ln Pr[a_j + ν_j < T + ρ]
    rows = max(1, _CHUNK // r.size)
    for start in range(0, relevant.size, rows):
        chunk = relevant[start:start + rows]
        log_below = _laplace_log_cdf(t + r - a[chunk, None], query_scale)
        before = prefix + np.vstack([np.zeros_like(r), np.cumsum(log_below[:-1], axis=0)])
        above = -np.expm1(log_below)                      # Pr[a_i + ν_i ≥ T + ρ]
        out[chunk] = (np.exp(before) * above) @ weight
        prefix = before[-1] + log_below[-1]
    if not certain.size:
        out[-1] = np.exp(prefix) @ weight
    return out


def above_threshold_probabilities(answers, threshold: float, epsilon: float, *,
                                  sensitivity: float = 1.0) -> np.ndarray:
    """The exact law of :func:`above_threshold`'s output, by numerical integration over the threshold noise.

    Given the threshold noise ρ ~ Lap(2Δ/ε), the queries' noises ν_i ~ Lap(4Δ/ε) are
    independent, so

    .. math:: \\Pr[\\text{report } i] = \\int f_ρ(r) \\prod_{j < i} F_ν(T + r - f_j)\\,
              \\big(1 - F_ν(T + r - f_i)\\big)\\, dr ,

    and Pr[none] is the same integral of ∏_j F_ν(T + r − f_j). Composite Simpson's rule over
    ρ ∈ ±40 threshold-noise scales, in pieces that end at the kinks (ρ = 0 and ρ = f_i − T).
    Queries more than 40 noise scales from T are settled without integrating (their
    probabilities are below e^(−40)), so a long stream costs only its queries near T.

    Returns
    -------
    numpy.ndarray, shape (k + 1,)
        Pr[the first query reported is i] for i = 0, …, k − 1, then Pr[none is reported].

    Examples
    --------
    Three queries against T = 25 at ε = 1: the third (30) is reported most often, the
    second (20) sometimes, and sometimes none is:

    >>> p = above_threshold_probabilities([10, 20, 30], threshold=25, epsilon=1.0)
    >>> p.round(3), round(float(p.sum()), 6)
    (array([0.016, 0.172, 0.656, 0.156]), 1.0)
    """
    a = _validate.array("answers", answers, ndim=(1,))
    t = _validate.real("threshold", threshold)
    eps = _validate.epsilon(epsilon)
    delta_f = _validate.positive("sensitivity", sensitivity)
    return _above_threshold_probabilities(a, t, 2 * delta_f / eps, 4 * delta_f / eps)


def above_threshold_accuracy(k: int, beta: float, epsilon: float) -> float:
    """Theorem 3.24: AboveThreshold on k queries is (α, β)-accurate with α = 8(ln k + ln(2/β))/ε.

    .. math:: α = \\frac{8\\,(\\ln k + \\ln(2/β))}{ε}

    With probability at least 1 − β it reports no query below T − α and passes over no
    query above T + α (when only the last query is within α of the threshold or above it).

    Examples
    --------
    >>> round(above_threshold_accuracy(100, 0.05, 1.0), 3)
    66.352
    """
    n = _validate.integer("k", k, low=1, why="k is the number of queries")
    b = _validate.real("beta", beta, low=0.0, high=1.0, why="beta is a probability of failure")
    eps = _validate.epsilon(epsilon)
    return 8 * (math.log(n) + math.log(2 / b)) / eps
