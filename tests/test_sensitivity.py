"""ℓ1- and ℓ2-sensitivity by enumeration (Dwork & Roth, Definition 3.1, p. 31).

Every expected value below follows from Definition 3.1 (Dwork & Roth 2014): a count has Δf = 1, a sum
clipped to [0, R] has Δf = R, a histogram over disjoint cells has Δf = 1, k counting queries
that one record can all touch have Δf = k (and Δ₂f = √k), and a mean with a private n has
no fixed sensitivity.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import dpteach as dp
from dpteach.sensitivity import MAX_DATABASES


def count(x: np.ndarray) -> float:
    """The counting query: how many records the database holds."""
    return float(x.sum())


def histogram(x: np.ndarray) -> np.ndarray:
    """f = identity on the histogram: one count per record type (disjoint cells)."""
    return x.astype(float)


def clipped_sum(values, R: float):
    """The query 'sum of the records' values, each clipped to [0, R]'."""
    clipped = np.clip(np.asarray(values, dtype=float), 0.0, R)
    return lambda x: float(x @ clipped)


def stars_and_bars(m: int, max_size: int, min_size: int = 0) -> int:
    """Number of histograms over m record types with min_size..max_size records."""
    return sum(math.comb(n + m - 1, m - 1) for n in range(min_size, max_size + 1))


def differs_by_one_record(smaller: np.ndarray, larger: np.ndarray) -> bool:
    """Whether ``larger`` is ``smaller`` with exactly one record added (‖x − y‖₁ = 1)."""
    diff = np.asarray(larger) - np.asarray(smaller)
    return bool((diff >= 0).all() and diff.sum() == 1)


# --- the book's queries --------------------------------------------------------------------


@pytest.mark.parametrize("universe_size", [1, 3, 5])
@pytest.mark.parametrize("max_size", [1, 3])
def test_count_has_sensitivity_one(universe_size, max_size):
    """Definition 3.1 / Example 3.1: a count changes by at most 1 when one record is added."""
    universe = list(range(universe_size))
    assert dp.l1_sensitivity(count, universe, max_size) == 1.0
    assert dp.l2_sensitivity(count, universe, max_size) == 1.0


@pytest.mark.parametrize("R", [1.0, 2.5, 7.0, 100.0])
def test_clipped_sum_has_sensitivity_R(R):
    """Definition 3.1: a sum of values clipped to [0, R] has Δf = R (one record adds at most R)."""
    # Values below 0, inside [0, R] and above R, so clipping matters at both ends.
    values = [-3.0, 0.0, 0.4 * R, R + 5.0]
    f = clipped_sum(values, R)
    assert dp.l1_sensitivity(f, values, max_size=3) == pytest.approx(R, rel=1e-12)
    assert dp.l2_sensitivity(f, values, max_size=3) == pytest.approx(R, rel=1e-12)


@pytest.mark.parametrize("universe_size", [1, 2, 4, 6, 12])
def test_histogram_has_sensitivity_one(universe_size):
    """Definition 3.1 / Example 3.2: a histogram over disjoint cells has Δf = 1, however many cells."""
    universe = list(range(universe_size))
    max_size = 3 if universe_size <= 6 else 2
    assert dp.l1_sensitivity(histogram, universe, max_size) == 1.0
    assert dp.l2_sensitivity(histogram, universe, max_size) == 1.0


# Each matrix Q has k overlapping counting queries (rows) over the record types (columns).
# Query i counts the records whose type j has Q[i, j] = 1. Every matrix has an all-ones row
# (a query that counts every record) and an all-ones column (a record type that every
# query counts), so one added record can move all k answers by 1 each.
COUNTING_QUERY_MATRICES = {
    "k=2": np.array([[1, 1, 1],
                     [0, 1, 1]]),
    "k=3": np.array([[1, 1, 1, 1],
                     [1, 1, 0, 0],
                     [0, 1, 1, 0]]),
    "k=5": np.array([[1, 1, 1, 1],
                     [1, 0, 1, 0],
                     [1, 1, 0, 0],
                     [1, 0, 0, 1],
                     [1, 1, 1, 0]]),
}


@pytest.mark.parametrize("Q", COUNTING_QUERY_MATRICES.values(), ids=COUNTING_QUERY_MATRICES.keys())
def test_k_counting_queries_have_l1_k_and_l2_sqrt_k(Q):
    """Definition 3.1 / Example 3.1: k counting queries one record can all change: Δf = k, Δ₂f = √k."""
    k, m = Q.shape
    universe = list(range(m))
    f = lambda x: Q @ x  # noqa: E731
    assert dp.l1_sensitivity(f, universe, max_size=2) == pytest.approx(k, rel=1e-12)
    assert dp.l2_sensitivity(f, universe, max_size=2) == pytest.approx(math.sqrt(k), rel=1e-12)


def test_counting_queries_sensitivity_is_largest_column_sum():
    """Definition 3.1: for f = Qx a record of type j moves the answers by column j, so Δf = max column sum."""
    rng = np.random.default_rng(20240501)
    for _ in range(5):
        Q = rng.integers(0, 2, size=(4, 5))
        col = Q.sum(axis=0)
        f = lambda x, Q=Q: Q @ x  # noqa: E731
        assert dp.l1_sensitivity(f, list(range(5)), max_size=2) == pytest.approx(col.max())
        assert dp.l2_sensitivity(f, list(range(5)), max_size=2) == pytest.approx(math.sqrt(col.max()))


# --- the mean with a private n: no fixed sensitivity ----------------------------------------


def test_mean_with_private_n_has_change_shrinking_as_R_over_n_plus_1():
    """Definition 3.1: a mean of values in [0, R] with private n moves by R/(n+1) from n to n+1 records."""
    values = np.array([0.0, 1.0, 2.0, 3.0])
    R = values.max()
    mean = lambda x: float(x @ values / x.sum())  # noqa: E731
    nd = dp.neighbour_differences(mean, values, max_size=6, min_size=1)
    sizes, largest = nd.by_size()
    np.testing.assert_array_equal(sizes, [1, 2, 3, 4, 5])
    np.testing.assert_allclose(largest, R / (sizes + 1), rtol=1e-12)
    assert (np.diff(largest) < 0).all()
    # The overall maximum is attained at the smallest database, n = min_size = 1.
    assert nd.sensitivity == pytest.approx(R / 2)
    smaller, larger = nd.witness
    assert smaller.sum() == 1
    assert differs_by_one_record(smaller, larger)


def test_mean_sensitivity_depends_on_the_smallest_database_allowed():
    """Definition 3.1: with private n the mean's Δf is R/(min_size+1), set by the smallest database."""
    values = np.array([0.0, 2.0, 5.0])
    R = values.max()
    mean = lambda x: float(x @ values / x.sum())  # noqa: E731
    for min_size in (1, 2, 3):
        got = dp.l1_sensitivity(mean, values, max_size=5, min_size=min_size)
        assert got == pytest.approx(R / (min_size + 1), rel=1e-12)


# --- what the enumeration returns ------------------------------------------------------------


WITNESS_CASES = {
    "count": (count, [0, 1, 2], 0),
    "clipped sum": (clipped_sum([-1.0, 1.0, 4.0, 9.0], 4.0), [-1.0, 1.0, 4.0, 9.0], 0),
    "histogram": (histogram, ["a", "b", "c", "d"], 0),
    "k queries": (lambda x: COUNTING_QUERY_MATRICES["k=3"] @ x, [0, 1, 2, 3], 0),
    "mean": (lambda x: float(x @ np.array([0.0, 1.0, 3.0]) / x.sum()), [0.0, 1.0, 3.0], 1),
}


@pytest.mark.parametrize("f, universe, min_size", WITNESS_CASES.values(), ids=WITNESS_CASES.keys())
@pytest.mark.parametrize("ord", [1, 2])
def test_witness_is_a_neighbouring_pair_attaining_the_maximum(f, universe, min_size, ord):
    """Definition 3.1: the witness (x, y) is a neighbouring pair, ‖x − y‖₁ = 1, with ‖f(x) − f(y)‖ = Δf."""
    nd = dp.neighbour_differences(f, universe, max_size=3, min_size=min_size, ord=ord)
    smaller, larger = nd.witness
    assert differs_by_one_record(smaller, larger)
    assert smaller.sum() >= min_size and larger.sum() <= 3
    diff = np.atleast_1d(np.asarray(f(larger), dtype=float) - np.asarray(f(smaller), dtype=float))
    assert np.linalg.norm(diff, ord=ord) == pytest.approx(nd.sensitivity, rel=1e-12)
    assert nd.sensitivity == pytest.approx(nd.norm.max())


@pytest.mark.parametrize("universe_size, max_size, min_size", [(1, 4, 0), (3, 3, 0), (4, 3, 1), (5, 2, 0)])
def test_every_listed_pair_is_a_neighbouring_pair_and_every_pair_is_listed(universe_size, max_size, min_size):
    """Definition 3.1 ranges over all neighbours: each database below max_size pairs with its m extensions."""
    universe = list(range(universe_size))
    nd = dp.neighbour_differences(histogram, universe, max_size, min_size=min_size)
    diff = nd.larger - nd.smaller
    assert ((diff >= 0).all(axis=1) & (diff.sum(axis=1) == 1)).all()
    expected_pairs = universe_size * stars_and_bars(universe_size, max_size - 1, min_size)
    assert len(nd.norm) == expected_pairs
    pairs = {(tuple(s), tuple(g)) for s, g in zip(nd.smaller, nd.larger)}
    assert len(pairs) == expected_pairs
    # f = identity, so ‖f(larger) − f(smaller)‖ is the ‖x − y‖₁ = 1 of the pair itself.
    np.testing.assert_array_equal(nd.norm, np.ones(expected_pairs))


@pytest.mark.parametrize("query", ["count", "clipped sum"])
def test_sensitivity_does_not_depend_on_max_size(query):
    """Definition 3.1: for a count or a clipped sum Δf is the same for every max_size ≥ 1."""
    values = [0.0, 1.5, 6.0]
    f = count if query == "count" else clipped_sum(values, 5.0)
    expected = 1.0 if query == "count" else 5.0
    got = [dp.l1_sensitivity(f, values, max_size=n) for n in range(1, 7)]
    assert got == pytest.approx([expected] * 6, rel=1e-12)


@pytest.mark.parametrize("universe_size, max_size, min_size",
                         [(1, 1, 0), (1, 5, 2), (2, 4, 0), (3, 5, 0), (4, 3, 1), (6, 4, 2), (10, 3, 0)])
def test_enumeration_count_matches_stars_and_bars(universe_size, max_size, min_size):
    """Databases are histograms in ℕ^|X|: there are C(n + m − 1, m − 1) with n records over m types."""
    dbs = dp.all_databases(universe_size, max_size, min_size)
    assert dbs.shape == (stars_and_bars(universe_size, max_size, min_size), universe_size)
    assert (dbs >= 0).all()
    sizes = dbs.sum(axis=1)
    assert sizes.min() == min_size and sizes.max() == max_size
    assert (np.diff(sizes) >= 0).all(), "databases are ordered by size"
    assert len({tuple(row) for row in dbs}) == len(dbs), "no database is listed twice"


def test_too_large_enumeration_raises():
    """Enumerating Definition 3.1 over more than MAX_DATABASES histograms is refused with a ValueError."""
    assert stars_and_bars(20, 10) > MAX_DATABASES
    with pytest.raises(ValueError, match="enumeration"):
        dp.all_databases(20, 10)
    with pytest.raises(ValueError, match="enumeration"):
        dp.l1_sensitivity(count, list(range(20)), max_size=10)


def test_nan_on_empty_database_raises_and_mentions_min_size():
    """A mean of no records is undefined: f = NaN on the empty database raises ValueError naming min_size."""
    values = np.array([0.0, 1.0, 2.0])

    def mean(x):
        return float("nan") if x.sum() == 0 else float(x @ values / x.sum())

    with pytest.raises(ValueError, match="min_size"):
        dp.l1_sensitivity(mean, values, max_size=3)
    with pytest.raises(ValueError, match="min_size"):
        dp.l2_sensitivity(mean, values, max_size=3)
    assert dp.l1_sensitivity(mean, values, max_size=3, min_size=1) == pytest.approx(1.0)


def test_f_returning_different_shapes_raises():
    """Definition 3.1 needs f : ℕ^|X| → ℝ^k with one k: answers of other lengths raise a ValueError."""
    with pytest.raises(ValueError):
        dp.l1_sensitivity(lambda x: np.ones(int(x.sum()) + 1), [0, 1], max_size=3)
    with pytest.raises(ValueError):
        dp.l1_sensitivity(lambda x: np.ones((2, 2)) * x.sum(), [0, 1], max_size=2)


# --- regression: large universes within the enumeration limit ------------------------------
# An earlier version keyed databases by the int64 Σ x_i (max_size+1)^i, which overflowed
# silently for these sizes: (65, 1) gave Δf = 0 and (33, 3) gave 10 with a non-neighbouring
# witness, for a query whose Δf is 5.


@pytest.mark.parametrize("universe_size, max_size", [(65, 1), (70, 1), (33, 3), (41, 2)])
def test_large_universe_within_the_enumeration_limit(universe_size, max_size):
    """Definition 3.1 for f(x) = 5·x[-1] gives 5, from neighbouring pairs only, however large the universe."""
    assert stars_and_bars(universe_size, max_size) <= MAX_DATABASES
    f = lambda x: 5.0 * x[-1]  # noqa: E731
    nd = dp.neighbour_differences(f, list(range(universe_size)), max_size)
    diff = nd.larger - nd.smaller
    assert ((diff >= 0).all(axis=1) & (diff.sum(axis=1) == 1)).all()
    assert len(nd.norm) == universe_size * stars_and_bars(universe_size, max_size - 1)
    assert differs_by_one_record(*nd.witness)
    assert nd.sensitivity == 5.0
    assert dp.l1_sensitivity(histogram, list(range(universe_size)), max_size) == 1.0


def test_large_universes_enumerate_without_recursion():
    """A universe of 1,000 record types and one record: 1,001 databases, each neighbour found."""
    d = dp.neighbour_differences(lambda x: x @ np.arange(1000.0), np.arange(1000), max_size=1)
    assert d.sensitivity == 999.0 and len(d.norm) == 1000


def test_vectorized_enumeration_agrees_with_the_one_database_at_a_time_path():
    """Calling f once on every database (rows) gives the same differences as calling it per database."""
    ages = np.arange(6)
    queries = (ages[None, :] >= np.arange(1, 4)[:, None]).astype(float)
    slow = dp.neighbour_differences(lambda x: queries @ x, ages, 3)
    fast = dp.neighbour_differences(lambda xs: xs @ queries.T, ages, 3, vectorized=True)
    np.testing.assert_array_equal(slow.norm, fast.norm)
    assert fast.sensitivity == 3
    scalar = dp.neighbour_differences(lambda xs: xs @ ages, ages, 2, vectorized=True)
    assert scalar.sensitivity == 5
    with pytest.raises(ValueError, match="one row per database"):
        dp.neighbour_differences(lambda xs: xs[:3] @ ages, ages, 2, vectorized=True)


# --- the readable reference loop against the fast enumeration ---------------------------------

def _pairs(result) -> list[tuple]:
    """The neighbouring pairs and their norms, as a sorted list (the two versions list them in different orders)."""
    return sorted((tuple(s), tuple(g), round(float(v), 9))
                  for s, g, v in zip(result.smaller.tolist(), result.larger.tolist(), result.norm))


@st.composite
def queries(draw):
    """A random query over a small universe: linear (k rows of weights), optionally made nonlinear."""
    m = draw(st.integers(1, 4))
    k = draw(st.integers(1, 3))
    weights = np.array(draw(st.lists(st.integers(-3, 3), min_size=m * k, max_size=m * k)), dtype=float).reshape(k, m)
    shape = draw(st.sampled_from(["linear", "square", "clip", "max"]))
    transform = {"linear": lambda v: v, "square": lambda v: v ** 2,
                 "clip": lambda v: np.clip(v, -2, 2), "max": lambda v: np.array([v.max()])}[shape]
    return m, (lambda x: transform(weights @ x)), shape


@settings(max_examples=150, deadline=None)
@given(query=queries(), max_size=st.integers(1, 3), min_size=st.integers(0, 2), ord=st.sampled_from([1, 2]))
def test_fast_enumeration_lists_the_same_pairs_as_the_reference_loop(query, max_size, min_size, ord):
    """Definition 3.1: the fast neighbour_differences and the plain loop list the same
    (smaller, larger) pairs with the same ‖f(larger) − f(smaller)‖, for random queries
    (linear, squared, clipped, a maximum), universes, sizes and both norms."""
    m, f, _ = query
    min_size = min(min_size, max_size - 1)
    universe = list(range(m))
    fast = dp.neighbour_differences(f, universe, max_size, min_size=min_size, ord=ord)
    slow = dp.neighbour_differences_reference(f, universe, max_size, min_size=min_size, ord=ord)
    assert _pairs(fast) == _pairs(slow)
    assert fast.sensitivity == pytest.approx(slow.sensitivity, rel=1e-12, abs=1e-12)


def test_reference_pairs_are_add_remove_neighbours_and_the_count_matches():
    """Each listed pair differs by one added record; there are (databases with room) × |X| pairs."""
    result = dp.neighbour_differences_reference(count, [0, 1, 2], max_size=3)
    assert all(differs_by_one_record(s, g) for s, g in zip(result.smaller, result.larger))
    assert len(result.norm) == stars_and_bars(3, 2) * 3


def test_reference_refuses_bad_input():
    with pytest.raises(ValueError, match="ord"):
        dp.neighbour_differences_reference(count, [0, 1], 2, ord=3)
    with pytest.raises(TypeError, match="f must be"):
        dp.neighbour_differences_reference(5, [0, 1], 2)
    with pytest.raises(ValueError, match="max_size"):
        dp.neighbour_differences_reference(count, [0, 1], 0)


# --- replace-one (bounded) neighbours -------------------------------------------------------------


@pytest.mark.parametrize("universe_size", [2, 3, 5])
def test_replace_one_doubles_the_histogram_and_keeps_a_partial_count(universe_size):
    """A replacement changes two cells (‖x − y‖₁ = 2): the histogram's sensitivity is 2, twice the
    add/remove Δf = 1; a count of one record type moves by at most 1; the total count does not move."""
    universe = list(range(universe_size))
    assert dp.replace_one_sensitivity(histogram, universe, size=2) == 2.0
    assert dp.replace_one_sensitivity(lambda x: float(x[0]), universe, size=2) == 1.0
    assert dp.replace_one_sensitivity(count, universe, size=2) == 0.0


@pytest.mark.parametrize("n", [1, 2, 4])
def test_mean_with_public_n(n):
    """Values in [0, R], n public: the sum divided by n has add/remove Δf = R/n, and the mean of
    exactly n records moves by at most (max − min)/n under replace-one."""
    values = np.array([0.0, 3.0, 10.0])
    R = values.max()
    assert dp.l1_sensitivity(lambda x: x @ values / n, values, max_size=3) == pytest.approx(R / n)
    replace = dp.replace_one_sensitivity(lambda x: x @ values / x.sum(), values, size=n)
    assert replace == pytest.approx((values.max() - values.min()) / n)


@settings(max_examples=60, deadline=None)
@given(query=queries(), size=st.integers(1, 3))
def test_replace_one_is_at_most_twice_add_remove(query, size):
    """A replacement is a removal then an addition, so by the triangle inequality its change is at
    most twice the add/remove sensitivity (over databases one record larger)."""
    m, f, _ = query
    assume(m >= 2)
    universe = list(range(m))
    assert dp.replace_one_sensitivity(f, universe, size) <= 2 * dp.l1_sensitivity(f, universe, size) + 1e-9


def test_replace_one_refuses_bad_input():
    with pytest.raises(ValueError, match="size"):
        dp.replace_one_sensitivity(count, [0, 1], size=0)
    with pytest.raises(ValueError, match="universe"):
        dp.replace_one_sensitivity(count, [0], size=2)
    with pytest.raises(ValueError, match="ord"):
        dp.replace_one_sensitivity(count, [0, 1], size=2, ord=0)


def test_change_counts_tally_every_pair_and_end_at_the_sensitivity():
    """The bars of the neighbour-changes figure: a sum clipped to [0, 3] over values 0–10 moves by
    min(v, 3) when a record v is added, so (one pair per smaller database and added value) the counts
    are #databases × (1, 1, 1, 8) on the amounts 0, 1, 2, 3."""
    values = np.arange(11)
    d = dp.neighbour_differences(lambda x: x @ np.clip(values, 0, 3), values, max_size=3)
    amounts, counts = d.change_counts()
    growable = len(dp.all_databases(11, 2))            # smaller databases: at most 2 records
    assert amounts.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert counts.tolist() == [growable, growable, growable, 8 * growable]
    assert counts.sum() == len(d.norm) and amounts[-1] == d.sensitivity


def test_change_counts_merge_amounts_equal_up_to_rounding():
    """A count scaled by 0.1 moves by 0.1 on every pair, but floating point gives three different
    0.1s (0.2 − 0.1, 0.30000000000000004 − 0.2, …): one bar, not three."""
    d = dp.neighbour_differences(lambda x: x.sum() * 0.1, [0, 1, 2], max_size=4)
    assert len(np.unique(d.norm)) > 1
    amounts, counts = d.change_counts()
    assert amounts == pytest.approx([0.1]) and counts.tolist() == [len(d.norm)]
