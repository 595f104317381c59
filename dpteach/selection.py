"""Private selection: which answer is largest, or which are above a threshold, for the price of one.

Report Noisy Max (Claim 3.9) and the exponential mechanism (Definition 3.4, Theorems 3.10
and 3.11) release only *which* candidate wins, not its score (AboveThreshold and Sparse,
§3.6, which release only *which* queries clear a threshold, are in :mod:`dpteach.threshold`).
Beside each sampler is the exact law of its output (by a formula or by numerical
integration), so the chapters can put simulation and theory side by side.
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate
from ._quadrature import CHUNK as _CHUNK
from ._quadrature import simpson_nodes as _simpson_nodes
from .laplace import laplace_cdf, laplace_pdf, laplace_scale


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
    single = values.size <= rows                     # one block: its ln F is kept for the second pass
    kept = None
    for start in range(0, values.size, rows):
        block = values[start:start + rows, None]
        log_f = np.log(laplace_cdf(z - block, b))
        log_all += multiplicity[start:start + rows] @ log_f
        kept = log_f if single else None
    winning = np.empty(values.size)
    for start in range(0, values.size, rows):
        block = values[start:start + rows, None]
        log_f = kept if single else np.log(laplace_cdf(z - block, b))
        others = np.exp(log_all - log_f)             # ∏_{j ≠ i} F_j(z)
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
