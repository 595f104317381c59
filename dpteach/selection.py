"""Private selection: which answer is largest, or which are above a threshold, for the price of one.

Report Noisy Max (Claim 3.9) and the exponential mechanism (Definition 3.4, Theorems 3.10
and 3.11) release only *which* candidate wins, not its score; AboveThreshold and Sparse
(§3.6, Algorithms 1 and 2) release only *which* queries clear a threshold. Beside each
sampler is the exact law of its output (by a formula or by numerical integration), so the
chapters can put simulation and theory side by side.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from . import _validate
from .laplace import laplace_cdf, laplace_pdf, laplace_scale

#: Rows × columns of noise drawn at once when many runs are asked for.
_CHUNK = 2_000_000


def _simpson_nodes(breaks: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of composite Simpson's rule on [breaks[0], breaks[-1]].

    Each piece between consecutive breakpoints (where the integrand has a kink) gets an
    even number of equal steps no longer than ``step``, so the rule's O(h⁴) error holds on
    every piece: ∫ g ≈ g(nodes) @ weights.
    """
    edges = np.unique(breaks)
    nodes, weights = [edges[:1]], [np.zeros(1)]
    for lo, hi in itertools.pairwise(edges):
        n = 2 * max(1, math.ceil((hi - lo) / (2 * step)))
        h = (hi - lo) / n
        w = np.full(n + 1, 2.0)
        w[1::2] = 4.0
        w[0] = w[-1] = 1.0
        w *= h / 3
        weights[-1][-1] += w[0]
        nodes.append(np.linspace(lo, hi, n + 1)[1:])
        weights.append(w[1:])
    return np.concatenate(nodes), np.concatenate(weights)


def _runs(size) -> int | None:
    return None if size is None else _validate.integer("size", size, low=1, why="size is a number of runs")


# -- Report Noisy Max (Claim 3.9) ---------------------------------------------------------------

def report_noisy_max(counts, epsilon: float, rng: np.random.Generator | None = None, *,
                     size: int | None = None) -> int | np.ndarray:
    """Report Noisy Max (Dwork & Roth, Claim 3.9): the index of the largest count after Lap(1/ε) noise.

    .. math:: \\mathcal{M}(x) = \\arg\\max_{i} \\big(c_i(x) + Y_i\\big), \\qquad Y_i \\text{ i.i.d. } \\mathrm{Lap}(1/ε)

    Only the index is released, never the noisy counts. When c_1, …, c_m are counting
    queries (one person changes each by at most 1, all in the same direction) this is
    (ε, 0)-differentially private *however large m is*: the price of one count, not of m.

    Parameters
    ----------
    counts : 1-d array_like
        The true counts c_1(x), …, c_m(x).
    epsilon : float
        ε > 0.
    rng : numpy.random.Generator, optional
    size : int, optional
        Number of independent runs; ``None`` (default) runs once and returns an int.

    Returns
    -------
    int or numpy.ndarray of int
        The winning index (0-based), or one per run.

    Examples
    --------
    >>> import numpy as np
    >>> report_noisy_max([120, 45, 3], epsilon=1.0, rng=np.random.default_rng(0))
    0
    """
    c = _validate.array("counts", counts, ndim=(1,))
    b = laplace_scale(1.0, epsilon)
    n = _runs(size)
    gen = _validate.rng(rng)
    if n is None:
        return int(np.argmax(c + gen.laplace(0.0, b, size=c.shape)))
    out = np.empty(n, dtype=np.int64)
    rows = max(1, _CHUNK // c.size)
    for start in range(0, n, rows):
        stop = min(n, start + rows)
        out[start:stop] = np.argmax(c + gen.laplace(0.0, b, size=(stop - start, c.size)), axis=1)
    return out


def report_noisy_max_probabilities(counts, epsilon: float, *, points_per_scale: int = 100,
                                   reach: float = 40.0) -> np.ndarray:
    """The exact probability that Report Noisy Max returns each index, by numerical integration.

    Count i wins when its noisy value z is above every other noisy count, so

    .. math:: \\Pr[\\mathcal{M}(x) = i] = \\int_{-\\infty}^{\\infty} f_i(z) \\prod_{j \\ne i} F_j(z)\\, dz ,

    where f_i and F_i are the density and CDF of c_i + Lap(1/ε) (Definition 3.2). The
    integral is taken with composite Simpson's rule, ``points_per_scale`` points per noise
    scale b = 1/ε, over max c ± ``reach``·b, in pieces that end at the counts (where the
    integrand has a kink), so the rule's error is O(h⁴) on each. Outside the window it is below
    e^(−reach); counts more than 2·``reach``·b below the largest get probability 0. Equal
    counts are integrated once.

    For two counts d apart the answer has a closed form, Pr[the smaller wins] =
    ¼·e^(−d/b)·(2 + d/b): the tests check the integral against it.

    Parameters
    ----------
    counts : 1-d array_like
        The true counts.
    epsilon : float
        ε > 0, as given to :func:`report_noisy_max`.
    points_per_scale : int, default 100
        Grid points per noise scale b.
    reach : float, default 40
        Half-width of the window, in noise scales.

    Returns
    -------
    numpy.ndarray
        Pr[index i is returned], one per count; they sum to 1 up to the integration error.

    Examples
    --------
    >>> p = report_noisy_max_probabilities([10, 8], epsilon=0.5)
    >>> round(float(p[1]), 9), round(0.25 * math.exp(-1) * (2 + 1), 9)
    (0.275909581, 0.275909581)
    """
    c = _validate.array("counts", counts, ndim=(1,))
    b = laplace_scale(1.0, epsilon)
    points = _validate.integer("points_per_scale", points_per_scale, low=4)
    width = _validate.real("reach", reach, low=5.0, low_open=False, why="the window must hold the noise")
    top = float(c.max())
    contenders = c >= top - 2 * width * b
    values, inverse, multiplicity = np.unique(c[contenders], return_inverse=True, return_counts=True)
    low, high = top - width * b, top + width * b
    z, w = _simpson_nodes(np.r_[low, high, values[values > low]], b / points)
    rows = max(1, _CHUNK // z.size)
    log_all = np.zeros_like(z)                       # Σ_j ln F_j(z), over every contender
    for start in range(0, values.size, rows):
        block = values[start:start + rows, None]
        log_all += multiplicity[start:start + rows] @ np.log(laplace_cdf(z - block, b))
    winning = np.empty(values.size)
    for start in range(0, values.size, rows):
        block = values[start:start + rows, None]
        others = np.exp(log_all - np.log(laplace_cdf(z - block, b)))   # ∏_{j ≠ i} F_j(z)
        winning[start:start + rows] = (laplace_pdf(z - block, b) * others) @ w
    out = np.zeros(c.size)
    out[contenders] = winning[inverse]
    return out


# -- the exponential mechanism (Definition 3.4) -------------------------------------------------

def _utilities(utilities, sensitivity, epsilon) -> tuple[np.ndarray, float, float]:
    u = _validate.array("utilities", utilities, ndim=(1,))
    du = _validate.positive("sensitivity", sensitivity,
                            why="Δu is the most one person can change any candidate's utility, a positive number")
    eps = _validate.positive("epsilon", epsilon,
                             why="epsilon = 0 would choose uniformly at random, and epsilon < 0 means nothing")
    return u, du, eps


def exponential_mechanism_probabilities(utilities, sensitivity: float, epsilon: float) -> np.ndarray:
    """The output law of the exponential mechanism (Definition 3.4): Pr[r] ∝ exp(ε·u(x, r) / (2Δu)).

    .. math:: \\Pr[\\mathcal{M}_E(x, u, \\mathcal{R}) = r] = \\frac{\\exp\\big(ε\\,u(x, r) / (2Δu)\\big)}
              {\\sum_{r' \\in \\mathcal{R}} \\exp\\big(ε\\,u(x, r') / (2Δu)\\big)}

    Computed stably (the largest exponent is subtracted first).

    Parameters
    ----------
    utilities : 1-d array_like
        u(x, r) for each candidate r ∈ R.
    sensitivity : float
        Δu > 0, the most that adding or removing one person changes any single u(·, r).
    epsilon : float
        ε > 0.

    Examples
    --------
    >>> exponential_mechanism_probabilities([3, 1], sensitivity=1, epsilon=2.0).round(4)
    array([0.8808, 0.1192])
    """
    u, du, eps = _utilities(utilities, sensitivity, epsilon)
    logits = eps * u / (2 * du)
    weights = np.exp(logits - logits.max())
    return weights / weights.sum()


def exponential_mechanism(utilities, sensitivity: float, epsilon: float,
                          rng: np.random.Generator | None = None, *, candidates=None,
                          size: int | None = None):
    """The exponential mechanism M_E(x, u, R) (Definition 3.4): a candidate, likelier the more useful.

    Output r ∈ R with probability proportional to exp(ε·u(x, r) / (2Δu)), where

    .. math:: Δu = \\max_{r \\in \\mathcal{R}}\\ \\max_{x, y \\text{ neighbours}} |u(x, r) - u(y, r)| .

    It is (ε, 0)-differentially private (Theorem 3.10), and the candidates need not be
    numbers: a venue, a name, a rule. Its utility is near the best with high probability
    (Theorem 3.11, :func:`exponential_mechanism_bound`).

    Parameters
    ----------
    utilities : 1-d array_like
        u(x, r) for each candidate.
    sensitivity : float
        Δu > 0, a bound on how much one person changes any single utility.
    epsilon : float
        ε > 0.
    rng : numpy.random.Generator, optional
    candidates : sequence, optional
        The candidates themselves (same length as ``utilities``); when given, the chosen
        candidate is returned instead of its index.
    size : int, optional
        Number of independent runs; ``None`` (default) runs once.

    Examples
    --------
    >>> import numpy as np
    >>> exponential_mechanism([30, 2, 1], sensitivity=1, epsilon=1.0, rng=np.random.default_rng(0),
    ...                       candidates=["Lisbon", "Oslo", "Turin"])
    'Lisbon'
    """
    p = exponential_mechanism_probabilities(utilities, sensitivity, epsilon)
    n = _runs(size)
    gen = _validate.rng(rng)
    if candidates is not None:
        if isinstance(candidates, (str, bytes)) or not hasattr(candidates, "__len__"):
            raise TypeError(f"candidates must be a sequence with one entry per utility, got {candidates!r}")
        if len(candidates) != p.size:
            raise ValueError(f"candidates must have one entry per utility ({p.size}), got {len(candidates)}")
    index = gen.choice(p.size, p=p, size=n)
    if candidates is None:
        return int(index) if n is None else index
    return candidates[int(index)] if n is None else [candidates[int(i)] for i in index]


def exponential_mechanism_bound(utilities, sensitivity: float, epsilon: float, t: float) -> float:
    """Theorem 3.11: the utility below which the exponential mechanism falls with probability ≤ e^(−t).

    .. math:: \\Pr\\Big[u(\\mathcal{M}_E(x)) \\le \\mathrm{OPT} - \\frac{2Δu}{ε}\\Big(\\ln\\frac{|\\mathcal{R}|}
              {|\\mathcal{R}_{\\mathrm{OPT}}|} + t\\Big)\\Big] \\le e^{-t}

    where OPT is the best utility and R_OPT the candidates that attain it.

    Parameters
    ----------
    utilities : 1-d array_like
    sensitivity, epsilon : float
        Δu > 0 and ε > 0.
    t : float
        t ≥ 0.

    Examples
    --------
    >>> round(exponential_mechanism_bound([10, 9, 0, 0], sensitivity=1, epsilon=1.0, t=math.log(20)), 3)
    1.236
    """
    u, du, eps = _utilities(utilities, sensitivity, epsilon)
    tt = _validate.real("t", t, low=0.0, low_open=False, why="the bound fails with probability e^(−t) ≤ 1")
    best = float(u.max())
    n_best = int((u == best).sum())
    return best - 2 * du / eps * (math.log(u.size / n_best) + tt)


# -- AboveThreshold and Sparse (§3.6) -------------------------------------------------------------


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
