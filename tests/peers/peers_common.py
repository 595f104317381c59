"""What the peer suite shares: the register of comparisons (the peer table of docs/peers.md is made
of it) and the checks each comparison makes.

Every comparison is a test function decorated with :func:`compares`, which states, as plain text, the
quantity compared, the peer library, the grid of parameters and the tolerance; tests/test_peer_table.py
(the fast suite) holds that table to these texts row by row, and checks that every number in a
tolerance appears in the test's own code. Every test here is in the slow tier.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
from scipy import stats

#: the peers, by the name the peer table gives them (their PyPI names)
PEERS = ("dp-accounting", "opendp", "diffprivlib")


@dataclass(frozen=True)
class Comparison:
    quantity: str
    peer: str
    grid: str
    tolerance: str


def compares(*, quantity: str, peer: str, grid: str, tolerance: str):
    """Register a test as a comparison with a peer (a row of the peer table) and put it in the slow tier."""
    assert peer in PEERS, peer

    def mark(test):
        test.comparison = Comparison(quantity, peer, grid, tolerance)
        return pytest.mark.slow(test)
    return mark


def close(ours: float, theirs: float, *, rel: float, atol: float = 0.0, what: str = "") -> None:
    """|ours − theirs| ≤ atol + rel·|theirs|, with both numbers in the message."""
    assert math.isfinite(ours) and math.isfinite(theirs), (what, ours, theirs)
    assert abs(ours - theirs) <= atol + rel * abs(theirs), f"{what}: dpteach {ours!r}, peer {theirs!r}"


def histogram_pair(a: np.ndarray, b: np.ndarray, minimum: float = 20.0) -> np.ndarray:
    """A 2 × bins table of two integer samples: one bin per value whose pooled expected count in each sample is at
    least ``minimum``, the rest pooled into the two tails."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    lo, hi = min(a.min(), b.min()), max(a.max(), b.max())
    counts = np.vstack([np.bincount(a - lo, minlength=hi - lo + 1), np.bincount(b - lo, minlength=hi - lo + 1)])
    share = min(a.size, b.size) / (a.size + b.size)
    keep = np.flatnonzero(counts.sum(axis=0) * share >= minimum)
    first, last = keep[0], keep[-1]
    cols = [counts[:, :first].sum(axis=1)] if first > 0 else []
    cols += [counts[:, j] for j in range(first, last + 1)]
    if last < counts.shape[1] - 1:
        cols.append(counts[:, last + 1:].sum(axis=1))
    table = np.column_stack(cols)
    return table[:, table.sum(axis=0) > 0]


def same_law_p(a: np.ndarray, b: np.ndarray) -> float:
    """p-value of Pearson's χ² test that two integer samples come from one law (homogeneity)."""
    return float(stats.chi2_contingency(histogram_pair(a, b)).pvalue)


def fits_pmf_p(sample: np.ndarray, pmf, minimum: float = 20.0, reach: int = 5_000) -> float:
    """p-value of Pearson's χ² goodness of fit of an integer sample to ``pmf(z)``: one bin per value whose
    expected count is at least ``minimum``, the two tails pooled (their mass summed over ``reach`` values)."""
    sample = np.asarray(sample, dtype=np.int64)
    n = sample.size
    z = np.arange(min(sample.min(), 0) - reach, max(sample.max(), 0) + reach + 1)
    mass = pmf(z)
    keep = np.flatnonzero(n * mass >= minimum)
    first, last = keep[0], keep[-1]
    observed = np.r_[np.sum(sample < z[first]), np.bincount(sample[(sample >= z[first]) & (sample <= z[last])] - z[first],
                                                            minlength=last - first + 1), np.sum(sample > z[last])]
    expected = n * np.r_[mass[:first].sum(), mass[first:last + 1], mass[last + 1:].sum()]
    use = expected > 1e-9
    return float(stats.chisquare(observed[use], expected[use] * observed[use].sum() / expected[use].sum()).pvalue)
