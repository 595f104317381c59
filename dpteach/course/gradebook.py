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
  (:func:`refusal`: never an on-time grade by a late one or by another chapter's notebook).

Every cell a spreadsheet would run as a formula is escaped. An instructor's changes go in an overrides
file (``id,chapter,exercise,points,reason``; :func:`read_overrides`), applied whenever the gradebook is
written, never to the stored records: ``python -m dpteach.course gradebook`` writes it again from them.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from .exports import safe, title, write_exports
from .manifest import points as exercise_points
from .model import Record, whole
from .pages import class_report, feedback_page


def relative_files(files: Sequence[str]) -> dict[str, str]:
    """Each submission's path from the folder that holds them all (``ada.ipynb``, ``bob/05_….ipynb``)."""
    if not files:
        return {}
    absolute = {f: os.path.abspath(f) for f in files}
    parents = [os.path.dirname(a) for a in absolute.values()]
    top = os.path.commonpath(parents) if len(set(parents)) > 1 else parents[0]
    return {f: os.path.relpath(a, top) for f, a in absolute.items()}


def columns(manifest: dict, chapters=None) -> list[str]:
    """The gradebook's question columns, ``<chapter>:<exercise>``, in the manifest's order (of ``chapters`` only)."""
    return [f"{chapter}:{exercise['name']}" for chapter, entry in manifest["chapters"].items()
            if chapters is None or chapter in chapters for exercise in entry.get("exercises", [])]


# -- an instructor's overrides -----------------------------------------------------------------------

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


def _overridden(record: dict, overrides: dict) -> dict:
    mine = {name: change for (sid, chapter, name), change in overrides.items()
            if sid == record["id"] and chapter == record.get("chapter")}
    if not mine or not record.get("questions"):
        return record
    record = dict(record, questions=[dict(q) for q in record["questions"]])
    for question in record["questions"]:
        if question["exercise"] in mine:
            question["points"], question["override"] = mine[question["exercise"]][0], mine[question["exercise"]][1] or "-"
    record["total"] = whole(q["points"] for q in record["questions"])
    return record


# -- writing a run -------------------------------------------------------------------------------------

def _file_name(student: str) -> str:
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


def _missing(student: str, chapter: str, manifest: dict) -> dict:
    from .manifest import possible
    return Record(id=student, chapter=chapter, status="missing", reason=f"no notebook for {chapter}",
                  possible=possible(manifest, chapter)).to_json()


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


def _log(path: Path, events: list[list]) -> list[dict]:
    """Append ``events`` to the log at ``path``; every row it holds, as dicts."""
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


def write_results(records: Sequence[Record | Mapping], manifest: dict, out: str | Path,
                  overrides: dict | None = None) -> Path:
    """Merge this run into ``out`` and write everything (see the module's docstring); the gradebook's path.

    ``records`` are :class:`dpteach.course.model.Record` objects (or their JSON, as ``feedback/<id>.json`` stores them).
    ``records`` of status ``unmatched`` (files that match no rule, or no student on the roster) go to
    ``unmatched.csv`` and the report, never into a row. A record replaces its student's stored record of the
    same chapter unless :func:`refusal` says why not; each replacement and refusal is appended to
    ``replacements.csv`` and listed in the report. ``records`` may be empty: the gradebook is then written
    again from the stored records (with ``overrides``).
    """
    import datetime
    records = [(r if isinstance(r, Record) else Record.from_json(r)).to_json() for r in records]   # as stored
    out = Path(out)
    feedback = out / "feedback"
    feedback.mkdir(parents=True, exist_ok=True)
    shown = relative_files([r["file"] for r in records])
    matched = [dict(r, file=shown[r["file"]]) for r in records if r["status"] != "unmatched"]
    unmatched = [dict(r, file=shown[r["file"]]) for r in records if r["status"] == "unmatched"]
    every = _stored(feedback)
    new: dict[str, list[dict]] = {}
    for record in matched:
        new.setdefault(record["id"], []).append(record)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    events = []
    for student, items in new.items():
        every[student], changed = _merge(every.get(student, []), items, when)
        events += changed
        (feedback / f"{_file_name(student)}.json").write_text(json.dumps(every[student], indent=1, ensure_ascii=False),
                                                              encoding="utf-8")
    changes = _log(out / CHANGES, events)
    stored = [r for student in sorted(every) for r in every[student]]
    graded = [c for c in manifest["chapters"] if any(r["chapter"] == c for r in stored)]
    roster = manifest.get("students")
    if roster is not None:
        for student in roster:
            have = {r["chapter"] for r in every.get(student, [])}
            every.setdefault(student, [])
            every[student] = every[student] + [_missing(student, c, manifest) for c in graded if c not in have]
    titles = {chapter: title(manifest, chapter) for chapter in manifest["chapters"]}
    shown_records = {student: [_overridden(r, overrides or {}) for r in items] for student, items in every.items()}
    for student, items in shown_records.items():
        if new.get(student) or (roster is not None and student in roster) or overrides:
            name = (roster or {}).get(student, {}).get("name", "")
            (feedback / f"{_file_name(student)}.html").write_text(feedback_page(student, items, name, titles),
                                                                  encoding="utf-8")
    merged = [r for student in sorted(shown_records) for r in shown_records[student]]
    gradebook = _write_gradebook(out / "gradebook.csv", merged, columns(manifest, graded), roster)
    for chapter in graded:
        rows = [r for r in merged if r["chapter"] == chapter]
        _write_gradebook(out / f"gradebook-{chapter}.csv", rows, columns(manifest, [chapter]), roster)
        write_exports(out, chapter, rows, manifest)
    with open(out / "unmatched.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "id from its name", "chapter", "reason"])
        for record in unmatched:
            writer.writerow([safe(record["file"]), safe(record["id"]), record["chapter"], safe(record["reason"])])
    (out / "report.html").write_text(class_report(merged, manifest, unmatched, changes), encoding="utf-8")
    return gradebook


def _write_gradebook(path: Path, records: Sequence[dict], question_columns: list[str], roster: dict | None) -> Path:
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


def printable(text) -> str:
    """``text`` for a terminal: each character a terminal would act on (an escape code's ESC, a carriage return,
    a bidirectional override) written as a Python string writes it (``\\x1b``), the rest as it is."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def summary(records: Sequence[Record], seconds: float) -> str:
    """A short table for the terminal, every text from a submission :func:`printable`."""
    width = max([len(r.id) for r in records] + [7])
    lines = [f"{'student':<{width}}  {'chapter':<28} {'points':>7}  status  reason", "-" * (width + 60)]
    for r in sorted(records, key=lambda r: r.id):
        reason = "; ".join(([r.reason] if r.reason else []) + list(r.flags))
        reason = reason if len(reason) <= 70 else reason[:67] + "..."
        lines.append(printable(f"{r.id:<{width}}  {r.chapter[:28]:<28} {r.total:>3}/{r.possible:<3}  "
                               f"{r.status:<6}  {reason}"))
    errors = sum(r.status == "error" for r in records)
    unmatched = sum(r.status == "unmatched" for r in records)
    flagged = sum(bool(r.flags) for r in records)
    isolations = {r.isolation for r in records if r.isolation}
    where = ("each in a bubblewrap sandbox" if isolations == {"bubblewrap"} else
             "WITHOUT A SANDBOX (--unsafe: only for files you trust)" if isolations == {"none"} else
             f"isolation: {', '.join(sorted(isolations)) or 'none ran'}")
    lines.append(f"{len(records)} notebooks graded in {seconds:.1f} s ({seconds / max(1, len(records)):.2f} s each), "
                 f"{where}; {errors} could not be graded (0 points, reason above)"
                 + (f"; {flagged} flagged" if flagged else "") + (f"; {unmatched} match no student (unmatched.csv)"
                                                                    if unmatched else ""))
    return "\n".join(lines)
