"""Functions a student writes, run on hidden cases: here, or through ``run_cases`` in a sandboxed grading
process (:func:`check_function`), with the dpteach functions the exercise asks them to write refused.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._feedback import Feedback


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


#: What the label of a case a grader draws afresh begins with (beside an exercise's fixed cases).
DRAWN = "a case drawn for this grading"
#: How many cases a grader draws afresh for each function exercise, after its fixed ones.
FRESH_CASES = 3


def grading_draws(function):
    """A ``random.SystemRandom`` when ``function`` is held by a grader, else None.

    A function with ``run_cases`` runs in a sandboxed grading process (:func:`check_function`); its checker then
    adds :data:`FRESH_CASES` cases drawn from the operating system's entropy in the grader's process, which the
    student's code never reaches, so that no table of the fixed cases passes (the fixed cases are in every student's
    installed copy of dpteach). In a notebook (None) the checker runs its fixed cases only, and says so.
    """
    import random
    return random.SystemRandom() if hasattr(function, "run_cases") else None


class _ForbiddenCall(Exception):
    """Raised inside a check when the student's function calls the dpteach function it should write."""


def to_plain(value):
    """``value`` as plain data: None, bool, int, float, str, numeric/bool numpy arrays, and lists,
    tuples and dicts of these (numpy scalars become Python numbers). What a runner returns, and
    what a grading process may send back from a student's function. Raises TypeError otherwise."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise TypeError(f"an array of dtype {value.dtype} is not a numeric array")
        return np.array(value)
    if isinstance(value, (list, tuple)):
        return type(value)(to_plain(item) for item in value)
    if isinstance(value, dict):
        return {str(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError(f"a {type(value).__name__} is not a number or an array")


def run_in_process(function, cases: Sequence[Case], runner: Callable | None = None,
                   forbidden: Sequence[str] = ()):
    """Yield ``(status, value)`` per case, running ``function`` here, as a grading process would there.

    ``("ok", plain data)`` | ``("error", "TypeError: msg")`` | ``("forbidden", name)``. While the cases
    run, each ``dpteach.<name>`` in ``forbidden`` raises instead of computing. The caller may stop
    early; the dpteach names are restored when the generator ends or is closed.
    """
    import dpteach
    saved = {name: getattr(dpteach, name) for name in forbidden if hasattr(dpteach, name)}

    def refuse(name):
        def call(*args, **kwargs):
            raise _ForbiddenCall(name)
        return call

    try:
        for name in saved:
            setattr(dpteach, name, refuse(name))
        for case in cases:
            try:
                if runner is None:
                    got = function(*case.args, **(case.kwargs or {}))
                else:
                    got = runner(function, *case.args, **(case.kwargs or {}))
                outcome = ("ok", to_plain(got))
            except _ForbiddenCall as called:
                outcome = ("forbidden", str(called))
            except Exception as error:   # the student's code: any error is feedback, never a traceback
                outcome = ("error", f"{type(error).__name__}: {error}")
            yield outcome
    finally:
        for name, value in saved.items():
            setattr(dpteach, name, value)


def check_function(function, cases: Sequence[Case], task: str, success: str,
                   same: Callable[[Any, Any], bool] | None = None,
                   forbidden: Sequence[str] = (), describe: Callable[[Case, Any], str] | None = None,
                   runner: Callable | None = None) -> Feedback:
    """Run the student's ``function`` on hidden ``cases``; say which case fails, and how.

    ``runner`` (None, or a module-level function ``runner(function, *args, **kwargs)`` returning plain
    data, see :func:`to_plain`) runs one case; without it the case is the call ``function(*args,
    **kwargs)``. ``same(got, expected)`` decides a case on what the runner (or the call) returned
    (default: numbers equal to 1e-9 relative, arrays elementwise), and ``describe(case, got)`` may
    explain a failure further. ``forbidden`` names dpteach functions the student must not call (the
    ones the exercise asks them to write): in this process ``dpteach.<name>`` raises while the cases
    run, and the feedback says so.

    A ``function`` with a ``run_cases`` attribute (a student's function held in a sandboxed grading
    process) is not called here: ``function.run_cases(cases, runner, forbidden)`` returns, in the
    order of ``cases`` (and may stop early), one ``(status, value)`` per case run: ``("ok", plain
    data)``, ``("error", "TypeError: msg")``, ``("forbidden", name)``, ``("timeout", "")`` or
    ``("memory", "")``; they are judged exactly as outcomes in this process are.
    """
    if function is None or function is Ellipsis or _is_stub(function):
        return Feedback(None, f"Not answered yet: write {task} and run the cell again.")
    sandboxed = hasattr(function, "run_cases")
    if not sandboxed and not callable(function):
        return Feedback(False, f"the answer should be a function (def ...), got {function!r}.")
    same = same or _same
    if sandboxed:
        outcomes = iter(function.run_cases(cases, runner, tuple(forbidden)))
    else:
        outcomes = run_in_process(function, cases, runner, tuple(forbidden))
    judged = 0
    try:
        for number, (case, (status, got)) in enumerate(zip(cases, outcomes), 1):
            judged = number
            where = f"case {number} of {len(cases)} ({case.label})"
            if status == "forbidden":
                return Feedback(False, f"your function calls dp.{got}, which is what this exercise asks you to "
                                       "write yourself: use numpy and the formula.")
            if status == "error":
                return Feedback(False, f"{where} raised {got}")
            if status == "timeout":
                return Feedback(False, f"{where} took longer than the time limit: look for a loop that never ends "
                                       "or far more work than the case needs.")
            if status == "memory":
                return Feedback(False, f"{where} used more memory than the limit: look for an array far larger "
                                       "than the case needs.")
            if status != "ok":
                return Feedback(False, f"{where} could not be run ({status}).")
            try:
                ok = bool(same(got, case.expected))
            except Exception:
                ok = False
            if not ok:
                try:
                    extra = describe(case, got) if describe else ""
                except Exception:
                    extra = ""
                if isinstance(got, dict):
                    return Feedback(False, f"{where}: {extra or 'not right.'}")
                return Feedback(False, f"{where} gave {_short(got)}, which is not right.{' ' + extra if extra else ''}")
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:
            close()
    if judged < len(cases):
        return Feedback(False, f"only {judged} of the {len(cases)} hidden cases could be run.")
    return Feedback(True, f"all {len(cases)} hidden cases pass. {success}")


def _same(got, expected) -> bool:
    got_array = np.asarray(got, dtype=float)
    expected_array = np.asarray(expected, dtype=float)
    return got_array.shape == expected_array.shape and bool(
        np.allclose(got_array, expected_array, rtol=1e-9, atol=1e-12, equal_nan=False))


def _is_stub(function) -> bool:
    """True for the chapter's stub as given: a ``def`` whose body is only ``...`` (and a docstring).

    The source is the sandbox's (``function.source``) or, in a notebook, the one the cell registered;
    without a source the function is judged on its cases.
    """
    import ast
    import textwrap

    name = getattr(function, "__name__", None)
    source = getattr(function, "source", None)
    if not isinstance(source, str):
        try:
            source = textwrap.dedent(inspect.getsource(function))
        except (OSError, TypeError):
            return False
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            body = [n for n in node.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
                                                and isinstance(n.value.value, str))]
            return (len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and body[0].value.value is Ellipsis)
    return False


def _short(value) -> str:
    """A student's output as a student would write it: numbers plainly (9.39, not np.float64(9.39))."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return f"{float(value):.6g}"
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

    def scanning(function, cases, task, success, same=None, forbidden=(), describe=None, runner=None):
        reached = _reaches_forbidden(function, forbidden) if callable(function) else None
        if reached:
            return Feedback(False, f"your function calls dp.{reached}, which is what this exercise asks you to "
                                   "write yourself: use numpy and the formula.")
        return inner(function, cases, task, success, same=same, forbidden=forbidden, describe=describe,
                     runner=runner)

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
