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
from fractions import Fraction

import numpy as np

from .. import _validate
from .._validate import size as _size

# _bernoulli_exp_small is here too for chapter 09, which shows its source as dp.discrete.laplace._bernoulli_exp_small
from ._exact import _MAX_PART, _bernoulli_exp, _bernoulli_exp_small, _discrete_laplace, _integers, _rational  # noqa: F401


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
