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

from ..accuracy import laplace_accuracy_bound
from ..counting import counting_queries_scale, counting_queries_sensitivity, histogram_noise
from ..laplace import laplace_scale, laplace_tail, privacy_loss
from ..sensitivity import l1_sensitivity, l2_sensitivity

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


# -- chapter 04: counting and histogram queries -------------------------------------------

def check_overlapping_bands_sensitivity(answer) -> Feedback:
    """Ch. 04, exercise 1: Δf of four overlapping age bands, 0–29, 20–49, 40–69 and 60–99,
    counted over a universe of ages 0–99."""
    ages = np.arange(100)
    bands = [(0, 30), (20, 50), (40, 70), (60, 100)]
    queries = np.array([(ages >= lo) & (ages < hi) for lo, hi in bands])
    expected = counting_queries_sensitivity(queries)
    return _compare(answer, expected,
                    f"the bands overlap in pairs (20–29, 40–49, 60–69), so one person is counted by at most "
                    f"{expected:g} bands: Δf = {expected:g}, and each band needs Lap({expected:g}/ε).",
                    "Δf is the largest number of queries one person can be counted in. Find an age that two "
                    "bands share; can any age be in three?")


def check_count_relative_error(answer, count: int = 5_000, n: int = 1_000_000, epsilon: float = 0.1) -> Feedback:
    """Ch. 04, exercise 2: the expected relative error E|Y| / count of a count of 5,000 among
    n = 1,000,000 people, released at ε = 0.1."""
    b = counting_queries_scale(1, epsilon, disjoint=True)
    expected = b / count
    return _compare(answer, expected,
                    f"E|Y| = b = 1/ε = {b:g} people whatever n is, so the relative error is "
                    f"{b:g}/{count:,} = {expected:g} ({expected:.1%}). n = {n:,} plays no part.",
                    "A count has Δf = 1, so the expected absolute error is E|Y| = b = 1/ε; divide by the count. "
                    "Does n enter?", rel=1e-3)


def check_derived_count_std(answer, cells: int = 4, epsilon: float = 1.0) -> Feedback:
    """Ch. 04, exercise 3: the standard deviation of "age ≥ 60" computed by adding the 4 decade
    cells 60–69, …, 90–99 of a histogram released at ε = 1."""
    per_cell = histogram_noise(1, epsilon, cells)
    expected = math.sqrt(cells * per_cell.variance)
    return _compare(answer, expected,
                    f"each cell's noise has variance 2(1/ε)² = {per_cell.variance:g}; independent variances add, "
                    f"so the sum of {cells} cells has std √({cells}·{per_cell.variance:g}) = {expected:.4f}.",
                    "The cells' noises are independent, so their variances add. The variance of Lap(b) is 2b².",
                    rel=1e-3)


# -- chapter 05: accuracy and the census first names ---------------------------------------

def check_accuracy_bound(answer, k: int = 1_000, delta: float = 0.01, epsilon: float = 0.5) -> Feedback:
    """Ch. 05, exercise 1: Theorem 3.8's bound for a 1,000-cell histogram (Δf = 1) at ε = 0.5, δ = 0.01."""
    expected = laplace_accuracy_bound(k, delta, 1, epsilon)
    return _compare(answer, expected,
                    f"ln(k/δ)·Δf/ε = ln({k:,}/{delta:g}) · 1/{epsilon:g} = {expected:.4f}.",
                    "Theorem 3.8: ln(k/δ)·Δf/ε, with Δf = 1 for a histogram.", rel=1e-3)


def check_delta_for_bound(answer, k: int = 10_000, error: float = 10.0, epsilon: float = 1.0) -> Feedback:
    """Ch. 05, exercise 2: for Example 3.3 (k = 10,000, Δf = 1, ε = 1), the δ at which Theorem 3.8's
    bound is 10."""
    expected = k * laplace_tail(error * epsilon)
    return _compare(answer, expected,
                    f"ln(k/δ)/ε = {error:g} gives δ = k·e^(−{error:g}ε) = {expected:.4f}: the theorem then "
                    f"promises 'within ±{error:g}' only with probability {1 - expected:.1%}.",
                    "Solve ln(k/δ)·Δf/ε = 10 for δ: δ = k·exp(−10·ε/Δf).", rel=1e-3)


def check_dominance_threshold(answer, cap: int = 3, epsilon: float = 0.5) -> Feedback:
    """Ch. 05, exercise 3: the cell size below which DP noise dominates Poisson sampling noise in a
    conversion report capped at c = 3 per user, released at ε = 0.5."""
    expected = histogram_noise(cap, epsilon, 1).crossover
    return _compare(answer, expected,
                    f"Δf = c = {cap}, so the DP variance is 2(c/ε)² = 2·{cap / epsilon:g}² = {expected:g}; "
                    f"sampling variance n is smaller than that for cells under {expected:g} conversions.",
                    "Set the sampling variance n equal to the Laplace variance 2(Δf/ε)², with Δf = c.", rel=1e-6)

from .applications import *  # noqa: E402, F403
from .composition import *  # noqa: E402, F403
from .gaussian import *  # noqa: E402, F403
from .noise import *  # noqa: E402, F403
from .selection import *  # noqa: E402, F403
