"""The Generalized Gaussian distribution (Ganesh & Zhao 2020): density, tails, moments, sampler.

Noise with density

.. math:: f(x) = \\frac{p}{2σΓ(1/p)} \\exp\\left(-\\left(\\frac{|x|}{σ}\\right)^p\\right), \\qquad p ≥ 1,

Laplace Lap(σ) at p = 1 (Dwork & Roth 2014, Definition 3.2), the normal N(0, σ²/2) at
p = 2, flatter and flatter as p grows (nearly uniform on [−σ, σ]). The same family as
scipy.stats.gennorm(p, scale=σ). Tails come from the regularised upper incomplete gamma
function Q(1/p, (t/σ)^p), so they keep full relative precision far out.

The mechanism that adds this noise, and the σ that makes it (ε, δ)-DP, are in
:mod:`dpteach.generalized_gaussian.mechanism`; σ is calibrated with the privacy accountant
(:mod:`dpteach.generalized_gaussian.accountant`), which takes its noise as a
:class:`GeneralizedGaussianNoise`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _special, _validate

_WHY_P = "p ≥ 1 keeps the Generalized Gaussian density log-concave, as the accountant needs (p = 1 is Laplace, p = 2 Gaussian)"
_WHY_SIGMA = "σ is the width of the noise; σ ≤ 0 means no noise at all"


def check_shape(p) -> float:
    """The Generalized Gaussian shape p, checked: a real number, 1 ≤ p ≤ 1000."""
    return _validate.real("p", p, low=1.0, low_open=False, high=1000.0, why=_WHY_P)


def check_sigma(sigma, name: str = "sigma") -> float:
    """The scale σ, checked: a positive real number."""
    return _validate.positive(name, sigma, why=_WHY_SIGMA)


def check_noise(noise) -> "GeneralizedGaussianNoise":
    """``noise`` if it is a :class:`GeneralizedGaussianNoise`, else a TypeError saying how to make one."""
    if not isinstance(noise, GeneralizedGaussianNoise):
        raise TypeError("noise must be made by dp.laplace_noise, dp.gaussian_noise or "
                        f"dp.GeneralizedGaussianNoise, got {noise!r}")
    return noise


def _between(lo, hi, t_lo, t_hi) -> np.ndarray:
    """Pr[lo < Z ≤ hi] from the tails t = Pr[Z > |z|] = Pr[Z < −|z|] at both ends (no cancellation near 1)."""
    out = np.where(hi <= 0, t_hi - t_lo, np.where(lo >= 0, t_lo - t_hi, 1.0 - t_lo - t_hi))
    return np.maximum(out, 0.0)


@dataclass(frozen=True)
class GeneralizedGaussianNoise:
    """Noise with density f(z) = p / (2σΓ(1/p)) · exp(−(|z|/σ)^p) (Ganesh & Zhao 2020), p ≥ 1.

    p = 1 is Lap(σ) (Definition 3.2); p = 2 is the normal N(0, σ²/2); large p is flat,
    nearly uniform on [−σ, σ]. Use :func:`laplace_noise` and :func:`gaussian_noise` to
    name the two classics by their usual parameters.
    """

    p: float
    scale: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", check_shape(self.p))
        object.__setattr__(self, "scale", check_sigma(self.scale, "scale"))

    @property
    def name(self) -> str:
        if self.p == 1.0:
            return f"Laplace, b = {self.scale:.4g}"
        if self.p == 2.0:
            return f"Gaussian, std = {self.scale / math.sqrt(2):.4g}"
        return f"Generalized Gaussian, p = {self.p:.4g}, σ = {self.scale:.4g}"

    def logpdf(self, z) -> np.ndarray:
        """ln f(z) = ln(p / (2σΓ(1/p))) − (|z|/σ)^p."""
        zs = np.asarray(z, dtype=np.float64)
        return (math.log(self.p / (2 * self.scale)) - math.lgamma(1 / self.p)
                - (np.abs(zs) / self.scale) ** self.p)

    def tail(self, t) -> np.ndarray:
        """Pr[Z > t] for t ≥ 0: ½·Q(1/p, (t/σ)^p), with Q the regularised upper incomplete gamma."""
        ts = np.asarray(t, dtype=np.float64)
        return 0.5 * _special.gammaincc(1 / self.p, (ts / self.scale) ** self.p)

    def cdf(self, z) -> np.ndarray:
        """Pr[Z ≤ z], accurate to full relative precision in the lower tail."""
        zs = np.asarray(z, dtype=np.float64)
        t = self.tail(np.abs(zs))
        return np.where(zs <= 0, t, 1.0 - t)

    def mass(self, lo, hi) -> np.ndarray:
        """Pr[lo < Z ≤ hi], computed from whichever tails avoid cancellation."""
        lo, hi = np.broadcast_arrays(np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64))
        return _between(lo, hi, self.tail(np.abs(lo)), self.tail(np.abs(hi)))

    def bin_masses(self, z) -> np.ndarray:
        """Pr[z_{j+1} < Z ≤ z_j] for every bin of a decreasing sequence z: :meth:`mass` of
        consecutive points, with one tail evaluation per point instead of two."""
        zs = np.asarray(z, dtype=np.float64)
        t = self.tail(np.abs(zs))
        return _between(zs[1:], zs[:-1], t[1:], t[:-1])

    @property
    def loss_max(self) -> float:
        """sup_z L(z): 1/σ for Laplace (the loss is bounded: pure ε-DP), +∞ for p > 1."""
        return 1.0 / self.scale if self.p == 1.0 else math.inf

    def loss(self, z) -> np.ndarray:
        """L(z) = ln f(z) − ln f(z − 1) = (|z − 1|^p − |z|^p) / σ^p, decreasing in z."""
        zs = np.asarray(z, dtype=np.float64)
        p, s = self.p, self.scale
        return (np.abs(zs - 1) / s) ** p - (np.abs(zs) / s) ** p

    def loss_inverse(self, x) -> np.ndarray:
        """The output z* with L(z*) = x, for −loss_max < x < loss_max (L(1 − z) = −L(z))."""
        xs = np.asarray(x, dtype=np.float64)
        y = np.abs(xs) * self.scale**self.p
        # With u = ½ − z ≥ 0 (for x ≥ 0): (u + ½)^p − |u − ½|^p = y, increasing in u. The left
        # side is 2u for p = 2, and for p = 1 while u ≤ ½ (the loss is capped there).
        if self.p == 1.0 or self.p == 2.0:
            u = y / 2
        else:
            p = self.p
            lo = np.zeros_like(y)
            hi = 0.5 + (y / p) ** (1 / (p - 1)) + 1.0
            for _ in range(64):
                mid = 0.5 * (lo + hi)
                below = (mid + 0.5) ** p - np.abs(mid - 0.5) ** p < y
                lo = np.where(below, mid, lo)
                hi = np.where(below, hi, mid)
            u = 0.5 * (lo + hi)
        return np.where(xs >= 0, 0.5 - u, 0.5 + u)

    def tail_point(self, tau: float) -> float:
        """A t with Pr[Z > t] ≤ τ: the first point of a grid in (t/σ)^p that qualifies."""
        a = 1 / self.p
        guess = -math.log(tau) + 2.0
        y = np.linspace(0.5 * guess, 1.5 * guess + 10.0, 400)
        q = 0.5 * _special.gammaincc(a, y)
        first = int(np.argmax(q <= tau))
        return float(self.scale * y[first] ** a)


def generalized_gaussian_pdf(x, p: float, sigma: float) -> np.ndarray | float:
    """Density of the Generalized Gaussian with shape p and scale σ (scipy.stats.gennorm(p, scale=σ)).

    .. math:: f(x) = \\frac{p}{2σΓ(1/p)} \\exp\\left(-\\left(\\frac{|x|}{σ}\\right)^p\\right)

    Examples
    --------
    At p = 1 it is Lap(σ), whose density at 0 is 1/(2σ):

    >>> generalized_gaussian_pdf(0.0, 1, 2.0)
    0.25
    """
    pp, s = check_shape(p), check_sigma(sigma)
    xs = _validate.array("x", x, nonempty=False, allow_inf=True)
    out = np.exp(GeneralizedGaussianNoise(pp, s).logpdf(xs))
    return out if out.ndim else float(out)


def generalized_gaussian_cdf(x, p: float, sigma: float) -> np.ndarray | float:
    """Pr[X ≤ x] = ½ + ½·sign(x)·P(1/p, (|x|/σ)^p), with P the regularised lower incomplete gamma.

    Accurate to full relative precision far in the lower tail (it is computed from the tail).
    """
    pp, s = check_shape(p), check_sigma(sigma)
    xs = _validate.array("x", x, nonempty=False, allow_inf=True)
    out = GeneralizedGaussianNoise(pp, s).cdf(xs)
    return out if out.ndim else float(out)


def generalized_gaussian_tail(t, p: float, sigma: float) -> np.ndarray | float:
    """Pr[|X| ≥ t] = Q(1/p, (t/σ)^p), the regularised upper incomplete gamma.

    At p = 1 this is Fact 3.7, exp(−t/σ).
    """
    pp, s = check_shape(p), check_sigma(sigma)
    ts = _validate.array("t", t, nonempty=False, allow_inf=True, nonnegative=True)
    out = 2.0 * GeneralizedGaussianNoise(pp, s).tail(ts)
    return out if out.ndim else float(out)


def generalized_gaussian_moment(r: float, p: float, sigma: float) -> float:
    """E|X|^r = σ^r Γ((r + 1)/p) / Γ(1/p), for r ≥ 0.

    Examples
    --------
    E|X| for Lap(1) is 1:

    >>> generalized_gaussian_moment(1, 1, 1.0)
    1.0
    """
    rr = _validate.real("r", r, low=0.0, low_open=False, why="a moment of order r ≥ 0")
    pp, s = check_shape(p), check_sigma(sigma)
    return s**rr * math.exp(math.lgamma((rr + 1) / pp) - math.lgamma(1 / pp))


def generalized_gaussian_variance(p: float, sigma: float) -> float:
    """Var X = σ² Γ(3/p) / Γ(1/p): 2σ² at p = 1 (Laplace), σ²/2 at p = 2 (Gaussian).

    Examples
    --------
    >>> round(generalized_gaussian_variance(1, 3.0), 12), round(generalized_gaussian_variance(2, 3.0), 12)
    (18.0, 4.5)
    """
    return generalized_gaussian_moment(2.0, p, sigma)


def generalized_gaussian_sample(p: float, sigma: float, size, rng: np.random.Generator | None = None) -> np.ndarray:
    """Draw i.i.d. Generalized Gaussian values: |X| = σ·G^{1/p}, G ~ Gamma(1/p, 1), and a fair random sign.

    Why it works: if G ~ Gamma(1/p, 1) then Y = G^{1/p} has density
    p·y^{p−1}·y^{1−p}·e^{−y^p}/Γ(1/p) = p e^{−y^p}/Γ(1/p) on y > 0, the density of |X|/σ.
    The sign comes from random bits (eight per byte) written into each float's sign bit, so
    the cost is numpy's gamma sampler, one power and a few cheap passes.

    Parameters
    ----------
    p, sigma : float
        Shape p ≥ 1 and scale σ > 0.
    size : int or tuple of int
        Output shape.
    rng : numpy.random.Generator, optional
    """
    pp, s = check_shape(p), check_sigma(sigma)
    gen = _validate.rng(rng)
    shape = (size,) if isinstance(size, (int, np.integer)) and not isinstance(size, bool) else tuple(size)
    n = _validate.integer("size", int(np.prod(shape, dtype=np.int64)), low=0, why="the number of values to draw")
    x = gen.standard_gamma(1.0 / pp, size=n)
    if pp == 2.0:
        np.sqrt(x, out=x)
    elif pp != 1.0:
        np.power(x, 1.0 / pp, out=x)
    x *= s
    # A fair random sign: one random bit per value, written into the float's sign bit (x ↦ −x).
    sign_bits = np.unpackbits(np.frombuffer(gen.bytes((n + 7) // 8), dtype=np.uint8), count=n).astype(np.uint64)
    sign_bits <<= np.uint64(63)
    x.view(np.uint64)[...] ^= sign_bits
    return x.reshape(shape)
