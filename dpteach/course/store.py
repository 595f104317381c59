"""What a grading run keeps: each student's records across runs, merged, and every replacement logged.

``feedback/<id>.json`` in ``--out`` holds every record of a student so far (their JSON,
:meth:`dpteach.course.model.Record.to_json`): a run replaces the chapters it grades, so assignments and re-graded
work merge without losing a row; a stored grade is kept against a newer notebook where :func:`refusal` says why.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .model import Record

__all__ = ["CHANGES", "CHANGE_COLUMNS", "Kept", "file_name", "keep", "refusal", "relative_files"]


def relative_files(files: Sequence[str]) -> dict[str, str]:
    """Each submission's path from the folder that holds them all (``ada.ipynb``, ``bob/05_….ipynb``)."""
    if not files:
        return {}
    absolute = {f: os.path.abspath(f) for f in files}
    parents = [os.path.dirname(a) for a in absolute.values()]
    top = os.path.commonpath(parents) if len(set(parents)) > 1 else parents[0]
    return {f: os.path.relpath(a, top) for f, a in absolute.items()}


def file_name(student: str) -> str:
    """A student's id as a file name (``feedback/<it>.json``)."""
    return re.sub(r"[^\w.-]", "_", student) or "_"


def _stored(feedback: Path) -> dict[str, list[dict]]:
    """The records kept from earlier runs, by student (a file that is not a list of records is left out)."""
    found: dict[str, list[dict]] = {}
    for path in sorted(feedback.glob("*.json")):
        try:
            items = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(items, list) and items and all(isinstance(r, dict) and "id" in r and "chapter" in r for r in items):
            found[items[0]["id"]] = items
    return found


#: Every stored record a run replaced, or kept against a newer one, one row each (in ``--out``; runs append).
CHANGES = "replacements.csv"
CHANGE_COLUMNS = ["when", "id", "chapter", "what", "why", "before", "before file", "after", "after file"]


def refusal(old: dict, new: dict) -> str:
    """Why ``new`` may not replace ``old``, the same student's stored record of the same chapter ("" when it may):
    a grade stored on time is never replaced by a late one, nor by a notebook handed in as another chapter's
    work, nor an unflagged one by a flagged one (grading the same notebooks again replaces them)."""
    if not old.get("chapter"):        # unreadable before: any notebook of the student replaces it
        return ""
    if new.get("handed_in_as") and new.get("handed_in_as") != old.get("handed_in_as"):
        return (f"the new notebook is registered for {new['chapter']} but was handed in as {new['handed_in_as']}'s "
                "work")
    if new.get("late") and not old.get("late"):
        return "the new notebook is late and the grade stored was on time"
    if new.get("flags") and not old.get("flags"):
        return "the new notebook is flagged (" + "; ".join(new["flags"]) + ") and the one stored was not"
    return ""


def _grade(record: dict) -> str:
    status = "" if record.get("status") == "ok" else f" {record.get('status')}"
    return f"{record.get('total')}/{record.get('possible')}" + (" late" if record.get("late") else "") + status


def _merge(stored: list[dict], new: list[dict], when: str) -> tuple[list[dict], list[list]]:
    """One student's records after a run: each new record replaces their stored record of its chapter unless
    :func:`refusal` says why not; every replacement and every refusal as a row of :data:`CHANGE_COLUMNS`."""
    kept, events = list(stored), []
    for record in new:        # (two notebooks of one run for one chapter are both kept: the gradebook says so)
        same = [r for r in kept if r["chapter"] in (record["chapter"], "") and r in stored]
        refused = [(r, refusal(r, record)) for r in same if refusal(r, record)]
        for old, why in refused:
            events.append([when, record["id"], record["chapter"], "kept", "the stored grade stays: " + why,
                           _grade(old), old.get("file", ""), _grade(record), record.get("file", "")])
        if refused:
            continue
        for old in same:
            events.append([when, record["id"], record["chapter"] or old["chapter"], "replaced",
                           "graded again" if old["chapter"] else "the stored notebook was unreadable", _grade(old),
                           old.get("file", ""), _grade(record), record.get("file", "")])
        kept = [r for r in kept if r not in same] + [record]
    return kept, events


@dataclass(frozen=True)
class Kept:
    """A run merged into ``--out``: every student's records (``every``, stored and new, as JSON), this run's by
    student (``new``), its files that match no student (``unmatched``), and each replacement or refusal it made
    (``events``, rows of :data:`CHANGE_COLUMNS`, for ``replacements.csv``)."""

    every: Mapping[str, list]
    new: Mapping[str, list]
    unmatched: tuple
    events: tuple


def keep(records: Sequence[Record | Mapping], out: Path) -> Kept:
    """Merge ``records`` (:class:`dpteach.course.model.Record` objects, or their JSON as stored) into ``out``'s
    ``feedback/<id>.json`` files, each replacing its student's stored record of its chapter unless :func:`refusal`
    says why not; ``unmatched`` records (files that match no rule or no student) are kept in no file."""
    records = [(r if isinstance(r, Record) else Record.from_json(r)).to_json() for r in records]
    feedback = out / "feedback"
    feedback.mkdir(parents=True, exist_ok=True)
    shown = relative_files([r["file"] for r in records])
    every = _stored(feedback)
    new: dict[str, list[dict]] = {}
    for record in records:
        if record["status"] != "unmatched":
            new.setdefault(record["id"], []).append(dict(record, file=shown[record["file"]]))
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    events = []
    for student, items in new.items():
        every[student], changed = _merge(every.get(student, []), items, when)
        events += changed
        (feedback / f"{file_name(student)}.json").write_text(json.dumps(every[student], indent=1, ensure_ascii=False),
                                                             encoding="utf-8")
    unmatched = tuple(dict(r, file=shown[r["file"]]) for r in records if r["status"] == "unmatched")
    return Kept(every, new, unmatched, tuple(events))
