"""The errors of Generalized Gaussian noise on k counting queries, and the bounds they are compared with.

Expected ℓ∞ error by quadrature, expected ℓ1 error by formula, a union-bound tail level,
a simulation of both errors, the three mechanisms of chapter 08 side by side, and the
shapes (constant 1) of the lower and upper bounds of Steinke & Ullman (2016) and Ganesh &
Zhao (2020). Chapter 08's trade-off figure asks :func:`error_tradeoff` for its numbers.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .. import _special, _validate
from ..accuracy import expected_linf_error
from ..gaussian import gaussian_sigma
from .distribution import (
    check_shape,
    check_sigma,
    generalized_gaussian_moment,
    generalized_gaussian_sample,
    generalized_gaussian_variance,
)
from .mechanism import check_delta, generalized_gaussian_sigma
from .table import TABLE_DELTA, TABLE_EPSILON_RANGE, TABLE_K, TABLE_P, calibration_table, unit_linf_table

_WHY_K = "k counting queries, k ≥ 1"


def expected_linf_noise(k: int, p: float, sigma: float) -> float:
    """E‖X‖_∞ = E max_i |X_i| for k i.i.d. Generalized Gaussian coordinates, by quadrature.

    .. math:: \\mathbb{E}\\max_i |X_i| = \\int_0^\\infty 1 - \\left(1 - Q\\left(\\tfrac1p, (t/σ)^p\\right)\\right)^k dt

    (the expectation of a non-negative variable is the integral of its tail). At p = 1 it
    equals σ·H_k, the Laplace result of chapter 05. Simpson's rule on 4,001 points.
    """
    kk = _validate.integer("k", k, low=1, high=10**12, why=_WHY_K)
    pp, s = check_shape(p), check_sigma(sigma)
    a = 1.0 / pp
    top = (math.log(kk) + 45.0) ** a * 1.05 + 1.0          # k·Q(a, top^p) < 1e-19 beyond this
    u = np.linspace(0.0, top, 4001)
    q = _special.gammaincc(a, u**pp)
    with np.errstate(divide="ignore"):
        integrand = -np.expm1(kk * np.log1p(-q))
    integrand[q >= 1.0] = 1.0
    h = u[1] - u[0]
    simpson = h / 3 * (integrand[0] + integrand[-1] + 4 * integrand[1:-1:2].sum() + 2 * integrand[2:-1:2].sum())
    return float(s * simpson)


def expected_l1_noise(k: int, p: float, sigma: float) -> float:
    """E‖X‖₁ = k·E|X| = k σ Γ(2/p) / Γ(1/p) (the sum of the k absolute errors)."""
    kk = _validate.integer("k", k, low=1, why=_WHY_K)
    return kk * generalized_gaussian_moment(1.0, p, sigma)


def linf_tail_bound(k: int, beta: float, p: float, sigma: float) -> float:
    """A level that ‖X‖_∞ exceeds with probability ≤ β: σ (ln(k/β))^(1/p) (union bound over the k coordinates).

    Valid for k/β ≥ e, where Q(1/p, y) ≤ e^{−y}; at p = 1 it is Theorem 3.8's ln(k/β)·σ.
    """
    kk = _validate.integer("k", k, low=1, why=_WHY_K)
    b = _validate.real("beta", beta, low=0.0, high=1.0, why="a failure probability")
    pp, s = check_shape(p), check_sigma(sigma)
    if kk / b < math.e:
        raise ValueError(f"k/beta must be ≥ e for this bound, got k = {kk}, beta = {b:g}")
    return s * math.log(kk / b) ** (1 / pp)


@dataclass(frozen=True)
class NoiseErrors:
    """Simulated ‖X‖_∞ and ‖X‖₁ of ``runs`` independent noise vectors of k coordinates."""

    k: int
    p: float
    sigma: float
    linf: np.ndarray
    l1: np.ndarray

    def __repr__(self) -> str:
        return (f"{self.linf.size} runs of k = {self.k:,}: mean ‖X‖∞ = {self.linf.mean():.4g}, "
                f"mean ‖X‖₁ = {self.l1.mean():.4g}")


def simulate_noise_errors(k: int, p: float, sigma: float, runs: int = 200,
                          rng: np.random.Generator | None = None, chunk_size: int = 1_000_000) -> NoiseErrors:
    """‖X‖_∞ and ‖X‖₁ of ``runs`` independent Generalized Gaussian noise vectors (the errors of
    ``runs`` releases of k counting queries), drawn in chunks so memory stays small."""
    kk = _validate.integer("k", k, low=1, why=_WHY_K)
    pp, s = check_shape(p), check_sigma(sigma)
    n = _validate.integer("runs", runs, low=1, why="an experiment needs at least one run")
    size = _validate.integer("chunk_size", chunk_size, low=1)
    gen = _validate.rng(rng)
    rows = max(1, size // kk)
    linf, l1 = np.empty(n), np.empty(n)
    for start in range(0, n, rows):
        stop = min(n, start + rows)
        x = np.abs(generalized_gaussian_sample(pp, s, (stop - start, kk), gen))
        linf[start:stop], l1[start:stop] = x.max(axis=1), x.sum(axis=1)
    return NoiseErrors(kk, pp, s, linf, l1)


@dataclass(frozen=True)
class MechanismError:
    """One mechanism's noise for k counting queries: its scale and its expected errors."""

    name: str
    p: float                # the Generalized Gaussian shape (1 Laplace, 2 Gaussian)
    sigma: float            # the Generalized Gaussian scale σ (b for Laplace, √2·std for Gaussian)
    std: float              # standard deviation of each coordinate's noise
    expected_linf: float    # E‖X‖∞
    expected_l1: float      # E‖X‖₁


def mechanism_error(name: str, k: int, p: float, sigma: float) -> MechanismError:
    """The errors of noise GG(p, σ) on k counting queries, by formula (ℓ1) and quadrature (ℓ∞)."""
    return MechanismError(name, check_shape(p), check_sigma(sigma), math.sqrt(generalized_gaussian_variance(p, sigma)),
                          expected_linf_noise(k, p, sigma), expected_l1_noise(k, p, sigma))


def counting_query_errors(k: int, epsilon: float, delta: float, p: float) -> dict[str, MechanismError]:
    """Three ways to answer k counting queries (one person changes all k answers by 1), and their errors.

    - ``"laplace"``: Laplace with Δ₁f = k, b = k/ε, pure (ε, 0)-DP (Definition 3.3);
    - ``"gaussian"``: Gaussian with Δ₂f = √k, the analytic σ for (ε, δ) (Balle & Wang);
    - ``"generalized"``: Generalized Gaussian with shape p, σ from the accountant for (ε, δ).
    """
    kk = _validate.integer("k", k, low=1, high=10**7, why=_WHY_K)
    eps = _validate.epsilon(epsilon)
    d, pp = check_delta(delta), check_shape(p)
    std = gaussian_sigma(math.sqrt(kk), eps, d)
    return {
        "laplace": mechanism_error("Laplace, Δ₁ = k (pure ε)", kk, 1.0, kk / eps),
        "gaussian": mechanism_error("Gaussian, Δ₂ = √k", kk, 2.0, math.sqrt(2.0) * std),
        "generalized": mechanism_error(f"Generalized Gaussian, p = {pp:.3g}", kk, pp,
                                       generalized_gaussian_sigma(kk, pp, eps, d)),
    }


def linf_lower_bound_shape(k, epsilon: float, delta: float) -> np.ndarray | float:
    """√(k ln(1/δ))/ε: the shape of the lower bound Ω(√(k log(1/δ))/ε) on the ℓ∞ error of any
    (ε, δ)-DP answer to k counting queries (Steinke & Ullman). The Ω hides a constant
    that is not at hand, so this is the curve with constant 1."""
    ks = _validate.array("k", k, nonnegative=True)
    eps = _validate.epsilon(epsilon)
    d = check_delta(delta)
    out = np.sqrt(ks * math.log(1 / d)) / eps
    return out if out.ndim else float(out)


def ganesh_zhao_shapes(k, epsilon: float, delta: float) -> dict[str, np.ndarray]:
    """The shapes of the ℓ∞ bounds in Ganesh & Zhao's abstract, with constant 1 (theirs are not at hand).

    - ``"log log k"``: √(k·ln ln k·ln(1/δ))/ε, the previous best bound, which the Generalized
      Gaussian with p = O(log log k) matches;
    - ``"log log log k"``: √(k·ln ln ln k·ln(1/δ))/ε, their bound with p = O(log log log k)
      and the sparse vector technique.

    Each is NaN where its iterated logarithm is not positive (k ≤ e, k ≤ e^e ≈ 15.2).
    """
    ks = _validate.array("k", k, nonnegative=True)
    eps = _validate.epsilon(epsilon)
    d = check_delta(delta)
    with np.errstate(divide="ignore", invalid="ignore"):
        ll = np.log(np.log(ks))
        lll = np.log(ll)
        return {"log log k": np.where(ll > 0, np.sqrt(ks * ll * math.log(1 / d)) / eps, np.nan),
                "log log log k": np.where(lll > 0, np.sqrt(ks * lll * math.log(1 / d)) / eps, np.nan)}


def ganesh_zhao_growth(k, anchor_k: float = 100.0) -> dict[str, np.ndarray]:
    """How Ganesh & Zhao's two ℓ∞ bounds grow against the lower bound, scaled to 1 at ``anchor_k``.

    In units of the lower bound's shape √(k ln(1/δ))/ε (:func:`linf_lower_bound_shape`),
    the shapes of :func:`ganesh_zhao_shapes` are √(ln ln k) and √(ln ln ln k), whatever ε and
    δ. Their constants are not at hand (Ganesh & Zhao 2020 state the bounds with O(·)), so
    only the growth can be drawn: each is divided by its value at ``anchor_k``.

    - ``"log log k"``: √(ln ln k / ln ln k₀), NaN where ln ln k ≤ 0 (k ≤ e);
    - ``"log log log k"``: √(ln ln ln k / ln ln ln k₀), NaN where ln ln ln k ≤ 0 (k ≤ e^e ≈ 15.2).

    Examples
    --------
    >>> float(ganesh_zhao_growth(100.0)["log log k"])
    1.0
    """
    ks = _validate.array("k", k, nonnegative=True)
    k0 = _validate.real("anchor_k", anchor_k, low=math.exp(math.e), low_open=True,
                        why="the anchor must be beyond e^e ≈ 15.2, where ln ln ln k > 0")
    with np.errstate(divide="ignore", invalid="ignore"):
        ll = np.log(np.log(ks))
        lll = np.log(ll)
        out = {"log log k": np.where(ll > 0, np.sqrt(ll / math.log(math.log(k0))), np.nan),
               "log log log k": np.where(lll > 0, np.sqrt(lll / math.log(math.log(math.log(k0)))), np.nan)}
    return out if ks.ndim else {name: float(v) for name, v in out.items()}


@dataclass(frozen=True)
class ErrorTradeoff:
    """The numbers of chapter 08's trade-off figure, at one (p, k, ε, δ) of the shipped table's grid.

    Over k in ``ks``: E‖noise‖∞ of Laplace (Δ₁ = k, pure ε), of the analytic Gaussian
    (Δ₂ = √k) and of the Generalized Gaussian with shape p (σ from the table), and the lower
    bound's shape √(k ln(1/δ))/ε. ``growth``: Ganesh & Zhao's growth curves over
    ``growth_k``, in units of that shape, anchored on the Gaussian at k = 100. At the given
    k, for every p in ``ps``: σ, and the mean |error| (ℓ1/k) and E‖noise‖∞ as ratios to the
    analytic Gaussian's.
    """

    p: float
    k: int
    epsilon: float
    delta: float
    ks: np.ndarray
    laplace: np.ndarray
    gaussian: np.ndarray
    generalized: np.ndarray
    lower_bound_shape: np.ndarray
    growth_k: np.ndarray
    growth: dict
    ps: tuple
    sigmas: np.ndarray
    l1_ratio: np.ndarray
    linf_ratio: np.ndarray

    @property
    def best_p(self) -> float:
        """The p with the smallest E‖noise‖∞ at this k."""
        return self.ps[int(np.argmin(self.linf_ratio))]

    @property
    def linf_gain(self) -> float:
        """1 − E‖noise‖∞ of shape p ÷ the Gaussian's: the fraction of the largest error saved."""
        return float(1 - self.linf_ratio[self.ps.index(self.p)])


#: where the growth curves of :func:`error_tradeoff` are drawn: k from 20 to 10,000
GROWTH_K = np.logspace(math.log10(20), 4, 100)


@functools.lru_cache(maxsize=1024)
def _at(eps: float, d: float) -> tuple:
    """What :func:`error_tradeoff` draws that depends on (ε, δ) only, not on p or k: the analytic Gaussian's σ
    at Δ₂ = 1, the lower bound's shape, the Gaussian's and Laplace's E‖X‖∞ at every k of the table, and the
    growth curves. Kept per (ε, δ), read-only, so that the p and k sliders only look up the table."""
    unit = unit_linf_table()
    ks = np.array(TABLE_K, dtype=float)
    g1 = gaussian_sigma(1.0, eps, d)                    # the analytic σ is proportional to Δ₂
    shape = linf_lower_bound_shape(ks, eps, d)
    gauss = np.array([unit[(2.0, n)] * math.sqrt(2 * n) * g1 for n in TABLE_K])   # GG σ = √2·std
    lap = np.array([expected_linf_error(n, n, eps) for n in TABLE_K])
    at = TABLE_K.index(100)
    anchor = gauss[at] / shape[at]
    growth = {name: curve * anchor for name, curve in ganesh_zhao_growth(GROWTH_K, 100.0).items()}
    for array in (shape, gauss, lap, *growth.values()):
        array.flags.writeable = False
    return g1, shape, gauss, lap, growth


def error_tradeoff(p: float, k: int, epsilon: float, delta: float) -> ErrorTradeoff:
    """The ℓ∞ error of k counting queries under Laplace, Gaussian and Generalized Gaussian noise,
    and the ℓ1/ℓ∞ trade-off of the shape p, on the shipped table's grid.

    Laplace: E‖X‖∞ = (k/ε)·H_k (:func:`dpteach.expected_linf_error`, Δ₁ = k). Gaussian: the
    analytic σ for Δ₂ = √k (Balle & Wang 2018), E‖X‖∞ from the shipped quadrature values.
    Generalized Gaussian (Ganesh & Zhao 2020): σ interpolated in the shipped table of
    accountant results (:func:`dpteach.generalized_gaussian.table.calibration_table`, within 0.5% of a direct
    calibration), E‖X‖∞ = σ·E‖X‖∞(σ = 1) and E|X| = σ·Γ(2/p)/Γ(1/p). Everything is a table
    look-up or a formula: a slider can ask for it on every move.

    Parameters
    ----------
    p : float
        One of :data:`dpteach.generalized_gaussian.table.TABLE_P`.
    k : int
        One of :data:`dpteach.generalized_gaussian.table.TABLE_K`.
    epsilon, delta : float
        Inside the table's range: 0.1 ≤ ε ≤ 10, 10⁻¹⁰ ≤ δ ≤ 10⁻².
    """
    pp = check_shape(p)
    kk = _validate.integer("k", k, low=1, why=_WHY_K)
    if pp not in TABLE_P or kk not in TABLE_K:
        raise ValueError(f"p must be one of {TABLE_P} and k one of {TABLE_K}, got {p!r}, {k!r}")
    eps = _validate.real("epsilon", epsilon, low=TABLE_EPSILON_RANGE[0], high=TABLE_EPSILON_RANGE[1],
                         low_open=False, why="the range the shipped table was computed for")
    d = _validate.real("delta", delta, low=min(TABLE_DELTA), high=max(TABLE_DELTA), low_open=False,
                       why="the range the shipped table was computed for")
    table, unit = calibration_table(), unit_linf_table()
    ks = np.array(TABLE_K, dtype=float)
    g1, shape, gauss, lap, growth = _at(eps, d)
    growth = dict(growth)                               # the caller's own dict (its arrays are read-only)
    # every (k, p) is on the table's grid and ε, δ in its range (checked above): the look-ups skip the checks
    gg = np.array([unit[(pp, n)] * table._sigma(n, pp, eps, d) for n in TABLE_K])
    sig = np.array([table._sigma(kk, q, eps, d) for q in TABLE_P])
    g_std = math.sqrt(kk) * g1
    l1 = sig * np.array([generalized_gaussian_moment(1.0, q, 1.0) for q in TABLE_P]) / (g_std * math.sqrt(2 / math.pi))
    linf = sig * np.array([unit[(q, kk)] for q in TABLE_P]) / gauss[TABLE_K.index(kk)]
    return ErrorTradeoff(pp, kk, eps, d, ks, lap, gauss, gg, shape, GROWTH_K, growth, TABLE_P, sig, l1, linf)
