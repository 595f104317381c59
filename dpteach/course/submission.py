"""One submission graded, from the place its file was found to its :class:`dpteach.course.model.Record`.

The story of one notebook, each step a call one layer down, none returning to a step before it:

1. its file read and parsed once (:func:`dpteach.course.reading.read_submission`);
2. its chapter: the notebook's registration, else the assignment graded, else what its name says
   (:class:`dpteach.course.model.Place`, read by :mod:`dpteach.course.names` before the run);
3. the chapter's homework at its student's numbers (:func:`dpteach.course.manifest.homework`);
4. what may be wrong with whose or which it is (:func:`dpteach.course.identity.flags`);
5. its code cells run in a sandbox (:func:`dpteach.course.running.execute`);
6. each exercise judged at the student's numbers (:func:`dpteach.course.judging.grade_exercise`).
"""

from __future__ import annotations

import time

from . import sandbox
from .identity import flags
from .judging import grade_exercise
from .manifest import homework
from .model import GradingError, Place, Record
from .reading import read_submission
from .running import DEFAULT, Options, execute

__all__ = ["grade_submission"]


def grade_submission(place: Place, manifest: dict, options: Options = DEFAULT, assignment: str | None = None,
                     known: bool = False) -> Record:
    """Grade the notebook at ``place.path``; never raises for anything the submission does.

    ``place`` is whose the file is and which chapter its name says (:func:`dpteach.course.names.identify`; or,
    ``known``, the student Gradescope's metadata names): a file whose name names no student on the roster is not
    run, and its record has status ``unmatched`` and says why. The chapter is the notebook's registration;
    ``assignment`` is the chapter the instructor grades (``--chapter``): a notebook registered for another is
    graded as its own chapter and flagged.
    """
    started = time.monotonic()
    record = Record(id=place.id, file=place.path, isolation=options.isolation, late=bool(place.late))
    try:
        handed, unreadable = read_submission(place.path), ""
    except GradingError as error:
        handed, unreadable = None, str(error)
    registered = handed.registered if handed is not None and handed.registered in manifest["chapters"] else ""
    chapter = registered or assignment or place.chapter
    asked = homework(manifest, chapter, place.id if place.on_roster else None) if chapter else None
    if asked is not None:
        record = record.with_changes(chapter=chapter, possible=asked.possible)
    try:
        if handed is None or asked is None:
            raise GradingError(unreadable or "cannot tell which chapter this is (metadata dpteach.chapter is "
                               f"{handed.registered or None!r}, and the file name matches no chapter of the course)")
        if not place.on_roster:        # listed, never run
            whose = f" (the notebook says it was made for {handed.made_for!r})" if handed.made_for else ""
            return record.with_changes(status="unmatched", isolation="", reason=place.unmatched + whose,
                                       seconds=round(time.monotonic() - started, 2))
        seen, handed_in_as = flags(handed, place, manifest, asked, assignment, known)
        run = execute([(cell.number, cell.source) for cell in handed.cells],
                      [e.answer for e in asked.exercises if e.kind != "function"], options)
        questions = [grade_exercise(exercise, run.answers, handed, options, run.stopped_at)
                     for exercise in asked.exercises]
        reasons = ([place.late] if place.late else []) + ([run.stopped] if run.stopped else [])
        if handed.tampering:
            reasons.append("tampering with the grader seen (no effect on the verdicts): " + "; ".join(handed.tampering))
        record = record.with_changes(flags=seen, handed_in_as=handed_in_as, questions=questions,
                                     reason="; ".join(reasons),
                                     cells=[{"cell": number, "error": error} for number, error in run.errors])
    except GradingError as error:
        record = record.with_changes(status="error", reason=str(error))
    except sandbox.SandboxUnavailable:
        raise
    except Exception as error:   # the grader's own failure on this file: still a row, never the batch's end
        record = record.with_changes(status="error",
                                     reason=f"the grader failed on this file: {type(error).__name__}: {error}")
    if not place.on_roster:        # an unreadable file of no one on the roster: listed, no row
        record = record.with_changes(status="unmatched", reason=f"{place.unlisted}; and {record.reason}")
    return record.with_changes(seconds=round(time.monotonic() - started, 2))
