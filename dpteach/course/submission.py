"""One submission judged: each exercise part by part at its student's numbers (step d of
:mod:`dpteach.course.grading`'s list), and the record of a whole notebook (:func:`grade_submission`).
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Sequence
from pathlib import Path

from ..exercises import OVERWRITTEN, overwritten_in
from . import sandbox
from .functions import SandboxedFunction
from .identity import chapter_flag, flags, identify
from .manifest import chapter_of, checker, forbidden_names, params_for, parts, place, points
from .manifest import possible as chapter_possible
from .model import GradingError, Record, whole
from .reading import allowed_helpers, function_source, library_route, out_of_bounds, read_notebook, tampering
from .running import DEFAULT, Options, execute

# -- verdicts --------------------------------------------------------------------------------

def _verdict(function, answer, params: dict) -> tuple[bool | None, str]:
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


def grade_exercise(exercise: dict, answers: dict, notebook: dict, options: Options, before: int | None = None,
                   params: dict | None = None) -> dict:
    """One question's points, part by part, and its messages, at ``params`` (the student's numbers; the
    exercise's own without); a function answer is read from the cells numbered below ``before``."""
    function = checker(exercise["checker"])
    params = dict(exercise.get("params", {}) if params is None else params)
    scored = parts(exercise)
    possible = points(exercise)
    result = {"exercise": exercise["name"], "answer": exercise["answer"], "kind": exercise["kind"],
              "possible": possible, "points": 0, "parts": [dict(part, earned=0) for part in scored]}

    def earn(*given: bool) -> None:
        for part, got in zip(result["parts"], given):
            part["earned"] = part["points"] if got else 0
        result["points"] = whole(part["earned"] for part in result["parts"])

    if exercise["kind"] != "function":
        correct, message = _verdict(function, answers.get(exercise["answer"]), params)
        result.update(correct=correct, message=message)
        earn(bool(correct))
        return result
    try:
        source = function_source(notebook, exercise["answer"], before)
        bounds = out_of_bounds(source) if source is not None else None
    except (GradingError, SyntaxError) as error:
        result.update(correct=False, message=str(error), strict="")
        return result
    if source is None:
        correct, message = _verdict(function, None, params)
        result.update(correct=correct, message=message, strict="")
        return result
    if overwritten_in(source, exercise["answer"]):     # the def, then the chapter's `name = ...` below it
        result.update(correct=False, strict="", message=OVERWRITTEN.format(name=exercise["answer"]))
        return result
    if bounds is not None:
        result.update(correct=False, strict="", message=(
            f"not run: {bounds}, which reaches the interpreter's insides. A mechanism needs only numpy and math; "
            "the grader does not run a function whose cell inspects or changes the Python running it."))
        return result
    forbidden = forbidden_names(exercise["checker"])
    sandboxed = SandboxedFunction(source, exercise["answer"], time_limit=options.function_timeout,
                                  memory_mb=min(options.memory_mb, 2048), forbidden=forbidden,
                                  isolation=options.isolation, allow_library=True)
    correct, message = _verdict(function, sandboxed, params)
    forbidden = forbidden_names(exercise["checker"], sandboxed)
    from dpteach.exercises import EXERCISES
    spec = EXERCISES.get(exercise["checker"])
    route = library_route(source, forbidden, _originals(forbidden), allowed_helpers(spec.render() if spec else ""))
    strict = (f"{route}: this exercise asks you to write it yourself, with numpy and math only (no dpteach, no "
              "other library's sampler).") if route else "written by hand: numpy and math only."
    result.update(correct=correct, message=message, strict=strict)
    earn(bool(correct), bool(correct) and not route)
    return result


def grade_submission(path: str | Path, manifest: dict, options: Options = DEFAULT, student: str | None = None,
                     root: str | Path | None = None, assignment: str | None = None) -> dict:
    """Grade one notebook; never raises for anything the submission does.

    The student is ``student`` when the caller knows it (Gradescope's metadata), else read from where the file
    was found in ``root``, the folder the instructor named (:func:`dpteach.course.identity.identify`): a file that
    matches no rule, or (with a roster) no student on it, is not run, and its record has status ``unmatched``
    and says why. The chapter is the notebook's registration; ``assignment`` is the chapter the instructor
    grades (``--chapter``): a notebook registered for another is graded as its own chapter and flagged.
    """
    path = Path(path)
    started = time.monotonic()
    found = place(path, manifest, options.pattern, root)
    sid, on_roster = (student, True) if student is not None else identify(path, manifest, options.pattern, root=root)
    late = found.late if student is None else ""
    record = Record(id=sid, file=str(path), isolation=options.isolation, late=bool(late)).to_json()
    try:
        notebook = read_notebook(path)
        meta = notebook.get("metadata", {}).get("dpteach", {})
        registered = meta.get("chapter") if isinstance(meta, dict) else None
        registered = registered if registered in manifest["chapters"] else ""
        record["chapter"] = chapter = registered or assignment or chapter_of(notebook, path, manifest)
        record["possible"] = chapter_possible(manifest, chapter)
        if not on_roster:
            made_for = meta.get("student") if isinstance(meta, dict) else None
            whose = (f" (the notebook says it was made for {made_for!r})" if isinstance(made_for, str) and made_for
                     else "")
            record.update(status="unmatched", isolation="", reason=(
                f"not graded: {sid!r} (from {found.rule}) is on no row of the roster; rename the file after its "
                f"student's id and grade it again" + whose) if sid else (
                f"not graded: no rule names whose it is: {found.rule}" + whose),
                          seconds=round(time.monotonic() - started, 2))
            return Record.from_json(record).to_json()
        handed_in_as = (assignment, "the assignment graded") if assignment else (found.chapter, "its file's name")
        mismatch = chapter_flag(registered, *handed_in_as) if student is None else ""
        exercises = manifest["chapters"][chapter].get("exercises", [])
        record["flags"] = flags(notebook, sid, manifest, chapter) + ([mismatch] if mismatch else [])
        record["handed_in_as"] = handed_in_as[0] if mismatch else ""
        notes = tampering(notebook)
        run = execute(notebook, [e["answer"] for e in exercises if e["kind"] != "function"], options)
        record["cells"] = [{"cell": number, "error": error} for number, error in run.errors]
        record["questions"] = [grade_exercise(exercise, run.answers, notebook, options, run.stopped_at,
                                              params_for(manifest, sid, chapter, exercise)) for exercise in exercises]
        reasons = [run.stopped] if run.stopped else []
        if notes:
            reasons.append("tampering with the grader seen (no effect on the verdicts): " + "; ".join(notes))
        record["reason"] = "; ".join(([late] if late else []) + reasons)
    except GradingError as error:
        record.update(status="error", reason=str(error))
        if not record["chapter"]:     # unreadable: its chapter from the file name, so its points still count as possible
            try:
                record["chapter"] = assignment or chapter_of({}, path, manifest)
                record["possible"] = chapter_possible(manifest, record["chapter"])
            except GradingError:
                pass
    except sandbox.SandboxUnavailable:
        raise
    except Exception as error:   # the grader's own failure on this file: still a row, never the batch's end
        record.update(status="error", reason=f"the grader failed on this file: {type(error).__name__}: {error}")
    if not on_roster and record["status"] == "error":     # an unreadable file of no one on the roster: listed, no row
        whose = f"{sid!r} is on no row of the roster" if sid else f"no rule names whose it is: {found.rule}"
        record.update(status="unmatched", reason=f"{whose}; and {record['reason']}")
    record["seconds"] = round(time.monotonic() - started, 2)
    return Record.from_json(record).to_json()
