"""The Generalized Gaussian mechanism for k counting queries (Ganesh & Zhao 2020).

Noise x ∈ ℝ^k with density ∝ exp(−(‖x‖_p/σ)^p): i.i.d. coordinates with density

.. math:: f(x) = \\frac{p}{2σΓ(1/p)} \\exp\\left(-\\left(\\frac{|x|}{σ}\\right)^p\\right),

Laplace at p = 1, Gaussian (variance σ²/2) at p = 2, flatter and flatter as p grows. One
shape parameter trades the ℓ1 error (the sum of the k errors) against the ℓ∞ error (the
largest). σ is calibrated numerically with the privacy accountant of
:mod:`dpteach.accountant`, not from an asymptotic formula.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _special, _validate
from .accountant import GeneralizedGaussianNoise, privacy_loss_distribution
from .accountant import _shape as _p
from .gaussian import gaussian_mechanism, gaussian_sigma
from .selection import sparse_vector

_WHY_SIGMA = "σ is the width of the noise; σ ≤ 0 means no noise at all"
_WHY_K = "k counting queries, k ≥ 1"
_WHY_DELTA = "δ is a probability; δ = 0 (pure DP) is out of reach for p > 1"


def _sigma(sigma) -> float:
    return _validate.positive("sigma", sigma, why=_WHY_SIGMA)


def _delta(delta) -> float:
    return _validate.real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True, why=_WHY_DELTA)


def generalized_gaussian_pdf(x, p: float, sigma: float) -> np.ndarray | float:
    """Density of the Generalized Gaussian with shape p and scale σ (scipy.stats.gennorm(p, scale=σ)).

    .. math:: f(x) = \\frac{p}{2σΓ(1/p)} \\exp\\left(-\\left(\\frac{|x|}{σ}\\right)^p\\right)

    Examples
    --------
    At p = 1 it is Lap(σ), whose density at 0 is 1/(2σ):

    >>> generalized_gaussian_pdf(0.0, 1, 2.0)
    0.25
    """
    pp, s = _p(p), _sigma(sigma)
    xs = _validate.array("x", x, nonempty=False, allow_inf=True)
    out = np.exp(GeneralizedGaussianNoise(pp, s).logpdf(xs))
    return out if out.ndim else float(out)


def generalized_gaussian_cdf(x, p: float, sigma: float) -> np.ndarray | float:
    """Pr[X ≤ x] = ½ + ½·sign(x)·P(1/p, (|x|/σ)^p), with P the regularised lower incomplete gamma.

    Accurate to full relative precision far in the lower tail (it is computed from the tail).
    """
    pp, s = _p(p), _sigma(sigma)
    xs = _validate.array("x", x, nonempty=False, allow_inf=True)
    out = GeneralizedGaussianNoise(pp, s).cdf(xs)
    return out if out.ndim else float(out)


def generalized_gaussian_tail(t, p: float, sigma: float) -> np.ndarray | float:
    """Pr[|X| ≥ t] = Q(1/p, (t/σ)^p), the regularised upper incomplete gamma.

    At p = 1 this is Fact 3.7, exp(−t/σ).
    """
    pp, s = _p(p), _sigma(sigma)
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
    pp, s = _p(p), _sigma(sigma)
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
    pp, s = _p(p), _sigma(sigma)
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


def generalized_gaussian_mechanism(true_answer, p: float, sigma: float,
                                   rng: np.random.Generator | None = None) -> np.ndarray | float:
    """The Generalized Gaussian mechanism: f(x) + X, X with density ∝ exp(−(‖X‖_p/σ)^p) (Ganesh & Zhao 2020).

    The coordinates of X are i.i.d. with density p/(2σΓ(1/p))·exp(−(|x_i|/σ)^p). For k
    counting queries, :func:`generalized_gaussian_sigma` gives the smallest σ that is
    (ε, δ)-DP; this function adds the noise for a σ you choose.

    Examples
    --------
    >>> import numpy as np
    >>> generalized_gaussian_mechanism([120, 45, 3], p=2.2, sigma=4.0, rng=np.random.default_rng(0)).shape
    (3,)
    """
    answer = _validate.array("true_answer", true_answer)
    noise = generalized_gaussian_sample(p, sigma, answer.shape, rng)
    out = answer + noise
    return out if out.ndim else float(out)


def _accountant_delta(k: int, p: float, sigma: float, epsilon: float, resolution: float) -> float:
    return privacy_loss_distribution(GeneralizedGaussianNoise(p, sigma), k, resolution=resolution).delta(epsilon)


def generalized_gaussian_sigma(k: int, p: float, epsilon: float, delta: float, *, resolution: float = 25,
                               rtol: float = 1e-6) -> float:
    """The smallest σ for which the Generalized Gaussian mechanism on k counting queries is (ε, δ)-DP.

    Neighbours differ by 1 in every one of the k answers; the privacy accountant
    (:func:`dpteach.privacy_loss_distribution`) gives an upper bound on δ(ε) for each σ,
    and a root-finder on ln σ (regula falsi, Illinois variant, on ln δ(ε)) finds where it
    crosses δ. The σ returned is the upper end of the final bracket: the accountant's
    δ(ε) ≤ δ holds there, so the mechanism is (ε, δ)-DP. The accountant is pessimistic,
    so σ may be larger than the true smallest one by the accountant's slack (about 1e-3
    relative in δ with the default grid, a hundred times less in σ).

    At p = 1 this is the Laplace mechanism calibrated for (ε, δ): for large k its scale
    grows like √k, not like the k/ε of pure ε-DP.

    Parameters
    ----------
    k : int
        Number of counting queries, k ≥ 1.
    p : float
        Shape, p ≥ 1.
    epsilon, delta : float
        ε > 0 and 0 < δ < 1.
    resolution : float, optional
        The accountant's grid points per standard deviation of one coordinate's loss.
    rtol : float, optional
        Relative precision of σ.
    """
    kk = _validate.integer("k", k, low=1, high=10**7, why=_WHY_K)
    pp = _p(p)
    eps = _validate.epsilon(epsilon)
    target = _delta(delta)
    tol = _validate.real("rtol", rtol, low=0.0, high=0.1)
    res = _validate.real("resolution", resolution, low=1.0, low_open=False, high=1e5)
    log_target = math.log(target)

    def f(log_sigma: float) -> float:     # > 0: too little noise
        d = _accountant_delta(kk, pp, math.exp(log_sigma), eps, res)
        return math.log(d) - log_target if d > 0 else -math.inf

    # Start from the Gaussian with the same variance, then bracket the root.
    std = gaussian_sigma(math.sqrt(kk), eps, target)
    x0 = math.log(std * math.sqrt(math.exp(math.lgamma(1 / pp) - math.lgamma(3 / pp))))
    f0 = f(x0)
    step = 0.2 if f0 > 0 else -0.2
    x1, f1 = x0 + step, f(x0 + step)
    while (f1 > 0) == (f0 > 0):
        x0, f0 = x1, f1
        step *= 1.6
        x1, f1 = x1 + step, f(x1 + step)
    (lo, flo), (hi, fhi) = ((x0, f0), (x1, f1)) if x0 < x1 else ((x1, f1), (x0, f0))
    side = 0
    while hi - lo > tol:
        if math.isfinite(fhi):
            mid = hi - fhi * (hi - lo) / (fhi - flo)
            mid = min(max(mid, lo + 0.01 * (hi - lo)), hi - 0.01 * (hi - lo))
        else:
            mid = 0.5 * (lo + hi)
        fm = f(mid)
        if fm > 0:
            lo, flo = mid, fm
            if side == -1 and math.isfinite(fhi):
                fhi /= 2           # Illinois: stop the same end from lingering
            side = -1
        else:
            hi, fhi = mid, fm
            if side == 1:
                flo /= 2
            side = 1
    return math.exp(hi)


# -- error for k counting queries -------------------------------------------------------------

def expected_linf_noise(k: int, p: float, sigma: float) -> float:
    """E‖X‖_∞ = E max_i |X_i| for k i.i.d. Generalized Gaussian coordinates, by quadrature.

    .. math:: \\mathbb{E}\\max_i |X_i| = \\int_0^\\infty 1 - \\left(1 - Q\\left(\\tfrac1p, (t/σ)^p\\right)\\right)^k dt

    (the expectation of a non-negative variable is the integral of its tail). At p = 1 it
    equals σ·H_k, the Laplace result of chapter 05. Simpson's rule on 4,001 points.
    """
    kk = _validate.integer("k", k, low=1, high=10**12, why=_WHY_K)
    pp, s = _p(p), _sigma(sigma)
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
    pp, s = _p(p), _sigma(sigma)
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
    pp, s = _p(p), _sigma(sigma)
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
    return MechanismError(name, _p(p), _sigma(sigma), math.sqrt(generalized_gaussian_variance(p, sigma)),
                          expected_linf_noise(k, p, sigma), expected_l1_noise(k, p, sigma))


def counting_query_errors(k: int, epsilon: float, delta: float, p: float) -> dict[str, MechanismError]:
    """Three ways to answer k counting queries (one person changes all k answers by 1), and their errors.

    - ``"laplace"``: Laplace with Δ₁f = k, b = k/ε, pure (ε, 0)-DP (Definition 3.3);
    - ``"gaussian"``: Gaussian with Δ₂f = √k, the analytic σ for (ε, δ) (Balle & Wang);
    - ``"generalized"``: Generalized Gaussian with shape p, σ from the accountant for (ε, δ).
    """
    kk = _validate.integer("k", k, low=1, high=10**7, why=_WHY_K)
    eps = _validate.epsilon(epsilon)
    d, pp = _delta(delta), _p(p)
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
    d = _delta(delta)
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
    d = _delta(delta)
    with np.errstate(divide="ignore", invalid="ignore"):
        ll = np.log(np.log(ks))
        lll = np.log(ll)
        return {"log log k": np.where(ll > 0, np.sqrt(ks * ll * math.log(1 / d)) / eps, np.nan),
                "log log log k": np.where(lll > 0, np.sqrt(ks * lll * math.log(1 / d)) / eps, np.nan)}


# -- sparse vector: find and re-answer the few coordinates with large error ---------------------

@dataclass(frozen=True)
class SparseVectorRefinement:
    """A Generalized Gaussian release whose worst coordinates were found by Sparse and answered again."""

    first_release: np.ndarray      # d + GG noise, at (ε₁, δ/2)
    final_release: np.ndarray      # the same with the flagged coordinates answered again
    flagged: list[int]             # the coordinates Sparse reported above the threshold
    threshold: float
    sigma: float                   # the Generalized Gaussian scale, at (ε₁, δ/2)
    reanswer_std: float            # the Gaussian std of the re-answers, at (ε₃, δ/2), Δ₂ = √c
    epsilons: tuple[float, float, float]
    delta: float
    error_before: float            # ‖first_release − d‖∞
    error_after: float             # ‖final_release − d‖∞
    true_large: int                # coordinates whose first error exceeded the threshold

    def __repr__(self) -> str:
        e1, e2, e3 = self.epsilons
        return (f"budget ε = {e1:g} + {e2:g} + {e3:g} = {sum(self.epsilons):g}, δ = {self.delta:g}; "
                f"threshold {self.threshold:.4g}: {self.true_large} coordinates above it, "
                f"{len(self.flagged)} flagged; largest error {self.error_before:.4g} → {self.error_after:.4g}")


def sparse_vector_refinement(true_answer, p: float, epsilon: float, delta: float, *, c: int = 5,
                             split: tuple[float, float, float] = (0.8, 0.1, 0.1),
                             rng: np.random.Generator | None = None) -> SparseVectorRefinement:
    """The idea of Ganesh & Zhao's main result, written plainly: release, find the worst, answer again.

    1. Release d + X with X Generalized Gaussian, σ calibrated for (ε₁, δ/2).
    2. Ask the sensitivity-1 queries q_i(d) = |y_i − d_i| (y is now public) of Sparse
       (Dwork & Roth, Algorithm 2; ``dp.sparse_vector``) with budget ε₂, threshold T and at
       most c reports. T is set, from σ alone, where the expected number of coordinates
       above it is c/2.
    3. Answer the reported coordinates again with the Gaussian mechanism at (ε₃, δ/2),
       Δ₂ = √c (at most c of them), and replace them.

    By sequential composition (Theorem 3.16) the whole is (ε₁ + ε₂ + ε₃, δ)-DP. This is the
    shape of the technique only: the paper's p, threshold, c and budget split (and their
    constants) are not reproduced, so nothing here should be read as its error bound.

    Parameters
    ----------
    true_answer : 1-d array_like
        The k true counts d.
    p : float
        Shape of the first release's noise.
    epsilon, delta : float
        The total budget.
    c : int, optional
        The most coordinates Sparse may report.
    split : tuple of three floats, optional
        Fractions of ε for the release, Sparse and the re-answers (they must add up to 1).
    rng : numpy.random.Generator, optional
    """
    d = _validate.array("true_answer", true_answer, ndim=(1,))
    pp = _p(p)
    eps = _validate.epsilon(epsilon)
    dd = _delta(delta)
    cc = _validate.integer("c", c, low=1, high=d.size, why="c is how many coordinates may be answered again")
    parts = tuple(_validate.real("split", s, low=0.0, high=1.0) for s in split)
    if len(parts) != 3 or not math.isclose(sum(parts), 1.0, rel_tol=1e-9):
        raise ValueError(f"split must be three fractions of epsilon that add up to 1, got {split!r}")
    gen = _validate.rng(rng)
    e1, e2, e3 = (eps * s for s in parts)
    sigma = generalized_gaussian_sigma(d.size, pp, e1, dd / 2)
    first = d + generalized_gaussian_sample(pp, sigma, d.size, gen)
    # T with k·Pr[|X| ≥ T] = c/2: where about c/2 of the k errors are expected to lie above
    a = 1.0 / pp
    y = np.linspace(0.0, (math.log(d.size) + 50.0), 20001)
    tails = d.size * _special.gammaincc(a, y)
    threshold = float(sigma * y[int(np.argmax(tails <= cc / 2))] ** a)
    errors = np.abs(first - d)
    flagged = sparse_vector(errors, threshold, e2, cc, sensitivity=1.0, rng=gen)
    final = first.copy()
    std = gaussian_sigma(math.sqrt(cc), e3, dd / 2)
    if flagged:
        final[flagged] = gaussian_mechanism(d[flagged], math.sqrt(cc), e3, dd / 2, rng=gen)
    return SparseVectorRefinement(first, final, flagged, threshold, sigma, std, (e1, e2, e3), dd,
                                  float(errors.max()), float(np.abs(final - d).max()),
                                  int((errors >= threshold).sum()))


# -- a precomputed calibration table, so sliders can move p, k, ε and δ at once -----------------

#: The grid of dpteach/data/gg_calibration.csv (rebuilt by dpteach/data/rebuild_gg_calibration.py).
TABLE_P = (1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.5, 4.0, 5.0, 6.0, 8.0)
TABLE_K = (10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)
TABLE_DELTA = tuple(10.0**-e for e in range(2, 11))                 # 1e-2, 1e-3, …, 1e-10
TABLE_EPSILON_RANGE = (0.1, 10.0)
TABLE_SIGMAS = 12


def calibration_table_rows(k: int, p: float, *, resolution: float = 50) -> tuple[np.ndarray, np.ndarray]:
    """One (k, p) block of the calibration table: σ values and ε(σ, δ) for every δ of TABLE_DELTA.

    The σ grid is log-uniform between the calibrated σ at the easiest corner of the table,
    (ε, δ) = (10, 10⁻²), and at the hardest, (0.1, 10⁻¹⁰), with a 10% margin, so every
    (ε, δ) of the table's range is inside it. Each ε comes from the accountant's exact
    inverse :meth:`PrivacyLossDistribution.epsilon`.

    Returns
    -------
    sigmas : numpy.ndarray, shape (TABLE_SIGMAS,)
    epsilons : numpy.ndarray, shape (TABLE_SIGMAS, len(TABLE_DELTA))
    """
    kk = _validate.integer("k", k, low=1, high=10**7, why=_WHY_K)
    pp = _p(p)
    e_lo, e_hi = TABLE_EPSILON_RANGE
    low = generalized_gaussian_sigma(kk, pp, e_hi, max(TABLE_DELTA), rtol=1e-4)
    high = generalized_gaussian_sigma(kk, pp, e_lo, min(TABLE_DELTA), rtol=1e-4)
    sigmas = np.geomspace(low / 1.1, high * 1.1, TABLE_SIGMAS)
    eps = np.array([privacy_loss_distribution(GeneralizedGaussianNoise(pp, s), kk, resolution=resolution)
                    .epsilon(np.array(TABLE_DELTA)) for s in sigmas])
    return sigmas, eps


def _hermite(x: float, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Cubic Hermite interpolation at x, slopes by finite differences (ys may hold one row per curve)."""
    i = int(np.clip(np.searchsorted(xs, x) - 1, 0, xs.size - 2))
    slopes = np.gradient(ys, xs, axis=-1, edge_order=1)
    h = xs[i + 1] - xs[i]
    t = (x - xs[i]) / h
    return ((2 * t**3 - 3 * t**2 + 1) * ys[..., i] + (t**3 - 2 * t**2 + t) * h * slopes[..., i]
            + (-2 * t**3 + 3 * t**2) * ys[..., i + 1] + (t**3 - t**2) * h * slopes[..., i + 1])


class CalibrationTable:
    """σ(k, p, ε, δ) by interpolation in the shipped table of accountant results.

    For each σ of the (k, p) block, ε is interpolated in √ln(1/δ) (between the table's δs),
    then ln σ in ln ε, both by cubic Hermite interpolation. The tests compare it with
    :func:`generalized_gaussian_sigma` across the range: agreement within 0.5%.
    """

    def __init__(self, text: str) -> None:
        lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
        header = lines[0].split(",")
        deltas = tuple(float(h.split("=")[1]) for h in header[3:])
        if header[:3] != ["p", "k", "sigma"] or not np.allclose(deltas, TABLE_DELTA, rtol=1e-9):
            raise ValueError("gg_calibration.csv does not match TABLE_DELTA: rebuild it "
                             "(python dpteach/data/rebuild_gg_calibration.py)")
        data = np.array([[float(v) for v in ln.split(",")] for ln in lines[1:]])
        self.blocks: dict[tuple[float, int], tuple[np.ndarray, np.ndarray]] = {}
        for p in TABLE_P:
            for k in TABLE_K:
                rows = data[(data[:, 0] == p) & (data[:, 1] == k)]
                if rows.shape[0] != TABLE_SIGMAS:
                    raise ValueError(f"gg_calibration.csv has {rows.shape[0]} rows for p = {p}, k = {k}, "
                                     f"expected {TABLE_SIGMAS}: rebuild it")
                self.blocks[(p, k)] = (rows[:, 2], rows[:, 3:])
        self._root_log = np.sqrt(np.log(1 / np.array(TABLE_DELTA)))

    def sigma(self, k: int, p: float, epsilon: float, delta: float) -> float:
        """The calibrated σ for (ε, δ), interpolated; k and p must be on the table's grid."""
        kk = _validate.integer("k", k, low=1, why=_WHY_K)
        pp = _p(p)
        if (pp, kk) not in self.blocks:
            raise ValueError(f"(p, k) must be on the table's grid, p in {TABLE_P}, k in {TABLE_K}; got ({p!r}, {k!r})")
        eps = _validate.real("epsilon", epsilon, low=TABLE_EPSILON_RANGE[0], high=TABLE_EPSILON_RANGE[1],
                             low_open=False, why="the range the table was computed for")
        d = _validate.real("delta", delta, low=min(TABLE_DELTA), high=max(TABLE_DELTA), low_open=False,
                           why="the range the table was computed for")
        sigmas, table = self.blocks[(pp, kk)]
        column = _hermite(math.sqrt(math.log(1 / d)), self._root_log, table)
        # ε falls as σ grows: interpolate ln σ against −ln ε, where ε is still falling
        keep = (column > 1e-9) & (np.r_[np.inf, column[:-1]] > column * (1 + 1e-9))
        return float(np.exp(_hermite(-math.log(eps), -np.log(column[keep]), np.log(sigmas[keep]))))


_TABLE: list[CalibrationTable] = []


def calibration_table() -> CalibrationTable:
    """The shipped calibration table (read once, then cached)."""
    if not _TABLE:
        from importlib import resources
        text = resources.files(__package__).joinpath("data", "gg_calibration.csv").read_text(encoding="ascii")
        _TABLE.append(CalibrationTable(text))
    return _TABLE[0]
