"""The discrete Gaussian: integer noise for zero-concentrated DP, the noise of the 2020 US Census.

The discrete Gaussian with parameter σ > 0 (Canonne, Kamath & Steinke, "The Discrete
Gaussian for Differential Privacy", NeurIPS 2020, Definition 1) puts mass

.. math:: \\Pr[Z = z] = \\frac{e^{-z^2/(2σ^2)}}{\\sum_{y ∈ ℤ} e^{-y^2/(2σ^2)}}, \\qquad z ∈ ℤ,

on the integers. σ is a parameter, not the standard deviation: the variance is a little
below σ² (CKS Corollary 9), and far below it for σ < 1.

Added to an integer query f whose values on neighbours differ by at most Δ in ℓ2 norm, it
is ρ-zero-concentrated differentially private with

.. math:: ρ = \\frac{Δ^2}{2σ^2}

(Bun & Steinke 2016, Definition 1.1; CKS Theorem 4), exactly as the continuous Gaussian
N(0, σ²). zCDP composes by adding the ρ's, and ρ-zCDP implies (ε, δ)-DP for every δ > 0
(:func:`dpteach.zcdp_to_dp`, CKS Proposition 12). The US Census Bureau's TopDown algorithm
adds discrete Gaussian noise to the 2020 counts and accounts for it in zCDP
(Abowd et al., *Harvard Data Science Review* 2022).

The sampler (CKS Algorithm 3) draws a discrete Laplace proposal Y with scale t = ⌊σ⌋ + 1
(exactly, :mod:`dpteach.discrete.laplace`) and accepts it with probability

.. math:: \\exp\\left(-\\frac{(|Y| - σ^2/t)^2}{2σ^2}\\right)

(Algorithm 1, the K-loop, on a rational exponent), otherwise draws again. Only uniform
random integers and integer arithmetic are used (Python's unbounded integers where the
exponent's numerator and denominator outgrow 64 bits), so the draws follow the discrete
Gaussian *exactly* for the rational σ′ used: σ as a Fraction or an int, or a float read as
the decimal it prints as, rounded **up** to a fraction with denominator ≤ 10⁶ when it has
more than six decimals (σ′ ≥ σ: never less noise, ρ′ ≤ ρ).

:func:`discrete_gaussian_pmf` and :func:`discrete_gaussian_variance` are floating-point
formulas, for plots and checks; :func:`discrete_gaussian_delta` is the exact δ(ε) of k
releases, for comparing the zCDP conversion with the truth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .. import _validate
from .._roots import bisect
from .._validate import size as _size
from ..exact_composition import zcdp_to_dp
from ..gaussian import gaussian_epsilon
from ._exact import _bernoulli_exp_small, _discrete_laplace, _integers, _rational

_WHY_SIGMA = "σ is the width of the noise (a parameter, not its standard deviation)"
_WHY_DELTA = "δ in (0, 1)"
#: the sampler draws U from {0, …, 2⁶²−1}: the base of the digits it compares a ratio with
_CHUNK = 1 << 62


def _sigma(sigma) -> Fraction:
    """σ′ as an exact fraction: a float rounded up (never less noise), at most 2**40."""
    s = _rational("sigma", sigma, rounding="up")
    if s >= 2**40:
        raise ValueError(f"sigma must be below 2**40, got {sigma!r}")
    return s


def _sigma_float(sigma) -> float:
    return float(_sigma(sigma))


def _log_normaliser(s: float) -> float:
    """ln Σ_y e^{−y²/(2s²)}: a direct sum for s < 1; Poisson summation, √(2π)·s·Σ_k e^{−2π²s²k²}, from 1 on."""
    if s < 1:
        y = np.arange(-40, 41)
        return float(math.log(np.exp(-(y * y) / (2 * s * s)).sum()))
    k = np.arange(1, 4)
    return math.log(math.sqrt(2 * math.pi) * s) + math.log1p(2 * float(np.exp(-2 * math.pi**2 * s * s * k * k).sum()))


def discrete_gaussian_pmf(z, sigma: float | Fraction) -> np.ndarray | float:
    """Probability mass of the discrete Gaussian with parameter σ at the integers z.

    .. math:: \\Pr[Z = z] = e^{-z^2/(2σ^2)} \\Big/ \\sum_{y ∈ ℤ} e^{-y^2/(2σ^2)}

    (Canonne, Kamath & Steinke 2020, Definition 1). The normaliser is a direct sum for
    σ < 1 and, from σ = 1 on, Poisson's summation formula
    Σ_y e^{−y²/(2σ²)} = σ√(2π)·Σ_k e^{−2π²σ²k²}, whose terms beyond k = 3 are below 1e-170.
    Evaluated in floating point (for plots and checks), at σ′ (a float σ rounded up, as the
    sampler does).

    Examples
    --------
    >>> round(discrete_gaussian_pmf(0, 1.0), 5), round(discrete_gaussian_pmf(0, 0.5), 5)
    (0.39894, 0.78657)
    """
    zs = _integers("z", z, nonempty=False)
    s = _sigma_float(sigma)
    zf = zs.astype(np.float64)
    out = np.exp(-(zf * zf) / (2 * s * s) - _log_normaliser(s))
    return out if out.ndim else float(out)


def discrete_gaussian_variance(sigma: float | Fraction) -> float:
    """Variance of the discrete Gaussian with parameter σ: below σ² (CKS Corollary 9), close to it from σ ≈ 1.

    A direct sum for σ < 1; from σ = 1 on, Poisson's summation formula for Σ_y y²e^{−y²/(2σ²)}:

    .. math:: \\mathrm{Var} = \\frac{\\sum_k (σ^2 - 4π^2σ^4k^2)\\, e^{-2π^2σ^2k^2}}{\\sum_k e^{-2π^2σ^2k^2}}

    Examples
    --------
    >>> round(discrete_gaussian_variance(0.5), 5), round(discrete_gaussian_variance(1.0), 7)
    (0.21501, 0.9999998)
    """
    s = _sigma_float(sigma)
    if s < 1:
        y = np.arange(-40, 41, dtype=np.float64)
        w = np.exp(-(y * y) / (2 * s * s))
        return float((w * y * y).sum() / w.sum())
    k = np.arange(1, 4, dtype=np.float64)
    w = np.exp(-2 * math.pi**2 * s * s * k * k)
    return float(s * s - 2 * (4 * math.pi**2 * s**4 * k * k * w).sum() / (1 + 2 * w.sum()))


def discrete_gaussian_rho(sigma: float | Fraction, sensitivity: float = 1.0) -> float:
    """ρ = Δ²/(2σ²): the discrete Gaussian on a query of ℓ2-sensitivity Δ is ρ-zCDP (CKS Theorem 4).

    The same ρ as the continuous N(0, σ²) (Bun & Steinke 2016, Proposition 1.6). A float σ
    is rounded up before sampling, so the noise drawn is ρ′-zCDP for a ρ′ ≤ this ρ.

    Examples
    --------
    >>> discrete_gaussian_rho(1.0), discrete_gaussian_rho(2.0, sensitivity=2)
    (0.5, 0.5)
    """
    s = _validate.positive("sigma", float(sigma) if isinstance(sigma, Fraction) else sigma, why=_WHY_SIGMA)
    d = _validate.positive("sensitivity", sensitivity, why="Δ, the ℓ2-sensitivity of the integer query")
    return d * d / (2 * s * s)


# -- the exact sampler (Canonne, Kamath & Steinke 2020, Algorithm 3) ---------------------------

def _bernoulli_ratio(num: np.ndarray, den, gen: np.random.Generator) -> np.ndarray:
    """Bernoulli(num/den) for integers 0 ≤ num ≤ den of any size (object arrays of Python ints), elementwise.

    A uniform U in [0, 1) is compared with num/den digit by digit in base 2⁶²: each round draws
    one digit of U (an int64 below 2⁶²) and computes the next digit of num/den exactly; the
    first digit where they differ decides whether U < num/den. A round decides with probability
    1 − 2⁻⁶² (a tie needs the digits equal), so one round almost always does.
    """
    result = np.zeros(num.size, dtype=bool)
    active = np.arange(num.size)
    r = num.ravel().copy()
    d = den.ravel().copy() if isinstance(den, np.ndarray) else den
    while active.size:
        scaled = r * _CHUNK
        digit = scaled // d
        r = scaled - digit * d
        u = gen.integers(0, _CHUNK, size=active.size)
        digit = digit.astype(np.int64)       # < 2⁶² (= 2⁶² only when num = den: then U < it)
        decided = u != digit
        result[active[decided]] = u[decided] < digit[decided]
        active, r = active[~decided], r[~decided]
        if isinstance(d, np.ndarray):
            d = d[~decided]
    return result


def _bernoulli_exp_big(num: np.ndarray, den: int, gen: np.random.Generator) -> np.ndarray:
    """Bernoulli(exp(−num/den)) for integers num ≥ 0 (an object array) and den ≥ 1 of any size: CKS Algorithm 1.

    γ = num/den splits into ⌊γ⌋, which needs ⌊γ⌋ Bernoulli(e^{−1}) draws all 1, and the rest
    γ′ ∈ [0, 1), drawn by the K-loop: A_K ~ Bernoulli(γ′/K) for K = 1, 2, … until the first
    A_K = 0, and 1 if that K is odd (Pr = Σ_k (−γ′)^k/k! = e^{−γ′}).
    """
    whole = num // den
    rest = num - whole * den
    out = np.zeros(num.size, dtype=bool)
    active = np.arange(num.size)
    k = 1
    while active.size:
        accept = _bernoulli_ratio(rest[active], den * k, gen)
        stopped = active[~accept]
        out[stopped] = k % 2 == 1
        active = active[accept]
        k += 1
    alive = np.flatnonzero(out & (whole > 0))
    remaining = whole[alive].astype(np.int64)
    while alive.size:
        ok = _bernoulli_exp_small(np.ones(alive.size, dtype=np.int64), 1, gen)
        out[alive[~ok]] = False
        remaining, alive = remaining[ok] - 1, alive[ok]
        more = remaining > 0
        alive, remaining = alive[more], remaining[more]
    return out


def _discrete_gaussian(n: int, sigma: Fraction, gen: np.random.Generator) -> np.ndarray:
    """n exact draws of the discrete Gaussian with rational parameter σ (CKS Algorithm 3), vectorised.

    t = ⌊σ⌋ + 1; each round, for every draw still pending: Y ~ discrete Laplace with scale t,
    accepted with probability exp(−(|Y| − σ²/t)²/(2σ²)). With σ² = a/b the exponent is the
    fraction (|Y|·b·t − a)² / (2·a·b·t²) of integers. Rejected draws go round again.
    """
    var = sigma * sigma
    a, b = var.numerator, var.denominator
    t = math.floor(sigma) + 1
    den = 2 * a * b * t * t
    out = np.zeros(n, dtype=np.int64)
    pending = np.arange(n)
    while pending.size:
        y = _discrete_laplace(pending.size, t, 1, gen)
        m = np.abs(y).astype(object) * (b * t) - a
        keep = _bernoulli_exp_big(m * m, den, gen)
        out[pending[keep]] = y[keep]
        pending = pending[~keep]
    return out


def discrete_gaussian_sample(sigma: float | Fraction, size: int | tuple[int, ...] | None = None,
                             rng: np.random.Generator | None = None) -> np.ndarray | int:
    """Exact draws from the discrete Gaussian with parameter σ (Canonne, Kamath & Steinke 2020, Algorithm 3).

    .. math:: \\Pr[Z = z] ∝ e^{-z^2/(2σ^2)}, \\qquad z ∈ ℤ

    Parameters
    ----------
    sigma : float, int or fractions.Fraction
        σ > 0 (a float is read as the decimal it prints as, or rounded up to a fraction with
        denominator ≤ 10⁶: never less noise than asked).
    size : int or tuple, optional
        Shape of the output (default: one draw, returned as an int).
    rng : numpy.random.Generator, optional

    Examples
    --------
    >>> import numpy as np
    >>> z = discrete_gaussian_sample(3, size=100_000, rng=np.random.default_rng(0))
    >>> z.dtype, bool(abs(z.var() - discrete_gaussian_variance(3)) < 0.2)
    (dtype('int64'), True)
    """
    s = _sigma(sigma)
    shape = _size(size)
    gen = _validate.rng(rng)
    out = _discrete_gaussian(math.prod(shape), s, gen).reshape(shape)
    return out if size is not None else int(out)


def discrete_gaussian_mechanism(counts, sigma: float | Fraction,
                                rng: np.random.Generator | None = None) -> np.ndarray | int:
    """Integer counts plus exact discrete Gaussian noise with parameter σ, one draw per cell.

    .. math:: M(x) = f(x) + (Z_1, …, Z_k), \\qquad \\Pr[Z_i = z] ∝ e^{-z^2/(2σ^2)}, \\ z ∈ ℤ

    For integer-valued f with ℓ2-sensitivity Δ it is ρ-zCDP with ρ = Δ²/(2σ²)
    (:func:`discrete_gaussian_rho`; CKS Theorem 4 with the coordinates composed), and
    every integer is a possible output whatever the true counts are.

    Parameters
    ----------
    counts : int or array_like of int
        f(x): integers (or floats holding whole numbers), any shape.
    sigma : float or fractions.Fraction
        σ > 0 (a float is rounded up as in :func:`discrete_gaussian_sample`).
    rng : numpy.random.Generator, optional

    Examples
    --------
    >>> import numpy as np
    >>> discrete_gaussian_mechanism([120, 45, 3], sigma=2.0, rng=np.random.default_rng(0)).dtype
    dtype('int64')
    """
    answer = _integers("counts", counts)
    s = _sigma(sigma)
    gen = _validate.rng(rng)
    out = answer + _discrete_gaussian(answer.size, s, gen).reshape(answer.shape)
    return out if out.ndim else int(out)


# -- what a ρ means: exact δ(ε), and the conversions ------------------------------------------

def _sum_pmf(s: float, k: int) -> tuple[np.ndarray, int]:
    """The pmf of the sum of k independent discrete Gaussians (σ = s) on its support, and its lowest point.

    One draw's pmf on |y| ≤ ⌈40s⌉ + 1 (the rest is below e^{−800}), then the k-fold convolution by
    repeated squaring with numpy's direct convolution: sums of positive terms, so every mass keeps
    its relative precision, far in the tails where δ lives.
    """
    reach = math.ceil(40 * s) + 1
    one = discrete_gaussian_pmf(np.arange(-reach, reach + 1), s)
    total, power, n = np.ones(1), one, k
    while n:
        if n & 1:
            total = np.convolve(total, power)
        n >>= 1
        if n:
            power = np.convolve(power, power)
    return total, -k * reach


def _loss_masses(sigma, k, sensitivity) -> tuple[np.ndarray, np.ndarray]:
    """The privacy loss of k releases on each point of the noises' sum S, and the masses Pr[S = s]."""
    s = _sigma_float(sigma)
    kk = _validate.integer("k", k, low=1, high=10_000, why="k releases, k ≥ 1")
    d = _validate.integer("sensitivity", sensitivity, low=1, why="integer counts move by whole numbers")
    mass, low = _sum_pmf(s, kk)
    total = low + np.arange(mass.size)
    return kk * d * d / (2 * s * s) - d * total / (s * s), mass


def _delta(loss: np.ndarray, mass: np.ndarray, eps: np.ndarray) -> np.ndarray:
    weights = -np.expm1(np.minimum(eps.ravel()[:, None] - loss[None, :], 0.0))
    return np.clip((mass[None, :] * weights).sum(axis=1), 0.0, 1.0).reshape(eps.shape)


def discrete_gaussian_delta(sigma: float | Fraction, epsilon, *, k: int = 1,
                            sensitivity: int = 1) -> np.ndarray | float:
    """The exact δ(ε) of k discrete Gaussian releases with parameter σ, each count moved by Δ.

    The privacy loss of an output z of one release is ((z − Δ)² − z²)/(2σ²); summed over the
    k releases it depends on the sum S of the k noises only, L = kΔ²/(2σ²) − Δ·S/σ², so

    .. math:: δ(ε) = \\sum_s \\Pr[S = s]\\,\\left(1 - e^{ε - L(s)}\\right)_+

    with the pmf of S by exact convolution (positive sums: no cancellation), evaluated in
    floating point. This is the truth that a zCDP conversion bounds from above.

    Examples
    --------
    >>> round(discrete_gaussian_delta(1.0, 1.0), 5)
    0.14135
    """
    eps = _validate.array("epsilon", epsilon, nonnegative=True)
    out = _delta(*_loss_masses(sigma, k, sensitivity), eps)
    return out if out.ndim else float(out)


def discrete_gaussian_epsilon(sigma: float | Fraction, delta: float, *, k: int = 1, sensitivity: int = 1) -> float:
    """The smallest ε with :func:`discrete_gaussian_delta` ≤ δ: the exact ε of k releases (bisection to 1e-10).

    Examples
    --------
    >>> round(discrete_gaussian_epsilon(1.0, 1e-6), 3)
    4.5
    """
    dd = _validate.real("delta", delta, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA)
    loss, mass = _loss_masses(sigma, k, sensitivity)

    def above(e: float) -> bool:
        return float(_delta(loss, mass, np.array(e))) > dd

    if not above(0.0):
        return 0.0
    hi = 1.0
    while above(hi):
        hi *= 2
    _, hi = bisect(above, 0.0, hi, done=lambda lo, hi: hi - lo <= 1e-10 * hi)
    return float(hi)


@dataclass(frozen=True)
class ZCDPMeaning:
    """What ρ-zCDP promises at δ, by three routes (the ε of (ε, δ)-DP each gives)."""

    rho: float
    delta: float
    bun_steinke: float       # ρ + 2√(ρ ln(1/δ)) (Bun & Steinke 2016, Proposition 1.3): any ρ-zCDP mechanism
    cks: float               # Canonne, Kamath & Steinke 2020, Proposition 12: any ρ-zCDP mechanism, tighter
    gaussian: float          # continuous Gaussians with total ρ: exactly √(2ρ)-GDP, the exact ε (Dong, Roth & Su 2019)

    def __repr__(self) -> str:
        return (f"ρ = {self.rho:g}-zCDP at δ = {self.delta:g}: ε = {self.bun_steinke:.2f} (Bun & Steinke), "
                f"{self.cks:.2f} (Canonne, Kamath & Steinke), {self.gaussian:.2f} (exact, continuous Gaussians)")


def zcdp_meaning(rho: float, delta: float) -> ZCDPMeaning:
    """The (ε, δ) that ρ-zCDP gives: Bun & Steinke's bound, CKS's conversion, and continuous Gaussians' exact ε.

    The first two hold for every ρ-zCDP mechanism; the third is the truth for Gaussian noise
    (any number of continuous Gaussian releases whose ρ's add up to ρ are together exactly
    μ-GDP with μ = √(2ρ), the Gaussian mechanism with Δ/σ = μ: Dong, Roth & Su 2019, Corollary 3.3),
    so no conversion of ρ alone can go below it.

    Examples
    --------
    >>> zcdp_meaning(2.56, 1e-10)
    ρ = 2.56-zCDP at δ = 1e-10: ε = 17.92 (Bun & Steinke), 17.16 (Canonne, Kamath & Steinke), 16.48 (exact, continuous Gaussians)
    """
    r = _validate.positive("rho", rho, why="ρ > 0 (ρ = 0 releases nothing)")
    d = _validate.real("delta", delta, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA)
    mu = math.sqrt(2 * r)
    return ZCDPMeaning(r, d, r + 2 * math.sqrt(r * math.log(1 / d)), float(zcdp_to_dp(r, d)),
                       gaussian_epsilon(1 / mu, 1.0, d))


def zcdp_rho_for(epsilon: float, delta: float) -> float:
    """The largest ρ whose ρ-zCDP gives (ε, δ)-DP by CKS's conversion (:func:`dpteach.zcdp_to_dp`), by bisection.

    The budget to give a zCDP mechanism that must be (ε, δ)-DP; the lower end of the final
    bracket is returned, so ``zcdp_to_dp(zcdp_rho_for(ε, δ), δ) ≤ ε`` (relative precision 1e-9).

    Examples
    --------
    >>> round(zcdp_rho_for(17.14, 1e-10), 4)
    2.5553
    """
    eps = _validate.epsilon(epsilon)
    d = _validate.real("delta", delta, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA)
    lo, hi = 0.0, 1.0
    while zcdp_to_dp(hi, d) <= eps:
        lo, hi = hi, 2 * hi
    lo, _ = bisect(lambda r: zcdp_to_dp(r, d) <= eps, lo, hi, done=lambda lo, hi: hi - lo <= 1e-9 * hi)
    return float(lo)


#: The 2020 Census redistricting data (P.L. 94-171): zCDP budgets and the (ε, δ) the Bureau published
#: for them (U.S. Census Bureau, "Privacy-loss budget allocation", June 2021; Abowd et al., HDSR 2022).
CENSUS_2020 = {
    "persons": {"rho": 2.56, "published_epsilon": 17.14},
    "housing units": {"rho": 0.07, "published_epsilon": 2.47},
}
#: the δ at which the Bureau states its ε
CENSUS_2020_DELTA = 1e-10
