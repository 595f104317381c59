"""A privacy accountant written for teaching: the privacy loss distribution (PLD) of additive noise.

The mechanism adds i.i.d. noise Z with a symmetric, log-concave density f to each of k
answers, and two neighbouring databases differ by 1 in every coordinate (k counting
queries that one person can all change: for symmetric noise this is the worst
neighbouring difference in {−1, 0, 1}^k, because dropping a coordinate is post-processing).
The noise is a Generalized Gaussian, density ∝ exp(−(|z|/σ)^p) with p ≥ 1, which is
Laplace at p = 1 and Gaussian at p = 2 (:class:`dpteach.generalized_gaussian.distribution.GeneralizedGaussianNoise`).

The privacy loss at an output z of one coordinate is

.. math:: L(z) = \\ln f(z) - \\ln f(z - 1),

decreasing in z because f is log-concave. With z drawn from the first distribution,

.. math:: δ(ε) = \\mathbb{E}\\left[\\left(1 - e^{ε - L}\\right)_+\\right]
          = \\Pr[L > ε] - e^{ε} \\Pr{}_{\\!Q}[L > ε],

the smallest δ for which the mechanism is (ε, δ)-DP. For k independent coordinates the
loss is a sum of k independent copies, so its distribution is the k-fold convolution of
one coordinate's, computed here with numpy's FFT.

The discretisation is pessimistic, so the δ reported is an upper bound (up to the stated
round-off tolerance): each bin of the loss axis sends its mass to the two grid points at
its ends, split so that *both* distributions keep their mass. The resulting discrete pair
dominates the real one (its δ(ε) is the chord of the real, convex curve in e^ε, which lies
above it: Doroshenko et al., "Connect the dots", PETS 2022), and domination survives
composition. Tails beyond the grid are pushed to a loss of +∞ (they count fully in δ), and
the mass the FFT window cannot hold is bounded by a Chernoff bound and added to δ. The FFT's
round-off is about 10⁻¹⁶ of the largest probability: read at δ = 10⁻¹⁰ after thousands of
coordinates it can exceed the discretisation's margin, so :func:`privacy_loss_distribution`
can compose under an exponential tilt centred on the ε of interest (``tilt_at``) instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import _validate
from .distribution import GeneralizedGaussianNoise, check_noise

_WHY_SCALE = "σ is the width of the noise"
_WHY_K = "k counting queries, k ≥ 1"


def laplace_noise(scale: float) -> GeneralizedGaussianNoise:
    """Lap(b) noise (Definition 3.2) for the accountant: the Generalized Gaussian with p = 1, σ = b."""
    return GeneralizedGaussianNoise(1.0, _validate.positive("scale", scale, why=_WHY_SCALE))


def gaussian_noise(std: float) -> GeneralizedGaussianNoise:
    """N(0, s²) noise for the accountant: the Generalized Gaussian with p = 2 and σ = √2·s."""
    return GeneralizedGaussianNoise(2.0, math.sqrt(2.0) * _validate.positive("std", std, why=_WHY_SCALE))


def one_coordinate_delta(noise: GeneralizedGaussianNoise, epsilon) -> np.ndarray | float:
    """The exact δ(ε) of one coordinate, noise shifted by 1: Pr_P[L > ε] − e^ε Pr_Q[L > ε].

    .. math:: δ(ε) = F(z^*) - e^{ε} F(z^* - 1), \\qquad L(z^*) = ε

    where F is the noise's CDF, P = f and Q = f(· − 1): the event {L > ε} = {z < z*} is the
    one that separates the neighbours most. For Gaussian noise of standard deviation s this
    is Balle & Wang's analytic formula Φ(1/(2s) − εs) − e^ε Φ(−1/(2s) − εs); for Laplace
    noise of scale b it is 0 from ε = 1/b on (pure 1/b-DP) and 1 − e^{(ε − 1/b)/2} below.

    Parameters
    ----------
    noise : GeneralizedGaussianNoise
    epsilon : float or array_like
        ε (any real; δ(ε) = 1 − e^ε for ε ≤ −sup L).
    """
    n = check_noise(noise)
    eps = _validate.array("epsilon", epsilon, nonempty=False)
    top = n.loss_max
    inside = np.abs(eps) < top
    e = np.where(inside, eps, 0.0)
    z = n.loss_inverse(e)
    with np.errstate(divide="ignore"):
        d = n.cdf(z) - np.exp(e + np.log(n.cdf(z - 1)))
    out = np.where(inside, np.clip(d, 0.0, 1.0), np.where(eps >= top, 0.0, -np.expm1(np.minimum(eps, 0.0))))
    return out if out.ndim else float(out)


@dataclass(frozen=True)
class PrivacyLossDistribution:
    """The distribution of the total privacy loss of k coordinates, on the grid n·step.

    ``masses[i]`` is the (pessimistic) probability, under the first distribution, that the
    total loss equals ``(offset + i)·step``; ``infinity_mass`` is the probability of an
    infinite loss (a tail pushed beyond the grid); ``truncated`` bounds the mass that lay
    beyond the FFT window's top and is counted in δ as if infinite. ``tolerance`` bounds the
    remaining numerical error of δ (FFT round-off and the window's lower tail).

    For ε ≥ 0, δ(ε) and its inverse ε(δ) take one binary search each: with ℓ_n the grid
    losses and, for the first n with ℓ_n > ε, A = Σ_{m ≥ n} Pr[L = ℓ_m] and
    S = Σ_{m ≥ n} Pr[L = ℓ_m] e^{−ℓ_m} (suffix sums computed once, S as its logarithm), δ(ε) = A − e^ε·S.
    """

    noise: GeneralizedGaussianNoise
    k: int
    step: float
    offset: int
    masses: np.ndarray = field(repr=False)
    infinity_mass: float
    truncated: float
    tolerance: float

    def __post_init__(self) -> None:
        losses = self.losses
        first = int(np.searchsorted(losses, 0.0, side="left"))     # the losses ≥ 0
        m, ell = self.masses[first:], losses[first:]
        suffix = np.cumsum(m[::-1])[::-1]
        # S_n = Σ_{m ≥ n} Pr[L = ℓ_m]·e^{−ℓ_m}, kept as its logarithm: e^{−ℓ} underflows to 0 past ℓ ≈ 745, and
        # e^ε·S then came out as ∞·0 (a total of 1,320 read as 1,629, or ∞)
        with np.errstate(divide="ignore"):
            log_weighted = np.logaddexp.accumulate((np.log(m) - ell)[::-1])[::-1]
        object.__setattr__(self, "_nonnegative", (ell, np.r_[suffix, 0.0], np.r_[log_weighted, -np.inf]))

    @property
    def losses(self) -> np.ndarray:
        """The loss values the masses sit at."""
        return (self.offset + np.arange(self.masses.size)) * self.step

    def delta(self, epsilon) -> np.ndarray | float:
        """δ(ε) = Pr[L = ∞] + Σ_ℓ Pr[L = ℓ]·(1 − e^{ε − ℓ})₊: an upper bound on the true δ(ε)."""
        eps = _validate.array("epsilon", epsilon, nonempty=False)
        flat = np.atleast_1d(eps).ravel()
        out = np.empty(flat.shape)
        ell, suffix, log_weighted = self._nonnegative
        nonneg = flat >= 0
        # first loss > ε; an ε within 1e-9 of a step from a grid loss is taken to be on it
        n = np.searchsorted(ell, flat[nonneg] + 1e-9 * self.step, side="right")
        out[nonneg] = suffix[n] - np.exp(flat[nonneg] + log_weighted[n])
        for i in np.flatnonzero(~nonneg):                              # ε < 0: the direct sum
            losses = self.losses
            above = losses > flat[i]
            out[i] = np.dot(self.masses[above], -np.expm1(flat[i] - losses[above]))
        # the truncated mass lies below the largest possible loss k·sup L (finite for Laplace)
        ceiling = self.k * self.noise.loss_max
        weight = np.clip(-np.expm1(flat - ceiling), 0.0, 1.0) if math.isfinite(ceiling) else 1.0
        out = np.clip(out + self.infinity_mass + self.truncated * weight, 0.0, 1.0).reshape(eps.shape)
        return out if out.ndim else float(out)

    def epsilon(self, delta) -> np.ndarray | float:
        """The smallest ε ≥ 0 with δ(ε) ≤ ``delta``, exactly for this discrete distribution (+∞ if none).

        Between two grid losses δ(ε) = A − e^ε·S with A, S fixed, so the crossing is
        ε = ln((A − δ)/S) in the cell where δ first drops below the target.
        """
        ds = _validate.array("delta", delta, nonempty=False)
        if ((ds <= 0) | (ds >= 1)).any():
            raise ValueError(f"delta must be in (0, 1), got {delta!r}; δ = 0 asks for pure DP")
        ell, suffix, log_weighted = self._nonnegative
        at_grid = suffix[1:] - np.exp(ell + log_weighted[1:])         # δ(ℓ_j) for each grid loss ℓ_j ≥ 0
        at_zero = suffix[0] - math.exp(log_weighted[0])
        flat = np.atleast_1d(ds).ravel() - self.infinity_mass - self.truncated
        out = np.empty(flat.shape)
        for i, target in enumerate(flat):
            if target <= 0:
                out[i] = math.inf
            elif at_zero <= target:
                out[i] = 0.0
            else:
                j = int(np.argmax(at_grid <= target)) if (at_grid <= target).any() else ell.size - 1
                a, log_s = suffix[j], log_weighted[j]                # the cell (ℓ_{j−1}, ℓ_j]
                out[i] = max(math.log(a - target) - log_s, 0.0) if a > target and math.isfinite(log_s) \
                    else float(ell[j])
        out = out.reshape(ds.shape)
        return out if out.ndim else float(out)

    def mean(self) -> float:
        """E[L] over the finite part (the KL divergence, up to discretisation)."""
        return float(np.dot(self.masses, self.losses) / self.masses.sum())

    def __repr__(self) -> str:
        return (f"PrivacyLossDistribution({self.noise.name}; k = {self.k:,}; {self.masses.size:,} grid points "
                f"of step {self.step:.3g}; Pr[L = ∞] = {self.infinity_mass:.2g}; "
                f"tolerance {self.tolerance:.1g})")


def _one_coordinate_masses(noise: GeneralizedGaussianNoise, k: int, resolution: float, tail_mass: float,
                           spread: float | None = None):
    """The pessimistic one-coordinate PLD on the grid j·h: (h, j_lo, masses, infinity mass).

    The grid is symmetric, [−top, top], with ``resolution`` points per standard deviation
    ``spread`` of the loss (found first on a coarse grid when not given).
    """
    if math.isfinite(noise.loss_max):                     # Laplace: the grid ends exactly at ±1/b
        top = noise.loss_max
    else:
        t = noise.tail_point(tail_mass / k)
        top = float(noise.loss(-t))                        # beyond it, probability ≤ tail_mass / k
    if spread is None:
        h0, j0, m0, _ = _one_coordinate_masses(noise, k, 1.0, tail_mass, spread=top / 128)
        x0 = (j0 + np.arange(m0.size)) * h0
        spread = float(np.sqrt(np.dot(m0, x0**2) / m0.sum() - (np.dot(m0, x0) / m0.sum()) ** 2))
    half = 8 * int(min(max(math.ceil(resolution * top / spread / 8), 1), 2**18))   # ±top·j/8 on the grid
    h = top / half
    x = np.arange(-half, half + 1) * h                     # grid points x_0 < … < x_n, symmetric
    z = noise.loss_inverse(x)                              # L(z_j) = x_j, z decreasing in j
    # a_j, b_j: P- and Q-mass of the bin (x_j, x_{j+1}], i.e. of z in [z_{j+1}, z_j)
    a = noise.bin_masses(z)
    b = noise.bin_masses(z - 1)
    # The bin's mass goes to its two ends, so that P and Q both keep theirs (Q = e^{−x}·P at x).
    right = np.clip((a - np.exp(x[:-1]) * b) / -np.expm1(-h), 0.0, a)
    masses = np.zeros(x.size)
    masses[1:] += right
    masses[:-1] += a - right
    masses[0] += float(noise.mass(z[0], math.inf))         # losses below x_0 are moved up to x_0
    beyond = float(noise.mass(-math.inf, z[-1]))           # losses at or above x_n
    if math.isfinite(noise.loss_max):                      # Laplace: they all equal x_n = 1/b
        masses[-1] += beyond
        return h, -half, masses, 0.0
    beyond_q = float(noise.mass(-math.inf, z[-1] - 1))     # Q's share (e^{−x_n}·P) stays at x_n,
    masses[-1] += math.exp(x[-1]) * beyond_q               # the rest of P's goes to +∞
    infinity = max(beyond - math.exp(x[-1]) * beyond_q, 0.0)
    return h, -half, masses, infinity


class _Chernoff:
    """Chernoff bounds for S, a sum of k copies of a discrete loss: Pr[S ≥ s] ≤ min_t M(t)^k e^{−ts}."""

    def __init__(self, masses: np.ndarray, losses: np.ndarray, k: int) -> None:
        keep = masses > 0
        m, x = masses[keep], losses[keep]
        spread = max(float(np.abs(x).max()), 1e-300)
        t = np.geomspace(1e-2, 1e3, 80) / spread
        self.t = np.concatenate([-t[::-1], t])
        e = np.log(m)[None, :] + self.t[:, None] * x[None, :]
        top = e.max(axis=1)
        self.k_log_mgf = k * (top + np.log(np.exp(e - top[:, None]).sum(axis=1)))

    def above(self, level: float) -> float:
        """A bound on Pr[S ≥ level]."""
        t = self.t > 0
        return float(math.exp(min(0.0, (self.k_log_mgf[t] - self.t[t] * level).min())))

    def below(self, level: float) -> float:
        """A bound on Pr[S ≤ level]."""
        t = self.t < 0
        return float(math.exp(min(0.0, (self.k_log_mgf[t] - self.t[t] * level).min())))


def _fft_size(n: int) -> int:
    """The smallest 2^a·3^b ≥ n (fast sizes for numpy's FFT)."""
    best = 1 << max(0, (n - 1).bit_length())
    power3 = 1
    while power3 < best:
        size = power3 * (1 << max(0, math.ceil(math.log2(n / power3))))
        best = min(best, size)
        power3 *= 3
    return best


def privacy_loss_distribution(noise: GeneralizedGaussianNoise, k: int = 1, *, resolution: float = 256,
                              tail_mass: float = 1e-15, tilt_at: float | None = None) -> PrivacyLossDistribution:
    """The privacy loss distribution of k coordinates of ``noise``, each shifted by 1.

    One coordinate: the exact loss distribution, from the noise's CDF at the outputs z_j
    whose loss L(z_j) is a grid point x_j, discretised pessimistically (see the module's
    docstring). k coordinates: the k-fold convolution, as the k-th power of the discrete
    Fourier transform, on a window around the mean wide enough that a Chernoff bound puts
    less than ``tail_mass`` outside it.

    Parameters
    ----------
    noise : GeneralizedGaussianNoise
        From :func:`laplace_noise`, :func:`gaussian_noise` or ``GeneralizedGaussianNoise(p, σ)``.
    k : int
        Number of coordinates, each shifted by 1 (k counting queries), k ≥ 1.
    resolution : float, optional
        Grid points per standard deviation of one coordinate's loss (finer: tighter, slower).
        δ is an upper bound. How far above the truth was measured for Gaussian noise, whose
        δ(ε) is exact (Balle & Wang 2018), k = 1 to 10⁴: at the default, 256,
        δ ≤ (1 + 10⁻⁴)·δ_true + 2·10⁻¹³; at 25, δ ≤ (1 + 10⁻²)·δ_true + 2·10⁻¹³ (the
        absolute part, from the tails pushed to an infinite loss and the FFT's rounding,
        matters only below δ ≈ 10⁻⁹). Generalized Gaussians with p near 1 and few
        coordinates need more: against resolution 2048, 3·10⁻⁴ at 256 and 4·10⁻² at 25
        (relative) for p = 1.5, k = 1.
    tail_mass : float, optional
        Probability allowed to be pushed to an infinite loss, and outside the FFT window.
    tilt_at : float, optional
        A total loss near the ε to be read (k ≥ 2). The plain FFT's round-off is about 10⁻¹⁶ of the largest
        probability, absolute: at δ = 10⁻¹⁰ and thousands of coordinates it outweighs the discretisation's
        pessimism and can put δ(ε) below the truth. With ``tilt_at`` the k-fold convolution is computed under
        the exponential tilt whose mean is ``tilt_at`` and tilted back (the saddle point's tilt), so the tail
        above it keeps its relative precision, and a bound on the round-off is added to every mass.

    Returns
    -------
    PrivacyLossDistribution
        Call ``.delta(epsilon)`` or ``.epsilon(delta)``.

    Examples
    --------
    >>> pld = privacy_loss_distribution(laplace_noise(1.0))
    >>> round(pld.delta(0.5), 6), pld.delta(1.0)
    (0.221199, 0.0)
    """
    n = check_noise(noise)
    kk = _validate.integer("k", k, low=1, high=10**8, why=_WHY_K)
    res = _validate.real("resolution", resolution, low=1.0, low_open=False, high=1e5,
                         why="grid points per standard deviation of the loss")
    tau = _validate.real("tail_mass", tail_mass, low=0.0, high=1e-3, why="a small probability")
    at = None if tilt_at is None else _validate.real("tilt_at", tilt_at, why="a total loss, the ε of interest")
    h, j_lo, m1, inf1 = _one_coordinate_masses(n, kk, res, tau)
    x1 = (j_lo + np.arange(m1.size)) * h
    infinity = -math.expm1(kk * math.log1p(-inf1)) if inf1 < 1 else 1.0
    if kk == 1:
        return PrivacyLossDistribution(n, 1, h, j_lo, m1, infinity, 0.0, 0.0)
    full = (kk * j_lo, kk * (j_lo + m1.size - 1))
    n_lo, window, high_tail, low_tail, floor = _compose(m1, x1, kk, h, tau, full)
    rounding = window.size * (floor + 4e-16 * float(window.max(initial=0.0)))
    t = 0.0 if at is None else _tilt(m1, x1, kk, at)
    if t > 0:
        return _tilted(n, kk, h, m1, x1, t, tau, full, (n_lo, window, floor), infinity, low_tail + rounding)
    nonzero = np.flatnonzero(window > 0)
    first, last = (int(nonzero[0]), int(nonzero[-1]) + 1) if nonzero.size else (0, 1)
    return PrivacyLossDistribution(n, kk, h, n_lo + first, window[first:last].copy(), infinity, high_tail,
                                   low_tail + rounding)


def _compose(m1: np.ndarray, x1: np.ndarray, kk: int, h: float, tau: float, full: tuple[int, int]):
    """The k-fold convolution of the pmf ``m1`` (at losses ``x1`` = j·h), by FFT, on a window around its mean that
    a Chernoff bound says holds all but ``tau`` on each side: (first grid index, masses ≥ 0, upper tail bound,
    lower tail bound, the FFT's noise floor)."""
    total = m1.sum()
    mu = float(np.dot(m1, x1) / total)
    sd = float(np.sqrt(max(np.dot(m1, (x1 - mu) ** 2) / total, 0.0)))
    full_lo, full_hi = full
    chernoff = _Chernoff(m1, x1, kk)
    width = 6.0
    while True:
        lo_level, hi_level = kk * mu - width * math.sqrt(kk) * sd, kk * mu + width * math.sqrt(kk) * sd
        n_lo, n_hi = max(full_lo, math.floor(lo_level / h)), min(full_hi, math.ceil(hi_level / h))
        low_tail = 0.0 if n_lo == full_lo else chernoff.below(n_lo * h)
        high_tail = 0.0 if n_hi == full_hi else chernoff.above((n_hi + 1) * h)
        if (low_tail <= tau and high_tail <= tau) or width > 60:
            break
        width += 2.0
    size = _fft_size(n_hi - n_lo + 1)
    if size >= full_hi - full_lo + 1:                        # the whole support fits: no truncation
        size, n_lo, n_hi = _fft_size(full_hi - full_lo + 1), full_lo, full_hi
        low_tail = high_tail = 0.0
    else:                                   # use the whole FFT length as the window (not past the support)
        n_hi = min(n_lo + size - 1, full_hi)
        high_tail = 0.0 if n_hi >= full_hi else chernoff.above((n_hi + 1) * h)
    pmf = np.bincount(np.arange(m1.size) % size, weights=m1, minlength=size)
    composed = np.fft.irfft(np.fft.rfft(pmf) ** kk, size)
    window = np.roll(composed, -((n_lo - full_lo) % size))[: n_hi - n_lo + 1]
    floor = max(float(-window.min()), 0.0) if window.size else 0.0
    return n_lo, np.maximum(window, 0.0), high_tail, low_tail, floor


def _tilt(m1: np.ndarray, x1: np.ndarray, kk: int, at: float) -> float:
    """The t ≥ 0 whose exponential tilt m1·e^(tx)/M(t) has k-fold mean ``at`` (0 when the mean is above it already;
    capped where the tilted mass sits almost all on the largest loss)."""
    keep = m1 > 0
    logm, x = np.log(m1[keep]), x1[keep]

    def mean(t: float) -> float:
        w = np.exp(logm + t * x - np.max(logm + t * x))
        return float(np.dot(w, x) / w.sum()) * kk

    target = min(at, kk * (x.max() - 1e-3 * (x.max() - x.min())))
    if mean(0.0) >= target:
        return 0.0
    low, high = 0.0, 1.0 / max(float(np.abs(x).max()), 1e-300)
    while mean(high) < target and high < 1e6:
        low, high = high, 2 * high
    for _ in range(60):
        mid = 0.5 * (low + high)
        low, high = (mid, high) if mean(mid) < target else (low, mid)
    return low


def _tilted(noise, kk, h, m1, x1, t, tau, full, plain, infinity, tolerance) -> PrivacyLossDistribution:
    """The composition under the exponential tilt e^(tx): q = m1·e^(tx)/M(t), whose k-fold convolution is the
    k-fold one's times e^(t·s)/M(t)^k exactly. Composed by FFT and tilted back, p(s) = q^{*k}(s)·A(s) with
    A(s) = M(t)^k e^(−ts): the FFT's round-off, relative to q^{*k}'s largest value, shrinks by A(s) < 1 at every
    loss s above s* = k·ln M(t)/t (the tail that δ(ε) reads for ε near the tilt's mean) instead of swamping a
    tail of 10⁻¹⁰. Below s* the plain composition is kept. Each mass then gets its round-off bound added (the
    FFT's noise floor plus 10⁻¹⁵ of its largest value, times A(s) above s*), so δ stays an upper bound."""
    keep = m1 > 0
    lw = np.full(m1.size, -np.inf)
    lw[keep] = np.log(m1[keep]) + t * x1[keep]
    top = float(lw.max())
    q = np.exp(lw - top)
    log_mgf = top + math.log(q.sum())                        # ln M(t)
    q /= q.sum()
    t_lo, t_window, t_high, _, t_floor = _compose(q, x1, kk, h, tau, full)
    p_lo, p_window, p_floor = plain
    cut = math.ceil(kk * log_mgf / t / h)                    # grid index of s*: A ≤ 1 from here on
    lo, hi = min(p_lo, t_lo), max(p_lo + p_window.size, t_lo + t_window.size)
    index = np.arange(lo, hi)
    log_a = kk * log_mgf - t * index * h                     # ln A(s)
    masses = np.zeros(index.size)
    below = index < cut
    inside = below & (index >= p_lo) & (index < p_lo + p_window.size)
    masses[inside] = p_window[index[inside] - p_lo]
    masses[below] += p_floor + 1e-15 * float(p_window.max(initial=0.0))
    above = ~below & (index >= t_lo) & (index < t_lo + t_window.size)
    error = t_floor + 1e-15 * float(t_window.max(initial=0.0))
    masses[above] = (t_window[index[above] - t_lo] + error) * np.exp(log_a[above])
    # the tilted mass beyond the window's top, tilted back: at most A there times its Chernoff bound
    truncated = t_high * math.exp(kk * log_mgf - t * (t_lo + t_window.size) * h) if t_high > 0 else 0.0
    return PrivacyLossDistribution(noise, kk, h, lo, masses, infinity, truncated, tolerance)
