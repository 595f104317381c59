"""Privacy as hypothesis testing: what ε promises, exactly, and about whom.

An attacker who sees one output z of a mechanism M tests H₀: "the data is x" against
H₁: "the data is y", for neighbours x and y. A test rejects H₀ on some set S of outputs;
its type-I error is α = Pr[M(x) ∈ S] and its type-II error β = Pr[M(y) ∉ S]. Applying
Definition 2.4 (Dwork & Roth 2014) to S and to its complement gives, for every test,

.. math:: α + e^{ε} β \\ge 1, \\qquad e^{ε} α + β \\ge 1 ,

and Kairouz, Oh & Viswanath (ICML 2015) showed this region is exactly what ε-DP allows.
For the Laplace mechanism on a count the best tests are thresholds, and its trade-off
curve (the smallest β at each α) has a closed form (:func:`laplace_tradeoff`).

Which x and y? Dwork & Roth's neighbours differ by one person added or removed, so e^ε
bounds how much an output can tell about *whether* someone is in the data (membership).
If the attacker already knows Alice is in and asks for her attribute (a or b), the two
worlds differ by a replacement: one removal and one addition, so a generic ε-DP mechanism
protects it only at 2ε. A group of k people is protected at kε (Dwork & Roth, Theorem 2.2).
What DP does not promise at all: that nothing can be learned about Alice. A study she never
joined can still teach the world something about her (Dwork & Roth, §2.3); DP bounds only
the difference her own participation makes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from . import _validate
from .estimate import clopper_pearson_lower, clopper_pearson_upper

_WHY_ALPHA = "α is a probability (the type-I error of a test)"


def _alphas(alpha) -> np.ndarray:
    a = _validate.array("alpha", alpha, nonempty=False)
    if ((a < 0) | (a > 1)).any():
        raise ValueError(f"alpha must be in [0, 1] everywhere, got {alpha!r}; {_WHY_ALPHA}")
    return a


def _out(a: np.ndarray):
    return a if a.ndim else float(a)


def dp_tradeoff_limit(alpha, epsilon: float) -> np.ndarray | float:
    """The smallest type-II error β any test can have at type-I error α, against any ε-DP mechanism.

    .. math:: β \\ge \\max\\left(0,\\; 1 - e^{ε} α,\\; e^{-ε} (1 - α)\\right)

    (Kairouz, Oh & Viswanath 2015). Both constraints come from Definition 2.4 applied to the
    rejection set and to its complement.
    """
    a = _alphas(alpha)
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    return _out(np.maximum.reduce([np.zeros_like(a), 1.0 - np.exp(eps) * a, np.exp(-eps) * (1.0 - a)]))


def laplace_tradeoff(alpha, epsilon: float, shift: float = 1.0) -> np.ndarray | float:
    """The exact trade-off curve of the Laplace mechanism Lap(1/ε) on a count, neighbours f(x) and f(x) + shift.

    With ε_s = ε·shift (a shift of s at scale 1/ε is a shift of 1 at scale 1/(sε)):

    .. math:: β(α) = \\begin{cases} 1 - e^{ε_s} α & α \\le e^{-ε_s}/2 \\\\
                                    e^{-ε_s} / (4α) & e^{-ε_s}/2 \\le α \\le 1/2 \\\\
                                    e^{-ε_s} (1 - α) & α \\ge 1/2 \\end{cases}

    the smallest β at each α, reached by the threshold tests "say y when z ≥ t"
    (:func:`laplace_threshold_test`). It touches the ε-DP limit only at its two straight
    ends: the Laplace mechanism is ε-DP and not (ε − η)-DP, yet no test reaches the limit
    in the middle.
    """
    a = _alphas(alpha)
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    s = _validate.real("shift", shift, low=0.0, low_open=False, why="the difference f(y) − f(x) ≥ 0")
    e = eps * s
    low = np.exp(-e) / 2
    with np.errstate(divide="ignore"):
        middle = np.exp(-e) / (4 * np.where(a > 0, a, 1.0))
    out = np.where(a <= low, 1.0 - np.exp(e) * a, np.where(a <= 0.5, middle, np.exp(-e) * (1.0 - a)))
    return _out(out)


def laplace_threshold_test(threshold, epsilon: float, shift: float = 1.0) -> tuple:
    """Errors (α, β) of the test "say y when z ≥ t" on z = f + Lap(1/ε), with f(x) = 0 and f(y) = shift.

    α = Pr[Lap(1/ε) ≥ t], β = Pr[shift + Lap(1/ε) < t].
    """
    t = _validate.array("threshold", threshold, nonempty=False, allow_inf=True)
    eps = _validate.epsilon(epsilon)
    s = _validate.real("shift", shift, low=0.0, low_open=False, why="the difference f(y) − f(x) ≥ 0")
    alpha = np.where(t >= 0, 0.5 * np.exp(-eps * np.abs(t)), 1.0 - 0.5 * np.exp(-eps * np.abs(t)))
    u = t - s
    beta = np.where(u >= 0, 1.0 - 0.5 * np.exp(-eps * np.abs(u)), 0.5 * np.exp(-eps * np.abs(u)))
    return _out(alpha), _out(beta)


def best_success(epsilon: float) -> float:
    """The best chance, for any test against any ε-DP mechanism with a 50/50 prior, of guessing right: e^ε/(1 + e^ε)."""
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    return float(1.0 / (1.0 + np.exp(-eps)))


def protection_epsilon(epsilon: float, people: int = 1, replace: bool = False) -> float:
    """The ε at which a generic ε-DP (add/remove one person) mechanism protects a question.

    * ``people`` = k, ``replace`` = False: whether a group of k people is in the data
      (k add/remove steps; Dwork & Roth, Theorem 2.2): kε.
    * ``replace`` = True: which of two values one person's record holds, when the attacker
      knows they are in (one removal and one addition per person): 2kε.

    The bound is tight for some ε-DP mechanisms (a histogram with Lap(1/ε) per bin loses 2ε
    when one record moves bins); a particular mechanism may do better (a single count
    moves by 1 when a record's attribute changes, so Laplace on it keeps ε).
    """
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    k = _validate.integer("people", people, low=1, why="a group of at least one person")
    return (2 if replace else 1) * k * eps


@functools.lru_cache(maxsize=65_536)
def _cp(successes: int, trials: int, level: float) -> tuple[float, float]:
    """One-sided Clopper–Pearson bounds (lower, upper) at ``level`` each (cached: a slider revisits counts)."""
    return clopper_pearson_lower(successes, trials, level), clopper_pearson_upper(successes, trials, level)


@dataclass(frozen=True)
class EmpiricalTradeoff:
    """Threshold tests measured on samples: (α̂, β̂) with Clopper–Pearson boxes.

    With probability at least ``confidence`` every true (α, β) of every test lies in its box
    (each of the 4 one-sided bounds per test at level (1 − confidence)/(4·tests): Bonferroni).
    """

    thresholds: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    alpha_box: np.ndarray        # (tests, 2): lower and upper bound on α
    beta_box: np.ndarray         # (tests, 2)
    n: int
    confidence: float


class TradeoffSampler:
    """The chapter 09 auditor's view of a test: N outputs of Lap(1/ε) on f(x) = 0 and on f(y) = shift.

    The samples are unit Laplace noise drawn once (``n`` per side); the output at ε is the
    noise divided by ε. The thresholds are fixed before sampling in the units of the noise,
    t = shift/2 + u/ε for the offsets ``u`` (so they move with ε as the slider does, and the
    counts depend on ε·shift only). ``measure(epsilon, shift)`` counts the errors of each
    test and bounds them with :func:`~dpteach.estimate.clopper_pearson_lower`/``upper``.
    """

    OFFSETS = (-2.0, -1.0, -0.4, 0.0, 0.4, 1.0, 2.0)

    def __init__(self, n: int = 4_000, offsets=OFFSETS, confidence: float = 0.95,
                 rng: np.random.Generator | None = None) -> None:
        self.n = _validate.integer("n", n, low=10, high=10**7, why="samples per database")
        self.offsets = _validate.array("offsets", offsets, ndim=(1,))
        self.confidence = _validate.real("confidence", confidence, low=0.0, high=1.0, high_open=True)
        gen = _validate.rng(rng)
        self._x = np.sort(gen.laplace(0.0, 1.0, size=self.n))     # unit noise on f(x) = 0
        self._y = np.sort(gen.laplace(0.0, 1.0, size=self.n))     # unit noise on f(y) = shift
        self.level = (1.0 - self.confidence) / (4 * self.offsets.size)

    def measure(self, epsilon: float, shift: float = 1.0) -> EmpiricalTradeoff:
        eps = _validate.epsilon(epsilon)
        s = _validate.real("shift", shift, low=0.0, low_open=False, why="the difference f(y) − f(x) ≥ 0")
        e = eps * s
        # z ≥ t on x ⇔ U ≥ εt = e/2 + u;  z < t on y ⇔ shift + V/ε < t ⇔ V < u − e/2
        type1 = self.n - np.searchsorted(self._x, e / 2 + self.offsets, side="left")
        type2 = np.searchsorted(self._y, self.offsets - e / 2, side="left")
        a_box = np.array([_cp(int(c), self.n, self.level) for c in type1])
        b_box = np.array([_cp(int(c), self.n, self.level) for c in type2])
        return EmpiricalTradeoff(s / 2 + self.offsets / eps, type1 / self.n, type2 / self.n, a_box, b_box,
                                 self.n, self.confidence)
