"""The discrete Laplace mechanism and the exact samplers it is built on (integer noise for integer answers).

The discrete Laplace (two-sided geometric) distribution of Ghosh, Roughgarden &
Sundararajan (2009) puts mass

.. math:: \\Pr[Z = z] = \\frac{1 - q}{1 + q}\\, q^{|z|}, \\qquad z ∈ ℤ, \\quad q = e^{-1/t},

on the integers; t > 0 is its scale. Added to an integer count with t = Δf/ε it gives
an ε-differentially private count (the ratio of the masses at z on neighbours is
q^{|z - f(x)| - |z - f(y)|} ≤ q^{-Δf} = e^{ε}), and the release is an integer.

The sampler follows Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential
Privacy" (NeurIPS 2020), Algorithms 1 and 2. It uses uniform random integers from the
generator (``rng.integers``) and integer comparisons only: no floating-point exp or log is
ever evaluated while sampling, so the distribution drawn is *exactly* the discrete
Laplace with the rational scale t = Δf/ε′ (ε′ below), up to the quality of the generator's
random bits.

What is exact, and what is not:

* ε given as a :class:`fractions.Fraction` (or an int) is used as it is.
* ε given as a float is read as the decimal it prints as (``repr``: 0.1 is 1/10, not the
  double just above it), and used exactly when that decimal has at most six decimals
  (0.1, 0.25, 1.5, …). Otherwise it is rounded **down**, to the largest fraction with
  denominator at most a million that is at most ε (both the decimal and the double):
  0 ≤ ε − ε′ < 10⁻⁶ (the fractions just below and just above ε are Farey neighbours p/q and
  p′/q′ with q + q′ > 10⁶, so they are less than 1/(q·q′) ≤ 10⁻⁶ apart). A float that is
  not a short decimal, 1/3 say, pays for it: pass ``Fraction(1, 3)`` for that ε exactly.
  Rounding to the nearest fraction instead could give ε′ > ε, a release a little less
  private than asked.
  The release is exactly ε′-differentially private, hence ε-differentially private;
  :func:`discrete_laplace_scale` returns the rational scale t = Δf/ε′ ≥ Δf/ε that is used.
* a scale t given as a float to :func:`discrete_laplace_sample` is rounded **up** in the
  same way (more noise, never less).
* :func:`discrete_laplace_pmf` and :func:`discrete_laplace_variance` are floating-point
  formulas, for plotting and checking; they are not used by the sampler.
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


def discrete_laplace_scale(sensitivity: int, epsilon: float | Fraction) -> Fraction:
    """The exact rational scale t = Δf/ε′ the discrete Laplace mechanism uses.

    ``epsilon`` as a Fraction or an int is used exactly; a float is read as the decimal it
    prints as (so 0.1 is exactly 1/10) and, if that needs a denominator above 10⁶, rounded
    down to the largest fraction ε′ ≤ ε with denominator ≤ 10⁶: the scale is never below Δf/ε.

    Parameters
    ----------
    sensitivity : int
        Δf ≥ 1: integer answers change by whole numbers.
    epsilon : float or fractions.Fraction
        ε > 0.

    Examples
    --------
    >>> discrete_laplace_scale(1, 0.1), discrete_laplace_scale(3, Fraction(1, 2))
    (Fraction(10, 1), Fraction(6, 1))
    """
    s = _validate.integer("sensitivity", sensitivity, low=1,
                          why="integer answers change by whole numbers, at least 1")
    eps = _rational("epsilon", epsilon, rounding="down")
    scale = Fraction(s) / eps
    if scale.numerator >= _MAX_PART or scale.denominator >= _MAX_PART:
        raise ValueError(f"the scale Δf/ε = {scale} has a numerator or denominator ≥ 2**40; use an epsilon "
                         "with a smaller denominator (e.g. Fraction(1, 1000))")
    return scale


def _scale_parts(scale) -> tuple[int, int]:
    t = _rational("scale", scale, rounding="up")
    if t.numerator >= _MAX_PART or t.denominator >= _MAX_PART:
        raise ValueError(f"scale must have a numerator and denominator below 2**40, got {t}")
    return t.numerator, t.denominator


def _alpha(scale) -> float:
    return math.exp(-1 / float(_rational("scale", scale, rounding="up")))


def discrete_laplace_pmf(z, scale: float | Fraction) -> np.ndarray | float:
    """Probability mass of the discrete Laplace distribution with scale t at the integers z.

    .. math:: \\Pr[Z = z] = \\frac{1 - q}{1 + q}\\, q^{|z|}, \\qquad q = e^{-1/t}

    (Ghosh, Roughgarden & Sundararajan 2009; Canonne, Kamath & Steinke 2020, Def. 2.1).
    For the mechanism, t = Δf/ε. Evaluated in floating point (for plots and checks).

    Parameters
    ----------
    z : int or array_like of int
        Integer points (a non-integer z has mass 0 and is refused).
    scale : float or fractions.Fraction
        t > 0.

    Examples
    --------
    >>> round(discrete_laplace_pmf(0, 1.0), 4)
    0.4621
    """
    zs = _integers("z", z, nonempty=False)
    a = _alpha(scale)
    out = (1 - a) / (1 + a) * a ** np.abs(zs).astype(np.float64)
    return out if out.ndim else float(out)


def discrete_laplace_variance(scale: float | Fraction) -> float:
    """Variance of the discrete Laplace distribution with scale t: 2q/(1 − q)², q = e^{−1/t}.

    It is a little below 2t², the variance of the continuous Lap(t), and close to it for
    large t (both grow like 2t²; the difference tends to 1/6).

    Examples
    --------
    >>> round(discrete_laplace_variance(1.0), 4), 2 * 1.0**2
    (1.8413, 2.0)
    """
    a = _alpha(scale)
    return 2 * a / (1 - a) ** 2


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


def bernoulli_exp(gamma, size: int | tuple[int, ...] | None = None,
                  rng: np.random.Generator | None = None) -> np.ndarray | bool:
    """Exact Bernoulli(exp(−γ)) draws for a rational γ ≥ 0 (Canonne, Kamath & Steinke 2020, Algorithm 1).

    For 0 ≤ γ ≤ 1: draw A_K ~ Bernoulli(γ/K) for K = 1, 2, … until the first A_K = 0 and
    return whether that K is odd; since Pr[the loop passes K] = γ^K/K!,

    .. math:: \\Pr[\\text{return } 1] = \\sum_{k \\ge 0} \\frac{(-γ)^k}{k!} = e^{-γ}.

    For γ > 1: ⌊γ⌋ independent Bernoulli(e^{−1}) and one Bernoulli(e^{−(γ−⌊γ⌋)}) must all
    be 1. Only uniform integers and integer comparisons are used; no exp is evaluated.

    Parameters
    ----------
    gamma : int, float or fractions.Fraction
        γ ≥ 0 (a float is read as the decimal it prints as, or the closest fraction with denominator ≤ 10⁶).
    size : int or tuple, optional
        How many draws (default: one, returned as a bool).
    rng : numpy.random.Generator, optional

    Examples
    --------
    >>> import numpy as np
    >>> draws = bernoulli_exp(Fraction(1, 2), size=100_000, rng=np.random.default_rng(0))
    >>> bool(abs(draws.mean() - np.exp(-0.5)) < 0.01)
    True
    """
    g = _rational("gamma", gamma, low_open=False)
    if g.numerator >= _MAX_PART or g.denominator >= _MAX_PART:
        raise ValueError(f"gamma must have a numerator and denominator below 2**40, got {g}")
    shape = _size(size)
    gen = _validate.rng(rng)
    out = _bernoulli_exp(np.full(shape, g.numerator, dtype=np.int64), g.denominator, gen)
    return out if size is not None else bool(out)


def _size(size) -> tuple[int, ...]:
    if size is None:
        return ()
    if isinstance(size, tuple):
        return tuple(_validate.integer("size", s, low=0) for s in size)
    return (_validate.integer("size", size, low=0),)


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


def discrete_laplace_sample(scale: float | Fraction, size: int | tuple[int, ...] | None = None,
                            rng: np.random.Generator | None = None) -> np.ndarray | int:
    """Exact draws from the discrete Laplace distribution with rational scale t (CKS 2020, Algorithm 2).

    .. math:: \\Pr[Z = z] = \\frac{1 - q}{1 + q}\\, q^{|z|}, \\qquad q = e^{-1/t}

    Parameters
    ----------
    scale : float, int or fractions.Fraction
        t > 0 (a float is read as the decimal it prints as, or rounded up to a fraction with
        denominator ≤ 10⁶: never less noise than asked).
    size : int or tuple, optional
        Shape of the output (default: one draw, returned as an int).
    rng : numpy.random.Generator, optional

    Returns
    -------
    int or numpy.ndarray of int64

    Examples
    --------
    >>> import numpy as np
    >>> z = discrete_laplace_sample(2, size=200_000, rng=np.random.default_rng(0))
    >>> z.dtype, bool(abs(z.var() - discrete_laplace_variance(2)) < 0.2)
    (dtype('int64'), True)
    """
    t_num, t_den = _scale_parts(scale)
    shape = _size(size)
    gen = _validate.rng(rng)
    n = math.prod(shape)
    out = _discrete_laplace(n, t_num, t_den, gen).reshape(shape)
    return out if size is not None else int(out)


def discrete_laplace_mechanism(counts, sensitivity: int, epsilon: float | Fraction,
                               rng: np.random.Generator | None = None) -> np.ndarray | int:
    """The discrete Laplace mechanism: integer counts plus exact integer noise of scale Δf/ε.

    .. math:: M(x) = f(x) + (Z_1, …, Z_k), \\qquad \\Pr[Z_i = z] ∝ e^{-ε|z|/Δf}, \\ z ∈ ℤ

    For integer-valued f with ℓ1-sensitivity Δf it is ε-differentially private, by the
    proof of Theorem 3.6 with sums in place of integrals. Unlike the textbook floating-point
    Laplace mechanism (Mironov 2012, chapter 09) the set of possible outputs, all integers,
    is the same whatever the true counts are, and every probability is the one the proof uses.

    The noise is drawn exactly (Canonne, Kamath & Steinke 2020, Algorithms 1–2) with the
    rational scale :func:`discrete_laplace_scale` ``(sensitivity, epsilon)``: a float ε is
    rounded down to a fraction ε′ ≤ ε with denominator ≤ 10⁶ (exactly the decimal typed when it has
    six decimals or fewer), a Fraction is used as it is.

    Parameters
    ----------
    counts : int or array_like of int
        f(x): integers (or floats holding whole numbers), any shape; every cell gets its
        own noise. Negative integers are allowed (a difference of counts, say).
    sensitivity : int
        Δf ≥ 1, the ℓ1-sensitivity of f over all cells together (1 for a histogram).
    epsilon : float or fractions.Fraction
        ε > 0.
    rng : numpy.random.Generator, optional

    Returns
    -------
    int or numpy.ndarray of int64
        The noisy counts, with the shape of ``counts``.

    Examples
    --------
    >>> import numpy as np
    >>> discrete_laplace_mechanism([120, 45, 3], sensitivity=1, epsilon=0.5, rng=np.random.default_rng(0)).dtype
    dtype('int64')
    """
    answer = _integers("counts", counts)
    t_num, t_den = _scale_parts(discrete_laplace_scale(sensitivity, epsilon))
    gen = _validate.rng(rng)
    noise = _discrete_laplace(answer.size, t_num, t_den, gen).reshape(answer.shape)
    out = answer + noise
    return out if out.ndim else int(out)
