"""ℓ1- and ℓ2-sensitivity by enumeration (Dwork & Roth, Definition 3.1, p. 31).

A database is a histogram ``x`` over a finite universe of record types: ``x[i]`` is how
many records of type ``universe[i]`` it holds, and ``‖x‖₁`` is the number of records. Two
databases are *neighbours* when one is the other with one record added (``‖x − y‖₁ = 1``).

For a query ``f`` the ℓ1-sensitivity is the worst change one record can cause::

    Δf = max over neighbours x, y of ‖f(x) − f(y)‖₁

The functions here compute it the slow, honest way: they list every histogram with at
most ``max_size`` records, every neighbouring pair among them, and take the maximum. That
only works for tiny universes, which is the point: students see the definition computed,
not asserted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import comb

import numpy as np

from . import _validate

#: Enumeration stops here: past it the definition is better reasoned about than listed.
MAX_DATABASES = 200_000


@dataclass(frozen=True)
class NeighbourDifferences:
    """Every neighbouring pair of small databases and how far ``f`` moves between them.

    ``smaller[j]`` and ``larger[j]`` are histograms (rows of counts over the universe) that
    differ by one record; ``norm[j]`` is ``‖f(larger[j]) − f(smaller[j])‖`` in the chosen norm.
    """

    smaller: np.ndarray
    larger: np.ndarray
    norm: np.ndarray
    ord: int

    @property
    def sensitivity(self) -> float:
        """The largest difference: Δf restricted to databases of at most ``max_size`` records."""
        return float(self.norm.max())

    @property
    def witness(self) -> tuple[np.ndarray, np.ndarray]:
        """A neighbouring pair (smaller, larger) that attains the sensitivity."""
        j = int(np.argmax(self.norm))
        return self.smaller[j], self.larger[j]

    def change_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """How many neighbouring pairs move ``f`` by each amount: ``(values, counts)``, values ascending.

        The distribution behind Definition 3.1's maximum (Dwork & Roth 2014): Δf is the
        largest of ``values``. Amounts equal to 9 decimals count as one, so that rounding in
        ``f`` does not split a bar.
        """
        values, counts = np.unique(np.round(self.norm, 9), return_counts=True)
        return values, counts

    def by_size(self) -> tuple[np.ndarray, np.ndarray]:
        """For each size n of the smaller database, the largest difference among its pairs.

        Returns ``(sizes, largest)``. A query whose largest difference shrinks as n grows
        (a mean) has no sensitivity bound that depends on n alone unless n is public.
        """
        sizes = self.smaller.sum(axis=1)
        values = np.unique(sizes)
        largest = np.array([self.norm[sizes == n].max() for n in values])
        return values, largest


def all_databases(universe_size: int, max_size: int, min_size: int = 0) -> np.ndarray:
    """Every histogram over ``universe_size`` record types with ``min_size``–``max_size`` records.

    Returns an integer array of shape (number of databases, universe_size), ordered by size.
    """
    m = _validate.integer("universe_size", universe_size, low=1)
    hi = _validate.integer("max_size", max_size, low=1)
    lo = _validate.integer("min_size", min_size, low=0, high=hi - 1,
                           why="neighbours need room for one more record")
    total = sum(comb(n + m - 1, m - 1) for n in range(lo, hi + 1))
    if total > MAX_DATABASES:
        raise ValueError(
            f"max_size={hi} over a universe of {m} record types gives {total:,} databases; "
            f"enumeration is limited to {MAX_DATABASES:,}: use a smaller universe or max_size")
    blocks = [np.zeros((1, m), dtype=np.int64)] if lo == 0 else []
    for n in range(max(lo, 1), hi + 1):
        # Each database of n records is a multiset of n record types (stars and bars).
        members = np.array(list(combinations_with_replacement(range(m), n)), dtype=np.int64)
        hist = np.zeros((len(members), m), dtype=np.int64)
        np.add.at(hist, (np.arange(len(members))[:, None], members), 1)
        blocks.append(hist)
    return np.concatenate(blocks)


def neighbour_differences(f: Callable[[np.ndarray], object], universe: Sequence, max_size: int,
                          *, min_size: int = 0, ord: int = 1, vectorized: bool = False) -> NeighbourDifferences:
    """List every neighbouring pair with at most ``max_size`` records and ‖f(x) − f(y)‖.

    Parameters
    ----------
    f : callable
        The query. It receives a histogram (1-d integer array, one count per record type,
        in the order of ``universe``) and returns a number or a 1-d array of k numbers.
    universe : sequence
        The record types, e.g. ``[0, 1, 2, 3]`` for ages or ``["yes", "no"]``.
    max_size : int
        Largest database considered (the larger database of each pair has ≤ max_size records).
    min_size : int, default 0
        Smallest database considered; use 1 for a query with no value on the empty database.
    ord : {1, 2}
        The norm: 1 for ℓ1-sensitivity (Def 3.1), 2 for ℓ2-sensitivity.
    vectorized : bool, default False
        If True, ``f`` is called once with every database as the rows of a 2-d array and
        returns one row of answers per database (fast, for sliders).
    """
    if not callable(f):
        raise TypeError(f"f must be a function of a histogram, got {f!r}")
    if ord not in (1, 2):
        raise ValueError(f"ord must be 1 or 2, got {ord!r}")
    m = len(universe)
    if m == 0:
        raise ValueError("universe must hold at least one record type, got an empty sequence")
    dbs = all_databases(m, max_size, min_size)
    if vectorized:
        out = np.asarray(f(dbs), dtype=np.float64)
        if out.ndim == 1:
            out = out[:, np.newaxis]
        if out.ndim != 2 or out.shape[0] != len(dbs):
            raise ValueError(f"a vectorized f must return one row per database ({len(dbs)}), got shape {out.shape}")
    else:
        values = [np.atleast_1d(np.asarray(f(x), dtype=np.float64)) for x in dbs]
        k = values[0].shape
        if any(v.shape != k for v in values) or len(k) != 1:
            raise ValueError("f must return a number or a 1-d array of the same length for every database")
        out = np.stack(values)
    if not np.isfinite(out).all():
        bad = dbs[~np.isfinite(out).all(axis=1)][0]
        raise ValueError(
            f"f returned a non-finite value on the database {bad.tolist()}; if f has no value "
            f"on small databases (a mean of no records), raise min_size")
    # Find each database's neighbours "one more record of type i" by a sorted search over
    # the rows viewed as opaque byte strings (a total order; no integer key to overflow).
    keys = _row_keys(dbs)
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    sizes = dbs.sum(axis=1)
    growable = np.flatnonzero(sizes < max_size)
    small_idx, large_idx = [], []
    for i in range(m):
        grown = dbs[growable].copy()
        grown[:, i] += 1
        pos = order[np.searchsorted(sorted_keys, _row_keys(grown))]
        small_idx.append(growable)
        large_idx.append(pos)
    s = np.concatenate(small_idx)
    g = np.concatenate(large_idx)
    norm = np.linalg.norm(out[g] - out[s], ord=ord, axis=1)
    return NeighbourDifferences(smaller=dbs[s], larger=dbs[g], norm=norm, ord=ord)


def neighbour_differences_reference(f: Callable[[np.ndarray], object], universe: Sequence, max_size: int,
                                    *, min_size: int = 0, ord: int = 1) -> NeighbourDifferences:
    """Definition 3.1 as a plain loop: every histogram x, every neighbour y = x plus one record.

    Dwork & Roth's neighbours differ by adding or removing one record (‖x − y‖₁ = 1). Each
    such pair is listed once, as (smaller, larger); removing a record from ``larger`` gives
    ``smaller`` back. This is the readable version; :func:`neighbour_differences` lists the
    same pairs, faster.
    """
    if not callable(f):
        raise TypeError(f"f must be a function of a histogram, got {f!r}")
    if ord not in (1, 2):
        raise ValueError(f"ord must be 1 or 2, got {ord!r}")
    if len(universe) == 0:
        raise ValueError("universe must hold at least one record type, got an empty sequence")
    smaller, larger, norm = [], [], []
    for x in all_databases(len(universe), max_size, min_size):
        if x.sum() == max_size:
            continue                                   # no room for one more record
        for i in range(len(universe)):
            y = x.copy()
            y[i] += 1                                  # y is x with one more record of type i
            change = np.atleast_1d(np.asarray(f(y), dtype=float) - np.asarray(f(x), dtype=float))
            smaller.append(x)
            larger.append(y)
            norm.append(np.linalg.norm(change, ord=ord))
    return NeighbourDifferences(np.array(smaller), np.array(larger), np.array(norm), ord)


def replace_one_sensitivity(f: Callable[[np.ndarray], object], universe: Sequence, size: int,
                            *, ord: int = 1) -> float:
    """Sensitivity under *replace-one* (bounded) neighbours: databases of exactly ``size``
    records, one record swapped for another of a different type.

    Replacing a record removes it from one cell and adds it to another, so ‖x − y‖₁ = 2: it
    is a removal followed by an addition, and the sensitivity it gives is at most twice the
    add/remove one of Definition 3.1 (Dwork & Roth use add/remove). The number of records
    stays ``size``, so it is public under this notion.
    """
    if not callable(f):
        raise TypeError(f"f must be a function of a histogram, got {f!r}")
    if ord not in (1, 2):
        raise ValueError(f"ord must be 1 or 2, got {ord!r}")
    n = _validate.integer("size", size, low=1, why="a replacement needs a record to replace")
    m = len(universe)
    if m < 2:
        raise ValueError(f"universe must hold at least two record types to replace one by another, got {m}")
    largest = 0.0
    databases = all_databases(m, n, n - 1)
    for x in databases[databases.sum(axis=1) == n]:
        for i in np.flatnonzero(x):                    # a record of type i ...
            for j in range(m):
                if j == i:
                    continue
                y = x.copy()
                y[i] -= 1
                y[j] += 1                              # ... replaced by one of type j
                change = np.atleast_1d(np.asarray(f(y), dtype=float) - np.asarray(f(x), dtype=float))
                largest = max(largest, float(np.linalg.norm(change, ord=ord)))
    return largest


def _row_keys(rows: np.ndarray) -> np.ndarray:
    rows = np.ascontiguousarray(rows)
    return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()


def l1_sensitivity(f: Callable[[np.ndarray], object], universe: Sequence, max_size: int,
                   *, min_size: int = 0) -> float:
    """ℓ1-sensitivity of ``f`` by enumeration (Dwork & Roth, Definition 3.1).

    .. math:: Δf = \\max_{x, y \\,:\\, ‖x - y‖_1 = 1} ‖f(x) - f(y)‖_1

    The maximum runs over every pair of neighbouring histograms over ``universe`` with at
    most ``max_size`` records (and at least ``min_size``). For the queries of the book the
    answer does not depend on ``max_size`` once it is ≥ 1: a count gives 1, a sum of values
    clipped to [0, R] gives R, a histogram gives 1, and k arbitrary counting queries give k.

    Examples
    --------
    >>> import numpy as np
    >>> ages = np.arange(0, 5)
    >>> l1_sensitivity(lambda x: x.sum(), ages, max_size=3)   # a count
    1.0
    >>> l1_sensitivity(lambda x: x @ np.clip(ages, 0, 3), ages, max_size=3)   # sum clipped to [0, 3]
    3.0
    """
    return neighbour_differences(f, universe, max_size, min_size=min_size, ord=1).sensitivity


def l2_sensitivity(f: Callable[[np.ndarray], object], universe: Sequence, max_size: int,
                   *, min_size: int = 0) -> float:
    """ℓ2-sensitivity: Definition 3.1 with ‖·‖₂ in place of ‖·‖₁ (it drives the Gaussian mechanism).

    k counting queries asked together have ℓ1-sensitivity k but ℓ2-sensitivity √k.
    """
    return neighbour_differences(f, universe, max_size, min_size=min_size, ord=2).sensitivity
