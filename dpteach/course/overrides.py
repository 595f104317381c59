"""An instructor's overrides: a CSV of changes to points (``id,chapter,exercise,points,reason``), every row
checked against the course before anything is graded; :mod:`dpteach.course.gradebook` applies them whenever it
writes the gradebook, never to the stored records."""

from __future__ import annotations

import csv
from pathlib import Path

from .manifest import points as exercise_points
from .model import whole

__all__ = ["load_overrides", "read_overrides"]


def read_overrides(path: str | Path, manifest: dict) -> dict[tuple[str, str, str], tuple[float, str]]:
    """An overrides CSV: ``(id, chapter, exercise) → (points, reason)``, every row checked.

    Columns ``id, chapter, exercise, points, reason``; ``chapter`` as its number (``03``) or name,
    ``exercise`` as its number (``2``) or name (``exercise_2``); ``points`` from 0 to the exercise's
    points (an LMS refuses more than an assignment's maximum); ``reason`` is shown to the student.
    """
    path = Path(path)
    try:
        rows = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"overrides {path} cannot be read: {error}") from None
    needed = {"id", "chapter", "exercise", "points", "reason"}
    if rows and not needed <= set(rows[0]):
        raise ValueError(f"overrides {path} must have the columns {sorted(needed)} (got {sorted(rows[0])})")
    students = manifest.get("students")
    found = {}
    for number, row in enumerate(rows, start=2):
        where = f"overrides {path}, row {number}"
        chapter = next((c for c in manifest["chapters"] if c == row["chapter"].strip()
                        or c[:2] == row["chapter"].strip().zfill(2)), None)
        if chapter is None:
            raise ValueError(f"{where}: chapter must be one of the course's ({', '.join(manifest['chapters'])}), "
                             f"got {row['chapter']!r}")
        name = row["exercise"].strip()
        name = name if name.startswith("exercise_") else f"exercise_{name}"
        exercise = next((e for e in manifest["chapters"][chapter]["exercises"] if e["name"] == name), None)
        if exercise is None:
            raise ValueError(f"{where}: exercise must be one of {chapter}'s, like 2 or exercise_2 (got {row['exercise']!r})")
        sid = row["id"].strip()
        if students is not None and sid not in students:
            raise ValueError(f"{where}: id must be a student on the roster (got {sid!r})")
        try:
            value = float(row["points"])
        except ValueError:
            raise ValueError(f"{where}: points must be a number (got {row['points']!r})") from None
        possible = exercise_points(exercise)
        if not 0 <= value <= possible:
            raise ValueError(f"{where}: points must be in [0, {possible}] for {chapter} {name} (got {row['points']!r})")
        found[(sid, chapter, name)] = (whole(value), row["reason"].strip())
    return found


def load_overrides(path: str | None, course: str | Path, manifest: dict) -> dict:
    """The instructor's overrides: from ``path``, else ``overrides.csv`` beside the course file if it exists."""
    default = Path(course).parent / "overrides.csv"
    if path is None and not default.exists():
        return {}
    return read_overrides(path or default, manifest)
