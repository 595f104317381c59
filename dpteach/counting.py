"""Counting and histogram queries (Dwork & Roth, Examples 3.1 and 3.2, pp. 32–33), and
what may be done to their noisy answers afterwards (post-processing, Proposition 2.1).

A counting query asks how many records satisfy a property. Over a histogram x ∈ ℕ^|X|, m
counting queries are a 0/1 matrix A (m × |X|) and their answers are f(x) = A x. One record
of type j changes answer i by A[i, j], so the ℓ1-sensitivity is the largest column sum of
A: the number of queries one record can be counted in. Arbitrary queries may all count the
same record (Δf = m); the cells of a histogram are disjoint (Δf = 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate
from .accuracy import laplace_accuracy_bound
from .laplace import laplace_mechanism, laplace_scale


def counting_queries_sensitivity(queries) -> float:
    """ℓ1-sensitivity of the counting queries f(x) = A x (Definition 3.1).

    .. math:: Δf = \\max_j \\sum_{i=1}^{m} A_{ij}

    the largest number of queries that one record type is counted in. A histogram's
    cells are disjoint, so every column holds a single 1 and Δf = 1 (Example 3.2);
    m queries that may all count the same person have Δf = m (Example 3.1).

    Parameters
    ----------
    queries : array_like of 0/1 (or bool), shape (m, |X|)
        Row i is query i: ``queries[i, j] = 1`` when records of type j satisfy it.

    Examples
    --------
    Ages 0–3. Three cumulative counts "age ≥ 1, ≥ 2, ≥ 3" against the histogram of ages:

    >>> import numpy as np
    >>> ages = np.arange(4)
    >>> counting_queries_sensitivity(ages[None, :] >= np.array([1, 2, 3])[:, None])
    3.0
    >>> counting_queries_sensitivity(np.eye(4))
    1.0
    """
    a = _validate.array("queries", queries, ndim=(2,))
    if not np.isin(a, (0.0, 1.0)).all():
        raise ValueError(f"queries must hold only 0 and 1 (record type j is counted by query i or not), "
                         f"got {_validate._short(a)}")
    return float(a.sum(axis=0).max())


def counting_queries_scale(k: int, epsilon: float, *, disjoint: bool) -> float:
    """The Laplace scale each of k counting queries needs: k/ε in general, 1/ε for a histogram.

    .. math:: b = \\frac{Δf}{ε}, \\qquad Δf = k \\text{ (arbitrary counts)}, \\quad Δf = 1 \\text{ (disjoint cells)}

    Each answer's expected absolute error E|Y| equals b (Examples 3.1 and 3.2).

    Parameters
    ----------
    k : int
        Number of counting queries (k ≥ 1).
    epsilon : float
        ε > 0.
    disjoint : bool
        True when no record can satisfy two of the queries (a histogram).

    Examples
    --------
    >>> counting_queries_scale(10, 0.5, disjoint=False), counting_queries_scale(10, 0.5, disjoint=True)
    (20.0, 2.0)
    """
    n = _validate.integer("k", k, low=1, why="there is at least one query")
    if not isinstance(disjoint, (bool, np.bool_)):
        raise TypeError(f"disjoint must be True or False, got {disjoint!r}")
    return laplace_scale(1 if disjoint else n, epsilon)


def release_counting_queries(queries, x, epsilon: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """Answer the counting queries A x with the Laplace mechanism, Δf read off A itself.

    .. math:: M_L(x, A, ε) = A x + (Y_1, …, Y_m), \\qquad Y_i \\sim \\mathrm{Lap}(Δf/ε), \\quad Δf = \\max_j \\sum_i A_{ij}

    Calibrating to :func:`counting_queries_sensitivity` makes the release ε-differentially
    private (Theorem 3.6) whether or not the queries overlap; overlapping queries simply pay
    for it with more noise.

    Parameters
    ----------
    queries : array_like of 0/1, shape (m, |X|)
        The counting queries, one per row.
    x : array_like of non-negative integers, shape (|X|,)
        The database as a histogram.
    epsilon : float
        ε > 0.
    rng : numpy.random.Generator, optional
        Source of randomness.
    """
    a = _validate.array("queries", queries, ndim=(2,))
    hist = _validate.array("x", x, ndim=(1,), nonnegative=True)
    if hist.shape[0] != a.shape[1]:
        raise ValueError(f"x must have one count per record type, {a.shape[1]} (the columns of queries), "
                         f"got length {hist.shape[0]}")
    return laplace_mechanism(a @ hist, counting_queries_sensitivity(a), epsilon, rng)


# -- post-processing ----------------------------------------------------------------------

def clamp_nonnegative(noisy) -> np.ndarray:
    """Post-processing: replace negative released counts by 0, max(y, 0).

    No count is negative, so clamping can only move a released count towards the truth:
    |max(y, 0) − x| ≤ |y − x| for every x ≥ 0. It is free: Proposition 2.1 says a function
    of the output that does not look at the data again keeps the privacy guarantee.

    Examples
    --------
    >>> clamp_nonnegative([-1.5, 0.2, 7.0])
    array([0. , 0.2, 7. ])
    """
    y = _validate.array("noisy", noisy, nonempty=False)
    return np.maximum(y, 0.0)


def round_counts(noisy) -> np.ndarray:
    """Post-processing: round released counts to the nearest integer (ties to even).

    A count is an integer; rounding makes the release look like one and moves each value by
    at most 0.5, so the error of any cell changes by at most 0.5, up or down. Free, by
    Proposition 2.1.

    Examples
    --------
    >>> round_counts([-1.5, 0.2, 7.6])
    array([-2,  0,  8])
    """
    y = _validate.array("noisy", noisy, nonempty=False)
    return np.rint(y).astype(np.int64)


@dataclass(frozen=True)
class PostProcessingEffect:
    """Errors of one release before and after clamping and rounding (see :func:`post_processing_effect`).

    Each dict is keyed by the version's name: ``"released"``, ``"clamped"``, ``"rounded"``,
    ``"clamped and rounded"``.
    """

    versions: dict
    max_error: dict
    mean_error: dict
    negative: dict

    def __repr__(self) -> str:
        width = max(len(name) for name in self.versions)
        lines = [f"{'version':<{width}}  {'max |error|':>11}  {'mean |error|':>12}  {'counts < 0':>10}"]
        for name in self.versions:
            lines.append(f"{name:<{width}}  {self.max_error[name]:>11.3f}  {self.mean_error[name]:>12.4f}  "
                         f"{self.negative[name]:>10,}")
        return "\n".join(lines)


def post_processing_effect(true_counts, noisy) -> PostProcessingEffect:
    """How clamping to ≥ 0 and rounding change a release's error, cell by cell (Proposition 2.1).

    .. math:: |\\max(y, 0) - x| \\le |y - x| \\ (x \\ge 0), \\qquad |\\mathrm{round}(y) - y| \\le \\tfrac12

    Clamping never increases any cell's error (true counts are ≥ 0); on cells whose true
    count is 0 it removes the negative half of the noise, halving the mean error there
    (E|max(Y, 0)| = b/2 for Y ~ Lap(b)). Rounding moves each cell by at most 0.5.

    Parameters
    ----------
    true_counts : array_like, non-negative
        The true histogram x.
    noisy : array_like
        A release of it, same shape.

    Examples
    --------
    >>> effect = post_processing_effect([0, 0, 5], [-2.0, 0.4, 5.7])
    >>> effect.max_error["released"], round(effect.max_error["clamped"], 3)
    (2.0, 0.7)
    """
    x = _validate.array("true_counts", true_counts, nonnegative=True)
    y = _validate.array("noisy", noisy)
    if x.shape != y.shape:
        raise ValueError(f"true_counts and noisy must have the same shape, got {x.shape} and {y.shape}")
    versions = {"released": y, "clamped": clamp_nonnegative(y), "rounded": round_counts(y),
                "clamped and rounded": round_counts(clamp_nonnegative(y))}
    errors = {name: np.abs(v - x) for name, v in versions.items()}
    return PostProcessingEffect(
        versions=versions,
        max_error={name: float(e.max()) for name, e in errors.items()},
        mean_error={name: float(e.mean()) for name, e in errors.items()},
        negative={name: int((v < 0).sum()) for name, v in versions.items()})


# -- marketing measurement: a report of conversions by campaign-day ------------------------

def capped_histogram(users, cells, n_cells: int, cap: int) -> np.ndarray:
    """Histogram of events by cell, keeping at most ``cap`` events per user (in the order given).

    .. math:: Δf = \\max_{\\text{one user}} \\|h(x) - h(x \\setminus \\text{user})\\|_1 = c \\qquad \\text{(Definition 3.1)}

    Capping each user's *total* contribution at c makes the histogram's ℓ1-sensitivity c:
    adding or removing one user changes the cells by at most c in all. (A cap per cell
    would not do: a user in many cells could still move the histogram by c per cell.) The
    cap depends on one user's own events only, so it is part of the query, not a peek at
    the others; the price is bias: the events beyond the cap are dropped.

    Parameters
    ----------
    users : array_like of int, shape (n,)
        Who each event belongs to.
    cells : array_like of int, shape (n,)
        Which cell (campaign-day, say) each event falls in, 0 ≤ cell < n_cells.
    n_cells : int
        Number of cells in the histogram.
    cap : int
        c ≥ 1, the most events one user may contribute; Δf = c.

    Examples
    --------
    User 7 converts three times, user 8 once; with a cap of 2 user 7's third event is dropped:

    >>> capped_histogram([7, 7, 7, 8], [0, 1, 1, 1], n_cells=3, cap=2)
    array([1, 2, 0])
    """
    n = _validate.integer("n_cells", n_cells, low=1)
    c = _validate.integer("cap", cap, low=1, why="each user must be allowed at least one event")
    u = _validate.array("users", users, ndim=(1,), nonempty=False)
    j = _validate.array("cells", cells, ndim=(1,), nonempty=False)
    if u.shape != j.shape:
        raise ValueError(f"users and cells must have the same length (one entry per event), "
                         f"got {u.shape[0]} and {j.shape[0]}")
    for name, a in (("users", u), ("cells", j)):
        if (a != np.round(a)).any():
            raise ValueError(f"{name} must hold integers, got {_validate._short(a)}")
    if ((j < 0) | (j >= n)).any():
        raise ValueError(f"cells must be integers in [0, {n - 1}], got {_validate._short(j)}")
    order = np.argsort(u, kind="stable")
    sorted_users = u[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_users)) + 1]
    group_start = np.repeat(starts, np.diff(np.r_[starts, len(u)]))
    rank = np.arange(len(u)) - group_start        # 0 for a user's first event, 1 for the second, …
    kept = order[rank < c]
    return np.bincount(j[kept].astype(np.int64), minlength=n)


@dataclass(frozen=True)
class HistogramNoise:
    """The noise a Laplace-released histogram carries (see :func:`histogram_noise`)."""

    sensitivity: float     # Δf (the per-user cap c)
    epsilon: float
    cells: int             # N, the number of cells
    beta: float            # the failure probability of the ℓ∞ bound (the book's δ)
    scale: float           # b = Δf/ε
    variance: float        # 2b², per cell
    std: float             # √2·b
    linf_bound: float      # ln(N/β)·b: no cell is off by more, with probability ≥ 1 − β (Thm 3.8)
    crossover: float       # 2b²: cells smaller than this have more DP noise than sampling noise

    def __repr__(self) -> str:
        return (f"Δf = {self.sensitivity:g}, ε = {self.epsilon:g}, N = {self.cells:,} cells: "
                f"per-cell noise Lap({self.scale:g}), variance {self.variance:g}, std {self.std:.3f}; "
                f"every cell within ±{self.linf_bound:.2f} with probability {1 - self.beta:.0%}; "
                f"DP noise exceeds sampling noise in cells under {self.crossover:g}")


def histogram_noise(sensitivity: float, epsilon: float, cells: int, beta: float = 0.05) -> HistogramNoise:
    """The noise of a histogram released with the Laplace mechanism, in the numbers a report needs.

    Per cell the noise is Lap(b) with b = Δf/ε, so its variance is

    .. math:: \\mathrm{Var}[Y] = 2\\left(\\frac{Δf}{ε}\\right)^2 ,

    a term that adds to any other variance of the count and can be modelled explicitly.
    Across N cells, Theorem 3.8 bounds the largest error: with probability ≥ 1 − β no cell
    is off by more than ln(N/β)·Δf/ε. If a cell's count n is itself a sample (Poisson
    variance n), DP noise dominates sampling noise exactly when n < 2(Δf/ε)²: the
    ``crossover``.

    Parameters
    ----------
    sensitivity : float
        Δf > 0: 1 when each person is in one cell once; the cap c when each user's
        contributions are capped at c in all (see :func:`capped_histogram`).
    epsilon : float
        ε > 0.
    cells : int
        N ≥ 1, the number of cells (campaign-days, say).
    beta : float, optional
        Failure probability for the ℓ∞ bound, 0 < β ≤ 1 (default 0.05: 95% confidence). The
        book writes δ.

    Examples
    --------
    A conversion report capped at c = 5 conversions per user, released at ε = 1:

    >>> h = histogram_noise(5, 1.0, cells=600)
    >>> h.variance, round(h.linf_bound, 1), h.crossover
    (50.0, 47.0, 50.0)
    """
    n = _validate.integer("cells", cells, low=1, why="a histogram has at least one cell")
    b = laplace_scale(sensitivity, epsilon)
    bound = laplace_accuracy_bound(n, beta, sensitivity, epsilon)
    return HistogramNoise(sensitivity=float(sensitivity), epsilon=float(epsilon), cells=n, beta=float(beta),
                          scale=b, variance=2 * b**2, std=float(np.sqrt(2) * b), linf_bound=bound,
                          crossover=2 * b**2)
