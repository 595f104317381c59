"""Numerical integration and chunking shared by the exact laws of private selection (:mod:`dpteach.selection`:
Report Noisy Max, Claim 3.9) and of AboveThreshold (:mod:`dpteach.threshold`, §3.6)."""

from __future__ import annotations

import itertools
import math

import numpy as np

#: Rows × columns of noise drawn at once when many runs are asked for.
CHUNK = 2_000_000


def simpson_nodes(breaks: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray]:
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
