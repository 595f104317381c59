"""The machinery every exercise checker shares: a verdict, numeric answers that recognise the
common mistakes, multiple-choice questions, and functions the student writes.

A checker takes the student's answer and returns a :class:`Feedback`, which shows as a
coloured box in a notebook and as one line of text elsewhere. The expected answer is
computed with dpteach itself (by enumeration or by formula), never typed in.

A wrong answer is compared with the answers that the usual mistakes produce (log10 for ln,
forgetting to divide by ε, the variance b² for 2b², …), so the feedback can name the mistake
instead of only saying "incorrect". A wrong message never prints the expected value.
"""

from __future__ import annotations

import html
import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

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
    theorem has ``ln``); ``message`` names the mistake without giving the right answer away.
    """

    value: float
    message: str


def as_number(answer) -> float | None | Feedback:
    """The answer as a finite float; None if not answered yet; a ❌ Feedback if it is no number."""
    if answer is None or answer is Ellipsis:
        return None
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        return Feedback(False, f"the answer should be a number, got {answer!r}.")
    value = float(answer)
    if not math.isfinite(value):
        return Feedback(False, f"the answer should be a finite number, got {answer!r}.")
    return value


def compare(answer, expected: float, why: str, hint: str, rel: float = 1e-6, abs_tol: float = 1e-9,
            mistakes: Iterable[Mistake] = ()) -> Feedback:
    """✅ with ``why`` if ``answer`` is ``expected`` (to ``rel``); else ❌ naming the mistake it matches.

    A wrong answer is looked up among ``mistakes`` (to the same tolerance, or 1e-3 relative if
    looser); if none matches, the generic ``hint`` is given. A mistake whose value equals the
    expected one is ignored (it would never be reached).
    """
    value = as_number(answer)
    if value is None:
        return Feedback(None, PLACEHOLDER)
    if isinstance(value, Feedback):
        return value
    if math.isclose(value, expected, rel_tol=rel, abs_tol=abs_tol):
        return Feedback(True, why)
    named = matching_mistake(value, expected, mistakes, rel=max(rel, 1e-3), abs_tol=abs_tol, right_rel=rel)
    if named is not None:
        return Feedback(False, f"{value:g} is not it: {named}")
    return Feedback(False, f"{value:g} is not it. {hint}")


def matching_mistake(value: float, expected: float, mistakes: Iterable[Mistake], rel: float = 1e-9,
                     abs_tol: float = 1e-12, right_rel: float = 1e-9) -> str | None:
    """The message of the first known mistake that produces ``value`` (to ``rel``), or None.

    A mistake whose value equals the expected one (to ``right_rel``) on this case is skipped:
    the student who gives it is right here, whatever they did.
    """
    for mistake in mistakes:
        if math.isclose(mistake.value, expected, rel_tol=right_rel, abs_tol=abs_tol):
            continue
        if math.isclose(value, mistake.value, rel_tol=rel, abs_tol=abs_tol):
            return mistake.message
    return None


def check_choice(answer, options: Mapping[str, tuple[bool, str]], question: str = "") -> Feedback:
    """A multiple-choice question: ``options`` maps each letter to (is it right, what to say).

    Every option carries its own feedback, so a wrong choice says *why* it is wrong.
    """
    if answer is None or answer is Ellipsis:
        return Feedback(None, PLACEHOLDER)
    letter = str(answer).strip().strip("()").lower()
    keys = {key.lower(): key for key in options}
    if letter not in keys:
        choices = ", ".join(f"'{key}'" for key in options)
        return Feedback(False, f"answer with one of {choices}, got {answer!r}.")
    right, message = options[keys[letter]]
    return Feedback(right, message)


@dataclass(frozen=True)
class Case:
    """One hidden test case for a function the student writes.

    ``args``/``kwargs`` are passed to the student's function; ``expected`` is what the
    reference gives (computed by the checker with dpteach); ``label`` says in words what the
    case exercises, and is what the student is told when it fails.
    """

    label: str
    args: tuple = ()
    kwargs: Mapping[str, Any] | None = None
    expected: Any = None


class _ForbiddenCall(Exception):
    """Raised inside a check when the student's function calls the dpteach function it should write."""


def check_function(function, cases: Sequence[Case], task: str, success: str,
                   same: Callable[[Any, Any], bool] | None = None,
                   forbidden: Sequence[str] = (), describe: Callable[[Case, Any], str] | None = None) -> Feedback:
    """Run the student's ``function`` on hidden ``cases``; say which case fails, and how.

    ``same(got, expected)`` decides a case (default: numbers equal to 1e-9 relative, arrays
    elementwise). ``forbidden`` names dpteach functions the student must not call (the ones
    the exercise asks them to write): while the cases run, ``dpteach.<name>`` raises, and the
    feedback says so. ``describe(case, got)`` may explain a failure further.
    """
    if function is None or function is Ellipsis:
        return Feedback(None, f"Not answered yet: write {task} and run the cell again.")
    if not callable(function):
        return Feedback(False, f"the answer should be a function (def ...), got {function!r}.")
    same = same or _same
    import dpteach
    saved = {name: getattr(dpteach, name) for name in forbidden}

    def refuse(name):
        def call(*args, **kwargs):
            raise _ForbiddenCall(name)
        return call

    try:
        for name in forbidden:
            setattr(dpteach, name, refuse(name))
        for number, case in enumerate(cases, 1):
            try:
                got = function(*case.args, **(case.kwargs or {}))
            except _ForbiddenCall as called:
                return Feedback(False, f"your function calls dp.{called}, which is what this exercise asks you to "
                                       "write yourself: use numpy and the formula.")
            except Exception as error:   # the student's code: any error is feedback, never a traceback
                return Feedback(False, f"case {number} of {len(cases)} ({case.label}) raised "
                                       f"{type(error).__name__}: {error}")
            try:
                ok = same(got, case.expected)
            except Exception:
                ok = False
            if not ok:
                extra = describe(case, got) if describe else ""
                return Feedback(False, f"case {number} of {len(cases)} ({case.label}) gave {_short(got)}, which is "
                                       f"not right.{' ' + extra if extra else ''}")
    finally:
        for name, value in saved.items():
            setattr(dpteach, name, value)
    return Feedback(True, f"all {len(cases)} hidden cases pass. {success}")


def _same(got, expected) -> bool:
    got_array = np.asarray(got, dtype=float)
    expected_array = np.asarray(expected, dtype=float)
    return got_array.shape == expected_array.shape and bool(
        np.allclose(got_array, expected_array, rtol=1e-9, atol=1e-12, equal_nan=False))


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def strict_check(checker: Callable[..., Feedback], *args, **kwargs) -> Feedback:
    """Run ``checker`` as a grader does: as in the notebook, and stricter about forbidden calls.

    In the notebook, :func:`check_function` refuses a student's function that calls the dpteach
    function it should write as ``dp.<name>(...)``. A grader also refuses one that reaches it under
    another name (``from dpteach import <name>``, ``f = dp.<name>``, a default argument, a helper
    of the student's that calls it): before the hidden cases run, the function's code (and that of
    the student's functions it calls) is read for the forbidden names. The feedback is otherwise
    the checker's own, word for word.
    """
    namespace = getattr(checker, "__globals__", {})
    inner = namespace.get("check_function")
    if inner is None:
        return checker(*args, **kwargs)

    def scanning(function, cases, task, success, same=None, forbidden=(), describe=None):
        reached = _reaches_forbidden(function, forbidden) if callable(function) else None
        if reached:
            return Feedback(False, f"your function calls dp.{reached}, which is what this exercise asks you to "
                                   "write yourself: use numpy and the formula.")
        return inner(function, cases, task, success, same=same, forbidden=forbidden, describe=describe)

    namespace["check_function"] = scanning
    try:
        return checker(*args, **kwargs)
    finally:
        namespace["check_function"] = inner


def _reaches_forbidden(function, forbidden: Sequence[str]) -> str | None:
    """The forbidden dpteach name that ``function`` reaches (directly or through the student's helpers), or None."""
    import dis
    import types

    import dpteach
    originals = {id(getattr(dpteach, name)): name for name in forbidden if hasattr(dpteach, name)}
    seen: set[int] = set()

    def visit(obj) -> str | None:
        if id(obj) in originals:
            return originals[id(obj)]
        if isinstance(obj, types.MethodType):
            obj = obj.__func__
        if not isinstance(obj, types.FunctionType) or id(obj) in seen:
            return None
        if (obj.__module__ or "").startswith("dpteach"):
            return None
        seen.add(id(obj))
        bound = list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values())
        bound += [cell.cell_contents for cell in (obj.__closure__ or ()) if _has_contents(cell)]
        for value in bound:
            found = visit(value)
            if found:
                return found
        codes = [obj.__code__]
        while codes:
            code = codes.pop()
            codes.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
            for instruction in dis.get_instructions(code):
                name = instruction.argval
                if not isinstance(name, str):
                    continue
                if instruction.opname in ("LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM") and name in forbidden:
                    return name
                if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") and name in obj.__globals__:
                    found = visit(obj.__globals__[name])
                    if found:
                        return found
        return None

    return visit(function)


def _has_contents(cell) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:   # an empty cell: a name the function closes over, not assigned yet
        return False
    return True
