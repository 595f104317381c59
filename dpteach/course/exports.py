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
from collections.abc import Sequence
from pathlib import Path


def title(manifest: dict, chapter: str) -> str:
    """The assignment's title in an LMS: the course file's ``title`` for the chapter, else ``Homework NN``."""
    return manifest["chapters"][chapter].get("title") or f"Homework {chapter[:2]}"


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


def canvas_csv(path: Path, rows: Sequence[dict], manifest: dict, chapter: str) -> Path:
    """``path``: the assignment in Canvas's gradebook-import format (see the module's docstring)."""
    from .manifest import possible
    roster = manifest.get("students")
    totals = _totals(rows)
    students = list(roster) if roster is not None else sorted(totals)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title(manifest, chapter)])
        writer.writerow(["Points Possible", "", "", "", "", _number(possible(manifest, chapter))])
        for sid in students:
            person = (roster or {}).get(sid, {})
            writer.writerow([safe(cell) for cell in (person.get("name") or sid, sid, person.get("sis_id", ""),
                                                      person.get("login", ""), person.get("section", ""),
                                                      _number(totals.get(sid, 0)))])
    return path


def moodle_csv(path: Path, rows: Sequence[dict], manifest: dict, chapter: str) -> Path:
    """``path``: the assignment for Moodle's CSV grade import (see the module's docstring); without a roster,
    the students' ids stand in the ``ID number`` column."""
    from .manifest import possible
    roster = manifest.get("students")
    totals = _totals(rows)
    maximum = possible(manifest, chapter)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Email address", "ID number", "Full name", title(manifest, chapter)])
        for sid in (list(roster) if roster is not None else sorted(totals)):
            person = (roster or {}).get(sid, {})
            grade = min(max(totals.get(sid, 0), 0), maximum)
            writer.writerow([safe(cell) for cell in (person.get("email", ""), person.get("sis_id") or sid,
                                                      person.get("name", ""), _number(grade))])
    return path


def write_exports(out: Path, chapter: str, rows: Sequence[dict], manifest: dict) -> list[Path]:
    """``canvas-<chapter>.csv`` and ``moodle-<chapter>.csv`` in ``out``."""
    return [canvas_csv(out / f"canvas-{chapter}.csv", rows, manifest, chapter),
            moodle_csv(out / f"moodle-{chapter}.csv", rows, manifest, chapter)]
