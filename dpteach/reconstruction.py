"""Reconstruction from noisy subset sums (Dinur & Nissim 2003): why a privacy budget must exist.

A database holds n secret bits x ∈ {0, 1}^n. An analyst asks m subset-sum queries: each
picks a random subset S_j of the rows (every row with probability ½) and is answered
a_j = Σ_{i ∈ S_j} x_i + e_j, with noise e_j. Stacking the subsets as rows of a 0/1 matrix A,
the attacker solves the least-squares problem

.. math:: \\hat x = \\arg\\min_z \\lVert A z - a \\rVert_2 ,

and rounds each coordinate to 0 or 1. Dinur & Nissim (PODS 2003) showed that if every
answer is within E = o(√n) of the truth, polynomially many queries recover all but o(n)
bits; in practice a few times n random queries and least squares suffice. Dwork & Roth
(2014, §1 and §8) call this the fundamental law of information recovery: overly accurate
answers to too many questions destroy privacy.

Each subset sum has sensitivity 1, so answering all m of them with ε-DP in total
(Theorem 3.16, basic composition) needs Lap(m/ε) noise per answer: noise far above √n
once m ≥ n, and the attack then recovers about half the bits, a coin toss.

What m answers at Lap(b) cost: basic composition charges m/b, as if every answer touched
everyone. Under add/remove one person changes only the answers whose subset holds her, each
by 1, so her privacy loss is at most (her number of queries)/b, and exactly that on the worst
outputs (:func:`per_person_epsilon`). With random halves that is about m/(2b) plus a few
standard deviations for the worst-off person: about 225 on average over random sets of 400
queries on 100 rows at b = 1, not 400. (Laplace noise calibrated to the largest such count is what ε-DP needs.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate
from ._special import ndtr

_WHY_N = "n secret bits, at least 2"
_WHY_M = "m subset-sum queries, at least 1"


def subset_queries(n: int, m: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """m random subsets of n rows, as an (m, n) 0/1 matrix: each row in each subset with probability ½."""
    nn = _validate.integer("n", n, low=2, high=100_000, why=_WHY_N)
    mm = _validate.integer("m", m, low=1, high=1_000_000, why=_WHY_M)
    return _validate.rng(rng).integers(0, 2, size=(mm, nn)).astype(np.float64)


def per_person_epsilon(queries, noise_scale: float) -> np.ndarray:
    """Each person's privacy loss when the subset sums of ``queries`` are released with Lap(b) noise: n_i/b.

    Removing person i changes the answers of the n_i queries whose subset holds her, each by her
    bit (at most 1); the others stay put. By Theorem 3.6 applied to those n_i answers (ℓ1 difference n_i), her
    privacy loss is at most n_i/b, and it reaches n_i/b wherever every one of those answers lands
    on the same side of both centres. The largest of them is the release's ε under add/remove,
    at most m/b, the total basic composition charges.

    Examples
    --------
    >>> per_person_epsilon([[1, 0, 1], [1, 1, 0]], noise_scale=2.0)
    array([1. , 0.5, 0.5])
    """
    a = _validate.array("queries", queries, ndim=(2,))
    if not np.isin(a, (0.0, 1.0)).all():
        raise ValueError(f"queries must be a 0/1 matrix (row j marks the rows in subset j), got {queries!r}")
    b = _validate.positive("noise_scale", noise_scale, why="the Laplace scale b > 0 of each answer")
    return a.sum(axis=0) / b


def least_squares_decoder(queries) -> np.ndarray:
    """The (n, m) matrix P = A⁺ (Moore–Penrose pseudo-inverse): x̂ = P a is the least-squares fit to the answers a.

    From the normal equations, P = (AᵀA)⁻¹Aᵀ when m ≥ n and P = Aᵀ(AAᵀ)⁻¹ (the smallest-norm fit)
    when m < n, with the Gram matrix inverted through its Cholesky factor. (The products are
    numpy's own loops, single-threaded: on a shared machine a multi-threaded BLAS can be ten
    times slower on matrices this small.) A singular Gram matrix falls back to the SVD.
    """
    a = _validate.array("queries", queries, ndim=(2,))
    m, n = a.shape
    tall = m >= n
    gram = np.einsum("ki,kj->ij", a, a, optimize=False) if tall else np.einsum("ik,jk->ij", a, a, optimize=False)
    try:
        inverse_factor = _lower_inverse(np.linalg.cholesky(gram))
    except np.linalg.LinAlgError:
        return np.linalg.pinv(a)
    gram_inverse = np.einsum("ki,kj->ij", inverse_factor, inverse_factor, optimize=False)    # (LLᵀ)⁻¹ = L⁻ᵀL⁻¹
    if tall:
        return np.einsum("ij,kj->ik", gram_inverse, a, optimize=False)
    return np.einsum("ki,kj->ij", a, gram_inverse, optimize=False)


def _lower_inverse(lower: np.ndarray) -> np.ndarray:
    """L⁻¹ for a lower-triangular L, by forward substitution, one row at a time."""
    size = lower.shape[0]
    out = np.zeros_like(lower)
    for i in range(size):
        out[i] = -np.einsum("j,jk->k", lower[i, :i], out[:i], optimize=False)
        out[i, i] += 1.0
        out[i] /= lower[i, i]
    return out


def reconstruct(queries, answers) -> np.ndarray:
    """Decode the secret bits from noisy subset sums: least squares, then round each coordinate to 0 or 1.

    Parameters
    ----------
    queries : (m, n) array_like of 0/1
        Row j marks the rows in subset S_j.
    answers : (m,) or (m, r) array_like
        The noisy sums a_j (r independent answer vectors as columns).

    Returns
    -------
    numpy.ndarray of 0/1, shape (n,) or (n, r)
    """
    a = _validate.array("queries", queries, ndim=(2,))
    b = _validate.array("answers", answers, ndim=(1, 2))
    if b.shape[0] != a.shape[0]:
        raise ValueError(f"answers must have one entry per query (m = {a.shape[0]}), got shape {b.shape}")
    decoded = np.einsum("ij,j...->i...", least_squares_decoder(a), b, optimize=False)
    return (decoded >= 0.5).astype(np.int8)


@dataclass(frozen=True)
class ReconstructionResult:
    """The attack's result over ``trials`` secrets: the fraction of bits recovered, and its standard error."""

    n: int
    m: int
    noise_scale: float
    trials: int
    rate: float                 # mean fraction of the n bits recovered
    standard_error: float       # of ``rate``: the standard deviation of the per-secret fractions / √trials
    rates: np.ndarray           # the fraction recovered for each secret

    @property
    def total_epsilon(self) -> float:
        """The ε that m answers with Lap(noise_scale) noise cost in total (basic composition): m/b."""
        return self.m / self.noise_scale if self.noise_scale > 0 else float("inf")

    def __repr__(self) -> str:
        return (f"Reconstruction of n = {self.n} bits from m = {self.m} noisy subset sums, noise Lap({self.noise_scale:g}) "
                f"(total ε = m/b = {self.total_epsilon:.3g}): {self.rate:.1%} of the bits recovered "
                f"(± {self.standard_error:.1%} SE, {self.trials} secrets)")


def reconstruction_attack(n: int, m: int, noise_scale: float, trials: int = 20,
                          rng: np.random.Generator | None = None) -> ReconstructionResult:
    """Run the Dinur–Nissim attack on ``trials`` random secrets of n bits with m queries and Lap(b) noise.

    Each trial draws fresh secret bits, m fresh random subsets, answers each subset sum with
    Laplace noise of scale b = ``noise_scale`` (b = 0: exact answers) and decodes by least
    squares (:func:`reconstruct`). Lap(b) on each of m sensitivity-1 sums is (m/b)-DP in
    total (Theorems 3.6 and 3.16).

    Returns
    -------
    ReconstructionResult
        The mean fraction of bits recovered and its standard error over the trials.

    Examples
    --------
    >>> import numpy as np
    >>> reconstruction_attack(100, 400, 1.0, trials=5, rng=np.random.default_rng(0)).rate > 0.99
    True
    """
    nn = _validate.integer("n", n, low=2, high=5_000, why=_WHY_N)
    mm = _validate.integer("m", m, low=1, high=50_000, why=_WHY_M)
    b = _validate.real("noise_scale", noise_scale, low=0.0, low_open=False, why="the Laplace scale b ≥ 0 of each answer")
    tt = _validate.integer("trials", trials, low=2, high=10_000, why="at least 2 secrets, for a standard error")
    gen = _validate.rng(rng)
    rates = np.empty(tt)
    for t in range(tt):
        secret = gen.integers(0, 2, size=nn)
        queries = subset_queries(nn, mm, gen)
        answers = np.einsum("ij,j->i", queries, secret.astype(np.float64), optimize=False)
        answers = answers + (gen.laplace(0.0, b, size=mm) if b > 0 else 0.0)
        rates[t] = np.mean(reconstruct(queries, answers) == secret)
    return ReconstructionResult(nn, mm, b, tt, float(rates.mean()), float(rates.std(ddof=1) / np.sqrt(tt)), rates)


class ReconstructionSweep:
    """The attack at many noise scales at once, on fixed secrets, subsets and unit noise (for a slider).

    Least squares is linear: with P = A⁺, x̂ = P(Ax + bU) = x̂₀ + b·(PU) for unit Laplace noise U,
    so one pseudo-inverse per m serves every noise scale b. ``rates(m, b)`` is then a
    comparison of n × trials numbers.
    """

    def __init__(self, n: int = 100, ms=(50, 100, 200, 400, 800), trials: int = 20,
                 rng: np.random.Generator | None = None) -> None:
        self.n = _validate.integer("n", n, low=2, high=2_000, why=_WHY_N)
        self.ms = tuple(_validate.integer("m", m, low=1, high=20_000, why=_WHY_M) for m in ms)
        self.trials = _validate.integer("trials", trials, low=2, high=1_000, why="at least 2 secrets")
        gen = _validate.rng(rng)
        self.secrets = gen.integers(0, 2, size=(self.n, self.trials))
        self._exact, self._spread = {}, {}
        queries = subset_queries(self.n, max(self.ms), gen)           # the first m rows serve each m
        unit = gen.laplace(0.0, 1.0, size=(max(self.ms), self.trials))
        for m in self.ms:
            p = least_squares_decoder(queries[:m])
            sums = np.einsum("ij,jk->ik", queries[:m], self.secrets.astype(np.float64), optimize=False)
            self._exact[m] = np.einsum("ij,jk->ik", p, sums, optimize=False)
            self._spread[m] = np.einsum("ij,jk->ik", p, unit[:m], optimize=False)

    def rates(self, m: int, noise_scale) -> np.ndarray:
        """Mean fraction of bits recovered at each noise scale b (array in, array out)."""
        if m not in self._exact:
            raise ValueError(f"m must be one of {list(self.ms)}, got {m!r}")
        bs = np.atleast_1d(_validate.array("noise_scale", noise_scale, nonnegative=True))
        exact, spread = self._exact[m], self._spread[m]
        out = np.array([np.mean(((exact + b * spread) >= 0.5) == self.secrets) for b in bs])
        return out if np.ndim(noise_scale) else out[0]


def predicted_reconstruction_rate(n: int, m: int, noise_scale: float, rng: np.random.Generator | None = None) -> float:
    """The fraction of bits least squares recovers, by the normal approximation, for one random query matrix.

    The least-squares error of bit i is e_i = (P u)_i for the noise u (P = A⁺): a weighted sum of m
    independent Lap(b) variables, nearly normal with variance 2b²·Σ_j P_ij². Rounding at ½ is
    right iff e_i < ½ (for a 0) or e_i > −½ (for a 1), so

    .. math:: \\text{rate} \\approx \\frac{1}{n} \\sum_i Φ\\!\\left(\\frac{1/2}{b \\sqrt{2 Σ_j P_{ij}^2}}\\right) .

    With m ≥ n exact answers (b = 0) every bit is recovered (rate 1).
    """
    nn = _validate.integer("n", n, low=2, high=5_000, why=_WHY_N)
    mm = _validate.integer("m", m, low=1, high=50_000, why=_WHY_M)
    b = _validate.real("noise_scale", noise_scale, low=0.0, low_open=False, why="the Laplace scale b ≥ 0 of each answer")
    p = least_squares_decoder(subset_queries(nn, mm, _validate.rng(rng)))
    if b == 0:
        return 1.0 if mm >= nn else float("nan")
    spread = b * np.sqrt(2 * np.einsum("ij,ij->i", p, p, optimize=False))
    return float(np.mean(ndtr(0.5 / spread)))
