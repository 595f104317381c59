"""One exercise judged: its answer by its checker at the student's numbers, part by part (step d of
:mod:`dpteach.course.grading`'s contract). A function answer is read from the submission's cells
(:class:`dpteach.course.reading.Handed`), run on the checker's hidden cases in a sandbox of its own
(:mod:`dpteach.course.functions`), and read for whether it is written by hand (:mod:`dpteach.course.reach`).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Mapping, Sequence

from ..exercises import EXERCISES, OVERWRITTEN, overwritten_in
from .functions import SandboxedFunction
from .model import Exercise, GradingError, whole
from .reach import allowed_helpers, library_route, out_of_bounds

__all__ = ["checker", "forbidden_names", "grade_exercise"]


def checker(name: str):
    """The registered checker called ``name`` (``dpteach.exercises.EXERCISES``, else the module's attribute)."""
    import dpteach.exercises as exercises
    spec = getattr(exercises, "EXERCISES", {}).get(name)
    function = getattr(spec, "checker", None) or getattr(exercises, name, None)
    if not (isinstance(name, str) and name.startswith("check_") and callable(function)):
        raise ValueError(f"checker must name a dpteach.exercises checker (got {name!r})")
    return function


def forbidden_names(name: str, sandboxed: SandboxedFunction | None = None) -> tuple[str, ...]:
    """The dpteach functions a function exercise may not reach: from its spec, from what its checker
    passed to the sandbox, or from the ``forbidden=`` its checker's source passes to check_function."""
    import dpteach.exercises as exercises
    spec = getattr(exercises, "EXERCISES", {}).get(name)
    if getattr(spec, "forbidden", None):
        return tuple(spec.forbidden)
    if sandboxed is not None and sandboxed.forbidden_seen:
        return tuple(sandboxed.forbidden_seen)
    try:
        tree = ast.parse(inspect.getsource(checker(name)))
    except (OSError, TypeError, SyntaxError):
        return ()
    for node in ast.walk(tree):
        for keyword in getattr(node, "keywords", []) if isinstance(node, ast.Call) else []:
            if keyword.arg == "forbidden":
                try:
                    return tuple(ast.literal_eval(keyword.value))
                except ValueError:
                    return ()
    return ()


def _verdict(function, answer, params: Mapping) -> tuple[bool | None, str]:
    try:
        feedback = function(answer, **params)
    except Exception as error:   # a checker that cannot judge this answer: no point, and say so
        return False, f"the checker could not judge this answer ({type(error).__name__}: {error})"
    correct = getattr(feedback, "correct", None)
    return (correct if isinstance(correct, bool) else None), str(getattr(feedback, "message", feedback))


def _originals(names: Sequence[str]) -> dict[str, str]:
    """The source of each forbidden dpteach function (a student's cell holding a copy of one is no hand work)."""
    import dpteach
    found = {}
    for name in names:
        try:
            found[name] = inspect.getsource(getattr(dpteach, name))
        except (AttributeError, OSError, TypeError):
            continue
    return found


def grade_exercise(exercise: Exercise, answers: Mapping, handed, options, before: int | None = None) -> dict:
    """One question of a record: its points, part by part, and its messages, at ``exercise.params`` (the
    student's numbers). ``answers`` are the run's values by name; a function answer is read from ``handed``'s
    cells numbered below ``before`` (the cell the run stopped at, if it stopped)."""
    function = checker(exercise.checker)
    params = dict(exercise.params)
    result = {"exercise": exercise.name, "answer": exercise.answer, "kind": exercise.kind,
              "possible": exercise.points, "points": 0, "parts": [dict(part, earned=0) for part in exercise.parts]}

    def earn(*given: bool) -> None:
        for part, got in zip(result["parts"], given):
            part["earned"] = part["points"] if got else 0
        result["points"] = whole(part["earned"] for part in result["parts"])

    if exercise.kind != "function":
        correct, message = _verdict(function, answers.get(exercise.answer), params)
        result.update(correct=correct, message=message)
        earn(bool(correct))
        return result
    try:
        source = handed.function_source(exercise.answer, before)
        bounds = out_of_bounds(source) if source is not None else None
    except (GradingError, SyntaxError) as error:
        result.update(correct=False, message=str(error), strict="")
        return result
    if source is None:
        correct, message = _verdict(function, None, params)
        result.update(correct=correct, message=message, strict="")
        return result
    if overwritten_in(source, exercise.answer):     # the def, then the chapter's `name = ...` below it
        result.update(correct=False, strict="", message=OVERWRITTEN.format(name=exercise.answer))
        return result
    if bounds is not None:
        result.update(correct=False, strict="", message=(
            f"not run: {bounds}, which reaches the interpreter's insides. A mechanism needs only numpy and math; "
            "the grader does not run a function whose cell inspects or changes the Python running it."))
        return result
    sandboxed = SandboxedFunction(source, exercise.answer, time_limit=options.function_timeout,
                                  memory_mb=min(options.memory_mb, 2048), forbidden=forbidden_names(exercise.checker),
                                  isolation=options.isolation, allow_library=True)
    correct, message = _verdict(function, sandboxed, params)
    forbidden = forbidden_names(exercise.checker, sandboxed)
    spec = EXERCISES.get(exercise.checker)
    route = library_route(source, forbidden, _originals(forbidden), allowed_helpers(spec.render() if spec else ""))
    strict = (f"{route}: this exercise asks you to write it yourself, with numpy and math only (no dpteach, no "
              "other library's sampler).") if route else "written by hand: numpy and math only."
    result.update(correct=correct, message=message, strict=strict)
    earn(bool(correct), bool(correct) and not route)
    return result
