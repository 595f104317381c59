"""How accurate the Laplace mechanism is (Dwork & Roth, Fact 3.7 and Theorem 3.8, pp. 33–34)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from . import _validate
from ._roots import bisect
from .estimate import clopper_pearson_lower, clopper_pearson_upper
from .laplace import laplace_mechanism, laplace_scale


def _beta(beta) -> float:
    """The failure probability β of Theorem 3.8, checked: 0 < β ≤ 1."""
    return _validate.real("beta", beta, low=0.0, high=1.0, low_open=True, high_open=False,
                          why="beta is a probability of failure")


def laplace_accuracy_bound(k: int, beta: float, sensitivity: float, epsilon: float) -> float:
    """Theorem 3.8: with probability ≥ 1 − β no coordinate is off by more than ln(k/β)·Δf/ε.

    .. math:: \\Pr\\left[‖f(x) - y‖_∞ \\ge \\ln\\left(\\frac{k}{β}\\right) \\cdot \\frac{Δf}{ε}\\right] \\le β

    Proof: a union bound over the k coordinates, each with Fact 3.7 at t = ln(k/β).

    The book writes δ for this failure probability; the workbook writes β, so that δ keeps
    its meaning from (ε, δ)-differential privacy, and the parameter is called ``beta``.

    Parameters
    ----------
    k : int
        Number of coordinates the query returns (k ≥ 1).
    beta : float
        Failure probability (the book's δ), 0 < β ≤ 1.
    sensitivity, epsilon : float
        Δf > 0 and ε > 0, as given to the Laplace mechanism.

    Examples
    --------
    Example 3.3, first names: 10,000 names, ε = 1, Δf = 1, 95% confidence.

    >>> round(laplace_accuracy_bound(10_000, 0.05, sensitivity=1, epsilon=1), 3)
    12.206
    """
    d = _beta(beta)
    n = _validate.integer("k", k, low=1, why="a query returns at least one number")
    return math.log(n / d) * laplace_scale(sensitivity, epsilon)


# -- how tight the union bound is: the exact law of the largest of k noises --------------

def linf_error_tail(threshold, k: int, sensitivity: float, epsilon: float) -> np.ndarray | float:
    """Exact Pr[‖Y‖_∞ ≥ α] for Y = (Y₁, …, Y_k) i.i.d. Lap(Δf/ε): the probability Theorem 3.8 bounds.

    The |Y_i| are independent, each beyond α with probability exp(−α/b) (Fact 3.7), so

    .. math:: \\Pr[\\max_i |Y_i| \\ge α] = 1 - \\left(1 - e^{-α/b}\\right)^k \\le k\\, e^{-α/b}

    and the right-hand side, the union bound, is what Theorem 3.8 uses. At α = ln(k/β)·b
    the exact value is 1 − (1 − β/k)^k, a little below β: for Example 3.3 (k = 10,000,
    β = 0.05) it is 0.0488.

    Parameters
    ----------
    threshold : float or array_like
        α ≥ 0, in the units of the answers.
    k : int
        Number of coordinates, k ≥ 1.
    sensitivity, epsilon : float
        Δf > 0 and ε > 0; b = Δf/ε.

    Examples
    --------
    >>> round(linf_error_tail(laplace_accuracy_bound(10_000, 0.05, 1, 1), 10_000, 1, 1), 4)
    0.0488
    """
    n = _validate.integer("k", k, low=1, why="a query returns at least one number")
    b = laplace_scale(sensitivity, epsilon)
    alpha = _validate.array("threshold", threshold, nonempty=False, nonnegative=True, allow_inf=True)
    with np.errstate(divide="ignore"):
        out = -np.expm1(n * np.log1p(-np.exp(-alpha / b)))
    out = np.where(alpha == 0, 1.0, out)
    return out if out.ndim else float(out)


def linf_error_density(threshold, k: int, sensitivity: float, epsilon: float) -> np.ndarray | float:
    """The density of ‖Y‖_∞ = max_i |Y_i| for Y₁, …, Y_k i.i.d. Lap(Δf/ε): the derivative of 1 − tail.

    .. math:: p(α) = \\frac{k}{b}\\, e^{-α/b} \\left(1 - e^{-α/b}\\right)^{k-1}, \\qquad b = Δf/ε

    Each |Y_i| is exponential with mean b (Fact 3.7), so Pr[‖Y‖_∞ ≤ α] = (1 − e^(−α/b))^k
    (:func:`linf_error_tail`); differentiating gives the density of the largest of k
    independent exponentials (David & Nagaraja, *Order Statistics*, 3rd ed., 2003, §2.1).
    Its mode is b·ln k and its mean b·H_k (:func:`expected_linf_error`).

    Parameters
    ----------
    threshold : float or array_like
        α ≥ 0, in the units of the answers.
    k : int
        Number of coordinates, k ≥ 1.
    sensitivity, epsilon : float
        Δf > 0 and ε > 0.

    Examples
    --------
    >>> round(linf_error_density(0.0, 1, 1, 1), 3), round(linf_error_density(math.log(100), 100, 1, 1), 4)
    (1.0, 0.3697)
    """
    n = _validate.integer("k", k, low=1, why="a query returns at least one number")
    b = laplace_scale(sensitivity, epsilon)
    alpha = _validate.array("threshold", threshold, nonempty=False, nonnegative=True, allow_inf=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        tail = np.exp(-alpha / b)
        rest = np.exp((n - 1) * np.log1p(-tail)) if n > 1 else np.ones_like(tail)
    out = np.where(np.isinf(alpha), 0.0, n / b * tail * rest)
    return out if out.ndim else float(out)


def linf_error_quantile(k: int, beta: float, sensitivity: float, epsilon: float) -> float:
    """The exact α with Pr[‖Y‖_∞ ≥ α] = β for k i.i.d. Lap(Δf/ε) noises (compare Theorem 3.8).

    .. math:: α = -\\ln\\left(1 - (1 - β)^{1/k}\\right) \\cdot \\frac{Δf}{ε}

    Theorem 3.8's ln(k/β)·Δf/ε gives each coordinate a tail of β/k (the union bound, as a
    Bonferroni correction does); this solves for the per-coordinate tail 1 − (1 − β)^(1/k)
    that independence allows (as Šidák's correction does). It is never larger than the
    theorem's bound, and for small β barely smaller.

    Examples
    --------
    >>> round(linf_error_quantile(10_000, 0.05, 1, 1), 3), round(laplace_accuracy_bound(10_000, 0.05, 1, 1), 3)
    (12.181, 12.206)
    """
    d = _beta(beta)
    n = _validate.integer("k", k, low=1, why="a query returns at least one number")
    per_coordinate = -math.expm1(math.log1p(-d) / n) if d < 1 else 1.0
    return -math.log(per_coordinate) * laplace_scale(sensitivity, epsilon)


def expected_linf_error(k: int, sensitivity: float, epsilon: float) -> float:
    """E‖Y‖_∞ for k i.i.d. Lap(Δf/ε) noises: b·H_k, with H_k = 1 + 1/2 + … + 1/k (compare Theorem 3.8).

    .. math:: \\mathbb{E}\\left[\\max_i |Y_i|\\right] = \\frac{Δf}{ε} \\sum_{j=1}^{k} \\frac{1}{j}

    Each |Y_i| is exponential with mean b, and the largest of k independent exponentials
    has mean b·H_k ≈ b(ln k + 0.5772). So the typical largest error grows like ln k, as
    Theorem 3.8's bound ln(k/β)·b does, and sits a constant ln(1/β) − 0.58 (in units of b)
    below it.

    Examples
    --------
    >>> round(expected_linf_error(10_000, 1, 1), 3)
    9.788
    """
    n = _validate.integer("k", k, low=1, why="a query returns at least one number")
    b = laplace_scale(sensitivity, epsilon)
    if n <= 1_000_000:
        harmonic = float(np.sum(1.0 / np.arange(n, 0, -1)))
    else:   # Euler–Maclaurin; the error is far below double precision here
        harmonic = math.log(n) + 0.5772156649015329 + 1 / (2 * n) - 1 / (12 * n**2)
    return harmonic * b


# -- the Monte Carlo check of Theorem 3.8 ---------------------------------------------------

def binomial_ci(successes: int, trials: int, confidence: float = 0.95,
                method: str = "clopper-pearson") -> tuple[float, float]:
    """A confidence interval for a probability p from ``successes`` out of ``trials``.

    Clopper–Pearson (exact, conservative): the interval of every p that a two-sided
    binomial test at level 1 − confidence would not reject,

    .. math:: \\Pr[X \\ge s \\mid p_{lo}] = \\tfrac{1 - c}{2}, \\qquad \\Pr[X \\le s \\mid p_{hi}] = \\tfrac{1 - c}{2},
              \\qquad c = \\text{confidence},

    with p_lo = 0 when s = 0 and p_hi = 1 when s = n. Wilson (``method="wilson"``): the
    score interval, centre (s + z²/2)/(n + z²) with z the normal quantile (1 + c)/2.
    Computed with numpy and math only (:func:`dpteach.clopper_pearson_lower` and
    :func:`dpteach.clopper_pearson_upper`, bisection on the binomial tails).

    Parameters
    ----------
    successes : int
        s, 0 ≤ s ≤ trials (here: releases whose error exceeded the bound).
    trials : int
        n ≥ 1.
    confidence : float, optional
        In (0, 1); default 0.95.
    method : {"clopper-pearson", "wilson"}, optional

    Examples
    --------
    >>> [round(v, 4) for v in binomial_ci(25, 500)]
    [0.0326, 0.0729]
    """
    n = _validate.integer("trials", trials, low=1, why="an experiment needs at least one run")
    s = _validate.integer("successes", successes, low=0, high=n, why="a count of runs out of trials")
    c = _validate.real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    miss = 1 - c
    if method == "clopper-pearson":
        return clopper_pearson_lower(s, n, miss / 2), clopper_pearson_upper(s, n, miss / 2)
    if method == "wilson":
        z = sum(bisect(lambda t: 0.5 * math.erfc(-t / math.sqrt(2)) < 1 - miss / 2, 0.0, 40.0)) / 2
        centre = (s + z**2 / 2) / (n + z**2)
        half = z * math.sqrt(s * (n - s) / n + z**2 / 4) / (n + z**2)
        return max(0.0, centre - half), min(1.0, centre + half)
    raise ValueError(f"method must be 'clopper-pearson' or 'wilson', got {method!r}")


#: :func:`binomial_ci` remembered: a slider asks for the same few hundred (successes, trials) again and again
cached_binomial_ci = functools.lru_cache(maxsize=4096)(binomial_ci)


def linf_errors(true_answer, sensitivity: float, epsilon: float, runs: int = 500,
                rng: np.random.Generator | None = None, chunk_size: int = 2_000_000) -> np.ndarray:
    """‖f(x) − y‖_∞ for ``runs`` independent releases y = M_L(x, f, ε) of the same true answer.

    .. math:: \\|f(x) - y\\|_\\infty = \\max_{i} |Y_i|, \\qquad Y_i \\sim \\mathrm{Lap}(Δf/ε) \\quad \\text{(Definition 3.3)}

    Each run is a call of :func:`dpteach.laplace_mechanism` on all k coordinates; the runs
    are drawn in chunks of about ``chunk_size`` numbers, so memory stays bounded (500 runs
    of 10,000 cells take a tenth of a second).

    Parameters
    ----------
    true_answer : array_like
        f(x), k numbers (any shape; flattened).
    sensitivity, epsilon : float
        Δf > 0 and ε > 0, as given to the mechanism.
    runs : int, optional
        Number of independent releases (default 500).
    rng : numpy.random.Generator, optional
    chunk_size : int, optional
        Roughly how many noisy numbers to hold at once.

    Returns
    -------
    numpy.ndarray, shape (runs,)
        The largest absolute error of each release.
    """
    answer = _validate.array("true_answer", true_answer).ravel()
    n = _validate.integer("runs", runs, low=1, why="an experiment needs at least one run")
    size = _validate.integer("chunk_size", chunk_size, low=1)
    laplace_scale(sensitivity, epsilon)   # check the parameters before any work
    gen = _validate.rng(rng)
    rows = max(1, size // answer.size)
    out = np.empty(n)
    for start in range(0, n, rows):
        stop = min(n, start + rows)
        noisy = laplace_mechanism(np.broadcast_to(answer, (stop - start, answer.size)), sensitivity, epsilon, gen)
        out[start:stop] = np.abs(noisy - answer).max(axis=1)
    return out


@dataclass(frozen=True)
class MonteCarloCoverage:
    """Theorem 3.8 checked by simulation (see :func:`accuracy_monte_carlo`)."""

    k: int
    beta: float                       # the failure probability β (the book's δ)
    sensitivity: float
    epsilon: float
    bound: float                      # ln(k/β)·Δf/ε
    errors: np.ndarray                # ‖f(x) − y‖_∞ of each run
    runs: int
    beyond: int                       # runs with error ≥ bound
    fraction: float                   # beyond / runs
    ci: tuple[float, float]           # confidence interval for Pr[error ≥ bound]
    confidence: float
    exact: float                      # 1 − (1 − β/k)^k, the true probability for i.i.d. Laplace noise

    def consistent(self) -> bool:
        """True unless the runs are evidence against Theorem 3.8: the interval's lower end is ≤ β."""
        return self.ci[0] <= self.beta

    def __repr__(self) -> str:
        return (f"{self.beyond} of {self.runs} releases ({self.fraction:.1%}) had an error ≥ the bound "
                f"{self.bound:.3f}; {self.confidence:.0%} interval [{self.ci[0]:.3f}, {self.ci[1]:.3f}], "
                f"β = {self.beta:g}, exact probability {self.exact:.4f}")


def accuracy_monte_carlo(true_answer, beta: float, sensitivity: float, epsilon: float, runs: int = 500,
                         rng: np.random.Generator | None = None, confidence: float = 0.95,
                         method: str = "clopper-pearson") -> MonteCarloCoverage:
    """Release ``true_answer`` ``runs`` times and count how often Theorem 3.8's bound is exceeded.

    Theorem 3.8 promises

    .. math:: \\Pr\\left[‖f(x) - y‖_∞ \\ge \\ln\\left(\\frac{k}{β}\\right) \\cdot \\frac{Δf}{ε}\\right] \\le β ,

    so the fraction of runs beyond the bound should be about β or less. The fraction comes
    with a confidence interval (:func:`binomial_ci`); the runs contradict the theorem only
    if the whole interval lies above β. For independent Laplace noise the exact probability
    is 1 − (1 − β/k)^k (:func:`linf_error_tail`), reported alongside.

    Parameters
    ----------
    true_answer : array_like
        f(x), k numbers; k is their count.
    beta : float
        The failure probability, 0 < β ≤ 1 (the book's δ).
    sensitivity, epsilon : float
        Δf > 0 and ε > 0.
    runs : int, optional
        Number of releases (default 500).
    rng : numpy.random.Generator, optional
    confidence : float, optional
        Of the interval (default 0.95).
    method : {"clopper-pearson", "wilson"}, optional

    Examples
    --------
    >>> import numpy as np
    >>> mc = accuracy_monte_carlo(np.zeros(10_000), 0.05, 1, 1, runs=500, rng=np.random.default_rng(1))
    >>> round(mc.bound, 3), mc.consistent()
    (12.206, True)
    """
    beta = _beta(beta)
    answer = _validate.array("true_answer", true_answer).ravel()
    bound = laplace_accuracy_bound(answer.size, beta, sensitivity, epsilon)
    errors = linf_errors(answer, sensitivity, epsilon, runs, rng)
    beyond = int((errors >= bound).sum())
    ci = binomial_ci(beyond, len(errors), confidence, method)
    return MonteCarloCoverage(k=answer.size, beta=float(beta), sensitivity=float(sensitivity),
                              epsilon=float(epsilon), bound=bound, errors=errors, runs=len(errors),
                              beyond=beyond, fraction=beyond / len(errors), ci=ci, confidence=float(confidence),
                              exact=linf_error_tail(bound, answer.size, sensitivity, epsilon))
