"""What grading writes: ``gradebook.csv`` (a row per student), ``feedback/<id>.json``, the terminal's summary."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Sequence
from pathlib import Path

#: What a spreadsheet reads as the start of a formula in a cell (OWASP, "CSV injection").
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def safe(value):
    """A gradebook cell: text that a spreadsheet would run as a formula gets a leading ``'``; numbers as they are."""
    if isinstance(value, str) and value.startswith(FORMULA):
        return "'" + value
    return value


def relative_files(files: Sequence[str]) -> dict[str, str]:
    """Each submission's path from the folder that holds them all (``ada.ipynb``, ``bob/05_….ipynb``)."""
    import os
    if not files:
        return {}
    absolute = {f: os.path.abspath(f) for f in files}
    parents = [os.path.dirname(a) for a in absolute.values()]
    top = os.path.commonpath(parents) if len(set(parents)) > 1 else parents[0]
    return {f: os.path.relpath(a, top) for f, a in absolute.items()}


def columns(manifest: dict) -> list[str]:
    """The gradebook's question columns, ``<chapter>:<exercise>``, in the manifest's order."""
    return [f"{chapter}:{exercise['name']}" for chapter, entry in manifest["chapters"].items()
            for exercise in entry.get("exercises", [])]


def write_results(records: Sequence[dict], manifest: dict, out: str | Path) -> Path:
    """``gradebook.csv`` (one row per student) and ``feedback/<id>.json``; the gradebook's path."""
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict] = {}
    shown = relative_files([r["file"] for r in records])
    for record in records:
        row = rows.setdefault(record["id"], {"id": record["id"], "file": [], "chapter": [], "total": 0, "possible": 0,
                                             "status": "ok", "reason": [], "isolation": set()})
        if record["chapter"] and record["chapter"] in row["chapter"]:
            row["status"] = "error"
            row["reason"].append(f"a second notebook for {record['chapter']} ({shown[record['file']]}) was not counted")
            continue
        row["file"].append(shown[record["file"]])
        row["chapter"].append(record["chapter"])
        row["total"] += record["total"]
        row["possible"] += record["possible"]
        if record.get("isolation"):
            row["isolation"].add(record["isolation"])
        if record["status"] != "ok":
            row["status"] = "error"
        if record["reason"]:
            row["reason"].append(record["reason"])
        for question in record["questions"]:
            row[f"{record['chapter']}:{question['exercise']}"] = question["points"]
    question_columns = columns(manifest)
    gradebook = out / "gradebook.csv"
    with open(gradebook, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "file", "chapter", *question_columns, "total", "possible", "status", "isolation",
                         "reason"])
        for student in sorted(rows):
            row = rows[student]
            writer.writerow([safe(cell) for cell in (
                row["id"], ";".join(row["file"]), ";".join(c for c in row["chapter"] if c),
                *[row.get(column, 0) for column in question_columns],
                row["total"], row["possible"], row["status"], ";".join(sorted(row["isolation"])), " | ".join(row["reason"]))])
    by_student: dict[str, list[dict]] = {}
    for record in records:
        by_student.setdefault(record["id"], []).append(dict(record, file=shown[record["file"]]))
    for student, items in by_student.items():
        name = re.sub(r"[^\w.-]", "_", student) or "_"
        (out / "feedback" / f"{name}.json").write_text(json.dumps(items, indent=1, ensure_ascii=False), encoding="utf-8")
    return gradebook


def summary(records: Sequence[dict], seconds: float) -> str:
    """A short table for the terminal."""
    width = max([len(r["id"]) for r in records] + [7])
    lines = [f"{'student':<{width}}  {'chapter':<28} {'points':>7}  status  reason", "-" * (width + 60)]
    for r in sorted(records, key=lambda r: r["id"]):
        reason = r["reason"] if len(r["reason"]) <= 70 else r["reason"][:67] + "..."
        lines.append(f"{r['id']:<{width}}  {r['chapter'][:28]:<28} {r['total']:>3}/{r['possible']:<3}  {r['status']:<6}  {reason}")
    errors = sum(r["status"] != "ok" for r in records)
    isolations = {r.get("isolation") for r in records if r.get("isolation")}
    where = ("each in a bubblewrap sandbox" if isolations == {"bubblewrap"} else
             "WITHOUT A SANDBOX (--unsafe: only for files you trust)" if isolations == {"none"} else
             f"isolation: {', '.join(sorted(isolations)) or 'none ran'}")
    lines.append(f"{len(records)} notebooks graded in {seconds:.1f} s ({seconds / max(1, len(records)):.2f} s each), "
                 f"{where}; {errors} could not be graded (0 points, reason above)")
    return "\n".join(lines)
