"""Privacy as hypothesis testing: what ε promises, exactly, and about whom.

An attacker who sees one output z of a mechanism M tests H₀: "the data is x" against
H₁: "the data is y", for neighbours x and y. A test rejects H₀ on some set S of outputs;
its false positive rate (type-I error) is FPR = Pr[M(x) ∈ S] and its false negative rate
(type-II error) FNR = Pr[M(y) ∉ S] (Dong, Roth & Su write α and β; the workbook keeps those letters for an
accuracy and a failure probability, :mod:`dpteach.notation`). Applying
Definition 2.4 (Dwork & Roth 2014) to S and to its complement gives, for every test,

.. math:: \\mathrm{FPR} + e^{ε} \\mathrm{FNR} \\ge 1, \\qquad e^{ε} \\mathrm{FPR} + \\mathrm{FNR} \\ge 1 ,

and Kairouz, Oh & Viswanath (ICML 2015) showed this region is exactly what ε-DP allows.
For the Laplace mechanism on a count the best tests are thresholds, and its trade-off
curve (the smallest FNR at each FPR) has a closed form (:func:`laplace_tradeoff`).

With a slack δ, (ε, δ)-DP gives FPR + e^ε·FNR ≥ 1 − δ and e^ε·FPR + FNR ≥ 1 − δ instead.

Which x and y? Dwork & Roth's neighbours differ by one person added or removed, so e^ε
bounds how much an output can tell about *whether* someone is in the data (membership).
If the attacker already knows Alice is in and asks for her attribute (a or b), the two
worlds differ by a replacement: one removal and one addition. A group of k people is k
add/remove steps apart. Chaining the steps, the odds of one output move by at most e^{2ε}
for an attribute and e^{kε} for a group (Dwork & Roth, Theorem 2.2): an outer bound, not
attained. Every step's constraints hold at once, through the databases in between, and the
exact limit is the k-fold composition of the one-step trade-off (group privacy in f-DP, Dong,
Roth & Su 2019, Theorem 2.14; :func:`group_tradeoff_limit`): the best 50/50 guess of an
attribute is 1 − ½e^{−ε}, not e^{2ε}/(1 + e^{2ε}) (:func:`group_best_success`).
What DP does not promise at all: that nothing can be learned about Alice. A study she never
joined can still teach the world something about her (Dwork & Roth, §2.3); DP bounds only
the difference her own participation makes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from . import _validate
from .estimate import clopper_pearson_lower, clopper_pearson_upper

_WHY_FPR = "FPR is a probability (a test's false positive rate, its type-I error)"


def _fprs(fpr) -> np.ndarray:
    a = _validate.array("fpr", fpr, nonempty=False)
    if ((a < 0) | (a > 1)).any():
        raise ValueError(f"fpr must be in [0, 1] everywhere, got {fpr!r}; {_WHY_FPR}")
    return a


def _out(a: np.ndarray):
    return a if a.ndim else float(a)


def _delta(delta) -> float:
    return _validate.real("delta", delta, low=0.0, high=1.0, low_open=False, high_open=False,
                          why="δ is the additive slack of (ε, δ)-DP, between 0 (pure ε-DP) and 1 (no promise)")


def dp_tradeoff_limit(fpr, epsilon: float, delta: float = 0.0) -> np.ndarray | float:
    """The smallest FNR any test can have at FPR, against any (ε, δ)-DP mechanism.

    .. math:: \\mathrm{FNR} \\ge \\max\\left(0,\\; 1 - δ - e^{ε} \\mathrm{FPR},\\; e^{-ε} (1 - δ - \\mathrm{FPR})\\right)

    (Kairouz, Oh & Viswanath 2015; with δ = 0, the ε-DP region). Both constraints come from
    Definition 2.4 applied to the rejection set and to its complement; δ moves the region's
    edge in towards the corner (0, 0) by δ along each axis.
    """
    a = _fprs(fpr)
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    d = _delta(delta)
    return _out(np.maximum.reduce([np.zeros_like(a), 1.0 - d - np.exp(eps) * a, np.exp(-eps) * (1.0 - d - a)]))


def group_tradeoff_limit(fpr, epsilon: float, k: int = 1, delta: float = 0.0) -> np.ndarray | float:
    """The smallest FNR at FPR for x and y k add/remove steps apart (a group of k), under (ε, δ)-DP per step.

    With f the one-step limit (:func:`dp_tradeoff_limit`), a test's power 1 − FNR can grow at
    most by g(a) = 1 − f(a) = min(1, δ + e^{ε}a, 1 − e^{−ε}(1 − δ − a)) per step, so

    .. math:: \\mathrm{FNR}_k(x) = 1 - g^{\\circ k}(x) \\quad \\text{at } \\mathrm{FPR} = x

    (group privacy in f-DP: Dong, Roth & Su 2019, Theorem 2.14). It is exact: the mechanism
    on the chain of databases that says "y" with probabilities q_0 = FPR, q_{i+1} = g(q_i)
    satisfies every step's constraints and reaches it. For k = 1 it is the one-step region;
    for k ≥ 2 it lies strictly inside the region of (kε, δ_k) (:func:`group_privacy`), which
    bounds the odds but is not attained.
    """
    a = _fprs(fpr)
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    kk = _validate.integer("k", k, low=1, high=1_000, why="a group of at least one person (k add/remove steps)")
    d = _delta(delta)
    power = np.asarray(a, dtype=float)
    for _ in range(kk):
        power = np.minimum.reduce([np.ones_like(power), d + np.exp(eps) * power,
                                   1.0 - np.exp(-eps) * (1.0 - d - power)])
    return _out(np.clip(1.0 - power, 0.0, 1.0))


def group_privacy(epsilon: float, k: int = 1, delta: float = 0.0) -> tuple[float, float]:
    """The (ε, δ) that chaining k steps of Definition 2.4 gives a group of k: (kε, δ·(1 + e^ε + … + e^{(k−1)ε})).

    Pr[M(x_0) ∈ S] ≤ e^ε Pr[M(x_1) ∈ S] + δ ≤ … ≤ e^{kε} Pr[M(x_k) ∈ S] + δ Σ_{i<k} e^{iε}
    (Dwork & Roth, Theorem 2.2 for δ = 0). An outer bound for k ≥ 2: no ε-DP mechanism reaches
    it, because every step's constraint on the complement holds too
    (:func:`group_tradeoff_limit` is the exact region).
    """
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    kk = _validate.integer("k", k, low=1, high=1_000, why="a group of at least one person (k add/remove steps)")
    d = _delta(delta)
    return kk * eps, min(d * float(np.sum(np.exp(eps * np.arange(kk)))), 1.0)


def laplace_tradeoff(fpr, epsilon: float, shift: float = 1.0) -> np.ndarray | float:
    """The exact trade-off curve of the Laplace mechanism Lap(1/ε) on a count, neighbours f(x) and f(x) + shift.

    With ε_s = ε·shift (a shift of s at scale 1/ε is a shift of 1 at scale 1/(sε)):

    .. math:: \\mathrm{FNR}_{\\min}(x) = \\begin{cases} 1 - e^{ε_s} x & x \\le e^{-ε_s}/2 \\\\
                                    e^{-ε_s} / (4x) & e^{-ε_s}/2 \\le x \\le 1/2 \\\\
                                    e^{-ε_s} (1 - x) & x \\ge 1/2 \\end{cases}

    at FPR = x: the smallest FNR at each FPR, reached by the threshold tests "say y when z ≥ t"
    (:func:`laplace_threshold_test`). It touches the ε-DP limit only at its two straight
    ends: the Laplace mechanism is ε-DP and not (ε − η)-DP, yet no test reaches the limit
    in the middle.
    """
    a = _fprs(fpr)
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    s = _validate.real("shift", shift, low=0.0, low_open=False, why="the difference f(y) − f(x) ≥ 0")
    e = eps * s
    low = np.exp(-e) / 2
    with np.errstate(divide="ignore"):
        middle = np.exp(-e) / (4 * np.where(a > 0, a, 1.0))
    out = np.where(a <= low, 1.0 - np.exp(e) * a, np.where(a <= 0.5, middle, np.exp(-e) * (1.0 - a)))
    return _out(out)


def laplace_threshold_test(threshold, epsilon: float, shift: float = 1.0) -> tuple:
    """Errors (FPR, FNR) of the test "say y when z ≥ t" on z = f + Lap(1/ε), with f(x) = 0 and f(y) = shift.

    FPR = Pr[Lap(1/ε) ≥ t], FNR = Pr[shift + Lap(1/ε) < t].
    """
    t = _validate.array("threshold", threshold, nonempty=False, allow_inf=True)
    eps = _validate.epsilon(epsilon)
    s = _validate.real("shift", shift, low=0.0, low_open=False, why="the difference f(y) − f(x) ≥ 0")
    fpr = np.where(t >= 0, 0.5 * np.exp(-eps * np.abs(t)), 1.0 - 0.5 * np.exp(-eps * np.abs(t)))
    u = t - s
    fnr = np.where(u >= 0, 1.0 - 0.5 * np.exp(-eps * np.abs(u)), 0.5 * np.exp(-eps * np.abs(u)))
    return _out(fpr), _out(fnr)


def best_success(epsilon: float) -> float:
    """The best chance, for any test between neighbours against any ε-DP mechanism with a 50/50 prior, of guessing
    right: e^ε/(1 + e^ε). For databases k ≥ 2 steps apart (an attribute, a group) see :func:`group_best_success`."""
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    return float(1.0 / (1.0 + np.exp(-eps)))


def group_best_success(epsilon: float, k: int = 1, delta: float = 0.0) -> float:
    """The best chance of a 50/50 guess between databases k add/remove steps apart that (ε, δ)-DP alone allows.

    1 − FPR* where FPR* = FNR_k(FPR*) is the point of :func:`group_tradeoff_limit` on the diagonal
    (the curve is symmetric and convex, so FPR + FNR is smallest there). For δ = 0:

    .. math:: e^{ε}/(1 + e^{ε}) \\ (k = 1), \\qquad 1 - \\tfrac12 e^{-kε/2} \\ (k \\text{ even}),
              \\qquad 1 - e^{-(k-1)ε/2}/(1 + e^{ε}) \\ (k \\ge 3 \\text{ odd}),

    never e^{kε}/(1 + e^{kε}) for k ≥ 2. An attribute of someone known to be in the data (a
    replacement, k = 2) is guessed right with probability at most 1 − ½e^{−ε}: 0.697 at ε = 0.5.
    """
    eps = _validate.real("epsilon", epsilon, low=0.0, low_open=False, why="ε ≥ 0")
    kk = _validate.integer("k", k, low=1, high=1_000, why="a group of at least one person (k add/remove steps)")
    d = _delta(delta)
    if d == 0.0:
        if kk == 1:
            return best_success(eps)
        if kk % 2 == 0:
            return float(-0.5 * np.expm1(-kk * eps / 2) + 0.5)
        return float(1.0 - np.exp(-(kk - 1) * eps / 2) / (1.0 + np.exp(eps)))
    grow, shrink = math.exp(eps), math.exp(-eps)

    def fnr(a: float) -> float:               # group_tradeoff_limit at one FPR, in floats (a slider calls this)
        for _ in range(kk):
            a = min(1.0, d + grow * a, 1.0 - shrink * (1.0 - d - a))
        return 1.0 - a

    lo, hi = 0.0, 0.5                      # FPR − FNR_k(FPR) goes from ≤ 0 at FPR = 0 to ≥ 0 at FPR = ½
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if mid < fnr(mid):
            lo = mid
        else:
            hi = mid
    return 1.0 - 0.5 * (lo + hi)


def protection_epsilon(epsilon: float, people: int = 1, replace: bool = False) -> float:
    """The ε of the odds bound a generic ε-DP (add/remove one person) mechanism gives a question.

    * ``people`` = k, ``replace`` = False: whether a group of k people is in the data
      (k add/remove steps; Dwork & Roth, Theorem 2.2): kε.
    * ``replace`` = True: which of two values one person's record holds, when the attacker
      knows they are in (one removal and one addition per person): 2kε.

    One output moves the odds by at most e^{(this ε)}, and some ε-DP mechanisms reach that
    ratio (a histogram with Lap(1/ε) per bin loses 2ε when one record moves bins); a particular
    mechanism may do better (a single count moves by 1 when a record's attribute changes, so
    Laplace on it keeps ε). It is not the ε of a test's limit: the best guess between databases
    k steps apart is :func:`group_best_success`, below e^{kε}/(1 + e^{kε}).
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
    """Threshold tests measured on samples: (estimated FPR, FNR) with Clopper–Pearson boxes.

    With probability at least ``confidence`` every true (FPR, FNR) of every test lies in its box
    (each of the 4 one-sided bounds per test at level (1 − confidence)/(4·tests): Bonferroni).
    """

    thresholds: np.ndarray
    fpr: np.ndarray
    fnr: np.ndarray
    fpr_box: np.ndarray          # (tests, 2): lower and upper bound on FPR
    fnr_box: np.ndarray          # (tests, 2)
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
