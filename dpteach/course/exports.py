"""An assignment's grades as the LMSs import them: Canvas's gradebook CSV and Moodle's grade import.

**Canvas** (Grades ▸ Import; the format of Canvas's own gradebook export, which its importer reads): the
columns ``Student, ID, SIS User ID, SIS Login ID, Section``, then one column per assignment; a second row
whose first cell is ``Points Possible`` gives the assignment's maximum. Canvas matches a row's student by
``ID`` (its own user id, the number in its bulk-download names and in its gradebook export, which is
what a roster exported from Canvas holds), then the SIS ids; an assignment column whose title matches
none of the course's becomes a new assignment. The column is the chapter's ``title`` in the course file
(``Homework 03: The Laplace mechanism`` by default): give it the assignment's exact Canvas name to fill
an existing one.

**Moodle** (Grades ▸ Import ▸ CSV file): one column to identify the user (map ``Email address`` to
"useremail", or ``ID number`` to "useridnumber"), and the grade column mapped to the grade item. Moodle
refuses the whole file for an unknown user, a grade that is not a number, or one above the item's
maximum, so the file holds roster students only, every grade a number between 0 and the assignment's
points.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from .store import CHANGE_COLUMNS, CHANGES

#: What a spreadsheet reads as the start of a formula in a cell (OWASP, "CSV injection").
FORMULA = ("=", "+", "-", "@", "\t", "\r")
#: Where a spreadsheet may split a cell into several (``,`` ``;`` or a tab, whichever separator it guesses):
#: OWASP's rule escapes a formula's start after each, since a spreadsheet opening the file with ``;`` as its
#: separator makes ``Dave;=1+1;Dunn`` three cells, the second a formula.
_SEPARATOR = re.compile(r"([,;\t])")
_NUMBER = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")


def _piece(text: str) -> str:
    start = len(text) - len(text.lstrip())
    if _NUMBER.match(text) or not text[start:].startswith(FORMULA):
        return text
    return text[:start] + "'" + text[start:]


def safe(value):
    """A gradebook cell: in text, each place a spreadsheet would start a formula (``=`` ``+`` ``-`` ``@``, a tab or
    a carriage return at the cell's start or after a ``,`` ``;`` or tab, spaces allowed between) gets a ``'``
    before it, so every piece reads as text however the file is split; numbers, and text that is one number
    (``-2``), as they are."""
    if not isinstance(value, str):
        return value
    cell = "".join(piece if index % 2 else _piece(piece) for index, piece in enumerate(_SEPARATOR.split(value)))
    return "'" + cell if cell.startswith(("\t", "\r")) else cell


def _totals(rows: Sequence[dict]) -> dict[str, float]:
    """Each student's points for the assignment (a second notebook of the same student does not count)."""
    totals: dict[str, float] = {}
    for record in rows:
        totals.setdefault(record["id"], record["total"])
    return totals


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def canvas_csv(path: Path, rows: Sequence[dict], roster: Mapping | None, title: str, possible: float) -> Path:
    """``path``: the assignment ``title`` (out of ``possible``) in Canvas's gradebook-import format (see the
    module's docstring)."""
    totals = _totals(rows)
    students = list(roster) if roster is not None else sorted(totals)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title])
        writer.writerow(["Points Possible", "", "", "", "", _number(possible)])
        for sid in students:
            person = (roster or {}).get(sid, {})
            writer.writerow([safe(cell) for cell in (person.get("name") or sid, sid, person.get("sis_id", ""),
                                                      person.get("login", ""), person.get("section", ""),
                                                      _number(totals.get(sid, 0)))])
    return path


def moodle_csv(path: Path, rows: Sequence[dict], roster: Mapping | None, title: str, possible: float) -> Path:
    """``path``: the assignment ``title`` (out of ``possible``) for Moodle's CSV grade import (see the module's
    docstring); without a roster, the students' ids stand in the ``ID number`` column."""
    totals = _totals(rows)
    maximum = possible
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Email address", "ID number", "Full name", title])
        for sid in (list(roster) if roster is not None else sorted(totals)):
            person = (roster or {}).get(sid, {})
            grade = min(max(totals.get(sid, 0), 0), maximum)
            writer.writerow([safe(cell) for cell in (person.get("email", ""), person.get("sis_id") or sid,
                                                      person.get("name", ""), _number(grade))])
    return path


def _gradebook_csv(path: Path, records: Sequence[dict], question_columns: list[str], roster: dict | None) -> Path:
    rows: dict[str, dict] = {}
    for record in records:
        row = rows.setdefault(record["id"], {"id": record["id"], "file": [], "chapter": [], "total": 0, "possible": 0,
                                             "status": "ok", "reason": [], "isolation": set(), "late": False,
                                             "flags": []})
        if record["chapter"] and record["chapter"] in row["chapter"]:
            row["status"] = "error"
            row["reason"].append(f"a second notebook for {record['chapter']} ({record['file']}) was not counted")
            continue
        row["file"].append(record["file"])
        row["chapter"].append(record["chapter"])
        row["total"] += record["total"]
        row["possible"] += record["possible"]
        row["late"] = row["late"] or bool(record.get("late"))
        row["flags"] += record.get("flags", [])
        if record.get("isolation"):
            row["isolation"].add(record["isolation"])
        if record["status"] == "error" or (record["status"] == "missing" and row["status"] == "ok"):
            row["status"] = record["status"]
        if record["reason"]:
            row["reason"].append(record["reason"])
        for question in record["questions"]:
            row[f"{record['chapter']}:{question['exercise']}"] = question["points"]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "name", "email", "file", "chapter", *question_columns, "total", "possible", "late", "flag",
                         "status", "isolation", "reason"])
        for student in sorted(rows):
            row = rows[student]
            person = (roster or {}).get(student, {})
            writer.writerow([safe(cell) for cell in (
                row["id"], person.get("name", ""), person.get("email", ""), ";".join(f for f in row["file"] if f),
                ";".join(c for c in row["chapter"] if c), *[row.get(column, 0) for column in question_columns],
                row["total"], row["possible"], "late" if row["late"] else "", " | ".join(row["flags"]), row["status"],
                ";".join(sorted(row["isolation"])), " | ".join(row["reason"]))])
    return path




def _log(path: Path, events: Sequence[Sequence]) -> list[dict]:
    """Append ``events`` to the log at ``path`` (``replacements.csv``); every row it holds, as dicts."""
    if events:
        fresh = not path.exists()
        with open(path, "a", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            if fresh:
                writer.writerow(CHANGE_COLUMNS)
            writer.writerows([[safe(cell) for cell in event] for event in events])
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_tables(out: Path, records: Sequence[dict], unmatched: Sequence[dict], events: Sequence[Sequence],
                 columns: Mapping[str, list[str]], roster: Mapping | None, possible: Mapping[str, float],
                 titles: Mapping[str, str]) -> tuple[Path, list[dict]]:
    """Every table of a run in ``out``: ``gradebook.csv`` (``records``' rows, a column per exercise of the chapters
    in ``columns``), and per chapter ``gradebook-<chapter>.csv``, ``canvas-<chapter>.csv`` and
    ``moodle-<chapter>.csv``; ``unmatched.csv``; ``events`` appended to ``replacements.csv``. Returns the
    gradebook's path and every row of ``replacements.csv``."""
    gradebook = _gradebook_csv(out / "gradebook.csv", records, [c for cs in columns.values() for c in cs], roster)
    for chapter, names in columns.items():
        rows = [r for r in records if r["chapter"] == chapter]
        _gradebook_csv(out / f"gradebook-{chapter}.csv", rows, names, roster)
        canvas_csv(out / f"canvas-{chapter}.csv", rows, roster, titles[chapter], possible[chapter])
        moodle_csv(out / f"moodle-{chapter}.csv", rows, roster, titles[chapter], possible[chapter])
    with open(out / "unmatched.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "id from its name", "chapter", "reason"])
        for record in unmatched:
            writer.writerow([safe(record["file"]), safe(record["id"]), record["chapter"], safe(record["reason"])])
    return gradebook, _log(out / CHANGES, events)
