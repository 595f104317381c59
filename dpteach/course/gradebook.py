"""What grading writes: ``gradebook.csv`` (a row per student), ``feedback/<id>.html`` and ``.json`` (what each
student reads), ``report.html`` (the class: what was right, the commonest named mistakes), the terminal's summary."""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Sequence
from html import escape
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


def write_results(records: Sequence[dict], manifest: dict, out: str | Path) -> Path:
    """Merge this run into ``out``; write the gradebooks, the feedback and the report; the gradebook's path.

    ``out`` keeps every student's records in ``feedback/<id>.json``: a run replaces a student's records
    of the chapters it graded (and any unreadable one), and keeps the rest, so that grading chapter 05
    after chapter 03, or re-grading late work, loses no row. Then ``gradebook.csv`` has one row per
    student and a column per exercise of the chapters graded so far, ``gradebook-<chapter>.csv`` one
    assignment's, ``feedback/<id>.html`` the page each student reads, ``report.html`` the class's.
    """
    out = Path(out)
    feedback = out / "feedback"
    feedback.mkdir(parents=True, exist_ok=True)
    shown = relative_files([r["file"] for r in records])
    new: dict[str, list[dict]] = {}
    for record in records:
        new.setdefault(record["id"], []).append(dict(record, file=shown[record["file"]]))
    every = _stored(feedback)
    for student, items in new.items():
        chapters = {r["chapter"] for r in items} | {""}     # an unreadable notebook of before is replaced too
        every[student] = [r for r in every.get(student, []) if r["chapter"] not in chapters] + items
        name = _file_name(student)
        (feedback / f"{name}.json").write_text(json.dumps(every[student], indent=1, ensure_ascii=False), encoding="utf-8")
        (feedback / f"{name}.html").write_text(feedback_page(student, every[student]), encoding="utf-8")
    merged = [r for student in sorted(every) for r in every[student]]
    graded = [c for c in manifest["chapters"] if any(r["chapter"] == c for r in merged)]
    gradebook = _write_gradebook(out / "gradebook.csv", merged, columns(manifest, graded))
    for chapter in graded:
        _write_gradebook(out / f"gradebook-{chapter}.csv", [r for r in merged if r["chapter"] == chapter],
                         columns(manifest, [chapter]))
    (out / "report.html").write_text(class_report(merged, manifest), encoding="utf-8")
    return gradebook


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


def _write_gradebook(path: Path, records: Sequence[dict], question_columns: list[str]) -> Path:
    rows: dict[str, dict] = {}
    for record in records:
        row = rows.setdefault(record["id"], {"id": record["id"], "file": [], "chapter": [], "total": 0, "possible": 0,
                                             "status": "ok", "reason": [], "isolation": set()})
        if record["chapter"] and record["chapter"] in row["chapter"]:
            row["status"] = "error"
            row["reason"].append(f"a second notebook for {record['chapter']} ({record['file']}) was not counted")
            continue
        row["file"].append(record["file"])
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
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "file", "chapter", *question_columns, "total", "possible", "status", "isolation",
                         "reason"])
        for student in sorted(rows):
            row = rows[student]
            writer.writerow([safe(cell) for cell in (
                row["id"], ";".join(row["file"]), ";".join(c for c in row["chapter"] if c),
                *[row.get(column, 0) for column in question_columns],
                row["total"], row["possible"], row["status"], ";".join(sorted(row["isolation"])), " | ".join(row["reason"]))])
    return path


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font: 18px/1.5 system-ui, sans-serif; max-width: 50rem; margin: 1.5rem auto; padding: 0 1rem; color: #1a1a1a; }}
h1 {{ font-size: 1.6rem; }} h2 {{ font-size: 1.25rem; margin-top: 2rem; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ text-align: left; vertical-align: top; padding: .5rem; border-bottom: 1px solid #ccc; }}
.points {{ white-space: nowrap; font-weight: bold; }} .right {{ color: #1b6e20; }} .wrong {{ color: #a4161a; }}
.count {{ font-weight: normal; color: #444; }} h3 {{ font-size: 1.05rem; margin: 1.5rem 0 .25rem; }}
.note {{ background: #fff4d6; padding: .5rem .75rem; border-left: 4px solid #d9a400; }}
code {{ font-size: .95em; overflow-wrap: anywhere; }}
@media (max-width: 40rem) {{
  tr.head {{ display: none; }} tr {{ display: block; border-bottom: 1px solid #ccc; padding: .5rem 0; }}
  td {{ display: block; border: none; padding: .15rem 0; }} td.points {{ display: inline-block; margin-right: 1rem; }}
}}
</style></head><body>
<h1>{title}</h1>
{body}
</body></html>
"""


def feedback_page(student: str, records: Sequence[dict]) -> str:
    """One page a student reads (no kernel, no script): per notebook, each question's points and message,
    the cells that raised, why anything scored 0. Every text from a submission is escaped."""
    body = []
    for record in records:
        chapter = record.get("chapter") or "(chapter not known)"
        body.append(f"<h2>{escape(chapter)}: {record['total']} / {record['possible']} points</h2>")
        body.append(f"<p>File: <code>{escape(str(record.get('file', '')))}</code></p>")
        if record.get("reason"):
            body.append(f'<p class="note">{escape(record["reason"])}</p>')
        if record.get("questions"):
            body.append('<table><tr class="head"><th>exercise</th><th>points</th><th>what the checker says</th></tr>')
            for question in record["questions"]:
                kind = "right" if question["points"] == question["possible"] else "wrong"
                said = escape(str(question.get("message", "")))
                if question.get("strict") and question.get("correct") is True:   # the hand point counts only then
                    said += "<br>" + escape(str(question["strict"]))
                body.append(f'<tr><td class="points">{escape(str(question["exercise"]).replace("_", " ").capitalize())}</td>'
                            f'<td class="points {kind}">{question["points"]} / {question["possible"]}</td><td>{said}</td></tr>')
            body.append("</table>")
        for cell in record.get("cells", []):
            body.append(f"<p>Cell {cell['cell']} raised: <code>{escape(str(cell['error']))}</code></p>")
    return _PAGE.format(title=escape(f"Feedback for {student}"), body="\n".join(body))


def _gist(message: str) -> str:
    """A message with its numbers left out: one named mistake, whatever case or value it was seen with."""
    return re.sub(r"−?-?\d[\d.,·⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*", "…", message).strip()[:200]


def class_report(records: Sequence[dict], manifest: dict) -> str:
    """A page for the instructor: per exercise, how many got it right, and the most common named mistakes
    with their counts (what to teach again), with a bar per exercise (inline SVG: no script, no network)."""
    body = []
    for chapter, entry in manifest["chapters"].items():
        graded = [r for r in records if r.get("chapter") == chapter]
        if not graded:
            continue
        readable = [r for r in graded if r.get("questions")]
        body.append(f"<h2>{escape(chapter)}: {len(graded)} notebooks, {len(readable)} graded</h2>")
        for exercise in entry.get("exercises", []):
            answers = [q for r in readable for q in r["questions"] if q["exercise"] == exercise["name"]]
            right = sum(q["points"] == q["possible"] for q in answers)
            blank = sum(q.get("correct") is None for q in answers)
            share = right / len(answers) if answers else 0.0
            title = exercise["name"].replace("_", " ").capitalize()
            body.append(f'<h3>{escape(title)} <span class="count">{right} of {len(answers)} right ({share:.0%}), '
                        f'{blank} not answered</span></h3>')
            body.append(f'<svg width="100%" height="18" viewBox="0 0 100 6" preserveAspectRatio="none" role="img" '
                        f'aria-label="{share:.0%} right"><rect width="100" height="6" fill="#e6e6e6"/>'
                        f'<rect width="{100 * share:.2f}" height="6" fill="#1b6e20"/></svg>')
            mistakes: dict[str, list] = {}
            for q in answers:
                if q.get("correct") is False and q.get("message"):
                    mistakes.setdefault(_gist(q["message"]), []).append(q["message"])
            if mistakes:
                body.append("<table><tr class=\"head\"><th>students</th><th>what the checker said (an example)</th></tr>")
                for seen in sorted(mistakes.values(), key=lambda seen: (-len(seen), seen[0]))[:5]:
                    body.append(f'<tr><td class="points">{len(seen)}</td><td>{escape(seen[0])}</td></tr>')
                body.append("</table>")
    unreadable = [r for r in records if not r.get("questions")]
    if unreadable:
        body.append(f"<h2>Not graded: {len(unreadable)}</h2><ul>" + "".join(
            f"<li>{escape(r['id'])}: {escape(r['reason'])}</li>" for r in sorted(unreadable, key=lambda r: r["id"])) + "</ul>")
    return _PAGE.format(title="The class: what was right, what to teach again", body="\n".join(body))


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
