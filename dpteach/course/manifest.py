"""The course manifest: what is graded, and at whose numbers.

The manifest (``instructor/course.json``, written by :mod:`dpteach.course.assign`) lists each
chapter's exercises with their kind, points, checker and the course's parameters; it is checked
before anything runs (:func:`load_manifest`). A chapter's homework as one student is asked it is a
:class:`dpteach.course.model.Assignment` (:func:`homework`). Whose a file is, and which chapter its
name says: :mod:`dpteach.course.names`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from .judging import checker
from .model import KINDS, Assignment, Exercise, whole

# -- the course manifest ----------------------------------------------------------------------

def load_manifest(path: str | Path) -> dict:
    """The course manifest, checked: every exercise has a known kind, parts with points, and a checker
    dpteach has; with a roster, every student has numbers for every exercise."""
    try:
        manifest = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"course manifest {path} cannot be read: {error}") from None
    chapters = manifest.get("chapters") if isinstance(manifest, dict) else None
    if not isinstance(chapters, dict) or not chapters:
        raise ValueError(f"course manifest {path}: 'chapters' must be a non-empty object")
    students = manifest.get("students")
    if students is not None and (not isinstance(students, dict) or not students):
        raise ValueError(f"course manifest {path}: 'students' must be a non-empty object when given (the roster)")
    for chapter, entry in chapters.items():
        for exercise in entry.get("exercises", []):
            where = f"course manifest {path}, {chapter}/{exercise.get('name')}"
            if exercise.get("kind") not in KINDS:
                raise ValueError(f"{where}: kind must be one of {KINDS} (got {exercise.get('kind')!r})")
            if not str(exercise.get("answer", "")).isidentifier():
                raise ValueError(f"{where}: answer must be a Python name (got {exercise.get('answer')!r})")
            if not isinstance(exercise.get("params", {}), dict):
                raise ValueError(f"{where}: params must be an object (got {exercise.get('params')!r})")
            try:
                parts(exercise)
            except (TypeError, ValueError, KeyError) as error:
                raise ValueError(f"{where}: {error}") from None
            checker(exercise["checker"])
            for student, record in (students or {}).items():
                given = record.get("params", {}).get(chapter, {}).get(exercise["name"]) if isinstance(record, dict) else None
                if not isinstance(given, dict):
                    raise ValueError(f"{where}: student {student!r} has no numbers for it (params.{chapter}."
                                     f"{exercise['name']} must be an object)")
    return manifest


#: An exercise's parts when the course file lists none: 1 point for a number or a letter; for a function,
#: 1 for passing its hidden cases and the rest for writing it by hand once they pass.
def parts(exercise: dict) -> list[dict]:
    """An exercise's parts, each ``{"part": what, "points": n}`` (n ≥ 0), as the course file says, else by kind.

    A number or a letter has one part; a function has one or two: passing its hidden cases, and (given
    only with the first) writing it by hand with numpy and math only.
    """
    listed = exercise.get("parts")
    if listed is None:
        total = exercise.get("points", 2 if exercise["kind"] == "function" else 1)
        if exercise["kind"] != "function":
            return [{"part": "the answer", "points": total}]
        return [{"part": "passing its hidden cases", "points": min(1, total)},
                {"part": "writing it by hand (numpy and math only) once they pass", "points": max(0, total - 1)}]
    allowed = 2 if exercise["kind"] == "function" else 1
    if not isinstance(listed, list) or not 1 <= len(listed) <= allowed:
        raise ValueError(f"parts must be a list of 1{' or 2' * (allowed == 2)} parts for a {exercise['kind']} "
                         f"exercise (got {listed!r})")
    for part in listed:
        value = part.get("points") if isinstance(part, dict) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or value != value:
            raise ValueError(f"each part's points must be a number ≥ 0 (got {part!r})")
    if "points" in exercise and exercise["points"] != sum(p["points"] for p in listed):
        raise ValueError(f"points must be the sum of the parts' points ({sum(p['points'] for p in listed)}), "
                         f"got {exercise['points']!r}: change the parts")
    return [dict(part) for part in listed]


def points(exercise: dict) -> float:
    """An exercise's points: the sum of its parts' (see :func:`parts`)."""
    return whole(part["points"] for part in parts(exercise))


def params_for(manifest: dict, student: str | None, chapter: str, exercise: dict) -> dict:
    """The numbers ``student`` was asked ``exercise`` at: theirs with a roster; with public variants and no
    roster, drawn from ``student`` (their email) and the course's salt; else the class's."""
    students = manifest.get("students")
    if students is not None:
        return dict(students[student]["params"][chapter][exercise["name"]])
    if manifest.get("public"):
        from ..exercises.variants import email_key, variant
        return variant(manifest["public"]["salt"], email_key(student or ""), chapter, exercise["checker"],
                       exercise.get("avoid", ()))
    return dict(exercise.get("params", {}))


def possible(manifest: dict, chapter: str) -> int:
    """The points a chapter's homework is out of."""
    return sum(points(e) for e in manifest["chapters"][chapter].get("exercises", []))


def exercise(entry: dict, params: dict | None = None) -> Exercise:
    """A course file's exercise ``entry`` asked at ``params`` (its own numbers when None), with its parts."""
    return Exercise(entry["name"], entry["kind"], entry["answer"], entry["checker"],
                    dict(entry.get("params", {}) if params is None else params), tuple(parts(entry)))


def title(manifest: dict, chapter: str) -> str:
    """The assignment's title in an LMS: the course file's ``title`` for the chapter, else ``Homework NN``."""
    return manifest["chapters"][chapter].get("title") or f"Homework {chapter[:2]}"


def columns(manifest: dict, chapters=None) -> list[str]:
    """The gradebook's question columns, ``<chapter>:<exercise>``, in the manifest's order (of ``chapters`` only)."""
    return [f"{chapter}:{exercise['name']}" for chapter, entry in manifest["chapters"].items()
            if chapters is None or chapter in chapters for exercise in entry.get("exercises", [])]


def homework(manifest: dict, chapter: str, student: str | None = None) -> Assignment:
    """``chapter``'s homework as ``student`` is asked it: each exercise at their numbers (:func:`params_for`;
    the course file's own without a student), with its parts (:func:`parts`); with a roster, also the numbers
    of every other student on it (``classmates``: whose numbers a notebook holds)."""
    listed = manifest["chapters"][chapter].get("exercises", [])

    def asked(who: str | None) -> Assignment:
        return Assignment(chapter, tuple(exercise(e, params_for(manifest, who, chapter, e) if who is not None else None)
                                       for e in listed))

    mine = asked(student)
    students = manifest.get("students")
    if student is None or students is None:
        return mine
    return replace(mine, classmates={sid: asked(sid).numbers for sid in students if sid != student})
