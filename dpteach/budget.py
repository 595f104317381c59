"""The privacy budget (Dwork & Roth 2014, §3.5): a total (ε, δ) and the ledger of what was spent.

Charges compose sequentially (Theorem 3.16) or, on disjoint parts of the data, in parallel
(the largest counts). A :class:`PrivacyBudget` refuses the charge that would overspend with
:class:`BudgetExceeded`, before anything is computed. The calculators that say what a total
buys (basic and advanced composition) are in :mod:`dpteach.composition`.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import numpy as np

from . import _validate
from ._validate import delta as _charge_delta

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


def _four_figures(x: float) -> str:
    """ε for the ledger's printout: four significant figures (0.1 + 0.2 shows as 0.3)."""
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
    accounting : {"basic", "exact"}, default "basic"
        ``"basic"`` adds the charges (Theorem 3.16). ``"exact"`` is the budget planner's exact rule
        (:func:`~dpteach.plan_budget`'s ``exact`` total): the charges are releases of Laplace noise on counts
        (each pure ε_i-DP, δ_i = 0) and what they spent is their total ε at the budget's δ (0 < δ < 1) from
        their privacy loss distribution (:func:`~dpteach.exact_laplace_epsilon`; chapters 06 and 08). The
        accountant composes k equal releases, so the total of k charges is that of k releases at the largest
        ε_i charged: exact when the charges are equal (the planner's weekly releases), an upper bound
        otherwise. A budget of a plan's exact total takes all its k releases, where adding them refuses some.

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
    dpteach.budget.BudgetExceeded: refused 'mean income': it asks ε = 0.2 but only ε = 0.1 of 1 remains (0.9 spent in 2 charges); nothing was charged
    """

    #: Relative tolerance when comparing the spent total with the budget (rounding only).
    TOLERANCE = 1e-9

    #: The composition rules :class:`PrivacyBudget` accounts with.
    ACCOUNTINGS = ("basic", "exact")

    def __init__(self, epsilon: float, delta: float = 0.0, accounting: str = "basic") -> None:
        self._epsilon = _validate.positive("epsilon", epsilon, why="a budget of ε = 0 could answer nothing")
        if accounting not in self.ACCOUNTINGS:
            raise ValueError(f"accounting must be one of {list(self.ACCOUNTINGS)}, got {accounting!r}")
        self._accounting = accounting
        exact = accounting == "exact"
        self._delta = _validate.real("delta", delta, low=0.0, high=1.0, low_open=exact, high_open=True,
                                     why="the δ at which the exact total is read, 0 < δ < 1" if exact else
                                     "δ is the additive slack in Definition 2.4 of (ε, δ)-DP; "
                                     "δ = 1 would promise nothing")
        self._charges: list[Charge] = []

    @property
    def accounting(self) -> str:
        """"basic" (the charges add up) or "exact" (the planner's rule: Laplace releases' loss distribution)."""
        return self._accounting

    def _composed(self, epsilons) -> float:
        """What charges of these ε cost together under this budget's rule."""
        if self._accounting == "basic":
            return math.fsum(epsilons)
        spent = [e for e in epsilons if e > 0]
        if not spent:
            return 0.0
        from .generalized_gaussian.accountant import exact_laplace_epsilon  # only an exact budget needs it
        return exact_laplace_epsilon(len(spent), max(spent), self._delta)

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
        """Σ ε_i over the charges (Theorem 3.16), summed without rounding drift (math.fsum); with
        ``accounting="exact"``, their total ε at the budget's δ (see the class)."""
        return self._composed([c.epsilon for c in self._charges])

    @property
    def spent_delta(self) -> float:
        """Σ δ_i; with ``accounting="exact"``, the budget's δ once anything is spent (the total is read there)."""
        if self._accounting == "exact":
            return self._delta if self.spent_epsilon > 0 else 0.0
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
        self._pure_only(dlt)
        return self._add(Charge(_label(label), eps, dlt))

    def _pure_only(self, delta: float) -> None:
        if self._accounting == "exact" and delta > 0:
            raise ValueError(f"delta must be 0 for a charge to an exact budget (its charges are Laplace releases, "
                             f"pure ε-DP; the budget's δ = {self._delta:.3g} is where their total is read), "
                             f"got {delta!r}")

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
        self._pure_only(float(dlt.max()))
        return self._add(Charge(_label(label), float(eps.max()), float(dlt.max()),
                                parts=tuple(float(e) for e in eps)))

    def _fits(self, epsilon: float, delta: float) -> bool:
        return self._eps_fits(epsilon) and (self._accounting == "exact" and delta == 0
                                            or self.spent_delta + delta <= self._delta * (1 + self.TOLERANCE))

    def _eps_fits(self, epsilon: float) -> bool:
        after = self._composed([*(c.epsilon for c in self._charges), epsilon])
        return after <= self._epsilon * (1 + self.TOLERANCE)

    def _add(self, charge: Charge) -> Charge:
        if not self._fits(charge.epsilon, charge.delta):
            raise self._refusal(charge)
        self._charges.append(charge)
        return charge

    def _refusal(self, charge: Charge) -> BudgetExceeded:
        name = f"refused {charge.label!r}" if charge.label else "refused"
        n = len(self._charges)
        spent = f"{_four_figures(self.spent_epsilon)} spent in {n} charge{'s' if n != 1 else ''}"
        if not self._eps_fits(charge.epsilon):
            asks = f"ε = {_four_figures(charge.epsilon)}" + (" (its largest part)" if charge.parts else "")
            if self._accounting == "exact":
                after = self._composed([*(c.epsilon for c in self._charges), charge.epsilon])
                asks += f" (the total would be {_four_figures(after)} by exact accounting)"
            reason = (f"it asks {asks} but only ε = {_four_figures(self.remaining_epsilon)} of "
                      f"{_four_figures(self._epsilon)} remains ({spent})")
        elif self._delta == 0:
            reason = (f"it asks δ = {charge.delta:.3g} but this is a pure ε budget (δ = 0): "
                      "no δ may be spent")
        else:
            reason = (f"it asks δ = {charge.delta:.3g} but only δ = {self.remaining_delta:.3g} of "
                      f"{self._delta:.3g} remains")
        return BudgetExceeded(f"{name}: {reason}; nothing was charged", label=charge.label,
                              epsilon=charge.epsilon, delta=charge.delta,
                              remaining_epsilon=self.remaining_epsilon, remaining_delta=self.remaining_delta)

    # -- display -----------------------------------------------------------------------------------
    def _header(self) -> str:
        total = f"ε = {_four_figures(self._epsilon)}" + (f", δ = {self._delta:.3g}" if self._delta else "")
        spent = f"spent ε = {_four_figures(self.spent_epsilon)}" + (f", δ = {self.spent_delta:.3g}" if self._delta else "")
        left = f"remaining ε = {_four_figures(self.remaining_epsilon)}" + (
            f", δ = {self.remaining_delta:.3g}" if self._delta else "")
        n = len(self._charges)
        rule = ("basic accounting: the charges add up" if self._accounting == "basic" else
                f"exact accounting: Laplace releases' total at δ = {self._delta:.3g}")
        return f"PrivacyBudget({total}; {rule}): {spent} in {n} charge{'s' if n != 1 else ''}; {left}"

    def _rows(self) -> list[list[str]]:
        rows = []
        for i, c in enumerate(self._charges, 1):
            running = self._composed([d.epsilon for d in self._charges[:i]])
            rows.append([str(i), c.label or "—", _four_figures(c.epsilon), f"{c.delta:.3g}", c.kind, _four_figures(running)])
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


def _label(label) -> str:
    if not isinstance(label, str):
        raise TypeError(f"label must be a string, got {label!r} of type {type(label).__name__}")
    return label
