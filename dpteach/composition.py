"""Composition and the privacy budget (Dwork & Roth, §3.5), and post-processing (Proposition 2.1).

Every differentially private answer spends some privacy. Asked of the same people, the
spending adds up (sequential composition, Theorem 3.16); asked of disjoint groups, only the
largest spend counts (parallel composition); k answers together cost less than k·ε when a
small δ′ is allowed (advanced composition, Theorem 3.20), and exactly as little as the optimal
composition theorem allows (Kairouz, Oh & Viswanath 2015, Theorem 3.3), which holds for the same
class of mechanisms and is tight for it. A :class:`PrivacyBudget` keeps
the ledger and refuses the charge that would overspend (it lives in :mod:`dpteach.budget` and
is re-exported here); the calculators here say what a total buys. What is done to an answer
afterwards, without looking at the data again, costs nothing (post-processing):
:func:`project_to_total` is one such step that can only help.
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate
from ._roots import bisect, integer
from ._validate import delta as _charge_delta
from .budget import BudgetExceeded, Charge, PrivacyBudget
from .laplace import laplace_scale

__all__ = ["BudgetExceeded", "Charge", "PrivacyBudget", "advanced_composition", "advanced_composition_crossover",
           "advanced_composition_max_epsilon", "advanced_composition_max_k", "averaged_answers_std",
           "basic_composition", "optimal_composition", "optimal_composition_delta", "optimal_composition_max_k",
           "project_to_total"]

_WHY_DELTA_PRIME = ("δ′ is the additive slack of the (ε′, δ′) guarantee (Definition 2.4); 0 would make ε′ "
                    "infinite, 1 means no guarantee")


# -- composition calculators ------------------------------------------------------------------

def basic_composition(k: int, epsilon: float, delta: float = 0.0) -> tuple[float, float]:
    """Sequential composition of k mechanisms, each (ε, δ)-DP: (kε, kδ) (Theorem 3.16).

    .. math:: ε_{\\text{total}} = kε, \\qquad δ_{\\text{total}} = kδ

    Examples
    --------
    >>> basic_composition(10, 0.1)
    (1.0, 0.0)
    """
    n = _validate.integer("k", k, low=1, why="k is the number of mechanisms composed")
    eps = _validate.epsilon(epsilon)
    dlt = _charge_delta("delta", delta)
    return n * eps, n * dlt


def advanced_composition(k: int, epsilon: float, delta_prime: float, delta: float = 0.0) -> tuple[float, float]:
    """Advanced composition (Theorem 3.20): k-fold adaptive composition of (ε, δ)-DP mechanisms.

    For every δ′ > 0 the composition is (ε′, kδ + δ′)-differentially private with

    .. math:: ε' = \\sqrt{2k \\ln(1/δ')}\\,ε + kε\\,(e^{ε} - 1).

    The first term grows like √k, against kε for basic composition (Theorem 3.16); the price
    is the slack δ′ in the definition (an (ε′, δ′) guarantee, not "ε′ except with probability
    δ′"). For small k the second term and the √(2 ln(1/δ′)) factor
    make it *worse* than kε: both bounds hold, so use the smaller.

    Parameters
    ----------
    k : int
        Number of mechanisms, k ≥ 1.
    epsilon : float
        ε > 0 of each mechanism.
    delta_prime : float
        δ′ in (0, 1): the extra δ the total allows (the additive slack of Definition 2.4).
    delta : float, default 0
        δ of each mechanism (0 for the Laplace mechanism).

    Returns
    -------
    (float, float)
        (ε′, kδ + δ′).

    Examples
    --------
    >>> eps_total, delta_total = advanced_composition(100, 0.1, 1e-6)
    >>> round(eps_total, 3), delta_total
    (6.308, 1e-06)
    """
    n = _validate.integer("k", k, low=1, why="k is the number of mechanisms composed")
    eps = _validate.epsilon(epsilon)
    dp_ = _validate.real("delta_prime", delta_prime, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA_PRIME)
    dlt = _charge_delta("delta", delta)
    eps_prime = math.sqrt(2 * n * math.log(1 / dp_)) * eps + n * eps * math.expm1(eps)
    return eps_prime, n * dlt + dp_


def advanced_composition_max_k(total_epsilon: float, epsilon: float, delta_prime: float) -> int:
    """The largest k for which k ε-DP mechanisms fit in a total ε′ under Theorem 3.20 (0 if none).

    Solves √(2k ln(1/δ′))·ε + kε(e^ε − 1) ≤ ε′ for the largest integer k: with s = √k it is
    a quadratic, b·s² + a·s − ε′ ≤ 0, where a = ε√(2 ln(1/δ′)) and b = ε(e^ε − 1).
    Compare basic composition, ⌊ε′/ε⌋ (Theorem 3.16); the total δ is δ′.

    Examples
    --------
    >>> advanced_composition_max_k(1.0, 0.01, 1e-6), int(1.0 / 0.01)
    (337, 100)
    """
    total = _validate.positive("total_epsilon", total_epsilon, why="the total ε′ the queries may spend")
    eps = _validate.epsilon(epsilon)
    dp_ = _validate.real("delta_prime", delta_prime, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA_PRIME)
    a, b = advanced_coefficients(eps, dp_)
    s = (-a + math.sqrt(a * a + 4 * b * total)) / (2 * b)
    k = math.floor(s * s)
    # the closed form is exact up to rounding: step to the true boundary
    while k >= 1 and advanced_total(k, a, b) > total:
        k -= 1
    while advanced_total(k + 1, a, b) <= total:
        k += 1
    return k


def advanced_composition_max_epsilon(total_epsilon: float, k: int, delta_prime: float) -> float:
    """The largest per-mechanism ε for which k of them fit in a total ε′ under Theorem 3.20.

    Solves √(2k ln(1/δ′))·ε + kε(e^ε − 1) = ε′ for ε (the left side increases with ε) by
    bisection. Compare basic composition, ε′/k (Theorem 3.16); the total δ is δ′.

    Examples
    --------
    >>> round(advanced_composition_max_epsilon(1.0, 1000, 1e-6), 5), 1.0 / 1000
    (0.00581, 0.001)
    """
    total = _validate.positive("total_epsilon", total_epsilon, why="the total ε′ the queries may spend")
    n = _validate.integer("k", k, low=1, why="k is the number of mechanisms composed")
    dp_ = _validate.real("delta_prime", delta_prime, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA_PRIME)
    root = math.sqrt(2 * n * math.log(1 / dp_))

    def total_at(eps: float) -> float:
        return root * eps + n * eps * math.expm1(eps)

    hi = 1.0
    while total_at(hi) < total:
        hi *= 2
    lo, _ = bisect(lambda e: total_at(e) <= total, 0.0, hi, done=lambda lo, hi: hi - lo <= 1e-15 * hi)
    return lo


def advanced_composition_crossover(epsilon: float, delta_prime: float) -> int | None:
    """The smallest k for which Theorem 3.20's ε′ is below Theorem 3.16's kε; None if there is none.

    With a = ε√(2 ln(1/δ′)) and b = ε(e^ε − 1), advanced composition spends a√k + bk and
    basic composition kε, so advanced wins exactly when √k·(ε − b) > a. That needs
    ε − b > 0, i.e. e^ε − 1 < 1, ε < ln 2: at larger ε the kε(e^ε − 1) term alone costs at
    least kε, and the bound of Theorem 3.20 never wins (composition itself still may: the exact
    privacy-loss distribution of k Laplace releases is below kε). Otherwise k > (a/(ε − b))².

    Examples
    --------
    >>> advanced_composition_crossover(0.1, 1e-6), advanced_composition_crossover(1.0, 1e-6)
    (35, None)
    """
    eps = _validate.epsilon(epsilon)
    dp_ = _validate.real("delta_prime", delta_prime, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA_PRIME)
    a, b = advanced_coefficients(eps, dp_)
    if b >= eps:
        return None
    k = max(1, math.floor((a / (eps - b)) ** 2))
    # the closed form is exact up to rounding: step to the true boundary
    while k > 1 and advanced_total(k - 1, a, b) < (k - 1) * eps:
        k -= 1
    while advanced_total(k, a, b) >= k * eps:
        k += 1
    return k


# -- the optimal composition theorem (Kairouz, Oh & Viswanath 2015) ----------------------------------

def _randomized_response_losses(k: int, epsilon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The privacy loss distribution of k randomized responses at ε, over its positive losses.

    The loss takes the value v_l = (k − 2l)ε with probability P_l = C(k, l)·e^{(k−l)ε}/(1 + e^ε)^k,
    l = 0, …, k. Returns (v_l, P_l, ln(P_l·e^{−v_l})) for the l with v_l > 0, in decreasing order of
    v_l; the logarithms keep every term finite for k up to millions (P_l·e^{−v_l} underflows to 0 when
    kε is in the hundreds, and e^{v_l} overflows).
    """
    flips = np.arange((k + 1) // 2)                                  # l, with v_l > 0 ⇔ l < k/2
    log_choose = np.concatenate(([0.0], np.cumsum(np.log((k - flips[1:] + 1) / flips[1:]))))   # ln C(k, l)
    log_norm = k * (epsilon + math.log1p(math.exp(-epsilon)))       # ln (1 + e^ε)^k
    losses = (k - 2 * flips) * epsilon
    mass = np.exp(log_choose + (k - flips) * epsilon - log_norm)
    log_weighted = log_choose + flips * epsilon - log_norm           # ln(P_l·e^{−v_l})
    return losses, mass, log_weighted


def optimal_composition_delta(k: int, epsilon: float, epsilon_prime: float, delta: float = 0.0) -> float:
    """The smallest total δ with which every k-fold adaptive composition of (ε, δ)-DP mechanisms is (ε′, ·)-DP.

    The optimal composition theorem (Kairouz, Oh & Viswanath, ICML 2015, Theorem 3.3): the worst
    case over all (ε, δ)-DP mechanisms is k-fold randomized response, whose privacy loss is
    (k − 2l)ε with probability C(k, l)·e^{(k−l)ε}/(1 + e^ε)^k. Its δ at ε′ is

    .. math:: δ_{\\text{total}}(ε') = 1 - (1 - δ)^k \\left(1 - \\sum_{l:\\,(k-2l)ε > ε'} \\binom{k}{l}
              \\frac{e^{(k-l)ε} - e^{ε' + lε}}{(1 + e^{ε})^k}\\right),

    which at ε′ = (k − 2i)ε is the paper's 1 − (1 − δ)^k(1 − δ_i). It holds for every mechanism
    in the class, chosen adaptively (as Theorem 3.20 does), and no smaller δ does: it is the
    truth for randomized response. Between the paper's points ε′ = (k − 2i)ε the same sum is
    the exact hockey-stick divergence of k randomized responses, so it is valid and tight there
    too.

    Examples
    --------
    >>> f"{optimal_composition_delta(100, 0.1, 4.8):.3g}"
    '8.05e-07'
    """
    n = _validate.integer("k", k, low=1, high=10_000_000, why="k is the number of mechanisms composed")
    eps = _validate.epsilon(epsilon)
    target = _validate.real("epsilon_prime", epsilon_prime, low=0.0, low_open=False, why="the total ε′ ≥ 0")
    dlt = _charge_delta("delta", delta)
    losses, mass, _ = _randomized_response_losses(n, eps)
    above = losses > target
    rr = float(np.dot(mass[above], -np.expm1(target - losses[above])))   # Σ P_l (1 − e^{ε′ − v_l}), all terms ≥ 0
    return -math.expm1(n * math.log1p(-dlt) + math.log1p(-min(rr, 1.0)))


def optimal_composition(k: int, epsilon: float, delta_prime: float, delta: float = 0.0) -> tuple[float, float]:
    """The optimal composition theorem (Kairouz, Oh & Viswanath 2015, Theorem 3.3), as Theorem 3.20 is stated.

    k-fold adaptive composition of (ε, δ)-DP mechanisms is (ε′, 1 − (1 − δ)^k(1 − δ′))-DP for
    the smallest ε′ whose k-fold randomized response has δ(ε′) ≤ δ′
    (:func:`optimal_composition_delta` with δ = 0), and for no smaller ε′: the bound holds for
    every ε-DP mechanism and is attained by randomized response. With δ = 0 the total is
    (ε′, δ′), so it compares with :func:`advanced_composition` at the same δ′ (always ε′ below
    Theorem 3.20's, and below kε).

    Between consecutive losses v_{j+1} < ε′ ≤ v_j the divergence is A_j − e^{ε′}·S_j, with
    A_j = Σ_{l ≤ j} P_l and S_j = Σ_{l ≤ j} P_l e^{−v_l}, so ε′ = ln((A_j − δ′)/S_j) in the cell
    where it first drops to δ′.

    Examples
    --------
    >>> eps_total, delta_total = optimal_composition(100, 0.1, 1e-6)
    >>> round(eps_total, 3), delta_total
    (4.775, 1e-06)
    """
    n = _validate.integer("k", k, low=1, high=10_000_000, why="k is the number of mechanisms composed")
    eps = _validate.epsilon(epsilon)
    dp_ = _validate.real("delta_prime", delta_prime, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA_PRIME)
    dlt = _charge_delta("delta", delta)
    losses, mass, log_weighted = _randomized_response_losses(n, eps)
    total_delta = -math.expm1(n * math.log1p(-dlt) + math.log1p(-dp_))
    # A_j and ln S_j; e^{v} S_j is formed as exp(v + ln S_j), which is at most A_j ≤ 1 where it is used
    a, log_s = np.cumsum(mass), np.logaddexp.accumulate(log_weighted)
    at_losses = np.r_[0.0, a[:-1] - np.exp(losses[1:] + log_s[:-1])] if losses.size else np.zeros(0)  # δ(v_j)
    if not losses.size or a[-1] - math.exp(log_s[-1]) <= dp_:          # δ(0) ≤ δ′: ε′ = 0
        return 0.0, total_delta
    j = int(np.flatnonzero(at_losses <= dp_)[-1])                       # the smallest loss v_j with δ(v_j) ≤ δ′
    eps_prime = math.log(a[j] - dp_) - float(log_s[j])
    low = losses[j + 1] if j + 1 < losses.size else 0.0
    return float(min(max(eps_prime, low), losses[j])), total_delta


def optimal_composition_max_k(total_epsilon: float, epsilon: float, delta_prime: float) -> int:
    """The largest k for which k ε-DP mechanisms fit in a total (ε′, δ′) by the optimal composition theorem.

    The k of :func:`optimal_composition` whose ε′ is at most ``total_epsilon`` (ε′ grows with k),
    found by bisection between basic composition's ⌊ε′/ε⌋, which always fits, and a doubling
    upper end. Compare :func:`advanced_composition_max_k` (Theorem 3.20) at the same δ′.

    Examples
    --------
    >>> optimal_composition_max_k(1.0, 0.01, 1e-6), advanced_composition_max_k(1.0, 0.01, 1e-6)
    (562, 337)
    """
    total = _validate.positive("total_epsilon", total_epsilon, why="the total ε′ the queries may spend")
    eps = _validate.epsilon(epsilon)
    dp_ = _validate.real("delta_prime", delta_prime, low=0.0, high=1.0, high_open=True, why=_WHY_DELTA_PRIME)

    def fits(n: int) -> bool:
        return optimal_composition(n, eps, dp_)[0] <= total

    low = max(math.floor(total / eps * (1 + 1e-12)), 0)               # kε ≤ ε′ always fits
    if low == 0 and not fits(1):
        return 0
    low = max(low, 1)
    high = 2 * low
    while fits(high):
        low, high = high, 2 * high
        if high > 10_000_000:
            raise ValueError(f"more than 10,000,000 mechanisms fit in total_epsilon = {total:g} at "
                             f"epsilon = {eps:g}")
    return bisect(fits, low, high, split=integer)[0]


def advanced_coefficients(epsilon: float, delta_prime: float) -> tuple[float, float]:
    """(a, b) with Theorem 3.20's ε′ = a√k + bk: a = ε√(2 ln(1/δ′)), b = ε(e^ε − 1)."""
    return epsilon * math.sqrt(2 * math.log(1 / delta_prime)), epsilon * math.expm1(epsilon)


def advanced_total(k, a: float, b: float):
    """a√k + bk for an integer k or an array of them (Theorem 3.20's ε′, see advanced_coefficients)."""
    return a * np.sqrt(k) + b * k


def averaged_answers_std(k: int, sensitivity: float, epsilon: float) -> float:
    """The standard deviation of the mean of k independent Laplace answers Lap(Δf/ε) to one query.

    Lap(b) has variance 2b² (Dwork & Roth 2014, Definition 3.2), so the mean of k independent
    draws has standard deviation √2·b/√k with b = Δf/ε. Two readings of the same formula:
    the averaging attack asks k times at ε each (std √2·Δf/(ε√k), spending kε by Theorem
    3.16); an honest analyst who splits a budget ε into k answers at ε/k each gets
    ``averaged_answers_std(k, Δf, ε/k)`` = √(2k)·Δf/ε, worse than one answer at ε.

    Examples
    --------
    >>> round(averaged_answers_std(1, 1.0, 1.0), 4), round(averaged_answers_std(4, 1.0, 1.0), 4)
    (1.4142, 0.7071)
    """
    n = _validate.integer("k", k, low=1, why="k is the number of answers averaged")
    return math.sqrt(2 / n) * laplace_scale(sensitivity, epsilon)


# -- post-processing ----------------------------------------------------------------------------

def project_to_total(noisy, total: float, nonnegative: bool = True) -> np.ndarray:
    """Post-processing: the closest histogram (in ℓ2) to ``noisy`` whose cells sum to a public total.

    Without the sign constraint the projection moves every cell by the same amount,

    .. math:: \\hat x_i = y_i + \\frac{T - \\sum_j y_j}{k} ;

    with ``nonnegative=True`` it is the Euclidean projection onto {x̂ ≥ 0, Σ x̂ = T}, which
    is x̂_i = max(y_i − τ, 0) for the one τ that makes the cells sum to T.

    Both sets contain the true histogram (when its total really is T), and both are convex,
    so the projection is never farther from the truth than the release was:
    ‖x̂ − x‖₂ ≤ ‖y − x‖₂, on every release, not just on average. It looks only at the
    release and at T, so it costs no privacy (Proposition 2.1) — provided T is public, or
    released with its own charge.

    Parameters
    ----------
    noisy : 1-d array_like
        A released histogram y.
    total : float
        T, the public total (≥ 0 when ``nonnegative``).
    nonnegative : bool, default True
        Also require every cell to be ≥ 0.

    Examples
    --------
    >>> project_to_total([3.5, -1.0, 6.5], total=9, nonnegative=False)
    array([ 3.5, -1. ,  6.5])
    >>> project_to_total([3.5, -1.0, 6.5], total=9)
    array([3., 0., 6.])
    """
    y = _validate.array("noisy", noisy, ndim=(1,))
    if not isinstance(nonnegative, (bool, np.bool_)):
        raise TypeError(f"nonnegative must be True or False, got {nonnegative!r}")
    t = _validate.real("total", total, low=0.0 if nonnegative else None, low_open=False,
                       why="counts that are all ≥ 0 cannot sum to a negative total")
    if not nonnegative:
        return y + (t - y.sum()) / y.size
    if t == 0:
        return np.zeros_like(y)
    # Sort descending; τ is set by the cells that stay positive (Duchi et al. 2008, Fig. 1).
    u = np.sort(y)[::-1]
    cumulative = np.cumsum(u) - t
    ranks = np.arange(1, y.size + 1)
    positive = u - cumulative / ranks > 0
    rho = int(np.flatnonzero(positive)[-1])     # u_1 − (u_1 − T)/1 = T > 0: never empty
    tau = cumulative[rho] / (rho + 1)
    return np.maximum(y - tau, 0.0)
