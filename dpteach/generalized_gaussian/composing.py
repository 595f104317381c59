"""The k-fold composition of a discrete privacy loss, for :mod:`.accountant`: by FFT on a window that Chernoff
bounds say holds all but a given tail mass, and under an exponential tilt where a tail of 10⁻¹⁰ must stay above the
FFT's round-off (the saddle point's tilt; Koskela, Jälkö & Honkela 2020 compose privacy loss distributions by FFT,
and Gopi, Lee & Wutschitz 2021 bound their errors)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Chernoff", "compose", "fft_size", "tilt_for", "tilted"]


class Chernoff:
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


def fft_size(n: int) -> int:
    """The smallest 2^a·3^b ≥ n (fast sizes for numpy's FFT)."""
    best = 1 << max(0, (n - 1).bit_length())
    power3 = 1
    while power3 < best:
        size = power3 * (1 << max(0, math.ceil(math.log2(n / power3))))
        best = min(best, size)
        power3 *= 3
    return best


def compose(m1: np.ndarray, x1: np.ndarray, kk: int, h: float, tau: float, full: tuple[int, int]):
    """The k-fold convolution of the pmf ``m1`` (at losses ``x1`` = j·h), by FFT, on a window around its mean that
    a Chernoff bound says holds all but ``tau`` on each side: (first grid index, masses ≥ 0, upper tail bound,
    lower tail bound, the FFT's noise floor)."""
    total = m1.sum()
    mu = float(np.dot(m1, x1) / total)
    sd = float(np.sqrt(max(np.dot(m1, (x1 - mu) ** 2) / total, 0.0)))
    full_lo, full_hi = full
    chernoff = Chernoff(m1, x1, kk)
    width = 6.0
    while True:
        lo_level, hi_level = kk * mu - width * math.sqrt(kk) * sd, kk * mu + width * math.sqrt(kk) * sd
        n_lo, n_hi = max(full_lo, math.floor(lo_level / h)), min(full_hi, math.ceil(hi_level / h))
        low_tail = 0.0 if n_lo == full_lo else chernoff.below(n_lo * h)
        high_tail = 0.0 if n_hi == full_hi else chernoff.above((n_hi + 1) * h)
        if (low_tail <= tau and high_tail <= tau) or width > 60:
            break
        width += 2.0
    size = fft_size(n_hi - n_lo + 1)
    if size >= full_hi - full_lo + 1:                        # the whole support fits: no truncation
        size, n_lo, n_hi = fft_size(full_hi - full_lo + 1), full_lo, full_hi
        low_tail = high_tail = 0.0
    else:                                   # use the whole FFT length as the window (not past the support)
        n_hi = min(n_lo + size - 1, full_hi)
        high_tail = 0.0 if n_hi >= full_hi else chernoff.above((n_hi + 1) * h)
    pmf = np.bincount(np.arange(m1.size) % size, weights=m1, minlength=size)
    composed = np.fft.irfft(np.fft.rfft(pmf) ** kk, size)
    window = np.roll(composed, -((n_lo - full_lo) % size))[: n_hi - n_lo + 1]
    floor = max(float(-window.min()), 0.0) if window.size else 0.0
    return n_lo, np.maximum(window, 0.0), high_tail, low_tail, floor


def tilt_for(m1: np.ndarray, x1: np.ndarray, kk: int, at: float) -> float:
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


def tilted(kk, h, m1, x1, t, tau, full, plain) -> tuple[int, np.ndarray, float]:
    """The composition under the exponential tilt e^(tx): q = m1·e^(tx)/M(t), whose k-fold convolution is the
    k-fold one's times e^(t·s)/M(t)^k exactly. Composed by FFT and tilted back, p(s) = q^{*k}(s)·A(s) with
    A(s) = M(t)^k e^(−ts): the FFT's round-off, relative to q^{*k}'s largest value, shrinks by A(s) < 1 at every
    loss s above s* = k·ln M(t)/t (the tail that δ(ε) reads for ε near the tilt's mean) instead of swamping a
    tail of 10⁻¹⁰. Below s* the plain composition is kept. Each mass then gets its round-off bound added (the
    FFT's noise floor plus 10⁻¹⁵ of its largest value, times A(s) above s*), so δ stays an upper bound.
    Returns (first grid index, masses, a bound on the mass beyond the window's top)."""
    keep = m1 > 0
    lw = np.full(m1.size, -np.inf)
    lw[keep] = np.log(m1[keep]) + t * x1[keep]
    top = float(lw.max())
    q = np.exp(lw - top)
    log_mgf = top + math.log(q.sum())                        # ln M(t)
    q /= q.sum()
    t_lo, t_window, t_high, _, t_floor = compose(q, x1, kk, h, tau, full)
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
    return lo, masses, truncated
