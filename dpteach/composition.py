"""Composition and the privacy budget (Dwork & Roth, §3.5), and post-processing (Proposition 2.1).

Every differentially private answer spends some privacy. Asked of the same people, the
spending adds up (sequential composition, Theorem 3.16); asked of disjoint groups, only the
largest spend counts (parallel composition); k answers together cost less than k·ε when a
small δ′ is allowed (advanced composition, Theorem 3.20). A :class:`PrivacyBudget` keeps
the ledger and refuses the charge that would overspend; the calculators here say what a
total buys. What is done to an answer afterwards, without looking at the data again, costs
nothing (post-processing): :func:`project_to_total` is one such step that can only help.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import numpy as np

from . import _validate

_WHY_DELTA_PRIME = "δ′ is the probability that the ε′ bound fails; 0 would make ε′ infinite, 1 means no guarantee"
_WHY_CHARGE = "a charge spends privacy; it can never give any back"


# -- the budget ------------------------------------------------------------------------------

class BudgetExceeded(ValueError):
    """A charge that would take the budget past its total. Nothing was charged.

    Attributes
    ----------
    label : str
        The label of the refused charge.
    epsilon, delta : float
        What the charge asked for (after parallel composition: the largest part).
    remaining_epsilon, remaining_delta : float
        What was left when it was refused (and is still left).
    """

    def __init__(self, message: str, *, label: str, epsilon: float, delta: float,
                 remaining_epsilon: float, remaining_delta: float) -> None:
        super().__init__(message)
        self.label = label
        self.epsilon = epsilon
        self.delta = delta
        self.remaining_epsilon = remaining_epsilon
        self.remaining_delta = remaining_delta


@dataclass(frozen=True)
class Charge:
    """One line of a :class:`PrivacyBudget`'s ledger.

    ``parts`` holds the ε of each mechanism of a parallel charge (run on disjoint parts of
    the data); it is empty for an ordinary (sequential) charge. ``epsilon`` and ``delta``
    are what the charge costs: for a parallel charge, the largest of its parts.
    """

    label: str
    epsilon: float
    delta: float
    parts: tuple[float, ...] = ()

    @property
    def kind(self) -> str:
        """"sequential" or "parallel over N parts (max)"."""
        return f"parallel over {len(self.parts)} parts (max)" if self.parts else "sequential"


def _number(x: float) -> str:
    return f"{x:.4g}"


class PrivacyBudget:
    """A total privacy budget (ε, δ) and the ledger of what has been spent from it.

    Charges compose sequentially (Theorem 3.16): k mechanisms run on the same data, each
    (ε_i, δ_i)-differentially private, are together

    .. math:: \\Big(\\sum_i ε_i,\\ \\sum_i δ_i\\Big)\\text{-differentially private,}

    so the budget adds the charges up. Mechanisms run on *disjoint* parts of the data
    compose in parallel: a person is in one part only, so together they cost the largest
    ε_i (and δ_i), which :meth:`spend_parallel` charges.

    :meth:`spend` refuses a charge that would take the spent ε (or δ) past the total,
    raising :class:`BudgetExceeded`, and charges nothing when it refuses. Sums are compared
    with a tolerance of a billionth of the total, so ten charges of 0.1 do exhaust a budget
    of 1 although 0.1 + … + 0.1 is not exactly 1 in floating point.

    Parameters
    ----------
    epsilon : float
        The total ε > 0 (finite).
    delta : float, default 0
        The total δ, 0 ≤ δ < 1. With δ = 0 (pure ε-DP) every charge with δ > 0 is refused.

    Examples
    --------
    >>> budget = PrivacyBudget(1.0)
    >>> budget.spend(0.4, label="count of people aged 65+")
    Charge(label='count of people aged 65+', epsilon=0.4, delta=0.0, parts=())
    >>> budget.spend_parallel([0.5, 0.5, 0.5], label="histogram by district").epsilon
    0.5
    >>> round(budget.remaining_epsilon, 12)
    0.1
    >>> budget.spend(0.2, label="mean income")
    Traceback (most recent call last):
      ...
    dpteach.composition.BudgetExceeded: refused 'mean income': it asks ε = 0.2 but only ε = 0.1 of 1 remains (0.9 spent in 2 charges); nothing was charged
    """

    #: Relative tolerance when comparing the spent total with the budget (rounding only).
    TOLERANCE = 1e-9

    def __init__(self, epsilon: float, delta: float = 0.0) -> None:
        self._epsilon = _validate.positive("epsilon", epsilon, why="a budget of ε = 0 could answer nothing")
        self._delta = _validate.real("delta", delta, low=0.0, high=1.0, low_open=False, high_open=True,
                                     why="δ is a probability of failure; δ = 1 would promise nothing")
        self._charges: list[Charge] = []

    # -- what it holds ----------------------------------------------------------------------
    @property
    def total_epsilon(self) -> float:
        return self._epsilon

    @property
    def total_delta(self) -> float:
        return self._delta

    @property
    def charges(self) -> tuple[Charge, ...]:
        """The ledger, oldest charge first (read-only)."""
        return tuple(self._charges)

    @property
    def spent_epsilon(self) -> float:
        """Σ ε_i over the charges (Theorem 3.16), summed without rounding drift (math.fsum)."""
        return math.fsum(c.epsilon for c in self._charges)

    @property
    def spent_delta(self) -> float:
        return math.fsum(c.delta for c in self._charges)

    @property
    def remaining_epsilon(self) -> float:
        return max(0.0, self._epsilon - self.spent_epsilon)

    @property
    def remaining_delta(self) -> float:
        return max(0.0, self._delta - self.spent_delta)

    @property
    def exhausted(self) -> bool:
        """True when no charge with ε > 0 can be accepted any more."""
        return self.spent_epsilon >= self._epsilon * (1 - self.TOLERANCE)

    # -- spending -------------------------------------------------------------------------------
    def can_spend(self, epsilon: float, delta: float = 0.0) -> bool:
        """Whether :meth:`spend` would accept a charge of (ε, δ) now (the charge is validated)."""
        eps, dlt = _charge("epsilon", epsilon), _charge_delta("delta", delta)
        return self._fits(eps, dlt)

    def spend(self, epsilon: float, delta: float = 0.0, label: str = "") -> Charge:
        """Charge one (ε, δ)-differentially private mechanism run on the whole data.

        Sequential composition (Theorem 3.16): the charge adds to what was spent before.

        Parameters
        ----------
        epsilon : float
            ε ≥ 0 of the mechanism.
        delta : float, default 0
            δ of the mechanism, 0 ≤ δ < 1.
        label : str, optional
            What the charge was for, shown in the ledger.

        Returns
        -------
        Charge
            The ledger line that was added.

        Raises
        ------
        BudgetExceeded
            (a ValueError) if the spent ε or δ would exceed the total; nothing is charged.
        """
        eps, dlt = _charge("epsilon", epsilon), _charge_delta("delta", delta)
        return self._add(Charge(_label(label), eps, dlt))

    def spend_parallel(self, epsilons, deltas=None, label: str = "") -> Charge:
        """Charge mechanisms run on *disjoint* parts of the data: the largest ε_i (and δ_i).

        Parallel composition: each person is in one part, so only one mechanism sees them,
        and the whole is (max_i ε_i, max_i δ_i)-differentially private. A histogram released
        with Lap(1/ε) per cell is this with every part at ε (Example 3.2).

        Parameters
        ----------
        epsilons : 1-d array_like
            ε_i ≥ 0 of the mechanism run on part i.
        deltas : 1-d array_like, optional
            δ_i of each part (same length as ``epsilons``); default all 0.
        label : str, optional

        Raises
        ------
        BudgetExceeded
            if max ε_i (or max δ_i) does not fit in what remains; nothing is charged.
        """
        eps = _validate.array("epsilons", epsilons, ndim=(1,), nonnegative=True)
        if deltas is None:
            dlt = np.zeros_like(eps)
        else:
            dlt = _validate.array("deltas", deltas, ndim=(1,), nonnegative=True)
            if dlt.shape != eps.shape:
                raise ValueError(f"deltas must have one entry per part, like epsilons ({eps.size}), "
                                 f"got {dlt.size}")
            if (dlt >= 1).any():
                raise ValueError(f"deltas must be < 1, got {_validate._short(dlt)}; δ = 1 would promise nothing")
        return self._add(Charge(_label(label), float(eps.max()), float(dlt.max()),
                                parts=tuple(float(e) for e in eps)))

    def _fits(self, epsilon: float, delta: float) -> bool:
        eps_ok = self.spent_epsilon + epsilon <= self._epsilon * (1 + self.TOLERANCE)
        delta_ok = self.spent_delta + delta <= self._delta * (1 + self.TOLERANCE)
        return eps_ok and delta_ok

    def _add(self, charge: Charge) -> Charge:
        if not self._fits(charge.epsilon, charge.delta):
            raise self._refusal(charge)
        self._charges.append(charge)
        return charge

    def _refusal(self, charge: Charge) -> BudgetExceeded:
        name = f"refused {charge.label!r}" if charge.label else "refused"
        n = len(self._charges)
        spent = f"{_number(self.spent_epsilon)} spent in {n} charge{'s' if n != 1 else ''}"
        if self.spent_epsilon + charge.epsilon > self._epsilon * (1 + self.TOLERANCE):
            asks = f"ε = {_number(charge.epsilon)}" + (" (its largest part)" if charge.parts else "")
            reason = (f"it asks {asks} but only ε = {_number(self.remaining_epsilon)} of "
                      f"{_number(self._epsilon)} remains ({spent})")
        elif self._delta == 0:
            reason = (f"it asks δ = {charge.delta:.3g} but this is a pure ε budget (δ = 0): "
                      "no failure probability may be spent")
        else:
            reason = (f"it asks δ = {charge.delta:.3g} but only δ = {self.remaining_delta:.3g} of "
                      f"{self._delta:.3g} remains")
        return BudgetExceeded(f"{name}: {reason}; nothing was charged", label=charge.label,
                              epsilon=charge.epsilon, delta=charge.delta,
                              remaining_epsilon=self.remaining_epsilon, remaining_delta=self.remaining_delta)

    # -- display -----------------------------------------------------------------------------------
    def _header(self) -> str:
        total = f"ε = {_number(self._epsilon)}" + (f", δ = {self._delta:.3g}" if self._delta else "")
        spent = f"spent ε = {_number(self.spent_epsilon)}" + (f", δ = {self.spent_delta:.3g}" if self._delta else "")
        left = f"remaining ε = {_number(self.remaining_epsilon)}" + (
            f", δ = {self.remaining_delta:.3g}" if self._delta else "")
        n = len(self._charges)
        return f"PrivacyBudget({total}): {spent} in {n} charge{'s' if n != 1 else ''}; {left}"

    def _rows(self) -> list[list[str]]:
        rows = []
        running = 0.0
        for i, c in enumerate(self._charges, 1):
            running += c.epsilon
            rows.append([str(i), c.label or "—", _number(c.epsilon), f"{c.delta:.3g}", c.kind, _number(running)])
        return rows

    _HEAD = ("#", "label", "ε", "δ", "composition", "ε spent so far")

    def __repr__(self) -> str:
        lines = [self._header()]
        rows = self._rows()
        if rows:
            widths = [max(len(r[j]) for r in [self._HEAD, *rows]) for j in range(len(self._HEAD))]
            for r in [self._HEAD, *rows]:
                lines.append("  " + "  ".join(cell.ljust(w) if j in (1, 4) else cell.rjust(w)
                                              for j, (cell, w) in enumerate(zip(r, widths))))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self._HEAD)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in r) + "</tr>"
                       for r in self._rows())
        return (f"<table><caption>{html.escape(self._header())}</caption>"
                f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def _charge(name: str, value) -> float:
    return _validate.real(name, value, low=0.0, low_open=False, why=_WHY_CHARGE)


def _charge_delta(name: str, value) -> float:
    return _validate.real(name, value, low=0.0, high=1.0, low_open=False, high_open=True,
                          why="δ is a probability of failure; δ = 1 would promise nothing")


def _label(label) -> str:
    if not isinstance(label, str):
        raise TypeError(f"label must be a string, got {label!r} of type {type(label).__name__}")
    return label


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
    is the failure probability δ′. For small k the second term and the √(2 ln(1/δ′)) factor
    make it *worse* than kε: both bounds hold, so use the smaller.

    Parameters
    ----------
    k : int
        Number of mechanisms, k ≥ 1.
    epsilon : float
        ε > 0 of each mechanism.
    delta_prime : float
        δ′ in (0, 1): the extra failure probability the total allows.
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
    a = eps * math.sqrt(2 * math.log(1 / dp_))
    b = eps * math.expm1(eps)
    s = (-a + math.sqrt(a * a + 4 * b * total)) / (2 * b)
    k = math.floor(s * s)
    # the closed form is exact up to rounding: step to the true boundary
    while k >= 1 and _advanced_total(k, a, b) > total:
        k -= 1
    while _advanced_total(k + 1, a, b) <= total:
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

    lo, hi = 0.0, 1.0
    while total_at(hi) < total:
        hi *= 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if total_at(mid) <= total:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return lo


def _advanced_total(k: int, a: float, b: float) -> float:
    return a * math.sqrt(k) + b * k


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
