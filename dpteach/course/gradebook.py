"""What grading writes for the record: the gradebooks, each student's records, the exports an LMS imports.

In ``--out`` (``build/graded/``):

* ``feedback/<id>.json``: every record of a student so far (a run replaces the chapters it grades, so
  assignments and re-graded work merge without losing a row, each replacement logged), and
  ``feedback/<id>.html``, the page the student reads (:mod:`dpteach.course.pages`);
* ``gradebook.csv``: a row per student (with a roster: every student on it, a missing notebook 0 with its
  reason), a column per exercise of the chapters graded so far; ``gradebook-<chapter>.csv``: one
  assignment's;
* ``canvas-<chapter>.csv`` and ``moodle-<chapter>.csv``: the assignment's totals as Canvas's and Moodle's
  gradebook imports read them (:mod:`dpteach.course.exports`);
* ``report.html``: the class at a glance; ``unmatched.csv``: this run's files that match no rule or no student;
  ``replacements.csv``: every stored record a run replaced, or kept because the new one may not replace it
  (:func:`dpteach.course.store.refusal`: never an on-time grade by a late one or by another chapter's notebook).

Every cell a spreadsheet would run as a formula is escaped. An instructor's changes go in an overrides
file (``id,chapter,exercise,points,reason``; :func:`dpteach.course.overrides.read_overrides`), applied whenever the gradebook is
written, never to the stored records: ``dpteach gradebook`` writes it again from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from .exports import write_tables
from .manifest import columns, possible, title
from .model import Record
from .pages import write_pages
from .store import keep

__all__ = ["write_results"]


def write_results(records: Sequence[Record | Mapping], manifest: dict, out: str | Path,
                  overrides: dict | None = None) -> Path:
    """Merge this run into ``out`` and write everything (see the module's docstring); the gradebook's path.

    ``records`` are :class:`dpteach.course.model.Record` objects (or their JSON, as ``feedback/<id>.json`` stores
    them). Those of status ``unmatched`` (files that match no rule, or no student on the roster) go to
    ``unmatched.csv`` and the report, never into a row. A record replaces its student's stored record of the
    same chapter unless :func:`dpteach.course.store.refusal` says why not; each replacement and refusal is
    appended to ``replacements.csv`` and listed in the report. ``records`` may be empty: the gradebook is then
    written again from the stored records (with ``overrides``, applied to what is shown, never to what is stored).
    """
    out = Path(out)
    kept = keep(records, out)
    graded = [c for c in manifest["chapters"] if any(r["chapter"] == c for items in kept.every.values() for r in items)]
    roster = manifest.get("students")
    chapters = {"possible": {c: possible(manifest, c) for c in graded}, "title": {c: title(manifest, c) for c in
                manifest["chapters"]}, "columns": {c: columns(manifest, [c]) for c in graded}}
    every = {student: list(items) for student, items in kept.every.items()}
    for student in roster or ():     # with a roster, every student has a row: a missing notebook scores 0
        have = {r["chapter"] for r in every.get(student, [])}
        every[student] = every.get(student, []) + [
            Record(id=student, chapter=c, status="missing", reason=f"no notebook for {c}",
                   possible=chapters["possible"][c]).to_json() for c in graded if c not in have]
    shown = {student: [Record.from_json(r).overridden(overrides or {}).to_json() for r in items]
             for student, items in every.items()}
    merged = [r for student in sorted(shown) for r in shown[student]]
    gradebook, changes = write_tables(out, merged, kept.unmatched, kept.events, chapters["columns"], roster,
                                      chapters["possible"], chapters["title"])
    pages = [s for s in shown if kept.new.get(s) or (roster is not None and s in roster) or overrides]
    write_pages(out, shown, pages, {s: r.get("name", "") for s, r in (roster or {}).items()}, merged, manifest,
                kept.unmatched, changes, chapters["title"])
    return gradebook
