"""Checkers for the workbook's exercises: each says right or wrong, and why.

A checker takes the student's answer and returns a :class:`Feedback`, which shows as a
coloured box in a notebook and as one line of text elsewhere. The expected answer is
computed with dpteach itself (by enumeration or by formula), never typed in here.
"""

from __future__ import annotations

import html
import math
import numbers
from dataclasses import dataclass

import numpy as np

from .laplace import laplace_scale, laplace_tail, privacy_loss
from .sensitivity import l1_sensitivity, l2_sensitivity

_PLACEHOLDER = "Not answered yet: replace ... (or None) with your answer and run the cell again."


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer."""

    correct: bool | None   # None: not answered yet
    message: str

    def __repr__(self) -> str:
        mark = {True: "✅ Correct", False: "❌ Not quite", None: "✏️ Your turn"}[self.correct]
        return f"{mark}: {self.message}"

    def __bool__(self) -> bool:
        return bool(self.correct)

    def _repr_html_(self) -> str:
        colour = {True: "#009E73", False: "#D55E00", None: "#0072B2"}[self.correct]
        return (f"<div style='border-left:6px solid {colour};padding:6px 12px;margin:4px 0;"
                f"background:{colour}14'>{html.escape(repr(self))}</div>")


def _number(answer) -> float | None | Feedback:
    if answer is None or answer is Ellipsis:
        return None
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        return Feedback(False, f"the answer should be a number, got {answer!r}.")
    value = float(answer)
    if not math.isfinite(value):
        return Feedback(False, f"the answer should be a finite number, got {answer!r}.")
    return value


def _compare(answer, expected: float, why: str, hint: str, rel: float = 1e-6, abs_tol: float = 1e-9) -> Feedback:
    value = _number(answer)
    if value is None:
        return Feedback(None, _PLACEHOLDER)
    if isinstance(value, Feedback):
        return value
    if math.isclose(value, expected, rel_tol=rel, abs_tol=abs_tol):
        return Feedback(True, why)
    return Feedback(False, f"{value:g} is not it. {hint}")


# -- chapter 00: start here -------------------------------------------------------------

def check_scale_for_count(answer, epsilon: float = 0.5) -> Feedback:
    """Ch. 00, the trial exercise: the Laplace scale b = Δf/ε for a count (Δf = 1) at ε = 0.5."""
    expected = laplace_scale(1.0, epsilon)
    return _compare(answer, expected, f"b = Δf/ε = 1/{epsilon:g} = {expected:g}.",
                    "A count has Δf = 1; divide by ε.")


# -- chapter 01: sensitivity ------------------------------------------------------------

def check_count_and_sum_sensitivity(answer) -> Feedback:
    """Ch. 01, exercise 1: a count of people aged 65+ released together with the sum of all ages
    clipped to [0, 100]: what is the ℓ1-sensitivity of the pair?"""
    ages = np.arange(0, 101)
    expected = l1_sensitivity(lambda x: np.array([x[65:].sum(), x @ np.clip(ages, 0, 100)]), ages, max_size=1)
    return _compare(answer, expected,
                    f"one person aged 65+ can move the count by 1 and the sum by 100 at once: "
                    f"Δf = 1 + 100 = {expected:g}.",
                    "Think of the one person who moves both coordinates as far as possible, "
                    "and add the two changes (ℓ1 norm).")


def check_l2_sensitivity_of_counts(answer, k: int = 9) -> Feedback:
    """Ch. 01, exercise 2: ℓ2-sensitivity of k = 9 counting queries that one person can all change."""
    universe = np.arange(2)
    expected = l2_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    return _compare(answer, expected,
                    f"each of the {k} counts moves by 1, so ‖·‖₂ = √{k} = {expected:g} (ℓ1 would be {k}).",
                    "Each count can move by 1 at the same time; take the Euclidean length of that change.")


# -- chapter 02: the Laplace distribution -----------------------------------------------

def check_tail_probability(answer, scale: float = 2.0, threshold: float = 6.0) -> Feedback:
    """Ch. 02, exercise 1: Pr[|Y| ≥ 6] for Y ~ Lap(2)."""
    expected = laplace_tail(threshold / scale)
    return _compare(answer, expected,
                    f"6 = 3·b, so Fact 3.7 gives exp(−3) = {expected:.4f}.",
                    "Write the threshold as t·b and use Fact 3.7: Pr[|Y| ≥ t·b] = exp(−t).", rel=1e-3)


def check_epsilon_for_std(answer, std: float = 10.0, sensitivity: float = 1.0) -> Feedback:
    """Ch. 02, exercise 2: which ε gives a count (Δf = 1) noise with standard deviation 10?"""
    expected = sensitivity * math.sqrt(2) / std
    value = _number(answer)
    if isinstance(value, float) and value > 0 and not math.isclose(laplace_scale(sensitivity, value) * math.sqrt(2),
                                                                   std, rel_tol=1e-3):
        return Feedback(False, f"with ε = {value:g} the noise has std √2·Δf/ε = "
                               f"{math.sqrt(2) * sensitivity / value:.4g}, not {std:g}. "
                               "The variance of Lap(b) is 2b², so std = √2·b; solve for ε = Δf/b.")
    return _compare(answer, expected, f"std = √2·b = 10 means b = {std / math.sqrt(2):.4f}, "
                                      f"so ε = Δf/b = {expected:.4f}.",
                    "The variance of Lap(b) is 2b², so std = √2·b; solve for ε = Δf/b.", rel=1e-3)


# -- chapter 03: the Laplace mechanism --------------------------------------------------

def check_scale_for_overlapping_counts(answer, k: int = 3, epsilon: float = 0.5) -> Feedback:
    """Ch. 03, exercise 1: the Laplace scale for 3 counts that one person can all change, at ε = 0.5."""
    universe = np.arange(2)
    sensitivity = l1_sensitivity(lambda x: np.full(k, x[1]), universe, max_size=1)
    expected = laplace_scale(sensitivity, epsilon)
    return _compare(answer, expected,
                    f"Δf = {sensitivity:g} (one person changes all {k} counts), so b = Δf/ε = {expected:g}.",
                    "First find Δf over all three coordinates together (ℓ1), then b = Δf/ε.")


def check_understated_loss(answer, epsilon: float = 1.0) -> Feedback:
    """Ch. 03, exercise 2: the worst privacy loss when the noise is calibrated to Δf = 0.5 but the
    neighbours' counts differ by 1, at ε = 1."""
    z = np.linspace(-20, 21, 4101)
    expected = float(np.abs(privacy_loss(z, 0.0, 1.0, 0.5, epsilon)).max())
    return _compare(answer, expected,
                    f"b = 0.5/ε, and far from both answers the loss is |f(x) − f(y)|/b = {expected:g} = 2ε: "
                    "the promised ε is broken by a factor 2.",
                    "Far to the left of both answers the loss is constant: (|f(y) − z| − |f(x) − z|)/b. "
                    "What is b here?", rel=1e-6)
