"""One bisection for every boundary the package finds by halving a bracket.

A caller knows a test ``low(x)`` that holds on one side of the boundary it wants and fails on
the other (``δ(σ) > δ`` for a σ too small, ``k releases fit in the budget`` for a k not too
large), and a bracket [lo, hi] with ``low(lo)`` true and ``low(hi)`` false. Each step splits
the bracket and keeps the half that still holds the boundary, so the invariant survives to the
end and the caller chooses which end it returns: the end where the test holds (the largest k
that fits, a confidence bound that is never too high) or the end where it fails (a σ that is
surely private). The bracket halves at its midpoint, at its geometric mean (for a scale, on
ln σ) or at the integer between (for a count).

Scalars or arrays: with arrays for lo and hi, ``low`` and ``done`` answer element by element,
every element bisects its own bracket side by side, and each stops on its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np


def midpoint(lo, hi):
    """The arithmetic midpoint."""
    return 0.5 * (lo + hi)


def geometric(lo, hi):
    """The geometric mean √(lo·hi): bisection on a log scale (lo > 0)."""
    return np.sqrt(lo * hi) if isinstance(lo, np.ndarray) else math.sqrt(lo * hi)


def integer(lo: int, hi: int) -> int:
    """The integer halfway down: the bracket ends when lo and hi are neighbours."""
    return (lo + hi) // 2


def bisect(low: Callable, lo, hi, *, split: Callable = midpoint, done: Callable | None = None,
           steps: int = 200) -> tuple:
    """The final bracket (lo, hi) around the boundary of ``low``: ``low(lo)`` holds, ``low(hi)`` does not.

    Each step splits the bracket at ``split(lo, hi)`` and moves lo there if ``low`` holds
    there, hi if not. It stops when ``done(lo, hi)`` holds, when the split lands on an end
    (no float, or no integer, is left between them), or after ``steps`` steps.

    Examples
    --------
    >>> lo, hi = bisect(lambda x: x * x < 2, 1.0, 2.0)
    >>> hi - lo <= 2.3e-16, round(lo, 12)
    (True, 1.414213562373)
    >>> bisect(lambda k: k * k <= 2024, 0, 2024, split=integer)     # ⌊√2024⌋ = 44
    (44, 45)
    >>> [round(float(x), 6) for x in bisect(lambda x: x * x < [2.0, 3.0], np.ones(2), np.full(2, 2.0))[0]]
    [1.414214, 1.732051]
    """
    if np.ndim(lo) == 0 and np.ndim(hi) == 0:
        for _ in range(steps):
            if done is not None and done(lo, hi):
                break
            mid = split(lo, hi)
            if mid == lo or mid == hi:
                break
            if low(mid):
                lo = mid
            else:
                hi = mid
        return lo, hi
    lo, hi = np.broadcast_arrays(np.array(lo, dtype=float), np.array(hi, dtype=float))
    for _ in range(steps):
        mid = split(lo, hi)
        active = (mid != lo) & (mid != hi)
        if done is not None:
            active &= ~np.asarray(done(lo, hi), dtype=bool)
        if not active.any():
            break
        below = np.asarray(low(mid), dtype=bool)
        lo, hi = np.where(active & below, mid, lo), np.where(active & ~below, mid, hi)
    return lo, hi
