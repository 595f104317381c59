"""Verdicts: :class:`Feedback`, numeric answers judged at a stated precision with their known mistakes named,
and multiple-choice questions (whose options a homework may shuffle).

Every numeric answer is judged by one precision rule, stated in its prompt: right to n significant figures
(:func:`tolerance`), or exact for whole numbers. A wrong answer is compared with the answers that the usual
mistakes produce (log10 for ln, forgetting to divide by ε, the variance b² for 2b², …), so the feedback can
name the mistake instead of only saying "incorrect". A wrong message never prints the expected value.
"""

from __future__ import annotations

import html
import itertools
import math
import numbers
from collections.abc import Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

PLACEHOLDER = "Not answered yet: replace ... (or None) with your answer and run the cell again."


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: correct (True), wrong (False) or not answered yet (None)."""

    correct: bool | None
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


@dataclass(frozen=True)
class Mistake:
    """A wrong answer that a known mistake produces, and what to tell the student who gives it.

    ``value`` is computed the wrong way by the checker (e.g. with ``math.log10`` where the
    theorem has ``ln``); ``message`` names the mistake without giving the right answer away;
    ``name`` is the mistake's entry in the registry of named mistakes (:mod:`._mistakes`: "log10 for
    ln", "b² for 2b²", …), whose one-line why and section a page of common mistakes lists.
    """

    value: float
    message: str
    name: str | None = None


def _looks_numeric(text: str) -> bool:
    try:
        float(text.strip().replace("_", ""))
    except ValueError:
        return False
    return True


def as_number(answer) -> float | None | Feedback:
    """The answer as a finite float; None if not answered yet; a ❌ Feedback if it is no number."""
    if answer is None or answer is Ellipsis:
        return None
    if isinstance(answer, str) and _looks_numeric(answer):
        return Feedback(False, f"the answer should be a number, and {answer!r} is text (in quotes): write the "
                               "number itself, without quotes, and run the cell again.")
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        return Feedback(False, f"the answer should be a number, got {answer!r}.")
    value = float(answer)
    if not math.isfinite(value):
        return Feedback(False, f"the answer should be a finite number, got {answer!r}.")
    return value


def tolerance(expected: float, figures: int) -> float:
    """Half a unit in the ``figures``-th significant figure of ``expected``, plus float slack.

    An answer is right to n significant figures iff |answer − expected| ≤ tolerance(expected, n):
    ½·10^(floor(log10|expected|) − n + 1), so 23 is right to 3 figures for 23.03 (½·10^(1 − 3 + 1)
    = 0.05). The slack, 10⁻¹² relative, absorbs floating-point rounding of the expected value.
    """
    size = abs(float(expected))
    if size == 0:
        return 1e-12
    exponent = math.floor(math.log10(size))
    if 10.0 ** (exponent + 1) <= size:     # log10 rounded down across a power of ten
        exponent += 1
    elif 10.0 ** exponent > size:
        exponent -= 1
    return 0.5 * 10.0 ** (exponent - figures + 1) + 1e-12 * size


def _agrees(value: float, expected: float, figures: int | None) -> bool:
    if figures is None:
        return math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-12)
    return abs(value - expected) <= tolerance(expected, figures)


#: Recorders of the comparisons made while they are active (see :func:`recording`).
_RECORDERS: list[list[dict]] = []


@contextmanager
def recording():
    """Collect what every :func:`compare` called inside the block was given.

    Yields a list that receives, per call, ``{"expected": …, "figures": …, "mistakes": [...]}``.
    :class:`ExerciseSpec` uses it to read an exercise's expected value and known mistakes at any
    parameters without repeating the checker's arithmetic.
    """
    calls: list[dict] = []
    _RECORDERS.append(calls)
    try:
        yield calls
    finally:
        _RECORDERS.remove(calls)


def compare(answer, expected: float, why: str, hint: str, figures: int | None = None,
            mistakes: Iterable[Mistake] = ()) -> Feedback:
    """✅ with ``why`` if ``answer`` agrees with ``expected`` to ``figures`` significant figures.

    The precision rule (one for every exercise): with ``figures = n`` an answer is right iff
    |answer − expected| ≤ ½·10^(floor(log10|expected|) − n + 1) (see :func:`tolerance`). An answer
    written with fewer than n significant figures that IS the expected value rounded to them (6 or 6.0
    for 6.0213) is told "close: … give n" (:func:`rounded_too_early`), unless it is a known mistake's
    value, which is named first; any other wrong answer is wrong, however near (5.99 for 6.0213 is
    wrong at 3 figures, not close). ``figures =
    None`` asks for an exact answer (a whole number, a count): equal up to floating-point rounding. A
    wrong answer is looked up among ``mistakes`` (each matched at the n-figure tolerance of its own
    value, the first listed named if two give the same number); mistakes within the (n − 1)-figure
    tolerance of the expected value are dropped, being too near to tell apart. Else the generic
    ``hint``. Neither message shows the expected value.
    """
    mistakes = list(mistakes)
    expected = float(expected)
    for calls in _RECORDERS:
        calls.append({"expected": expected, "figures": figures, "mistakes": mistakes})
    value = as_number(answer)
    if value is None:
        return Feedback(None, PLACEHOLDER)
    if isinstance(value, Feedback):
        return value
    if _agrees(value, expected, figures):
        return Feedback(True, why)
    # a near miss is not echoed: printed to 6 figures it could read as the answer at fewer
    shown = "That" if figures is not None and _agrees(value, expected, figures - 1) else f"{value:g}"
    named = matching_mistake(value, expected, mistakes, figures)
    if named is not None:
        return Feedback(False, f"{shown} is not it: {named}")
    given = rounded_too_early(value, expected, figures)
    if given:
        return Feedback(False, f"close: right to the {given} significant figure{'s' * (given > 1)} you gave; "
                               f"give {figures}.")
    return Feedback(False, f"{shown} is not it. {hint}")


def named_anyway(verdict: Feedback, answer, mistake: Mistake, figures: int | None, hint: str) -> Feedback:
    """``verdict``, or ``mistake``'s message when ``verdict`` gave the generic ``hint`` to an answer that IS the
    mistake's value to ``figures`` significant figures.

    :func:`compare` drops a mistake within the (n − 1)-figure tolerance of the expected value, as too near to tell
    apart; a checker names one anyway where the student's number is a known right-minded answer to another question
    (an exact probability where a bound was asked, a constant rounded before it was multiplied): told "not it" with
    the generic hint, they would not learn which question they answered.
    """
    value = as_number(answer)
    if verdict.correct is not False or not isinstance(value, float) or not _agrees(value, float(mistake.value), figures):
        return verdict
    if verdict.message.endswith(hint):
        shown = verdict.message.split(" is not it. ", 1)[0]      # compare's own: the value, or "That" near the answer
        return Feedback(False, f"{shown} is not it: {mistake.message}")
    if verdict.message.startswith("close:"):      # 0.0300 typed reads 0.03: the answer rounded early, or the mistake
        return Feedback(False, f"{verdict.message} If you gave {figures} figures ending in zeros: {mistake.message}")
    return verdict


def percentages(expected: float, mistakes: Iterable[Mistake], figures: int, asks: str) -> list[Mistake]:
    """``mistakes``, then the answer and each mistake between 0 and 1 typed as a percentage (73.1 for 0.731), named
    as such: for a checker whose answer is a probability, a share or a budget that a student could write ×100.

    ``asks`` says what the question asks for instead ("a probability, a number between 0 and 1"). The twins come
    after the mistakes, so a mistake whose own value is a twin's is named first. A mistake that gives the right answer
    here (to ``figures`` − 1 figures, where :func:`compare` drops it) gets no percentage twin, and two twins never
    share a value: a percentage names one mistake. Neither message shows a number.
    """
    mistakes = list(mistakes)
    typed = [Mistake(100 * expected, f"a percentage? give it as a number: {asks}", name="a percentage for a fraction")]
    for m in mistakes:
        if not 0 < m.value < 1 or abs(m.value - expected) <= tolerance(expected, figures - 1):
            continue
        if any(abs(100 * m.value - t.value) <= tolerance(t.value, figures) for t in typed):
            continue
        typed.append(Mistake(100 * m.value, f"a percentage? give it as a number ({asks}), and then: {m.message}",
                             name="a percentage for a fraction"))
    return mistakes + typed


def live_mistakes(expected: float, mistakes: Iterable[Mistake], figures: int | None) -> list[Mistake]:
    """The mistakes that can be diagnosed: those not within the (n − 1)-figure tolerance of ``expected``
    (or, for exact answers, not equal to it). A mistake that gives the right answer on this case is
    no mistake here."""
    near = figures - 1 if figures is not None else None
    return [m for m in mistakes if not _agrees(float(m.value), expected, near)]


def significant_figures(value: float) -> int:
    """How many significant figures ``value`` is written with, as Python writes it (trailing zeros of a
    whole number do not count: 1600 has 2, 6.0 has 1, 5.99 has 3, 0.0731 has 3; 0 has none)."""
    mantissa = repr(abs(float(value))).lower().split("e")[0].replace(".", "")
    return len(mantissa.strip("0"))


def rounded_too_early(value: float, expected: float, figures: int | None) -> int:
    """The number of significant figures ``value`` gives, when that is fewer than ``figures`` and ``value``
    is ``expected`` rounded to them (the student stopped too early); else 0."""
    if figures is None:
        return 0
    given = significant_figures(value)
    if not 0 < given < figures:
        return 0
    return given if math.isclose(value, float(f"{expected:.{given}g}"), rel_tol=1e-12, abs_tol=0.0) else 0


def matching_mistake(value: float, expected: float, mistakes: Iterable[Mistake], figures: int | None = None) -> str | None:
    """The message of the first live known mistake (see :func:`live_mistakes`) whose value ``value`` agrees
    with to ``figures`` significant figures (exactly when None), or None. Two mistakes may give the same
    number at some parameters; the first listed is named (the likelier: checkers list them so)."""
    for mistake in live_mistakes(expected, mistakes, figures):
        if _agrees(value, float(mistake.value), figures):
            return mistake.message
    return None


def check_choice(answer, options: Mapping[str, tuple[bool, str]], question: str = "", order: str | None = None) -> Feedback:
    """A multiple-choice question: ``options`` maps each letter to (is it right, what to say).

    Every option carries its own feedback, so a wrong choice says *why* it is wrong. ``order`` (a
    permutation of the letters, see :func:`choice_list`) is the order the prompt shows them in: the
    student's letter names the option shown at that place (with order "cab", answering "a" picks "c").
    """
    if answer is None or answer is Ellipsis:
        return Feedback(None, PLACEHOLDER)
    shown = _shown_letters(options, order)
    choices = ", ".join(f"'{key}'" for key in shown)
    if not isinstance(answer, str):
        # a letter typed without quotes is a Python name: the chapter's variable of that name (b = 1.0), or an error
        return Feedback(False, f"answer with a letter in quotes, one of {choices}: got {answer!r}, which is no letter. "
                               "Without quotes a letter is a Python name (a variable of the chapter's, such as b): "
                               "put the letter in quotes, e.g. answer = 'a'.")
    letter = answer.strip().strip("()").lower()
    if letter not in shown:
        return Feedback(False, f"answer with one of {choices}, got {answer!r}.")
    right, message = options[shown[letter]]
    return Feedback(right, message)


def _shown_letters(options: Mapping[str, Any], order: str | None) -> dict[str, str]:
    """Each letter the student sees, mapped to the option's own key."""
    keys = list(options)
    if order is None:
        return {key.lower(): key for key in keys}
    if sorted(order) != sorted(keys):
        raise ValueError(f"order must be a permutation of {''.join(keys)!r} (got {order!r})")
    return {shown.lower(): original for shown, original in zip(keys, order)}


def choice_list(choices: Mapping[str, str], order: str | None = None) -> str:
    """The options of a multiple-choice prompt as a Markdown list, "- (a) …", in ``order``.

    ``order`` is a permutation of the options' own letters: the option shown as (a) is ``order[0]``'s,
    and so on, so a homework can shuffle the options while its checker (given the same ``order``)
    still knows which one is right.
    """
    keys = list(choices)
    order = "".join(keys) if order is None else order
    if sorted(order) != sorted(keys):
        raise ValueError(f"order must be a permutation of {''.join(keys)!r} (got {order!r})")
    return "\n".join(f"- ({shown}) {choices[original]}" for shown, original in zip(keys, order))


def orders(keys: str) -> tuple[str, ...]:
    """Every order of the letters ``keys`` but their own: a choice exercise's homework shuffles."""
    return tuple("".join(p) for p in itertools.permutations(keys) if "".join(p) != keys)
