"""The exact discrete samplers and their rational arithmetic, shared by the discrete Laplace and the discrete
Gaussian (:mod:`dpteach.discrete.laplace`, :mod:`dpteach.discrete.gaussian`).

Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), Algorithms 1
and 2: uniform random integers and integer comparisons only, no floating-point exp or log. Here, and not in
either distribution's module, so that neither takes the other's private helpers; chapter 09 shows two of them.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from .. import _validate

_MAX_DENOMINATOR = 10**6
#: Numerators and denominators of the rational scale must stay below this, so that every
#: product the sampler forms (t·K, U + t·V) fits comfortably in a 64-bit integer.
_MAX_PART = 2**40
_MAX_COUNT = 2**52


def _bounded(x: Fraction, rounding: str, max_denominator: int = _MAX_DENOMINATOR) -> Fraction:
    """The best fraction with denominator ≤ ``max_denominator`` below x (``"down"``), above it (``"up"``)
    or nearest to it (``"nearest"``, as :meth:`fractions.Fraction.limit_denominator`).

    The best lower and upper approximations are the last two (semi)convergents of x's continued
    fraction whose denominators fit: one lies on each side of x (Khinchin, *Continued Fractions*, §6).
    """
    if x.denominator <= max_denominator:
        return x
    p0, q0, p1, q1 = 0, 1, 1, 0
    n, d = x.numerator, x.denominator
    while True:
        a = n // d
        q2 = q0 + a * q1
        if q2 > max_denominator:
            break
        p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
        n, d = d, n - a * d
    k = (max_denominator - q0) // q1
    semi, last = Fraction(p0 + k * p1, q0 + k * q1), Fraction(p1, q1)
    below, above = (semi, last) if semi < last else (last, semi)
    if rounding == "down":
        return below
    if rounding == "up":
        return above
    return x.limit_denominator(max_denominator)


def _rational(name: str, value, *, low_open: bool = True, rounding: str = "nearest") -> Fraction:
    """A positive (or, with low_open=False, non-negative) rational from an int, a Fraction or a finite float.

    A float is read as the decimal it prints as (``repr``), kept when its denominator is at most
    10⁶, otherwise rounded to a fraction with denominator ≤ 10⁶: ``"down"`` to one at most both
    the decimal and the double (a privacy parameter: never more privacy loss than asked),
    ``"up"`` to one at least both (a noise scale: never less noise), ``"nearest"`` otherwise.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number or a fractions.Fraction, got {value!r}")
    if isinstance(value, Fraction):
        exact = value
    elif isinstance(value, numbers.Integral):
        exact = Fraction(int(value))
    elif isinstance(value, numbers.Real):
        x = float(value)
        if not math.isfinite(x):
            raise ValueError(f"{name} must be a finite number {'>' if low_open else '>='} 0, got {value!r}")
        decimal, double = Fraction(repr(x)), Fraction(x)
        if decimal.denominator <= _MAX_DENOMINATOR:
            exact = decimal
        elif rounding == "down":
            exact = _bounded(min(decimal, double), "down")
        elif rounding == "up":
            exact = _bounded(max(decimal, double), "up")
        else:
            exact = _bounded(decimal, "nearest")
        if exact == 0 and x > 0:
            raise ValueError(f"{name} = {value!r} is below 1e-6, the smallest value a float is rounded to; "
                             f"pass a fractions.Fraction for a smaller {name}")
    else:
        raise TypeError(f"{name} must be a real number or a fractions.Fraction, got {value!r} "
                        f"of type {type(value).__name__}")
    if exact < 0 or (low_open and exact == 0):
        raise ValueError(f"{name} must be a finite number {'>' if low_open else '>='} 0, got {value!r}")
    return exact


def _integers(name: str, value, *, nonempty: bool = True, ndim: tuple[int, ...] | None = None) -> np.ndarray:
    """An int64 array from integers (or floats with integer values); NaN, ±inf and fractions refused."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer or an array of integers, got {value!r}")
    try:
        a = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an integer or an array of integers, got {value!r}") from exc
    if a.dtype == object or a.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be an integer or an array of integers, got {value!r}")
    if ndim is not None and a.ndim not in ndim:
        raise ValueError(f"{name} must have {' or '.join(str(d) for d in ndim)} dimensions, got shape {a.shape}")
    if nonempty and a.size == 0:
        raise ValueError(f"{name} must not be empty, got an array of shape {a.shape}")
    if a.dtype.kind == "f":
        if np.isnan(a).any():
            raise ValueError(f"{name} must not contain NaN, got {_validate._short(a)}")
        if np.isinf(a).any():
            raise ValueError(f"{name} must be finite, got {_validate._short(a)}")
        if (a != np.round(a)).any():
            raise ValueError(f"{name} must hold whole numbers (counts), got {_validate._short(a)}")
    if a.size and np.abs(a.astype(np.float64)).max() >= _MAX_COUNT:
        raise ValueError(f"{name} must be integers of magnitude below 2**52, got {_validate._short(a)}")
    return a.astype(np.int64)


# -- the exact sampler (Canonne, Kamath & Steinke 2020) ----------------------------------------

def _bernoulli_exp_small(num: np.ndarray, den: int, gen: np.random.Generator) -> np.ndarray:
    """Bernoulli(exp(−num/den)) for 0 ≤ num/den ≤ 1, elementwise: CKS Algorithm 1, the K-loop.

    Draw A_K ~ Bernoulli(γ/K) for K = 1, 2, … until the first A_K = 0; return 1 when that
    K is odd. Pr[K* > k] = γ^k/k!, so Pr[K* odd] = Σ_k (−γ)^k/k! = e^{−γ}. Bernoulli(γ/K)
    is one uniform integer: U ∈ {0, …, den·K − 1} and A = [U < num].
    """
    num = np.asarray(num, dtype=np.int64)
    result = np.zeros(num.shape, dtype=bool)
    active = np.arange(num.size)
    flat = num.ravel()
    k = 1
    while active.size:
        accept = gen.integers(0, den * k, size=active.size) < flat[active]
        stopped = active[~accept]
        result.flat[stopped] = (k % 2 == 1)
        active = active[accept]
        k += 1
    return result


def _bernoulli_exp(num: np.ndarray, den: int, gen: np.random.Generator) -> np.ndarray:
    """Bernoulli(exp(−num/den)) for any num/den ≥ 0: ⌊γ⌋ independent Bernoulli(e^{−1}), all 1, then
    Bernoulli(e^{−(γ − ⌊γ⌋)}) (CKS Algorithm 1, the case γ > 1)."""
    num = np.asarray(num, dtype=np.int64)
    whole, rest = np.divmod(num, den)
    out = _bernoulli_exp_small(rest, den, gen)
    alive = np.flatnonzero(out.ravel() & (whole.ravel() > 0))
    remaining = whole.ravel()[alive]
    while alive.size:
        ok = _bernoulli_exp_small(np.ones(alive.size, dtype=np.int64), 1, gen)
        out.flat[alive[~ok]] = False
        remaining = remaining[ok] - 1
        alive = alive[ok]
        more = remaining > 0
        alive, remaining = alive[more], remaining[more]
    return out


def _discrete_laplace(n: int, t_num: int, t_den: int, gen: np.random.Generator) -> np.ndarray:
    """n exact draws of the discrete Laplace with scale t = t_num/t_den (CKS Algorithm 2), vectorised.

    In CKS's notation the scale is t/s with t = t_num, s = t_den. Each round, for every
    draw still pending:

    1. U uniform on {0, …, t − 1}; keep it with probability exp(−U/t) (Algorithm 1);
    2. V ≥ 0 counts Bernoulli(e^{−1}) successes before the first failure (geometric);
    3. X = U + t·V is geometric with ratio e^{−1/t}; Y = ⌊X/s⌋ is geometric with ratio e^{−s/t};
    4. a fair sign bit B; reject (B = 1, Y = 0), the "negative zero", else Z = (1 − 2B)·Y.

    Rejected draws go round again with fresh randomness: the loops are over rounds, each a
    numpy operation on all pending draws, never over single draws.
    """
    out = np.zeros(n, dtype=np.int64)
    pending = np.arange(n)
    while pending.size:
        m = pending.size
        u = gen.integers(0, t_num, size=m)
        keep = _bernoulli_exp(u, t_num, gen)
        u = u[keep]
        idx = pending[keep]
        v = np.zeros(idx.size, dtype=np.int64)
        going = np.arange(idx.size)
        while going.size:
            hit = _bernoulli_exp_small(np.ones(going.size, dtype=np.int64), 1, gen)
            v[going[hit]] += 1
            going = going[hit]
        y = (u + t_num * v) // t_den
        sign = gen.integers(0, 2, size=idx.size)
        good = ~((sign == 1) & (y == 0))
        out[idx[good]] = (1 - 2 * sign[good]) * y[good]
        done = np.zeros(n, dtype=bool)
        done[idx[good]] = True
        pending = pending[~done[pending]]
    return out
