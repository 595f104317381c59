"""The grading core's shapes: what one graded submission is, and the one rule for its points.

A grading run (:func:`dpteach.course.grading.grade_all`) turns each submitted notebook into one
:class:`Record`; the gradebook, the LMS imports, the feedback pages and Gradescope's ``results.json`` read
records and nothing else. A record travels between processes and is stored as JSON (``feedback/*.json``
beside the gradebook), so :meth:`Record.to_json` and :meth:`Record.from_json` are its two faces, and every
record the grader writes, of a graded file, a lost one, a missing one or a stray entry, is made here, so
their keys cannot drift apart. Modelled on otter-grader's ``GradingResults`` (one result per notebook,
JSON in and out) and nbgrader's ``Gradebook`` records (a submission's status apart from its score).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace

from dpteach.exercises import KINDS

__all__ = ["KINDS", "STATUSES", "Exercise", "GradingError", "Assignment", "Place", "Record", "plain", "whole"]

#: A record's status: graded (``ok``), not gradable (``error``: 0 points, its reason says why), no notebook
#: (``missing``), or a file whose owner the grader could not name (``unmatched``: listed, graded into no row).
STATUSES = ("ok", "error", "missing", "unmatched")


class GradingError(Exception):
    """A submission that cannot be graded: it scores 0, and the message is its reason."""


def plain(value):
    """A value as JSON keeps it (a tuple becomes a list): how the course file and a notebook's line compare."""
    return json.loads(json.dumps(value))


def whole(points: float | Iterable[float]) -> int | float:
    """Points as the gradebook writes them: a sum (or one value) that is a whole number becomes an ``int``
    (``3``, not ``3.0``, in a CSV an LMS imports); any other stays a float (half points)."""
    total = points if isinstance(points, (int, float)) else sum(points)
    return int(total) if float(total).is_integer() else total


@dataclass(frozen=True)
class Place:
    """A submitted file's name, read once (:func:`dpteach.course.names.identify`): the file's ``path``, its owner's
    ``id`` ("" when no rule names one), the ``rule`` that named it (or why none did), whether the id is a student
    on the course's roster (``on_roster``: always, without a roster, when a rule named one), the LMS's ``name``
    for the student, what the LMS's name says about lateness (``late``, "" when nothing), and the chapter the
    name holds (``chapter``: else the course's only chapter, else "")."""

    path: str
    id: str
    rule: str
    on_roster: bool = True
    name: str = ""
    late: str = ""
    chapter: str = ""

    @property
    def unlisted(self) -> str:
        """Why the file is graded into no row (with a roster, when ``on_roster`` is False)."""
        return f"{self.id!r} is on no row of the roster" if self.id else f"no rule names whose it is: {self.rule}"

    @property
    def unmatched(self) -> str:
        """The reason of its record when it is not graded for that (:attr:`unlisted`)."""
        if self.id:
            return (f"not graded: {self.id!r} (from {self.rule}) is on no row of the roster; rename the file after "
                    "its student's id and grade it again")
        return f"not graded: no rule names whose it is: {self.rule}"

    def with_changes(self, **changes) -> Place:
        """A copy with ``changes``."""
        return replace(self, **changes)


@dataclass(frozen=True)
class Exercise:
    """One exercise of a chapter's homework as one student is asked it: its ``name``, ``kind`` (:data:`KINDS`),
    the ``answer`` variable or function it is handed in as, its ``checker``'s name, the student's ``params``
    (their numbers) and its ``parts`` (each ``{"part": what, "points": n}``)."""

    name: str
    kind: str
    answer: str
    checker: str
    params: Mapping = field(default_factory=dict)
    parts: tuple[dict, ...] = ()

    @property
    def points(self) -> int | float:
        """What the exercise is out of: the sum of its parts' points."""
        return whole(part["points"] for part in self.parts)


@dataclass(frozen=True)
class Assignment:
    """A chapter's homework as one student is asked it (:func:`dpteach.course.manifest.homework`): the ``chapter``
    and its ``exercises``, each at the student's own numbers."""

    chapter: str
    exercises: tuple[Exercise, ...] = ()

    @property
    def possible(self) -> int | float:
        """The points the homework is out of."""
        return whole(exercise.points for exercise in self.exercises)

    #: with a roster, the numbers every other student's notebook of the chapter registers (id → numbers)
    classmates: Mapping[str, dict] = field(default_factory=dict)

    @property
    def numbers(self) -> dict[str, dict]:
        """The numbers its notebook registers (checker → parameters, as :func:`plain` data; exercises without
        numbers left out)."""
        return {exercise.checker: plain(exercise.params) for exercise in self.exercises if exercise.params}


@dataclass(frozen=True)
class Record:
    """One submission as graded: whose (``id``, as the grader decided it: never read from the notebook), which
    file and chapter, its status and reason, its questions (each a dict: the exercise, its parts and points,
    the verdict and message) and what the run saw (cells that raised, flags, the sandbox used, seconds).

    ``total`` is the questions' points (:func:`whole`), 0 unless the status is ``ok``; ``possible`` the chapter's.
    A record is frozen: a later step (an override, a tampering verdict) makes a new one with :meth:`with_changes`."""

    id: str
    file: str = ""
    chapter: str = ""
    status: str = "ok"
    reason: str = ""
    questions: tuple[dict, ...] = ()
    possible: int | float = 0
    seconds: float = 0.0
    isolation: str = ""
    cells: tuple[dict, ...] = ()
    flags: tuple[str, ...] = ()
    late: bool = False
    handed_in_as: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES} (got {self.status!r})")
        for name in ("questions", "cells", "flags"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    @property
    def total(self) -> int | float:
        """The points earned: the sum of its questions' points if it was graded (status ``ok``), else 0."""
        if self.status != "ok":
            return 0
        return whole(question["points"] for question in self.questions)

    def overridden(self, overrides: Mapping[tuple[str, str, str], tuple[float, str]]) -> Record:
        """The record with an instructor's ``overrides`` (``(id, chapter, exercise) → (points, reason)``, as
        :func:`dpteach.course.overrides.read_overrides` reads them) applied to its questions: each changed
        question's ``points`` replaced and its ``override`` the reason ("-" when none)."""
        mine = {name: change for (sid, chapter, name), change in overrides.items()
                if sid == self.id and chapter == self.chapter}
        if not mine or not self.questions:
            return self
        return self.with_changes(questions=[
            dict(q, points=mine[q["exercise"]][0], override=mine[q["exercise"]][1] or "-") if q["exercise"] in mine
            else q for q in self.questions])

    def with_changes(self, **changes) -> Record:
        """A copy with ``changes`` (the record itself never changes)."""
        return replace(self, **changes)

    def to_json(self) -> dict:
        """The record as stored and as every front end reads it: its fields (tuples as lists) and ``total``."""
        data = asdict(self)
        for name in ("questions", "cells", "flags"):
            data[name] = list(data[name])
        data["total"] = self.total
        return data

    @classmethod
    def from_json(cls, data: Mapping) -> Record:
        """A stored record read back (its ``total`` recomputed from its questions); a key it does not know is
        refused."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known - {"total"}
        if unknown:
            raise ValueError(f"data must hold only a record's keys {sorted(known | {'total'})} (got {sorted(unknown)})")
        if "id" not in data:
            raise ValueError("data must hold a record's id (got no 'id' key)")
        return cls(**{key: value for key, value in data.items() if key in known})
