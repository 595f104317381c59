"""Private selection: which queries are large, answered for the price of one (Dwork & Roth §3.6)."""

from __future__ import annotations

import numpy as np

from . import _validate


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
    eps = _validate.positive("epsilon", epsilon)
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
    eps = _validate.positive("epsilon", epsilon)
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
